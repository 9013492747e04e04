"""An MLIR-faithful printer for xDSL IR holding Triton's dialects.

It prints what Triton 3.6's own printer prints (`OpPrintingFlags` with debug info and
`printNameLocAsPrefix`), so ttpipe's output reads like Triton's and parses back to the
same module:

* SSA names: names an op gives its results (`%c0_i32`, `%cst`), else the op's `NameLoc`,
  else numbers; a clash takes `_N` from one counter, as MLIR's `SSANameState` does. All
  results of a block are named before the regions nested in it.
* Attribute aliases where Triton's dialects ask for them (`#blocked`, `#mma`, `#shared`,
  `#smem`, `#linear`, `#tmem`, `#tmem_scales`), defined at the top, suffixed by first use.
* Locations as `loc(#locN)` with the `#locN = loc(...)` definitions at the end.
* Floats with the exact bits (`0xFF800000`) when a decimal would not read back the same.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from xdsl.dialects.builtin import (
    ArrayAttr,
    CallSiteLoc,
    ComplexType,
    DenseArrayBase,
    DictionaryAttr,
    FileLineColLoc,
    FloatAttr,
    FunctionType,
    FusedLoc,
    IndexType,
    IntegerAttr,
    IntegerType,
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
    UnregisteredOp,
    VectorType,
)
from xdsl.ir import Attribute, Block, BlockArgument, Operation, Region, SSAValue
from xdsl.irdl import IRDLOperation
from xdsl.traits import IsTerminator

from ttpipe.ir import floats
from ttpipe.ir.syntax import result_segments

_BARE_KEY = re.compile(r"[A-Za-z_][\w$.]*\Z")
_SYMBOL_OK = re.compile(r"[\w$.\-]+\Z")
_FLOAT_NAMES = {type(t): name for name, t in floats.FLOAT_TYPES_BY_NAME.items()}
_LOCATIONS = (UnknownLoc, FileLineColLoc, NameLoc, CallSiteLoc, FusedLoc)


@dataclass
class PrintOptions:
    debug_info: bool = True
    """Print `loc(...)` on ops and block arguments."""
    generic: bool = False
    """Print every op in generic form."""
    use_aliases: bool = True


def escape_string(value: str) -> str:
    """A quoted string as `llvm::printEscapedString` writes it: `\\\\` for a backslash, and
    `\\XX` for `"` and every byte outside printable ASCII. Strings hold UTF-8 text, and
    bytes that are not UTF-8 as surrogate escapes (see the parser), so any bytes survive."""
    out = []
    for byte in value.encode("utf-8", "surrogateescape"):
        if byte == 0x5C:
            out.append("\\\\")
        elif 0x20 <= byte < 0x7F and byte != 0x22:
            out.append(chr(byte))
        else:
            out.append(f"\\{byte:02X}")
    return '"' + "".join(out) + '"'


def attribute_text(attr: Attribute) -> str:
    """One attribute or type as text, with no aliases (for messages)."""
    printer = Printer(PrintOptions(use_aliases=False))
    return printer.attr(attr)


class Printer:
    """Prints one module. Op classes print their custom form through `print_custom(printer)`."""

    def __init__(self, options: PrintOptions | None = None):
        self.options = options or PrintOptions()
        self.out: list[str] = []
        self.indent = 0
        self._attr_text: dict[Attribute, str] = {}
        self.aliases: dict[Attribute, str] = {}
        self._loc_alias: dict[Attribute, str] = {}
        self._loc_defs: list[tuple[str, Attribute]] = []
        self.names: dict[SSAValue, str] = {}
        self.block_names: dict[Block, str] = {}

    # ------------------------------------------------------------------ output helpers

    def write(self, text: str) -> None:
        self.out.append(text)

    def newline(self) -> None:
        self.out.append("\n" + "  " * self.indent)

    # ------------------------------------------------------------------ module

    def print_module(self, module: Operation) -> str:
        if self.options.use_aliases:
            self._collect_aliases(module)
        _Namer(self).name_module(module)
        for attr, name in sorted(self.aliases.items(), key=lambda kv: _alias_sort_key(kv[1])):
            self.out.append(f"#{name} = {self._attr_body(attr)}\n")
        self.print_op(module)
        self.out.append("\n")
        for name, loc in self._loc_defs:
            self.out.append(f"#{name} = {self._location_text(loc, top=True)}\n")
        return "".join(self.out)

    def _collect_aliases(self, module: Operation) -> None:
        counts: dict[str, int] = {}
        seen: set[Attribute] = set()
        aliases = self.aliases

        def visit(attr: Attribute) -> None:
            if attr in seen:
                return
            seen.add(attr)
            for child in _children(attr):
                visit(child)
            base = getattr(attr, "ALIAS_NAME", None)
            if base is not None:
                n = counts.get(base, 0)
                counts[base] = n + 1
                aliases[attr] = base if n == 0 else f"{base}{n}"

        for op in module.walk():
            for r in op.results:
                visit(r.type)
            for o in op.operands:
                visit(o.type)
            for a in op.properties.values():
                visit(a)
            for a in op.attributes.values():
                visit(a)
            for region in op.regions:
                for block in region.blocks:
                    for arg in block.args:
                        visit(arg.type)

    # ------------------------------------------------------------------ operations

    def print_op(self, op: Operation) -> None:
        if op.results:
            self.out.append(self._result_group(op) + " = ")
        if isinstance(op, ModuleOp) and not self.options.generic:
            self._print_module_op(op)
        elif self.options.generic or not hasattr(op, "print_custom"):
            self.print_generic(op)
        else:
            self.out.append(op.name)
            op.print_custom(self)  # type: ignore[attr-defined]
        self.print_trailing_location(op.location)

    def _result_group(self, op: Operation) -> str:
        """`%a`, `%a:3`, or groups `%a:2, %b`: a group's results are used as `%a#0`, `%a#1`."""
        groups: list[list[str]] = []
        for result in op.results:
            base, _, number = self.names[result].partition("#")
            if number in ("", "0"):
                groups.append([base])
            else:
                groups[-1].append(base)
        return ", ".join(g[0] if len(g) == 1 else f"{g[0]}:{len(g)}" for g in groups)

    def _print_module_op(self, op: ModuleOp) -> None:
        self.out.append("module")
        if op.sym_name is not None:
            self.out.append(" @" + _symbol(op.sym_name.data))
        if op.attributes:
            self.out.append(" attributes")
            self.print_attr_dict(op.attributes)
        self.out.append(" ")
        self.print_region(op.body, print_entry_args=False)

    def print_generic(self, op: Operation) -> None:
        name = op.op_name.data if isinstance(op, UnregisteredOp) else op.name
        out = self.out
        out.append(escape_string(name) + "(")
        out.append(", ".join(self.names[o] for o in op.operands))
        out.append(")")
        if op.successors:
            out.append("[" + ", ".join(self.block_names[b] for b in op.successors) + "]")
        if op.properties:
            out.append(" <")
            self.print_attr_dict(op.properties, leading_space=False)
            out.append(">")
        if op.regions:
            out.append(" (")
            for i, region in enumerate(op.regions):
                if i:
                    out.append(", ")
                self.print_region(region, print_entry_args=True)
            out.append(")")
        attributes = {k: v for k, v in op.attributes.items() if not (isinstance(op, UnregisteredOp) and k == "op_name__")}
        if attributes:
            self.print_attr_dict(attributes)
        out.append(" : ")
        out.append(self.function_type([o.type for o in op.operands], [r.type for r in op.results]))

    def print_trailing_location(self, loc: Attribute) -> None:
        if self.options.debug_info:
            self.out.append(" " + self.location(loc))

    def location(self, loc: Attribute) -> str:
        """`loc(#locN)`, defining the alias at the end of the output on first use."""
        if not self.options.use_aliases:
            return self._location_text(loc, top=True)
        return f"loc(#{self._location_alias(loc)})"

    def _location_alias(self, loc: Attribute) -> str:
        name = self._loc_alias.get(loc)
        if name is None:
            for child in _location_children(loc):
                self._location_alias(child)
            index = len(self._loc_defs)
            name = "loc" if index == 0 else f"loc{index}"
            self._loc_alias[loc] = name
            self._loc_defs.append((name, loc))
        return name

    def _location_text(self, loc: Attribute, top: bool) -> str:
        if not top and loc in self._loc_alias:
            return "#" + self._loc_alias[loc]
        body = _location_body(loc, lambda child: self._location_text(child, top=False))
        return f"loc({body})" if top else body

    # ------------------------------------------------------------------ regions

    def print_region(self, region: Region, print_entry_args: bool = True,
                     print_empty_block: bool = False, print_terminator: bool = True,
                     omit_terminators: bool = False) -> None:
        """`print_terminator=False` elides a terminator without operands, results or
        attributes (ODS formats of ops with an implicit terminator); `omit_terminators`
        leaves out the terminator of every block, whatever it holds (hand-written forms'
        `printRegion(..., /*printBlockTerminators=*/false)`)."""
        out = self.out
        out.append("{")
        self.indent += 1
        for index, block in enumerate(region.blocks):
            show_label = index > 0 or (print_entry_args and block.args) or (print_empty_block and not block.ops)
            if show_label:
                self.indent -= 1
                self.newline()
                self._print_block_header(block)
                self.indent += 1
            ops = list(block.ops)
            if not print_terminator and index == 0 and len(region.blocks) == 1 and ops:
                last = ops[-1]
                if not last.operands and not last.results and not last.attributes:
                    ops.pop()
            if omit_terminators and ops and ops[-1].has_trait(IsTerminator, value_if_unregistered=False):
                ops.pop()
            for op in ops:
                self.newline()
                self.print_op(op)
        self.indent -= 1
        self.newline()
        out.append("}")

    def _print_block_header(self, block: Block) -> None:
        self.out.append(self.block_names[block])
        if block.args:
            self.out.append("(")
            self.out.append(", ".join(self.block_arg(arg) for arg in block.args))
            self.out.append(")")
        self.out.append(":")
        self.out.append(self._predecessors_comment(block))

    def _predecessors_comment(self, block: Block) -> str:
        """`  // pred: ^bb0`, `  // 2 preds: ^bb0, ^bb1` (one per branch), as MLIR prints them."""
        preds = block.predecessors()
        if not preds:
            return "" if block is block.parent.first_block else "  // no predecessors"
        if len(preds) == 1:
            return "  // pred: " + self.block_names[preds[0]]
        blocks = list(block.parent.blocks)
        ordered = sorted(preds, key=blocks.index)
        return f"  // {len(preds)} preds: " + ", ".join(self.block_names[b] for b in ordered)

    def block_arg(self, arg: BlockArgument) -> str:
        text = f"{self.names[arg]}: {self.attr(arg.type)}"
        if self.options.debug_info:
            text += " " + self.location(arg.location)
        return text

    def value(self, value: SSAValue) -> str:
        return self.names[value]

    def values(self, values) -> str:
        return ", ".join(self.names[v] for v in values)

    # ------------------------------------------------------------------ attributes

    def print_attr_dict(self, attrs: dict[str, Attribute], leading_space: bool = True) -> None:
        """`{a = 1 : i32, b}` with keys sorted, as MLIR's `DictionaryAttr` keeps them."""
        if not attrs:
            return
        if leading_space:
            self.out.append(" ")
        self.out.append(self.dict_text(attrs))

    def dict_text(self, attrs: dict[str, Attribute]) -> str:
        items = []
        for key in sorted(attrs):
            value = attrs[key]
            name = key if _BARE_KEY.match(key) else escape_string(key)
            items.append(name if isinstance(value, UnitAttr) else f"{name} = {self.attr(value)}")
        return "{" + ", ".join(items) + "}"

    def attr(self, attr: Attribute) -> str:
        """An attribute or a type, through its alias when it has one."""
        text = self._attr_text.get(attr)
        if text is None:
            alias = self.aliases.get(attr)
            text = "#" + alias if alias is not None else self._attr_body(attr)
            self._attr_text[attr] = text
        return text

    def type_list(self, types) -> str:
        return ", ".join(self.attr(t) for t in types)

    def function_type(self, inputs, outputs) -> str:
        ins = "(" + ", ".join(self.attr(t) for t in inputs) + ")"
        if len(outputs) == 1 and not isinstance(outputs[0], FunctionType):
            return f"{ins} -> {self.attr(outputs[0])}"
        return f"{ins} -> (" + ", ".join(self.attr(t) for t in outputs) + ")"

    def _attr_body(self, attr: Attribute) -> str:
        if hasattr(attr, "dialect_text"):
            return attr.dialect_text(self)  # type: ignore[attr-defined]
        return _builtin_text(self, attr)


