"""`ttpipe-l2-eviction`: a kernel that reads the same memory in two loops keeps it in L2
between the reads, by marking what it will not read again `evict_first`.

A row kernel in two passes (layer norm, RMS norm, softmax written with loops: statistics,
then the output) reads each row twice. Its second read is an L2 hit only if the row's lines
survive from the first; with every access at the default priority, the lines the second
loop reads for the last time and the output it writes compete with the rows still waiting
for their second read (1056 rows in flight on an H100 at 8 CTAs per SM), and DRAM serves
part of the second read again. L2 replaces `evict_first` lines before normal ones (PTX
`createpolicy.fractional.L2::evict_first`, Triton's `evictionPolicy = evict_first` on
`tt.load` and `tt.store`): marking the last reads and the output so protects the rows in
flight.

Algorithm, for every `tt.func`:
  1. Pairs of loops: `scf.for`s L1, L2 of one block, L1 before L2, innermost, with the same
     lower bound, upper bound and step (the same SSA values).
  2. Re-reads: a `tt.load` X2 of L2's body reads what a `tt.load` X1 of L1's body read, in
     the same iteration, when their pointers are the same expression (`_Expressions.same`):
     L1's induction variable standing for L2's, and every value between a pointer and the
     values defined outside both loops computed by the same side-effect-free op (name,
     properties, attributes, result types) of operands that are themselves the same
     expression. Pointers the loops carry and advance match when their initial values
     and their advances do. Masks do not matter (a hint, not a read). The address must
     depend on the program id along every grid axis the function reads
     (`reads_per_program`): a program's last read of data other programs read too (a
     norm's weights, read by all; a head's keys, read by every query block of the head)
     is not the kernel's last, and `evict_first` there would send them to DRAM for it.
  3. Last reads: X2 re-read by no load of a later loop (step 2 with X2 as X1) gets
     `evict_first`.
  4. The output: every `tt.store` in a loop holding a last read (its body, nested regions
     included) gets `evict_first`: the pass the kernel writes its result in, which it does
     not read back.
A load or store whose eviction policy the kernel sets (anything but `evict_normal`) is left
as written: the hint is the user's. The first read keeps the default: marking it
`evict_last` measured no better (docs/measurements.md, 2026-11-26, sixth session).

Measured on the H100 (`python -m ttpipe.bench`, bf16, 8 warps, chunks of 2048, ratios in
one run; docs/measurements.md, 2026-11-26, sixth session): over rows of 8192 elements the
looped layer norm goes from 0.86x to 0.99x the copy bandwidth (1.15x stock Triton), RMS norm
to 0.98x (1.32x), online softmax to 0.92x (1.06x); rows of 32768 gain 5-9 % (0.69-0.71x
copy); rows of 131072 nothing (the rows in flight, 8 CTAs x 132 SMs x 256 KB, outgrow the
50 MB L2 at any priority).

Changes only the two properties; no op is added or moved, so every other pass sees the
same IR. Preconditions: none (TTIR or TTGIR; the hints lower on sm_80 and later).
Attributes read and written: `evict` of `tt.load` and `tt.store`.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import BlockArgument, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.traits import is_side_effect_free

from ttpipe.dialects import scf, tt
from ttpipe.dialects.tt import EvictionPolicy, enum_attr
from ttpipe.passes.common.ir import is_before_in_block, same_bounds
from ttpipe.passes.pipeline.pipelining_utility import is_outer_loop

EVICT_NORMAL = enum_attr(EvictionPolicy.evict_normal)
EVICT_FIRST = enum_attr(EvictionPolicy.evict_first)


class _Expressions:
    """Step 2's "same expression" between the bodies of two loops (`same`), remembering the
    pairs of values it proved, is proving (a carried pointer refers to itself through its
    advance) or refuted."""

    def __init__(self, first: scf.ForOp, second: scf.ForOp):
        self.first, self.second = first, second
        self.proved: set[tuple[SSAValue, SSAValue]] = {(first.body.args[0], second.body.args[0])}
        self.refuted: set[tuple[SSAValue, SSAValue]] = set()

    def same(self, a: SSAValue, b: SSAValue) -> bool:
        if a is b:
            return not self._inside(a)
        if (a, b) in self.proved:
            return True
        if (a, b) in self.refuted:
            return False
        if self._same(a, b):
            return True
        self.refuted.add((a, b))
        return False

    def _same(self, a: SSAValue, b: SSAValue) -> bool:
        if isinstance(a, BlockArgument) or isinstance(b, BlockArgument):
            return self._same_carried(a, b)
        op_a, op_b = a.owner, b.owner
        assert isinstance(op_a, Operation) and isinstance(op_b, Operation)
        if not (self._same_op(op_a, op_b) and a.index == b.index):
            return False
        self.proved.add((a, b))
        if all(self.same(x, y) for x, y in zip(op_a.operands, op_b.operands, strict=True)):
            return True
        self.proved.discard((a, b))
        return False

    def _inside(self, value: SSAValue) -> bool:
        """`value` is defined in one of the two loops (so it differs from iteration to iteration)."""
        block = value.owner.parent_block() if isinstance(value.owner, Operation) else value.owner
        parent = block.parent_op() if block is not None else None
        return parent is not None and any(loop.is_ancestor(parent) for loop in (self.first, self.second))

    def _same_op(self, a: Operation, b: Operation) -> bool:
        return (a.name == b.name and not a.regions and not b.regions and is_side_effect_free(a)
                and a.properties == b.properties and a.attributes == b.attributes
                and len(a.operands) == len(b.operands)
                and [r.type for r in a.results] == [r.type for r in b.results])

    def _same_carried(self, a: SSAValue, b: SSAValue) -> bool:
        """Iteration arguments of the two loops at the same position, with the same initial
        value and the same update."""
        if not (isinstance(a, BlockArgument) and isinstance(b, BlockArgument) and a.index == b.index and a.index > 0
                and a.block is self.first.body and b.block is self.second.body):
            return False
        position = a.index - 1
        if not self.same(self.first.initArgs[position], self.second.initArgs[position]):
            return False
        before = set(self.proved)
        self.proved.add((a, b))  # assumed while its update is compared (the update reads it)
        first_yield, second_yield = self.first.body.last_op, self.second.body.last_op
        if self.same(first_yield.operands[position], second_yield.operands[position]):
            return True
        self.proved = before  # what was proved assuming it no longer holds
        return False


def _loads(loop: scf.ForOp) -> list[tt.LoadOp]:
    return [op for op in loop.body.ops if isinstance(op, tt.LoadOp)]


def program_axes(value: SSAValue) -> set[int]:
    """The grid axes whose `tt.get_program_id` `value` depends on (through the ops computing
    it and the loops carrying it: their starts, advances and, for an induction variable, its
    lower bound and step)."""
    axes: set[int] = set()
    seen: set[SSAValue] = set()
    pending = [value]
    while pending:
        current = pending.pop()
        if current in seen:
            continue
        seen.add(current)
        owner = current.owner
        if isinstance(owner, tt.GetProgramIdOp):
            axes.add(owner.axis.value.data)
        elif isinstance(owner, Operation):
            pending.extend(owner.operands)
        elif isinstance(loop := owner.parent_op(), scf.ForOp) and owner is loop.body:
            if current.index == 0:  # the induction variable (a persistent kernel's row loop)
                pending += [loop.lowerBound, loop.step]
            else:
                pending += [loop.initArgs[current.index - 1], loop.body.last_op.operands[current.index - 1]]
    return axes


def reads_per_program(load: tt.LoadOp, grid_axes: set[int]) -> bool:
    """The load's address depends on every grid axis the function reads (`grid_axes`): what
    it reads is the program's own (its row), not data other programs read too (a norm's
    weights, read by all; a head's keys, read by every query block of the head)."""
    return bool(grid_axes) and grid_axes <= program_axes(load.ptr)


