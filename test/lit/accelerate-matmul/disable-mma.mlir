// The options disable-mma-v3 and disable-mma-v5 keep dots off wgmma and tcgen05; each
// defaults to Triton's environment variable (DISABLE_MMA_V3, DISABLE_MMA_V5), as
// `triton-opt -tritongpu-accelerate-matmul` reads it. A dot kept off falls back to mma.sync.
// An option given explicitly wins over the environment.
// RUN: ttpipe-opt %s --split-input-file -p ttpipe-accelerate-matmul | filecheck %s --check-prefixes=V3,V5
// RUN: env DISABLE_MMA_V3=1 ttpipe-opt %s --split-input-file -p ttpipe-accelerate-matmul | filecheck %s --check-prefixes=NO-V3,V5
// RUN: ttpipe-opt %s --split-input-file -p 'ttpipe-accelerate-matmul{disable-mma-v3=true}' | filecheck %s --check-prefixes=NO-V3,V5
// RUN: env DISABLE_MMA_V3=1 ttpipe-opt %s --split-input-file -p 'ttpipe-accelerate-matmul{disable-mma-v3=false}' | filecheck %s --check-prefixes=V3,V5
// RUN: env DISABLE_MMA_V5=on ttpipe-opt %s --split-input-file -p ttpipe-accelerate-matmul | filecheck %s --check-prefixes=V3,NO-V5
// RUN: ttpipe-opt %s --split-input-file -p 'ttpipe-accelerate-matmul{disable-mma-v5=true}' | filecheck %s --check-prefixes=V3,NO-V5
// A disabled version is reported as one the dot does not fit, as Triton reports it:
// RUN: env DISABLE_MMA_V3=1 ttpipe-opt %s --split-input-file -p ttpipe-accelerate-matmul --remarks 2>&1 >/dev/null | filecheck %s --check-prefix=REMARK
// REMARK: remark: MMA version 3 acceleration not applied due to unsupported shapes or data types.
// REMARK: note: Target compute capability (90) supports MMA v3.

// sm_90: wgmma, or mma.sync with wgmma disabled.
// V3-LABEL: tt.func @sm90_dot(
// V3: ttng.warp_group_dot
// NO-V3-LABEL: tt.func @sm90_dot(
// NO-V3-NOT: ttng.warp_group_dot
// NO-V3: tt.dot {{.+}} -> tensor<128x128xf32, #{{.+}}>
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @sm90_dot(%a_ptr: tensor<128x64x!tt.ptr<f16>, #blocked>, %b_ptr: tensor<64x128x!tt.ptr<f16>, #blocked1>) -> tensor<128x128xf32, #blocked> {
    %cst = arith.constant dense<0.000000e+00> : tensor<128x128xf32, #blocked>
    %a = tt.load %a_ptr : tensor<128x64x!tt.ptr<f16>, #blocked>
    %b = tt.load %b_ptr : tensor<64x128x!tt.ptr<f16>, #blocked1>
    %a_op = ttg.convert_layout %a : tensor<128x64xf16, #blocked> -> tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>
    %b_op = ttg.convert_layout %b : tensor<64x128xf16, #blocked1> -> tensor<64x128xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>
    %d = tt.dot %a_op, %b_op, %cst : tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<64x128xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<128x128xf32, #blocked>
    tt.return %d : tensor<128x128xf32, #blocked>
  }
}

// -----

// sm_100: tcgen05, or mma.sync with tcgen05 disabled.
// V5-LABEL: tt.func @sm100_dot(
// V5: ttng.tc_gen5_mma
// NO-V5-LABEL: tt.func @sm100_dot(
// NO-V5-NOT: ttng.tc_gen5_mma
// NO-V5: tt.dot {{.+}} -> tensor<128x128xf32, #{{.+}}>
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:100", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @sm100_dot(%a_ptr: tensor<128x64x!tt.ptr<f16>, #blocked>, %b_ptr: tensor<64x128x!tt.ptr<f16>, #blocked1>) -> tensor<128x128xf32, #blocked> {
    %cst = arith.constant dense<0.000000e+00> : tensor<128x128xf32, #blocked>
    %a = tt.load %a_ptr : tensor<128x64x!tt.ptr<f16>, #blocked>
    %b = tt.load %b_ptr : tensor<64x128x!tt.ptr<f16>, #blocked1>
    %a_op = ttg.convert_layout %a : tensor<128x64xf16, #blocked> -> tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>
    %b_op = ttg.convert_layout %b : tensor<64x128xf16, #blocked1> -> tensor<64x128xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>
    %d = tt.dot %a_op, %b_op, %cst : tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<64x128xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<128x128xf32, #blocked>
    tt.return %d : tensor<128x128xf32, #blocked>
  }
}
