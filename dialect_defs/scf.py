"""The `scf` ops Triton's IR uses, with MLIR's exact custom forms.

`scf.for`, `scf.if`, `scf.while`, `scf.execute_region` and `scf.index_switch` have
hand-written forms (`SCF.cpp`), reproduced here to the character: `scf.for` prints
`-> (types)  : i32 {` with two spaces before a non-index induction variable type, the
empty `scf.yield` of a loop or `if` without results is implied (the parser adds it, as
`ensureTerminator` does, at the op's location), and region arguments declared before a
region (`%iv = ...`, `iter_args(%a = %x)`, `(%arg = %init)`) take the location of their
name, as MLIR's parser gives them. `scf.forall`, `scf.parallel` and `scf.reduce` are left
out: Triton never emits them (its TTGIR conversion marks them illegal).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects.builtin import DenseArrayBase, FunctionType, IndexType, IntegerType, UnitAttr, i64
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    region_def,
    traits_def,
    var_operand_def,
    var_region_def,
    var_result_def,
)
from xdsl.traits import IsTerminator, Pure, RecursiveMemoryEffect, ReturnLike, SingleBlockImplicitTerminator

from ttpipe.dialects.props import unit_prop
from ttpipe.ir.syntax import FormattedOp


# ------------------------------------------------------------------ terminators


@irdl_op_definition
class YieldOp(FormattedOp, IRDLOperation):
    name = "scf.yield"
    values = var_operand_def()
    traits = traits_def(IsTerminator(), Pure(), ReturnLike())
    SYNTAX: ClassVar = "attr-dict ($values^ `:` type($values))?"

    def __init__(self, *values: SSAValue):
        super().__init__(operands=[values])


@irdl_op_definition
class ConditionOp(FormattedOp, IRDLOperation):
    name = "scf.condition"
    condition = operand_def(IntegerType(1))
    args = var_operand_def()
    traits = traits_def(IsTerminator(), Pure())
    SYNTAX: ClassVar = "`(` $condition `)` attr-dict ($args^ `:` type($args))?"
    TYPE_RULES: ClassVar = {"condition": lambda s: IntegerType(1)}


# ------------------------------------------------------------------ shared pieces


def _parse_attr_dict(parser, cls, props: dict[str, Attribute], keyword: bool = False) -> dict[str, Attribute]:
    """An optional attr-dict (after `attributes` if `keyword`): inherent attributes go into
    `props`, the discardable ones are returned."""
    if keyword and not parser.accept_keyword("attributes"):
        return {}
    if not parser.at("{"):
        return {}
    declared = cls.get_irdl_definition().properties
    rest: dict[str, Attribute] = {}
    for key, value in parser.parse_dictionary().data.items():
        (props if key in declared else rest)[key] = value
    return rest


def _print_attr_dict(printer, op: Operation, elided: tuple[str, ...] = (), keyword: bool = False) -> None:
    """MLIR's `printOptionalAttrDict(op->getAttrs(), elided)`: inherent and discardable."""
    attrs = {k: v for k, v in op.properties.items() if k not in elided}
    attrs.update(op.attributes)
    if attrs:
        if keyword:
            printer.write(" attributes")
        printer.print_attr_dict(attrs)


def _parse_assignment_list(parser) -> tuple[list, list]:
    """`(%arg = %init, ...)`: the region arguments and the initial values."""
    args, inits = [], []

    def one() -> None:
        args.append(parser.parse_operand())
        parser.expect("=")
        inits.append(parser.parse_operand())

    parser.parse_delimited("(", ")", one)
    return args, inits


def _assignment_list(printer, args, inits) -> str:
    return "(" + ", ".join(f"{printer.value(a)} = {printer.value(i)}" for a, i in zip(args, inits)) + ")"


def _parse_optional_arrow_types(parser) -> list[Attribute]:
    return parser.parse_function_results() if parser.accept("->") else []


def _ensure_terminator(parser, region: Region, name_offset: int) -> None:
    """MLIR's `ensureTerminator`: an empty `scf.yield` at the op's location if none ends the block."""
    if not region.blocks:
        region.add_block(Block())
    block = region.blocks[-1]
    last = block.last_op
    if last is None or not last.has_trait(IsTerminator, value_if_unregistered=False):
        yield_ = YieldOp.create()
        yield_.location = parser.default_location(name_offset)
        block.add_op(yield_)


class _ScfOp(FormattedOp, IRDLOperation):
    pass


# ------------------------------------------------------------------ scf.for


