// RUN: ttpipe-opt %s -p 'ttpipe-warp-specialize{mode=auto}' | filecheck %s
// RUN: sed 's/%7 = tt.splat %arg20 : f32 ->/%7 = arith.constant dense<1.250000e-01> :/' %s | ttpipe-opt -p 'ttpipe-warp-specialize{mode=auto}' | filecheck %s --check-prefix=CONSTANT
// RUN: sed 's/%7 = tt.splat %arg20 : f32 ->/%7 = arith.constant dense<-1.250000e-01> :/' %s | ttpipe-opt -p 'ttpipe-warp-specialize{mode=auto}' | filecheck %s --check-prefix=NEGATIVE

// Attention forward, not causal (the bench's `attention_fwd`, D = 64, 128x128 blocks, bf16),
// at num_warps = 8 as ttgir-sm90 hands it to the pass. Its row max reads the scores scaled
// by `qk_scale`, a run-time float (`max(S * qk_scale)`): each consumer warpgroup runs its
// program in two versions under one `scf.if (qk_scale > 0 and qk_scale < inf)` outside the
// loops. In the first the max reduces S itself and the row vector is scaled after it (the
// same max bit for bit in that range: rounding is monotone); the scaled tile still feeds the
// exponent. In the second the max reduces the scaled tile, as written. The rotated loop and
// the prologue are in both.
//
// With the scale a constant (`sed` makes it 0.125: a `tl.constexpr` scale), nothing is
// versioned: the max reduces S and the row vector is multiplied by the constant. A constant
// outside (0, inf) (-0.125) keeps the max as written, also in one version.

// CONSTANT-LABEL: tt.func public @attention_fwd(
// CONSTANT-NOT: arith.cmpf
// CONSTANT: %[[S:.+]] = ttng.warp_group_dot_wait %{{.+}} {pendings = 0 : i32} : tensor<64x128xf32, #mma>
// CONSTANT-NEXT: arith.mulf %[[S]], %{{.+}} : tensor<64x128xf32, #mma>
// CONSTANT-NEXT: %[[MAX:.+]] = "tt.reduce"(%[[S]]) <{axis = 1 : i32}>
// CONSTANT: %[[ROW_SCALE:.+]] = arith.constant dense<1.250000e-01> : tensor<64xf32, #ttg.slice<{dim = 1, parent = #mma}>>
// CONSTANT-NEXT: arith.mulf %[[MAX]], %[[ROW_SCALE]] : tensor<64xf32
// CONSTANT: partition0(
// CONSTANT-NOT: arith.cmpf
// CONSTANT: partition1(

// NEGATIVE-LABEL: tt.func public @attention_fwd(
// NEGATIVE-NOT: arith.cmpf
// NEGATIVE: %[[S:.+]] = ttng.warp_group_dot_wait %{{.+}} {pendings = 0 : i32} : tensor<64x128xf32, #mma>
// NEGATIVE-NEXT: %[[SCALED:.+]] = arith.mulf %[[S]], %{{.+}} : tensor<64x128xf32, #mma>
// NEGATIVE-NEXT: "tt.reduce"(%[[SCALED]]) <{axis = 1 : i32}>
// NEGATIVE: partition1(

