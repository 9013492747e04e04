// The whole pipeliner on an Ampere-style matmul (mma.sync, `tt.dot` on registers): cp.async
// rings read back with local_load.
// RUN: ttpipe-opt %s -p 'ttpipe-assign-latencies,ttpipe-schedule-loops,ttpipe-pipeline' | filecheck %s

// Three stages, and a synchronous dot: each ring holds two slots (the loads of the next two
// iterations; no slot is kept for a dot still reading). The loop waits for the oldest two
// groups, reads both slots back into registers with local_load (ordered after the wait by
// its token), converts them to dot operands, and issues the copies two iterations ahead.
// The loads' blocked layouts and the convert_layouts are kept.
// CHECK-LABEL: tt.func @mma_v2
// CHECK: %[[A_RING:.+]] = ttg.local_alloc : () -> !ttg.memdesc<2x128x32xf16
// CHECK: %[[B_RING:.+]] = ttg.local_alloc : () -> !ttg.memdesc<2x32x128xf16
// CHECK-COUNT-4: ttg.async_commit_group
// CHECK: scf.for {{.*}} iter_args(%[[ACC:[^ ]+]] = %{{[^,]+}},
// CHECK: %[[READY:.+]] = ttg.async_wait %{{.+}}, %{{.+}} {num = 2 : i32}
// CHECK: %[[A_SLOT:.+]] = ttg.memdesc_index %[[A_RING]]
// CHECK: %[[A:.+]] = ttg.local_load %[[A_SLOT]] token %[[READY]] : {{.*}} -> tensor<128x32xf16, #[[A_LAYOUT:[a-z0-9_]+]]>
// CHECK: %[[A_OP:.+]] = ttg.convert_layout %[[A]] : tensor<128x32xf16, #[[A_LAYOUT]]> -> tensor<128x32xf16, #ttg.dot_op<{opIdx = 0
// CHECK: %[[B_SLOT:.+]] = ttg.memdesc_index %[[B_RING]]
// CHECK: %[[B:.+]] = ttg.local_load %[[B_SLOT]] token %[[READY]] : {{.*}} -> tensor<32x128xf16, #[[B_LAYOUT:[a-z0-9_]+]]>
// CHECK: %[[B_OP:.+]] = ttg.convert_layout %[[B]] : tensor<32x128xf16, #[[B_LAYOUT]]> -> tensor<32x128xf16, #ttg.dot_op<{opIdx = 1
// CHECK: %[[D:.+]] = tt.dot %[[A_OP]], %[[B_OP]], %[[ACC]]
// CHECK-COUNT-2: ttg.async_commit_group
// CHECK: scf.yield %[[D]],
// CHECK: ttg.async_wait {num = 0 : i32}
// CHECK-DAG: ttg.local_dealloc %[[A_RING]]
// CHECK-DAG: ttg.local_dealloc %[[B_RING]]
#a = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#b = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#opa = #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>
#opb = #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>
module attributes {"ttg.target" = "cuda:80", "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @mma_v2(%k: i32,
      %a_init: tensor<128x32x!tt.ptr<f16>, #a> {tt.divisibility = dense<[16, 16]> : tensor<2xi32>, tt.contiguity = dense<[1, 32]> : tensor<2xi32>},
      %b_init: tensor<32x128x!tt.ptr<f16>, #b> {tt.divisibility = dense<[16, 16]> : tensor<2xi32>, tt.contiguity = dense<[1, 128]> : tensor<2xi32>}) -> tensor<128x128xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %a_step = arith.constant dense<32> : tensor<128x32xi32, #a>
    %b_step = arith.constant dense<4096> : tensor<32x128xi32, #b>
    %zero = arith.constant dense<0.000000e+00> : tensor<128x128xf32, #mma>
    %r:3 = scf.for %i = %c0 to %k step %c1 iter_args(%acc = %zero, %pa = %a_init, %pb = %b_init) -> (tensor<128x128xf32, #mma>, tensor<128x32x!tt.ptr<f16>, #a>, tensor<32x128x!tt.ptr<f16>, #b>) : i32 {
      %av = tt.load %pa : tensor<128x32x!tt.ptr<f16>, #a>
      %ad = ttg.convert_layout %av : tensor<128x32xf16, #a> -> tensor<128x32xf16, #opa>
      %bv = tt.load %pb : tensor<32x128x!tt.ptr<f16>, #b>
      %bd = ttg.convert_layout %bv : tensor<32x128xf16, #b> -> tensor<32x128xf16, #opb>
      %d = tt.dot %ad, %bd, %acc : tensor<128x32xf16, #opa> * tensor<32x128xf16, #opb> -> tensor<128x128xf32, #mma>
      %pa2 = tt.addptr %pa, %a_step : tensor<128x32x!tt.ptr<f16>, #a>, tensor<128x32xi32, #a>
      %pb2 = tt.addptr %pb, %b_step : tensor<32x128x!tt.ptr<f16>, #b>, tensor<32x128xi32, #b>
      scf.yield %d, %pa2, %pb2 : tensor<128x128xf32, #mma>, tensor<128x32x!tt.ptr<f16>, #a>, tensor<32x128x!tt.ptr<f16>, #b>
    }
    tt.return %r#0 : tensor<128x128xf32, #mma>
  }
}
