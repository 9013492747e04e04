"""The `math` dialect (every op of the MLIR release Triton 3.6 builds against), with MLIR's
exact custom forms.

Float ops carry `fastmath` flags (`arith.fastmath`, elided when `none`), printed
`fastmath<nnan,afn>` after the operands as arith does. The classification ops
(`math.isnan`, ...) have the flags too but no place for them in their format: they go in
the attribute dictionary (`{fastmath = #arith.fastmath<afn>}`) as MLIR prints them.
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.irdl import IRDLOperation, irdl_op_definition, operand_def, prop_def, result_def, traits_def
from xdsl.traits import Pure

from ttpipe.dialects.arith import FASTMATH_NONE, FastMathAttr, i1_like
from ttpipe.ir.syntax import FormattedOp

_FASTMATH = "(`fastmath` `` $fastmath^)?"


class _MathOp(FormattedOp, IRDLOperation):
    result = result_def()
    traits = traits_def(Pure())


class _IntUnary(_MathOp):
    operand = operand_def()
    SYNTAX: ClassVar = "$operand attr-dict `:` type($result)"
    SAME_TYPE: ClassVar = ("operand", "result")


class _FloatUnary(_MathOp):
    operand = operand_def()
    fastmath = prop_def(FastMathAttr, default_value=FASTMATH_NONE)
    SYNTAX: ClassVar = f"$operand {_FASTMATH} attr-dict `:` type($result)"
    ATTR_SYNTAX: ClassVar = {"fastmath": FastMathAttr}
    SAME_TYPE: ClassVar = ("operand", "result")


class _IntBinary(_MathOp):
    lhs = operand_def()
    rhs = operand_def()
    SYNTAX: ClassVar = "$lhs `,` $rhs attr-dict `:` type($result)"
    SAME_TYPE: ClassVar = ("lhs", "rhs", "result")


class _FloatBinary(_MathOp):
    lhs = operand_def()
    rhs = operand_def()
    fastmath = prop_def(FastMathAttr, default_value=FASTMATH_NONE)
    SYNTAX: ClassVar = f"$lhs `,` $rhs {_FASTMATH} attr-dict `:` type($result)"
    ATTR_SYNTAX: ClassVar = {"fastmath": FastMathAttr}
    SAME_TYPE: ClassVar = ("lhs", "rhs", "result")


class _Classification(_MathOp):
    """`math.isnan %x : f32` -> i1 (with the shape of the operand)."""

    operand = operand_def()
    fastmath = prop_def(FastMathAttr, default_value=FASTMATH_NONE)
    SYNTAX: ClassVar = "$operand attr-dict `:` type($operand)"
    TYPE_RULES: ClassVar = {"result": lambda s: i1_like(s.type("operand"))}


def _define(base: type, mnemonic: str, class_name: str) -> type:
    return irdl_op_definition(type(class_name, (base,), {"name": f"math.{mnemonic}", "__module__": __name__}))


_FAMILIES = {
    _IntUnary: {"absi": "AbsIOp", "ctlz": "CountLeadingZerosOp", "cttz": "CountTrailingZerosOp",
                "ctpop": "CtPopOp"},
    _FloatUnary: {
        "absf": "AbsFOp", "acos": "AcosOp", "acosh": "AcoshOp", "asin": "AsinOp", "asinh": "AsinhOp",
        "atan": "AtanOp", "atanh": "AtanhOp", "cbrt": "CbrtOp", "ceil": "CeilOp", "cos": "CosOp",
        "cosh": "CoshOp", "erf": "ErfOp", "erfc": "ErfcOp", "exp": "ExpOp", "exp2": "Exp2Op",
        "expm1": "ExpM1Op", "floor": "FloorOp", "log": "LogOp", "log10": "Log10Op", "log1p": "Log1pOp",
        "log2": "Log2Op", "round": "RoundOp", "roundeven": "RoundEvenOp", "rsqrt": "RsqrtOp",
        "sin": "SinOp", "sinh": "SinhOp", "sqrt": "SqrtOp", "tan": "TanOp", "tanh": "TanhOp",
        "trunc": "TruncOp",
    },
    _IntBinary: {"ipowi": "IPowIOp"},
    _FloatBinary: {"atan2": "Atan2Op", "copysign": "CopySignOp", "powf": "PowFOp"},
    _Classification: {"isfinite": "IsFiniteOp", "isinf": "IsInfOp", "isnan": "IsNaNOp",
                      "isnormal": "IsNormalOp"},
}

_generated: dict[str, type] = {
    class_name: _define(base, mnemonic, class_name)
    for base, table in _FAMILIES.items()
    for mnemonic, class_name in table.items()
}
globals().update(_generated)


@irdl_op_definition
class FmaOp(_MathOp):
    name = "math.fma"
    a = operand_def()
    b = operand_def()
    c = operand_def()
    fastmath = prop_def(FastMathAttr, default_value=FASTMATH_NONE)
    SYNTAX: ClassVar = f"$a `,` $b `,` $c {_FASTMATH} attr-dict `:` type($result)"
    ATTR_SYNTAX: ClassVar = {"fastmath": FastMathAttr}
    SAME_TYPE: ClassVar = ("a", "b", "c", "result")


@irdl_op_definition
class FPowIOp(_MathOp):
    """`math.fpowi %x, %n : f32, i32`."""

    name = "math.fpowi"
    lhs = operand_def()
    rhs = operand_def()
    fastmath = prop_def(FastMathAttr, default_value=FASTMATH_NONE)
    SYNTAX: ClassVar = f"$lhs `,` $rhs {_FASTMATH} attr-dict `:` type($lhs) `,` type($rhs)"
    ATTR_SYNTAX: ClassVar = {"fastmath": FastMathAttr}
    SAME_TYPE: ClassVar = ("lhs", "result")


@irdl_op_definition
class ClampFOp(_MathOp):
    """`math.clampf %x to [%lo, %hi] : f32`."""

    name = "math.clampf"
    operand = operand_def()
    min = operand_def()
    max = operand_def()
    fastmath = prop_def(FastMathAttr, default_value=FASTMATH_NONE)
    SYNTAX: ClassVar = f"$operand `to` ` ` `[` $min `,` $max `]` {_FASTMATH} attr-dict `:` type($result)"
    ATTR_SYNTAX: ClassVar = {"fastmath": FastMathAttr}
    SAME_TYPE: ClassVar = ("operand", "min", "max", "result")


OPS = (*_generated.values(), FmaOp, FPowIOp, ClampFOp)
ATTRS = ()
