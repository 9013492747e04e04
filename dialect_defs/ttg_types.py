"""TritonGPU types: `!ttg.memdesc<...>` (a view of shared or tensor memory) and
`!ttg.async.token`.

The memdesc text follows `MemDescType::print`/`parse` in Triton's `Types.cpp`:

    !ttg.memdesc<128x64xf16, #shared, #smem>
    !ttg.memdesc<128x64xf16, #shared, #smem, mutable>
    !ttg.memdesc<128x64xf16, #shared, #smem, mutable, 3x128x64>

The allocation shape prints only when it differs from the shape.
"""

from __future__ import annotations

import re

from xdsl.ir import Attribute
from xdsl.irdl import irdl_attr_definition, param_def

from ttpipe.ir.base import DialectType
from ttpipe.dialects.ttg_attrs import BoolData, IntArray

_DIMS_X = re.compile(r"(?:\d+x)+")
_DIMS = re.compile(r"\d+(?:x\d+)*")


def _parse_dimensions(parser, trailing_x: bool) -> tuple[int, ...]:
    """`parseDimensionList` without dynamic sizes: `128x64x` (before the element type) or `3x128x64`."""
    m = parser.match(_DIMS_X if trailing_x else _DIMS)
    if m is None:
        if trailing_x:
            return ()
        raise parser.error("expected dimension list")
    return tuple(int(d) for d in m.group(0).split("x") if d)


@irdl_attr_definition
class MemDescType(DialectType):
    """`!ttg.memdesc<shape x element, encoding, memorySpace[, mutable][, allocShape]>`."""

    name = "ttg.memdesc"
    _shape: IntArray = param_def()
    element_type: Attribute = param_def()
    encoding: Attribute = param_def()
    memory_space: Attribute = param_def()
    _mutable: BoolData = param_def()
    _alloc_shape: IntArray = param_def()

    @classmethod
    def get(cls, shape, element_type: Attribute, encoding: Attribute, memory_space: Attribute,
            mutable: bool = False, alloc_shape=None) -> MemDescType:
        shape = tuple(shape)
        return cls(IntArray(shape), element_type, encoding, memory_space, BoolData(mutable),
                   IntArray(tuple(alloc_shape) if alloc_shape is not None else shape))

    @property
    def shape(self) -> tuple[int, ...]:
        return self._shape.data

    @property
    def alloc_shape(self) -> tuple[int, ...]:
        return self._alloc_shape.data

    @property
    def mutable(self) -> bool:
        return self._mutable.data

    def get_shape(self) -> tuple[int, ...]:
        """The shape, as xDSL's `ShapedType` spells the accessor."""
        return self._shape.data

    def get_element_type(self) -> Attribute:
        return self.element_type

    def print_body(self, printer) -> str:
        shape = self._shape.data
        text = "<" + "".join(f"{d}x" for d in shape) + printer.attr(self.element_type)
        text += ", " + printer.attr(self.encoding) + ", " + printer.attr(self.memory_space)
        if self._mutable.data:
            text += ", mutable"
        alloc = self._alloc_shape.data
        if alloc != shape:
            text += ", " + "x".join(str(d) for d in alloc)
        return text + ">"

    @classmethod
    def parse_parameters(cls, parser) -> MemDescType:
        parser.expect("<")
        shape = _parse_dimensions(parser, trailing_x=True)
        element_type = parser.parse_type()
        parser.expect(",")
        encoding = parser.parse_attribute()
        parser.expect(",")
        memory_space = parser.parse_attribute()
        mutable = False
        alloc_shape = shape
        if parser.accept(","):
            if parser.accept_keyword("mutable"):
                mutable = True
                if parser.accept(","):
                    alloc_shape = _parse_dimensions(parser, trailing_x=False)
            else:
                alloc_shape = _parse_dimensions(parser, trailing_x=False)
        parser.expect(">")
        if not shape:
            raise parser.error("rank 0 memdesc is not allowed")
        return cls(IntArray(shape), element_type, encoding, memory_space, BoolData(mutable), IntArray(alloc_shape))


@irdl_attr_definition
class AsyncTokenType(DialectType):
    """`!ttg.async.token`: links an async op to the ops that group or wait for it."""

    name = "ttg.async.token"

    def print_body(self, printer) -> str:
        return ""

    @classmethod
    def parse_parameters(cls, parser) -> AsyncTokenType:
        return cls()


OPS = ()
ATTRS = (MemDescType, AsyncTokenType)
