// Block scales feeding tcgen05: AccelerateMatmul routes them through a local_alloc that
// OptimizeDotOperands leaves read through reshape/transpose views. Once the scale loads are
// staged, those local_allocs disappear: the views are rebuilt on the ring slot (mutable),
// and the MMA reads the scales straight from the ring.
// RUN: ttpipe-opt %s --strip-debuginfo -p ttpipe-lower-loops | filecheck %s

// Four TMA loads issued together share one mbarrier per slot, expecting
// 128x128 + 256x128 (f8) + 512 + 1024 (scales) = 50688 bytes. The rings are 3 deep: the MMA's
// wait_barrier, a stage after the MMA, still guards them.
// CHECK-LABEL: tt.func @mxfp8_scales
// CHECK-SAME: (%{{[^:]+}}: {{.*}}, %{{[^:]+}}: {{.*}}, %[[A_SCALE_DESC:[^:]+]]: !tt.tensordesc<tensor<1x1x1x2x256xui8, #shared1>>, %[[B_SCALE_DESC:[^:]+]]: !tt.tensordesc<tensor<1x2x1x2x256xui8, #shared1>>
// CHECK: %[[MMA_BARS:.*]] = ttg.local_alloc : () -> !ttg.memdesc<2x1xi64
// CHECK: %[[A_RING:.*]] = ttg.local_alloc : () -> !ttg.memdesc<3x128x128xf8E4M3FN, #shared, #smem, mutable>
// CHECK: %[[B_RING:.*]] = ttg.local_alloc : () -> !ttg.memdesc<3x256x128xf8E4M3FN, #shared, #smem, mutable>
// CHECK: %[[A_SCALE_RING:.*]] = ttg.local_alloc : () -> !ttg.memdesc<3x1x1x1x2x256xi8, #shared1, #smem, mutable>
// CHECK: %[[B_SCALE_RING:.*]] = ttg.local_alloc : () -> !ttg.memdesc<3x1x2x1x2x256xi8, #shared1, #smem, mutable>
// CHECK: %[[LOAD_BARS:.*]] = ttg.local_alloc : () -> !ttg.memdesc<3x1xi64
// CHECK: scf.for %[[K:[^ ]+]] = {{.*}} iter_args(%[[USE_ACC:[^ ]+]] = %{{[^ ]+}}, %{{[^ ]+}} = %{{[^ ]+}}, %[[MMA_PHASE:[^ ]+]] = %{{[^ ]+}}, %[[MMA_BAR_IDX:[^ ]+]] = %{{[^ ]+}}, %{{[^ ]+}} = %{{[^ ]+}}, %{{[^ ]+}} = %{{[^ ]+}}, %{{[^ ]+}} = %{{[^ ]+}})
// CHECK-NOT: ttg.local_alloc
// CHECK: %[[BAR:.*]] = ttg.memdesc_index %[[LOAD_BARS]]
// CHECK: ttng.barrier_expect %[[BAR]], 50688
// CHECK: ttng.async_tma_copy_global_to_local {{.*}}, %[[BAR]]
// CHECK: ttng.async_tma_copy_global_to_local {{.*}}, %[[BAR]]
// CHECK: %[[A_SCALE_SLOT:.*]] = ttg.memdesc_index %[[A_SCALE_RING]]
// CHECK: ttng.async_tma_copy_global_to_local %[[A_SCALE_DESC]][{{.*}}, %[[K]], {{.*}}] %[[A_SCALE_SLOT]], %[[BAR]]
// CHECK: %[[B_SCALE_SLOT:.*]] = ttg.memdesc_index %[[B_SCALE_RING]]
// CHECK: ttng.async_tma_copy_global_to_local %[[B_SCALE_DESC]][{{.*}}, %[[K]], {{.*}}] %[[B_SCALE_SLOT]], %[[BAR]]
// CHECK: ttng.wait_barrier %{{.*}} {loop.cluster = 0 : i32, loop.stage = 2 : i32}
// CHECK-NEXT: %[[B_SCALE_READ:.*]] = ttg.memdesc_index %[[B_SCALE_RING]]
// CHECK-NEXT: %[[A_SCALE_READ:.*]] = ttg.memdesc_index %[[A_SCALE_RING]]
// CHECK-NEXT: %[[B_READ:.*]] = ttg.memdesc_index %[[B_RING]]
// CHECK-NEXT: %[[A_READ:.*]] = ttg.memdesc_index %[[A_RING]]
// CHECK-NEXT: %[[B_T:.*]] = ttg.memdesc_trans %[[B_READ]]
// CHECK-NEXT: %[[A_TILES:.*]] = ttg.memdesc_reshape %[[A_SCALE_READ]] {loop.cluster = 0 : i32, loop.stage = 2 : i32} : !ttg.memdesc<1x1x1x2x256xi8, #shared1, #smem, mutable> -> !ttg.memdesc<1x1x32x4x4xi8, #shared4, #smem, mutable>
// CHECK-NEXT: %[[A_TILES_T:.*]] = ttg.memdesc_trans %[[A_TILES]] {{.*}} -> !ttg.memdesc<1x4x32x1x4xi8, #shared5, #smem, mutable>
// CHECK-NEXT: %[[A_SCALES:.*]] = ttg.memdesc_reshape %[[A_TILES_T]] {{.*}} -> !ttg.memdesc<128x4xi8, #shared6, #smem, mutable>
// CHECK-NEXT: %[[B_TILES:.*]] = ttg.memdesc_reshape %[[B_SCALE_READ]]
// CHECK-NEXT: %[[B_TILES_T:.*]] = ttg.memdesc_trans %[[B_TILES]]
// CHECK-NEXT: %[[B_SCALES:.*]] = ttg.memdesc_reshape %[[B_TILES_T]] {{.*}} -> !ttg.memdesc<256x4xi8, #shared9, #smem, mutable>
// CHECK: %[[MMA_BAR:.*]] = ttg.memdesc_index %[[MMA_BARS]][%[[MMA_BAR_IDX]]]
// CHECK-NEXT: ttng.tc_gen5_mma_scaled %[[A_READ]], %[[B_T]], %{{.*}}, %[[A_SCALES]], %[[B_SCALES]], %[[USE_ACC]], %{{.*}} lhs = e4m3 rhs = e4m3, %[[MMA_BAR]][%{{.*}}] {is_async, loop.cluster = 0 : i32, loop.stage = 2 : i32}
// CHECK-NEXT: ttng.wait_barrier %[[MMA_BAR]], %[[MMA_PHASE]] deps %[[A_READ]], %[[B_T]], %[[A_SCALES]], %[[B_SCALES]] {loop.cluster = 0 : i32, loop.stage = 3 : i32}
// CHECK: } {tt.num_stages = 3 : i32, tt.scheduled_max_stage = 3 : i32}
#blocked = #ttg.blocked<{sizePerThread = [1, 16], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1, 1, 1, 4], threadsPerWarp = [1, 1, 1, 1, 32], warpsPerCTA = [1, 1, 1, 2, 2], order = [4, 3, 2, 1, 0]}>
#blocked2 = #ttg.blocked<{sizePerThread = [1, 1, 1, 1, 8], threadsPerWarp = [1, 1, 1, 1, 32], warpsPerCTA = [1, 2, 1, 2, 1], order = [4, 3, 2, 1, 0]}>
#linear = #ttg.linear<{register = [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [0, 32], [0, 64], [0, 128]], lane = [[1, 0], [2, 0], [4, 0], [8, 0], [16, 0]], warp = [[32, 0], [64, 0]], block = []}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 8}>
#shared1 = #ttg.nvmma_shared<{swizzlingByteWidth = 0, transposed = false, elementBitWidth = 8, rank = 5}>
#shared3 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 8}>
#shared4 = #ttg.shared_linear<{offset = [[0, 0, 0, 0, 1], [0, 0, 0, 0, 2], [0, 0, 0, 1, 0], [0, 0, 0, 2, 0], [0, 0, 1, 0, 0], [0, 0, 2, 0, 0], [0, 0, 4, 0, 0], [0, 0, 8, 0, 0], [0, 0, 16, 0, 0]]}, alignment = 128>
#shared5 = #ttg.shared_linear<{offset = [[0, 0, 0, 0, 1], [0, 0, 0, 0, 2], [0, 1, 0, 0, 0], [0, 2, 0, 0, 0], [0, 0, 1, 0, 0], [0, 0, 2, 0, 0], [0, 0, 4, 0, 0], [0, 0, 8, 0, 0], [0, 0, 16, 0, 0]]}, alignment = 128>
#shared6 = #ttg.shared_linear<{offset = [[0, 1], [0, 2], [32, 0], [64, 0], [1, 0], [2, 0], [4, 0], [8, 0], [16, 0]]}, alignment = 128>
#shared7 = #ttg.shared_linear<{offset = [[0, 0, 0, 0, 1], [0, 0, 0, 0, 2], [0, 0, 0, 1, 0], [0, 0, 0, 2, 0], [0, 0, 1, 0, 0], [0, 0, 2, 0, 0], [0, 0, 4, 0, 0], [0, 0, 8, 0, 0], [0, 0, 16, 0, 0], [1, 0, 0, 0, 0]]}, alignment = 128>
#shared8 = #ttg.shared_linear<{offset = [[0, 0, 0, 0, 1], [0, 0, 0, 0, 2], [0, 1, 0, 0, 0], [0, 2, 0, 0, 0], [0, 0, 1, 0, 0], [0, 0, 2, 0, 0], [0, 0, 4, 0, 0], [0, 0, 8, 0, 0], [0, 0, 16, 0, 0], [1, 0, 0, 0, 0]]}, alignment = 128>
#shared9 = #ttg.shared_linear<{offset = [[0, 1], [0, 2], [32, 0], [64, 0], [1, 0], [2, 0], [4, 0], [8, 0], [16, 0], [128, 0]]}, alignment = 128>
#smem = #ttg.shared_memory
#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 256, colStride = 1>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:100", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @mxfp8_scales(%a_desc: !tt.tensordesc<tensor<128x128xf8E4M3FN, #shared>>, %b_desc: !tt.tensordesc<tensor<256x128xf8E4M3FN, #shared>>,
      %a_scale_desc: !tt.tensordesc<tensor<1x1x1x2x256xui8, #shared1>>, %b_scale_desc: !tt.tensordesc<tensor<1x2x1x2x256xui8, #shared1>>,
      %k_tiles: i32, %m: i32, %n: i32) -> tensor<128x256xf32, #linear> {
    %cst = arith.constant dense<0.000000e+00> : tensor<128x256xf32, #linear>
    %true = arith.constant true
    %false = arith.constant false
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %c128_i32 = arith.constant 128 : i32
    %acc, %acc_tok = ttng.tmem_alloc : () -> (!ttg.memdesc<128x256xf32, #tmem, #ttng.tensor_memory, mutable>, !ttg.async.token)
    %init_tok = ttng.tmem_store %cst, %acc[%acc_tok], %true : tensor<128x256xf32, #linear> -> !ttg.memdesc<128x256xf32, #tmem, #ttng.tensor_memory, mutable>
    %res:2 = scf.for %k = %c0_i32 to %k_tiles step %c1_i32 iter_args(%use_acc = %false, %tok = %init_tok) -> (i1, !ttg.async.token)  : i32 {
      %off_k = arith.muli %k, %c128_i32 {loop.cluster = 2 : i32, loop.stage = 0 : i32} : i32
      %a = tt.descriptor_load %a_desc[%m, %off_k] {loop.cluster = 2 : i32, loop.stage = 0 : i32} : !tt.tensordesc<tensor<128x128xf8E4M3FN, #shared>> -> tensor<128x128xf8E4M3FN, #blocked>
      %a_smem = ttg.local_alloc %a {loop.cluster = 0 : i32, loop.stage = 2 : i32} : (tensor<128x128xf8E4M3FN, #blocked>) -> !ttg.memdesc<128x128xf8E4M3FN, #shared, #smem>
      %b = tt.descriptor_load %b_desc[%n, %off_k] {loop.cluster = 2 : i32, loop.stage = 0 : i32} : !tt.tensordesc<tensor<256x128xf8E4M3FN, #shared>> -> tensor<256x128xf8E4M3FN, #blocked>
      %a_scale = tt.descriptor_load %a_scale_desc[%c0_i32, %m, %k, %c0_i32, %c0_i32] {loop.cluster = 2 : i32, loop.stage = 0 : i32} : !tt.tensordesc<tensor<1x1x1x2x256xui8, #shared1>> -> tensor<1x1x1x2x256xi8, #blocked1>
      %a_scale_smem = ttg.local_alloc %a_scale {loop.cluster = 0 : i32, loop.stage = 2 : i32} : (tensor<1x1x1x2x256xi8, #blocked1>) -> !ttg.memdesc<1x1x1x2x256xi8, #shared1, #smem>
      %b_scale = tt.descriptor_load %b_scale_desc[%c0_i32, %n, %k, %c0_i32, %c0_i32] {loop.cluster = 2 : i32, loop.stage = 0 : i32} : !tt.tensordesc<tensor<1x2x1x2x256xui8, #shared1>> -> tensor<1x2x1x2x256xi8, #blocked2>
      %b_scale_smem = ttg.local_alloc %b_scale {loop.cluster = 0 : i32, loop.stage = 2 : i32} : (tensor<1x2x1x2x256xi8, #blocked2>) -> !ttg.memdesc<1x2x1x2x256xi8, #shared1, #smem>
      %b_smem = ttg.local_alloc %b {loop.cluster = 0 : i32, loop.stage = 2 : i32} : (tensor<256x128xf8E4M3FN, #blocked>) -> !ttg.memdesc<256x128xf8E4M3FN, #shared, #smem>
      %b_t = ttg.memdesc_trans %b_smem {loop.cluster = 0 : i32, loop.stage = 2 : i32, order = array<i32: 1, 0>} : !ttg.memdesc<256x128xf8E4M3FN, #shared, #smem> -> !ttg.memdesc<128x256xf8E4M3FN, #shared3, #smem>
      %a_tiles = ttg.memdesc_reshape %a_scale_smem {loop.cluster = 0 : i32, loop.stage = 2 : i32} : !ttg.memdesc<1x1x1x2x256xi8, #shared1, #smem> -> !ttg.memdesc<1x1x32x4x4xi8, #shared4, #smem>
      %a_tiles_t = ttg.memdesc_trans %a_tiles {loop.cluster = 0 : i32, loop.stage = 2 : i32, order = array<i32: 0, 3, 2, 1, 4>} : !ttg.memdesc<1x1x32x4x4xi8, #shared4, #smem> -> !ttg.memdesc<1x4x32x1x4xi8, #shared5, #smem>
      %a_scales = ttg.memdesc_reshape %a_tiles_t {loop.cluster = 0 : i32, loop.stage = 2 : i32} : !ttg.memdesc<1x4x32x1x4xi8, #shared5, #smem> -> !ttg.memdesc<128x4xi8, #shared6, #smem>
      %b_tiles = ttg.memdesc_reshape %b_scale_smem {loop.cluster = 0 : i32, loop.stage = 2 : i32} : !ttg.memdesc<1x2x1x2x256xi8, #shared1, #smem> -> !ttg.memdesc<2x1x32x4x4xi8, #shared7, #smem>
      %b_tiles_t = ttg.memdesc_trans %b_tiles {loop.cluster = 0 : i32, loop.stage = 2 : i32, order = array<i32: 0, 3, 2, 1, 4>} : !ttg.memdesc<2x1x32x4x4xi8, #shared7, #smem> -> !ttg.memdesc<2x4x32x1x4xi8, #shared8, #smem>
      %b_scales = ttg.memdesc_reshape %b_tiles_t {loop.cluster = 0 : i32, loop.stage = 2 : i32} : !ttg.memdesc<2x4x32x1x4xi8, #shared8, #smem> -> !ttg.memdesc<256x4xi8, #shared9, #smem>
      %mma_tok = ttng.tc_gen5_mma_scaled %a_smem, %b_t, %acc[%tok], %a_scales, %b_scales, %use_acc, %true lhs = e4m3 rhs = e4m3 {loop.cluster = 0 : i32, loop.stage = 2 : i32, tt.self_latency = 1 : i32} : !ttg.memdesc<128x128xf8E4M3FN, #shared, #smem>, !ttg.memdesc<128x256xf8E4M3FN, #shared3, #smem>, !ttg.memdesc<128x256xf32, #tmem, #ttng.tensor_memory, mutable>, !ttg.memdesc<128x4xi8, #shared6, #smem>, !ttg.memdesc<256x4xi8, #shared9, #smem>
      scf.yield %true, %mma_tok : i1, !ttg.async.token
    } {tt.num_stages = 3 : i32, tt.scheduled_max_stage = 2 : i32}
    %out, %out_tok = ttng.tmem_load %acc[%res#1] : !ttg.memdesc<128x256xf32, #tmem, #ttng.tensor_memory, mutable> -> tensor<128x256xf32, #linear>
    tt.return %out : tensor<128x256xf32, #linear>
  }
}
