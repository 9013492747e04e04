// tcgen05 block scales: a scale put in TMEM by tmem_alloc(reshape(trans(reshape(local_load(smem)))))
// is read from shared memory instead, as memdesc_reshape(memdesc_trans(memdesc_reshape(smem)))
// with shared-linear encodings. (Triton 3.6 inserts the ttng.tmem_copy into TMEM later, in
// triton-nvidia-mma-lowering; this pass removes the register round trip and the tmem_alloc.)
// RUN: ttpipe-opt %s --split-input-file -p ttpipe-optimize-dot-operands | filecheck %s

// Scales loaded by TMA (tt.descriptor_load) into a 5-D unswizzled NVMMA buffer.
// CHECK-DAG: #[[$SCALE_SMEM:.+]] = #ttg.nvmma_shared<{swizzlingByteWidth = 0, transposed = false, elementBitWidth = 8, rank = 5}>
// CHECK-DAG: #[[$TILES:.+]] = #ttg.shared_linear<{offset = {{\[\[0, 0, 0, 0, 1\], \[0, 0, 0, 0, 2\], \[0, 0, 0, 1, 0\], \[0, 0, 0, 2, 0\], \[0, 0, 1, 0, 0\]}}, [0, 0, 2, 0, 0], [0, 0, 4, 0, 0], [0, 0, 8, 0, 0], [0, 0, 16, 0, 0]]}, alignment = 128>
// CHECK-DAG: #[[$SHUFFLED:.+]] = #ttg.shared_linear<{offset = {{\[\[0, 0, 0, 0, 1\], \[0, 0, 0, 0, 2\], \[0, 1, 0, 0, 0\], \[0, 2, 0, 0, 0\], \[0, 0, 1, 0, 0\]}}, [0, 0, 2, 0, 0], [0, 0, 4, 0, 0], [0, 0, 8, 0, 0], [0, 0, 16, 0, 0]]}, alignment = 128>
// CHECK-DAG: #[[$SCALES_2D:.+]] = #ttg.shared_linear<{offset = {{\[\[0, 1\], \[0, 2\], \[32, 0\], \[64, 0\], \[1, 0\], \[2, 0\], \[4, 0\], \[8, 0\], \[16, 0\]\]}}}, alignment = 128>
#blocked = #ttg.blocked<{sizePerThread = [1, 1, 1, 1, 8], threadsPerWarp = [1, 1, 1, 1, 32], warpsPerCTA = [1, 1, 1, 4, 1], order = [4, 3, 2, 1, 0]}>
#linear = #ttg.linear<{register = [[0, 0, 0, 0, 1], [0, 0, 0, 0, 2], [0, 0, 0, 0, 4], [0, 0, 0, 0, 8]], lane = [[0, 0, 0, 0, 16], [0, 0, 0, 0, 32], [0, 0, 0, 0, 64], [0, 0, 0, 0, 128], [0, 0, 0, 1, 0]], warp = [[0, 0, 0, 0, 0], [0, 0, 0, 0, 0]], block = []}>
#linear3 = #ttg.linear<{register = [[0, 0, 0, 0, 1], [0, 0, 0, 0, 2], [0, 0, 0, 1, 0], [0, 0, 0, 2, 0]], lane = [[0, 0, 1, 0, 0], [0, 0, 2, 0, 0], [0, 0, 4, 0, 0], [0, 0, 8, 0, 0], [0, 0, 16, 0, 0]], warp = [[0, 0, 0, 0, 0], [0, 0, 0, 0, 0]], block = []}>
#linear4 = #ttg.linear<{register = [[0, 0, 0, 0, 1], [0, 0, 0, 0, 2], [0, 1, 0, 0, 0], [0, 2, 0, 0, 0]], lane = [[0, 0, 1, 0, 0], [0, 0, 2, 0, 0], [0, 0, 4, 0, 0], [0, 0, 8, 0, 0], [0, 0, 16, 0, 0]], warp = [[0, 0, 0, 0, 0], [0, 0, 0, 0, 0]], block = []}>
#linear5 = #ttg.linear<{register = [[0, 1], [0, 2], [32, 0], [64, 0]], lane = [[1, 0], [2, 0], [4, 0], [8, 0], [16, 0]], warp = [[0, 0], [0, 0]], block = []}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 8}>
#shared1 = #ttg.nvmma_shared<{swizzlingByteWidth = 0, transposed = false, elementBitWidth = 8, rank = 5}>
#smem = #ttg.shared_memory
#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>
#tmem_scales = #ttng.tensor_memory_scales_encoding<>
module attributes {"ttg.target" = "cuda:100", "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @tma_scales
  tt.func @tma_scales(%desc: !tt.tensordesc<tensor<1x1x1x2x256xui8>>, %a: !ttg.memdesc<128x128xf8E4M3FN, #shared, #smem>, %b: !ttg.memdesc<128x128xf8E4M3FN, #shared, #smem>, %b_scale: !ttg.memdesc<128x4xi8, #tmem_scales, #ttng.tensor_memory>, %d: !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>) {
    %true = arith.constant true
    %c0_i32 = arith.constant 0 : i32
    // CHECK: %[[SMEM:.+]] = ttg.local_alloc %{{.+}} : (tensor<1x1x1x2x256xi8, #{{.+}}>) -> !ttg.memdesc<1x1x1x2x256xi8, #[[$SCALE_SMEM]], #smem>
    // CHECK-NOT: ttg.local_load
    // CHECK-NOT: tt.reshape
    // CHECK-NOT: tt.trans
    // CHECK: %[[TILES:.+]] = ttg.memdesc_reshape %[[SMEM]] : !ttg.memdesc<1x1x1x2x256xi8, #[[$SCALE_SMEM]], #smem> -> !ttg.memdesc<1x1x32x4x4xi8, #[[$TILES]], #smem>
    // CHECK: %[[SHUFFLED:.+]] = ttg.memdesc_trans %[[TILES]] {order = array<i32: 0, 3, 2, 1, 4>} : !ttg.memdesc<1x1x32x4x4xi8, #[[$TILES]], #smem> -> !ttg.memdesc<1x4x32x1x4xi8, #[[$SHUFFLED]], #smem>
    // CHECK: %[[SCALE:.+]] = ttg.memdesc_reshape %[[SHUFFLED]] : !ttg.memdesc<1x4x32x1x4xi8, #[[$SHUFFLED]], #smem> -> !ttg.memdesc<128x4xi8, #[[$SCALES_2D]], #smem>
    // CHECK-NOT: ttng.tmem_alloc
    // CHECK: ttng.tc_gen5_mma_scaled %{{.+}}, %{{.+}}, %{{.+}}, %[[SCALE]], %{{.+}}, %{{.+}}, %{{.+}} lhs = e4m3 rhs = e4m3 : {{.+}}, !ttg.memdesc<128x4xi8, #[[$SCALES_2D]], #smem>, !ttg.memdesc<128x4xi8, #tmem_scales, #ttng.tensor_memory>
    %load = tt.descriptor_load %desc[%c0_i32, %c0_i32, %c0_i32, %c0_i32, %c0_i32] : !tt.tensordesc<tensor<1x1x1x2x256xui8>> -> tensor<1x1x1x2x256xi8, #blocked>
    %smem = ttg.local_alloc %load : (tensor<1x1x1x2x256xi8, #blocked>) -> !ttg.memdesc<1x1x1x2x256xi8, #shared1, #smem>
    %regs = ttg.local_load %smem : !ttg.memdesc<1x1x1x2x256xi8, #shared1, #smem> -> tensor<1x1x1x2x256xi8, #linear>
    %tiles = tt.reshape %regs : tensor<1x1x1x2x256xi8, #linear> -> tensor<1x1x32x4x4xi8, #linear3>
    %shuffled = tt.trans %tiles {order = array<i32: 0, 3, 2, 1, 4>} : tensor<1x1x32x4x4xi8, #linear3> -> tensor<1x4x32x1x4xi8, #linear4>
    %scale = tt.reshape %shuffled : tensor<1x4x32x1x4xi8, #linear4> -> tensor<128x4xi8, #linear5>
    %a_scale = ttng.tmem_alloc %scale : (tensor<128x4xi8, #linear5>) -> !ttg.memdesc<128x4xi8, #tmem_scales, #ttng.tensor_memory>
    ttng.tc_gen5_mma_scaled %a, %b, %d, %a_scale, %b_scale, %true, %true lhs = e4m3 rhs = e4m3 : !ttg.memdesc<128x128xf8E4M3FN, #shared, #smem>, !ttg.memdesc<128x128xf8E4M3FN, #shared, #smem>, !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>, !ttg.memdesc<128x4xi8, #tmem_scales, #ttng.tensor_memory>, !ttg.memdesc<128x4xi8, #tmem_scales, #ttng.tensor_memory>
    tt.return
  }

  // The same 5-D buffer written from registers, not by TMA: tcgen05.cp needs a 2-D buffer
  // then, so the scale still goes through registers and tmem_alloc.
  // CHECK-LABEL: tt.func @register_scales_5d
  // CHECK: %[[REGS:.+]] = ttg.local_load
  // CHECK: tt.reshape %[[REGS]]
  // CHECK: tt.trans
  // CHECK: %[[SCALE:.+]] = tt.reshape
  // CHECK: %[[TMEM:.+]] = ttng.tmem_alloc %[[SCALE]]
  // CHECK-NOT: ttg.memdesc_reshape
  // CHECK: ttng.tc_gen5_mma_scaled %{{.+}}, %{{.+}}, %{{.+}}, %[[TMEM]],
  tt.func @register_scales_5d(%in: tensor<1x1x1x2x256xi8, #blocked>, %a: !ttg.memdesc<128x128xf8E4M3FN, #shared, #smem>, %b: !ttg.memdesc<128x128xf8E4M3FN, #shared, #smem>, %b_scale: !ttg.memdesc<128x4xi8, #tmem_scales, #ttng.tensor_memory>, %d: !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>) {
    %true = arith.constant true
    %smem = ttg.local_alloc %in : (tensor<1x1x1x2x256xi8, #blocked>) -> !ttg.memdesc<1x1x1x2x256xi8, #shared1, #smem>
    %regs = ttg.local_load %smem : !ttg.memdesc<1x1x1x2x256xi8, #shared1, #smem> -> tensor<1x1x1x2x256xi8, #linear>
    %tiles = tt.reshape %regs : tensor<1x1x1x2x256xi8, #linear> -> tensor<1x1x32x4x4xi8, #linear3>
    %shuffled = tt.trans %tiles {order = array<i32: 0, 3, 2, 1, 4>} : tensor<1x1x32x4x4xi8, #linear3> -> tensor<1x4x32x1x4xi8, #linear4>
    %scale = tt.reshape %shuffled : tensor<1x4x32x1x4xi8, #linear4> -> tensor<128x4xi8, #linear5>
    %a_scale = ttng.tmem_alloc %scale : (tensor<128x4xi8, #linear5>) -> !ttg.memdesc<128x4xi8, #tmem_scales, #ttng.tensor_memory>
    ttng.tc_gen5_mma_scaled %a, %b, %d, %a_scale, %b_scale, %true, %true lhs = e4m3 rhs = e4m3 : !ttg.memdesc<128x128xf8E4M3FN, #shared, #smem>, !ttg.memdesc<128x128xf8E4M3FN, #shared, #smem>, !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>, !ttg.memdesc<128x4xi8, #tmem_scales, #ttng.tensor_memory>, !ttg.memdesc<128x4xi8, #tmem_scales, #ttng.tensor_memory>
    tt.return
  }
}
