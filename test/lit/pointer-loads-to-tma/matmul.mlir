// RUN: ttpipe-opt %s --split-input-file -p ttpipe-pointer-loads-to-tma | filecheck %s

// Triton's tutorial matmul (03) with masked pointer loads (rows < M, columns < N, K tails),
// 64x64x64 fp16 tiles, as it reaches the pipeliner in ttgir-sm90. Each load becomes a TMA
// load of a descriptor made before the K loop: A's extents [M, K] and strides [stride_am, 1],
// B's [K, N] and [stride_bk, 1]; the row and column coordinates are the values the kernel
// computed (pid_m * 64, pid_n * 64), the K coordinate k * 64; no check on the device (a call
// would serialize the wgmmas). The pointers the loop carried, their advance and the masks
// are gone.
// CHECK-LABEL: tt.func public @matmul_pointers(
// CHECK-SAME: %[[A:[a-z0-9_]+]]: !tt.ptr<f16> {{[^,]*}}, %[[B:[a-z0-9_]+]]: !tt.ptr<f16> {{[^,]*}}, %{{[a-z0-9_]+}}: !tt.ptr<f16> {{[^,]*}}, %[[M:[a-z0-9_]+]]: i32, %[[N:[a-z0-9_]+]]: i32 {{[^,]*}}, %[[K:[a-z0-9_]+]]: i32 {{[^,]*}}, %[[SAM:[a-z0-9_]+]]: i32 {{[^,]*}}, %[[SBK:[a-z0-9_]+]]: i32
// CHECK: %[[ROW:.+]] = arith.muli %{{.+}}, %c64_i32 : i32
// CHECK: %[[COL:.+]] = arith.muli %{{.+}}, %c64_i32 : i32
// Extents are clamped to 1 (a tensormap's least), the box moved out of an empty tensor.
// CHECK: %[[MX:.+]] = arith.maxsi %[[M]], %c1_i32
// CHECK: %[[KX:.+]] = arith.maxsi %[[K]], %c1_i32
// CHECK: %[[SA:.+]] = arith.extsi %[[SAM]] : i32 to i64
// CHECK: %[[ADESC:.+]] = tt.make_tensor_descriptor %[[A]], [%[[MX]], %[[KX]]], [%[[SA]], %c1_i64] : <f16>, <tensor<64x64xf16, #shared>>
// CHECK: %[[SB:.+]] = arith.extsi %[[SBK]] : i32 to i64
// CHECK: %[[BDESC:.+]] = tt.make_tensor_descriptor %[[B]], [%{{.+}}, %{{.+}}], [%[[SB]], %c1_i64{{.*}}] : <f16>, <tensor<64x64xf16, #shared>>
// CHECK-NOT: tt.assert
// CHECK: scf.for %[[KI:[a-z0-9_]+]] = {{.+}} iter_args(%{{[a-z0-9_]+}} = %{{.+}}) -> (tensor<64x64xf32, #mma>)
// CHECK-NEXT: %[[KOFF:.+]] = arith.muli %[[KI]], %c64_i32 : i32
// CHECK: %[[AROW:.+]] = arith.select %{{.+}}, %c1073741824_i32{{.*}}, %[[ROW]] : i32
// CHECK-NEXT: %[[AT:.+]] = tt.descriptor_load %[[ADESC]][%[[AROW]], %[[KOFF]]] : !tt.tensordesc<tensor<64x64xf16, #shared>> -> tensor<64x64xf16, #blocked>
// CHECK-NEXT: ttg.local_alloc %[[AT]]
// CHECK: %[[BK:.+]] = arith.select %{{.+}}, %c1073741824_i32{{.*}}, %[[KOFF]] : i32
// CHECK-NEXT: %[[BT:.+]] = tt.descriptor_load %[[BDESC]][%[[BK]], %[[COL]]]
// CHECK-NEXT: ttg.local_alloc %[[BT]]
// CHECK-NEXT: ttng.warp_group_dot
// CHECK-NEXT: scf.yield
// CHECK-NOT: tt.load
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
    %22 = tt.expand_dims %18 {axis = 1 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<64x1xi32, #blocked>
    %23 = tt.splat %stride_am : i32 -> tensor<64x1xi32, #blocked>
    %24 = arith.muli %22, %23 : tensor<64x1xi32, #blocked>
    %25 = tt.expand_dims %16 {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x64xi32, #blocked>
    %26 = tt.broadcast %24 : tensor<64x1xi32, #blocked> -> tensor<64x64xi32, #blocked>
    %27 = tt.broadcast %25 : tensor<1x64xi32, #blocked> -> tensor<64x64xi32, #blocked>
    %28 = arith.addi %26, %27 : tensor<64x64xi32, #blocked>
    %29 = tt.splat %a_ptr : !tt.ptr<f16> -> tensor<64x64x!tt.ptr<f16>, #blocked>
    %30 = tt.addptr %29, %28 : tensor<64x64x!tt.ptr<f16>, #blocked>, tensor<64x64xi32, #blocked>
    %31 = tt.expand_dims %15 {axis = 1 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<64x1xi32, #blocked>
    %32 = tt.splat %stride_bk : i32 -> tensor<64x1xi32, #blocked>
    %33 = arith.muli %31, %32 : tensor<64x1xi32, #blocked>
    %34 = tt.expand_dims %21 {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x64xi32, #blocked>
    %35 = tt.broadcast %33 : tensor<64x1xi32, #blocked> -> tensor<64x64xi32, #blocked>
    %36 = tt.broadcast %34 : tensor<1x64xi32, #blocked> -> tensor<64x64xi32, #blocked>
    %37 = arith.addi %35, %36 : tensor<64x64xi32, #blocked>
    %38 = tt.splat %b_ptr : !tt.ptr<f16> -> tensor<64x64x!tt.ptr<f16>, #blocked>
    %39 = tt.addptr %38, %37 : tensor<64x64x!tt.ptr<f16>, #blocked>, tensor<64x64xi32, #blocked>
    %40 = arith.addi %K, %c63_i32 : i32
    %41 = arith.divsi %40, %c64_i32 : i32
    %42 = tt.splat %M : i32 -> tensor<64x1xi32, #blocked>
    %43 = arith.cmpi slt, %22, %42 : tensor<64x1xi32, #blocked>
    %44 = tt.broadcast %43 : tensor<64x1xi1, #blocked> -> tensor<64x64xi1, #blocked>
    %45 = tt.splat %N : i32 -> tensor<1x64xi32, #blocked>
    %46 = arith.cmpi slt, %34, %45 : tensor<1x64xi32, #blocked>
    %47 = tt.broadcast %46 : tensor<1x64xi1, #blocked> -> tensor<64x64xi1, #blocked>
    %48 = arith.muli %stride_bk, %c64_i32 : i32
    %49 = tt.splat %48 : i32 -> tensor<64x64xi32, #blocked>
    %50:3 = scf.for %arg9 = %c0_i32 to %41 step %c1_i32 iter_args(%arg10 = %cst_1, %arg11 = %30, %arg12 = %39) -> (tensor<64x64xf32, #mma>, tensor<64x64x!tt.ptr<f16>, #blocked>, tensor<64x64x!tt.ptr<f16>, #blocked>)  : i32 {
      %66 = arith.muli %arg9, %c64_i32 : i32
      %67 = arith.subi %K, %66 : i32
      %68 = tt.splat %67 : i32 -> tensor<1x64xi32, #blocked>
      %69 = arith.cmpi slt, %25, %68 : tensor<1x64xi32, #blocked>
      %70 = tt.broadcast %69 : tensor<1x64xi1, #blocked> -> tensor<64x64xi1, #blocked>
      %71 = arith.andi %44, %70 : tensor<64x64xi1, #blocked>
      %72 = tt.load %arg11, %71, %cst_0 : tensor<64x64x!tt.ptr<f16>, #blocked>
      %73 = ttg.local_alloc %72 : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #shared, #smem>
      %74 = tt.splat %67 : i32 -> tensor<64x1xi32, #blocked>
      %75 = arith.cmpi slt, %31, %74 : tensor<64x1xi32, #blocked>
      %76 = tt.broadcast %75 : tensor<64x1xi1, #blocked> -> tensor<64x64xi1, #blocked>
      %77 = arith.andi %76, %47 : tensor<64x64xi1, #blocked>
      %78 = tt.load %arg12, %77, %cst_0 : tensor<64x64x!tt.ptr<f16>, #blocked>
      %79 = ttg.local_alloc %78 : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #shared, #smem>
      %80 = ttng.warp_group_dot %73, %79, %arg10 {inputPrecision = 0 : i32} : !ttg.memdesc<64x64xf16, #shared, #smem> * !ttg.memdesc<64x64xf16, #shared, #smem> -> tensor<64x64xf32, #mma>
      %81 = tt.addptr %arg11, %cst : tensor<64x64x!tt.ptr<f16>, #blocked>, tensor<64x64xi32, #blocked>
      %82 = tt.addptr %arg12, %49 : tensor<64x64x!tt.ptr<f16>, #blocked>, tensor<64x64xi32, #blocked>
      scf.yield %80, %81, %82 : tensor<64x64xf32, #mma>, tensor<64x64x!tt.ptr<f16>, #blocked>, tensor<64x64x!tt.ptr<f16>, #blocked>
    }
    %51 = tt.splat %stride_cm : i32 -> tensor<64x1xi32, #blocked>
    %52 = arith.muli %51, %22 : tensor<64x1xi32, #blocked>
    %53 = tt.splat %c_ptr : !tt.ptr<f16> -> tensor<64x1x!tt.ptr<f16>, #blocked>
    %54 = tt.addptr %53, %52 : tensor<64x1x!tt.ptr<f16>, #blocked>, tensor<64x1xi32, #blocked>
    %55 = tt.broadcast %54 : tensor<64x1x!tt.ptr<f16>, #blocked> -> tensor<64x64x!tt.ptr<f16>, #blocked>
    %56 = tt.addptr %55, %36 : tensor<64x64x!tt.ptr<f16>, #blocked>, tensor<64x64xi32, #blocked>
    %57 = tt.splat %M : i32 -> tensor<64x1xi32, #blocked>
    %58 = arith.cmpi slt, %22, %57 : tensor<64x1xi32, #blocked>
    %59 = tt.splat %N : i32 -> tensor<1x64xi32, #blocked>
    %60 = arith.cmpi slt, %34, %59 : tensor<1x64xi32, #blocked>
    %61 = tt.broadcast %58 : tensor<64x1xi1, #blocked> -> tensor<64x64xi1, #blocked>
    %62 = tt.broadcast %60 : tensor<1x64xi1, #blocked> -> tensor<64x64xi1, #blocked>
    %63 = arith.andi %61, %62 : tensor<64x64xi1, #blocked>
    %64 = arith.truncf %50#0 : tensor<64x64xf32, #mma> to tensor<64x64xf16, #mma>
    %65 = ttg.convert_layout %64 : tensor<64x64xf16, #mma> -> tensor<64x64xf16, #blocked>
    tt.store %56, %65, %63 : tensor<64x64x!tt.ptr<f16>, #blocked>
    tt.return
  }
}

// -----

// The same kernel with B K-major (stride_bk = 1, which Triton specializes): B's tile
// [64 (K), 64 (N)] is contiguous along K, so the box is its transpose over B as [N, K]
// (extents [N, K], strides [stride_bn, 1]), staged in shared memory in the descriptor's
// layout and read by the wgmma through ttg.memdesc_trans (the transposed NVMMA layout the
// kernel's own allocation had).
// CHECK-LABEL: tt.func public @matmul_pointers(
// CHECK-SAME: %[[B:[a-z0-9_]+]]: !tt.ptr<f16> {{[^,]*}}, %{{[a-z0-9_]+}}: !tt.ptr<f16> {{[^,]*}}, %{{[a-z0-9_]+}}: i32, %[[N:[a-z0-9_]+]]: i32 {{[^,]*}}, %[[K:[a-z0-9_]+]]: i32 {{[^,]*}}, %{{[a-z0-9_]+}}: i32 {{[^,]*}}, %[[SBN:[a-z0-9_]+]]: i32
// CHECK: %[[SB:.+]] = arith.extsi %[[SBN]] : i32 to i64
// CHECK: %[[BDESC:.+]] = tt.make_tensor_descriptor %[[B]], [%{{.+}}, %{{.+}}], [%[[SB]], %c1_i64{{.*}}] : <f16>, <tensor<64x64xf16, #shared>>
// CHECK: scf.for %[[KI:[a-z0-9_]+]] =
// CHECK: %[[KOFF:.+]] = arith.muli %[[KI]], %c64_i32 : i32
// CHECK: %[[BT:.+]] = tt.descriptor_load %[[BDESC]][%{{.+}}, %[[KOFF]]] : !tt.tensordesc<tensor<64x64xf16, #shared>> -> tensor<64x64xf16, #blocked
// CHECK-NEXT: %[[BS:.+]] = ttg.local_alloc %[[BT]] : (tensor<64x64xf16, #blocked{{.*}}>) -> !ttg.memdesc<64x64xf16, #shared, #smem>
// CHECK-NEXT: %[[BV:.+]] = ttg.memdesc_trans %[[BS]] {order = array<i32: 1, 0>} : !ttg.memdesc<64x64xf16, #shared, #smem> -> !ttg.memdesc<64x64xf16, #shared1, #smem>
// CHECK-NEXT: ttng.warp_group_dot %{{.+}}, %[[BV]]
#blocked = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @matmul_pointers(%a_tmp: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %b_tmp: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %c_ptr: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %M: i32, %N: i32 {tt.divisibility = 16 : i32}, %K: i32 {tt.divisibility = 16 : i32}, %stride_am: i32 {tt.divisibility = 16 : i32}, %stride_bn: i32 {tt.divisibility = 16 : i32}, %stride_cm: i32 {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %cst = arith.constant dense<64> : tensor<64x64xi32, #blocked>
    %cst_0 = arith.constant dense<64> : tensor<64x64xi32, #blocked1>
    %c64_i32 = arith.constant 64 : i32
    %c8_i32 = arith.constant 8 : i32
    %cst_1 = arith.constant dense<0.000000e+00> : tensor<64x64xf16, #blocked1>
    %cst_2 = arith.constant dense<0.000000e+00> : tensor<64x64xf16, #blocked>
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %c63_i32 = arith.constant 63 : i32
    %cst_3 = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma>
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
    %15 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked1}>>
    %16 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %17 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked1}>>
    %18 = tt.splat %14 : i32 -> tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked1}>>
    %19 = arith.addi %18, %15 : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked1}>>
    %20 = arith.muli %13, %c64_i32 : i32
    %21 = tt.splat %20 : i32 -> tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %22 = tt.splat %20 : i32 -> tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked1}>>
    %23 = arith.addi %21, %16 : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %24 = arith.addi %22, %17 : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked1}>>
    %25 = tt.expand_dims %19 {axis = 1 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked1}>> -> tensor<64x1xi32, #blocked1>
    %26 = tt.splat %stride_am : i32 -> tensor<64x1xi32, #blocked1>
    %27 = arith.muli %25, %26 : tensor<64x1xi32, #blocked1>
    %28 = tt.expand_dims %17 {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked1}>> -> tensor<1x64xi32, #blocked1>
    %29 = tt.broadcast %27 : tensor<64x1xi32, #blocked1> -> tensor<64x64xi32, #blocked1>
    %30 = tt.broadcast %28 : tensor<1x64xi32, #blocked1> -> tensor<64x64xi32, #blocked1>
    %31 = arith.addi %29, %30 : tensor<64x64xi32, #blocked1>
    %32 = tt.splat %a_tmp : !tt.ptr<f16> -> tensor<64x64x!tt.ptr<f16>, #blocked1>
    %33 = tt.addptr %32, %31 : tensor<64x64x!tt.ptr<f16>, #blocked1>, tensor<64x64xi32, #blocked1>
    %34 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %35 = tt.expand_dims %34 {axis = 1 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<64x1xi32, #blocked>
    %36 = tt.expand_dims %23 {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x64xi32, #blocked>
    %37 = tt.expand_dims %24 {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked1}>> -> tensor<1x64xi32, #blocked1>
    %38 = tt.splat %stride_bn : i32 -> tensor<1x64xi32, #blocked>
    %39 = arith.muli %36, %38 : tensor<1x64xi32, #blocked>
    %40 = tt.broadcast %35 : tensor<64x1xi32, #blocked> -> tensor<64x64xi32, #blocked>
    %41 = tt.broadcast %39 : tensor<1x64xi32, #blocked> -> tensor<64x64xi32, #blocked>
    %42 = arith.addi %40, %41 : tensor<64x64xi32, #blocked>
    %43 = tt.splat %b_tmp : !tt.ptr<f16> -> tensor<64x64x!tt.ptr<f16>, #blocked>
    %44 = tt.addptr %43, %42 : tensor<64x64x!tt.ptr<f16>, #blocked>, tensor<64x64xi32, #blocked>
    %45 = arith.addi %K, %c63_i32 : i32
    %46 = arith.divsi %45, %c64_i32 : i32
    %47 = tt.splat %M : i32 -> tensor<64x1xi32, #blocked1>
    %48 = arith.cmpi slt, %25, %47 : tensor<64x1xi32, #blocked1>
    %49 = tt.broadcast %48 : tensor<64x1xi1, #blocked1> -> tensor<64x64xi1, #blocked1>
    %50 = tt.splat %N : i32 -> tensor<1x64xi32, #blocked>
    %51 = arith.cmpi slt, %36, %50 : tensor<1x64xi32, #blocked>
    %52 = tt.broadcast %51 : tensor<1x64xi1, #blocked> -> tensor<64x64xi1, #blocked>
    %53:3 = scf.for %arg9 = %c0_i32 to %46 step %c1_i32 iter_args(%arg10 = %cst_3, %arg11 = %33, %arg12 = %44) -> (tensor<64x64xf32, #mma>, tensor<64x64x!tt.ptr<f16>, #blocked1>, tensor<64x64x!tt.ptr<f16>, #blocked>)  : i32 {
      %70 = arith.muli %arg9, %c64_i32 : i32
      %71 = arith.subi %K, %70 : i32
      %72 = tt.splat %71 : i32 -> tensor<1x64xi32, #blocked1>
      %73 = arith.cmpi slt, %28, %72 : tensor<1x64xi32, #blocked1>
      %74 = tt.broadcast %73 : tensor<1x64xi1, #blocked1> -> tensor<64x64xi1, #blocked1>
      %75 = arith.andi %49, %74 : tensor<64x64xi1, #blocked1>
      %76 = tt.load %arg11, %75, %cst_1 : tensor<64x64x!tt.ptr<f16>, #blocked1>
      %77 = ttg.local_alloc %76 : (tensor<64x64xf16, #blocked1>) -> !ttg.memdesc<64x64xf16, #shared, #smem>
      %78 = tt.splat %71 : i32 -> tensor<64x1xi32, #blocked>
      %79 = arith.cmpi slt, %35, %78 : tensor<64x1xi32, #blocked>
      %80 = tt.broadcast %79 : tensor<64x1xi1, #blocked> -> tensor<64x64xi1, #blocked>
      %81 = arith.andi %80, %52 : tensor<64x64xi1, #blocked>
      %82 = tt.load %arg12, %81, %cst_2 : tensor<64x64x!tt.ptr<f16>, #blocked>
      %83 = ttg.local_alloc %82 : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #shared1, #smem>
      %84 = ttng.warp_group_dot %77, %83, %arg10 {inputPrecision = 0 : i32} : !ttg.memdesc<64x64xf16, #shared, #smem> * !ttg.memdesc<64x64xf16, #shared1, #smem> -> tensor<64x64xf32, #mma>
      %85 = tt.addptr %arg11, %cst_0 : tensor<64x64x!tt.ptr<f16>, #blocked1>, tensor<64x64xi32, #blocked1>
      %86 = tt.addptr %arg12, %cst : tensor<64x64x!tt.ptr<f16>, #blocked>, tensor<64x64xi32, #blocked>
      scf.yield %84, %85, %86 : tensor<64x64xf32, #mma>, tensor<64x64x!tt.ptr<f16>, #blocked1>, tensor<64x64x!tt.ptr<f16>, #blocked>
    }
    %54 = tt.splat %stride_cm : i32 -> tensor<64x1xi32, #blocked1>
    %55 = arith.muli %54, %25 : tensor<64x1xi32, #blocked1>
    %56 = tt.splat %c_ptr : !tt.ptr<f16> -> tensor<64x1x!tt.ptr<f16>, #blocked1>
    %57 = tt.addptr %56, %55 : tensor<64x1x!tt.ptr<f16>, #blocked1>, tensor<64x1xi32, #blocked1>
    %58 = tt.broadcast %57 : tensor<64x1x!tt.ptr<f16>, #blocked1> -> tensor<64x64x!tt.ptr<f16>, #blocked1>
    %59 = tt.broadcast %37 : tensor<1x64xi32, #blocked1> -> tensor<64x64xi32, #blocked1>
    %60 = tt.addptr %58, %59 : tensor<64x64x!tt.ptr<f16>, #blocked1>, tensor<64x64xi32, #blocked1>
    %61 = tt.splat %M : i32 -> tensor<64x1xi32, #blocked1>
    %62 = arith.cmpi slt, %25, %61 : tensor<64x1xi32, #blocked1>
    %63 = tt.splat %N : i32 -> tensor<1x64xi32, #blocked1>
    %64 = arith.cmpi slt, %37, %63 : tensor<1x64xi32, #blocked1>
    %65 = tt.broadcast %62 : tensor<64x1xi1, #blocked1> -> tensor<64x64xi1, #blocked1>
    %66 = tt.broadcast %64 : tensor<1x64xi1, #blocked1> -> tensor<64x64xi1, #blocked1>
    %67 = arith.andi %65, %66 : tensor<64x64xi1, #blocked1>
    %68 = arith.truncf %53#0 : tensor<64x64xf32, #mma> to tensor<64x64xf16, #mma>
    %69 = ttg.convert_layout %68 : tensor<64x64xf16, #mma> -> tensor<64x64xf16, #blocked1>
    tt.store %60, %69, %67 : tensor<64x64x!tt.ptr<f16>, #blocked1>
    tt.return
  }
}
