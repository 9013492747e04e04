"""arith's fold hooks and canonicalization patterns, for `greedy.apply_patterns_greedily`
(what Triton's passes run as `arithDialect->getCanonicalizationPatterns` + `applyPatternsGreedily`).

`fold(op)` is `Operation::fold` for the integer ops the pipeliner and the loop lowering
create (`addi`, `subi`, `muli`, `divsi`, `remsi`, `maxsi`, `minsi`, `andi`, `ori`, `xori`,
`cmpi`, `select`, integer casts, exact `extf`/`truncf` of constants) and for Triton's `tt.splat`, `tt.broadcast`,
`tt.expand_dims`, `tt.reshape`, `tt.trans` of a splat constant and `tt.addptr` of a zero
offset; after an op's own fold, constant operands of commutative ops move to the right.

`ARITH_PATTERNS` are the patterns of `ArithCanonicalization.td` that reassociate
constants (`AddIAddConstant`, `AddISubConstantRHS/LHS`, `SubIRHSAddConstant`,
`SubILHSAddConstant`, `SubIRHS/LHSSubConstantRHS/LHS`, `MulIMulIConstant`), `XOrINotCmpI`
and `SelectToExtUI`; their results get the fused location of the matched ops. Triton 3.6's
MLIR leaves `select(c, false, true)` alone (no `SelectI1ToNot`: the corpus's persistent
matmuls keep one).

Left out: float arithmetic folds, folding of non-splat tensor constants, and the rarer arith
patterns (extension chains, `index_cast`, `ceildiv`, bit casts).
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.dialects.builtin import (
    FloatAttr,
    FusedLoc,
    IndexType,
    IntegerAttr,
    IntegerType,
    NoneAttr,
    TensorType,
    UnknownLoc,
)
from xdsl.ir import Attribute, Operation, OpResult, SSAValue
from xdsl.rewriter import InsertPoint

from ttpipe.dialects import arith, tt, ub
from ttpipe.dialects.arith import CmpIPredicate
from ttpipe.dialects.builtin import DenseElementsAttr
from ttpipe.ir import floats
from ttpipe.passes.common.builder import OpBuilder

TT_FOLDED = (tt.SplatOp, tt.BroadcastOp, tt.ExpandDimsOp, tt.ReshapeOp, tt.TransOp, tt.AddPtrOp)

COMMUTATIVE = (arith.AddIOp, arith.MulIOp, arith.AndIOp, arith.OrIOp, arith.XOrIOp, arith.MaxSIOp,
               arith.MinSIOp, arith.MaxUIOp, arith.MinUIOp, arith.AddFOp, arith.MulFOp,
               arith.MaxNumFOp, arith.MinNumFOp, arith.MaximumFOp, arith.MinimumFOp)


# ------------------------------------------------------------------ integer values


def bit_width(type_: Attribute) -> int | None:
    element = type_.element_type if isinstance(type_, TensorType) else type_
    if isinstance(element, IndexType):
        return 64
    if isinstance(element, IntegerType):
        return element.width.data
    return None


def wrap(value: int, width: int) -> int:
    """Two's complement wrap to `width` bits, read signed (i1: 0 or 1)."""
    value &= (1 << width) - 1
    if width > 1 and value >= 1 << (width - 1):
        value -= 1 << width
    return value


def unsigned(value: int, width: int) -> int:
    return value & ((1 << width) - 1)


def constant_attr(value: SSAValue) -> Attribute | None:
    """The attribute of the constant defining `value` (`m_Constant`), else None."""
    owner = value.owner
    if isinstance(owner, arith.ConstantOp):
        return owner.value
    if isinstance(owner, ub.PoisonOp):
        return owner.value
    return None


def int_of(attr: Attribute | None) -> int | None:
    """The integer of a scalar integer attribute or an integer splat."""
    if isinstance(attr, IntegerAttr):
        width = bit_width(attr.type)
        return wrap(attr.value.data, width) if width is not None else None
    if isinstance(attr, DenseElementsAttr) and attr.is_splat and bit_width(attr.type) is not None:
        return wrap(int(attr.splat_value()), bit_width(attr.type))
    return None


