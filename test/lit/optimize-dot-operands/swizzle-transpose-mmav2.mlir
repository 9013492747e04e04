// mma.sync (MMAv2) operand: convert_layout(tt.trans(x)) to a dot operand becomes a local_load of
// memdesc_trans(local_alloc(x)) through a bank-conflict-free swizzled buffer.
// RUN: ttpipe-opt %s --split-input-file -p ttpipe-optimize-dot-operands | filecheck %s

// CHECK-DAG: #[[$SW:.+]] = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
// CHECK-DAG: #[[$SW_T:.+]] = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [0, 1]}>
#blocked = #ttg.blocked<{sizePerThread = [16, 1], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 16], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 8]}>
module attributes {"ttg.target" = "cuda:80", "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @a_transposed
  // CHECK-SAME: %[[T:[^:]+]]: tensor<32x128xf16
  tt.func @a_transposed(%t: tensor<32x128xf16, #blocked1>, %b: tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>, %c: tensor<128x64xf32, #mma>) -> tensor<128x64xf32, #mma> {
    // CHECK: %[[ALLOC:.+]] = ttg.local_alloc %[[T]] : (tensor<32x128xf16, #{{.+}}>) -> !ttg.memdesc<32x128xf16, #[[$SW]], #smem>
    // CHECK: %[[VIEW:.+]] = ttg.memdesc_trans %[[ALLOC]] {order = array<i32: 1, 0>} : !ttg.memdesc<32x128xf16, #[[$SW]], #smem> -> !ttg.memdesc<128x32xf16, #[[$SW_T]], #smem>
    // CHECK: %[[A:.+]] = ttg.local_load %[[VIEW]] : !ttg.memdesc<128x32xf16, #[[$SW_T]], #smem> -> tensor<128x32xf16, #ttg.dot_op<{opIdx = 0, parent = #{{.+}}, kWidth = 2}>>
    // CHECK-NOT: ttg.convert_layout
    // CHECK: tt.dot %[[A]], %{{.+}}, %{{.+}}
    %a = tt.trans %t {order = array<i32: 1, 0>} : tensor<32x128xf16, #blocked1> -> tensor<128x32xf16, #blocked>
    %cv = ttg.convert_layout %a : tensor<128x32xf16, #blocked> -> tensor<128x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
    %r = tt.dot %cv, %b, %c, inputPrecision = tf32 : tensor<128x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<128x64xf32, #mma>
    tt.return %r : tensor<128x64xf32, #mma>
  }

  // The convert has a second use besides the dot: nothing changes.
  // CHECK-LABEL: tt.func @convert_used_twice
  // CHECK: %[[TR:.+]] = tt.trans
  // CHECK: ttg.convert_layout %[[TR]]
  // CHECK-NOT: ttg.local_alloc
  // CHECK: tt.return
  tt.func @convert_used_twice(%t: tensor<32x128xf16, #blocked1>, %b: tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>, %c: tensor<128x64xf32, #mma>) -> (tensor<128x64xf32, #mma>, tensor<128x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>) {
    %a = tt.trans %t {order = array<i32: 1, 0>} : tensor<32x128xf16, #blocked1> -> tensor<128x32xf16, #blocked>
    %cv = ttg.convert_layout %a : tensor<128x32xf16, #blocked> -> tensor<128x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
    %r = tt.dot %cv, %b, %c, inputPrecision = tf32 : tensor<128x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<128x64xf32, #mma>
    tt.return %r, %cv : tensor<128x64xf32, #mma>, tensor<128x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
  }
}
