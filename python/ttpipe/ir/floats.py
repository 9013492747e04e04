"""Bit-exact floating-point literals for every float type Triton prints.

Literals are rounded from their exact rational value straight into the target format
(round to nearest, ties to even), never through a double, so `0.1 : bf16` gets the bits
MLIR's APFloat gives. Printing follows MLIR's `printFloatValue`: `%e`-style with six
digits after the point when that text reads back to the same bits, the shortest decimal
that does otherwise, and the hexadecimal bit pattern for infinities and NaNs.
"""

from __future__ import annotations

import math
import struct
from dataclasses import dataclass
from fractions import Fraction

from xdsl.dialects.builtin import (
    BFloat16Type,
    Float4E2M1FNType,
    Float6E2M3FNType,
    Float6E3M2FNType,
    Float8E3M4Type,
    Float8E4M3B11FNUZType,
    Float8E4M3FNType,
    Float8E4M3FNUZType,
    Float8E4M3Type,
    Float8E5M2FNUZType,
    Float8E5M2Type,
    Float8E8M0FNUType,
    Float16Type,
    Float32Type,
    Float64Type,
    FloatAttr,
    FloatData,
    FloatTF32Type,
)
from xdsl.ir import Attribute


@dataclass(frozen=True)
class FloatFormat:
    """A binary floating-point format: sign? exponent mantissa, and how it spells inf/NaN."""

    exponent_bits: int
    mantissa_bits: int
    bias: int
    nonfinite: str
    """'ieee': inf and NaN in the top exponent; 'fn': NaN is all ones, no inf;
    'fnuz': NaN is the negative zero pattern, no inf; 'none': every pattern is finite;
    'e8m0': unsigned exponent only, NaN is all ones."""
    signed: bool = True

    @property
    def width(self) -> int:
        return int(self.signed) + self.exponent_bits + self.mantissa_bits


F64 = Float64Type()

_FORMATS: dict[type[Attribute], FloatFormat] = {
    Float64Type: FloatFormat(11, 52, 1023, "ieee"),
    Float32Type: FloatFormat(8, 23, 127, "ieee"),
    FloatTF32Type: FloatFormat(8, 10, 127, "ieee"),
    Float16Type: FloatFormat(5, 10, 15, "ieee"),
    BFloat16Type: FloatFormat(8, 7, 127, "ieee"),
    Float8E5M2Type: FloatFormat(5, 2, 15, "ieee"),
    Float8E4M3Type: FloatFormat(4, 3, 7, "ieee"),
    Float8E3M4Type: FloatFormat(3, 4, 3, "ieee"),
    Float8E4M3FNType: FloatFormat(4, 3, 7, "fn"),
    Float8E5M2FNUZType: FloatFormat(5, 2, 16, "fnuz"),
    Float8E4M3FNUZType: FloatFormat(4, 3, 8, "fnuz"),
    Float8E4M3B11FNUZType: FloatFormat(4, 3, 11, "fnuz"),
    Float8E8M0FNUType: FloatFormat(8, 0, 127, "e8m0", signed=False),
    Float6E2M3FNType: FloatFormat(2, 3, 1, "none"),
    Float6E3M2FNType: FloatFormat(3, 2, 3, "none"),
    Float4E2M1FNType: FloatFormat(2, 1, 1, "none"),
}

FLOAT_TYPES_BY_NAME: dict[str, Attribute] = {
    "f64": Float64Type(), "f32": Float32Type(), "tf32": FloatTF32Type(), "f16": Float16Type(),
    "bf16": BFloat16Type(), "f8E5M2": Float8E5M2Type(), "f8E4M3": Float8E4M3Type(),
    "f8E3M4": Float8E3M4Type(), "f8E4M3FN": Float8E4M3FNType(), "f8E5M2FNUZ": Float8E5M2FNUZType(),
    "f8E4M3FNUZ": Float8E4M3FNUZType(), "f8E4M3B11FNUZ": Float8E4M3B11FNUZType(),
    "f8E8M0FNU": Float8E8M0FNUType(), "f6E2M3FN": Float6E2M3FNType(), "f6E3M2FN": Float6E3M2FNType(),
    "f4E2M1FN": Float4E2M1FNType(),
}


def is_float_type(type_: Attribute) -> bool:
    return type(type_) in _FORMATS


def float_format(type_: Attribute) -> FloatFormat:
    return _FORMATS[type(type_)]


