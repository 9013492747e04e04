// RUN: ttpipe-opt %s -p 'ttpipe-warp-specialize{mode=auto}' | filecheck %s
// RUN: ttpipe-opt %s -p 'ttpipe-warp-specialize{mode=auto consumers=pingpong}' | filecheck %s --check-prefix=PINGPONG
// RUN: ttpipe-opt %s -p 'ttpipe-warp-specialize{mode=auto}' | filecheck %s --check-prefix=MASKED
// RUN: sed 's/%cst_2 = arith.constant dense<0xFF800000> : tensor<128x64xf32/%cst_2 = arith.constant dense<-1.000000e+06> : tensor<128x64xf32/' %s | ttpipe-opt -p 'ttpipe-warp-specialize{mode=auto}' | filecheck %s --check-prefix=OTHER-FILL

// Causal attention forward (the bench's `attention_fwd`, D = 128, 128x64 blocks, bf16) at
// num_warps = 8, as ttgir-sm90 hands it to the pass. The K and V TMA loads go to a one-warp
// producer (a ring of 3 stages, one full mbarrier per stage armed with 32768 bytes, one
// empty mbarrier per stage counting both consumer warpgroups), Q to its own buffer and
// mbarrier, loaded once. Each consumer warpgroup computes 64 rows in 4-warp layouts (the
// default region rows [0, 64), partition0 rows [64, 128): its Q subslice and its causal
// row indices), in a loop rotated by one iteration: S = Q K^T of iteration j and
// O = O * alpha + P V of iteration j - 1 issued back to back, the wait for S only
// (pendings = 1), the softmax, then the wait for O (pendings = 0) and the release of stage
// j - 1; the prologue (iteration 0's S and softmax) and the last update under
// `scf.if (lower < upper)`. The O tile goes out through a staging tile: each warpgroup
// writes its rows, warpgroup 0 issues the one TMA store. With consumers=pingpong the two
// warpgroups also take turns at the tensor cores: a turn mbarrier waited before S and passed
// after O's wgmma.

// The row max reads the causal select of the scaled scores, `max(where(causal, S * qk_scale,
// -inf))` (`attention.ScaledRowMax` through a masked select): each consumer runs in two
// versions on qk_scale being in (0, inf). In the first, the blocks below the diagonal (the
// mask all true) reduce S itself, and the diagonal blocks select S against -inf on the same
// mask, reduce that, and scale it for the exponent (`select(causal, S, -inf) * qk_scale` is
// the scaled select bit for bit); each row max is scaled after. The product S * qk_scale is
// built only where the exponent reads it, so each multiply has one reader (an FFMA with the
// exponent's subtraction). In the second (after the version's `} else {`), the max reduces
// the scaled select as written.

// With the mask's fill -1e6 in place of -inf (`sed`), the max is not rewritten: a row all
// masked has the max -1e6 scaled, not -1e6; no version on the scale.
// OTHER-FILL-LABEL: tt.func public @attention_fwd(
// OTHER-FILL-NOT: arith.cmpf ogt

