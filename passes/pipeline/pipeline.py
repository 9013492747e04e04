"""`ttpipe-pipeline`: Triton 3.6's `tritongpu-pipeline` (SoftwarePipeliner.cpp) on xDSL IR.

The pass composes the pipeliner's phases as Triton's does; each phase is a function of
its own module, and `loop.stage`/`loop.cluster`/`tt.scheduled_max_stage` (schedule.py)
carry the schedule between them.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, i1
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from ttpipe.dialects import scf, ttg, ttng, ub
from ttpipe.dialects.arith import CmpIPredicate
from ttpipe.passes.common.arith_canonicalize import ARITH_PATTERNS
from ttpipe.passes.common.diagnostics import emit_remark
from ttpipe.passes.common.greedy import apply_patterns_greedily
from ttpipe.passes.common.builder import OpBuilder, is_constant_int_value
from ttpipe.passes.common.ir import is_ancestor, last_iteration_number, set_operand_groups
from ttpipe.passes.pipeline.expand import (
    PipeliningOptions,
    Refusal,
    emit_predicate_for_stage,
    expansion_refusal_remark,
    pipeline_for_loop,
)
from ttpipe.passes.pipeline.lower_loops import lower_loops, lowering_refusal_remark
from ttpipe.passes.pipeline.pipelining_utility import num_stages_or_default
from ttpipe.passes.pipeline.predicate import resolve_masks, wrap_in_mask
from ttpipe.passes.pipeline.schedule import CoarseSchedule, body_ops, remove_pipelining_attributes
from ttpipe.passes.pipeline.tma_stores import pipeline_tma_stores
from ttpipe.passes.pipeline.wgmma import async_launch_dots, merge_wgmma_flushes, update_waits
from ttpipe.textio import print_module

MMAV5_OPS = (ttng.TCGen5MMAOp, ttng.TCGen5MMAScaledOp)


def canonicalize_arith(module: ModuleOp) -> None:
    """arith's canonicalization, greedily (`applyPatternsGreedily` with arith's patterns)."""
    apply_patterns_greedily(module, ARITH_PATTERNS)


def loops_of(module: ModuleOp) -> list[scf.ForOp]:
    """Every `scf.for`, inner loops first (MLIR's post-order walk)."""
    return [op for op in module.walk(region_first=True) if isinstance(op, scf.ForOp)]


def has_mmav5_waits_in_last_stage(loop: scf.ForOp, schedule: CoarseSchedule) -> bool:
    """A tcgen05 MMA loop whose mbarrier wait runs in the last stage: Triton peels its last
    iteration so that the epilogue waits unpredicated."""
    max_stage = schedule.num_stages - 1
    ops = body_ops(loop)
    waits_last = any(isinstance(op, ttng.WaitBarrierOp) and op in schedule.placement
                     and schedule.placement[op][0] == max_stage for op in ops)
    return waits_last and any(isinstance(op, MMAV5_OPS) for op in ops)


def _inside(op: Operation, cls: type) -> bool:
    parent = op.parent_op()
    while parent is not None:
        if isinstance(parent, cls):
            return True
        parent = parent.parent_op()
    return False


def predicate_stage_op(builder: OpBuilder, iv: SSAValue, ub_value: SSAValue, step: SSAValue,
                       max_stage: int, stage: int) -> SSAValue:
    """A `ttg.predicate_stage` standing for the stage predicate until the epilogue is peeled."""
    return builder.insert(ttg.PredicateStageOp(iv, ub_value, step, max_stage=max_stage, stage=stage)).result


def last_induction_value(builder: OpBuilder, loop: scf.ForOp) -> SSAValue:
    """`(ub - lb - 1) / step * step + lb` (Triton's `getLastInductionValue`)."""
    return builder.addi(builder.muli(last_iteration_number(builder, loop), loop.step), loop.lowerBound)


def peel_loop_epilogue(loop: scf.ForOp) -> list[ttg.MaskOp]:
    """Run the last iteration of `loop` after it, under `scf.if lb < ub` (Triton's
    `peelLoopEpilogue`), resolving `ttg.predicate_stage`s: false in the peeled iteration,
    true for the stage before last and an `iv < ub - k*step` comparison otherwise in the
    loop. Returns the masks of the peeled iteration."""
    location = loop.location
    before = OpBuilder(InsertPoint.before(loop), location)
    new_ub = before.subi(loop.upperBound, loop.step)
    after = OpBuilder(InsertPoint.after(loop), location)
    last_iv = last_induction_value(after, loop)
    condition = after.cmpi(CmpIPredicate.slt, loop.lowerBound, loop.upperBound)

    mapping: dict[SSAValue, SSAValue] = {loop.body.args[0]: last_iv}
    mapping.update(zip(loop.body.args[1:], loop.results))
    then_block = scf_block_clone(loop.body, mapping)
    else_yield = scf.YieldOp(*loop.results)
    else_yield.location = location
    if_op = after.insert(scf.IfOp(condition, [r.type for r in loop.results], Region(then_block),
                                  Region(Block([else_yield]))))
    for result, new in zip(loop.results, if_op.results):
        for use in list(result.uses):
            if not is_ancestor(if_op, use.operation):
                use.operation.operands[use.index] = new
    set_operand_groups(loop, upperBound=[new_ub])

    for op in list(body_ops(loop)):
        _resolve_peeled(op, peeled=False)
    masks = []
    for op in list(then_block.ops)[:-1]:
        if isinstance(op, ttg.MaskOp):
            masks.append(op)
        _resolve_peeled(op, peeled=True)
    return masks


def scf_block_clone(block: Block, mapping: dict[SSAValue, SSAValue]) -> Block:
    """A copy of `block`'s ops without its arguments, which `mapping` replaces."""
    new = Block()
    for op in block.ops:
        new.add_op(op.clone(mapping))
    return new


def _resolve_peeled(op: Operation, peeled: bool) -> None:
    """Triton's `processPeeledEpilogueOp` for `ttg.predicate_stage`."""
    if not isinstance(op, ttg.PredicateStageOp):
        return
    builder = OpBuilder(InsertPoint.before(op), op.location)
    max_stage, stage = op.maxStage.value.data, op.stage.value.data
    if peeled:
        value = builder.constant(0, i1)
    elif stage == max_stage - 1:
        value = builder.constant(1, i1)
    else:
        value = emit_predicate_for_stage(builder, op.iv, op.ub, op.step, max_stage, stage)
    op.results[0].replace_all_uses_with(value)


def expand_loops(module: ModuleOp, not_lowered: Mapping[scf.ForOp, str] | None = None) -> None:
    """Expand every scheduled loop, predicating through `ttg.mask`s that are resolved once
    the arithmetic is simplified (Triton's `expandLoops`). A loop left as it is gets a
    remark; `not_lowered` (from `lower_loops`) says which loops lowering refused, and why."""
    not_lowered = not_lowered or {}
    for loop in loops_of(module):
        schedule = CoarseSchedule.deserialize(loop)
        if schedule is None:
            continue
        custom_peeling = has_mmav5_waits_in_last_stage(loop, schedule) and not _inside(loop, ttg.WarpSpecializeOp)
        options = PipeliningOptions(
            schedule.final_schedule(loop), predicate_fn=wrap_in_mask, peel_epilogue=False,
            support_dynamic_loops=True, emit_predicate_stage_fn=predicate_stage_op if custom_peeling else None)
        new_loop = pipeline_for_loop(loop, options)
        if loop in not_lowered:
            if isinstance(new_loop, Refusal):
                lowering_refusal_remark(loop, not_lowered[loop])
            else:
                emit_remark(new_loop, f"loop expanded but not lowered: lowering does not handle it "
                                      f"({not_lowered[loop]})")
        elif isinstance(new_loop, Refusal):
            expansion_refusal_remark(loop, new_loop)
        if isinstance(new_loop, Refusal):
            continue
        if custom_peeling:
            for mask in peel_loop_epilogue(new_loop):
                if is_constant_int_value(mask.pred, 0):
                    _replace_by_poison(mask)
    resolve_masks(module, canonicalize_arith)


def _replace_by_poison(mask: ttg.MaskOp) -> None:
    """A mask that never runs (in the peeled iteration): its results become `ub.poison`."""
    builder = OpBuilder(InsertPoint.before(mask), mask.location)
    for result in mask.results:
        result.replace_all_uses_with(builder.insert(ub.PoisonOp(result.type)).result)
    Rewriter.erase_op(mask)


@dataclass(frozen=True)
class Pipeline(ModulePass):
    """Software-pipeline the scheduled loops: lower, expand, async wgmma, async TMA stores.

    Triton 3.6's `tritongpu-pipeline` (lib/Dialect/TritonGPU/Transforms/Pipeliner/SoftwarePipeliner.cpp).

    Steps:
      1. Lower each scheduled loop (`lower_loops`): loads and MMAs become async ops on
         multi-buffered shared memory with mbarriers, stamped with their stage and cluster.
      2. Expand each scheduled loop into prologue and kernel (`expand.py`), the kernel
         running the whole range with its early stages predicated; ops are predicated
         through `ttg.mask` regions resolved after simplifying the arithmetic. A tcgen05
         loop waiting in its last stage gets its last iteration peeled.
      3. Remove `loop.stage`, `loop.cluster`, `tt.scheduled_max_stage`.
      4. Make wgmma async with the waits correctness needs (`wgmma.py`), in each loop with
         `tt.num_stages` (else `num-stages`) >= 1.
      5. Set the counts of `ttg.async_wait` and merge neighbouring ones.
      6. Simplify arith (`canonicalize_arith`).
      7. Make TMA stores async in each loop with more than one stage (`tma_stores.py`).
    With `dump-intermediate-steps`, the module is printed to stderr after steps 1 and 2.

    Attributes read: `tt.scheduled_max_stage`, `loop.stage`, `loop.cluster` (written by
    `tritongpu-schedule-loops` or `ttpipe-schedule-loops`), `tt.num_stages`.

    A loop without a schedule is only touched by steps 4 and 7; a loop the expander
    refuses stays as lowered. Differences from Triton are listed in the docstrings of
    `wgmma.py`, `tma_stores.py` and `arith_canonicalize.py`; Triton's test hook, a loop
    attribute `__test_keep_predicate_stage` that leaves `ttg.predicate_stage` unresolved, is
    not ported (call `pipeline_for_loop` with `emit_predicate_stage_fn=predicate_stage_op`).

    Remarks: a scheduled loop that lowering or expansion refuses gets one remark at its
    location, `loop not pipelined: <reason>` (`loop expanded but not lowered: ...` when only
    lowering refused it); `ttpipe-schedule-loops` reports the loops it does not schedule.
    `ttpipe-opt --remarks` prints them; from Python, `ttpipe.pipeline.driver.remarks(module)` runs a pipeline
    and returns them, or collect them around any pass with
    `with ttpipe.ir.diagnostics.diagnostic_handler(found.append): ...`.
    """

    name = "ttpipe-pipeline"
    num_stages: int = 3
    dump_intermediate_steps: bool = False

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        not_lowered = lower_loops(op)
        self.dump(op, "LowerLoops")
        expand_loops(op, not_lowered)
        self.dump(op, "ExpandLoops")
        remove_pipelining_attributes(op)
        for loop in loops_of(op):
            if num_stages_or_default(loop, self.num_stages) >= 1:
                async_launch_dots(loop)
                merge_wgmma_flushes(loop)
        update_waits(op)
        canonicalize_arith(op)
        for loop in loops_of(op):
            if num_stages_or_default(loop, self.num_stages) > 1:
                pipeline_tma_stores(loop)

    def dump(self, module: ModuleOp, step: str) -> None:
        if self.dump_intermediate_steps:
            sys.stderr.write(f"// -----// SoftwarePipeliner internal IR Dump After: {step}\n"
                             f"{print_module(module)}\n\n\n")

