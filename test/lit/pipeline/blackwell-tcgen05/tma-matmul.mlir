// The whole pipeliner on a Blackwell matmul: TMA rings feeding an asynchronous tcgen05 MMA
// that commits to a ring of mbarriers, with the accumulator in tensor memory.
// RUN: ttpipe-opt %s -p 'ttpipe-assign-latencies,ttpipe-schedule-loops,ttpipe-pipeline' | filecheck %s

// The loads get latency 2 and the MMA latency 1 with self-latency 1: three stages for the
// loads (three slots, three load mbarriers), and the MMA of iteration i is waited for in
// iteration i + 1, so its commit ring has two mbarriers. The prologue issues the loads of
// iterations 0..2 and the MMA of iteration 0 (predicated on k > 0, accumulating nothing).
// The loop runs one iteration short: each iteration waits on the loads' mbarrier, issues the
// MMA (use_acc now true) committing to the current commit mbarrier, then waits on the
// previous MMA's mbarrier, guarding its operand slots before they are refilled. The last
// MMA is waited for in an scf.if on the trip count, before the accumulator is read.
#blk = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#acc = #ttg.blocked<{sizePerThread = [1, 128], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared_t = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#smem = #ttg.shared_memory
#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>
module attributes {"ttg.target" = "cuda:100", "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @tcgen05_matmul
  // CHECK-SAME: (%[[K:[^:]+]]: i32{{.*}}, %[[A_DESC:[^:]+]]: !tt.tensordesc<{{.*}}, %[[B_DESC:[^:]+]]: !tt.tensordesc<
  // CHECK-DAG: %[[TRUE:.+]] = arith.constant true
  // CHECK-DAG: %[[FALSE:.+]] = arith.constant false
  // CHECK: %[[ACC:[^ ,]+]], %[[ACC_TOK:[^ ]+]] = ttng.tmem_alloc : () -> (!ttg.memdesc<128x128xf32
  // CHECK: %[[MMA_BARS:.+]] = ttg.local_alloc : () -> !ttg.memdesc<2x1xi64
  // CHECK-COUNT-2: ttng.init_barrier
  // CHECK: %[[A_RING:.+]] = ttg.local_alloc : () -> !ttg.memdesc<3x128x64xf16
  // CHECK: %[[B_RING:.+]] = ttg.local_alloc : () -> !ttg.memdesc<3x128x64xf16
  // CHECK: %[[LOAD_BARS:.+]] = ttg.local_alloc : () -> !ttg.memdesc<3x1xi64
  // CHECK-COUNT-3: ttng.init_barrier
  // Prologue: loads of iterations 0 and 1, then iteration 0's MMA, then iteration 2's loads.
  // CHECK: %[[RUN0:.+]] = arith.cmpi sgt, %[[K]], %{{.+}} : i32
  // CHECK: ttng.barrier_expect %{{.+}}, 32768, %[[RUN0]]
  // CHECK-COUNT-2: ttng.async_tma_copy_global_to_local
  // CHECK: ttng.barrier_expect %{{.+}}, 32768,
  // CHECK-COUNT-2: ttng.async_tma_copy_global_to_local
  // CHECK: ttng.wait_barrier %{{.+}}, %{{.+}}, %[[RUN0]]
  // CHECK: %[[BAR0:.+]] = ttg.memdesc_index %[[MMA_BARS]]
  // CHECK: %[[TOK0:.+]] = ttng.tc_gen5_mma %{{.+}}, %{{.+}}, %[[ACC]][%[[ACC_TOK]]], %[[FALSE]], %[[RUN0]], %[[BAR0]][%[[TRUE]]] {is_async}
  // CHECK: ttng.barrier_expect %{{.+}}, 32768,
  // CHECK-COUNT-2: ttng.async_tma_copy_global_to_local
  // Kernel: one iteration short.
  // CHECK: %[[END:.+]] = arith.subi %[[K]], %{{.+}} : i32
  // CHECK: %[[LOOP:.+]]:13 = scf.for %{{.+}} to %[[END]] step %{{.+}} iter_args(%{{[^ ]+}} = %[[FALSE]], %[[TOK:[^ ]+]] = %{{[^,]+}}, %[[PHASE:[^ ]+]] = %{{[^,]+}}, %[[BAR_IDX:[^ ]+]] = %{{[^,]+}}, {{.*}}, %[[PREV_BAR:[^ ]+]] = %[[BAR0]], %[[PREV_PHASE:[^ ]+]] = %{{[^,]+}}, %[[PREV_A:[^ ]+]] = %{{[^,]+}}, %[[PREV_B:[^ ]+]] = %{{[^,]+}})
  // CHECK: ttng.wait_barrier %{{.+}}, %{{.+}}, %[[TRUE]]
  // CHECK: %[[BAR:.+]] = ttg.memdesc_index %[[MMA_BARS]][%[[BAR_IDX]]]
  // CHECK: %[[NEXT_TOK:.+]] = ttng.tc_gen5_mma %[[A:[^,]+]], %[[B:[^,]+]], %[[ACC]][%[[TOK]]], %[[TRUE]], %[[TRUE]], %[[BAR]][%[[TRUE]]] {is_async}
  // CHECK: ttng.wait_barrier %[[PREV_BAR]], %[[PREV_PHASE]] deps %[[PREV_A]], %[[PREV_B]]
  // CHECK: ttng.barrier_expect %{{.+}}, 32768,
  // CHECK-COUNT-2: ttng.async_tma_copy_global_to_local
  // CHECK: scf.yield %[[TRUE]], %[[NEXT_TOK]], {{.*}}, %[[BAR]], %[[PHASE]], %[[A]], %[[B]] :
  // Epilogue: the last MMA's wait, if the loop ran at all.
  // CHECK: %[[RAN:.+]] = arith.cmpi sgt, %[[K]], %{{.+}} : i32
  // CHECK: %[[LAST:.+]]:13 = scf.if %[[RAN]]
  // CHECK-NEXT: ttng.wait_barrier %[[LOOP]]#9, %[[LOOP]]#10 deps %[[LOOP]]#11, %[[LOOP]]#12
  // CHECK: } else {
  // CHECK-COUNT-3: ttng.inval_barrier
  // CHECK: ttg.local_dealloc %[[LOAD_BARS]]
  // CHECK-COUNT-2: ttng.inval_barrier
  // CHECK: ttg.local_dealloc %[[MMA_BARS]]
  // CHECK: ttng.tmem_load %[[ACC]][%[[LAST]]#1]
  tt.func @tcgen05_matmul(%k: i32, %a_desc: !tt.tensordesc<tensor<128x64xf16, #shared>>, %b_desc: !tt.tensordesc<tensor<128x64xf16, #shared>>) -> tensor<128x128xf32, #acc> {
    %c0 = arith.constant 0 : i32
    %c64 = arith.constant 64 : i32
    %false = arith.constant false
    %true = arith.constant true
    %tm, %tok = ttng.tmem_alloc : () -> (!ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>, !ttg.async.token)
    %r:2 = scf.for %off = %c0 to %k step %c64 iter_args(%use = %false, %t = %tok) -> (i1, !ttg.async.token) : i32 {
      %av = tt.descriptor_load %a_desc[%c0, %off] : !tt.tensordesc<tensor<128x64xf16, #shared>> -> tensor<128x64xf16, #blk>
      %as = ttg.local_alloc %av : (tensor<128x64xf16, #blk>) -> !ttg.memdesc<128x64xf16, #shared, #smem>
      %bv = tt.descriptor_load %b_desc[%c0, %off] : !tt.tensordesc<tensor<128x64xf16, #shared>> -> tensor<128x64xf16, #blk>
      %bs = ttg.local_alloc %bv : (tensor<128x64xf16, #blk>) -> !ttg.memdesc<128x64xf16, #shared, #smem>
      %bt = ttg.memdesc_trans %bs {order = array<i32: 1, 0>} : !ttg.memdesc<128x64xf16, #shared, #smem> -> !ttg.memdesc<64x128xf16, #shared_t, #smem>
      %t2 = ttng.tc_gen5_mma %as, %bt, %tm[%t], %use, %true : !ttg.memdesc<128x64xf16, #shared, #smem>, !ttg.memdesc<64x128xf16, #shared_t, #smem>, !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>
      scf.yield %true, %t2 : i1, !ttg.async.token
    }
    %res, %t3 = ttng.tmem_load %tm[%r#1] : !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable> -> tensor<128x128xf32, #acc>
    tt.return %res : tensor<128x128xf32, #acc>
  }
}
