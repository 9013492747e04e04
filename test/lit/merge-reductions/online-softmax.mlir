// RUN: ttpipe-opt %s -p ttpipe-merge-reductions | filecheck %s
// RUN: ttpipe-opt %s -p ttpipe-merge-reductions --remarks 2>&1 >/dev/null | filecheck %s --check-prefix=REMARK

// An online softmax's first loop unrolled by two (as the row ring's runs are): each copy
// takes its chunk's maximum (a reduction across the 8 warps), the running maximum, then the
// sum of exp(x - max). The two maxima read only their chunks: one reduction of two operands,
// at the first; the two sums read the running maxima, which need both maxima and nothing
// else: one reduction of two operands, at the first sum, the second copy's exp moved before
// it. The running values keep their order.
// REMARK-COUNT-2: remark: merged 2 reductions into one
// CHECK-LABEL: tt.func @online_softmax_by_two(
// CHECK: scf.for
// CHECK: %[[X0:.+]] = tt.load
// CHECK: %[[X1:.+]] = tt.load
// CHECK: %[[MAX:.+]]:2 = "tt.reduce"(%[[X0]], %[[X1]]) <{axis = 0 : i32}> ({
// CHECK-NEXT: ^bb0(%[[A0:[^:]+]]: f32, %[[A1:[^:]+]]: f32, %[[B0:[^:]+]]: f32, %[[B1:[^:]+]]: f32):
// CHECK-NEXT: %[[C0:.+]] = arith.maxnumf %[[A0]], %[[B0]] : f32
// CHECK-NEXT: %[[C1:.+]] = arith.maxnumf %[[A1]], %[[B1]] : f32
// CHECK-NEXT: tt.reduce.return %[[C0]], %[[C1]] : f32, f32
// CHECK-NEXT: }) : (tensor<1024xf32, #blocked>, tensor<1024xf32, #blocked>) -> (f32, f32)
// CHECK: %[[M0:.+]] = arith.maxnumf %{{.+}}, %[[MAX]]#0 : f32
// CHECK: %[[M1:.+]] = arith.maxnumf %[[M0]], %[[MAX]]#1 : f32
// CHECK: %[[E1:.+]] = math.exp
// CHECK: %[[SUM:.+]]:2 = "tt.reduce"(%[[E0:.+]], %[[E1]]) <{axis = 0 : i32}> ({
// CHECK: arith.addf
// CHECK-NEXT: arith.addf
// CHECK: %[[L0:.+]] = arith.addf %{{.+}}, %[[SUM]]#0 : f32
// CHECK: arith.addf %{{.+}}, %[[SUM]]#1 : f32
// CHECK-NOT: "tt.reduce"
// CHECK: scf.yield %[[M1]],
#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [8], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @online_softmax_by_two(%x: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) -> (f32, f32) {
    %c0 = arith.constant 0 : i32
    %c1024 = arith.constant 1024 : i32
    %c2048 = arith.constant 2048 : i32
    %ninf = arith.constant 0xFF800000 : f32
    %zero = arith.constant 0.000000e+00 : f32
    %cols = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #blocked>
    %xs = tt.splat %x : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>, #blocked>
    %r:2 = scf.for %off = %c0 to %n step %c2048 iter_args(%m = %ninf, %l = %zero) -> (f32, f32) : i32 {
      %offs0 = tt.splat %off : i32 -> tensor<1024xi32, #blocked>
      %idx0 = arith.addi %offs0, %cols : tensor<1024xi32, #blocked>
      %p0 = tt.addptr %xs, %idx0 : tensor<1024x!tt.ptr<f32>, #blocked>, tensor<1024xi32, #blocked>
      %x0 = tt.load %p0 : tensor<1024x!tt.ptr<f32>, #blocked>
      %off1 = arith.addi %off, %c1024 : i32
      %offs1 = tt.splat %off1 : i32 -> tensor<1024xi32, #blocked>
      %idx1 = arith.addi %offs1, %cols : tensor<1024xi32, #blocked>
      %p1 = tt.addptr %xs, %idx1 : tensor<1024x!tt.ptr<f32>, #blocked>, tensor<1024xi32, #blocked>
      %x1 = tt.load %p1 : tensor<1024x!tt.ptr<f32>, #blocked>
      %cmax0 = "tt.reduce"(%x0) <{axis = 0 : i32}> ({
      ^bb0(%a: f32, %b: f32):
        %c = arith.maxnumf %a, %b : f32
        tt.reduce.return %c : f32
      }) : (tensor<1024xf32, #blocked>) -> f32
      %m0 = arith.maxnumf %m, %cmax0 : f32
      %d0 = arith.subf %m, %m0 : f32
      %s0 = math.exp %d0 : f32
      %ls0 = arith.mulf %l, %s0 : f32
      %t0 = tt.splat %m0 : f32 -> tensor<1024xf32, #blocked>
      %y0 = arith.subf %x0, %t0 : tensor<1024xf32, #blocked>
      %e0 = math.exp %y0 : tensor<1024xf32, #blocked>
      %sum0 = "tt.reduce"(%e0) <{axis = 0 : i32}> ({
      ^bb0(%a: f32, %b: f32):
        %c = arith.addf %a, %b : f32
        tt.reduce.return %c : f32
      }) : (tensor<1024xf32, #blocked>) -> f32
      %l0 = arith.addf %ls0, %sum0 : f32
      %cmax1 = "tt.reduce"(%x1) <{axis = 0 : i32}> ({
      ^bb0(%a: f32, %b: f32):
        %c = arith.maxnumf %a, %b : f32
        tt.reduce.return %c : f32
      }) : (tensor<1024xf32, #blocked>) -> f32
      %m1 = arith.maxnumf %m0, %cmax1 : f32
      %d1 = arith.subf %m0, %m1 : f32
      %s1 = math.exp %d1 : f32
      %ls1 = arith.mulf %l0, %s1 : f32
      %t1 = tt.splat %m1 : f32 -> tensor<1024xf32, #blocked>
      %y1 = arith.subf %x1, %t1 : tensor<1024xf32, #blocked>
      %e1 = math.exp %y1 : tensor<1024xf32, #blocked>
      %sum1 = "tt.reduce"(%e1) <{axis = 0 : i32}> ({
      ^bb0(%a: f32, %b: f32):
        %c = arith.addf %a, %b : f32
        tt.reduce.return %c : f32
      }) : (tensor<1024xf32, #blocked>) -> f32
      %l1 = arith.addf %ls1, %sum1 : f32
      scf.yield %m1, %l1 : f32, f32
    }
    tt.return %r#0, %r#1 : f32, f32
  }
}
