"""The upstream MLIR dialects in Triton's IR (scf, cf, math, ub, gpu): round trips that
Triton reads back as the same module, ttpipe's text compared with Triton's own print of
the same input (locations aside), and the IR the parser builds (implied terminators,
region-argument locations)."""

import re

import pytest
from xdsl.dialects.builtin import FileLineColLoc, IntegerType

from ttpipe.dialects import scf
from ttpipe.roundtrip import check_text
from ttpipe.textio import DiagnosticError, parse_module, print_module
from ttpipe.triton import mlir

_LOC = re.compile(r" loc\((?:[^()]|\((?:[^()]|\([^()]*\))*\))*\)")


def func(args: str, body: str) -> str:
    return f"tt.func @f({args}) {{\n{body}\n  tt.return\n}}\n"


def without_locations(text: str) -> list[str]:
    return [_LOC.sub("", line) for line in text.splitlines() if not line.startswith("#loc")]


def check(tmp_path, text: str) -> str:
    """Triton reads ttpipe's print of `text` as the module it reads from `text`, and the
    print is Triton's own, line for line, but for locations. Returns ttpipe's print."""
    path = tmp_path / "input.mlir"
    path.write_text(text)
    outcome = check_text(text, str(path))
    assert outcome.ok and not outcome.detail, outcome.detail
    ours = print_module(parse_module(text, str(path)).module)
    assert without_locations(ours) == without_locations(mlir.reprint(str(path)))
    return ours


# ------------------------------------------------------------------ scf.for


def test_for_index_without_iter_args(tmp_path):
    out = check(tmp_path, func("%n: index", """
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %x = arith.addi %i, %i : index
  }"""))
    assert "scf.for %arg1 = %c0 to %arg0 step %c1 {\n" in out
    assert "scf.yield" not in out


def test_for_i32_with_iter_args_and_attrs(tmp_path):
    out = check(tmp_path, func("%n: i32, %x: f32", """
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%a = %x, %b = %c0) -> (f32, i32) : i32 {
    %y = arith.addf %a, %a : f32
    %j = arith.addi %b, %i : i32
    scf.yield %y, %j : f32, i32
  } {tt.num_stages = 3 : i32, tt.flatten}
  scf.for unsigned %k = %c0 to %n step %c1 : i32 {
    scf.yield
  }"""))
    assert ("%0:2 = scf.for %arg2 = %c0_i32 to %arg0 step %c1_i32 iter_args(%arg3 = %arg1, %arg4 = %c0_i32)"
            " -> (f32, i32)  : i32 {") in out
    assert "} {tt.flatten, tt.num_stages = 3 : i32}" in out
    assert "scf.for unsigned %arg2 = %c0_i32 to %arg0 step %c1_i32  : i32 {\n" in out


def test_for_region_arguments_and_implied_yield(tmp_path):
    text = func("%n: i32", """
  %c1 = arith.constant 1 : i32
  scf.for %i = %c1 to %n step %c1 : i32 {
  }""")
    loop = next(op for op in parse_module(text, "f.mlir").module.walk() if isinstance(op, scf.ForOp))
    (iv,) = loop.body.args
    assert iv.type == IntegerType(32)
    assert isinstance(iv.location, FileLineColLoc)
    assert (iv.location.line.data, iv.location.column.data) == (4, 11)  # the name `%i`, as MLIR gives it
    terminator = loop.body.last_op
    assert isinstance(terminator, scf.YieldOp) and not terminator.operands
    assert (terminator.location.line.data, terminator.location.column.data) == (4, 3)  # the op's location
    check(tmp_path, text)


def test_for_bad_iter_args_is_a_diagnostic():
    with pytest.raises(DiagnosticError):
        parse_module(func("%n: index", "  scf.for %i = %n to %n step %n iter_args(%a = %n) -> (index, index) {\n  }"))


# ------------------------------------------------------------------ scf.if


def test_if_forms(tmp_path):
    out = check(tmp_path, func("%c: i1, %a: i32, %b: i32", """
  scf.if %c {
    %x = arith.addi %a, %b : i32
  }
  scf.if %c {
  } else {
    %y = arith.subi %a, %b : i32
  }
  %r = scf.if %c -> (i32) {
    scf.yield %a : i32
  } else {
    scf.yield %b : i32
  }
  %s:2 = scf.if %c -> (i32, i32) {
    scf.yield %a, %b : i32, i32
  } else {
    scf.yield %b, %a : i32, i32
  } {ttg.partition = array<i32: 0>}"""))
    assert "%0 = scf.if %arg0 -> (i32) {" in out
    assert "%1:2 = scf.if %arg0 -> (i32, i32) {" in out
    assert "} {ttg.partition = array<i32: 0>}" in out


