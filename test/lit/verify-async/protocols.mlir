// RUN: ttpipe-opt %s --split-input-file --verify-diagnostics -p ttpipe-verify-async

// Protocols written by hand, one rule each: a TMA copy into a buffer completes on an
// mbarrier, which the reader waits for before reading. The first chunk is correct.

#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @waits_then_reads(%desc: !tt.tensordesc<tensor<64x64xf16, #nvmma>>) {
    %true = arith.constant true
    %c0 = arith.constant 0 : i32
    %bar = ttg.local_alloc : () -> !ttg.memdesc<1xi64, #bar, #smem, mutable>
    %buf = ttg.local_alloc : () -> !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable>
    ttng.init_barrier %bar, 1 : !ttg.memdesc<1xi64, #bar, #smem, mutable>
    ttng.barrier_expect %bar, 8192, %true : !ttg.memdesc<1xi64, #bar, #smem, mutable>
    ttng.async_tma_copy_global_to_local %desc[%c0, %c0] %buf, %bar, %true : !tt.tensordesc<tensor<64x64xf16, #nvmma>>, !ttg.memdesc<1xi64, #bar, #smem, mutable> -> !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable>
    ttng.wait_barrier %bar, %c0 : !ttg.memdesc<1xi64, #bar, #smem, mutable>
    %x = ttg.local_load %buf : !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable> -> tensor<64x64xf16, #blocked>
    ttng.inval_barrier %bar : !ttg.memdesc<1xi64, #bar, #smem, mutable>
    tt.return
  }
}

// -----

// Waiting with parity 1 on a fresh barrier returns at once: the read does not wait.
#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @wrong_parity(%desc: !tt.tensordesc<tensor<64x64xf16, #nvmma>>) {
    %true = arith.constant true
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %bar = ttg.local_alloc : () -> !ttg.memdesc<1xi64, #bar, #smem, mutable>
    %buf = ttg.local_alloc : () -> !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable>
    ttng.init_barrier %bar, 1 : !ttg.memdesc<1xi64, #bar, #smem, mutable>
    ttng.barrier_expect %bar, 8192, %true : !ttg.memdesc<1xi64, #bar, #smem, mutable>
    // expected-note @below {{the write it races with (the TMA copy)}}
    // expected-note @below {{the other write (the TMA copy)}}
    ttng.async_tma_copy_global_to_local %desc[%c0, %c0] %buf, %bar, %true : !tt.tensordesc<tensor<64x64xf16, #nvmma>>, !ttg.memdesc<1xi64, #bar, #smem, mutable> -> !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable>
    ttng.wait_barrier %bar, %c1 : !ttg.memdesc<1xi64, #bar, #smem, mutable>
    // expected-error @below {{local_load reads the 64x64xf16 shared memory while the TMA copy that writes it may still be in flight: no wait orders the read after the write [read-before-wait]}}
    %x = ttg.local_load %buf : !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable> -> tensor<64x64xf16, #blocked>
    // expected-error @below {{the end of the kernel writes the 64x64xf16 shared memory while the TMA copy that writes it may still be in flight [write-write]}}
    tt.return
  }
}

// -----

// The copy brings 8192 bytes; the phase waits for 16384 and never completes.
#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @too_many_bytes_expected(%desc: !tt.tensordesc<tensor<64x64xf16, #nvmma>>) {
    %true = arith.constant true
    %c0 = arith.constant 0 : i32
    %bar = ttg.local_alloc : () -> !ttg.memdesc<1xi64, #bar, #smem, mutable>
    %buf = ttg.local_alloc : () -> !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable>
    ttng.init_barrier %bar, 1 : !ttg.memdesc<1xi64, #bar, #smem, mutable>
    // expected-error @below {{barrier_expect announces 16384 bytes on the mbarrier (1xi64) in phase 0, but its TMA copies bring 8192: the phase never completes [expect-bytes]}}
    ttng.barrier_expect %bar, 16384, %true : !ttg.memdesc<1xi64, #bar, #smem, mutable>
    ttng.async_tma_copy_global_to_local %desc[%c0, %c0] %buf, %bar, %true : !tt.tensordesc<tensor<64x64xf16, #nvmma>>, !ttg.memdesc<1xi64, #bar, #smem, mutable> -> !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable>
    // expected-note @below {{this wait never returns}}
    ttng.wait_barrier %bar, %c0 : !ttg.memdesc<1xi64, #bar, #smem, mutable>
    tt.return
  }
}

// -----

// A barrier used before its init_barrier.
#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @arrive_before_init() {
    %true = arith.constant true
    %bar = ttg.local_alloc : () -> !ttg.memdesc<1xi64, #bar, #smem, mutable>
    // expected-error @below {{'ttng.arrive_barrier' uses the 1xi64 shared memory as an mbarrier, which is uninitialised here [init]}}
    ttng.arrive_barrier %bar, 1, %true : !ttg.memdesc<1xi64, #bar, #smem, mutable>
    ttng.init_barrier %bar, 1 : !ttg.memdesc<1xi64, #bar, #smem, mutable>
    tt.return
  }
}

// -----

// Two partitions: the producer arrives once per trip (at most one), the consumer waits
// on phases 0 and 1: with %n = 0 (the first instance) no phase completes at all.
#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @consumer_waits_once_too_often(%n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %bar = ttg.local_alloc : () -> !ttg.memdesc<1xi64, #bar, #smem, mutable>
    // expected-note @below {{initialised here with count 1}}
    ttng.init_barrier %bar, 1 : !ttg.memdesc<1xi64, #bar, #smem, mutable>
    ttg.warp_specialize(%bar, %n) attributes {requestedRegisters = array<i32: 40>}
    default {
      // expected-error @below {{this wait on the mbarrier (1xi64) for a phase of parity 0 never returns: 0 phase(s) completed, and phase 0 still waits for 1 of 1 arrival(s), and no thread is left to complete it [deadlock]}}
      ttng.wait_barrier %bar, %c0 : !ttg.memdesc<1xi64, #bar, #smem, mutable>
      ttng.wait_barrier %bar, %c1 : !ttg.memdesc<1xi64, #bar, #smem, mutable>
      ttg.warp_yield
    }
    partition0(%b: !ttg.memdesc<1xi64, #bar, #smem, mutable>, %trips: i32) num_warps(1) {
      %true = arith.constant true
      %zero = arith.constant 0 : i32
      %one = arith.constant 1 : i32
      %last = arith.minsi %trips, %one : i32
      scf.for %i = %zero to %last step %one : i32 {
        ttng.arrive_barrier %b, 1, %true : !ttg.memdesc<1xi64, #bar, #smem, mutable>
      }
      ttg.warp_return
    } : (!ttg.memdesc<1xi64, #bar, #smem, mutable>, i32) -> ()
    tt.return
  }
}

// -----

// Unstructured control flow is not modelled: the function gets a remark, not a verdict.
#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @branches(%c: i1) {
    %bar = ttg.local_alloc : () -> !ttg.memdesc<1xi64, #bar, #smem, mutable>
    ttng.init_barrier %bar, 1 : !ttg.memdesc<1xi64, #bar, #smem, mutable>
    // expected-remark @below {{async protocols of @branches not checked: 'cf.cond_br' branches to another block (only structured control flow is modelled)}}
    cf.cond_br %c, ^bb1, ^bb2
  ^bb1:
    tt.return
  ^bb2:
    tt.return
  }
}
