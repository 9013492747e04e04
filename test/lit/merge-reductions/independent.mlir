// RUN: ttpipe-opt %s -p ttpipe-merge-reductions | filecheck %s

// A layer norm's sums after its loop (of x and of x * x), and an arg-max (a reduction of two
// operands, value and index) of the same row: one reduction of four operands, whatever their
// combine regions; each member's region reads its own accumulators and values.
// CHECK-LABEL: tt.func @sums_and_argmax(
// CHECK: %[[R:.+]]:4 = "tt.reduce"(%arg0, %[[SQ:.+]], %arg0, %[[IDX:.+]]) <{axis = 0 : i32}> ({
// CHECK-NEXT: ^bb0(%[[S:[^:]+]]: f32, %[[Q:[^:]+]]: f32, %[[V:[^:]+]]: f32, %[[I:[^:]+]]: i32, %[[S2:[^:]+]]: f32, %[[Q2:[^:]+]]: f32, %[[V2:[^:]+]]: f32, %[[I2:[^:]+]]: i32):
// CHECK-NEXT: arith.addf %[[S]], %[[S2]] : f32
// CHECK-NEXT: arith.addf %[[Q]], %[[Q2]] : f32
// CHECK-NEXT: %[[GT:.+]] = arith.cmpf ogt, %[[V]], %[[V2]] : f32
// CHECK-NEXT: arith.select %[[GT]], %[[V]], %[[V2]] : f32
// CHECK-NEXT: arith.select %[[GT]], %[[I]], %[[I2]] : i32
// CHECK-NEXT: tt.reduce.return
// CHECK-SAME: : f32, f32, f32, i32
// CHECK-NEXT: }) : (tensor<1024xf32, #blocked>, tensor<1024xf32, #blocked>, tensor<1024xf32, #blocked>, tensor<1024xi32, #blocked>) -> (f32, f32, f32, i32)
// CHECK: tt.return %[[R]]#0, %[[R]]#1, %[[R]]#3 : f32, f32, i32
#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [8], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @sums_and_argmax(%x: tensor<1024xf32, #blocked>) -> (f32, f32, i32) {
    %sum = "tt.reduce"(%x) <{axis = 0 : i32}> ({
    ^bb0(%l: f32, %r: f32):
      %s = arith.addf %l, %r : f32
      tt.reduce.return %s : f32
    }) : (tensor<1024xf32, #blocked>) -> f32
    %sq = arith.mulf %x, %x : tensor<1024xf32, #blocked>
    %sumsq = "tt.reduce"(%sq) <{axis = 0 : i32}> ({
    ^bb0(%l: f32, %r: f32):
      %s = arith.addf %l, %r : f32
      tt.reduce.return %s : f32
    }) : (tensor<1024xf32, #blocked>) -> f32
    %idx = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #blocked>
    %best:2 = "tt.reduce"(%x, %idx) <{axis = 0 : i32}> ({
    ^bb0(%lv: f32, %li: i32, %rv: f32, %ri: i32):
      %gt = arith.cmpf ogt, %lv, %rv : f32
      %v = arith.select %gt, %lv, %rv : f32
      %i = arith.select %gt, %li, %ri : i32
      tt.reduce.return %v, %i : f32, i32
    }) : (tensor<1024xf32, #blocked>, tensor<1024xi32, #blocked>) -> (f32, i32)
    tt.return %sum, %sumsq, %best#1 : f32, f32, i32
  }
}
