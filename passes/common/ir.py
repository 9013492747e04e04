"""Def-use walks and IR edits that several passes share."""

from __future__ import annotations

from xdsl.ir import Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.traits import (
    IsTerminator,
    MemoryEffect,
    MemoryEffectKind,
    RecursiveMemoryEffect,
    SymbolOpInterface,
    is_side_effect_free,
)

from ttpipe.dialects.ttg import ConvertLayoutOp, LocalAllocOp, LocalLoadOp
from ttpipe.dialects.ttng import TMEMAllocOp


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
    erase_with_dead_producers(rewriter, op)


def erase_with_dead_producers(rewriter: PatternRewriter, op: Operation) -> None:
    """Erase `op`, which nothing may use any more, then its operands' producers that this
    leaves unused (`erase_dead_chain`)."""
    producers = [v.owner for v in op.operands if isinstance(v.owner, Operation)]
    rewriter.erase(op)
    for producer in producers:
        erase_dead_chain(rewriter, producer)


def would_be_trivially_dead(op: Operation) -> bool:
    """MLIR's `wouldOpBeTriviallyDead`: the op, and the ops nested in it where it has their
    effects (`RecursiveMemoryEffect`), do nothing but read, or touch a buffer they allocate
    themselves (`ttg.local_alloc`, `ttng.tmem_alloc`); terminators and symbols never."""
    if op.has_trait(IsTerminator, value_if_unregistered=True) or op.has_trait(SymbolOpInterface,
                                                                               value_if_unregistered=True):
        return False
    pending = [op]
    while pending:
        current = pending.pop()
        recursive = current.has_trait(RecursiveMemoryEffect, value_if_unregistered=False)
        if recursive:
            pending.extend(nested for region in current.regions for block in region.blocks for nested in block.ops)
        if isinstance(current, (LocalAllocOp, TMEMAllocOp, LocalLoadOp)):
            continue
        interfaces = [t for t in current.get_traits_of_type(MemoryEffect) if not isinstance(t, RecursiveMemoryEffect)]
        if not interfaces:
            if recursive:
                continue
            return False
        effects = [interface.get_effects(current) for interface in interfaces]
        if any(e is None for e in effects):
            return False
        flat = [e for group in effects for e in group]
        allocated = [e.value for e in flat if e.kind == MemoryEffectKind.ALLOC and e.value in current.results]
        if not all(e.kind == MemoryEffectKind.READ or e.value in allocated for e in flat):
            return False
    return True
