// RUN: ttpipe-opt %s -p 'ttpipe-warp-specialize{mode=auto}' | filecheck %s

// Attention forward written with pointers (the bench's `attention_pointers`, not causal,
// D = 128, 128x128 blocks, fp16) at num_warps = 8, as ttgir-sm90 hands it to the pass. O is
// stored with a masked pointer store, after a `ttg.convert_layout` from the wgmma layout to
// a coalesced one; Triton would give that conversion 16 KB of shared scratch beside the ring,
// and the 3-stage ring, Q and the scratch would not fit in 227 KB. Each consumer warpgroup
// converts its 64 rows of O through its rows of the Q buffer instead (all its wgmmas reading
// them are flushed by then), so the ring stays 3 stages deep.
// CHECK: ttg.local_alloc : () -> !ttg.memdesc<3x128x128xf16
// CHECK: %[[Q:.+]] = ttg.local_alloc : () -> !ttg.memdesc<1x128x128xf16
// CHECK: ttg.warp_specialize(
// CHECK: default {
// CHECK: %[[Q0:.+]] = ttg.memdesc_index %[[Q]][
// CHECK-NEXT: %[[ROWS0:.+]] = ttg.memdesc_subslice %[[Q0]][0, 0] {{.*}} -> !ttg.memdesc<64x128xf16
// CHECK-NOT: ttg.convert_layout {{.*}} -> tensor<64x128xf16, #blocked1>
// CHECK: ttg.local_store %{{.+}}, %[[ROWS0]] : tensor<64x128xf16, #mma>
// CHECK-NEXT: %[[O0:.+]] = ttg.local_load %[[ROWS0]] : {{.*}} -> tensor<64x128xf16, #blocked1>
// CHECK: tt.store %{{.+}}, %[[O0]], %{{.+}} : tensor<64x128x!tt.ptr<f16>, #blocked1>
// CHECK: partition0(
// CHECK: %[[ROWS1:.+]] = ttg.memdesc_subslice %{{.+}}[64, 0] {{.*}} -> !ttg.memdesc<64x128xf16
// CHECK-NOT: ttg.convert_layout {{.*}} -> tensor<64x128xf16, #blocked1>
// CHECK: ttg.local_store %{{.+}}, %[[ROWS1]] : tensor<64x128xf16, #mma>
// CHECK-NEXT: %[[O1:.+]] = ttg.local_load %[[ROWS1]] : {{.*}} -> tensor<64x128xf16, #blocked1>
// CHECK: tt.store %{{.+}}, %[[O1]], %{{.+}} : tensor<64x128x!tt.ptr<f16>, #blocked1>
// CHECK: partition1(

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [8, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [8], order = [0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [8, 1], instrShape = [16, 128, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @attention_pointers(%arg0: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg2: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg3: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg4: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg5: f32, %arg6: i32, %arg7: i32 {tt.divisibility = 16 : i32}, %arg8: i32 {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %cst = arith.constant dense<0.000000e+00> : tensor<128x128xf16, #blocked>
    %c128_i32 = arith.constant 128 : i32
    %cst_0 = arith.constant 1.442695 : f32
    %c0_i32 = arith.constant 0 : i32
    %cst_1 = arith.constant dense<0.000000e+00> : tensor<128xf32, #ttg.slice<{dim = 1, parent = #mma}>>
    %cst_2 = arith.constant dense<0xFF800000> : tensor<128x128xf32, #mma>
    %cst_3 = arith.constant dense<0xFF800000> : tensor<128xf32, #ttg.slice<{dim = 1, parent = #mma}>>
    %cst_4 = arith.constant dense<0.000000e+00> : tensor<128x128xf32, #mma>
    %0 = tt.get_program_id x : i32
    %1 = tt.get_program_id y : i32
    %2 = arith.extsi %1 : i32 to i64
    %3 = arith.extsi %arg7 : i32 to i64
    %4 = arith.muli %2, %3 : i64
    %5 = arith.muli %0, %c128_i32 : i32
    %6 = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %7 = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #ttg.slice<{dim = 0, parent = #mma}>>
    %8 = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #blocked1>
    %9 = tt.splat %5 : i32 -> tensor<128xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %10 = tt.splat %5 : i32 -> tensor<128xi32, #blocked1>
    %11 = arith.addi %9, %6 : tensor<128xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %12 = arith.addi %10, %8 : tensor<128xi32, #blocked1>
    %13 = tt.expand_dims %11 {axis = 1 : i32} : tensor<128xi32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<128x1xi32, #blocked>
    %14 = tt.splat %arg6 : i32 -> tensor<128x1xi32, #blocked>
    %15 = arith.cmpi slt, %13, %14 : tensor<128x1xi32, #blocked>
    %16 = tt.addptr %arg0, %4 : !tt.ptr<f16>, i64
    %17 = tt.splat %arg8 : i32 -> tensor<128x1xi32, #blocked>
    %18 = arith.muli %13, %17 : tensor<128x1xi32, #blocked>
    %19 = tt.splat %16 : !tt.ptr<f16> -> tensor<128x1x!tt.ptr<f16>, #blocked>
    %20 = tt.addptr %19, %18 : tensor<128x1x!tt.ptr<f16>, #blocked>, tensor<128x1xi32, #blocked>
    %21 = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %22 = tt.expand_dims %21 {axis = 0 : i32} : tensor<128xi32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x128xi32, #blocked>
    %23 = tt.broadcast %20 : tensor<128x1x!tt.ptr<f16>, #blocked> -> tensor<128x128x!tt.ptr<f16>, #blocked>
    %24 = tt.broadcast %22 : tensor<1x128xi32, #blocked> -> tensor<128x128xi32, #blocked>
    %25 = tt.addptr %23, %24 : tensor<128x128x!tt.ptr<f16>, #blocked>, tensor<128x128xi32, #blocked>
    %26 = tt.broadcast %15 : tensor<128x1xi1, #blocked> -> tensor<128x128xi1, #blocked>
    %27 = tt.load %25, %26, %cst : tensor<128x128x!tt.ptr<f16>, #blocked>
    %28 = ttg.local_alloc %27 : (tensor<128x128xf16, #blocked>) -> !ttg.memdesc<128x128xf16, #shared, #smem>
    %29 = arith.mulf %arg5, %cst_0 : f32
    %30 = tt.addptr %arg1, %4 : !tt.ptr<f16>, i64
    %31 = tt.splat %30 : !tt.ptr<f16> -> tensor<128x1x!tt.ptr<f16>, #blocked>
    %32 = tt.splat %29 : f32 -> tensor<128x128xf32, #mma>
    %33 = tt.splat %arg6 : i32 -> tensor<1x128xi32, #mma>
    %34 = tt.addptr %arg2, %4 : !tt.ptr<f16>, i64
    %35 = tt.splat %34 : !tt.ptr<f16> -> tensor<128x1x!tt.ptr<f16>, #blocked>
    %36:3 = scf.for %arg9 = %c0_i32 to %arg6 step %c128_i32 iter_args(%arg10 = %cst_3, %arg11 = %cst_1, %arg12 = %cst_4) -> (tensor<128xf32, #ttg.slice<{dim = 1, parent = #mma}>>, tensor<128xf32, #ttg.slice<{dim = 1, parent = #mma}>>, tensor<128x128xf32, #mma>)  : i32 {
      %56 = tt.splat %arg9 : i32 -> tensor<128xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
      %57 = tt.splat %arg9 : i32 -> tensor<128xi32, #ttg.slice<{dim = 0, parent = #mma}>>
      %58 = arith.addi %56, %6 : tensor<128xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
      %59 = arith.addi %57, %7 : tensor<128xi32, #ttg.slice<{dim = 0, parent = #mma}>>
      %60 = tt.expand_dims %58 {axis = 1 : i32} : tensor<128xi32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<128x1xi32, #blocked>
      %61 = arith.cmpi slt, %60, %14 : tensor<128x1xi32, #blocked>
      %62 = arith.muli %60, %17 : tensor<128x1xi32, #blocked>
      %63 = tt.addptr %31, %62 : tensor<128x1x!tt.ptr<f16>, #blocked>, tensor<128x1xi32, #blocked>
      %64 = tt.broadcast %63 : tensor<128x1x!tt.ptr<f16>, #blocked> -> tensor<128x128x!tt.ptr<f16>, #blocked>
      %65 = tt.addptr %64, %24 : tensor<128x128x!tt.ptr<f16>, #blocked>, tensor<128x128xi32, #blocked>
      %66 = tt.broadcast %61 : tensor<128x1xi1, #blocked> -> tensor<128x128xi1, #blocked>
      %67 = tt.load %65, %66, %cst : tensor<128x128x!tt.ptr<f16>, #blocked>
      %68 = ttg.local_alloc %67 : (tensor<128x128xf16, #blocked>) -> !ttg.memdesc<128x128xf16, #shared, #smem>
      %69 = ttg.memdesc_trans %68 {order = array<i32: 1, 0>} : !ttg.memdesc<128x128xf16, #shared, #smem> -> !ttg.memdesc<128x128xf16, #shared1, #smem>
      %70 = ttng.warp_group_dot %28, %69, %cst_4 {inputPrecision = 0 : i32} : !ttg.memdesc<128x128xf16, #shared, #smem> * !ttg.memdesc<128x128xf16, #shared1, #smem> -> tensor<128x128xf32, #mma>
      %71 = arith.mulf %70, %32 : tensor<128x128xf32, #mma>
      %72 = tt.expand_dims %59 {axis = 0 : i32} : tensor<128xi32, #ttg.slice<{dim = 0, parent = #mma}>> -> tensor<1x128xi32, #mma>
      %73 = arith.cmpi slt, %72, %33 : tensor<1x128xi32, #mma>
      %74 = tt.broadcast %73 : tensor<1x128xi1, #mma> -> tensor<128x128xi1, #mma>
      %75 = arith.select %74, %71, %cst_2 : tensor<128x128xi1, #mma>, tensor<128x128xf32, #mma>
      %76 = "tt.reduce"(%75) <{axis = 1 : i32}> ({
      ^bb0(%arg13: f32, %arg14: f32):
        %98 = arith.maxnumf %arg13, %arg14 : f32
        tt.reduce.return %98 : f32
      }) : (tensor<128x128xf32, #mma>) -> tensor<128xf32, #ttg.slice<{dim = 1, parent = #mma}>>
      %77 = arith.maxnumf %arg10, %76 : tensor<128xf32, #ttg.slice<{dim = 1, parent = #mma}>>
      %78 = tt.expand_dims %77 {axis = 1 : i32} : tensor<128xf32, #ttg.slice<{dim = 1, parent = #mma}>> -> tensor<128x1xf32, #mma>
      %79 = tt.broadcast %78 : tensor<128x1xf32, #mma> -> tensor<128x128xf32, #mma>
      %80 = arith.subf %75, %79 : tensor<128x128xf32, #mma>
      %81 = math.exp2 %80 : tensor<128x128xf32, #mma>
      %82 = arith.subf %arg10, %77 : tensor<128xf32, #ttg.slice<{dim = 1, parent = #mma}>>
      %83 = math.exp2 %82 : tensor<128xf32, #ttg.slice<{dim = 1, parent = #mma}>>
      %84 = arith.mulf %arg11, %83 : tensor<128xf32, #ttg.slice<{dim = 1, parent = #mma}>>
      %85 = "tt.reduce"(%81) <{axis = 1 : i32}> ({
      ^bb0(%arg13: f32, %arg14: f32):
        %98 = arith.addf %arg13, %arg14 : f32
        tt.reduce.return %98 : f32
      }) : (tensor<128x128xf32, #mma>) -> tensor<128xf32, #ttg.slice<{dim = 1, parent = #mma}>>
      %86 = arith.addf %84, %85 : tensor<128xf32, #ttg.slice<{dim = 1, parent = #mma}>>
      %87 = tt.addptr %35, %62 : tensor<128x1x!tt.ptr<f16>, #blocked>, tensor<128x1xi32, #blocked>
      %88 = tt.broadcast %87 : tensor<128x1x!tt.ptr<f16>, #blocked> -> tensor<128x128x!tt.ptr<f16>, #blocked>
      %89 = tt.addptr %88, %24 : tensor<128x128x!tt.ptr<f16>, #blocked>, tensor<128x128xi32, #blocked>
      %90 = tt.load %89, %66, %cst : tensor<128x128x!tt.ptr<f16>, #blocked>
      %91 = ttg.local_alloc %90 : (tensor<128x128xf16, #blocked>) -> !ttg.memdesc<128x128xf16, #shared, #smem>
      %92 = arith.truncf %81 : tensor<128x128xf32, #mma> to tensor<128x128xf16, #mma>
      %93 = tt.expand_dims %83 {axis = 1 : i32} : tensor<128xf32, #ttg.slice<{dim = 1, parent = #mma}>> -> tensor<128x1xf32, #mma>
      %94 = tt.broadcast %93 : tensor<128x1xf32, #mma> -> tensor<128x128xf32, #mma>
      %95 = arith.mulf %arg12, %94 : tensor<128x128xf32, #mma>
      %96 = ttg.convert_layout %92 : tensor<128x128xf16, #mma> -> tensor<128x128xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
      %97 = ttng.warp_group_dot %96, %91, %95 {inputPrecision = 0 : i32} : tensor<128x128xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * !ttg.memdesc<128x128xf16, #shared, #smem> -> tensor<128x128xf32, #mma>
      scf.yield %77, %86, %97 : tensor<128xf32, #ttg.slice<{dim = 1, parent = #mma}>>, tensor<128xf32, #ttg.slice<{dim = 1, parent = #mma}>>, tensor<128x128xf32, #mma>
    }
    %37 = tt.splat %arg6 : i32 -> tensor<128xi32, #blocked1>
    %38 = arith.cmpi slt, %12, %37 : tensor<128xi32, #blocked1>
    %39 = arith.muli %1, %arg6 : i32
    %40 = tt.addptr %arg4, %39 : !tt.ptr<f32>, i32
    %41 = tt.splat %40 : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>, #blocked1>
    %42 = tt.addptr %41, %12 : tensor<128x!tt.ptr<f32>, #blocked1>, tensor<128xi32, #blocked1>
    %43 = math.log2 %36#1 : tensor<128xf32, #ttg.slice<{dim = 1, parent = #mma}>>
    %44 = arith.addf %36#0, %43 : tensor<128xf32, #ttg.slice<{dim = 1, parent = #mma}>>
    %45 = ttg.convert_layout %44 : tensor<128xf32, #ttg.slice<{dim = 1, parent = #mma}>> -> tensor<128xf32, #blocked1>
    tt.store %42, %45, %38 : tensor<128x!tt.ptr<f32>, #blocked1>
    %46 = tt.addptr %arg3, %4 : !tt.ptr<f16>, i64
    %47 = tt.splat %46 : !tt.ptr<f16> -> tensor<128x1x!tt.ptr<f16>, #blocked>
    %48 = tt.addptr %47, %18 : tensor<128x1x!tt.ptr<f16>, #blocked>, tensor<128x1xi32, #blocked>
    %49 = tt.broadcast %48 : tensor<128x1x!tt.ptr<f16>, #blocked> -> tensor<128x128x!tt.ptr<f16>, #blocked>
    %50 = tt.addptr %49, %24 : tensor<128x128x!tt.ptr<f16>, #blocked>, tensor<128x128xi32, #blocked>
    %51 = tt.expand_dims %36#1 {axis = 1 : i32} : tensor<128xf32, #ttg.slice<{dim = 1, parent = #mma}>> -> tensor<128x1xf32, #mma>
    %52 = tt.broadcast %51 : tensor<128x1xf32, #mma> -> tensor<128x128xf32, #mma>
    %53 = arith.divf %36#2, %52 : tensor<128x128xf32, #mma>
    %54 = arith.truncf %53 : tensor<128x128xf32, #mma> to tensor<128x128xf16, #mma>
    %55 = ttg.convert_layout %54 : tensor<128x128xf16, #mma> -> tensor<128x128xf16, #blocked>
    tt.store %50, %55, %26 : tensor<128x128x!tt.ptr<f16>, #blocked>
    tt.return
  }
}
