// ttpipe-schedule-loops with Triton's scheduler: a stage and a cluster for each op of a loop,
// from the latencies ttpipe-assign-latencies gave.
// RUN: ttpipe-opt %s --split-input-file --allow-unregistered-dialect --ttpipe-schedule-loops | filecheck %s

// A tcgen05 matmul: the TMA loads (latency 2) are issued two stages before the MMA, whose
// latency 1 puts the accumulator's consumer (here a "use" of the token) one stage after it.
// The loop-carried index update runs a stage early, in the cluster just before its user.
// Latencies are consumed: no `tt.latency` is left.
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared_t = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#smem = #ttg.shared_memory
#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>
module attributes {"ttg.target" = "cuda:100", "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @tcgen05_matmul
  tt.func @tcgen05_matmul(%k: i32, %a_desc: !tt.tensordesc<tensor<128x64xf16, #shared>>, %b_desc: !tt.tensordesc<tensor<128x64xf16, #shared>>) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c64 = arith.constant 64 : i32
    %false = arith.constant false
    %true = arith.constant true
    %acc, %tok = ttng.tmem_alloc : () -> (!ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>, !ttg.async.token)
    // CHECK: scf.for
    // CHECK: tt.descriptor_load {{.+}} {loop.cluster = 5 : i32, loop.stage = 0 : i32}
    // CHECK: ttg.local_alloc {{.+}} {loop.cluster = 2 : i32, loop.stage = 2 : i32}
    // CHECK: tt.descriptor_load {{.+}} {loop.cluster = 5 : i32, loop.stage = 0 : i32}
    // CHECK: ttg.local_alloc {{.+}} {loop.cluster = 2 : i32, loop.stage = 2 : i32}
    // CHECK: ttg.memdesc_trans {{.+}} {loop.cluster = 2 : i32, loop.stage = 2 : i32, order = array<i32: 1, 0>}
    // CHECK: ttng.tc_gen5_mma {{.+}} {loop.cluster = 2 : i32, loop.stage = 2 : i32, tt.self_latency = 1 : i32}
    // CHECK: "use"{{.+}} {loop.cluster = 0 : i32, loop.stage = 3 : i32}
    // CHECK: arith.addi {{.+}} {loop.cluster = 4 : i32, loop.stage = 1 : i32}
    // CHECK: } {tt.scheduled_max_stage = 3 : i32}
    %r:3 = scf.for %i = %c0 to %k step %c1 iter_args(%off = %c0, %use = %false, %t = %tok) -> (i32, i1, !ttg.async.token) : i32 {
      %a = tt.descriptor_load %a_desc[%c0, %off] {tt.latency = 2 : i32} : !tt.tensordesc<tensor<128x64xf16, #shared>> -> tensor<128x64xf16, #blocked>
      %a_sh = ttg.local_alloc %a : (tensor<128x64xf16, #blocked>) -> !ttg.memdesc<128x64xf16, #shared, #smem>
      %b = tt.descriptor_load %b_desc[%c0, %off] {tt.latency = 2 : i32} : !tt.tensordesc<tensor<128x64xf16, #shared>> -> tensor<128x64xf16, #blocked>
      %b_sh = ttg.local_alloc %b : (tensor<128x64xf16, #blocked>) -> !ttg.memdesc<128x64xf16, #shared, #smem>
      %b_t = ttg.memdesc_trans %b_sh {order = array<i32: 1, 0>} : !ttg.memdesc<128x64xf16, #shared, #smem> -> !ttg.memdesc<64x128xf16, #shared_t, #smem>
      %t2 = ttng.tc_gen5_mma %a_sh, %b_t, %acc[%t], %use, %true {tt.latency = 1 : i32, tt.self_latency = 1 : i32} : !ttg.memdesc<128x64xf16, #shared, #smem>, !ttg.memdesc<64x128xf16, #shared_t, #smem>, !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>
      "use"(%t2) : (!ttg.async.token) -> ()
      %off2 = arith.addi %off, %c64 : i32
      scf.yield %off2, %true, %t2 : i32, i1, !ttg.async.token
    }
    tt.return
  }
}

// -----

// A loop with a `gpu.barrier` is not scheduled; its latencies are dropped all the same.
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.target" = "cuda:100", "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @barrier
  // CHECK-NOT: tt.latency
  // CHECK-NOT: loop.stage
  // CHECK: tt.return
  tt.func @barrier(%k: i32, %desc: !tt.tensordesc<tensor<128x64xf16>>) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    scf.for %i = %c0 to %k step %c1 : i32 {
      %a = tt.descriptor_load %desc[%c0, %i] {tt.latency = 2 : i32} : !tt.tensordesc<tensor<128x64xf16>> -> tensor<128x64xf16, #blocked>
      gpu.barrier
      "use"(%a) : (tensor<128x64xf16, #blocked>) -> ()
    }
    tt.return
  }
}
