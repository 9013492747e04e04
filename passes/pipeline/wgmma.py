"""wgmma pipelining: async `ttng.warp_group_dot`s with as few waits as correctness allows,
and the counts of `ttg.async_wait`.

Ports of Triton 3.6's `WGMMAPipeline.cpp` (`asyncLaunchDots`, `updateWaits`) and of
`combineRedundantWaitOps` (PipeliningUtility.cpp), plus one rule of ttpipe's own
(`merge_wgmma_flushes`, below).

`async_launch_dots(loop)`, for the wgmma ops of one loop body:
  1. Make every `ttng.warp_group_dot` async (`isAsync = true`; in PTX wgmma is always
     async, and each op commits one wgmma group).
  2. Decide which dots are "properly async", i.e. may stay in flight across the loop back
     edge (`dot_can_be_properly_async`): their shared-memory operands are multi-buffered
     (`ttg.memdesc_index`, or defined outside the loop), their fp32 result is only
     yielded (or used under an `scf.if`), and the yielded value is read, before the first
     `warp_group_dot_wait {pendings = 0}` of the next iteration, only as the accumulator
     of another wgmma. Any other dot gets a `warp_group_dot_wait {pendings = 0}` right
     after it: a flush of the wgmma pipeline before its result is consumed.
  3. Unless the loop already flushes, split register-A dots (below), wait at the uses of
     properly async dots under `scf.if`s, and after the last properly async dot wait until
     at most N groups (N properly async dots) are pending: those of this iteration. A register-A dot whose A
     is computed in the loop waits for N-1 right after itself instead, so its registers
     are free before the next iteration rewrites them.
  4. After the loop, flush (`pendings = 0`) before the dots' results are read.
Each wait forwards the values it guards (`threadValuesThroughWait`): their users read the
wait's results, and the shared-memory operands of the dots behind them stay alive.

Seed 001 (nvFuser "Use a single wgmma wait_group to flush async wgmma pipeline"): one
`wgmma.wait_group 0` flushes every wgmma issued before it, so
  - two independent dots each consumed need a flush before each consumer (Triton and
    ttpipe agree: a wait after each dot, both kept);
  - a consumer after a flush needs no second wait (Triton and ttpipe agree: the users of
    the flushed value read the wait's result);
  - dots issued together, before any of their results is read, need one flush, not one
    each. Triton 3.6 emits `pendings = 0` after each of them, which makes the first dot
    complete before the second issues. `merge_wgmma_flushes` drops such a flush into the
    next one when only wgmma ops and ops without memory effects lie between them and none
    of them reads what the first flush guards: the later `wait_group 0` still completes
    the first dot before any reader, and nothing in between can write memory the first
    dot reads. This is the one place in wgmma pipelining where ttpipe's output differs from
    Triton's.

`update_waits(module)`: set each `ttg.async_wait`'s `num` to the fewest
`ttg.async_commit_group`s issued, on any path, between the copy it waits for and the
wait, then merge waits with nothing but non-commit, non-control-flow ops between them.

Register-A dots that may stay in flight are split along K into one dot per wgmma
instruction (`splitRSDots`) when no flush serializes the loop; the split's layouts come
from the linear-layout port, and a dot whose layouts it cannot infer stays whole (correct,
with fewer groups in flight). A `ttg.convert_layout` counts as a no-op (`isNoop`) when
both encodings are the same linear layout. A shared operand that is a block argument of
something other than the loop (a function argument) counts as defined outside; Triton
loops forever there.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from xdsl.dialects.builtin import (
    Float32Type,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    TensorType,
    i32,
)
from xdsl.ir import Block, BlockArgument, Operation, OpResult, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.traits import is_side_effect_free

from ttpipe.dialects import scf, tt, ttg, ttng
from ttpipe.dialects.ttg_attrs import LinearEncodingAttr, NvidiaMmaEncodingAttr
from ttpipe.dialects.ttg_types import MemDescType
from ttpipe.passes.common.distributed_layouts import (
    REGISTER,
    infer_reshape_encoding,
    infer_trans_encoding,
    linear_encoding,
    to_linear_layout,
)
from ttpipe.passes.common.linear_layout import LinearLayout, reshape_layout, standard_out_dims
from ttpipe.passes.common.builder import OpBuilder, value_location
from ttpipe.passes.common.ir import ancestor_in_block, init_value, is_ancestor, is_before_in_block, yielded_value
from ttpipe.passes.pipeline.pipelining_utility import is_defined_outside_loop

ACCUMULATOR_OPERAND = 2
"""Operand index of `c` in `ttng.warp_group_dot`."""

REGION_BRANCH_OPS = (scf.ForOp, scf.IfOp, scf.WhileOp, scf.ExecuteRegionOp, scf.IndexSwitchOp,
                     ttg.WarpSpecializeOp)
"""Ops implementing MLIR's `RegionBranchOpInterface`: `ttg.async_wait`s are not merged across them."""


