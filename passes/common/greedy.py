"""MLIR's greedy pattern driver (`applyPatternsGreedily`), as Triton's rewrite passes run it.

Follows `mlir/lib/Transforms/Utils/GreedyPatternRewriteDriver.cpp` (bottom-up, default
config) and `FoldUtils.cpp` (`OperationFolder::insertKnownConstant`). The IR a pass leaves
depends on this driver as much as on its patterns: which op is rewritten first, where new
ops land, which producers die and where constants end up. So each iteration:

  1. Walks the ops in post-order. A constant identical (value and type) to one already seen
     in the same isolated region replaces it, and the survivor's location becomes unknown;
     any other constant not already in the leading run of constants is moved to the front of
     the entry block of that region (losing its location if it came from another block).
     The other ops, and the constants kept, fill a worklist in walk order.
  2. Pops ops from the back of the worklist (so the last op first). An unused op that
     `wouldOpBeTriviallyDead` is erased; an op with a folder here is folded; otherwise the
     patterns whose root it is are tried, highest benefit first.
  3. Ops a rewrite inserts are pushed (with their ancestors), users of replaced values are
     pushed, and an erased op pushes the producers of its operands that have at most one
     other user.
  4. Repeats from 1 while anything changed, at most ten times.

Differences: only the fold hooks of `arith_canonicalize.fold` (integer arith, constant
operands of commutative ops moved right, `tt.splat`/`broadcast`/`expand_dims`/`reshape`/
`trans`/`addptr`) and of `tt.fp_to_fp` and `tt.trans` of a transpose run; the driver's
region simplification (unreachable blocks, dead block arguments) is not run.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol

from xdsl.dialects.builtin import (
    DenseArrayBase,
    FloatAttr,
    ModuleOp,
    TensorType,
    UnknownLoc,
    i32,
)
from xdsl.ir import Attribute, Block, Operation, OpResult, Region, SSAValue
from xdsl.traits import IsolatedFromAbove

from ttpipe.dialects import arith, tt, ub
from ttpipe.dialects.builtin import DenseElementsAttr
from ttpipe.passes.common.arith_canonicalize import constant_attr
from ttpipe.passes.common.arith_canonicalize import fold as fold_hooks
from ttpipe.passes.common.ir import would_be_trivially_dead

MAX_ITERATIONS = 10
"""`GreedyRewriteConfig::maxIterations`."""

CONSTANT_LIKE = (arith.ConstantOp, ub.PoisonOp)
"""Ops with MLIR's `ConstantLike` trait: uniqued and hoisted, never folded."""


class Pattern(Protocol):
    """A rewrite for ops of class `root`; `benefit` orders the patterns tried on one op."""

    root: type[Operation]
    benefit: int

    def match_and_rewrite(self, op: Operation, rewriter: Rewriter) -> bool: ...


class Worklist:
    """MLIR's `Worklist`: a stack without duplicates; removed ops leave a hole."""

    def __init__(self) -> None:
        self._ops: list[Operation | None] = []
        self._index: dict[int, int] = {}

    def push(self, op: Operation) -> None:
        if id(op) not in self._index:
            self._index[id(op)] = len(self._ops)
            self._ops.append(op)

    def pop(self) -> Operation | None:
        while self._ops:
            op = self._ops.pop()
            if op is not None:
                del self._index[id(op)]
                return op
        return None

    def remove(self, op: Operation) -> None:
        index = self._index.pop(id(op), None)
        if index is not None:
            self._ops[index] = None


class Rewriter:
    """The edits a pattern makes, each reported to the driver as MLIR's listener hooks are."""

    def __init__(self, worklist: Worklist):
        self._worklist = worklist

    def notify_inserted(self, op: Operation) -> None:
        """`notifyOperationInserted`: the op and its ancestors go on the worklist."""
        current: Operation | None = op
        while current is not None and not isinstance(current, ModuleOp):
            self._worklist.push(current)
            current = current.parent_op()

    def notify_modified(self, op: Operation) -> None:
        self.notify_inserted(op)

    def insert_before(self, anchor: Operation, ops: Sequence[Operation]) -> None:
        for op in ops:
            anchor.parent.insert_op_before(op, anchor)
            self.notify_inserted(op)

    def replace_all_uses_with(self, value: SSAValue, new: SSAValue,
                              keep: Callable[[Operation], bool] = lambda op: False) -> None:
        """`replaceAllUsesWith` / `replaceAllUsesExcept`: every user is modified in place."""
        for use in list(value.uses):
            if keep(use.operation):
                continue
            use.operation.operands[use.index] = new
            self.notify_modified(use.operation)

    def replace_op(self, op: Operation, values: Sequence[SSAValue]) -> None:
        for result, value in zip(op.results, values):
            self.replace_all_uses_with(result, value)
        self.erase_op(op)

    def erase_op(self, op: Operation) -> None:
        """`eraseOp`: producers of its operands with at most one other user are revisited."""
        for operand in op.operands:
            if not isinstance(operand, OpResult):
                continue
            others = {id(u.operation) for u in operand.uses if u.operation is not op}
            if len(others) <= 1:
                self.notify_inserted(operand.owner)
        for nested in list(op.walk()):
            self._worklist.remove(nested)
        op.detach()
        op.erase()


