"""`ttpipe-merge-reductions`: independent `tt.reduce`s of one block that each cross warps,
over operands of one shape and layout along one axis, become one `tt.reduce` of all their
operands.

Why. Triton lowers a reduction whose axis spans several warps through shared memory
(`ReduceOpToLLVM`): each warp reduces its share with shuffles and writes it, a CTA barrier,
the warps' shares are reduced, a second barrier, every thread reads the result. One op of n
operands does this once for all n: the same shuffles and shared-memory traffic, two
barriers instead of 2n, and every warp waits at them once. Loops unrolled with a reduction
in each copy make such groups: the row ring's runs of whole slots (`ttpipe-row-ring`) hold an
online softmax's max and sum of every chunk of a slot, a barrier pair each, where each
chunk's max reads only its chunk and each chunk's sum only the maxima so far.

Algorithm, for every block, walking its reductions in block order:
  1. A reduction crosses warps when a basis of the `warp` input of its operand's linear
     layout moves along the reduced axis (`crosses_warps`); others are warp-synchronous
     (shuffles only) and stay as they are.
  2. A reduction r joins an open group G (same axis, operands of G's shape and encoding)
     when the ops of the block that compute r's operands and sit after G's first member f
     (r's backward slice past f) are side-effect-free, have no regions and include no
     member of G. Those ops move before f, in their order, and r after G's last member
     (the members stay together, from f on): only pure ops move, so no memory access
     changes order, and each moved op's operands are defined before f or moved with it.
     r joins the first group, in the order the groups opened, it can join; else it opens
     one.
  3. Each group of two or more becomes one `tt.reduce` at f: the members' operands in
     order, and a combine region of the members' regions side by side (the accumulators of
     every member, then their values, as `tt.reduce` orders its region's arguments; each
     member's ops read only its own), whose results replace the members'.

Results are bit-identical: Triton's lowering reduces each operand of a reduction
separately, element for element in the same order and through the same shuffle tree,
whatever the other operands are. Cost: a group's operands are live together, and the
reduction's shared-memory scratch is the sum of its members'. Measured on the H100
(docs/measurements.md, fourteenth session): the row ring's online softmax at rows of 32768
bf16 elements 0.80 -> 0.91x copy bandwidth, its outputs bit for bit the same.

Remarks: `merged N reductions into one` at each group's first member. Preconditions: TTGIR
with distributed layouts (a reduction of another layout is left alone).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter
from xdsl.traits import is_side_effect_free

from ttpipe.dialects import tt
from ttpipe.passes.common.diagnostics import emit_remark
from ttpipe.passes.common.distributed_layouts import WARP, to_linear_layout
from ttpipe.passes.common.ir import backward_slice_in_block, is_before_in_block


def crosses_warps(reduce: tt.ReduceOp) -> bool:
    """The reduced axis spans more than one warp: Triton's lowering exchanges the warps'
    shares through shared memory between two CTA barriers (`isWarpSynchronous` is false)."""
    operand = reduce.srcs[0].type
    assert isinstance(operand, TensorType)
    layout = to_linear_layout(operand.get_shape(), operand.encoding)
    if layout is None or not layout.has_in_dim(WARP):
        return False
    axis = layout.out_dim_index(f"dim{reduce.axis.value.data}")
    return any(basis[axis] for basis in layout.in_dim_bases(WARP))


def is_movable(op: Operation) -> bool:
    """An op the pass may move earlier in its block: no memory effect, no region."""
    return not op.regions and is_side_effect_free(op)


ReductionKey = tuple[int, tuple[int, ...], Attribute]
"""What the members of a group share: the axis, the operands' shape and their layout."""


def reduction_key(reduce: tt.ReduceOp) -> ReductionKey:
    operand = reduce.srcs[0].type
    return reduce.axis.value.data, tuple(operand.get_shape()), operand.encoding


