"""Properties from Python values, for the ops' keyword `__init__`s.

An op's `__init__` takes a property as the Python value it stands for (an int, an enum
case, a bool, a list of ints) or as the stored attribute itself (a property copied from
another op). These give the attribute the op stores, or None for an optional property
that is absent or a defaulted one left to its default (`IRDLOperation` drops None
properties and fills in defaults).
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import DenseArrayBase, IndexType, IntegerAttr, IntegerType, UnitAttr, i32

I1 = IntegerType(1)


def int_prop(value: int | IntegerAttr | None, type_: IntegerType | IndexType = i32) -> IntegerAttr | None:
    """An integer (or `I32EnumAttr` case, an `IntEnum`) as an `IntegerAttr` of `type_`."""
    if value is None or isinstance(value, IntegerAttr):
        return value
    return IntegerAttr(int(value), type_)


def bool_prop(value: bool | IntegerAttr | None) -> IntegerAttr | None:
    """ODS's `BoolAttr`: an i1 `IntegerAttr`."""
    if value is None or isinstance(value, IntegerAttr):
        return value
    return IntegerAttr(int(bool(value)), I1)


def unit_prop(flag: bool) -> UnitAttr | None:
    """ODS's `UnitAttr`: present when set."""
    return UnitAttr() if flag else None


def i32_array(values: Sequence[int] | DenseArrayBase) -> DenseArrayBase:
    """ODS's `DenseI32ArrayAttr`."""
    if isinstance(values, DenseArrayBase):
        return values
    return DenseArrayBase.from_list(i32, list(values))
