"""Loads of a loop issued iterations ahead into registers: a software pipeline without shared
memory, for loops whose shared memory is taken (the consumer of `ttpipe-row-ring`, whose
ring fills it) and whose loads' latency no other CTA on the SM hides.

Algorithm, for an `scf.for` (signed, constant step > 0) and loads of its body chosen by the
caller, `distance` d >= 1:
  1. A load is prefetchable when the body computes its operands by side-effect-free ops
     (no region) from the induction variable, values defined outside the loop and integer
     iteration arguments that advance by a loop-invariant amount (`a + c` yielded for `a`:
     a block pointer's offset, `a0 + j c` in iteration j) only: no other iteration
     argument (a tensor of pointers the loop advances stays unprefetched), no other load,
     so iteration i's load can run in iteration i - d, reading `a + d c`. The caller
     states that no write of the loop, or between the loop's start and a load's own
     iteration, changes what it reads (`ttpipe-row-ring` checks the hulls of the loads and
     the stores at run time).
  2. Before the loop (or earlier, before an op the caller names, where everything these
     loads read is defined there): the load's slice cloned for iterations 0 .. d-1
     (iv := lb + k step, a := a0 + k c), each predicated (`predicate_op`: its mask and-ed
     with a splat) on that iteration existing, `lb + k step < ub` (compared in i64: no wrap
     near the i32 limit).
  3. The loop carries d values per load, oldest first: the load's readers read the oldest;
     where its only reader is an `arith.extf` (a bf16 norm weight widened to float32), the
     queue carries the widened values, each widened where it is loaded: ptxas packs two
     16-bit values of a loop-carried queue into one register and repacks them at the back
     edge (`PRMT`: 16 a run in a layer norm, each waiting for its load), and widening at
     the reader would convert them again;
     at the load's place, its slice cloned for iteration i + d (iv := iv + d step,
     a := a + d c), predicated on `iv + d step < ub`; the loop yields the queue shifted by
     one with the new value last. A predicated-off load reads nothing; its lanes are never read (the
     queue outlives the loop by d iterations that do not run).
  4. The original load and its dead address chain go.
  5. The caller unrolls the loop by a multiple of d (`unroll`): a loop over runs of d
     iterations (the body d times, each copy reading the previous copy's yields), then the
     loop as it was for the remaining iterations. Shifting the queue by one is a register
     copy of the value just loaded, which waits for the load to land (ptxas cannot rename
     across the back edge): the prefetch would wait in the iteration that issues it (ncu:
     18 % of a layer norm's stall samples on that copy, docs/measurements.md). After d
     copies the queue is back in place, so the unrolled loop copies nothing.
     In a run, every iteration's `iv + step` is at most the upper bound: a mask that only
     bounds a chunk of the iteration by the loop's upper bound (`splat(iv) + make_range(a,
     b) < splat(ub)`, 0 <= a, b <= step: a chunk loop's `off + arange(0, BLOCK) < N`) holds
     in every lane there, so the copies read a true constant in its place, and their loads
     and stores that it masked alone lose the mask (and the load its `other`). With a
     `TileAccessAnalysis`, so does a mask that the analysis reads as bounds on tile indices
     (`holds_in_runs`): each upper bound `start + t < limit` with `start + size <= limit`
     wherever `iv + step <= ub`, each lower bound `start + t >= limit` with `start >= limit`
     in every iteration (a block pointer's mask: an offset the loop carries, advanced by the
     step from the lower bound, kept in `[0, N)`).
  6. The remaining iterations, fewer than a run, may run as one more run whose copies are
     guarded (`guarded_run`): copy c in an `scf.if` on iteration c existing, nested in copy
     c - 1's, so that every copy reads its place of the queue as in a run and nothing
     shifts it (the loop as it was would wait for each load it issues, at its back edge);
     the ifs yield only the loop's results read after it (the queue dies with the row). The
     masks stay. Measured (docs/measurements.md, fifteenth session): a layer norm's rows of
     20 chunks, 8 of them past its runs of 12, at 0.79x the copy bandwidth with the loop as
     it was, 0.88x with the guarded run.

Registers: d times each carried tile a thread (`carried_type`); `distance` is the caller's
cost model.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.dialects.builtin import IntegerType, TensorType, i1, i64
from xdsl.ir import Attribute, Block, BlockArgument, Operation, Region, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.traits import is_side_effect_free

from ttpipe.dialects import arith, scf, tt
from ttpipe.dialects.builtin import DenseElementsAttr
from ttpipe.dialects.arith import CmpIPredicate
from ttpipe.passes.analysis.polynomial import Iteration, Poly
from ttpipe.passes.analysis.tile_access import NotATile, TileAccessAnalysis
from ttpipe.passes.common.bound_masks import bound_of, drop_mask
from ttpipe.passes.common.builder import OpBuilder, constant_int_value
from ttpipe.passes.common.ir import (
    advance,
    append_yield_operands,
    backward_slice_in_block,
    init_value,
    is_before_in_block,
    replace_for_op_with_new_signature,
    replace_load,
    set_operand_groups,
)
from ttpipe.passes.pipeline.predicate import predicate_op


@dataclass
class _Prefetched:
    """What issuing a load ahead clones (step 1), derived once from the load."""

    load: tt.LoadOp
    ops: list[Operation]
    """The body ops computing its operands, in block order."""
    advancing: list[BlockArgument]
    """The iteration arguments they read, each advancing by a loop-invariant amount."""
    widened: arith.ExtFOp | None
    """Its only reader, where that widens it (`widening_reader`): the queue carries its result."""


def _prefetched(load: tt.LoadOp, loop: scf.ForOp) -> _Prefetched | None:
    """Step 1 for `load`, a load of `loop`'s body: what issuing it ahead clones; None where
    step 1 refuses it."""
    body = loop.body
    ops = backward_slice_in_block(load.operands, body)
    if any(op.regions or not is_side_effect_free(op) for op in ops):
        return None
    advancing: list[BlockArgument] = []
    for value in (value for op in (*ops, load) for value in op.operands):
        if isinstance(value, BlockArgument) and value.owner is body and value.index > 0 and value not in advancing:
            advancing.append(value)
    if any(not isinstance(arg.type, IntegerType) or advance(arg) is None for arg in advancing):
        return None  # an iteration argument other than an integer advancing by a loop-invariant amount
    return _Prefetched(load, ops, advancing, widening_reader(load))


def prefetchable(load: tt.LoadOp, loop: scf.ForOp) -> bool:
    """Step 1 for `load`, a load of `loop`'s body, and the loop's own requirements."""
    step = constant_int_value(loop.step)
    return (load.parent_block() is loop.body and loop.unsignedCmp is None and step is not None and step > 0
            and isinstance(loop.body.args[0].type, IntegerType) and _prefetched(load, loop) is not None)


def _wide(b: OpBuilder, value: SSAValue) -> SSAValue:
    """`value` as i64 (an i32 sign-extended)."""
    if value.type.width.data < 64:
        return b.insert(arith.ExtSIOp(value, result_type=i64)).out
    return value


def widening_reader(load: tt.LoadOp) -> arith.ExtFOp | None:
    """The load's only reader, where it is an `arith.extf` in the load's block: the queue
    then carries the widened value (step 3)."""
    uses = list(load.result.uses)
    reader = uses[0].operation if len(uses) == 1 else None
    return reader if isinstance(reader, arith.ExtFOp) and reader.parent_block() is load.parent_block() else None


def carried_type(load: tt.LoadOp) -> Attribute:
    """The type of the values the queue of `load` carries (step 3)."""
    widened = widening_reader(load)
    return load.result.type if widened is None else widened.out.type


def _issue(b: OpBuilder, prefetched: _Prefetched, loop: scf.ForOp, iteration: SSAValue, ahead: int,
           advancing: dict[BlockArgument, SSAValue]) -> SSAValue:
    """At `b`: the load for induction value `iteration + ahead * step`, predicated on it being
    below the loop's upper bound, and widened where its reader widens it; an advancing
    iteration argument the load reads is `advancing[arg] + ahead * advance(arg)` there."""
    step = constant_int_value(loop.step)
    exists = b.cmpi(CmpIPredicate.slt, b.addi(_wide(b, iteration), b.constant(ahead * step, i64)),
                    _wide(b, loop.upperBound))
    iv = b.addi(iteration, b.constant(ahead * step, iteration.type)) if ahead else iteration
    mapping: dict[SSAValue, SSAValue] = {loop.body.args[0]: iv}
    for arg in prefetched.advancing:
        amount = advance(arg)
        at = advancing[arg]
        mapping[arg] = b.addi(at, b.muli(amount, b.constant(ahead, amount.type))) if ahead else at
    for op in prefetched.ops:
        b.insert(op.clone(value_mapper=mapping))
    load = prefetched.load
    value = b.insert(load.clone(value_mapper=mapping))
    predicate_op(value, exists)
    if prefetched.widened is None:
        return value.result
    return b.insert(prefetched.widened.clone(value_mapper={load.result: value.result})).out


def _prologue_point(loop: scf.ForOp, prefetched: list[_Prefetched], earliest: Operation | None) -> Operation:
    """Where step 2's loads go: before `earliest` where everything they read is defined there
    or computed after it, in the loop's block, by side-effect-free ops without regions that
    read only such values (those ops move before `earliest`); else before the loop."""
    if earliest is None:
        return loop
    inside = {result for p in prefetched for op in p.ops for result in op.results}
    needed = [value for p in prefetched for op in (*p.ops, p.load) for value in op.operands
              if value not in inside and value.owner is not loop.body] + [loop.lowerBound, loop.upperBound]
    needed += [value for p in prefetched for arg in p.advancing for value in (init_value(arg), advance(arg))]
    block = earliest.parent_block()
    moved: set[Operation] = set()
    while needed:
        value = needed.pop()
        owner = value.owner
        if not isinstance(owner, Operation) or owner.parent_block() is not block or is_before_in_block(owner, earliest):
            continue  # defined before `earliest`, or outside its block (which the loop, in that block, reads too)
        if owner.regions or not is_side_effect_free(owner) or not is_before_in_block(owner, loop):
            return loop
        if owner not in moved:
            moved.add(owner)
            needed += owner.operands
    for op in [op for op in block.ops if op in moved]:
        op.detach()
        block.insert_op_before(op, earliest)
    return earliest


def prefetch(loop: scf.ForOp, loads: Sequence[tt.LoadOp], distance: int,
             earliest: Operation | None = None) -> scf.ForOp:
    """Steps 2-4 for `loads` (each `prefetchable`) of `loop`; returns the new loop. Step 2's
    loads go before `earliest` (an op before the loop, in its block) where what they read
    is defined there, so their latency runs under the ops between (a first loop over the
    same row); else before the loop."""
    prefetched = [_prefetched(load, loop) for load in loads]
    point = _prologue_point(loop, prefetched, earliest)
    before = OpBuilder(InsertPoint.before(point), loop.location)
    initial = {arg: init_value(arg) for p in prefetched for arg in p.advancing}
    inits = [_issue(before, p, loop, loop.lowerBound, k, initial) for p in prefetched for k in range(distance)]
    first_new = len(loop.initArgs) + 1
    loop = replace_for_op_with_new_signature(loop, inits)  # the same body: `prefetched` still holds
    queues = [loop.body.args[first_new + i * distance:first_new + (i + 1) * distance] for i in range(len(loads))]
    yielded: list[SSAValue] = []
    for p, queue in zip(prefetched, queues):
        b = OpBuilder(InsertPoint.before(p.load), p.load.location)
        ahead = _issue(b, p, loop, loop.body.args[0], distance, {arg: arg for arg in p.advancing})
        if p.widened is not None:
            p.widened.out.replace_all_uses_with(queue[0])
            Rewriter.erase_op(p.widened)
        replace_load(p.load, queue[0])
        yielded += [*queue[1:], ahead]
    append_yield_operands(loop, yielded)
    return loop


@dataclass
class UnrolledCopy:
    """One copy of the body in `unroll`'s loop of runs."""

    ops: list[Operation]
    """The copy's ops, in order (the yield excluded)."""
    mapping: dict[SSAValue, SSAValue]
    """The body's values -> the copy's."""


