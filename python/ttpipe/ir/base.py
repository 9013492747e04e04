"""Base classes for Triton's dialect attributes, types and enums on xDSL.

A dialect attribute or type is an xDSL `ParametrizedAttribute` whose fields passes read
and build. Its text is `#dialect.mnemonic<body>` (or `!dialect.mnemonic<body>` for a type);
the class reads the body in `parse_parameters(parser)` (the parser stands just after the
mnemonic) and writes it in `print_body(printer)`. `ALIAS_NAME` makes the printer define an
alias (`#blocked = ...`), as Triton's `OpAsmDialectInterface::getAlias` does.
"""

from __future__ import annotations

import enum
from typing import ClassVar

from xdsl.ir import ParametrizedAttribute, TypeAttribute


class DialectAttribute(ParametrizedAttribute):
    """`#name<...>`: subclasses implement `parse_parameters` and `print_body`."""

    IS_TYPE: ClassVar[bool] = False
    ALIAS_NAME: ClassVar[str | None] = None

    def dialect_text(self, printer) -> str:
        return ("!" if self.IS_TYPE else "#") + self.name + self.print_body(printer)

    def print_body(self, printer) -> str:
        raise NotImplementedError

    @classmethod
    def parse_parameters(cls, parser):
        raise NotImplementedError


class DialectType(DialectAttribute, TypeAttribute):
    """`!name<...>`."""

    IS_TYPE: ClassVar[bool] = True


class IntEnum(enum.IntEnum):
    """An MLIR `I32EnumAttr`: stored as an i32 `IntegerAttr`, spelled by its case name in
    custom forms. Members are named exactly as MLIR spells them."""


class I64Enum(IntEnum):
    """An MLIR `I64EnumAttr` (arith's predicates): stored as an i64 `IntegerAttr`."""
