"""MLIR's declarative assembly format, interpreted, for the custom forms of ops.

An op class mixes in `FormattedOp` and sets `SYNTAX` to the `assemblyFormat` string of
its ODS definition in Triton (or MLIR), e.g. for `tt.splat`:

    SYNTAX = "$src attr-dict `:` type($src) `->` type($result)"

Supported: literals (with MLIR's spacing rules), `$operand`/`$attr`/`$region`/`$successor`,
`type(...)` and `qualified(...)`, `functional-type(a, b)`, `operands`, `results`,
`attr-dict`, `attr-dict-with-keyword`, optional groups `( ... )?` with a `^` anchor,
`oilist(a | b)`, and `custom<Name>(...)`, which calls the op class's
`parse_Name(parser, state, *args)` / `print_Name(printer, op, *args)`. As in MLIR, an
unqualified `type($x)` of a single value constrained to one dialect type prints that type
stripped of its `!name` (`<[...]>` for `!nvws.aref<[...]>`) and reads either spelling.

Types the format does not spell are inferred: `TYPE_RULES` maps an operand or result name
to a function of the `ParseState` (MLIR's `TypesMatchWith`, `InferTypeOpInterface`), and
`SAME_TYPE` names a group that shares one type (`SameOperandsAndResultType`).
Attributes named directly in the format are read and printed by `ATTR_SYNTAX`: an
`IntEnum` class (`I32EnumAttr`: the keyword, stored as an integer), `"i32"`/`"i64"`
(a bare integer), `"array:i32"` (`[1, 2]`), `"str"`, `"symbol"`, `"type"`, `"unit"`;
anything else reads and prints as a full attribute.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from typing import Any, ClassVar

from xdsl.dialects.builtin import (
    DenseArrayBase,
    FunctionType,
    IntegerAttr,
    IntegerType,
    StringAttr,
    SymbolRefAttr,
    UnitAttr,
    i32,
    i64,
)
from xdsl.ir import Attribute, Block, Operation, Region
from xdsl.irdl import (
    AttrSizedOperandSegments,
    AttrSizedResultSegments,
    IRDLOperation,
    OptionalDef,
    VariadicDef,
)
from xdsl.irdl.constraints import RangeLengthConstraint, RangeOf
from xdsl.traits import IsolatedFromAbove

from ttpipe.ir.base import I64Enum


def is_isolated_from_above(cls: type[Operation]) -> bool:
    """Whether the op's regions see no SSA values from outside (a fresh naming scope)."""
    return issubclass(cls, IRDLOperation) and cls.has_trait(IsolatedFromAbove)


# ------------------------------------------------------------------ format AST


@dataclass(frozen=True)
class Lit:
    text: str


@dataclass(frozen=True)
class Var:
    name: str


@dataclass(frozen=True)
class TypeOf:
    targets: tuple[str, ...]
    """Names of operands/results, or 'operands' / 'results'."""
    qualified: bool = False
    """`qualified(type(...))`: always the full type, never MLIR's stripped form."""


@dataclass(frozen=True)
class FunctionalType:
    inputs: str
    outputs: str


@dataclass(frozen=True)
class AttrDict:
    with_keyword: bool


@dataclass(frozen=True)
class OptionalGroup:
    elements: tuple
    anchor: Any


@dataclass(frozen=True)
class OIList:
    clauses: tuple[tuple, ...]


@dataclass(frozen=True)
class Custom:
    name: str
    args: tuple


_FORMAT_TOKEN = re.compile(r"\s*(`[^`]*`|\$\w+|\^|\(|\)|\?|\||,|<\w+>|[\w-]+)")


def compile_format(text: str) -> tuple:
    tokens = [m.group(1) for m in _FORMAT_TOKEN.finditer(text)]
    stripped = re.sub(r"\s+", "", text)
    if re.sub(r"\s+", "", "".join(tokens)) != stripped:  # a `` ` ` `` literal keeps its space
        raise ValueError(f"cannot read assembly format: {text!r}")
    elements, rest = _parse_elements(tokens, 0, stop=())
    if rest != len(tokens):
        raise ValueError(f"unexpected '{tokens[rest]}' in assembly format {text!r}")
    return tuple(elements)


