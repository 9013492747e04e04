"""A fast parser for MLIR text as Triton 3.6 prints it, building xDSL IR.

Scannerless: the parser keeps one offset into the text and matches compiled regular
expressions at it, so each token costs one C-level regex call. It reads

* top-level attribute, type and location aliases (`#blocked = ...`, `!t = ...`,
  `#loc3 = loc(...)`), where location aliases may be used before they are defined,
  as MLIR allows and Triton prints;
* operations in generic form (`"dialect.op"(...) <{props}> ({regions}) {attrs} : fn-type`)
  and in the custom forms that the op classes of `ttpipe.dialects` declare
  (`ttpipe.ir.syntax`);
* builtin types and attributes, with bit-exact floats (`dense<0xFF800000>`), and
  dialect attributes and types through the `parse_parameters` of their classes.

An op without `loc(...)` gets `loc("FILE":LINE:COL)` of its first token, as MLIR's
parser gives it, so printing it back keeps what Triton would see.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from xdsl.dialects.builtin import (
    ArrayAttr,
    CallSiteLoc,
    ComplexType,
    DenseArrayBase,
    DictionaryAttr,
    FileLineColLoc,
    FunctionType,
    FusedLoc,
    IndexType,
    IntAttr,
    IntegerAttr,
    IntegerType,
    LocationAttr,
    ModuleOp,
    NameLoc,
    NoneAttr,
    NoneType,
    Signedness,
    StringAttr,
    SymbolRefAttr,
    TensorType,
    TupleType,
    UnitAttr,
    UnknownLoc,
    UnrankedTensorType,
    VectorType,
)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.parser.core import ForwardDeclaredValue
from xdsl.utils.exceptions import VerifyException

from ttpipe.dialects.builtin import DenseElementsAttr
from ttpipe.ir import floats
from ttpipe.ir.diagnostics import DiagnosticError, SourceFile
from ttpipe.ir.printer import attribute_text
from ttpipe.ir.syntax import is_isolated_from_above
from ttpipe.textio.registry import Registry, default_registry

_WS = re.compile(r"(?:\s+|//[^\n]*)*")
_BARE_ID = re.compile(r"[A-Za-z_][\w$.]*")
_BRACKETED_TYPE = re.compile(r"(?:![A-Za-z_][\w$.]*|tensor|vector)<")
"""The start of a type spelled with angle brackets (`tensor<...>`, `!tt.ptr<...>`), up to its
`<`: `Parser.try_type`'s cache reads such a type once per text."""
_ANGLE_OR_QUOTE = re.compile(r'[<>"]')
_KEYWORD = re.compile(r"[A-Za-z_][\w$.\-]*")
_VALUE_ID = re.compile(r"%([\w$.\-]+)(?:#(\d+))?")
_VALUE_DEF = re.compile(r"%([\w$.\-]+)(?::(\d+))?")
_BLOCK_ID = re.compile(r"\^([\w$.\-]+)")
_SYMBOL = re.compile(r'@(?:([\w$.\-]+)|"((?:[^"\\]|\\.)*)")')
_ALIAS_NAME = re.compile(r"[\w$.\-]+")
_DIALECT_NAME = re.compile(r"[A-Za-z_][\w$.]*")
_INT = re.compile(r"0x[0-9a-fA-F]+|\d+")
_NUMBER = re.compile(r"0x[0-9a-fA-F]+|\d+(?:\.\d*)?(?:[eE][-+]?\d+)?")
_STRING = re.compile(r'"((?:[^"\\\n]|\\.)*)"')
_DIMS = re.compile(r"(?:(?:\d+|\?)x)+")
_INT_TYPE = re.compile(r"(si|ui|i)(\d+)\b")
_LOC_ALIAS_DEF = re.compile(r"^#([\w$.\-]+)\s*=\s*loc\(", re.M)
_STRING_ESCAPE = re.compile(r"\\(?:([0-9a-fA-F]{2})|(.))")

_FLOAT_TYPE_NAMES = floats.FLOAT_TYPES_BY_NAME


@dataclass
class ParseOptions:
    allow_unregistered: bool = False


@dataclass
class _Scope:
    """SSA names visible in one region (and the regions nested in it)."""

    values: dict[str, Sequence[SSAValue]] = field(default_factory=dict)
    forward: dict[str, ForwardDeclaredValue] = field(default_factory=dict)
    forward_at: dict[str, int] = field(default_factory=dict)
    blocks: dict[str, Block] = field(default_factory=dict)
    forward_blocks: dict[str, int] = field(default_factory=dict)
    isolated: bool = False


@dataclass
class UnresolvedOperand:
    name: str
    index: int
    offset: int


