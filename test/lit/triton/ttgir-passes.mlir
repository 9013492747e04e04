// Triton's C++ passes on TTGIR, mixed with MLIR's: one Triton pass manager runs them all.
// RUN: ttpipe-opt %s --split-input-file -p 'tritongpu-remove-layout-conversions,cse,canonicalize' | filecheck %s

#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func public @layout_round_trip
  // CHECK-NOT: ttg.convert_layout
  // CHECK: arith.addf {{.*}} : tensor<512xf32, #blocked>
  // CHECK-NOT: ttg.convert_layout
  // CHECK: tt.return
  tt.func public @layout_round_trip(%x: !tt.ptr<f32>) {
    %r = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32, #blocked>
    %px = tt.splat %x : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>, #blocked>
    %p = tt.addptr %px, %r : tensor<512x!tt.ptr<f32>, #blocked>, tensor<512xi32, #blocked>
    %v = tt.load %p : tensor<512x!tt.ptr<f32>, #blocked>
    %a = ttg.convert_layout %v : tensor<512xf32, #blocked> -> tensor<512xf32, #blocked1>
    %b = arith.addf %a, %a : tensor<512xf32, #blocked1>
    %c = ttg.convert_layout %b : tensor<512xf32, #blocked1> -> tensor<512xf32, #blocked>
    tt.store %p, %c : tensor<512x!tt.ptr<f32>, #blocked>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:100", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func public @cse_then_fold
  // CHECK: %[[V:.*]] = tt.load
  // CHECK-NEXT: %[[S:.*]] = arith.addf %[[V]], %[[V]]
  // CHECK-NEXT: %[[P:.*]] = arith.mulf %[[S]], %[[S]]
  // CHECK-NEXT: tt.store {{.*}}, %[[P]]
  tt.func public @cse_then_fold(%x: !tt.ptr<f32>) {
    %one = arith.constant dense<1.000000e+00> : tensor<128xf32, #blocked>
    %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #blocked>
    %px = tt.splat %x : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>, #blocked>
    %p = tt.addptr %px, %r : tensor<128x!tt.ptr<f32>, #blocked>, tensor<128xi32, #blocked>
    %v = tt.load %p : tensor<128x!tt.ptr<f32>, #blocked>
    %s1 = arith.addf %v, %v : tensor<128xf32, #blocked>
    %s2 = arith.addf %v, %v : tensor<128xf32, #blocked>
    %m = arith.mulf %s1, %s2 : tensor<128xf32, #blocked>
    %k = arith.mulf %m, %one : tensor<128xf32, #blocked>
    tt.store %p, %k : tensor<128x!tt.ptr<f32>, #blocked>
    tt.return
  }
}
