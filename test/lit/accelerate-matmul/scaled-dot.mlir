// RUN: ttpipe-opt %s --split-input-file -p ttpipe-accelerate-matmul | filecheck %s

// sm_90 has no block-scaled MMA, so DecomposeScaledDot (Triton's DecomposeScaledBlocked)
// turns the dot into a bf16 tt.dot, which then becomes wgmma: each operand is upcast, its
// e8m0 scale is shifted into the exponent of a bf16 (`<< 7`), broadcast over the 32
// elements of its K group and multiplied in, and a 0xFF scale makes the value NaN. B's
// scale is transposed first. The new constants are hoisted to the top of the function.
// CHECK-DAG: #[[$MMA:.+]] = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 128, 16]}>
// CHECK-LABEL: tt.func @mxfp8_decomposed(
// CHECK-SAME: %[[A:[a-z0-9_]+]]: tensor<128x64xf8E4M3FN{{.*}}%[[A_SCALE:[a-z0-9_]+]]: tensor<128x2xi8{{.*}}%[[B:[a-z0-9_]+]]: tensor<64x128xf8E4M3FN{{.*}}%[[B_SCALE:[a-z0-9_]+]]: tensor<128x2xi8
// CHECK-DAG: %[[B_NAN:.+]] = arith.constant dense<0x7FC0> : tensor<64x128xbf16
// CHECK-DAG: %[[B_FF:.+]] = arith.constant dense<-1> : tensor<2x128xi8
// CHECK-DAG: %[[B_SHIFT:.+]] = arith.constant dense<7> : tensor<2x128xi16
// CHECK-DAG: %[[A_NAN:.+]] = arith.constant dense<0x7FC0> : tensor<128x64xbf16
// CHECK-DAG: %[[A_FF:.+]] = arith.constant dense<-1> : tensor<128x2xi8
// CHECK-DAG: %[[A_SHIFT:.+]] = arith.constant dense<7> : tensor<128x2xi16
// CHECK: %[[A_BF16:.+]] = tt.fp_to_fp %[[A]] : tensor<128x64xf8E4M3FN, #{{.+}}> -> tensor<128x64xbf16
// CHECK: %[[A_EXT:.+]] = arith.extui %[[A_SCALE]] : tensor<128x2xi8, #{{.+}}> to tensor<128x2xi16
// CHECK: %[[A_SHL:.+]] = arith.shli %[[A_EXT]], %[[A_SHIFT]]
// CHECK: %[[A_EXP:.+]] = tt.bitcast %[[A_SHL]] : {{.+}} -> tensor<128x2xbf16
// CHECK: %[[A_SLICE:.+]] = ttg.convert_layout %[[A_EXP]]
// CHECK: %[[A_EXPAND:.+]] = tt.expand_dims %[[A_SLICE]] {axis = 2 : i32}
// CHECK: %[[A_BCAST:.+]] = tt.broadcast %[[A_EXPAND]] : {{.+}} -> tensor<128x2x32xbf16
// CHECK: %[[A_RESHAPE:.+]] = tt.reshape %[[A_BCAST]] : {{.+}} -> tensor<128x64xbf16
// CHECK: %[[A_FACTOR:.+]] = ttg.convert_layout %[[A_RESHAPE]]
// CHECK: %[[A_MUL:.+]] = arith.mulf %[[A_BF16]], %[[A_FACTOR]]
// CHECK: %[[A_IS_NAN:.+]] = arith.cmpi eq, %[[A_SCALE]], %[[A_FF]]
// CHECK: %[[A_MASK:.+]] = ttg.convert_layout {{.+}} -> tensor<128x64xi1
// CHECK: %[[A_OUT:.+]] = arith.select %[[A_MASK]], %[[A_NAN]], %[[A_MUL]]
// CHECK: %[[A_OP:.+]] = ttg.convert_layout %[[A_OUT]] : {{.+}} -> tensor<128x64xbf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>
// CHECK: %[[B_BF16:.+]] = tt.fp_to_fp %[[B]]
// CHECK: %[[B_SCALE_T:.+]] = tt.trans %[[B_SCALE]] {order = array<i32: 1, 0>} : tensor<128x2xi8, #{{.+}}> -> tensor<2x128xi8
// CHECK: arith.extui %[[B_SCALE_T]]
// CHECK: %[[B_MUL:.+]] = arith.mulf %[[B_BF16]]
// CHECK: arith.cmpi eq, %[[B_SCALE_T]], %[[B_FF]]
// CHECK: %[[B_OUT:.+]] = arith.select %{{.+}}, %[[B_NAN]], %[[B_MUL]]
// CHECK: %[[B_SMEM:.+]] = ttg.local_alloc %[[B_OUT]]
// CHECK: %[[A_MMA:.+]] = ttg.convert_layout %[[A_OP]] : {{.+}} -> tensor<128x64xbf16, #ttg.dot_op<{opIdx = 0, parent = #[[$MMA]], kWidth = 2}>>
// CHECK: ttng.warp_group_dot %[[A_MMA]], %[[B_SMEM]]
// CHECK-NOT: tt.dot_scaled
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [16, 2], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @mxfp8_decomposed(%a: tensor<128x64xf8E4M3FN, #blocked>, %a_scale: tensor<128x2xi8, #blocked1>, %b: tensor<64x128xf8E4M3FN, #blocked>, %b_scale: tensor<128x2xi8, #blocked1>) -> tensor<128x128xf32, #blocked> {
    %cst = arith.constant dense<0.000000e+00> : tensor<128x128xf32, #blocked>
    %d = tt.dot_scaled %a scale %a_scale, %b scale %b_scale, %cst lhs = e4m3 rhs = e4m3 {fastMath = false} : tensor<128x64xf8E4M3FN, #blocked>, tensor<128x2xi8, #blocked1> * tensor<64x128xf8E4M3FN, #blocked>, tensor<128x2xi8, #blocked1> -> tensor<128x128xf32, #blocked>
    tt.return %d : tensor<128x128xf32, #blocked>
  }
}