@irdl_op_definition
class ForOp(_ScfOp):
    """`scf.for unsigned? %iv = %lb to %ub step %s (iter_args(...) -> (types))? (: type)? {...}`."""

    name = "scf.for"
    lowerBound = operand_def()
    upperBound = operand_def()
    step = operand_def()
    initArgs = var_operand_def()
    res = var_result_def()
    unsignedCmp = opt_prop_def(UnitAttr)
    region = region_def("single_block")
    traits = traits_def(RecursiveMemoryEffect(), SingleBlockImplicitTerminator(YieldOp))

    def __init__(self, lower_bound: SSAValue, upper_bound: SSAValue, step: SSAValue,
                 init_args: Sequence[SSAValue] = (), *, body: Region | Block, unsigned_cmp: bool = False):
        """A loop whose results have the types of `init_args`; `body` takes the induction
        variable and the iteration arguments."""
        super().__init__(operands=[lower_bound, upper_bound, step, init_args],
                         result_types=[[value.type for value in init_args]],
                         properties={"unsignedCmp": unit_prop(unsigned_cmp)},
                         regions=[body if isinstance(body, Region) else Region(body)])

    @property
    def body(self) -> Block:
        return self.region.block

    @classmethod
    def parse_custom(cls, parser, name_offset: int) -> Operation:
        props: dict[str, Attribute] = {}
        if parser.accept_keyword("unsigned"):
            props["unsignedCmp"] = UnitAttr()
        iv = parser.parse_operand()
        parser.expect("=")
        bounds = [parser.parse_operand()]
        parser.expect_keyword("to")
        bounds.append(parser.parse_operand())
        parser.expect_keyword("step")
        bounds.append(parser.parse_operand())
        args, inits, types = [], [], []
        if parser.accept_keyword("iter_args"):
            args, inits = _parse_assignment_list(parser)
            parser.expect("->")
            types = parser.parse_function_results()
        if len(args) != len(types):
            raise parser.error("mismatch in number of loop-carried values and defined values")
        iv_type = parser.parse_type() if parser.accept(":") else IndexType()
        region = parser.parse_region(entry_args=[(iv, iv_type, None)] + [(a, t, None) for a, t in zip(args, types)])
        _ensure_terminator(parser, region, name_offset)
        operands = [parser.resolve(b, iv_type) for b in bounds]
        operands += [parser.resolve(i, t) for i, t in zip(inits, types)]
        attrs = _parse_attr_dict(parser, cls, props)
        return cls.create(operands=operands, result_types=types, properties=props,
                          attributes=attrs, regions=[region])

    def print_custom(self, printer) -> None:
        write = printer.write
        if self.unsignedCmp is not None:
            write(" unsigned")
        iv, *iter_args = self.body.args
        write(f" {printer.value(iv)} = {printer.value(self.lowerBound)} to "
              f"{printer.value(self.upperBound)} step {printer.value(self.step)}")
        if self.initArgs:
            write(" iter_args" + _assignment_list(printer, iter_args, self.initArgs))
            write(" -> (" + printer.type_list(i.type for i in self.initArgs) + ")")
        write(" ")
        if not isinstance(iv.type, IndexType):
            write(" : " + printer.attr(iv.type) + " ")
        printer.print_region(self.region, print_entry_args=False, omit_terminators=not self.initArgs)
        _print_attr_dict(printer, self, elided=("unsignedCmp",))


# ------------------------------------------------------------------ scf.if


@irdl_op_definition
class IfOp(_ScfOp):
    """`scf.if %c (-> (types))? {...} (else {...})?`."""

    name = "scf.if"
    condition = operand_def(IntegerType(1))
    res = var_result_def()
    thenRegion = region_def("single_block")
    elseRegion = region_def()
    traits = traits_def(RecursiveMemoryEffect(), SingleBlockImplicitTerminator(YieldOp))

    def __init__(self, condition: SSAValue, result_types: Sequence[Attribute], then_region: Region,
                 else_region: Region | None = None):
        super().__init__(operands=[condition], result_types=[result_types],
                         regions=[then_region, Region() if else_region is None else else_region])

    @classmethod
    def parse_custom(cls, parser, name_offset: int) -> Operation:
        condition = parser.resolve(parser.parse_operand(), IntegerType(1))
        types = _parse_optional_arrow_types(parser)
        then_region = parser.parse_region()
        _ensure_terminator(parser, then_region, name_offset)
        else_region = Region()
        if parser.accept_keyword("else"):
            else_region = parser.parse_region()
            _ensure_terminator(parser, else_region, name_offset)
        props: dict[str, Attribute] = {}
        attrs = _parse_attr_dict(parser, cls, props)
        return cls.create(operands=[condition], result_types=types, properties=props,
                          attributes=attrs, regions=[then_region, else_region])

    def print_custom(self, printer) -> None:
        printer.write(" " + printer.value(self.condition))
        if self.res:
            printer.write(" -> (" + printer.type_list(r.type for r in self.res) + ")")
        printer.write(" ")
        printer.print_region(self.thenRegion, print_entry_args=False, omit_terminators=not self.res)
        if self.elseRegion.blocks:
            printer.write(" else ")
            printer.print_region(self.elseRegion, print_entry_args=False, omit_terminators=not self.res)
        _print_attr_dict(printer, self)


# ------------------------------------------------------------------ scf.while