def int_value(value: SSAValue) -> int | None:
    return int_of(constant_attr(value))


def int_attr_like(type_: Attribute, value: int) -> Attribute:
    """An integer attribute of `type_` (a splat for tensors)."""
    width = bit_width(type_)
    value = wrap(value, width)
    if isinstance(type_, TensorType):
        return DenseElementsAttr.splat(type_, unsigned(value, width) if width == 1 else value)
    return IntegerAttr(value, type_)


def is_scalar_int_constant(value: SSAValue) -> bool:
    return isinstance(constant_attr(value), IntegerAttr) and bit_width(value.type) is not None


# ------------------------------------------------------------------ folds


Fold = list  # replacement values or attributes, one per result; [] means "changed in place"

SIGNED_BINARY: dict[type, Callable[[int, int, int], int | None]] = {
    arith.AddIOp: lambda a, b, w: a + b,
    arith.SubIOp: lambda a, b, w: a - b,
    arith.MulIOp: lambda a, b, w: a * b,
    arith.AndIOp: lambda a, b, w: a & b,
    arith.OrIOp: lambda a, b, w: a | b,
    arith.XOrIOp: lambda a, b, w: a ^ b,
    arith.MaxSIOp: lambda a, b, w: max(a, b),
    arith.MinSIOp: lambda a, b, w: min(a, b),
    arith.MaxUIOp: lambda a, b, w: max(unsigned(a, w), unsigned(b, w)),
    arith.MinUIOp: lambda a, b, w: min(unsigned(a, w), unsigned(b, w)),
    arith.DivSIOp: lambda a, b, w: None if b == 0 or (a == -(1 << (w - 1)) and b == -1) else trunc_div(a, b),
    arith.RemSIOp: lambda a, b, w: None if b == 0 else a - b * trunc_div(a, b),
    arith.DivUIOp: lambda a, b, w: None if b == 0 else unsigned(a, w) // unsigned(b, w),
    arith.RemUIOp: lambda a, b, w: None if b == 0 else unsigned(a, w) % unsigned(b, w),
}


def trunc_div(a: int, b: int) -> int:
    """Integer division rounding toward zero (C's, arith.divsi's)."""
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


def compare(predicate: int, a: int, b: int, width: int) -> bool:
    p = CmpIPredicate
    ua, ub_ = unsigned(a, width), unsigned(b, width)
    return {p.eq: a == b, p.ne: a != b, p.slt: a < b, p.sle: a <= b, p.sgt: a > b, p.sge: a >= b,
            p.ult: ua < ub_, p.ule: ua <= ub_, p.ugt: ua > ub_, p.uge: ua >= ub_}[CmpIPredicate(predicate)]


SWAPPED = {CmpIPredicate.slt: CmpIPredicate.sgt, CmpIPredicate.sgt: CmpIPredicate.slt,
           CmpIPredicate.sle: CmpIPredicate.sge, CmpIPredicate.sge: CmpIPredicate.sle,
           CmpIPredicate.ult: CmpIPredicate.ugt, CmpIPredicate.ugt: CmpIPredicate.ult,
           CmpIPredicate.ule: CmpIPredicate.uge, CmpIPredicate.uge: CmpIPredicate.ule,
           CmpIPredicate.eq: CmpIPredicate.eq, CmpIPredicate.ne: CmpIPredicate.ne}
NEGATED = {CmpIPredicate.eq: CmpIPredicate.ne, CmpIPredicate.ne: CmpIPredicate.eq,
           CmpIPredicate.slt: CmpIPredicate.sge, CmpIPredicate.sge: CmpIPredicate.slt,
           CmpIPredicate.sle: CmpIPredicate.sgt, CmpIPredicate.sgt: CmpIPredicate.sle,
           CmpIPredicate.ult: CmpIPredicate.uge, CmpIPredicate.uge: CmpIPredicate.ult,
           CmpIPredicate.ule: CmpIPredicate.ugt, CmpIPredicate.ugt: CmpIPredicate.ule}


