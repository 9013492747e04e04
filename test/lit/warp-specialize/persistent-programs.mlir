// A GEMM of a program a tile made persistent before phase 1 (`programs`, the pipeline's
// `sms`): its programs walk the tiles of the grid, program l (its linear id over the axes
// it reads) taking tiles l, l + P, ..., the ids read as the tile's coordinates, programs
// past P taking none. Phase 1 then takes the nest it knows: at 4 warps two ping-pong
// consumer warpgroups (232 registers each), each on every other tile of its program.
// RUN: ttpipe-opt %s --split-input-file --verify-diagnostics -p 'ttpipe-warp-specialize{programs=132}'
// RUN: ttpipe-opt %s --split-input-file -p 'ttpipe-warp-specialize{programs=132}' 2>/dev/null | filecheck %s
// RUN: ttpipe-opt %s --split-input-file -p ttpipe-warp-specialize 2>/dev/null | filecheck %s --check-prefix=KEPT

// The TMA matmul on a 2-D grid (x the row of tiles, y the column), 128x128x64 fp16 tiles.
// CHECK-LABEL: tt.func public @matmul_tma_ws(
// CHECK: %[[KT:.+]] = arith.divsi
// CHECK: %[[GX:.+]] = tt.get_num_programs x
// CHECK-NEXT: %[[GY:.+]] = tt.get_num_programs y
// CHECK-NEXT: %[[Y:.+]] = tt.get_program_id y
// CHECK-NEXT: %[[X:.+]] = tt.get_program_id x
// CHECK-NEXT: %[[YX:.+]] = arith.muli %[[GX]], %[[Y]]
// CHECK-NEXT: %[[L:.+]] = arith.addi %[[X]], %[[YX]]
// CHECK-NEXT: %[[T:.+]] = arith.muli %[[GX]], %[[GY]]
// CHECK-NEXT: %[[P:.+]] = arith.constant 132 : i32
// CHECK-NEXT: %[[RUNS:.+]] = arith.cmpi slt, %[[L]], %[[P]]
// CHECK-NEXT: %[[FIRST:.+]] = arith.select %[[RUNS]], %[[L]], %[[T]]
// CHECK-NOT: tt.get_program_id
// CHECK: ttg.warp_specialize({{.*}}) attributes {requestedRegisters = array<i32: 232, 40>}
// CHECK-NEXT: default {
// CHECK: %[[TWICE:.+]] = arith.muli %[[P]], %{{.+}} : i32
// CHECK-NEXT: scf.for %[[TILE:[^ ]+]] = %[[FIRST]] to %[[T]] step %[[TWICE]]
// CHECK-NEXT: %[[COL:.+]] = arith.remsi %[[TILE]], %[[GX]]
// CHECK-NEXT: %[[ROW:.+]] = arith.divsi %[[TILE]], %[[GX]]
// CHECK-NEXT: arith.muli %[[COL]], %c128_i32
// CHECK-NEXT: arith.muli %[[ROW]], %c128_i32
// CHECK: scf.for {{.+}} = %c0_i32 to %[[KT]] step %c1_i32
// CHECK: ttng.warp_group_dot
// CHECK: ttng.async_tma_copy_local_to_global
// CHECK: partition0({{.+}}) num_warps(4) {
// CHECK: partition1({{.+}}) num_warps(1) {
// CHECK: scf.for
// CHECK: arith.remsi
// CHECK: scf.for
// CHECK-COUNT-2: ttng.async_tma_copy_global_to_local

