// Loops the pass leaves as they were, each with a remark saying why.
// RUN: ttpipe-opt %s --split-input-file --verify-diagnostics -p ttpipe-warp-specialize
// RUN: ttpipe-opt %s --split-input-file -p ttpipe-warp-specialize 2>/dev/null | filecheck %s
// CHECK-NOT: ttng.init_barrier

// A pointer load that is no TMA box (here a scalar load) keeps the loop as it was.
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @pointer_load(%d: !tt.tensordesc<tensor<64x64xf16, #shared>>, %n: i32, %ptr: !tt.ptr<f32>) -> tensor<64x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma>
    // expected-remark @below {{loop not warp-specialized: a pointer load TMA cannot perform: a scalar load}}
    %acc = scf.for %k = %c0 to %n step %c1 iter_args(%c = %zero) -> (tensor<64x64xf32, #mma>) : i32 {
      %a = tt.descriptor_load %d[%c0, %k] : !tt.tensordesc<tensor<64x64xf16, #shared>> -> tensor<64x64xf16, #blocked>
      %as = ttg.local_alloc %a : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #shared, #smem>
      %p = tt.addptr %ptr, %k : !tt.ptr<f32>, i32
      %v = tt.load %p : !tt.ptr<f32>
      %b = tt.descriptor_load %d[%c0, %k] : !tt.tensordesc<tensor<64x64xf16, #shared>> -> tensor<64x64xf16, #blocked>
      %bs = ttg.local_alloc %b : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #shared, #smem>
      %r = ttng.warp_group_dot %as, %bs, %c {inputPrecision = 0 : i32} : !ttg.memdesc<64x64xf16, #shared, #smem> * !ttg.memdesc<64x64xf16, #shared, #smem> -> tensor<64x64xf32, #mma>
      scf.yield %r : tensor<64x64xf32, #mma>
    } {tt.warp_specialize}
    tt.return %acc : tensor<64x64xf32, #mma>
  }
}

// -----

// A store in the body is a side effect the partitions cannot split.
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @store(%d: !tt.tensordesc<tensor<64x64xf16, #shared>>, %n: i32, %ptr: !tt.ptr<i32>) -> tensor<64x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma>
    // expected-remark @below {{loop not warp-specialized: 'tt.store' has side effects}}
    %acc = scf.for %k = %c0 to %n step %c1 iter_args(%c = %zero) -> (tensor<64x64xf32, #mma>) : i32 {
      %a = tt.descriptor_load %d[%c0, %k] : !tt.tensordesc<tensor<64x64xf16, #shared>> -> tensor<64x64xf16, #blocked>
      %as = ttg.local_alloc %a : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #shared, #smem>
      %b = tt.descriptor_load %d[%c0, %k] : !tt.tensordesc<tensor<64x64xf16, #shared>> -> tensor<64x64xf16, #blocked>
      %bs = ttg.local_alloc %b : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #shared, #smem>
      %r = ttng.warp_group_dot %as, %bs, %c {inputPrecision = 0 : i32} : !ttg.memdesc<64x64xf16, #shared, #smem> * !ttg.memdesc<64x64xf16, #shared, #smem> -> tensor<64x64xf32, #mma>
      %p = tt.addptr %ptr, %k : !tt.ptr<i32>, i32
      tt.store %p, %k : !tt.ptr<i32>
      scf.yield %r : tensor<64x64xf32, #mma>
    } {tt.warp_specialize}
    tt.return %acc : tensor<64x64xf32, #mma>
  }
}

// -----