def matched_loads(first: scf.ForOp, second: scf.ForOp) -> list[tuple[tt.LoadOp, tt.LoadOp]]:
    """Step 2's pairs (X1, X2): a load of `first` and a load of `second` reading the same
    memory, iteration for iteration."""
    expressions = _Expressions(first, second)
    return [(earlier, later) for later in _loads(second) for earlier in _loads(first)
            if expressions.same(earlier.ptr, later.ptr)]


@dataclass
class EvictionPlan:
    """What `plan` marks `evict_first` in one function (steps 3 and 4)."""

    last_reads: list[tt.LoadOp]
    outputs: list[tt.StoreOp]


def plan(func: tt.FuncOp) -> EvictionPlan:
    """Steps 1-4 for one function: the loads and stores to mark."""
    loops = [op for op in func.walk() if isinstance(op, scf.ForOp) and not is_outer_loop(op)]
    grid_axes = {op.axis.value.data for op in func.walk() if isinstance(op, tt.GetProgramIdOp)}
    matches = [match for first in loops for second in loops
               if first is not second and first.parent_block() is second.parent_block()
               and is_before_in_block(first, second) and same_bounds(first, second)
               for match in matched_loads(first, second)]
    rereads = {later for _, later in matches if reads_per_program(later, grid_axes)}
    read_again = {earlier for earlier, _ in matches}
    last_reads = [load for load in rereads if load not in read_again]
    holding = {load.parent_op() for load in last_reads}
    outputs = [op for loop in loops if loop in holding for op in loop.walk() if isinstance(op, tt.StoreOp)]
    return EvictionPlan([op for op in last_reads if op.evict == EVICT_NORMAL],
                        [op for op in outputs if op.evict == EVICT_NORMAL])


class L2Eviction(ModulePass):
    """Keep memory a kernel reads in two loops in L2 between the reads: the last reads and the output evict_first.

    Before:

        scf.for %off = %0 to %n step %B { %x = tt.load %row[%off..] ; sums }
        scf.for %off = %0 to %n step %B { %x = tt.load %row[%off..] ; tt.store %out[%off..], %y }

    After:

        scf.for %off = %0 to %n step %B { %x = tt.load %row[%off..] ; sums }
        scf.for %off = %0 to %n step %B {
          %x = tt.load %row[%off..] evictionPolicy = evict_first
          tt.store %out[%off..], %y evictionPolicy = evict_first
        }

    See `ttpipe.passes.l2_eviction` for the algorithm.
    """

    name = "ttpipe-l2-eviction"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for func in [f for f in op.walk() if isinstance(f, tt.FuncOp)]:
            marked = plan(func)
            for access in [*marked.last_reads, *marked.outputs]:
                access.evict = EVICT_FIRST
