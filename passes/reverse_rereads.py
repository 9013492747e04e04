"""`ttpipe-reverse-rereads`: the loop that reads a row for the last time walks it backwards,
so that it first re-reads what the earlier loop read last, while L2 still holds it.

A row kernel in two passes (statistics, then the output) reads each row twice, both times
from its start. When the rows in flight outgrow L2 (8 CTAs x 132 SMs x a 64 KB row is 67 MB
on an H100, against 50 MB of L2), the forward second pass meets the classic cyclic pattern
LRU handles worst: the lines it needs first, the row's start, are the ones read longest
ago, evicted first, and every miss evicts the next line it will need. Walking the second
pass backwards turns the pair into a stack: the row's end, read last, is re-read first,
and what L2 evicts is the start, which the pass reaches last.

Algorithm, for every `tt.func`:
  1. Candidates: the loops holding a last re-read (`ttpipe.passes.analysis.rereads`: a load
     reading, iteration for iteration, the program's own memory an earlier loop with the
     same bounds read, which no later loop reads again).
  2. Legal (`reversible`): a loop's iterations may run in reverse when none depends on
     another: it compares signed, the values it carries are inductions (each iteration adds
     a loop-invariant integer amount: the pointers and offsets Triton's tutorials and block
     pointers advance; an accumulator is not one); its body has no side effects but `tt.load` (not volatile) and `tt.store` (nested regions
     side-effect free); and each access touches, in iteration j, elements of its own window
     `[base + A + s * j, base + A + s * j + |s|)`: its offset (`TileAccessAnalysis.pointer`)
     is `A + s * j + sum_d c_d * t_d` with `A` loop-invariant, `s` and every `c_d` constants
     and the tile's span `sum_d |c_d| * (size_d - 1) + 1` at most `|s|`, no index wrapped
     (`%`, `select`). A store and any other access through the same base pointer must have
     the same `A` and `s`, so their windows coincide iteration for iteration. Accesses
     through different base pointers are taken to touch different memory (or the same at
     the same offsets, as an in-place kernel's input and output do): the assumption
     Triton's pipeliner makes when it issues a later iteration's loads before an earlier
     iteration's stores.
  3. Rewrite: before the loop, `n = (ub - lb - 1) / step`, the last iteration's number, and
     `last = lb + n * step`, the induction variable's last value (neither used when the loop
     runs no iteration); at the top of the body, `reversed = last - (iv - lb)` replaces every
     other use of `iv`, and an induction `init + j * amount` read in the body becomes
     `init + (n - j) * amount`, `j = (iv - lb) / step` (its advance keeps reading the
     carried value, so the loop's results are what they were). The bounds stay (later
     passes see the same trip count), and so does the divisibility axis info derives for
     the address (`last` and `iv - lb` are multiples of the step where `lb` is), so the
     loads and stores keep their vector width.
  4. Versions by the row's length (a run-time value; each an `scf.if` on the loop's last
     iteration number `(ub - lb - 1) / step`, the loop as written in its else branch):
     a. Where `ttpipe-l2-eviction` marked the loop's accesses (`ttpipe.l2_eviction`), they
        keep `evict_first` only in a copy run where the loop has at least `n_L1 =
        rows_l1_holds` iterations: the rows of all CTAs on an SM outgrow
        `SM90_L1_ROWS_BYTES` (64 KB). Below it L1 serves the second read and the hints
        only cost (2.5-4.6 % on rows of 1024 elements at 4 and 8 warps); the loop as written
        keeps its policies (`evict_normal`). Loops whose one iteration already outgrows L1
        keep the hints unversioned. Runs for loops that cannot be reversed too.
     b. The reversed loop runs where the loop has more than `n_L2 = rows_l2_holds`
        iterations (inside 4a's copy where there is one): one row per CTA in flight (the
        CTAs the kernel's warps allow on each of an H100's 132 SMs) outgrows its 50 MB L2,
        at the bytes the loop re-reads an iteration. Shorter rows are read again from L2 in
        either order, and there the reversed loop measured up to 3 % slower (2048-element
        rows in chunks of 512: 0.97x stock unguarded, 1.01x guarded).

Measured on the H100 (`python -m ttpipe.bench`, bf16, 8 warps, chunks of 2048 (n_L2 = 12), with and
without `reverse-rereads` on one machine; docs/measurements.md, 2026-11-26, seventh
session): over rows of 32768 elements the looped layer norm, RMS norm and online softmax go
from 0.69-0.72x to 0.74-0.76x the copy bandwidth (1.12-1.16x stock Triton), rows of 131072
from 0.62-0.64x to 0.65-0.66x; rows of 8192, which L2 holds either way, stay at 0.92-0.98x.

Preconditions: none (TTIR or TTGIR). Run after `ttpipe-l2-eviction` and `ttpipe-row-cache`,
which match the loops' pointers expression for expression and would no longer see the
reversed loop's as the earlier loop's. Attributes read and removed: `ttpipe.l2_eviction`.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import IntegerType, ModuleOp, TensorType
from xdsl.ir import Block, BlockArgument, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint
from xdsl.traits import is_side_effect_free

from ttpipe.dialects import arith, scf, tt
from ttpipe.dialects.tt import get_element_type_or_self
from ttpipe.dialects.arith import CmpIPredicate
from ttpipe.passes.analysis.axis_info import ModuleAxisInfo
from ttpipe.passes.analysis.polynomial import Iteration, Poly, TileCoord
from ttpipe.passes.analysis.rereads import last_rereads, rows_l1_holds, rows_l2_holds
from ttpipe.passes.analysis.tile_access import NotATile, PointerForm, TileAccessAnalysis
from ttpipe.passes.common.builder import OpBuilder
from ttpipe.passes.common.ir import advance, dominates, init_value, last_iteration_number, yielded_value
from ttpipe.passes.l2_eviction import EVICT_NORMAL, L2_EVICTION_MARK
from ttpipe.passes.pipeline.lower_loops import tile_bytes


@dataclass(frozen=True)
class _Window:
    """One access's elements in iteration j (step 2): from `base + invariant + stride * j`,
    `span` of them."""

    base: SSAValue
    invariant: Poly
    stride: int
    span: int


def _window(access: tt.LoadOp | tt.StoreOp, loop: scf.ForOp, analysis: TileAccessAnalysis) -> _Window | None:
    """The access's window in each iteration of `loop`, or None where step 2 cannot bound it."""
    try:
        form: PointerForm = analysis.pointer(access.ptr, loop)
    except NotATile:
        return None
    if form.offset.guards or not dominates(form.base, loop):
        return None
    iteration = Iteration(loop)
    shape = access.ptr.type.get_shape() if isinstance(access.ptr.type, TensorType) else ()
    invariant, stride, span = Poly(), 0, 1
    for monomial, coefficient in form.offset.poly.terms.items():
        atoms = dict(monomial)
        if not atoms:
            invariant = invariant + Poly.constant(coefficient)
        elif len(atoms) == 1 and atoms.get(iteration) == 1:
            stride = coefficient
        elif len(atoms) == 1 and isinstance(coordinate := next(iter(atoms)), TileCoord) and atoms[coordinate] == 1:
            span += abs(coefficient) * (shape[coordinate.dim] - 1)
        elif all(not isinstance(atom, (Iteration, TileCoord)) and dominates(atom, loop) for atom in atoms):
            invariant = invariant + Poly({monomial: coefficient})
        else:
            return None
    if stride == 0 or span > abs(stride):
        return None
    return _Window(form.base, invariant, stride, span)


