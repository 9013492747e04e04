// RUN: ttpipe-opt %s --split-input-file -p ttpipe-accelerate-matmul | filecheck %s
// RUN: env TRITON_PREFER_TMEM_16x256_LAYOUT=1 ttpipe-opt %s --split-input-file -p ttpipe-accelerate-matmul | filecheck %s --check-prefix=LAYOUT16

// Two CTAs splitting M (256 rows, 128 per CTA). With B loaded from global memory, the MMA
// runs as one 2-CTA tcgen05 (`two_ctas`): B's shared buffer is split along N between the
// CTAs (its loaded value converted to that CGA layout first) and the TMEM accumulator is
// marked twoCTAs. With B already in registers, each CTA runs its own MMA on its half of M
// (CTASplitM = 2 only). The TMEM register layout gets one CTA per 128 rows.
// CHECK-DAG: #[[$TMEM2:.+]] = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1, CTASplitM = 2, twoCTAs = true>
// CHECK-DAG: #[[$TMEM1:.+]] = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1, CTASplitM = 2>
// CHECK-DAG: #[[$B_SPLIT:.+]] = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16, CGALayout = {{\[\[0, 1\]\]}}}>
// CHECK-DAG: #[[$REGS:.+]] = #ttg.linear<{register = {{.*}}, block = {{\[\[128, 0\]\]}}}>
// CHECK-LABEL: tt.func @b_loaded(
// CHECK: %[[B:.+]] = ttg.local_alloc %{{.+}} -> !ttg.memdesc<64x128xf16, #[[$B_SPLIT]], #smem>
// CHECK: %[[ACC:[^ ,]+]], %[[TOK:.+]] = ttng.tmem_alloc %{{.+}} : (tensor<256x128xf32, #[[$REGS]]>) -> (!ttg.memdesc<256x128xf32, #[[$TMEM2]]
// CHECK: ttng.tc_gen5_mma %{{.+}}, %[[B]], %[[ACC]][%[[TOK]]], %{{.+}}, %{{.+}} {two_ctas}
// CHECK-LABEL: tt.func @b_in_registers(
// CHECK: ttng.tmem_alloc %{{.+}} -> (!ttg.memdesc<256x128xf32, #[[$TMEM1]]
// CHECK: ttng.tc_gen5_mma
// CHECK-NOT: two_ctas
// CHECK: ttng.tmem_load
#blk = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0], CGALayout = [[1, 0]]}>
#acc = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0], CGALayout = [[1, 0]]}>
module attributes {"ttg.num-ctas" = 2 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:100", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @b_loaded(%a_ptr: tensor<256x64x!tt.ptr<f16>, #blk>, %b_ptr: tensor<64x128x!tt.ptr<f16>, #blk>) -> tensor<256x128xf32, #acc> {
    %z = arith.constant dense<0.000000e+00> : tensor<256x128xf32, #acc>
    %a = tt.load %a_ptr : tensor<256x64x!tt.ptr<f16>, #blk>
    %b = tt.load %b_ptr : tensor<64x128x!tt.ptr<f16>, #blk>
    %ao = ttg.convert_layout %a : tensor<256x64xf16, #blk> -> tensor<256x64xf16, #ttg.dot_op<{opIdx = 0, parent = #acc}>>
    %bo = ttg.convert_layout %b : tensor<64x128xf16, #blk> -> tensor<64x128xf16, #ttg.dot_op<{opIdx = 1, parent = #acc}>>
    %d = tt.dot %ao, %bo, %z : tensor<256x64xf16, #ttg.dot_op<{opIdx = 0, parent = #acc}>> * tensor<64x128xf16, #ttg.dot_op<{opIdx = 1, parent = #acc}>> -> tensor<256x128xf32, #acc>
    tt.return %d : tensor<256x128xf32, #acc>
  }
  tt.func @b_in_registers(%a_ptr: tensor<256x64x!tt.ptr<f16>, #blk>, %b: tensor<64x128xf16, #blk>) -> tensor<256x128xf32, #acc> {
    %z = arith.constant dense<0.000000e+00> : tensor<256x128xf32, #acc>
    %a = tt.load %a_ptr : tensor<256x64x!tt.ptr<f16>, #blk>
    %ao = ttg.convert_layout %a : tensor<256x64xf16, #blk> -> tensor<256x64xf16, #ttg.dot_op<{opIdx = 0, parent = #acc}>>
    %bo = ttg.convert_layout %b : tensor<64x128xf16, #blk> -> tensor<64x128xf16, #ttg.dot_op<{opIdx = 1, parent = #acc}>>
    %d = tt.dot %ao, %bo, %z : tensor<256x64xf16, #ttg.dot_op<{opIdx = 0, parent = #acc}>> * tensor<64x128xf16, #ttg.dot_op<{opIdx = 1, parent = #acc}>> -> tensor<256x128xf32, #acc>
    tt.return %d : tensor<256x128xf32, #acc>
  }
}