def _copy_body(b: OpBuilder, loop: scf.ForOp, iv: SSAValue, arguments: Sequence[SSAValue],
               substitutes: dict[SSAValue, SSAValue] | None = None) -> tuple[UnrolledCopy, list[SSAValue]]:
    """At `b`: a copy of `loop`'s body, its yield left out, for induction value `iv` and
    iteration `arguments`; the ops defining a key of `substitutes` are left out and their
    results read as its value. Returns the copy and the values its yield would yield."""
    substitutes = substitutes or {}
    mapping: dict[SSAValue, SSAValue] = {loop.body.args[0]: iv, **dict(zip(loop.body.args[1:], arguments)),
                                         **substitutes}
    ops = [b.insert(op.clone(value_mapper=mapping)) for op in list(loop.body.ops)[:-1]
           if not (op.results and op.results[0] in substitutes)]
    return UnrolledCopy(ops, mapping), [mapping.get(value, value) for value in loop.body.last_op.operands]


def bounds_the_chunk(mask: SSAValue, loop: scf.ForOp) -> bool:
    """`mask` is `splat(iv) + make_range(a, b) < splat(ub)` (`common.bound_masks.bound_of`;
    or `>` with the operands swapped) with 0 <= a and b <= step: true in every lane of an
    iteration whose `iv + step` is at most the upper bound (step 5)."""
    bound = bound_of(mask)
    return (bound is not None and not bound.inclusive and bound.base is loop.body.args[0]
            and bound.n is loop.upperBound and bound.last < constant_int_value(loop.step))


