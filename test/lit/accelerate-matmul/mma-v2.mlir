// RUN: ttpipe-opt %s --split-input-file -p ttpipe-accelerate-matmul --verify-diagnostics=only-expected | filecheck %s

// sm_80: mma.sync. The accumulator and the result move to an nvidia_mma v2 layout (16x8
// tiles; 4 warps balanced 2x2 over a 128x128 tile), the operands to dot_op layouts of it with
// kWidth = 32 / 16 bits = 2, and a convert takes the result back to the dot's layout.
// CHECK-DAG: #[[$MMA:.+]] = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
// CHECK-LABEL: tt.func @f16_dot(
// CHECK-SAME: %[[A:[a-z0-9_]+]]: tensor<128x64xf16{{.*}}%[[B:[a-z0-9_]+]]: tensor<64x128xf16{{.*}}%[[C:[a-z0-9_]+]]: tensor<128x128xf32
// CHECK: %[[ACC:.+]] = ttg.convert_layout %[[C]] : tensor<128x128xf32, #blocked> -> tensor<128x128xf32, #[[$MMA]]>
// CHECK: %[[A_OP:.+]] = ttg.convert_layout %[[A]] : {{.+}} -> tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #[[$MMA]], kWidth = 2}>>
// CHECK: %[[B_OP:.+]] = ttg.convert_layout %[[B]] : {{.+}} -> tensor<64x128xf16, #ttg.dot_op<{opIdx = 1, parent = #[[$MMA]], kWidth = 2}>>
// CHECK: %[[D:.+]] = tt.dot %[[A_OP]], %[[B_OP]], %[[ACC]] : {{.+}} -> tensor<128x128xf32, #[[$MMA]]>
// CHECK: %[[R:.+]] = ttg.convert_layout %[[D]] : tensor<128x128xf32, #[[$MMA]]> -> tensor<128x128xf32, #blocked>
// CHECK: tt.return %[[R]]
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @f16_dot(%a: tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>, %b: tensor<64x128xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>, %c: tensor<128x128xf32, #blocked>) -> tensor<128x128xf32, #blocked> {
    %d = tt.dot %a, %b, %c : tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<64x128xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<128x128xf32, #blocked>
    tt.return %d : tensor<128x128xf32, #blocked>
  }
}

// -----

// Chained dots (attention-like): the last dot is converted first and puts all warps along M
// (M >= N); the first dot then takes the warps of the mma layout it feeds.
// CHECK-DAG: #[[$MMA:.+]] = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 8]}>
// CHECK-LABEL: tt.func @chained_dots(
// CHECK: %[[S:.+]] = tt.dot {{.+}} -> tensor<128x64xf32, #[[$MMA]]>
// CHECK: ttg.convert_layout %[[S]]
// CHECK: tt.dot {{.+}} -> tensor<128x32xf32, #[[$MMA]]>
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @chained_dots(%a: tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>, %b: tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>, %v: tensor<64x32xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>) -> tensor<128x32xf32, #blocked> {
    %cst = arith.constant dense<0.000000e+00> : tensor<128x64xf32, #blocked>
    %cst_0 = arith.constant dense<0.000000e+00> : tensor<128x32xf32, #blocked>
    %s = tt.dot %a, %b, %cst : tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<128x64xf32, #blocked>
    %p = arith.truncf %s : tensor<128x64xf32, #blocked> to tensor<128x64xf16, #blocked>
    %p_op = ttg.convert_layout %p : tensor<128x64xf16, #blocked> -> tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>
    %o = tt.dot %p_op, %v, %cst_0 : tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<64x32xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<128x32xf32, #blocked>
    tt.return %o : tensor<128x32xf32, #blocked>
  }
}

// -----

// mma.sync on sm_80 has no fp8 inputs: the dot is converted as for 8-bit operands
// (kWidth = 4), then its operands are upcast to f16 in their dot_op layouts.
// CHECK-DAG: #[[$MMA:.+]] = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
// CHECK-LABEL: tt.func @fp8_promoted(
// CHECK: %[[A_OP:.+]] = ttg.convert_layout %{{.+}} -> tensor<128x64xf8E5M2, #ttg.dot_op<{opIdx = 0, parent = #[[$MMA]], kWidth = 4}>>
// CHECK: %[[B_OP:.+]] = ttg.convert_layout %{{.+}} -> tensor<64x128xf8E4M3FN, #ttg.dot_op<{opIdx = 1, parent = #[[$MMA]], kWidth = 4}>>
// CHECK: %[[A_F16:.+]] = tt.fp_to_fp %[[A_OP]] : {{.+}} -> tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #[[$MMA]], kWidth = 4}>>
// CHECK: %[[B_F16:.+]] = tt.fp_to_fp %[[B_OP]] : {{.+}} -> tensor<64x128xf16, #ttg.dot_op<{opIdx = 1, parent = #[[$MMA]], kWidth = 4}>>
// CHECK: tt.dot %[[A_F16]], %[[B_F16]]
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @fp8_promoted(%a: tensor<128x64xf8E5M2, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>, %b: tensor<64x128xf8E4M3FN, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>, %c: tensor<128x128xf32, #blocked>) -> tensor<128x128xf32, #blocked> {
    %d = tt.dot %a, %b, %c : tensor<128x64xf8E5M2, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<64x128xf8E4M3FN, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<128x128xf32, #blocked>
    tt.return %d : tensor<128x128xf32, #blocked>
  }
}

