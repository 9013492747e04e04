// RUN: ttpipe-opt %s -p ttpipe-optimize-dot-operands | filecheck %s

// An mma.sync operand masked with arith.select (rows past a bound set to zero) before its
// conversion to the dot-operand layout: the select stays in the blocked layout, where the
// mask is cheap, and the one convert_layout stays right before the dot.
// CHECK-LABEL: tt.func @masked_operand
// CHECK: %[[B:.+]] = tt.load
// CHECK: %[[MASKED:.+]] = arith.select %{{.+}}, %[[B]], %{{.+}} : tensor<32x64xi1, #[[$BLK:[a-z0-9_]+]]>, tensor<32x64xf16, #[[$BLK]]>
// CHECK-NEXT: %[[OP:.+]] = ttg.convert_layout %[[MASKED]] : tensor<32x64xf16, #[[$BLK]]> -> tensor<32x64xf16, #ttg.dot_op<{opIdx = 1
// CHECK-NEXT: tt.dot %{{.+}}, %[[OP]],
// CHECK-NOT: arith.select {{.*}}#ttg.dot_op
#blk = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
module attributes {"ttg.target" = "cuda:80", "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @masked_operand(%a: tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>, %b_ptr: tensor<32x64x!tt.ptr<f16>, #blk>, %n: i32) -> tensor<64x64xf32, #mma> {
    %zero = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma>
    %zb = arith.constant dense<0.000000e+00> : tensor<32x64xf16, #blk>
    %rows = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 1, parent = #blk}>>
    %col = tt.expand_dims %rows {axis = 1 : i32} : tensor<32xi32, #ttg.slice<{dim = 1, parent = #blk}>> -> tensor<32x1xi32, #blk>
    %ns = tt.splat %n : i32 -> tensor<32x1xi32, #blk>
    %m1 = arith.cmpi slt, %col, %ns : tensor<32x1xi32, #blk>
    %m = tt.broadcast %m1 : tensor<32x1xi1, #blk> -> tensor<32x64xi1, #blk>
    %b = tt.load %b_ptr : tensor<32x64x!tt.ptr<f16>, #blk>
    %bs = arith.select %m, %b, %zb : tensor<32x64xi1, #blk>, tensor<32x64xf16, #blk>
    %bo = ttg.convert_layout %bs : tensor<32x64xf16, #blk> -> tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
    %d = tt.dot %a, %bo, %zero : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<64x64xf32, #mma>
    tt.return %d : tensor<64x64xf32, #mma>
  }
}
