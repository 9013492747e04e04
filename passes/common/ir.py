"""Def-use walks and IR edits that several passes share."""

from __future__ import annotations

from xdsl.ir import Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.traits import is_side_effect_free

from ttpipe.dialects.ttg import ConvertLayoutOp, LocalAllocOp, LocalLoadOp


def defining_op(value: SSAValue, op_class: type[Operation]):
    """The op of class `op_class` that defines `value`, or None."""
    owner = value.owner
    return owner if isinstance(owner, op_class) else None


def defining_op_through_converts(value: SSAValue, op_class: type[Operation]):
    """Like `defining_op`, looking through any chain of `ttg.convert_layout`s first."""
    while isinstance(value.owner, ConvertLayoutOp):
        value = value.owner.src
    return defining_op(value, op_class)


def only_use_owner(value: SSAValue) -> Operation | None:
    """The op using `value`, when it is used exactly once."""
    uses = list(value.uses)
    return uses[0].operation if len(uses) == 1 else None


def is_removable_when_unused(op: Operation) -> bool:
    """MLIR's `wouldOpBeTriviallyDead` for the ops passes here orphan: pure ops, reads of
    shared memory, and immutable `ttg.local_alloc`s before allocation."""
    if isinstance(op, LocalLoadOp):
        return True
    if isinstance(op, LocalAllocOp):
        return not op.result.type.mutable and "allocation.offset" not in op.attributes
    return is_side_effect_free(op)


def erase_dead_chain(rewriter: PatternRewriter, op: Operation) -> None:
    """Erase `op` if nothing uses its results and it is removable, then its operands'
    defining ops in turn (what the greedy driver's dead-op cleanup does after a rewrite)."""
    if op.parent is None or any(r.uses for r in op.results) or not is_removable_when_unused(op):
        return
    producers = [v.owner for v in op.operands if isinstance(v.owner, Operation)]
    rewriter.erase(op)
    for producer in producers:
        erase_dead_chain(rewriter, producer)


def erase_with_dead_producers(rewriter: PatternRewriter, op: Operation) -> None:
    """Erase `op`, which nothing may use any more, then its operands' producers that this
    leaves unused (`erase_dead_chain`)."""
    producers = [v.owner for v in op.operands if isinstance(v.owner, Operation)]
    rewriter.erase(op)
    for producer in producers:
        erase_dead_chain(rewriter, producer)
