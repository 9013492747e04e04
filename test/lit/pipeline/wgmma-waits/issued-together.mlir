// Seed 001, case 2: wgmma ops issued together in one loop body, before any of their results is
// read, share one flush: a single `warp_group_dot_wait {pendings = 0}` after the last of them
// completes every group issued before it. Triton 3.6 emits a wait after each dot, which makes
// the first complete before the second issues; ttpipe merges the two (wgmma.py,
// `merge_wgmma_flushes`) and keeps both when something between could touch the first dot's
// operands.
// RUN: ttpipe-opt %s --split-input-file -p ttpipe-pipeline | filecheck %s

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.target" = "cuda:90", "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  // One wait after both dots forwards both results and all four shared operands.
  // CHECK-LABEL: tt.func @issued_together(
  // CHECK: scf.for
  // CHECK-NOT: ttng.warp_group_dot_wait
  // CHECK: %[[D1:.+]] = ttng.warp_group_dot %[[A1:[^,]+]], %[[B1:[^,]+]], {{.*}}{isAsync = true}
  // CHECK-NEXT: %[[D2:.+]] = ttng.warp_group_dot %[[A2:[^,]+]], %[[B2:[^,]+]], {{.*}}{isAsync = true}
  // CHECK-NEXT: %[[W:.+]]:6 = ttng.warp_group_dot_wait %[[D1]], %[[A1]], %[[B1]], %[[D2]], %[[A2]], %[[B2]] {pendings = 0 : i32}
  // CHECK-NEXT: arith.maximumf %[[W]]#0
  // CHECK-NEXT: arith.maximumf %[[W]]#3
  // CHECK-NOT: ttng.warp_group_dot_wait
  // CHECK: tt.return
  tt.func @issued_together(%ta1: tensor<128x64xf16, #blocked>, %tb1: tensor<64x64xf16, #blocked>,
                           %ta2: tensor<128x64xf16, #blocked>, %tb2: tensor<64x64xf16, #blocked>,
                           %n: i32) -> tensor<128x64xf32, #mma> {
    %a1 = ttg.local_alloc %ta1 : (tensor<128x64xf16, #blocked>) -> !ttg.memdesc<128x64xf16, #shared, #smem>
    %b1 = ttg.local_alloc %tb1 : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #shared, #smem>
    %a2 = ttg.local_alloc %ta2 : (tensor<128x64xf16, #blocked>) -> !ttg.memdesc<128x64xf16, #shared, #smem>
    %b2 = ttg.local_alloc %tb2 : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #shared, #smem>
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.0> : tensor<128x64xf32, #mma>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<128x64xf32, #mma>) : i32 {
      %d1 = ttng.warp_group_dot %a1, %b1, %zero : !ttg.memdesc<128x64xf16, #shared, #smem> * !ttg.memdesc<64x64xf16, #shared, #smem> -> tensor<128x64xf32, #mma>
      %d2 = ttng.warp_group_dot %a2, %b2, %zero : !ttg.memdesc<128x64xf16, #shared, #smem> * !ttg.memdesc<64x64xf16, #shared, #smem> -> tensor<128x64xf32, #mma>
      %r1 = arith.maximumf %d1, %zero : tensor<128x64xf32, #mma>
      %r2 = arith.maximumf %d2, %zero : tensor<128x64xf32, #mma>
      %s = arith.addf %r1, %r2 : tensor<128x64xf32, #mma>
      %next = arith.addf %acc, %s : tensor<128x64xf32, #mma>
      scf.yield %next : tensor<128x64xf32, #mma>
    }
    tt.return %r : tensor<128x64xf32, #mma>
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.target" = "cuda:90", "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  // A store to shared memory between the dots could overwrite what the first one reads: its
  // flush stays where Triton puts it, and the second dot gets its own.
  // CHECK-LABEL: tt.func @store_between(
  // CHECK: %[[D1:.+]] = ttng.warp_group_dot
  // CHECK-NEXT: ttng.warp_group_dot_wait %[[D1]], {{.*}} {pendings = 0 : i32}
  // CHECK-NEXT: ttg.local_store
  // CHECK-NEXT: %[[D2:.+]] = ttng.warp_group_dot
  // CHECK-NEXT: ttng.warp_group_dot_wait %[[D2]], {{.*}} {pendings = 0 : i32}
  // CHECK-NOT: ttng.warp_group_dot_wait
  // CHECK: tt.return
  tt.func @store_between(%ta1: tensor<128x64xf16, #blocked>, %tb1: tensor<64x64xf16, #blocked>,
                         %n: i32) -> tensor<128x64xf32, #mma> {
    %a1 = ttg.local_alloc : () -> !ttg.memdesc<128x64xf16, #shared, #smem, mutable>
    %b1 = ttg.local_alloc %tb1 : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #shared, #smem>
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.0> : tensor<128x64xf32, #mma>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<128x64xf32, #mma>) : i32 {
      %d1 = ttng.warp_group_dot %a1, %b1, %zero : !ttg.memdesc<128x64xf16, #shared, #smem, mutable> * !ttg.memdesc<64x64xf16, #shared, #smem> -> tensor<128x64xf32, #mma>
      ttg.local_store %ta1, %a1 : tensor<128x64xf16, #blocked> -> !ttg.memdesc<128x64xf16, #shared, #smem, mutable>
      %d2 = ttng.warp_group_dot %a1, %b1, %zero : !ttg.memdesc<128x64xf16, #shared, #smem, mutable> * !ttg.memdesc<64x64xf16, #shared, #smem> -> tensor<128x64xf32, #mma>
      %s = arith.addf %d1, %d2 : tensor<128x64xf32, #mma>
      %next = arith.addf %acc, %s : tensor<128x64xf32, #mma>
      scf.yield %next : tensor<128x64xf32, #mma>
    }
    tt.return %r : tensor<128x64xf32, #mma>
  }
}
