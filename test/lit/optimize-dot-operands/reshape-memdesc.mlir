// local_alloc of a tt.reshape becomes memdesc_reshape of an alloc of the unreshaped tensor when
// that buffer can be NVMMA shared (the innermost dimension and the swizzle survive the reshape).
// RUN: ttpipe-opt %s --split-input-file -p ttpipe-optimize-dot-operands | filecheck %s

// CHECK-DAG: #[[$SH2D:.+]] = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
// CHECK-DAG: #[[$SH3D:.+]] = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16, rank = 3}>
#blocked = #ttg.blocked<{sizePerThread = [1, 1, 8], threadsPerWarp = [1, 4, 8], warpsPerCTA = [4, 1, 1], order = [2, 1, 0]}>
#linear = #ttg.linear<{register = [[0, 1], [0, 2], [0, 4], [4, 0], [8, 0], [16, 0]], lane = [[0, 8], [0, 16], [0, 32], [1, 0], [2, 0]], warp = [[32, 0], [64, 0]], block = []}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.target" = "cuda:90", "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @fold_leading_dims
  // CHECK-SAME: %[[X:[^:]+]]: tensor<4x32x64xf16
  tt.func @fold_leading_dims(%x: tensor<4x32x64xf16, #blocked>) -> !ttg.memdesc<128x64xf16, #shared, #smem> {
    // CHECK: %[[ALLOC:.+]] = ttg.local_alloc %[[X]] : (tensor<4x32x64xf16, #{{.+}}>) -> !ttg.memdesc<4x32x64xf16, #[[$SH3D]], #smem>
    // CHECK: %[[VIEW:.+]] = ttg.memdesc_reshape %[[ALLOC]] : !ttg.memdesc<4x32x64xf16, #[[$SH3D]], #smem> -> !ttg.memdesc<128x64xf16, #[[$SH2D]], #smem>
    // CHECK: tt.return %[[VIEW]]
    %r = tt.reshape %x : tensor<4x32x64xf16, #blocked> -> tensor<128x64xf16, #linear>
    %a = ttg.local_alloc %r : (tensor<128x64xf16, #linear>) -> !ttg.memdesc<128x64xf16, #shared, #smem>
    tt.return %a : !ttg.memdesc<128x64xf16, #shared, #smem>
  }
}

// -----

// The innermost dimension changes (2x64 rows fold into 128 columns): no NVMMA buffer of the
// source shape has this layout, so the reshape stays in registers.
#blocked = #ttg.blocked<{sizePerThread = [1, 1, 8], threadsPerWarp = [1, 4, 8], warpsPerCTA = [4, 1, 1], order = [2, 1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.target" = "cuda:90", "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @inner_dim_changes
  // CHECK: %[[R:.+]] = tt.reshape
  // CHECK: ttg.local_alloc %[[R]]
  // CHECK-NOT: ttg.memdesc_reshape
  // CHECK: tt.return
  tt.func @inner_dim_changes(%x: tensor<64x2x64xf16, #blocked>) -> !ttg.memdesc<64x128xf16, #shared, #smem> {
    %r = tt.reshape %x : tensor<64x2x64xf16, #blocked> -> tensor<64x128xf16, #blocked1>
    %a = ttg.local_alloc %r : (tensor<64x128xf16, #blocked1>) -> !ttg.memdesc<64x128xf16, #shared, #smem>
    tt.return %a : !ttg.memdesc<64x128xf16, #shared, #smem>
  }
}
