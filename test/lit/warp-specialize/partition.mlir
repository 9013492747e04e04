// RUN: ttpipe-opt %s --split-input-file -p ttpipe-warp-specialize | filecheck %s
// RUN: ttpipe-opt %s --split-input-file -p 'ttpipe-warp-specialize{num-stages=5}' | filecheck %s --check-prefix=FIVE

// The non-persistent TMA matmul (A[M,K] x B[N,K]^T, 128x128x64 fp16 tiles) as it reaches
// nvgpu-warp-specialization in ttgir-sm90 (after accelerate-matmul, optimize-dot-operands and
// licm), its K loop marked by `tl.range(..., warp_specialize=True)`. It becomes a 4-stage
// ring (the default num-stages, 3, deepened to keep 96 KB of loads ahead; a deeper option
// is kept) of A and B tiles with a full (count 1) and an empty (count 1:
// one consumer warpgroup) mbarrier per stage, and a ttg.warp_specialize whose default region
// runs the wgmma loop and whose one-warp partition0 runs the TMA loop. The epilogue stays
// after it, in the default warps, reading the flushed accumulator.
// CHECK-LABEL: tt.func public @matmul_tma_ws(
// CHECK-SAME: %[[ADESC:[a-z0-9_]+]]: !tt.tensordesc
// CHECK: %[[KT:.+]] = arith.divsi
// CHECK: %[[ABUF:.+]] = ttg.local_alloc : () -> !ttg.memdesc<4x128x64xf16, #shared, #smem, mutable>
// CHECK: %[[BBUF:.+]] = ttg.local_alloc : () -> !ttg.memdesc<4x128x64xf16, #shared, #smem, mutable>
// CHECK: %[[FULL:.+]] = ttg.local_alloc : () -> !ttg.memdesc<4x1xi64
// CHECK-COUNT-4: ttng.init_barrier {{.+}}, 1 :
// CHECK: %[[EMPTY:.+]] = ttg.local_alloc : () -> !ttg.memdesc<4x1xi64
// CHECK-COUNT-4: ttng.init_barrier {{.+}}, 1 :
// CHECK: gpu.barrier
// CHECK-NEXT: %[[WS:.+]] = ttg.warp_specialize({{.*}}%[[ABUF]], %[[BBUF]], %[[FULL]], %[[EMPTY]]) attributes {requestedRegisters = array<i32: 40>}
// CHECK-NEXT: default {
// CHECK: scf.for
// CHECK: ttng.warp_group_dot {{.+}}isAsync = true
// CHECK: } {tt.num_stages = 0 : i32}
// CHECK: %[[RES:.+]] = ttng.warp_group_dot_wait {{.+}} {pendings = 0 : i32}
// CHECK-NEXT: ttg.warp_yield %[[RES]]
// CHECK: partition0({{.+}}) num_warps(1) {
// CHECK: scf.for
// CHECK-COUNT-2: ttng.async_tma_copy_global_to_local
// CHECK: } {tt.num_stages = 0 : i32}
// CHECK-NEXT: ttg.warp_return
// CHECK-NEXT: } : ({{.+}}) -> tensor<128x128xf32, #mma>
// CHECK-COUNT-8: ttng.inval_barrier
// CHECK: arith.truncf %[[WS]]
// CHECK: tt.descriptor_store
// CHECK-NOT: tt.warp_specialize

// FIVE: ttg.local_alloc : () -> !ttg.memdesc<5x128x64xf16
// FIVE: ttg.local_alloc : () -> !ttg.memdesc<5x1xi64
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
