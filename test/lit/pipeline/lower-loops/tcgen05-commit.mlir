// tcgen05 MMAs made asynchronous: the MMA commits to an mbarrier ring (is_async), a
// wait_barrier with a loop-carried phase sits where the accumulator or the operands are next
// needed, and the TMEM accumulator is multi-buffered when its users span stages.
// RUN: ttpipe-opt %s --split-input-file --strip-debuginfo -p ttpipe-lower-loops | filecheck %s

// -----

// An async tcgen05 MMA commits to an mbarrier ring: the accumulator is only read after the
// loop, so the wait goes `tt.self_latency` (1) stage after the MMA; the ring has one
// mbarrier per stage in flight (2), with a loop-carried phase and index. The wait guards the
// operand buffers, which is why their rings are 3 deep (stage 0 -> the wait at stage 3).
// CHECK-LABEL: tt.func @mma_commit
// CHECK: %[[ACC:[^ ,]+]], %{{.*}} = ttng.tmem_alloc : () -> (!ttg.memdesc<128x128xf32
// CHECK: %[[INIT_TOK:.*]] = ttng.tmem_store
// CHECK: %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK: %[[BARS:.*]] = ttg.local_alloc : () -> !ttg.memdesc<2x1xi64
// CHECK-COUNT-2: ttng.init_barrier
// CHECK: ttg.local_alloc : () -> !ttg.memdesc<3x128x64xf16
// CHECK: ttg.local_alloc : () -> !ttg.memdesc<3x64x128xf16
// CHECK: scf.for {{.*}} iter_args(%[[TOK:[^ ]+]] = %[[INIT_TOK]], %[[PHASE:[^ ]+]] = %[[ZERO]], %[[BAR_IDX:[^ ]+]] = %[[ZERO]], %{{[^ ]+}} = %{{[^ ]+}}, %{{[^ ]+}} = %{{[^ ]+}})
// CHECK: %[[A:.*]] = ttg.memdesc_index {{.*}} {loop.cluster = 0 : i32, loop.stage = 2 : i32} : !ttg.memdesc<3x128x64xf16
// CHECK: %[[B:.*]] = ttg.memdesc_index {{.*}} {loop.cluster = 0 : i32, loop.stage = 2 : i32} : !ttg.memdesc<3x64x128xf16
// CHECK: %[[TRUE:.*]] = arith.constant {loop.cluster = 0 : i32, loop.stage = 2 : i32} true
// CHECK: %[[ONE:.*]] = arith.constant {loop.cluster = 0 : i32, loop.stage = 2 : i32} 1 : i32
// CHECK: %[[DEPTH:.*]] = arith.constant {loop.cluster = 0 : i32, loop.stage = 2 : i32} 2 : i32
// CHECK-NEXT: %[[BAR:.*]] = ttg.memdesc_index %[[BARS]][%[[BAR_IDX]]] {loop.cluster = 0 : i32, loop.stage = 2 : i32}
// CHECK-NEXT: %[[MMA_TOK:.*]] = ttng.tc_gen5_mma %[[A]], %[[B]], %[[ACC]][%[[TOK]]], %{{.*}}, %{{.*}}, %[[BAR]][%[[TRUE]]] {is_async, loop.cluster = 0 : i32, loop.stage = 2 : i32}
// CHECK-NEXT: ttng.wait_barrier %[[BAR]], %[[PHASE]] deps %[[A]], %[[B]] {loop.cluster = 0 : i32, loop.stage = 3 : i32}
// CHECK-NEXT: %[[FLIPPED:.*]] = arith.xori %[[PHASE]], %[[ONE]] {loop.cluster = 0 : i32, loop.stage = 2 : i32}
// CHECK-NEXT: %[[BAR_IDX_P1:.*]] = arith.addi %[[BAR_IDX]], %[[ONE]]
// CHECK-NEXT: %[[WRAP:.*]] = arith.cmpi sge, %[[BAR_IDX_P1]], %[[DEPTH]]
// CHECK-NEXT: %[[BAR_IDX_NEXT:.*]] = arith.select %[[WRAP]], %{{.*}}, %[[BAR_IDX_P1]]
// CHECK-NEXT: %[[PHASE_NEXT:.*]] = arith.select %[[WRAP]], %[[FLIPPED]], %[[PHASE]]
// CHECK-NEXT: scf.yield %[[MMA_TOK]], %[[PHASE_NEXT]], %[[BAR_IDX_NEXT]], %{{.*}}, %{{.*}} :
// CHECK-NEXT: } {tt.scheduled_max_stage = 3 : i32}
// CHECK-COUNT-2: ttng.inval_barrier
// CHECK-NEXT: ttg.local_dealloc %[[BARS]]
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 128], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:100", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @mma_commit(%ub: i32,
      %a_ptr: tensor<128x64x!tt.ptr<f16>, #blocked> {tt.contiguity = dense<[1, 64]> : tensor<2xi32>, tt.divisibility = dense<16> : tensor<2xi32>},
      %b_ptr: tensor<64x128x!tt.ptr<f16>, #blocked> {tt.contiguity = dense<[1, 128]> : tensor<2xi32>, tt.divisibility = dense<16> : tensor<2xi32>}) -> tensor<128x128xf32, #blocked1> {
    %true = arith.constant true
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<128x128xf32, #blocked1>
    %acc, %acc_tok = ttng.tmem_alloc : () -> (!ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>, !ttg.async.token)
    %init_tok = ttng.tmem_store %zero, %acc[%acc_tok], %true : tensor<128x128xf32, #blocked1> -> !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>
    %last_tok = scf.for %i = %c0_i32 to %ub step %c1_i32 iter_args(%tok = %init_tok) -> (!ttg.async.token)  : i32 {
      %a = tt.load %a_ptr {loop.cluster = 2 : i32, loop.stage = 0 : i32} : tensor<128x64x!tt.ptr<f16>, #blocked>
      %b = tt.load %b_ptr {loop.cluster = 2 : i32, loop.stage = 0 : i32} : tensor<64x128x!tt.ptr<f16>, #blocked>
      %a_smem = ttg.local_alloc %a {loop.cluster = 0 : i32, loop.stage = 2 : i32} : (tensor<128x64xf16, #blocked>) -> !ttg.memdesc<128x64xf16, #shared, #smem>
      %b_smem = ttg.local_alloc %b {loop.cluster = 0 : i32, loop.stage = 2 : i32} : (tensor<64x128xf16, #blocked>) -> !ttg.memdesc<64x128xf16, #shared, #smem>
      %mma_tok = ttng.tc_gen5_mma %a_smem, %b_smem, %acc[%tok], %true, %true {loop.cluster = 0 : i32, loop.stage = 2 : i32, tt.self_latency = 1 : i32} : !ttg.memdesc<128x64xf16, #shared, #smem>, !ttg.memdesc<64x128xf16, #shared, #smem>, !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>
      scf.yield %mma_tok : !ttg.async.token
    } {tt.scheduled_max_stage = 2 : i32}
    %res, %res_tok = ttng.tmem_load %acc[%last_tok] : !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable> -> tensor<128x128xf32, #blocked1>
    tt.return %res : tensor<128x128xf32, #blocked1>
  }
}

