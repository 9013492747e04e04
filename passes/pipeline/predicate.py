"""Predicating ops for the pipeline expander: Triton's `predicateOp`, `wrapInMaskOp` and
`resolveMaskOp` (lib/Dialect/TritonGPU/Transforms/Pipeliner/PipeliningUtility.cpp).

`predicate_op(op, pred)` makes `op` do nothing when `pred` is false, by folding `pred`
into the mask or predicate operand the op already has (`tt.load`/`tt.store` masks,
`cp.async` masks, the predicates of TMA copies, mbarrier ops and tcgen05 MMAs, the
condition of an `scf.if`). Ops without memory effects (an immutable `ttg.local_alloc`
among them, as Triton's effects say), reads of shared memory and TMEM,
stores to shared memory, and the async group ops run unpredicated: their results are
unused or harmless when the iteration does not exist.

`wrap_in_mask(op, pred)` defers that decision: it moves `op` into a `ttg.mask` region.
`resolve_masks(module)` later (once arith is simplified, so that predicates known to be
true are constants) moves each masked op back out and predicates it.
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.rewriter import InsertPoint
from xdsl.traits import is_side_effect_free

from ttpipe.dialects import llvm, scf, tt, ttg, ttng
from ttpipe.dialects.arith import i1_like
from ttpipe.passes.common.target import error_at
from ttpipe.passes.common.builder import OpBuilder, is_constant_int_value, value_location
from ttpipe.passes.common.ir import is_effect_free_local_alloc, set_operand_groups

RUN_UNPREDICATED = (
    llvm.AssumeOp,
    ttng.FenceAsyncSharedOp,
    ttg.AsyncCommitGroupOp,
    ttg.AsyncWaitOp,
    ttg.LocalLoadOp,  # the only op with Triton's LocalLoadTrait
    ttg.LocalStoreOp,
    ttng.TMEMAllocOp,
    ttng.TMEMLoadOp,
)
"""Ops with memory effects that `predicateOp` leaves as they are."""

MASKED_BY_POINTER = {tt.LoadOp: "ptr", tt.StoreOp: "ptr", tt.AtomicRMWOp: "ptr",
                     ttg.AsyncCopyGlobalToLocalOp: "src"}
"""Ops with an optional `mask` shaped like one of their operands."""

PREDICATED = (ttng.AsyncTMACopyGlobalToLocalOp, ttng.AsyncTMAGatherOp, ttng.BarrierExpectOp,
              ttng.TCGen5MMAOp, ttng.TCGen5MMAScaledOp, ttng.TMEMStoreOp)
"""Ops with a required i1 `pred`."""

OPTIONALLY_PREDICATED = (ttng.WaitBarrierOp, ttng.ArriveBarrierOp, ttng.TCGen5CommitOp)
"""Ops with an optional i1 `pred`."""


def pred_mask(like_type, current: SSAValue | None, pred: SSAValue, before: Operation) -> SSAValue:
    """`pred` splat to the i1 shape of `like_type`, and-ed with `current` if there is one
    (Triton's `getPredMask`); new ops go before `before`, at the location of `pred`."""
    builder = OpBuilder(InsertPoint.before(before), value_location(pred))
    mask = pred
    mask_type = i1_like(like_type)
    if isinstance(mask_type, TensorType):
        mask = builder.insert(tt.SplatOp(pred, result_type=mask_type)).result
    if current is not None:
        mask = builder.andi(mask, current)
    return mask


def predicate_op(op: Operation, pred: SSAValue) -> Operation:
    """Make `op` a no-op when `pred` is false (Triton's `predicateOp`); returns `op`.

    Raises a DiagnosticError at `op` for an op with memory effects it does not know, as
    Triton stops with "pipeliner doesn't know how to predicate this op".

    Triton's early exit `isConstantIntValue(pred, 1)` compares the sign-extended constant,
    which is -1 for an i1 `true`: it never fires for a predicate, so an op under a constant
    true predicate still gets `true` folded into its mask or predicate operand, as here."""
    if is_side_effect_free(op) or is_effect_free_local_alloc(op) or is_constant_int_value(pred, 1):
        return op
    if isinstance(op, RUN_UNPREDICATED):
        return op
    if isinstance(op, scf.IfOp):
        set_operand_groups(op, condition=[pred_mask(op.condition.type, op.condition, pred, op)])
        return op
    for cls, like in MASKED_BY_POINTER.items():
        if isinstance(op, cls):
            set_operand_groups(op, mask=[pred_mask(getattr(op, like).type, op.mask, pred, op)])
            return op
    if isinstance(op, PREDICATED):
        set_operand_groups(op, pred=[pred_mask(op.pred.type, op.pred, pred, op)])
        return op
    if isinstance(op, OPTIONALLY_PREDICATED):
        current = op.pred
        set_operand_groups(op, pred=[pred_mask(current.type, current, pred, op) if current is not None else pred])
        return op
    raise error_at(op, f"pipeliner doesn't know how to predicate '{op.name}'; it predicates loads, "
                       "stores, atomics, async copies, TMA copies, mbarrier ops, tcgen05 MMAs and scf.if")


def wrap_in_mask(op: Operation, pred: SSAValue) -> Operation:
    """Move `op` into a `ttg.mask %pred` region standing in its place (Triton's `wrapInMaskOp`)."""
    block = Block()
    mask = ttg.MaskOp(pred, result_types=[r.type for r in op.results], region=Region(block))
    mask.location = op.location
    op.parent_block().insert_op_after(mask, op)
    inner = op.clone()
    block.add_op(inner)
    terminator = ttg.MaskReturnOp(inner.results)
    terminator.location = op.location
    block.add_op(terminator)
    for result, new in zip(op.results, mask.results):
        result.replace_all_uses_with(new)
    op.detach()
    op.erase()
    return mask


def resolve_masks(module: ModuleOp, simplify: Callable[[ModuleOp], None]) -> None:
    """Run `simplify` (arith canonicalization), then replace every `ttg.mask` by its ops,
    each predicated on the mask's predicate (Triton's `resolveMaskOp`)."""
    simplify(module)
    for mask in [op for op in module.walk() if isinstance(op, ttg.MaskOp)]:
        block = mask.regions[0].block
        while block.first_op is not block.last_op:
            op = block.first_op
            op.detach()
            mask.parent_block().insert_op_before(op, mask)
            predicate_op(op, mask.pred)
        for result, value in zip(mask.results, block.last_op.operands):
            result.replace_all_uses_with(value)
        mask.detach()
        mask.erase()
