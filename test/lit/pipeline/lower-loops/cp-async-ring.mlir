// cp.async rings: pointer loads whose first use is stages later become copies into a
// multi-buffered shared-memory ring, with a loop-carried insert and extract index.
// RUN: ttpipe-opt %s --split-input-file --strip-debuginfo -p ttpipe-lower-loops | filecheck %s

// Two loads feeding a wgmma, 2 stages ahead: one ring slot per stage in flight, plus one
// because wgmma reads its operands from the ring while the next wgmma is issued. Both
// loads share the ring depth, hence one insert and one extract index. The masked load
// keeps its mask and zero `other`; the local_allocs go away (the wgmma reads the slot).
// CHECK-LABEL: tt.func @wgmma_operands
// CHECK-SAME: (%{{.*}}: i32, %[[A_PTR:[^:]+]]: tensor<128x64x!tt.ptr<f16>, #blocked> {{.*}}, %[[B_PTR:[^:]+]]: tensor<64x128x!tt.ptr<f16>, #blocked1> {{.*}}, %[[MASK:[^:]+]]: tensor<128x64xi1, #blocked> {{.*}})
// CHECK: %[[ZERO_A:.*]] = arith.constant dense<0.000000e+00> : tensor<128x64xf16, #blocked>
// CHECK: %[[A_RING:.*]] = ttg.local_alloc : () -> !ttg.memdesc<3x128x64xf16, #shared, #smem, mutable>
// CHECK: %[[B_RING:.*]] = ttg.local_alloc : () -> !ttg.memdesc<3x64x128xf16, #shared, #smem, mutable>
// CHECK: %[[MINUS_ONE:.*]] = arith.constant -1 : i32
// CHECK: %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK: %[[ONE:.*]] = arith.constant 1 : i32
// CHECK: scf.for {{.*}} iter_args(%[[ACC:.*]] = %{{.*}}, %[[INS:.*]] = %[[MINUS_ONE]], %[[EXT:.*]] = %[[MINUS_ONE]])
// CHECK-NEXT: %[[DEPTH:.*]] = arith.constant {loop.cluster = 2 : i32, loop.stage = 0 : i32} 3 : i32
// CHECK-NEXT: %[[INS_P1:.*]] = arith.addi %[[INS]], %[[ONE]] {loop.cluster = 2 : i32, loop.stage = 0 : i32}
// CHECK-NEXT: %[[INS_WRAP:.*]] = arith.cmpi sge, %[[INS_P1]], %[[DEPTH]] {loop.cluster = 2 : i32, loop.stage = 0 : i32}
// CHECK-NEXT: %[[INS_NEXT:.*]] = arith.select %[[INS_WRAP]], %[[ZERO]], %[[INS_P1]] {loop.cluster = 2 : i32, loop.stage = 0 : i32}
// CHECK-NEXT: %[[EXT_P1:.*]] = arith.addi %[[EXT]], %[[ONE]] {loop.cluster = 0 : i32, loop.stage = 2 : i32}
// CHECK-NEXT: %[[EXT_WRAP:.*]] = arith.cmpi sge, %[[EXT_P1]], %[[DEPTH]] {loop.cluster = 0 : i32, loop.stage = 2 : i32}
// CHECK-NEXT: %[[EXT_NEXT:.*]] = arith.select %[[EXT_WRAP]], %[[ZERO]], %[[EXT_P1]] {loop.cluster = 0 : i32, loop.stage = 2 : i32}
// CHECK-NEXT: %[[A_SLOT:.*]] = ttg.memdesc_index %[[A_RING]][%[[INS_NEXT]]] {loop.cluster = 2 : i32, loop.stage = 0 : i32}
// CHECK-NEXT: %[[A_COPY:.*]] = ttg.async_copy_global_to_local %[[A_PTR]], %[[A_SLOT]] mask %[[MASK]] other %[[ZERO_A]] {contiguity = 8 : i32, loop.cluster = 2 : i32, loop.stage = 0 : i32}
// CHECK-NEXT: %[[A_GROUP:.*]] = ttg.async_commit_group tokens %[[A_COPY]] {loop.cluster = 2 : i32, loop.stage = 0 : i32}
// CHECK-NEXT: %[[A_DONE:.*]] = ttg.async_wait %[[A_GROUP]] {loop.cluster = 0 : i32, loop.stage = 2 : i32, num = 0 : i32}
// CHECK-NEXT: %[[A_READ:.*]] = ttg.memdesc_index %[[A_RING]][%[[EXT_NEXT]]] {loop.cluster = 0 : i32, loop.stage = 2 : i32}
// CHECK-NEXT: %[[B_SLOT:.*]] = ttg.memdesc_index %[[B_RING]][%[[INS_NEXT]]] {loop.cluster = 2 : i32, loop.stage = 0 : i32}
// CHECK-NEXT: %[[B_COPY:.*]] = ttg.async_copy_global_to_local %[[B_PTR]], %[[B_SLOT]] {contiguity = 8 : i32, loop.cluster = 2 : i32, loop.stage = 0 : i32}
// CHECK-NEXT: %[[B_GROUP:.*]] = ttg.async_commit_group tokens %[[B_COPY]] {loop.cluster = 2 : i32, loop.stage = 0 : i32}
// CHECK-NEXT: ttg.async_wait %[[B_GROUP]] {loop.cluster = 0 : i32, loop.stage = 2 : i32, num = 0 : i32}
// CHECK-NEXT: %[[B_READ:.*]] = ttg.memdesc_index %[[B_RING]][%[[EXT_NEXT]]] {loop.cluster = 0 : i32, loop.stage = 2 : i32}
// CHECK-NEXT: %[[D:.*]] = ttng.warp_group_dot %[[A_READ]], %[[B_READ]], %[[ACC]] {loop.cluster = 0 : i32, loop.stage = 2 : i32}
// CHECK-NEXT: scf.yield %[[D]], %[[INS_NEXT]], %[[EXT_NEXT]] : tensor<128x128xf32, #mma>, i32, i32
// CHECK-NEXT: } {tt.scheduled_max_stage = 2 : i32}
// CHECK-NEXT: ttg.async_wait {num = 0 : i32}
// CHECK-NEXT: ttg.local_dealloc %[[B_RING]]
// CHECK-NEXT: ttg.local_dealloc %[[A_RING]]
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 128, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @wgmma_operands(%ub: i32,
      %a_ptr: tensor<128x64x!tt.ptr<f16>, #blocked> {tt.contiguity = dense<[1, 64]> : tensor<2xi32>, tt.divisibility = dense<16> : tensor<2xi32>},
      %b_ptr: tensor<64x128x!tt.ptr<f16>, #blocked1> {tt.contiguity = dense<[1, 128]> : tensor<2xi32>, tt.divisibility = dense<16> : tensor<2xi32>},
      %a_mask: tensor<128x64xi1, #blocked> {tt.constancy = dense<[1, 64]> : tensor<2xi32>}) -> tensor<128x128xf32, #mma> {
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<128x64xf16, #blocked>
    %acc_init = arith.constant dense<0.000000e+00> : tensor<128x128xf32, #mma>
    %res = scf.for %i = %c0_i32 to %ub step %c1_i32 iter_args(%acc = %acc_init) -> (tensor<128x128xf32, #mma>)  : i32 {
      %a = tt.load %a_ptr, %a_mask, %zero {loop.cluster = 2 : i32, loop.stage = 0 : i32} : tensor<128x64x!tt.ptr<f16>, #blocked>
      %b = tt.load %b_ptr {loop.cluster = 2 : i32, loop.stage = 0 : i32} : tensor<64x128x!tt.ptr<f16>, #blocked1>
      %a_smem = ttg.local_alloc %a {loop.cluster = 0 : i32, loop.stage = 2 : i32} : (tensor<128x64xf16, #blocked>) -> !ttg.memdesc<128x64xf16, #shared, #smem>
      %b_smem = ttg.local_alloc %b {loop.cluster = 0 : i32, loop.stage = 2 : i32} : (tensor<64x128xf16, #blocked1>) -> !ttg.memdesc<64x128xf16, #shared, #smem>
      %d = ttng.warp_group_dot %a_smem, %b_smem, %acc {loop.cluster = 0 : i32, loop.stage = 2 : i32} : !ttg.memdesc<128x64xf16, #shared, #smem> * !ttg.memdesc<64x128xf16, #shared, #smem> -> tensor<128x128xf32, #mma>
      scf.yield %d : tensor<128x128xf32, #mma>
    } {tt.scheduled_max_stage = 2 : i32}
    tt.return %res : tensor<128x128xf32, #mma>
  }
}

// -----

// cp.async cannot fill in a non-zero `other`: the copy keeps the mask, and the value read
// back from the ring is selected against `other` in registers.
// CHECK-LABEL: tt.func @nonzero_other
// CHECK-SAME: (%{{.*}}: i32, %[[PTR:[^:]+]]: tensor<128x64x!tt.ptr<f16>, #blocked> {{.*}}, %[[MASK:[^:]+]]: tensor<128x64xi1, #blocked> {{.*}}, %[[OUT:[^:]+]]: tensor<128x64x!tt.ptr<f16>, #blocked>)
// CHECK: %[[ONES:.*]] = arith.constant dense<1.000000e+00>
// CHECK: %[[RING:.*]] = ttg.local_alloc : () -> !ttg.memdesc<1x128x64xf16, #shared, #smem, mutable>
// CHECK: scf.for
// CHECK: ttg.async_copy_global_to_local %[[PTR]], %{{.*}} mask %[[MASK]] other %[[ONES]] {contiguity = 8 : i32, loop.cluster = 1 : i32, loop.stage = 0 : i32}
// CHECK: %[[DONE:.*]] = ttg.async_wait %{{.*}} {loop.cluster = 0 : i32, loop.stage = 1 : i32, num = 0 : i32}
// CHECK-NEXT: %[[SLOT:.*]] = ttg.memdesc_index %[[RING]]
// CHECK-NEXT: %[[READ:.*]] = ttg.local_load %[[SLOT]] token %[[DONE]] {loop.cluster = 0 : i32, loop.stage = 1 : i32}
// CHECK-NEXT: %[[X:.*]] = arith.select %[[MASK]], %[[READ]], %[[ONES]] {loop.cluster = 0 : i32, loop.stage = 1 : i32}
// CHECK-NEXT: tt.store %[[OUT]], %[[X]] {loop.cluster = 0 : i32, loop.stage = 1 : i32}
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @nonzero_other(%ub: i32,
      %ptr: tensor<128x64x!tt.ptr<f16>, #blocked> {tt.contiguity = dense<[1, 64]> : tensor<2xi32>, tt.divisibility = dense<16> : tensor<2xi32>},
      %mask: tensor<128x64xi1, #blocked> {tt.constancy = dense<[1, 64]> : tensor<2xi32>},
      %out: tensor<128x64x!tt.ptr<f16>, #blocked>) {
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %ones = arith.constant dense<1.000000e+00> : tensor<128x64xf16, #blocked>
    scf.for %i = %c0_i32 to %ub step %c1_i32  : i32 {
      %x = tt.load %ptr, %mask, %ones {loop.cluster = 1 : i32, loop.stage = 0 : i32} : tensor<128x64x!tt.ptr<f16>, #blocked>
      tt.store %out, %x {loop.cluster = 0 : i32, loop.stage = 1 : i32} : tensor<128x64x!tt.ptr<f16>, #blocked>
    } {tt.scheduled_max_stage = 1 : i32}
    tt.return
  }
}

