// The whole pipeliner on a Hopper matmul whose operands come through tensor descriptors: TMA
// copies into rings, one mbarrier per slot, and an asynchronous wgmma.
// RUN: ttpipe-opt %s -p 'ttpipe-assign-latencies,ttpipe-schedule-loops,ttpipe-pipeline' | filecheck %s

// Both TMA loads of an iteration are issued together, so they share the slot's mbarrier,
// which expects the bytes of both tiles: 128x64 + 64x128 f16 = 32768. Three slots and three
// mbarriers (each initialized for one arrival); the prologue fills slots 0 and 1, each
// predicated on its iteration existing (off = 0 < k, off = 64 < k). In the loop the consumer
// waits on the slot's mbarrier with a phase that flips when the read index wraps, then runs
// the wgmma asynchronously; the producer arms the next slot's mbarrier and issues the copies
// for off + 128, predicated on off < k - 128. After the loop the mbarriers are invalidated
// and every buffer is freed.
#blk = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 128, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.target" = "cuda:90", "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @tma_matmul
  // CHECK-SAME: (%[[K:[^:]+]]: i32{{.*}}, %[[A_DESC:[^:]+]]: !tt.tensordesc<tensor<128x64xf16{{.*}}, %[[B_DESC:[^:]+]]: !tt.tensordesc<tensor<64x128xf16
  // CHECK-DAG: %[[C0:.+]] = arith.constant 0 : i32
  // CHECK-DAG: %[[C64:.+]] = arith.constant 64 : i32
  // CHECK-DAG: %[[C128:.+]] = arith.constant 128 : i32
  // CHECK: %[[A_RING:.+]] = ttg.local_alloc : () -> !ttg.memdesc<3x128x64xf16
  // CHECK: %[[B_RING:.+]] = ttg.local_alloc : () -> !ttg.memdesc<3x64x128xf16
  // CHECK: %[[BARS:.+]] = ttg.local_alloc : () -> !ttg.memdesc<3x1xi64
  // CHECK-COUNT-3: ttng.init_barrier %{{.+}}, 1 :
  // Prologue: slot 0 for off = 0, slot 1 for off = 64.
  // CHECK: %[[RUN0:.+]] = arith.cmpi sgt, %[[K]], %[[C0]] : i32
  // CHECK: %[[BAR0:.+]] = ttg.memdesc_index %[[BARS]][%[[C0]]]
  // CHECK: ttng.barrier_expect %[[BAR0]], 32768, %[[RUN0]]
  // CHECK: ttng.async_tma_copy_global_to_local %[[A_DESC]][%[[C0]], %[[C0]]] %{{.+}}, %[[BAR0]], %[[RUN0]]
  // CHECK: ttng.async_tma_copy_global_to_local %[[B_DESC]][%[[C0]], %[[C0]]] %{{.+}}, %[[BAR0]], %[[RUN0]]
  // CHECK: %[[RUN1:.+]] = arith.cmpi sgt, %[[K]], %[[C64]] : i32
  // CHECK: %[[BAR1:.+]] = ttg.memdesc_index %[[BARS]][%{{.+}}]
  // CHECK: ttng.barrier_expect %[[BAR1]], 32768, %[[RUN1]]
  // CHECK: ttng.async_tma_copy_global_to_local %[[A_DESC]][%[[C0]], %[[C64]]] %{{.+}}, %[[BAR1]], %[[RUN1]]
  // CHECK: ttng.async_tma_copy_global_to_local %[[B_DESC]][%[[C64]], %[[C0]]] %{{.+}}, %[[BAR1]], %[[RUN1]]
  // Kernel.
  // CHECK: %[[LOOP:.+]]:6 = scf.for %[[OFF:[^ ]+]] = %[[C0]] to %[[K]] step %[[C64]] iter_args(%[[ACC:[^ ]+]] = %{{[^,]+}}, %{{[^,]+}}, %[[READ:[^ ]+]] = %{{[^,]+}}, %[[PHASE:[^ ]+]] = %[[C0]],
  // CHECK: %[[LAST:.+]] = arith.subi %[[K]], %[[C128]] : i32
  // CHECK: %[[MORE:.+]] = arith.cmpi slt, %[[OFF]], %[[LAST]] : i32
  // CHECK: %[[READ_P1:.+]] = arith.addi %[[READ]], %{{.+}} : i32
  // CHECK: %[[WRAP:.+]] = arith.cmpi sge, %[[READ_P1]], %{{.+}} : i32
  // CHECK: %[[READ_NEXT:.+]] = arith.select %[[WRAP]], %[[C0]], %[[READ_P1]] : i32
  // CHECK: %[[FLIPPED:.+]] = arith.xori %[[PHASE]], %{{.+}} : i32
  // CHECK: %[[PHASE_NEXT:.+]] = arith.select %[[WRAP]], %[[FLIPPED]], %[[PHASE]] : i32
  // CHECK: %[[FULL:.+]] = ttg.memdesc_index %[[BARS]][%[[READ_NEXT]]]
  // CHECK: ttng.wait_barrier %[[FULL]], %[[PHASE_NEXT]] :
  // CHECK-DAG: %[[B_SLOT:.+]] = ttg.memdesc_index %[[B_RING]][%[[READ_NEXT]]]
  // CHECK-DAG: %[[A_SLOT:.+]] = ttg.memdesc_index %[[A_RING]][%[[READ_NEXT]]]
  // CHECK: %[[D:.+]] = ttng.warp_group_dot %[[A_SLOT]], %[[B_SLOT]], %[[ACC]] {{{.*}}isAsync = true}
  // CHECK: %[[DW:.+]]:3 = ttng.warp_group_dot_wait %[[D]], %[[A_SLOT]], %[[B_SLOT]] {pendings = 1 : i32}
  // CHECK: %[[EMPTY:.+]] = ttg.memdesc_index %[[BARS]]
  // CHECK: ttng.barrier_expect %[[EMPTY]], 32768, %[[MORE]]
  // CHECK: %[[NEXT_OFF:.+]] = arith.addi %[[OFF]], %[[C128]] : i32
  // CHECK: ttng.async_tma_copy_global_to_local %[[A_DESC]][%[[C0]], %[[NEXT_OFF]]] %{{.+}}, %[[EMPTY]], %[[MORE]]
  // CHECK: ttng.async_tma_copy_global_to_local %[[B_DESC]][%{{.+}}, %[[C0]]] %{{.+}}, %[[EMPTY]], %[[MORE]]
  // CHECK: scf.yield %[[DW]]#0, %{{[^,]+}}, %[[READ_NEXT]], %[[PHASE_NEXT]],
  // Epilogue.
  // CHECK: %[[RESULT:.+]] = ttng.warp_group_dot_wait %[[LOOP]]#0 {pendings = 0 : i32}
  // CHECK-COUNT-3: ttng.inval_barrier
  // CHECK: ttg.local_dealloc %[[BARS]]
  // CHECK: tt.return %[[RESULT]]
  tt.func @tma_matmul(%k: i32, %a_desc: !tt.tensordesc<tensor<128x64xf16, #shared>>, %b_desc: !tt.tensordesc<tensor<64x128xf16, #shared>>) -> tensor<128x128xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c64 = arith.constant 64 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<128x128xf32, #mma>
    %r = scf.for %off = %c0 to %k step %c64 iter_args(%acc = %zero) -> (tensor<128x128xf32, #mma>) : i32 {
      %av = tt.descriptor_load %a_desc[%c0, %off] : !tt.tensordesc<tensor<128x64xf16, #shared>> -> tensor<128x64xf16, #blk>
      %as = ttg.local_alloc %av : (tensor<128x64xf16, #blk>) -> !ttg.memdesc<128x64xf16, #shared, #smem>
      %bv = tt.descriptor_load %b_desc[%off, %c0] : !tt.tensordesc<tensor<64x128xf16, #shared>> -> tensor<64x128xf16, #blk>
      %bs = ttg.local_alloc %bv : (tensor<64x128xf16, #blk>) -> !ttg.memdesc<64x128xf16, #shared, #smem>
      %d = ttng.warp_group_dot %as, %bs, %acc {inputPrecision = 0 : i32} : !ttg.memdesc<128x64xf16, #shared, #smem> * !ttg.memdesc<64x128xf16, #shared, #smem> -> tensor<128x128xf32, #mma>
      scf.yield %d : tensor<128x128xf32, #mma>
    }
    tt.return %r : tensor<128x128xf32, #mma>
  }
}
