// Three stages: a load (stage 0), its square (stage 1) and a store of the square plus the
// load (stage 2). The load crosses two stages, so the kernel carries two versions of it
// (iterations i+1 and i+2) and rotates them; the square crosses one.
// RUN: ttpipe-opt %s --strip-debuginfo -p ttpipe-expand-loops | filecheck %s

module attributes {"ttg.target" = "cuda:90", "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @three_stages(
  // CHECK-SAME: %[[SRC:[^:]+]]: !tt.ptr<f32>, %[[DST:[^:]+]]: !tt.ptr<f32>, %[[N:[^:]+]]: i32
  // Prologue: iteration 0 of stage 0; then iteration 0 of stage 1 and iteration 1 of stage 0.
  // CHECK: %[[IV0:.+]] = arith.addi
  // CHECK-NEXT: %[[P0:.+]] = arith.cmpi slt, %[[IV0]], %[[N]] : i32
  // CHECK-NEXT: %[[PTR0:.+]] = tt.addptr %[[SRC]], %[[IV0]]
  // CHECK-NEXT: %[[V0:.+]] = tt.load %[[PTR0]], %[[P0]]
  // CHECK: %[[IV1:.+]] = arith.addi
  // CHECK-NEXT: %[[P1:.+]] = arith.cmpi slt, %[[IV1]], %[[N]] : i32
  // CHECK-NEXT: %[[SQ0:.+]] = arith.mulf %[[V0]], %[[V0]] : f32
  // CHECK-NEXT: %[[PTR1:.+]] = tt.addptr %[[SRC]], %[[IV1]]
  // CHECK-NEXT: %[[V1:.+]] = tt.load %[[PTR1]], %[[P1]]
  // Kernel: the square crosses one stage (one iter arg), the load two (two rotating ones).
  // CHECK: scf.for %[[I:[^ ]+]] = %{{.+}} to %[[N]] step %{{.+}} iter_args(%[[SQ:[^ ]+]] = %[[SQ0]], %[[VI:[^ ]+]] = %[[V0]], %[[VNEXT:[^ ]+]] = %[[V1]]) -> (f32, f32, f32)
  // CHECK: %[[LAST0:.+]] = arith.subi %[[N]], %{{.+}} : i32
  // CHECK-NEXT: %[[STAGE0:.+]] = arith.cmpi slt, %[[I]], %[[LAST0]] : i32
  // CHECK: %[[SUM:.+]] = arith.addf %[[SQ]], %[[VI]] : f32
  // CHECK: %[[OUT:.+]] = tt.addptr %[[DST]], %{{.+}}
  // CHECK-NEXT: tt.store %[[OUT]], %[[SUM]] : !tt.ptr<f32>
  // CHECK-NEXT: %[[SQNEXT:.+]] = arith.mulf %[[VNEXT]], %[[VNEXT]] : f32
  // CHECK: %[[I2:.+]] = arith.addi %[[I]], %{{.+}} : i32
  // CHECK-NEXT: %[[PTR:.+]] = tt.addptr %[[SRC]], %[[I2]]
  // CHECK-NEXT: %[[LOAD:.+]] = tt.load %[[PTR]], %[[STAGE0]] : !tt.ptr<f32>
  // CHECK-NEXT: scf.yield %[[SQNEXT]], %[[VNEXT]], %[[LOAD]] : f32, f32, f32
  // CHECK-NOT: tt.store
  // CHECK: tt.return
  tt.func @three_stages(%src: !tt.ptr<f32>, %dst: !tt.ptr<f32>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    scf.for %i = %c0 to %n step %c1 : i32 {
      %p = tt.addptr %src, %i {loop.cluster = 2 : i32, loop.stage = 0 : i32} : !tt.ptr<f32>, i32
      %v = tt.load %p {loop.cluster = 2 : i32, loop.stage = 0 : i32} : !tt.ptr<f32>
      %sq = arith.mulf %v, %v {loop.cluster = 1 : i32, loop.stage = 1 : i32} : f32
      %w = arith.addf %sq, %v {loop.cluster = 0 : i32, loop.stage = 2 : i32} : f32
      %q = tt.addptr %dst, %i {loop.cluster = 0 : i32, loop.stage = 2 : i32} : !tt.ptr<f32>, i32
      tt.store %q, %w {loop.cluster = 0 : i32, loop.stage = 2 : i32} : !tt.ptr<f32>
    } {tt.scheduled_max_stage = 2 : i32}
    tt.return
  }
}
