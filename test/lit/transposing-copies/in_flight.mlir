// RUN: ttpipe-opt %s -p ttpipe-transposing-copies | filecheck %s
// RUN: ttpipe-opt %s -p ttpipe-transposing-copies --remarks 2>&1 >/dev/null | filecheck %s --check-prefix=REMARK

// The pipelined K loop of a tf32 GEMM with a row-major B, as Triton's pipeliner leaves it: B's
// stage copied K-major each iteration (an immutable local_alloc), the wgmma flushed right
// after it. The copy gets two slots, iteration j writing slot j mod 2, and the wgmma stays in
// flight: `pendings = 1` in the loop, one flush after it.

#rows = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerCTA = [8, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [8, 1], instrShape = [16, 128, 8]}>
#nvmma_n = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 32}>
#nvmma_k = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 32}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @k_loop
  // CHECK: %[[SLOTS:[^ ]+]] = ttg.local_alloc : () -> !ttg.memdesc<2x32x128xf32, #[[K:[a-z0-9]+]], #smem, mutable>
  // CHECK-NEXT: %[[ACC:[^ ]+]] = scf.for %[[I:[^ ]+]] = %{{.+}} to %{{.+}} step %{{.+}} iter_args
  // CHECK: %[[B:[^ ]+]] = ttg.local_load
  // (the iteration is the induction variable itself: the loop counts from 0 by 1)
  // CHECK-NEXT: %[[TWO:[^ ]+]] = arith.constant 2 : i32
  // CHECK-NEXT: %[[INDEX:[^ ]+]] = arith.remsi %[[I]], %[[TWO]] : i32
  // CHECK-NEXT: %[[SLOT:[^ ]+]] = ttg.memdesc_index %[[SLOTS]][%[[INDEX]]] : !ttg.memdesc<2x32x128xf32, #[[K]], #smem, mutable> -> !ttg.memdesc<32x128xf32, #[[K]], #smem, mutable>
  // CHECK-NEXT: ttg.local_store %[[B]], %[[SLOT]]
  // CHECK-NEXT: ttng.fence_async_shared
  // CHECK-NEXT: %[[D:[^ ]+]] = ttng.warp_group_dot %{{.+}}, %[[SLOT]], %{{.+}} {inputPrecision = 0 : i32, isAsync = true}
  // CHECK-NEXT: %[[W:[^ ]+]]:3 = ttng.warp_group_dot_wait %[[D]], %{{.+}}, %[[SLOT]] {pendings = 1 : i32}
  // CHECK-NEXT: scf.yield %[[W]]#0
  // CHECK: %[[FLUSHED:[^ ]+]] = ttng.warp_group_dot_wait %[[ACC]] {pendings = 0 : i32}
  // CHECK-NEXT: ttg.local_dealloc %[[SLOTS]]
  // CHECK-NEXT: tt.return %[[FLUSHED]]
  // REMARK: [[# @LINE + 10]]:12: remark: transposing copy: registers laid out for both shared layouts (sizePerThread [4, 1], threadsPerWarp [1, 32]); 2 slots, its wgmma in flight across iterations
  tt.func @k_loop(%n: i32) -> tensor<128x128xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<128x128xf32, #mma>
    %a_ring = ttg.local_alloc : () -> !ttg.memdesc<3x128x32xf32, #nvmma_n, #smem, mutable>
    %b_ring = ttg.local_alloc : () -> !ttg.memdesc<3x32x128xf32, #nvmma_n, #smem, mutable>
    %acc = scf.for %i = %c0 to %n step %c1 iter_args(%c = %zero) -> (tensor<128x128xf32, #mma>)  : i32 {
      %a = ttg.memdesc_index %a_ring[%i] : !ttg.memdesc<3x128x32xf32, #nvmma_n, #smem, mutable> -> !ttg.memdesc<128x32xf32, #nvmma_n, #smem, mutable>
      %stage = ttg.memdesc_index %b_ring[%i] : !ttg.memdesc<3x32x128xf32, #nvmma_n, #smem, mutable> -> !ttg.memdesc<32x128xf32, #nvmma_n, #smem, mutable>
      %b = ttg.local_load %stage : !ttg.memdesc<32x128xf32, #nvmma_n, #smem, mutable> -> tensor<32x128xf32, #rows>
      %k = ttg.local_alloc %b : (tensor<32x128xf32, #rows>) -> !ttg.memdesc<32x128xf32, #nvmma_k, #smem>
      ttng.fence_async_shared {bCluster = false}
      %d = ttng.warp_group_dot %a, %k, %c {inputPrecision = 0 : i32, isAsync = true} : !ttg.memdesc<128x32xf32, #nvmma_n, #smem, mutable> * !ttg.memdesc<32x128xf32, #nvmma_k, #smem> -> tensor<128x128xf32, #mma>
      %w:3 = ttng.warp_group_dot_wait %d, %a, %k {pendings = 0 : i32} : tensor<128x128xf32, #mma>, !ttg.memdesc<128x32xf32, #nvmma_n, #smem, mutable>, !ttg.memdesc<32x128xf32, #nvmma_k, #smem>
      scf.yield %w#0 : tensor<128x128xf32, #mma>
    }
    tt.return %acc : tensor<128x128xf32, #mma>
  }

  // The accumulator read in the loop (a running sum of it): the wgmma cannot stay in flight,
  // and the copy keeps its one buffer and the loop its flush.
  // CHECK-LABEL: tt.func @accumulator_read_in_loop
  // CHECK-NOT: ttg.local_store
  // CHECK: ttg.local_alloc %{{.+}} : (tensor<32x128xf32
  // CHECK: ttng.warp_group_dot_wait %{{.+}} {pendings = 0 : i32}
  // CHECK-NEXT: arith.addf
  // REMARK: [[# @LINE + 10]]:12: remark: transposing copy: registers laid out for both shared layouts (sizePerThread [4, 1], threadsPerWarp [1, 32])
  tt.func @accumulator_read_in_loop(%n: i32) -> tensor<128x128xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<128x128xf32, #mma>
    %a_ring = ttg.local_alloc : () -> !ttg.memdesc<3x128x32xf32, #nvmma_n, #smem, mutable>
    %b_ring = ttg.local_alloc : () -> !ttg.memdesc<2x32x128xf32, #nvmma_n, #smem, mutable>
    %acc:2 = scf.for %i = %c0 to %n step %c1 iter_args(%c = %zero, %sum = %zero) -> (tensor<128x128xf32, #mma>, tensor<128x128xf32, #mma>)  : i32 {
      %a = ttg.memdesc_index %a_ring[%i] : !ttg.memdesc<3x128x32xf32, #nvmma_n, #smem, mutable> -> !ttg.memdesc<128x32xf32, #nvmma_n, #smem, mutable>
      %stage = ttg.memdesc_index %b_ring[%i] : !ttg.memdesc<2x32x128xf32, #nvmma_n, #smem, mutable> -> !ttg.memdesc<32x128xf32, #nvmma_n, #smem, mutable>
      %b = ttg.local_load %stage : !ttg.memdesc<32x128xf32, #nvmma_n, #smem, mutable> -> tensor<32x128xf32, #rows>
      %k = ttg.local_alloc %b : (tensor<32x128xf32, #rows>) -> !ttg.memdesc<32x128xf32, #nvmma_k, #smem>
      ttng.fence_async_shared {bCluster = false}
      %d = ttng.warp_group_dot %a, %k, %c {inputPrecision = 0 : i32, isAsync = true} : !ttg.memdesc<128x32xf32, #nvmma_n, #smem, mutable> * !ttg.memdesc<32x128xf32, #nvmma_k, #smem> -> tensor<128x128xf32, #mma>
      %w:3 = ttng.warp_group_dot_wait %d, %a, %k {pendings = 0 : i32} : tensor<128x128xf32, #mma>, !ttg.memdesc<128x32xf32, #nvmma_n, #smem, mutable>, !ttg.memdesc<32x128xf32, #nvmma_k, #smem>
      %s = arith.addf %sum, %w#0 : tensor<128x128xf32, #mma>
      scf.yield %w#0, %s : tensor<128x128xf32, #mma>, tensor<128x128xf32, #mma>
    }
    tt.return %acc#1 : tensor<128x128xf32, #mma>
  }
}
// REMARK-NOT: remark
