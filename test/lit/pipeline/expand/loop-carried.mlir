// Loop-carried values: `%prev` is the previous iteration's load (distance 1, defined in
// stage 0 and read in stage 1), `%acc` accumulates in stage 1, and both are results of
// the loop. With the epilogue not peeled, a result defined before the last stage must keep
// the version of the last iteration that ran: the kernel yields a select on that stage's
// predicate (a change of Triton's fork over MLIR's expander).
// RUN: ttpipe-opt %s --strip-debuginfo -p ttpipe-expand-loops | filecheck %s

module attributes {"ttg.target" = "cuda:90", "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @carried(
  // CHECK-SAME: %[[SRC:[^:]+]]: !tt.ptr<f32>, %[[N:[^:]+]]: i32
  // CHECK-DAG: %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
  // Prologue: the first load, which is also the first `prev` after the loop if it runs.
  // CHECK: %[[P0:.+]] = arith.cmpi slt, %{{.+}}, %[[N]] : i32
  // CHECK: %[[V0:.+]] = tt.load %{{.+}}, %[[P0]] : !tt.ptr<f32>
  // CHECK-NEXT: %[[PREV0:.+]] = arith.select %[[P0]], %[[V0]], %[[ZERO]] : f32
  // Kernel: iteration i reads its own load (CUR) and the one before it (OLD). PREV holds the
  // last load that ran, which is both the next iteration's OLD and the loop's second result.
  // CHECK: %[[LOOP:.+]]:4 = scf.for %[[I:[^ ]+]] = %{{.+}} to %[[N]] step %{{.+}} iter_args(%[[ACC:[^ ]+]] = %[[ZERO]], %[[PREV:[^ ]+]] = %[[PREV0]], %[[CUR:[^ ]+]] = %[[V0]], %[[OLD:[^ ]+]] = %[[ZERO]]) -> (f32, f32, f32, f32)
  // CHECK: %[[P:.+]] = arith.cmpi slt, %[[I]], %{{.+}} : i32
  // CHECK-NEXT: %[[D:.+]] = arith.subf %[[CUR]], %[[OLD]] : f32
  // CHECK-NEXT: %[[SUM:.+]] = arith.addf %[[ACC]], %[[D]] : f32
  // CHECK: %[[NEXT:.+]] = tt.load %{{.+}}, %[[P]] : !tt.ptr<f32>
  // CHECK-NEXT: %[[KEEP:.+]] = arith.select %[[P]], %[[NEXT]], %[[PREV]] : f32
  // CHECK-NEXT: scf.yield %[[SUM]], %[[KEEP]], %[[NEXT]], %[[PREV]] : f32, f32, f32, f32
  // CHECK: tt.return %[[LOOP]]#0, %[[LOOP]]#1 : f32, f32
  tt.func @carried(%src: !tt.ptr<f32>, %n: i32) -> (f32, f32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant 0.0 : f32
    %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero, %prev = %zero) -> (f32, f32) : i32 {
      %p = tt.addptr %src, %i {loop.cluster = 1 : i32, loop.stage = 0 : i32} : !tt.ptr<f32>, i32
      %v = tt.load %p {loop.cluster = 1 : i32, loop.stage = 0 : i32} : !tt.ptr<f32>
      %d = arith.subf %v, %prev {loop.cluster = 0 : i32, loop.stage = 1 : i32} : f32
      %s = arith.addf %acc, %d {loop.cluster = 0 : i32, loop.stage = 1 : i32} : f32
      scf.yield %s, %v : f32, f32
    } {tt.scheduled_max_stage = 1 : i32}
    tt.return %r#0, %r#1 : f32, f32
  }
}