# ------------------------------------------------------------------ helpers


def body_dots(loop: scf.ForOp) -> list[ttng.WarpGroupDotOp]:
    return [op for op in loop.body.ops if isinstance(op, ttng.WarpGroupDotOp)]


def body_waits(loop: scf.ForOp) -> list[ttng.WarpGroupDotWaitOp]:
    return [op for op in loop.body.ops if isinstance(op, ttng.WarpGroupDotWaitOp)]


def pendings(wait: ttng.WarpGroupDotWaitOp) -> int:
    return wait.pendings.value.data


def is_noop(op: Operation) -> bool:
    """Triton's `isNoop`: reshapes, transposes, and layout conversions that move no data
    (`minimalCvtLayout` empty: both layouts are the same linear layout)."""
    if isinstance(op, (tt.ReshapeOp, tt.TransOp)):
        return True
    if isinstance(op, ttg.ConvertLayoutOp):
        if op.src.type == op.result.type:
            return True
        shape = op.src.type.get_shape()
        src = to_linear_layout(shape, op.src.type.encoding)
        return src is not None and src == to_linear_layout(shape, op.result.type.encoding)
    return False


def rs_dot_needs_wait(dot: Operation, loop: scf.ForOp) -> bool:
    """A wgmma with A in registers computed in the loop (not by another wgmma): its
    registers must not be rewritten until it completes (Triton's `rsDotNeedsWait`)."""
    if not isinstance(dot, ttng.WarpGroupDotOp) or not isinstance(dot.a.type, TensorType):
        return False
    if is_defined_outside_loop(dot.a, loop):
        return False
    producer = dot.a.owner
    if isinstance(producer, ttg.ConvertLayoutOp):
        return not isinstance(producer.src.type.encoding, NvidiaMmaEncodingAttr)
    return True


def _dots_behind(value: SSAValue, block: Block) -> list[ttng.WarpGroupDotOp]:
    """The wgmma ops reached from `value` through ops of `block` (MLIR's backward slice
    with a filter stopping at `warp_group_dot` and leaving `block`; block arguments are
    not followed)."""
    dots: list[ttng.WarpGroupDotOp] = []
    visited: set[Operation] = set()

    def visit(op: Operation) -> None:
        if isinstance(op, ttng.WarpGroupDotOp):
            dots.append(op)
            return
        if op.parent_block() is not block:
            return
        for nested in op.walk():
            for operand in nested.operands:
                owner = operand.owner
                if isinstance(operand, OpResult) and not is_ancestor(op, owner) and owner not in visited:
                    visited.add(owner)
                    visit(owner)

    if isinstance(value, OpResult):
        visit(value.owner)
    return dots


def thread_values_through_wait(wait: ttng.WarpGroupDotWaitOp,
                               values: Sequence[SSAValue]) -> ttng.WarpGroupDotWaitOp:
    """Make `wait` also forward `values` and the shared-memory operands of the wgmma ops
    behind them; users of `values` after the wait read the wait's results instead
    (Triton's `threadValuesThroughWait`). Returns the new wait."""
    original = list(wait.inputs)
    operands: list[SSAValue] = list(dict.fromkeys([*original, *values]))
    for value in values:
        for dot in _dots_behind(value, wait.parent_block()):
            for operand in dot.operands:
                if isinstance(operand.type, MemDescType) and operand not in operands:
                    operands.append(operand)
    new_wait = ttng.WarpGroupDotWaitOp(operands, pendings=pendings(wait))
    new_wait.location = wait.location
    Rewriter.insert_op(new_wait, InsertPoint.before(wait))
    for index, value in enumerate(original):
        if not isinstance(value.type, MemDescType):
            wait.results[index].replace_all_uses_with(new_wait.results[index])
    block = new_wait.parent_block()
    for index in range(len(original), len(operands)):
        value = operands[index]
        if isinstance(value.type, MemDescType):
            continue
        for use in list(value.uses):
            user = use.operation
            while user is not None and user.parent_block() is not block:
                user = user.parent_op()
            if user is not None and user is not new_wait and is_before_in_block(new_wait, user):
                use.operation.operands[use.index] = new_wait.results[index]
    wait.detach()
    wait.erase()
    return new_wait