// -----

// The accumulator is overwritten each iteration (tmem_store) and read a stage after the MMA:
// two TMEM buffers, switched where the accumulator is overwritten. The buffer index is
// loop-carried (from -1); each user indexes the buffer, and the tokens tying the users
// together give way to a poison token.
// CHECK-LABEL: tt.func @multibuffered_accumulator
// CHECK: %[[ACCS:[^ ,]+]], %[[ACCS_TOK:[^ ]+]] = ttng.tmem_alloc : () -> (!ttg.memdesc<2x128x128xf32, #tmem, #ttng.tensor_memory, mutable>, !ttg.async.token)
// CHECK: %[[TWO:.*]] = arith.constant 2 : i32
// CHECK-NEXT: %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK-NEXT: %[[ONE:.*]] = arith.constant 1 : i32
// CHECK-NEXT: %[[MINUS_ONE:.*]] = arith.constant -1 : i32
// CHECK: %[[POISON:.*]] = ub.poison : !ttg.async.token
// CHECK: scf.for {{.*}} iter_args(%{{[^ ]+}} = %[[ACCS_TOK]], %{{[^ ]+}} = %{{[^ ]+}}, %{{[^ ]+}} = %{{[^ ]+}}, %[[BUF:[^ ]+]] = %[[MINUS_ONE]],
// CHECK: %[[BUF_P1:.*]] = arith.addi %[[BUF]], %[[ONE]] {loop.cluster = 0 : i32, loop.stage = 2 : i32}
// CHECK-NEXT: %[[WRAP:.*]] = arith.cmpi sge, %[[BUF_P1]], %[[TWO]]
// CHECK-NEXT: %[[BUF_INC:.*]] = arith.select %[[WRAP]], %[[ZERO]], %[[BUF_P1]]
// CHECK-NEXT: %[[BUF_STORE:.*]] = arith.select %true, %[[BUF_INC]], %[[BUF]]
// CHECK-NEXT: %[[STORE_SLOT:.*]] = ttg.memdesc_index %[[ACCS]][%[[BUF_STORE]]]
// CHECK-NEXT: ttng.tmem_store %{{.*}}, %[[STORE_SLOT]][], %true {loop.cluster = 0 : i32, loop.stage = 2 : i32}
// CHECK: %[[BUF_MMA:.*]] = arith.select %true, %[[BUF_STORE]], %{{.*}} {loop.cluster = 0 : i32, loop.stage = 2 : i32}
// CHECK-NEXT: %[[MMA_SLOT:.*]] = ttg.memdesc_index %[[ACCS]][%[[BUF_MMA]]]
// CHECK-NEXT: ttng.tc_gen5_mma %{{.*}}, %{{.*}}, %[[MMA_SLOT]][], {{.*}} {is_async, loop.cluster = 0 : i32, loop.stage = 2 : i32}
// CHECK-NEXT: ttng.wait_barrier {{.*}} {loop.cluster = 1 : i32, loop.stage = 3 : i32}
// CHECK-NEXT: %[[LOAD_SLOT:.*]] = ttg.memdesc_index %[[ACCS]][%[[BUF_MMA]]] {loop.cluster = 2 : i32, loop.stage = 3 : i32}
// CHECK-NEXT: ttng.tmem_load %[[LOAD_SLOT]][] {loop.cluster = 2 : i32, loop.stage = 3 : i32}
// CHECK: scf.yield %[[POISON]], %{{.*}}, %{{.*}}, %[[BUF_MMA]], %{{.*}}, %{{.*}} :
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 128], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:100", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @multibuffered_accumulator(%ub: i32,
      %a_ptr: tensor<128x64x!tt.ptr<f16>, #blocked> {tt.contiguity = dense<[1, 64]> : tensor<2xi32>, tt.divisibility = dense<16> : tensor<2xi32>},
      %b_ptr: tensor<64x128x!tt.ptr<f16>, #blocked> {tt.contiguity = dense<[1, 128]> : tensor<2xi32>, tt.divisibility = dense<16> : tensor<2xi32>},
      %out: tensor<128x128x!tt.ptr<f32>, #blocked1>) {
    %true = arith.constant true
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<128x128xf32, #blocked1>
    %acc, %acc_tok = ttng.tmem_alloc : () -> (!ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>, !ttg.async.token)
    %last_tok = scf.for %i = %c0_i32 to %ub step %c1_i32 iter_args(%tok = %acc_tok) -> (!ttg.async.token)  : i32 {
      %a = tt.load %a_ptr {loop.cluster = 4 : i32, loop.stage = 0 : i32} : tensor<128x64x!tt.ptr<f16>, #blocked>
      %b = tt.load %b_ptr {loop.cluster = 4 : i32, loop.stage = 0 : i32} : tensor<64x128x!tt.ptr<f16>, #blocked>
      %a_smem = ttg.local_alloc %a {loop.cluster = 2 : i32, loop.stage = 2 : i32} : (tensor<128x64xf16, #blocked>) -> !ttg.memdesc<128x64xf16, #shared, #smem>
      %b_smem = ttg.local_alloc %b {loop.cluster = 2 : i32, loop.stage = 2 : i32} : (tensor<64x128xf16, #blocked>) -> !ttg.memdesc<64x128xf16, #shared, #smem>
      %store_tok = ttng.tmem_store %zero, %acc[%tok], %true {loop.cluster = 2 : i32, loop.stage = 2 : i32} : tensor<128x128xf32, #blocked1> -> !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>
      %mma_tok = ttng.tc_gen5_mma %a_smem, %b_smem, %acc[%store_tok], %true, %true {loop.cluster = 2 : i32, loop.stage = 2 : i32, tt.self_latency = 1 : i32} : !ttg.memdesc<128x64xf16, #shared, #smem>, !ttg.memdesc<64x128xf16, #shared, #smem>, !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>
      %res, %load_tok = ttng.tmem_load %acc[%mma_tok] {loop.cluster = 2 : i32, loop.stage = 3 : i32} : !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable> -> tensor<128x128xf32, #blocked1>
      tt.store %out, %res {loop.cluster = 2 : i32, loop.stage = 3 : i32} : tensor<128x128x!tt.ptr<f32>, #blocked1>
      scf.yield %load_tok : !ttg.async.token
    } {tt.scheduled_max_stage = 3 : i32}
    tt.return
  }
}