// MASKED: %[[IN_RANGE:.+]] = arith.andi
// MASKED-NEXT: scf.if %[[IN_RANGE]] {
// MASKED: %[[S:.+]] = ttng.warp_group_dot_wait %{{.+}} {pendings = 0 : i32} : tensor<64x64xf32, #mma>
// MASKED: %[[SCALED:.+]] = arith.mulf %[[S]], %{{.+}} : tensor<64x64xf32, #mma>
// MASKED-NEXT: %[[MAX:.+]] = "tt.reduce"(%[[S]]) <{axis = 1 : i32}>
// MASKED: arith.mulf %[[MAX]], %{{.+}} : tensor<64xf32
// MASKED: arith.subf %[[SCALED]], %{{.+}} : tensor<64x64xf32, #mma>
// MASKED: } else {
// MASKED-NOT: arith.mulf %[[S]],
// MASKED: %[[CAUSAL:.+]] = arith.cmpi sge, %{{.+}}, %{{.+}} : tensor<64x64xi32, #mma>
// MASKED-NEXT: %[[MASKED_S:.+]] = arith.select %[[CAUSAL]], %[[S]], %{{.+}} : tensor<64x64xi1, #mma>, tensor<64x64xf32, #mma>
// MASKED-NEXT: %[[TILE_SCALE:.+]] = tt.splat %{{.+}} : f32 -> tensor<64x64xf32, #mma>
// MASKED-NEXT: %[[MASKED_SCALED:.+]] = arith.mulf %[[MASKED_S]], %[[TILE_SCALE]] : tensor<64x64xf32, #mma>
// MASKED-NEXT: %[[MASKED_MAX:.+]] = "tt.reduce"(%[[MASKED_S]]) <{axis = 1 : i32}>
// MASKED: arith.mulf %[[MASKED_MAX]], %{{.+}} : tensor<64xf32
// MASKED: arith.subf %[[MASKED_SCALED]], %{{.+}} : tensor<64x64xf32, #mma>
// MASKED: {{^      }}} else {
// MASKED: %[[AS_WRITTEN:.+]] = arith.select %{{.+}}, %{{.+}}, %{{.+}} : tensor<64x64xi1, #mma>, tensor<64x64xf32, #mma>
// MASKED-NEXT: "tt.reduce"(%[[AS_WRITTEN]]) <{axis = 1 : i32}>
// MASKED: partition0(

// CHECK: module attributes {{{.*}}"ttg.num-warps" = 4
// CHECK-LABEL: tt.func public @attention_fwd(
// CHECK-COUNT-2: ttg.local_alloc : () -> !ttg.memdesc<3x64x128xbf16
// CHECK-COUNT-3: ttng.init_barrier {{.+}}, 1 :
// CHECK-COUNT-3: ttng.init_barrier {{.+}}, 2 :
// CHECK: ttg.local_alloc : () -> !ttg.memdesc<1x128x128xbf16
// CHECK: ttg.warp_specialize({{.+}}) attributes {requestedRegisters = array<i32: 232, 40>}
// CHECK-NEXT: default {
// CHECK: ttng.wait_barrier
// CHECK: %[[Q0:.+]] = ttg.memdesc_subslice %{{.+}}[0, 0] : {{.+}} -> !ttg.memdesc<64x128xbf16
// CHECK: scf.if
// CHECK: ttng.warp_group_dot %[[Q0]], {{.+}} -> tensor<64x64xf32
// CHECK-NEXT: ttng.warp_group_dot_wait {{.+}} {pendings = 0 : i32}
// CHECK: tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 1
// CHECK: scf.for
// CHECK: ttng.wait_barrier
// CHECK: ttng.warp_group_dot %[[Q0]], {{.+}} -> tensor<64x64xf32
// CHECK: ttng.warp_group_dot {{.+}} -> tensor<64x128xf32
// CHECK-NEXT: ttng.warp_group_dot_wait {{.+}} {pendings = 1 : i32}
// CHECK: "tt.reduce"
// CHECK: ttng.warp_group_dot_wait {{.+}} {pendings = 0 : i32} : tensor<64x128xf32
// CHECK: ttng.arrive_barrier
// CHECK: scf.yield
// CHECK: ttng.warp_group_dot {{.+}} -> tensor<64x128xf32
// CHECK-NEXT: ttng.warp_group_dot_wait {{.+}} {pendings = 0 : i32}
// CHECK: } else {
// CHECK: ttg.memdesc_subslice %{{.+}}[0, 0] : !ttg.memdesc<128x128xbf16
// CHECK: ttng.async_tma_copy_local_to_global
// CHECK: ttg.warp_yield
// CHECK: partition0(
// CHECK: ttg.memdesc_subslice %{{.+}}[64, 0] : {{.+}} -> !ttg.memdesc<64x128xbf16
// CHECK: tt.make_range {end = 128 : i32, start = 64 : i32} : tensor<64xi32, #ttg.slice<{dim = 1
// CHECK: ttng.warp_group_dot_wait {{.+}} {pendings = 1 : i32}
// CHECK: ttg.memdesc_subslice %{{.+}}[64, 0] : !ttg.memdesc<128x128xbf16
// CHECK: ttng.arrive_barrier
// CHECK-NOT: async_tma_copy_local_to_global
// CHECK: ttg.warp_return
// CHECK: partition1({{.+}}) num_warps(1) {
// CHECK: ttng.barrier_expect {{.+}}, 32768
// CHECK: ttng.async_tma_copy_global_to_local
// CHECK: scf.for
// CHECK: ttng.wait_barrier
// CHECK: ttng.barrier_expect {{.+}}, 32768
// CHECK-COUNT-2: ttng.async_tma_copy_global_to_local
// CHECK-NOT: ttng.warp_group_dot
// CHECK: ttg.warp_return