def _parse_elements(tokens: list[str], i: int, stop: tuple[str, ...]) -> tuple[list, int]:
    elements: list = []
    while i < len(tokens) and tokens[i] not in stop:
        element, i = _parse_element(tokens, i)
        elements.append(element)
    return elements, i


def _parse_element(tokens: list[str], i: int) -> tuple[Any, int]:
    tok = tokens[i]
    if tok.startswith("`"):
        return Lit(tok[1:-1]), i + 1
    if tok.startswith("$"):
        anchor = i + 1 < len(tokens) and tokens[i + 1] == "^"
        return (("anchor", Var(tok[1:])) if anchor else Var(tok[1:])), i + (2 if anchor else 1)
    if tok in ("attr-dict", "attr-dict-with-keyword"):
        return AttrDict(tok == "attr-dict-with-keyword"), i + 1
    if tok in ("type", "qualified"):
        args, i = _parse_args(tokens, i + 1)
        anchor = i < len(tokens) and tokens[i] == "^"
        if tok == "qualified":
            node = args[0]
            if isinstance(node, TypeOf):
                node = TypeOf(node.targets, qualified=True)
            return (("anchor", node) if anchor else node), i + (1 if anchor else 0)
        node = TypeOf(tuple(a.name if isinstance(a, Var) else a for a in args))
        return (("anchor", node) if anchor else node), i + (1 if anchor else 0)
    if tok == "functional-type":
        args, i = _parse_args(tokens, i + 1)
        names = [a.name if isinstance(a, Var) else a for a in args]
        return FunctionalType(names[0], names[1]), i
    if tok in ("operands", "results"):
        return tok, i + 1
    if tok == "oilist":
        assert tokens[i + 1] == "("
        i += 2
        clauses = []
        while True:
            clause, i = _parse_elements(tokens, i, stop=("|", ")"))
            clauses.append(tuple(clause))
            if tokens[i] == ")":
                return OIList(tuple(clauses)), i + 1
            i += 1
    if tok == "custom":
        name = tokens[i + 1][1:-1]
        args, i = _parse_args(tokens, i + 2)
        return Custom(name, tuple(args)), i
    if tok == "ref":
        args, i = _parse_args(tokens, i + 1)
        return args[0], i
    if tok == "(":
        elements, i = _parse_elements(tokens, i + 1, stop=(")",))
        if i + 1 >= len(tokens) or tokens[i + 1] != "?":
            raise ValueError("only optional groups '( ... )?' are supported")
        anchor = None
        plain = []
        for element in elements:
            if isinstance(element, tuple) and element and element[0] == "anchor":
                anchor = element[1]
                element = element[1]
            plain.append(element)
        if anchor is None:
            raise ValueError("optional group without an anchor '^'")
        return OptionalGroup(tuple(plain), anchor), i + 2
    raise ValueError(f"unexpected token '{tok}' in assembly format")


def _parse_args(tokens: list[str], i: int) -> tuple[list, int]:
    assert tokens[i] == "(", tokens[i:]
    i += 1
    args = []
    while tokens[i] != ")":
        if tokens[i] == ",":
            i += 1
            continue
        element, i = _parse_element(tokens, i)
        if isinstance(element, tuple) and element and element[0] == "anchor":
            element = element[1]
        args.append(element)
    return args, i + 1


# ------------------------------------------------------------------ op shape


@dataclass
class OpShape:
    """What each `$name` of an op is, read from its IRDL definition."""

    operands: list[tuple[str, str]]
    results: list[tuple[str, str]]
    props: dict[str, Any]
    attrs: dict[str, Any]
    regions: list[tuple[str, str]]
    successors: list[tuple[str, str]]
    operand_segments: bool
    result_segments: bool

    def kind_of(self, name: str) -> str:
        for table, kind in ((self.operands, "operand"), (self.results, "result"),
                            (self.regions, "region"), (self.successors, "successor")):
            if any(n == name for n, _ in table):
                return kind
        if name in self.props or name in self.attrs:
            return "attr"
        raise ValueError(f"'{name}' names nothing of the op")


def _arity(definition: Any) -> str:
    if isinstance(definition, OptionalDef):
        return "optional"
    if isinstance(definition, VariadicDef):
        return "variadic"
    return "single"


