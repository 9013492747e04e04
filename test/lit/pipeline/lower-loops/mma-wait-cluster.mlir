// A ring's depth counts the wait_barrier that releases its slot: one slot more where that
// wait comes in a later cluster than the load, since the copy that refills the slot then runs
// before the wait in the same kernel iteration.
// RUN: ttpipe-opt %s --split-input-file -p ttpipe-lower-loops | filecheck %s

// Two tcgen05 MMAs chained on one accumulator, as Triton 3.6's schedule leaves them at 2
// stages (A and B loaded at stage 0, B2 at stage 1 in cluster 1, the second MMA at stage 2).
// The first reader of the second MMA's accumulator, the tmem_load at stage 1, comes before
// it: the second MMA is waited for at stage 2 in a cluster just before that reader's, after
// B2's load. B2's ring has 2 slots, not 1 (else the copy of B2 for the next iteration would
// overwrite the slot the second MMA still reads); A's and B's waits come before their loads'
// cluster: 2 slots each.
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#linear = #ttg.linear<{register = [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [0, 32], [0, 64]], lane = [[1, 0], [2, 0], [4, 0], [8, 0], [16, 0]], warp = [[32, 0], [64, 0]], block = []}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:100", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @two_mmas_one_accumulator
  // CHECK: ttg.local_alloc : () -> !ttg.memdesc<2x128x64xf16
  // CHECK-NEXT: ttg.local_alloc : () -> !ttg.memdesc<2x64x128xf16
  // CHECK-NEXT: ttg.local_alloc : () -> !ttg.memdesc<2x64x128xf16
  // CHECK: scf.for
  // CHECK: ttng.tc_gen5_mma
  // CHECK: ttng.wait_barrier {{.*}} {loop.cluster = {{[0-9]+}} : i32, loop.stage = 2 : i32}
  // CHECK: ttng.tc_gen5_mma
  // CHECK: ttng.wait_barrier {{.*}} {loop.cluster = {{[0-9]+}} : i32, loop.stage = 2 : i32}
  // CHECK: scf.yield
  tt.func @two_mmas_one_accumulator(%n: i32,
      %pa: tensor<128x64x!tt.ptr<f16>, #blocked> {tt.divisibility = dense<16> : tensor<2xi32>, tt.contiguity = dense<[1, 64]> : tensor<2xi32>},
      %pb: tensor<64x128x!tt.ptr<f16>, #blocked1> {tt.divisibility = dense<16> : tensor<2xi32>, tt.contiguity = dense<[1, 128]> : tensor<2xi32>},
      %pb2: tensor<64x128x!tt.ptr<f16>, #blocked1> {tt.divisibility = dense<16> : tensor<2xi32>, tt.contiguity = dense<[1, 128]> : tensor<2xi32>}) {
    %c0 = arith.constant 0 : i32
    %c64 = arith.constant 64 : i32
    %false = arith.constant false
    %true = arith.constant true
    %cst = arith.constant dense<0.000000e+00> : tensor<128x128xf32, #linear>
    %acc, %acc_tok = ttng.tmem_alloc : () -> (!ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>, !ttg.async.token)
    %acc2, %acc2_tok = ttng.tmem_alloc : () -> (!ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>, !ttg.async.token)
    %init = ttng.tmem_store %cst, %acc2[%acc2_tok], %true : tensor<128x128xf32, #linear> -> !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>
    %r:3 = scf.for %i = %c0 to %n step %c64 iter_args(%use_acc = %false, %t = %acc_tok, %t2 = %init) -> (i1, !ttg.async.token, !ttg.async.token) : i32 {
      %x = tt.load %pa {loop.cluster = 3 : i32, loop.stage = 0 : i32} : tensor<128x64x!tt.ptr<f16>, #blocked>
      %xs = ttg.local_alloc %x {loop.cluster = 2 : i32, loop.stage = 1 : i32} : (tensor<128x64xf16, #blocked>) -> !ttg.memdesc<128x64xf16, #shared, #smem>
      %y = tt.load %pb {loop.cluster = 3 : i32, loop.stage = 0 : i32} : tensor<64x128x!tt.ptr<f16>, #blocked1>
      %ys = ttg.local_alloc %y {loop.cluster = 2 : i32, loop.stage = 1 : i32} : (tensor<64x128xf16, #blocked1>) -> !ttg.memdesc<64x128xf16, #shared, #smem>
      %y2 = tt.load %pb2 {loop.cluster = 2 : i32, loop.stage = 1 : i32} : tensor<64x128x!tt.ptr<f16>, #blocked1>
      %y2s = ttg.local_alloc %y2 {loop.cluster = 0 : i32, loop.stage = 2 : i32} : (tensor<64x128xf16, #blocked1>) -> !ttg.memdesc<64x128xf16, #shared, #smem>
      %v2, %v2_tok = ttng.tmem_load %acc2[%t2] {loop.cluster = 2 : i32, loop.stage = 1 : i32} : !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable> -> tensor<128x128xf32, #linear>
      %s = ttng.tmem_store %v2, %acc[%t], %true {loop.cluster = 2 : i32, loop.stage = 1 : i32} : tensor<128x128xf32, #linear> -> !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>
      %m = ttng.tc_gen5_mma %xs, %ys, %acc[%s], %use_acc, %true {loop.cluster = 2 : i32, loop.stage = 1 : i32, tt.self_latency = 1 : i32} : !ttg.memdesc<128x64xf16, #shared, #smem>, !ttg.memdesc<64x128xf16, #shared, #smem>, !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>
      %v, %v_tok = ttng.tmem_load %acc[%m] {loop.cluster = 0 : i32, loop.stage = 2 : i32} : !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable> -> tensor<128x128xf32, #linear>
      %s2 = ttng.tmem_store %v, %acc2[%v2_tok], %true {loop.cluster = 0 : i32, loop.stage = 2 : i32} : tensor<128x128xf32, #linear> -> !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>
      %m2 = ttng.tc_gen5_mma %xs, %y2s, %acc2[%s2], %true, %true {loop.cluster = 0 : i32, loop.stage = 2 : i32, tt.self_latency = 1 : i32} : !ttg.memdesc<128x64xf16, #shared, #smem>, !ttg.memdesc<64x128xf16, #shared, #smem>, !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>
      scf.yield %true, %v_tok, %m2 : i1, !ttg.async.token, !ttg.async.token
    } {tt.num_stages = 2 : i32, tt.scheduled_max_stage = 2 : i32}
    tt.return
  }
}