@dataclass
class ParseResult:
    module: ModuleOp
    source: SourceFile
    op_offsets: dict[int, int]
    """id(op) -> offset of the op's first token, for diagnostics against the input text."""


class Parser:
    """Cursor over one source; methods named `parse_*` raise, `accept_*`/`try_*` may fail softly."""

    def __init__(self, source: SourceFile, registry: Registry | None = None,
                 options: ParseOptions | None = None):
        self.source = source
        self.text = source.text
        self.pos = 0
        self.registry = registry or default_registry()
        self.options = options or ParseOptions()
        self.attr_aliases: dict[str, Attribute] = {}
        self.type_aliases: dict[str, Attribute] = {}
        self.loc_alias_offsets = {m.group(1): m.end() - 4 for m in _LOC_ALIAS_DEF.finditer(self.text)}
        self._resolving_aliases: set[str] = set()
        self.scopes: list[_Scope] = []
        self.op_offsets: dict[int, int] = {}
        self._bracketed_types: dict[str, Attribute] = {}
        self._file_attr = StringAttr(source.name)

    # ----------------------------------------------------------------- cursor basics

    def error(self, message: str, offset: int | None = None) -> DiagnosticError:
        return DiagnosticError(message, self.source, self.pos if offset is None else offset)

    def skip(self) -> int:
        self.pos = _WS.match(self.text, self.pos).end()
        return self.pos

    def at(self, literal: str) -> bool:
        self.skip()
        return self.text.startswith(literal, self.pos)

    def accept(self, literal: str) -> bool:
        self.skip()
        if self.text.startswith(literal, self.pos):
            self.pos += len(literal)
            return True
        return False

    def expect(self, literal: str, what: str | None = None) -> None:
        if not self.accept(literal):
            raise self.error(f"expected '{literal}'" + (f" {what}" if what else "") + self._found())

    def _found(self) -> str:
        self.skip()
        if self.pos >= len(self.text):
            return ", found end of input"
        token = re.match(r"[\w%#!@^$.\-]+|\S", self.text[self.pos:self.pos + 80])
        return f", found '{token.group(0)}'" if token else ""

    def match(self, regex: re.Pattern[str]) -> re.Match[str] | None:
        self.skip()
        m = regex.match(self.text, self.pos)
        if m:
            self.pos = m.end()
        return m

    def accept_keyword(self, word: str) -> bool:
        self.skip()
        end = self.pos + len(word)
        if self.text.startswith(word, self.pos) and not _is_ident_char(self.text, end):
            self.pos = end
            return True
        return False

    def expect_keyword(self, word: str) -> None:
        if not self.accept_keyword(word):
            raise self.error(f"expected '{word}'" + self._found())

    def try_keyword(self) -> str | None:
        m = self.match(_KEYWORD)
        return m.group(0) if m else None

    def parse_keyword(self, what: str = "keyword") -> str:
        word = self.try_keyword()
        if word is None:
            raise self.error(f"expected {what}" + self._found())
        return word

    def parse_comma_list(self, parse_one: Callable[[], object], close: str | None = None) -> list:
        """Items separated by commas, up to (not consuming) `close`; empty if `close` is next."""
        if close is not None and self.at(close):
            return []
        items = [parse_one()]
        while self.accept(","):
            items.append(parse_one())
        return items

    def parse_delimited(self, open_: str, close: str, parse_one: Callable[[], object]) -> list:
        self.expect(open_)
        items = self.parse_comma_list(parse_one, close)
        self.expect(close)
        return items

    # ----------------------------------------------------------------- literals

    def try_integer(self) -> int | None:
        start = self.skip()
        negative = self.text.startswith("-", start)
        if negative:
            self.pos += 1
        m = _INT.match(self.text, self.pos)
        if not m or (m.end() < len(self.text) and self.text[m.end()] == "."):
            self.pos = start
            return None
        self.pos = m.end()
        value = int(m.group(0), 0)
        return -value if negative else value

    def parse_integer(self, what: str = "integer") -> int:
        value = self.try_integer()
        if value is None:
            raise self.error(f"expected {what}" + self._found())
        return value

    def try_string(self) -> str | None:
        m = self.match(_STRING)
        if m is None:
            return None
        raw = m.group(1)
        return _unescape(raw) if "\\" in raw else raw

    def parse_string(self, what: str = "string literal") -> str:
        value = self.try_string()
        if value is None:
            raise self.error(f"expected {what}" + self._found())
        return value

    def parse_symbol_name(self) -> str:
        m = self.match(_SYMBOL)
        if m is None:
            raise self.error("expected symbol name" + self._found())
        return m.group(1) if m.group(1) is not None else m.group(2)

    # ----------------------------------------------------------------- types

    def parse_type(self) -> Attribute:
        start = self.skip()
        t = self.try_type()
        if t is None:
            raise self.error("expected type" + self._found(), start)
        return t

    def try_type(self) -> Attribute | None:
        """A type at the cursor, or None. A type spelled with angle brackets (`tensor<...>`,
        `!tt.ptr<...>`, most of a TTGIR file's types, each repeated on many ops) is read once
        per parse: its text, up to the matching `>`, maps to the type it read (the text
        alone decides it: aliases are the file's own)."""
        pos = self.skip()
        end = self._bracketed_end(pos)
        if end is None:
            return self._read_type(pos)
        key = self.text[pos:end]
        found = self._bracketed_types.get(key)
        if found is not None:
            self.pos = end
            return found
        found = self._read_type(pos)
        if found is not None and self.pos == end:
            self._bracketed_types[key] = found
        return found

    def _bracketed_end(self, pos: int) -> int | None:
        """Where the type spelled with angle brackets at `pos` ends (after its matching `>`);
        None for any other type, or for one whose brackets are not matched by a plain count
        (a `->` or a string inside)."""
        m = _BRACKETED_TYPE.match(self.text, pos)
        if m is None:
            return None
        depth = 0
        for bracket in _ANGLE_OR_QUOTE.finditer(self.text, m.end() - 1):
            c = bracket.group()
            if c == "<":
                depth += 1
            elif c == '"' or self.text[bracket.start() - 1] == "-":
                return None
            else:
                depth -= 1
                if depth == 0:
                    return bracket.end()
        return None

    def _read_type(self, pos: int) -> Attribute | None:
        text = self.text
        if pos >= len(text):
            return None
        c = text[pos]
        if c == "!":
            return self._parse_dialect_type()
        if c == "(":
            return self._parse_function_type()
        m = _BARE_ID.match(text, pos)
        if m is None:
            return None
        word = m.group(0)
        if word in _FLOAT_TYPE_NAMES:
            self.pos = m.end()
            return _FLOAT_TYPE_NAMES[word]
        im = _INT_TYPE.match(text, pos)
        if im is not None and im.end() == m.end():
            self.pos = im.end()
            sign = {"i": Signedness.SIGNLESS, "si": Signedness.SIGNED, "ui": Signedness.UNSIGNED}[im.group(1)]
            return IntegerType(int(im.group(2)), sign)
        if word == "index":
            self.pos = m.end()
            return IndexType()
        if word == "none":
            self.pos = m.end()
            return NoneType()
        if word in ("tensor", "vector"):
            self.pos = m.end()
            return self._parse_shaped(word)
        if word == "tuple":
            self.pos = m.end()
            return TupleType(self.parse_delimited("<", ">", self.parse_type))
        if word == "complex":
            self.pos = m.end()
            self.expect("<")
            element = self.parse_type()
            self.expect(">")
            return ComplexType(element)
        return None

    def _parse_shaped(self, kind: str) -> Attribute:
        self.expect("<")
        if kind == "tensor" and self.accept("*"):
            self.expect("x")
            element = self.parse_type()
            self.expect(">")
            return UnrankedTensorType(element)
        dims_match = _DIMS.match(self.text, self.skip())
        shape: list[int] = []
        if dims_match:
            self.pos = dims_match.end()
            shape = [-1 if d == "?" else int(d) for d in dims_match.group(0)[:-1].split("x")]
        element = self.parse_type()
        encoding: Attribute = NoneAttr()
        if self.accept(","):
            encoding = self.parse_attribute()
        self.expect(">")
        if kind == "vector":
            return VectorType(element, shape)
        return TensorType(element, shape, encoding)

    def _parse_function_type(self) -> FunctionType:
        inputs = self.parse_delimited("(", ")", self.parse_type)
        self.expect("->")
        outputs = self.parse_function_results()
        return FunctionType.from_lists(inputs, outputs)

    def parse_function_results(self) -> list[Attribute]:
        if self.at("("):
            start = self.pos
            types = self.parse_delimited("(", ")", self.parse_type)
            if self.at("->"):  # a function type as the single result
                self.pos = start
                return [self._parse_function_type()]
            return types
        return [self.parse_type()]

    def _parse_dialect_type(self) -> Attribute:
        start = self.pos
        self.pos += 1
        m = _DIALECT_NAME.match(self.text, self.pos)
        if m is None:
            raise self.error("expected type name after '!'", start)
        name = m.group(0)
        alias = self.type_aliases.get(name)
        if alias is not None:
            self.pos = m.end()
            return alias
        cls, length = self.registry.lookup_type(name)
        if cls is None:
            if "." not in name:
                raise self.error(f"undefined type alias '!{name}'", start)
            raise self.error(f"unknown type '!{name}'", start)
        self.pos = m.start() + length
        return self._parse_parameters(cls, start, "type")

    def _parse_parameters(self, cls: type[Attribute], start: int, kind: str) -> Attribute:
        try:
            return cls.parse_parameters(self)  # type: ignore[attr-defined]
        except DiagnosticError:
            raise
        except (ValueError, TypeError, KeyError) as exc:  # raised by a verifier or constructor
            raise self.error(f"invalid {kind} '{cls.name}': {exc}", start) from None

    # ----------------------------------------------------------------- attributes

    def parse_attribute(self) -> Attribute:
        start = self.skip()
        attr = self.try_attribute()
        if attr is None:
            raise self.error("expected attribute" + self._found(), start)
        return attr

    def try_attribute(self) -> Attribute | None:
        pos = self.skip()
        text = self.text
        if pos >= len(text):
            return None
        c = text[pos]
        if c == "#":
            return self._parse_hash_attribute()
        if c == '"':
            value = self.try_string()
            if self.at(":") and not self.at("::"):
                self.pos += 1
                self.parse_type()  # typed strings keep no type in xDSL; Triton never prints them
            return StringAttr(value)
        if c == "[":
            return ArrayAttr(self.parse_delimited("[", "]", self.parse_attribute))
        if c == "{":
            return self.parse_dictionary()
        if c == "@":
            return self._parse_symbol_ref()
        if c == "-" or c.isdigit():
            return self._parse_number_attribute()
        m = _BARE_ID.match(text, pos)
        if m is not None:
            word = m.group(0)
            if word in ("true", "false"):
                self.pos = m.end()
                value = 1 if word == "true" else 0
                if self.at(":") and not self.at("::"):
                    self.pos += 1
                    return IntegerAttr(value, self.parse_type())
                return IntegerAttr(value, IntegerType(1))
            if word == "unit":
                self.pos = m.end()
                return UnitAttr()
            if word == "dense":
                self.pos = m.end()
                return self._parse_dense()
            if word == "array":
                self.pos = m.end()
                return self._parse_dense_array()
            if word == "loc":
                return self.parse_location()
        return self.try_type()  # a type is its own attribute in xDSL (MLIR's TypeAttr)

    def _parse_hash_attribute(self) -> Attribute:
        start = self.pos
        self.pos += 1
        m = _DIALECT_NAME.match(self.text, self.pos)
        if m is None:
            raise self.error("expected attribute name after '#'", start)
        name = m.group(0)
        alias = self.attr_aliases.get(name)
        if alias is not None:
            self.pos = m.end()
            return alias
        if name in self.loc_alias_offsets:
            self.pos = m.end()
            return self._resolve_loc_alias(name, start)
        cls, length = self.registry.lookup_attr(name)
        if cls is None:
            if "." not in name:
                raise self.error(f"undefined attribute alias '#{name}'", start)
            raise self.error(f"unknown attribute '#{name}'", start)
        self.pos = m.start() + length
        return self._parse_parameters(cls, start, "attribute")

    def _resolve_loc_alias(self, name: str, use_offset: int) -> Attribute:
        if name in self._resolving_aliases:
            raise self.error(f"location alias '#{name}' refers to itself", use_offset)
        self._resolving_aliases.add(name)
        resume = self.pos
        self.pos = self.loc_alias_offsets[name]
        loc = self.parse_location()
        self.pos = resume
        self._resolving_aliases.discard(name)
        self.attr_aliases[name] = loc
        return loc

    def parse_dictionary(self) -> DictionaryAttr:
        return DictionaryAttr(dict(self.parse_delimited("{", "}", self._parse_named_attribute)))

    def _parse_named_attribute(self) -> tuple[str, Attribute]:
        name = self.try_string()
        if name is None:
            name = self.parse_keyword("attribute name")
        if self.accept("="):
            return name, self.parse_attribute()
        return name, UnitAttr()

    def _parse_symbol_ref(self) -> SymbolRefAttr:
        root = self.parse_symbol_name()
        nested: list[StringAttr] = []
        while self.at("::"):
            self.pos += 2
            nested.append(StringAttr(self.parse_symbol_name()))
        return SymbolRefAttr(root, ArrayAttr(nested))

    def _parse_number_attribute(self) -> Attribute:
        start = self.skip()
        negative = self.accept("-")
        m = self.match(_NUMBER)
        if m is None:
            raise self.error("expected number" + self._found(), start)
        literal = m.group(0)
        is_float = "." in literal or (("e" in literal or "E" in literal) and not literal.startswith("0x"))
        type_: Attribute | None = None
        if self.at(":") and not self.at("::"):
            self.pos += 1
            type_ = self.parse_type()
        if type_ is None:
            type_ = floats.F64 if is_float else IntegerType(64)
        if isinstance(type_, (IntegerType, IndexType)):
            if is_float:
                raise self.error("expected integer literal for integer type", start)
            value = int(literal, 0)
            return IntegerAttr(-value if negative else value, type_)
        if floats.is_float_type(type_):
            bits = floats.literal_to_bits(literal, negative, type_)
            if bits is None:
                raise self.error(f"float literal '{literal}' does not fit {type_}", start)
            return floats.float_attr_from_bits(bits, type_)
        raise self.error("number must have an integer or floating-point type", start)

    def _parse_dense(self) -> Attribute:
        start = self.pos
        self.expect("<")
        if self.at(">"):
            literal: object = []
        elif self.at('"'):
            literal = ("hex", self.parse_string())
        else:
            literal = self._parse_dense_literal()
        self.expect(">")
        self.expect(":")
        type_ = self.parse_type()
        try:
            return DenseElementsAttr.from_literal(type_, literal)
        except ValueError as exc:
            raise self.error(str(exc), start) from None

    def _parse_dense_literal(self) -> object:
        """A nested list of element literals; each leaf is (negative, text) or a bool."""
        if self.at("["):
            return self.parse_delimited("[", "]", self._parse_dense_literal)
        if self.at("("):
            return tuple(self.parse_delimited("(", ")", self._parse_dense_literal))
        if self.accept_keyword("true"):
            return True
        if self.accept_keyword("false"):
            return False
        negative = self.accept("-")
        m = self.match(_NUMBER)
        if m is None:
            raise self.error("expected element literal" + self._found())
        return (negative, m.group(0))

    def _parse_dense_array(self) -> DenseArrayBase:
        self.expect("<")
        element = self.parse_type()
        values: list = []
        if self.accept(":"):
            values = self.parse_comma_list(self._parse_array_element, ">")
        self.expect(">")
        if isinstance(element, IntegerType):
            return DenseArrayBase.from_list(element, [int(v[1], 0) * (-1 if v[0] else 1) if isinstance(v, tuple) else int(v) for v in values])
        return DenseArrayBase.from_list(element, [float(("-" if v[0] else "") + v[1]) for v in values])

    def _parse_array_element(self) -> object:
        if self.accept_keyword("true"):
            return 1
        if self.accept_keyword("false"):
            return 0
        negative = self.accept("-")
        m = self.match(_NUMBER)
        if m is None:
            raise self.error("expected array element" + self._found())
        return (negative, m.group(0))

    # ----------------------------------------------------------------- locations

    def parse_location(self) -> LocationAttr:
        self.expect_keyword("loc")
        self.expect("(")
        loc = self._parse_location_body()
        self.expect(")")
        return loc

    def try_location(self) -> LocationAttr | None:
        if self.accept_keyword("loc"):
            self.expect("(")
            loc = self._parse_location_body()
            self.expect(")")
            return loc
        return None

    def _parse_location_body(self) -> LocationAttr:
        start = self.skip()
        text = self.text
        if text.startswith('"', start):
            name = self.parse_string()
            if self.accept(":"):
                line = self.parse_integer("line number")
                self.expect(":")
                col = self.parse_integer("column number")
                return FileLineColLoc(StringAttr(name), IntAttr(line), IntAttr(col))
            child: Attribute = NoneAttr()
            if self.accept("("):
                child = self._parse_location_body()
                self.expect(")")
            return NameLoc(StringAttr(name), child)
        if text.startswith("#", start):
            attr = self._parse_hash_attribute()
            if not isinstance(attr, (UnknownLoc, FileLineColLoc, NameLoc, CallSiteLoc, FusedLoc)):
                raise self.error("expected location", start)
            return attr
        word = self.try_keyword()
        if word == "unknown":
            return UnknownLoc()
        if word == "callsite":
            self.expect("(")
            callee = self._parse_location_body()
            self.expect_keyword("at")
            caller = self._parse_location_body()
            self.expect(")")
            return CallSiteLoc(callee, caller)
        if word == "fused":
            metadata: Attribute = NoneAttr()
            if self.accept("<"):
                metadata = self.parse_attribute()
                self.expect(">")
            locs = self.parse_delimited("[", "]", self._parse_location_body)
            return FusedLoc(tuple(locs), metadata)  # a list would make the location unhashable
        raise self.error("expected location", start)

    def default_location(self, offset: int) -> FileLineColLoc:
        line, col = self.source.line_col(offset)
        return FileLineColLoc(self._file_attr, IntAttr(line), IntAttr(col))

    # ----------------------------------------------------------------- SSA values

    def push_scope(self, isolated: bool) -> None:
        self.scopes.append(_Scope(isolated=isolated))

    def pop_scope(self) -> None:
        scope = self.scopes.pop()
        if scope.forward:
            name, value = next(iter(scope.forward.items()))
            raise self.error(f"use of undeclared SSA value name '%{name}'", scope.forward_at[name])

    def parse_operand(self) -> UnresolvedOperand:
        start = self.skip()
        m = _VALUE_ID.match(self.text, start)
        if m is None:
            raise self.error("expected SSA operand" + self._found())
        self.pos = m.end()
        return UnresolvedOperand(m.group(1), int(m.group(2) or 0), start)

    def try_operand(self) -> UnresolvedOperand | None:
        if self.at("%"):
            return self.parse_operand()
        return None

    def resolve(self, operand: UnresolvedOperand, type_: Attribute) -> SSAValue:
        for scope in reversed(self.scopes):
            values = scope.values.get(operand.name)
            if values is not None:
                if operand.index >= len(values):
                    raise self.error(f"result number {operand.index} out of range for '%{operand.name}'", operand.offset)
                value = values[operand.index]
                if value.type != type_:
                    raise self.error(
                        f"use of value '%{operand.name}' expects different type than prior uses: "
                        f"'{self.describe(type_)}' vs '{self.describe(value.type)}'", operand.offset)
                return value
            if scope.isolated:
                break
        key = operand.name if operand.index == 0 else f"{operand.name}#{operand.index}"
        scope = self.scopes[-1]
        forward = scope.forward.get(key)
        if forward is None:
            forward = ForwardDeclaredValue(type_)
            scope.forward[key] = forward
            scope.forward_at[key] = operand.offset
        elif forward.type != type_:
            raise self.error(f"use of value '%{operand.name}' expects different type than prior uses", operand.offset)
        return forward

    def describe(self, attr: Attribute) -> str:
        return attribute_text(attr)

    def define(self, name: str, values: Sequence[SSAValue], offset: int) -> None:
        scope = self.scopes[-1]
        if name in scope.values:
            raise self.error(f"redefinition of SSA value '%{name}'", offset)
        scope.values[name] = values
        if scope.forward:
            for index, value in enumerate(values):
                key = name if index == 0 else f"{name}#{index}"
                forward = scope.forward.pop(key, None)
                if forward is not None:
                    scope.forward_at.pop(key)
                    if forward.type != value.type:
                        raise self.error(f"definition of '%{name}' has a different type than its uses", offset)
                    forward.replace_all_uses_with(value)

    # ----------------------------------------------------------------- regions and blocks

    def parse_region(self, entry_args: Sequence[tuple[UnresolvedOperand, Attribute, LocationAttr | None]] | None = None,
                     isolated: bool = False) -> Region:
        """`{ block* }`. `entry_args` are arguments the op declared outside the region."""
        self.expect("{")
        region = Region()
        self.push_scope(isolated)
        scope = self.scopes[-1]
        if entry_args is not None or not self.at("^"):
            block = Block()
            region.add_block(block)
            for operand, type_, loc in entry_args or ():
                arg = block.insert_arg(type_, len(block.args))
                if loc is not None:
                    arg.location = loc
                else:
                    arg.location = self.default_location(operand.offset)
                self.define(operand.name, (arg,), operand.offset)
            if entry_args is not None and self.at("^"):
                raise self.error("entry block of a region with arguments cannot have a label")
            self._parse_block_body(block)
        while self.at("^"):
            region.add_block(self._parse_labeled_block(scope))
        self.expect("}")
        if scope.forward_blocks:
            name, offset = next(iter(scope.forward_blocks.items()))
            raise self.error(f"reference to an undefined block '^{name}'", offset)
        self.pop_scope()
        return region

    def _parse_labeled_block(self, scope: _Scope) -> Block:
        start = self.skip()
        m = self.match(_BLOCK_ID)
        name = m.group(1)
        block = scope.blocks.get(name)
        if block is None:
            block = Block()
            scope.blocks[name] = block
        elif name not in scope.forward_blocks:
            raise self.error(f"redefinition of block '^{name}'", start)
        scope.forward_blocks.pop(name, None)
        if self.accept("("):
            for operand, type_, loc in self.parse_comma_list(self._parse_block_arg, ")"):
                arg = block.insert_arg(type_, len(block.args))
                arg.location = loc if loc is not None else self.default_location(operand.offset)
                self.define(operand.name, (arg,), operand.offset)
            self.expect(")")
        self.expect(":")
        self._parse_block_body(block)
        return block

    def _parse_block_arg(self) -> tuple[UnresolvedOperand, Attribute, LocationAttr | None]:
        operand = self.parse_operand()
        self.expect(":")
        type_ = self.parse_type()
        return operand, type_, self.try_location()

    def parse_successor(self) -> Block:
        start = self.skip()
        m = self.match(_BLOCK_ID)
        if m is None:
            raise self.error("expected block name" + self._found())
        scope = self.scopes[-1]  # successors name blocks of the enclosing region only
        block = scope.blocks.get(m.group(1))
        if block is not None:
            return block
        block = Block()
        scope.blocks[m.group(1)] = block
        scope.forward_blocks[m.group(1)] = start
        return block

    def _parse_block_body(self, block: Block) -> None:
        text = self.text
        while True:
            pos = self.skip()
            if pos >= len(text):
                raise self.error("expected '}' to close the region, found end of input")
            c = text[pos]
            if c == "}" or c == "^":
                return
            block.add_op(self.parse_operation())

    # ----------------------------------------------------------------- operations

    def parse_operation(self) -> Operation:
        start = self.skip()
        results: list[tuple[str, int, int]] = []
        if self.text.startswith("%", start):
            results = self.parse_comma_list(self._parse_result_def)
            self.expect("=")
        name_start = self.skip()
        if self.text.startswith('"', name_start):
            op = self._parse_generic_operation(self.parse_string(), name_start)
        elif self.accept_keyword("module") or self.accept_keyword("builtin.module"):
            op = self._parse_module_op()
        else:
            name = self.parse_keyword("operation name")
            cls = self.registry.lookup_op(name)
            if cls is None:
                hint = "; unregistered ops must use the generic form" if self.options.allow_unregistered \
                    else _unregistered_hint(name, self.options)
                raise self.error(f"custom op '{name}' is unknown" + hint, name_start)
            try:
                op = cls.parse_custom(self, name_start)  # type: ignore[attr-defined]
            except DiagnosticError:
                raise
            except (ValueError, TypeError, KeyError, IndexError, VerifyException) as exc:
                raise self.error(f"'{name}' op {exc}", name_start) from None
        loc = self.try_location()
        op.location = loc if loc is not None else self.default_location(name_start)
        self.op_offsets[id(op)] = start
        if results:
            self._bind_results(op, results)
        return op

    def _parse_result_def(self) -> tuple[str, int, int]:
        start = self.skip()
        m = _VALUE_DEF.match(self.text, start)
        if m is None:
            raise self.error("expected SSA result name" + self._found())
        self.pos = m.end()
        return m.group(1), int(m.group(2) or 1), start

    def _bind_results(self, op: Operation, results: list[tuple[str, int, int]]) -> None:
        expected = sum(count for _, count, _ in results)
        if expected != len(op.results):
            raise self.error(f"operation defines {len(op.results)} results but was provided {expected} to bind",
                             results[0][2])
        index = 0
        for name, count, offset in results:
            self.define(name, op.results[index:index + count], offset)
            index += count

    def _parse_generic_operation(self, name: str, name_start: int) -> Operation:
        cls = self.registry.lookup_op(name)
        if cls is None:
            if not self.options.allow_unregistered:
                raise self.error(f"unregistered operation '{name}' found in dialect"
                                 + _unregistered_hint(name, self.options), name_start)
            cls = self.registry.unregistered_op(name)
        operands = self.parse_delimited("(", ")", self.parse_operand)
        successors: list[Block] = []
        if self.at("["):
            successors = self.parse_delimited("[", "]", self.parse_successor)
        properties: dict[str, Attribute] = {}
        if self.accept("<"):
            properties = dict(self.parse_dictionary().data)
            self.expect(">")
        regions: list[Region] = []
        if self.at("("):
            isolated = is_isolated_from_above(cls)
            regions = self.parse_delimited("(", ")", lambda: self.parse_region(isolated=isolated))
        attributes: dict[str, Attribute] = {}
        if self.at("{"):
            attributes = dict(self.parse_dictionary().data)
        self.expect(":")
        type_start = self.skip()
        fn_type = self.parse_type()
        if not isinstance(fn_type, FunctionType):
            raise self.error("expected function type for a generic operation", type_start)
        inputs = fn_type.inputs.data
        if len(inputs) != len(operands):
            raise self.error(f"expected {len(operands)} operand types but had {len(inputs)}", type_start)
        values = [self.resolve(o, t) for o, t in zip(operands, inputs)]
        return self.registry.build_generic(cls, name, values, list(fn_type.outputs.data),
                                           properties, attributes, regions, successors)

    # ----------------------------------------------------------------- module

    def _parse_module_op(self) -> ModuleOp:
        """`module @name? (attributes {...})? { ... }`."""
        name = self.parse_symbol_name() if self.at("@") else None
        attributes: dict[str, Attribute] = {}
        if self.accept_keyword("attributes"):
            attributes = dict(self.parse_dictionary().data)
        body = self.parse_region(isolated=True)
        module = ModuleOp(body, attributes)
        if name is not None:
            module.sym_name = StringAttr(name)
        return module

    def parse_top_level(self) -> ModuleOp:
        """Alias definitions and operations; a lone `module` op is the result, else one is made."""
        ops: list[Operation] = []
        text = self.text
        self.push_scope(isolated=True)
        while True:
            pos = self.skip()
            if pos >= len(text):
                break
            c = text[pos]
            if c == "#" or c == "!":
                self._parse_alias_definition()
            elif text.startswith("{-#", pos):
                self._skip_resource_block()
            else:
                ops.append(self.parse_operation())
        self.pop_scope()
        if len(ops) == 1 and isinstance(ops[0], ModuleOp):
            return ops[0]
        module = ModuleOp([])
        module.location = FileLineColLoc(self._file_attr, IntAttr(0), IntAttr(0))  # as MLIR's parseSourceFile
        for op in ops:
            module.body.block.add_op(op)
        return module

    def _skip_resource_block(self) -> None:
        """`{-# external_resources: {...} #-}`: metadata outside the module (a reproducer's
        pass pipeline), which the module does not hold; it is read past and dropped."""
        end = self.text.find("#-}", self.pos)
        if end == -1:
            raise self.error("expected '#-}' to close the resource block")
        self.pos = end + 3

    def _parse_alias_definition(self) -> None:
        start = self.pos
        kind = self.text[start]
        self.pos += 1
        m = _ALIAS_NAME.match(self.text, self.pos)
        if m is None:
            raise self.error("expected alias name", start)
        name = m.group(0)
        self.pos = m.end()
        self.expect("=")
        if kind == "!":
            if name in self.type_aliases:
                raise self.error(f"redefinition of type alias '!{name}'", start)
            self.type_aliases[name] = self.parse_type()
            return
        if name in self.attr_aliases and name not in self.loc_alias_offsets:
            raise self.error(f"redefinition of attribute alias '#{name}'", start)
        if name in self.loc_alias_offsets:
            if name in self.attr_aliases:  # already resolved by a forward use: skip its text
                self.parse_location()
                return
            self._resolving_aliases.add(name)
            self.attr_aliases[name] = self.parse_location()
            self._resolving_aliases.discard(name)
            return
        self.attr_aliases[name] = self.parse_attribute()


