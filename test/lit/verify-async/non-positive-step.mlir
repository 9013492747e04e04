// RUN: ttpipe-opt %s --verify-diagnostics -p ttpipe-verify-async

// A ping-pong hand-off: the producer walks the tiles t = 0, s, 2s, ... below n and hands
// tile k to consumer k % 2 through that consumer's slot (its own full and empty
// mbarriers); consumer 0 walks t = 0, 2s, ... and consumer 1 t = s, 3s, ..., so for every
// step s > 0 each gets the tiles the producer hands it. At s = 0 (the instance that sets
// each control argument to zero in turn) every loop would step by 0, which scf.for leaves
// undefined: the run ends there. Running each loop for unknown trips instead gave the
// producer two tiles, one a consumer, and each consumer two waits: a deadlock that no
// positive step gives. No error.

#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#row = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @tiles_to_two_consumers(%x: tensor<128xf32, #blocked>, %n: i32, %s: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c2 = arith.constant 2 : i32
    %double = arith.muli %s, %c2 : i32
    %slots = ttg.local_alloc : () -> !ttg.memdesc<2x128xf32, #row, #smem, mutable>
    %fulls = ttg.local_alloc : () -> !ttg.memdesc<2x1xi64, #bar, #smem, mutable>
    %empties = ttg.local_alloc : () -> !ttg.memdesc<2x1xi64, #bar, #smem, mutable>
    scf.for %i = %c0 to %c2 step %c1 : i32 {
      %full = ttg.memdesc_index %fulls[%i] : !ttg.memdesc<2x1xi64, #bar, #smem, mutable> -> !ttg.memdesc<1xi64, #bar, #smem, mutable>
      ttng.init_barrier %full, 1 : !ttg.memdesc<1xi64, #bar, #smem, mutable>
      %empty = ttg.memdesc_index %empties[%i] : !ttg.memdesc<2x1xi64, #bar, #smem, mutable> -> !ttg.memdesc<1xi64, #bar, #smem, mutable>
      ttng.init_barrier %empty, 1 : !ttg.memdesc<1xi64, #bar, #smem, mutable>
    }
    ttg.warp_specialize(%slots, %fulls, %empties, %n, %s, %double)
    default {
      %handed = scf.for %t = %c0 to %n step %s iter_args(%k = %c0) -> (i32) : i32 {
        %consumer = arith.andi %k, %c1 : i32
        %round = arith.shrui %k, %c1 : i32
        %turn = arith.andi %round, %c1 : i32
        %parity = arith.xori %turn, %c1 : i32
        %empty = ttg.memdesc_index %empties[%consumer] : !ttg.memdesc<2x1xi64, #bar, #smem, mutable> -> !ttg.memdesc<1xi64, #bar, #smem, mutable>
        ttng.wait_barrier %empty, %parity : !ttg.memdesc<1xi64, #bar, #smem, mutable>
        %slot = ttg.memdesc_index %slots[%consumer] : !ttg.memdesc<2x128xf32, #row, #smem, mutable> -> !ttg.memdesc<128xf32, #row, #smem, mutable>
        ttg.local_store %x, %slot : tensor<128xf32, #blocked> -> !ttg.memdesc<128xf32, #row, #smem, mutable>
        %full = ttg.memdesc_index %fulls[%consumer] : !ttg.memdesc<2x1xi64, #bar, #smem, mutable> -> !ttg.memdesc<1xi64, #bar, #smem, mutable>
        ttng.arrive_barrier %full, 1 : !ttg.memdesc<1xi64, #bar, #smem, mutable>
        %next = arith.addi %k, %c1 : i32
        scf.yield %next : i32
      }
      ttg.warp_yield
    }
    partition0(%ring: !ttg.memdesc<2x128xf32, #row, #smem, mutable>, %rfull: !ttg.memdesc<2x1xi64, #bar, #smem, mutable>, %rempty: !ttg.memdesc<2x1xi64, #bar, #smem, mutable>, %end: i32, %step: i32, %stride: i32) num_warps(4) {
      %zero = arith.constant 0 : i32
      %one = arith.constant 1 : i32
      %full = ttg.memdesc_index %rfull[%zero] : !ttg.memdesc<2x1xi64, #bar, #smem, mutable> -> !ttg.memdesc<1xi64, #bar, #smem, mutable>
      %empty = ttg.memdesc_index %rempty[%zero] : !ttg.memdesc<2x1xi64, #bar, #smem, mutable> -> !ttg.memdesc<1xi64, #bar, #smem, mutable>
      %slot = ttg.memdesc_index %ring[%zero] : !ttg.memdesc<2x128xf32, #row, #smem, mutable> -> !ttg.memdesc<128xf32, #row, #smem, mutable>
      %last = scf.for %t = %zero to %end step %stride iter_args(%p = %zero) -> (i32) : i32 {
        ttng.wait_barrier %full, %p : !ttg.memdesc<1xi64, #bar, #smem, mutable>
        %y = ttg.local_load %slot : !ttg.memdesc<128xf32, #row, #smem, mutable> -> tensor<128xf32, #blocked>
        ttng.arrive_barrier %empty, 1 : !ttg.memdesc<1xi64, #bar, #smem, mutable>
        %q = arith.xori %p, %one : i32
        scf.yield %q : i32
      }
      ttg.warp_return
    }
    partition1(%ring: !ttg.memdesc<2x128xf32, #row, #smem, mutable>, %rfull: !ttg.memdesc<2x1xi64, #bar, #smem, mutable>, %rempty: !ttg.memdesc<2x1xi64, #bar, #smem, mutable>, %end: i32, %step: i32, %stride: i32) num_warps(4) {
      %zero = arith.constant 0 : i32
      %one = arith.constant 1 : i32
      %full = ttg.memdesc_index %rfull[%one] : !ttg.memdesc<2x1xi64, #bar, #smem, mutable> -> !ttg.memdesc<1xi64, #bar, #smem, mutable>
      %empty = ttg.memdesc_index %rempty[%one] : !ttg.memdesc<2x1xi64, #bar, #smem, mutable> -> !ttg.memdesc<1xi64, #bar, #smem, mutable>
      %slot = ttg.memdesc_index %ring[%one] : !ttg.memdesc<2x128xf32, #row, #smem, mutable> -> !ttg.memdesc<128xf32, #row, #smem, mutable>
      %last = scf.for %t = %step to %end step %stride iter_args(%p = %zero) -> (i32) : i32 {
        ttng.wait_barrier %full, %p : !ttg.memdesc<1xi64, #bar, #smem, mutable>
        %y = ttg.local_load %slot : !ttg.memdesc<128xf32, #row, #smem, mutable> -> tensor<128xf32, #blocked>
        ttng.arrive_barrier %empty, 1 : !ttg.memdesc<1xi64, #bar, #smem, mutable>
        %q = arith.xori %p, %one : i32
        scf.yield %q : i32
      }
      ttg.warp_return
    } : (!ttg.memdesc<2x128xf32, #row, #smem, mutable>, !ttg.memdesc<2x1xi64, #bar, #smem, mutable>, !ttg.memdesc<2x1xi64, #bar, #smem, mutable>, i32, i32, i32) -> ()
    tt.return
  }
}
