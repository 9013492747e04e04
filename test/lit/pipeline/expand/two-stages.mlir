// The expander alone (ttpipe-expand-loops) on a hand-scheduled loop of two stages: the load of
// iteration i+1 (stage 0) overlaps the add and store of iteration i (stage 1).
// With the prefix PRED (the default, as Triton uses it) the kernel runs the whole range and
// predicates stage 0 in its last iteration; with the prefix PEEL the kernel stops one
// iteration early and an epilogue runs the last iteration's stage 1.
// RUN: ttpipe-opt %s --strip-debuginfo -p ttpipe-expand-loops | filecheck %s --check-prefixes=CHECK,PRED
// RUN: ttpipe-opt %s --strip-debuginfo -p 'ttpipe-expand-loops{peel-epilogue=true}' | filecheck %s --check-prefixes=CHECK,PEEL

module attributes {"ttg.target" = "cuda:90", "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @two_stages(
  // CHECK-SAME: %[[SRC:[^:]+]]: !tt.ptr<f32>, %[[DST:[^:]+]]: !tt.ptr<f32>, %[[N:[^:]+]]: i32
  // CHECK-DAG: %[[C0:.+]] = arith.constant 0 : i32
  // CHECK-DAG: %[[C1:.+]] = arith.constant 1 : i32
  // Prologue: iteration 0 of stage 0, predicated on lb + 0 * step < n.
  // CHECK: %[[IV0:.+]] = arith.addi %[[C0]], %{{.+}} : i32
  // CHECK-NEXT: %[[P0:.+]] = arith.cmpi slt, %[[IV0]], %[[N]] : i32
  // CHECK-NEXT: %[[PTR0:.+]] = tt.addptr %[[SRC]], %[[IV0]]
  // CHECK-NEXT: %[[V0:.+]] = tt.load %[[PTR0]], %[[P0]] : !tt.ptr<f32>
  // Kernel: stage 1 of iteration i, then stage 0 of iteration i + 1, whose load is carried.
  // PEEL: %[[UB:.+]] = arith.subi %[[N]], %{{.+}} : i32
  // PRED: scf.for %[[I:[^ ]+]] = %[[C0]] to %[[N]] step %[[C1]] iter_args(%[[V:[^ ]+]] = %[[V0]]) -> (f32)
  // PEEL: scf.for %[[I:[^ ]+]] = %[[C0]] to %[[UB]] step %[[C1]] iter_args(%[[V:[^ ]+]] = %[[V0]]) -> (f32)
  // PRED: %[[LAST:.+]] = arith.subi %[[N]], %{{.+}} : i32
  // PRED-NEXT: %[[P:.+]] = arith.cmpi slt, %[[I]], %[[LAST]] : i32
  // CHECK-NEXT: %[[SUM:.+]] = arith.addf %[[V]], %[[V]] : f32
  // CHECK: %[[THIS:.+]] = arith.addi %[[I]], %{{.+}} : i32
  // CHECK-NEXT: %[[OUT:.+]] = tt.addptr %[[DST]], %[[THIS]]
  // CHECK-NEXT: tt.store %[[OUT]], %[[SUM]] : !tt.ptr<f32>
  // CHECK: %[[NEXT:.+]] = arith.addi %[[I]], %{{.+}} : i32
  // CHECK-NEXT: %[[PTR:.+]] = tt.addptr %[[SRC]], %[[NEXT]]
  // PRED-NEXT: %[[LOAD:.+]] = tt.load %[[PTR]], %[[P]] : !tt.ptr<f32>
  // PEEL-NEXT: %[[LOAD:.+]] = tt.load %[[PTR]] : !tt.ptr<f32>
  // CHECK-NEXT: scf.yield %[[LOAD]] : f32
  // Epilogue: stage 1 of the last iteration, predicated on the trip count being at least 1.
  // PRED-NOT: tt.store
  // PEEL: %[[TOTAL:.+]] = arith.divsi
  // PEEL: %[[RUNS:.+]] = arith.cmpi sge, %[[TOTAL]], %{{.+}} : i32
  // PEEL-NEXT: %[[ESUM:.+]] = arith.addf
  // PEEL-NEXT: %[[EOUT:.+]] = tt.addptr %[[DST]]
  // PEEL-NEXT: tt.store %[[EOUT]], %[[ESUM]], %[[RUNS]] : !tt.ptr<f32>
  // CHECK-NOT: loop.stage
  // CHECK: tt.return
  tt.func @two_stages(%src: !tt.ptr<f32>, %dst: !tt.ptr<f32>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    scf.for %i = %c0 to %n step %c1 : i32 {
      %p = tt.addptr %src, %i {loop.cluster = 1 : i32, loop.stage = 0 : i32} : !tt.ptr<f32>, i32
      %v = tt.load %p {loop.cluster = 1 : i32, loop.stage = 0 : i32} : !tt.ptr<f32>
      %w = arith.addf %v, %v {loop.cluster = 0 : i32, loop.stage = 1 : i32} : f32
      %q = tt.addptr %dst, %i {loop.cluster = 0 : i32, loop.stage = 1 : i32} : !tt.ptr<f32>, i32
      tt.store %q, %w {loop.cluster = 0 : i32, loop.stage = 1 : i32} : !tt.ptr<f32>
    } {tt.scheduled_max_stage = 1 : i32}
    tt.return
  }
}
