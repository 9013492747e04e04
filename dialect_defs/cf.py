"""The `cf` ops: unstructured branches (Triton's frontend emits `cf.br`/`cf.cond_br` for
early returns), `cf.assert`, and `cf.switch` with MLIR's exact custom forms.

Successors print as MLIR's `printSuccessorAndUseList` does: `^bb1(%a, %b : i32, i32)`.
One deviation: `cf.switch` prints a negative case value signed (`-1:`), where MLIR prints
it zero-extended (`4294967295:` for i32), text MLIR's own parser then rejects.
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import DenseArrayBase, IntegerType, StringAttr, VectorType, i32
from xdsl.ir import Attribute, Operation
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    successor_def,
    traits_def,
    var_operand_def,
    var_successor_def,
)
from xdsl.traits import IsTerminator, Pure

from ttpipe.dialects.builtin import DenseElementsAttr
from ttpipe.ir.syntax import FormattedOp


@irdl_op_definition
class BranchOp(FormattedOp, IRDLOperation):
    name = "cf.br"
    destOperands = var_operand_def()
    dest = successor_def()
    traits = traits_def(IsTerminator(), Pure())
    SYNTAX: ClassVar = "$dest (`(` $destOperands^ `:` type($destOperands) `)`)? attr-dict"


@irdl_op_definition
class CondBranchOp(FormattedOp, IRDLOperation):
    name = "cf.cond_br"
    condition = operand_def(IntegerType(1))
    trueDestOperands = var_operand_def()
    falseDestOperands = var_operand_def()
    branch_weights = opt_prop_def(DenseArrayBase)
    trueDest = successor_def()
    falseDest = successor_def()
    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(IsTerminator(), Pure())
    SYNTAX: ClassVar = (
        "$condition (`weights` `(` $branch_weights^ `)`)? `,`"
        " $trueDest (`(` $trueDestOperands^ `:` type($trueDestOperands) `)`)? `,`"
        " $falseDest (`(` $falseDestOperands^ `:` type($falseDestOperands) `)`)? attr-dict"
    )
    ATTR_SYNTAX: ClassVar = {"branch_weights": "array:i32"}
    TYPE_RULES: ClassVar = {"condition": lambda s: IntegerType(1)}


@irdl_op_definition
class AssertOp(FormattedOp, IRDLOperation):
    name = "cf.assert"
    arg = operand_def(IntegerType(1))
    msg = prop_def(StringAttr)
    SYNTAX: ClassVar = "$arg `,` $msg attr-dict"
    ATTR_SYNTAX: ClassVar = {"msg": "str"}
    TYPE_RULES: ClassVar = {"arg": lambda s: IntegerType(1)}


@irdl_op_definition
class SwitchOp(FormattedOp, IRDLOperation):
    """`cf.switch %flag : i32, [ default: ^bb1(...), 42: ^bb2(...) ]`, one case a line."""

    name = "cf.switch"
    flag = operand_def()
    defaultOperands = var_operand_def()
    caseOperands = var_operand_def()
    case_values = opt_prop_def(DenseElementsAttr)
    case_operand_segments = prop_def(DenseArrayBase)
    defaultDestination = successor_def()
    caseDestinations = var_successor_def()
    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(IsTerminator(), Pure())

    @classmethod
    def parse_custom(cls, parser, name_offset: int) -> Operation:
        flag = parser.parse_operand()
        parser.expect(":")
        flag_type = parser.parse_type()
        parser.expect(",")
        parser.expect("[")
        parser.expect_keyword("default")
        parser.expect(":")
        default, default_operands = _parse_successor_and_uses(parser)
        values, dests, case_operands = [], [], []
        while parser.accept(","):
            values.append(parser.parse_integer())
            parser.expect(":")
            dest, operands = _parse_successor_and_uses(parser)
            dests.append(dest)
            case_operands.append(operands)
        parser.expect("]")
        props: dict[str, Attribute] = {}
        attrs: dict[str, Attribute] = {}
        if parser.at("{"):
            declared = cls.get_irdl_definition().properties
            for key, value in parser.parse_dictionary().data.items():
                (props if key in declared else attrs)[key] = value
        if values:
            props["case_values"] = DenseElementsAttr.from_values(VectorType(flag_type, [len(values)]), values)
        props["case_operand_segments"] = DenseArrayBase.from_list(i32, [len(o) for o in case_operands])
        flat_cases = [o for operands in case_operands for o in operands]
        props["operandSegmentSizes"] = DenseArrayBase.from_list(i32, [1, len(default_operands), len(flat_cases)])
        return cls.create(operands=[parser.resolve(flag, flag_type), *default_operands, *flat_cases],
                          properties=props, attributes=attrs, successors=[default, *dests])

    def print_custom(self, printer) -> None:
        printer.write(f" {printer.value(self.flag)} : {printer.attr(self.flag.type)}, [")
        printer.newline()
        printer.write("  default: " + _successor_and_uses(printer, self.defaultDestination, self.defaultOperands))
        if self.case_values is not None:
            sizes = self.case_operand_segments.get_values()
            start = 0
            for value, dest, size in zip(self.case_values.values(), self.caseDestinations, sizes):
                printer.write(",")
                printer.newline()
                uses = self.caseOperands[start:start + size]
                printer.write(f"  {value}: " + _successor_and_uses(printer, dest, uses))
                start += size
            printer.newline()
        printer.write("]")
        attrs = {k: v for k, v in self.properties.items()
                 if k not in ("case_values", "case_operand_segments", "operandSegmentSizes")}
        attrs.update(self.attributes)
        printer.print_attr_dict(attrs)


def _parse_successor_and_uses(parser):
    """`^bb1` or `^bb1(%a, %b : i32, i32)`: the block and its resolved operands."""
    dest = parser.parse_successor()
    if not parser.accept("("):
        return dest, []
    names = parser.parse_comma_list(parser.parse_operand)
    parser.expect(":")
    types = parser.parse_comma_list(parser.parse_type)
    parser.expect(")")
    if len(names) != len(types):
        raise parser.error(f"{len(names)} operands present, but expected {len(types)}")
    return dest, [parser.resolve(n, t) for n, t in zip(names, types)]


def _successor_and_uses(printer, dest, operands) -> str:
    text = printer.block_names[dest]
    if operands:
        text += f"({printer.values(operands)} : {printer.type_list(o.type for o in operands)})"
    return text


OPS = (BranchOp, CondBranchOp, AssertOp, SwitchOp)
ATTRS = ()