// -----

// Nothing is known about the pointers' alignment: each thread would copy 2 bytes, below
// cp.async's 4, so the load stays a register load (pipelined in registers by the expander).
// CHECK-LABEL: tt.func @unaligned_load_stays
// CHECK-NOT: ttg.local_alloc
// CHECK: scf.for
// CHECK-NEXT: tt.load %{{.*}} {loop.cluster = 1 : i32, loop.stage = 0 : i32}
// CHECK-NOT: ttg.async_copy_global_to_local
// CHECK: tt.return
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @unaligned_load_stays(%ub: i32, %ptr: tensor<128x64x!tt.ptr<f16>, #blocked>, %out: tensor<128x64x!tt.ptr<f16>, #blocked>) {
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    scf.for %i = %c0_i32 to %ub step %c1_i32  : i32 {
      %x = tt.load %ptr {loop.cluster = 1 : i32, loop.stage = 0 : i32} : tensor<128x64x!tt.ptr<f16>, #blocked>
      tt.store %out, %x {loop.cluster = 0 : i32, loop.stage = 2 : i32} : tensor<128x64x!tt.ptr<f16>, #blocked>
    } {tt.scheduled_max_stage = 2 : i32}
    tt.return
  }
}

// -----

// A 32-bit scalar load is copied as a tensor<1xi32>: its pointer is splatted at the load's
// stage, and the value read back is unsplatted at its use.
// CHECK-LABEL: tt.func @scalar_load
// CHECK-SAME: (%{{.*}}: i32, %[[PTR:[^:]+]]: !tt.ptr<i32>, %[[OUT:[^:]+]]: !tt.ptr<i32>)
// CHECK: %[[RING:.*]] = ttg.local_alloc : () -> !ttg.memdesc<1x1xi32, #shared, #smem, mutable>
// CHECK: scf.for
// CHECK: %[[PTRS:.*]] = tt.splat %[[PTR]] {loop.cluster = 1 : i32, loop.stage = 0 : i32} : !tt.ptr<i32> -> tensor<1x!tt.ptr<i32>, #blocked>
// CHECK-NEXT: %[[SLOT:.*]] = ttg.memdesc_index %[[RING]]
// CHECK-NEXT: ttg.async_copy_global_to_local %[[PTRS]], %[[SLOT]] {loop.cluster = 1 : i32, loop.stage = 0 : i32}
// CHECK: %[[READ:.*]] = ttg.local_load %{{.*}} token %{{.*}} {loop.cluster = 0 : i32, loop.stage = 1 : i32} : !ttg.memdesc<1xi32, #shared, #smem, mutable> -> tensor<1xi32, #blocked>
// CHECK-NEXT: %[[X:.*]] = tt.unsplat %[[READ]] {loop.cluster = 0 : i32, loop.stage = 1 : i32}
// CHECK-NEXT: tt.store %[[OUT]], %[[X]] {loop.cluster = 0 : i32, loop.stage = 1 : i32}
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @scalar_load(%ub: i32, %ptr: !tt.ptr<i32>, %out: !tt.ptr<i32>) {
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    scf.for %i = %c0_i32 to %ub step %c1_i32  : i32 {
      %x = tt.load %ptr {loop.cluster = 1 : i32, loop.stage = 0 : i32} : !tt.ptr<i32>
      tt.store %out, %x {loop.cluster = 0 : i32, loop.stage = 1 : i32} : !tt.ptr<i32>
    } {tt.scheduled_max_stage = 1 : i32}
    tt.return
  }
}
