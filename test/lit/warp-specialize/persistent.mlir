// RUN: ttpipe-opt %s --split-input-file --verify-diagnostics -p 'ttpipe-warp-specialize{consumers=cooperative}'
// RUN: ttpipe-opt %s --split-input-file -p 'ttpipe-warp-specialize{consumers=cooperative}' 2>/dev/null | filecheck %s

// A persistent TMA matmul (128x128x64 fp16 tiles, num_warps = 4) as it reaches
// nvgpu-warp-specialization in ttgir-sm90 (its K loop asks for no ring depth: the option's 3
// stages are deepened to the 4 that keep 96 KB of loads ahead, which fit beside the staging): a grid-stride tile loop marked tt.warp_specialize
// (Triton's convention) around the K loop, the tile offsets computed in the tile loop, the
// epilogue (truncf, convert, descriptor_store) after the K loop. The producer is its own
// copy of the tile loop around its K loop, with one (index, phase) state carried through
// both (iteration arguments of each), starting at (0, 1), so its ring never drains between
// tiles; it runs only the offset arithmetic its loads read. The consumer's tile loop carries
// the same state from (0, 0) through its K loop (release of the previous stage but in each
// tile's first K iteration), then the flush, the release of the tile's last stage where the
// tile had a K iteration, and the epilogue, then yields the state to the next tile. The
// epilogue's TMA store goes through a staging tile allocated with the ring: the previous
// tile's store is waited for only before the tile is rewritten, and once after the loop.
// CHECK-LABEL: tt.func public @persistent(
// CHECK-SAME: %[[ADESC:[a-z0-9_]+]]: !tt.tensordesc<{{.+}}>, %[[BDESC:[a-z0-9_]+]]: !tt.tensordesc<{{.+}}>, %[[CDESC:[a-z0-9_]+]]: !tt.tensordesc<{{.+}}>,
// CHECK: %[[KTILES:.+]] = arith.divsi %{{.+}}, %c64_i32
// CHECK: %[[PID:.+]] = tt.get_program_id x
// CHECK: %[[TILES:.+]] = arith.muli
// CHECK: %[[ABUF:.+]] = ttg.local_alloc : () -> !ttg.memdesc<4x128x64xf16
// CHECK: %[[BBUF:.+]] = ttg.local_alloc : () -> !ttg.memdesc<4x128x64xf16
// CHECK: %[[FULL:.+]] = ttg.local_alloc : () -> !ttg.memdesc<4x1xi64
// CHECK-COUNT-4: ttng.init_barrier {{.+}}, 1 :
// CHECK: %[[EMPTY:.+]] = ttg.local_alloc : () -> !ttg.memdesc<4x1xi64
// CHECK-COUNT-4: ttng.init_barrier {{.+}}, 1 :
// CHECK: %[[STAGING:.+]] = ttg.local_alloc : () -> !ttg.memdesc<128x128xf16, #shared, #smem, mutable>
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: ttg.warp_specialize({{.+}}) attributes {requestedRegisters = array<i32: 40>}
// CHECK-NEXT: default {
// CHECK: %[[S:.+]] = arith.constant 4 : i32
// CHECK: %[[I0:.+]] = arith.constant 0 : i32
// CHECK: %[[P0:.+]] = arith.constant 0 : i32
// CHECK: %[[TILE_STATE:.+]]:2 = scf.for %[[TILE:.+]] = %[[PID]] to %[[TILES]] step %c132_i32 iter_args(%[[TI:.+]] = %[[I0]], %[[TP:.+]] = %[[P0]]) -> (i32, i32)
// CHECK: %[[OFFM:.+]] = arith.muli %{{.+}}, %c128_i32
// CHECK: %[[OFFN:.+]] = arith.muli %{{.+}}, %c128_i32
// CHECK: %[[K_STATE:.+]]:3 = scf.for %[[K:.+]] = %[[KLB:c0_i32]] to %[[KTILES]] step %c1_i32 iter_args(%[[ACC:.+]] = %cst, %[[I:.+]] = %[[TI]], %[[P:.+]] = %[[TP]])
// CHECK-NEXT: %[[FB:.+]] = ttg.memdesc_index %[[FULL]][%[[I]]]
// CHECK-NEXT: ttng.wait_barrier %[[FB]], %[[P]]
// CHECK: ttng.warp_group_dot {{.+}}isAsync = true
// CHECK-NEXT: %[[W:.+]]:3 = ttng.warp_group_dot_wait {{.+}} {pendings = 1 : i32}
// CHECK-NEXT: %[[NOT_FIRST:.+]] = arith.cmpi ne, %[[K]], %[[KLB]]
// CHECK: ttng.arrive_barrier %{{.+}}, 1, %[[NOT_FIRST]]
// CHECK: scf.yield %[[W]]#0, %{{.+}}, %{{.+}} : tensor<128x128xf32, #mma>, i32, i32
// CHECK-NEXT: } {tt.num_stages = 0 : i32}
// CHECK-NEXT: %[[R:.+]] = ttng.warp_group_dot_wait %[[K_STATE]]#0 {pendings = 0 : i32}
// CHECK-NEXT: %[[RAN:.+]] = arith.cmpi slt, %[[KLB]], %[[KTILES]]
// CHECK: %[[LAST_WRAPS:.+]] = arith.cmpi eq, %[[K_STATE]]#1, %{{.+}}
// CHECK: %[[LAST_I:.+]] = arith.subi %[[K_STATE]]#1, %{{.+}}
// CHECK-NEXT: %[[LAST:.+]] = arith.select %[[LAST_WRAPS]], %{{.+}}, %[[LAST_I]]
// CHECK-NEXT: %[[LAST_EMPTY:.+]] = ttg.memdesc_index %[[EMPTY]][%[[LAST]]]
// CHECK-NEXT: ttng.arrive_barrier %[[LAST_EMPTY]], 1, %[[RAN]]
// CHECK-NEXT: %[[H:.+]] = arith.truncf %[[R]]
// CHECK-NEXT: %[[HB:.+]] = ttg.convert_layout %[[H]]
// CHECK-NEXT: ttng.async_tma_store_wait {pendings = 0 : i32}
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: ttg.local_store %[[HB]], %[[STAGING]]
// CHECK-NEXT: ttng.fence_async_shared {bCluster = false}
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: ttng.async_tma_copy_local_to_global %[[CDESC]][%[[OFFM]], %[[OFFN]]] %[[STAGING]]
// CHECK-NEXT: scf.yield %[[K_STATE]]#1, %[[K_STATE]]#2 : i32, i32
// CHECK-NEXT: } {tt.num_stages = 0 : i32}
// CHECK-NEXT: ttng.async_tma_store_wait {pendings = 0 : i32}
// CHECK-NEXT: ttg.warp_yield
// CHECK-NEXT: }
// CHECK-NEXT: partition0({{.+}}%[[PABUF:arg[0-9]+]]: !ttg.memdesc<4x128x64xf16, {{.+}}>, %[[PBBUF:arg[0-9]+]]: !ttg.memdesc<4x128x64xf16, {{.+}}>, %[[PFULL:arg[0-9]+]]: !ttg.memdesc<4x1xi64, {{.+}}>, %[[PEMPTY:arg[0-9]+]]: !ttg.memdesc<4x1xi64, {{.+}}>) num_warps(1) {
// CHECK: %[[PI0:.+]] = arith.constant 0 : i32
// CHECK: %[[PP0:.+]] = arith.constant 1 : i32
// CHECK: %{{.+}}:2 = scf.for %{{.+}} iter_args(%[[PTI:.+]] = %[[PI0]], %[[PTP:.+]] = %[[PP0]]) -> (i32, i32)
// CHECK-NOT: local_to_global
// CHECK: %[[PK_STATE:.+]]:2 = scf.for %{{.+}} iter_args(%[[PI:.+]] = %[[PTI]], %[[PP:.+]] = %[[PTP]]) -> (i32, i32)
// CHECK: %[[EB:.+]] = ttg.memdesc_index %[[PEMPTY]][%[[PI]]]
// CHECK-NEXT: ttng.wait_barrier %[[EB]], %[[PP]]
// CHECK-NEXT: %[[FB2:.+]] = ttg.memdesc_index %[[PFULL]][%[[PI]]]
// CHECK-NEXT: ttng.barrier_expect %[[FB2]], 32768
// CHECK-NEXT: %[[AS:.+]] = ttg.memdesc_index %[[PABUF]][%[[PI]]]
// CHECK-NEXT: ttng.async_tma_copy_global_to_local %{{.+}} %[[AS]], %[[FB2]]
// CHECK-NEXT: %[[BS:.+]] = ttg.memdesc_index %[[PBBUF]][%[[PI]]]
// CHECK-NEXT: ttng.async_tma_copy_global_to_local %{{.+}} %[[BS]], %[[FB2]]
// CHECK: scf.yield %{{.+}}, %{{.+}} : i32, i32
// CHECK-NEXT: } {tt.num_stages = 0 : i32}
// CHECK-NEXT: scf.yield %[[PK_STATE]]#0, %[[PK_STATE]]#1 : i32, i32
// CHECK-NEXT: } {tt.num_stages = 0 : i32}
// CHECK-NEXT: ttg.warp_return
// CHECK-NOT: scf.for
// CHECK: tt.return
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 128, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @persistent(%a_desc: !tt.tensordesc<tensor<128x64xf16, #shared>>, %b_desc: !tt.tensordesc<tensor<128x64xf16, #shared>>, %c_desc: !tt.tensordesc<tensor<128x128xf16, #shared>>, %M: i32, %N: i32, %K: i32) attributes {noinline = false} {
    %c127_i32 = arith.constant 127 : i32
    %c128_i32 = arith.constant 128 : i32
    %c64_i32 = arith.constant 64 : i32
    %c132_i32 = arith.constant 132 : i32
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %c63_i32 = arith.constant 63 : i32
    %c8_i32 = arith.constant 8 : i32
    %cst = arith.constant dense<0.000000e+00> : tensor<128x128xf32, #mma>
    %tiles_m = arith.addi %M, %c127_i32 : i32
    %tiles_m_1 = arith.divsi %tiles_m, %c128_i32 : i32
    %tiles_n = arith.addi %N, %c127_i32 : i32
    %tiles_n_1 = arith.divsi %tiles_n, %c128_i32 : i32
    %k_tiles = arith.addi %K, %c63_i32 : i32
    %k_tiles_1 = arith.divsi %k_tiles, %c64_i32 : i32
    %pid = tt.get_program_id x : i32
    %tiles = arith.muli %tiles_m_1, %tiles_n_1 : i32
    %per_group = arith.muli %tiles_n_1, %c8_i32 : i32
    scf.for %tile = %pid to %tiles step %c132_i32  : i32 {
      %first_m = arith.divsi %tile, %per_group : i32
      %first_m_1 = arith.muli %first_m, %c8_i32 : i32
      %rows = arith.subi %tiles_m_1, %first_m_1 : i32
      %rows_1 = arith.minsi %rows, %c8_i32 : i32
      %in_group = arith.remsi %tile, %per_group : i32
      %pid_m = arith.remsi %in_group, %rows_1 : i32
      %pid_m_1 = arith.addi %first_m_1, %pid_m : i32
      %pid_n = arith.divsi %in_group, %rows_1 : i32
      %off_m = arith.muli %pid_m_1, %c128_i32 : i32
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

// The K loop marked instead of the tile loop: the same nest (a producer tile loop around its
// K loop, a consumer tile loop with the epilogue between its K loop and its yield).
// CHECK-LABEL: tt.func public @k_loop_marked(
// CHECK: ttg.warp_specialize(
// CHECK-NEXT: default {
// CHECK: scf.for {{.+}} -> (i32, i32)
// CHECK: scf.for {{.+}} -> (tensor<128x128xf32, #mma>, i32, i32)
// CHECK: ttng.warp_group_dot_wait {{.+}} {pendings = 0 : i32}
// CHECK: ttng.async_tma_copy_local_to_global
// CHECK: partition0(
// CHECK: scf.for {{.+}} -> (i32, i32)
// CHECK: scf.for {{.+}} -> (i32, i32)
// CHECK: ttng.async_tma_copy_global_to_local
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 128, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @k_loop_marked(%a_desc: !tt.tensordesc<tensor<128x64xf16, #shared>>, %b_desc: !tt.tensordesc<tensor<128x64xf16, #shared>>, %c_desc: !tt.tensordesc<tensor<128x128xf16, #shared>>, %M: i32, %N: i32, %K: i32) attributes {noinline = false} {
    %c127_i32 = arith.constant 127 : i32
    %c128_i32 = arith.constant 128 : i32
    %c64_i32 = arith.constant 64 : i32
    %c132_i32 = arith.constant 132 : i32
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %c63_i32 = arith.constant 63 : i32
    %c8_i32 = arith.constant 8 : i32
    %cst = arith.constant dense<0.000000e+00> : tensor<128x128xf32, #mma>
    %tiles_m = arith.addi %M, %c127_i32 : i32
    %tiles_m_1 = arith.divsi %tiles_m, %c128_i32 : i32
    %tiles_n = arith.addi %N, %c127_i32 : i32
    %tiles_n_1 = arith.divsi %tiles_n, %c128_i32 : i32
    %k_tiles = arith.addi %K, %c63_i32 : i32
    %k_tiles_1 = arith.divsi %k_tiles, %c64_i32 : i32
    %pid = tt.get_program_id x : i32
    %tiles = arith.muli %tiles_m_1, %tiles_n_1 : i32
    %per_group = arith.muli %tiles_n_1, %c8_i32 : i32
    scf.for %tile = %pid to %tiles step %c132_i32  : i32 {
      %first_m = arith.divsi %tile, %per_group : i32
      %first_m_1 = arith.muli %first_m, %c8_i32 : i32
      %rows = arith.subi %tiles_m_1, %first_m_1 : i32
      %rows_1 = arith.minsi %rows, %c8_i32 : i32
      %in_group = arith.remsi %tile, %per_group : i32
      %pid_m = arith.remsi %in_group, %rows_1 : i32
      %pid_m_1 = arith.addi %first_m_1, %pid_m : i32
      %pid_n = arith.divsi %in_group, %rows_1 : i32
      %off_m = arith.muli %pid_m_1, %c128_i32 : i32
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
      } {tt.warp_specialize}
      %h = arith.truncf %acc : tensor<128x128xf32, #mma> to tensor<128x128xf16, #mma>
      %hb = ttg.convert_layout %h : tensor<128x128xf16, #mma> -> tensor<128x128xf16, #blocked1>
      tt.descriptor_store %c_desc[%off_m, %off_n], %hb : !tt.tensordesc<tensor<128x128xf16, #shared>>, tensor<128x128xf16, #blocked1>
    }
    tt.return
  }
}

