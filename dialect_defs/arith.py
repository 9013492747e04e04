"""The `arith` ops Triton's IR uses, with MLIR's exact custom forms.

Deviations from upstream MLIR: element types are not constrained beyond integer/float
(Triton's tensors carry layouts as encodings, which upstream allows too), and ops Triton
never emits (`arith.addui_extended`, vector-only ops) are left out.
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import (
    IndexType,
    IntegerAttr,
    IntegerType,
    TensorType,
    VectorType,
)
from xdsl.ir import Attribute, Data, SSAValue
from xdsl.irdl import (
    AnyAttr,
    IRDLOperation,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    param_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from ttpipe.dialects.props import int_prop
from ttpipe.ir.base import DialectAttribute, I64Enum, IntEnum
from ttpipe.ir.printer import attribute_text
from ttpipe.ir.syntax import FormattedOp, ParseState


# ------------------------------------------------------------------ flag attributes


@irdl_attr_definition
class FlagSet(Data[tuple[str, ...]]):
    """The flags of a bit-enum attribute, in MLIR's print order."""

    name = "ttpipe.flag_set"

    @classmethod
    def parse_parameter(cls, parser):
        raise NotImplementedError("FlagSet is read as part of its bit-enum attribute")

    def print_parameter(self, printer) -> None:
        printer.print_string(",".join(self.data))  # xDSL's own printer, for debugging only


class _BitEnumAttr(DialectAttribute):
    """`#arith.fastmath<nnan,contract>`; `none` when empty."""

    KNOWN: ClassVar[tuple[str, ...]] = ()
    ALL_FLAGS: ClassVar[tuple[str, ...]] = ()

    flags: FlagSet  # declared by each subclass: xDSL compares only a definition's own params

    @classmethod
    def get(cls, *flags: str):
        return cls(FlagSet(tuple(f for f in cls.KNOWN if f in flags)))

    def print_body(self, printer) -> str:
        flags = self.flags.data
        if set(self.ALL_FLAGS) and set(flags) >= set(self.ALL_FLAGS):
            return "<fast>"
        return "<" + (",".join(flags) if flags else "none") + ">"

    @classmethod
    def parse_parameters(cls, parser):
        parser.expect("<")
        words = parser.parse_comma_list(parser.parse_keyword)
        parser.expect(">")
        flags: set[str] = set()
        for word in words:
            if word == "fast" and cls.ALL_FLAGS:
                flags.update(cls.ALL_FLAGS)
            elif word == "none":
                continue
            elif word in cls.KNOWN:
                flags.add(word)
            else:
                raise parser.error(f"unknown {cls.name} flag '{word}'; expected one of {', '.join(cls.KNOWN)}")
        return cls.get(*flags)


@irdl_attr_definition
class FastMathAttr(_BitEnumAttr):
    name = "arith.fastmath"
    flags: FlagSet = param_def()
    KNOWN: ClassVar = ("reassoc", "nnan", "ninf", "nsz", "arcp", "contract", "afn")
    ALL_FLAGS: ClassVar = KNOWN


@irdl_attr_definition
class OverflowAttr(_BitEnumAttr):
    name = "arith.overflow"
    flags: FlagSet = param_def()
    KNOWN: ClassVar = ("nsw", "nuw")


FASTMATH_NONE = FastMathAttr.get()
OVERFLOW_NONE = OverflowAttr.get()


class CmpIPredicate(I64Enum):
    eq = 0
    ne = 1
    slt = 2
    sle = 3
    sgt = 4
    sge = 5
    ult = 6
    ule = 7
    ugt = 8
    uge = 9


class CmpFPredicate(I64Enum):
    false = 0
    oeq = 1
    ogt = 2
    oge = 3
    olt = 4
    ole = 5
    one = 6
    ord = 7
    ueq = 8
    ugt = 9
    uge = 10
    ult = 11
    ule = 12
    une = 13
    uno = 14
    true = 15


class RoundingMode(IntEnum):
    to_nearest_even = 0
    downward = 1
    upward = 2
    toward_zero = 3
    to_nearest_away = 4


def i1_like(type_: Attribute) -> Attribute:
    """i1 with the shape and encoding of `type_` (the result of a comparison)."""
    i1 = IntegerType(1)
    if isinstance(type_, TensorType):
        return TensorType(i1, type_.get_shape(), type_.encoding)
    if isinstance(type_, VectorType):
        return VectorType(i1, type_.get_shape())
    return i1