@cache
def op_shape(cls: type[IRDLOperation]) -> OpShape:
    d = cls.get_irdl_definition()
    return OpShape(
        operands=[(n, _arity(o)) for n, o in d.operands],
        results=[(n, _arity(r)) for n, r in d.results],
        props=dict(d.properties),
        attrs=dict(d.attributes),
        regions=[(n, _arity(r)) for n, r in d.regions],
        successors=[(n, _arity(s)) for n, s in d.successors],
        operand_segments=any(isinstance(o, AttrSizedOperandSegments) for o in d.options),
        result_segments=any(isinstance(o, AttrSizedResultSegments) for o in d.options),
    )


# ------------------------------------------------------------------ parse state


@dataclass
class ParseState:
    """What a custom-form parse has read so far; custom directives read and fill it."""

    cls: type
    operands: dict[str, list] = field(default_factory=dict)
    operand_types: dict[str, list[Attribute]] = field(default_factory=dict)
    result_types: dict[str, list[Attribute]] = field(default_factory=dict)
    props: dict[str, Attribute] = field(default_factory=dict)
    attrs: dict[str, Attribute] = field(default_factory=dict)
    regions: dict[str, list[Region]] = field(default_factory=dict)
    successors: dict[str, list[Block]] = field(default_factory=dict)

    def type(self, name: str) -> Attribute:
        """The (first) type of an operand or result, once known."""
        types = self.operand_types.get(name) or self.result_types.get(name)
        if not types:
            raise ValueError(f"type of '{name}' is not known yet")
        return types[0]

    def has_type(self, name: str) -> bool:
        return bool(self.operand_types.get(name) or self.result_types.get(name))

    def count(self, name: str) -> int:
        return len(self.operands.get(name, ()))


# ------------------------------------------------------------------ the mixin


class FormattedOp:
    """Custom form from `SYNTAX`; also the hooks that hand-written custom forms override."""

    SYNTAX: ClassVar[str | None] = None
    TYPE_RULES: ClassVar[dict[str, Callable[[ParseState], Any]]] = {}
    SAME_TYPE: ClassVar[tuple[str, ...]] = ()
    ATTR_SYNTAX: ClassVar[dict[str, Any]] = {}

    @classmethod
    def _format(cls) -> tuple:
        fmt = cls.__dict__.get("_compiled_format")
        if fmt is None:
            fmt = compile_format(cls.SYNTAX)
            cls._compiled_format = fmt
        return fmt

    @classmethod
    def parse_custom(cls, parser, name_offset: int) -> Operation:
        state = ParseState(cls)
        _Reader(parser, cls, state).elements(cls._format())
        return build_op(parser, cls, state)

    def print_custom(self, printer) -> None:
        _Writer(printer, self).elements(type(self)._format())


def build_op(parser, cls, state: ParseState) -> Operation:
    """Infer the missing types, resolve operands, and create the op."""
    shape = op_shape(cls)
    _infer_types(cls, shape, state)
    operands = []
    for name, _ in shape.operands:
        uses = state.operands.get(name, [])
        types = state.operand_types.get(name, [])
        if len(types) != len(uses):
            raise parser.error(f"'{cls.name}' expects {len(uses)} types for operand '{name}' but got {len(types)}")
        operands.extend(parser.resolve(u, t) for u, t in zip(uses, types))
    result_types = []
    for name, arity in shape.results:
        types = state.result_types.get(name, [])
        if arity == "single" and len(types) != 1:
            raise parser.error(f"'{cls.name}' could not infer the type of result '{name}'")
        result_types.extend(types)
    props = state.props
    if shape.operand_segments:
        props["operandSegmentSizes"] = DenseArrayBase.from_list(i32, [len(state.operands.get(n, ())) for n, _ in shape.operands])
    if shape.result_segments:
        props["resultSegmentSizes"] = DenseArrayBase.from_list(i32, [len(state.result_types.get(n, ())) for n, _ in shape.results])
    regions = [r for name, _ in shape.regions for r in state.regions.get(name, [])]
    successors = [b for name, _ in shape.successors for b in state.successors.get(name, [])]
    return cls.create(operands=operands, result_types=result_types, properties=props,
                      attributes=state.attrs, regions=regions, successors=successors)


