// RUN: ttpipe-opt %s -p ttpipe-transposing-copies | filecheck %s
// RUN: ttpipe-opt %s -p ttpipe-transposing-copies --remarks 2>&1 >/dev/null | filecheck %s --check-prefix=REMARK

// A tf32 wgmma's B: its TMA stage N-major (#nvmma_n), the wgmma's copy K-major (#nvmma_k).
// The registers between get 16-byte vectors along K, lanes along N.

// CHECK-DAG: #[[K4:.+]] = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [1, 32], warpsPerCTA = [8, 1], order = [1, 0]}>
// CHECK-DAG: #[[ROWS:.+]] = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerCTA = [8, 1], order = [1, 0]}>
// CHECK-DAG: #[[K16:.+]] = #ttg.blocked<{sizePerThread = [16, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG: #[[A4:.+]] = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [0, 1]}>
// CHECK-DAG: #[[PAIRS:.+]] = #ttg.blocked<{sizePerThread = [2, 1], threadsPerWarp = [2, 16], warpsPerCTA = [8, 1], order = [1, 0]}>

#rows = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerCTA = [8, 1], order = [1, 0]}>
#rows4 = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#cols4 = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [0, 1]}>
#pairs = #ttg.blocked<{sizePerThread = [2, 1], threadsPerWarp = [2, 16], warpsPerCTA = [8, 1], order = [1, 0]}>
#nvmma_n = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 32}>
#nvmma_k = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 32}>
#nvmma_k8 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 8}>
#nvmma_n8 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 8}>
#col_major = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0, 1]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @tf32_b_stage
  // CHECK: %[[B:.+]] = ttg.local_load %{{.+}} : !ttg.memdesc<32x128xf32, #{{.+}}, #smem, mutable> -> tensor<32x128xf32, #[[K4]]>
  // CHECK-NEXT: ttg.local_alloc %[[B]] : (tensor<32x128xf32, #[[K4]]>) -> !ttg.memdesc<32x128xf32
  // REMARK: [[# @LINE + 3]]:10: remark: transposing copy: registers laid out for both shared layouts (sizePerThread [4, 1], threadsPerWarp [1, 32])
  tt.func @tf32_b_stage() -> !ttg.memdesc<32x128xf32, #nvmma_k, #smem> {
    %stage = ttg.local_alloc : () -> !ttg.memdesc<32x128xf32, #nvmma_n, #smem, mutable>
    %b = ttg.local_load %stage : !ttg.memdesc<32x128xf32, #nvmma_n, #smem, mutable> -> tensor<32x128xf32, #rows>
    %k = ttg.local_alloc %b : (tensor<32x128xf32, #rows>) -> !ttg.memdesc<32x128xf32, #nvmma_k, #smem>
    tt.return %k : !ttg.memdesc<32x128xf32, #nvmma_k, #smem>
  }

  // An 8-bit B (fp8 wgmma is K-major only too) at 4 warps, into a buffer by local_store:
  // vectors of 16 elements along K.
  // CHECK-LABEL: tt.func @fp8_b_store
  // CHECK: %[[B8:.+]] = ttg.local_load %{{.+}} -> tensor<64x128xf8E4M3FN, #[[K16]]>
  // CHECK-NEXT: ttg.local_store %[[B8]], %{{.+}} : tensor<64x128xf8E4M3FN, #[[K16]]>
  // REMARK: [[# @LINE + 4]]:10: remark: transposing copy: registers laid out for both shared layouts (sizePerThread [16, 1], threadsPerWarp [1, 32])
  tt.func @fp8_b_store() attributes {"ttg.num-warps" = 4 : i32} {
    %stage = ttg.local_alloc : () -> !ttg.memdesc<64x128xf8E4M3FN, #nvmma_n8, #smem, mutable>
    %copy = ttg.local_alloc : () -> !ttg.memdesc<64x128xf8E4M3FN, #nvmma_k8, #smem, mutable>
    %b = ttg.local_load %stage : !ttg.memdesc<64x128xf8E4M3FN, #nvmma_n8, #smem, mutable> -> tensor<64x128xf8E4M3FN, #rows4>
    ttg.local_store %b, %copy : tensor<64x128xf8E4M3FN, #rows4> -> !ttg.memdesc<64x128xf8E4M3FN, #nvmma_k8, #smem, mutable>
    tt.return
  }

  // The other way round: a column-major (swizzled, order [0, 1]) source copied row-major.
  // CHECK-LABEL: tt.func @columns_to_rows
  // CHECK: ttg.local_load %{{.+}} -> tensor<128x64xf32, #[[A4]]>
  // REMARK: [[# @LINE + 3]]:10: remark: transposing copy: registers laid out for both shared layouts (sizePerThread [1, 4], threadsPerWarp [32, 1])
  tt.func @columns_to_rows() attributes {"ttg.num-warps" = 4 : i32} {
    %stage = ttg.local_alloc : () -> !ttg.memdesc<128x64xf32, #col_major, #smem, mutable>
    %a = ttg.local_load %stage : !ttg.memdesc<128x64xf32, #col_major, #smem, mutable> -> tensor<128x64xf32, #cols4>
    %k = ttg.local_alloc %a : (tensor<128x64xf32, #cols4>) -> !ttg.memdesc<128x64xf32, #nvmma_n, #smem>
    tt.return
  }

  // Left as they are. The registers have a second reader:
  // CHECK-LABEL: tt.func @second_reader
  // CHECK: ttg.local_load %{{.+}} -> tensor<32x128xf32, #[[ROWS]]>
  tt.func @second_reader() -> tensor<32x128xf32, #rows> {
    %stage = ttg.local_alloc : () -> !ttg.memdesc<32x128xf32, #nvmma_n, #smem, mutable>
    %b = ttg.local_load %stage : !ttg.memdesc<32x128xf32, #nvmma_n, #smem, mutable> -> tensor<32x128xf32, #rows>
    %k = ttg.local_alloc %b : (tensor<32x128xf32, #rows>) -> !ttg.memdesc<32x128xf32, #nvmma_k, #smem>
    tt.return %b : tensor<32x128xf32, #rows>
  }

  // Source and destination contiguous along the same dim (a copy, no transposition):
  // CHECK-LABEL: tt.func @same_order
  // CHECK: ttg.local_load %{{.+}} -> tensor<32x128xf32, #[[ROWS]]>
  tt.func @same_order() {
    %stage = ttg.local_alloc : () -> !ttg.memdesc<32x128xf32, #nvmma_n, #smem, mutable>
    %b = ttg.local_load %stage : !ttg.memdesc<32x128xf32, #nvmma_n, #smem, mutable> -> tensor<32x128xf32, #rows>
    %k = ttg.local_alloc %b : (tensor<32x128xf32, #rows>) -> !ttg.memdesc<32x128xf32, #nvmma_n, #smem>
    tt.return
  }

  // Registers already holding vectors along the destination's contiguous dim (K):
  // CHECK-LABEL: tt.func @already_along_destination
  // CHECK: ttg.local_load %{{.+}} -> tensor<32x128xf32, #[[PAIRS]]>
  tt.func @already_along_destination() {
    %stage = ttg.local_alloc : () -> !ttg.memdesc<32x128xf32, #nvmma_n, #smem, mutable>
    %b = ttg.local_load %stage : !ttg.memdesc<32x128xf32, #nvmma_n, #smem, mutable> -> tensor<32x128xf32, #pairs>
    %k = ttg.local_alloc %b : (tensor<32x128xf32, #pairs>) -> !ttg.memdesc<32x128xf32, #nvmma_k, #smem>
    tt.return
  }
}
// REMARK-NOT: remark