// -----

// The accumulator's register layout for TMEM loads and stores: by default the 32x32b
// message (each thread one row, all 256 columns); with TRITON_PREFER_TMEM_16x256_LAYOUT the
// 16x256b message (lanes spread over 8 rows and pairs of columns).
// CHECK-DAG: #[[$L32:.+]] = #ttg.linear<{register = {{\[\[0, 1\], \[0, 2\], \[0, 4\], \[0, 8\], \[0, 16\], \[0, 32\], \[0, 64\], \[0, 128\]\]}}, lane = {{\[\[1, 0\], \[2, 0\], \[4, 0\], \[8, 0\], \[16, 0\]\]}}, warp = {{\[\[32, 0\], \[64, 0\]\]}}, block = []}>
// CHECK-LABEL: tt.func @wide(
// CHECK: ttng.tmem_load {{.*}} -> tensor<128x256xf32, #[[$L32]]>
// LAYOUT16-DAG: #[[$L16:.+]] = #ttg.linear<{register = {{\[\[0, 1\], \[8, 0\], \[0, 8\], \[0, 16\], \[0, 32\], \[0, 64\], \[0, 128\], \[16, 0\]\]}}, lane = {{\[\[0, 2\], \[0, 4\], \[1, 0\], \[2, 0\], \[4, 0\]\]}}, warp = {{\[\[32, 0\], \[64, 0\]\]}}, block = []}>
// LAYOUT16-LABEL: tt.func @wide(
// LAYOUT16: ttng.tmem_load {{.*}} -> tensor<128x256xf32, #[[$L16]]>
#blk = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#acc = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:100", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @wide(%a_ptr: tensor<128x64x!tt.ptr<f16>, #blk>, %b_ptr: tensor<64x256x!tt.ptr<f16>, #blk>) -> tensor<128x256xf32, #acc> {
    %z = arith.constant dense<0.000000e+00> : tensor<128x256xf32, #acc>
    %a = tt.load %a_ptr : tensor<128x64x!tt.ptr<f16>, #blk>
    %b = tt.load %b_ptr : tensor<64x256x!tt.ptr<f16>, #blk>
    %ao = ttg.convert_layout %a : tensor<128x64xf16, #blk> -> tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #acc}>>
    %bo = ttg.convert_layout %b : tensor<64x256xf16, #blk> -> tensor<64x256xf16, #ttg.dot_op<{opIdx = 1, parent = #acc}>>
    %d = tt.dot %ao, %bo, %z : tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #acc}>> * tensor<64x256xf16, #ttg.dot_op<{opIdx = 1, parent = #acc}>> -> tensor<128x256xf32, #acc>
    tt.return %d : tensor<128x256xf32, #acc>
  }
}

// -----

// Sixteen warps are more than tcgen05 can use here: the dot falls back to mma.sync (v2).
// CHECK-DAG: #[[$MMA2:.+]] = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 8], instrShape = [16, 8]}>
// CHECK-LABEL: tt.func @sixteen_warps(
// CHECK-NOT: ttng.tc_gen5_mma
// CHECK: tt.dot {{.*}} -> tensor<128x256xf32, #[[$MMA2]]>
#blk = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [16, 1], order = [1, 0]}>
#acc = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [16, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 16 : i32, ttg.target = "cuda:100", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @sixteen_warps(%a_ptr: tensor<128x64x!tt.ptr<f16>, #blk>, %b_ptr: tensor<64x256x!tt.ptr<f16>, #blk>) -> tensor<128x256xf32, #acc> {
    %z = arith.constant dense<0.000000e+00> : tensor<128x256xf32, #acc>
    %a = tt.load %a_ptr : tensor<128x64x!tt.ptr<f16>, #blk>
    %b = tt.load %b_ptr : tensor<64x256x!tt.ptr<f16>, #blk>
    %ao = ttg.convert_layout %a : tensor<128x64xf16, #blk> -> tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #acc}>>
    %bo = ttg.convert_layout %b : tensor<64x256xf16, #blk> -> tensor<64x256xf16, #ttg.dot_op<{opIdx = 1, parent = #acc}>>
    %d = tt.dot %ao, %bo, %z : tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #acc}>> * tensor<64x256xf16, #ttg.dot_op<{opIdx = 1, parent = #acc}>> -> tensor<128x256xf32, #acc>
    tt.return %d : tensor<128x256xf32, #acc>
  }
}