// A nested loop (persistent kernels come later).
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @nested(%d: !tt.tensordesc<tensor<64x64xf16, #shared>>, %n: i32) -> tensor<64x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma>
    // expected-remark @below {{loop not warp-specialized: 'scf.for' in the body (nested loops and control flow are a later round)}}
    %acc = scf.for %k = %c0 to %n step %c1 iter_args(%c = %zero) -> (tensor<64x64xf32, #mma>) : i32 {
      %a = tt.descriptor_load %d[%c0, %k] : !tt.tensordesc<tensor<64x64xf16, #shared>> -> tensor<64x64xf16, #blocked>
      %as = ttg.local_alloc %a : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #shared, #smem>
      %b = tt.descriptor_load %d[%c0, %k] : !tt.tensordesc<tensor<64x64xf16, #shared>> -> tensor<64x64xf16, #blocked>
      %bs = ttg.local_alloc %b : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #shared, #smem>
      %r = ttng.warp_group_dot %as, %bs, %c {inputPrecision = 0 : i32} : !ttg.memdesc<64x64xf16, #shared, #smem> * !ttg.memdesc<64x64xf16, #shared, #smem> -> tensor<64x64xf32, #mma>
      scf.for %j = %c0 to %n step %c1 : i32 {
      }
      scf.yield %r : tensor<64x64xf32, #mma>
    } {tt.warp_specialize}
    tt.return %acc : tensor<64x64xf32, #mma>
  }
}

// -----

// A second tensor carried across iterations is not an accumulator.
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @carried_tensor(%d: !tt.tensordesc<tensor<64x64xf16, #shared>>, %n: i32) -> tensor<64x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma>
    // expected-remark @below {{loop not warp-specialized: iteration argument 1 is neither a wgmma accumulator nor an induction-derived scalar}}
    %acc:2 = scf.for %k = %c0 to %n step %c1 iter_args(%c = %zero, %e = %zero) -> (tensor<64x64xf32, #mma>, tensor<64x64xf32, #mma>) : i32 {
      %a = tt.descriptor_load %d[%c0, %k] : !tt.tensordesc<tensor<64x64xf16, #shared>> -> tensor<64x64xf16, #blocked>
      %as = ttg.local_alloc %a : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #shared, #smem>
      %b = tt.descriptor_load %d[%c0, %k] : !tt.tensordesc<tensor<64x64xf16, #shared>> -> tensor<64x64xf16, #blocked>
      %bs = ttg.local_alloc %b : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #shared, #smem>
      %r = ttng.warp_group_dot %as, %bs, %c {inputPrecision = 0 : i32} : !ttg.memdesc<64x64xf16, #shared, #smem> * !ttg.memdesc<64x64xf16, #shared, #smem> -> tensor<64x64xf32, #mma>
      scf.yield %r, %e : tensor<64x64xf32, #mma>, tensor<64x64xf32, #mma>
    } {tt.warp_specialize}
    tt.return %acc#0 : tensor<64x64xf32, #mma>
  }
}

// -----

// One stage cannot work: the consumer releases a stage an iteration late.
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @one_stage(%d: !tt.tensordesc<tensor<64x64xf16, #shared>>, %n: i32) -> tensor<64x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma>
    // expected-remark @below {{loop not warp-specialized: num_stages is 1; the ring needs at least 2 stages}}
    %acc = scf.for %k = %c0 to %n step %c1 iter_args(%c = %zero) -> (tensor<64x64xf32, #mma>) : i32 {
      %a = tt.descriptor_load %d[%c0, %k] : !tt.tensordesc<tensor<64x64xf16, #shared>> -> tensor<64x64xf16, #blocked>
      %as = ttg.local_alloc %a : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #shared, #smem>
      %b = tt.descriptor_load %d[%c0, %k] : !tt.tensordesc<tensor<64x64xf16, #shared>> -> tensor<64x64xf16, #blocked>
      %bs = ttg.local_alloc %b : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #shared, #smem>
      %r = ttng.warp_group_dot %as, %bs, %c {inputPrecision = 0 : i32} : !ttg.memdesc<64x64xf16, #shared, #smem> * !ttg.memdesc<64x64xf16, #shared, #smem> -> tensor<64x64xf32, #mma>
      scf.yield %r : tensor<64x64xf32, #mma>
    } {tt.warp_specialize, tt.num_stages = 1 : i32}
    tt.return %acc : tensor<64x64xf32, #mma>
  }
}

// -----