# ------------------------------------------------------------------ op families


class _ArithOp(FormattedOp, IRDLOperation):
    pass


class _SameTypeBinary(_ArithOp):
    lhs = operand_def()
    rhs = operand_def()
    result = result_def()
    traits = traits_def(Pure())
    SYNTAX: ClassVar = "$lhs `,` $rhs attr-dict `:` type($result)"
    SAME_TYPE: ClassVar = ("lhs", "rhs", "result")

    def __init__(self, lhs: SSAValue, rhs: SSAValue):
        """`lhs op rhs`, of `lhs`'s type."""
        super().__init__(operands=[lhs, rhs], result_types=[lhs.type])

    def verify_(self) -> None:
        if not (self.lhs.type == self.rhs.type == self.result.type):
            raise VerifyException(f"'{self.name}' op requires the same type for all operands and results")


class _OverflowBinary(_SameTypeBinary):
    overflowFlags = prop_def(OverflowAttr, default_value=OVERFLOW_NONE)
    SYNTAX: ClassVar = "$lhs `,` $rhs (`overflow` `` $overflowFlags^)? attr-dict `:` type($result)"
    ATTR_SYNTAX: ClassVar = {"overflowFlags": OverflowAttr}

    def __init__(self, lhs: SSAValue, rhs: SSAValue, *, overflow: OverflowAttr | None = None):
        IRDLOperation.__init__(self, operands=[lhs, rhs], result_types=[lhs.type],
                               properties={"overflowFlags": overflow})


class _FloatBinary(_SameTypeBinary):
    fastmath = prop_def(FastMathAttr, default_value=FASTMATH_NONE)
    SYNTAX: ClassVar = "$lhs `,` $rhs (`fastmath` `` $fastmath^)? attr-dict `:` type($result)"
    ATTR_SYNTAX: ClassVar = {"fastmath": FastMathAttr}

    def __init__(self, lhs: SSAValue, rhs: SSAValue, *, fastmath: FastMathAttr | None = None):
        IRDLOperation.__init__(self, operands=[lhs, rhs], result_types=[lhs.type], properties={"fastmath": fastmath})


class _Cast(_ArithOp):
    in_ = operand_def()
    out = result_def()
    traits = traits_def(Pure())
    SYNTAX: ClassVar = "$in_ attr-dict `:` type($in_) `to` type($out)"

    def __init__(self, src: SSAValue, *, result_type: Attribute):
        super().__init__(operands=[src], result_types=[result_type])


def _binary(base: type, op_name: str, class_name: str) -> type:
    return irdl_op_definition(type(class_name, (base,), {"name": op_name, "__module__": __name__}))


_OVERFLOW_OPS = {"addi": "AddIOp", "subi": "SubIOp", "muli": "MulIOp", "shli": "ShLIOp"}
_INT_OPS = {
    "divsi": "DivSIOp", "divui": "DivUIOp", "remsi": "RemSIOp", "remui": "RemUIOp",
    "ceildivsi": "CeilDivSIOp", "ceildivui": "CeilDivUIOp", "floordivsi": "FloorDivSIOp",
    "andi": "AndIOp", "ori": "OrIOp", "xori": "XOrIOp", "shrsi": "ShRSIOp", "shrui": "ShRUIOp",
    "maxsi": "MaxSIOp", "minsi": "MinSIOp", "maxui": "MaxUIOp", "minui": "MinUIOp",
}
_FLOAT_OPS = {
    "addf": "AddFOp", "subf": "SubFOp", "mulf": "MulFOp", "divf": "DivFOp", "remf": "RemFOp",
    "maxnumf": "MaxNumFOp", "minnumf": "MinNumFOp", "maximumf": "MaximumFOp", "minimumf": "MinimumFOp",
}

_generated: dict[str, type] = {}
for _table, _base in ((_OVERFLOW_OPS, _OverflowBinary), (_INT_OPS, _SameTypeBinary), (_FLOAT_OPS, _FloatBinary)):
    for _mnemonic, _cls_name in _table.items():
        _generated[_cls_name] = _binary(_base, f"arith.{_mnemonic}", _cls_name)