def insert_wait(after: Operation | None, block: Block, location, count: int,
                values: Sequence[SSAValue]) -> ttng.WarpGroupDotWaitOp:
    """A `warp_group_dot_wait {pendings = count}` after `after` (or first in `block`),
    forwarding `values`."""
    wait = ttng.WarpGroupDotWaitOp(pendings=count)
    wait.location = location
    point = InsertPoint.after(after) if after is not None else InsertPoint.at_start(block)
    Rewriter.insert_op(wait, point)
    return thread_values_through_wait(wait, values)


# ------------------------------------------------------------------ asyncLaunchDots


def operand_is_multi_buffered(operand: SSAValue, loop: scf.ForOp) -> bool:
    """A shared-memory operand defined outside the loop or taken from a multi-buffered
    allocation (`ttg.memdesc_index`), through layout conversions and memdesc views."""
    if isinstance(operand.type, TensorType):
        return True
    views = (ttg.ConvertLayoutOp, ttg.MemDescTransOp, ttg.MemDescReshapeOp, ttg.MemDescSubsliceOp)
    value = operand
    while isinstance(value, BlockArgument) or isinstance(value.owner, views):
        if isinstance(value, BlockArgument):
            if value.block is not loop.body:
                break
            value = yielded_value(value)
        else:
            value = value.owner.operands[0]
    return is_defined_outside_loop(value, loop) or isinstance(value.owner, ttg.MemDescIndexOp)


def dot_can_be_properly_async(dot: ttng.WarpGroupDotOp, loop: scf.ForOp) -> int | None:
    """The index of the iter arg carrying `dot`'s result when the dot may stay in flight
    across iterations, else None (Triton's `dotCanBeProperlyAsync`)."""
    # Rule 1: shared-memory operands are multi-buffered.
    if not operand_is_multi_buffered(dot.a, loop) or not operand_is_multi_buffered(dot.b, loop):
        return None
    return carried_accumulator_index(dot, dot.d, loop)


def carried_accumulator_index(dot: ttng.WarpGroupDotOp, result: SSAValue, loop: scf.ForOp) -> int | None:
    """Rules 2-3 of `dot_can_be_properly_async` for `result`, the value that stands for
    `dot`'s result in the loop (the result itself, or a wait's forwarding of it): the index of
    the iter arg carrying it, where only the loop's next wgmmas read it."""
    # Rule 2: no unconditional use in the loop but the yield (through no-ops).
    iter_arg_index: int | None = None
    queue = [(use.operation, use.index) for use in result.uses]
    while queue:
        user, index = queue.pop()
        if user.parent_op() is loop:
            if is_noop(user):
                queue.extend((use.operation, use.index) for use in user.results[0].uses)
                continue
            if isinstance(user, scf.YieldOp):
                if iter_arg_index is not None:
                    return None
                iter_arg_index = index
                continue
            return None
        if_op = user.parent_op()
        if not isinstance(if_op, scf.IfOp):
            return None
        if isinstance(user, scf.YieldOp):
            queue.extend((use.operation, use.index) for use in if_op.results[index].uses)
    # Rule 2.1: fp32 accumulators only.
    if not isinstance(dot.c.type.element_type, Float32Type):
        return None
    if iter_arg_index is None:
        return None
    iter_arg = loop.body.args[1 + iter_arg_index]

    # Rule 3a: every use of the carried result ends as the accumulator of a wgmma.
    def feeds_accumulator(use) -> bool:
        if isinstance(use.operation, ttng.WarpGroupDotOp):
            return use.index == ACCUMULATOR_OPERAND
        if is_noop(use.operation):
            return all(feeds_accumulator(u) for u in use.operation.results[0].uses)
        return False

    if all(feeds_accumulator(use) for use in iter_arg.uses):
        return iter_arg_index
    # Rule 3b: every use comes after the loop's first flush, which then forwards it.
    first_flush = next((w for w in body_waits(loop) if pendings(w) == 0), None)
    if first_flush is not None and all(
            is_before_in_block(first_flush, ancestor_in_block(loop.body, use.operation))
            for use in iter_arg.uses):
        thread_values_through_wait(first_flush, [iter_arg])
        return iter_arg_index
    return None


# ------------------------------------------------------------------ splitRSDots