def holds_in_runs(mask: SSAValue, loop: scf.ForOp, analysis: TileAccessAnalysis) -> bool:
    """Step 5's second rule: `mask`, a conjunction of bounds on its tile's indices
    (`TileAccessAnalysis.mask`), is true in every lane of an iteration j of `loop` (a
    constant lower bound lb and step s) where `lb + s (j + 1) <= ub`: an upper bound's
    `start + size - limit` exceeds `lb + s (j + 1) - ub` by a constant <= 0, a lower bound's
    `start - limit` is `c j + k` with c, k >= 0."""
    lower, step = constant_int_value(loop.lowerBound), constant_int_value(loop.step)
    if lower is None or step is None or not isinstance(mask.type, TensorType) or mask.type.element_type != i1:
        return False
    try:
        bounds = analysis.mask(mask, loop)
    except NotATile:
        return False
    j_atom = Iteration(loop)
    j = Poly.atom(j_atom)
    run_end = Poly.constant(lower + step) + j.scaled(step) - analysis.scalar(loop.upperBound, None)
    shape = mask.type.get_shape()
    for bound in bounds:
        if bound.upper:
            excess = (bound.start + Poly.constant(shape[bound.dim]) - bound.limit - run_end).constant_value()
            if excess is None or excess > 0:
                return False
        else:
            in_j, rest = (bound.start - bound.limit).split(lambda monomial: any(a == j_atom for a, _ in monomial))
            quotient = in_j.divided(j)
            slope = quotient.constant_value() if quotient is not None else None
            margin = rest.constant_value()
            if slope is None or margin is None or slope < 0 or margin < 0:
                return False
    return bool(bounds)


