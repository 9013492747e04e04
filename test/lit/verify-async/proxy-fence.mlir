// RUN: ttpipe-opt %s --split-input-file --verify-diagnostics -p ttpipe-verify-async

// A two-slot ring between partitions: the producer (one warp) refills a slot by TMA once the
// consumer (the default warps) releases it. The consumer reads each slot with its own loads
// (the generic proxy); the TMA copy that refills it writes through the async proxy. The
// release orders the threads, not the proxies: the consumer fences its reads
// (`fence_async_shared`) before it arrives. Correct:

#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @fenced_release(%desc: !tt.tensordesc<tensor<64x64xf16, #nvmma>>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %buf = ttg.local_alloc : () -> !ttg.memdesc<2x64x64xf16, #nvmma, #smem, mutable>
    %full = ttg.local_alloc : () -> !ttg.memdesc<2x1xi64, #bar, #smem, mutable>
    %empty = ttg.local_alloc : () -> !ttg.memdesc<2x1xi64, #bar, #smem, mutable>
    %f0 = ttg.memdesc_index %full[%c0] : !ttg.memdesc<2x1xi64, #bar, #smem, mutable> -> !ttg.memdesc<1xi64, #bar, #smem, mutable>
    ttng.init_barrier %f0, 1 : !ttg.memdesc<1xi64, #bar, #smem, mutable>
    %f1 = ttg.memdesc_index %full[%c1] : !ttg.memdesc<2x1xi64, #bar, #smem, mutable> -> !ttg.memdesc<1xi64, #bar, #smem, mutable>
    ttng.init_barrier %f1, 1 : !ttg.memdesc<1xi64, #bar, #smem, mutable>
    %e0 = ttg.memdesc_index %empty[%c0] : !ttg.memdesc<2x1xi64, #bar, #smem, mutable> -> !ttg.memdesc<1xi64, #bar, #smem, mutable>
    ttng.init_barrier %e0, 1 : !ttg.memdesc<1xi64, #bar, #smem, mutable>
    %e1 = ttg.memdesc_index %empty[%c1] : !ttg.memdesc<2x1xi64, #bar, #smem, mutable> -> !ttg.memdesc<1xi64, #bar, #smem, mutable>
    ttng.init_barrier %e1, 1 : !ttg.memdesc<1xi64, #bar, #smem, mutable>
    ttg.warp_specialize(%desc, %buf, %full, %empty, %n)
    default {
      %true = arith.constant true
      %zero = arith.constant 0 : i32
      %one = arith.constant 1 : i32
      %two = arith.constant 2 : i32
      scf.for %i = %zero to %n step %one : i32 {
        %slot = arith.remsi %i, %two : i32
        %turn = arith.divsi %i, %two : i32
        %phase = arith.andi %turn, %one : i32
        %fb = ttg.memdesc_index %full[%slot] : !ttg.memdesc<2x1xi64, #bar, #smem, mutable> -> !ttg.memdesc<1xi64, #bar, #smem, mutable>
        ttng.wait_barrier %fb, %phase : !ttg.memdesc<1xi64, #bar, #smem, mutable>
        %tile = ttg.memdesc_index %buf[%slot] : !ttg.memdesc<2x64x64xf16, #nvmma, #smem, mutable> -> !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable>
        %x = ttg.local_load %tile : !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable> -> tensor<64x64xf16, #blocked>
        ttng.fence_async_shared {bCluster = false}
        %eb = ttg.memdesc_index %empty[%slot] : !ttg.memdesc<2x1xi64, #bar, #smem, mutable> -> !ttg.memdesc<1xi64, #bar, #smem, mutable>
        ttng.arrive_barrier %eb, 1, %true : !ttg.memdesc<1xi64, #bar, #smem, mutable>
      }
      ttg.warp_yield
    }
    partition0(%d: !tt.tensordesc<tensor<64x64xf16, #nvmma>>, %ring: !ttg.memdesc<2x64x64xf16, #nvmma, #smem, mutable>, %fulls: !ttg.memdesc<2x1xi64, #bar, #smem, mutable>, %empties: !ttg.memdesc<2x1xi64, #bar, #smem, mutable>, %trips: i32) num_warps(1) {
      %true = arith.constant true
      %zero = arith.constant 0 : i32
      %one = arith.constant 1 : i32
      %two = arith.constant 2 : i32
      scf.for %i = %zero to %trips step %one : i32 {
        %slot = arith.remsi %i, %two : i32
        %turn = arith.divsi %i, %two : i32
        %parity = arith.andi %turn, %one : i32
        %phase = arith.xori %parity, %one : i32
        %eb = ttg.memdesc_index %empties[%slot] : !ttg.memdesc<2x1xi64, #bar, #smem, mutable> -> !ttg.memdesc<1xi64, #bar, #smem, mutable>
        ttng.wait_barrier %eb, %phase : !ttg.memdesc<1xi64, #bar, #smem, mutable>
        %fb = ttg.memdesc_index %fulls[%slot] : !ttg.memdesc<2x1xi64, #bar, #smem, mutable> -> !ttg.memdesc<1xi64, #bar, #smem, mutable>
        ttng.barrier_expect %fb, 8192, %true : !ttg.memdesc<1xi64, #bar, #smem, mutable>
        %tile = ttg.memdesc_index %ring[%slot] : !ttg.memdesc<2x64x64xf16, #nvmma, #smem, mutable> -> !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable>
        ttng.async_tma_copy_global_to_local %d[%zero, %zero] %tile, %fb, %true : !tt.tensordesc<tensor<64x64xf16, #nvmma>>, !ttg.memdesc<1xi64, #bar, #smem, mutable> -> !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable>
      }
      ttg.warp_return
    } : (!tt.tensordesc<tensor<64x64xf16, #nvmma>>, !ttg.memdesc<2x64x64xf16, #nvmma, #smem, mutable>, !ttg.memdesc<2x1xi64, #bar, #smem, mutable>, !ttg.memdesc<2x1xi64, #bar, #smem, mutable>, i32) -> ()
    tt.return
  }
}

