// RUN: ttpipe-opt %s --split-input-file --verify-diagnostics -p ttpipe-warp-specialize
// RUN: ttpipe-opt %s --split-input-file -p ttpipe-warp-specialize 2>/dev/null | filecheck %s

// A persistent TMA matmul of num_warps = 4 (128x128x64 fp16 tiles, 128 accumulator
// registers per thread): its consumers take turns (ping-pong, the default `consumers=auto`).
// Two turn mbarriers of count 1 are allocated with the ring, whose empty mbarriers count
// one arrival (each stage has one reader). Warpgroup 0 (the default region) runs tiles pid,
// pid + 2*132, ...; warpgroup 1 (partition0, 4 warps) tiles pid + 132, pid + 3*132, ...,
// starting K-trip-count stages into the ring. Each waits its turn mbarrier (parity from 1
// for warpgroup 0, from 0 for warpgroup 1) before its K loop and arrives on the other's
// after it, before the flush; after its epilogue it skips the other's K iterations in the
// ring. The producer (partition1) loads every tile in order. requestedRegisters: 232 for
// the second consumer, 40 for the producer (the default region gets 232). Each consumer
// stores its tiles through its own staging tile (epilogue_store.py).
// CHECK-LABEL: tt.func public @pingpong(
// CHECK-SAME: %[[CDESC:arg2]]: !tt.tensordesc
// CHECK: %[[KTILES:.+]] = arith.divsi %{{.+}}, %c64_i32
// CHECK: %[[PID:.+]] = tt.get_program_id x
// CHECK: %[[TILES:.+]] = arith.muli
// CHECK: %[[FULL:.+]] = ttg.local_alloc : () -> !ttg.memdesc<4x1xi64
// CHECK-COUNT-4: ttng.init_barrier {{.+}}, 1 :
// CHECK: %[[EMPTY:.+]] = ttg.local_alloc : () -> !ttg.memdesc<4x1xi64
// CHECK-COUNT-4: ttng.init_barrier {{.+}}, 1 :
// CHECK: %[[TURN:.+]] = ttg.local_alloc : () -> !ttg.memdesc<2x1xi64
// CHECK-COUNT-2: ttng.init_barrier {{.+}}, 1 :
// CHECK-NEXT: %[[STAGING0:.+]] = ttg.local_alloc : () -> !ttg.memdesc<128x128xf16
// CHECK-NEXT: %[[STAGING1:.+]] = ttg.local_alloc : () -> !ttg.memdesc<128x128xf16
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: ttg.warp_specialize({{.+}}) attributes {requestedRegisters = array<i32: 232, 40>}
// CHECK-NEXT: default {
// CHECK: %[[S:.+]] = arith.constant 4 : i32
// CHECK: %[[I0:.+]] = arith.constant 0 : i32
// CHECK: %[[P0:.+]] = arith.constant 0 : i32
// CHECK: %[[SPAN:.+]] = arith.subi %[[KTILES]], %c0_i32
// CHECK: %[[TRIPS:.+]] = arith.maxsi
// CHECK: %[[T0:.+]] = arith.constant 1 : i32
// CHECK: %[[STEP2:.+]] = arith.muli %c132_i32, %c2_i32
// CHECK-NEXT: %{{.+}}:3 = scf.for %{{.+}} = %[[PID]] to %[[TILES]] step %[[STEP2]] iter_args(%[[TI:.+]] = %[[I0]], %[[TP:.+]] = %[[P0]], %[[TURN_P:.+]] = %[[T0]]) -> (i32, i32, i32)
// CHECK: %[[OFFM:.+]] = arith.muli %{{.+}}, %c128_i32
// CHECK: %[[OFFN:.+]] = arith.muli %{{.+}}, %c128_i32
// CHECK: %[[MINE:.+]] = ttg.memdesc_index %[[TURN]][%c0_i32
// CHECK-NEXT: ttng.wait_barrier %[[MINE]], %[[TURN_P]]
// CHECK-NEXT: %[[K_STATE:.+]]:3 = scf.for {{.+}} iter_args(%{{.+}} = %cst, %{{.+}} = %[[TI]], %{{.+}} = %[[TP]])
// CHECK: ttng.warp_group_dot {{.+}}isAsync = true
// CHECK: } {tt.num_stages = 0 : i32}
// CHECK: %[[OTHER:.+]] = ttg.memdesc_index %[[TURN]][%c1_i32
// CHECK-NEXT: %[[TRUE:.+]] = arith.constant true
// CHECK-NEXT: ttng.arrive_barrier %[[OTHER]], 1, %[[TRUE]]
// CHECK-NEXT: %[[R:.+]] = ttng.warp_group_dot_wait %[[K_STATE]]#0 {pendings = 0 : i32}
// CHECK: ttng.arrive_barrier
// CHECK-NEXT: %[[H:.+]] = arith.truncf %[[R]]
// CHECK: ttng.async_tma_store_wait {pendings = 0 : i32}
// CHECK: ttg.local_store %{{.+}}, %[[STAGING0]]
// CHECK: ttng.async_tma_copy_local_to_global %[[CDESC]][%[[OFFM]], %[[OFFN]]] %[[STAGING0]]
// CHECK-NEXT: %[[MOVED:.+]] = arith.addi %[[K_STATE]]#1, %[[TRIPS]]
// CHECK-NEXT: %[[WRAPS:.+]] = arith.divsi %[[MOVED]], %[[S]]
// CHECK-NEXT: %[[NEXT_I:.+]] = arith.remsi %[[MOVED]], %[[S]]
// CHECK: %[[NEXT_P:.+]] = arith.xori %[[K_STATE]]#2
// CHECK: %[[NEXT_T:.+]] = arith.xori %[[TURN_P]]
// CHECK-NEXT: scf.yield %[[NEXT_I]], %[[NEXT_P]], %[[NEXT_T]] : i32, i32, i32
// CHECK: ttng.async_tma_store_wait {pendings = 0 : i32}
// CHECK-NEXT: ttg.warp_yield
// CHECK-NEXT: }
// CHECK-NEXT: partition0({{.+}}, %[[P_STAGING1:arg[0-9]+]]: !ttg.memdesc<128x128xf16, {{.+}}>, %{{.+}}: !tt.tensordesc<{{.+}}>) num_warps(4) {
// CHECK: %[[ZERO:.+]] = arith.constant dense<0.000000e+00> : tensor<128x128xf32, #mma>
// CHECK: %[[TRIPS1:.+]] = arith.maxsi
// CHECK: %[[START:.+]] = arith.addi %{{.+}}, %[[TRIPS1]]
// CHECK: %[[START_I:.+]] = arith.remsi %[[START]]
// CHECK: %[[START_P:.+]] = arith.xori
// CHECK: %[[T1:.+]] = arith.constant 0 : i32
// CHECK: %[[LOWER1:.+]] = arith.addi %{{.+}}, %{{.+}} : i32
// CHECK: scf.for %{{.+}} = %[[LOWER1]] to %{{.+}} step %{{.+}} iter_args(%{{.+}} = %[[START_I]], %{{.+}} = %[[START_P]], %[[TURN_P1:.+]] = %[[T1]])
// CHECK: %[[MINE1:.+]] = ttg.memdesc_index %{{.+}}[%c1_i32
// CHECK-NEXT: ttng.wait_barrier %[[MINE1]], %[[TURN_P1]]
// CHECK-NEXT: scf.for {{.+}} iter_args(%{{.+}} = %[[ZERO]],
// CHECK: ttng.arrive_barrier
// CHECK: ttg.local_store %{{.+}}, %[[P_STAGING1]]
// CHECK: ttng.async_tma_copy_local_to_global %{{.+}} %[[P_STAGING1]]
// CHECK: ttng.async_tma_store_wait {pendings = 0 : i32}
// CHECK-NEXT: ttg.warp_return
// CHECK-NEXT: }
// CHECK-NEXT: partition1({{.+}}) num_warps(1) {
// CHECK-NOT: local_to_global
// CHECK: ttng.async_tma_copy_global_to_local
// CHECK: ttng.async_tma_copy_global_to_local
// CHECK: ttg.warp_return
// CHECK: ttng.inval_barrier
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 128, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @pingpong(%a_desc: !tt.tensordesc<tensor<128x64xf16, #shared>>, %b_desc: !tt.tensordesc<tensor<128x64xf16, #shared>>, %c_desc: !tt.tensordesc<tensor<128x128xf16, #shared>>, %M: i32, %N: i32, %K: i32) attributes {noinline = false} {
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

// A pointer-store epilogue whose row and column offsets were hoisted out of the tile loop
// (tt.make_range, tt.expand_dims, tt.splat of a kernel argument, tt.broadcast): the second consumer's
// isolated region re-creates these tensors rather than capturing them (a tensor in
// registers cannot cross to other warps); only scalars cross.
// CHECK-LABEL: tt.func public @pingpong_pointer_store(
// CHECK: ttg.warp_specialize(
// CHECK: partition0(
// CHECK-SAME: !tt.ptr<f16>
// CHECK-NOT: tensor<{{.+}}>{{[,)]}} num_warps
// CHECK-SAME: num_warps(4) {
// CHECK: %[[ROWS:.+]] = tt.make_range {end = 128 : i32, start = 0 : i32}
// CHECK-NEXT: tt.expand_dims %[[ROWS]]
// CHECK-NEXT: tt.splat %{{.+}} : i32 -> tensor<128x1xi32
// CHECK: %[[OFFSETS:.+]] = arith.addi %{{.+}}, %{{.+}} : tensor<128x128xi32
// CHECK: scf.for
// CHECK: %[[TILE_PTRS:.+]] = tt.splat %{{.+}} : !tt.ptr<f16> -> tensor<128x128x!tt.ptr<f16>
// CHECK-NEXT: %[[AT:.+]] = tt.addptr %[[TILE_PTRS]], %[[OFFSETS]]
// CHECK-NEXT: tt.store %[[AT]]
// CHECK: partition1(
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 128, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @pingpong_pointer_store(%a_desc: !tt.tensordesc<tensor<128x64xf16, #shared>>, %b_desc: !tt.tensordesc<tensor<128x64xf16, #shared>>, %c_ptr: !tt.ptr<f16>, %N: i32, %tiles: i32, %k_tiles: i32) attributes {noinline = false} {
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
