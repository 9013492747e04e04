// RUN: ttpipe-opt %s --split-input-file --verify-diagnostics -p ttpipe-accelerate-matmul

// A module without ttg.target is rejected at the module.
// expected-error @below {{module has no 'ttg.target' attribute}}
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @f() {
    tt.return
  }
}

// -----

// A target that is not CUDA is rejected at the module.
// expected-error @below {{unsupported ttg.target "hip:gfx942"}}
module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942"} {
  tt.func @f() {
    tt.return
  }
}