# ------------------------------------------------------------------ constants


def _insertion_region(block: Block) -> Region:
    """`getInsertionRegion`: the nearest region whose owner is isolated from above."""
    while True:
        region = block.parent
        owner = region.parent
        if owner.has_trait(IsolatedFromAbove) or owner.parent is None or isinstance(owner, ModuleOp):
            return region
        block = owner.parent


@dataclass
class _ConstantFolder:
    """`OperationFolder`'s bookkeeping of the constants it owns, per insertion region."""

    rewriter: Rewriter

    def __post_init__(self) -> None:
        self.scopes: dict[int, dict[tuple[Attribute, Attribute], arith.ConstantOp]] = {}
        self.owned: set[int] = set()

    def insert_known_constant(self, op: arith.ConstantOp) -> bool:
        """Keep (and maybe hoist) `op`, or replace it by an equal one; False if erased."""
        block = op.parent
        region = _insertion_region(block)
        known = self.scopes.setdefault(id(region), {})
        key = (op.value, op.result.type)
        existing = known.get(key)
        if existing is not None:
            self.rewriter.replace_all_uses_with(op.result, existing.result)
            op.detach()
            op.erase()
            existing.location = UnknownLoc()
            return False
        entry = region.blocks[0]
        leading = op is entry.first_op or id(op.prev_op) in self.owned
        if block is not entry:
            op.detach()
            entry.insert_op_before(op, entry.first_op) if entry.first_op else entry.add_op(op)
            op.location = UnknownLoc()
        elif not leading:
            op.detach()
            entry.insert_op_before(op, entry.first_op)
        known[key] = op
        self.owned.add(id(op))
        return True


# ------------------------------------------------------------------ folders


def _splat_value(value: SSAValue) -> int | float | None:
    attr = constant_attr(value)
    if isinstance(attr, DenseElementsAttr) and attr.is_splat:
        return attr.splat_value()
    return attr.value.data if isinstance(attr, FloatAttr) else None


def fold(op: Operation) -> list[SSAValue | Attribute] | None:
    """`Operation::fold`: replacement values or attributes, [] for an in-place update, None
    when nothing folds. `tt.fp_to_fp` (to its own type, or of a zero) and `tt.trans` of a
    transpose are folded here, the rest by `arith_canonicalize.fold`."""
    if isinstance(op, tt.FpToFpOp):
        if op.src.type == op.result.type:
            return [op.src]
        zero = _splat_value(op.src)
        if zero == 0.0 and isinstance(op.result.type, TensorType):
            return [DenseElementsAttr.splat(op.result.type, math.copysign(0.0, zero))]
        return None
    if isinstance(op, tt.TransOp) and isinstance(op.src.owner, tt.TransOp):
        order = list(op.order.get_values())
        if order != list(range(len(order))) or op.src.type != op.result.type:
            inner = op.src.owner
            inner_order = list(inner.order.get_values())
            op.order = DenseArrayBase.from_list(i32, [inner_order[i] for i in order])
            op.operands[0] = inner.src
            return []
    return fold_hooks(op)


def _materialize(attr: Attribute, type_: Attribute, location: Attribute) -> arith.ConstantOp:
    constant = arith.ConstantOp(attr, type_)
    constant.location = location
    return constant


# ------------------------------------------------------------------ the driver


def apply_patterns_greedily(module: ModuleOp, patterns: Iterable[Pattern]) -> None:
    """`applyPatternsGreedily(module, patterns)` with the default config."""
    ordered = sorted(patterns, key=lambda p: -p.benefit)
    for _ in range(MAX_ITERATIONS):
        worklist = Worklist()
        rewriter = Rewriter(worklist)
        folder = _ConstantFolder(rewriter)
        for op in _post_order(module.body):
            if isinstance(op, CONSTANT_LIKE) and not folder.insert_known_constant(op):
                continue
            worklist.push(op)
        if not _process(worklist, rewriter, ordered):
            break


def _post_order(region: Region) -> list[Operation]:
    ops: list[Operation] = []

    def visit(op: Operation) -> None:
        for nested in op.regions:
            for block in nested.blocks:
                for child in list(block.ops):
                    visit(child)
        ops.append(op)

    for block in region.blocks:
        for op in list(block.ops):
            visit(op)
    return ops


def _process(worklist: Worklist, rewriter: Rewriter, patterns: Sequence[Pattern]) -> bool:
    changed = False
    while (op := worklist.pop()) is not None:
        if op.parent is None:
            continue
        if all(not r.uses for r in op.results) and would_be_trivially_dead(op):
            rewriter.erase_op(op)
            changed = True
            continue
        if not isinstance(op, CONSTANT_LIKE):
            folded = fold(op)
            if folded == []:
                rewriter.notify_modified(op)
                changed = True
                continue
            if folded is not None:
                values = []
                for item, result in zip(folded, op.results):
                    if isinstance(item, SSAValue):
                        values.append(item)
                    else:
                        constant = _materialize(item, result.type, op.location)
                        rewriter.insert_before(op, [constant])
                        values.append(constant.result)
                rewriter.replace_op(op, values)
                changed = True
                continue
        for pattern in patterns:
            if isinstance(op, pattern.root) and pattern.match_and_rewrite(op, rewriter):
                changed = True
                break
    return changed