def test_implied_terminators_are_not_printed(tmp_path):
    """Without results, `scf.for`/`scf.if` print no `scf.yield`, even one with attributes."""
    out = check(tmp_path, func("%n: i32, %c: i1", """
  scf.for %i = %n to %n step %n : i32 {
    %x = arith.addi %i, %i : i32
    scf.yield {ttg.partition = array<i32: 0>}
  }
  scf.if %c {
    scf.yield {foo}
  } else {
    scf.yield {bar}
  }"""))
    assert "scf.yield" not in out


def test_result_groups_and_location_names(tmp_path):
    out = check(tmp_path, func("%c: i1, %a: i32", """
  %r:2 = scf.if %c -> (i32, i32) {
    scf.yield %a, %a : i32, i32
  } else {
    scf.yield %a, %a : i32, i32
  }
  %s = arith.addi %r#0, %r#1 : i32 loc(callsite("k.py":1:1 at "total"("k.py":2:2)))
  %t = arith.constant 1 : i32 loc("one")"""))
    assert "%0:2 = scf.if" in out and "%total = arith.addi %0#0, %0#1 : i32" in out
    assert "%one = arith.constant 1 : i32" in out


def test_sibling_regions_restart_numbering(tmp_path):
    out = check(tmp_path, func("%c: i1, %a: i32", """
  %r = scf.if %c -> (i32) {
    %x = arith.addi %a, %a : i32
    scf.yield %x : i32
  } else {
    %y = arith.subi %a, %a : i32
    scf.yield %y : i32
  }"""))
    assert out.count("%1 = arith.") == 2


# ------------------------------------------------------------------ scf.while / condition


def test_while(tmp_path):
    out = check(tmp_path, func("%n: i32", """
  %c0 = arith.constant 0 : i32
  %r:2 = scf.while (%i = %c0, %s = %c0) : (i32, i32) -> (i32, i32) {
    %p = arith.cmpi slt, %i, %n : i32
    scf.condition(%p) %i, %s : i32, i32
  } do {
  ^bb0(%i2: i32 loc("i"), %s2: i32):
    %j = arith.addi %i2, %n : i32
    scf.yield %j, %s2 : i32, i32
  } attributes {foo}
  scf.while : () -> () {
    %t = arith.constant true
    scf.condition(%t)
  } do {
    scf.yield
  }"""))
    assert "scf.while (%arg1 = %c0_i32, %arg2 = %c0_i32) : (i32, i32) -> (i32, i32) {" in out
    assert "} do {\n    ^bb0(%i: i32" in out
    assert "} attributes {foo}" in out
    assert "scf.while : () -> () {" in out


def test_while_after_region_argument_locations(tmp_path):
    text = func("%n: i32", """
  %r = scf.while (%i = %n) : (i32) -> i32 {
    %p = arith.cmpi slt, %i, %n : i32
    scf.condition(%p) %i : i32
  } do {
  ^bb0(%k: i32 loc("k")):
    scf.yield %k : i32
  }""")
    path = tmp_path / "input.mlir"
    path.write_text(text)
    printed = print_module(parse_module(text, str(path)).module)
    again = parse_module(printed, str(path)).module
    loop = next(op for op in again.walk() if isinstance(op, scf.WhileOp))
    assert loop.after.blocks[0].args[0].location.desc.data == "k"
    check(tmp_path, text)


# ------------------------------------------------------------------ other scf ops


def test_execute_region_and_index_switch(tmp_path):
    check(tmp_path, func("%a: i32, %x: index", """
  %e = scf.execute_region -> i32 {
    scf.yield %a : i32
  }
  %e2:2 = scf.execute_region -> (i32, i32) no_inline {
    scf.yield %a, %a : i32, i32
  } {foo}
  %z:2 = scf.index_switch %x {bar} -> i32, i32
  case 2 {
    scf.yield %a, %a : i32, i32
  }
  case -4 {
    scf.yield %a, %a : i32, i32
  }
  default {
    scf.yield %a, %a : i32, i32
  }
  scf.index_switch %x
  default {
  }"""))


# ------------------------------------------------------------------ cf


