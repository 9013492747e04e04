// TMA loads with mbarriers: the loads of one ring share a barrier per slot, which expects
// the bytes of all of them (expect-tx) and is waited on with a loop-carried phase.
// RUN: ttpipe-opt %s --split-input-file --strip-debuginfo -p ttpipe-lower-loops | filecheck %s

// -----

// Two TMA loads issued together (same stage and cluster, nothing using the first before the
// second) share one mbarrier per ring slot: one barrier_expect with their summed bytes
// (2 x 128x64 f16 = 32768), both copies arrive on it, one wait_barrier guards both reads.
// The ring is 3 deep (2 stages + 1 for wgmma); the phase flips when the extract index wraps.
// CHECK-LABEL: tt.func @shared_mbarrier
// CHECK-SAME: (%{{[^:]+}}: i32, %[[A_DESC:[^:]+]]: !tt.tensordesc<{{.*}}>, %[[B_DESC:[^:]+]]: !tt.tensordesc<{{.*}}>, %[[M:[^:]+]]: i32, %[[N:[^:]+]]: i32)
// CHECK: %[[A_RING:.*]] = ttg.local_alloc : () -> !ttg.memdesc<3x128x64xf16, #shared, #smem, mutable>
// CHECK: %[[B_RING:.*]] = ttg.local_alloc : () -> !ttg.memdesc<3x64x128xf16, #shared, #smem, mutable>
// CHECK: %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK: %[[ONE:.*]] = arith.constant 1 : i32
// CHECK: %[[BARS:.*]] = ttg.local_alloc : () -> !ttg.memdesc<3x1xi64, #shared1, #smem, mutable>
// CHECK-COUNT-3: ttng.init_barrier %{{.*}}, 1
// CHECK: scf.for %[[I:[^ ]+]] = {{.*}} iter_args(%{{[^ ]+}} = %{{[^ ]+}}, %[[INS:[^ ]+]] = %{{[^ ]+}}, %[[EXT:[^ ]+]] = %{{[^ ]+}}, %[[PHASE:[^ ]+]] = %[[ZERO]])
// CHECK: %[[INS_NEXT:.*]] = arith.select %{{.*}}, %[[ZERO]], %{{.*}} {loop.cluster = 2 : i32, loop.stage = 0 : i32}
// CHECK: %[[EXT_P1:.*]] = arith.addi %[[EXT]], %[[ONE]]
// CHECK-NEXT: %[[EXT_WRAP:.*]] = arith.cmpi sge, %[[EXT_P1]], %{{.*}} {loop.cluster = 0 : i32, loop.stage = 2 : i32}
// CHECK-NEXT: %[[EXT_NEXT:.*]] = arith.select %[[EXT_WRAP]], %[[ZERO]], %[[EXT_P1]]
// CHECK-NEXT: %[[FLIPPED:.*]] = arith.xori %[[PHASE]], %[[ONE]] {loop.cluster = 0 : i32, loop.stage = 2 : i32}
// CHECK-NEXT: %[[PHASE_NEXT:.*]] = arith.select %[[EXT_WRAP]], %[[FLIPPED]], %[[PHASE]] {loop.cluster = 0 : i32, loop.stage = 2 : i32}
// CHECK-NEXT: %[[K:.*]] = arith.muli %[[I]]
// CHECK-NEXT: %[[BAR:.*]] = ttg.memdesc_index %[[BARS]][%[[INS_NEXT]]] {loop.cluster = 2 : i32, loop.stage = 0 : i32}
// CHECK-NEXT: %[[TRUE:.*]] = arith.constant {loop.cluster = 2 : i32, loop.stage = 0 : i32} true
// CHECK-NEXT: ttng.barrier_expect %[[BAR]], 32768 {loop.cluster = 2 : i32, loop.stage = 0 : i32}, %[[TRUE]]
// CHECK-NEXT: %[[A_SLOT:.*]] = ttg.memdesc_index %[[A_RING]][%[[INS_NEXT]]]
// CHECK-NEXT: arith.constant {{.*}} true
// CHECK-NEXT: ttng.async_tma_copy_global_to_local %[[A_DESC]][%[[M]], %[[K]]] %[[A_SLOT]], %[[BAR]], %{{.*}} {loop.cluster = 2 : i32, loop.stage = 0 : i32}
// CHECK-NEXT: %[[B_SLOT:.*]] = ttg.memdesc_index %[[B_RING]][%[[INS_NEXT]]]
// CHECK-NEXT: arith.constant {{.*}} true
// CHECK-NEXT: ttng.async_tma_copy_global_to_local %[[B_DESC]][%[[K]], %[[N]]] %[[B_SLOT]], %[[BAR]], %{{.*}} {loop.cluster = 2 : i32, loop.stage = 0 : i32}
// CHECK-NEXT: %[[WAIT_BAR:.*]] = ttg.memdesc_index %[[BARS]][%[[EXT_NEXT]]] {loop.cluster = 0 : i32, loop.stage = 2 : i32}
// CHECK-NEXT: ttng.wait_barrier %[[WAIT_BAR]], %[[PHASE_NEXT]] {loop.cluster = 0 : i32, loop.stage = 2 : i32}
// CHECK-NEXT: %[[B_READ:.*]] = ttg.memdesc_index %[[B_RING]][%[[EXT_NEXT]]]
// CHECK-NEXT: %[[A_READ:.*]] = ttg.memdesc_index %[[A_RING]][%[[EXT_NEXT]]]
// CHECK-NEXT: ttng.warp_group_dot %[[A_READ]], %[[B_READ]]
// CHECK: scf.yield %{{.*}}, %[[INS_NEXT]], %[[EXT_NEXT]], %[[PHASE_NEXT]]
// CHECK-COUNT-3: ttng.inval_barrier
// CHECK-NEXT: ttg.local_dealloc %[[BARS]]
// CHECK-NOT: ttg.async_wait
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 128, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @shared_mbarrier(%ub: i32, %a_desc: !tt.tensordesc<tensor<128x64xf16, #shared>>, %b_desc: !tt.tensordesc<tensor<64x128xf16, #shared>>, %m: i32, %n: i32) -> tensor<128x128xf32, #mma> {
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %c64_i32 = arith.constant 64 : i32
    %acc_init = arith.constant dense<0.000000e+00> : tensor<128x128xf32, #mma>
    %res = scf.for %i = %c0_i32 to %ub step %c1_i32 iter_args(%acc = %acc_init) -> (tensor<128x128xf32, #mma>)  : i32 {
      %k = arith.muli %i, %c64_i32 {loop.cluster = 2 : i32, loop.stage = 0 : i32} : i32
      %a = tt.descriptor_load %a_desc[%m, %k] {loop.cluster = 2 : i32, loop.stage = 0 : i32} : !tt.tensordesc<tensor<128x64xf16, #shared>> -> tensor<128x64xf16, #blocked>
      %a_smem = ttg.local_alloc %a {loop.cluster = 0 : i32, loop.stage = 2 : i32} : (tensor<128x64xf16, #blocked>) -> !ttg.memdesc<128x64xf16, #shared, #smem>
      %b = tt.descriptor_load %b_desc[%k, %n] {loop.cluster = 2 : i32, loop.stage = 0 : i32} : !tt.tensordesc<tensor<64x128xf16, #shared>> -> tensor<64x128xf16, #blocked1>
      %b_smem = ttg.local_alloc %b {loop.cluster = 0 : i32, loop.stage = 2 : i32} : (tensor<64x128xf16, #blocked1>) -> !ttg.memdesc<64x128xf16, #shared, #smem>
      %d = ttng.warp_group_dot %a_smem, %b_smem, %acc {loop.cluster = 0 : i32, loop.stage = 2 : i32} : !ttg.memdesc<128x64xf16, #shared, #smem> * !ttg.memdesc<64x128xf16, #shared, #smem> -> tensor<128x128xf32, #mma>
      scf.yield %d : tensor<128x128xf32, #mma>
    } {tt.scheduled_max_stage = 2 : i32}
    tt.return %res : tensor<128x128xf32, #mma>
  }
}

// -----

// A use of the first load between it and the third closes the first mbarrier group: the
// first two loads share one barrier (32768 bytes), the third gets its own (16384 bytes).
// CHECK-LABEL: tt.func @use_splits_group
// CHECK: %[[BARS0:.*]] = ttg.local_alloc : () -> !ttg.memdesc<1x1xi64
// CHECK: %[[BARS1:.*]] = ttg.local_alloc : () -> !ttg.memdesc<1x1xi64
// CHECK: scf.for
// CHECK: %[[BAR0:.*]] = ttg.memdesc_index %[[BARS0]]
// CHECK: ttng.barrier_expect %[[BAR0]], 32768
// CHECK: ttng.async_tma_copy_global_to_local {{.*}}, %[[BAR0]], %{{.*}} {loop.cluster = 1 : i32, loop.stage = 0 : i32}
// CHECK: ttng.async_tma_copy_global_to_local {{.*}}, %[[BAR0]], %{{.*}} {loop.cluster = 1 : i32, loop.stage = 0 : i32}
// CHECK: ttng.wait_barrier
// CHECK: tt.store
// CHECK: %[[BAR1:.*]] = ttg.memdesc_index %[[BARS1]]
// CHECK: ttng.barrier_expect %[[BAR1]], 16384
// CHECK: ttng.async_tma_copy_global_to_local {{.*}}, %[[BAR1]], %{{.*}} {loop.cluster = 1 : i32, loop.stage = 0 : i32}
// CHECK: ttng.wait_barrier
// CHECK: arith.addf
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @use_splits_group(%ub: i32, %desc: !tt.tensordesc<tensor<128x64xf16, #shared>>, %out: tensor<128x64x!tt.ptr<f16>, #blocked>) {
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    scf.for %i = %c0_i32 to %ub step %c1_i32  : i32 {
      %x = tt.descriptor_load %desc[%i, %c0_i32] {loop.cluster = 1 : i32, loop.stage = 0 : i32} : !tt.tensordesc<tensor<128x64xf16, #shared>> -> tensor<128x64xf16, #blocked>
      %y = tt.descriptor_load %desc[%i, %c1_i32] {loop.cluster = 1 : i32, loop.stage = 0 : i32} : !tt.tensordesc<tensor<128x64xf16, #shared>> -> tensor<128x64xf16, #blocked>
      tt.store %out, %x {loop.cluster = 0 : i32, loop.stage = 1 : i32} : tensor<128x64x!tt.ptr<f16>, #blocked>
      %z = tt.descriptor_load %desc[%c0_i32, %i] {loop.cluster = 1 : i32, loop.stage = 0 : i32} : !tt.tensordesc<tensor<128x64xf16, #shared>> -> tensor<128x64xf16, #blocked>
      %s = arith.addf %y, %z {loop.cluster = 0 : i32, loop.stage = 1 : i32} : tensor<128x64xf16, #blocked>
      tt.store %out, %s {loop.cluster = 0 : i32, loop.stage = 1 : i32} : tensor<128x64x!tt.ptr<f16>, #blocked>
    } {tt.scheduled_max_stage = 1 : i32}
    tt.return
  }
}

