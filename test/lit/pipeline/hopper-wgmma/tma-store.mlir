// TMA stores in a loop become asynchronous: the tile is written to a shared buffer and copied
// out by the TMA engine while the loop goes on.
// RUN: ttpipe-opt %s --split-input-file -p 'ttpipe-assign-latencies,ttpipe-schedule-loops,ttpipe-pipeline' | filecheck %s

#blk = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 32}>
module attributes {"ttg.target" = "cuda:90", "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  // A store and a reduction of the same tile shape share one buffer, allocated before the
  // loop. Before each writes the buffer it waits for the previous TMA store to have read it,
  // and fences the shared-memory writes before the TMA reads them. After the loop, one wait
  // drains the last store.
  // CHECK-LABEL: tt.func @store_and_reduce
  // CHECK-SAME: (%{{[^:]+}}: i32{{.*}}, %[[TILE:[^:]+]]: tensor<64x32xf32{{.*}}, %[[OUT:[^:]+]]: !tt.tensordesc<{{.*}}, %[[SUM:[^:]+]]: !tt.tensordesc<
  // CHECK: %[[BUF:.+]] = ttg.local_alloc : () -> !ttg.memdesc<64x32xf32, #{{[^,]+}}, #smem, mutable>
  // CHECK-NOT: ttg.local_alloc
  // CHECK: scf.for %[[ROW:[^ ]+]] =
  // CHECK: ttng.async_tma_store_wait {pendings = 0 : i32}
  // CHECK-NEXT: ttg.local_store %[[TILE]], %[[BUF]]
  // CHECK-NEXT: ttng.fence_async_shared {bCluster = false}
  // CHECK-NEXT: ttng.async_tma_copy_local_to_global %[[OUT]][%[[ROW]], %{{.+}}] %[[BUF]]
  // CHECK-NEXT: ttng.async_tma_store_wait {pendings = 0 : i32}
  // CHECK-NEXT: ttg.local_store %[[TILE]], %[[BUF]]
  // CHECK-NEXT: ttng.fence_async_shared {bCluster = false}
  // CHECK-NEXT: ttng.async_tma_reduce add, %[[SUM]][%{{.+}}, %{{.+}}] %[[BUF]]
  // CHECK: }
  // CHECK-NEXT: ttng.async_tma_store_wait {pendings = 0 : i32}
  // CHECK: ttg.local_dealloc %[[BUF]]
  // CHECK-NOT: tt.descriptor_store
  // CHECK: tt.return
  tt.func @store_and_reduce(%n: i32, %tile: tensor<64x32xf32, #blk>, %out: !tt.tensordesc<tensor<64x32xf32, #shared>>, %sum: !tt.tensordesc<tensor<64x32xf32, #shared>>) {
    %c0 = arith.constant 0 : i32
    %c64 = arith.constant 64 : i32
    scf.for %row = %c0 to %n step %c64 : i32 {
      tt.descriptor_store %out[%row, %c0], %tile : !tt.tensordesc<tensor<64x32xf32, #shared>>, tensor<64x32xf32, #blk>
      tt.descriptor_reduce add, %sum[%c0, %c0], %tile : !tt.tensordesc<tensor<64x32xf32, #shared>>, tensor<64x32xf32, #blk>
    }
    tt.return
  }
}

// -----

#blk = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 32}>
module attributes {"ttg.target" = "cuda:90", "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  // A descriptor made in the loop: a TMA store may still be reading the previous one, so the
  // descriptors go to a ring of two 128-byte slots of global scratch (256 bytes), written
  // with tensormap_create and fenced before use; the slot index is carried by the loop.
  // CHECK-LABEL: tt.func @descriptor_made_in_loop
  // CHECK: %[[BUF:.+]] = ttg.local_alloc : () -> !ttg.memdesc<64x32xf32
  // CHECK: %[[SCRATCH:.+]] = ttg.global_scratch_alloc {alignment = 128 : i32, nbytes = 256 : i32} : !tt.ptr<i8>
  // CHECK: scf.for {{.*}} iter_args(%[[SLOT:[^ ]+]] = %{{.+}}) -> (i32)
  // CHECK: %[[OFFSET:.+]] = arith.muli %{{.+}}, %[[SLOT]] : i32
  // CHECK: %[[PLACE:.+]] = tt.addptr %[[SCRATCH]], %[[OFFSET]]
  // CHECK: ttng.tensormap_create %[[PLACE]],
  // CHECK: ttng.tensormap_fenceproxy_acquire %[[PLACE]]
  // CHECK: %[[DESC:.+]] = ttng.reinterpret_tensor_descriptor %[[PLACE]]
  // CHECK: ttng.async_tma_store_wait {pendings = 0 : i32}
  // CHECK: ttng.async_tma_copy_local_to_global %[[DESC]][{{.*}}] %[[BUF]]
  // CHECK-NOT: tt.make_tensor_descriptor
  // CHECK: scf.yield
  // CHECK: ttng.async_tma_store_wait {pendings = 0 : i32}
  tt.func @descriptor_made_in_loop(%n: i32, %tile: tensor<64x32xf32, #blk>, %base: !tt.ptr<f32> {tt.divisibility = 16 : i32}) {
    %c0 = arith.constant 0 : i32
    %c64 = arith.constant 64 : i32
    %c32 = arith.constant 32 : i32
    %c1_i64 = arith.constant 1 : i64
    %c32_i64 = arith.constant 32 : i64
    scf.for %row = %c0 to %n step %c64 : i32 {
      %d = tt.make_tensor_descriptor %base, [%n, %c32], [%c32_i64, %c1_i64] : <f32>, <tensor<64x32xf32, #shared>>
      tt.descriptor_store %d[%row, %c0], %tile : !tt.tensordesc<tensor<64x32xf32, #shared>>, tensor<64x32xf32, #blk>
    }
    tt.return
  }
}