// A stage of 128 KiB (A 128x256 and B 256x128 in f16): not even a 2-stage ring fits.
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 128, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @stage_too_large(%da: !tt.tensordesc<tensor<128x256xf16, #shared>>, %db: !tt.tensordesc<tensor<256x128xf16, #shared>>, %n: i32) -> tensor<128x128xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<128x128xf32, #mma>
    // expected-remark @below {{loop not warp-specialized: a ring of 2 stages of 131072 bytes needs 262176 bytes of shared memory, more than the 232448 of sm_90}}
    %acc = scf.for %k = %c0 to %n step %c1 iter_args(%c = %zero) -> (tensor<128x128xf32, #mma>) : i32 {
      %a = tt.descriptor_load %da[%c0, %k] : !tt.tensordesc<tensor<128x256xf16, #shared>> -> tensor<128x256xf16, #blocked>
      %as = ttg.local_alloc %a : (tensor<128x256xf16, #blocked>) -> !ttg.memdesc<128x256xf16, #shared, #smem>
      %b = tt.descriptor_load %db[%k, %c0] : !tt.tensordesc<tensor<256x128xf16, #shared>> -> tensor<256x128xf16, #blocked>
      %bs = ttg.local_alloc %b : (tensor<256x128xf16, #blocked>) -> !ttg.memdesc<256x128xf16, #shared, #smem>
      %r = ttng.warp_group_dot %as, %bs, %c {inputPrecision = 0 : i32} : !ttg.memdesc<128x256xf16, #shared, #smem> * !ttg.memdesc<256x128xf16, #shared, #smem> -> tensor<128x128xf32, #mma>
      scf.yield %r : tensor<128x128xf32, #mma>
    } {tt.warp_specialize, tt.num_stages = 3 : i32}
    tt.return %acc : tensor<128x128xf32, #mma>
  }
}

// -----

// Eight warps make two cooperative consumer warpgroups splitting M; a 64-row tile has no
// 64-row half for each (wgmma's M per warpgroup is 64).
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @eight_warps(%d: !tt.tensordesc<tensor<64x64xf16, #shared>>, %n: i32) -> tensor<64x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma>
    // expected-remark @below {{loop not warp-specialized: the tile's M (64) does not split into 2 warpgroups of a multiple of 64 rows}}
    %acc = scf.for %k = %c0 to %n step %c1 iter_args(%c = %zero) -> (tensor<64x64xf32, #mma>) : i32 {
      %a = tt.descriptor_load %d[%c0, %k] : !tt.tensordesc<tensor<64x64xf16, #shared>> -> tensor<64x64xf16, #blocked>
      %as = ttg.local_alloc %a : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #shared, #smem>
      %b = tt.descriptor_load %d[%c0, %k] : !tt.tensordesc<tensor<64x64xf16, #shared>> -> tensor<64x64xf16, #blocked>
      %bs = ttg.local_alloc %b : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #shared, #smem>
      %r = ttng.warp_group_dot %as, %bs, %c {inputPrecision = 0 : i32} : !ttg.memdesc<64x64xf16, #shared, #smem> * !ttg.memdesc<64x64xf16, #shared, #smem> -> tensor<64x64xf32, #mma>
      scf.yield %r : tensor<64x64xf32, #mma>
    } {tt.warp_specialize}
    tt.return %acc : tensor<64x64xf32, #mma>
  }
}

// -----

// IR that is already warp-specialized is left alone.
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @already(%d: !tt.tensordesc<tensor<64x64xf16, #shared>>, %n: i32) -> tensor<64x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma>
    ttg.warp_specialize()
    default {
      ttg.warp_yield
    }
    partition0() num_warps(1) {
      ttg.warp_return
    } : () -> ()
    // expected-remark @below {{loop not warp-specialized: the function is already warp-specialized (it holds a ttg.warp_specialize)}}
    %acc = scf.for %k = %c0 to %n step %c1 iter_args(%c = %zero) -> (tensor<64x64xf32, #mma>) : i32 {
      %a = tt.descriptor_load %d[%c0, %k] : !tt.tensordesc<tensor<64x64xf16, #shared>> -> tensor<64x64xf16, #blocked>
      %as = ttg.local_alloc %a : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #shared, #smem>
      %b = tt.descriptor_load %d[%c0, %k] : !tt.tensordesc<tensor<64x64xf16, #shared>> -> tensor<64x64xf16, #blocked>
      %bs = ttg.local_alloc %b : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #shared, #smem>
      %r = ttng.warp_group_dot %as, %bs, %c {inputPrecision = 0 : i32} : !ttg.memdesc<64x64xf16, #shared, #smem> * !ttg.memdesc<64x64xf16, #shared, #smem> -> tensor<64x64xf32, #mma>
      scf.yield %r : tensor<64x64xf32, #mma>
    } {tt.warp_specialize}
    tt.return %acc : tensor<64x64xf32, #mma>
  }
}