// -----

// Declined: the tile loop carries a value that is not an induction (it grows by the tile's
// row offset, which is not loop-invariant), read by the epilogue.
// CHECK-LABEL: tt.func public @tile_carries(
// CHECK-NOT: ttg.warp_specialize
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 128, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @tile_carries(%a_desc: !tt.tensordesc<tensor<128x64xf16, #shared>>, %b_desc: !tt.tensordesc<tensor<128x64xf16, #shared>>, %c_desc: !tt.tensordesc<tensor<128x128xf16, #shared>>, %M: i32, %N: i32, %K: i32) attributes {noinline = false} {
    %c127_i32 = arith.constant 127 : i32
    %c128_i32 = arith.constant 128 : i32
    %c64_i32 = arith.constant 64 : i32
    %c132_i32 = arith.constant 132 : i32
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %c63_i32 = arith.constant 63 : i32
    %c8_i32 = arith.constant 8 : i32
    %cst = arith.constant dense<0.000000e+00> : tensor<128x128xf32, #mma>
    %tiles_m = arith.addi %M, %c127_i32 : i32
    %tiles_m_1 = arith.divsi %tiles_m, %c128_i32 : i32
    %tiles_n = arith.addi %N, %c127_i32 : i32
    %tiles_n_1 = arith.divsi %tiles_n, %c128_i32 : i32
    %k_tiles = arith.addi %K, %c63_i32 : i32
    %k_tiles_1 = arith.divsi %k_tiles, %c64_i32 : i32
    %pid = tt.get_program_id x : i32
    %tiles = arith.muli %tiles_m_1, %tiles_n_1 : i32
    %per_group = arith.muli %tiles_n_1, %c8_i32 : i32
    // expected-remark @below {{loop not warp-specialized: the tile loop carries a value (iteration argument) that is not an induction advanced by a loop-invariant amount}}
    %n = scf.for %tile = %pid to %tiles step %c132_i32 iter_args(%count = %c0_i32) -> (i32) : i32 {
      %first_m = arith.divsi %tile, %per_group : i32
      %first_m_1 = arith.muli %first_m, %c8_i32 : i32
      %rows = arith.subi %tiles_m_1, %first_m_1 : i32
      %rows_1 = arith.minsi %rows, %c8_i32 : i32
      %in_group = arith.remsi %tile, %per_group : i32
      %pid_m = arith.remsi %in_group, %rows_1 : i32
      %pid_m_1 = arith.addi %first_m_1, %pid_m : i32
      %pid_n = arith.divsi %in_group, %rows_1 : i32
      %off_m = arith.muli %pid_m_1, %c128_i32 : i32
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
      %off_n_1 = arith.addi %off_n, %count : i32
      tt.descriptor_store %c_desc[%off_m, %off_n_1], %hb : !tt.tensordesc<tensor<128x128xf16, #shared>>, tensor<128x128xf16, #blocked1>
      %next = arith.addi %count, %off_m : i32
      scf.yield %next : i32
    } {tt.warp_specialize}
    tt.return
  }
}

