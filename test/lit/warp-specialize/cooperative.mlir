// RUN: ttpipe-opt %s --split-input-file -p ttpipe-warp-specialize | filecheck %s

// Cooperative consumer warpgroups (num_warps = 8): a 128x256x64 fp16 TMA matmul with a TMA
// store epilogue, as it reaches nvgpu-warp-specialization in ttgir-sm90. The module's
// ttg.num-warps becomes 4 (the default region's warps) and the 8-warp layouts go; the empty
// mbarriers count 2 arrivals (one per consumer warpgroup), the full ones 1. The default
// region is consumer warpgroup 0: rows 0-63 of each A stage (memdesc_subslice [0, 0]) into a
// 64x256 accumulator in the 4-warp wgmma layout; partition0 (num_warps(4)) is warpgroup 1,
// rows 64-127 ([64, 0]); partition1 (num_warps(1)) is the TMA producer. Each releases the
// stage with its own arrive. The epilogue is cloned into both consumer regions at their
// rows: truncf and the convert to a 4-warp blocked layout, then each local_stores its rows
// into its half of a 128x256 staging tile (the host descriptor's box is the whole tile),
// fences and syncs its warps; warpgroup 1 arrives on the staging mbarrier (count 1) and
// warpgroup 0 waits on it and issues the one TMA store. Registers: [232, 40].
// CHECK-DAG: #[[BLOCKED:.+]] = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG: #[[MMA:.+]] = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 256, 16]}>
// CHECK: module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32
// CHECK-LABEL: tt.func public @matmul_tma_ws(
// CHECK-SAME: %[[CDESC:arg10]]: !tt.tensordesc<tensor<128x256xf16
// CHECK: %[[ABUF:.+]] = ttg.local_alloc : () -> !ttg.memdesc<3x128x64xf16
// CHECK: %[[FULL:.+]] = ttg.local_alloc : () -> !ttg.memdesc<3x1xi64
// CHECK-COUNT-3: ttng.init_barrier {{.+}}, 1 :
// CHECK: %[[EMPTY:.+]] = ttg.local_alloc : () -> !ttg.memdesc<3x1xi64
// CHECK-COUNT-3: ttng.init_barrier {{.+}}, 2 :
// CHECK: %[[STAGING:.+]] = ttg.local_alloc : () -> !ttg.memdesc<128x256xf16, #shared, #smem, mutable>
// CHECK: %[[STORED:.+]] = ttg.local_alloc : () -> !ttg.memdesc<1x1xi64
// CHECK: ttng.init_barrier {{.+}}, 1 :
// CHECK: gpu.barrier
// CHECK-NEXT: ttg.warp_specialize({{.*}}%[[EMPTY]], %[[STAGING]], %[[STORED]]) attributes {requestedRegisters = array<i32: 232, 40>}
// CHECK-NEXT: default {
// CHECK: %[[ZERO:.+]] = arith.constant dense<0.000000e+00> : tensor<64x256xf32, #[[MMA]]>
// CHECK: scf.for {{.+}} iter_args(%[[ACC:.+]] = %[[ZERO]], {{.+}}) -> (tensor<64x256xf32, #[[MMA]]>, i32, i32)
// CHECK: ttng.wait_barrier
// CHECK: %[[ROWS:.+]] = ttg.memdesc_subslice %{{.+}}[0, 0] : !ttg.memdesc<128x64xf16, #shared, #smem, mutable> -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable, 128x64>
// CHECK-NEXT: %[[D:.+]] = ttng.warp_group_dot %[[ROWS]], %{{.+}}, %[[ACC]] {{.+}}isAsync = true{{.+}} -> tensor<64x256xf32, #[[MMA]]>
// CHECK-NEXT: ttng.warp_group_dot_wait %[[D]], %[[ROWS]], %{{.+}} {pendings = 1 : i32}
// CHECK: ttng.arrive_barrier %{{.+}}, 1, %{{.+}} :
// CHECK: } {tt.num_stages = 0 : i32}
// CHECK-NEXT: %[[RES:.+]] = ttng.warp_group_dot_wait %{{.+}}#0 {pendings = 0 : i32} : tensor<64x256xf32, #[[MMA]]>
// CHECK-NEXT: %[[H:.+]] = arith.truncf %[[RES]] : tensor<64x256xf32, #[[MMA]]> to tensor<64x256xf16, #[[MMA]]>
// CHECK-NEXT: %[[HB:.+]] = ttg.convert_layout %[[H]] : tensor<64x256xf16, #[[MMA]]> -> tensor<64x256xf16, #[[BLOCKED]]>
// CHECK-NEXT: %[[MINE:.+]] = ttg.memdesc_subslice %[[STAGING]][0, 0] : {{.+}} -> !ttg.memdesc<64x256xf16, #shared, #smem, mutable, 128x256>
// CHECK-NEXT: ttg.local_store %[[HB]], %[[MINE]]
// CHECK-NEXT: ttng.fence_async_shared {bCluster = false}
// CHECK-NEXT: gpu.barrier
// CHECK: %[[SB:.+]] = ttg.memdesc_index %[[STORED]]
// CHECK: ttng.wait_barrier %[[SB]], %{{.+}} :
// CHECK: ttng.async_tma_copy_local_to_global %[[CDESC]][%{{.+}}, %{{.+}}] %[[STAGING]]
// CHECK-NEXT: ttng.async_tma_store_wait {pendings = 0 : i32}
// CHECK-NEXT: ttg.warp_yield
// CHECK-NEXT: }
// CHECK-NEXT: partition0({{.+}}, %[[PSTAGING:.+]]: !ttg.memdesc<128x256xf16, #shared, #smem, mutable>, %[[PSTORED:.+]]: !ttg.memdesc<1x1xi64, {{.+}}>) num_warps(4) {
// CHECK: scf.for {{.+}} -> (tensor<64x256xf32, #[[MMA]]>, i32, i32)
// CHECK: %[[PROWS:.+]] = ttg.memdesc_subslice %{{.+}}[64, 0] : !ttg.memdesc<128x64xf16, #shared, #smem, mutable> -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable, 128x64>
// CHECK-NEXT: ttng.warp_group_dot %[[PROWS]], {{.+}} -> tensor<64x256xf32, #[[MMA]]>
// CHECK: ttng.arrive_barrier %{{.+}}, 1, %{{.+}} :
// CHECK: } {tt.num_stages = 0 : i32}
// CHECK: arith.truncf
// CHECK: %[[PMINE:.+]] = ttg.memdesc_subslice %[[PSTAGING]][64, 0]
// CHECK-NEXT: ttg.local_store %{{.+}}, %[[PMINE]]
// CHECK-NEXT: ttng.fence_async_shared {bCluster = false}
// CHECK-NEXT: gpu.barrier
// CHECK: %[[PSB:.+]] = ttg.memdesc_index %[[PSTORED]]
// CHECK-NEXT: ttng.arrive_barrier %[[PSB]], 1 :
// CHECK-NEXT: ttg.warp_return
// CHECK-NEXT: }
// CHECK-NEXT: partition1({{.+}}) num_warps(1) {
// CHECK-NOT: tensor<
// CHECK: ttng.barrier_expect %{{.+}}, 49152
// CHECK-COUNT-2: ttng.async_tma_copy_global_to_local
// CHECK: ttg.warp_return
// CHECK-NEXT: } : ({{.+}}) -> ()
// CHECK-NOT: tt.descriptor_store
// CHECK: tt.return
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [1, 32], warpsPerCTA = [8, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [8, 1], instrShape = [16, 256, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @matmul_tma_ws(%arg0: !tt.tensordesc<tensor<128x64xf16, #shared>>, %arg1: i32, %arg2: i32, %arg3: i64, %arg4: i64, %arg5: !tt.tensordesc<tensor<256x64xf16, #shared>>, %arg6: i32, %arg7: i32, %arg8: i64, %arg9: i64, %arg10: !tt.tensordesc<tensor<128x256xf16, #shared>>, %arg11: i32, %arg12: i32, %arg13: i64, %arg14: i64, %arg15: i32, %arg16: i32, %arg17: i32) attributes {noinline = false} {
    %c256_i32 = arith.constant 256 : i32
    %c128_i32 = arith.constant 128 : i32
    %c64_i32 = arith.constant 64 : i32
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %c63_i32 = arith.constant 63 : i32
    %cst = arith.constant dense<0.000000e+00> : tensor<128x256xf32, #mma>
    %0 = tt.get_program_id x : i32
    %1 = tt.get_program_id y : i32
    %2 = arith.addi %arg17, %c63_i32 : i32
    %3 = arith.divsi %2, %c64_i32 : i32
    %4 = arith.muli %0, %c128_i32 : i32
    %5 = arith.muli %1, %c256_i32 : i32
    %6 = scf.for %arg18 = %c0_i32 to %3 step %c1_i32 iter_args(%arg19 = %cst) -> (tensor<128x256xf32, #mma>)  : i32 {
      %11 = arith.muli %arg18, %c64_i32 : i32
      %12 = tt.descriptor_load %arg0[%4, %11] : !tt.tensordesc<tensor<128x64xf16, #shared>> -> tensor<128x64xf16, #blocked>
      %13 = ttg.local_alloc %12 : (tensor<128x64xf16, #blocked>) -> !ttg.memdesc<128x64xf16, #shared, #smem>
      %14 = tt.descriptor_load %arg5[%5, %11] : !tt.tensordesc<tensor<256x64xf16, #shared>> -> tensor<256x64xf16, #blocked>
      %15 = ttg.local_alloc %14 : (tensor<256x64xf16, #blocked>) -> !ttg.memdesc<256x64xf16, #shared, #smem>
      %16 = ttg.memdesc_trans %15 {order = array<i32: 1, 0>} : !ttg.memdesc<256x64xf16, #shared, #smem> -> !ttg.memdesc<64x256xf16, #shared1, #smem>
      %17 = ttng.warp_group_dot %13, %16, %arg19 {inputPrecision = 0 : i32} : !ttg.memdesc<128x64xf16, #shared, #smem> * !ttg.memdesc<64x256xf16, #shared1, #smem> -> tensor<128x256xf32, #mma>
      scf.yield %17 : tensor<128x256xf32, #mma>
    } {tt.warp_specialize}
    %7 = arith.muli %0, %c128_i32 : i32
    %8 = arith.muli %1, %c256_i32 : i32
    %9 = arith.truncf %6 : tensor<128x256xf32, #mma> to tensor<128x256xf16, #mma>
    %10 = ttg.convert_layout %9 : tensor<128x256xf16, #mma> -> tensor<128x256xf16, #blocked1>
    tt.descriptor_store %arg10[%7, %8], %10 : !tt.tensordesc<tensor<128x256xf16, #shared>>, tensor<128x256xf16, #blocked1>
    tt.return
  }
}

// -----

// A 256x128x64 bf16 tile with a pointer-store epilogue (tl.store with masks). Each consumer
// warpgroup rebuilds the pointer and mask tensors at its 128 rows: the M range becomes
// make_range [0, 128) in warpgroup 0 and [128, 256) in warpgroup 1, the N range stays whole;
// the blocked layout's warps [2, 4] become [1, 4], its slices follow; each stores its rows.
// CHECK-DAG: #[[BLOCKED:.+]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [1, 0]}>
// CHECK-DAG: #[[MMA:.+]] = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 128, 16]}>
// CHECK-LABEL: tt.func public @matmul_tma_ws_pointer_store(
// CHECK: ttg.warp_specialize({{.+}}) attributes {requestedRegisters = array<i32: 232, 40>}
// CHECK-NEXT: default {
// CHECK: ttg.memdesc_subslice %{{.+}}[0, 0] : !ttg.memdesc<256x64xbf16, {{.+}}> -> !ttg.memdesc<128x64xbf16, #shared, #smem, mutable, 256x64>
// CHECK: tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #ttg.slice<{dim = 1, parent = #[[BLOCKED]]}>>
// CHECK: tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #ttg.slice<{dim = 0, parent = #[[BLOCKED]]}>>
// CHECK: arith.truncf %{{.+}} : tensor<128x128xf32, #[[MMA]]> to tensor<128x128xbf16, #[[MMA]]>
// CHECK: tt.store %{{.+}}, %{{.+}}, %{{.+}} : tensor<128x128x!tt.ptr<bf16>, #[[BLOCKED]]>
// CHECK-NEXT: ttg.warp_yield
// CHECK: partition0({{.+}}) num_warps(4) {
// CHECK: ttg.memdesc_subslice %{{.+}}[128, 0]
// CHECK: tt.make_range {end = 256 : i32, start = 128 : i32} : tensor<128xi32, #ttg.slice<{dim = 1, parent = #[[BLOCKED]]}>>
// CHECK: tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #ttg.slice<{dim = 0, parent = #[[BLOCKED]]}>>
// CHECK: tt.store %{{.+}}, %{{.+}}, %{{.+}} : tensor<128x128x!tt.ptr<bf16>, #[[BLOCKED]]>
// CHECK-NEXT: ttg.warp_return
// CHECK: partition1({{.+}}) num_warps(1) {
// CHECK-NOT: tt.store
// CHECK: tt.return
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 4], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [8, 1], instrShape = [16, 128, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @matmul_tma_ws_pointer_store(%arg0: !tt.tensordesc<tensor<256x64xbf16, #shared>>, %arg1: i32, %arg2: i32, %arg3: i64, %arg4: i64, %arg5: !tt.tensordesc<tensor<128x64xbf16, #shared>>, %arg6: i32, %arg7: i32, %arg8: i64, %arg9: i64, %arg10: !tt.ptr<bf16>, %arg11: i32, %arg12: i32, %arg13: i32, %arg14: i32) attributes {noinline = false} {
    %c256_i32 = arith.constant 256 : i32
    %c128_i32 = arith.constant 128 : i32
    %c64_i32 = arith.constant 64 : i32
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %c63_i32 = arith.constant 63 : i32
    %cst = arith.constant dense<0.000000e+00> : tensor<256x128xf32, #mma>
    %0 = tt.get_program_id x : i32
    %1 = arith.muli %0, %c256_i32 : i32
    %2 = tt.get_program_id y : i32
    %3 = arith.muli %2, %c128_i32 : i32
    %4 = arith.addi %arg13, %c63_i32 : i32
    %5 = arith.divsi %4, %c64_i32 : i32
    %6 = scf.for %arg15 = %c0_i32 to %5 step %c1_i32 iter_args(%arg16 = %cst) -> (tensor<256x128xf32, #mma>)  : i32 {
      %31 = arith.muli %arg15, %c64_i32 : i32
      %32 = tt.descriptor_load %arg0[%1, %31] : !tt.tensordesc<tensor<256x64xbf16, #shared>> -> tensor<256x64xbf16, #blocked>
      %33 = ttg.local_alloc %32 : (tensor<256x64xbf16, #blocked>) -> !ttg.memdesc<256x64xbf16, #shared, #smem>
      %34 = tt.descriptor_load %arg5[%3, %31] : !tt.tensordesc<tensor<128x64xbf16, #shared>> -> tensor<128x64xbf16, #blocked>
      %35 = ttg.local_alloc %34 : (tensor<128x64xbf16, #blocked>) -> !ttg.memdesc<128x64xbf16, #shared, #smem>
      %36 = ttg.memdesc_trans %35 {order = array<i32: 1, 0>} : !ttg.memdesc<128x64xbf16, #shared, #smem> -> !ttg.memdesc<64x128xbf16, #shared1, #smem>
      %37 = ttng.warp_group_dot %33, %36, %arg16 {inputPrecision = 0 : i32} : !ttg.memdesc<256x64xbf16, #shared, #smem> * !ttg.memdesc<64x128xbf16, #shared1, #smem> -> tensor<256x128xf32, #mma>
      scf.yield %37 : tensor<256x128xf32, #mma>
    } {tt.warp_specialize}
    %7 = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32, #ttg.slice<{dim = 1, parent = #blocked1}>>
    %8 = tt.splat %1 : i32 -> tensor<256xi32, #ttg.slice<{dim = 1, parent = #blocked1}>>
    %9 = arith.addi %8, %7 : tensor<256xi32, #ttg.slice<{dim = 1, parent = #blocked1}>>
    %10 = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #ttg.slice<{dim = 0, parent = #blocked1}>>
    %11 = tt.splat %3 : i32 -> tensor<128xi32, #ttg.slice<{dim = 0, parent = #blocked1}>>
    %12 = arith.addi %11, %10 : tensor<128xi32, #ttg.slice<{dim = 0, parent = #blocked1}>>
    %13 = tt.expand_dims %9 {axis = 1 : i32} : tensor<256xi32, #ttg.slice<{dim = 1, parent = #blocked1}>> -> tensor<256x1xi32, #blocked1>
    %14 = tt.splat %arg11 : i32 -> tensor<256x1xi32, #blocked1>
    %15 = arith.cmpi slt, %13, %14 : tensor<256x1xi32, #blocked1>
    %16 = tt.expand_dims %12 {axis = 0 : i32} : tensor<128xi32, #ttg.slice<{dim = 0, parent = #blocked1}>> -> tensor<1x128xi32, #blocked1>
    %17 = tt.splat %arg12 : i32 -> tensor<1x128xi32, #blocked1>
    %18 = arith.cmpi slt, %16, %17 : tensor<1x128xi32, #blocked1>
    %19 = tt.broadcast %15 : tensor<256x1xi1, #blocked1> -> tensor<256x128xi1, #blocked1>
    %20 = tt.broadcast %18 : tensor<1x128xi1, #blocked1> -> tensor<256x128xi1, #blocked1>
    %21 = arith.andi %19, %20 : tensor<256x128xi1, #blocked1>
    %22 = tt.splat %arg14 : i32 -> tensor<256x1xi32, #blocked1>
    %23 = arith.muli %13, %22 : tensor<256x1xi32, #blocked1>
    %24 = tt.splat %arg10 : !tt.ptr<bf16> -> tensor<256x1x!tt.ptr<bf16>, #blocked1>
    %25 = tt.addptr %24, %23 : tensor<256x1x!tt.ptr<bf16>, #blocked1>, tensor<256x1xi32, #blocked1>
    %26 = tt.broadcast %25 : tensor<256x1x!tt.ptr<bf16>, #blocked1> -> tensor<256x128x!tt.ptr<bf16>, #blocked1>
    %27 = tt.broadcast %16 : tensor<1x128xi32, #blocked1> -> tensor<256x128xi32, #blocked1>
    %28 = tt.addptr %26, %27 : tensor<256x128x!tt.ptr<bf16>, #blocked1>, tensor<256x128xi32, #blocked1>
    %29 = arith.truncf %6 : tensor<256x128xf32, #mma> to tensor<256x128xbf16, #mma>
    %30 = ttg.convert_layout %29 : tensor<256x128xbf16, #mma> -> tensor<256x128xbf16, #blocked1>
    tt.store %28, %30, %21 : tensor<256x128x!tt.ptr<bf16>, #blocked1>
    tt.return
  }
}

// -----

// A batched kernel's tile: 3-D descriptors with [1, M, K] boxes, loaded straight into the
// 2-D tile, stored through a [1, 128, 256] reshape whose layout is linear (its warp bases
// [16, 32, 64] along M). Each warpgroup's share reshapes [64, 256] -> [1, 64, 256], the warp
// basis 64 (the step between the warpgroups' rows) dropped from the linear layout, and
// writes rows [64 c, 64 c + 64) of the 3-D staging tile (axis 1, after the unit batch dim).
// CHECK-LABEL: tt.func public @batched(
// CHECK: %[[STAGING:.+]] = ttg.local_alloc : () -> !ttg.memdesc<1x128x256xf16
// CHECK: ttg.warp_specialize(
// CHECK-NEXT: default {
// CHECK: %[[ROWS:.+]] = tt.reshape %{{.+}} : tensor<64x256xf16, #{{.+}}> -> tensor<1x64x256xf16, #[[LINEAR:linear[0-9]*]]>
// CHECK: %[[MINE:.+]] = ttg.memdesc_subslice %[[STAGING]][0, 0, 0] : {{.+}} -> !ttg.memdesc<1x64x256xf16
// CHECK-NEXT: ttg.local_store %[[ROWS]], %[[MINE]]
// CHECK: ttng.async_tma_copy_local_to_global %{{.+}}[%{{.+}}, %{{.+}}, %{{.+}}] %[[STAGING]]
// CHECK: partition0(
// CHECK: ttg.memdesc_subslice %{{.+}}[0, 64, 0] : {{.+}} -> !ttg.memdesc<1x64x256xf16
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], order = [1, 0]}>
#linear = #ttg.linear<{register = [[0, 0, 1], [0, 8, 0], [0, 0, 8], [0, 0, 16], [0, 0, 32], [0, 0, 64], [0, 0, 128]], lane = [[0, 0, 2], [0, 0, 4], [0, 1, 0], [0, 2, 0], [0, 4, 0]], warp = [[0, 16, 0], [0, 32, 0], [0, 64, 0]], block = []}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [8, 1], instrShape = [16, 256, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @batched(%a_desc: !tt.tensordesc<tensor<1x128x64xf16, #shared>>, %b_desc: !tt.tensordesc<tensor<1x256x64xf16, #shared>>, %c_desc: !tt.tensordesc<tensor<1x128x256xf16, #shared>>, %k_tiles: i32) attributes {noinline = false} {
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %c64_i32 = arith.constant 64 : i32
    %c128_i32 = arith.constant 128 : i32
    %c256_i32 = arith.constant 256 : i32
    %cst = arith.constant dense<0.000000e+00> : tensor<128x256xf32, #mma>
    %batch = tt.get_program_id z : i32
    %pid_m = tt.get_program_id x : i32
    %pid_n = tt.get_program_id y : i32
    %off_m = arith.muli %pid_m, %c128_i32 : i32
    %off_n = arith.muli %pid_n, %c256_i32 : i32
    %acc = scf.for %k = %c0_i32 to %k_tiles step %c1_i32 iter_args(%c = %cst) -> (tensor<128x256xf32, #mma>)  : i32 {
      %off_k = arith.muli %k, %c64_i32 : i32
      %a = tt.descriptor_load %a_desc[%batch, %off_m, %off_k] : !tt.tensordesc<tensor<1x128x64xf16, #shared>> -> tensor<128x64xf16, #blocked>
      %as = ttg.local_alloc %a : (tensor<128x64xf16, #blocked>) -> !ttg.memdesc<128x64xf16, #shared, #smem>
      %b = tt.descriptor_load %b_desc[%batch, %off_n, %off_k] : !tt.tensordesc<tensor<1x256x64xf16, #shared>> -> tensor<256x64xf16, #blocked>
      %bs = ttg.local_alloc %b : (tensor<256x64xf16, #blocked>) -> !ttg.memdesc<256x64xf16, #shared, #smem>
      %bt = ttg.memdesc_trans %bs {order = array<i32: 1, 0>} : !ttg.memdesc<256x64xf16, #shared, #smem> -> !ttg.memdesc<64x256xf16, #shared1, #smem>
      %d = ttng.warp_group_dot %as, %bt, %c {inputPrecision = 0 : i32} : !ttg.memdesc<128x64xf16, #shared, #smem> * !ttg.memdesc<64x256xf16, #shared1, #smem> -> tensor<128x256xf32, #mma>
      scf.yield %d : tensor<128x256xf32, #mma>
    } {tt.warp_specialize}
    %h = arith.truncf %acc : tensor<128x256xf32, #mma> to tensor<128x256xf16, #mma>
    %h3 = tt.reshape %h : tensor<128x256xf16, #mma> -> tensor<1x128x256xf16, #linear>
    tt.descriptor_store %c_desc[%batch, %off_m, %off_n], %h3 : !tt.tensordesc<tensor<1x128x256xf16, #shared>>, tensor<1x128x256xf16, #linear>
    tt.return
  }
}

// -----

// A bias + ReLU epilogue whose column offsets LICM hoisted before the loop: the bias load
// (tt.load along N, read whole by each warpgroup) and the hoisted make_range are rebuilt in
// each consumer region, and the originals, read by nothing once the epilogue is rebuilt,
// are erased (no tensor of the old 8-warp layouts is left outside the regions).
// CHECK-LABEL: tt.func public @bias_relu(
// CHECK-NOT: tt.make_range
// CHECK: ttg.warp_specialize(
// CHECK-NEXT: default {
// CHECK: tt.make_range {end = 256 : i32, start = 0 : i32}
// CHECK: tt.load
// CHECK: arith.maxnumf %{{.+}} : tensor<64x256xf32
// CHECK: partition0(
// CHECK: tt.make_range {end = 256 : i32, start = 0 : i32}
// CHECK: tt.load
// CHECK: arith.maxnumf %{{.+}} : tensor<64x256xf32
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [8, 1], instrShape = [16, 256, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @bias_relu(%a_desc: !tt.tensordesc<tensor<128x64xf16, #shared>>, %b_desc: !tt.tensordesc<tensor<256x64xf16, #shared>>, %c_desc: !tt.tensordesc<tensor<128x256xf16, #shared>>, %bias_ptr: !tt.ptr<f32>, %k_tiles: i32) attributes {noinline = false} {
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %c64_i32 = arith.constant 64 : i32
    %c128_i32 = arith.constant 128 : i32
    %c256_i32 = arith.constant 256 : i32
    %cst = arith.constant dense<0.000000e+00> : tensor<128x256xf32, #mma>
    %zero = arith.constant dense<0.000000e+00> : tensor<128x256xf32, #mma>
    %cols = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32, #ttg.slice<{dim = 0, parent = #mma}>>
    %pid_m = tt.get_program_id x : i32
    %pid_n = tt.get_program_id y : i32
    %off_m = arith.muli %pid_m, %c128_i32 : i32
    %off_n = arith.muli %pid_n, %c256_i32 : i32
    %acc = scf.for %k = %c0_i32 to %k_tiles step %c1_i32 iter_args(%c = %cst) -> (tensor<128x256xf32, #mma>)  : i32 {
      %off_k = arith.muli %k, %c64_i32 : i32
      %a = tt.descriptor_load %a_desc[%off_m, %off_k] : !tt.tensordesc<tensor<128x64xf16, #shared>> -> tensor<128x64xf16, #blocked>
      %as = ttg.local_alloc %a : (tensor<128x64xf16, #blocked>) -> !ttg.memdesc<128x64xf16, #shared, #smem>
      %b = tt.descriptor_load %b_desc[%off_n, %off_k] : !tt.tensordesc<tensor<256x64xf16, #shared>> -> tensor<256x64xf16, #blocked>
      %bs = ttg.local_alloc %b : (tensor<256x64xf16, #blocked>) -> !ttg.memdesc<256x64xf16, #shared, #smem>
      %bt = ttg.memdesc_trans %bs {order = array<i32: 1, 0>} : !ttg.memdesc<256x64xf16, #shared, #smem> -> !ttg.memdesc<64x256xf16, #shared1, #smem>
      %d = ttng.warp_group_dot %as, %bt, %c {inputPrecision = 0 : i32} : !ttg.memdesc<128x64xf16, #shared, #smem> * !ttg.memdesc<64x256xf16, #shared1, #smem> -> tensor<128x256xf32, #mma>
      scf.yield %d : tensor<128x256xf32, #mma>
    } {tt.warp_specialize}
    %n_splat = tt.splat %off_n : i32 -> tensor<256xi32, #ttg.slice<{dim = 0, parent = #mma}>>
    %offs_n = arith.addi %n_splat, %cols : tensor<256xi32, #ttg.slice<{dim = 0, parent = #mma}>>
    %bias_base = tt.splat %bias_ptr : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>, #ttg.slice<{dim = 0, parent = #mma}>>
    %bias_ptrs = tt.addptr %bias_base, %offs_n : tensor<256x!tt.ptr<f32>, #ttg.slice<{dim = 0, parent = #mma}>>, tensor<256xi32, #ttg.slice<{dim = 0, parent = #mma}>>
    %bias = tt.load %bias_ptrs : tensor<256x!tt.ptr<f32>, #ttg.slice<{dim = 0, parent = #mma}>>
    %bias_row = tt.expand_dims %bias {axis = 0 : i32} : tensor<256xf32, #ttg.slice<{dim = 0, parent = #mma}>> -> tensor<1x256xf32, #mma>
    %bias_tile = tt.broadcast %bias_row : tensor<1x256xf32, #mma> -> tensor<128x256xf32, #mma>
    %biased = arith.addf %acc, %bias_tile : tensor<128x256xf32, #mma>
    %relu = arith.maxnumf %biased, %zero : tensor<128x256xf32, #mma>
    %h = arith.truncf %relu : tensor<128x256xf32, #mma> to tensor<128x256xf16, #mma>
    tt.descriptor_store %c_desc[%off_m, %off_n], %h : !tt.tensordesc<tensor<128x256xf16, #shared>>, tensor<128x256xf16, #mma>
    tt.return
  }
}

// -----

// The epilogue subtiled as Triton's tutorial 09 writes it (EPILOGUE_SUBTILE: the accumulator
// reshaped to [M, 2, N / 2], permuted, split, each half stored through a descriptor of
// BLOCK_N / 2 columns): reshape, trans and split keep the M axis in dim 0, so each
// warpgroup rebuilds them on its 64 rows, in the linear layouts less the warp basis that
// steps between the warpgroups' rows ([64, 0, 0]), one split for both halves.
// CHECK-DAG: #[[LIN:.+]] = #ttg.linear<{register = [[0, 0, 1], [8, 0, 0], [0, 0, 8], [0, 0, 16], [0, 0, 32], [0, 0, 64], [0, 1, 0]], lane = [[0, 0, 2], [0, 0, 4], [1, 0, 0], [2, 0, 0], [4, 0, 0]], warp = [[16, 0, 0], [32, 0, 0]], block = []}>
// CHECK-DAG: #[[LIN1:.+]] = #ttg.linear<{register = [[0, 1, 0], [8, 0, 0], [0, 8, 0], [0, 16, 0], [0, 32, 0], [0, 64, 0], [0, 0, 1]], lane = [[0, 2, 0], [0, 4, 0], [1, 0, 0], [2, 0, 0], [4, 0, 0]], warp = [[16, 0, 0], [32, 0, 0]], block = []}>
// CHECK-DAG: #[[LIN2:.+]] = #ttg.linear<{register = [[0, 1], [8, 0], [0, 8], [0, 16], [0, 32], [0, 64]], lane = [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], warp = [[16, 0], [32, 0]], block = []}>
// CHECK-LABEL: tt.func public @matmul_subtiled(
// CHECK: ttg.warp_specialize
// CHECK-NEXT: default {
// CHECK: %[[RES:.+]] = ttng.warp_group_dot_wait %{{.+}}#0 {pendings = 0 : i32} : tensor<64x256xf32, #[[MMA:.+]]>
// CHECK-NEXT: %[[HALVES:.+]] = tt.reshape %[[RES]] : tensor<64x256xf32, #[[MMA]]> -> tensor<64x2x128xf32, #[[LIN]]>
// CHECK-NEXT: %[[COLS:.+]] = tt.trans %[[HALVES]] {order = array<i32: 0, 2, 1>} : tensor<64x2x128xf32, #[[LIN]]> -> tensor<64x128x2xf32, #[[LIN1]]>
// CHECK-NEXT: %[[LEFT:.+]], %[[RIGHT:.+]] = tt.split %[[COLS]] : tensor<64x128x2xf32, #[[LIN1]]> -> tensor<64x128xf32, #[[LIN2]]>
// CHECK-NEXT: arith.truncf %[[LEFT]] : tensor<64x128xf32, #[[LIN2]]>
// CHECK: ttg.local_store %{{.+}}, %{{.+}} : tensor<64x128xf16, {{.+}}> -> !ttg.memdesc<64x128xf16, #shared, #smem, mutable, 128x128>
// CHECK: ttng.async_tma_copy_local_to_global
// CHECK: arith.truncf %[[RIGHT]] : tensor<64x128xf32, #[[LIN2]]>
// CHECK-NOT: tt.split
// CHECK: ttng.async_tma_copy_local_to_global
// CHECK: ttg.warp_yield
// CHECK: partition0(
// CHECK: tt.reshape %{{.+}} : tensor<64x256xf32, #[[MMA]]> -> tensor<64x2x128xf32, #[[LIN]]>
// CHECK: tt.split
// CHECK-NOT: tt.split
// CHECK: ttg.warp_return
// CHECK: partition1(
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [8, 1], order = [1, 0]}>
#linear = #ttg.linear<{register = [[0, 0, 1], [8, 0, 0], [0, 0, 8], [0, 0, 16], [0, 0, 32], [0, 0, 64], [0, 1, 0]], lane = [[0, 0, 2], [0, 0, 4], [1, 0, 0], [2, 0, 0], [4, 0, 0]], warp = [[16, 0, 0], [32, 0, 0], [64, 0, 0]], block = []}>
#linear1 = #ttg.linear<{register = [[0, 1, 0], [8, 0, 0], [0, 8, 0], [0, 16, 0], [0, 32, 0], [0, 64, 0], [0, 0, 1]], lane = [[0, 2, 0], [0, 4, 0], [1, 0, 0], [2, 0, 0], [4, 0, 0]], warp = [[16, 0, 0], [32, 0, 0], [64, 0, 0]], block = []}>
#linear2 = #ttg.linear<{register = [[0, 1], [8, 0], [0, 8], [0, 16], [0, 32], [0, 64]], lane = [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], warp = [[16, 0], [32, 0], [64, 0]], block = []}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [8, 1], instrShape = [16, 256, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @matmul_subtiled(%arg0: !tt.tensordesc<tensor<128x64xf16, #shared>>, %arg1: i32, %arg2: i32, %arg3: i64, %arg4: i64, %arg5: !tt.tensordesc<tensor<256x64xf16, #shared>>, %arg6: i32, %arg7: i32, %arg8: i64, %arg9: i64, %arg10: !tt.tensordesc<tensor<128x128xf16, #shared>>, %arg11: i32, %arg12: i32, %arg13: i64, %arg14: i64, %arg15: i32, %arg16: i32, %arg17: i32) attributes {noinline = false} {
    %c256_i32 = arith.constant 256 : i32
    %c128_i32 = arith.constant 128 : i32
    %c64_i32 = arith.constant 64 : i32
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %c63_i32 = arith.constant 63 : i32
    %cst = arith.constant dense<0.000000e+00> : tensor<128x256xf32, #mma>
    %0 = tt.get_program_id x : i32
    %1 = tt.get_program_id y : i32
    %2 = arith.addi %arg17, %c63_i32 : i32
    %3 = arith.divsi %2, %c64_i32 : i32
    %4 = arith.muli %0, %c128_i32 : i32
    %5 = arith.muli %1, %c256_i32 : i32
    %6 = scf.for %arg18 = %c0_i32 to %3 step %c1_i32 iter_args(%arg19 = %cst) -> (tensor<128x256xf32, #mma>)  : i32 {
      %11 = arith.muli %arg18, %c64_i32 : i32
      %12 = tt.descriptor_load %arg0[%4, %11] : !tt.tensordesc<tensor<128x64xf16, #shared>> -> tensor<128x64xf16, #blocked>
      %13 = ttg.local_alloc %12 : (tensor<128x64xf16, #blocked>) -> !ttg.memdesc<128x64xf16, #shared, #smem>
      %14 = tt.descriptor_load %arg5[%5, %11] : !tt.tensordesc<tensor<256x64xf16, #shared>> -> tensor<256x64xf16, #blocked>
      %15 = ttg.local_alloc %14 : (tensor<256x64xf16, #blocked>) -> !ttg.memdesc<256x64xf16, #shared, #smem>
      %16 = ttg.memdesc_trans %15 {order = array<i32: 1, 0>} : !ttg.memdesc<256x64xf16, #shared, #smem> -> !ttg.memdesc<64x256xf16, #shared1, #smem>
      %17 = ttng.warp_group_dot %13, %16, %arg19 {inputPrecision = 0 : i32} : !ttg.memdesc<128x64xf16, #shared, #smem> * !ttg.memdesc<64x256xf16, #shared1, #smem> -> tensor<128x256xf32, #mma>
      scf.yield %17 : tensor<128x256xf32, #mma>
    } {tt.warp_specialize}
    %7 = arith.muli %0, %c128_i32 : i32
    %8 = arith.muli %1, %c256_i32 : i32
    %halves = tt.reshape %6 : tensor<128x256xf32, #mma> -> tensor<128x2x128xf32, #linear>
    %cols = tt.trans %halves {order = array<i32: 0, 2, 1>} : tensor<128x2x128xf32, #linear> -> tensor<128x128x2xf32, #linear1>
    %left, %right = tt.split %cols : tensor<128x128x2xf32, #linear1> -> tensor<128x128xf32, #linear2>
    %lh = arith.truncf %left : tensor<128x128xf32, #linear2> to tensor<128x128xf16, #linear2>
    %lb = ttg.convert_layout %lh : tensor<128x128xf16, #linear2> -> tensor<128x128xf16, #blocked1>
    tt.descriptor_store %arg10[%7, %8], %lb : !tt.tensordesc<tensor<128x128xf16, #shared>>, tensor<128x128xf16, #blocked1>
    %8r = arith.addi %8, %c128_i32 : i32
    %rh = arith.truncf %right : tensor<128x128xf32, #linear2> to tensor<128x128xf16, #linear2>
    %rb = ttg.convert_layout %rh : tensor<128x128xf16, #linear2> -> tensor<128x128xf16, #blocked1>
    tt.descriptor_store %arg10[%7, %8r], %rb : !tt.tensordesc<tensor<128x128xf16, #shared>>, tensor<128x128xf16, #blocked1>
    tt.return
  }
}