// -----

// The loaded tile is read other than by a wgmma.
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @tile_in_registers(%d: !tt.tensordesc<tensor<64x64xf16, #shared>>, %n: i32) -> tensor<64x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma>
    // expected-remark @below {{loop not warp-specialized: a TMA load whose value is used other than by one ttg.local_alloc}}
    %acc = scf.for %k = %c0 to %n step %c1 iter_args(%c = %zero) -> (tensor<64x64xf32, #mma>) : i32 {
      %a = tt.descriptor_load %d[%c0, %k] : !tt.tensordesc<tensor<64x64xf16, #shared>> -> tensor<64x64xf16, #blocked>
      %as = ttg.local_alloc %a : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #shared, #smem>
      %b = tt.descriptor_load %d[%c0, %k] : !tt.tensordesc<tensor<64x64xf16, #shared>> -> tensor<64x64xf16, #blocked>
      %bs = ttg.local_alloc %b : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #shared, #smem>
      %bx = arith.addf %b, %b : tensor<64x64xf16, #blocked>
      %r = ttng.warp_group_dot %as, %bs, %c {inputPrecision = 0 : i32} : !ttg.memdesc<64x64xf16, #shared, #smem> * !ttg.memdesc<64x64xf16, #shared, #smem> -> tensor<64x64xf32, #mma>
      scf.yield %r : tensor<64x64xf32, #mma>
    } {tt.warp_specialize}
    tt.return %acc : tensor<64x64xf32, #mma>
  }
}

// -----