// -----

// The same ring without the fence: the refill of slot 0 (the third copy, once the consumer
// released the slot) is ordered after the read by the empty mbarrier, but not after a proxy
// fence of the consumer's: a load still in flight may return the new bytes.

#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @unfenced_release(%desc: !tt.tensordesc<tensor<64x64xf16, #nvmma>>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %buf = ttg.local_alloc : () -> !ttg.memdesc<2x64x64xf16, #nvmma, #smem, mutable>
    %full = ttg.local_alloc : () -> !ttg.memdesc<2x1xi64, #bar, #smem, mutable>
    %empty = ttg.local_alloc : () -> !ttg.memdesc<2x1xi64, #bar, #smem, mutable>
    %f0 = ttg.memdesc_index %full[%c0] : !ttg.memdesc<2x1xi64, #bar, #smem, mutable> -> !ttg.memdesc<1xi64, #bar, #smem, mutable>
    ttng.init_barrier %f0, 1 : !ttg.memdesc<1xi64, #bar, #smem, mutable>
    %f1 = ttg.memdesc_index %full[%c1] : !ttg.memdesc<2x1xi64, #bar, #smem, mutable> -> !ttg.memdesc<1xi64, #bar, #smem, mutable>
    ttng.init_barrier %f1, 1 : !ttg.memdesc<1xi64, #bar, #smem, mutable>
    %e0 = ttg.memdesc_index %empty[%c0] : !ttg.memdesc<2x1xi64, #bar, #smem, mutable> -> !ttg.memdesc<1xi64, #bar, #smem, mutable>
    ttng.init_barrier %e0, 1 : !ttg.memdesc<1xi64, #bar, #smem, mutable>
    %e1 = ttg.memdesc_index %empty[%c1] : !ttg.memdesc<2x1xi64, #bar, #smem, mutable> -> !ttg.memdesc<1xi64, #bar, #smem, mutable>
    ttng.init_barrier %e1, 1 : !ttg.memdesc<1xi64, #bar, #smem, mutable>
    ttg.warp_specialize(%desc, %buf, %full, %empty, %n)
    default {
      %true = arith.constant true
      %zero = arith.constant 0 : i32
      %one = arith.constant 1 : i32
      %two = arith.constant 2 : i32
      scf.for %i = %zero to %n step %one : i32 {
        %slot = arith.remsi %i, %two : i32
        %turn = arith.divsi %i, %two : i32
        %phase = arith.andi %turn, %one : i32
        %fb = ttg.memdesc_index %full[%slot] : !ttg.memdesc<2x1xi64, #bar, #smem, mutable> -> !ttg.memdesc<1xi64, #bar, #smem, mutable>
        ttng.wait_barrier %fb, %phase : !ttg.memdesc<1xi64, #bar, #smem, mutable>
        %tile = ttg.memdesc_index %buf[%slot] : !ttg.memdesc<2x64x64xf16, #nvmma, #smem, mutable> -> !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable>
        // expected-note @below {{the access without a proxy fence after it (local_load)}}
        %x = ttg.local_load %tile : !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable> -> tensor<64x64xf16, #blocked>
        %eb = ttg.memdesc_index %empty[%slot] : !ttg.memdesc<2x1xi64, #bar, #smem, mutable> -> !ttg.memdesc<1xi64, #bar, #smem, mutable>
        ttng.arrive_barrier %eb, 1, %true : !ttg.memdesc<1xi64, #bar, #smem, mutable>
      }
      ttg.warp_yield
    }
    partition0(%d: !tt.tensordesc<tensor<64x64xf16, #nvmma>>, %ring: !ttg.memdesc<2x64x64xf16, #nvmma, #smem, mutable>, %fulls: !ttg.memdesc<2x1xi64, #bar, #smem, mutable>, %empties: !ttg.memdesc<2x1xi64, #bar, #smem, mutable>, %trips: i32) num_warps(1) {
      %true = arith.constant true
      %zero = arith.constant 0 : i32
      %one = arith.constant 1 : i32
      %two = arith.constant 2 : i32
      scf.for %i = %zero to %trips step %one : i32 {
        %slot = arith.remsi %i, %two : i32
        %turn = arith.divsi %i, %two : i32
        %parity = arith.andi %turn, %one : i32
        %phase = arith.xori %parity, %one : i32
        %eb = ttg.memdesc_index %empties[%slot] : !ttg.memdesc<2x1xi64, #bar, #smem, mutable> -> !ttg.memdesc<1xi64, #bar, #smem, mutable>
        ttng.wait_barrier %eb, %phase : !ttg.memdesc<1xi64, #bar, #smem, mutable>
        %fb = ttg.memdesc_index %fulls[%slot] : !ttg.memdesc<2x1xi64, #bar, #smem, mutable> -> !ttg.memdesc<1xi64, #bar, #smem, mutable>
        ttng.barrier_expect %fb, 8192, %true : !ttg.memdesc<1xi64, #bar, #smem, mutable>
        %tile = ttg.memdesc_index %ring[%slot] : !ttg.memdesc<2x64x64xf16, #nvmma, #smem, mutable> -> !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable>
        // expected-error @below {{the TMA copy overwrites slot [0] of the 2x64x64xf16 shared memory after local_load of another thread with no fence.proxy.async (ttng.fence_async_shared) between: the generic access may still see the async write [proxy-fence]}}
        ttng.async_tma_copy_global_to_local %d[%zero, %zero] %tile, %fb, %true : !tt.tensordesc<tensor<64x64xf16, #nvmma>>, !ttg.memdesc<1xi64, #bar, #smem, mutable> -> !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable>
      }
      ttg.warp_return
    } : (!tt.tensordesc<tensor<64x64xf16, #nvmma>>, !ttg.memdesc<2x64x64xf16, #nvmma, #smem, mutable>, !ttg.memdesc<2x1xi64, #bar, #smem, mutable>, !ttg.memdesc<2x1xi64, #bar, #smem, mutable>, i32) -> ()
    tt.return
  }
}