def _split_encoding(shape: Sequence[int], encoding) -> LinearEncodingAttr | None:
    """`inferSplitOpEncoding` for a linear layout: the register basis along the last dim
    (of size 2) goes, the others halve their last coordinate, and the dim is dropped."""
    layout = to_linear_layout(shape, encoding)
    if layout is None:
        return None
    axis = len(shape) - 1
    bases: dict[str, list[tuple[int, ...]]] = {}
    found = False
    for dim in layout.in_dims:
        kept = []
        for basis in layout.in_dim_bases(dim):
            if dim == REGISTER and basis[axis] == 1 and not found:
                found = True
                continue
            kept.append(tuple(b // 2 if i == axis else b for i, b in enumerate(basis)))
        bases[dim] = kept
    if not found:
        return None
    split = LinearLayout(list(bases.items()), standard_out_dims(len(shape)))
    return linear_encoding(reshape_layout(split, list(shape[:-1])))


@dataclass(frozen=True)
class _LhsSplit:
    """The types of Triton's `splitLhs` for one register operand: M x K reshaped to
    M x 2 x ... x 2 x new_k, transposed to bring new_k inside with the halving dims
    outermost-first, then halved by `tt.split` once per level of a binary tree."""

    reshaped: TensorType
    order: tuple[int, ...]
    transposed: TensorType
    levels: tuple[TensorType, ...]


def _plan_lhs_split(type_: TensorType, new_k: int) -> _LhsSplit | None:
    """The types of the split, or None where a layout cannot be inferred here."""
    rank = len(type_.get_shape())
    splits = type_.get_shape()[-1] // new_k
    shape = [*type_.get_shape()[:-1], *([2] * (splits.bit_length() - 1)), new_k]
    encoding = infer_reshape_encoding(type_.get_shape(), type_.encoding, shape)
    if encoding is None:
        return None
    reshaped = TensorType(type_.element_type, shape, encoding)
    order = (*range(rank - 1), len(shape) - 1, *reversed(range(rank - 1, len(shape) - 1)))
    encoding = infer_trans_encoding(encoding, shape, order)
    if encoding is None:
        return None
    transposed = TensorType(type_.element_type, [shape[i] for i in order], encoding)
    levels = []
    current = transposed
    while len(current.get_shape()) > rank:
        encoding = _split_encoding(current.get_shape(), current.encoding)
        if encoding is None:
            return None
        current = TensorType(type_.element_type, current.get_shape()[:-1], encoding)
        levels.append(current)
    return _LhsSplit(reshaped, order, transposed, tuple(levels))


def _split_lhs(lhs: SSAValue, plan: _LhsSplit, new_k: int, builder: OpBuilder) -> list[SSAValue]:
    """Triton's `splitLhs`, by `plan`; the last no-op conversions give back the dot
    operand layout."""
    value = builder.insert(tt.ReshapeOp(lhs, result_type=plan.reshaped)).result
    value = builder.insert(tt.TransOp(value, order=plan.order, result_type=plan.transposed)).result
    pieces = [value]
    for half in plan.levels:
        pieces = [result for piece in pieces for result in builder.insert(tt.SplitOp(piece, result_type=half)).results]
    type_ = lhs.type
    operand_type = TensorType(type_.element_type, [*type_.get_shape()[:-1], new_k], type_.encoding)
    return [builder.insert(ttg.ConvertLayoutOp(p, result_type=operand_type)).result for p in pieces]


def _split_rhs(rhs: SSAValue, new_k: int, builder: OpBuilder) -> list[SSAValue]:
    """Triton's `splitRhs`: `memdesc_subslice`s of new_k rows of B (K x N) each."""
    type_ = rhs.type
    k_dim = len(type_.get_shape()) - 2
    shape = list(type_.get_shape())
    splits = shape[k_dim] // new_k
    shape[k_dim] = new_k
    view = MemDescType.get(shape, type_.element_type, type_.encoding, type_.memory_space,
                           mutable=False, alloc_shape=type_.alloc_shape)
    views = []
    for i in range(splits):
        offsets = [0] * len(shape)
        offsets[k_dim] = i * new_k
        views.append(builder.insert(ttg.MemDescSubsliceOp(rhs, offsets=offsets, result_type=view)).result)
    return views


def split_rs_dot(dot: ttng.WarpGroupDotOp) -> list[ttng.WarpGroupDotOp]:
    """Triton's `splitRSDot`: a wgmma with A in registers becomes one wgmma per instruction
    K (the `instrShape` K of its layout), chained through the accumulator, so all but one
    can stay in flight. Returns the dots standing for `dot` (itself when not split)."""
    if not isinstance(dot.a.type, TensorType):
        return [dot]
    new_k = dot.d.type.encoding.instr_shape[2]
    if dot.a.type.get_shape()[-1] // new_k <= 1:
        return [dot]
    plan = _plan_lhs_split(dot.a.type, new_k)
    if plan is None:
        return [dot]
    lhs = _split_lhs(dot.a, plan, new_k, OpBuilder(InsertPoint.before(dot), value_location(dot.a)))
    rhs = _split_rhs(dot.b, new_k, OpBuilder(InsertPoint.before(dot), value_location(dot.b)))
    builder = OpBuilder(InsertPoint.before(dot), dot.location)
    accumulator, use_c = dot.c, dot.useC
    imprecise_left = dot.maxNumImpreciseAcc.value.data
    dots = []
    for a, b in zip(lhs, rhs):
        take = min(imprecise_left, new_k)
        imprecise_left -= take
        split = builder.insert(ttng.WarpGroupDotOp(
            a, b, accumulator, use_c, input_precision=dot.inputPrecision,
            # 2**30: no extra imprecise accumulation in a full piece (WGMMA.cpp)
            max_num_imprecise_acc=1 << 30 if take == new_k else take, is_async=dot.isAsync))
        dots.append(split)
        accumulator = split.d
        use_c = builder.constant(1, IntegerType(1))
    dot.d.replace_all_uses_with(dots[-1].d)
    Rewriter.erase_op(dot)
    return dots


def split_rs_dots(async_dots: dict[Operation, int]) -> dict[Operation, int]:
    """`splitRSDots`: every properly async dot split, each piece keeping the iter arg."""
    return {piece: index for dot, index in async_dots.items() for piece in split_rs_dot(dot)}


def insert_async_waits_in_loop(loop: scf.ForOp, async_dots: dict[Operation, int]) -> None:
    """Step 3 of `async_launch_dots` (Triton's `insertAsyncWarpGroupDotWaitInLoop`)."""
    if not async_dots or any(pendings(w) == 0 for w in body_waits(loop)):
        return
    for dot in async_dots:
        if rs_dot_needs_wait(dot, loop):
            insert_wait(dot, dot.parent_block(), dot.location, len(async_dots) - 1, [dot.results[0]])
            continue
        by_block: dict[Block, list[SSAValue]] = {}
        for use in dot.results[0].uses:
            if isinstance(use.operation, scf.YieldOp):
                continue
            by_block.setdefault(use.operation.parent_block(), []).append(dot.results[0])
        for block, users in by_block.items():
            insert_wait(None, block, dot.location, 0, users)
    last = list(async_dots)[-1]
    if rs_dot_needs_wait(last, loop):
        return
    insert_wait(last, last.parent_block(), last.location, len(async_dots),
                [dot.results[0] for dot in async_dots])


def async_launch_dots(loop: scf.ForOp) -> None:
    """Steps 1-4 of the module docstring for one loop (Triton's `asyncLaunchDots`)."""
    async_dots: dict[Operation, int] = {}
    for dot in body_dots(loop):
        dot.isAsync = tt.TRUE
        index = dot_can_be_properly_async(dot, loop)
        if index is not None:
            async_dots[dot] = index
        else:
            insert_wait(dot, dot.parent_block(), dot.location, 0, [dot.d])
    if not async_dots:
        return
    # Split register-A dots into one dot per wgmma instruction, unless a flush already
    # serializes the loop (the split would only add commit groups).
    if all(pendings(w) != 0 for w in body_waits(loop)):
        async_dots = split_rs_dots(async_dots)
    insert_async_waits_in_loop(loop, async_dots)
    insert_wait(loop, loop.parent_block(), loop.location, 0,
                [loop.results[index] for index in async_dots.values()])


# ------------------------------------------------------------------ seed 001


def _reads_any(op: Operation, values: set[SSAValue]) -> bool:
    return any(operand in values for nested in op.walk() for operand in nested.operands)


def merge_wgmma_flushes(loop: scf.ForOp) -> None:
    """Fold a `warp_group_dot_wait {pendings = 0}` into the next one in the loop body when
    only wgmma ops and ops without memory effects (and without regions) lie between them
    and none of those, nor the next wait, reads a value the first one forwards.

    The later wait completes every wgmma group issued before it, so the first flush's
    dots are still complete before any reader of their results; the ops between can
    neither read those results nor write the shared memory the dots read."""
    flushes = [w for w in body_waits(loop) if pendings(w) == 0]
    for first, second in zip(flushes, flushes[1:]):
        guarded = set(first.results)
        between = []
        op = first.next_op
        while op is not None and op is not second:
            between.append(op)
            op = op.next_op
        if op is not second:
            continue
        if any(op.regions or not (isinstance(op, ttng.WarpGroupDotOp) or is_side_effect_free(op))
               or _reads_any(op, guarded) for op in between):
            continue
        if _reads_any(second, guarded):
            continue
        forwarded = [*first.inputs, *second.inputs]
        anchor = second.prev_op
        for wait in (first, second):
            for value, result in zip(wait.inputs, wait.results):
                result.replace_all_uses_with(value)
            wait.detach()
            wait.erase()
        merged = insert_wait(anchor, loop.body, second.location, 0, forwarded)
        flushes[flushes.index(second)] = merged


# ------------------------------------------------------------------ updateWaits


def _commits_between(start: Operation | None, stop: Operation) -> int:
    """`ttg.async_commit_group`s from `start` up to (excluding) `stop`, not looking into regions."""
    count = 0
    op = start
    while op is not None and op is not stop:
        if isinstance(op, ttg.AsyncCommitGroupOp):
            count += 1
        op = op.next_op
    return count


def min_interleaved_commits(wait: ttg.AsyncWaitOp) -> int:
    """The fewest commit groups issued after the copy `wait` waits for, on any path
    (Triton's `minNumInterleavedCommitOps`); 0 when it cannot tell."""
    if len(wait.operands) != 1:
        return 0
    value = wait.operands[0]
    sink: Operation = wait
    value_region = value.block.parent if isinstance(value, BlockArgument) else value.owner.parent_region()
    while sink.parent_region() is not value_region:
        sink = sink.parent_op()
    best = [2**31 - 1]
    on_path: set[SSAValue] = set()

    def over_histories(value: SSAValue, sink: Operation, history: int) -> int:
        if isinstance(value, OpResult):
            history += _commits_between(value.owner.next_op, sink)
            best[0] = min(best[0], history)
            return best[0]
        loop = value.block.parent_op()
        if not isinstance(loop, scf.ForOp):
            return 0
        history += _commits_between(loop.body.first_op, sink)
        if history >= best[0] or value in on_path:
            # (a token carried around the loop unchanged, without commits, would recurse
            # forever in Triton; it adds no shorter path)
            return best[0]
        on_path.add(value)
        from_init = over_histories(init_value(value), loop, history)
        from_back_edge = over_histories(yielded_value(value), loop.body.last_op, history)
        on_path.discard(value)
        return min(from_init, from_back_edge, best[0])

    return over_histories(value, sink, 0)


def combine_redundant_waits(waits: Iterable[ttg.AsyncWaitOp]) -> None:
    """Merge each `ttg.async_wait` with the ones after it up to the next commit group or
    control-flow op into one waiting on all their tokens for the smallest count (Triton's
    `combineRedundantWaitOps`)."""
    replaced: dict[ttg.AsyncWaitOp, ttg.AsyncWaitOp] = {}
    for wait in waits:
        if wait in replaced:
            continue
        group = [wait]
        tokens = list(wait.operands)
        count = wait.num.value.data
        op = wait.next_op
        while op is not None and not isinstance(op, (ttg.AsyncCommitGroupOp, *REGION_BRANCH_OPS)):
            if isinstance(op, ttg.AsyncWaitOp):
                group.append(op)
                count = min(count, op.num.value.data)
                tokens.extend(op.operands)
            op = op.next_op
        if len(group) == 1:
            continue
        merged = ttg.AsyncWaitOp(tokens, num=count)
        merged.location = wait.location
        Rewriter.insert_op(merged, InsertPoint.before(wait))
        for member in group:
            replaced[member] = merged
    for old, new in replaced.items():
        old.retToken.replace_all_uses_with(new.retToken)
        old.detach()
        old.erase()


def update_waits(module: ModuleOp) -> None:
    """Set the count of every `ttg.async_wait`, then merge neighbouring waits (Triton's
    `updateWaits`)."""
    waits = [op for op in module.walk() if isinstance(op, ttg.AsyncWaitOp)]
    for wait in waits:
        wait.num = IntegerAttr(min_interleaved_commits(wait), i32)
    combine_redundant_waits(waits)