globals().update(_generated)


_CAST_OPS = {
    "extsi": "ExtSIOp", "extui": "ExtUIOp", "trunci": "TruncIOp", "sitofp": "SIToFPOp",
    "uitofp": "UIToFPOp", "fptosi": "FPToSIOp", "fptoui": "FPToUIOp", "bitcast": "BitcastOp",
    "index_cast": "IndexCastOp", "index_castui": "IndexCastUIOp",
}
for _mnemonic, _cls_name in _CAST_OPS.items():
    _generated[_cls_name] = _binary(_Cast, f"arith.{_mnemonic}", _cls_name)
globals().update(_generated)


@irdl_op_definition
class ExtFOp(_Cast):
    name = "arith.extf"
    fastmath = prop_def(FastMathAttr, default_value=FASTMATH_NONE)
    SYNTAX: ClassVar = "$in_ (`fastmath` `` $fastmath^)? attr-dict `:` type($in_) `to` type($out)"
    ATTR_SYNTAX: ClassVar = {"fastmath": FastMathAttr}

    def __init__(self, src: SSAValue, *, result_type: Attribute, fastmath: FastMathAttr | None = None):
        IRDLOperation.__init__(self, operands=[src], result_types=[result_type], properties={"fastmath": fastmath})


@irdl_op_definition
class TruncFOp(_Cast):
    name = "arith.truncf"
    roundingmode = opt_prop_def(IntegerAttr)
    fastmath = prop_def(FastMathAttr, default_value=FASTMATH_NONE)
    SYNTAX: ClassVar = "$in_ ($roundingmode^)? (`fastmath` `` $fastmath^)? attr-dict `:` type($in_) `to` type($out)"
    ATTR_SYNTAX: ClassVar = {"fastmath": FastMathAttr, "roundingmode": RoundingMode}

    def __init__(self, src: SSAValue, *, result_type: Attribute, rounding: RoundingMode | IntegerAttr | None = None,
                 fastmath: FastMathAttr | None = None):
        IRDLOperation.__init__(self, operands=[src], result_types=[result_type],
                               properties={"roundingmode": int_prop(rounding), "fastmath": fastmath})


@irdl_op_definition
class NegFOp(_ArithOp):
    name = "arith.negf"
    operand = operand_def()
    result = result_def()
    fastmath = prop_def(FastMathAttr, default_value=FASTMATH_NONE)
    traits = traits_def(Pure())
    SYNTAX: ClassVar = "$operand (`fastmath` `` $fastmath^)? attr-dict `:` type($result)"
    ATTR_SYNTAX: ClassVar = {"fastmath": FastMathAttr}
    SAME_TYPE: ClassVar = ("operand", "result")


@irdl_op_definition
class CmpIOp(_ArithOp):
    name = "arith.cmpi"
    predicate = prop_def(IntegerAttr)
    lhs = operand_def()
    rhs = operand_def()
    result = result_def()
    traits = traits_def(Pure())
    SYNTAX: ClassVar = "$predicate `,` $lhs `,` $rhs attr-dict `:` type($lhs)"
    ATTR_SYNTAX: ClassVar = {"predicate": CmpIPredicate}
    SAME_TYPE: ClassVar = ("lhs", "rhs")
    TYPE_RULES: ClassVar = {"result": lambda s: i1_like(s.type("lhs"))}

    def __init__(self, predicate: CmpIPredicate, lhs: SSAValue, rhs: SSAValue):
        """`lhs predicate rhs`: i1, shaped like `lhs`."""
        super().__init__(operands=[lhs, rhs], result_types=[i1_like(lhs.type)],
                         properties={"predicate": int_prop(predicate, IntegerType(64))})


@irdl_op_definition
class CmpFOp(_ArithOp):
    name = "arith.cmpf"
    predicate = prop_def(IntegerAttr)
    lhs = operand_def()
    rhs = operand_def()
    result = result_def()
    fastmath = prop_def(FastMathAttr, default_value=FASTMATH_NONE)
    traits = traits_def(Pure())
    SYNTAX: ClassVar = "$predicate `,` $lhs `,` $rhs (`fastmath` `` $fastmath^)? attr-dict `:` type($lhs)"
    ATTR_SYNTAX: ClassVar = {"predicate": CmpFPredicate, "fastmath": FastMathAttr}
    SAME_TYPE: ClassVar = ("lhs", "rhs")
    TYPE_RULES: ClassVar = {"result": lambda s: i1_like(s.type("lhs"))}

    def __init__(self, predicate: CmpFPredicate, lhs: SSAValue, rhs: SSAValue):
        """`lhs predicate rhs` (ordered or unordered, as the predicate says): i1, shaped like `lhs`."""
        super().__init__(operands=[lhs, rhs], result_types=[i1_like(lhs.type)],
                         properties={"predicate": int_prop(predicate, IntegerType(64))})