// Cooperative warpgroups (8 warps) store the epilogue from their own regions: a function
// returning the accumulator has no epilogue to split.
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [8, 1], instrShape = [16, 128, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @coop_returns(%d: !tt.tensordesc<tensor<128x128xf16, #shared>>, %n: i32, %p: !tt.ptr<f32>) -> tensor<128x128xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<128x128xf32, #mma>
    // expected-remark @below {{loop not warp-specialized: the function returns values; the epilogue must end in a bare tt.return}}
    %acc = scf.for %k = %c0 to %n step %c1 iter_args(%c = %zero) -> (tensor<128x128xf32, #mma>) : i32 {
      %a = tt.descriptor_load %d[%c0, %k] : !tt.tensordesc<tensor<128x128xf16, #shared>> -> tensor<128x128xf16, #blocked>
      %as = ttg.local_alloc %a : (tensor<128x128xf16, #blocked>) -> !ttg.memdesc<128x128xf16, #shared, #smem>
      %b = tt.descriptor_load %d[%c0, %k] : !tt.tensordesc<tensor<128x128xf16, #shared>> -> tensor<128x128xf16, #blocked>
      %bs = ttg.local_alloc %b : (tensor<128x128xf16, #blocked>) -> !ttg.memdesc<128x128xf16, #shared, #smem>
      %r = ttng.warp_group_dot %as, %bs, %c {inputPrecision = 0 : i32} : !ttg.memdesc<128x128xf16, #shared, #smem> * !ttg.memdesc<128x128xf16, #shared, #smem> -> tensor<128x128xf32, #mma>
      scf.yield %r : tensor<128x128xf32, #mma>
    } {tt.warp_specialize}
    tt.return %acc : tensor<128x128xf32, #mma>
  }
}

// -----

// A reshape that merges the accumulator's M and N into one dim leaves no M axis to split
// the epilogue along.
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], order = [1, 0]}>
#flat = #ttg.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [8], order = [0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [8, 1], instrShape = [16, 128, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @coop_flatten(%d: !tt.tensordesc<tensor<128x128xf16, #shared>>, %n: i32, %p: !tt.ptr<f32>) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<128x128xf32, #mma>
    // expected-remark @below {{loop not warp-specialized: 'tt.reshape' after the loop moves the M axis}}
    %acc = scf.for %k = %c0 to %n step %c1 iter_args(%c = %zero) -> (tensor<128x128xf32, #mma>) : i32 {
      %a = tt.descriptor_load %d[%c0, %k] : !tt.tensordesc<tensor<128x128xf16, #shared>> -> tensor<128x128xf16, #blocked>
      %as = ttg.local_alloc %a : (tensor<128x128xf16, #blocked>) -> !ttg.memdesc<128x128xf16, #shared, #smem>
      %b = tt.descriptor_load %d[%c0, %k] : !tt.tensordesc<tensor<128x128xf16, #shared>> -> tensor<128x128xf16, #blocked>
      %bs = ttg.local_alloc %b : (tensor<128x128xf16, #blocked>) -> !ttg.memdesc<128x128xf16, #shared, #smem>
      %r = ttng.warp_group_dot %as, %bs, %c {inputPrecision = 0 : i32} : !ttg.memdesc<128x128xf16, #shared, #smem> * !ttg.memdesc<128x128xf16, #shared, #smem> -> tensor<128x128xf32, #mma>
      scf.yield %r : tensor<128x128xf32, #mma>
    } {tt.warp_specialize}
    %t = tt.reshape %acc : tensor<128x128xf32, #mma> -> tensor<16384xf32, #flat>
    %ps = tt.splat %p : !tt.ptr<f32> -> tensor<16384x!tt.ptr<f32>, #flat>
    tt.store %ps, %t : tensor<16384x!tt.ptr<f32>, #flat>
    tt.return
  }
}

// -----

// A store of a tensor before the loop would keep the 8-warp layout the split removes (a
// side-effect-free tensor op there is rebuilt per warpgroup where the epilogue reads it).
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [8, 1], instrShape = [16, 128, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @coop_tensor_before(%d: !tt.tensordesc<tensor<128x128xf16, #shared>>, %n: i32, %p: !tt.ptr<f32>) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<128x128xf32, #mma>
    %ptrs = tt.splat %p : !tt.ptr<f32> -> tensor<128x128x!tt.ptr<f32>, #blocked>
    %ones = arith.constant dense<1.000000e+00> : tensor<128x128xf32, #blocked>
    tt.store %ptrs, %ones : tensor<128x128x!tt.ptr<f32>, #blocked>
    // expected-remark @below {{loop not warp-specialized: 'tt.store' with a tensor before the loop (only side-effect-free ops, whose epilogue uses are rebuilt per warpgroup)}}
    %acc = scf.for %k = %c0 to %n step %c1 iter_args(%c = %zero) -> (tensor<128x128xf32, #mma>) : i32 {
      %a = tt.descriptor_load %d[%c0, %k] : !tt.tensordesc<tensor<128x128xf16, #shared>> -> tensor<128x128xf16, #blocked>
      %as = ttg.local_alloc %a : (tensor<128x128xf16, #blocked>) -> !ttg.memdesc<128x128xf16, #shared, #smem>
      %b = tt.descriptor_load %d[%c0, %k] : !tt.tensordesc<tensor<128x128xf16, #shared>> -> tensor<128x128xf16, #blocked>
      %bs = ttg.local_alloc %b : (tensor<128x128xf16, #blocked>) -> !ttg.memdesc<128x128xf16, #shared, #smem>
      %r = ttng.warp_group_dot %as, %bs, %c {inputPrecision = 0 : i32} : !ttg.memdesc<128x128xf16, #shared, #smem> * !ttg.memdesc<128x128xf16, #shared, #smem> -> tensor<128x128xf32, #mma>
      scf.yield %r : tensor<128x128xf32, #mma>
    } {tt.warp_specialize}
    tt.return
  }
}
