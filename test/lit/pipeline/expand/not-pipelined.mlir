// Loops the expander leaves as they are: one without a schedule, and one whose value is
// carried over two iterations (`%b` feeds `%a` which is yielded back: distance 2), which
// only distance-1 dependences are supported for.
// RUN: ttpipe-opt %s --strip-debuginfo -p ttpipe-expand-loops | filecheck %s

module attributes {"ttg.target" = "cuda:90", "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @unscheduled(
  // CHECK-NEXT: arith.constant
  // CHECK-NEXT: arith.constant
  // CHECK-NEXT: scf.for
  // CHECK-NEXT: tt.addptr
  // CHECK-NEXT: tt.load
  // CHECK-NEXT: tt.store
  // CHECK-NEXT: }
  // CHECK-NEXT: tt.return
  tt.func @unscheduled(%src: !tt.ptr<f32>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    scf.for %i = %c0 to %n step %c1 : i32 {
      %p = tt.addptr %src, %i : !tt.ptr<f32>, i32
      %v = tt.load %p : !tt.ptr<f32>
      tt.store %p, %v : !tt.ptr<f32>
    }
    tt.return
  }

  // CHECK-LABEL: tt.func @distance_two(
  // CHECK: scf.for {{.*}} iter_args(%[[A:[^ ]+]] = %{{.+}}, %[[B:[^ ]+]] = %{{.+}}) -> (f32, f32)
  // CHECK-NEXT: %[[S:.+]] = arith.addf %[[A]], %[[B]] : f32
  // CHECK-NEXT: scf.yield %[[B]], %[[S]] : f32, f32
  // CHECK-NOT: loop.stage
  // CHECK: tt.return
  tt.func @distance_two(%n: i32) -> f32 {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %one = arith.constant 1.0 : f32
    %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%a = %one, %b = %one) -> (f32, f32) : i32 {
      %s = arith.addf %a, %b {loop.cluster = 0 : i32, loop.stage = 1 : i32} : f32
      scf.yield %b, %s : f32, f32
    } {tt.scheduled_max_stage = 1 : i32}
    tt.return %r#0 : f32
  }
}
