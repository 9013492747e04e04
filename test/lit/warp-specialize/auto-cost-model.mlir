// mode=auto warp-specializes an unmarked loop only where the cost model says it pays: with
// one consumer warpgroup (num_warps=4) it leaves the loop to the software pipeliner, with a
// remark; mode=marked specializes the same loop when it carries tt.warp_specialize.
// RUN: ttpipe-opt %s --verify-diagnostics -p 'ttpipe-warp-specialize{mode=auto}'
// RUN: ttpipe-opt %s -p 'ttpipe-warp-specialize{mode=auto}' 2>/dev/null | filecheck %s --check-prefix=AUTO
// RUN: sed 's/} {tt.for_marker}/} {tt.warp_specialize}/' %s | ttpipe-opt -p 'ttpipe-warp-specialize{mode=marked}' | filecheck %s --check-prefix=MARKED
// AUTO-LABEL: tt.func @one_consumer_warpgroup
// AUTO-NOT: ttg.warp_specialize
// AUTO: scf.for
// MARKED-LABEL: tt.func @one_consumer_warpgroup
// MARKED: ttg.warp_specialize
// MARKED-SAME: requestedRegisters = array<i32: 40>

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @one_consumer_warpgroup(%d: !tt.tensordesc<tensor<64x64xf16, #shared>>, %n: i32) -> tensor<64x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma>
    // expected-remark @below {{loop not warp-specialized: one consumer warpgroup (num_warps=4) does not pay: the software pipeliner overlaps its loads as well (mode=auto warp-specializes with two or more consumer warpgroups)}}
    %acc = scf.for %k = %c0 to %n step %c1 iter_args(%c = %zero) -> (tensor<64x64xf32, #mma>) : i32 {
      %a = tt.descriptor_load %d[%c0, %k] : !tt.tensordesc<tensor<64x64xf16, #shared>> -> tensor<64x64xf16, #blocked>
      %as = ttg.local_alloc %a : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #shared, #smem>
      %b = tt.descriptor_load %d[%c0, %k] : !tt.tensordesc<tensor<64x64xf16, #shared>> -> tensor<64x64xf16, #blocked>
      %bs = ttg.local_alloc %b : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #shared, #smem>
      %r = ttng.warp_group_dot %as, %bs, %c {inputPrecision = 0 : i32} : !ttg.memdesc<64x64xf16, #shared, #smem> * !ttg.memdesc<64x64xf16, #shared, #smem> -> tensor<64x64xf32, #mma>
      scf.yield %r : tensor<64x64xf32, #mma>
    } {tt.for_marker}
    tt.return %acc : tensor<64x64xf32, #mma>
  }
}