def _array_element_text(p: Printer, attr: Attribute) -> str:
    """An element of an array attribute: MLIR's `AttrTypeElision::May`, where an i64 integer
    and an f64 float go without their type (`[1, 2.5]`); everywhere else (dictionaries, op
    properties, `arith.constant`) they keep it (`{n = 1 : i64}`)."""
    if type(attr) is IntegerAttr and _is_signless_i64(attr.type):
        return str(attr.value.data)
    if type(attr) is FloatAttr and isinstance(attr.type, floats.F64.__class__):
        text = floats.format_float_attr(attr)
        if not text.startswith("0x"):  # a hex literal alone would read as an i64
            return text
    return p.attr(attr)


def _is_signless_i64(type_: Attribute) -> bool:
    return isinstance(type_, IntegerType) and type_.width.data == 64 and type_.signedness.data == Signedness.SIGNLESS


def _builtin_text(p: Printer, attr: Attribute) -> str:
    cls = type(attr)
    if cls is IntegerAttr:
        type_ = attr.type
        value = attr.value.data
        if isinstance(type_, IntegerType) and type_.width.data == 1:
            return "true" if value else "false"
        return f"{value} : {p.attr(type_)}"
    if cls is FloatAttr:
        return f"{floats.format_float_attr(attr)} : {p.attr(attr.type)}"
    if cls is StringAttr:
        return escape_string(attr.data)
    if cls is ArrayAttr:
        return "[" + ", ".join(_array_element_text(p, a) for a in attr.data) + "]"
    if cls is DictionaryAttr:
        return p.dict_text(dict(attr.data))
    if cls is UnitAttr:
        return "unit"
    if cls is SymbolRefAttr:
        return "@" + _symbol(attr.root_reference.data) + "".join("::@" + _symbol(n.data) for n in attr.nested_references.data)
    if cls is DenseArrayBase:
        element = p.attr(attr.elt_type)
        values = attr.get_values()
        if not values:
            return f"array<{element}>"
        if isinstance(attr.elt_type, IntegerType):
            if attr.elt_type.width.data == 1:
                return f"array<{element}: " + ", ".join("true" if v else "false" for v in values) + ">"
            return f"array<{element}: " + ", ".join(str(v) for v in values) + ">"
        return f"array<{element}: " + ", ".join(floats.format_bits(floats.bits_of(v, attr.elt_type), attr.elt_type) for v in values) + ">"
    if cls is IntegerType:
        prefix = {Signedness.SIGNLESS: "i", Signedness.SIGNED: "si", Signedness.UNSIGNED: "ui"}[attr.signedness.data]
        return f"{prefix}{attr.width.data}"
    if cls in _FLOAT_NAMES:
        return _FLOAT_NAMES[cls]
    if cls is IndexType:
        return "index"
    if cls is NoneType:
        return "none"
    if cls is TensorType:
        shape = "".join(("?" if d == -1 else str(d)) + "x" for d in attr.get_shape())
        encoding = "" if isinstance(attr.encoding, NoneAttr) else ", " + p.attr(attr.encoding)
        return f"tensor<{shape}{p.attr(attr.element_type)}{encoding}>"
    if cls is UnrankedTensorType:
        return f"tensor<*x{p.attr(attr.element_type)}>"
    if cls is VectorType:
        shape = "".join(f"{d}x" for d in attr.get_shape())
        return f"vector<{shape}{p.attr(attr.element_type)}>"
    if cls is FunctionType:
        return p.function_type(attr.inputs.data, attr.outputs.data)
    if cls is TupleType:
        return "tuple<" + ", ".join(p.attr(t) for t in attr.types.data) + ">"
    if cls is ComplexType:
        return f"complex<{p.attr(attr.element_type)}>"
    if cls in _LOCATIONS:
        return p._location_text(attr, top=True)
    raise ValueError(f"no text for attribute {attr!r}")


