// RUN: ttpipe-opt %s --split-input-file --verify-diagnostics -p ttpipe-ws-keep-nest
// RUN: ttpipe-opt %s --split-input-file -p ttpipe-ws-keep-nest 2>/dev/null | filecheck %s

// Phase 0 of warp specialization, before tritongpu-fuse-nested-loops: a persistent nest
// marked flatten and warp_specialize (Triton's tutorial 09) that phase 1 takes loses
// tt.flatten, so that it stays a nest; the probe leaves nothing else behind.
// CHECK-LABEL: tt.func public @taken(
// CHECK-NOT: ttg.warp_specialize
// CHECK-NOT: ttg.local_alloc
// CHECK: scf.for
// CHECK: scf.for
// CHECK: tt.descriptor_store
// CHECK: } {tt.warp_specialize}
// CHECK-NEXT: tt.return
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 128, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @taken(%a_desc: !tt.tensordesc<tensor<128x64xf16, #shared>>, %b_desc: !tt.tensordesc<tensor<128x64xf16, #shared>>, %c_desc: !tt.tensordesc<tensor<128x128xf16, #shared>>, %M: i32, %N: i32, %K: i32) attributes {noinline = false} {
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
    } {tt.flatten, tt.warp_specialize}
    tt.return
  }
}

// -----

// A nest phase 1 refuses (control flow in the epilogue) keeps tt.flatten, to be flattened
// and pipelined as stock Triton does it, and the remark says why.
// CHECK-LABEL: tt.func public @refused(
// CHECK: } {tt.flatten, tt.warp_specialize}
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 128, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @refused(%a_desc: !tt.tensordesc<tensor<128x64xf16, #shared>>, %b_desc: !tt.tensordesc<tensor<128x64xf16, #shared>>, %c_desc: !tt.tensordesc<tensor<128x128xf16, #shared>>, %M: i32, %N: i32, %K: i32) attributes {noinline = false} {
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
    // expected-remark @below {{loop not warp-specialized: 'scf.if' in the epilogue of the tile loop (control flow is a later round)}}
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
      %in = arith.cmpi slt, %off_m, %M : i32
      scf.if %in {
        tt.descriptor_store %c_desc[%off_m, %off_n], %hb : !tt.tensordesc<tensor<128x128xf16, #shared>>, tensor<128x128xf16, #blocked1>
      }
    } {tt.flatten, tt.warp_specialize}
    tt.return
  }
}

// -----

// A nest not marked warp_specialize is flattened as the user asked: not probed.
// CHECK-LABEL: tt.func public @unmarked(
// CHECK: } {tt.flatten}
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 128, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @unmarked(%a_desc: !tt.tensordesc<tensor<128x64xf16, #shared>>, %b_desc: !tt.tensordesc<tensor<128x64xf16, #shared>>, %c_desc: !tt.tensordesc<tensor<128x128xf16, #shared>>, %M: i32, %N: i32, %K: i32) attributes {noinline = false} {
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
    } {tt.flatten}
    tt.return
  }
}