def _producer(value: SSAValue, cls: type) -> Operation | None:
    return value.owner if isinstance(value, OpResult) and isinstance(value.owner, cls) else None


def fold_binary(op: Operation) -> Fold | None:
    """The fold hooks of the integer binary ops (identities, then constant folding)."""
    lhs, rhs = op.operands
    a, b = int_value(lhs), int_value(rhs)
    width = bit_width(op.results[0].type)
    if width is None:
        return None
    if isinstance(op, arith.AddIOp):
        if b == 0:
            return [lhs]
        sub = _producer(lhs, arith.SubIOp)
        if sub is not None and sub.rhs == rhs:
            return [sub.lhs]
        sub = _producer(rhs, arith.SubIOp)
        if sub is not None and sub.rhs == lhs:
            return [sub.lhs]
    elif isinstance(op, arith.SubIOp):
        if lhs == rhs:
            return [int_attr_like(op.results[0].type, 0)]
        if b == 0:
            return [lhs]
        add = _producer(lhs, arith.AddIOp)
        if add is not None:
            if add.rhs == rhs:
                return [add.lhs]
            if add.lhs == rhs:
                return [add.rhs]
    elif isinstance(op, arith.MulIOp):
        if b == 0:
            return [rhs]
        if b == 1:
            return [lhs]
    elif isinstance(op, (arith.DivSIOp, arith.DivUIOp)):
        if b == 1:
            return [lhs]
    elif isinstance(op, (arith.RemSIOp, arith.RemUIOp)):
        if b == 1:
            return [int_attr_like(op.results[0].type, 0)]
    elif isinstance(op, (arith.MaxSIOp, arith.MinSIOp, arith.MaxUIOp, arith.MinUIOp)):
        if lhs == rhs:
            return [lhs]
        if b is not None:
            low, high = ((-(1 << (width - 1)), (1 << (width - 1)) - 1)
                         if isinstance(op, (arith.MaxSIOp, arith.MinSIOp)) else (0, -1))
            absorbing, neutral = (high, low) if isinstance(op, (arith.MaxSIOp, arith.MaxUIOp)) else (low, high)
            if b == wrap(absorbing, width):
                return [rhs]
            if b == wrap(neutral, width):
                return [lhs]
    elif isinstance(op, arith.AndIOp):
        if b == 0:
            return [rhs]
        if b == wrap(-1, width):
            return [lhs]
        if lhs == rhs:
            return [lhs]
    elif isinstance(op, arith.OrIOp):
        if b == 0:
            return [lhs]
        if b == wrap(-1, width):
            return [rhs]
        if lhs == rhs:
            return [lhs]
    elif isinstance(op, arith.XOrIOp):
        if b == 0:
            return [lhs]
        if lhs == rhs:
            return [int_attr_like(op.results[0].type, 0)]
    if a is not None and b is not None:
        folded = SIGNED_BINARY[type(op)](a, b, width)
        if folded is not None:
            return [int_attr_like(op.results[0].type, folded)]
    return None


def fold_cmpi(op: arith.CmpIOp) -> Fold | None:
    predicate = CmpIPredicate(op.predicate.value.data)
    width = bit_width(op.lhs.type)
    if width is None:
        return None
    if op.lhs == op.rhs:
        equal = predicate in (CmpIPredicate.eq, CmpIPredicate.sle, CmpIPredicate.sge,
                              CmpIPredicate.ule, CmpIPredicate.uge)
        return [int_attr_like(op.results[0].type, int(equal))]
    a, b = int_value(op.lhs), int_value(op.rhs)
    if a is not None and b is None:
        op.predicate = IntegerAttr(int(SWAPPED[predicate]), 64)
        op.operands = (op.rhs, op.lhs)
        return []
    if a is not None and b is not None:
        return [int_attr_like(op.results[0].type, int(compare(predicate, a, b, width)))]
    return None


