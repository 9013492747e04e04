// A dot operand converted from a loaded tensor keeps its convert_layout next to the dot,
// inside the loop: Triton 3.6 declares `hoist-layout-conversion` for
// tritongpu-optimize-dot-operands but reads it nowhere, and ttpipe's pass has no such option.
// RUN: ttpipe-opt %s -p ttpipe-optimize-dot-operands | filecheck %s
// RUN: not ttpipe-opt %s -p 'ttpipe-optimize-dot-operands{hoist-layout-conversion=true}' 2>&1 | filecheck %s --check-prefix=NO-OPTION
// NO-OPTION: pass 'ttpipe-optimize-dot-operands' has no option 'hoist-layout-conversion'

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 8]}>
module attributes {"ttg.target" = "cuda:80", "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @convert_stays_in_loop
  tt.func @convert_stays_in_loop(%pa: tensor<128x32x!tt.ptr<f16>, #blocked>, %b: tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>, %c: tensor<128x64xf32, #mma>, %n: i32) -> tensor<128x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    // CHECK: scf.for
    // CHECK: %[[A:.+]] = tt.load
    // CHECK: %[[CVT:.+]] = ttg.convert_layout %[[A]] : tensor<128x32xf16, #{{.+}}> -> tensor<128x32xf16, #ttg.dot_op<{opIdx = 0, parent = #{{.+}}, kWidth = 2}>>
    // CHECK: tt.dot %[[CVT]], %{{.+}}, %{{.+}}
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %c) -> (tensor<128x64xf32, #mma>)  : i32 {
      %a = tt.load %pa : tensor<128x32x!tt.ptr<f16>, #blocked>
      %cv = ttg.convert_layout %a : tensor<128x32xf16, #blocked> -> tensor<128x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
      %d = tt.dot %cv, %b, %acc : tensor<128x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<128x64xf32, #mma>
      scf.yield %d : tensor<128x64xf32, #mma>
    }
    tt.return %r : tensor<128x64xf32, #mma>
  }
}