@irdl_op_definition
class SelectOp(_ArithOp):
    """`arith.select %c, %a, %b : type` or, with a tensor condition, `: cond-type, type`."""

    name = "arith.select"
    condition = operand_def()
    true_value = operand_def()
    false_value = operand_def()
    result = result_def()
    traits = traits_def(Pure())
    SYNTAX: ClassVar = "$condition `,` $true_value `,` $false_value attr-dict `:` custom<SelectTypes>()"

    def __init__(self, condition: SSAValue, true_value: SSAValue, false_value: SSAValue):
        super().__init__(operands=[condition, true_value, false_value], result_types=[true_value.type])

    @staticmethod
    def parse_SelectTypes(parser, state: ParseState) -> None:
        first = parser.parse_type()
        if parser.accept(","):
            state.operand_types["condition"] = [first]
            first = parser.parse_type()
        else:
            state.operand_types["condition"] = [IntegerType(1)]
        for name in ("true_value", "false_value"):
            state.operand_types[name] = [first]
        state.result_types["result"] = [first]

    @staticmethod
    def print_SelectTypes(printer, op: "SelectOp") -> None:
        if isinstance(op.condition.type, (TensorType, VectorType)):
            printer.write(printer.attr(op.condition.type) + ", ")
        printer.write(printer.attr(op.result.type))


@irdl_op_definition
class ConstantOp(_ArithOp):
    name = "arith.constant"
    value = prop_def(AnyAttr())
    result = result_def()
    traits = traits_def(Pure())
    SYNTAX: ClassVar = "attr-dict $value"

    def __init__(self, value: Attribute, result_type: Attribute | None = None):
        """A constant of a typed attribute (`IntegerAttr`, `FloatAttr`, `DenseElementsAttr`),
        of that attribute's type unless `result_type` says otherwise."""
        super().__init__(result_types=[value.type if result_type is None else result_type],
                         properties={"value": value})

    @classmethod
    def from_int(cls, value: int, type_: IntegerType | IndexType) -> ConstantOp:
        """MLIR's `arith::ConstantIntOp`/`ConstantIndexOp`: `value` of an integer or index
        type (any non-zero value is `true` for i1)."""
        if isinstance(type_, IntegerType) and type_.width.data == 1:
            value = 1 if value else 0
        return cls(IntegerAttr(value, type_))

    @classmethod
    def parse_custom(cls, parser, name_offset: int):
        attrs = dict(parser.parse_dictionary().data) if parser.at("{") else {}
        value = parser.parse_attribute()
        result_type = getattr(value, "type", None)
        if result_type is None:
            raise parser.error("arith.constant needs a typed value")
        return cls.create(result_types=[result_type], properties={"value": value}, attributes=attrs)

    def print_custom(self, printer) -> None:
        """`attr-dict $value`: the value with its type (`1 : i64`), as everywhere outside arrays."""
        printer.print_attr_dict(dict(self.attributes))
        printer.write(" " + printer.attr(self.value))

    def result_name_hints(self) -> list[str]:
        """`%c0_i32`, `%c0` (index), `%true`/`%false`, `%cst`, as MLIR names constants."""
        value = self.value
        if isinstance(value, IntegerAttr):
            type_ = value.type
            if isinstance(type_, IndexType):
                return [f"c{value.value.data}"]
            if type_.width.data == 1:
                return ["true" if value.value.data else "false"]
            return [f"c{value.value.data}_{attribute_text(type_)}"]
        return ["cst"]


OPS = (
    *_generated.values(), ExtFOp, TruncFOp, NegFOp, CmpIOp, CmpFOp, SelectOp, ConstantOp,
)
ATTRS = (FastMathAttr, OverflowAttr)
