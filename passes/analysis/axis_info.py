"""Axis info: per dimension of an integer or pointer value, how long its runs of contiguous
values are, what power of two divides the first value of each run, and how long its runs
of equal values are. The pipeliner reads it to size loads (`cp.async` copies 4, 8 or 16
bytes), the lowering to size async copies.

Follows Triton 3.6 `lib/Analysis/AxisInfo.cpp` and `include/triton/Analysis/AxisInfo.h`:
the same lattice (`AxisInfo`), the same transfer function per op, hints from `tt.contiguity`,
`tt.divisibility` and `tt.constancy` on function arguments and on ops, a fixed point over
`scf.for`/`scf.while` iteration arguments, and `ModuleAxisInfoAnalysis`'s queries
(`getContiguity`, `getAlignment`, `getMaskAlignment`).

Differences:
- MLIR's sparse data-flow solver is replaced by a round-robin walk in program order until
  nothing changes; the lattice and its join are the same, so is the fixed point. Where the
  solver's visiting order shows through, it is approximated: a result of `scf.for`,
  `scf.if` or `scf.while` read by an op in the same block is joined with its entry state
  (so it carries no constant value), as Triton's solver does because it visits those
  users before it knows the loop's or branch's predecessors (`_reads_early`).
- Dead code: only an `scf.if` or `cf.cond_br` whose condition is an `arith.constant` has
  a dead branch (Triton's solver also folds constant conditions computed by other ops).
  A function's blocks are visited when reachable from its entry block; a `cf.br` or
  `cf.cond_br` joins the operands it passes into its successor's arguments (other
  terminators with successors give them the pessimistic state).
- Calls are followed as in Triton: callers are solved first, and what each call site
  passes is joined into the callee's argument attributes (which changes the IR, as
  Triton's analysis does).
- `tt.reduce`, `tt.scan` and other ops with regions that are not branches get the
  pessimistic state for their block arguments and results, as in Triton; of the gluon and
  AMD ops only `ttg.warp_specialize` captures are followed.
"""

from __future__ import annotations

from math import gcd
from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.dialects.builtin import (
    ArrayAttr,
    DictionaryAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    TensorType,
    i64,
)
from xdsl.ir import Attribute, Block, BlockArgument, Operation, SSAValue

from ttpipe.dialects import arith, cf, scf, tt, ttg
from ttpipe.dialects.builtin import DenseElementsAttr
from ttpipe.dialects.ub import PoisonOp
from ttpipe.passes.common.arith_canonicalize import trunc_div
from ttpipe.passes.common.distributed_layouts import REGISTER, layout_order, to_linear_layout
from ttpipe.passes.common.mma_layouts import element_bit_width

MAX_DIVISOR = 1 << 62
"""`highestPowOf2Divisor<int64_t>(0)`: what divides 0, and the "unknown" lattice value."""

HINTS = ("tt.contiguity", "tt.divisibility", "tt.constancy")
"""Attributes that override what the analysis derives, on function arguments and ops."""

_INT64 = 1 << 64


@dataclass(frozen=True)
class AxisInfo:
    """One value's lattice element; rank 0 means "not yet known" (Triton's `AxisInfo()`)."""

    contiguity: tuple[int, ...] = ()
    divisibility: tuple[int, ...] = ()
    constancy: tuple[int, ...] = ()
    constant_value: int | None = None

    @property
    def rank(self) -> int:
        return len(self.contiguity)

    @staticmethod
    def join(lhs: AxisInfo, rhs: AxisInfo) -> AxisInfo:
        """The gcd of both, dimension by dimension; the constant only where both agree."""
        if lhs.rank == 0:
            return rhs
        if rhs.rank == 0:
            return lhs
        dims = range(lhs.rank)
        constant = lhs.constant_value if lhs.constant_value == rhs.constant_value else None
        return AxisInfo(tuple(gcd(lhs.contiguity[d], rhs.contiguity[d]) for d in dims),
                        tuple(_divisibility_from_contiguity(lhs, rhs, d) for d in dims),
                        tuple(gcd(lhs.constancy[d], rhs.constancy[d]) for d in dims),
                        constant)


def highest_pow2_divisor(n: int) -> int:
    """`highestPowOf2Divisor<int64_t>`: 0 and INT64_MIN give the maximal divisor."""
    return MAX_DIVISOR if n in (0, -(1 << 63)) else n & -n


def _multiply_divisor(lhs: int, rhs: int) -> int:
    return MAX_DIVISOR if lhs > MAX_DIVISOR // rhs else lhs * rhs


def _i64(value: int) -> int:
    """Wrap to a signed 64-bit integer, as Triton's `int64_t` arithmetic does."""
    value %= _INT64
    return value - _INT64 if value >= _INT64 // 2 else value


