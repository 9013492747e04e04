// The named pipelines take TTIR to final TTGIR as Triton 3.6's make_ttgir does.
// RUN: ttpipe-opt %s -p 'ttgir-sm80{impl=triton}' | filecheck %s --check-prefixes=CHECK,SM80
// RUN: ttpipe-opt %s -p 'ttgir-sm90{impl=triton num-warps=8}' | filecheck %s --check-prefixes=CHECK,SM90
// RUN: ttpipe-opt %s --ttgir-sm100=impl=triton | filecheck %s --check-prefixes=CHECK,SM100
// impl=ttpipe (the default) runs ttpipe's Python passes in place of the C++ ones they replace.
// RUN: ttpipe-opt %s -p 'ttgir-sm90{num-warps=8}' | filecheck %s --check-prefixes=CHECK,SM90

// SM80: #mma = #ttg.nvidia_mma<{versionMajor = 2,
// SM90: #mma = #ttg.nvidia_mma<{versionMajor = 3,
// SM80: ttg.target = "cuda:80"
// SM90: "ttg.num-warps" = 8 : i32, ttg.target = "cuda:90"
// SM100: "ttg.num-warps" = 4 : i32, ttg.target = "cuda:100"
// CHECK-LABEL: tt.func public @mm
// CHECK: scf.for
// SM80: tt.dot {{.*}} -> tensor<128x128xf32, #mma>
// SM90: ttng.warp_group_dot {{.*}} -> tensor<128x128xf32, #mma>
// SM100: ttng.tc_gen5_mma
// CHECK: tt.store
module {
  tt.func public @mm(%a: !tt.ptr<f16>, %b: !tt.ptr<f16>, %c: !tt.ptr<f16>, %M: i32, %N: i32, %K: i32) attributes {noinline = false} {
    %c64_i32 = arith.constant 64 : i32
    %c0_i32 = arith.constant 0 : i32
    %cst = arith.constant dense<0.000000e+00> : tensor<128x128xf32>
    %c128_i32 = arith.constant 128 : i32
    %pm = tt.get_program_id x : i32
    %pn = tt.get_program_id y : i32
    %rm = arith.muli %pm, %c128_i32 : i32
    %rm_0 = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
    %rm_1 = tt.splat %rm : i32 -> tensor<128xi32>
    %rm_2 = arith.addi %rm_1, %rm_0 : tensor<128xi32>
    %rn = arith.muli %pn, %c128_i32 : i32
    %rn_3 = tt.splat %rn : i32 -> tensor<128xi32>
    %rn_4 = arith.addi %rn_3, %rm_0 : tensor<128xi32>
    %rk = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
    %acc = scf.for %arg6 = %c0_i32 to %K step %c64_i32 iter_args(%arg7 = %cst) -> (tensor<128x128xf32>)  : i32 {
      %x = tt.expand_dims %rm_2 {axis = 1 : i32} : tensor<128xi32> -> tensor<128x1xi32>
      %x_5 = tt.splat %K : i32 -> tensor<128x1xi32>
      %x_6 = arith.muli %x, %x_5 : tensor<128x1xi32>
      %x_7 = tt.splat %a : !tt.ptr<f16> -> tensor<128x1x!tt.ptr<f16>>
      %x_8 = tt.addptr %x_7, %x_6 : tensor<128x1x!tt.ptr<f16>>, tensor<128x1xi32>
      %x_9 = tt.splat %arg6 : i32 -> tensor<64xi32>
      %x_10 = arith.addi %x_9, %rk : tensor<64xi32>
      %x_11 = tt.expand_dims %x_10 {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
      %x_12 = tt.broadcast %x_8 : tensor<128x1x!tt.ptr<f16>> -> tensor<128x64x!tt.ptr<f16>>
      %x_13 = tt.broadcast %x_11 : tensor<1x64xi32> -> tensor<128x64xi32>
      %x_14 = tt.addptr %x_12, %x_13 : tensor<128x64x!tt.ptr<f16>>, tensor<128x64xi32>
      %x_15 = tt.load %x_14 : tensor<128x64x!tt.ptr<f16>>
      %y = tt.expand_dims %x_10 {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
      %y_16 = tt.splat %N : i32 -> tensor<64x1xi32>
      %y_17 = arith.muli %y, %y_16 : tensor<64x1xi32>
      %y_18 = tt.splat %b : !tt.ptr<f16> -> tensor<64x1x!tt.ptr<f16>>
      %y_19 = tt.addptr %y_18, %y_17 : tensor<64x1x!tt.ptr<f16>>, tensor<64x1xi32>
      %y_20 = tt.expand_dims %rn_4 {axis = 0 : i32} : tensor<128xi32> -> tensor<1x128xi32>
      %y_21 = tt.broadcast %y_19 : tensor<64x1x!tt.ptr<f16>> -> tensor<64x128x!tt.ptr<f16>>
      %y_22 = tt.broadcast %y_20 : tensor<1x128xi32> -> tensor<64x128xi32>
      %y_23 = tt.addptr %y_21, %y_22 : tensor<64x128x!tt.ptr<f16>>, tensor<64x128xi32>
      %y_24 = tt.load %y_23 : tensor<64x128x!tt.ptr<f16>>
      %acc_25 = tt.dot %x_15, %y_24, %arg7, inputPrecision = tf32 : tensor<128x64xf16> * tensor<64x128xf16> -> tensor<128x128xf32>
      scf.yield %acc_25 : tensor<128x128xf32>
    }
    %0 = tt.expand_dims %rm_2 {axis = 1 : i32} : tensor<128xi32> -> tensor<128x1xi32>
    %1 = tt.splat %N : i32 -> tensor<128x1xi32>
    %2 = arith.muli %0, %1 : tensor<128x1xi32>
    %3 = tt.splat %c : !tt.ptr<f16> -> tensor<128x1x!tt.ptr<f16>>
    %4 = tt.addptr %3, %2 : tensor<128x1x!tt.ptr<f16>>, tensor<128x1xi32>
    %5 = tt.expand_dims %rn_4 {axis = 0 : i32} : tensor<128xi32> -> tensor<1x128xi32>
    %6 = tt.broadcast %4 : tensor<128x1x!tt.ptr<f16>> -> tensor<128x128x!tt.ptr<f16>>
    %7 = tt.broadcast %5 : tensor<1x128xi32> -> tensor<128x128xi32>
    %8 = tt.addptr %6, %7 : tensor<128x128x!tt.ptr<f16>>, tensor<128x128xi32>
    %9 = arith.truncf %acc : tensor<128x128xf32> to tensor<128x128xf16>
    tt.store %8, %9 : tensor<128x128x!tt.ptr<f16>>
    tt.return
  }
}
