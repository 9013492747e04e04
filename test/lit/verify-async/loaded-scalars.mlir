// RUN: ttpipe-opt %s --split-input-file --verify-diagnostics -p ttpipe-verify-async

// A K loop whose bound is loaded from memory, pipelined as Triton pipelines it on sm_100a:
// the first MMA peeled before the loop and predicated on 0 < k, the loop to k - 64 waiting
// for the MMA before its own, the last wait after it under the same predicate. The loaded
// k is one value of the run, as an argument is: at every k the loop runs only when the
// peeled MMA ran. Taking k as unknown and guessing each use apart instead skipped the
// peeled MMA while the loop ran its unknown trips and waited for it, a deadlock no value of
// k gives. No error.
#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#linear = #ttg.linear<{register = [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [0, 32], [0, 64]], lane = [[1, 0], [2, 0], [4, 0], [8, 0], [16, 0]], warp = [[32, 0], [64, 0]], block = []}>
#smem = #ttg.shared_memory
#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:100", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @k_bound_loaded(%kptr: !tt.ptr<i32>) {
    %true = arith.constant true
    %false = arith.constant false
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c64 = arith.constant 64 : i32
    %k = tt.load %kptr : !tt.ptr<i32>
    %a = ttg.local_alloc : () -> !ttg.memdesc<128x64xf16, #nvmma, #smem, mutable>
    %b = ttg.local_alloc : () -> !ttg.memdesc<64x128xf16, #nvmma, #smem, mutable>
    %acc = ttng.tmem_alloc : () -> !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>
    %bar = ttg.local_alloc : () -> !ttg.memdesc<1xi64, #bar, #smem, mutable>
    ttng.init_barrier %bar, 1 : !ttg.memdesc<1xi64, #bar, #smem, mutable>
    %runs = arith.cmpi sgt, %k, %c0 : i32
    ttng.tc_gen5_mma %a, %b, %acc, %false, %runs, %bar[%true] {is_async} : !ttg.memdesc<128x64xf16, #nvmma, #smem, mutable>, !ttg.memdesc<64x128xf16, #nvmma, #smem, mutable>, !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>, !ttg.memdesc<1xi64, #bar, #smem, mutable>
    %last = arith.subi %k, %c64 : i32
    %phase = scf.for %i = %c0 to %last step %c64 iter_args(%p = %c0) -> (i32) : i32 {
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

// The same loop bounded by the largest of a loaded vector of row lengths (ragged rows): a
// reduction of loaded data is one value of the run, too. No error.
#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#linear = #ttg.linear<{register = [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [0, 32], [0, 64]], lane = [[1, 0], [2, 0], [4, 0], [8, 0], [16, 0]], warp = [[32, 0], [64, 0]], block = []}>
#smem = #ttg.shared_memory
#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:100", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @k_bound_reduced(%lens: tensor<128x!tt.ptr<i32>, #blocked>) {
    %true = arith.constant true
    %false = arith.constant false
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c64 = arith.constant 64 : i32
    %rows = tt.load %lens : tensor<128x!tt.ptr<i32>, #blocked>
    %k = "tt.reduce"(%rows) <{axis = 0 : i32}> ({
    ^bb0(%x: i32, %y: i32):
      %m = arith.maxsi %x, %y : i32
      tt.reduce.return %m : i32
    }) : (tensor<128xi32, #blocked>) -> i32
    %a = ttg.local_alloc : () -> !ttg.memdesc<128x64xf16, #nvmma, #smem, mutable>
    %b = ttg.local_alloc : () -> !ttg.memdesc<64x128xf16, #nvmma, #smem, mutable>
    %acc = ttng.tmem_alloc : () -> !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>
    %bar = ttg.local_alloc : () -> !ttg.memdesc<1xi64, #bar, #smem, mutable>
    ttng.init_barrier %bar, 1 : !ttg.memdesc<1xi64, #bar, #smem, mutable>
    %runs = arith.cmpi sgt, %k, %c0 : i32
    ttng.tc_gen5_mma %a, %b, %acc, %false, %runs, %bar[%true] {is_async} : !ttg.memdesc<128x64xf16, #nvmma, #smem, mutable>, !ttg.memdesc<64x128xf16, #nvmma, #smem, mutable>, !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>, !ttg.memdesc<1xi64, #bar, #smem, mutable>
    %last = arith.subi %k, %c64 : i32
    %phase = scf.for %i = %c0 to %last step %c64 iter_args(%p = %c0) -> (i32) : i32 {
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

// The peeled MMA guarded by the wrong bound, 128 < k: at k = 100 it is skipped while the
// loop to k - 64 runs a trip and waits for it. The loaded k is computed, not guessed, so
// the bug is found at that value.
#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#linear = #ttg.linear<{register = [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [0, 32], [0, 64]], lane = [[1, 0], [2, 0], [4, 0], [8, 0], [16, 0]], warp = [[32, 0], [64, 0]], block = []}>
#smem = #ttg.shared_memory
#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:100", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @peeled_mma_wrong_bound(%kptr: !tt.ptr<i32>) {
    %true = arith.constant true
    %false = arith.constant false
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c64 = arith.constant 64 : i32
    %c128 = arith.constant 128 : i32
    %k = tt.load %kptr : !tt.ptr<i32>
    %a = ttg.local_alloc : () -> !ttg.memdesc<128x64xf16, #nvmma, #smem, mutable>
    %b = ttg.local_alloc : () -> !ttg.memdesc<64x128xf16, #nvmma, #smem, mutable>
    %acc = ttng.tmem_alloc : () -> !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>
    %bar = ttg.local_alloc : () -> !ttg.memdesc<1xi64, #bar, #smem, mutable>
    // expected-note @below {{initialised here with count 1}}
    ttng.init_barrier %bar, 1 : !ttg.memdesc<1xi64, #bar, #smem, mutable>
    %runs = arith.cmpi sgt, %k, %c128 : i32
    ttng.tc_gen5_mma %a, %b, %acc, %false, %runs, %bar[%true] {is_async} : !ttg.memdesc<128x64xf16, #nvmma, #smem, mutable>, !ttg.memdesc<64x128xf16, #nvmma, #smem, mutable>, !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>, !ttg.memdesc<1xi64, #bar, #smem, mutable>
    %last = arith.subi %k, %c64 : i32
    %phase = scf.for %i = %c0 to %last step %c64 iter_args(%p = %c0) -> (i32) : i32 {
      // expected-error @below {{this wait on the mbarrier (1xi64) for a phase of parity 0 never returns: 0 phase(s) completed, and phase 0 still waits for 1 of 1 arrival(s), and no thread is left to complete it [deadlock]}}
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
