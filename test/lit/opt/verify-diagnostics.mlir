// RUN: ttpipe-opt %s --split-input-file --verify-diagnostics

// --verify-diagnostics matches errors against expected-error comments, as mlir-opt does.

module {
  tt.func @f(%a: i32) {
    // expected-error @below {{'tt.splat' op requires the same element type}}
    %0 = tt.splat %a : i32 -> tensor<128xf32>
    tt.return
  }
}

// -----

module {
  tt.func @f(%a: i32) {
    %0 = tt.frobnicate %a : i32 // expected-error {{custom op 'tt.frobnicate' is unknown}}
    tt.return
  }
}

// -----

module {
  tt.func @f(%a: i32) {
    %0 = arith.addi %a, %a : i32
    tt.return
  }
}
