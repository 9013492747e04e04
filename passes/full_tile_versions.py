"""`ttpipe-full-tile-versions`: the masked loads and stores of a tile that lies wholly inside
its bound run in a version of their own without the mask, so that Triton's lowering gives
them the vector width their pointers allow.

Why. Triton's lowering (`LoadStoreOpToLLVM`) issues a masked access in vectors of
`min(contiguity of the pointer, constancy of the mask)` elements. A bound mask `offs < n`,
`offs = base + tl.arange(0, B)`, is constant over runs as long as the power of two that
divides `n` (AxisInfo's `arith.cmpi` rule), and the JIT specializes an integer argument
only for multiples of 16. For an odd `n` every element is its own access: one 2-byte load
or store per bf16 element, where a tile with no mask is read 16 bytes a thread at a time.
Every tile but the last lies wholly inside the bound, yet all of them run at the scalar
rate. Measured on the H100 (docs/measurements.md, twenty-fifth session), bf16 `x * s + b`
over 2^28 + 77 elements: a block a program 0.90 -> 2.99 TB/s (stock 0.90, the copy
bandwidth 2.97), a grid-stride loop 1.57 -> 2.87 TB/s.

Algorithm, on the final TTGIR, for every block that is a function's body or an `scf.for`'s:
  1. Candidates: the block's own `tt.load`s and `tt.store`s (not those nested in its ops)
     whose mask is a bound mask (`common.bound_masks.bound_of`): `arith.cmpi slt|sle` of
     `offs` and a splat of a scalar `n`, or `sgt|sge` with the two swapped, looked at
     through `ttg.convert_layout`s; `offs` is 1-D, a splat of a scalar `base` plus
     `tt.make_range(start, end)` with `start >= 0` (through an `arith.extsi` of the range
     for 64-bit offsets).
  2. Profit: an access pays where the vector its pointer allows (`ModuleAxisInfo.contiguity`,
     what the lowering starts from) is wider than its mask allows (`mask_alignment`).
  3. The paying accesses are grouped by bound (base, end - 1, n, `<` or `<=`), and each
     group is versioned in turn, the largest first (among equals, the one whose first
     access comes first). A group's version holds the other groups' accesses of its span,
     masked in both branches; those left in the block form the next groups (a loop unrolled
     by two: one version per copy of the body).
  4. The span: the ops of the block from the group's first access to its last. Before it,
     the condition that the bound holds on every lane, in the offsets' integer type:
     `base <= MAX - (end - 1)` (no lane's offset wraps) and `base + (end - 1) < n` (`<=` for
     `sle`). Where it holds, every lane of the group's masks is true; where it fails, the
     span runs as written.
  5. `scf.if` (condition) { the span cloned, the group's accesses without their masks (and
     the loads without `other`) } else { the span as it was }, yielding the span's values
     that ops after it read, which then read the `scf.if`'s results.

Both versions compute the same values where the condition holds: a load with an all-true
mask reads what it reads without one, a store writes what it writes. The code of the span
is doubled; the condition is a few scalar ops and one uniform branch per block run.

Left alone: spans holding asynchronous ops (`ttng`'s, `ttg`'s async copies and waits,
`ttg.warp_specialize`): their protocols belong to the pipeliner and the partitions and are
not doubled. Masks that combine a bound with other conditions (`&`), 2-D offsets and
unsigned bounds are not matched.

Remarks, in program order: `unmasked in a version of their own where the tile lies inside
the bound: N accesses` at each versioned group's first access.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import IntegerType, ModuleOp, TensorType
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint

from ttpipe.dialects import scf, tt, ttg
from ttpipe.dialects.arith import CmpIPredicate
from ttpipe.passes.analysis.axis_info import ModuleAxisInfo
from ttpipe.passes.common.bound_masks import Bound, MaskedAccess, bound_of, drop_mask
from ttpipe.passes.common.builder import OpBuilder
from ttpipe.passes.common.diagnostics import emit_remark
from ttpipe.passes.common.ir import ancestor_in_block

ASYNC_OPS = (ttg.AsyncCopyGlobalToLocalOp, ttg.AsyncCommitGroupOp, ttg.AsyncWaitOp, ttg.WarpSpecializeOp)
"""`ttg`'s asynchronous ops; every `ttng` op is asynchronous or pairs with one."""


def pays(access: MaskedAccess, axis_info: ModuleAxisInfo) -> bool:
    """Step 2: the mask narrows the vector the pointer allows."""
    return axis_info.contiguity(access.ptr) > axis_info.mask_alignment(access.mask)


def is_async(op: Operation) -> bool:
    return isinstance(op, ASYNC_OPS) or type(op).dialect_name() == "ttng"


def bounded_accesses(block: Block) -> list[tuple[MaskedAccess, Bound]]:
    """Step 1 for one block: its own masked accesses of tensors whose mask is a bound."""
    found = []
    for op in block.ops:
        if isinstance(op, (tt.LoadOp, tt.StoreOp)) and op.mask is not None and isinstance(op.ptr.type, TensorType):
            bound = bound_of(op.mask)
            if bound is not None:
                found.append((op, bound))
    return found