def unroll(loop: scf.ForOp, factor: int,
           analysis: TileAccessAnalysis | None = None) -> tuple[scf.ForOp, list[UnrolledCopy]]:
    """Step 5 (any signed `scf.for` with a constant step > 0): runs of `factor` iterations in
    a loop of their own, before `loop`, which keeps the remainder (it starts where the runs
    end, from their results). Returns the loop of runs and its copies of the body. With
    `analysis`, the masks `holds_in_runs` proves go too."""
    b = OpBuilder(InsertPoint.before(loop), loop.location)
    step = constant_int_value(loop.step)
    iv_type = loop.body.args[0].type
    run = b.constant(factor * step, iv_type)
    runs = b.maxsi(b.divsi(b.subi(loop.upperBound, loop.lowerBound), run), b.constant(0, iv_type))
    end = b.addi(loop.lowerBound, b.muli(runs, run))
    true_masks = {op.result: b.insert(arith.ConstantOp(DenseElementsAttr.splat(op.result.type, 1))).result
                  for op in loop.body.ops
                  if (isinstance(op, arith.CmpIOp) and bounds_the_chunk(op.result, loop))
                  or (analysis is not None and op.results and holds_in_runs(op.results[0], loop, analysis))}
    body = Block(arg_types=[iv_type, *(arg.type for arg in loop.body.args[1:])])
    runs_loop = b.insert(scf.ForOp(loop.lowerBound, end, run, list(loop.initArgs), body=body))
    rb = OpBuilder(InsertPoint.at_end(body), loop.location)
    values: list[SSAValue] = list(body.args[1:])
    trues = set(true_masks.values())
    copies = []
    for copy in range(factor):
        iv = rb.addi(body.args[0], rb.constant(copy * step, iv_type)) if copy else body.args[0]
        unrolled, values = _copy_body(rb, loop, iv, values, true_masks)
        for op in unrolled.ops:
            if isinstance(op, (tt.LoadOp, tt.StoreOp)) and op.mask in trues:
                drop_mask(op)
        copies.append(unrolled)
    rb.insert(scf.YieldOp(*values))
    set_operand_groups(loop, lowerBound=[end], initArgs=list(runs_loop.res))
    for constant in trues:
        if not constant.uses:
            Rewriter.erase_op(constant.owner)
    return runs_loop, copies


