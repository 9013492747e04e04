"""The pipeliner's helpers from Python: the unresolved stage predicate (`ttg.predicate_stage`),
predication under a constant predicate, and the shared IR helpers it is built on."""

from __future__ import annotations

import pytest
from xdsl.dialects.builtin import i1, i32
from xdsl.rewriter import InsertPoint

from ttpipe.dialects import arith, scf, tt, ttg
from ttpipe.passes.common.builder import OpBuilder, constant_int_value, is_constant_int_value
from ttpipe.passes.common.integers import log2_exact
from ttpipe.passes.common.ir import (
    closed_form_inductions,
    erase_self_updating_iter_args,
    forward_slice,
    sink_below,
)
from ttpipe.passes.pipeline.expand import PipeliningOptions, Refusal, pipeline_for_loop
from ttpipe.passes.pipeline.pipeline import predicate_stage_op
from ttpipe.passes.pipeline.predicate import predicate_op
from ttpipe.textio import parse_module

MODULE = """
module attributes {"ttg.target" = "cuda:90", "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @f(%src: !tt.ptr<f32>, %dst: !tt.ptr<f32>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    scf.for %i = %c0 to %n step %c1 : i32 {
      %p = tt.addptr %src, %i : !tt.ptr<f32>, i32
      %v = tt.load %p : !tt.ptr<f32>
      %w = arith.mulf %v, %v : f32
      %q = tt.addptr %dst, %i : !tt.ptr<f32>, i32
      tt.store %q, %w : !tt.ptr<f32>
    }
    tt.return
  }
}
"""


def loop_of(module) -> scf.ForOp:
    return next(op for op in module.walk() if isinstance(op, scf.ForOp))


def test_predicate_stage_stays_unresolved_with_emit_predicate_stage_fn():
    """With `emit_predicate_stage_fn`, the kernel's stage predicates are `ttg.predicate_stage`
    ops (what a peeled epilogue resolves later), one per early stage."""
    module = parse_module(MODULE, "loop.mlir").module
    loop = loop_of(module)
    body = list(loop.body.ops)[:-1]
    stages = [0, 0, 1, 1, 1]
    result = pipeline_for_loop(loop, PipeliningOptions(
        list(zip(body, stages)), predicate_fn=predicate_op, peel_epilogue=False, support_dynamic_loops=True,
        emit_predicate_stage_fn=predicate_stage_op))
    assert not isinstance(result, Refusal)
    predicates = [op for op in result.body.ops if isinstance(op, ttg.PredicateStageOp)]
    assert [(p.maxStage.value.data, p.stage.value.data) for p in predicates] == [(1, 0)]
    assert predicates[0].iv is result.body.args[0]
    assert predicates[0].result.type == i1


def test_constant_int_value_sign_extends_i1_true():
    """MLIR's `getConstantIntValue` gives -1 for an i1 `true` (`getSExtValue`)."""
    module = parse_module(MODULE, "loop.mlir").module
    builder = OpBuilder(InsertPoint.before(loop_of(module)), loop_of(module).location)
    true, seven = builder.constant(1, i1), builder.constant(7, i32)
    assert constant_int_value(true) == -1
    assert not is_constant_int_value(true, 1)
    assert is_constant_int_value(seven, 7)
    assert constant_int_value(loop_of(module).body.args[0]) is None


def test_predicate_op_predicates_under_constant_true():
    """As Triton's `predicateOp` (whose `isConstantIntValue(pred, 1)` never holds for an i1),
    a load under a constant `true` predicate gets it as its mask."""
    module = parse_module(MODULE, "loop.mlir").module
    load = next(op for op in module.walk() if isinstance(op, tt.LoadOp))
    true = OpBuilder(InsertPoint.before(load), load.location).constant(1, i1)
    predicate_op(load, true)
    assert load.mask is true


def test_forward_slice_is_topological_and_enters_regions():
    module = parse_module(MODULE, "loop.mlir").module
    func = next(op for op in module.walk() if isinstance(op, tt.FuncOp))
    c0 = next(op for op in func.walk() if isinstance(op, arith.ConstantOp))
    slice_ = forward_slice(c0)
    names = [op.name for op in slice_]
    assert c0 not in slice_
    assert names[0] == "scf.for"
    assert names.index("tt.load") < names.index("arith.mulf") < names.index("tt.store")
    assert "tt.addptr" in names and "scf.yield" in names


def test_log2_exact():
    assert [log2_exact(v) for v in (1, 2, 64)] == [0, 1, 6]
    for bad in (0, 3, -4):
        with pytest.raises(ValueError):
            log2_exact(bad)