// -----

// Two CTAs: the mbarriers are broadcast over the CTAs (CGALayout [[0]]) and expect the bytes
// one CTA receives: all of A (broadcast, 16384) and half of B (split along N, 8192).
// CHECK: #[[BAR_LAYOUT:.+]] = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0], CGALayout = {{\[\[}}0]]}>
// CHECK-LABEL: tt.func @two_ctas
// CHECK: ttg.local_alloc : () -> !ttg.memdesc<3x1xi64, #[[BAR_LAYOUT]], #smem, mutable>
// CHECK: ttng.barrier_expect %{{.*}}, 24576
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0], CGALayout = [[0, 0]]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0], CGALayout = [[0, 1]]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], CGALayout = [[0, 1]], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16, CGALayout = [[0, 0]]}>
#shared1 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16, CGALayout = [[0, 1]]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 2 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @two_ctas(%ub: i32, %a_desc: !tt.tensordesc<tensor<128x64xf16, #shared>>, %b_desc: !tt.tensordesc<tensor<64x128xf16, #shared1>>) -> tensor<128x128xf32, #mma> {
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %acc_init = arith.constant dense<0.000000e+00> : tensor<128x128xf32, #mma>
    %res = scf.for %i = %c0_i32 to %ub step %c1_i32 iter_args(%acc = %acc_init) -> (tensor<128x128xf32, #mma>)  : i32 {
      %a = tt.descriptor_load %a_desc[%c0_i32, %i] {loop.cluster = 2 : i32, loop.stage = 0 : i32} : !tt.tensordesc<tensor<128x64xf16, #shared>> -> tensor<128x64xf16, #blocked>
      %a_smem = ttg.local_alloc %a {loop.cluster = 0 : i32, loop.stage = 2 : i32} : (tensor<128x64xf16, #blocked>) -> !ttg.memdesc<128x64xf16, #shared, #smem>
      %b = tt.descriptor_load %b_desc[%i, %c0_i32] {loop.cluster = 2 : i32, loop.stage = 0 : i32} : !tt.tensordesc<tensor<64x128xf16, #shared1>> -> tensor<64x128xf16, #blocked1>
      %b_smem = ttg.local_alloc %b {loop.cluster = 0 : i32, loop.stage = 2 : i32} : (tensor<64x128xf16, #blocked1>) -> !ttg.memdesc<64x128xf16, #shared1, #smem>
      %d = ttng.warp_group_dot %a_smem, %b_smem, %acc {loop.cluster = 0 : i32, loop.stage = 2 : i32} : !ttg.memdesc<128x64xf16, #shared, #smem> * !ttg.memdesc<64x128xf16, #shared1, #smem> -> tensor<128x128xf32, #mma>
      scf.yield %d : tensor<128x128xf32, #mma>
    } {tt.scheduled_max_stage = 2 : i32}
    tt.return %res : tensor<128x128xf32, #mma>
  }
}
