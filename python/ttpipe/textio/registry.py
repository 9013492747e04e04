"""The names the text I/O knows: op, attribute and type classes by their full dialect name."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cache

from xdsl.dialects.builtin import UnregisteredOp
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.irdl import IRDLOperation

from ttpipe.dialects import register_all


class Registry:
    def __init__(self) -> None:
        self.ops: dict[str, type[Operation]] = {}
        self.attrs: dict[str, type[Attribute]] = {}
        self.types: dict[str, type[Attribute]] = {}
        self._unregistered: dict[str, type[Operation]] = {}

    def add_ops(self, ops: Iterable[type[Operation]]) -> None:
        for op in ops:
            self.ops[op.name] = op

    def add_attrs(self, attrs: Iterable[type[Attribute]]) -> None:
        """Attribute and type classes; a class with `IS_TYPE = True` is a type (`!name`)."""
        for attr in attrs:
            table = self.types if getattr(attr, "IS_TYPE", False) else self.attrs
            table[attr.name] = attr

    def lookup_op(self, name: str) -> type[Operation] | None:
        return self.ops.get(name)

    def lookup_attr(self, name: str) -> tuple[type[Attribute] | None, int]:
        return _longest_prefix(self.attrs, name)

    def lookup_type(self, name: str) -> tuple[type[Attribute] | None, int]:
        return _longest_prefix(self.types, name)

    def unregistered_op(self, name: str) -> type[Operation]:
        cls = self._unregistered.get(name)
        if cls is None:
            cls = UnregisteredOp.with_name(name)
            self._unregistered[name] = cls
        return cls

    def build_generic(self, cls: type[Operation], name: str, operands: Sequence[SSAValue],
                      result_types: Sequence[Attribute], properties: dict[str, Attribute],
                      attributes: dict[str, Attribute], regions: Sequence[Region],
                      successors: Sequence[Block]) -> Operation:
        """An op from its generic form; inherent attributes given in the attr-dict become properties."""
        if issubclass(cls, IRDLOperation):
            declared = cls.get_irdl_definition().properties
            for key in [k for k in attributes if k in declared and k not in properties]:
                properties[key] = attributes.pop(key)
        return cls.create(operands=operands, result_types=result_types, properties=properties,
                          attributes=attributes, regions=regions, successors=successors)


def _longest_prefix(table: dict[str, type[Attribute]], name: str) -> tuple[type[Attribute] | None, int]:
    cls = table.get(name)
    if cls is not None:
        return cls, len(name)
    while "." in name:
        name = name.rsplit(".", 1)[0]
        cls = table.get(name)
        if cls is not None:
            return cls, len(name)
    return None, 0


@cache
def default_registry() -> Registry:
    """Every dialect ttpipe defines."""
    registry = Registry()
    register_all(registry)
    return registry