def _location_body(loc: Attribute, child_text) -> str:
    if isinstance(loc, UnknownLoc):
        return "unknown"
    if isinstance(loc, FileLineColLoc):
        return f"{escape_string(loc.filename.data)}:{loc.line.data}:{loc.column.data}"
    if isinstance(loc, NameLoc):
        if isinstance(loc.location, NoneAttr):
            return escape_string(loc.desc.data)
        return f"{escape_string(loc.desc.data)}({child_text(loc.location)})"
    if isinstance(loc, CallSiteLoc):
        return f"callsite({child_text(loc.callee)} at {child_text(loc.caller)})"
    if isinstance(loc, FusedLoc):
        meta = "" if isinstance(loc.metadata, NoneAttr) else f"<{attribute_text(loc.metadata)}>"
        return f"fused{meta}[" + ", ".join(child_text(c) for c in loc.locations.data) + "]"
    raise ValueError(f"not a location: {loc!r}")


def _location_children(loc: Attribute) -> list[Attribute]:
    if isinstance(loc, NameLoc) and not isinstance(loc.location, NoneAttr):
        return [loc.location]
    if isinstance(loc, CallSiteLoc):
        return [loc.callee, loc.caller]
    if isinstance(loc, FusedLoc):
        return list(loc.locations.data)
    return []


