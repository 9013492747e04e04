// RUN: ttpipe-opt %s --split-input-file -p ttpipe-accelerate-matmul | filecheck %s

// sm_100: tcgen05. Operands go to NVMMA shared memory, the accumulator into TMEM through
// the 32x32b register layout, and one %true (hoisted, unknown location) feeds useD and pred.
// CHECK-DAG: #[[$LINEAR:.+]] = #ttg.linear<{register = [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [0, 32], [0, 64]], lane = [[1, 0], [2, 0], [4, 0], [8, 0], [16, 0]], warp = [[32, 0], [64, 0]], block = []}>
// CHECK-DAG: #[[$TMEM:.+]] = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>
// CHECK-LABEL: tt.func @dot_from_loads(
// CHECK: %[[TRUE:.+]] = arith.constant true
// CHECK: %[[A_SMEM:.+]] = ttg.local_alloc
// CHECK: %[[B_SMEM:.+]] = ttg.local_alloc
// CHECK: %[[ACC:.+]] = ttg.convert_layout {{.*}} -> tensor<128x128xf32, #[[$LINEAR]]>
// CHECK: %[[TM:[^,]+]], %[[TM_TOK:.+]] = ttng.tmem_alloc %[[ACC]] {{.*}} -> (!ttg.memdesc<128x128xf32, #[[$TMEM]], #ttng.tensor_memory, mutable>, !ttg.async.token)
// CHECK: %[[MMA_TOK:.+]] = ttng.tc_gen5_mma %[[A_SMEM]], %[[B_SMEM]], %[[TM]][%[[TM_TOK]]], %[[TRUE]], %[[TRUE]]
// CHECK: %[[R:[^,]+]], %{{.+}} = ttng.tmem_load %[[TM]][%[[MMA_TOK]]]
// CHECK: ttg.convert_layout %[[R]] : tensor<128x128xf32, #[[$LINEAR]]> -> tensor<128x128xf32, #blocked>
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:100", "ttg.threads-per-warp" = 32 : i32} {
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
