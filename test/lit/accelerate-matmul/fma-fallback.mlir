// RUN: ttpipe-opt %s --split-input-file -p ttpipe-accelerate-matmul --verify-diagnostics=only-expected | filecheck %s

// sm_75: MMA is deprecated, a remark says so and the dot stays on the FMA path, which
// multiplies in the result's element type: the f16 operands are extended to f32.
// CHECK-LABEL: tt.func @sm75_deprecated(
// CHECK-SAME: %[[A:[a-z0-9_]+]]: tensor<64x32xf16{{.*}}%[[B:[a-z0-9_]+]]: tensor<32x64xf16{{.*}}%[[C:[a-z0-9_]+]]: tensor<64x64xf32
// CHECK: %[[A32:.+]] = arith.extf %[[A]] : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> to tensor<64x32xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>
// CHECK: %[[B32:.+]] = arith.extf %[[B]] : tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> to tensor<32x64xf32, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>
// CHECK: tt.dot %[[A32]], %[[B32]], %[[C]] : {{.+}} -> tensor<64x64xf32, #blocked>
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:75", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @sm75_deprecated(%a: tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>, %b: tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>, %c: tensor<64x64xf32, #blocked>) -> tensor<64x64xf32, #blocked> {
    // expected-remark @below {{Dot op using MMA for compute capability 75 has been deprecated. It falls back to the FMA path.}}
    %d = tt.dot %a, %b, %c : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<64x64xf32, #blocked>
    tt.return %d : tensor<64x64xf32, #blocked>
  }
}

// -----

// On the FMA path fp8 operands are upcast with tt.fp_to_fp.
// CHECK-LABEL: tt.func @fp8_fma(
// CHECK: %[[A32:.+]] = tt.fp_to_fp %{{.+}} : tensor<64x32xf8E4M3FN, {{.+}}> -> tensor<64x32xf32
// CHECK: %[[B32:.+]] = tt.fp_to_fp %{{.+}} : tensor<32x64xf8E5M2, {{.+}}> -> tensor<32x64xf32
// CHECK: tt.dot %[[A32]], %[[B32]]
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:75", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @fp8_fma(%a: tensor<64x32xf8E4M3FN, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>, %b: tensor<32x64xf8E5M2, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>, %c: tensor<64x64xf32, #blocked>) -> tensor<64x64xf32, #blocked> {
    // expected-remark @below {{has been deprecated}}
    %d = tt.dot %a, %b, %c : tensor<64x32xf8E4M3FN, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<32x64xf8E5M2, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<64x64xf32, #blocked>
    tt.return %d : tensor<64x64xf32, #blocked>
  }
}

// -----

// fp64 MMA is only used on sm_80 and sm_90 (fast fp64 tensor cores); on sm_86 the dot stays
// on the FMA path, and its operands already have the result's type.
// CHECK-LABEL: tt.func @fp64_without_fp64_tensor_cores(
// CHECK-SAME: %[[A:[a-z0-9_]+]]: tensor<64x16xf64{{.*}}%[[B:[a-z0-9_]+]]: tensor<16x64xf64{{.*}}%[[C:[a-z0-9_]+]]: tensor<64x64xf64
// CHECK-NEXT: tt.dot %[[A]], %[[B]], %[[C]] : {{.+}} -> tensor<64x64xf64, #blocked>
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:86", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @fp64_without_fp64_tensor_cores(%a: tensor<64x16xf64, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>, %b: tensor<16x64xf64, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>, %c: tensor<64x64xf64, #blocked>) -> tensor<64x64xf64, #blocked> {
    %d = tt.dot %a, %b, %c : tensor<64x16xf64, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<16x64xf64, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<64x64xf64, #blocked>
    tt.return %d : tensor<64x64xf64, #blocked>
  }
}

// -----

// An f32 x f32 dot takes MMA only as tf32; with IEEE precision it stays on the FMA path.
// CHECK-LABEL: tt.func @f32_ieee_sm80(
// CHECK-NOT: ttg.convert_layout
// CHECK: tt.dot {{.+}} -> tensor<64x64xf32, #blocked>
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @f32_ieee_sm80(%a: tensor<64x16xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>, %b: tensor<16x64xf32, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>, %c: tensor<64x64xf32, #blocked>) -> tensor<64x64xf32, #blocked> {
    %d = tt.dot %a, %b, %c : tensor<64x16xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<16x64xf32, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<64x64xf32, #blocked>
    tt.return %d : tensor<64x64xf32, #blocked>
  }
}

// -----

// sm_100: tcgen05 takes 32-bit operands only as tf32, and mma.sync is not tried once
// tcgen05 fits the shapes: with IEEE precision the dot stays on the FMA path.
// CHECK-LABEL: tt.func @f32_ieee_sm100(
// CHECK-NOT: ttng.tc_gen5_mma
// CHECK: tt.dot {{.+}} -> tensor<128x128xf32, #blocked>
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:100", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @f32_ieee_sm100(%a: tensor<128x16xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>, %b: tensor<16x128xf32, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>, %c: tensor<128x128xf32, #blocked>) -> tensor<128x128xf32, #blocked> {
    %d = tt.dot %a, %b, %c : tensor<128x16xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<16x128xf32, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<128x128xf32, #blocked>
    tt.return %d : tensor<128x128xf32, #blocked>
  }
}