// PINGPONG: ttg.local_alloc : () -> !ttg.memdesc<2x1xi64
// PINGPONG: default {
// PINGPONG: scf.for
// PINGPONG: ttng.wait_barrier
// PINGPONG: ttng.wait_barrier
// PINGPONG: ttng.warp_group_dot
// PINGPONG: ttng.warp_group_dot
// PINGPONG: ttng.arrive_barrier
// PINGPONG-NEXT: ttng.warp_group_dot_wait {{.+}} {pendings = 1 : i32}

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [8, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [8, 1], instrShape = [16, 64, 16]}>
#mma1 = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [8, 1], instrShape = [16, 128, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @attention_fwd(%arg0: !tt.tensordesc<tensor<128x128xbf16, #shared>>, %arg1: i32, %arg2: i32, %arg3: i64, %arg4: i64, %arg5: !tt.tensordesc<tensor<64x128xbf16, #shared>>, %arg6: i32, %arg7: i32, %arg8: i64, %arg9: i64, %arg10: !tt.tensordesc<tensor<64x128xbf16, #shared>>, %arg11: i32, %arg12: i32, %arg13: i64, %arg14: i64, %arg15: !tt.tensordesc<tensor<128x128xbf16, #shared>>, %arg16: i32, %arg17: i32, %arg18: i64, %arg19: i64, %arg20: f32, %arg21: i32 {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %cst = arith.constant dense<0.000000e+00> : tensor<128x64xf32, #mma>
    %c128_i32 = arith.constant 128 : i32
    %c0_i32 = arith.constant 0 : i32
    %c64_i32 = arith.constant 64 : i32
    %cst_0 = arith.constant dense<0.000000e+00> : tensor<128x128xf32, #mma1>
    %cst_1 = arith.constant dense<0.000000e+00> : tensor<128xf32, #ttg.slice<{dim = 1, parent = #mma}>>
    %cst_2 = arith.constant dense<0xFF800000> : tensor<128x64xf32, #mma>
    %cst_3 = arith.constant dense<0xFF800000> : tensor<128xf32, #ttg.slice<{dim = 1, parent = #mma}>>
    %0 = tt.get_program_id y : i32
    %1 = arith.muli %0, %arg21 : i32
    %2 = tt.get_program_id x : i32
    %3 = arith.muli %2, %c128_i32 : i32
    %4 = arith.addi %1, %3 : i32
    %5 = tt.descriptor_load %arg0[%4, %c0_i32] : !tt.tensordesc<tensor<128x128xbf16, #shared>> -> tensor<128x128xbf16, #blocked>
    %6 = ttg.local_alloc %5 : (tensor<128x128xbf16, #blocked>) -> !ttg.memdesc<128x128xbf16, #shared, #smem>
    %7 = arith.addi %3, %c128_i32 : i32
    %8 = arith.minsi %arg21, %7 : i32
    %9:3 = scf.for %arg22 = %c0_i32 to %8 step %c64_i32 iter_args(%arg23 = %cst_3, %arg24 = %cst_1, %arg25 = %cst_0) -> (tensor<128xf32, #ttg.slice<{dim = 1, parent = #mma}>>, tensor<128xf32, #ttg.slice<{dim = 1, parent = #mma}>>, tensor<128x128xf32, #mma1>)  : i32 {
      %16 = arith.addi %1, %arg22 : i32
      %17 = tt.descriptor_load %arg5[%16, %c0_i32] : !tt.tensordesc<tensor<64x128xbf16, #shared>> -> tensor<64x128xbf16, #blocked>
      %18 = ttg.local_alloc %17 : (tensor<64x128xbf16, #blocked>) -> !ttg.memdesc<64x128xbf16, #shared, #smem>
      %19 = ttg.memdesc_trans %18 {order = array<i32: 1, 0>} : !ttg.memdesc<64x128xbf16, #shared, #smem> -> !ttg.memdesc<128x64xbf16, #shared1, #smem>
      %20 = ttng.warp_group_dot %6, %19, %cst {inputPrecision = 0 : i32} : !ttg.memdesc<128x128xbf16, #shared, #smem> * !ttg.memdesc<128x64xbf16, #shared1, #smem> -> tensor<128x64xf32, #mma>
      %21 = tt.splat %arg20 : f32 -> tensor<128x64xf32, #mma>
      %22 = arith.mulf %20, %21 : tensor<128x64xf32, #mma>
      %23 = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #ttg.slice<{dim = 1, parent = #mma}>>
      %24 = tt.splat %3 : i32 -> tensor<128xi32, #ttg.slice<{dim = 1, parent = #mma}>>
      %25 = arith.addi %24, %23 : tensor<128xi32, #ttg.slice<{dim = 1, parent = #mma}>>
      %26 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #mma}>>
      %27 = tt.splat %arg22 : i32 -> tensor<64xi32, #ttg.slice<{dim = 0, parent = #mma}>>
      %28 = arith.addi %27, %26 : tensor<64xi32, #ttg.slice<{dim = 0, parent = #mma}>>
      %29 = tt.expand_dims %25 {axis = 1 : i32} : tensor<128xi32, #ttg.slice<{dim = 1, parent = #mma}>> -> tensor<128x1xi32, #mma>
      %30 = tt.expand_dims %28 {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #mma}>> -> tensor<1x64xi32, #mma>
      %31 = tt.broadcast %29 : tensor<128x1xi32, #mma> -> tensor<128x64xi32, #mma>
      %32 = tt.broadcast %30 : tensor<1x64xi32, #mma> -> tensor<128x64xi32, #mma>
      %33 = arith.cmpi sge, %31, %32 : tensor<128x64xi32, #mma>
      %34 = arith.select %33, %22, %cst_2 : tensor<128x64xi1, #mma>, tensor<128x64xf32, #mma>
      %35 = "tt.reduce"(%34) <{axis = 1 : i32}> ({
      ^bb0(%arg26: f32, %arg27: f32):
        %55 = arith.maxnumf %arg26, %arg27 : f32
        tt.reduce.return %55 : f32
      }) : (tensor<128x64xf32, #mma>) -> tensor<128xf32, #ttg.slice<{dim = 1, parent = #mma}>>
      %36 = arith.maxnumf %arg23, %35 : tensor<128xf32, #ttg.slice<{dim = 1, parent = #mma}>>
      %37 = tt.expand_dims %36 {axis = 1 : i32} : tensor<128xf32, #ttg.slice<{dim = 1, parent = #mma}>> -> tensor<128x1xf32, #mma>
      %38 = tt.broadcast %37 : tensor<128x1xf32, #mma> -> tensor<128x64xf32, #mma>
      %39 = arith.subf %34, %38 : tensor<128x64xf32, #mma>
      %40 = math.exp2 %39 : tensor<128x64xf32, #mma>
      %41 = arith.subf %arg23, %36 : tensor<128xf32, #ttg.slice<{dim = 1, parent = #mma}>>
      %42 = math.exp2 %41 : tensor<128xf32, #ttg.slice<{dim = 1, parent = #mma}>>
      %43 = arith.mulf %arg24, %42 : tensor<128xf32, #ttg.slice<{dim = 1, parent = #mma}>>
      %44 = "tt.reduce"(%40) <{axis = 1 : i32}> ({
      ^bb0(%arg26: f32, %arg27: f32):
        %55 = arith.addf %arg26, %arg27 : f32
        tt.reduce.return %55 : f32
      }) : (tensor<128x64xf32, #mma>) -> tensor<128xf32, #ttg.slice<{dim = 1, parent = #mma}>>
      %45 = arith.addf %43, %44 : tensor<128xf32, #ttg.slice<{dim = 1, parent = #mma}>>
      %46 = tt.descriptor_load %arg10[%16, %c0_i32] : !tt.tensordesc<tensor<64x128xbf16, #shared>> -> tensor<64x128xbf16, #blocked>
      %47 = ttg.local_alloc %46 : (tensor<64x128xbf16, #blocked>) -> !ttg.memdesc<64x128xbf16, #shared, #smem>
      %48 = arith.truncf %40 : tensor<128x64xf32, #mma> to tensor<128x64xbf16, #mma>
      %49 = tt.expand_dims %42 {axis = 1 : i32} : tensor<128xf32, #ttg.slice<{dim = 1, parent = #mma}>> -> tensor<128x1xf32, #mma>
      %50 = ttg.convert_layout %49 : tensor<128x1xf32, #mma> -> tensor<128x1xf32, #mma1>
      %51 = tt.broadcast %50 : tensor<128x1xf32, #mma1> -> tensor<128x128xf32, #mma1>
      %52 = arith.mulf %arg25, %51 : tensor<128x128xf32, #mma1>
      %53 = ttg.convert_layout %48 : tensor<128x64xbf16, #mma> -> tensor<128x64xbf16, #ttg.dot_op<{opIdx = 0, parent = #mma1, kWidth = 2}>>
      %54 = ttng.warp_group_dot %53, %47, %52 {inputPrecision = 0 : i32} : tensor<128x64xbf16, #ttg.dot_op<{opIdx = 0, parent = #mma1, kWidth = 2}>> * !ttg.memdesc<64x128xbf16, #shared, #smem> -> tensor<128x128xf32, #mma1>
      scf.yield %36, %45, %54 : tensor<128xf32, #ttg.slice<{dim = 1, parent = #mma}>>, tensor<128xf32, #ttg.slice<{dim = 1, parent = #mma}>>, tensor<128x128xf32, #mma1>
    }
    %10 = tt.expand_dims %9#1 {axis = 1 : i32} : tensor<128xf32, #ttg.slice<{dim = 1, parent = #mma}>> -> tensor<128x1xf32, #mma>
    %11 = ttg.convert_layout %10 : tensor<128x1xf32, #mma> -> tensor<128x1xf32, #mma1>
    %12 = tt.broadcast %11 : tensor<128x1xf32, #mma1> -> tensor<128x128xf32, #mma1>
    %13 = arith.divf %9#2, %12 : tensor<128x128xf32, #mma1>
    %14 = arith.truncf %13 : tensor<128x128xf32, #mma1> to tensor<128x128xbf16, #mma1>
    %15 = ttg.convert_layout %14 : tensor<128x128xbf16, #mma1> -> tensor<128x128xbf16, #blocked>
    tt.descriptor_store %arg15[%4, %c0_i32], %15 : !tt.tensordesc<tensor<128x128xbf16, #shared>>, tensor<128x128xbf16, #blocked>
    tt.return
  }
}