def _u32(value: int) -> int:
    """Truncate to `unsigned`, as the C++ queries' return types do."""
    return value & 0xFFFFFFFF


def _divisibility_from_contiguity(lhs: AxisInfo, rhs: AxisInfo, d: int) -> int:
    """`getDivisibilityFromContiguity`: runs of different lengths also bound divisibility."""
    lc, rc = lhs.contiguity[d], rhs.contiguity[d]
    if lc == rc or lc == MAX_DIVISOR or rc == MAX_DIVISOR:
        return gcd(lhs.divisibility[d], rhs.divisibility[d])
    return gcd(lhs.divisibility[d], rhs.divisibility[d], lc, rc)


def _shape(type_: Attribute) -> tuple[int, ...] | None:
    return tuple(type_.get_shape()) if isinstance(type_, TensorType) else None


def _rank_of(type_: Attribute) -> int:
    if isinstance(type_, TensorType):
        return len(type_.get_shape())
    if isinstance(type_, tt.PointerType) and isinstance(type_.pointeeType, TensorType):
        return len(type_.pointeeType.get_shape())
    return 1


def _zext(value: int, type_: Attribute) -> int:
    """`APInt::getZExtValue` of a `value` of `type_`, read back as `int64_t`."""
    width = type_.width.data if isinstance(type_, IntegerType) else 64
    return _i64(value & ((1 << width) - 1))


def _hint(attr: Attribute | None) -> tuple[int, ...] | None:
    """`initDimVectorFromHint`: an integer gives one dimension, a dense array one per element."""
    if isinstance(attr, IntegerAttr):
        return (_zext(attr.value.data, attr.type),)
    if isinstance(attr, DenseElementsAttr):
        return tuple(int(v) for v in attr.values())
    return None


def _with_hints(info: AxisInfo, attrs: dict[str, Attribute]) -> AxisInfo:
    contiguity, divisibility, constancy = (_hint(attrs.get(name)) for name in HINTS)
    return AxisInfo(contiguity or info.contiguity, divisibility or info.divisibility,
                    constancy or info.constancy, info.constant_value)


def _pessimistic(value: SSAValue) -> AxisInfo:
    """`AxisInfo::getPessimisticValueState`: nothing known, except what hints say; the
    arguments and results of control flow start "unknown" (the maximal divisor)."""
    rank = _rank_of(value.type)
    ones = (1,) * rank
    unknown = AxisInfo((MAX_DIVISOR,) * rank, (MAX_DIVISOR,) * rank, (MAX_DIVISOR,) * rank)
    if isinstance(value, BlockArgument):
        parent = value.block.parent_op()
        entry = value.block.parent is not None and value.block.parent.blocks.first is value.block
        if entry and isinstance(parent, tt.FuncOp):
            attrs = parent.arg_attrs.data[value.index].data if parent.arg_attrs is not None else {}
            return _with_hints(AxisInfo(ones, ones, ones), dict(attrs))
        if entry and isinstance(parent, _CONTROL_FLOW):
            return unknown
        return AxisInfo(ones, ones, ones)
    op = value.owner
    base = unknown if isinstance(op, _CONTROL_FLOW) else AxisInfo(ones, ones, ones)
    return _with_hints(base, op.attributes)


# ------------------------------------------------------------------ transfer functions
# One function per op family, `(op, operand infos) -> AxisInfo`; rank 0 means "unknown",
# which sets the results to their pessimistic state.


def _binary(op: Operation, lhs: AxisInfo, rhs: AxisInfo, contiguity, divisibility, constancy=None,
            constant=None) -> AxisInfo:
    """`BinaryOpVisitorImpl::getAxisInfo`: a known constant result fixes everything."""
    rank = lhs.rank
    value = constant(op, lhs, rhs) if constant is not None else None
    shape = _shape(op.results[0].type)
    if value is not None:
        return AxisInfo((1,) * rank, (highest_pow2_divisor(value),) * rank,
                        shape if shape is not None else (1,) * rank, value)
    constancy = constancy or _default_constancy
    dims = range(rank)
    return AxisInfo(tuple(contiguity(op, lhs, rhs, d) for d in dims),
                    tuple(divisibility(op, lhs, rhs, d) for d in dims),
                    tuple(constancy(op, lhs, rhs, d) for d in dims))


def _one(op, lhs, rhs, d) -> int:
    return 1


def _default_constancy(op, lhs, rhs, d) -> int:
    return gcd(lhs.constancy[d], rhs.constancy[d])


def _both_constant(lhs: AxisInfo, rhs: AxisInfo) -> bool:
    return lhs.constant_value is not None and rhs.constant_value is not None


def _pointee_bit_width(type_: Attribute) -> int:
    """`getPointeeBitWidth` of a pointer or tensor of pointers."""
    if isinstance(type_, TensorType):
        type_ = type_.get_element_type()
    pointee = type_.pointeeType
    if isinstance(pointee, TensorType):
        pointee = pointee.get_element_type()
    return _bit_width(pointee)


