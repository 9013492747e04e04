// ttpipe-assign-latencies on tcgen05 MMAs: when an MMA may stay in flight into the next
// iteration (`tt.self_latency = 1`) and when its users may move a stage later
// (`tt.latency`).
// RUN: ttpipe-opt %s --allow-unregistered-dialect --ttpipe-assign-latencies=num-stages=3 | filecheck %s

#blk = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#acc = #ttg.blocked<{sizePerThread = [1, 128], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared_t = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#smem = #ttg.shared_memory
#mma2 = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 8]}>
#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>
module attributes {"ttg.target" = "cuda:100", "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  // B is a loop-invariant buffer: only A is loaded, and the MMA is pipelined as usual.
  // CHECK-LABEL: tt.func @invariant_b
  // CHECK: tt.descriptor_load {{.*}} {tt.latency = 2 : i32}
  // CHECK: ttng.tc_gen5_mma {{.*}} {tt.latency = 1 : i32, tt.self_latency = 1 : i32}
  tt.func @invariant_b(%k: i32, %a_desc: !tt.tensordesc<tensor<128x64xf16, #shared>>, %b: !ttg.memdesc<64x128xf16, #shared_t, #smem>) {
    %c0 = arith.constant 0 : i32
    %c64 = arith.constant 64 : i32
    %false = arith.constant false
    %true = arith.constant true
    %tm, %tok = ttng.tmem_alloc : () -> (!ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>, !ttg.async.token)
    %r:2 = scf.for %off = %c0 to %k step %c64 iter_args(%use = %false, %t = %tok) -> (i1, !ttg.async.token) : i32 {
      %av = tt.descriptor_load %a_desc[%c0, %off] : !tt.tensordesc<tensor<128x64xf16, #shared>> -> tensor<128x64xf16, #blk>
      %as = ttg.local_alloc %av : (tensor<128x64xf16, #blk>) -> !ttg.memdesc<128x64xf16, #shared, #smem>
      %t2 = ttng.tc_gen5_mma %as, %b, %tm[%t], %use, %true : !ttg.memdesc<128x64xf16, #shared, #smem>, !ttg.memdesc<64x128xf16, #shared_t, #smem>, !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>
      scf.yield %true, %t2 : i1, !ttg.async.token
    }
    tt.return
  }
  // B is computed in registers and stored each iteration, and the accumulator is read right
  // after the MMA: the MMA's operands are not ready a stage early, so it gets nothing (A's
  // load still does).
  // CHECK-LABEL: tt.func @b_from_registers
  // CHECK: tt.descriptor_load {{.*}} {tt.latency = 2 : i32}
  // CHECK: ttng.tc_gen5_mma
  // CHECK-NOT: tt.latency
  // CHECK-NOT: tt.self_latency
  // CHECK: tt.return
  tt.func @b_from_registers(%k: i32, %a_desc: !tt.tensordesc<tensor<128x64xf16, #shared>>, %b_init: tensor<128x64xf16, #blk>) {
    %c0 = arith.constant 0 : i32
    %c64 = arith.constant 64 : i32
    %false = arith.constant false
    %true = arith.constant true
    %tm, %tok = ttng.tmem_alloc : () -> (!ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>, !ttg.async.token)
    %r:3 = scf.for %off = %c0 to %k step %c64 iter_args(%use = %false, %t = %tok, %bv = %b_init) -> (i1, !ttg.async.token, tensor<128x64xf16, #blk>) : i32 {
      %av = tt.descriptor_load %a_desc[%c0, %off] : !tt.tensordesc<tensor<128x64xf16, #shared>> -> tensor<128x64xf16, #blk>
      %as = ttg.local_alloc %av : (tensor<128x64xf16, #blk>) -> !ttg.memdesc<128x64xf16, #shared, #smem>
      %b2 = arith.addf %bv, %av : tensor<128x64xf16, #blk>
      %bs = ttg.local_alloc %b2 : (tensor<128x64xf16, #blk>) -> !ttg.memdesc<128x64xf16, #shared, #smem>
      %bt = ttg.memdesc_trans %bs {order = array<i32: 1, 0>} : !ttg.memdesc<128x64xf16, #shared, #smem> -> !ttg.memdesc<64x128xf16, #shared_t, #smem>
      %t2 = ttng.tc_gen5_mma %as, %bt, %tm[%t], %use, %true : !ttg.memdesc<128x64xf16, #shared, #smem>, !ttg.memdesc<64x128xf16, #shared_t, #smem>, !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>
      %v, %t3 = ttng.tmem_load %tm[%t2] : !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable> -> tensor<128x128xf32, #acc>
      "use"(%v) : (tensor<128x128xf32, #acc>) -> ()
      scf.yield %true, %t3, %b2 : i1, !ttg.async.token, tensor<128x64xf16, #blk>
    }
    tt.return
  }
  // The accumulator is read, rescaled and written back before each MMA (as attention's
  // output): pipelined normally; in a warp-specialized loop such a read-modify-write keeps
  // the MMA's users in its stage (no `tt.latency`), only the self-latency stays.
  // CHECK-LABEL: tt.func @acc_rescaled_in_loop
  // CHECK: scf.for
  // CHECK: ttng.tc_gen5_mma {{.*}} {tt.latency = 1 : i32, tt.self_latency = 1 : i32}
  // CHECK: scf.for
  // CHECK: ttng.tc_gen5_mma {{.*}} {tt.self_latency = 1 : i32}
  // CHECK: } {tt.warp_specialize}
  tt.func @acc_rescaled_in_loop(%k: i32, %a_desc: !tt.tensordesc<tensor<128x64xf16, #shared>>, %b_desc: !tt.tensordesc<tensor<128x64xf16, #shared>>, %scale: tensor<128x128xf32, #acc>) {
    %c0 = arith.constant 0 : i32
    %c64 = arith.constant 64 : i32
    %true = arith.constant true
    %zero = arith.constant dense<0.000000e+00> : tensor<128x128xf32, #acc>
    %tm, %tok = ttng.tmem_alloc : () -> (!ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>, !ttg.async.token)
    %init = ttng.tmem_store %zero, %tm[%tok], %true : tensor<128x128xf32, #acc> -> !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>
    %r = scf.for %off = %c0 to %k step %c64 iter_args(%t = %init) -> (!ttg.async.token) : i32 {
      %av = tt.descriptor_load %a_desc[%c0, %off] : !tt.tensordesc<tensor<128x64xf16, #shared>> -> tensor<128x64xf16, #blk>
      %as = ttg.local_alloc %av : (tensor<128x64xf16, #blk>) -> !ttg.memdesc<128x64xf16, #shared, #smem>
      %bv = tt.descriptor_load %b_desc[%c0, %off] : !tt.tensordesc<tensor<128x64xf16, #shared>> -> tensor<128x64xf16, #blk>
      %bs = ttg.local_alloc %bv : (tensor<128x64xf16, #blk>) -> !ttg.memdesc<128x64xf16, #shared, #smem>
      %bt = ttg.memdesc_trans %bs {order = array<i32: 1, 0>} : !ttg.memdesc<128x64xf16, #shared, #smem> -> !ttg.memdesc<64x128xf16, #shared_t, #smem>
      %cur, %t1 = ttng.tmem_load %tm[%t] : !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable> -> tensor<128x128xf32, #acc>
      %scaled = arith.mulf %cur, %scale : tensor<128x128xf32, #acc>
      %t2 = ttng.tmem_store %scaled, %tm[%t1], %true : tensor<128x128xf32, #acc> -> !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>
      %t3 = ttng.tc_gen5_mma %as, %bt, %tm[%t2], %true, %true : !ttg.memdesc<128x64xf16, #shared, #smem>, !ttg.memdesc<64x128xf16, #shared_t, #smem>, !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>
      scf.yield %t3 : !ttg.async.token
    }
    %r2 = scf.for %off = %c0 to %k step %c64 iter_args(%t = %r) -> (!ttg.async.token) : i32 {
      %av = tt.descriptor_load %a_desc[%c0, %off] : !tt.tensordesc<tensor<128x64xf16, #shared>> -> tensor<128x64xf16, #blk>
      %as = ttg.local_alloc %av : (tensor<128x64xf16, #blk>) -> !ttg.memdesc<128x64xf16, #shared, #smem>
      %bv = tt.descriptor_load %b_desc[%c0, %off] : !tt.tensordesc<tensor<128x64xf16, #shared>> -> tensor<128x64xf16, #blk>
      %bs = ttg.local_alloc %bv : (tensor<128x64xf16, #blk>) -> !ttg.memdesc<128x64xf16, #shared, #smem>
      %bt = ttg.memdesc_trans %bs {order = array<i32: 1, 0>} : !ttg.memdesc<128x64xf16, #shared, #smem> -> !ttg.memdesc<64x128xf16, #shared_t, #smem>
      %cur, %t1 = ttng.tmem_load %tm[%t] : !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable> -> tensor<128x128xf32, #acc>
      %scaled = arith.mulf %cur, %scale : tensor<128x128xf32, #acc>
      %t2 = ttng.tmem_store %scaled, %tm[%t1], %true : tensor<128x128xf32, #acc> -> !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>
      %t3 = ttng.tc_gen5_mma %as, %bt, %tm[%t2], %true, %true : !ttg.memdesc<128x64xf16, #shared, #smem>, !ttg.memdesc<64x128xf16, #shared_t, #smem>, !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>
      scf.yield %t3 : !ttg.async.token
    } {tt.warp_specialize}
    tt.return
  }
  // A synchronous tt.dot in the same loop: the MMA is not pipelined (its loads are).
  // CHECK-LABEL: tt.func @with_sync_dot
  // CHECK: tt.descriptor_load {{.*}} {tt.latency = 2 : i32}
  // CHECK: ttng.tc_gen5_mma
  // CHECK-NOT: tt.latency
  // CHECK-NOT: tt.self_latency
  // CHECK: tt.dot
  tt.func @with_sync_dot(%k: i32, %a_desc: !tt.tensordesc<tensor<128x64xf16, #shared>>, %b: !ttg.memdesc<64x128xf16, #shared_t, #smem>, %x: tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma2, kWidth = 2}>>, %y: tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma2, kWidth = 2}>>) -> tensor<64x64xf32, #mma2> {
    %c0 = arith.constant 0 : i32
    %c64 = arith.constant 64 : i32
    %false = arith.constant false
    %true = arith.constant true
    %zero = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma2>
    %tm, %tok = ttng.tmem_alloc : () -> (!ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>, !ttg.async.token)
    %r:3 = scf.for %off = %c0 to %k step %c64 iter_args(%use = %false, %t = %tok, %c = %zero) -> (i1, !ttg.async.token, tensor<64x64xf32, #mma2>) : i32 {
      %av = tt.descriptor_load %a_desc[%c0, %off] : !tt.tensordesc<tensor<128x64xf16, #shared>> -> tensor<128x64xf16, #blk>
      %as = ttg.local_alloc %av : (tensor<128x64xf16, #blk>) -> !ttg.memdesc<128x64xf16, #shared, #smem>
      %t2 = ttng.tc_gen5_mma %as, %b, %tm[%t], %use, %true : !ttg.memdesc<128x64xf16, #shared, #smem>, !ttg.memdesc<64x128xf16, #shared_t, #smem>, !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>
      %c2 = tt.dot %x, %y, %c : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma2, kWidth = 2}>> * tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma2, kWidth = 2}>> -> tensor<64x64xf32, #mma2>
      scf.yield %true, %t2, %c2 : i1, !ttg.async.token, tensor<64x64xf32, #mma2>
    }
    tt.return %r#2 : tensor<64x64xf32, #mma2>
  }
}