// -----

// fastMath: no NaN masking (no cmpi, no select).
// CHECK-LABEL: tt.func @mxfp8_fast_math(
// CHECK-NOT: arith.cmpi
// CHECK-NOT: arith.select
// CHECK: ttng.warp_group_dot
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [16, 2], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @mxfp8_fast_math(%a: tensor<128x64xf8E4M3FN, #blocked>, %a_scale: tensor<128x2xi8, #blocked1>, %b: tensor<64x128xf8E4M3FN, #blocked>, %b_scale: tensor<128x2xi8, #blocked1>) -> tensor<128x128xf32, #blocked> {
    %cst = arith.constant dense<0.000000e+00> : tensor<128x128xf32, #blocked>
    %d = tt.dot_scaled %a scale %a_scale, %b scale %b_scale, %cst lhs = e4m3 rhs = e4m3 {fastMath = true} : tensor<128x64xf8E4M3FN, #blocked>, tensor<128x2xi8, #blocked1> * tensor<64x128xf8E4M3FN, #blocked>, tensor<128x2xi8, #blocked1> -> tensor<128x128xf32, #blocked>
    tt.return %d : tensor<128x128xf32, #blocked>
  }
}

// -----

// An e2m1 (fp4) operand is unpacked along K by ttg.fp4_to_fp; with an fp16 operand the dot is
// computed in fp16, so the scale goes through f32 (`<< 23`) and is truncated. B has no scale:
// it is not upcast (its tt.fp_to_fp f16 -> f16 folds away) and goes to shared memory as it is.
// CHECK-LABEL: tt.func @mxfp4_times_fp16(
// CHECK-SAME: %[[A:[a-z0-9_]+]]: tensor<128x32xi8{{.*}}%[[A_SCALE:[a-z0-9_]+]]: tensor<128x2xi8{{.*}}%[[B:[a-z0-9_]+]]: tensor<64x128xf16
// CHECK: %[[SHIFT:.+]] = arith.constant dense<23> : tensor<128x2xi32
// CHECK: %[[A_F16:.+]] = ttg.fp4_to_fp %[[A]] {axis = 1 : i32} : tensor<128x32xi8, #{{.+}}> -> tensor<128x64xf16
// CHECK: %[[EXT:.+]] = arith.extui %[[A_SCALE]] : {{.+}} to tensor<128x2xi32
// CHECK: %[[SHL:.+]] = arith.shli %[[EXT]], %[[SHIFT]]
// CHECK: %[[F32:.+]] = tt.bitcast %[[SHL]] : {{.+}} -> tensor<128x2xf32
// CHECK: arith.truncf %[[F32]] : {{.+}} to tensor<128x2xf16
// CHECK: arith.mulf %[[A_F16]]
// CHECK-NOT: tt.fp_to_fp
// CHECK: ttg.local_alloc %[[B]]
// CHECK: ttng.warp_group_dot
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [16, 2], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @mxfp4_times_fp16(%a: tensor<128x32xi8, #blocked>, %a_scale: tensor<128x2xi8, #blocked1>, %b: tensor<64x128xf16, #blocked>) -> tensor<128x128xf32, #blocked> {
    %cst = arith.constant dense<0.000000e+00> : tensor<128x128xf32, #blocked>
    %d = tt.dot_scaled %a scale %a_scale, %b, %cst lhs = e2m1 rhs = fp16 {fastMath = true} : tensor<128x32xi8, #blocked>, tensor<128x2xi8, #blocked1> * tensor<64x128xf16, #blocked> -> tensor<128x128xf32, #blocked>
    tt.return %d : tensor<128x128xf32, #blocked>
  }
}