def _bit_width(type_: Attribute) -> int:
    if isinstance(type_, IntegerType):
        return type_.width.data
    if isinstance(type_, IndexType):
        return 64
    return element_bit_width(type_)


def _add_sub(op: Operation, infos: Sequence[AxisInfo]) -> AxisInfo:
    lhs, rhs = infos
    is_sub = isinstance(op, arith.SubIOp)
    elem_size = max(1, _pointee_bit_width(op.ptr.type) // 8) if isinstance(op, tt.AddPtrOp) else 1

    def contiguity(op, lhs, rhs, d):
        # Contiguity assumes increasing sequences: a contiguous subtrahend breaks it.
        if is_sub:
            return gcd(lhs.contiguity[d], rhs.constancy[d])
        return max(gcd(lhs.constancy[d], rhs.contiguity[d]), gcd(lhs.contiguity[d], rhs.constancy[d]))

    def divisibility(op, lhs, rhs, d):
        # An address offset counts elements; its divisibility is in bytes.
        return gcd(lhs.divisibility[d], _multiply_divisor(rhs.divisibility[d], elem_size))

    def constant(op, lhs, rhs):
        if not _both_constant(lhs, rhs):
            return None
        if is_sub:
            return _i64(lhs.constant_value - rhs.constant_value)
        return _i64(lhs.constant_value + rhs.constant_value * elem_size)

    return _binary(op, lhs, rhs, contiguity, divisibility, constant=constant)


def _mul(op: Operation, infos: Sequence[AxisInfo]) -> AxisInfo:
    lhs, rhs = infos

    def contiguity(op, lhs, rhs, d):
        lhs_contiguity = lhs.contiguity[d] if rhs.constant_value == 1 else 1
        rhs_contiguity = rhs.contiguity[d] if lhs.constant_value == 1 else 1
        return max(lhs_contiguity, rhs_contiguity)

    def divisibility(op, lhs, rhs, d):
        # [2^n, 2^n + 1, ...] is divisible by 1, not 2^n, once scaled.
        lhs_div = 1 if lhs.contiguity[d] > 1 and rhs.constant_value != 1 else lhs.divisibility[d]
        rhs_div = 1 if rhs.contiguity[d] > 1 and lhs.constant_value != 1 else rhs.divisibility[d]
        return _multiply_divisor(lhs_div, rhs_div)

    def constant(op, lhs, rhs):
        if _both_constant(lhs, rhs):
            return _i64(lhs.constant_value * rhs.constant_value)
        if lhs.constant_value == 0 or rhs.constant_value == 0:
            return 0
        return None

    return _binary(op, lhs, rhs, contiguity, divisibility, constant=constant)


def _div(op: Operation, infos: Sequence[AxisInfo]) -> AxisInfo:
    lhs, rhs = infos
    shape = _shape(op.results[0].type)

    def contiguity(op, lhs, rhs, d):
        return lhs.contiguity[d] if rhs.constant_value == 1 else 1

    def constancy(op, lhs, rhs, d):
        result = _default_constancy(op, lhs, rhs, d)
        if shape is not None and lhs.contiguity[d] == shape[d] and rhs.constancy[d] == shape[d]:
            result = max(result, gcd(lhs.contiguity[d], lhs.divisibility[d], rhs.divisibility[d]))
        return result

    def divisibility(op, lhs, rhs, d):
        if lhs.constant_value == 0 or rhs.constant_value == 1:
            return lhs.divisibility[d]
        value = rhs.constant_value
        if value is not None and value != 0 and abs(value) & (abs(value) - 1) == 0 and lhs.contiguity[d] == 1:
            return max(1, lhs.divisibility[d] // abs(value))
        return 1

    def constant(op, lhs, rhs):
        if _both_constant(lhs, rhs) and rhs.constant_value != 0:
            return trunc_div(lhs.constant_value, rhs.constant_value)
        return None

    return _binary(op, lhs, rhs, contiguity, divisibility, constancy, constant)


def _rem(op: Operation, infos: Sequence[AxisInfo]) -> AxisInfo:
    lhs, rhs = infos
    shape = _shape(op.results[0].type)

    def contiguity(op, lhs, rhs, d):
        if shape is not None and lhs.contiguity[d] == shape[d] and rhs.constancy[d] == shape[d]:
            return gcd(lhs.contiguity[d], lhs.divisibility[d], rhs.divisibility[d])
        return 1

    def divisibility(op, lhs, rhs, d):
        return gcd(lhs.divisibility[d], rhs.divisibility[d]) if rhs.constancy[d] > 1 else 1

    def constancy(op, lhs, rhs, d):
        if shape is not None and rhs.constant_value == 1:
            return shape[d]
        return _default_constancy(op, lhs, rhs, d)

    def constant(op, lhs, rhs):
        if _both_constant(lhs, rhs) and rhs.constant_value != 0:
            a, b = lhs.constant_value, rhs.constant_value
            return a - b * trunc_div(a, b)
        if rhs.constant_value == 1:
            return 0
        return None

    return _binary(op, lhs, rhs, contiguity, divisibility, constancy, constant)


def _logical(op: Operation, infos: Sequence[AxisInfo]) -> AxisInfo:
    lhs, rhs = infos
    combine = {arith.AndIOp: int.__and__, arith.OrIOp: int.__or__, arith.XOrIOp: int.__xor__}[type(op)]

    def constant(op, lhs, rhs):
        return combine(lhs.constant_value, rhs.constant_value) if _both_constant(lhs, rhs) else None

    return _binary(op, lhs, rhs, _one, _one, constant=constant)


def _shift(op: Operation, infos: Sequence[AxisInfo]) -> AxisInfo:
    lhs, rhs = infos
    left = isinstance(op, arith.ShLIOp)

    def contiguity(op, lhs, rhs, d):
        return lhs.contiguity[d] if rhs.constant_value == 0 else 1

    def divisibility(op, lhs, rhs, d):
        if not left and rhs.constant_value is None:
            return 1
        shift = rhs.constant_value or 0
        if not 0 <= shift < 63:
            return 1
        lhs_div = 1 if lhs.contiguity[d] > 1 and shift else lhs.divisibility[d]
        return _multiply_divisor(lhs_div, 1 << shift) if left else max(1, lhs_div // (1 << shift))

    def constant(op, lhs, rhs):
        if not _both_constant(lhs, rhs) or not 0 <= rhs.constant_value < 64:
            return None
        return _i64(lhs.constant_value << rhs.constant_value) if left else lhs.constant_value >> rhs.constant_value

    return _binary(op, lhs, rhs, contiguity, divisibility, constant=constant)


def _max_min(op: Operation, infos: Sequence[AxisInfo]) -> AxisInfo:
    lhs, rhs = infos
    rank = lhs.rank
    if _both_constant(lhs, rhs):
        pick = max if isinstance(op, (arith.MaxSIOp, arith.MaxUIOp)) else min
        value = pick(lhs.constant_value, rhs.constant_value)
        shape = _shape(op.results[0].type)
        return AxisInfo((1,) * rank, (highest_pow2_divisor(value),) * rank,
                        shape if shape is not None else (1,) * rank, value)
    dims = range(rank)
    return AxisInfo(tuple(gcd(lhs.contiguity[d], rhs.contiguity[d]) for d in dims),
                    tuple(_divisibility_from_contiguity(lhs, rhs, d) for d in dims),
                    tuple(gcd(lhs.constancy[d], rhs.constancy[d]) for d in dims))


_PREDICATES = {p.value: p.name for p in arith.CmpIPredicate}


def _compare(predicate: str, lhs: int, rhs: int) -> bool:
    if predicate.startswith("u"):
        lhs, rhs = lhs % _INT64, rhs % _INT64
    return {"eq": lhs == rhs, "ne": lhs != rhs, "slt": lhs < rhs, "sle": lhs <= rhs, "sgt": lhs > rhs,
            "sge": lhs >= rhs, "ult": lhs < rhs, "ule": lhs <= rhs, "ugt": lhs > rhs, "uge": lhs >= rhs}[predicate]


def _cmp(op: arith.CmpIOp, infos: Sequence[AxisInfo]) -> AxisInfo:
    shape = _shape(op.result.type)
    if shape is None:
        return AxisInfo()
    lhs, rhs = infos
    predicate = _PREDICATES[op.predicate.value.data]
    contiguity, divisibility, constancy = [], [], []
    constant = None
    for d in range(len(shape)):
        if _both_constant(lhs, rhs):
            hint = shape[d]
            constant = int(_compare(predicate, lhs.constant_value, rhs.constant_value))
        else:
            hint = gcd(lhs.constancy[d], rhs.constancy[d])
            if predicate[1:] in ("gt", "le") and lhs.constancy[d] == shape[d]:
                # A constant lhs against a contiguous rhs flips at most once per run.
                hint = max(hint, gcd(rhs.contiguity[d], lhs.divisibility[d], rhs.divisibility[d]))
            elif predicate[1:] in ("lt", "ge") and rhs.constancy[d] == shape[d]:
                hint = max(hint, gcd(lhs.contiguity[d], lhs.divisibility[d], rhs.divisibility[d]))
        constancy.append(hint)
        divisibility.append(1)
        contiguity.append(1)
    return AxisInfo(tuple(contiguity), tuple(divisibility), tuple(constancy), constant)


def _select(op: arith.SelectOp, infos: Sequence[AxisInfo]) -> AxisInfo:
    cond, lhs, rhs = infos
    if cond.constant_value is not None:
        return rhs if cond.constant_value == 0 else lhs
    scalar_condition = isinstance(op.condition.type, IntegerType)
    dims = range(lhs.rank)
    if scalar_condition:
        constancy = tuple(gcd(lhs.constancy[d], rhs.constancy[d]) for d in dims)
        contiguity = tuple(gcd(lhs.contiguity[d], rhs.contiguity[d]) for d in dims)
    else:
        constancy = tuple(gcd(lhs.constancy[d], rhs.constancy[d], cond.constancy[d]) for d in dims)
        contiguity = tuple(gcd(lhs.contiguity[d], rhs.contiguity[d], cond.constancy[d]) for d in dims)
    divisibility = tuple(_divisibility_from_contiguity(lhs, rhs, d) for d in dims)
    constant = lhs.constant_value if _both_constant(lhs, rhs) and lhs.constant_value == rhs.constant_value \
        else None
    if constant is not None:
        shape = _shape(op.result.type)
        constancy = shape if shape is not None else (1,) * lhs.rank
    return AxisInfo(contiguity, divisibility, constancy, constant)


def _cast(op: Operation, infos: Sequence[AxisInfo]) -> AxisInfo:
    return infos[0]


def _make_range(op: tt.MakeRangeOp, infos: Sequence[AxisInfo]) -> AxisInfo:
    # `start` is unsigned 32-bit in Triton: 0 is divisible by 2^30 there, not 2^62.
    start, end = op.start.value.data, op.end.value.data
    return AxisInfo((end - start,), (start & -start if start else 1 << 30,), (1,))


def _poison(op: PoisonOp, infos: Sequence[AxisInfo]) -> AxisInfo:
    # Poison is never read: assume the best.
    rank = len(_shape(op.results[0].type) or (0,))
    return AxisInfo((MAX_DIVISOR,) * rank, (MAX_DIVISOR,) * rank, (MAX_DIVISOR,) * rank)


def _constant(op: arith.ConstantOp, infos: Sequence[AxisInfo]) -> AxisInfo:
    value = op.value
    if isinstance(value, IntegerAttr):
        number = _zext(value.value.data, value.type)
        return AxisInfo((1,), (highest_pow2_divisor(number),), (1,), number)
    if isinstance(value, DenseElementsAttr) and value.is_splat:
        element = value.type.get_element_type()
        if isinstance(element, (IntegerType, IndexType)):
            number = _zext(int(value.splat_value()), element)
            shape = tuple(value.type.get_shape())
            return AxisInfo((1,) * len(shape), (highest_pow2_divisor(number),) * len(shape), shape, number)
    return AxisInfo()


def _splat(op: tt.SplatOp, infos: Sequence[AxisInfo]) -> AxisInfo:
    shape = _shape(op.result.type)
    src = infos[0]
    return AxisInfo((1,) * len(shape), (src.divisibility[0],) * len(shape), shape, src.constant_value)


def _load(op: tt.LoadOp, infos: Sequence[AxisInfo]) -> AxisInfo:
    # Constant pointers under a constant mask load constant values.
    ptr = infos[0]
    mask = infos[1] if op.mask is not None else None
    dims = range(ptr.rank)
    return AxisInfo((1,) * ptr.rank, (1,) * ptr.rank,
                    tuple(gcd(ptr.constancy[d], mask.constancy[d] if mask is not None else 0) for d in dims))


def _expand_dims(op: tt.ExpandDimsOp, infos: Sequence[AxisInfo]) -> AxisInfo:
    src = infos[0]
    if src.constant_value is not None:
        divisibility = highest_pow2_divisor(src.constant_value)
    elif src.rank:
        divisibility = 0
        for d in range(src.rank):
            divisibility = gcd(divisibility, 1 if src.contiguity[d] > 1 else src.divisibility[d])
    else:
        divisibility = 1
    axis = op.axis.value.data

    def insert(values: tuple[int, ...], value: int) -> tuple[int, ...]:
        return values[:axis] + (value,) + values[axis:]

    return AxisInfo(insert(src.contiguity, 1), insert(src.divisibility, divisibility),
                    insert(src.constancy, 1), src.constant_value)


def _broadcast(op: tt.BroadcastOp, infos: Sequence[AxisInfo]) -> AxisInfo:
    src = infos[0]
    src_shape, dst_shape = _shape(op.src.type), _shape(op.result.type)
    dims = range(len(dst_shape))
    return AxisInfo(tuple(1 if src_shape[d] == 1 else src.contiguity[d] for d in dims),
                    tuple(src.divisibility[d] for d in dims),
                    tuple(dst_shape[d] if src_shape[d] == 1 else src.constancy[d] for d in dims),
                    src.constant_value)


def _trans(op: tt.TransOp, infos: Sequence[AxisInfo]) -> AxisInfo:
    src = infos[0]
    order = list(op.order.get_values())
    return AxisInfo(tuple(src.contiguity[o] for o in order), tuple(src.divisibility[o] for o in order),
                    tuple(src.constancy[o] for o in order), src.constant_value)


_TRANSFER = {
    arith.ExtSIOp: _cast, arith.ExtUIOp: _cast, arith.TruncIOp: _cast, ttg.ConvertLayoutOp: _cast,
    tt.BitcastOp: _cast,
    tt.MakeRangeOp: _make_range,
    PoisonOp: _poison,
    arith.ConstantOp: _constant,
    tt.AddPtrOp: _add_sub, arith.AddIOp: _add_sub, arith.SubIOp: _add_sub,
    arith.MulIOp: _mul,
    arith.DivSIOp: _div, arith.DivUIOp: _div,
    arith.RemSIOp: _rem, arith.RemUIOp: _rem,
    tt.BroadcastOp: _broadcast,
    tt.SplatOp: _splat,
    tt.ExpandDimsOp: _expand_dims,
    arith.CmpIOp: _cmp,
    arith.AndIOp: _logical, arith.OrIOp: _logical, arith.XOrIOp: _logical,
    arith.SelectOp: _select,
    arith.ShLIOp: _shift, arith.ShRUIOp: _shift, arith.ShRSIOp: _shift,
    arith.MaxSIOp: _max_min, arith.MaxUIOp: _max_min, arith.MinSIOp: _max_min, arith.MinUIOp: _max_min,
    tt.LoadOp: _load,
    tt.TransOp: _trans,
}

_CONTROL_FLOW = (scf.ForOp, scf.IfOp, scf.WhileOp, scf.ExecuteRegionOp, scf.IndexSwitchOp,
                 ttg.WarpSpecializeOp, ttg.WarpSpecializePartitionsOp)
"""Triton's `RegionBranchOpInterface` ops (and the partitions op): their arguments and
results start "unknown" instead of pessimistic."""


# ------------------------------------------------------------------ the solver


class _FunctionSolver:
    """The fixed point of the transfer functions over one function body."""

    def __init__(self, func: tt.FuncOp):
        self.lattice: dict[SSAValue, AxisInfo] = {}
        self.changed = True
        entry = func.body.blocks.first
        for arg in entry.args:
            self._join(arg, _pessimistic(arg))
        self.live_blocks: set[Block] = {entry}
        while self.changed:
            self.changed = False
            for block in func.body.blocks:
                if block in self.live_blocks:
                    self._visit_region_ops(block)
                    self._visit_successors(block)

    def get(self, value: SSAValue) -> AxisInfo:
        return self.lattice.get(value, AxisInfo())

    def _join(self, value: SSAValue, info: AxisInfo) -> None:
        old = self.lattice.get(value, AxisInfo())
        new = AxisInfo.join(old, info)
        if new != old:
            self.lattice[value] = new
            self.changed = True

    def _operand(self, value: SSAValue) -> AxisInfo:
        """An operand's info; one not yet known is set to its pessimistic state first (as
        Triton's `visitOperation` does for rank-0 operands)."""
        info = self.get(value)
        if info.rank == 0:
            self._join(value, _pessimistic(value))
            info = self.get(value)
        return info

    def _visit_successors(self, block: Block) -> None:
        """Mark a function block's successors live and join the operands its branch passes
        into their arguments (the sparse solver's handling of `BranchOpInterface`); a
        `cf.cond_br` on an `arith.constant` takes only its live successor."""
        term = block.last_op
        if term is None:
            return
        if isinstance(term, cf.BranchOp):
            edges = [(term.dest, term.destOperands)]
        elif isinstance(term, cf.CondBranchOp):
            edges = [(term.trueDest, term.trueDestOperands), (term.falseDest, term.falseDestOperands)]
            condition = term.condition.owner
            if isinstance(condition, arith.ConstantOp) and isinstance(condition.value, IntegerAttr):
                edges = [edges[0] if condition.value.value.data & 1 else edges[1]]
        else:
            edges = [(succ, None) for succ in term.successors]
        for succ, operands in edges:
            if succ not in self.live_blocks:
                self.live_blocks.add(succ)
                self.changed = True
            for index, arg in enumerate(succ.args):
                if operands is None:
                    self._join(arg, _pessimistic(arg))
                else:
                    self._join(arg, self.get(operands[index]))

    def _visit_region_ops(self, block: Block) -> None:
        for op in block.ops:
            self._visit(op)

    def _visit(self, op: Operation) -> None:
        if isinstance(op, scf.ForOp):
            self._visit_for(op)
        elif isinstance(op, scf.IfOp):
            self._visit_if(op)
        elif isinstance(op, scf.WhileOp):
            self._visit_while(op)
        elif isinstance(op, ttg.WarpSpecializeOp):
            self._visit_warp_specialize(op)
        else:
            for region in op.regions:
                for block in region.blocks:
                    for arg in block.args:
                        self._join(arg, _pessimistic(arg))
                    self._visit_region_ops(block)
            self._visit_plain(op)

    def _visit_plain(self, op: Operation) -> None:
        if not op.results:
            return
        infos = [self._operand(v) for v in op.operands]
        transfer = _TRANSFER.get(type(op))
        info = transfer(op, infos) if transfer is not None else AxisInfo()
        if info.rank == 0:
            for result in op.results:
                self._join(result, _pessimistic(result))
            return
        info = _with_hints(info, op.attributes)
        for result in op.results:
            self._join(result, info)

    def _join_results(self, op: Operation, sources: Sequence[Sequence[SSAValue]]) -> None:
        for index, result in enumerate(op.results):
            for values in sources:
                self._join(result, self.get(values[index]))
            if any(_reads_early(use, op) for use in result.uses):
                self._join(result, _pessimistic(result))

    def _visit_for(self, op: scf.ForOp) -> None:
        lb, step = self._operand(op.lowerBound), self._operand(op.step)
        iv, *iter_args = op.body.args
        self._join(iv, AxisInfo((1,), (gcd(lb.divisibility[0], step.divisibility[0]),), (1,)))
        yielded = op.body.last_op.operands
        for arg, init, value in zip(iter_args, op.initArgs, yielded):
            self._join(arg, self.get(init))
            self._join(arg, self.get(value))
        self._visit_region_ops(op.body)
        self._join_results(op, [op.initArgs, op.body.last_op.operands])

    def _visit_if(self, op: scf.IfOp) -> None:
        branches = [op.thenRegion, op.elseRegion]
        condition = op.condition.owner
        if isinstance(condition, arith.ConstantOp) and isinstance(condition.value, IntegerAttr):
            branches = [op.thenRegion if condition.value.value.data & 1 else op.elseRegion]
        live = [region.blocks.first for region in branches if region.blocks]
        for block in live:
            self._visit_region_ops(block)
        self._join_results(op, [block.last_op.operands for block in live])

    def _visit_while(self, op: scf.WhileOp) -> None:
        before, after = op.before.blocks.first, op.after.blocks.first
        condition = before.last_op
        for index, arg in enumerate(before.args):
            self._join(arg, self.get(op.inits[index]))
            self._join(arg, self.get(after.last_op.operands[index]))
        self._visit_region_ops(before)
        forwarded = condition.operands[1:]
        for arg, value in zip(after.args, forwarded):
            self._join(arg, self.get(value))
        self._visit_region_ops(after)
        self._join_results(op, [forwarded])

    def _visit_warp_specialize(self, op: ttg.WarpSpecializeOp) -> None:
        default = op.defaultRegion.blocks.first
        self._visit_region_ops(default)
        for partition in op.partition_regions:
            entry = partition.blocks.first
            for arg, capture in zip(entry.args, op.explicitCaptures):
                self._join(arg, self.get(capture))
            self._visit_region_ops(entry)
        self._join_results(op, [default.last_op.operands])


def _reads_early(use, region_op: Operation) -> bool:
    """Whether Triton's solver reads this use of a control-flow result before it knows the
    result's predecessors, and so joins in the result's entry state: a use in the same block
    by an op whose transfer function reads its operands (one with results that is not
    control flow itself)."""
    user = use.operation
    return (user.parent_block() is region_op.parent_block() and bool(user.results)
            and not isinstance(user, _CONTROL_FLOW))


class ModuleAxisInfo:
    """`ModuleAxisInfoAnalysis`: axis info of every value in a module's functions.

    `contiguity(ptr)` is how many elements a thread may access as one vector,
    `alignment(ptr)` how many elements the pointers are aligned to, and
    `mask_alignment(mask)` over how many elements the mask is constant; all three read the
    dimension the value's layout keeps fastest-varying in registers."""

    def __init__(self, module: ModuleOp):
        self._infos: dict[SSAValue, AxisInfo] = {}
        for func in _callers_first(module):
            infos = _FunctionSolver(func).lattice
            self._infos.update(infos)
            for call in func.walk():
                if isinstance(call, tt.CallOp):
                    callee = _lookup(module, call)
                    if callee is not None:
                        _pass_hints(call, callee, infos)

    def axis_info(self, value: SSAValue) -> AxisInfo | None:
        info = self._infos.get(value)
        return info if info is not None and info.rank else None

    def contiguity(self, value: SSAValue, element_bit_width: int | None = None) -> int:
        """`getContiguity`: the alignment, capped by the elements a thread holds contiguously."""
        type_ = value.type
        if not isinstance(type_, TensorType):
            return 1
        layout = _register_layout(type_)
        if layout is None:
            return 1
        bits = _element_bits(type_) if element_bit_width is None else element_bit_width
        order, contig = layout
        return min(self.alignment(value, bits), contig[order[0]])

    def alignment(self, value: SSAValue, element_bit_width: int | None = None) -> int:
        """`getAlignment`: in elements, the smaller of the contiguity along the fastest dim and
        the divisibility there (pointers: in bytes, divided by the element size)."""
        type_ = value.type
        if not isinstance(type_, TensorType):
            return 1
        info = self.axis_info(value)
        layout = _register_layout(type_)
        if info is None or layout is None:
            return 1
        bits = _element_bits(type_) if element_bit_width is None else element_bit_width
        dim = layout[0][0]
        divisibility = info.divisibility[dim]
        if isinstance(type_.get_element_type(), tt.PointerType):
            divisibility = max(divisibility // max(bits // 8, 1), 1)
        return _u32(min(divisibility, info.contiguity[dim]))

    def mask_alignment(self, mask: SSAValue) -> int:
        """`getMaskAlignment`: the mask's constancy along the fastest dim."""
        type_ = mask.type
        if not isinstance(type_, TensorType):
            return 1
        info = self.axis_info(mask)
        layout = _register_layout(type_)
        if info is None or layout is None:
            return 1
        return max(_u32(info.constancy[layout[0][0]]), 1)


def _lookup(module: ModuleOp, call: tt.CallOp) -> tt.FuncOp | None:
    name = call.callee.root_reference.data
    return next((op for op in module.ops if isinstance(op, tt.FuncOp) and op.sym_name.data == name), None)


def _callers_first(module: ModuleOp) -> list[tt.FuncOp]:
    """The defined functions reachable from the uncalled ones, callers before callees (the
    reverse of `CallGraph::walk`'s post-order)."""
    funcs = [op for op in module.ops if isinstance(op, tt.FuncOp) and not op.is_declaration]
    callees = {id(f): [c for call in f.walk() if isinstance(call, tt.CallOp)
                       if (c := _lookup(module, call)) is not None and not c.is_declaration] for f in funcs}
    called = {id(c) for cs in callees.values() for c in cs}
    post_order: list[tt.FuncOp] = []
    visited: set[int] = set()

    def visit(func: tt.FuncOp) -> None:
        visited.add(id(func))
        for callee in callees[id(func)]:
            if id(callee) not in visited:
                visit(callee)
        post_order.append(func)

    for func in funcs:
        if id(func) not in called and id(func) not in visited:
            visit(func)
    return post_order[::-1]


def _pass_hints(call: tt.CallOp, callee: tt.FuncOp, infos: dict[SSAValue, AxisInfo]) -> None:
    """`ModuleAxisInfoAnalysis::update`: each scalar argument's info, joined (gcd) with what
    the callee's argument attributes already say, is written onto them as i64 hints."""
    arg_attrs = list(callee.arg_attrs.data) if callee.arg_attrs is not None \
        else [DictionaryAttr({}) for _ in callee.function_type.inputs.data]
    for index, value in enumerate(call.args):
        info = infos.get(value, AxisInfo())
        if info.rank != 1:
            continue
        attrs = dict(arg_attrs[index].data)
        for name, known in zip(HINTS, (info.contiguity[0], info.divisibility[0], info.constancy[0])):
            previous = attrs.get(name)
            current = previous.value.data if isinstance(previous, IntegerAttr) else MAX_DIVISOR
            attrs[name] = IntegerAttr(gcd(known, current), i64)
        arg_attrs[index] = DictionaryAttr(attrs)
    callee.arg_attrs = ArrayAttr(arg_attrs)


def _element_bits(type_: TensorType) -> int:
    element = type_.get_element_type()
    if isinstance(element, tt.PointerType):
        element = element.pointeeType
    return _bit_width(element)


def _register_layout(type_: TensorType) -> tuple[list[int], list[int]] | None:
    """The order of a tensor's linear layout and how many elements a thread holds
    contiguously along each dim (`LinearEncodingAttr::getOrder`/`getContigPerThread`);
    None for encodings without a linear layout here."""
    shape = list(type_.get_shape())
    layout = to_linear_layout(shape, type_.encoding)
    if layout is None:
        return None
    order = layout_order(layout)
    contig = [1] * len(shape)
    registers = iter(layout.in_dim_bases(REGISTER))
    basis = next(registers, None)
    for dim in order:
        while basis is not None and list(basis) == [contig[dim] if d == dim else 0 for d in range(len(shape))]:
            contig[dim] *= 2
            basis = next(registers, None)
    return order, contig
