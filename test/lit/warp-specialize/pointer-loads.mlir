// RUN: ttpipe-opt %s --split-input-file --verify-diagnostics -p ttpipe-warp-specialize
// RUN: ttpipe-opt %s --split-input-file -p ttpipe-warp-specialize 2>/dev/null | filecheck %s

// Triton's tutorial matmul (03) as users write it, 64x64x64 fp16 tiles, num_warps=4, its K
// loop marked warp_specialize=True: pointer loads, rows and columns kept in bounds with `%`
// (rows past M read row 0 again), pointers advanced along K, a masked pointer store. The
// loads become TMA loads of descriptors made before the loop (extents [M, K] and [K, N]);
// rows past M now read zeros, which is exact because the store masks those rows (and columns
// past N): the loop is warp-specialized as a descriptor kernel is, the producer's TMA copies
// reading the kernel-made descriptors.
// CHECK-LABEL: tt.func public @matmul_pointers(
// CHECK-SAME: %[[A:[a-z0-9_]+]]: !tt.ptr<f16> {{[^,]*}}, %[[B:[a-z0-9_]+]]: !tt.ptr<f16> {{[^,]*}}, %{{[a-z0-9_]+}}: !tt.ptr<f16> {{[^,]*}}, %[[M:[a-z0-9_]+]]: i32, %[[N:[a-z0-9_]+]]: i32 {{[^,]*}}, %[[K:[a-z0-9_]+]]: i32
// CHECK: %[[MX:.+]] = arith.maxsi %[[M]], %c1_i32
// CHECK: %[[KX:.+]] = arith.maxsi %[[K]], %c1_i32
// CHECK: %[[ADESC:.+]] = tt.make_tensor_descriptor %[[A]], [%[[MX]], %[[KX]]]
// CHECK: %[[BDESC:.+]] = tt.make_tensor_descriptor %[[B]], [
// CHECK: ttg.warp_specialize({{.*}}%[[ADESC]]{{.*}}%[[BDESC]]{{.*}}) attributes {requestedRegisters = array<i32: 40>}
// CHECK-NEXT: default {
// CHECK-NOT: tt.load
// CHECK: ttng.warp_group_dot {{.+}}isAsync = true
// CHECK: partition0({{.*}}, %[[PADESC:[a-z0-9_]+]]: !tt.tensordesc<tensor<64x64xf16, #shared>>, %{{[a-z0-9_]+}}: i1, %[[PBDESC:[a-z0-9_]+]]: !tt.tensordesc<tensor<64x64xf16, #shared>>
// CHECK-SAME: num_warps(1)
// CHECK: ttng.async_tma_copy_global_to_local %[[PADESC]]
// CHECK: ttng.async_tma_copy_global_to_local %[[PBDESC]]
// CHECK: tt.store
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @matmul_pointers(%a_ptr: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %b_ptr: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %c_ptr: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %M: i32, %N: i32 {tt.divisibility = 16 : i32}, %K: i32 {tt.divisibility = 16 : i32}, %stride_am: i32 {tt.divisibility = 16 : i32}, %stride_bk: i32 {tt.divisibility = 16 : i32}, %stride_cm: i32 {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %cst = arith.constant dense<64> : tensor<64x64xi32, #blocked>
    %c64_i32 = arith.constant 64 : i32
    %c8_i32 = arith.constant 8 : i32
    %cst_0 = arith.constant dense<0.000000e+00> : tensor<64x64xf16, #blocked>
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %c63_i32 = arith.constant 63 : i32
    %cst_1 = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma>
    %0 = tt.get_program_id x : i32
    %1 = arith.addi %M, %c63_i32 : i32
    %2 = arith.divsi %1, %c64_i32 : i32
    %3 = arith.addi %N, %c63_i32 : i32
    %4 = arith.divsi %3, %c64_i32 : i32
    %5 = arith.muli %4, %c8_i32 : i32
    %6 = arith.divsi %0, %5 : i32
    %7 = arith.muli %6, %c8_i32 : i32
    %8 = arith.subi %2, %7 : i32
    %9 = arith.minsi %8, %c8_i32 : i32
    %10 = arith.remsi %0, %5 : i32
    %11 = arith.remsi %10, %9 : i32
    %12 = arith.addi %7, %11 : i32
    %13 = arith.divsi %10, %9 : i32
    %14 = arith.muli %12, %c64_i32 : i32
    %15 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %16 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %17 = tt.splat %14 : i32 -> tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %18 = arith.addi %17, %15 : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %19 = arith.muli %13, %c64_i32 : i32
    %20 = tt.splat %19 : i32 -> tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %21 = arith.addi %20, %16 : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %22 = tt.splat %M : i32 -> tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %23 = arith.remsi %18, %22 : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %24 = tt.splat %N : i32 -> tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %25 = arith.remsi %21, %24 : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %26 = tt.expand_dims %23 {axis = 1 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<64x1xi32, #blocked>
    %27 = tt.splat %stride_am : i32 -> tensor<64x1xi32, #blocked>
    %28 = arith.muli %26, %27 : tensor<64x1xi32, #blocked>
    %29 = tt.expand_dims %16 {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x64xi32, #blocked>
    %30 = tt.broadcast %28 : tensor<64x1xi32, #blocked> -> tensor<64x64xi32, #blocked>
    %31 = tt.broadcast %29 : tensor<1x64xi32, #blocked> -> tensor<64x64xi32, #blocked>
    %32 = arith.addi %30, %31 : tensor<64x64xi32, #blocked>
    %33 = tt.splat %a_ptr : !tt.ptr<f16> -> tensor<64x64x!tt.ptr<f16>, #blocked>
    %34 = tt.addptr %33, %32 : tensor<64x64x!tt.ptr<f16>, #blocked>, tensor<64x64xi32, #blocked>
    %35 = tt.expand_dims %15 {axis = 1 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<64x1xi32, #blocked>
    %36 = tt.splat %stride_bk : i32 -> tensor<64x1xi32, #blocked>
    %37 = arith.muli %35, %36 : tensor<64x1xi32, #blocked>
    %38 = tt.expand_dims %25 {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x64xi32, #blocked>
    %39 = tt.broadcast %37 : tensor<64x1xi32, #blocked> -> tensor<64x64xi32, #blocked>
    %40 = tt.broadcast %38 : tensor<1x64xi32, #blocked> -> tensor<64x64xi32, #blocked>
    %41 = arith.addi %39, %40 : tensor<64x64xi32, #blocked>
    %42 = tt.splat %b_ptr : !tt.ptr<f16> -> tensor<64x64x!tt.ptr<f16>, #blocked>
    %43 = tt.addptr %42, %41 : tensor<64x64x!tt.ptr<f16>, #blocked>, tensor<64x64xi32, #blocked>
    %44 = arith.addi %K, %c63_i32 : i32
    %45 = arith.divsi %44, %c64_i32 : i32
    %46 = arith.muli %stride_bk, %c64_i32 : i32
    %47 = tt.splat %46 : i32 -> tensor<64x64xi32, #blocked>
    %48:3 = scf.for %arg9 = %c0_i32 to %45 step %c1_i32 iter_args(%arg10 = %cst_1, %arg11 = %34, %arg12 = %43) -> (tensor<64x64xf32, #mma>, tensor<64x64x!tt.ptr<f16>, #blocked>, tensor<64x64x!tt.ptr<f16>, #blocked>)  : i32 {
      %67 = arith.muli %arg9, %c64_i32 : i32
      %68 = arith.subi %K, %67 : i32
      %69 = tt.splat %68 : i32 -> tensor<1x64xi32, #blocked>
      %70 = arith.cmpi slt, %29, %69 : tensor<1x64xi32, #blocked>
      %71 = tt.broadcast %70 : tensor<1x64xi1, #blocked> -> tensor<64x64xi1, #blocked>
      %72 = tt.load %arg11, %71, %cst_0 : tensor<64x64x!tt.ptr<f16>, #blocked>
      %73 = ttg.local_alloc %72 : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #shared, #smem>
      %74 = tt.splat %68 : i32 -> tensor<64x1xi32, #blocked>
      %75 = arith.cmpi slt, %35, %74 : tensor<64x1xi32, #blocked>
      %76 = tt.broadcast %75 : tensor<64x1xi1, #blocked> -> tensor<64x64xi1, #blocked>
      %77 = tt.load %arg12, %76, %cst_0 : tensor<64x64x!tt.ptr<f16>, #blocked>
      %78 = ttg.local_alloc %77 : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #shared, #smem>
      %79 = ttng.warp_group_dot %73, %78, %arg10 {inputPrecision = 0 : i32} : !ttg.memdesc<64x64xf16, #shared, #smem> * !ttg.memdesc<64x64xf16, #shared, #smem> -> tensor<64x64xf32, #mma>
      %80 = tt.addptr %arg11, %cst : tensor<64x64x!tt.ptr<f16>, #blocked>, tensor<64x64xi32, #blocked>
      %81 = tt.addptr %arg12, %47 : tensor<64x64x!tt.ptr<f16>, #blocked>, tensor<64x64xi32, #blocked>
      scf.yield %79, %80, %81 : tensor<64x64xf32, #mma>, tensor<64x64x!tt.ptr<f16>, #blocked>, tensor<64x64x!tt.ptr<f16>, #blocked>
    } {tt.warp_specialize}
    %49 = tt.expand_dims %18 {axis = 1 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<64x1xi32, #blocked>
    %50 = tt.splat %stride_cm : i32 -> tensor<64x1xi32, #blocked>
    %51 = arith.muli %50, %49 : tensor<64x1xi32, #blocked>
    %52 = tt.splat %c_ptr : !tt.ptr<f16> -> tensor<64x1x!tt.ptr<f16>, #blocked>
    %53 = tt.addptr %52, %51 : tensor<64x1x!tt.ptr<f16>, #blocked>, tensor<64x1xi32, #blocked>
    %54 = tt.expand_dims %21 {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x64xi32, #blocked>
    %55 = tt.broadcast %53 : tensor<64x1x!tt.ptr<f16>, #blocked> -> tensor<64x64x!tt.ptr<f16>, #blocked>
    %56 = tt.broadcast %54 : tensor<1x64xi32, #blocked> -> tensor<64x64xi32, #blocked>
    %57 = tt.addptr %55, %56 : tensor<64x64x!tt.ptr<f16>, #blocked>, tensor<64x64xi32, #blocked>
    %58 = tt.splat %M : i32 -> tensor<64x1xi32, #blocked>
    %59 = arith.cmpi slt, %49, %58 : tensor<64x1xi32, #blocked>
    %60 = tt.splat %N : i32 -> tensor<1x64xi32, #blocked>
    %61 = arith.cmpi slt, %54, %60 : tensor<1x64xi32, #blocked>
    %62 = tt.broadcast %59 : tensor<64x1xi1, #blocked> -> tensor<64x64xi1, #blocked>
    %63 = tt.broadcast %61 : tensor<1x64xi1, #blocked> -> tensor<64x64xi1, #blocked>
    %64 = arith.andi %62, %63 : tensor<64x64xi1, #blocked>
    %65 = arith.truncf %48#0 : tensor<64x64xf32, #mma> to tensor<64x64xf16, #mma>
    %66 = ttg.convert_layout %65 : tensor<64x64xf16, #mma> -> tensor<64x64xf16, #blocked>
    tt.store %57, %66, %64 : tensor<64x64x!tt.ptr<f16>, #blocked>
    tt.return
  }
}

// -----

// Triton's persistent tutorial matmul (09), 64x64x64 fp16, num_warps=4: the tile loop marked,
// rows and columns kept in bounds with `tl.where`, the K loop's pointers recomputed from the
// K index each iteration. Ping-pong consumers; the producer's K loop issues the TMA copies
// from the kernel-made descriptors. `tl.where` hides B's contiguity, so the kernel staged B's tile
// transposed (K-major, #shared1 in the input); TMA writes it N-contiguous, as it lies in
// memory, so the stage takes the descriptor's layout (#shared), which wgmma reads as well.
// CHECK-LABEL: tt.func public @matmul_pointers_persistent(
// CHECK: tt.make_tensor_descriptor {{.*}} : <f16>, <tensor<64x64xf16, #shared>>
// CHECK: tt.make_tensor_descriptor {{.*}} : <f16>, <tensor<64x64xf16, #shared>>
// CHECK: ttg.warp_specialize({{.*}}) attributes {requestedRegisters = array<i32: 232, 40>}
// CHECK: partition0({{.*}}) num_warps(4) {
// CHECK: partition1({{.*}}) num_warps(1) {
// CHECK: scf.for
// CHECK: scf.for
// CHECK: ttng.async_tma_copy_global_to_local
// CHECK: ttng.async_tma_copy_global_to_local
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [2, 2], order = [0, 1]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @matmul_pointers_persistent(%a_ptr: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %b_ptr: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %c_ptr: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %M: i32, %N: i32 {tt.divisibility = 16 : i32}, %K: i32 {tt.divisibility = 16 : i32}, %stride_am: i32 {tt.divisibility = 16 : i32}, %stride_bk: i32 {tt.divisibility = 16 : i32}, %stride_cm: i32 {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %cst = arith.constant dense<0> : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %cst_0 = arith.constant dense<0> : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked1}>>
    %c64_i32 = arith.constant 64 : i32
    %c8_i32 = arith.constant 8 : i32
    %c63_i32 = arith.constant 63 : i32
    %cst_1 = arith.constant dense<0.000000e+00> : tensor<64x64xf16, #blocked1>
    %cst_2 = arith.constant dense<0.000000e+00> : tensor<64x64xf16, #blocked>
    %c132_i32 = arith.constant 132 : i32
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %cst_3 = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma>
    %0 = arith.addi %M, %c63_i32 : i32
    %1 = arith.divsi %0, %c64_i32 : i32
    %2 = arith.addi %N, %c63_i32 : i32
    %3 = arith.divsi %2, %c64_i32 : i32
    %4 = arith.addi %K, %c63_i32 : i32
    %5 = arith.divsi %4, %c64_i32 : i32
    %6 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked1}>>
    %7 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %8 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked1}>>
    %9 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %10 = arith.muli %3, %c8_i32 : i32
    %11 = tt.get_program_id x : i32
    %12 = arith.muli %1, %3 : i32
    %13 = tt.splat %M : i32 -> tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked1}>>
    %14 = tt.splat %N : i32 -> tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %15 = tt.splat %stride_am : i32 -> tensor<64x1xi32, #blocked1>
    %16 = tt.splat %a_ptr : !tt.ptr<f16> -> tensor<64x64x!tt.ptr<f16>, #blocked1>
    %17 = tt.splat %stride_bk : i32 -> tensor<64x1xi32, #blocked>
    %18 = tt.splat %b_ptr : !tt.ptr<f16> -> tensor<64x64x!tt.ptr<f16>, #blocked>
    %19 = tt.expand_dims %8 {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked1}>> -> tensor<1x64xi32, #blocked1>
    %20 = tt.expand_dims %7 {axis = 1 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<64x1xi32, #blocked>
    %21 = tt.splat %stride_cm : i32 -> tensor<64x1xi32, #blocked1>
    %22 = tt.splat %c_ptr : !tt.ptr<f16> -> tensor<64x1x!tt.ptr<f16>, #blocked1>
    %23 = tt.splat %M : i32 -> tensor<64x1xi32, #blocked1>
    %24 = tt.splat %N : i32 -> tensor<1x64xi32, #blocked1>
    scf.for %arg9 = %11 to %12 step %c132_i32  : i32 {
      %25 = arith.divsi %arg9, %10 : i32
      %26 = arith.muli %25, %c8_i32 : i32
      %27 = arith.subi %1, %26 : i32
      %28 = arith.minsi %27, %c8_i32 : i32
      %29 = arith.remsi %arg9, %28 : i32
      %30 = arith.addi %26, %29 : i32
      %31 = arith.remsi %arg9, %10 : i32
      %32 = arith.divsi %31, %28 : i32
      %33 = arith.muli %30, %c64_i32 : i32
      %34 = tt.splat %33 : i32 -> tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked1}>>
      %35 = arith.addi %34, %6 : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked1}>>
      %36 = arith.muli %32, %c64_i32 : i32
      %37 = tt.splat %36 : i32 -> tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
      %38 = tt.splat %36 : i32 -> tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked1}>>
      %39 = arith.addi %37, %9 : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
      %40 = arith.addi %38, %8 : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked1}>>
      %41 = arith.cmpi slt, %35, %13 : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked1}>>
      %42 = arith.select %41, %35, %cst_0 : tensor<64xi1, #ttg.slice<{dim = 1, parent = #blocked1}>>, tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked1}>>
      %43 = arith.cmpi slt, %39, %14 : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
      %44 = arith.select %43, %39, %cst : tensor<64xi1, #ttg.slice<{dim = 0, parent = #blocked}>>, tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
      %45 = tt.expand_dims %42 {axis = 1 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked1}>> -> tensor<64x1xi32, #blocked1>
      %46 = arith.muli %45, %15 : tensor<64x1xi32, #blocked1>
      %47 = tt.broadcast %46 : tensor<64x1xi32, #blocked1> -> tensor<64x64xi32, #blocked1>
      %48 = tt.expand_dims %44 {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x64xi32, #blocked>
      %49 = tt.broadcast %48 : tensor<1x64xi32, #blocked> -> tensor<64x64xi32, #blocked>
      %50 = scf.for %arg10 = %c0_i32 to %5 step %c1_i32 iter_args(%arg11 = %cst_3) -> (tensor<64x64xf32, #mma>)  : i32 {
        %65 = arith.muli %arg10, %c64_i32 : i32
        %66 = tt.splat %65 : i32 -> tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked1}>>
        %67 = tt.splat %65 : i32 -> tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
        %68 = arith.addi %66, %8 : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked1}>>
        %69 = arith.addi %67, %7 : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
        %70 = tt.expand_dims %68 {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked1}>> -> tensor<1x64xi32, #blocked1>
        %71 = tt.broadcast %70 : tensor<1x64xi32, #blocked1> -> tensor<64x64xi32, #blocked1>
        %72 = arith.addi %47, %71 : tensor<64x64xi32, #blocked1>
        %73 = tt.addptr %16, %72 : tensor<64x64x!tt.ptr<f16>, #blocked1>, tensor<64x64xi32, #blocked1>
        %74 = tt.expand_dims %69 {axis = 1 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<64x1xi32, #blocked>
        %75 = arith.muli %74, %17 : tensor<64x1xi32, #blocked>
        %76 = tt.broadcast %75 : tensor<64x1xi32, #blocked> -> tensor<64x64xi32, #blocked>
        %77 = arith.addi %76, %49 : tensor<64x64xi32, #blocked>
        %78 = tt.addptr %18, %77 : tensor<64x64x!tt.ptr<f16>, #blocked>, tensor<64x64xi32, #blocked>
        %79 = arith.subi %K, %65 : i32
        %80 = tt.splat %79 : i32 -> tensor<1x64xi32, #blocked1>
        %81 = arith.cmpi slt, %19, %80 : tensor<1x64xi32, #blocked1>
        %82 = tt.broadcast %81 : tensor<1x64xi1, #blocked1> -> tensor<64x64xi1, #blocked1>
        %83 = tt.load %73, %82, %cst_1 : tensor<64x64x!tt.ptr<f16>, #blocked1>
        %84 = ttg.local_alloc %83 : (tensor<64x64xf16, #blocked1>) -> !ttg.memdesc<64x64xf16, #shared, #smem>
        %85 = tt.splat %79 : i32 -> tensor<64x1xi32, #blocked>
        %86 = arith.cmpi slt, %20, %85 : tensor<64x1xi32, #blocked>
        %87 = tt.broadcast %86 : tensor<64x1xi1, #blocked> -> tensor<64x64xi1, #blocked>
        %88 = tt.load %78, %87, %cst_2 : tensor<64x64x!tt.ptr<f16>, #blocked>
        %89 = ttg.local_alloc %88 : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #shared1, #smem>
        %90 = ttng.warp_group_dot %84, %89, %arg11 {inputPrecision = 0 : i32} : !ttg.memdesc<64x64xf16, #shared, #smem> * !ttg.memdesc<64x64xf16, #shared1, #smem> -> tensor<64x64xf32, #mma>
        scf.yield %90 : tensor<64x64xf32, #mma>
      }
      %51 = tt.expand_dims %35 {axis = 1 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked1}>> -> tensor<64x1xi32, #blocked1>
      %52 = arith.muli %21, %51 : tensor<64x1xi32, #blocked1>
      %53 = tt.addptr %22, %52 : tensor<64x1x!tt.ptr<f16>, #blocked1>, tensor<64x1xi32, #blocked1>
      %54 = tt.expand_dims %40 {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked1}>> -> tensor<1x64xi32, #blocked1>
      %55 = tt.broadcast %53 : tensor<64x1x!tt.ptr<f16>, #blocked1> -> tensor<64x64x!tt.ptr<f16>, #blocked1>
      %56 = tt.broadcast %54 : tensor<1x64xi32, #blocked1> -> tensor<64x64xi32, #blocked1>
      %57 = tt.addptr %55, %56 : tensor<64x64x!tt.ptr<f16>, #blocked1>, tensor<64x64xi32, #blocked1>
      %58 = arith.cmpi slt, %51, %23 : tensor<64x1xi32, #blocked1>
      %59 = arith.cmpi slt, %54, %24 : tensor<1x64xi32, #blocked1>
      %60 = tt.broadcast %58 : tensor<64x1xi1, #blocked1> -> tensor<64x64xi1, #blocked1>
      %61 = tt.broadcast %59 : tensor<1x64xi1, #blocked1> -> tensor<64x64xi1, #blocked1>
      %62 = arith.andi %60, %61 : tensor<64x64xi1, #blocked1>
      %63 = arith.truncf %50 : tensor<64x64xf32, #mma> to tensor<64x64xf16, #mma>
      %64 = ttg.convert_layout %63 : tensor<64x64xf16, #mma> -> tensor<64x64xf16, #blocked1>
      tt.store %57, %64, %62 : tensor<64x64x!tt.ptr<f16>, #blocked1>
    } {tt.warp_specialize}
    tt.return
  }
}

