// The whole pipeliner (assign-latencies, schedule-loops, pipeline) on a Hopper matmul whose
// operands are loaded through pointers: cp.async rings feeding an asynchronous wgmma.
// RUN: ttpipe-opt %s --split-input-file -p 'ttpipe-assign-latencies,ttpipe-schedule-loops,ttpipe-pipeline' | filecheck %s

// Three stages: both loads are issued two iterations ahead. Each ring holds three slots (two
// loads in flight, one read by the wgmma still running). The prologue issues iterations 0
// and 1, each copy masked by "that iteration exists" and committed as its own group. In the
// loop, the wait lets the two newest groups (next iteration's copies) stay in flight, the
// wgmma runs asynchronously and its wait keeps one wgmma pending; the copies for iteration
// i + 2 are masked by i < k - 2. After the loop: the last wgmma and all copies are waited
// for, and the rings freed.
#a = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#b = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 128, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.target" = "cuda:90", "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @three_stages
  // CHECK-SAME: (%[[K:[^:]+]]: i32{{.*}}, %[[A0:[^:]+]]: tensor<128x64x!tt.ptr<f16>{{.*}}, %[[B0:[^:]+]]: tensor<64x128x!tt.ptr<f16>
  // CHECK-DAG: %[[A_RING:.+]] = ttg.local_alloc : () -> !ttg.memdesc<3x128x64xf16
  // CHECK-DAG: %[[B_RING:.+]] = ttg.local_alloc : () -> !ttg.memdesc<3x64x128xf16
  // Prologue, iteration 0.
  // CHECK: %[[RUN0:.+]] = arith.cmpi sgt, %[[K]], %{{.+}} : i32
  // CHECK: %[[MASK0:.+]] = tt.splat %[[RUN0]] : i1 -> tensor<128x64xi1
  // CHECK: %[[CP_A0:.+]] = ttg.async_copy_global_to_local %[[A0]], %{{.+}} mask %[[MASK0]]
  // CHECK: %[[G_A0:.+]] = ttg.async_commit_group tokens %[[CP_A0]]
  // CHECK: ttg.async_copy_global_to_local %[[B0]], %{{.+}} mask
  // CHECK: %[[G_B0:.+]] = ttg.async_commit_group tokens
  // Prologue, iteration 1.
  // CHECK: %[[RUN1:.+]] = arith.cmpi sgt, %[[K]], %{{.+}} : i32
  // CHECK: %[[A1:.+]] = tt.addptr %[[A0]]
  // CHECK: tt.splat %[[RUN1]] : i1 -> tensor<128x64xi1
  // CHECK: ttg.async_copy_global_to_local %[[A1]]
  // CHECK: %[[G_A1:.+]] = ttg.async_commit_group tokens
  // CHECK: ttg.async_copy_global_to_local
  // CHECK: %[[G_B1:.+]] = ttg.async_commit_group tokens
  // CHECK-NOT: ttg.async_copy_global_to_local
  // Kernel.
  // CHECK: %[[LOOP:.+]]:11 = scf.for %[[I:[^ ]+]] = {{.*}} iter_args(%[[ACC:[^ ]+]] = %{{.+}}, {{.*}}, %[[OLD_A:[^ ]+]] = %[[G_A0]], %{{[^ ]+}} = %[[G_A1]], %[[OLD_B:[^ ]+]] = %[[G_B0]], %{{[^ ]+}} = %[[G_B1]])
  // CHECK: %[[LAST:.+]] = arith.subi %[[K]], %{{.+}} : i32
  // CHECK: %[[MORE:.+]] = arith.cmpi slt, %[[I]], %[[LAST]] : i32
  // CHECK: ttg.async_wait %[[OLD_A]], %[[OLD_B]] {num = 2 : i32}
  // CHECK: %[[A_SLOT:.+]] = ttg.memdesc_index %[[A_RING]]
  // CHECK: %[[B_SLOT:.+]] = ttg.memdesc_index %[[B_RING]]
  // CHECK: %[[D:.+]] = ttng.warp_group_dot %[[A_SLOT]], %[[B_SLOT]], %[[ACC]] {{{.*}}isAsync = true}
  // CHECK: %[[DW:.+]]:3 = ttng.warp_group_dot_wait %[[D]], %[[A_SLOT]], %[[B_SLOT]] {pendings = 1 : i32}
  // CHECK: tt.splat %[[MORE]] : i1 -> tensor<128x64xi1
  // CHECK: ttg.async_copy_global_to_local
  // CHECK: %[[G_A2:.+]] = ttg.async_commit_group tokens
  // CHECK: tt.splat %[[MORE]] : i1 -> tensor<64x128xi1
  // CHECK: ttg.async_copy_global_to_local
  // CHECK: %[[G_B2:.+]] = ttg.async_commit_group tokens
  // CHECK: scf.yield %[[DW]]#0, {{.*}}, %[[G_A2]], {{.*}}, %[[G_B2]] :
  // Epilogue.
  // CHECK: %[[RESULT:.+]] = ttng.warp_group_dot_wait %[[LOOP]]#0 {pendings = 0 : i32}
  // CHECK: ttg.async_wait {num = 0 : i32}
  // CHECK-DAG: ttg.local_dealloc %[[A_RING]]
  // CHECK-DAG: ttg.local_dealloc %[[B_RING]]
  // CHECK: tt.return %[[RESULT]]
  tt.func @three_stages(%k: i32,
      %a_init: tensor<128x64x!tt.ptr<f16>, #a> {tt.divisibility = dense<[16, 16]> : tensor<2xi32>, tt.contiguity = dense<[1, 64]> : tensor<2xi32>},
      %b_init: tensor<64x128x!tt.ptr<f16>, #b> {tt.divisibility = dense<[16, 16]> : tensor<2xi32>, tt.contiguity = dense<[1, 128]> : tensor<2xi32>}) -> tensor<128x128xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %a_step = arith.constant dense<64> : tensor<128x64xi32, #a>
    %b_step = arith.constant dense<8192> : tensor<64x128xi32, #b>
    %zero = arith.constant dense<0.000000e+00> : tensor<128x128xf32, #mma>
    %r:3 = scf.for %i = %c0 to %k step %c1 iter_args(%acc = %zero, %pa = %a_init, %pb = %b_init) -> (tensor<128x128xf32, #mma>, tensor<128x64x!tt.ptr<f16>, #a>, tensor<64x128x!tt.ptr<f16>, #b>) : i32 {
      %av = tt.load %pa : tensor<128x64x!tt.ptr<f16>, #a>
      %as = ttg.local_alloc %av : (tensor<128x64xf16, #a>) -> !ttg.memdesc<128x64xf16, #shared, #smem>
      %bv = tt.load %pb : tensor<64x128x!tt.ptr<f16>, #b>
      %bs = ttg.local_alloc %bv : (tensor<64x128xf16, #b>) -> !ttg.memdesc<64x128xf16, #shared, #smem>
      %d = ttng.warp_group_dot %as, %bs, %acc {inputPrecision = 0 : i32} : !ttg.memdesc<128x64xf16, #shared, #smem> * !ttg.memdesc<64x128xf16, #shared, #smem> -> tensor<128x128xf32, #mma>
      %pa2 = tt.addptr %pa, %a_step : tensor<128x64x!tt.ptr<f16>, #a>, tensor<128x64xi32, #a>
      %pb2 = tt.addptr %pb, %b_step : tensor<64x128x!tt.ptr<f16>, #b>, tensor<64x128xi32, #b>
      scf.yield %d, %pa2, %pb2 : tensor<128x128xf32, #mma>, tensor<128x64x!tt.ptr<f16>, #a>, tensor<64x128x!tt.ptr<f16>, #b>
    }
    tt.return %r#0 : tensor<128x128xf32, #mma>
  }
}

// -----

// `tt.num_stages = 4` on the loop overrides the pass's three stages: rings of four slots,
// three iterations in the prologue, and the loop's wait leaves four groups in flight.
#a = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#b = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 128, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.target" = "cuda:90", "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @four_stages
  // CHECK-DAG: ttg.local_alloc : () -> !ttg.memdesc<4x128x64xf16
  // CHECK-DAG: ttg.local_alloc : () -> !ttg.memdesc<4x64x128xf16
  // CHECK-COUNT-6: ttg.async_commit_group
  // CHECK-NOT: ttg.async_commit_group
  // CHECK: scf.for
  // CHECK: ttg.async_wait %{{.+}}, %{{.+}} {num = 4 : i32}
  // CHECK: ttng.warp_group_dot_wait %{{.+}} {pendings = 1 : i32}
  // CHECK: scf.yield
  tt.func @four_stages(%k: i32,
      %a_init: tensor<128x64x!tt.ptr<f16>, #a> {tt.divisibility = dense<[16, 16]> : tensor<2xi32>, tt.contiguity = dense<[1, 64]> : tensor<2xi32>},
      %b_init: tensor<64x128x!tt.ptr<f16>, #b> {tt.divisibility = dense<[16, 16]> : tensor<2xi32>, tt.contiguity = dense<[1, 128]> : tensor<2xi32>}) -> tensor<128x128xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %a_step = arith.constant dense<64> : tensor<128x64xi32, #a>
    %b_step = arith.constant dense<8192> : tensor<64x128xi32, #b>
    %zero = arith.constant dense<0.000000e+00> : tensor<128x128xf32, #mma>
    %r:3 = scf.for %i = %c0 to %k step %c1 iter_args(%acc = %zero, %pa = %a_init, %pb = %b_init) -> (tensor<128x128xf32, #mma>, tensor<128x64x!tt.ptr<f16>, #a>, tensor<64x128x!tt.ptr<f16>, #b>) : i32 {
      %av = tt.load %pa : tensor<128x64x!tt.ptr<f16>, #a>
      %as = ttg.local_alloc %av : (tensor<128x64xf16, #a>) -> !ttg.memdesc<128x64xf16, #shared, #smem>
      %bv = tt.load %pb : tensor<64x128x!tt.ptr<f16>, #b>
      %bs = ttg.local_alloc %bv : (tensor<64x128xf16, #b>) -> !ttg.memdesc<64x128xf16, #shared, #smem>
      %d = ttng.warp_group_dot %as, %bs, %acc {inputPrecision = 0 : i32} : !ttg.memdesc<128x64xf16, #shared, #smem> * !ttg.memdesc<64x128xf16, #shared, #smem> -> tensor<128x128xf32, #mma>
      %pa2 = tt.addptr %pa, %a_step : tensor<128x64x!tt.ptr<f16>, #a>, tensor<128x64xi32, #a>
      %pb2 = tt.addptr %pb, %b_step : tensor<64x128x!tt.ptr<f16>, #b>, tensor<64x128xi32, #b>
      scf.yield %d, %pa2, %pb2 : tensor<128x128xf32, #mma>, tensor<128x64x!tt.ptr<f16>, #a>, tensor<64x128x!tt.ptr<f16>, #b>
    } {tt.num_stages = 4 : i32}
    tt.return %r#0 : tensor<128x128xf32, #mma>
  }
}

// -----

// Nothing is known about B's pointers, so B stays a register load and a local_alloc in the
// loop (no ring): a wgmma reading a buffer written in the same iteration cannot overlap the
// next one, so it is waited for at once (pendings = 0). A is still pipelined.
#a = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#b = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 128, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.target" = "cuda:90", "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @b_not_pipelined
  // CHECK: %[[A_RING:.+]] = ttg.local_alloc : () -> !ttg.memdesc<3x128x64xf16
  // CHECK-NOT: ttg.local_alloc :
  // CHECK: scf.for
  // CHECK: %[[A_SLOT:.+]] = ttg.memdesc_index %[[A_RING]]
  // CHECK: %[[B:.+]] = tt.load
  // CHECK: %[[B_SH:.+]] = ttg.local_alloc %[[B]]
  // CHECK: %[[D:.+]] = ttng.warp_group_dot %[[A_SLOT]], %[[B_SH]], {{.*}}isAsync = true
  // CHECK: ttng.warp_group_dot_wait %[[D]], %[[A_SLOT]], %[[B_SH]] {pendings = 0 : i32}
  // CHECK: scf.yield
  // CHECK-NOT: ttng.warp_group_dot_wait
  // CHECK: tt.return
  tt.func @b_not_pipelined(%k: i32,
      %a_init: tensor<128x64x!tt.ptr<f16>, #a> {tt.divisibility = dense<[16, 16]> : tensor<2xi32>, tt.contiguity = dense<[1, 64]> : tensor<2xi32>},
      %b_init: tensor<64x128x!tt.ptr<f16>, #b>) -> tensor<128x128xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %a_step = arith.constant dense<64> : tensor<128x64xi32, #a>
    %b_step = arith.constant dense<8192> : tensor<64x128xi32, #b>
    %zero = arith.constant dense<0.000000e+00> : tensor<128x128xf32, #mma>
    %r:3 = scf.for %i = %c0 to %k step %c1 iter_args(%acc = %zero, %pa = %a_init, %pb = %b_init) -> (tensor<128x128xf32, #mma>, tensor<128x64x!tt.ptr<f16>, #a>, tensor<64x128x!tt.ptr<f16>, #b>) : i32 {
      %av = tt.load %pa : tensor<128x64x!tt.ptr<f16>, #a>
      %as = ttg.local_alloc %av : (tensor<128x64xf16, #a>) -> !ttg.memdesc<128x64xf16, #shared, #smem>
      %bv = tt.load %pb : tensor<64x128x!tt.ptr<f16>, #b>
      %bs = ttg.local_alloc %bv : (tensor<64x128xf16, #b>) -> !ttg.memdesc<64x128xf16, #shared, #smem>
      %d = ttng.warp_group_dot %as, %bs, %acc {inputPrecision = 0 : i32} : !ttg.memdesc<128x64xf16, #shared, #smem> * !ttg.memdesc<64x128xf16, #shared, #smem> -> tensor<128x128xf32, #mma>
      %pa2 = tt.addptr %pa, %a_step : tensor<128x64x!tt.ptr<f16>, #a>, tensor<128x64xi32, #a>
      %pb2 = tt.addptr %pb, %b_step : tensor<64x128x!tt.ptr<f16>, #b>, tensor<64x128xi32, #b>
      scf.yield %d, %pa2, %pb2 : tensor<128x128xf32, #mma>, tensor<128x64x!tt.ptr<f16>, #a>, tensor<64x128x!tt.ptr<f16>, #b>
    }
    tt.return %r#0 : tensor<128x128xf32, #mma>
  }
}