CARRIED = """
module attributes {"ttg.target" = "cuda:90", "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @f(%src: !tt.ptr<f32>, %dst: !tt.ptr<f32>, %n: i32) -> i32 {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c4 = arith.constant 4 : i32
    %r:3 = scf.for %i = %c0 to %n step %c1 iter_args(%p = %src, %q = %dst, %s = %c0) -> (!tt.ptr<f32>, !tt.ptr<f32>, i32) : i32 {
      %pn = tt.addptr %p, %c4 : !tt.ptr<f32>, i32
      %qn = tt.addptr %q, %c4 : !tt.ptr<f32>, i32
      %v = tt.load %qn : !tt.ptr<f32>
      tt.store %q, %v : !tt.ptr<f32>
      %sn = arith.addi %s, %c1 : i32
      scf.yield %pn, %qn, %sn : !tt.ptr<f32>, !tt.ptr<f32>, i32
    }
    tt.return %r#2 : i32
  }
}
"""


def test_erase_self_updating_iter_args_drops_only_unread_cycles():
    """`%p` is read by nothing but its own advance: dropped with it. `%q`'s advance feeds a
    load and `%s`'s result is returned: both stay."""
    module = parse_module(CARRIED, "carried.mlir").module
    loop = erase_self_updating_iter_args(loop_of(module))
    assert loop is loop_of(module) and len(loop.initArgs) == 2
    assert [type(op).__name__ for op in loop.body.ops].count("AddPtrOp") == 1
    assert erase_self_updating_iter_args(loop) is loop  # nothing more to drop
    module.verify()


SUNK = """
module attributes {"ttg.target" = "cuda:90", "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @f(%dst: !tt.ptr<i32>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %bound = arith.addi %n, %c1 : i32
    %late = arith.muli %n, %n : i32
    %later = arith.addi %late, %c1 : i32
    %r = scf.for %i = %c0 to %bound step %c1 iter_args(%s = %c0) -> (i32) : i32 {
      %sn = arith.addi %s, %i : i32
      scf.yield %sn : i32
    }
    %out = arith.addi %r, %later : i32
    tt.store %dst, %out : !tt.ptr<i32>
    tt.return
  }
}
"""


def test_sink_below_moves_what_only_later_ops_read():
    module = parse_module(SUNK, "sunk.mlir").module
    loop = loop_of(module)
    sink_below(loop)
    block = loop.parent_block()
    position = block.get_operation_index(loop)
    before = [op for op in block.ops if block.get_operation_index(op) < position]
    after = [op for op in block.ops if block.get_operation_index(op) > position]
    assert [op.name for op in before] == ["arith.constant", "arith.constant", "arith.addi"]  # %bound stays
    assert [op.name for op in after][:2] == ["arith.muli", "arith.addi"]  # %late, %later, in order
    module.verify()


INDUCTIONS = """
module attributes {"ttg.target" = "cuda:90", "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @f(%dst: !tt.ptr<i32>, %wide: !tt.ptr<i64>, %lo: i32, %n: i32, %w0: i64) {
    %c3 = arith.constant 3 : i32
    %c7 = arith.constant 7 : i32
    %c9 = arith.constant 9 : i64
    %t0 = arith.subi %lo, %c7 : i32
    %r:3 = scf.for %i = %lo to %n step %c3 iter_args(%t = %t0, %w = %w0, %s = %t0) -> (i32, i64, i32) : i32 {
      %tn = arith.addi %t, %c7 : i32
      tt.store %dst, %tn : !tt.ptr<i32>
      %wn = arith.addi %c9, %w : i64
      %sn = arith.addi %s, %i : i32
      scf.yield %tn, %wn, %sn : i32, i64, i32
    }
    tt.store %wide, %r#1 : !tt.ptr<i64>
    tt.store %dst, %r#2 : !tt.ptr<i32>
    tt.return
  }
}
"""


def test_closed_form_inductions_leave_only_what_is_no_induction():
    """`%t` (advanced by 7, its update read in the body) and the i64 `%w` (advanced by 9, its
    result read after the loop) are inductions: read as init + iteration * amount in the body
    and init + trips * amount after it, and dropped. `%s` grows by the induction variable, not
    a loop-invariant amount: it stays carried."""
    module = parse_module(INDUCTIONS, "inductions.mlir").module
    loop = closed_form_inductions(loop_of(module))
    assert loop is loop_of(module) and len(loop.initArgs) == 1 and loop.body.args[1].type == i32
    names = [op.name for op in loop.body.ops]
    assert names[:4] == ["arith.subi", "arith.divsi", "arith.muli", "arith.addi"]  # (i - lo) / 3 * 7 + t0
    block = loop.parent_block()
    after = [op.name for op in block.ops][block.get_operation_index(loop) + 1:]
    # max(0, ceildiv(n - lo, 3)) as i64, times 9, plus w0; then the stores
    assert after[-7:] == ["arith.maxsi", "arith.extsi", "arith.muli", "arith.addi", "tt.store", "tt.store",
                          "tt.return"]
    assert closed_form_inductions(loop) is loop  # nothing left to put in closed form
    module.verify()
