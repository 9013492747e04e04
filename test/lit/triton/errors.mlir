// Errors in pipelines of Triton's passes: one line each, with a location where there is one.
// RUN: not ttpipe-opt %s -p tritongpu-coalesce 2>&1 | filecheck %s --check-prefix=OP
// RUN: not ttpipe-opt %s -p convert-triton-to-tritongpu 2>&1 | filecheck %s --check-prefix=TARGET
// RUN: not ttpipe-opt %s -p cse,tritongpu-accelerate-matmul 2>&1 | filecheck %s --check-prefix=CRASH
// RUN: not ttpipe-opt %s -p 'ttgir-sm90{num-warps=3}' 2>&1 | filecheck %s --check-prefix=VALUE
// RUN: not ttpipe-opt %s --convert-triton-to-tritongpu=target=sm90 2>&1 | filecheck %s --check-prefix=TARGET-VALUE
// RUN: not ttpipe-opt %s -p 'tritongpu-pipeline{stages=2}' 2>&1 | filecheck %s --check-prefix=OPTION
// RUN: not ttpipe-opt %s -p 'cse,tritongpu-pipelining' 2>&1 | filecheck %s --check-prefix=PASS

// TARGET: {{.*}}errors.mlir:[[# @LINE + 3]]:1: error: 'convert-triton-to-tritongpu' requires 'target' option to be set
// CRASH: {{.*}}errors.mlir:[[# @LINE + 2]]:1: error: Triton crashed in one of 2 passes, 'cse' to 'tritongpu-accelerate-matmul': assertion failed: targetAttr && "Expected a target attribute on the module operation" (Utility.cpp:{{[0-9]+}}) (--print-ir-after-all runs them one at a time)
// VALUE: ttpipe-opt: -p: error: option 'num-warps' of pass 'ttgir-sm90' must be a power of two, not '3'
module {
  tt.func public @add(%x: !tt.ptr<f32>, %y: !tt.ptr<f32>) {
    %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
    %px = tt.splat %x : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>>
    %p = tt.addptr %px, %r : tensor<128x!tt.ptr<f32>>, tensor<128xi32>
    // OP: {{.*}}errors.mlir:[[# @LINE + 1]]:10: error: 'tt.load' op is not contained within a context that specifies the number of warps
    %v = tt.load %p : tensor<128x!tt.ptr<f32>>
    %w = arith.addf %v, %v : tensor<128xf32>
    %py = tt.splat %y : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>>
    %q = tt.addptr %py, %r : tensor<128x!tt.ptr<f32>>, tensor<128xi32>
    tt.store %q, %w : tensor<128x!tt.ptr<f32>>
    tt.return
  }
}
// TARGET-VALUE: ttpipe-opt: command line: error: option 'target' of pass 'convert-triton-to-tritongpu' must look like cuda:90 or hip:gfx942, not 'sm90'
// OPTION: ttpipe-opt: -p: error: pass 'tritongpu-pipeline' has no option 'stages' (options: num-stages, dump-intermediate-steps)
// PASS: ttpipe-opt: -p: error: unknown pass 'tritongpu-pipelining' (ttpipe-opt --list-passes lists them)
