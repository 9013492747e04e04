// RUN: ttpipe-opt %s --split-input-file --verify-diagnostics -p 'ttpipe-warp-specialize{epilogue=partition}'
// RUN: ttpipe-opt %s --split-input-file -p 'ttpipe-warp-specialize{epilogue=partition}' 2>/dev/null | filecheck %s

// The ping-pong kernel of pingpong.mlir with its epilogue handed to a one-warp partition
// (epilogue_partition.py): a channel of two 128x128 buffers (one per consumer region) with
// a full and an empty mbarrier each. Consumer region w, per tile: wait empty[w] (parity
// from 1, flipped per tile), local_store the tile into buffer w, fence, barrier, arrive
// full[w], and straight on to its next tile: no TMA store, no store wait in the consumers.
// The epilogue partition (partition2, 1 warp) runs every tile with a state over the two
// buffers: wait full, TMA store, wait for the store to read the buffer, barrier, arrive
// empty. requestedRegisters [232, 40, 40]: its warp and the producer's share a warpgroup.
// CHECK-LABEL: tt.func public @handoff(
// CHECK: %[[BUF:.+]] = ttg.local_alloc : () -> !ttg.memdesc<2x128x128xf16
// CHECK: %[[FULL:.+]] = ttg.local_alloc : () -> !ttg.memdesc<2x1xi64
// CHECK-COUNT-2: ttng.init_barrier {{.+}}, 1 :
// CHECK: %[[EMPTY:.+]] = ttg.local_alloc : () -> !ttg.memdesc<2x1xi64
// CHECK-COUNT-2: ttng.init_barrier {{.+}}, 1 :
// CHECK: ttg.warp_specialize({{.+}}) attributes {requestedRegisters = array<i32: 232, 40, 40>}
// CHECK-NEXT: default {
// CHECK: scf.for {{.+}} iter_args({{.+}}, %[[EP:[a-z0-9_]+]] = %c1_i32{{[_0-9]*}}) -> (i32, i32, i32, i32)
// CHECK: %[[MY_EMPTY:.+]] = ttg.memdesc_index %[[EMPTY]][%c0_i32
// CHECK-NEXT: ttng.wait_barrier %[[MY_EMPTY]], %[[EP]]
// CHECK: %[[MY_BUF:.+]] = ttg.memdesc_index %[[BUF]][%c0_i32
// CHECK-NEXT: ttg.local_store %{{.+}}, %[[MY_BUF]]
// CHECK-NEXT: ttng.fence_async_shared
// CHECK-NEXT: gpu.barrier
// CHECK: %[[MY_FULL:.+]] = ttg.memdesc_index %[[FULL]][%c0_i32
// CHECK-NEXT: ttng.arrive_barrier %[[MY_FULL]], 1 :
// CHECK-NOT: local_to_global
// CHECK-NOT: async_tma_store_wait
// CHECK: ttg.warp_yield
// CHECK: partition0(
// CHECK: ttg.memdesc_index %{{.+}}[%c1_i32
// CHECK: ttg.local_store
// CHECK-NOT: local_to_global
// CHECK: ttg.warp_return
// CHECK: partition1({{.+}}) num_warps(1) {
// CHECK: ttng.async_tma_copy_global_to_local
// CHECK: ttg.warp_return
// CHECK: partition2({{.+}}) num_warps(1) {
// CHECK: scf.for %{{.+}} = %{{.+}} to %{{.+}} step %{{.+}} iter_args(%[[I:.+]] = %{{.+}}, %[[P:.+]] = %{{.+}}) -> (i32, i32)
// CHECK: %[[F:.+]] = ttg.memdesc_index %{{.+}}[%[[I]]] : !ttg.memdesc<2x1xi64
// CHECK-NEXT: ttng.wait_barrier %[[F]], %[[P]]
// CHECK-NEXT: %[[B:.+]] = ttg.memdesc_index %{{.+}}[%[[I]]] : !ttg.memdesc<2x128x128xf16
// CHECK-NEXT: ttng.async_tma_copy_local_to_global %{{.+}}[%{{.+}}, %{{.+}}] %[[B]]
// CHECK-NEXT: ttng.async_tma_store_wait {pendings = 0 : i32}
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: %[[E:.+]] = ttg.memdesc_index %{{.+}}[%[[I]]] : !ttg.memdesc<2x1xi64
// CHECK-NEXT: ttng.arrive_barrier %[[E]], 1 :
// CHECK: ttg.warp_return
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 128, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @handoff(%a_desc: !tt.tensordesc<tensor<128x64xf16, #shared>>, %b_desc: !tt.tensordesc<tensor<128x64xf16, #shared>>, %c_desc: !tt.tensordesc<tensor<128x128xf16, #shared>>, %M: i32, %N: i32, %K: i32) attributes {noinline = false} {
    %c127_i32 = arith.constant 127 : i32
    %c128_i32 = arith.constant 128 : i32
    %c64_i32 = arith.constant 64 : i32
    %c132_i32 = arith.constant 132 : i32
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %c63_i32 = arith.constant 63 : i32
    %cst = arith.constant dense<0.000000e+00> : tensor<128x128xf32, #mma>
    %tiles_m = arith.addi %M, %c127_i32 : i32
    %tiles_m_1 = arith.divsi %tiles_m, %c128_i32 : i32
    %tiles_n = arith.addi %N, %c127_i32 : i32
    %tiles_n_1 = arith.divsi %tiles_n, %c128_i32 : i32
    %k_tiles = arith.addi %K, %c63_i32 : i32
    %k_tiles_1 = arith.divsi %k_tiles, %c64_i32 : i32
    %pid = tt.get_program_id x : i32
    %tiles = arith.muli %tiles_m_1, %tiles_n_1 : i32
    scf.for %tile = %pid to %tiles step %c132_i32  : i32 {
      %pid_m = arith.remsi %tile, %tiles_m_1 : i32
      %pid_n = arith.divsi %tile, %tiles_m_1 : i32
      %off_m = arith.muli %pid_m, %c128_i32 : i32
      %off_n = arith.muli %pid_n, %c128_i32 : i32
      %acc = scf.for %k = %c0_i32 to %k_tiles_1 step %c1_i32 iter_args(%c = %cst) -> (tensor<128x128xf32, #mma>)  : i32 {
        %off_k = arith.muli %k, %c64_i32 : i32
        %a = tt.descriptor_load %a_desc[%off_m, %off_k] : !tt.tensordesc<tensor<128x64xf16, #shared>> -> tensor<128x64xf16, #blocked>
        %as = ttg.local_alloc %a : (tensor<128x64xf16, #blocked>) -> !ttg.memdesc<128x64xf16, #shared, #smem>
        %b = tt.descriptor_load %b_desc[%off_n, %off_k] : !tt.tensordesc<tensor<128x64xf16, #shared>> -> tensor<128x64xf16, #blocked>
        %bs = ttg.local_alloc %b : (tensor<128x64xf16, #blocked>) -> !ttg.memdesc<128x64xf16, #shared, #smem>
        %bt = ttg.memdesc_trans %bs {order = array<i32: 1, 0>} : !ttg.memdesc<128x64xf16, #shared, #smem> -> !ttg.memdesc<64x128xf16, #shared1, #smem>
        %d = ttng.warp_group_dot %as, %bt, %c {inputPrecision = 0 : i32} : !ttg.memdesc<128x64xf16, #shared, #smem> * !ttg.memdesc<64x128xf16, #shared1, #smem> -> tensor<128x128xf32, #mma>
        scf.yield %d : tensor<128x128xf32, #mma>
      }
      %h = arith.truncf %acc : tensor<128x128xf32, #mma> to tensor<128x128xf16, #mma>
      %hb = ttg.convert_layout %h : tensor<128x128xf16, #mma> -> tensor<128x128xf16, #blocked1>
      tt.descriptor_store %c_desc[%off_m, %off_n], %hb : !tt.tensordesc<tensor<128x128xf16, #shared>>, tensor<128x128xf16, #blocked1>
    } {tt.warp_specialize}
    tt.return
  }
}

// -----

// A pointer-store epilogue cannot be handed to a TMA-store warp: it stays in the consumers
// (the remark says why) and the kernel is warp-specialized as without the option.
// CHECK-LABEL: tt.func public @pointer_store(
// CHECK: ttg.warp_specialize(
// CHECK-NOT: partition2
// CHECK: tt.return
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 128, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @pointer_store(%a_desc: !tt.tensordesc<tensor<128x64xf16, #shared>>, %b_desc: !tt.tensordesc<tensor<128x64xf16, #shared>>, %c_ptr: !tt.ptr<f16>, %N: i32, %tiles: i32, %k_tiles: i32) attributes {noinline = false} {
    %c128_i32 = arith.constant 128 : i32
    %c64_i32 = arith.constant 64 : i32
    %c132_i32 = arith.constant 132 : i32
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %cst = arith.constant dense<0.000000e+00> : tensor<128x128xf32, #mma>
    %rows = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #ttg.slice<{dim = 1, parent = #blocked1}>>
    %rows_1 = tt.expand_dims %rows {axis = 1 : i32} : tensor<128xi32, #ttg.slice<{dim = 1, parent = #blocked1}>> -> tensor<128x1xi32, #blocked1>
    %n_splat = tt.splat %N : i32 -> tensor<128x1xi32, #blocked1>
    %row_offsets = arith.muli %rows_1, %n_splat : tensor<128x1xi32, #blocked1>
    %cols = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #ttg.slice<{dim = 0, parent = #blocked1}>>
    %cols_1 = tt.expand_dims %cols {axis = 0 : i32} : tensor<128xi32, #ttg.slice<{dim = 0, parent = #blocked1}>> -> tensor<1x128xi32, #blocked1>
    %row_b = tt.broadcast %row_offsets : tensor<128x1xi32, #blocked1> -> tensor<128x128xi32, #blocked1>
    %col_b = tt.broadcast %cols_1 : tensor<1x128xi32, #blocked1> -> tensor<128x128xi32, #blocked1>
    %offsets = arith.addi %row_b, %col_b : tensor<128x128xi32, #blocked1>
    %pid = tt.get_program_id x : i32
    // expected-remark @below {{epilogue kept in the consumers: its side effects are not all tt.descriptor_store (TMA stores hand off; pointer stores do not)}}
    scf.for %tile = %pid to %tiles step %c132_i32  : i32 {
      %off_m = arith.muli %tile, %c128_i32 : i32
      %acc = scf.for %k = %c0_i32 to %k_tiles step %c1_i32 iter_args(%c = %cst) -> (tensor<128x128xf32, #mma>)  : i32 {
        %off_k = arith.muli %k, %c64_i32 : i32
        %a = tt.descriptor_load %a_desc[%off_m, %off_k] : !tt.tensordesc<tensor<128x64xf16, #shared>> -> tensor<128x64xf16, #blocked>
        %as = ttg.local_alloc %a : (tensor<128x64xf16, #blocked>) -> !ttg.memdesc<128x64xf16, #shared, #smem>
        %b = tt.descriptor_load %b_desc[%c0_i32, %off_k] : !tt.tensordesc<tensor<128x64xf16, #shared>> -> tensor<128x64xf16, #blocked>
        %bs = ttg.local_alloc %b : (tensor<128x64xf16, #blocked>) -> !ttg.memdesc<128x64xf16, #shared, #smem>
        %bt = ttg.memdesc_trans %bs {order = array<i32: 1, 0>} : !ttg.memdesc<128x64xf16, #shared, #smem> -> !ttg.memdesc<64x128xf16, #shared1, #smem>
        %d = ttng.warp_group_dot %as, %bt, %c {inputPrecision = 0 : i32} : !ttg.memdesc<128x64xf16, #shared, #smem> * !ttg.memdesc<64x128xf16, #shared1, #smem> -> tensor<128x128xf32, #mma>
        scf.yield %d : tensor<128x128xf32, #mma>
      }
      %h = arith.truncf %acc : tensor<128x128xf32, #mma> to tensor<128x128xf16, #mma>
      %hb = ttg.convert_layout %h : tensor<128x128xf16, #mma> -> tensor<128x128xf16, #blocked1>
      %base = arith.muli %off_m, %N : i32
      %tile_ptr = tt.addptr %c_ptr, %base : !tt.ptr<f16>, i32
      %tile_ptrs = tt.splat %tile_ptr : !tt.ptr<f16> -> tensor<128x128x!tt.ptr<f16>, #blocked1>
      %at = tt.addptr %tile_ptrs, %offsets : tensor<128x128x!tt.ptr<f16>, #blocked1>, tensor<128x128xi32, #blocked1>
      tt.store %at, %hb : tensor<128x128x!tt.ptr<f16>, #blocked1>
    } {tt.warp_specialize}
    tt.return
  }
}