def _is_nan_pattern(fmt: FloatFormat, bits: int) -> bool:
    sign, exponent, mantissa = _fields(fmt, bits)
    top = (1 << fmt.exponent_bits) - 1
    if fmt.nonfinite == "ieee":
        return exponent == top and mantissa != 0
    if fmt.nonfinite == "fn":
        return exponent == top and mantissa == (1 << fmt.mantissa_bits) - 1
    if fmt.nonfinite == "fnuz":
        return sign == 1 and exponent == 0 and mantissa == 0
    if fmt.nonfinite == "e8m0":
        return exponent == top
    return False


def _fields(fmt: FloatFormat, bits: int) -> tuple[int, int, int]:
    mantissa = bits & ((1 << fmt.mantissa_bits) - 1)
    exponent = (bits >> fmt.mantissa_bits) & ((1 << fmt.exponent_bits) - 1)
    sign = (bits >> (fmt.exponent_bits + fmt.mantissa_bits)) & 1 if fmt.signed else 0
    return sign, exponent, mantissa


def decode(type_: Attribute, bits: int) -> float | Fraction:
    """The value of a bit pattern: a Fraction when finite, else inf or nan."""
    fmt = float_format(type_)
    if _is_nan_pattern(fmt, bits):
        return math.nan
    sign, exponent, mantissa = _fields(fmt, bits)
    top = (1 << fmt.exponent_bits) - 1
    if fmt.nonfinite == "ieee" and exponent == top:
        return -math.inf if sign else math.inf
    if exponent == 0 and fmt.mantissa_bits:
        magnitude = Fraction(mantissa, 1 << fmt.mantissa_bits) * Fraction(2) ** (1 - fmt.bias)
    else:
        magnitude = (1 + Fraction(mantissa, 1 << fmt.mantissa_bits)) * Fraction(2) ** (exponent - fmt.bias)
    return -magnitude if sign else magnitude


def _largest_finite(fmt: FloatFormat) -> int:
    top = (1 << fmt.exponent_bits) - 1
    full = (1 << fmt.mantissa_bits) - 1
    if fmt.nonfinite == "ieee":
        return ((top - 1) << fmt.mantissa_bits) | full
    if fmt.nonfinite == "fn":
        return (top << fmt.mantissa_bits) | (full - 1)
    if fmt.nonfinite == "e8m0":
        return top - 1
    return (top << fmt.mantissa_bits) | full


def encode(type_: Attribute, value: Fraction | float) -> int | None:
    """Round `value` to nearest-even in the format; None if it overflows a format with no inf."""
    fmt = float_format(type_)
    sign_bit = 1 << (fmt.exponent_bits + fmt.mantissa_bits)
    if isinstance(value, float) and math.isnan(value):
        return _nan_bits(fmt, value)
    if isinstance(value, float) and math.isinf(value):
        if fmt.nonfinite != "ieee":
            return None
        top = (1 << fmt.exponent_bits) - 1
        return (sign_bit if value < 0 else 0) | (top << fmt.mantissa_bits)
    exact = Fraction(value)
    negative = exact < 0 or (isinstance(value, float) and math.copysign(1.0, value) < 0)
    if negative and not fmt.signed:
        return None
    magnitude = abs(exact)
    bits = _round_magnitude(fmt, magnitude)
    if bits is None:
        if fmt.nonfinite == "ieee":
            top = (1 << fmt.exponent_bits) - 1
            return (sign_bit if negative else 0) | (top << fmt.mantissa_bits)
        return None
    if negative and fmt.signed:
        if bits == 0 and fmt.nonfinite == "fnuz":
            return 0
        bits |= sign_bit
    return bits


def _round_magnitude(fmt: FloatFormat, magnitude: Fraction) -> int | None:
    if magnitude == 0:
        return 0 if fmt.mantissa_bits or fmt.nonfinite != "e8m0" else None
    min_exponent = -fmt.bias if fmt.mantissa_bits == 0 else 1 - fmt.bias  # e8m0: no subnormals
    exponent = magnitude.numerator.bit_length() - magnitude.denominator.bit_length()
    if Fraction(2) ** exponent > magnitude:
        exponent -= 1
    exponent = max(exponent, min_exponent)
    ulp = Fraction(2) ** (exponent - fmt.mantissa_bits)
    units = magnitude / ulp
    whole = units.numerator // units.denominator
    rest = units - whole
    if rest > Fraction(1, 2) or (rest == Fraction(1, 2) and whole % 2 == 1):
        whole += 1
    if whole >= (2 << fmt.mantissa_bits):
        whole //= 2
        exponent += 1
    if whole < (1 << fmt.mantissa_bits):  # subnormal (or zero)
        if fmt.mantissa_bits == 0:
            return None
        bits = whole
    else:
        biased = exponent + fmt.bias
        bits = (biased << fmt.mantissa_bits) | (whole - (1 << fmt.mantissa_bits))
    if bits > _largest_finite(fmt):
        return None
    return bits


