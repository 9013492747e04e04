"""Re-reads: loads of a loop that read, iteration for iteration, what a load of an earlier
loop of the same block read (a row kernel's second pass over its row), and which of them
read it for the last time. `ttpipe-l2-eviction` marks the last reads; `ttpipe-reverse-rereads`
reverses the loops holding them.

Algorithm, for one `tt.func` (`last_rereads`):
  1. Pairs of loops: `scf.for`s L1, L2 of one block, L1 before L2, innermost, with the same
     lower bound, upper bound and step (the same SSA values).
  2. Re-reads: a `tt.load` X2 of L2's body reads what a `tt.load` X1 of L1's body read, in
     the same iteration, when their pointers are the same expression (`_Expressions.same`):
     L1's induction variable standing for L2's, and every value between a pointer and the
     values defined outside both loops computed by the same side-effect-free op (name,
     properties, attributes, result types) of operands that are themselves the same
     expression. Pointers the loops carry and advance match when their initial values
     and their advances do. Masks do not matter. The address must depend on the program id
     along every grid axis the function reads (`reads_per_program`): a program's last read
     of data other programs read too (a norm's weights, read by all; a head's keys, read
     by every query block of the head) is not the kernel's last.
  3. Last reads: X2 re-read by no load of a later loop (step 2 with X2 as X1), with its
     earlier reads (`Rereads`).
The analysis changes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.ir import BlockArgument, Operation, SSAValue
from xdsl.traits import is_side_effect_free

from ttpipe.dialects import scf, tt
from ttpipe.passes.common.hardware import H100_L2_BYTES, H100_SMS, SM90_L1_ROWS_BYTES, sm90_ctas_per_sm_by_warps
from ttpipe.passes.common.ir import is_before_in_block, is_outer_loop, same_bounds
from ttpipe.passes.common.target import num_warps


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


def _rows_bytes_per_sm(loop: scf.ForOp, bytes_per_iteration: int) -> int:
    """Bytes an iteration of `loop` reads on one SM: one row per CTA, as many CTAs as the
    loop's warps allow."""
    return sm90_ctas_per_sm_by_warps(num_warps(loop)) * bytes_per_iteration


def rows_l2_holds(loop: scf.ForOp, bytes_per_iteration: int) -> int:
    """The trip count up to which the rows of all CTAs in flight fit in L2 together, one row
    per CTA (as many as the loop's warps allow on each SM of an H100), `bytes_per_iteration`
    of it an iteration: rows this short are read again from L2 in any order."""
    return H100_L2_BYTES // (H100_SMS * _rows_bytes_per_sm(loop, bytes_per_iteration))


def rows_l1_holds(loop: scf.ForOp, bytes_per_iteration: int) -> int:
    """The trip count below which the rows of the CTAs on one SM (as many as the loop's
    warps allow), `bytes_per_iteration` of each an iteration, stay under
    `SM90_L1_ROWS_BYTES`: rows this short are read again from L1."""
    return -(-SM90_L1_ROWS_BYTES // _rows_bytes_per_sm(loop, bytes_per_iteration))


def same_result(earlier: tt.LoadOp, later: tt.LoadOp) -> bool:
    """A matched pair (`matched_loads`) whose loads also have the same mask and `other`, so
    that the earlier load's value is the later one's (where no store came between)."""
    expressions = _Expressions(earlier.parent_op(), later.parent_op())
    return all((a is None and b is None) or (a is not None and b is not None and expressions.same(a, b))
               for a, b in ((earlier.mask, later.mask), (earlier.other, later.other)))


@dataclass(frozen=True)
class Rereads:
    """A last read and the earlier reads of the same memory, iteration for iteration: one
    load of each earlier loop that has one, in the loops' order."""

    earlier: tuple[tt.LoadOp, ...]
    last: tt.LoadOp


def last_rereads(func: tt.FuncOp) -> list[Rereads]:
    """Steps 1-3 for one function: each re-read that no later loop reads again, with its
    earlier reads, in the order of the function."""
    loops = [op for op in func.walk() if isinstance(op, scf.ForOp) and not is_outer_loop(op)]
    grid_axes = {op.axis.value.data for op in func.walk() if isinstance(op, tt.GetProgramIdOp)}
    matches = [match for first in loops for second in loops
               if first is not second and first.parent_block() is second.parent_block()
               and is_before_in_block(first, second) and same_bounds(first, second)
               for match in matched_loads(first, second)]
    read_again = {earlier for earlier, _ in matches}
    earlier_reads: dict[tt.LoadOp, dict[Operation, tt.LoadOp]] = {}
    for earlier, later in matches:
        if reads_per_program(later, grid_axes) and later not in read_again:
            earlier_reads.setdefault(later, {}).setdefault(earlier.parent_op(), earlier)
    return [Rereads(tuple(sorted(earlier_reads[op].values(), key=lambda load: _position(load.parent_op()))), op)
            for op in func.walk() if isinstance(op, tt.LoadOp) and op in earlier_reads]


def _position(op: Operation) -> int:
    return op.parent_block().get_operation_index(op)