def fold_select(op: arith.SelectOp) -> Fold | None:
    condition, true_value, false_value = op.operands
    if true_value == false_value:
        return [true_value]
    c = int_value(condition)
    if c == 1:
        return [true_value]
    if c == 0:
        return [false_value]
    if isinstance(constant_attr(true_value), ub.PoisonAttr):
        return [false_value]
    if isinstance(constant_attr(false_value), ub.PoisonAttr):
        return [true_value]
    if (bit_width(op.results[0].type) == 1 and not isinstance(op.results[0].type, TensorType)
            and int_value(true_value) == 1 and int_value(false_value) == 0):
        return [condition]
    cmp = _producer(condition, arith.CmpIOp)
    if cmp is not None and CmpIPredicate(cmp.predicate.value.data) in (CmpIPredicate.eq, CmpIPredicate.ne):
        if {cmp.lhs, cmp.rhs} == {true_value, false_value} and cmp.lhs != cmp.rhs:
            return [true_value if CmpIPredicate(cmp.predicate.value.data) == CmpIPredicate.ne else false_value]
    return None


def fold_cast(op: Operation) -> Fold | None:
    value = int_value(op.operands[0])
    width_in, width_out = bit_width(op.operands[0].type), bit_width(op.results[0].type)
    if value is None or width_in is None or width_out is None:
        return None
    if isinstance(op, (arith.ExtUIOp, arith.IndexCastUIOp)):
        value = unsigned(value, width_in)
    return [int_attr_like(op.results[0].type, value)]


def fold_float_cast(op: Operation) -> Fold | None:
    """`extf`/`truncf` of a float constant or splat, when the value converts exactly
    (`convertFloatValue` fails on an inexact conversion)."""
    attr = constant_attr(op.operands[0])
    if isinstance(attr, FloatAttr):
        value = attr.value.data
    elif isinstance(attr, DenseElementsAttr) and attr.is_splat:
        value = attr.splat_value()
    else:
        return None
    result_type = op.results[0].type
    element = result_type.element_type if isinstance(result_type, TensorType) else result_type
    bits = floats.encode(element, value)
    if bits is None or floats.to_python_float(bits, element) != value and value == value:
        return None
    if isinstance(result_type, TensorType):
        return [DenseElementsAttr.splat(result_type, value)]
    return [FloatAttr(value, result_type)]


def splat_of(attr: Attribute | None):
    """The Python value of a scalar constant or of a splat, else None."""
    if isinstance(attr, IntegerAttr) and bit_width(attr.type) is not None:
        return int_of(attr)
    if isinstance(attr, FloatAttr):
        return attr.value.data
    if isinstance(attr, DenseElementsAttr) and attr.is_splat:
        return attr.splat_value()
    return None


def fold_tt(op: Operation) -> Fold | None:
    """Triton's folds of `tt.splat`, `tt.broadcast`, `tt.expand_dims`, `tt.reshape`,
    `tt.trans` (a splat constant resized; an identity op is its source) and `tt.addptr`
    (a zero offset)."""
    if isinstance(op, tt.AddPtrOp):
        return [op.operands[0]] if int_value(op.operands[1]) == 0 else None
    src = op.operands[0]
    result_type = op.results[0].type
    if isinstance(op, tt.BroadcastOp) and src.type == result_type:
        return [src]
    if isinstance(op, tt.ReshapeOp) and src.type == result_type and op.allow_reorder is None:
        return [src]
    if isinstance(op, tt.TransOp) and list(op.order.get_values()) == list(range(len(op.order.get_values()))) \
            and src.type == result_type:
        return [src]
    attr = constant_attr(src)
    if isinstance(op, tt.SplatOp) and not isinstance(attr, (IntegerAttr, FloatAttr)):
        return None
    if not isinstance(op, tt.SplatOp) and not isinstance(attr, DenseElementsAttr):
        return None
    value = splat_of(attr)
    if value is None:
        return None
    if bit_width(result_type) == 1:
        value = unsigned(value, 1)
    return [DenseElementsAttr.splat(result_type, value)]


