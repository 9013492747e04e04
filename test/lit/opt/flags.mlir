// RUN: ttpipe-opt %s --split-input-file --allow-unregistered-dialect --print-op-generic | filecheck %s --check-prefix=GENERIC
// RUN: ttpipe-opt %s --split-input-file --allow-unregistered-dialect --strip-debuginfo | filecheck %s --check-prefix=NOLOC
// RUN: ttpipe-opt %s --split-input-file --allow-unregistered-dialect | filecheck %s --check-prefix=SPLIT
// RUN: ttpipe-opt %s --allow-unregistered-dialect --split-input-file | filecheck %s --check-prefix=UNREG
// RUN: ttpipe-opt --version | filecheck %s --check-prefix=VERSION
// RUN: ttpipe-opt --list-passes | filecheck %s --check-prefix=LIST
// RUN: ttpipe-opt %s --split-input-file --allow-unregistered-dialect --mlir-timing 2>&1 >/dev/null | filecheck %s --check-prefix=TIMING
// RUN: not ttpipe-opt %s -p 'no-such-pass' 2>&1 | filecheck %s --check-prefix=BADPASS
// RUN: not ttpipe-opt %S/does-not-exist.mlir 2>&1 | filecheck %s --check-prefix=MISSING

// GENERIC: "tt.func"() <{function_type = (i32) -> (), sym_name = "f", sym_visibility = "public"}> ({
// GENERIC: "arith.addi"(%arg0, %arg0) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
// NOLOC-NOT: loc(
// SPLIT: tt.func public @f
// SPLIT: // -----
// SPLIT: tt.func @g
// UNREG: "test.use"(%arg0) : (i32) -> ()
// VERSION: ttpipe-opt 0.1.0
// LIST: Available passes:
// TIMING: Parser
// TIMING: Total
// BADPASS: ttpipe-opt: -p: error: unknown pass 'no-such-pass'
// MISSING: does-not-exist.mlir: error: could not open input file: no such file

module {
  tt.func public @f(%a: i32) {
    %0 = arith.addi %a, %a : i32
    tt.return
  }
}

// -----

module {
  tt.func @g(%a: i32) {
    "test.use"(%a) : (i32) -> ()
    tt.return
  }
}