def _induction(arg: BlockArgument) -> bool:
    """An iteration argument step 3 can compute for any iteration: advanced by a
    loop-invariant integer amount (`advance`) at least as wide as the induction variable."""
    amount = advance(arg)
    if amount is None:
        return False
    element = get_element_type_or_self(amount.type)
    counter = arg.block.args[0].type
    return (isinstance(element, IntegerType) and isinstance(counter, IntegerType)
            and element.width.data >= counter.width.data)


def reversible(loop: scf.ForOp, analysis: TileAccessAnalysis) -> bool:
    """Step 2: no iteration of `loop` depends on another."""
    if loop.unsignedCmp is not None or not all(_induction(arg) for arg in loop.body.args[1:]):
        return False
    accesses: list[tt.LoadOp | tt.StoreOp] = []
    for op in loop.body.ops:
        if (isinstance(op, tt.LoadOp) and not op.isVolatile.value.data) or isinstance(op, tt.StoreOp):
            accesses.append(op)
        elif not is_side_effect_free(op):
            return False
    windows = {access: _window(access, loop, analysis) for access in accesses}
    if any(window is None for window in windows.values()):
        return False
    stores = [windows[op] for op in accesses if isinstance(op, tt.StoreOp)]
    return all(other.base is not store.base or (other.invariant == store.invariant and other.stride == store.stride)
               for store in stores for other in windows.values())


def _induction_at(builder: OpBuilder, arg: BlockArgument, iteration: SSAValue) -> SSAValue:
    """`init + iteration * amount`: the value an induction (`_induction`) has in `iteration`."""
    amount = advance(arg)
    element = get_element_type_or_self(amount.type)
    if iteration.type != element:
        iteration = builder.insert(arith.ExtSIOp(iteration, result_type=element)).out
    if isinstance(amount.type, TensorType):
        iteration = builder.insert(tt.SplatOp(iteration, result_type=amount.type)).result
    offset = builder.muli(iteration, amount)
    start = init_value(arg)
    if isinstance(yielded_value(arg).owner, tt.AddPtrOp):  # the loop advances a pointer
        return builder.insert(tt.AddPtrOp(start, offset)).result
    return builder.addi(start, offset)


