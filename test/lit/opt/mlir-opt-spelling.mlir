// Options are spelled as mlir-opt and triton-opt spell them: one dash or two, `-o FILE`,
// `--o=FILE`, `-pass-pipeline=...`, pass flags with options (quoted, with spaces); and,
// as in mlir-opt, locations are printed only with -mlir-print-debuginfo.
// RUN: ttpipe-opt %s -split-input-file -allow-unregistered-dialect -cse | filecheck %s --check-prefix=DASH
// RUN: ttpipe-opt %s --split-input-file --allow-unregistered-dialect --cse | filecheck %s --check-prefix=DASH
// RUN: ttpipe-opt %s -split-input-file -allow-unregistered-dialect -pass-pipeline='builtin.module(cse)' -o - | filecheck %s --check-prefix=DASH
// RUN: ttpipe-opt -split-input-file -allow-unregistered-dialect -p cse --o=%t %s && filecheck %s --check-prefix=DASH --input-file %t
// RUN: ttpipe-opt %s -split-input-file -allow-unregistered-dialect -ttpipe-pipeline="num-stages=3 dump-intermediate-steps=false" -cse | filecheck %s --check-prefix=DASH
// RUN: ttpipe-opt %s -split-input-file -allow-unregistered-dialect -mlir-print-debuginfo | filecheck %s --check-prefix=LOC
// RUN: ttpipe-opt %s -split-input-file -allow-unregistered-dialect --mlir-print-debuginfo -strip-debuginfo | filecheck %s --check-prefix=NOLOC
// RUN: not ttpipe-opt %s -no-such-flag 2>&1 | filecheck %s --check-prefix=UNKNOWN
// RUN: not ttpipe-opt %s --no-such-flag=1 2>&1 | filecheck %s --check-prefix=UNKNOWN2

// DASH-NOT: loc
// DASH-LABEL: tt.func public @f
// DASH: %[[SUM:.+]] = arith.addi %arg0, %arg0 : i32
// DASH-NEXT: "test.use"(%[[SUM]], %[[SUM]])
// DASH-NOT: loc
// DASH: // -----
// DASH-LABEL: tt.func @g
// DASH-NOT: loc

// LOC-LABEL: tt.func public @f
// LOC: arith.addi %arg0, %arg0 : i32 loc(#[[L:loc[0-9]*]])
// LOC: #[[L]] = loc({{.*}}mlir-opt-spelling.mlir":{{[0-9]+}}:{{[0-9]+}})
// LOC: // -----
// LOC-LABEL: tt.func @g
// LOC: tt.return loc(

// NOLOC-NOT: loc

// UNKNOWN: ttpipe-opt: command line: error: unknown flag or pass '-no-such-flag'
// UNKNOWN2: ttpipe-opt: command line: error: unknown flag or pass '--no-such-flag=1'

module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @f(%a: i32) {
    %0 = arith.addi %a, %a : i32
    %1 = arith.addi %a, %a : i32
    "test.use"(%0, %1) : (i32, i32) -> ()
    tt.return
  }
}

// -----

module {
  tt.func @g() {
    tt.return
  }
}