def _children(attr: Attribute) -> list[Attribute]:
    if isinstance(attr, (ArrayAttr,)):
        return list(attr.data)
    if isinstance(attr, DictionaryAttr):
        return list(attr.data.values())
    params = getattr(attr, "parameters", None)
    if params is None:
        return []
    return [p for p in params if isinstance(p, Attribute)]


def _alias_sort_key(name: str) -> tuple[str, int]:
    m = re.match(r"(.*?)(\d*)\Z", name)
    return m.group(1), int(m.group(2) or 0) - (0 if m.group(2) else 1)


def _symbol(name: str) -> str:
    return name if _SYMBOL_OK.match(name) else escape_string(name)


class _Namer:
    """Assigns SSA and block names as MLIR's `SSANameState` does.

    A region first names the arguments and op results of all its blocks, in order; then
    each region nested in its ops goes on from that point. Nested regions inherit the value,
    argument and conflict counters and the names in use, and sibling regions start from
    the same point (MLIR saves and restores the counters around each region), isolated
    ones included. Entry block arguments are `%argN`, other block arguments are numbered
    like values; a `NameLoc` anywhere in a value's location names it before anything
    else does.
    """

    def __init__(self, printer: Printer):
        self.p = printer

    def name_module(self, op: Operation) -> None:
        state = {"value": 0, "arg": 0, "conflict": 0}
        used: list[set[str]] = [set()]
        self._name_results(op, used, state)
        self._name_nested(op, used, state)

    def _unique(self, name: str, used: list[set[str]], state: dict[str, int]) -> str:
        if any(name in scope for scope in used):
            base = name + "_"
            while True:
                probe = base + str(state["conflict"])
                state["conflict"] += 1
                if not any(probe in scope for scope in used):
                    name = probe
                    break
        used[-1].add(name)
        return name

    def _number(self, state: dict[str, int]) -> str:
        name = str(state["value"])
        state["value"] += 1
        return name

    def _name_results(self, op: Operation, used: list[set[str]], state: dict[str, int]) -> None:
        """A result the op names (`result_name_hints`, one entry or None per result) starts
        a group, named by the op's `NameLoc` if it has one; an unnamed first result takes
        the `NameLoc`, else a number. The results of a group of several are `%group#k`."""
        if not op.results:
            return
        loc_name = _name_from_location(op.location)
        hints = op.result_name_hints() if hasattr(op, "result_name_hints") else _ods_result_names(op)  # type: ignore[attr-defined]
        names: dict[int, str] = {}
        for index, hint in enumerate(hints or ()):
            if hint and index < len(op.results):
                names[index] = self._unique(loc_name or hint, used, state)
        if 0 not in names:
            names[0] = self._unique(loc_name, used, state) if loc_name else self._number(state)
        starts = sorted(names) + [len(op.results)]
        for start, end in zip(starts, starts[1:]):
            for offset, result in enumerate(op.results[start:end]):
                self.p.names[result] = "%" + names[start] + (f"#{offset}" if end - start > 1 else "")

    def _name_arg(self, arg: BlockArgument, entry: bool, used: list[set[str]], state: dict[str, int]) -> None:
        name = None
        if entry:
            name = f"arg{state['arg']}"
            state["arg"] += 1
        name = _name_from_location(arg.location) or name
        self.p.names[arg] = "%" + (self._unique(name, used, state) if name else self._number(state))

    def _name_region(self, region: Region, used: list[set[str]], state: dict[str, int]) -> None:
        used.append(set())
        for index, block in enumerate(region.blocks):
            self.p.block_names[block] = f"^bb{index}"
            for arg in block.args:
                self._name_arg(arg, index == 0, used, state)
            for op in block.ops:
                self._name_results(op, used, state)
        for block in region.blocks:
            for op in block.ops:
                self._name_nested(op, used, state)
        used.pop()

    def _name_nested(self, op: Operation, used: list[set[str]], state: dict[str, int]) -> None:
        for region in op.regions:
            self._name_region(region, used, dict(state))