// -----

// The other direction, in one thread: a tile stored to shared memory (generic proxy), then
// stored to global memory by TMA (async proxy). With the fence between, correct:

#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @fenced_store(%desc: !tt.tensordesc<tensor<64x64xf16, #nvmma>>, %tile: tensor<64x64xf16, #blocked>) {
    %c0 = arith.constant 0 : i32
    %buf = ttg.local_alloc : () -> !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable>
    ttg.local_store %tile, %buf : tensor<64x64xf16, #blocked> -> !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable>
    ttng.fence_async_shared {bCluster = false}
    ttng.async_tma_copy_local_to_global %desc[%c0, %c0] %buf : !tt.tensordesc<tensor<64x64xf16, #nvmma>>, !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable>
    ttng.async_tma_store_wait {pendings = 0 : i32}
    tt.return
  }
}

// -----

// Without it, the TMA store may read the buffer before the thread's stores reach it.

#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @unfenced_store(%desc: !tt.tensordesc<tensor<64x64xf16, #nvmma>>, %tile: tensor<64x64xf16, #blocked>) {
    %c0 = arith.constant 0 : i32
    %buf = ttg.local_alloc : () -> !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable>
    // expected-note @below {{the access without a proxy fence after it (local_store)}}
    ttg.local_store %tile, %buf : tensor<64x64xf16, #blocked> -> !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable>
    // expected-error @below {{the TMA store reads the 64x64xf16 shared memory after local_store wrote it with no fence.proxy.async (ttng.fence_async_shared) between: the async read may miss the generic write [proxy-fence]}}
    ttng.async_tma_copy_local_to_global %desc[%c0, %c0] %buf : !tt.tensordesc<tensor<64x64xf16, #nvmma>>, !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable>
    ttng.async_tma_store_wait {pendings = 0 : i32}
    tt.return
  }
}
