// ttpipe-assign-latencies: which loads and MMAs of a loop get a latency, and how much.
// RUN: ttpipe-opt %s --split-input-file --allow-unregistered-dialect --ttpipe-assign-latencies=num-stages=3 | filecheck %s
// RUN: ttpipe-opt %s --split-input-file --allow-unregistered-dialect --ttpipe-assign-latencies=num-stages=4 | filecheck %s --check-prefix=FOUR

// wgmma operands loaded through cp.async: each load gets all the stages but the last one
// (num-stages - 1), since no load feeds another.
#AL = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#BL = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 128, 16]}>
#smem = #ttg.shared_memory
module attributes {"ttg.target" = "cuda:90", "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @wgmma_cp_async
  // FOUR-LABEL: tt.func @wgmma_cp_async
  tt.func @wgmma_cp_async(%lb: i32, %ub: i32, %step: i32,
      %a_init: tensor<128x32x!tt.ptr<f16>, #AL> {tt.divisibility = dense<[16, 16]> : tensor<2xi32>, tt.contiguity = dense<[1, 32]> : tensor<2xi32>},
      %b_init: tensor<32x128x!tt.ptr<f16>, #BL> {tt.divisibility = dense<[16, 16]> : tensor<2xi32>, tt.contiguity = dense<[1, 32]> : tensor<2xi32>}) -> tensor<128x128xf32, #mma> {
    %c_init = arith.constant dense<0.000000e+00> : tensor<128x128xf32, #mma>
    %a_step = arith.constant dense<32> : tensor<128x32xi32, #AL>
    %b_step = arith.constant dense<4096> : tensor<32x128xi32, #BL>
    %r:3 = scf.for %iv = %lb to %ub step %step iter_args(%a_ptr = %a_init, %b_ptr = %b_init, %c = %c_init) -> (tensor<128x32x!tt.ptr<f16>, #AL>, tensor<32x128x!tt.ptr<f16>, #BL>, tensor<128x128xf32, #mma>) : i32 {
      // CHECK: tt.load %{{.+}} {tt.latency = 2 : i32}
      // FOUR: tt.load %{{.+}} {tt.latency = 3 : i32}
      %a = tt.load %a_ptr : tensor<128x32x!tt.ptr<f16>, #AL>
      %a_sh = ttg.local_alloc %a : (tensor<128x32xf16, #AL>) -> !ttg.memdesc<128x32xf16, #shared, #smem>
      // CHECK: tt.load %{{.+}} {tt.latency = 2 : i32}
      // FOUR: tt.load %{{.+}} {tt.latency = 3 : i32}
      %b = tt.load %b_ptr : tensor<32x128x!tt.ptr<f16>, #BL>
      %b_sh = ttg.local_alloc %b : (tensor<32x128xf16, #BL>) -> !ttg.memdesc<32x128xf16, #shared, #smem>
      // wgmma gets no latency: Triton 3.6 pipelines it while lowering, not here.
      // CHECK: ttng.warp_group_dot
      // CHECK-NOT: tt.latency
      // CHECK-SAME: -> tensor<128x128xf32, #{{.+}}>
      %d = ttng.warp_group_dot %a_sh, %b_sh, %c {inputPrecision = 0 : i32} : !ttg.memdesc<128x32xf16, #shared, #smem> * !ttg.memdesc<32x128xf16, #shared, #smem> -> tensor<128x128xf32, #mma>
      %a_next = tt.addptr %a_ptr, %a_step : tensor<128x32x!tt.ptr<f16>, #AL>, tensor<128x32xi32, #AL>
      %b_next = tt.addptr %b_ptr, %b_step : tensor<32x128x!tt.ptr<f16>, #BL>, tensor<32x128xi32, #BL>
      scf.yield %a_next, %b_next, %d : tensor<128x32x!tt.ptr<f16>, #AL>, tensor<32x128x!tt.ptr<f16>, #BL>, tensor<128x128xf32, #mma>
    }
    tt.return %r#2 : tensor<128x128xf32, #mma>
  }
}

// -----

// Axis info decides the vector width. Without hints, each thread reads one f16 at a time:
// cp.async needs at least 32 bits, so the load stays synchronous. A mask computed from a
// bound divisible by 16 keeps runs of 16 equal bits, so the hinted load keeps 4-wide
// (64-bit) accesses; an unknown bound leaves the mask 1 wide, and the load synchronous.
#AL = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 32, 16]}>
#smem = #ttg.shared_memory
module attributes {"ttg.target" = "cuda:90", "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @load_width
  tt.func @load_width(%lb: i32, %ub: i32, %step: i32, %b: !ttg.memdesc<32x32xf16, #shared, #smem>,
      %unhinted: tensor<128x32x!tt.ptr<f16>, #AL>,
      %base: !tt.ptr<f16> {tt.divisibility = 16 : i32},
      %n16: i32 {tt.divisibility = 16 : i32}, %n: i32) -> tensor<128x32xf32, #mma> {
    %c_init = arith.constant dense<0.000000e+00> : tensor<128x32xf32, #mma>
    %cols = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #AL}>>
    %cols2 = tt.expand_dims %cols {axis = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #AL}>> -> tensor<1x32xi32, #AL>
    %offs = tt.broadcast %cols2 : tensor<1x32xi32, #AL> -> tensor<128x32xi32, #AL>
    %base_s = tt.splat %base : !tt.ptr<f16> -> tensor<128x32x!tt.ptr<f16>, #AL>
    %ptrs = tt.addptr %base_s, %offs : tensor<128x32x!tt.ptr<f16>, #AL>, tensor<128x32xi32, #AL>
    %n16_s = tt.splat %n16 : i32 -> tensor<128x32xi32, #AL>
    %mask16 = arith.cmpi slt, %offs, %n16_s : tensor<128x32xi32, #AL>
    %n_s = tt.splat %n : i32 -> tensor<128x32xi32, #AL>
    %mask1 = arith.cmpi slt, %offs, %n_s : tensor<128x32xi32, #AL>
    %r = scf.for %iv = %lb to %ub step %step iter_args(%c = %c_init) -> (tensor<128x32xf32, #mma>) : i32 {
      // CHECK: tt.load %{{.+}} : tensor<128x32x!tt.ptr<f16>
      %x = tt.load %unhinted : tensor<128x32x!tt.ptr<f16>, #AL>
      // CHECK: tt.load %{{.+}}, %{{.+}} {tt.latency = 2 : i32}
      %y = tt.load %ptrs, %mask16 : tensor<128x32x!tt.ptr<f16>, #AL>
      // CHECK: tt.load %{{.+}}, %{{.+}} : tensor<128x32x!tt.ptr<f16>
      %z = tt.load %ptrs, %mask1 : tensor<128x32x!tt.ptr<f16>, #AL>
      %x_sh = ttg.local_alloc %x : (tensor<128x32xf16, #AL>) -> !ttg.memdesc<128x32xf16, #shared, #smem>
      %y_sh = ttg.local_alloc %y : (tensor<128x32xf16, #AL>) -> !ttg.memdesc<128x32xf16, #shared, #smem>
      %z_sh = ttg.local_alloc %z : (tensor<128x32xf16, #AL>) -> !ttg.memdesc<128x32xf16, #shared, #smem>
      %d0 = ttng.warp_group_dot %x_sh, %b, %c {inputPrecision = 0 : i32} : !ttg.memdesc<128x32xf16, #shared, #smem> * !ttg.memdesc<32x32xf16, #shared, #smem> -> tensor<128x32xf32, #mma>
      %d1 = ttng.warp_group_dot %y_sh, %b, %d0 {inputPrecision = 0 : i32} : !ttg.memdesc<128x32xf16, #shared, #smem> * !ttg.memdesc<32x32xf16, #shared, #smem> -> tensor<128x32xf32, #mma>
      %d2 = ttng.warp_group_dot %z_sh, %b, %d1 {inputPrecision = 0 : i32} : !ttg.memdesc<128x32xf16, #shared, #smem> * !ttg.memdesc<32x32xf16, #shared, #smem> -> tensor<128x32xf32, #mma>
      scf.yield %d2 : tensor<128x32xf32, #mma>
    }
    tt.return %r : tensor<128x32xf32, #mma>
  }
}

// -----

// An index load feeding another load's address: the two indirection levels share the
// stages, (num-stages - 1) // 2 each. With `tt.num_stages = 2` no stage is left for the
// index load, and the data load gets the one there is. `tt.num_stages = 1` leaves a loop alone.
#AL = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 32, 16]}>
#smem = #ttg.shared_memory
module attributes {"ttg.target" = "cuda:90", "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @indirect
  tt.func @indirect(%lb: i32, %ub: i32, %step: i32, %b: !ttg.memdesc<32x32xf16, #shared, #smem>,
      %idx_ptr: tensor<128x32x!tt.ptr<i32>, #AL> {tt.divisibility = dense<[16, 16]> : tensor<2xi32>, tt.contiguity = dense<[1, 32]> : tensor<2xi32>},
      %base: tensor<128x32x!tt.ptr<f16>, #AL> {tt.divisibility = dense<[16, 16]> : tensor<2xi32>, tt.contiguity = dense<[1, 32]> : tensor<2xi32>}) -> tensor<128x32xf32, #mma> {
    %c_init = arith.constant dense<0.000000e+00> : tensor<128x32xf32, #mma>
    // CHECK: scf.for
    // CHECK: tt.load %{{.+}} {tt.latency = 1 : i32} : tensor<128x32x!tt.ptr<i32>
    // CHECK: tt.load %{{.+}} {tt.latency = 1 : i32} : tensor<128x32x!tt.ptr<f16>
    %r0 = scf.for %iv = %lb to %ub step %step iter_args(%c = %c_init) -> (tensor<128x32xf32, #mma>) : i32 {
      %idx = tt.load %idx_ptr : tensor<128x32x!tt.ptr<i32>, #AL>
      %ptrs = tt.addptr %base, %idx {tt.divisibility = dense<[16, 16]> : tensor<2xi32>, tt.contiguity = dense<[1, 32]> : tensor<2xi32>, tt.constancy = dense<[1, 1]> : tensor<2xi32>} : tensor<128x32x!tt.ptr<f16>, #AL>, tensor<128x32xi32, #AL>
      %a = tt.load %ptrs : tensor<128x32x!tt.ptr<f16>, #AL>
      %a_sh = ttg.local_alloc %a : (tensor<128x32xf16, #AL>) -> !ttg.memdesc<128x32xf16, #shared, #smem>
      %d = ttng.warp_group_dot %a_sh, %b, %c {inputPrecision = 0 : i32} : !ttg.memdesc<128x32xf16, #shared, #smem> * !ttg.memdesc<32x32xf16, #shared, #smem> -> tensor<128x32xf32, #mma>
      scf.yield %d : tensor<128x32xf32, #mma>
    }
    // CHECK: scf.for
    // CHECK: tt.load %{{.+}} : tensor<128x32x!tt.ptr<i32>
    // CHECK: tt.load %{{.+}} {tt.latency = 1 : i32} : tensor<128x32x!tt.ptr<f16>
    %r1 = scf.for %iv = %lb to %ub step %step iter_args(%c = %r0) -> (tensor<128x32xf32, #mma>) : i32 {
      %idx = tt.load %idx_ptr : tensor<128x32x!tt.ptr<i32>, #AL>
      %ptrs = tt.addptr %base, %idx {tt.divisibility = dense<[16, 16]> : tensor<2xi32>, tt.contiguity = dense<[1, 32]> : tensor<2xi32>, tt.constancy = dense<[1, 1]> : tensor<2xi32>} : tensor<128x32x!tt.ptr<f16>, #AL>, tensor<128x32xi32, #AL>
      %a = tt.load %ptrs : tensor<128x32x!tt.ptr<f16>, #AL>
      %a_sh = ttg.local_alloc %a : (tensor<128x32xf16, #AL>) -> !ttg.memdesc<128x32xf16, #shared, #smem>
      %d = ttng.warp_group_dot %a_sh, %b, %c {inputPrecision = 0 : i32} : !ttg.memdesc<128x32xf16, #shared, #smem> * !ttg.memdesc<32x32xf16, #shared, #smem> -> tensor<128x32xf32, #mma>
      scf.yield %d : tensor<128x32xf32, #mma>
    } {tt.num_stages = 2 : i32}
    // CHECK: scf.for
    // CHECK-NOT: tt.latency
    // CHECK: tt.num_stages = 1
    %r2 = scf.for %iv = %lb to %ub step %step iter_args(%c = %r1) -> (tensor<128x32xf32, #mma>) : i32 {
      %idx = tt.load %idx_ptr : tensor<128x32x!tt.ptr<i32>, #AL>
      %ptrs = tt.addptr %base, %idx {tt.divisibility = dense<[16, 16]> : tensor<2xi32>, tt.contiguity = dense<[1, 32]> : tensor<2xi32>, tt.constancy = dense<[1, 1]> : tensor<2xi32>} : tensor<128x32x!tt.ptr<f16>, #AL>, tensor<128x32xi32, #AL>
      %a = tt.load %ptrs : tensor<128x32x!tt.ptr<f16>, #AL>
      %a_sh = ttg.local_alloc %a : (tensor<128x32xf16, #AL>) -> !ttg.memdesc<128x32xf16, #shared, #smem>
      %d = ttng.warp_group_dot %a_sh, %b, %c {inputPrecision = 0 : i32} : !ttg.memdesc<128x32xf16, #shared, #smem> * !ttg.memdesc<32x32xf16, #shared, #smem> -> tensor<128x32xf32, #mma>
      scf.yield %d : tensor<128x32xf32, #mma>
    } {tt.num_stages = 1 : i32}
    tt.return %r2 : tensor<128x32xf32, #mma>
  }
}

// -----

// tcgen05 with TMA loads. The accumulator is hoisted out of the loop and not read in it, so
// the MMA may stay in flight into the next iteration (`tt.self_latency = 1`) and its users
// can move a stage later (`tt.latency = 1`). In a warp-specialized loop the latency is one
// more.
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>
module attributes {"ttg.target" = "cuda:100", "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @tcgen05_tma
  tt.func @tcgen05_tma(%k: i32, %a_desc: !tt.tensordesc<tensor<128x64xf16, #shared>>, %b_desc: !tt.tensordesc<tensor<128x64xf16, #shared>>) {
    %c0 = arith.constant 0 : i32
    %c64 = arith.constant 64 : i32
    %false = arith.constant false
    %true = arith.constant true
    %acc, %tok = ttng.tmem_alloc : () -> (!ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>, !ttg.async.token)
    // CHECK: tt.descriptor_load {{.+}} {tt.latency = 2 : i32}
    // CHECK: tt.descriptor_load {{.+}} {tt.latency = 2 : i32}
    // CHECK: ttng.tc_gen5_mma {{.+}} {tt.latency = 1 : i32, tt.self_latency = 1 : i32}
    %r:2 = scf.for %i = %c0 to %k step %c64 iter_args(%use = %false, %t = %tok) -> (i1, !ttg.async.token) : i32 {
      %a = tt.descriptor_load %a_desc[%c0, %i] : !tt.tensordesc<tensor<128x64xf16, #shared>> -> tensor<128x64xf16, #blocked>
      %a_sh = ttg.local_alloc %a : (tensor<128x64xf16, #blocked>) -> !ttg.memdesc<128x64xf16, #shared, #smem>
      %b = tt.descriptor_load %b_desc[%c0, %i] : !tt.tensordesc<tensor<128x64xf16, #shared>> -> tensor<128x64xf16, #blocked>
      %b_sh = ttg.local_alloc %b : (tensor<128x64xf16, #blocked>) -> !ttg.memdesc<128x64xf16, #shared, #smem>
      %b_t = ttg.memdesc_trans %b_sh {order = array<i32: 1, 0>} : !ttg.memdesc<128x64xf16, #shared, #smem> -> !ttg.memdesc<64x128xf16, #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>, #smem>
      %t2 = ttng.tc_gen5_mma %a_sh, %b_t, %acc[%t], %use, %true : !ttg.memdesc<128x64xf16, #shared, #smem>, !ttg.memdesc<64x128xf16, #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>, #smem>, !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>
      scf.yield %true, %t2 : i1, !ttg.async.token
    }
    // CHECK: ttng.tc_gen5_mma {{.+}} {tt.latency = 2 : i32, tt.self_latency = 1 : i32}
    %w:2 = scf.for %i = %c0 to %k step %c64 iter_args(%use = %false, %t = %r#1) -> (i1, !ttg.async.token) : i32 {
      %a = tt.descriptor_load %a_desc[%c0, %i] : !tt.tensordesc<tensor<128x64xf16, #shared>> -> tensor<128x64xf16, #blocked>
      %a_sh = ttg.local_alloc %a : (tensor<128x64xf16, #blocked>) -> !ttg.memdesc<128x64xf16, #shared, #smem>
      %b = tt.descriptor_load %b_desc[%c0, %i] : !tt.tensordesc<tensor<128x64xf16, #shared>> -> tensor<128x64xf16, #blocked>
      %b_sh = ttg.local_alloc %b : (tensor<128x64xf16, #blocked>) -> !ttg.memdesc<128x64xf16, #shared, #smem>
      %b_t = ttg.memdesc_trans %b_sh {order = array<i32: 1, 0>} : !ttg.memdesc<128x64xf16, #shared, #smem> -> !ttg.memdesc<64x128xf16, #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>, #smem>
      %t2 = ttng.tc_gen5_mma %a_sh, %b_t, %acc[%t], %use, %true : !ttg.memdesc<128x64xf16, #shared, #smem>, !ttg.memdesc<64x128xf16, #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>, #smem>, !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>
      scf.yield %true, %t2 : i1, !ttg.async.token
    } {tt.warp_specialize}
    tt.return
  }
}

// -----

// The accumulator is read in the loop (an attention-like QK^T, overwritten every iteration):
// the MMA can move its users a stage later only if the accumulator may be multi-buffered,
// which `tt.disallow_acc_multi_buffer` forbids.
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#acc = #ttg.blocked<{sizePerThread = [1, 128], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared_t = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#smem = #ttg.shared_memory
#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>
module attributes {"ttg.target" = "cuda:100", "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @acc_read_in_loop
  tt.func @acc_read_in_loop(%n: i32, %q: !ttg.memdesc<128x64xf16, #shared, #smem>, %k_desc: !tt.tensordesc<tensor<128x64xf16, #shared>>) {
    %c0 = arith.constant 0 : i32
    %c128 = arith.constant 128 : i32
    %false = arith.constant false
    %true = arith.constant true
    %qk, %tok = ttng.tmem_alloc : () -> (!ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>, !ttg.async.token)
    // CHECK: ttng.tc_gen5_mma {{.+}} {tt.latency = 1 : i32, tt.self_latency = 1 : i32}
    %r = scf.for %i = %c0 to %n step %c128 iter_args(%t = %tok) -> (!ttg.async.token) : i32 {
      %k = tt.descriptor_load %k_desc[%i, %c0] : !tt.tensordesc<tensor<128x64xf16, #shared>> -> tensor<128x64xf16, #blocked>
      %k_sh = ttg.local_alloc %k : (tensor<128x64xf16, #blocked>) -> !ttg.memdesc<128x64xf16, #shared, #smem>
      %k_t = ttg.memdesc_trans %k_sh {order = array<i32: 1, 0>} : !ttg.memdesc<128x64xf16, #shared, #smem> -> !ttg.memdesc<64x128xf16, #shared_t, #smem>
      %t2 = ttng.tc_gen5_mma %q, %k_t, %qk[%t], %false, %true : !ttg.memdesc<128x64xf16, #shared, #smem>, !ttg.memdesc<64x128xf16, #shared_t, #smem>, !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>
      %s, %t3 = ttng.tmem_load %qk[%t2] : !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable> -> tensor<128x128xf32, #acc>
      "use"(%s) : (tensor<128x128xf32, #acc>) -> ()
      scf.yield %t3 : !ttg.async.token
    }
    // CHECK: ttng.tc_gen5_mma
    // CHECK-NOT: tt.latency = 1
    // CHECK-SAME: {tt.self_latency = 1 : i32}
    %r2 = scf.for %i = %c0 to %n step %c128 iter_args(%t = %r) -> (!ttg.async.token) : i32 {
      %k = tt.descriptor_load %k_desc[%i, %c0] : !tt.tensordesc<tensor<128x64xf16, #shared>> -> tensor<128x64xf16, #blocked>
      %k_sh = ttg.local_alloc %k : (tensor<128x64xf16, #blocked>) -> !ttg.memdesc<128x64xf16, #shared, #smem>
      %k_t = ttg.memdesc_trans %k_sh {order = array<i32: 1, 0>} : !ttg.memdesc<128x64xf16, #shared, #smem> -> !ttg.memdesc<64x128xf16, #shared_t, #smem>
      %t2 = ttng.tc_gen5_mma %q, %k_t, %qk[%t], %false, %true : !ttg.memdesc<128x64xf16, #shared, #smem>, !ttg.memdesc<64x128xf16, #shared_t, #smem>, !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>
      %s, %t3 = ttng.tmem_load %qk[%t2] : !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable> -> tensor<128x128xf32, #acc>
      "use"(%s) : (tensor<128x128xf32, #acc>) -> ()
      scf.yield %t3 : !ttg.async.token
    } {tt.disallow_acc_multi_buffer}
    tt.return
  }
}

// -----

// Block scales (seed 004): AccelerateMatmul stages them through `local_alloc`, and
// OptimizeDotOperands leaves the scaled MMA reading reshaped and transposed views of that
// buffer. Their loads are found behind the views, pipelined like the A and B loads, and the
// MMA is pipelined with them.
#blocked = #ttg.blocked<{sizePerThread = [1, 16], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1, 1, 1, 4], threadsPerWarp = [1, 1, 1, 1, 32], warpsPerCTA = [1, 1, 1, 2, 2], order = [4, 3, 2, 1, 0]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 8}>
#shared1 = #ttg.nvmma_shared<{swizzlingByteWidth = 0, transposed = false, elementBitWidth = 8, rank = 5}>
#shared3 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 8}>
#shared4 = #ttg.shared_linear<{offset = [[0, 0, 0, 0, 1], [0, 0, 0, 0, 2], [0, 0, 0, 1, 0], [0, 0, 0, 2, 0], [0, 0, 1, 0, 0], [0, 0, 2, 0, 0], [0, 0, 4, 0, 0], [0, 0, 8, 0, 0], [0, 0, 16, 0, 0]]}, alignment = 128>
#shared5 = #ttg.shared_linear<{offset = [[0, 0, 0, 0, 1], [0, 0, 0, 0, 2], [0, 1, 0, 0, 0], [0, 2, 0, 0, 0], [0, 0, 1, 0, 0], [0, 0, 2, 0, 0], [0, 0, 4, 0, 0], [0, 0, 8, 0, 0], [0, 0, 16, 0, 0]]}, alignment = 128>
#shared6 = #ttg.shared_linear<{offset = [[0, 1], [0, 2], [32, 0], [64, 0], [1, 0], [2, 0], [4, 0], [8, 0], [16, 0]]}, alignment = 128>
#smem = #ttg.shared_memory
#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>
module attributes {"ttg.target" = "cuda:100", "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @scales_through_views
  tt.func @scales_through_views(%k: i32, %a_desc: !tt.tensordesc<tensor<128x128xf8E4M3FN, #shared>>, %b_desc: !tt.tensordesc<tensor<128x128xf8E4M3FN, #shared>>,
      %s_desc: !tt.tensordesc<tensor<1x1x1x2x256xui8, #shared1>>) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %false = arith.constant false
    %true = arith.constant true
    %acc, %tok = ttng.tmem_alloc : () -> (!ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>, !ttg.async.token)
    // CHECK: tt.descriptor_load {{.+}} {tt.latency = 2 : i32}
    // CHECK: tt.descriptor_load {{.+}} {tt.latency = 2 : i32}
    // CHECK: tt.descriptor_load {{.+}} {tt.latency = 2 : i32}
    // CHECK: ttng.tc_gen5_mma_scaled {{.+}} {tt.latency = 1 : i32, tt.self_latency = 1 : i32}
    %r:2 = scf.for %i = %c0 to %k step %c1 iter_args(%use = %false, %t = %tok) -> (i1, !ttg.async.token) : i32 {
      %a = tt.descriptor_load %a_desc[%c0, %i] : !tt.tensordesc<tensor<128x128xf8E4M3FN, #shared>> -> tensor<128x128xf8E4M3FN, #blocked>
      %a_sh = ttg.local_alloc %a : (tensor<128x128xf8E4M3FN, #blocked>) -> !ttg.memdesc<128x128xf8E4M3FN, #shared, #smem>
      %b = tt.descriptor_load %b_desc[%c0, %i] : !tt.tensordesc<tensor<128x128xf8E4M3FN, #shared>> -> tensor<128x128xf8E4M3FN, #blocked>
      %b_sh = ttg.local_alloc %b : (tensor<128x128xf8E4M3FN, #blocked>) -> !ttg.memdesc<128x128xf8E4M3FN, #shared, #smem>
      %b_t = ttg.memdesc_trans %b_sh {order = array<i32: 1, 0>} : !ttg.memdesc<128x128xf8E4M3FN, #shared, #smem> -> !ttg.memdesc<128x128xf8E4M3FN, #shared3, #smem>
      %s = tt.descriptor_load %s_desc[%c0, %c0, %i, %c0, %c0] : !tt.tensordesc<tensor<1x1x1x2x256xui8, #shared1>> -> tensor<1x1x1x2x256xi8, #blocked1>
      %s_sh = ttg.local_alloc %s : (tensor<1x1x1x2x256xi8, #blocked1>) -> !ttg.memdesc<1x1x1x2x256xi8, #shared1, #smem>
      %tiles = ttg.memdesc_reshape %s_sh : !ttg.memdesc<1x1x1x2x256xi8, #shared1, #smem> -> !ttg.memdesc<1x1x32x4x4xi8, #shared4, #smem>
      %shuffled = ttg.memdesc_trans %tiles {order = array<i32: 0, 3, 2, 1, 4>} : !ttg.memdesc<1x1x32x4x4xi8, #shared4, #smem> -> !ttg.memdesc<1x4x32x1x4xi8, #shared5, #smem>
      %scales = ttg.memdesc_reshape %shuffled : !ttg.memdesc<1x4x32x1x4xi8, #shared5, #smem> -> !ttg.memdesc<128x4xi8, #shared6, #smem>
      %t2 = ttng.tc_gen5_mma_scaled %a_sh, %b_t, %acc[%t], %scales, %scales, %use, %true lhs = e4m3 rhs = e4m3 : !ttg.memdesc<128x128xf8E4M3FN, #shared, #smem>, !ttg.memdesc<128x128xf8E4M3FN, #shared3, #smem>, !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>, !ttg.memdesc<128x4xi8, #shared6, #smem>, !ttg.memdesc<128x4xi8, #shared6, #smem>
      scf.yield %true, %t2 : i1, !ttg.async.token
    }
    tt.return
  }
}

// -----

// Loops the expander cannot take are left alone: one yielding an iteration argument (a
// value carried over two iterations), and one holding another loop (whose inner loop is
// pipelined on its own).
#AL = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 32, 16]}>
#smem = #ttg.shared_memory
module attributes {"ttg.target" = "cuda:90", "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @not_pipelineable
  // CHECK: scf.for
  // CHECK: tt.load %{{.+}} : tensor<128x32x!tt.ptr<f16>
  // CHECK: scf.for
  // CHECK: scf.for
  // CHECK: tt.load %{{.+}} {tt.latency = 2 : i32}
  // CHECK: tt.load %{{.+}} : tensor<128x32x!tt.ptr<f16>
  tt.func @not_pipelineable(%lb: i32, %ub: i32, %step: i32, %b: !ttg.memdesc<32x32xf16, #shared, #smem>,
      %ptrs: tensor<128x32x!tt.ptr<f16>, #AL> {tt.divisibility = dense<[16, 16]> : tensor<2xi32>, tt.contiguity = dense<[1, 32]> : tensor<2xi32>}) -> tensor<128x32xf32, #mma> {
    %c_init = arith.constant dense<0.000000e+00> : tensor<128x32xf32, #mma>
    %r:2 = scf.for %iv = %lb to %ub step %step iter_args(%c = %c_init, %prev = %c_init) -> (tensor<128x32xf32, #mma>, tensor<128x32xf32, #mma>) : i32 {
      %a = tt.load %ptrs : tensor<128x32x!tt.ptr<f16>, #AL>
      %a_sh = ttg.local_alloc %a : (tensor<128x32xf16, #AL>) -> !ttg.memdesc<128x32xf16, #shared, #smem>
      %d = ttng.warp_group_dot %a_sh, %b, %c {inputPrecision = 0 : i32} : !ttg.memdesc<128x32xf16, #shared, #smem> * !ttg.memdesc<32x32xf16, #shared, #smem> -> tensor<128x32xf32, #mma>
      scf.yield %d, %c : tensor<128x32xf32, #mma>, tensor<128x32xf32, #mma>
    }
    %o = scf.for %jv = %lb to %ub step %step iter_args(%c0 = %r#0) -> (tensor<128x32xf32, #mma>) : i32 {
      %i = scf.for %iv = %lb to %ub step %step iter_args(%c = %c0) -> (tensor<128x32xf32, #mma>) : i32 {
        %a = tt.load %ptrs : tensor<128x32x!tt.ptr<f16>, #AL>
        %a_sh = ttg.local_alloc %a : (tensor<128x32xf16, #AL>) -> !ttg.memdesc<128x32xf16, #shared, #smem>
        %d = ttng.warp_group_dot %a_sh, %b, %c {inputPrecision = 0 : i32} : !ttg.memdesc<128x32xf16, #shared, #smem> * !ttg.memdesc<32x32xf16, #shared, #smem> -> tensor<128x32xf32, #mma>
        scf.yield %d : tensor<128x32xf32, #mma>
      }
      %e = tt.load %ptrs : tensor<128x32x!tt.ptr<f16>, #AL>
      %e_sh = ttg.local_alloc %e : (tensor<128x32xf16, #AL>) -> !ttg.memdesc<128x32xf16, #shared, #smem>
      %d = ttng.warp_group_dot %e_sh, %b, %i {inputPrecision = 0 : i32} : !ttg.memdesc<128x32xf16, #shared, #smem> * !ttg.memdesc<32x32xf16, #shared, #smem> -> tensor<128x32xf32, #mma>
      scf.yield %d : tensor<128x32xf32, #mma>
    }
    tt.return %o : tensor<128x32xf32, #mma>
  }
}