// -----

// Only B is scaled: the dot is transposed first (transposeDots), so that the scaled operand
// is A, and the result is transposed back.
// CHECK-LABEL: tt.func @only_b_scaled(
// CHECK-SAME: %[[A:[a-z0-9_]+]]: tensor<128x64xbf16{{.*}}%[[B:[a-z0-9_]+]]: tensor<64x128xf8E5M2{{.*}}%[[B_SCALE:[a-z0-9_]+]]: tensor<128x2xi8
// CHECK: %[[A_T:.+]] = tt.trans %[[A]] {order = array<i32: 1, 0>} : tensor<128x64xbf16, #{{.+}}> -> tensor<64x128xbf16
// CHECK: %[[B_T:.+]] = tt.trans %[[B]] {order = array<i32: 1, 0>} : tensor<64x128xf8E5M2, #{{.+}}> -> tensor<128x64xf8E5M2
// CHECK: tt.fp_to_fp %[[B_T]]
// CHECK: arith.extui %[[B_SCALE]]
// CHECK: ttg.local_alloc %[[A_T]]
// CHECK: %[[D:.+]] = ttng.warp_group_dot
// CHECK: %[[D_BLOCKED:.+]] = ttg.convert_layout %[[D]]
// CHECK: %[[D_DOT:.+]] = ttg.convert_layout %[[D_BLOCKED]]
// CHECK: %[[R:.+]] = tt.trans %[[D_DOT]] {order = array<i32: 1, 0>} : tensor<128x128xf32
// CHECK: tt.return %[[R]]
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [16, 2], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @only_b_scaled(%a: tensor<128x64xbf16, #blocked>, %b: tensor<64x128xf8E5M2, #blocked>, %b_scale: tensor<128x2xi8, #blocked1>) -> tensor<128x128xf32, #blocked> {
    %cst = arith.constant dense<0.000000e+00> : tensor<128x128xf32, #blocked>
    %d = tt.dot_scaled %a, %b scale %b_scale, %cst lhs = bf16 rhs = e5m2 {fastMath = true} : tensor<128x64xbf16, #blocked> * tensor<64x128xf8E5M2, #blocked>, tensor<128x2xi8, #blocked1> -> tensor<128x128xf32, #blocked>
    tt.return %d : tensor<128x128xf32, #blocked>
  }
}

// -----

