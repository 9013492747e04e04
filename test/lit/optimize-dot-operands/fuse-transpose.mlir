// tt.trans feeding a local_alloc read by wgmma/tcgen05 becomes memdesc_trans of an alloc of the
// untransposed tensor, whose NVMMA encoding has `transposed` flipped.
// RUN: ttpipe-opt %s --split-input-file -p ttpipe-optimize-dot-operands | filecheck %s

// wgmma B operand: the alloc of the transpose becomes memdesc_trans(local_alloc(%b)).
// CHECK-DAG: #[[$NT:.+]] = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
// CHECK-DAG: #[[$T:.+]] = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 128, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.target" = "cuda:90", "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @wgmma_b_transposed
  // CHECK-SAME: %[[B:[^:]+]]: tensor<128x64xf16
  tt.func @wgmma_b_transposed(%a: !ttg.memdesc<128x64xf16, #shared, #smem>, %b: tensor<128x64xf16, #blocked>, %c: tensor<128x128xf32, #mma>) -> tensor<128x128xf32, #mma> {
    // CHECK-NOT: tt.trans
    // CHECK: %[[ALLOC:.+]] = ttg.local_alloc %[[B]] : (tensor<128x64xf16, #{{.+}}>) -> !ttg.memdesc<128x64xf16, #[[$NT]], #smem>
    // CHECK: %[[VIEW:.+]] = ttg.memdesc_trans %[[ALLOC]] {order = array<i32: 1, 0>} : !ttg.memdesc<128x64xf16, #[[$NT]], #smem> -> !ttg.memdesc<64x128xf16, #[[$T]], #smem>
    // CHECK: ttng.warp_group_dot %{{.+}}, %[[VIEW]], %{{.+}}
    %t = tt.trans %b {order = array<i32: 1, 0>} : tensor<128x64xf16, #blocked> -> tensor<64x128xf16, #blocked1>
    %bt = ttg.local_alloc %t : (tensor<64x128xf16, #blocked1>) -> !ttg.memdesc<64x128xf16, #shared1, #smem>
    %d = ttng.warp_group_dot %a, %bt, %c {inputPrecision = 0 : i32} : !ttg.memdesc<128x64xf16, #shared, #smem> * !ttg.memdesc<64x128xf16, #shared1, #smem> -> tensor<128x128xf32, #mma>
    tt.return %d : tensor<128x128xf32, #mma>
  }

  // An alloc with a second use is left alone, and so is the transpose.
  // CHECK-LABEL: tt.func @alloc_used_twice
  // CHECK: %[[T:.+]] = tt.trans
  // CHECK: ttg.local_alloc %[[T]]
  // CHECK-NOT: ttg.memdesc_trans
  // CHECK: tt.return
  tt.func @alloc_used_twice(%a: !ttg.memdesc<128x64xf16, #shared, #smem>, %b: tensor<128x64xf16, #blocked>, %c: tensor<128x128xf32, #mma>) -> (tensor<128x128xf32, #mma>, !ttg.memdesc<64x128xf16, #shared1, #smem>) {
    %t = tt.trans %b {order = array<i32: 1, 0>} : tensor<128x64xf16, #blocked> -> tensor<64x128xf16, #blocked1>
    %bt = ttg.local_alloc %t : (tensor<64x128xf16, #blocked1>) -> !ttg.memdesc<64x128xf16, #shared1, #smem>
    %d = ttng.warp_group_dot %a, %bt, %c {inputPrecision = 0 : i32} : !ttg.memdesc<128x64xf16, #shared, #smem> * !ttg.memdesc<64x128xf16, #shared1, #smem> -> tensor<128x128xf32, #mma>
    tt.return %d, %bt : tensor<128x128xf32, #mma>, !ttg.memdesc<64x128xf16, #shared1, #smem>
  }
}

// -----

// tcgen05 A operand with a multi-CTA layout: the CTA layout is transposed along with the tile.
// CHECK-DAG: #[[$SH_T:.+]] = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16, CGALayout = {{\[\[1, 0\]\]}}}>
// CHECK-DAG: #[[$SH:.+]] = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16, CGALayout = {{\[\[0, 1\]\]}}}>
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0], CGALayout = [[1, 0]]}>
#blocked1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1], CGALayout = [[0, 1]]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16, CGALayout = [[0, 1]]}>
#shared2 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16, CGALayout = [[1, 0]]}>
#smem = #ttg.shared_memory
#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1, CTASplitM = 2>
module attributes {"ttg.target" = "cuda:100", "ttg.num-ctas" = 2 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @tcgen05_a_transposed_2cta
  // CHECK-SAME: %[[AT:[^:]+]]: tensor<128x256xf16
  tt.func @tcgen05_a_transposed_2cta(%at: tensor<128x256xf16, #blocked>, %b: !ttg.memdesc<128x128xf16, #shared2, #smem>, %d: !ttg.memdesc<256x128xf32, #tmem, #ttng.tensor_memory, mutable>) {
    %true = arith.constant true
    // CHECK: %[[ALLOC:.+]] = ttg.local_alloc %[[AT]] : (tensor<128x256xf16, #{{.+}}>) -> !ttg.memdesc<128x256xf16, #[[$SH_T]], #smem>
    // CHECK: %[[VIEW:.+]] = ttg.memdesc_trans %[[ALLOC]] {order = array<i32: 1, 0>} : !ttg.memdesc<128x256xf16, #[[$SH_T]], #smem> -> !ttg.memdesc<256x128xf16, #[[$SH]], #smem>
    // CHECK: ttng.tc_gen5_mma %[[VIEW]], %{{.+}}, %{{.+}}
    %t = tt.trans %at {order = array<i32: 1, 0>} : tensor<128x256xf16, #blocked> -> tensor<256x128xf16, #blocked1>
    %a = ttg.local_alloc %t : (tensor<256x128xf16, #blocked1>) -> !ttg.memdesc<256x128xf16, #shared, #smem>
    ttng.tc_gen5_mma %a, %b, %d, %true, %true : !ttg.memdesc<256x128xf16, #shared, #smem>, !ttg.memdesc<128x128xf16, #shared2, #smem>, !ttg.memdesc<256x128xf32, #tmem, #ttng.tensor_memory, mutable>
    tt.return
  }
}