def paying_groups(block: Block, axis_info: ModuleAxisInfo) -> list[tuple[Bound, list[MaskedAccess]]]:
    """Steps 1-3 for one block: its paying accesses by bound, each group in block order, the
    groups largest first (among equals, in the order of their first accesses)."""
    groups: dict[Bound, list[MaskedAccess]] = defaultdict(list)
    for access, bound in bounded_accesses(block):
        if pays(access, axis_info):
            groups[bound].append(access)
    return sorted(groups.items(), key=lambda item: -len(item[1]))


def span_of(block: Block, accesses: list[MaskedAccess]) -> list[Operation]:
    first, last = block.get_operation_index(accesses[0]), block.get_operation_index(accesses[-1])
    return list(block.ops)[first:last + 1]


def inside_condition(b: OpBuilder, bound: Bound) -> SSAValue:
    """Step 4: every lane's offset is inside the bound, with no lane's offset wrapping."""
    offset_type = bound.base.type
    assert isinstance(offset_type, IntegerType)
    largest_base = (1 << (offset_type.width.data - 1)) - 1 - bound.last
    no_wrap = b.cmpi(CmpIPredicate.sle, bound.base, b.constant(largest_base, offset_type))
    last_lane = b.addi(bound.base, b.constant(bound.last, offset_type))
    inside = b.cmpi(CmpIPredicate.sle if bound.inclusive else CmpIPredicate.slt, last_lane, bound.n)
    return b.andi(no_wrap, inside)


def version(block: Block, bound: Bound, accesses: list[MaskedAccess], span: list[Operation]) -> scf.IfOp:
    """Steps 4-5: the span behind `scf.if` (every lane inside) { unmasked } else { as it was }."""
    in_span = set(span)
    uses_after = [(result, use) for op in span for result in op.results for use in result.uses
                  if ancestor_in_block(block, use.operation) not in in_span]
    read_after = list(dict.fromkeys(result for result, _ in uses_after))
    b = OpBuilder(InsertPoint.before(accesses[0]), accesses[0].location)
    condition = inside_condition(b, bound)
    unmasked, as_written = Block(), Block()
    mapping: dict[SSAValue, SSAValue] = {}
    for op in span:
        clone = op.clone(mapping)
        if op in accesses:
            drop_mask(clone)
        unmasked.add_op(clone)
    unmasked.add_op(scf.YieldOp(*[mapping[value] for value in read_after]))
    unmasked.last_op.location = accesses[-1].location
    guarded = b.insert(scf.IfOp(condition, [value.type for value in read_after], Region(unmasked),
                                Region(as_written)))
    for op in span:
        op.detach()
        as_written.add_op(op)
    as_written.add_op(scf.YieldOp(*read_after))
    as_written.last_op.location = accesses[-1].location
    for result, value in zip(guarded.res, read_after):
        result.name_hint = value.name_hint
    for value, use in uses_after:
        use.operation.operands[use.index] = guarded.res[read_after.index(value)]
    return guarded


def versionable_blocks(module: ModuleOp) -> list[Block]:
    """Function and loop bodies, inner ones first: a loop versioned inside a span is then
    cloned with its versions into the span's unmasked version."""
    ops = list(module.walk())
    return [op.body for op in reversed(ops) if isinstance(op, scf.ForOp)] + \
        [block for op in ops if isinstance(op, tt.FuncOp) for block in op.body.blocks]


@dataclass(frozen=True)
class FullTileVersions(ModulePass):
    """Masked accesses of tiles wholly inside their bound run unmasked in a version of their own (full vectors).

    Before (n odd: the mask's runs are one element long, so is every access):

        %offs = arith.addi %base_splat, %range : tensor<1024xi32>
        %in = arith.cmpi slt, %offs, %n_splat : tensor<1024xi32>
        %x = tt.load %ptrs, %in, %zero : tensor<1024x!tt.ptr<bf16>>
        tt.store %out_ptrs, %y, %in : tensor<1024x!tt.ptr<bf16>>

    After:

        %ok = (%base <= 2147483647 - 1023) and (%base + 1023 < %n)
        scf.if %ok {
          %x = tt.load %ptrs : tensor<1024x!tt.ptr<bf16>>
          tt.store %out_ptrs, %y : tensor<1024x!tt.ptr<bf16>>
        } else {
          (the accesses as they were)
        }

    See `ttpipe.passes.full_tile_versions` for the algorithm.
    """

    name = "ttpipe-full-tile-versions"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        blocks = versionable_blocks(op)
        if not any(bounded_accesses(block) for block in blocks):
            return  # no bound mask: the axis analysis is not worth running
        axis_info = ModuleAxisInfo(op)
        program_order = {inner: index for index, inner in enumerate(op.walk())}
        versioned: list[tuple[MaskedAccess, int]] = []
        for block in blocks:
            refused: set[Bound] = set()
            while groups := [group for group in paying_groups(block, axis_info) if group[0] not in refused]:
                bound, accesses = groups[0]
                span = span_of(block, accesses)
                if any(is_async(inner) for spanned in span for inner in spanned.walk()):
                    refused.add(bound)
                    continue
                version(block, bound, accesses, span)
                versioned.append((accesses[0], len(accesses)))
        for first, count in sorted(versioned, key=lambda item: program_order[item[0]]):
            emit_remark(first, f"unmasked in a version of their own where the tile lies inside the bound: "
                               f"{count} access{'es' if count > 1 else ''}")
