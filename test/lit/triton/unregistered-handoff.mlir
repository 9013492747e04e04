// Unregistered placeholder ops cross the hand-off to Triton's passes (as calls to stub
// declarations) and come back as they were; like any op of unknown effects, one whose
// result is unused survives the canonicalizer, while a dead constant does not.
// RUN: ttpipe-opt %s --allow-unregistered-dialect --strip-debuginfo -p canonicalize | filecheck %s

// CHECK-LABEL: tt.func @placeholders
// CHECK-NEXT: %[[X:.*]] = "produce"() {loop.stage = 0 : i32} : () -> i32
// CHECK-NEXT: %{{.*}} = "unused"(%[[X]], %[[X]]) : (i32, i32) -> tensor<4xf32>
// CHECK-NEXT: "use"(%[[X]]) {loop.stage = 1 : i32} : (i32) -> ()
// CHECK-NEXT: tt.return
// CHECK-NOT: __ttpipe_unregistered
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @placeholders() {
    %dead = arith.constant 7 : i32
    %x = "produce"() {loop.stage = 0 : i32} : () -> i32
    %y = "unused"(%x, %x) : (i32, i32) -> tensor<4xf32>
    "use"(%x) {loop.stage = 1 : i32} : (i32) -> ()
    tt.return
  }
}