def _infer_types(cls, shape: OpShape, state: ParseState) -> None:
    if cls.SAME_TYPE:
        known = next((state.type(n) for n in cls.SAME_TYPE if state.has_type(n)), None)
        if known is not None:
            for name in cls.SAME_TYPE:
                _fill(shape, state, name, lambda _: known)
    for name, rule in cls.TYPE_RULES.items():
        _fill(shape, state, name, rule)


def _fill(shape: OpShape, state: ParseState, name: str, rule) -> None:
    kind = shape.kind_of(name)
    table = state.operand_types if kind == "operand" else state.result_types
    if table.get(name):
        return
    if kind == "operand":
        count = state.count(name)
        if count == 0:
            return
        value = rule(state)
        table[name] = list(value) if isinstance(value, (list, tuple)) else [value] * count
    else:
        arity = dict(shape.results)[name]
        value = rule(state)
        if value is None and arity == "optional":
            return
        table[name] = list(value) if isinstance(value, (list, tuple)) else [value]


# ------------------------------------------------------------------ reading


class _Reader:
    def __init__(self, parser, cls, state: ParseState):
        self.p = parser
        self.cls = cls
        self.shape = op_shape(cls)
        self.state = state

    def elements(self, elements) -> None:
        for element in elements:
            self.element(element)

    def element(self, e) -> None:
        p, state = self.p, self.state
        if isinstance(e, Lit):
            if e.text in ("", " ", "\\n"):
                return
            if e.text[0].isalpha() or e.text[0] == "_":
                p.expect_keyword(e.text)
            else:
                p.expect(e.text)
        elif isinstance(e, Var):
            self.var(e.name)
        elif isinstance(e, TypeOf):
            for target in e.targets:
                self.types_of(target, stripped=not e.qualified)
        elif isinstance(e, FunctionalType):
            self.p.expect("(")
            self.types_of(e.inputs, close=")")
            self.p.expect(")")
            self.p.expect("->")
            if self.p.at("("):
                self.p.expect("(")
                self.types_of(e.outputs, close=")")
                self.p.expect(")")
            else:
                self.types_of(e.outputs)
        elif isinstance(e, AttrDict):
            if e.with_keyword:
                if not p.accept_keyword("attributes"):
                    return
            if p.at("{"):
                for key, value in p.parse_dictionary().data.items():
                    if key in self.shape.props:
                        state.props[key] = value
                    else:
                        state.attrs[key] = value
        elif isinstance(e, OptionalGroup):
            if self.starts(e.elements[0]):
                self.elements(e.elements)
        elif isinstance(e, OIList):
            remaining = list(e.clauses)
            progress = True
            while remaining and progress:
                progress = False
                for clause in remaining:
                    if self.starts(clause[0]):
                        self.elements(clause)
                        remaining.remove(clause)
                        progress = True
                        break
        elif isinstance(e, Custom):
            getattr(self.cls, f"parse_{e.name}")(p, state, *[_arg_name(a) for a in e.args])
        elif e == "operands":
            uses = p.parse_comma_list(p.parse_operand) if p.at("%") else []
            index = 0
            for (name, _), size in zip(self.shape.operands, _group_sizes(self.shape.operands, len(uses))):
                state.operands[name] = uses[index:index + size]
                index += size
        elif e == "results":
            raise ValueError("'results' outside a type directive is not supported")
        else:
            raise ValueError(f"unsupported format element {e!r}")

    def starts(self, e) -> bool:
        """Whether the next text begins element `e` (the first element of an optional group)."""
        p = self.p
        if isinstance(e, Lit):
            if e.text[0].isalpha() or e.text[0] == "_":
                return p.accept_keyword(e.text) and self._unread(len(e.text))
            return p.at(e.text)
        if isinstance(e, Var):
            kind = self.shape.kind_of(e.name)
            if kind == "operand":
                return p.at("%")
            if kind == "region":
                return p.at("{")
            if kind == "successor":
                return p.at("^")
            spec = self.cls.ATTR_SYNTAX.get(e.name)
            if spec == "unit":
                return False
            if isinstance(spec, type) and issubclass(spec, enum.Enum):
                pos = p.pos
                word = p.try_keyword()
                p.pos = pos
                return word is not None and word in spec.__members__
            pos = p.pos
            found = p.try_attribute() is not None
            p.pos = pos
            return found
        if isinstance(e, TypeOf):
            pos = p.pos
            found = p.try_type() is not None
            p.pos = pos
            return found
        if isinstance(e, Custom):
            return getattr(self.cls, f"starts_{e.name}")(p)
        raise ValueError(f"element {e!r} cannot start an optional group")

    def _unread(self, length: int) -> bool:
        self.p.pos -= length
        return True

    def var(self, name: str) -> None:
        p, state, shape = self.p, self.state, self.shape
        kind = shape.kind_of(name)
        if kind == "operand":
            arity = dict(shape.operands)[name]
            if arity == "single":
                state.operands[name] = [p.parse_operand()]
            elif arity == "optional":
                op = p.try_operand()
                state.operands[name] = [op] if op is not None else []
            else:
                state.operands[name] = p.parse_comma_list(p.parse_operand) if p.at("%") else []
        elif kind == "attr":
            value = read_attr(p, self.cls.ATTR_SYNTAX.get(name))
            (state.props if name in shape.props else state.attrs)[name] = value
        elif kind == "region":
            isolated = is_isolated_from_above(self.cls)
            arity = dict(shape.regions)[name]
            if arity == "single":
                state.regions[name] = [p.parse_region(isolated=isolated)]
            else:
                regions = []
                if p.at("{"):
                    regions = p.parse_comma_list(lambda: p.parse_region(isolated=isolated))
                state.regions[name] = regions
        elif kind == "successor":
            arity = dict(shape.successors)[name]
            if arity == "single":
                state.successors[name] = [p.parse_successor()]
            else:
                state.successors[name] = p.parse_comma_list(p.parse_successor) if p.at("^") else []
        else:
            raise ValueError(f"'${name}' cannot appear alone in the format")

    def types_of(self, target: str, close: str | None = None, stripped: bool = False) -> None:
        """Types of `target`; `stripped` allows MLIR's `parseCustomTypeWithFallback` for a
        single value whose constraint is one dialect type (`<...>` without `!name`)."""
        p, state, shape = self.p, self.state, self.shape
        if target in ("operands", "results"):
            names = shape.operands if target == "operands" else shape.results
            table = state.operand_types if target == "operands" else state.result_types
            types = _type_list(p, close)
            if target == "operands":
                index = 0
                for name, _ in names:
                    count = state.count(name)
                    table[name] = types[index:index + count]
                    index += count
                if index != len(types):
                    raise p.error(f"'{self.cls.name}' expects {index} operand types but got {len(types)}")
            else:
                _distribute_results(p, self.cls, names, types, table)
            return
        kind = shape.kind_of(target)
        if kind == "operand":
            arity = dict(shape.operands)[target]
            if arity == "single":
                state.operand_types[target] = [self.single_type(target, stripped)]
            elif arity == "optional":
                state.operand_types[target] = [p.parse_type()] if state.count(target) else []
            else:
                count = state.count(target)
                state.operand_types[target] = [p.parse_type()] + [_comma_type(p) for _ in range(count - 1)] if count else []
        elif kind == "result":
            arity = dict(shape.results)[target]
            if arity == "single":
                state.result_types[target] = [self.single_type(target, stripped)]
            elif arity == "optional":
                t = p.try_type()
                state.result_types[target] = [t] if t is not None else []
            else:
                state.result_types[target] = _type_list(p, close)
        else:
            raise ValueError(f"type(${target}) names no operand or result")

    def single_type(self, target: str, stripped: bool) -> Attribute:
        type_class = stripped_type_class(self.cls, target) if stripped else None
        if type_class is not None and not self.p.at("!"):
            return type_class.parse_parameters(self.p)
        return self.p.parse_type()


