"""A small op builder for the pipeliner's phases: arith scalars at an insertion point.

Each method creates one op at the builder's insertion point with the builder's location,
as an MLIR `OpBuilder` with a fixed `Location` does; the phases use it for induction
variable arithmetic and stage predicates.
"""

from __future__ import annotations

from xdsl.dialects.builtin import IntegerAttr, IntegerType
from xdsl.ir import Attribute, BlockArgument, Operation, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from ttpipe.dialects import arith
from ttpipe.dialects.arith import CmpIPredicate


def value_location(value: SSAValue) -> Attribute:
    """MLIR's `Value::getLoc`: the defining op's location, or the block argument's."""
    if isinstance(value, BlockArgument):
        return value.location  # type: ignore[attr-defined]
    return value.owner.location


def constant_int(value: SSAValue) -> int | None:
    """The integer an `arith.constant` of integer or index type defines, else None
    (MLIR's `getConstantIntValue`)."""
    owner = value.owner
    if isinstance(owner, arith.ConstantOp) and isinstance(owner.value, IntegerAttr):
        return owner.value.value.data
    return None


class OpBuilder:
    """Creates ops at an insertion point, each with `location`."""

    def __init__(self, insertion_point: InsertPoint, location: Attribute):
        self.insertion_point = insertion_point
        self.location = location

    def insert(self, op: Operation) -> Operation:
        """Insert a new op, giving it the builder's location."""
        op.location = self.location
        return self.insert_clone(op)

    def insert_clone(self, op: Operation) -> Operation:
        """Insert an op that keeps its own location (a clone)."""
        Rewriter.insert_op(op, self.insertion_point)
        return op

    def constant(self, value: int, type_: Attribute) -> SSAValue:
        if isinstance(type_, IntegerType) and type_.width.data == 1:
            value = 1 if value else 0
        return self.insert(arith.ConstantOp.create(result_types=[type_],
                                                   properties={"value": IntegerAttr(value, type_)})).results[0]

    def _binary(self, cls: type[Operation], lhs: SSAValue, rhs: SSAValue) -> SSAValue:
        return self.insert(cls.build(operands=[lhs, rhs], result_types=[lhs.type])).results[0]

    def addi(self, lhs: SSAValue, rhs: SSAValue) -> SSAValue:
        return self._binary(arith.AddIOp, lhs, rhs)

    def subi(self, lhs: SSAValue, rhs: SSAValue) -> SSAValue:
        return self._binary(arith.SubIOp, lhs, rhs)

    def muli(self, lhs: SSAValue, rhs: SSAValue) -> SSAValue:
        return self._binary(arith.MulIOp, lhs, rhs)

    def divsi(self, lhs: SSAValue, rhs: SSAValue) -> SSAValue:
        return self._binary(arith.DivSIOp, lhs, rhs)

    def maxsi(self, lhs: SSAValue, rhs: SSAValue) -> SSAValue:
        return self._binary(arith.MaxSIOp, lhs, rhs)

    def andi(self, lhs: SSAValue, rhs: SSAValue) -> SSAValue:
        return self._binary(arith.AndIOp, lhs, rhs)

    def cmpi(self, predicate: CmpIPredicate, lhs: SSAValue, rhs: SSAValue) -> SSAValue:
        return self.insert(arith.CmpIOp.build(
            operands=[lhs, rhs], result_types=[arith.i1_like(lhs.type)],
            properties={"predicate": IntegerAttr(int(predicate), 64)})).results[0]

    def select(self, condition: SSAValue, true_value: SSAValue, false_value: SSAValue) -> SSAValue:
        return self.insert(arith.SelectOp.build(operands=[condition, true_value, false_value],
                                                result_types=[true_value.type])).results[0]