def fold_commutative(op: Operation) -> Fold | None:
    """Move constant operands after the others (`OpTrait::impl::foldCommutative`)."""
    operands = list(op.operands)
    constant = [constant_attr(v) is not None for v in operands]
    reordered = [v for v, c in zip(operands, constant) if not c] + [v for v, c in zip(operands, constant) if c]
    if reordered == operands:
        return None
    op.operands = tuple(reordered)
    return []


def fold(op: Operation) -> Fold | None:
    """The results `op` folds to, [] for an in-place change, None when it does not fold."""
    result = None
    if isinstance(op, tuple(SIGNED_BINARY)):
        result = fold_binary(op)
    elif isinstance(op, arith.CmpIOp):
        result = fold_cmpi(op)
    elif isinstance(op, arith.SelectOp):
        result = fold_select(op)
    elif isinstance(op, (arith.ExtSIOp, arith.ExtUIOp, arith.TruncIOp, arith.IndexCastOp, arith.IndexCastUIOp)):
        result = fold_cast(op)
    elif isinstance(op, (arith.ExtFOp, arith.TruncFOp)):
        result = fold_float_cast(op)
    elif isinstance(op, TT_FOLDED):
        result = fold_tt(op)
    if result is None and isinstance(op, COMMUTATIVE):
        result = fold_commutative(op)
    return result


# ------------------------------------------------------------------ patterns


def fused_location(*ops: Operation) -> Attribute:
    """`rewriter.getFusedLoc` of the matched ops: their distinct locations, or the only one."""
    locations: list[Attribute] = []
    for op in ops:
        loc = op.location
        parts = loc.locations.data if isinstance(loc, FusedLoc) and isinstance(loc.metadata, NoneAttr) else (loc,)
        for part in parts:
            if not isinstance(part, UnknownLoc) and part not in locations:
                locations.append(part)
    if not locations:
        return UnknownLoc()
    if len(locations) == 1:
        return locations[0]
    return FusedLoc(tuple(locations), NoneAttr())


def builder_before(rewriter, root: Operation, location: Attribute) -> OpBuilder:
    """A builder for the ops of a pattern's result: before its root, at `location`, each
    reported to the driver's rewriter."""
    return OpBuilder(InsertPoint.before(root), location, rewriter)


def constant_like(b: OpBuilder, type_: Attribute, value: int) -> SSAValue:
    """`value` (wrapped to the width of `type_`) as a constant of `type_`."""
    return b.insert(arith.ConstantOp(int_attr_like(type_, value))).result


def _const_operand(op: Operation, index: int) -> int | None:
    value = op.operands[index]
    return int_value(value) if is_scalar_int_constant(value) else None


class ReassociateConstants:
    """`op(inner(x, c0), c1)` with one constant folded away (the `AddI*`, `SubI*` and
    `MulIMulIConstant` patterns of `ArithCanonicalization.td`)."""

    root = (arith.AddIOp, arith.SubIOp, arith.MulIOp)
    benefit = 2

    def match_and_rewrite(self, op: Operation, rewriter) -> bool:
        if bit_width(op.results[0].type) is None or isinstance(op.results[0].type, TensorType):
            return False
        for inner_value, inner_is_lhs in ((op.operands[0], True), (op.operands[1], False)):
            inner = inner_value.owner if isinstance(inner_value, OpResult) else None
            if not isinstance(inner, self.root):
                continue
            c1 = _const_operand(op, 1 if inner_is_lhs else 0)
            if c1 is None:
                continue
            build = _reassociation(op, inner, inner_is_lhs, c1)
            if build is None:
                continue
            replacement = build(builder_before(rewriter, op, fused_location(op, inner)), op.results[0].type)
            rewriter.replace_op(op, [replacement])
            return True
        return False