// An operand not packed along K (lhs_k_pack = false) is not decomposed on sm_90 (neither
// does Triton's DecomposeScaledBlocked): the dot stays as it is.
// CHECK-LABEL: tt.func @k_not_packed(
// CHECK: tt.dot_scaled {{.+}} lhs = e4m3 rhs = e4m3 {fastMath = false, lhs_k_pack = false}
// CHECK-NOT: ttg.local_alloc
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [16, 2], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @k_not_packed(%a: tensor<128x64xf8E4M3FN, #blocked>, %a_scale: tensor<128x2xi8, #blocked1>, %b: tensor<64x128xf8E4M3FN, #blocked>, %b_scale: tensor<128x2xi8, #blocked1>) -> tensor<128x128xf32, #blocked> {
    %cst = arith.constant dense<0.000000e+00> : tensor<128x128xf32, #blocked>
    %d = tt.dot_scaled %a scale %a_scale, %b scale %b_scale, %cst lhs = e4m3 rhs = e4m3 {fastMath = false, lhs_k_pack = false} : tensor<128x64xf8E4M3FN, #blocked>, tensor<128x2xi8, #blocked1> * tensor<64x128xf8E4M3FN, #blocked>, tensor<128x2xi8, #blocked1> -> tensor<128x128xf32, #blocked>
    tt.return %d : tensor<128x128xf32, #blocked>
  }
}

// -----

// sm_100: tcgen05.mma with block scaling. The scales' loads are staged through shared memory
// (local_alloc + local_load, unswizzled), converted to the scales' TMEM register layout and
// put in tensor memory next to the accumulator.
// CHECK-DAG: #[[$SCALE_REGS:.+]] = #ttg.linear<{register = [[0, 1], [32, 0], [64, 0]], lane = [[1, 0], [2, 0], [4, 0], [8, 0], [16, 0]], warp = [[0, 0], [0, 0]], block = []}>
// CHECK-DAG: #[[$SCALE_SMEM:.+]] = #ttg.nvmma_shared<{swizzlingByteWidth = 0, transposed = false, elementBitWidth = 8}>
// CHECK-DAG: #[[$TMEM:.+]] = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>
// CHECK-DAG: #[[$TMEM_SCALES:.+]] = #ttng.tensor_memory_scales_encoding<>
// CHECK-LABEL: tt.func @tcgen05_scaled(
// CHECK: %[[TRUE:.+]] = arith.constant true
// CHECK: %[[B_SMEM:.+]] = ttg.local_alloc %{{.+}} : (tensor<64x128xf8E4M3FN
// CHECK: %[[A_SMEM:.+]] = ttg.local_alloc %{{.+}} : (tensor<128x64xf8E4M3FN
// CHECK: %[[A_SCALE:.+]] = tt.load
// CHECK: %[[A_SCALE_SMEM:.+]] = ttg.local_alloc %[[A_SCALE]] : {{.+}} -> !ttg.memdesc<128x2xi8, #[[$SCALE_SMEM]], #smem>
// CHECK: %[[A_SCALE_REG:.+]] = ttg.local_load %[[A_SCALE_SMEM]]
// CHECK: %[[B_SCALE:.+]] = tt.load
// CHECK: %[[B_SCALE_SMEM:.+]] = ttg.local_alloc %[[B_SCALE]]
// CHECK: %[[B_SCALE_REG:.+]] = ttg.local_load %[[B_SCALE_SMEM]]
// CHECK: %[[ACC:[^,]+]], %[[ACC_TOK:.+]] = ttng.tmem_alloc {{.+}} -> (!ttg.memdesc<128x128xf32, #[[$TMEM]], #ttng.tensor_memory, mutable>, !ttg.async.token)
// CHECK: %[[A_SCALE_CVT:.+]] = ttg.convert_layout %[[A_SCALE_REG]] : {{.+}} -> tensor<128x2xi8, #[[$SCALE_REGS]]>
// CHECK: %[[B_SCALE_CVT:.+]] = ttg.convert_layout %[[B_SCALE_REG]]
// CHECK: %[[A_SCALE_TM:.+]] = ttng.tmem_alloc %[[A_SCALE_CVT]] : {{.+}} -> !ttg.memdesc<128x2xi8, #[[$TMEM_SCALES]], #ttng.tensor_memory>
// CHECK: %[[B_SCALE_TM:.+]] = ttng.tmem_alloc %[[B_SCALE_CVT]]
// CHECK: %[[TOK:.+]] = ttng.tc_gen5_mma_scaled %[[A_SMEM]], %[[B_SMEM]], %[[ACC]][%[[ACC_TOK]]], %[[A_SCALE_TM]], %[[B_SCALE_TM]], %[[TRUE]], %[[TRUE]] lhs = e4m3 rhs = e4m3
// CHECK: ttng.tmem_load %[[ACC]][%[[TOK]]]
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [16, 2], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:100", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @tcgen05_scaled(%a: tensor<128x64xf8E4M3FN, #blocked>, %a_scale_ptr: tensor<128x2x!tt.ptr<i8>, #blocked1>, %b: tensor<64x128xf8E4M3FN, #blocked>, %b_scale_ptr: tensor<128x2x!tt.ptr<i8>, #blocked1>) -> tensor<128x128xf32, #blocked> {
    %cst = arith.constant dense<0.000000e+00> : tensor<128x128xf32, #blocked>
    %a_scale = tt.load %a_scale_ptr : tensor<128x2x!tt.ptr<i8>, #blocked1>
    %b_scale = tt.load %b_scale_ptr : tensor<128x2x!tt.ptr<i8>, #blocked1>
    %d = tt.dot_scaled %a scale %a_scale, %b scale %b_scale, %cst lhs = e4m3 rhs = e4m3 {fastMath = false} : tensor<128x64xf8E4M3FN, #blocked>, tensor<128x2xi8, #blocked1> * tensor<64x128xf8E4M3FN, #blocked>, tensor<128x2xi8, #blocked1> -> tensor<128x128xf32, #blocked>
    tt.return %d : tensor<128x128xf32, #blocked>
  }
}

