// RUN: not ttpipe-opt %s --split-input-file 2>&1 | filecheck %s

// Each chunk is bad input: one `FILE:LINE:COL: error:` line, the source line, a caret.

module {
  tt.func @f() {
    %0 = tt.frobnicate : i32
    tt.return
  }
}
// CHECK: errors.mlir:7:10: error: custom op 'tt.frobnicate' is unknown
// CHECK-NEXT: %0 = tt.frobnicate : i32
// CHECK-NEXT: ^

// -----

module {
  tt.func @f(%a: !tt.pointer<f16>) {
    tt.return
  }
}
// CHECK: errors.mlir:18:18: error: unknown type '!tt.pointer'

// -----

module {
  tt.func @f(%a: i32) {
    %0 = arith.addi %a, %b : i32
    tt.return
  }
}
// CHECK: errors.mlir:28:25: error: use of undeclared SSA value name '%b'

// -----

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module {
  tt.func @f(%a: tensor<128xf32, #blocked>) {
    %0 = arith.addf %a, %a : tensor<128xf32, #blocked1>
    tt.return
  }
}
// CHECK: errors.mlir:39:46: error: undefined attribute alias '#blocked1'

// -----

module {
  tt.func @f(%a: i32) {
    %0 = tt.splat %a : i32 -> tensor<128xf32>
    tt.return
  }
}
// CHECK: errors.mlir:49:5: error: 'tt.splat' op requires the same element type for all operands and results

// -----

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0, 1]}>
module {
}
// CHECK: errors.mlir:57:25: error: sizePerThread, threadsPerWarp, warpsPerCTA, and order must all have the same rank

// -----

module {
  tt.func @f(%a: i32, %b: f32) {
    %0 = arith.addi %a, %b : i32
    tt.return
  }
}
// CHECK: errors.mlir:66:25: error: use of value '%b' expects different type than prior uses: 'i32' vs 'f32'

// -----

module {
  tt.func @f(%a: i32) {
    %0 = arith.cmpi slq, %a, %a : i32
    tt.return
  }
}
// CHECK: errors.mlir:76:21: error: expected one of eq, ne, slt, sle, sgt, sge, ult, ule, ugt, uge but got 'slq'

// -----

module {
  tt.func @f(%a: i32) {
    %0 = arith.addi %a, %a : i32
    tt.return
  }
// CHECK: errors.mlir:90:1: error: expected '}' to close the region, found end of input