@cache
def stripped_type_class(cls, name: str) -> type | None:
    """The dialect type class an unqualified `type($name)` prints without its `!name`.

    MLIR's generated printer calls `printStrippedAttrOrType` for a single (not optional or
    variadic) operand or result whose constraint is one type class with a custom form
    (`!nvws.aref<[...]>` prints as `<[...]>`); the parser takes either spelling."""
    d = cls.get_irdl_definition()
    for table in (d.operands, d.results):
        for n, definition in table:
            if n == name and not isinstance(definition, (OptionalDef, VariadicDef)):
                constr = definition.constr
                if isinstance(constr, RangeLengthConstraint):
                    constr = constr.constraint
                if isinstance(constr, RangeOf):
                    constr = constr.constr
                bases = constr.get_bases()
                if bases is not None and len(bases) == 1:
                    (base,) = bases
                    if getattr(base, "IS_TYPE", False) and hasattr(base, "parse_parameters"):
                        return base
    return None


def _comma_type(p) -> Attribute:
    p.expect(",")
    return p.parse_type()


def _type_list(p, close: str | None) -> list[Attribute]:
    """Greedy comma-separated types (possibly none)."""
    if close is not None and p.at(close):
        return []
    first = p.try_type()
    if first is None:
        return []
    types = [first]
    while True:
        pos = p.pos
        if not p.accept(","):
            break
        t = p.try_type()
        if t is None:
            p.pos = pos
            break
        types.append(t)
    return types