// -----

// sm_120 multiplies block-scaled fp8 with mma.sync: the dot_scaled stays, on nvidia_mma v2
// operands, with each scale in the register layout of getSM120DotScaledScaleLayout.
// CHECK-DAG: #[[$A_SCALES:.+]] = #ttg.linear<{register = [[0, 1], [32, 0], [64, 0]], lane = [[8, 0], [0, 0], [1, 0], [2, 0], [4, 0]], warp = [[0, 0], [16, 0]], block = []}>
// CHECK-DAG: #[[$B_SCALES:.+]] = #ttg.linear<{register = [[0, 1], [16, 0], [32, 0], [64, 0]], lane = [[0, 0], [0, 0], [1, 0], [2, 0], [4, 0]], warp = [[8, 0], [0, 0]], block = []}>
// CHECK-DAG: #[[$MMA:.+]] = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
// CHECK-LABEL: tt.func @sm120_native(
// CHECK: %[[A:.+]] = ttg.convert_layout %{{.+}} -> tensor<128x64xf8E4M3FN, #ttg.dot_op<{opIdx = 0, parent = #[[$MMA]], kWidth = 4}>>
// CHECK: %[[B:.+]] = ttg.convert_layout %{{.+}} -> tensor<64x128xf8E4M3FN, #ttg.dot_op<{opIdx = 1, parent = #[[$MMA]], kWidth = 4}>>
// CHECK: %[[A_SCALE:.+]] = ttg.convert_layout %{{.+}} -> tensor<128x2xi8, #[[$A_SCALES]]>
// CHECK: %[[B_SCALE:.+]] = ttg.convert_layout %{{.+}} -> tensor<128x2xi8, #[[$B_SCALES]]>
// CHECK: tt.dot_scaled %[[A]] scale %[[A_SCALE]], %[[B]] scale %[[B_SCALE]], %{{.+}} lhs = e4m3 rhs = e4m3 {{.+}} -> tensor<128x128xf32, #[[$MMA]]>
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [16, 2], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:120", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @sm120_native(%a: tensor<128x64xf8E4M3FN, #blocked>, %a_scale: tensor<128x2xi8, #blocked1>, %b: tensor<64x128xf8E4M3FN, #blocked>, %b_scale: tensor<128x2xi8, #blocked1>) -> tensor<128x128xf32, #blocked> {
    %cst = arith.constant dense<0.000000e+00> : tensor<128x128xf32, #blocked>
    %d = tt.dot_scaled %a scale %a_scale, %b scale %b_scale, %cst lhs = e4m3 rhs = e4m3 {fastMath = false} : tensor<128x64xf8E4M3FN, #blocked>, tensor<128x2xi8, #blocked1> * tensor<64x128xf8E4M3FN, #blocked>, tensor<128x2xi8, #blocked1> -> tensor<128x128xf32, #blocked>
    tt.return %d : tensor<128x128xf32, #blocked>
  }
}
