// RUN: ttpipe-opt %s -p 'cse,canonicalize' --print-ir-after-all -o /dev/null 2>&1 | filecheck %s --check-prefix=ALL
// RUN: ttpipe-opt %s -p 'cse,canonicalize' --print-ir-after=cse -o /dev/null 2>&1 | filecheck %s --check-prefix=AFTER
// RUN: ttpipe-opt %s -p 'cse,canonicalize' --print-ir-before=canonicalize -o /dev/null 2>&1 | filecheck %s --check-prefix=BEFORE
// RUN: ttpipe-opt %s --cse | filecheck %s --check-prefix=FLAG

// The IR-printing flags dump the module around the passes they name, to stderr.

// ALL: IR Dump After cse (cse)
// ALL: IR Dump After canonicalize (canonicalize)
// AFTER: IR Dump After cse (cse)
// AFTER-NOT: IR Dump
// BEFORE: IR Dump Before canonicalize (canonicalize)
// BEFORE-COUNT-1: arith.addi
// BEFORE-NOT: IR Dump
// FLAG-LABEL: tt.func public @f(
// FLAG-COUNT-1: arith.addi
// FLAG-NOT: arith.addi

module {
  tt.func public @f(%a: i32) -> i32 {
    %0 = arith.addi %a, %a : i32
    %1 = arith.addi %a, %a : i32
    %2 = arith.muli %0, %1 : i32
    tt.return %2 : i32
  }
}