@irdl_op_definition
class WhileOp(_ScfOp):
    """`scf.while (%arg = %init, ...)? : (types) -> types {before} do {after} (attributes {...})?`."""

    name = "scf.while"
    inits = var_operand_def()
    res = var_result_def()
    before = region_def()
    after = region_def()
    traits = traits_def(RecursiveMemoryEffect())

    @classmethod
    def parse_custom(cls, parser, name_offset: int) -> Operation:
        args, inits = _parse_assignment_list(parser) if parser.at("(") else ([], [])
        parser.expect(":")
        type_start = parser.skip()
        fn_type = parser.parse_type()
        if not isinstance(fn_type, FunctionType):
            raise parser.error("expected function type", type_start)
        input_types = list(fn_type.inputs.data)
        if len(input_types) != len(inits):
            raise parser.error(f"expected as many input types as operands (expected {len(inits)} got "
                               f"{len(input_types)})", type_start)
        operands = [parser.resolve(i, t) for i, t in zip(inits, input_types)]
        before = parser.parse_region(entry_args=[(a, t, None) for a, t in zip(args, input_types)] if args else None)
        parser.expect_keyword("do")
        after = parser.parse_region()
        props: dict[str, Attribute] = {}
        attrs = _parse_attr_dict(parser, cls, props, keyword=True)
        return cls.create(operands=operands, result_types=list(fn_type.outputs.data), properties=props,
                          attributes=attrs, regions=[before, after])

    def print_custom(self, printer) -> None:
        if self.inits:
            printer.write(" " + _assignment_list(printer, self.before.blocks[0].args, self.inits))
        printer.write(" : " + printer.function_type([i.type for i in self.inits], [r.type for r in self.res]) + " ")
        printer.print_region(self.before, print_entry_args=False)
        printer.write(" do ")
        printer.print_region(self.after)
        _print_attr_dict(printer, self, keyword=True)


# ------------------------------------------------------------------ scf.execute_region


@irdl_op_definition
class ExecuteRegionOp(_ScfOp):
    """`scf.execute_region (-> types)? no_inline? {...}`."""

    name = "scf.execute_region"
    res = var_result_def()
    no_inline = opt_prop_def(UnitAttr)
    region = region_def()
    traits = traits_def(RecursiveMemoryEffect())

    @classmethod
    def parse_custom(cls, parser, name_offset: int) -> Operation:
        types = _parse_optional_arrow_types(parser)
        props: dict[str, Attribute] = {}
        if parser.accept_keyword("no_inline"):
            props["no_inline"] = UnitAttr()
        region = parser.parse_region()
        attrs = _parse_attr_dict(parser, cls, props)
        return cls.create(result_types=types, properties=props, attributes=attrs, regions=[region])

    def print_custom(self, printer) -> None:
        types = [r.type for r in self.res]
        if types:
            printer.write(" -> " + _arrow_types(printer, types))
        printer.write(" ")
        if self.no_inline is not None:
            printer.write("no_inline ")
        printer.print_region(self.region, print_entry_args=False)
        _print_attr_dict(printer, self, elided=("no_inline",))


def _arrow_types(printer, types: list[Attribute]) -> str:
    """MLIR's `printArrowTypeList` after the arrow: one type bare, else in parentheses."""
    if len(types) == 1 and not isinstance(types[0], FunctionType):
        return printer.attr(types[0])
    return "(" + printer.type_list(types) + ")"


# ------------------------------------------------------------------ scf.index_switch


@irdl_op_definition
class IndexSwitchOp(_ScfOp):
    """`scf.index_switch %i attr-dict (-> types)? (case N {...})* default {...}`, one case a line."""

    name = "scf.index_switch"
    arg = operand_def(IndexType())
    cases = prop_def(DenseArrayBase)
    res = var_result_def()
    defaultRegion = region_def("single_block")
    caseRegions = var_region_def("single_block")
    traits = traits_def(RecursiveMemoryEffect(), SingleBlockImplicitTerminator(YieldOp))

    @classmethod
    def parse_custom(cls, parser, name_offset: int) -> Operation:
        arg = parser.resolve(parser.parse_operand(), IndexType())
        props: dict[str, Attribute] = {}
        attrs = _parse_attr_dict(parser, cls, props)
        types: list[Attribute] = []
        if parser.accept("->"):
            types = parser.parse_comma_list(parser.parse_type)
        values, regions = [], []
        while parser.accept_keyword("case"):
            values.append(parser.parse_integer())
            regions.append(parser.parse_region())
        props["cases"] = DenseArrayBase.from_list(i64, values)
        parser.expect_keyword("default")
        default = parser.parse_region()
        _ensure_terminator(parser, default, name_offset)
        return cls.create(operands=[arg], result_types=types, properties=props, attributes=attrs,
                          regions=[default, *regions])

    def print_custom(self, printer) -> None:
        printer.write(" " + printer.value(self.arg))
        _print_attr_dict(printer, self, elided=("cases",))
        if self.res:
            printer.write(" -> " + printer.type_list(r.type for r in self.res))
        printer.write(" ")
        for value, region in zip(self.cases.get_values(), self.caseRegions):
            printer.newline()
            printer.write(f"case {value} ")
            printer.print_region(region, print_entry_args=False)
        printer.newline()
        printer.write("default ")
        printer.print_region(self.defaultRegion, print_terminator=False)


OPS = (YieldOp, ConditionOp, ForOp, IfOp, WhileOp, ExecuteRegionOp, IndexSwitchOp)
ATTRS = ()
