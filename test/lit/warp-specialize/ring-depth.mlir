// RUN: ttpipe-opt %s --verify-diagnostics -p ttpipe-warp-specialize
// RUN: ttpipe-opt %s -p ttpipe-warp-specialize 2>/dev/null | filecheck %s

// CHECK-LABEL: tt.func @too_many_stages(
// CHECK: ttg.local_alloc : () -> !ttg.memdesc<14x64x64xf16
// CHECK: ttg.warp_specialize

// The ring must fit in shared memory: 32 stages of 16 KiB exceed 227 KiB, so the ring is
// made shallower, to the deepest that fits (14 stages).
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @too_many_stages(%d: !tt.tensordesc<tensor<64x64xf16, #shared>>, %n: i32) -> tensor<64x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma>
    // expected-remark @below {{ring of 14 stages, not 32: 32 stages of 16384 bytes would need 524800 bytes of shared memory, more than the 232448 of sm_90}}
    %acc = scf.for %k = %c0 to %n step %c1 iter_args(%c = %zero) -> (tensor<64x64xf32, #mma>) : i32 {
      %a = tt.descriptor_load %d[%c0, %k] : !tt.tensordesc<tensor<64x64xf16, #shared>> -> tensor<64x64xf16, #blocked>
      %as = ttg.local_alloc %a : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #shared, #smem>
      %b = tt.descriptor_load %d[%c0, %k] : !tt.tensordesc<tensor<64x64xf16, #shared>> -> tensor<64x64xf16, #blocked>
      %bs = ttg.local_alloc %b : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #shared, #smem>
      %r = ttng.warp_group_dot %as, %bs, %c {inputPrecision = 0 : i32} : !ttg.memdesc<64x64xf16, #shared, #smem> * !ttg.memdesc<64x64xf16, #shared, #smem> -> tensor<64x64xf32, #mma>
      scf.yield %r : tensor<64x64xf32, #mma>
    } {tt.warp_specialize, tt.num_stages = 32 : i32}
    tt.return %acc : tensor<64x64xf32, #mma>
  }
}