// -----

// A tile counter of the epilogue's own, as Triton's tutorial 09 keeps one (`tile_id_c`,
// from pid - NUM_SMS, advanced by NUM_SMS before the epilogue reads it): an induction, read
// in closed form (first + (tile - pid) / 132 * 132) so that the tile loop carries nothing
// and is specialized.
// CHECK-LABEL: tt.func public @tile_counter(
// CHECK:         %[[PID:.*]] = tt.get_program_id x
// CHECK:         %[[FIRST:.*]] = arith.subi %[[PID]], %c132_i32
// CHECK:         ttg.warp_specialize
// CHECK:         default {
// CHECK:           scf.for %[[TILE:.*]] = %[[PID]] to %{{.*}} step %c132_i32 iter_args(%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) -> (i32, i32)
// CHECK:             %[[SPAN:.*]] = arith.subi %[[TILE]], %[[PID]]
// CHECK:             %[[ITER:.*]] = arith.divsi %[[SPAN]], %c132_i32
// CHECK:             %[[STEPS:.*]] = arith.muli %[[ITER]], %c132_i32
// CHECK:             %[[TILE_C:.*]] = arith.addi %[[FIRST]], %[[STEPS]]
// CHECK:             %[[NEXT:.*]] = arith.addi %[[TILE_C]], %c132_i32
// CHECK:             arith.divsi %[[NEXT]],
// CHECK:             ttng.async_tma_copy_local_to_global
// CHECK:         partition0(
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 128, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @tile_counter(%a_desc: !tt.tensordesc<tensor<128x64xf16, #shared>>, %b_desc: !tt.tensordesc<tensor<128x64xf16, #shared>>, %c_desc: !tt.tensordesc<tensor<128x128xf16, #shared>>, %M: i32, %N: i32, %K: i32) attributes {noinline = false} {
    %c127_i32 = arith.constant 127 : i32
    %c128_i32 = arith.constant 128 : i32
    %c64_i32 = arith.constant 64 : i32
    %c132_i32 = arith.constant 132 : i32
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %c63_i32 = arith.constant 63 : i32
    %c8_i32 = arith.constant 8 : i32
    %cst = arith.constant dense<0.000000e+00> : tensor<128x128xf32, #mma>
    %tiles_m = arith.addi %M, %c127_i32 : i32
    %tiles_m_1 = arith.divsi %tiles_m, %c128_i32 : i32
    %tiles_n = arith.addi %N, %c127_i32 : i32
    %tiles_n_1 = arith.divsi %tiles_n, %c128_i32 : i32
    %k_tiles = arith.addi %K, %c63_i32 : i32
    %k_tiles_1 = arith.divsi %k_tiles, %c64_i32 : i32
    %pid = tt.get_program_id x : i32
    %tiles = arith.muli %tiles_m_1, %tiles_n_1 : i32
    %per_group = arith.muli %tiles_n_1, %c8_i32 : i32
    %first_c = arith.subi %pid, %c132_i32 : i32
    %n = scf.for %tile = %pid to %tiles step %c132_i32 iter_args(%tile_c = %first_c) -> (i32) : i32 {
      %first_m = arith.divsi %tile, %per_group : i32
      %first_m_1 = arith.muli %first_m, %c8_i32 : i32
      %rows = arith.subi %tiles_m_1, %first_m_1 : i32
      %rows_1 = arith.minsi %rows, %c8_i32 : i32
      %in_group = arith.remsi %tile, %per_group : i32
      %pid_m = arith.remsi %in_group, %rows_1 : i32
      %pid_m_1 = arith.addi %first_m_1, %pid_m : i32
      %pid_n = arith.divsi %in_group, %rows_1 : i32
      %off_m = arith.muli %pid_m_1, %c128_i32 : i32
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
      %next = arith.addi %tile_c, %c132_i32 : i32
      %c_m = arith.divsi %next, %tiles_n_1 : i32
      %c_n = arith.remsi %next, %tiles_n_1 : i32
      %c_off_m = arith.muli %c_m, %c128_i32 : i32
      %c_off_n = arith.muli %c_n, %c128_i32 : i32
      tt.descriptor_store %c_desc[%c_off_m, %c_off_n], %hb : !tt.tensordesc<tensor<128x128xf16, #shared>>, tensor<128x128xf16, #blocked1>
      scf.yield %next : i32
    } {tt.warp_specialize}
    tt.return
  }
}