def test_cf_branches_with_block_arguments(tmp_path):
    out = check(tmp_path, """tt.func @f(%c: i1, %a: i32, %b: i32) {
  cf.br ^bb1(%a : i32)
^bb1(%x: i32):
  cf.cond_br %c, ^bb1(%b : i32), ^bb2(%x, %b : i32, i32)
^bb2(%y: i32 loc("y"), %z: i32):
  cf.cond_br %c weights([3, 5]), ^bb3, ^bb3
^bb3:
  cf.assert %c, "boom \\"quoted\\""
  cf.switch %a : i32, [
    default: ^bb4(%a : i32),
    1: ^bb4(%b : i32),
    7: ^bb5
  ]
^bb4(%v: i32):
  cf.switch %v : i32, [
    default: ^bb5
  ] {foo}
^bb5:
  cf.br ^bb6
^bb6:
  tt.return
^bb7:
  tt.return
}
""")
    assert "^bb1(%0: i32" in out and "// 2 preds: ^bb0, ^bb1" in out
    assert "^bb2(%y: i32" in out and "%1: i32" in out and "// pred: ^bb1" in out
    assert 'cf.assert %arg0, "boom \\22quoted\\22"' in out
    assert "^bb6:  // pred: ^bb5" in out and "^bb7:  // no predecessors" in out


def test_switch_negative_case_prints_signed(tmp_path):
    """MLIR would print `4294967295:`, which its own parser rejects; ttpipe prints `-1:`."""
    text = """tt.func @f(%a: i32) {
  cf.switch %a : i32, [
    default: ^bb1,
    -1: ^bb1
  ]
^bb1:
  tt.return
}
"""
    path = tmp_path / "input.mlir"
    path.write_text(text)
    outcome = check_text(text, str(path))
    assert outcome.ok and not outcome.detail, outcome.detail
    assert "      -1: ^bb1\n" in print_module(parse_module(text).module)


# ------------------------------------------------------------------ math


MATH_UNARY_FLOAT = ("absf acos acosh asin asinh atan atanh cbrt ceil cos cosh erf erfc exp exp2 expm1 "
                    "floor log log10 log1p log2 round roundeven rsqrt sin sinh sqrt tan tanh trunc").split()


def test_math_ops_with_fastmath(tmp_path):
    lines = [f"  %u{i} = math.{name} %t fastmath<afn> : tensor<4xf32>" for i, name in enumerate(MATH_UNARY_FLOAT)]
    lines += [f"  %i{i} = math.{name} %n : i32" for i, name in enumerate(("absi", "ctlz", "cttz", "ctpop"))]
    lines += [f"  %b{i} = math.{name} %a, %b fastmath<nnan,ninf> : f32"
              for i, name in enumerate(("atan2", "copysign", "powf"))]
    lines += [f"  %k{i} = math.{name} %t : tensor<4xf32>" for i, name in enumerate(("isfinite", "isinf", "isnan", "isnormal"))]
    lines += [
        "  %f = math.fma %a, %b, %a fastmath<fast> : f32",
        "  %f2 = math.fma %a, %b, %a fastmath<none> : f32",
        "  %f3 = math.exp %a fastmath<reassoc,nnan,ninf,nsz,arcp,contract> : f32",
        "  %p = math.fpowi %a, %n fastmath<contract> : f32, i32",
        "  %q = math.ipowi %n, %n : i32",
        "  %c = math.clampf %a to [%b, %a] fastmath<fast> : f32",
        '  %g = "math.isnan"(%a) <{fastmath = #arith.fastmath<afn>}> : (f32) -> i1',
    ]
    out = check(tmp_path, func("%a: f32, %b: f32, %n: i32, %t: tensor<4xf32>", "\n".join(lines)))
    assert "math.fma %arg0, %arg1, %arg0 fastmath<fast> : f32" in out
    assert "math.fma %arg0, %arg1, %arg0 : f32" in out
    assert "math.isnan %arg0 {fastmath = #arith.fastmath<afn>} : f32" in out
    assert "math.clampf %arg0 to [%arg1, %arg0] fastmath<fast> : f32" in out


def test_math_classification_result_type():
    text = func("%t: tensor<4xf32>", "  %k = math.isinf %t : tensor<4xf32>")
    op = next(op for op in parse_module(text).module.walk() if op.name == "math.isinf")
    assert op.results[0].type.element_type == IntegerType(1)


# ------------------------------------------------------------------ ub, gpu


def test_poison_and_barrier(tmp_path):
    out = check(tmp_path, func("%a: i32", """
  %p = ub.poison : i32
  %q = ub.poison <#ub.poison> : tensor<4xf32>
  gpu.barrier
  gpu.barrier {foo}"""))
    assert "%0 = ub.poison : i32" in out
    assert "%1 = ub.poison : tensor<4xf32>" in out
    assert "gpu.barrier {foo}" in out
