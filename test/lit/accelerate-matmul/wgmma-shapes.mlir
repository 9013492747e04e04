// RUN: ttpipe-opt %s --split-input-file -p ttpipe-accelerate-matmul | filecheck %s

// Two chained dots on sm_90 (attention's QK^T then PV): each wgmma's instruction N is its own
// tile's N (32, then 64). The second dot's A is the first dot's result, in registers: it
// stays there as a dot operand of the second wgmma's layout; only the loaded operands go
// to shared memory.
// CHECK-DAG: #[[$MMA32:.+]] = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 32, 16]}>
// CHECK-DAG: #[[$MMA64:.+]] = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
// CHECK-LABEL: tt.func @chained(
// CHECK-DAG: %[[Q:.+]] = ttg.local_alloc %{{.+}} : (tensor<128x64xf16
// CHECK-DAG: %[[K:.+]] = ttg.local_alloc %{{.+}} : (tensor<64x32xf16
// CHECK-DAG: %[[V:.+]] = ttg.local_alloc %{{.+}} : (tensor<32x64xf16
// CHECK: %[[S:.+]] = ttng.warp_group_dot %[[Q]], %[[K]], %{{.+}} : {{.*}} -> tensor<128x32xf32, #[[$MMA32]]>
// CHECK: %[[P:.+]] = ttg.convert_layout %{{.+}} -> tensor<128x32xf16, #ttg.dot_op<{opIdx = 0, parent = #[[$MMA64]], kWidth = 2}>>
// CHECK: ttng.warp_group_dot %[[P]], %[[V]], %{{.+}} : tensor<128x32xf16, #ttg.dot_op<{opIdx = 0, parent = #[[$MMA64]], kWidth = 2}>> * !ttg.memdesc<32x64xf16, {{.*}} -> tensor<128x64xf32, #[[$MMA64]]>
// CHECK-NOT: tt.dot
#blk = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#acc = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @chained(%q_ptr: tensor<128x64x!tt.ptr<f16>, #blk>, %k_ptr: tensor<64x32x!tt.ptr<f16>, #blk>, %v_ptr: tensor<32x64x!tt.ptr<f16>, #blk>) -> tensor<128x64xf32, #acc> {
    %zs = arith.constant dense<0.000000e+00> : tensor<128x32xf32, #acc>
    %zo = arith.constant dense<0.000000e+00> : tensor<128x64xf32, #acc>
    %q = tt.load %q_ptr : tensor<128x64x!tt.ptr<f16>, #blk>
    %k = tt.load %k_ptr : tensor<64x32x!tt.ptr<f16>, #blk>
    %v = tt.load %v_ptr : tensor<32x64x!tt.ptr<f16>, #blk>
    %qo = ttg.convert_layout %q : tensor<128x64xf16, #blk> -> tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #acc}>>
    %ko = ttg.convert_layout %k : tensor<64x32xf16, #blk> -> tensor<64x32xf16, #ttg.dot_op<{opIdx = 1, parent = #acc}>>
    %s = tt.dot %qo, %ko, %zs : tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #acc}>> * tensor<64x32xf16, #ttg.dot_op<{opIdx = 1, parent = #acc}>> -> tensor<128x32xf32, #acc>
    %p = arith.truncf %s : tensor<128x32xf32, #acc> to tensor<128x32xf16, #acc>
    %po = ttg.convert_layout %p : tensor<128x32xf16, #acc> -> tensor<128x32xf16, #ttg.dot_op<{opIdx = 0, parent = #acc}>>
    %vo = ttg.convert_layout %v : tensor<32x64xf16, #blk> -> tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #acc}>>
    %o = tt.dot %po, %vo, %zo : tensor<128x32xf16, #ttg.dot_op<{opIdx = 0, parent = #acc}>> * tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #acc}>> -> tensor<128x64xf32, #acc>
    tt.return %o : tensor<128x64xf32, #acc>
  }
}

// -----

// Eight warps (two warpgroups): a 128-row tile puts all eight warps along M, with the full
// N = 256 per instruction; a 64-row tile has room for one warpgroup along M, so the second
// goes along N, which halves the instruction's N. The loaded B feeds both dots and gets a
// local_alloc for each.
// CHECK-DAG: #[[$MMA_M:.+]] = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [8, 1], instrShape = [16, 256, 16]}>
// CHECK-DAG: #[[$MMA_N:.+]] = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 2], instrShape = [16, 128, 16]}>
// CHECK-LABEL: tt.func @eight_warps(
// CHECK: %[[B:.+]] = tt.load %{{.+}} : tensor<64x256x!tt.ptr<f16>
// CHECK-NEXT: %[[B1:.+]] = ttg.local_alloc %[[B]]
// CHECK-NEXT: %[[B2:.+]] = ttg.local_alloc %[[B]]
// CHECK: ttng.warp_group_dot %{{.+}}, %[[B1]], %{{.+}} -> tensor<128x256xf32, #[[$MMA_M]]>
// CHECK: ttng.warp_group_dot %{{.+}}, %[[B2]], %{{.+}} -> tensor<64x256xf32, #[[$MMA_N]]>
#blk = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], order = [1, 0]}>
#acc = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [8, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @eight_warps(%a_ptr: tensor<128x64x!tt.ptr<f16>, #blk>, %b_ptr: tensor<64x256x!tt.ptr<f16>, #blk>, %c_ptr: tensor<64x64x!tt.ptr<f16>, #blk>) -> (tensor<128x256xf32, #acc>, tensor<64x256xf32, #acc>) {
    %z = arith.constant dense<0.000000e+00> : tensor<128x256xf32, #acc>
    %z64 = arith.constant dense<0.000000e+00> : tensor<64x256xf32, #acc>
    %a = tt.load %a_ptr : tensor<128x64x!tt.ptr<f16>, #blk>
    %b = tt.load %b_ptr : tensor<64x256x!tt.ptr<f16>, #blk>
    %c = tt.load %c_ptr : tensor<64x64x!tt.ptr<f16>, #blk>
    %ao = ttg.convert_layout %a : tensor<128x64xf16, #blk> -> tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #acc}>>
    %bo = ttg.convert_layout %b : tensor<64x256xf16, #blk> -> tensor<64x256xf16, #ttg.dot_op<{opIdx = 1, parent = #acc}>>
    %co = ttg.convert_layout %c : tensor<64x64xf16, #blk> -> tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #acc}>>
    %d = tt.dot %ao, %bo, %z : tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #acc}>> * tensor<64x256xf16, #ttg.dot_op<{opIdx = 1, parent = #acc}>> -> tensor<128x256xf32, #acc>
    %e = tt.dot %co, %bo, %z64 : tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #acc}>> * tensor<64x256xf16, #ttg.dot_op<{opIdx = 1, parent = #acc}>> -> tensor<64x256xf32, #acc>
    tt.return %d, %e : tensor<128x256xf32, #acc>, tensor<64x256xf32, #acc>
  }
}