def _distribute_results(p, cls, names, types, table) -> None:
    variadic = [n for n, arity in names if arity != "single"]
    if len(variadic) > 1:
        raise p.error(f"'{cls.name}': result types of several variadic results need a custom form")
    fixed = len(names) - len(variadic)
    index = 0
    for name, arity in names:
        count = 1 if arity == "single" else len(types) - fixed
        table[name] = types[index:index + count]
        index += count


def _arg_name(arg) -> str:
    if isinstance(arg, Var):
        return arg.name
    if isinstance(arg, TypeOf):
        return "type:" + arg.targets[0]
    return str(arg)


def read_attr(p, spec) -> Attribute:
    """An attribute spelled directly in a custom form, by its `ATTR_SYNTAX` spec."""
    if spec is None:
        return p.parse_attribute()
    if spec == "unit":
        return UnitAttr()
    if isinstance(spec, type) and hasattr(spec, "parse_parameters"):
        return spec.parse_parameters(p)  # a dialect attribute printed without its name
    if isinstance(spec, type) and issubclass(spec, enum.Enum):
        start = p.skip()
        word = p.try_string()  # MLIR also reads an enum case as a string literal: "slt"
        if word is None:
            word = p.parse_keyword(f"one of {', '.join(spec.__members__)}")
        member = spec.__members__.get(word)
        if member is None:
            raise p.error(f"expected one of {', '.join(spec.__members__)} but got '{word}'", start)
        return IntegerAttr(member.value, i64 if issubclass(spec, I64Enum) else i32)
    if spec in ("i32", "i64", "i1"):
        value = p.parse_integer()
        return IntegerAttr(value, {"i32": i32, "i64": i64, "i1": IntegerType(1)}[spec])
    if isinstance(spec, str) and spec.startswith("array:"):
        element = {"i32": i32, "i64": i64}[spec[6:]]
        return DenseArrayBase.from_list(element, p.parse_delimited("[", "]", p.parse_integer))
    if spec == "str":
        return StringAttr(p.parse_string())
    if spec == "symbol":
        return SymbolRefAttr(p.parse_symbol_name())
    if spec == "type":
        return p.parse_type()
    raise ValueError(f"unknown attribute syntax {spec!r}")


def attr_text(printer, spec, value: Attribute) -> str:
    if spec is None:
        return printer.attr(value)
    if isinstance(spec, type) and hasattr(spec, "parse_parameters"):
        return value.print_body(printer)
    if isinstance(spec, type) and issubclass(spec, enum.Enum):
        return spec(value.value.data).name
    if spec in ("i32", "i64", "i1"):
        return str(value.value.data)
    if isinstance(spec, str) and spec.startswith("array:"):
        return "[" + ", ".join(str(v) for v in value.get_values()) + "]"
    if spec == "str":
        return printer.attr(value)
    if spec == "symbol":
        return printer.attr(value)
    if spec == "type":
        return printer.attr(value)
    raise ValueError(f"unknown attribute syntax {spec!r}")


# ------------------------------------------------------------------ printing