def _is_ident_char(text: str, index: int) -> bool:
    return index < len(text) and (text[index].isalnum() or text[index] in "_$.")


def _unescape(raw: str) -> str:
    """`\\XX` escapes are bytes: the string is those bytes read as UTF-8, with bytes that
    are not UTF-8 kept as surrogate escapes, so that printing gives them back."""
    data = bytearray()
    position = 0
    for m in _STRING_ESCAPE.finditer(raw):
        data += raw[position:m.start()].encode("utf-8", "surrogateescape")
        if m.group(1) is not None:
            data.append(int(m.group(1), 16))
        else:
            data += _SIMPLE_ESCAPES.get(m.group(2), m.group(2)).encode("utf-8", "surrogateescape")
        position = m.end()
    data += raw[position:].encode("utf-8", "surrogateescape")
    return data.decode("utf-8", "surrogateescape")


_SIMPLE_ESCAPES = {"n": "\n", "t": "\t", '"': '"', "\\": "\\"}


def _unregistered_hint(name: str, options: ParseOptions) -> str:
    if options.allow_unregistered:
        return ""
    return " (use --allow-unregistered-dialect to pass unknown ops through in generic form)"


def parse_module(text: str, name: str = "<stdin>", *, registry: Registry | None = None,
                 options: ParseOptions | None = None) -> ParseResult:
    """Parse a whole buffer. Raises `DiagnosticError` for malformed or unknown input."""
    source = SourceFile(name, text)
    parser = Parser(source, registry, options)
    try:
        module = parser.parse_top_level()
    except DiagnosticError:
        raise
    except RecursionError:
        raise parser.error("input nests too deeply") from None
    except (VerifyException, ValueError, TypeError, KeyError, IndexError, AttributeError, OverflowError) as exc:
        # A constructor or verifier rejected what the text describes.
        raise parser.error(f"invalid input ({type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''})") from None
    return ParseResult(module, source, parser.op_offsets)
