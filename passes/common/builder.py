"""The op builder every pass uses: typed ops inserted at a movable point, each with the
builder's location, as an MLIR `OpBuilder` with a fixed `Location` does, and shorthands
for the arith scalars of induction variable arithmetic and stage predicates.
"""

from __future__ import annotations

from typing import Protocol, TypeVar

from xdsl.dialects.builtin import IntegerAttr, IntegerType, UnknownLoc
from xdsl.ir import Attribute, Operation, OpResult, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from ttpipe.dialects import arith
from ttpipe.dialects.arith import CmpIPredicate

_Op = TypeVar("_Op", bound=Operation)


def value_location(value: SSAValue) -> Attribute:
    """MLIR's `Value::getLoc`: the defining op's location, or the block argument's own
    (unknown when it has none)."""
    if isinstance(value, OpResult):
        return value.owner.location
    return getattr(value, "location", None) or UnknownLoc()


def constant_int_value(value: SSAValue) -> int | None:
    """MLIR's `getConstantIntValue`: the integer an `arith.constant` of integer or index type
    defines, sign-extended (`APInt::getSExtValue`), else None. An i1 `true` is -1, as xDSL
    stores it too, so `is_constant_int_value(pred, 1)` never holds for an i1 predicate."""
    owner = value.owner
    if isinstance(owner, arith.ConstantOp) and isinstance(owner.value, IntegerAttr):
        return owner.value.value.data
    return None


def is_constant_int_value(value: SSAValue, expected: int) -> bool:
    """MLIR's `isConstantIntValue`: `constant_int_value(value) == expected`."""
    return constant_int_value(value) == expected


class InsertionListener(Protocol):
    """MLIR's `OpBuilder::Listener`: told of each op a builder inserts (the greedy driver's
    rewriter, which puts it on its worklist)."""

    def notify_inserted(self, op: Operation) -> None: ...


class OpBuilder:
    """Creates ops at an insertion point, each with `location`, telling `listener` of each."""

    def __init__(self, insertion_point: InsertPoint, location: Attribute,
                 listener: InsertionListener | None = None):
        self.insertion_point = insertion_point
        self.location = location
        self.listener = listener

    def set_before(self, op: Operation) -> None:
        self.insertion_point = InsertPoint.before(op)

    def set_after(self, op: Operation) -> None:
        self.insertion_point = InsertPoint.after(op)

    def insert(self, op: _Op, location: Attribute | None = None) -> _Op:
        """Insert a new op, giving it `location` or else the builder's."""
        op.location = self.location if location is None else location
        return self.insert_clone(op)

    def insert_clone(self, op: _Op) -> _Op:
        """Insert an op that keeps its own location (a clone)."""
        Rewriter.insert_op(op, self.insertion_point)
        if self.listener is not None:
            self.listener.notify_inserted(op)
        return op

    def constant(self, value: int, type_: Attribute, location: Attribute | None = None) -> SSAValue:
        """`arith::ConstantIntOp`/`ConstantIndexOp`."""
        return self.insert(arith.ConstantOp.from_int(value, type_), location).result

    def int_constant(self, value: int, width: int, location: Attribute | None = None) -> SSAValue:
        """`arith::ConstantIntOp::create(builder, [loc,] value, width)`."""
        return self.constant(value, IntegerType(width), location)

    def addi(self, lhs: SSAValue, rhs: SSAValue) -> SSAValue:
        return self.insert(arith.AddIOp(lhs, rhs)).result

    def subi(self, lhs: SSAValue, rhs: SSAValue) -> SSAValue:
        return self.insert(arith.SubIOp(lhs, rhs)).result

    def muli(self, lhs: SSAValue, rhs: SSAValue) -> SSAValue:
        return self.insert(arith.MulIOp(lhs, rhs)).result

    def divsi(self, lhs: SSAValue, rhs: SSAValue) -> SSAValue:
        return self.insert(arith.DivSIOp(lhs, rhs)).result

    def remsi(self, lhs: SSAValue, rhs: SSAValue) -> SSAValue:
        return self.insert(arith.RemSIOp(lhs, rhs)).result

    def ceil_divsi(self, lhs: SSAValue, rhs: SSAValue) -> SSAValue:
        """`(lhs + rhs - 1) / rhs`: `lhs / rhs` rounded up, for `rhs > 0` and a sum that does
        not wrap (`arith.ceildivsi` without its sign cases, which Triton's lowering lacks)."""
        return self.divsi(self.addi(lhs, self.subi(rhs, self.constant(1, rhs.type))), rhs)

    def minsi(self, lhs: SSAValue, rhs: SSAValue) -> SSAValue:
        return self.insert(arith.MinSIOp(lhs, rhs)).result

    def maxsi(self, lhs: SSAValue, rhs: SSAValue) -> SSAValue:
        return self.insert(arith.MaxSIOp(lhs, rhs)).result

    def andi(self, lhs: SSAValue, rhs: SSAValue) -> SSAValue:
        return self.insert(arith.AndIOp(lhs, rhs)).result

    def xori(self, lhs: SSAValue, rhs: SSAValue) -> SSAValue:
        return self.insert(arith.XOrIOp(lhs, rhs)).result

    def cmpi(self, predicate: CmpIPredicate, lhs: SSAValue, rhs: SSAValue) -> SSAValue:
        return self.insert(arith.CmpIOp(predicate, lhs, rhs)).result

    def select(self, condition: SSAValue, true_value: SSAValue, false_value: SSAValue) -> SSAValue:
        return self.insert(arith.SelectOp(condition, true_value, false_value)).result

    def sext_or_trunc(self, value: SSAValue, type_: IntegerType) -> SSAValue:
        """LLVM's `IRBuilder::CreateSExtOrTrunc`: `value` as the integer type `type_`,
        sign-extended or truncated (itself where it has that type already)."""
        if value.type == type_:
            return value
        if value.type.width.data < type_.width.data:
            return self.insert(arith.ExtSIOp(value, result_type=type_)).out
        return self.insert(arith.TruncIOp(value, result_type=type_)).out