def _ods_result_names(op: Operation) -> list[str | None] | None:
    """An op with several result definitions names each after its definition (`%result,
    %token`), as MLIR's ODS-generated `getAsmResultNames` does; a single (variadic)
    definition stays one group (`%acc:3`)."""
    if not isinstance(op, IRDLOperation):
        return None

    segments = result_segments(op)
    if len(segments) < 2:
        return None
    names: list[str | None] = [None] * len(op.results)
    for name, start, size in segments:
        if size:
            names[start] = name.rstrip("_")
    return names


def _name_from_location(loc: Attribute) -> str | None:
    """The first `NameLoc` anywhere in a location, pre-order (MLIR's `findInstanceOf<NameLoc>`)."""
    if isinstance(loc, NameLoc):
        return _sanitize(loc.desc.data)
    for child in _location_children(loc):
        name = _name_from_location(child)
        if name is not None:
            return name
    return None


def _sanitize(name: str) -> str | None:
    """An SSA name from a location's name as MLIR's `sanitizeIdentifier` makes it: ASCII
    letters, digits and `$._-` stay, a space becomes `_`, any other byte its hex digits;
    a leading digit gets a `_`. An empty name gives None (the value is numbered)."""
    out = []
    for byte in name.encode("utf-8", "surrogateescape"):
        ch = chr(byte)
        if byte < 0x80 and (ch.isalnum() or ch in "$._-"):
            out.append(ch)
        elif ch == " ":
            out.append("_")
        else:
            out.append(f"{byte:02X}")
    text = "".join(out)
    if not text:
        return None
    return "_" + text if text[0].isdigit() else text


def print_module(module: Operation, options: PrintOptions | None = None) -> str:
    return Printer(options).print_module(module)