def _reassociation(op, inner, inner_is_lhs, c1):
    """The rewrite for `op(inner(...), c1)` (or `op(c1, inner)`), as a builder, or None."""
    x0 = _const_operand(inner, 0)
    x1 = _const_operand(inner, 1)
    add, sub, mul = arith.AddIOp, arith.SubIOp, arith.MulIOp
    c = constant_like
    if isinstance(op, add) and inner_is_lhs:
        if isinstance(inner, add) and x1 is not None:          # AddIAddConstant
            return lambda b, t: b.addi(inner.lhs, c(b, t, x1 + c1))
        if isinstance(inner, sub) and x1 is not None:          # AddISubConstantRHS
            return lambda b, t: b.addi(inner.lhs, c(b, t, c1 - x1))
        if isinstance(inner, sub) and x0 is not None:          # AddISubConstantLHS
            return lambda b, t: b.subi(c(b, t, x0 + c1), inner.rhs)
    if isinstance(op, sub) and inner_is_lhs:
        if isinstance(inner, add) and x1 is not None:          # SubIRHSAddConstant
            return lambda b, t: b.addi(inner.lhs, c(b, t, x1 - c1))
        if isinstance(inner, sub) and x1 is not None:          # SubIRHSSubConstantRHS
            return lambda b, t: b.subi(inner.lhs, c(b, t, x1 + c1))
        if isinstance(inner, sub) and x0 is not None:          # SubIRHSSubConstantLHS
            return lambda b, t: b.subi(c(b, t, x0 - c1), inner.rhs)
    if isinstance(op, sub) and not inner_is_lhs:
        if isinstance(inner, add) and x1 is not None:          # SubILHSAddConstant
            return lambda b, t: b.subi(c(b, t, c1 - x1), inner.lhs)
        if isinstance(inner, sub) and x1 is not None:          # SubILHSSubConstantRHS
            return lambda b, t: b.subi(c(b, t, x1 + c1), inner.lhs)
        if isinstance(inner, sub) and x0 is not None:          # SubILHSSubConstantLHS
            return lambda b, t: b.addi(inner.rhs, c(b, t, c1 - x0))
    if isinstance(op, mul) and inner_is_lhs and isinstance(inner, mul) and x1 is not None:  # MulIMulIConstant
        return lambda b, t: b.muli(inner.lhs, c(b, t, x1 * c1))
    return None


class XOrINotCmpI:
    """`xori(cmpi(p, a, b), true)` -> `cmpi(!p, a, b)`."""

    root = arith.XOrIOp
    benefit = 2

    def match_and_rewrite(self, op: Operation, rewriter) -> bool:
        if _const_operand(op, 1) != 1 or bit_width(op.results[0].type) != 1:
            return False
        cmp = _producer(op.lhs, arith.CmpIOp)
        if cmp is None:
            return False
        negated = NEGATED[CmpIPredicate(cmp.predicate.value.data)]
        new = builder_before(rewriter, op, fused_location(op, cmp)).cmpi(negated, cmp.lhs, cmp.rhs)
        rewriter.replace_op(op, [new])
        return True


class SelectToExtUI:
    """`select(c, 1, 0)` -> `extui(c)` for integers wider than i1."""

    root = arith.SelectOp
    benefit = 1

    def match_and_rewrite(self, op: Operation, rewriter) -> bool:
        result_type = op.results[0].type
        if not isinstance(result_type, IntegerType) or result_type.width.data == 1:
            return False
        if _const_operand(op, 1) != 1 or _const_operand(op, 2) != 0:
            return False
        extended = builder_before(rewriter, op, op.location).insert(
            arith.ExtUIOp(op.condition, result_type=result_type)).out
        rewriter.replace_op(op, [extended])
        return True


ARITH_PATTERNS = (ReassociateConstants(), XOrINotCmpI(), SelectToExtUI())
"""arith's canonicalization patterns (those ported), in the greedy driver's `Pattern` form."""
