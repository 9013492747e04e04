"""Def-use walks and IR edits that several passes share: slices, dominance within
single-block regions, dead-op erasure, replacing operand groups of an op in place, and
the `scf.for`/`scf.if` signature changes of Triton's `Utility.cpp`."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence

from xdsl.dialects.builtin import DenseArrayBase, IntegerType, i32
from xdsl.ir import Attribute, Block, BlockArgument, Operation, SSAValue
from xdsl.irdl import AttrSizedOperandSegments
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.traits import (
    IsTerminator,
    MemoryEffect,
    MemoryEffectKind,
    RecursiveMemoryEffect,
    SymbolOpInterface,
    is_side_effect_free,
)

from ttpipe.dialects import arith, scf, tt
from ttpipe.dialects.arith import CmpIPredicate
from ttpipe.dialects.builtin import DenseElementsAttr
from ttpipe.dialects.ttg import ConvertLayoutOp, LocalAllocOp, LocalLoadOp
from ttpipe.dialects.ttng import TMEMAllocOp
from ttpipe.passes.common.builder import OpBuilder, constant_int_value, value_location


def defining_op(value: SSAValue, op_class: type[Operation]):
    """The op of class `op_class` that defines `value`, or None."""
    owner = value.owner
    return owner if isinstance(owner, op_class) else None


def defining_op_through_converts(value: SSAValue, op_class: type[Operation]):
    """Like `defining_op`, looking through any chain of `ttg.convert_layout`s first."""
    while isinstance(value.owner, ConvertLayoutOp):
        value = value.owner.src
    return defining_op(value, op_class)


def is_ancestor(ancestor: Operation, op: Operation | None) -> bool:
    """`Operation::isAncestor`: `op` is `ancestor` or nested in it."""
    while op is not None:
        if op is ancestor:
            return True
        op = op.parent_op()
    return False


def is_before_in_block(a: Operation, b: Operation) -> bool:
    """`Operation::isBeforeInBlock` for two ops of one block."""
    block = a.parent_block()
    return block.get_operation_index(a) < block.get_operation_index(b)


def same_bounds(first: scf.ForOp, second: scf.ForOp) -> bool:
    """The two loops run over the same iterations: the same SSA lower bound, upper bound and step."""
    return all(a is b for a, b in zip((first.lowerBound, first.upperBound, first.step),
                                      (second.lowerBound, second.upperBound, second.step)))


def is_outer_loop(for_op: scf.ForOp) -> bool:
    """`isOuterLoop`: the body holds a loop of its own."""
    return any(isinstance(op, (scf.ForOp, scf.WhileOp)) for op in for_op.body.ops)


def forward_slice(op: Operation) -> list[Operation]:
    """MLIR's `getForwardSlice(op)` (no filter, not inclusive): the ops nested in `op` and the
    users of its results, and so on from each of those, in topological order (MLIR's
    depth-first post-order, reversed); `op` itself is left out."""

    def successors(current: Operation) -> Iterator[Operation]:
        for region in current.regions:
            for block in region.blocks:
                yield from block.ops
        for result in current.results:
            for use in result.uses:
                yield use.operation

    post_order: dict[Operation, None] = {}
    on_path = {op}
    stack = [(op, successors(op))]
    while stack:
        current, pending = stack[-1]
        for successor in pending:
            if successor not in post_order and successor not in on_path:
                on_path.add(successor)
                stack.append((successor, successors(successor)))
                break
        else:
            stack.pop()
            on_path.discard(current)
            post_order[current] = None
    del post_order[op]
    return list(reversed(post_order))


def sink_below(anchor: Operation) -> None:
    """Move the side-effect-free ops (without regions) that come before `anchor` in its
    block, and that only ops after `anchor` read (directly or through ops moved with
    them), to just after `anchor`, keeping their order: values an epilogue computes ahead
    of the loop it follows."""
    block = anchor.parent_block()
    moving: list[Operation] = []
    for op in reversed([o for o in block.ops if is_before_in_block(o, anchor)]):
        if op.regions or not is_side_effect_free(op):
            continue
        readers = [ancestor_in_block(block, use.operation) for r in op.results for use in r.uses]
        if all(reader is not None and (reader in moving or is_before_in_block(anchor, reader)) for reader in readers):
            moving.append(op)
    point = anchor
    for op in reversed(moving):
        op.detach()
        Rewriter.insert_op(op, InsertPoint.after(point))
        point = op


def ancestor_in_block(block: Block, op: Operation) -> Operation | None:
    """`Block::findAncestorOpInBlock`: `op` or the op holding it that is in `block`."""
    while op is not None and op.parent_block() is not block:
        op = op.parent_op()
    return op


def dominates(value: SSAValue, op: Operation) -> bool:
    """MLIR's `DominanceInfo::properlyDominates(value, op)` over single-block regions: `op`
    can read `value` (a block argument of a block holding `op`, or a result of an op that
    comes before `op`'s ancestor in its block; not of an op holding `op`)."""
    owner = value.owner
    if isinstance(value, BlockArgument):
        return ancestor_in_block(value.block, op) is not None
    ancestor = ancestor_in_block(owner.parent_block(), op)
    return ancestor is not None and is_before_in_block(owner, ancestor)


def enclosing_function(op: Operation) -> Operation:
    """The `tt.func` around `op` (the outermost op when there is none)."""
    parent = op
    while not isinstance(parent, tt.FuncOp) and parent.parent_op() is not None:
        parent = parent.parent_op()
    return parent


def enclosing_loop(op: Operation) -> scf.ForOp | None:
    """The innermost `scf.for` holding `op`, or None."""
    parent = op.parent_op()
    while parent is not None and not isinstance(parent, scf.ForOp):
        parent = parent.parent_op()
    return parent


def ceil_trip_count(b: OpBuilder, loop: scf.ForOp, mapping: dict[SSAValue, SSAValue] | None = None) -> SSAValue:
    """`ceildiv(ub - lb, step)` of a signed `scf.for` (step > 0), as i32 at `b`'s point (its
    bounds through `mapping`, where given): the iterations, at most 0 where it runs none."""
    mapping = mapping or {}
    lower, upper, step = (mapping.get(v, v) for v in (loop.lowerBound, loop.upperBound, loop.step))
    return b.ceil_divsi(b.subi(upper, lower), step)


def trip_count(b: OpBuilder, loop: scf.ForOp, mapping: dict[SSAValue, SSAValue] | None = None) -> SSAValue:
    """`max(0, ceil_trip_count)`: the iterations of `loop`, as i32 at `b`'s point."""
    return b.maxsi(ceil_trip_count(b, loop, mapping), b.int_constant(0, 32))


def runs(b: OpBuilder, loop: scf.ForOp, lower: SSAValue, upper: SSAValue) -> SSAValue:
    """An i1 at `b`'s point: `loop`, its bounds `lower` and `upper` as the caller sees them,
    runs at least once (compared as the loop compares, signed or not)."""
    return b.cmpi(CmpIPredicate.ult if loop.unsignedCmp is not None else CmpIPredicate.slt, lower, upper)


def last_iteration_number(b: OpBuilder, loop: scf.ForOp) -> SSAValue:
    """`(ub - lb - 1) / step` at `b`: the number of the loop's last iteration (the part of
    Triton's `getLastInductionValue` before `* step + lb`); meaningless where the loop runs
    no iteration."""
    span = b.subi(loop.upperBound, loop.lowerBound)
    return b.divsi(b.subi(span, b.constant(1, span.type)), loop.step)


def iteration_index(b: OpBuilder, loop: scf.ForOp) -> SSAValue:
    """`(iv - lb) / step` at `b`'s point in `loop`'s body: the iterations run before this one."""
    iv = loop.body.args[0]
    lower = loop.lowerBound
    count = iv if constant_int_value(lower) == 0 else b.subi(iv, lower)
    return count if constant_int_value(loop.step) == 1 else b.divsi(count, loop.step)


def backward_slice_in_block(values: Iterable[SSAValue], block: Block) -> list[Operation]:
    """The ops of `block` (in block order) that compute `values`, transitively through their
    operands; values defined elsewhere end the walk."""
    needed = list(values)
    found: set[Operation] = set()
    while needed:
        owner = needed.pop().owner
        if isinstance(owner, Operation) and owner.parent_block() is block and owner not in found:
            found.add(owner)
            needed += owner.operands
    return [op for op in block.ops if op in found]


def only_use_owner(value: SSAValue) -> Operation | None:
    """The op using `value`, when it is used exactly once."""
    uses = list(value.uses)
    return uses[0].operation if len(uses) == 1 else None


def is_effect_free_local_alloc(op: Operation) -> bool:
    """An immutable `ttg.local_alloc` before Triton's allocator placed it (no
    `allocation.offset`): Triton's `LocalAllocOp::getEffects` reports no memory effects for
    it, so its DCE and its pipeliner's `predicateOp` treat it as pure."""
    return isinstance(op, LocalAllocOp) and not op.result.type.mutable and "allocation.offset" not in op.attributes


def is_removable_when_unused(op: Operation) -> bool:
    """MLIR's `wouldOpBeTriviallyDead` for the ops passes here orphan: pure ops, reads of
    shared memory, and immutable `ttg.local_alloc`s before allocation."""
    if isinstance(op, LocalLoadOp):
        return True
    if isinstance(op, LocalAllocOp):
        return is_effect_free_local_alloc(op)
    return is_side_effect_free(op)


def erase_dead_chain(rewriter: PatternRewriter | None, op: Operation) -> None:
    """Erase `op` if nothing uses its results and it is removable, then its operands'
    defining ops in turn (what the greedy driver's dead-op cleanup does after a rewrite);
    through `rewriter` inside a pattern, directly (None) outside one."""
    if op.parent is None or any(r.uses for r in op.results) or not is_removable_when_unused(op):
        return
    erase_with_dead_producers(rewriter, op)


def replace_load(load: tt.LoadOp, value: SSAValue) -> None:
    """The load's readers read `value`; the load, and what computed its address, mask and
    `other` where nothing else reads it, erased."""
    load.result.replace_all_uses_with(value)
    address = [v.owner for v in (load.ptr, load.mask, load.other) if v is not None and isinstance(v.owner, Operation)]
    Rewriter.erase_op(load)
    for producer in address:
        erase_dead_chain(None, producer)


def erase_with_dead_producers(rewriter: PatternRewriter | None, op: Operation) -> None:
    """Erase `op`, which nothing may use any more, then its operands' producers that this
    leaves unused (`erase_dead_chain`)."""
    producers = [v.owner for v in op.operands if isinstance(v.owner, Operation)]
    if rewriter is None:
        Rewriter.erase_op(op)
    else:
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


def users(value_or_op: SSAValue | Operation) -> list[Operation]:
    """`getUsers()`: the op of each use, in use-list order (one entry per use)."""
    values = value_or_op.results if isinstance(value_or_op, Operation) else [value_or_op]
    return [use.operation for value in values for use in value.uses]


def use_count(op: Operation) -> int:
    """The uses of all of `op`'s results."""
    return sum(1 for result in op.results for _ in result.uses)


def properly_dominates(a: Operation, b: Operation) -> bool:
    """`DominanceInfo::properlyDominates(a, b)` within single-block regions: `a` comes
    before `b`'s ancestor in `a`'s block, or contains `b`."""
    if a is b:
        return False
    block = a.parent_block()
    ancestor = b
    while ancestor is not None and ancestor.parent_block() is not block:
        ancestor = ancestor.parent_op()
    if ancestor is None:
        return False
    return ancestor is a or is_before_in_block(a, ancestor)


def replace_all_uses_dominated_by(dom_op: Operation, new_value: SSAValue, old_value: SSAValue) -> None:
    """`replaceAllUsesDominatedBy`: the uses of `old_value` in ops `dom_op` properly
    dominates read `new_value`."""
    if new_value is old_value:
        return
    old_value.replace_uses_with_if(new_value, lambda use: properly_dominates(dom_op, use.operation))


def is_zero_constant(value: SSAValue | None) -> bool:
    """`isZeroConst`: a splat of 0 or 0.0 (either sign)."""
    owner = value.owner if value is not None else None
    return (isinstance(owner, arith.ConstantOp) and isinstance(owner.value, DenseElementsAttr)
            and owner.value.is_splat and owner.value.splat_value() == 0)


def set_operand_groups(op: Operation, **groups: Sequence[SSAValue]) -> None:
    """Replace whole operand groups of an IRDL op in place (an optional one by `[]` or one
    value, a variadic one by a list), keeping `operandSegmentSizes` right."""
    definition = type(op).get_irdl_definition()
    values: list[list[SSAValue]] = []
    for name, _ in definition.operands:
        if name in groups:
            values.append(list(groups[name]))
            continue
        current = getattr(op, name)
        if current is None:
            values.append([])
        elif isinstance(current, SSAValue):
            values.append([current])
        else:
            values.append(list(current))
    op.operands = [v for group in values for v in group]
    if any(isinstance(option, AttrSizedOperandSegments) for option in definition.options):
        op.properties[AttrSizedOperandSegments.attribute_name] = DenseArrayBase.from_list(
            i32, [len(group) for group in values])


def replace_for_op_with_new_signature(for_op: scf.ForOp, new_inits: Sequence[SSAValue]) -> scf.ForOp:
    """`replaceForOpWithNewSignature` + erasing the old loop (`addIterArgsToLoop`): the same
    loop with more iteration arguments (their block arguments appended, the yield left as
    it is); the old loop's results are replaced by the new one's."""
    region = for_op.detach_region(for_op.region)
    new_loop = scf.ForOp(for_op.lowerBound, for_op.upperBound, for_op.step, [*for_op.initArgs, *new_inits],
                         body=region, unsigned_cmp=for_op.unsignedCmp is not None)
    new_loop.attributes.update(for_op.attributes)
    new_loop.location = for_op.location
    block = new_loop.body
    for value in new_inits:
        block.insert_arg(value.type, len(block.args), value_location(value))
    Rewriter.insert_op(new_loop, InsertPoint.before(for_op))
    for old, new in zip(for_op.res, new_loop.res):
        old.replace_all_uses_with(new)
    Rewriter.erase_op(for_op)
    return new_loop


def erase_self_updating_iter_args(for_op: scf.ForOp) -> scf.ForOp:
    """Drop the iteration arguments that nothing outside their own update reads: the loop's
    result unused, and the block argument read only by side-effect-free ops of the body
    whose results reach nothing but each other and the argument's `scf.yield` operand (a
    pointer advanced each iteration for a load that is gone). Those ops go too. MLIR's
    canonicalizer drops unread arguments, not such cycles. Returns the loop (a new op when
    arguments were dropped); what computed the dropped updates' operands goes where unused."""
    body = for_op.body
    yield_op = body.last_op
    dropped: dict[int, list[Operation]] = {}
    for index, arg in enumerate(body.args[1:]):
        if not for_op.res[index].uses:
            closure = _update_closure(arg, yield_op, index)
            if closure is not None:
                dropped[index] = closure
    if not dropped:
        return for_op
    keep = [i for i in range(len(for_op.initArgs)) if i not in dropped]
    yield_op.operands = [yield_op.operands[i] for i in keep]
    producers: list[Operation] = []
    for closure in dropped.values():
        for op in sorted(closure, key=body.get_operation_index, reverse=True):
            if op.parent is not None:
                producers += [v.owner for v in op.operands if isinstance(v.owner, Operation)]
                Rewriter.erase_op(op)
    for producer in producers:
        erase_dead_chain(None, producer)
    region = for_op.detach_region(for_op.region)
    new_loop = scf.ForOp(for_op.lowerBound, for_op.upperBound, for_op.step, [for_op.initArgs[i] for i in keep],
                         body=region, unsigned_cmp=for_op.unsignedCmp is not None)
    new_loop.attributes.update(for_op.attributes)
    new_loop.location = for_op.location
    for index in sorted(dropped, reverse=True):
        new_loop.body.erase_arg(new_loop.body.args[index + 1])
    Rewriter.insert_op(new_loop, InsertPoint.before(for_op))
    for old_index, new_index in zip(keep, range(len(keep))):
        for_op.res[old_index].replace_all_uses_with(new_loop.res[new_index])
    Rewriter.erase_op(for_op)
    return new_loop


def closed_form_inductions(for_op: scf.ForOp) -> scf.ForOp:
    """LLVM's induction variable simplification for `scf.for`: each integer iteration
    argument the loop advances by a loop-invariant amount (`advance`: `x' = x + c`) is
    dropped. Where the body reads it (or its update) other than to carry it on, it reads
    `init + iteration_index * c`, computed at the top of the body (the update then adds `c`
    to that); where the loop's result is read, it is `init + trip_count * c` after the loop.
    The same values bit for bit: each is the sum mod 2^width. A persistent kernel's epilogue
    tile counter (`tile_id_c += NUM_SMS`, Triton's tutorial 09) so becomes a function of the
    tile loop's induction variable, which every copy of the loop can compute. Returns the
    loop (a new op when arguments were dropped)."""
    body = for_op.body
    if body.args[0].type != i32:
        return for_op
    top = OpBuilder(InsertPoint.at_start(body), for_op.location)
    after = OpBuilder(InsertPoint.after(for_op), for_op.location)
    index = trips = None
    read_updates: list[Operation] = []
    for arg in body.args[1:]:
        if not isinstance(arg.type, IntegerType) or (amount := advance(arg)) is None:
            continue
        init, update, result = init_value(arg), yielded_value(arg).owner, for_op.res[arg.index - 1]
        if (any(use.operation is not update for use in arg.uses)
                or any(use.operation is not body.last_op for use in update.results[0].uses)):
            index = index or iteration_index(top, for_op)
            arg.replace_all_uses_with(top.addi(init, top.muli(top.sext_or_trunc(index, arg.type), amount)))
            read_updates.append(update)
        if result.uses:
            trips = trips or trip_count(after, for_op)
            result.replace_all_uses_with(after.addi(init, after.muli(after.sext_or_trunc(trips, arg.type), amount)))
    for_op = erase_self_updating_iter_args(for_op)
    for update in read_updates:
        erase_dead_chain(None, update)  # where only the dropped argument's yield read it
    return for_op


def _update_closure(arg: BlockArgument, yield_op: Operation, index: int) -> list[Operation] | None:
    """The body ops reading `arg` (transitively), when all are removable and their results
    reach nothing else but yield operand `index`; else None."""
    closure: list[Operation] = []
    pending: list[SSAValue] = [arg]
    while pending:
        value = pending.pop()
        for use in value.uses:
            user = use.operation
            if user is yield_op:
                if use.index != index:
                    return None
                continue
            if user.parent_block() is not arg.block or not is_removable_when_unused(user) or user.regions:
                return None
            if user not in closure:
                closure.append(user)
                pending.extend(user.results)
    return closure


def yielded_value(arg: BlockArgument) -> SSAValue:
    """`scf::ForOp::getTiedLoopYieldedValue`: the operand of the loop's `scf.yield` that the
    next iteration gets as `arg` (an iteration argument of the body, not the induction variable)."""
    return arg.block.last_op.operands[arg.index - 1]


def init_value(arg: BlockArgument) -> SSAValue:
    """`scf::ForOp::getTiedLoopInit`: the value the first iteration gets as `arg`."""
    return arg.block.parent_op().initArgs[arg.index - 1]


def advance(arg: BlockArgument) -> SSAValue | None:
    """The loop-invariant amount an iteration argument of an `scf.for` grows by each
    iteration, where the loop yields `arg + amount` (`arith.addi` or `tt.addptr`) for it:
    `arg` is `init + j * amount` in iteration j."""
    loop = arg.block.parent_op()
    owner = yielded_value(arg).owner
    if not isinstance(owner, (arith.AddIOp, tt.AddPtrOp)):
        return None
    operands = (owner.ptr, owner.offset) if isinstance(owner, tt.AddPtrOp) else (owner.lhs, owner.rhs)
    if operands[0] is arg:
        amount = operands[1]
    elif isinstance(owner, arith.AddIOp) and operands[1] is arg:
        amount = operands[0]
    else:
        return None
    return amount if dominates(amount, loop) else None


def append_yield_operands(for_op: scf.ForOp, values: Sequence[SSAValue]) -> None:
    """The loop's `scf.yield` yields `values` too (after `replace_for_op_with_new_signature`)."""
    yield_op = for_op.body.last_op
    yield_op.operands = [*yield_op.operands, *values]


def replace_if_op_with_new_signature(if_op: scf.IfOp, new_type: Attribute) -> scf.IfOp:
    """`replaceIfOpWithNewSignature` + erasing the old op: the same `scf.if` with one more
    result (both branches end in a yield; an absent else branch becomes an empty one)."""
    regions = [if_op.thenRegion, if_op.elseRegion]
    for region in regions:
        if_op.detach_region(region)
    if not regions[1].blocks:
        regions[1].add_block(Block())
    for region in regions:
        if not isinstance(region.block.last_op, scf.YieldOp):
            region.block.add_op(scf.YieldOp())
            region.block.last_op.location = if_op.location
    new_if = scf.IfOp(if_op.condition, [*(r.type for r in if_op.res), new_type], *regions)
    new_if.attributes.update(if_op.attributes)
    new_if.location = if_op.location
    Rewriter.insert_op(new_if, InsertPoint.before(if_op))
    for old, new in zip(if_op.res, new_if.res):
        old.replace_all_uses_with(new)
    Rewriter.erase_op(if_op)
    return new_if
