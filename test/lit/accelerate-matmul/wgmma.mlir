// RUN: ttpipe-opt %s --split-input-file -p ttpipe-accelerate-matmul | filecheck %s

// sm_90: both operands come from loads, so both go to NVMMA shared memory; the
// accumulator moves to a v3 nvidia_mma layout and the dot becomes ttng.warp_group_dot.
// CHECK-DAG: #[[$MMA:.+]] = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 128, 16]}>
// CHECK-DAG: #[[$SHARED_A:.+]] = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
// CHECK-DAG: #[[$SHARED_B:.+]] = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
// CHECK-LABEL: tt.func @dot_from_loads(
// CHECK: %[[A:.+]] = tt.load
// CHECK-NEXT: %[[A_SMEM:.+]] = ttg.local_alloc %[[A]] {{.*}} -> !ttg.memdesc<128x64xf16, #[[$SHARED_A]], #smem>
// CHECK: %[[B:.+]] = tt.load
// CHECK-NEXT: %[[B_SMEM:.+]] = ttg.local_alloc %[[B]] {{.*}} -> !ttg.memdesc<64x128xf16, #[[$SHARED_B]], #smem>
// CHECK: %[[ACC:.+]] = ttg.convert_layout {{.*}} -> tensor<128x128xf32, #[[$MMA]]>
// CHECK: %[[D:.+]] = ttng.warp_group_dot %[[A_SMEM]], %[[B_SMEM]], %[[ACC]]
// CHECK: ttg.convert_layout %[[D]] : tensor<128x128xf32, #[[$MMA]]> -> tensor<128x128xf32, #blocked>
// CHECK-NOT: tt.dot
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @dot_from_loads(%a_ptr: tensor<128x64x!tt.ptr<f16>, #blocked>, %b_ptr: tensor<64x128x!tt.ptr<f16>, #blocked1>) -> tensor<128x128xf32, #blocked> {
    %cst = arith.constant dense<0.000000e+00> : tensor<128x128xf32, #blocked>
    %a = tt.load %a_ptr : tensor<128x64x!tt.ptr<f16>, #blocked>
    %b = tt.load %b_ptr : tensor<64x128x!tt.ptr<f16>, #blocked1>
    %a_op = ttg.convert_layout %a : tensor<128x64xf16, #blocked> -> tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>
    %b_op = ttg.convert_layout %b : tensor<64x128xf16, #blocked1> -> tensor<64x128xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>
    %d = tt.dot %a_op, %b_op, %cst : tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<64x128xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<128x128xf32, #blocked>
    tt.return %d : tensor<128x128xf32, #blocked>
  }
}