def guarded_run(loop: scf.ForOp, factor: int) -> list[UnrolledCopy]:
    """Step 6: `unroll`'s remainder `loop` (fewer than `factor` iterations) as one run of
    `factor` copies of its body, copy c in the then-region of an `scf.if` on `lb + c step <
    ub` (in i64) nested in copy c - 1's, each if yielding the loop's results that are read after it
    (its copy's, or deeper ones'), its else the values it was given. The loop goes. Each
    copy reads the queue of prefetched values where the copies of a run do, so nothing
    copies the queue at a back edge (where the copy waits for the load just issued: a
    remainder loop's every iteration did); the masks stay (the last chunks may be ragged).
    Returns the copies, outermost first."""
    step = constant_int_value(loop.step)
    iv_type = loop.body.args[0].type
    read_after = [index for index, result in enumerate(loop.res) if result.uses]
    copies: list[UnrolledCopy] = []

    def nest(b: OpBuilder, copy: int, values: list[SSAValue]) -> list[SSAValue]:
        iv = b.addi(loop.lowerBound, b.constant(copy * step, iv_type)) if copy else loop.lowerBound
        at = b.addi(first, b.constant(copy * step, i64)) if copy else first
        exists = b.cmpi(CmpIPredicate.slt, at, end)  # in i64, as the prefetch's predicates: no wrap
        then, otherwise = Block(), Block()
        guard = b.insert(scf.IfOp(exists, [loop.res[index].type for index in read_after], Region(then),
                                  Region(otherwise)))
        otherwise.add_op(scf.YieldOp(*(values[index] for index in read_after)))
        tb = OpBuilder(InsertPoint.at_end(then), loop.location)
        unrolled, after = _copy_body(tb, loop, iv, values)
        copies.append(unrolled)
        tb.insert(scf.YieldOp(*(nest(tb, copy + 1, after) if copy + 1 < factor
                                else [after[index] for index in read_after])))
        return list(guard.results)

    before = OpBuilder(InsertPoint.before(loop), loop.location)
    first, end = _wide(before, loop.lowerBound), _wide(before, loop.upperBound)
    results = nest(before, 0, list(loop.initArgs))
    for index, result in zip(read_after, results):
        loop.res[index].replace_all_uses_with(result)
    Rewriter.erase_op(loop)
    return copies