// -----

// An MMA operand stored from registers in the loop cannot be read a stage late: its buffer is
// hoisted out of the loop (a mutable local_alloc, and a local_store where it was) and the
// MMA's wait moves before that store, in a new cluster of the next stage.
// CHECK-LABEL: tt.func @operand_from_registers
// CHECK: %[[A_BUF:.*]] = ttg.local_alloc {loop.cluster = 0 : i32, loop.stage = 2 : i32} : () -> !ttg.memdesc<128x64xf16, #shared, #smem, mutable>
// CHECK: scf.for
// CHECK: %[[A:.*]] = arith.addf
// CHECK-NEXT: ttg.local_store %[[A]], %[[A_BUF]] {loop.cluster = 2 : i32, loop.stage = 2 : i32}
// CHECK: ttng.tc_gen5_mma %[[A_BUF]], {{.*}} {is_async, loop.cluster = 2 : i32, loop.stage = 2 : i32}
// CHECK-NEXT: ttng.wait_barrier %{{.*}}, %{{.*}} deps %[[A_BUF]], %{{.*}} {loop.cluster = 1 : i32, loop.stage = 3 : i32}
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 128], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:100", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @operand_from_registers(%ub: i32,
      %b_ptr: tensor<64x128x!tt.ptr<f16>, #blocked> {tt.contiguity = dense<[1, 128]> : tensor<2xi32>, tt.divisibility = dense<16> : tensor<2xi32>},
      %a_init: tensor<128x64xf16, #blocked>) -> tensor<128x128xf32, #blocked1> {
    %true = arith.constant true
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<128x128xf32, #blocked1>
    %acc, %acc_tok = ttng.tmem_alloc : () -> (!ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>, !ttg.async.token)
    %init_tok = ttng.tmem_store %zero, %acc[%acc_tok], %true : tensor<128x128xf32, #blocked1> -> !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>
    %loop:2 = scf.for %i = %c0_i32 to %ub step %c1_i32 iter_args(%tok = %init_tok, %a = %a_init) -> (!ttg.async.token, tensor<128x64xf16, #blocked>)  : i32 {
      %a_next = arith.addf %a, %a {loop.cluster = 0 : i32, loop.stage = 2 : i32} : tensor<128x64xf16, #blocked>
      %a_smem = ttg.local_alloc %a_next {loop.cluster = 0 : i32, loop.stage = 2 : i32} : (tensor<128x64xf16, #blocked>) -> !ttg.memdesc<128x64xf16, #shared, #smem>
      %b = tt.load %b_ptr {loop.cluster = 2 : i32, loop.stage = 0 : i32} : tensor<64x128x!tt.ptr<f16>, #blocked>
      %b_smem = ttg.local_alloc %b {loop.cluster = 0 : i32, loop.stage = 2 : i32} : (tensor<64x128xf16, #blocked>) -> !ttg.memdesc<64x128xf16, #shared, #smem>
      %mma_tok = ttng.tc_gen5_mma %a_smem, %b_smem, %acc[%tok], %true, %true {loop.cluster = 0 : i32, loop.stage = 2 : i32, tt.self_latency = 1 : i32} : !ttg.memdesc<128x64xf16, #shared, #smem>, !ttg.memdesc<64x128xf16, #shared, #smem>, !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>
      scf.yield %mma_tok, %a_next : !ttg.async.token, tensor<128x64xf16, #blocked>
    } {tt.scheduled_max_stage = 2 : i32}
    %res, %res_tok = ttng.tmem_load %acc[%loop#0] : !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable> -> tensor<128x128xf32, #blocked1>
    tt.return %res : tensor<128x128xf32, #blocked1>
  }
}

// -----

// The accumulator's users span two stages, but nothing overwrites it in the loop (no store,
// the MMA always accumulates): there is no point to switch TMEM buffers, where Triton aborts.
// The loop is left exactly as it was.
// CHECK-LABEL: tt.func @no_point_to_switch_buffers
// CHECK-NOT: ttg.local_alloc :
// CHECK: scf.for
// CHECK-NEXT: tt.load %{{.*}} {loop.cluster = 4 : i32, loop.stage = 0 : i32}
// CHECK: ttng.tc_gen5_mma {{.*}} {loop.cluster = 2 : i32, loop.stage = 2 : i32, tt.self_latency = 1 : i32}
// CHECK: } {tt.scheduled_max_stage = 3 : i32}
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 128], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:100", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @no_point_to_switch_buffers(%ub: i32,
      %a_ptr: tensor<128x64x!tt.ptr<f16>, #blocked> {tt.contiguity = dense<[1, 64]> : tensor<2xi32>, tt.divisibility = dense<16> : tensor<2xi32>},
      %b_ptr: tensor<64x128x!tt.ptr<f16>, #blocked> {tt.contiguity = dense<[1, 128]> : tensor<2xi32>, tt.divisibility = dense<16> : tensor<2xi32>},
      %out: tensor<128x128x!tt.ptr<f32>, #blocked1>) {
    %true = arith.constant true
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %acc, %acc_tok = ttng.tmem_alloc : () -> (!ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>, !ttg.async.token)
    %last_tok = scf.for %i = %c0_i32 to %ub step %c1_i32 iter_args(%tok = %acc_tok) -> (!ttg.async.token)  : i32 {
      %a = tt.load %a_ptr {loop.cluster = 4 : i32, loop.stage = 0 : i32} : tensor<128x64x!tt.ptr<f16>, #blocked>
      %b = tt.load %b_ptr {loop.cluster = 4 : i32, loop.stage = 0 : i32} : tensor<64x128x!tt.ptr<f16>, #blocked>
      %a_smem = ttg.local_alloc %a {loop.cluster = 2 : i32, loop.stage = 2 : i32} : (tensor<128x64xf16, #blocked>) -> !ttg.memdesc<128x64xf16, #shared, #smem>
      %b_smem = ttg.local_alloc %b {loop.cluster = 2 : i32, loop.stage = 2 : i32} : (tensor<64x128xf16, #blocked>) -> !ttg.memdesc<64x128xf16, #shared, #smem>
      %mma_tok = ttng.tc_gen5_mma %a_smem, %b_smem, %acc[%tok], %true, %true {loop.cluster = 2 : i32, loop.stage = 2 : i32, tt.self_latency = 1 : i32} : !ttg.memdesc<128x64xf16, #shared, #smem>, !ttg.memdesc<64x128xf16, #shared, #smem>, !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>
      %res, %load_tok = ttng.tmem_load %acc[%mma_tok] {loop.cluster = 2 : i32, loop.stage = 3 : i32} : !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable> -> tensor<128x128xf32, #blocked1>
      tt.store %out, %res {loop.cluster = 2 : i32, loop.stage = 3 : i32} : tensor<128x128x!tt.ptr<f32>, #blocked1>
      scf.yield %load_tok : !ttg.async.token
    } {tt.scheduled_max_stage = 3 : i32}
    tt.return
  }
}