// -----

// A persistent kernel at num_warps = 8: two cooperative consumer warpgroups, each its own
// tile loop (rows [0, 64) and [64, 128) of each tile, the empty mbarriers counting 2
// arrivals) with the flush, the release of the tile's last stage and its share of the
// epilogue; the producer's tile loop as at num_warps = 4. The TMA-store epilogue goes
// through one staging tile with a full mbarrier (count 1: warpgroup 1 arrives) and an
// empty one (count 1: warpgroup 0 arrives at the start of each tile's epilogue, after
// async_tma_store_wait of the previous tile's store and a barrier of its warps); their
// phase parity is the consumer tile loops' third iteration argument, from 0, flipped per
// tile: warpgroup 0 waits full with it, warpgroup 1 waits empty with it before writing its
// rows. Warpgroup 0 waits for its last store after its tile loop.
// CHECK-LABEL: tt.func public @cooperative_persistent(
// CHECK-SAME: %{{[a-z0-9_]+}}: !tt.tensordesc<{{.+}}>, %{{[a-z0-9_]+}}: !tt.tensordesc<{{.+}}>, %[[CDESC:[a-z0-9_]+]]: !tt.tensordesc<{{.+}}>,
// CHECK: %[[PID:.+]] = tt.get_program_id x
// CHECK: %[[TILES:.+]] = arith.muli
// CHECK: %[[FULL:.+]] = ttg.local_alloc : () -> !ttg.memdesc<4x1xi64
// CHECK-COUNT-4: ttng.init_barrier {{.+}}, 1 :
// CHECK: %[[EMPTY:.+]] = ttg.local_alloc : () -> !ttg.memdesc<4x1xi64
// CHECK-COUNT-4: ttng.init_barrier {{.+}}, 2 :
// CHECK: %[[STAGING:.+]] = ttg.local_alloc : () -> !ttg.memdesc<128x128xf16, #[[SHARED:[a-z0-9_]+]], #smem, mutable>
// CHECK: %[[SFULL:.+]] = ttg.local_alloc : () -> !ttg.memdesc<1x1xi64
// CHECK: ttng.init_barrier {{.+}}, 1 :
// CHECK: %[[SEMPTY:.+]] = ttg.local_alloc : () -> !ttg.memdesc<1x1xi64
// CHECK: ttng.init_barrier {{.+}}, 1 :
// CHECK: gpu.barrier
// CHECK-NEXT: ttg.warp_specialize({{.+}}) attributes {requestedRegisters = array<i32: 232, 40>}
// CHECK-NEXT: default {
// CHECK: %{{.+}}:3 = scf.for %{{.+}} = %[[PID]] to %[[TILES]] step %c132_i32 iter_args(%{{[a-z0-9_]+}} = %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} = %{{[a-z0-9_]+}}, %[[SP:[a-z0-9_]+]] = %c0_i32{{[_0-9]*}}) -> (i32, i32, i32)
// CHECK: %[[OFFM:.+]] = arith.muli %{{.+}}, %c128_i32
// CHECK: %[[OFFN:.+]] = arith.muli %{{.+}}, %c128_i32
// CHECK: %[[ACC:.+]]:3 = scf.for
// CHECK: ttg.memdesc_subslice %{{.+}}[0, 0] : !ttg.memdesc<128x64xf16, {{.+}}> -> !ttg.memdesc<64x64xf16,
// CHECK: ttng.warp_group_dot {{.+}} -> tensor<64x128xf32, #[[MMA:[a-z0-9_]+]]>
// CHECK: } {tt.num_stages = 0 : i32}
// CHECK-NEXT: %[[FLUSHED:.+]] = ttng.warp_group_dot_wait %[[ACC]]#0 {pendings = 0 : i32} : tensor<64x128xf32, #[[MMA]]>
// CHECK: ttng.arrive_barrier %{{.+}}, 1, %{{.+}} :
// CHECK-NEXT: arith.truncf %[[FLUSHED]]
// CHECK: %[[MINE:.+]] = ttg.memdesc_subslice %[[STAGING]][0, 0]
// CHECK-NEXT: ttng.async_tma_store_wait {pendings = 0 : i32}
// CHECK-NEXT: gpu.barrier
// CHECK: %[[SEB:.+]] = ttg.memdesc_index %[[SEMPTY]]
// CHECK-NEXT: ttng.arrive_barrier %[[SEB]], 1 :
// CHECK-NEXT: ttg.local_store %{{.+}}, %[[MINE]]
// CHECK-NEXT: ttng.fence_async_shared {bCluster = false}
// CHECK-NEXT: gpu.barrier
// CHECK: %[[SFB:.+]] = ttg.memdesc_index %[[SFULL]]
// CHECK-NEXT: ttng.wait_barrier %[[SFB]], %[[SP]] :
// CHECK-NEXT: ttng.async_tma_copy_local_to_global %[[CDESC]][%[[OFFM]], %[[OFFN]]] %[[STAGING]]
// CHECK-NEXT: %[[ONE:.+]] = arith.constant 1 : i32
// CHECK-NEXT: %[[NEXT_SP:.+]] = arith.xori %[[SP]], %[[ONE]] : i32
// CHECK-NEXT: scf.yield %[[ACC]]#1, %[[ACC]]#2, %[[NEXT_SP]] : i32, i32, i32
// CHECK-NEXT: } {tt.num_stages = 0 : i32}
// CHECK-NEXT: ttng.async_tma_store_wait {pendings = 0 : i32}
// CHECK-NEXT: ttg.warp_yield
// CHECK-NEXT: }
// CHECK-NEXT: partition0({{.+}}, %[[PSTAGING:[a-z0-9_]+]]: !ttg.memdesc<128x128xf16, {{.+}}>, %[[PSEMPTY:[a-z0-9_]+]]: !ttg.memdesc<1x1xi64, {{.+}}>, %[[PSFULL:[a-z0-9_]+]]: !ttg.memdesc<1x1xi64, {{.+}}>) num_warps(4) {
// CHECK: %{{.+}}:3 = scf.for %{{[a-z0-9_]+}} = %{{[a-z0-9_]+}} to %{{[a-z0-9_]+}} step %{{[a-z0-9_]+}} iter_args(%{{[a-z0-9_]+}} = %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} = %{{[a-z0-9_]+}}, %[[PSP:[a-z0-9_]+]] = %c0_i32{{[_0-9]*}}) -> (i32, i32, i32)
// CHECK: %[[PACC:.+]]:3 = scf.for
// CHECK: ttg.memdesc_subslice %{{.+}}[64, 0] : !ttg.memdesc<128x64xf16, {{.+}}> -> !ttg.memdesc<64x64xf16,
// CHECK: } {tt.num_stages = 0 : i32}
// CHECK-NEXT: ttng.warp_group_dot_wait %[[PACC]]#0 {pendings = 0 : i32}
// CHECK: %[[PMINE:.+]] = ttg.memdesc_subslice %[[PSTAGING]][64, 0]
// CHECK: %[[PSEB:.+]] = ttg.memdesc_index %[[PSEMPTY]]
// CHECK-NEXT: ttng.wait_barrier %[[PSEB]], %[[PSP]] :
// CHECK-NEXT: ttg.local_store %{{.+}}, %[[PMINE]]
// CHECK-NEXT: ttng.fence_async_shared {bCluster = false}
// CHECK-NEXT: gpu.barrier
// CHECK: %[[PSFB:.+]] = ttg.memdesc_index %[[PSFULL]]
// CHECK-NEXT: ttng.arrive_barrier %[[PSFB]], 1 :
// CHECK-NOT: async_tma_copy_local_to_global
// CHECK: scf.yield
// CHECK-NOT: async_tma_store_wait
// CHECK: ttg.warp_return
// CHECK-NEXT: }
// CHECK-NEXT: partition1({{.+}}) num_warps(1) {
// CHECK-NOT: tensor<
// CHECK: ttng.barrier_expect %{{.+}}, 32768
// CHECK-COUNT-2: ttng.async_tma_copy_global_to_local
// CHECK-NOT: ttng.warp_group_dot
// CHECK: ttg.warp_return
// CHECK: tt.return
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 128, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @cooperative_persistent(%a_desc: !tt.tensordesc<tensor<128x64xf16, #shared>>, %b_desc: !tt.tensordesc<tensor<128x64xf16, #shared>>, %c_desc: !tt.tensordesc<tensor<128x128xf16, #shared>>, %M: i32, %N: i32, %K: i32) attributes {noinline = false} {
    %c127_i32 = arith.constant 127 : i32
    %c128_i32 = arith.constant 128 : i32
    %c64_i32 = arith.constant 64 : i32
    %c132_i32 = arith.constant 132 : i32
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %c63_i32 = arith.constant 63 : i32
    %c8_i32 = arith.constant 8 : i32
    %cst = arith.constant dense<0.000000e+00> : tensor<128x128xf32, #mma>
    %tiles_m = arith.addi %M, %c127_i32 : i32
    %tiles_m_1 = arith.divsi %tiles_m, %c128_i32 : i32
    %tiles_n = arith.addi %N, %c127_i32 : i32
    %tiles_n_1 = arith.divsi %tiles_n, %c128_i32 : i32
    %k_tiles = arith.addi %K, %c63_i32 : i32
    %k_tiles_1 = arith.divsi %k_tiles, %c64_i32 : i32
    %pid = tt.get_program_id x : i32
    %tiles = arith.muli %tiles_m_1, %tiles_n_1 : i32
    %per_group = arith.muli %tiles_n_1, %c8_i32 : i32
    scf.for %tile = %pid to %tiles step %c132_i32  : i32 {
      %first_m = arith.divsi %tile, %per_group : i32
      %first_m_1 = arith.muli %first_m, %c8_i32 : i32
      %rows = arith.subi %tiles_m_1, %first_m_1 : i32
      %rows_1 = arith.minsi %rows, %c8_i32 : i32
      %in_group = arith.remsi %tile, %per_group : i32
      %pid_m = arith.remsi %in_group, %rows_1 : i32
      %pid_m_1 = arith.addi %first_m_1, %pid_m : i32
      %pid_n = arith.divsi %in_group, %rows_1 : i32
      %off_m = arith.muli %pid_m_1, %c128_i32 : i32
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

// The same kernel whose K loop asks for 3 stages itself (`tl.range(..., num_stages=3)`): the
// ring keeps the depth the user gave; only a depth from the kernel's num_stages is deepened.
// CHECK-LABEL: tt.func public @persistent_asked_stages(
// CHECK: ttg.local_alloc : () -> !ttg.memdesc<3x128x64xf16
// CHECK: ttg.local_alloc : () -> !ttg.memdesc<3x128x64xf16
// CHECK: ttg.local_alloc : () -> !ttg.memdesc<3x1xi64
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 128, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @persistent_asked_stages(%a_desc: !tt.tensordesc<tensor<128x64xf16, #shared>>, %b_desc: !tt.tensordesc<tensor<128x64xf16, #shared>>, %c_desc: !tt.tensordesc<tensor<128x128xf16, #shared>>, %M: i32, %N: i32, %K: i32) attributes {noinline = false} {
    %c127_i32 = arith.constant 127 : i32
    %c128_i32 = arith.constant 128 : i32
    %c64_i32 = arith.constant 64 : i32
    %c132_i32 = arith.constant 132 : i32
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %c63_i32 = arith.constant 63 : i32
    %c8_i32 = arith.constant 8 : i32
    %cst = arith.constant dense<0.000000e+00> : tensor<128x128xf32, #mma>
    %tiles_m = arith.addi %M, %c127_i32 : i32
    %tiles_m_1 = arith.divsi %tiles_m, %c128_i32 : i32
    %tiles_n = arith.addi %N, %c127_i32 : i32
    %tiles_n_1 = arith.divsi %tiles_n, %c128_i32 : i32
    %k_tiles = arith.addi %K, %c63_i32 : i32
    %k_tiles_1 = arith.divsi %k_tiles, %c64_i32 : i32
    %pid = tt.get_program_id x : i32
    %tiles = arith.muli %tiles_m_1, %tiles_n_1 : i32
    %per_group = arith.muli %tiles_n_1, %c8_i32 : i32
    scf.for %tile = %pid to %tiles step %c132_i32  : i32 {
      %first_m = arith.divsi %tile, %per_group : i32
      %first_m_1 = arith.muli %first_m, %c8_i32 : i32
      %rows = arith.subi %tiles_m_1, %first_m_1 : i32
      %rows_1 = arith.minsi %rows, %c8_i32 : i32
      %in_group = arith.remsi %tile, %per_group : i32
      %pid_m = arith.remsi %in_group, %rows_1 : i32
      %pid_m_1 = arith.addi %first_m_1, %pid_m : i32
      %pid_n = arith.divsi %in_group, %rows_1 : i32
      %off_m = arith.muli %pid_m_1, %c128_i32 : i32
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
      } {tt.num_stages = 3 : i32}
      %h = arith.truncf %acc : tensor<128x128xf32, #mma> to tensor<128x128xf16, #mma>
      %hb = ttg.convert_layout %h : tensor<128x128xf16, #mma> -> tensor<128x128xf16, #blocked1>
      tt.descriptor_store %c_desc[%off_m, %off_n], %hb : !tt.tensordesc<tensor<128x128xf16, #shared>>, tensor<128x128xf16, #blocked1>
    } {tt.warp_specialize}
    tt.return
  }
}
