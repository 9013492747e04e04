// TTIR to TTGIR with Triton's C++ passes by name, from -p or as flags, run in one pass manager.
// RUN: ttpipe-opt %s --split-input-file -p 'convert-triton-to-tritongpu{target=cuda:90 num-warps=8},tritongpu-coalesce,tritongpu-remove-layout-conversions,cse,canonicalize' | filecheck %s
// RUN: ttpipe-opt %s --split-input-file --convert-triton-to-tritongpu=target=cuda:90,num-warps=8 --tritongpu-coalesce --tritongpu-remove-layout-conversions --cse --canonicalize | filecheck %s

// CHECK: #[[BLOCKED:.*]] = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [8], order = [0]}>
// CHECK: module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32}
// CHECK-LABEL: tt.func public @add
// CHECK: tt.load {{.*}} : tensor<1024x!tt.ptr<f32>, #[[BLOCKED]]>
// CHECK-NOT: ttg.convert_layout
// CHECK: tt.store {{.*}} : tensor<1024x!tt.ptr<f32>, #[[BLOCKED]]>
module {
  tt.func public @add(%x: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %y: !tt.ptr<f32> {tt.divisibility = 16 : i32}) {
    %r = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32>
    %px = tt.splat %x : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>>
    %p = tt.addptr %px, %r : tensor<1024x!tt.ptr<f32>>, tensor<1024xi32>
    %v = tt.load %p : tensor<1024x!tt.ptr<f32>>
    %w = arith.addf %v, %v : tensor<1024xf32>
    %py = tt.splat %y : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>>
    %q = tt.addptr %py, %r : tensor<1024x!tt.ptr<f32>>, tensor<1024xi32>
    tt.store %q, %w : tensor<1024x!tt.ptr<f32>>
    tt.return
  }
}

// -----

// CHECK-LABEL: tt.func public @two_reductions
// CHECK-COUNT-2: }) : (tensor<256xf32, #blocked>) -> f32
module {
  tt.func public @two_reductions(%x: !tt.ptr<f32>) -> f32 {
    %r = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32>
    %px = tt.splat %x : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>>
    %p = tt.addptr %px, %r : tensor<256x!tt.ptr<f32>>, tensor<256xi32>
    %v = tt.load %p : tensor<256x!tt.ptr<f32>>
    %s = "tt.reduce"(%v) <{axis = 0 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %c = arith.addf %a, %b : f32
      tt.reduce.return %c : f32
    }) : (tensor<256xf32>) -> f32
    %m = "tt.reduce"(%v) <{axis = 0 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %c = arith.maxnumf %a, %b : f32
      tt.reduce.return %c : f32
    }) : (tensor<256xf32>) -> f32
    %t = arith.addf %s, %m : f32
    tt.return %t : f32
  }
}
