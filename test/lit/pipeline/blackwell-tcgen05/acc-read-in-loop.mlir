// An accumulator overwritten by every MMA (use_acc = false) and read back in the same
// iteration, as attention's QK^T: whether the read may move an iteration later decides where
// the MMA is waited for.
// RUN: ttpipe-opt %s --split-input-file -p 'ttpipe-assign-latencies,ttpipe-schedule-loops,ttpipe-pipeline' | filecheck %s

// By default the read moves to the next stage: the loop first waits on the previous MMA's
// commit mbarrier (two in the ring), reads and stores its scores, and only then issues this
// iteration's MMA, which overwrites the same tensor memory. The last MMA's scores are read
// in the scf.if after the loop.
#blk = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#acc = #ttg.blocked<{sizePerThread = [1, 128], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared_t = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#smem = #ttg.shared_memory
#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>
module attributes {"ttg.target" = "cuda:100", "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @read_next_iteration
  // CHECK: %[[S:[^ ,]+]], %{{[^ ]+}} = ttng.tmem_alloc : () -> (!ttg.memdesc<128x128xf32
  // CHECK: ttg.local_alloc : () -> !ttg.memdesc<2x1xi64
  // CHECK: ttg.local_alloc : () -> !ttg.memdesc<3x128x64xf16
  // CHECK: %[[TOK0:.+]] = ttng.tc_gen5_mma {{.*}}, %[[BAR0:[^ ]+]][%true] {is_async}
  // CHECK: scf.for {{.*}} iter_args({{.*}}, %[[PREV_BAR:[^ ]+]] = %[[BAR0]], %[[PREV_PHASE:[^ ]+]] = %{{[^,]+}}, %{{[^ ]+}} = %{{[^,]+}}, %[[PREV_TOK:[^ ]+]] = %[[TOK0]],
  // CHECK: ttng.wait_barrier %[[PREV_BAR]], %[[PREV_PHASE]] deps
  // CHECK: %[[SCORES:[^ ,]+]], %[[READ_TOK:[^ ]+]] = ttng.tmem_load %[[S]][%[[PREV_TOK]]]
  // CHECK: tt.store %{{.+}}, %[[SCORES]]
  // CHECK: %[[MMA_TOK:.+]] = ttng.tc_gen5_mma %{{.+}}, %{{.+}}, %[[S]][%[[READ_TOK]]], %false, %true, %{{.+}} {is_async}
  // CHECK-NOT: ttng.wait_barrier
  // CHECK: scf.yield {{.*}}, %[[MMA_TOK]], 
  // CHECK: scf.if
  // CHECK: ttng.wait_barrier
  // CHECK: ttng.tmem_load %[[S]]
  // CHECK: tt.store
  tt.func @read_next_iteration(%n: i32, %q: !ttg.memdesc<128x64xf16, #shared, #smem>, %k_desc: !tt.tensordesc<tensor<128x64xf16, #shared>>, %out: tensor<128x128x!tt.ptr<f32>, #acc>) {
    %c0 = arith.constant 0 : i32
    %c128 = arith.constant 128 : i32
    %false = arith.constant false
    %true = arith.constant true
    %s, %tok = ttng.tmem_alloc : () -> (!ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>, !ttg.async.token)
    %r = scf.for %i = %c0 to %n step %c128 iter_args(%t = %tok) -> (!ttg.async.token) : i32 {
      %kv = tt.descriptor_load %k_desc[%i, %c0] : !tt.tensordesc<tensor<128x64xf16, #shared>> -> tensor<128x64xf16, #blk>
      %ks = ttg.local_alloc %kv : (tensor<128x64xf16, #blk>) -> !ttg.memdesc<128x64xf16, #shared, #smem>
      %kt = ttg.memdesc_trans %ks {order = array<i32: 1, 0>} : !ttg.memdesc<128x64xf16, #shared, #smem> -> !ttg.memdesc<64x128xf16, #shared_t, #smem>
      %t2 = ttng.tc_gen5_mma %q, %kt, %s[%t], %false, %true : !ttg.memdesc<128x64xf16, #shared, #smem>, !ttg.memdesc<64x128xf16, #shared_t, #smem>, !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>
      %v, %t3 = ttng.tmem_load %s[%t2] : !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable> -> tensor<128x128xf32, #acc>
      tt.store %out, %v : tensor<128x128x!tt.ptr<f32>, #acc>
      scf.yield %t3 : !ttg.async.token
    }
    tt.return
  }
}

// -----

// `tt.disallow_acc_multi_buffer`: the read stays in the MMA's stage, so the MMA is waited for
// right after it is issued, in the same iteration, through a single commit mbarrier. The
// loads are one stage shallower: two slots.
#blk = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#acc = #ttg.blocked<{sizePerThread = [1, 128], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared_t = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#smem = #ttg.shared_memory
#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>
module attributes {"ttg.target" = "cuda:100", "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @read_same_iteration
  // CHECK: %[[S:[^ ,]+]], %{{[^ ]+}} = ttng.tmem_alloc : () -> (!ttg.memdesc<128x128xf32
  // CHECK: %[[MMA_BARS:.+]] = ttg.local_alloc : () -> !ttg.memdesc<1x1xi64
  // CHECK: ttg.local_alloc : () -> !ttg.memdesc<2x128x64xf16
  // CHECK-NOT: ttng.tc_gen5_mma
  // CHECK: scf.for
  // CHECK: %[[MMA_TOK:.+]] = ttng.tc_gen5_mma %{{.+}}, %{{.+}}, %[[S]][%{{.+}}], %false, %true, %[[BAR:[^ ]+]][%true] {is_async}
  // CHECK-NEXT: arith.xori
  // CHECK-NEXT: ttng.wait_barrier %[[BAR]], %{{.+}} deps
  // CHECK-NEXT: %[[SCORES:[^ ,]+]], %{{[^ ]+}} = ttng.tmem_load %[[S]][%[[MMA_TOK]]]
  // CHECK-NEXT: tt.store %{{.+}}, %[[SCORES]]
  // CHECK: } {tt.disallow_acc_multi_buffer}
  tt.func @read_same_iteration(%n: i32, %q: !ttg.memdesc<128x64xf16, #shared, #smem>, %k_desc: !tt.tensordesc<tensor<128x64xf16, #shared>>, %out: tensor<128x128x!tt.ptr<f32>, #acc>) {
    %c0 = arith.constant 0 : i32
    %c128 = arith.constant 128 : i32
    %false = arith.constant false
    %true = arith.constant true
    %s, %tok = ttng.tmem_alloc : () -> (!ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>, !ttg.async.token)
    %r = scf.for %i = %c0 to %n step %c128 iter_args(%t = %tok) -> (!ttg.async.token) : i32 {
      %kv = tt.descriptor_load %k_desc[%i, %c0] : !tt.tensordesc<tensor<128x64xf16, #shared>> -> tensor<128x64xf16, #blk>
      %ks = ttg.local_alloc %kv : (tensor<128x64xf16, #blk>) -> !ttg.memdesc<128x64xf16, #shared, #smem>
      %kt = ttg.memdesc_trans %ks {order = array<i32: 1, 0>} : !ttg.memdesc<128x64xf16, #shared, #smem> -> !ttg.memdesc<64x128xf16, #shared_t, #smem>
      %t2 = ttng.tc_gen5_mma %q, %kt, %s[%t], %false, %true : !ttg.memdesc<128x64xf16, #shared, #smem>, !ttg.memdesc<64x128xf16, #shared_t, #smem>, !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>
      %v, %t3 = ttng.tmem_load %s[%t2] : !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable> -> tensor<128x128xf32, #acc>
      tt.store %out, %v : tensor<128x128x!tt.ptr<f32>, #acc>
      scf.yield %t3 : !ttg.async.token
    } {tt.disallow_acc_multi_buffer}
    tt.return
  }
}
