"""The `ub` dialect: `ub.poison : type`, whose value `#ub.poison` is elided as the default."""

from __future__ import annotations

from typing import ClassVar

from xdsl.ir import Attribute
from xdsl.irdl import IRDLOperation, irdl_attr_definition, irdl_op_definition, prop_def, result_def, traits_def
from xdsl.traits import ConstantLike, Pure

from ttpipe.ir.base import DialectAttribute
from ttpipe.ir.syntax import FormattedOp


@irdl_attr_definition
class PoisonAttr(DialectAttribute):
    """`#ub.poison`: the value of a poison constant."""

    name = "ub.poison"

    @classmethod
    def parse_parameters(cls, parser) -> "PoisonAttr":
        return cls()

    def print_body(self, printer) -> str:
        return ""


@irdl_op_definition
class PoisonOp(FormattedOp, IRDLOperation):
    name = "ub.poison"
    value = prop_def(PoisonAttr, default_value=PoisonAttr())
    result = result_def()
    traits = traits_def(ConstantLike(), Pure())
    SYNTAX: ClassVar = "attr-dict (`<` $value^ `>`)? `:` type($result)"

    def __init__(self, result_type: Attribute):
        super().__init__(result_types=[result_type])


OPS = (PoisonOp,)
ATTRS = (PoisonAttr,)