def _space_before(text: str, last_was_punctuation: bool) -> bool:
    """MLIR OpFormatGen's `shouldEmitSpaceBefore`."""
    if len(text) != 1 and text != "->":
        return True
    if last_was_punctuation:
        return text[0] not in ">)}],"
    return text[0] not in "<>(){}[],"


class _Writer:
    def __init__(self, printer, op: Operation):
        self.p = printer
        self.op = op
        self.cls = type(op)
        self.shape = op_shape(self.cls)
        self.space = True
        self.last_punct = False
        self.used: set[str] = set()
        _collect_used(self.cls._format(), self.used)

    def emit(self, text: str) -> None:
        if self.space:
            self.p.write(" ")
        self.p.write(text)
        self.space = True
        self.last_punct = False

    def elements(self, elements) -> None:
        for e in elements:
            self.element(e)

    def element(self, e) -> None:
        p, op = self.p, self.op
        if isinstance(e, Lit):
            text = e.text
            if text == "":
                self.space = False
                return
            if text == " ":
                p.write(" ")
                return
            if self.space and _space_before(text, self.last_punct):
                p.write(" ")
            p.write(text)
            self.space = len(text) != 1 or text not in "<({["
            self.last_punct = text[0] != "_" and not text[0].isalpha()
        elif isinstance(e, Var):
            self.var(e.name)
        elif isinstance(e, TypeOf):
            texts = [t for target in e.targets for t in self.types_text(target, stripped=not e.qualified)]
            if texts:
                self.emit(", ".join(texts))
        elif isinstance(e, FunctionalType):
            ins = [self.p.attr(t) for t in self.types_of(e.inputs)]
            outs = self.types_of(e.outputs)
            text = "(" + ", ".join(ins) + ") -> "
            if len(outs) == 1 and not _is_function_type(outs[0]):
                text += self.p.attr(outs[0])
            else:
                text += "(" + ", ".join(self.p.attr(t) for t in outs) + ")"
            self.emit(text)
        elif isinstance(e, AttrDict):
            attrs = self.remaining_attrs()
            if attrs:
                if e.with_keyword:
                    p.write(" attributes")
                p.print_attr_dict(attrs)
            self.last_punct = False
        elif isinstance(e, OptionalGroup):
            if self.present(e.anchor):
                self.elements(e.elements)
        elif isinstance(e, OIList):
            for clause in e.clauses:
                anchor = next((x for x in clause if isinstance(x, Var)), None)
                if anchor is not None and self.present(anchor):
                    self.elements(clause)
        elif isinstance(e, Custom):
            if self.space:
                p.write(" ")
            getattr(self.cls, f"print_{e.name}")(p, op, *[_arg_name(a) for a in e.args])
            self.space = True
            self.last_punct = False
        elif e == "operands":
            if op.operands:
                self.emit(p.values(op.operands))
        else:
            raise ValueError(f"unsupported format element {e!r}")

    def present(self, anchor) -> bool:
        if isinstance(anchor, TypeOf):
            return any(self.types_of(t) for t in anchor.targets)
        if isinstance(anchor, Custom):
            return getattr(self.cls, f"present_{anchor.name}")(self.op)
        name = anchor.name
        kind = self.shape.kind_of(name)
        if kind == "operand":
            return bool(self.operand_values(name))
        if kind == "region":
            return any(r.blocks for r in self.regions(name))
        if kind == "attr":
            value = self.op.properties.get(name, self.op.attributes.get(name))
            if value is None:
                return False
            default = _default(self.shape, name)
            return default is None or value != default
        if kind == "result":
            return bool(self.result_values(name))
        return bool(self.op.successors)

    def var(self, name: str) -> None:
        kind = self.shape.kind_of(name)
        op = self.op
        if kind == "operand":
            values = self.operand_values(name)
            if values:
                self.emit(self.p.values(values))
        elif kind == "attr":
            spec = self.cls.ATTR_SYNTAX.get(name)
            if spec == "unit":
                return
            value = op.properties.get(name, op.attributes.get(name))
            if value is None:
                value = _default(self.shape, name)
            if value is not None:
                self.emit(attr_text(self.p, spec, value))
        elif kind == "region":
            regions = self.regions(name)
            for i, region in enumerate(regions):
                if self.space or i:
                    self.p.write(" " if not i else ", ")
                self.p.print_region(region)
            self.space = True
        elif kind == "successor":
            index = [n for n, _ in self.shape.successors].index(name)
            self.emit(self.p.block_names[op.successors[index]])

    def remaining_attrs(self) -> dict[str, Attribute]:
        out: dict[str, Attribute] = {}
        for key, value in self.op.properties.items():
            if key in self.used or key in ("operandSegmentSizes", "resultSegmentSizes"):
                continue
            if value == _default(self.shape, key):
                continue
            out[key] = value
        for key, value in self.op.attributes.items():
            if key not in self.used:
                out[key] = value
        return out

    def operand_values(self, name: str):
        return _segment(self.op, self.shape, name, "operand")

    def result_values(self, name: str):
        return _segment(self.op, self.shape, name, "result")

    def regions(self, name: str) -> list[Region]:
        index = [n for n, _ in self.shape.regions].index(name)
        return list(self.op.regions[index:index + 1]) if dict(self.shape.regions)[name] == "single" \
            else list(self.op.regions[index:])

    def types_of(self, target: str) -> list[Attribute]:
        if target == "operands":
            return [o.type for o in self.op.operands]
        if target == "results":
            return [r.type for r in self.op.results]
        kind = self.shape.kind_of(target)
        values = self.operand_values(target) if kind == "operand" else self.result_values(target)
        return [v.type for v in values]

    def types_text(self, target: str, stripped: bool = False) -> list[str]:
        types = self.types_of(target)
        type_class = stripped_type_class(self.cls, target) if stripped and target not in ("operands", "results") else None
        if type_class is None:
            return [self.p.attr(t) for t in types]
        return [self.stripped_text(t, type_class) for t in types]

    def stripped_text(self, type_: Attribute, type_class: type) -> str:
        """`printStrippedAttrOrType`: the alias, else the body, else (no body) the full type."""
        if not isinstance(type_, type_class) or type_ in self.p.aliases:
            return self.p.attr(type_)
        return type_.print_body(self.p) or self.p.attr(type_)