// Kept at one tile a program (`programs=0`, the pass's default): one consumer warpgroup.
// KEPT-LABEL: tt.func public @matmul_tma_ws(
// KEPT-NOT: tt.get_num_programs
// KEPT: ttg.warp_specialize({{.*}}) attributes {requestedRegisters = array<i32: 40>}
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 128, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @matmul_tma_ws(%a_desc: !tt.tensordesc<tensor<128x64xf16, #shared>>, %a_desc_0: i32, %a_desc_1: i32, %a_desc_2: i64, %a_desc_3: i64, %b_desc: !tt.tensordesc<tensor<128x64xf16, #shared>>, %b_desc_4: i32, %b_desc_5: i32, %b_desc_6: i64, %b_desc_7: i64, %c_desc: !tt.tensordesc<tensor<128x128xf16, #shared>>, %c_desc_8: i32, %c_desc_9: i32, %c_desc_10: i64, %c_desc_11: i64, %M: i32, %N: i32, %K: i32) attributes {noinline = false} {
    %c128_i32 = arith.constant 128 : i32
    %c64_i32 = arith.constant 64 : i32
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %c63_i32 = arith.constant 63 : i32
    %acc = arith.constant dense<0.000000e+00> : tensor<128x128xf32, #mma>
    %pid_m = tt.get_program_id x : i32
    %pid_n = tt.get_program_id y : i32
    %0 = arith.addi %K, %c63_i32 : i32
    %1 = arith.divsi %0, %c64_i32 : i32
    %a = arith.muli %pid_m, %c128_i32 : i32
    %b = arith.muli %pid_n, %c128_i32 : i32
    %acc_12 = scf.for %arg18 = %c0_i32 to %1 step %c1_i32 iter_args(%arg19 = %acc) -> (tensor<128x128xf32, #mma>)  : i32 {
      %a_13 = arith.muli %arg18, %c64_i32 : i32
      %a_14 = tt.descriptor_load %a_desc[%a, %a_13] : !tt.tensordesc<tensor<128x64xf16, #shared>> -> tensor<128x64xf16, #blocked>
      %a_15 = ttg.local_alloc %a_14 : (tensor<128x64xf16, #blocked>) -> !ttg.memdesc<128x64xf16, #shared, #smem>
      %b_16 = tt.descriptor_load %b_desc[%b, %a_13] : !tt.tensordesc<tensor<128x64xf16, #shared>> -> tensor<128x64xf16, #blocked>
      %acc_17 = ttg.local_alloc %b_16 : (tensor<128x64xf16, #blocked>) -> !ttg.memdesc<128x64xf16, #shared, #smem>
      %acc_18 = ttg.memdesc_trans %acc_17 {order = array<i32: 1, 0>} : !ttg.memdesc<128x64xf16, #shared, #smem> -> !ttg.memdesc<64x128xf16, #shared1, #smem>
      %acc_19 = ttng.warp_group_dot %a_15, %acc_18, %arg19 {inputPrecision = 0 : i32} : !ttg.memdesc<128x64xf16, #shared, #smem> * !ttg.memdesc<64x128xf16, #shared1, #smem> -> tensor<128x128xf32, #mma>
      scf.yield %acc_19 : tensor<128x128xf32, #mma>
    } {tt.warp_specialize}
    %2 = arith.muli %pid_m, %c128_i32 : i32
    %3 = arith.muli %pid_n, %c128_i32 : i32
    %4 = arith.truncf %acc_12 : tensor<128x128xf32, #mma> to tensor<128x128xf16, #mma>
    %5 = ttg.convert_layout %4 : tensor<128x128xf16, #mma> -> tensor<128x128xf16, #blocked1>
    tt.descriptor_store %c_desc[%2, %3], %5 : !tt.tensordesc<tensor<128x128xf16, #shared>>, tensor<128x128xf16, #blocked1>
    tt.return
  }
}

// -----

// Programs that update memory atomically keep one tile each (a program spinning on a counter
// another program advances could wait for a tile it has still to run itself); the loop is
// warp-specialized as it is.
// CHECK-LABEL: tt.func public @matmul_counted(
// CHECK-NOT: tt.get_num_programs
// CHECK: ttg.warp_specialize({{.*}}) attributes {requestedRegisters = array<i32: 40>}
// CHECK: tt.atomic_rmw
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 128, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @matmul_counted(%a_desc: !tt.tensordesc<tensor<128x64xf16, #shared>>, %a_desc_0: i32, %a_desc_1: i32, %a_desc_2: i64, %a_desc_3: i64, %b_desc: !tt.tensordesc<tensor<128x64xf16, #shared>>, %b_desc_4: i32, %b_desc_5: i32, %b_desc_6: i64, %b_desc_7: i64, %c_desc: !tt.tensordesc<tensor<128x128xf16, #shared>>, %c_desc_8: i32, %c_desc_9: i32, %c_desc_10: i64, %c_desc_11: i64, %M: i32, %N: i32, %K: i32, %done: !tt.ptr<i32>) attributes {noinline = false} {
    %c128_i32 = arith.constant 128 : i32
    %c64_i32 = arith.constant 64 : i32
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %c63_i32 = arith.constant 63 : i32
    %acc = arith.constant dense<0.000000e+00> : tensor<128x128xf32, #mma>
    %pid_m = tt.get_program_id x : i32
    %pid_n = arith.constant 0 : i32
    %0 = arith.addi %K, %c63_i32 : i32
    %1 = arith.divsi %0, %c64_i32 : i32
    %a = arith.muli %pid_m, %c128_i32 : i32
    %b = arith.muli %pid_n, %c128_i32 : i32
    // expected-remark @below {{tiles kept one a program: 'tt.atomic_rmw': programs may wait for one another through memory, and a program waiting for a tile it has still to run would wait forever}}
    %acc_12 = scf.for %arg18 = %c0_i32 to %1 step %c1_i32 iter_args(%arg19 = %acc) -> (tensor<128x128xf32, #mma>)  : i32 {
      %a_13 = arith.muli %arg18, %c64_i32 : i32
      %a_14 = tt.descriptor_load %a_desc[%a, %a_13] : !tt.tensordesc<tensor<128x64xf16, #shared>> -> tensor<128x64xf16, #blocked>
      %a_15 = ttg.local_alloc %a_14 : (tensor<128x64xf16, #blocked>) -> !ttg.memdesc<128x64xf16, #shared, #smem>
      %b_16 = tt.descriptor_load %b_desc[%b, %a_13] : !tt.tensordesc<tensor<128x64xf16, #shared>> -> tensor<128x64xf16, #blocked>
      %acc_17 = ttg.local_alloc %b_16 : (tensor<128x64xf16, #blocked>) -> !ttg.memdesc<128x64xf16, #shared, #smem>
      %acc_18 = ttg.memdesc_trans %acc_17 {order = array<i32: 1, 0>} : !ttg.memdesc<128x64xf16, #shared, #smem> -> !ttg.memdesc<64x128xf16, #shared1, #smem>
      %acc_19 = ttng.warp_group_dot %a_15, %acc_18, %arg19 {inputPrecision = 0 : i32} : !ttg.memdesc<128x64xf16, #shared, #smem> * !ttg.memdesc<64x128xf16, #shared1, #smem> -> tensor<128x128xf32, #mma>
      scf.yield %acc_19 : tensor<128x128xf32, #mma>
    } {tt.warp_specialize}
    %2 = arith.muli %pid_m, %c128_i32 : i32
    %3 = arith.muli %pid_n, %c128_i32 : i32
    %4 = arith.truncf %acc_12 : tensor<128x128xf32, #mma> to tensor<128x128xf16, #mma>
    %5 = ttg.convert_layout %4 : tensor<128x128xf16, #mma> -> tensor<128x128xf16, #blocked1>
    tt.descriptor_store %c_desc[%2, %3], %5 : !tt.tensordesc<tensor<128x128xf16, #shared>>, tensor<128x128xf16, #blocked1>
    %old = tt.atomic_rmw add, acq_rel, gpu, %done, %c1_i32 : (!tt.ptr<i32>, i32) -> i32
    tt.return
  }
}
