// RUN: ttpipe-opt %s --split-input-file --verify-diagnostics -p ttpipe-verify-async

// A `ttg.warp_specialize` inside a persistent tile loop, as Triton's automatic warp
// specialization leaves an attention kernel on sm_100a: every tile initializes its
// mbarriers, forks its partitions and joins them. The default warps hand a row to a
// partition through one slot (full and empty mbarriers); the slot outlives the tiles. The
// next tile's first store follows the last tile's store in the same warps, and the end of
// the warp_specialize (a CTA barrier) orders both partitions' accesses before it: correct.

#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#row = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:100", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @row_handoff_each_tile(%x: tensor<128xf32, #blocked>, %tiles: i32, %keys: i32) {
    %pid = tt.get_program_id x : i32
    %programs = tt.get_num_programs x : i32
    %slots = ttg.local_alloc : () -> !ttg.memdesc<1x128xf32, #row, #smem, mutable>
    scf.for %tile = %pid to %tiles step %programs : i32 {
      %full = ttg.local_alloc : () -> !ttg.memdesc<1xi64, #bar, #smem, mutable>
      ttng.init_barrier %full, 1 : !ttg.memdesc<1xi64, #bar, #smem, mutable>
      %empty = ttg.local_alloc : () -> !ttg.memdesc<1xi64, #bar, #smem, mutable>
      ttng.init_barrier %empty, 1 : !ttg.memdesc<1xi64, #bar, #smem, mutable>
      ttg.warp_specialize(%slots, %full, %empty, %keys)
      default {
        %zero = arith.constant 0 : i32
        %one = arith.constant 1 : i32
        scf.for %k = %zero to %keys step %one : i32 {
          %turn = arith.andi %k, %one : i32
          %parity = arith.xori %turn, %one : i32
          ttng.wait_barrier %empty, %parity : !ttg.memdesc<1xi64, #bar, #smem, mutable>
          %slot = ttg.memdesc_index %slots[%zero] : !ttg.memdesc<1x128xf32, #row, #smem, mutable> -> !ttg.memdesc<128xf32, #row, #smem, mutable>
          ttg.local_store %x, %slot : tensor<128xf32, #blocked> -> !ttg.memdesc<128xf32, #row, #smem, mutable>
          ttng.arrive_barrier %full, 1 : !ttg.memdesc<1xi64, #bar, #smem, mutable>
        }
        ttg.warp_yield
      }
      partition0(%ring: !ttg.memdesc<1x128xf32, #row, #smem, mutable>, %fulls: !ttg.memdesc<1xi64, #bar, #smem, mutable>, %empties: !ttg.memdesc<1xi64, #bar, #smem, mutable>, %trips: i32) num_warps(4) {
        %zero = arith.constant 0 : i32
        %one = arith.constant 1 : i32
        scf.for %k = %zero to %trips step %one : i32 {
          %parity = arith.andi %k, %one : i32
          ttng.wait_barrier %fulls, %parity : !ttg.memdesc<1xi64, #bar, #smem, mutable>
          %slot = ttg.memdesc_index %ring[%zero] : !ttg.memdesc<1x128xf32, #row, #smem, mutable> -> !ttg.memdesc<128xf32, #row, #smem, mutable>
          %y = ttg.local_load %slot : !ttg.memdesc<128xf32, #row, #smem, mutable> -> tensor<128xf32, #blocked>
          ttng.arrive_barrier %empties, 1 : !ttg.memdesc<1xi64, #bar, #smem, mutable>
        }
        ttg.warp_return
      } : (!ttg.memdesc<1x128xf32, #row, #smem, mutable>, !ttg.memdesc<1xi64, #bar, #smem, mutable>, !ttg.memdesc<1xi64, #bar, #smem, mutable>, i32) -> ()
      ttng.inval_barrier %full : !ttg.memdesc<1xi64, #bar, #smem, mutable>
      ttg.local_dealloc %full : !ttg.memdesc<1xi64, #bar, #smem, mutable>
      ttng.inval_barrier %empty : !ttg.memdesc<1xi64, #bar, #smem, mutable>
      ttg.local_dealloc %empty : !ttg.memdesc<1xi64, #bar, #smem, mutable>
    }
    tt.return
  }
}

// -----