// -----

// The tutorial kernel whose store masks columns only: rows past M would be written from
// rows TMA reads as zeros where the pointer loads read row 0 again, so the loads stay
// pointer loads and the loop is not specialized.
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @matmul_pointers(%a_ptr: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %b_ptr: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %c_ptr: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %M: i32, %N: i32 {tt.divisibility = 16 : i32}, %K: i32 {tt.divisibility = 16 : i32}, %stride_am: i32 {tt.divisibility = 16 : i32}, %stride_bk: i32 {tt.divisibility = 16 : i32}, %stride_cm: i32 {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %cst = arith.constant dense<64> : tensor<64x64xi32, #blocked>
    %c64_i32 = arith.constant 64 : i32
    %c8_i32 = arith.constant 8 : i32
    %cst_0 = arith.constant dense<0.000000e+00> : tensor<64x64xf16, #blocked>
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %c63_i32 = arith.constant 63 : i32
    %cst_1 = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma>
    %0 = tt.get_program_id x : i32
    %1 = arith.addi %M, %c63_i32 : i32
    %2 = arith.divsi %1, %c64_i32 : i32
    %3 = arith.addi %N, %c63_i32 : i32
    %4 = arith.divsi %3, %c64_i32 : i32
    %5 = arith.muli %4, %c8_i32 : i32
    %6 = arith.divsi %0, %5 : i32
    %7 = arith.muli %6, %c8_i32 : i32
    %8 = arith.subi %2, %7 : i32
    %9 = arith.minsi %8, %c8_i32 : i32
    %10 = arith.remsi %0, %5 : i32
    %11 = arith.remsi %10, %9 : i32
    %12 = arith.addi %7, %11 : i32
    %13 = arith.divsi %10, %9 : i32
    %14 = arith.muli %12, %c64_i32 : i32
    %15 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %16 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %17 = tt.splat %14 : i32 -> tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %18 = arith.addi %17, %15 : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %19 = arith.muli %13, %c64_i32 : i32
    %20 = tt.splat %19 : i32 -> tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %21 = arith.addi %20, %16 : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %22 = tt.splat %M : i32 -> tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %23 = arith.remsi %18, %22 : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %24 = tt.splat %N : i32 -> tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %25 = arith.remsi %21, %24 : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %26 = tt.expand_dims %23 {axis = 1 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<64x1xi32, #blocked>
    %27 = tt.splat %stride_am : i32 -> tensor<64x1xi32, #blocked>
    %28 = arith.muli %26, %27 : tensor<64x1xi32, #blocked>
    %29 = tt.expand_dims %16 {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x64xi32, #blocked>
    %30 = tt.broadcast %28 : tensor<64x1xi32, #blocked> -> tensor<64x64xi32, #blocked>
    %31 = tt.broadcast %29 : tensor<1x64xi32, #blocked> -> tensor<64x64xi32, #blocked>
    %32 = arith.addi %30, %31 : tensor<64x64xi32, #blocked>
    %33 = tt.splat %a_ptr : !tt.ptr<f16> -> tensor<64x64x!tt.ptr<f16>, #blocked>
    %34 = tt.addptr %33, %32 : tensor<64x64x!tt.ptr<f16>, #blocked>, tensor<64x64xi32, #blocked>
    %35 = tt.expand_dims %15 {axis = 1 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<64x1xi32, #blocked>
    %36 = tt.splat %stride_bk : i32 -> tensor<64x1xi32, #blocked>
    %37 = arith.muli %35, %36 : tensor<64x1xi32, #blocked>
    %38 = tt.expand_dims %25 {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x64xi32, #blocked>
    %39 = tt.broadcast %37 : tensor<64x1xi32, #blocked> -> tensor<64x64xi32, #blocked>
    %40 = tt.broadcast %38 : tensor<1x64xi32, #blocked> -> tensor<64x64xi32, #blocked>
    %41 = arith.addi %39, %40 : tensor<64x64xi32, #blocked>
    %42 = tt.splat %b_ptr : !tt.ptr<f16> -> tensor<64x64x!tt.ptr<f16>, #blocked>
    %43 = tt.addptr %42, %41 : tensor<64x64x!tt.ptr<f16>, #blocked>, tensor<64x64xi32, #blocked>
    %44 = arith.addi %K, %c63_i32 : i32
    %45 = arith.divsi %44, %c64_i32 : i32
    %46 = arith.muli %stride_bk, %c64_i32 : i32
    %47 = tt.splat %46 : i32 -> tensor<64x64xi32, #blocked>
    // expected-remark @below {{loop not warp-specialized: a pointer load whose indices are kept in bounds by remsi/select: a store of the result does not mask the rows or columns past the guard's bound}}
    %48:3 = scf.for %arg9 = %c0_i32 to %45 step %c1_i32 iter_args(%arg10 = %cst_1, %arg11 = %34, %arg12 = %43) -> (tensor<64x64xf32, #mma>, tensor<64x64x!tt.ptr<f16>, #blocked>, tensor<64x64x!tt.ptr<f16>, #blocked>)  : i32 {
      %67 = arith.muli %arg9, %c64_i32 : i32
      %68 = arith.subi %K, %67 : i32
      %69 = tt.splat %68 : i32 -> tensor<1x64xi32, #blocked>
      %70 = arith.cmpi slt, %29, %69 : tensor<1x64xi32, #blocked>
      %71 = tt.broadcast %70 : tensor<1x64xi1, #blocked> -> tensor<64x64xi1, #blocked>
      %72 = tt.load %arg11, %71, %cst_0 : tensor<64x64x!tt.ptr<f16>, #blocked>
      %73 = ttg.local_alloc %72 : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #shared, #smem>
      %74 = tt.splat %68 : i32 -> tensor<64x1xi32, #blocked>
      %75 = arith.cmpi slt, %35, %74 : tensor<64x1xi32, #blocked>
      %76 = tt.broadcast %75 : tensor<64x1xi1, #blocked> -> tensor<64x64xi1, #blocked>
      %77 = tt.load %arg12, %76, %cst_0 : tensor<64x64x!tt.ptr<f16>, #blocked>
      %78 = ttg.local_alloc %77 : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #shared, #smem>
      %79 = ttng.warp_group_dot %73, %78, %arg10 {inputPrecision = 0 : i32} : !ttg.memdesc<64x64xf16, #shared, #smem> * !ttg.memdesc<64x64xf16, #shared, #smem> -> tensor<64x64xf32, #mma>
      %80 = tt.addptr %arg11, %cst : tensor<64x64x!tt.ptr<f16>, #blocked>, tensor<64x64xi32, #blocked>
      %81 = tt.addptr %arg12, %47 : tensor<64x64x!tt.ptr<f16>, #blocked>, tensor<64x64xi32, #blocked>
      scf.yield %79, %80, %81 : tensor<64x64xf32, #mma>, tensor<64x64x!tt.ptr<f16>, #blocked>, tensor<64x64x!tt.ptr<f16>, #blocked>
    } {tt.warp_specialize}
    %49 = tt.expand_dims %18 {axis = 1 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<64x1xi32, #blocked>
    %50 = tt.splat %stride_cm : i32 -> tensor<64x1xi32, #blocked>
    %51 = arith.muli %50, %49 : tensor<64x1xi32, #blocked>
    %52 = tt.splat %c_ptr : !tt.ptr<f16> -> tensor<64x1x!tt.ptr<f16>, #blocked>
    %53 = tt.addptr %52, %51 : tensor<64x1x!tt.ptr<f16>, #blocked>, tensor<64x1xi32, #blocked>
    %54 = tt.expand_dims %21 {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x64xi32, #blocked>
    %55 = tt.broadcast %53 : tensor<64x1x!tt.ptr<f16>, #blocked> -> tensor<64x64x!tt.ptr<f16>, #blocked>
    %56 = tt.broadcast %54 : tensor<1x64xi32, #blocked> -> tensor<64x64xi32, #blocked>
    %57 = tt.addptr %55, %56 : tensor<64x64x!tt.ptr<f16>, #blocked>, tensor<64x64xi32, #blocked>
    %58 = tt.splat %M : i32 -> tensor<64x1xi32, #blocked>
    %59 = arith.cmpi slt, %49, %58 : tensor<64x1xi32, #blocked>
    %60 = tt.splat %N : i32 -> tensor<1x64xi32, #blocked>
    %61 = arith.cmpi slt, %54, %60 : tensor<1x64xi32, #blocked>
    %62 = tt.broadcast %59 : tensor<64x1xi1, #blocked> -> tensor<64x64xi1, #blocked>
    %63 = tt.broadcast %61 : tensor<1x64xi1, #blocked> -> tensor<64x64xi1, #blocked>
    %64 = arith.andi %62, %63 : tensor<64x64xi1, #blocked>
    %65 = arith.truncf %48#0 : tensor<64x64xf32, #mma> to tensor<64x64xf16, #mma>
    %66 = ttg.convert_layout %65 : tensor<64x64xf16, #mma> -> tensor<64x64xf16, #blocked>
    tt.store %57, %66, %63 : tensor<64x64x!tt.ptr<f16>, #blocked>
    tt.return
  }
}
