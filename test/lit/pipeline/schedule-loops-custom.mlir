// ttpipe-schedule-loops with another scheduler: `loads-first` (ttpipe.passes.pipeline.schedulers,
// the documented example of a custom scheduler) puts the loads that have a latency in stage 0
// and, but for values carried to the next iteration, everything else in the last stage, where
// Triton's scheduler stages the MMA by its own latency. The same function can be named by its
// registered name or as module:function.
// RUN: ttpipe-opt %s --allow-unregistered-dialect --ttpipe-schedule-loops=scheduler=loads-first | filecheck %s
// RUN: ttpipe-opt %s --allow-unregistered-dialect -p 'ttpipe-schedule-loops{scheduler=ttpipe.passes.pipeline.schedulers:loads_first_scheduler}' | filecheck %s
// RUN: ttpipe-opt %s --allow-unregistered-dialect --ttpipe-schedule-loops | filecheck %s --check-prefix=TRITON

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared_t = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#smem = #ttg.shared_memory
#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>
module attributes {"ttg.target" = "cuda:100", "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @tcgen05_matmul
  // TRITON-LABEL: tt.func @tcgen05_matmul
  tt.func @tcgen05_matmul(%k: i32, %a_desc: !tt.tensordesc<tensor<128x64xf16, #shared>>, %b_desc: !tt.tensordesc<tensor<128x64xf16, #shared>>) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c64 = arith.constant 64 : i32
    %false = arith.constant false
    %true = arith.constant true
    %acc, %tok = ttng.tmem_alloc : () -> (!ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>, !ttg.async.token)
    // Three stages (largest load latency + 1): the loads in stage 0, issued in the last
    // cluster; the offset they read from the previous iteration in stage 1, in the cluster
    // just before theirs; the rest, the MMA included, in stage 2.
    // CHECK: scf.for
    // CHECK: tt.descriptor_load {{.+}} {loop.cluster = 2 : i32, loop.stage = 0 : i32}
    // CHECK: ttg.local_alloc {{.+}} {loop.cluster = 0 : i32, loop.stage = 2 : i32}
    // CHECK: tt.descriptor_load {{.+}} {loop.cluster = 2 : i32, loop.stage = 0 : i32}
    // CHECK: ttg.local_alloc {{.+}} {loop.cluster = 0 : i32, loop.stage = 2 : i32}
    // CHECK: ttg.memdesc_trans {{.+}} {loop.cluster = 0 : i32, loop.stage = 2 : i32, order = array<i32: 1, 0>}
    // CHECK: ttng.tc_gen5_mma {{.+}} {loop.cluster = 0 : i32, loop.stage = 2 : i32, tt.self_latency = 1 : i32}
    // CHECK: "use"{{.+}} {loop.cluster = 0 : i32, loop.stage = 2 : i32}
    // CHECK: arith.addi {{.+}} {loop.cluster = 1 : i32, loop.stage = 1 : i32}
    // CHECK: } {tt.scheduled_max_stage = 2 : i32}
    // TRITON: ttng.tc_gen5_mma {{.+}} {loop.cluster = 2 : i32, loop.stage = 2 : i32, tt.self_latency = 1 : i32}
    // TRITON: } {tt.scheduled_max_stage = 3 : i32}
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