def _group_sizes(names: list[tuple[str, str]], total: int) -> list[int]:
    """Sizes of the groups of `total` values without a segment-size property: the variadic
    groups share equally what the single ones leave (MLIR's `SameVariadicOperandSize`)."""
    variadic = sum(1 for _, a in names if a != "single")
    each = (total - (len(names) - variadic)) // variadic if variadic else 0
    return [1 if a == "single" else each for _, a in names]


def result_segments(op: Operation) -> list[tuple[str, int, int]]:
    """(definition name, first result index, result count) for each result definition."""
    shape = op_shape(type(op))
    out = []
    index = 0
    for name, _ in shape.results:
        size = len(_segment(op, shape, name, "result"))
        out.append((name, index, size))
        index += size
    return out


def _segment(op: Operation, shape: OpShape, name: str, kind: str):
    names = shape.operands if kind == "operand" else shape.results
    values = op.operands if kind == "operand" else op.results
    segmented = shape.operand_segments if kind == "operand" else shape.result_segments
    if segmented:
        sizes = op.properties["operandSegmentSizes" if kind == "operand" else "resultSegmentSizes"].get_values()
    else:
        sizes = _group_sizes(names, len(values))
    index = 0
    for (n, _), size in zip(names, sizes):
        if n == name:
            return list(values[index:index + size])
        index += size
    raise ValueError(f"no {kind} '{name}'")


def _default(shape: OpShape, name: str) -> Attribute | None:
    definition = shape.props.get(name) or shape.attrs.get(name)
    return getattr(definition, "default_value", None) if definition is not None else None


def _collect_used(elements, used: set[str]) -> None:
    for e in elements:
        if isinstance(e, Var):
            used.add(e.name)
        elif isinstance(e, OptionalGroup):
            _collect_used(e.elements, used)
        elif isinstance(e, OIList):
            for clause in e.clauses:
                _collect_used(clause, used)
        elif isinstance(e, Custom):
            _collect_used(e.args, used)


def _is_function_type(t: Attribute) -> bool:
    return isinstance(t, FunctionType)