// CHECK-LABEL: tt.func public @attention_fwd(
// CHECK: default {
// CHECK: %[[POSITIVE:.+]] = arith.cmpf ogt, %[[SCALE:[^,]+]], %{{.+}} : f32
// CHECK-NEXT: %[[FINITE:.+]] = arith.cmpf olt, %[[SCALE]], %{{.+}} : f32
// CHECK-NEXT: %[[IN_RANGE:.+]] = arith.andi %[[POSITIVE]], %[[FINITE]] : i1
// CHECK-NEXT: scf.if %[[IN_RANGE]] {
// CHECK: %[[TILE_SCALE:.+]] = tt.splat %[[SCALE]] : f32 -> tensor<64x128xf32, #mma>
// CHECK: %[[S:.+]] = ttng.warp_group_dot_wait %{{.+}} {pendings = 0 : i32} : tensor<64x128xf32, #mma>
// CHECK-NEXT: arith.mulf %[[S]], %[[TILE_SCALE]] : tensor<64x128xf32, #mma>
// CHECK-NEXT: %[[MAX:.+]] = "tt.reduce"(%[[S]]) <{axis = 1 : i32}>
// CHECK: arith.maxnumf
// CHECK: %[[ROW_SCALE:.+]] = tt.splat %[[SCALE]] : f32 -> tensor<64xf32, #ttg.slice<{dim = 1, parent = #mma}>>
// CHECK-NEXT: arith.mulf %[[MAX]], %[[ROW_SCALE]] : tensor<64xf32
// CHECK: scf.for
// CHECK: %[[S_J:.+]] = ttng.warp_group_dot_wait %{{.+}} {pendings = 1 : i32} : tensor<64x128xf32, #mma>
// CHECK-NEXT: arith.mulf %[[S_J]], %[[TILE_SCALE]]
// CHECK-NEXT: "tt.reduce"(%[[S_J]]) <{axis = 1 : i32}>
// CHECK: } else {
// CHECK: %[[TILE_SCALE2:.+]] = tt.splat %[[SCALE]] : f32 -> tensor<64x128xf32, #mma>
// CHECK: %[[S2:.+]] = ttng.warp_group_dot_wait %{{.+}} {pendings = 0 : i32} : tensor<64x128xf32, #mma>
// CHECK-NEXT: %[[SCALED:.+]] = arith.mulf %[[S2]], %[[TILE_SCALE2]] : tensor<64x128xf32, #mma>
// CHECK-NEXT: "tt.reduce"(%[[SCALED]]) <{axis = 1 : i32}>
// CHECK: ttg.warp_yield
// CHECK: partition0(
// CHECK: arith.cmpf ogt
// CHECK: scf.if
// CHECK: } else {
// CHECK: ttg.warp_return
// CHECK: partition1(
// CHECK-NOT: arith.cmpf
// CHECK: ttg.warp_return

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [8, 1], instrShape = [16, 128, 16]}>
#mma1 = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [8, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @attention_fwd(%arg0: !tt.tensordesc<tensor<128x64xbf16, #shared>>, %arg1: i32, %arg2: i32, %arg3: i64, %arg4: i64, %arg5: !tt.tensordesc<tensor<128x64xbf16, #shared>>, %arg6: i32, %arg7: i32, %arg8: i64, %arg9: i64, %arg10: !tt.tensordesc<tensor<128x64xbf16, #shared>>, %arg11: i32, %arg12: i32, %arg13: i64, %arg14: i64, %arg15: !tt.tensordesc<tensor<128x64xbf16, #shared>>, %arg16: i32, %arg17: i32, %arg18: i64, %arg19: i64, %arg20: f32, %arg21: i32 {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %cst = arith.constant dense<0.000000e+00> : tensor<128x128xf32, #mma>
    %c128_i32 = arith.constant 128 : i32
    %c0_i32 = arith.constant 0 : i32
    %cst_0 = arith.constant dense<0.000000e+00> : tensor<128x64xf32, #mma1>
    %cst_1 = arith.constant dense<0.000000e+00> : tensor<128xf32, #ttg.slice<{dim = 1, parent = #mma}>>
    %cst_2 = arith.constant dense<0xFF800000> : tensor<128xf32, #ttg.slice<{dim = 1, parent = #mma}>>
    %0 = tt.get_program_id y : i32
    %1 = arith.muli %0, %arg21 : i32
    %2 = tt.get_program_id x : i32
    %3 = arith.muli %2, %c128_i32 : i32
    %4 = arith.addi %1, %3 : i32
    %5 = tt.descriptor_load %arg0[%4, %c0_i32] : !tt.tensordesc<tensor<128x64xbf16, #shared>> -> tensor<128x64xbf16, #blocked>
    %6 = ttg.local_alloc %5 : (tensor<128x64xbf16, #blocked>) -> !ttg.memdesc<128x64xbf16, #shared, #smem>
    %7 = tt.splat %arg20 : f32 -> tensor<128x128xf32, #mma>
    %8:3 = scf.for %arg22 = %c0_i32 to %arg21 step %c128_i32 iter_args(%arg23 = %cst_2, %arg24 = %cst_1, %arg25 = %cst_0) -> (tensor<128xf32, #ttg.slice<{dim = 1, parent = #mma}>>, tensor<128xf32, #ttg.slice<{dim = 1, parent = #mma}>>, tensor<128x64xf32, #mma1>)  : i32 {
      %15 = arith.addi %1, %arg22 : i32
      %16 = tt.descriptor_load %arg5[%15, %c0_i32] : !tt.tensordesc<tensor<128x64xbf16, #shared>> -> tensor<128x64xbf16, #blocked>
      %17 = ttg.local_alloc %16 : (tensor<128x64xbf16, #blocked>) -> !ttg.memdesc<128x64xbf16, #shared, #smem>
      %18 = ttg.memdesc_trans %17 {order = array<i32: 1, 0>} : !ttg.memdesc<128x64xbf16, #shared, #smem> -> !ttg.memdesc<64x128xbf16, #shared1, #smem>
      %19 = ttng.warp_group_dot %6, %18, %cst {inputPrecision = 0 : i32} : !ttg.memdesc<128x64xbf16, #shared, #smem> * !ttg.memdesc<64x128xbf16, #shared1, #smem> -> tensor<128x128xf32, #mma>
      %20 = arith.mulf %19, %7 : tensor<128x128xf32, #mma>
      %21 = "tt.reduce"(%20) <{axis = 1 : i32}> ({
      ^bb0(%arg26: f32, %arg27: f32):
        %41 = arith.maxnumf %arg26, %arg27 : f32
        tt.reduce.return %41 : f32
      }) : (tensor<128x128xf32, #mma>) -> tensor<128xf32, #ttg.slice<{dim = 1, parent = #mma}>>
      %22 = arith.maxnumf %arg23, %21 : tensor<128xf32, #ttg.slice<{dim = 1, parent = #mma}>>
      %23 = tt.expand_dims %22 {axis = 1 : i32} : tensor<128xf32, #ttg.slice<{dim = 1, parent = #mma}>> -> tensor<128x1xf32, #mma>
      %24 = tt.broadcast %23 : tensor<128x1xf32, #mma> -> tensor<128x128xf32, #mma>
      %25 = arith.subf %20, %24 : tensor<128x128xf32, #mma>
      %26 = math.exp2 %25 : tensor<128x128xf32, #mma>
      %27 = arith.subf %arg23, %22 : tensor<128xf32, #ttg.slice<{dim = 1, parent = #mma}>>
      %28 = math.exp2 %27 : tensor<128xf32, #ttg.slice<{dim = 1, parent = #mma}>>
      %29 = arith.mulf %arg24, %28 : tensor<128xf32, #ttg.slice<{dim = 1, parent = #mma}>>
      %30 = "tt.reduce"(%26) <{axis = 1 : i32}> ({
      ^bb0(%arg26: f32, %arg27: f32):
        %41 = arith.addf %arg26, %arg27 : f32
        tt.reduce.return %41 : f32
      }) : (tensor<128x128xf32, #mma>) -> tensor<128xf32, #ttg.slice<{dim = 1, parent = #mma}>>
      %31 = arith.addf %29, %30 : tensor<128xf32, #ttg.slice<{dim = 1, parent = #mma}>>
      %32 = tt.descriptor_load %arg10[%15, %c0_i32] : !tt.tensordesc<tensor<128x64xbf16, #shared>> -> tensor<128x64xbf16, #blocked>
      %33 = ttg.local_alloc %32 : (tensor<128x64xbf16, #blocked>) -> !ttg.memdesc<128x64xbf16, #shared, #smem>
      %34 = arith.truncf %26 : tensor<128x128xf32, #mma> to tensor<128x128xbf16, #mma>
      %35 = tt.expand_dims %28 {axis = 1 : i32} : tensor<128xf32, #ttg.slice<{dim = 1, parent = #mma}>> -> tensor<128x1xf32, #mma>
      %36 = ttg.convert_layout %35 : tensor<128x1xf32, #mma> -> tensor<128x1xf32, #mma1>
      %37 = tt.broadcast %36 : tensor<128x1xf32, #mma1> -> tensor<128x64xf32, #mma1>
      %38 = arith.mulf %arg25, %37 : tensor<128x64xf32, #mma1>
      %39 = ttg.convert_layout %34 : tensor<128x128xbf16, #mma> -> tensor<128x128xbf16, #ttg.dot_op<{opIdx = 0, parent = #mma1, kWidth = 2}>>
      %40 = ttng.warp_group_dot %39, %33, %38 {inputPrecision = 0 : i32} : tensor<128x128xbf16, #ttg.dot_op<{opIdx = 0, parent = #mma1, kWidth = 2}>> * !ttg.memdesc<128x64xbf16, #shared, #smem> -> tensor<128x64xf32, #mma1>
      scf.yield %22, %31, %40 : tensor<128xf32, #ttg.slice<{dim = 1, parent = #mma}>>, tensor<128xf32, #ttg.slice<{dim = 1, parent = #mma}>>, tensor<128x64xf32, #mma1>
    }
    %9 = tt.expand_dims %8#1 {axis = 1 : i32} : tensor<128xf32, #ttg.slice<{dim = 1, parent = #mma}>> -> tensor<128x1xf32, #mma>
    %10 = ttg.convert_layout %9 : tensor<128x1xf32, #mma> -> tensor<128x1xf32, #mma1>
    %11 = tt.broadcast %10 : tensor<128x1xf32, #mma1> -> tensor<128x64xf32, #mma1>
    %12 = arith.divf %8#2, %11 : tensor<128x64xf32, #mma1>
    %13 = arith.truncf %12 : tensor<128x64xf32, #mma1> to tensor<128x64xbf16, #mma1>
    %14 = ttg.convert_layout %13 : tensor<128x64xbf16, #mma1> -> tensor<128x64xbf16, #blocked>
    tt.descriptor_store %arg15[%4, %c0_i32], %14 : !tt.tensordesc<tensor<128x64xbf16, #shared>>, tensor<128x64xbf16, #blocked>
    tt.return
  }
}