def _nan_bits(fmt: FloatFormat, value: float) -> int:
    """A NaN in the format, keeping the sign and the top payload bits of the double where the
    format can hold them (a quiet NaN if the payload would vanish)."""
    raw = struct.unpack("<Q", struct.pack("<d", value))[0]
    sign = raw >> 63 if fmt.signed else 0
    sign_bit = sign << (fmt.exponent_bits + fmt.mantissa_bits)
    if fmt.nonfinite == "ieee":
        mantissa = (raw & ((1 << 52) - 1)) >> (52 - fmt.mantissa_bits)
        if mantissa == 0:
            mantissa = 1 << (fmt.mantissa_bits - 1)
        return sign_bit | (((1 << fmt.exponent_bits) - 1) << fmt.mantissa_bits) | mantissa
    if fmt.nonfinite == "fn":
        return sign_bit | ((1 << (fmt.exponent_bits + fmt.mantissa_bits)) - 1)
    if fmt.nonfinite == "fnuz":
        return 1 << (fmt.exponent_bits + fmt.mantissa_bits)
    if fmt.nonfinite == "e8m0":
        return 0xFF
    raise ValueError("format has no NaN")


def _nan_as_double(fmt: FloatFormat, bits: int) -> float:
    """The double NaN that `_nan_bits` maps back to `bits`: same sign, payload left-aligned."""
    sign, _, mantissa = _fields(fmt, bits)
    payload = mantissa << (52 - fmt.mantissa_bits) if fmt.mantissa_bits else 0
    if payload == 0:
        payload = 1 << 51
    return struct.unpack("<d", struct.pack("<Q", (sign << 63) | (0x7FF << 52) | payload))[0]


def literal_to_bits(literal: str, negative: bool, type_: Attribute) -> int | None:
    """Bits of a literal token: a hex literal is the bit pattern itself; else decimal."""
    fmt = float_format(type_)
    if literal.startswith(("0x", "0X")):
        bits = int(literal, 16)
        if negative or bits >= (1 << fmt.width):
            return None
        return bits
    value = Fraction(literal)
    if negative:
        if value == 0:
            return encode(type_, -0.0)
        value = -value
    return encode(type_, value)


def float_attr_from_bits(bits: int, type_: Attribute) -> FloatAttr:
    """The value is exact already; xDSL's constructor would round it again through the
    format's packer, which quiets signalling NaNs and drops the sign of fp8 NaNs."""
    return FloatAttr.new((FloatData(to_python_float(bits, type_)), type_))


def to_python_float(bits: int, type_: Attribute) -> float:
    if isinstance(type_, Float64Type):
        return struct.unpack("<d", struct.pack("<Q", bits))[0]
    fmt = float_format(type_)
    if _is_nan_pattern(fmt, bits):
        return _nan_as_double(fmt, bits)
    value = decode(type_, bits)
    if isinstance(value, Fraction):
        result = float(value)
        if value == 0 and fmt.signed and bits >> (fmt.width - 1):
            return -0.0
        return result
    return value


def bits_of(value: float, type_: Attribute) -> int:
    """Bits of a Python float in the format (exact for values the format can hold)."""
    if isinstance(type_, Float64Type):
        return struct.unpack("<Q", struct.pack("<d", value))[0]
    bits = encode(type_, value)
    if bits is None:
        raise ValueError(f"{value} is not representable in {type_}")
    return bits


def format_bits(bits: int, type_: Attribute) -> str:
    """MLIR's text for a float: `1.000000e+00` when exact, else shortest decimal, else hex."""
    value = to_python_float(bits, type_)
    if math.isfinite(value):
        text = _scientific(value)
        if literal_to_bits(text.lstrip("-"), text.startswith("-"), type_) == bits:
            return text
        text = _shortest(value, bits, type_)
        if text is not None:
            return text
    fmt = float_format(type_)
    digits = (fmt.width + 3) // 4
    return f"0x{bits:0{digits}X}"


def _scientific(value: float) -> str:
    mantissa, exponent = f"{value:.5e}".split("e")
    return f"{mantissa}0e{exponent}"


def _shortest(value: float, bits: int, type_: Attribute) -> str | None:
    for precision in range(1, 18):
        text = repr(float(f"{value:.{precision}g}"))
        if "e" in text or "E" in text or "inf" in text or "nan" in text:
            continue
        if literal_to_bits(text.lstrip("-"), text.startswith("-"), type_) == bits:
            return text
    return None


def format_float_attr(attr: FloatAttr) -> str:
    return format_bits(bits_of(attr.value.data, attr.type), attr.type)