// The same hand-off, but the partition waits for the full mbarrier in its program's first
// tile only: from the second tile on, its load is not ordered after the store of that
// tile's default warps. The threads of each fork are new agents: the clock that the fork
// inherits holds the last tile's threads, whose epochs must not cover the new ones'.

#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#row = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:100", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @waits_in_the_first_tile_only(%x: tensor<128xf32, #blocked>, %tiles: i32, %keys: i32) {
    %pid = tt.get_program_id x : i32
    %programs = tt.get_num_programs x : i32
    %slots = ttg.local_alloc : () -> !ttg.memdesc<1x128xf32, #row, #smem, mutable>
    scf.for %tile = %pid to %tiles step %programs : i32 {
      %first = arith.cmpi eq, %tile, %pid : i32
      %full = ttg.local_alloc : () -> !ttg.memdesc<1xi64, #bar, #smem, mutable>
      ttng.init_barrier %full, 1 : !ttg.memdesc<1xi64, #bar, #smem, mutable>
      %empty = ttg.local_alloc : () -> !ttg.memdesc<1xi64, #bar, #smem, mutable>
      ttng.init_barrier %empty, 1 : !ttg.memdesc<1xi64, #bar, #smem, mutable>
      ttg.warp_specialize(%slots, %full, %empty, %keys, %first)
      default {
        %zero = arith.constant 0 : i32
        %one = arith.constant 1 : i32
        scf.for %k = %zero to %keys step %one : i32 {
          %turn = arith.andi %k, %one : i32
          %parity = arith.xori %turn, %one : i32
          ttng.wait_barrier %empty, %parity : !ttg.memdesc<1xi64, #bar, #smem, mutable>
          %slot = ttg.memdesc_index %slots[%zero] : !ttg.memdesc<1x128xf32, #row, #smem, mutable> -> !ttg.memdesc<128xf32, #row, #smem, mutable>
          // expected-note @below {{the write it races with (local_store)}}
          ttg.local_store %x, %slot : tensor<128xf32, #blocked> -> !ttg.memdesc<128xf32, #row, #smem, mutable>
          ttng.arrive_barrier %full, 1 : !ttg.memdesc<1xi64, #bar, #smem, mutable>
        }
        ttg.warp_yield
      }
      partition0(%ring: !ttg.memdesc<1x128xf32, #row, #smem, mutable>, %fulls: !ttg.memdesc<1xi64, #bar, #smem, mutable>, %empties: !ttg.memdesc<1xi64, #bar, #smem, mutable>, %trips: i32, %waits: i1) num_warps(4) {
        %zero = arith.constant 0 : i32
        %one = arith.constant 1 : i32
        scf.for %k = %zero to %trips step %one : i32 {
          %parity = arith.andi %k, %one : i32
          ttng.wait_barrier %fulls, %parity, %waits : !ttg.memdesc<1xi64, #bar, #smem, mutable>
          %slot = ttg.memdesc_index %ring[%zero] : !ttg.memdesc<1x128xf32, #row, #smem, mutable> -> !ttg.memdesc<128xf32, #row, #smem, mutable>
          // expected-error @below {{local_load reads slot [0] of the 1x128xf32 shared memory while local_store that writes it may still be in flight: no wait orders the read after the write [read-before-wait]}}
          %y = ttg.local_load %slot : !ttg.memdesc<128xf32, #row, #smem, mutable> -> tensor<128xf32, #blocked>
          ttng.arrive_barrier %empties, 1 : !ttg.memdesc<1xi64, #bar, #smem, mutable>
        }
        ttg.warp_return
      } : (!ttg.memdesc<1x128xf32, #row, #smem, mutable>, !ttg.memdesc<1xi64, #bar, #smem, mutable>, !ttg.memdesc<1xi64, #bar, #smem, mutable>, i32, i1) -> ()
      ttng.inval_barrier %full : !ttg.memdesc<1xi64, #bar, #smem, mutable>
      ttg.local_dealloc %full : !ttg.memdesc<1xi64, #bar, #smem, mutable>
      ttng.inval_barrier %empty : !ttg.memdesc<1xi64, #bar, #smem, mutable>
      ttg.local_dealloc %empty : !ttg.memdesc<1xi64, #bar, #smem, mutable>
    }
    tt.return
  }
}