def reverse(loop: scf.ForOp) -> None:
    """Step 3: run the loop's iterations from the last to the first."""
    iv = loop.body.args[0]
    read = bool(iv.uses)
    builder = OpBuilder(InsertPoint.before(loop), loop.location)
    one = builder.constant(1, iv.type)
    span = builder.subi(builder.subi(loop.upperBound, loop.lowerBound), one)
    last_iteration = builder.divsi(span, loop.step)
    last = builder.addi(loop.lowerBound, builder.muli(last_iteration, loop.step)) if read else None
    builder.insertion_point = InsertPoint.at_start(loop.body)
    done = builder.subi(iv, loop.lowerBound)
    if last is not None:
        reversed_iv = builder.subi(last, done)
        iv.replace_uses_with_if(reversed_iv, lambda use: use.operation is not done.owner)
    if len(loop.body.args) == 1:
        return
    reversed_iteration = builder.subi(last_iteration, builder.divsi(done, loop.step))
    for arg in loop.body.args[1:]:
        advancing = yielded_value(arg).owner  # keeps the forward chain: the loop's results stay
        value = _induction_at(builder, arg, reversed_iteration)
        arg.replace_uses_with_if(value, lambda use, advancing=advancing: use.operation is not advancing)


def version(loop: scf.ForOp, min_last_iteration: int) -> scf.ForOp:
    """`scf.if ((ub - lb - 1) / step >= min_last_iteration) { a copy of the loop } else { the
    loop }`: the copy, which runs where the loop has more than `min_last_iteration`
    iterations."""
    b = OpBuilder(InsertPoint.before(loop), loop.location)
    last_iteration = last_iteration_number(b, loop)
    long = b.cmpi(CmpIPredicate.sge, last_iteration, b.constant(min_last_iteration, last_iteration.type))
    long_version, kept = Block(), Block()
    chosen = b.insert(scf.IfOp(long, [r.type for r in loop.results], Region(long_version), Region(kept)))
    copy = loop.clone()
    long_version.add_op(copy)
    long_version.add_op(scf.YieldOp(*copy.results))
    for result, value in zip(loop.results, chosen.results, strict=True):
        result.replace_all_uses_with(value)
    loop.detach()
    kept.add_op(loop)
    kept.add_op(scf.YieldOp(*loop.results))
    return copy


def marked_accesses(loop: scf.ForOp) -> list[tt.LoadOp | tt.StoreOp]:
    """The loads and stores of `loop` that `ttpipe-l2-eviction` marked `evict_first`."""
    return [op for op in loop.walk() if isinstance(op, (tt.LoadOp, tt.StoreOp)) and L2_EVICTION_MARK in op.attributes]


def hints_for_long_rows(loop: scf.ForOp, rows_l1_bound: int) -> scf.ForOp:
    """Step 4a: the loop with `ttpipe-l2-eviction`'s hints where its rows outgrow L1, without
    them (`evict_normal`, as written) where they do not; returns the hinted version (the loop
    itself where it has no such hints, or where one iteration's rows already outgrow L1)."""
    marked = marked_accesses(loop)
    hinted = loop
    if marked and rows_l1_bound > 1:
        hinted = version(loop, rows_l1_bound - 1)
        for access in marked:
            access.evict = EVICT_NORMAL
        marked += marked_accesses(hinted)
    for access in marked:
        del access.attributes[L2_EVICTION_MARK]
    return hinted


class ReverseRereads(ModulePass):
    """Walk the loop that reads memory for the last time backwards, so its first reads are what the earlier loop read last.

    Before:

        scf.for %off = %0 to %n step %B { %x = tt.load %row[%off..] ; sums }
        scf.for %off = %0 to %n step %B { %x = tt.load %row[%off..] ; tt.store %out[%off..], %y }

    After (rows longer than L2 holds for every CTA in flight, `n_L2` iterations):

        scf.for %off = %0 to %n step %B { %x = tt.load %row[%off..] ; sums }
        scf.if ((%n - %0 - 1) / %B >= n_L2) {
          %last = (%n - %0 - 1) / %B * %B + %0
          scf.for %off = %0 to %n step %B {
            %r = %last - (%off - %0)
            %x = tt.load %row[%r..] ; tt.store %out[%r..], %y
          }
        } else { the loop as it was }

    A loop `ttpipe-l2-eviction` marked is first split by the rows L1 holds (`n_L1`): its
    hints stay in the copy run from `n_L1` iterations on (reversed within, as above), the
    loop as written (`evict_normal`) runs below.

    See `ttpipe.passes.reverse_rereads` for the algorithm.
    """

    name = "ttpipe-reverse-rereads"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        loop_rereads_bytes: dict[Operation, int] = {}
        for func in [f for f in op.walk() if isinstance(f, tt.FuncOp)]:
            for reads in last_rereads(func):
                loop = reads.last.parent_op()
                loop_rereads_bytes[loop] = loop_rereads_bytes.get(loop, 0) + tile_bytes(reads.last.result.type)
        loops = list(loop_rereads_bytes)
        if not loops:
            return  # no axis info to compute
        analysis = TileAccessAnalysis(ModuleAxisInfo(op))
        reversed_loops = [loop for loop in loops if reversible(loop, analysis)]
        for loop in loops:
            rows_bytes = loop_rereads_bytes[loop]
            hinted = hints_for_long_rows(loop, rows_l1_holds(loop, rows_bytes))
            if loop in reversed_loops:
                reverse(version(hinted, rows_l2_holds(hinted, rows_bytes)))
