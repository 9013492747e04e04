// RUN: ttpipe-opt %s --split-input-file --verify-diagnostics -p ttpipe-verify-async

// A split-K GEMM's K range, K / KSPLIT: at KSPLIT = 0 the kernel divides by zero, which is
// undefined (LLVM's sdiv), so that instance is no valid input and its runs end at the
// division. Taking the quotient as unknown instead made each use unknown on its own: the MMA
// before the loop predicated off (k0 < k1 false) while the loop to k1 - 64 ran and waited
// for that MMA's phase, a deadlock no value of the quotient gives. No error.
#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#linear = #ttg.linear<{register = [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [0, 32], [0, 64]], lane = [[1, 0], [2, 0], [4, 0], [8, 0], [16, 0]], warp = [[32, 0], [64, 0]], block = []}>
#smem = #ttg.shared_memory
#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:100", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @split_k_range(%K: i32, %KSPLIT: i32) {
    %true = arith.constant true
    %false = arith.constant false
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c64 = arith.constant 64 : i32
    %kper = arith.divsi %K, %KSPLIT : i32
    %k1 = arith.minsi %K, %kper : i32
    %a = ttg.local_alloc : () -> !ttg.memdesc<128x64xf16, #nvmma, #smem, mutable>
    %b = ttg.local_alloc : () -> !ttg.memdesc<64x128xf16, #nvmma, #smem, mutable>
    %acc = ttng.tmem_alloc : () -> !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>
    %bar = ttg.local_alloc : () -> !ttg.memdesc<1xi64, #bar, #smem, mutable>
    ttng.init_barrier %bar, 1 : !ttg.memdesc<1xi64, #bar, #smem, mutable>
    %runs = arith.cmpi slt, %c0, %k1 : i32
    ttng.tc_gen5_mma %a, %b, %acc, %false, %runs, %bar[%true] {is_async} : !ttg.memdesc<128x64xf16, #nvmma, #smem, mutable>, !ttg.memdesc<64x128xf16, #nvmma, #smem, mutable>, !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>, !ttg.memdesc<1xi64, #bar, #smem, mutable>
    %last = arith.subi %k1, %c64 : i32
    %phase = scf.for %k = %c0 to %last step %c64 iter_args(%p = %c0) -> (i32) : i32 {
      ttng.wait_barrier %bar, %p : !ttg.memdesc<1xi64, #bar, #smem, mutable>
      ttng.tc_gen5_mma %a, %b, %acc, %true, %true, %bar[%true] {is_async} : !ttg.memdesc<128x64xf16, #nvmma, #smem, mutable>, !ttg.memdesc<64x128xf16, #nvmma, #smem, mutable>, !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>, !ttg.memdesc<1xi64, #bar, #smem, mutable>
      %next = arith.xori %p, %c1 : i32
      scf.yield %next : i32
    }
    scf.if %runs {
      ttng.wait_barrier %bar, %phase : !ttg.memdesc<1xi64, #bar, #smem, mutable>
    }
    %sum = ttng.tmem_load %acc : !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable> -> tensor<128x128xf32, #linear>
    ttng.inval_barrier %bar : !ttg.memdesc<1xi64, #bar, #smem, mutable>
    tt.return
  }
}

// -----

// An accumulator stored and reset every KCHUNK: k % KCHUNK == 0 reads the finished slot,
// k % KCHUNK != 0 keeps accumulating into it, else the MMA moves to the other slot. At
// KCHUNK = 0 both conditions were unknown on their own, so the read ran while the MMA still
// wrote that slot. No error.
#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#linear = #ttg.linear<{register = [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [0, 32], [0, 64]], lane = [[1, 0], [2, 0], [4, 0], [8, 0], [16, 0]], warp = [[32, 0], [64, 0]], block = []}>
#smem = #ttg.shared_memory
#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:100", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @accumulator_reset_every_chunk(%K: i32, %KCHUNK: i32) {
    %true = arith.constant true
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c64 = arith.constant 64 : i32
    %a = ttg.local_alloc : () -> !ttg.memdesc<128x64xf16, #nvmma, #smem, mutable>
    %b = ttg.local_alloc : () -> !ttg.memdesc<64x128xf16, #nvmma, #smem, mutable>
    %acc = ttng.tmem_alloc : () -> !ttg.memdesc<2x128x128xf32, #tmem, #ttng.tensor_memory, mutable>
    %bar = ttg.local_alloc : () -> !ttg.memdesc<1xi64, #bar, #smem, mutable>
    ttng.init_barrier %bar, 1 : !ttg.memdesc<1xi64, #bar, #smem, mutable>
    %out:2 = scf.for %k = %c0 to %K step %c64 iter_args(%slot = %c0, %p = %c0) -> (i32, i32) : i32 {
      %r = arith.remsi %k, %KCHUNK : i32
      %store = arith.cmpi eq, %r, %c0 : i32
      %keep = arith.cmpi ne, %r, %c0 : i32
      %other = arith.xori %slot, %c1 : i32
      %into = arith.select %keep, %slot, %other : i32
      %d = ttg.memdesc_index %acc[%into] : !ttg.memdesc<2x128x128xf32, #tmem, #ttng.tensor_memory, mutable> -> !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>
      ttng.tc_gen5_mma %a, %b, %d, %keep, %true, %bar[%true] {is_async} : !ttg.memdesc<128x64xf16, #nvmma, #smem, mutable>, !ttg.memdesc<64x128xf16, #nvmma, #smem, mutable>, !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>, !ttg.memdesc<1xi64, #bar, #smem, mutable>
      scf.if %store {
        %done = ttg.memdesc_index %acc[%slot] : !ttg.memdesc<2x128x128xf32, #tmem, #ttng.tensor_memory, mutable> -> !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>
        %sum = ttng.tmem_load %done : !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable> -> tensor<128x128xf32, #linear>
      }
      ttng.wait_barrier %bar, %p : !ttg.memdesc<1xi64, #bar, #smem, mutable>
      %next = arith.xori %p, %c1 : i32
      scf.yield %into, %next : i32, i32
    }
    ttng.inval_barrier %bar : !ttg.memdesc<1xi64, #bar, #smem, mutable>
    tt.return
  }
}