// -----

// sm_89 multiplies fp8 natively with mma.sync: no upcast.
// CHECK-LABEL: tt.func @fp8_native(
// CHECK-NOT: tt.fp_to_fp
// CHECK: tt.dot {{.+}} : tensor<128x64xf8E5M2, #ttg.dot_op<{opIdx = 0, parent = #{{.+}}, kWidth = 4}>> * tensor<64x128xf8E4M3FN
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:89", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @fp8_native(%a: tensor<128x64xf8E5M2, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>, %b: tensor<64x128xf8E4M3FN, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>, %c: tensor<128x128xf32, #blocked>) -> tensor<128x128xf32, #blocked> {
    %d = tt.dot %a, %b, %c : tensor<128x64xf8E5M2, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<64x128xf8E4M3FN, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<128x128xf32, #blocked>
    tt.return %d : tensor<128x128xf32, #blocked>
  }
}

// -----

// kWidth follows the narrowest width an operand was loaded with (computeOrigBitWidth): B is
// loaded as i8 and converted to f16 on the way, so both operands get kWidth = 32 / 8 = 4.
// CHECK-LABEL: tt.func @int8_loaded_operand(
// CHECK: ttg.convert_layout %{{.+}} -> tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #{{.+}}, kWidth = 4}>>
// CHECK: ttg.convert_layout %{{.+}} -> tensor<64x128xf16, #ttg.dot_op<{opIdx = 1, parent = #{{.+}}, kWidth = 4}>>
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @int8_loaded_operand(%a: tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>, %b_ptr: tensor<64x128x!tt.ptr<i8>, #blocked>, %c: tensor<128x128xf32, #blocked>) -> tensor<128x128xf32, #blocked> {
    %b_i8 = tt.load %b_ptr : tensor<64x128x!tt.ptr<i8>, #blocked>
    %b_f16 = arith.sitofp %b_i8 : tensor<64x128xi8, #blocked> to tensor<64x128xf16, #blocked>
    %b = ttg.convert_layout %b_f16 : tensor<64x128xf16, #blocked> -> tensor<64x128xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>
    %d = tt.dot %a, %b, %c : tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<64x128xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<128x128xf32, #blocked>
    tt.return %d : tensor<128x128xf32, #blocked>
  }
}

// -----

// sm_90 with M = 32: too small for wgmma (M must be a multiple of 64), so mma.sync is used
// and a remark says why (once per pattern that tried wgmma; only-expected checks one).
// CHECK-DAG: #[[$MMA:.+]] = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [1, 4], instrShape = [16, 8]}>
// CHECK-LABEL: tt.func @too_small_for_wgmma(
// CHECK: tt.dot {{.+}} -> tensor<32x64xf32, #[[$MMA]]>
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @too_small_for_wgmma(%a: tensor<32x64xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>, %b: tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>, %c: tensor<32x64xf32, #blocked>) -> tensor<32x64xf32, #blocked> {
    // expected-remark @below {{MMA version 3 acceleration not applied due to unsupported shapes or data types.}}
    %d = tt.dot %a, %b, %c : tensor<32x64xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<32x64xf32, #blocked>
    tt.return %d : tensor<32x64xf32, #blocked>
  }
}

// -----

// A batched (rank-3) dot puts every warp on the batch dim and adds a unit dim to instrShape.
// CHECK-DAG: #[[$MMA:.+]] = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [4, 1, 1], instrShape = [1, 16, 8]}>
// CHECK-LABEL: tt.func @batched(
// CHECK: tt.dot {{.+}} -> tensor<4x64x64xf32, #[[$MMA]]>
#blocked = #ttg.blocked<{sizePerThread = [1, 1, 8], threadsPerWarp = [1, 4, 8], warpsPerCTA = [4, 1, 1], order = [2, 1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @batched(%a: tensor<4x64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>, %b: tensor<4x32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>, %c: tensor<4x64x64xf32, #blocked>) -> tensor<4x64x64xf32, #blocked> {
    %d = tt.dot %a, %b, %c : tensor<4x64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<4x32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<4x64x64xf32, #blocked>
    tt.return %d : tensor<4x64x64xf32, #blocked>
  }
}

// -----

// sm_80 has fp64 tensor cores: fp64 dots use mma.sync with kWidth = max(32 / 64, 1) = 1.
// CHECK-LABEL: tt.func @fp64_dot(
// CHECK: ttg.convert_layout %{{.+}} -> tensor<64x16xf64, #ttg.dot_op<{opIdx = 0, parent = #{{.+}}, kWidth = 1}>>
// CHECK: tt.dot {{.+}} -> tensor<64x64xf64, #{{.+}}>
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @fp64_dot(%a: tensor<64x16xf64, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>, %b: tensor<16x64xf64, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>, %c: tensor<64x64xf64, #blocked>) -> tensor<64x64xf64, #blocked> {
    %d = tt.dot %a, %b, %c : tensor<64x16xf64, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<16x64xf64, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<64x64xf64, #blocked>
    tt.return %d : tensor<64x64xf64, #blocked>
  }
}
