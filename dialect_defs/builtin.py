"""Builtin pieces xDSL lacks in the form Triton needs: bit-exact `dense<...>` elements.

xDSL's own dense attribute reads `dense<0xFF800000> : tensor<4xf32>` as the integer
4286578688 converted to float; here element bits are kept as integers in the element
type's format, so hex splats, NaN payloads and -0.0 survive a round trip.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from xdsl.dialects.builtin import IndexType, IntegerType, TensorType, VectorType
from xdsl.ir import Attribute, Data, ParametrizedAttribute
from xdsl.irdl import irdl_attr_definition, param_def

from ttpipe.ir import floats


@irdl_attr_definition
class ElementBits(Data[tuple[int, ...]]):
    """The elements of a dense attribute: integer values, or float bit patterns."""

    name = "ttpipe.element_bits"

    @classmethod
    def parse_parameter(cls, parser):
        raise NotImplementedError("ElementBits is read as part of dense<...>")

    def print_parameter(self, printer) -> None:
        printer.print_string(repr(self.data))  # xDSL's own printer, for debugging only


@irdl_attr_definition
class DenseElementsAttr(ParametrizedAttribute):
    """`dense<...> : tensor<...>`: one element (a splat) or one per element of the shape."""

    name = "builtin.dense"

    type: Attribute = param_def()
    elements: ElementBits = param_def()

    # ------------------------------------------------------------ construction

    @staticmethod
    def splat(type_: TensorType | VectorType, value: int | float) -> "DenseElementsAttr":
        return DenseElementsAttr.from_values(type_, [value])

    @staticmethod
    def from_values(type_: TensorType | VectorType, values: Sequence[int | float]) -> "DenseElementsAttr":
        element = type_.get_element_type()
        if floats.is_float_type(element):
            bits = tuple(floats.bits_of(float(v), element) for v in values)
        else:
            bits = tuple(int(v) for v in values)
        return DenseElementsAttr(type_, ElementBits(_canonical(bits, type_)))

    @staticmethod
    def from_literal(type_: Attribute, literal: object) -> "DenseElementsAttr":
        """From the parser's nested literal list, or `("hex", "0x...")` for the hex form."""
        if not isinstance(type_, (TensorType, VectorType)):
            raise ValueError("dense elements need a tensor or vector type")
        element = type_.get_element_type()
        count = math.prod(type_.get_shape())
        if isinstance(literal, tuple) and literal and literal[0] == "hex":
            bits = _from_hex(literal[1], element, count)
        else:
            leaves = _flatten(literal)
            if len(leaves) not in (1, count):
                raise ValueError(f"inferred {len(leaves)} elements for a shape of {count} elements")
            bits = tuple(_leaf_bits(leaf, element) for leaf in leaves)
        return DenseElementsAttr(type_, ElementBits(_canonical(bits, type_)))

    # ------------------------------------------------------------ queries

    @property
    def is_splat(self) -> bool:
        return len(self.elements.data) == 1

    def values(self) -> list[int | float]:
        """Python values, one per element (a splat expanded)."""
        element = self.type.get_element_type()
        data = self.elements.data
        if floats.is_float_type(element):
            data = tuple(floats.to_python_float(b, element) for b in data)
        count = math.prod(self.type.get_shape())
        return list(data) * count if len(data) == 1 else list(data)

    def splat_value(self) -> int | float:
        if not self.is_splat:
            raise ValueError("not a splat")
        return self.values()[0]

    # ------------------------------------------------------------ text

    def dialect_text(self, printer) -> str:
        element = self.type.get_element_type()
        texts = [_element_text(b, element) for b in self.elements.data]
        shape = self.type.get_shape()
        body = texts[0] if len(texts) == 1 else _nest(texts, shape)
        return f"dense<{body}> : {printer.attr(self.type)}"


def _canonical(bits: tuple[int, ...], type_) -> tuple[int, ...]:
    """A list whose elements are all equal is a splat, as MLIR's DenseElementsAttr::get makes it."""
    if len(bits) > 1 and all(b == bits[0] for b in bits):
        return bits[:1]
    return bits


def _flatten(literal: object) -> list:
    if isinstance(literal, list):
        return [leaf for item in literal for leaf in _flatten(item)]
    return [literal]


def _leaf_bits(leaf: object, element: Attribute) -> int:
    if isinstance(leaf, bool):
        if not (isinstance(element, IntegerType) and element.width.data == 1):
            raise ValueError("'true'/'false' elements need an i1 element type")
        return int(leaf)
    if isinstance(leaf, tuple) and len(leaf) == 2 and isinstance(leaf[1], str):
        negative, text = leaf
        if floats.is_float_type(element):
            bits = floats.literal_to_bits(text, negative, element)
            if bits is None:
                raise ValueError(f"element '{text}' does not fit {element.name}")
            return bits
        if isinstance(element, (IntegerType, IndexType)):
            if "." in text or (("e" in text or "E" in text) and not text.startswith("0x")):
                raise ValueError("expected an integer element for an integer element type")
            value = int(text, 0)
            return _wrap(-value if negative else value, element)
    raise ValueError("unsupported element literal")


def _wrap(value: int, element: Attribute) -> int:
    """Signless integers print as signed values, as MLIR's APInt printing does."""
    if isinstance(element, IntegerType):
        width = element.width.data
        if width == 1:
            return value & 1
        value &= (1 << width) - 1
        if value >= 1 << (width - 1):
            value -= 1 << width
    return value


def _bit_width(element: Attribute) -> int:
    if floats.is_float_type(element):
        return floats.float_format(element).width
    if isinstance(element, IntegerType):
        return element.width.data
    if isinstance(element, IndexType):
        return 64
    raise ValueError(f"no dense storage for {element}")


def _from_hex(text: str, element: Attribute, count: int) -> tuple[int, ...]:
    if not text.startswith(("0x", "0X")):
        raise ValueError("expected a hex string '0x...' in dense<\"...\">")
    raw = bytes.fromhex(text[2:])
    width = max(8, _bit_width(element))
    size = (width + 7) // 8
    if len(raw) % size:
        raise ValueError("hex data does not hold whole elements")
    n = len(raw) // size
    if n not in (1, count):
        raise ValueError(f"hex data holds {n} elements for a shape of {count} elements")
    values = [int.from_bytes(raw[i * size:(i + 1) * size], "little") for i in range(n)]
    if not floats.is_float_type(element):
        values = [_wrap(v, element) for v in values]
    return tuple(values)


def _element_text(bits: int, element: Attribute) -> str:
    if floats.is_float_type(element):
        return floats.format_bits(bits, element)
    if isinstance(element, IntegerType) and element.width.data == 1:
        return "true" if bits else "false"
    return str(bits)


def _nest(texts: list[str], shape: Sequence[int]) -> str:
    if not shape:
        return texts[0]
    if len(shape) == 1:
        return "[" + ", ".join(texts) + "]"
    stride = math.prod(shape[1:])
    return "[" + ", ".join(_nest(texts[i * stride:(i + 1) * stride], shape[1:]) for i in range(shape[0])) + "]"


ATTRS = ()
OPS = ()
