// A TMA gather (rows picked by an index tensor) feeding a wgmma is pipelined like a TMA
// load: a ring of slots, one mbarrier per slot expecting the gathered bytes.
// RUN: ttpipe-opt %s -p ttpipe-lower-loops | filecheck %s

// 64 rows of 64 f16 are 8192 bytes. The gather is issued two stages ahead into the insert
// slot, arriving on that slot's mbarrier; the wgmma waits on the extract slot's mbarrier with
// the loop-carried phase and reads the slot directly (the local_alloc is gone). Three slots:
// two gathers in flight, one read by the wgmma.
#blk = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.target" = "cuda:90", "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @gather
  // CHECK-SAME: (%{{[^:]+}}: i32{{.*}}, %[[DESC:[^:]+]]: !tt.tensordesc<{{.*}}, %[[ROWS:[^:]+]]: tensor<64xi32
  // CHECK: %[[RING:.+]] = ttg.local_alloc : () -> !ttg.memdesc<3x64x64xf16
  // CHECK: %[[BARS:.+]] = ttg.local_alloc : () -> !ttg.memdesc<3x1xi64
  // CHECK-COUNT-3: ttng.init_barrier %{{.+}}, 1
  // CHECK: scf.for %[[K:[^ ]+]] = {{.*}} iter_args(%{{[^ ]+}} = %{{[^,]+}}, %[[INS:[^ ]+]] = %{{[^,]+}}, %[[EXT:[^ ]+]] = %{{[^,]+}}, %[[PHASE:[^ ]+]] = %{{[^,)]+}})
  // CHECK: %[[INS_NEXT:.+]] = arith.select %{{.+}}, %{{.+}}, %{{.+}} {loop.cluster = 2 : i32, loop.stage = 0 : i32}
  // CHECK: %[[EXT_NEXT:.+]] = arith.select %{{.+}}, %{{.+}}, %{{.+}} {loop.cluster = 0 : i32, loop.stage = 2 : i32}
  // CHECK: %[[FLIPPED:.+]] = arith.xori %[[PHASE]], %{{.+}} {loop.cluster = 0 : i32, loop.stage = 2 : i32}
  // CHECK: %[[PHASE_NEXT:.+]] = arith.select %{{.+}}, %[[FLIPPED]], %[[PHASE]]
  // CHECK: %[[FULL:.+]] = ttg.memdesc_index %[[BARS]][%[[INS_NEXT]]] {loop.cluster = 2 : i32, loop.stage = 0 : i32}
  // CHECK: ttng.barrier_expect %[[FULL]], 8192 {loop.cluster = 2 : i32, loop.stage = 0 : i32}
  // CHECK: %[[SLOT:.+]] = ttg.memdesc_index %[[RING]][%[[INS_NEXT]]]
  // CHECK: ttng.async_tma_gather %[[DESC]][%[[ROWS]], %[[K]]] %[[SLOT]], %[[FULL]], %{{.+}} {loop.cluster = 2 : i32, loop.stage = 0 : i32}
  // CHECK: %[[READY:.+]] = ttg.memdesc_index %[[BARS]][%[[EXT_NEXT]]] {loop.cluster = 0 : i32, loop.stage = 2 : i32}
  // CHECK: ttng.wait_barrier %[[READY]], %[[PHASE_NEXT]] {loop.cluster = 0 : i32, loop.stage = 2 : i32}
  // CHECK: %[[READ:.+]] = ttg.memdesc_index %[[RING]][%[[EXT_NEXT]]]
  // CHECK: ttng.warp_group_dot %[[READ]],
  // CHECK-NOT: ttg.local_alloc %
  // CHECK: scf.yield {{.*}}, %[[INS_NEXT]], %[[EXT_NEXT]], %[[PHASE_NEXT]] :
  // CHECK-COUNT-3: ttng.inval_barrier
  tt.func @gather(%k: i32, %desc: !tt.tensordesc<tensor<1x64xf16, #shared>>, %rows: tensor<64xi32, #ttg.slice<{dim = 0, parent = #blk}>>, %b: !ttg.memdesc<64x64xf16, #shared, #smem>) -> tensor<64x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c64 = arith.constant 64 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma>
    %r = scf.for %i = %c0 to %k step %c64 iter_args(%acc = %zero) -> (tensor<64x64xf32, #mma>) : i32 {
      %a = tt.descriptor_gather %desc[%rows, %i] {loop.cluster = 2 : i32, loop.stage = 0 : i32} : (!tt.tensordesc<tensor<1x64xf16, #shared>>, tensor<64xi32, #ttg.slice<{dim = 0, parent = #blk}>>, i32) -> tensor<64x64xf16, #blk>
      %as = ttg.local_alloc %a {loop.cluster = 0 : i32, loop.stage = 2 : i32} : (tensor<64x64xf16, #blk>) -> !ttg.memdesc<64x64xf16, #shared, #smem>
      %d = ttng.warp_group_dot %as, %b, %acc {inputPrecision = 0 : i32, loop.cluster = 0 : i32, loop.stage = 2 : i32} : !ttg.memdesc<64x64xf16, #shared, #smem> * !ttg.memdesc<64x64xf16, #shared, #smem> -> tensor<64x64xf32, #mma>
      scf.yield %d : tensor<64x64xf32, #mma>
    } {tt.scheduled_max_stage = 2 : i32}
    tt.return %r : tensor<64x64xf32, #mma>
  }
}
