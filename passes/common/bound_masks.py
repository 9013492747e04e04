"""Masks that bound a 1-D tile's offsets from above, `base + arange(start, end) < n`, read
back from the IR (`bound_of`), and accesses that lose such a mask where it holds in every
lane (`drop_mask`): `ttpipe-full-tile-versions` versions the tiles inside their bound,
`register_prefetch.unroll` drops a chunk loop's mask in its runs."""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects.builtin import TensorType
from xdsl.ir import SSAValue

from ttpipe.dialects import arith, tt
from ttpipe.dialects.arith import CmpIPredicate
from ttpipe.passes.common.ir import defining_op_through_converts, set_operand_groups

UPPER_BOUNDS = {
    CmpIPredicate.slt: (0, False), CmpIPredicate.sle: (0, True),
    CmpIPredicate.sgt: (1, False), CmpIPredicate.sge: (1, True),
}
"""A signed compare that bounds `offs` from above -> (the operand that is `offs`, whether
the bound is inclusive): `offs < n`, `offs <= n`, `n > offs`, `n >= offs`."""

MaskedAccess = tt.LoadOp | tt.StoreOp


@dataclass(frozen=True)
class Bound:
    """Every lane of `base + arange(start, last + 1)` (`start >= 0`) is below `n` (at most
    `n`: `inclusive`)."""

    base: SSAValue
    last: int
    n: SSAValue
    inclusive: bool


def lanes(value: SSAValue) -> tuple[int, int] | None:
    """(start, end) of a `tt.make_range`, seen through an `arith.extsi` and layout conversions;
    None otherwise."""
    extended = defining_op_through_converts(value, arith.ExtSIOp)
    if extended is not None:
        value = extended.in_
    make_range = defining_op_through_converts(value, tt.MakeRangeOp)
    if make_range is None:
        return None
    return make_range.start.value.data, make_range.end.value.data


def splatted_scalar(value: SSAValue) -> SSAValue | None:
    """The scalar a `tt.splat` (through layout conversions) broadcasts, or None."""
    splat = defining_op_through_converts(value, tt.SplatOp)
    return None if splat is None or isinstance(splat.src.type, TensorType) else splat.src


def bound_of(mask: SSAValue) -> Bound | None:
    """The bound a mask states: `arith.cmpi slt|sle` of `offs` and a splat of a scalar `n`
    (`sgt|sge` with the two swapped), `offs` 1-D, a splat of a scalar `base` plus a
    `tt.make_range(start, end)` with `start >= 0`, all seen through layout conversions;
    None where the mask is no such bound."""
    compare = defining_op_through_converts(mask, arith.CmpIOp)
    if compare is None or CmpIPredicate(compare.predicate.value.data) not in UPPER_BOUNDS:
        return None
    offs_index, inclusive = UPPER_BOUNDS[CmpIPredicate(compare.predicate.value.data)]
    offs, limit = (compare.lhs, compare.rhs) if offs_index == 0 else (compare.rhs, compare.lhs)
    n = splatted_scalar(limit)
    if n is None or not isinstance(offs.type, TensorType) or len(offs.type.get_shape()) != 1:
        return None
    add = defining_op_through_converts(offs, arith.AddIOp)
    if add is None:
        return None
    for base_side, range_side in ((add.lhs, add.rhs), (add.rhs, add.lhs)):
        base, span = splatted_scalar(base_side), lanes(range_side)
        if base is not None and span is not None and span[0] >= 0:
            return Bound(base, span[1] - 1, n, inclusive)
    return None


def drop_mask(access: MaskedAccess) -> None:
    """The access without its mask (a load without its `other` too)."""
    if isinstance(access, tt.LoadOp):
        set_operand_groups(access, mask=[], other=[])
    else:
        set_operand_groups(access, mask=[])