@dataclass
class ReductionGroup:
    """Reductions that will become one, the first in place, the others moved right after it."""

    key: ReductionKey
    members: list[tt.ReduceOp]

    @property
    def first(self) -> tt.ReduceOp:
        return self.members[0]

    def ops_to_move(self, reduce: tt.ReduceOp) -> list[Operation] | None:
        """The ops from the first member on that compute `reduce`'s operands, in block order,
        where all of them may move before it (none is a member); else None."""
        block = self.first.parent_block()
        past_first = [op for op in backward_slice_in_block(reduce.srcs, block)
                      if not is_before_in_block(op, self.first)]
        if any(op in self.members or not is_movable(op) for op in past_first):
            return None
        return past_first

    def take(self, reduce: tt.ReduceOp, slice_ops: list[Operation]) -> None:
        """Move `slice_ops` before the first member and `reduce` after the last one."""
        for op in slice_ops:
            op.detach()
            self.first.parent_block().insert_op_before(op, self.first)
        reduce.detach()
        last = self.members[-1]
        last.parent_block().insert_op_after(reduce, last)
        self.members.append(reduce)


def group_reductions(block: Block) -> list[ReductionGroup]:
    """Step 2 over `block`: its groups, moved into place (members adjacent, operands before)."""
    groups: list[ReductionGroup] = []
    for reduce in [op for op in block.ops if isinstance(op, tt.ReduceOp) and crosses_warps(op)]:
        key = reduction_key(reduce)
        for group in groups:
            if group.key == key and (slice_ops := group.ops_to_move(reduce)) is not None:
                group.take(reduce, slice_ops)
                break
        else:
            groups.append(ReductionGroup(key, [reduce]))
    return groups


def merged_combine(members: list[tt.ReduceOp]) -> Region:
    """Step 3's region: every member's accumulators, then every member's values, as block
    arguments; the members' ops cloned, each reading its own; their results returned in order."""
    lhs_types = [arg.type for m in members for arg in m.combineOp.block.args[:len(m.srcs)]]
    rhs_types = [arg.type for m in members for arg in m.combineOp.block.args[len(m.srcs):]]
    block = Block(arg_types=[*lhs_types, *rhs_types])
    lhs, rhs = list(block.args[:len(lhs_types)]), list(block.args[len(lhs_types):])
    returned: list[SSAValue] = []
    for member in members:
        arity = len(member.srcs)
        own = member.combineOp.block.args
        mapping: dict[SSAValue, SSAValue] = dict(zip(own, [*lhs[:arity], *rhs[:arity]]))
        del lhs[:arity], rhs[:arity]
        for arg, new in mapping.items():
            new.name_hint = arg.name_hint
        for op in member.combineOp.block.ops:
            if isinstance(op, tt.ReduceReturnOp):
                returned += [mapping[value] for value in op.result]
            else:
                block.add_op(op.clone(mapping))
    terminator = tt.ReduceReturnOp(returned)
    terminator.location = members[0].combineOp.block.last_op.location
    block.add_op(terminator)
    return Region(block)


def merge(group: ReductionGroup) -> tt.ReduceOp:
    """Step 3: one reduction in place of the group's members."""
    members = group.members
    merged = tt.ReduceOp([src for m in members for src in m.srcs], axis=group.first.axis.value.data,
                         result_types=[r.type for m in members for r in m.results], combine=merged_combine(members))
    merged.location = group.first.location
    group.first.parent_block().insert_op_before(merged, group.first)
    results = iter(merged.results)
    for member in members:
        own = [next(results) for _ in member.results]
        for old, new in zip(member.results, own):
            new.name_hint = old.name_hint
        Rewriter.replace_op(member, [], own)
    return merged


@dataclass(frozen=True)
class MergeReductions(ModulePass):
    """Merge independent reductions of one block that cross warps into one `tt.reduce` (one barrier pair for all).

    Before (an online softmax unrolled by two):

        %m0 = "tt.reduce"(%x0) ({maxnumf}) ; %n0 = arith.maxnumf %m, %m0 ; ...
        %s0 = "tt.reduce"(%e0) ({addf})
        %m1 = "tt.reduce"(%x1) ({maxnumf}) ; %n1 = arith.maxnumf %n0, %m1 ; ...
        %s1 = "tt.reduce"(%e1) ({addf})

    After:

        %m0, %m1 = "tt.reduce"(%x0, %x1) ({maxnumf, maxnumf}) ; %n0 = ... ; %n1 = ...
        %s0, %s1 = "tt.reduce"(%e0, %e1) ({addf, addf})

    See `ttpipe.passes.merge_reductions` for the algorithm.
    """

    name = "ttpipe-merge-reductions"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        blocks = [block for inner in op.walk() for region in inner.regions for block in region.blocks]
        for block in blocks:
            for group in group_reductions(block):
                if len(group.members) > 1:
                    emit_remark(group.first, f"merged {len(group.members)} reductions into one")
                    merge(group)
