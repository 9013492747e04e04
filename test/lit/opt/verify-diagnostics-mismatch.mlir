// RUN: not ttpipe-opt %s --verify-diagnostics 2>&1 | filecheck %s

// An error nobody expected, and an expectation no error met, both fail the run.

module {
  tt.func @f(%a: i32) {
    // expected-error @below {{this message is not the one produced}}
    %0 = tt.splat %a : i32 -> tensor<128xf32>
    tt.return
  }
}
// CHECK-DAG: verify-diagnostics-mismatch.mlir:8:5: error: unexpected error: 'tt.splat' op requires the same element type
// CHECK-DAG: verify-diagnostics-mismatch.mlir:7:8: error: expected error "this message is not the one produced" was not produced
