"""TritonGPU layout attributes (`#ttg.blocked`, `#ttg.nvidia_mma`, `#ttg.nvmma_shared`, ...).

Each layout is a typed xDSL attribute. Its parameters are stored as small `Data`
attributes (`IntArray` for `ArrayRef<unsigned>`, `Bases` for the basis vectors of a
linear layout, `IntAttr`/`BoolData` for scalars) in private fields, and read through
snake_case properties that return plain Python values (`blocked.warps_per_cta == (4, 1)`).
Attribute-valued parameters (`parent`, `cta_layout`) are public fields. Each class has a
`get(...)` constructor taking Python values.

The text follows the `print`/`parse` methods in Triton 3.6's `lib/Dialect/TritonGPU/IR/
Dialect.cpp`: a dictionary-like body whose fields print in a fixed order, with optional
fields elided at their defaults, and which parses in any order. The CTA layout
(`CTAEncodingAttr`, a linear layout from `block` to `dim0..`) has no text of its own: a
layout prints it as `CGALayout = [[...]]` (its block bases) only when it is not the
single-CTA default.

Aliases follow `TritonGPUOpAsmInterface::getAlias`: `mma` for MMA encodings, `shared` for
shared encodings, `blocked`, `linear`, and `smem` for the shared memory space; slices and
dot operands print inline.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any, ClassVar

from xdsl.dialects.builtin import IntAttr
from xdsl.ir import Attribute, Data, ParametrizedAttribute
from xdsl.irdl import irdl_attr_definition, param_def

from ttpipe.ir.base import DialectAttribute

# ------------------------------------------------------------------ parameter storage


@irdl_attr_definition
class IntArray(Data[tuple[int, ...]]):
    """An `ArrayRef<unsigned>`/`ArrayRef<int64_t>` parameter."""

    name = "ttpipe.int_array"

    @classmethod
    def parse_parameter(cls, parser):
        raise NotImplementedError("IntArray is read by the attribute that holds it")

    def print_parameter(self, printer) -> None:
        printer.print_string(str(list(self.data)))


@irdl_attr_definition
class Bases(Data[tuple[tuple[int, ...], ...]]):
    """The basis vectors of one input dimension of a linear layout, over `dim0, dim1, ...`."""

    name = "ttpipe.bases"

    @classmethod
    def parse_parameter(cls, parser):
        raise NotImplementedError("Bases is read by the attribute that holds it")

    def print_parameter(self, printer) -> None:
        printer.print_string(_bases_text(self.data))


@irdl_attr_definition
class BoolData(Data[bool]):
    """A `bool` parameter."""

    name = "ttpipe.bool"

    @classmethod
    def parse_parameter(cls, parser):
        raise NotImplementedError("BoolData is read by the attribute that holds it")

    def print_parameter(self, printer) -> None:
        printer.print_string("true" if self.data else "false")


def _ints(values: Iterable[int]) -> IntArray:
    return IntArray(tuple(int(v) for v in values))


def _bases(vectors: Iterable[Iterable[int]]) -> Bases:
    return Bases(tuple(tuple(int(x) for x in v) for v in vectors))


# ------------------------------------------------------------------ text helpers


def _join(values: Iterable[int]) -> str:
    return ", ".join(map(str, values))


def _bases_text(bases: Sequence[Sequence[int]]) -> str:
    return "[" + ", ".join("[" + _join(v) + "]" for v in bases) + "]"


def _linear_text(named: Iterable[tuple[str, Sequence[Sequence[int]]]]) -> str:
    """`printLinearLayout`: `register = [[0, 1]], lane = [...]`."""
    return ", ".join(f"{name} = {_bases_text(bases)}" for name, bases in named)


def read_int(parser) -> int:
    """An integer field value; Triton's dictionary-based parsers also accept `4 : i32`."""
    value = parser.parse_integer()
    if parser.accept(":"):
        parser.parse_type()
    return value


def read_uint(parser) -> int:
    start = parser.skip()
    value = read_int(parser)
    if value < 0:
        raise parser.error("expected an unsigned integer value", start)
    return value


def read_uint_array(parser) -> tuple[int, ...]:
    return tuple(parser.parse_delimited("[", "]", lambda: read_uint(parser)))


def read_bool(parser) -> bool:
    if parser.accept_keyword("true"):
        return True
    if parser.accept_keyword("false"):
        return False
    raise parser.error("expected a bool value")


def read_bases(parser) -> tuple[tuple[int, ...], ...]:
    return tuple(parser.parse_delimited(
        "[", "]", lambda: tuple(parser.parse_delimited("[", "]", lambda: read_int(parser)))))


_START = object()
"""Key of `read_fields`' result holding the offset of `{`, for messages."""


def read_fields(parser, readers: dict[str, Callable[[Any], Any]], *,
                ignore_unknown: bool = False) -> dict[str, Any]:
    """`{key = value, ...}` in any order (Triton parses a `DictionaryAttr`), each value read
    by `readers[key]`. Unknown keys are an error unless `ignore_unknown` (as some of
    Triton's parsers silently skip them)."""
    values: dict[Any, Any] = {_START: parser.skip()}
    parser.expect("{")
    if parser.accept("}"):
        return values
    while True:
        key_start = parser.skip()
        key = parser.try_string()
        if key is None:
            key = parser.parse_keyword("field name")
        parser.expect("=")
        reader = readers.get(key)
        if key in values:
            raise parser.error(f"duplicate key '{key}'", key_start)
        if reader is not None:
            values[key] = reader(parser)
        elif ignore_unknown:
            parser.parse_attribute()
        else:
            raise parser.error(f"unexpected key: {key}", key_start)
        if not parser.accept(","):
            break
    parser.expect("}")
    return values


def require(parser, fields: dict, *names: str) -> None:
    for name in names:
        if name not in fields:
            raise parser.error(f"expected '{name}'", fields[_START])


def _parse_cga(parser, fields: dict, rank: int) -> CTAEncodingAttr:
    """`parseCTAAttr`: the `CGALayout` field, or the single-CTA default."""
    bases = fields.get("CGALayout")
    if bases is None:
        return CTAEncodingAttr.get_default(rank)
    if any(len(b) != rank for b in bases):
        raise parser.error(f"'CGALayout' entry length does not match rank {rank}", fields[_START])
    return CTAEncodingAttr.get(bases, rank)


def _cga_text(layout: CTAEncodingAttr) -> str:
    """`maybePrintCTALayout`."""
    return "" if layout.is_default else ", CGALayout = " + _bases_text(layout.block_bases)


# ------------------------------------------------------------------ linear-layout helpers


def bases_per_dim(bases: Sequence[Sequence[int]], rank: int, skip_broadcast: bool = True) -> tuple[int, ...]:
    """`basesPerDimImpl`: how many elements each output dim gets from one input dim."""
    result = [1] * rank
    last = 0
    for basis in bases:
        nonzero = next((i for i, v in enumerate(basis) if v), None)
        if nonzero is not None:
            last = nonzero
            result[nonzero] *= 2
        elif not skip_broadcast:
            result[last] *= 2
    return tuple(result)


def order_per_dim(bases: Sequence[Sequence[int]], default_order: Sequence[int]) -> tuple[int, ...]:
    """`orderPerDimImpl`: output dims in the order the bases first move along them."""
    order: dict[int, None] = {}
    for basis in bases:
        nonzero = next((i for i, v in enumerate(basis) if v), None)
        if nonzero is not None:
            order.setdefault(nonzero)
    for dim in default_order:
        order.setdefault(dim)
    return tuple(order)


def identity_standard_nd(shape: Sequence[int], order: Sequence[int]) -> tuple[tuple[int, ...], ...]:
    """Bases of `identityStandardND`: row-major over `order` (most minor first)."""
    rank = len(shape)
    bases = []
    for dim in order:
        step = 1
        while step < shape[dim]:
            bases.append(tuple(step if d == dim else 0 for d in range(rank)))
            step *= 2
    return tuple(bases)


def out_dim_sizes(rank: int, *in_dims: Sequence[Sequence[int]]) -> tuple[int, ...]:
    """Output sizes a `LinearLayout` infers from its bases (the next power of two above each)."""
    sizes = [1] * rank
    for bases in in_dims:
        for basis in bases:
            for i, v in enumerate(basis):
                sizes[i] = max(sizes[i], 1 << v.bit_length())
    return tuple(sizes)


def _rank_of(*in_dims: Sequence[Sequence[int]]) -> int:
    return next((len(b[0]) for b in in_dims if b), 0)


# ------------------------------------------------------------------ the CTA layout


@irdl_attr_definition
class CTAEncodingAttr(ParametrizedAttribute):
    """Triton's `CTAEncodingAttr`: how the CTAs of a CGA map onto the tensor dims, as the
    `block` bases of a linear layout onto `dim0..dim{rank-1}`. It has no text of its own;
    layouts print it as `CGALayout = [[...]]` when it is not the default (no bases)."""

    name = "ttg.cta_encoding"
    _block: Bases = param_def()
    _rank: IntAttr = param_def()

    @classmethod
    def get(cls, block_bases: Iterable[Iterable[int]], rank: int) -> CTAEncodingAttr:
        return cls(_bases(block_bases), IntAttr(rank))

    @classmethod
    def get_default(cls, rank: int) -> CTAEncodingAttr:
        """One CTA: `CTAEncodingAttr::getDefault`."""
        return cls(Bases(()), IntAttr(rank))

    @classmethod
    def from_split_params(cls, ctas_per_cga: Sequence[int], cta_split_num: Sequence[int],
                          cta_order: Sequence[int]) -> CTAEncodingAttr:
        """`CTAEncodingAttr::fromSplitParams`, the legacy CTAsPerCGA/CTASplitNum/CTAOrder form."""
        rank = len(cta_order)
        bases = []
        for dim in cta_order:
            split, total = cta_split_num[dim], ctas_per_cga[dim]
            if total % split:
                raise ValueError("CTAsPerCGA must be a multiple of CTASplitNum")
            step = 1
            while step < split:
                bases.append(tuple(step if d == dim else 0 for d in range(rank)))
                step *= 2
            count = 1
            while count < total // split:
                bases.append((0,) * rank)
                count *= 2
        return cls.get(bases, rank)

    @property
    def block_bases(self) -> tuple[tuple[int, ...], ...]:
        return self._block.data

    @property
    def rank(self) -> int:
        return self._rank.data

    @property
    def is_default(self) -> bool:
        return not self._block.data

    @property
    def ctas_per_cga(self) -> tuple[int, ...]:
        return bases_per_dim(self._block.data, self.rank, skip_broadcast=False)

    @property
    def cta_split_num(self) -> tuple[int, ...]:
        return bases_per_dim(self._block.data, self.rank)

    @property
    def cta_order(self) -> tuple[int, ...]:
        return order_per_dim(self._block.data, range(self.rank))


def _cta(cta_layout: CTAEncodingAttr | None, rank: int) -> CTAEncodingAttr:
    return cta_layout if cta_layout is not None else CTAEncodingAttr.get_default(rank)


# ------------------------------------------------------------------ encoding families


class LayoutEncodingTrait(DialectAttribute):
    """Every TTGIR layout (Triton's `LayoutEncodingTrait`)."""


class DistributedEncodingTrait(LayoutEncodingTrait):
    """A layout of a tensor over registers, lanes, warps and blocks."""


class MmaEncodingTrait(DistributedEncodingTrait):
    """The result layout of an MMA instruction."""

    ALIAS_NAME: ClassVar[str | None] = "mma"


class SharedEncodingTrait(LayoutEncodingTrait):
    """A layout of a buffer in shared memory."""

    ALIAS_NAME: ClassVar[str | None] = "shared"


# ------------------------------------------------------------------ distributed layouts


@irdl_attr_definition
class BlockedEncodingAttr(DistributedEncodingTrait):
    """`#ttg.blocked<{sizePerThread = [..], threadsPerWarp = [..], warpsPerCTA = [..],
    order = [..][, CGALayout = [[..]]]}>`."""

    name = "ttg.blocked"
    ALIAS_NAME: ClassVar[str | None] = "blocked"
    _size_per_thread: IntArray = param_def()
    _threads_per_warp: IntArray = param_def()
    _warps_per_cta: IntArray = param_def()
    _order: IntArray = param_def()
    cta_layout: CTAEncodingAttr = param_def()

    @classmethod
    def get(cls, size_per_thread: Sequence[int], threads_per_warp: Sequence[int],
            warps_per_cta: Sequence[int], order: Sequence[int],
            cta_layout: CTAEncodingAttr | None = None) -> BlockedEncodingAttr:
        return cls(_ints(size_per_thread), _ints(threads_per_warp), _ints(warps_per_cta),
                   _ints(order), _cta(cta_layout, len(order)))

    @property
    def size_per_thread(self) -> tuple[int, ...]:
        return self._size_per_thread.data

    @property
    def threads_per_warp(self) -> tuple[int, ...]:
        return self._threads_per_warp.data

    @property
    def warps_per_cta(self) -> tuple[int, ...]:
        return self._warps_per_cta.data

    @property
    def order(self) -> tuple[int, ...]:
        return self._order.data

    @property
    def rank(self) -> int:
        return len(self._order.data)

    def print_body(self, printer) -> str:
        return (f"<{{sizePerThread = [{_join(self.size_per_thread)}], "
                f"threadsPerWarp = [{_join(self.threads_per_warp)}], "
                f"warpsPerCTA = [{_join(self.warps_per_cta)}], order = [{_join(self.order)}]"
                f"{_cga_text(self.cta_layout)}}}>")

    @classmethod
    def parse_parameters(cls, parser) -> BlockedEncodingAttr:
        parser.expect("<")
        f = read_fields(parser, {"sizePerThread": read_uint_array, "threadsPerWarp": read_uint_array,
                                 "warpsPerCTA": read_uint_array, "order": read_uint_array,
                                 "CGALayout": read_bases})
        parser.expect(">")
        require(parser, f, "sizePerThread", "threadsPerWarp", "warpsPerCTA", "order")
        size = f["sizePerThread"]
        if not len(size) == len(f["threadsPerWarp"]) == len(f["warpsPerCTA"]) == len(f["order"]):
            raise parser.error("sizePerThread, threadsPerWarp, warpsPerCTA, and order must all "
                               "have the same rank.", f[_START])
        return cls.get(size, f["threadsPerWarp"], f["warpsPerCTA"], f["order"],
                       _parse_cga(parser, f, len(size)))


@irdl_attr_definition
class LinearEncodingAttr(DistributedEncodingTrait):
    """`#ttg.linear<{register = [[..]], lane = [[..]], warp = [[..]], block = [[..]]}>`: a
    linear layout from (register, lane, warp, block) onto `dim0..`."""

    name = "ttg.linear"
    ALIAS_NAME: ClassVar[str | None] = "linear"
    _register: Bases = param_def()
    _lane: Bases = param_def()
    _warp: Bases = param_def()
    _block: Bases = param_def()

    IN_DIMS: ClassVar[tuple[str, ...]] = ("register", "lane", "warp", "block")

    @classmethod
    def get(cls, register: Iterable[Iterable[int]], lane: Iterable[Iterable[int]],
            warp: Iterable[Iterable[int]], block: Iterable[Iterable[int]]) -> LinearEncodingAttr:
        return cls(_bases(register), _bases(lane), _bases(warp), _bases(block))

    @property
    def register_bases(self) -> tuple[tuple[int, ...], ...]:
        return self._register.data

    @property
    def lane_bases(self) -> tuple[tuple[int, ...], ...]:
        return self._lane.data

    @property
    def warp_bases(self) -> tuple[tuple[int, ...], ...]:
        return self._warp.data

    @property
    def block_bases(self) -> tuple[tuple[int, ...], ...]:
        return self._block.data

    @property
    def bases(self) -> dict[str, tuple[tuple[int, ...], ...]]:
        """In-dim name to bases, in Triton's order."""
        return dict(zip(self.IN_DIMS, (self._register.data, self._lane.data, self._warp.data, self._block.data)))

    @property
    def rank(self) -> int:
        return _rank_of(*self.bases.values())

    def print_body(self, printer) -> str:
        return "<{" + _linear_text(self.bases.items()) + "}>"

    @classmethod
    def parse_parameters(cls, parser) -> LinearEncodingAttr:
        parser.expect("<")
        f = read_fields(parser, dict.fromkeys(cls.IN_DIMS, read_bases), ignore_unknown=True)
        parser.expect(">")
        bases = [_required_bases(parser, f, name) for name in cls.IN_DIMS]
        _check_rank(parser, f, bases)
        return cls.get(*bases)


def _required_bases(parser, fields: dict, name: str):
    if name not in fields:
        raise parser.error(f"Expected basis of '{name}' not found", fields[_START])
    return fields[name]


def _check_rank(parser, fields: dict, in_dims: Sequence[Sequence[Sequence[int]]]) -> int:
    rank = _rank_of(*in_dims)
    if rank == 0:
        raise parser.error("Empty Layout not supported", fields[_START])
    if any(len(b) != rank for bases in in_dims for b in bases):
        raise parser.error("all bases of a linear layout must have the same size", fields[_START])
    return rank


@irdl_attr_definition
class NvidiaMmaEncodingAttr(MmaEncodingTrait):
    """`#ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1],
    [CGALayout = [[..]], ]instrShape = [16, 64, 16]}>`."""

    name = "ttg.nvidia_mma"
    _version_major: IntAttr = param_def()
    _version_minor: IntAttr = param_def()
    _warps_per_cta: IntArray = param_def()
    cta_layout: CTAEncodingAttr = param_def()
    _instr_shape: IntArray = param_def()

    @classmethod
    def get(cls, version_major: int, version_minor: int, warps_per_cta: Sequence[int],
            instr_shape: Sequence[int], cta_layout: CTAEncodingAttr | None = None) -> NvidiaMmaEncodingAttr:
        return cls(IntAttr(version_major), IntAttr(version_minor), _ints(warps_per_cta),
                   _cta(cta_layout, len(warps_per_cta)), _ints(instr_shape))

    @property
    def version_major(self) -> int:
        return self._version_major.data

    @property
    def version_minor(self) -> int:
        return self._version_minor.data

    @property
    def warps_per_cta(self) -> tuple[int, ...]:
        return self._warps_per_cta.data

    @property
    def instr_shape(self) -> tuple[int, ...]:
        return self._instr_shape.data

    @property
    def rank(self) -> int:
        return self.cta_layout.rank

    @property
    def is_volta(self) -> bool:
        return self.version_major == 1

    @property
    def is_turing(self) -> bool:
        return self.version_major == 2 and self.version_minor == 1

    @property
    def is_ampere(self) -> bool:
        return self.version_major == 2

    @property
    def is_hopper(self) -> bool:
        return self.version_major == 3

    def print_body(self, printer) -> str:
        return (f"<{{versionMajor = {self.version_major}, versionMinor = {self.version_minor}, "
                f"warpsPerCTA = [{_join(self.warps_per_cta)}]{_cga_text(self.cta_layout)}, "
                f"instrShape = [{_join(self.instr_shape)}]}}>")

    @classmethod
    def parse_parameters(cls, parser) -> NvidiaMmaEncodingAttr:
        parser.expect("<")
        f = read_fields(parser, {"versionMajor": read_uint, "versionMinor": read_uint,
                                 "warpsPerCTA": read_uint_array, "instrShape": read_uint_array,
                                 "CGALayout": read_bases}, ignore_unknown=True)
        parser.expect(">")
        warps = f.get("warpsPerCTA", ())
        return cls.get(f.get("versionMajor", 0), f.get("versionMinor", 0), warps,
                       f.get("instrShape", ()), _parse_cga(parser, f, len(warps)))


@irdl_attr_definition
class AMDMfmaEncodingAttr(MmaEncodingTrait):
    """`#ttg.amd_mfma<{version = 3, warpsPerCTA = [..], instrShape = [..], isTransposed = true
    [, CGALayout = ..][, tilesPerWarp = [..]][, elementBitWidth = 64]}>`."""

    name = "ttg.amd_mfma"
    _version: IntAttr = param_def()
    _warps_per_cta: IntArray = param_def()
    _instr_shape: IntArray = param_def()
    _is_transposed: BoolData = param_def()
    cta_layout: CTAEncodingAttr = param_def()
    _tiles_per_warp: IntArray = param_def()
    _element_bit_width: IntAttr = param_def()

    @classmethod
    def get(cls, version: int, warps_per_cta: Sequence[int], instr_shape: Sequence[int],
            is_transposed: bool, cta_layout: CTAEncodingAttr | None = None,
            tiles_per_warp: Sequence[int] | None = None, element_bit_width: int = 32) -> AMDMfmaEncodingAttr:
        tiles = tiles_per_warp if tiles_per_warp else (1,) * len(instr_shape)
        return cls(IntAttr(version), _ints(warps_per_cta), _ints(instr_shape), BoolData(is_transposed),
                   _cta(cta_layout, len(warps_per_cta)), _ints(tiles), IntAttr(element_bit_width))

    @property
    def version(self) -> int:
        return self._version.data

    @property
    def warps_per_cta(self) -> tuple[int, ...]:
        return self._warps_per_cta.data

    @property
    def instr_shape(self) -> tuple[int, ...]:
        return self._instr_shape.data

    @property
    def is_transposed(self) -> bool:
        return self._is_transposed.data

    @property
    def tiles_per_warp(self) -> tuple[int, ...]:
        return self._tiles_per_warp.data

    @property
    def element_bit_width(self) -> int:
        return self._element_bit_width.data

    def print_body(self, printer) -> str:
        text = (f"<{{version = {self.version}, warpsPerCTA = [{_join(self.warps_per_cta)}], "
                f"instrShape = [{_join(self.instr_shape)}], "
                f"isTransposed = {'true' if self.is_transposed else 'false'}{_cga_text(self.cta_layout)}")
        if any(t != 1 for t in self.tiles_per_warp):
            text += f", tilesPerWarp = [{_join(self.tiles_per_warp)}]"
        if self.element_bit_width != 32:
            text += f", elementBitWidth = {self.element_bit_width}"
        return text + "}>"

    @classmethod
    def parse_parameters(cls, parser) -> AMDMfmaEncodingAttr:
        parser.expect("<")
        f = read_fields(parser, {"version": read_uint, "warpsPerCTA": read_uint_array,
                                 "instrShape": read_uint_array, "isTransposed": read_bool,
                                 "CGALayout": read_bases, "tilesPerWarp": read_uint_array,
                                 "elementBitWidth": read_uint}, ignore_unknown=True)
        parser.expect(">")
        require(parser, f, "isTransposed")
        warps = f.get("warpsPerCTA", ())
        return cls.get(f.get("version", 0), warps, f.get("instrShape", ()), f["isTransposed"],
                       _parse_cga(parser, f, len(warps)), f.get("tilesPerWarp"), f.get("elementBitWidth", 32))


@irdl_attr_definition
class AMDWmmaEncodingAttr(MmaEncodingTrait):
    """`#ttg.amd_wmma<{version = 2, isTranspose = true, warpsPerCTA = [..][, CGALayout = ..]
    [, tilesPerWarp = [..]][, instrShape = [..]]}>`."""

    name = "ttg.amd_wmma"
    _version: IntAttr = param_def()
    _is_transposed: BoolData = param_def()
    _warps_per_cta: IntArray = param_def()
    _tiles_per_warp: IntArray = param_def()
    cta_layout: CTAEncodingAttr = param_def()
    _instr_shape: IntArray = param_def()

    DEFAULT_INSTR_SHAPE: ClassVar[tuple[int, ...]] = (16, 16, 16)

    @classmethod
    def get(cls, version: int, is_transposed: bool, warps_per_cta: Sequence[int],
            tiles_per_warp: Sequence[int] | None = None, cta_layout: CTAEncodingAttr | None = None,
            instr_shape: Sequence[int] = DEFAULT_INSTR_SHAPE) -> AMDWmmaEncodingAttr:
        tiles = tiles_per_warp if tiles_per_warp else (1,) * len(instr_shape)
        return cls(IntAttr(version), BoolData(is_transposed), _ints(warps_per_cta), _ints(tiles),
                   _cta(cta_layout, len(warps_per_cta)), _ints(instr_shape))

    @property
    def version(self) -> int:
        return self._version.data

    @property
    def is_transposed(self) -> bool:
        return self._is_transposed.data

    @property
    def warps_per_cta(self) -> tuple[int, ...]:
        return self._warps_per_cta.data

    @property
    def tiles_per_warp(self) -> tuple[int, ...]:
        return self._tiles_per_warp.data

    @property
    def instr_shape(self) -> tuple[int, ...]:
        return self._instr_shape.data

    def print_body(self, printer) -> str:
        text = (f"<{{version = {self.version}, isTranspose = {'true' if self.is_transposed else 'false'}, "
                f"warpsPerCTA = [{_join(self.warps_per_cta)}]{_cga_text(self.cta_layout)}")
        if any(t != 1 for t in self.tiles_per_warp):
            text += f", tilesPerWarp = [{_join(self.tiles_per_warp)}]"
        if self.instr_shape != self.DEFAULT_INSTR_SHAPE:
            text += f", instrShape = [{_join(self.instr_shape)}]"
        return text + "}>"

    @classmethod
    def parse_parameters(cls, parser) -> AMDWmmaEncodingAttr:
        parser.expect("<")
        f = read_fields(parser, {"version": read_uint, "isTranspose": read_bool,
                                 "warpsPerCTA": read_uint_array, "tilesPerWarp": read_uint_array,
                                 "CGALayout": read_bases, "instrShape": read_uint_array}, ignore_unknown=True)
        parser.expect(">")
        warps = f.get("warpsPerCTA", ())
        return cls.get(f.get("version", 0), f.get("isTranspose", False), warps, f.get("tilesPerWarp"),
                       _parse_cga(parser, f, len(warps)), f.get("instrShape", cls.DEFAULT_INSTR_SHAPE))


@irdl_attr_definition
class SliceEncodingAttr(DistributedEncodingTrait):
    """`#ttg.slice<{dim = 1, parent = #blocked}>`: the parent layout with `dim` removed."""

    name = "ttg.slice"
    _dim: IntAttr = param_def()
    parent: Attribute = param_def()

    @classmethod
    def get(cls, dim: int, parent: Attribute) -> SliceEncodingAttr:
        return cls(IntAttr(dim), parent)

    @property
    def dim(self) -> int:
        return self._dim.data

    def print_body(self, printer) -> str:
        return f"<{{dim = {self._dim.data}, parent = {printer.attr(self.parent)}}}>"

    @classmethod
    def parse_parameters(cls, parser) -> SliceEncodingAttr:
        parser.expect("<")
        f = read_fields(parser, {"dim": read_uint, "parent": _read_attribute})
        parser.expect(">")
        require(parser, f, "dim", "parent")
        if not isinstance(f["parent"], DistributedEncodingTrait):
            raise parser.error("expected a distributed encoding trait", f[_START])
        return cls(IntAttr(f["dim"]), f["parent"])


def _read_attribute(parser) -> Attribute:
    return parser.parse_attribute()


def _read_integer(parser) -> int:
    """An ODS `unsigned` parameter: a bare integer."""
    return parser.parse_integer()


@irdl_attr_definition
class DotOperandEncodingAttr(DistributedEncodingTrait):
    """`#ttg.dot_op<{opIdx = 0, parent = #mma[, kWidth = 2]}>` (ODS `struct(params)`,
    `kWidth` elided at its default 0)."""

    name = "ttg.dot_op"
    _op_idx: IntAttr = param_def()
    parent: Attribute = param_def()
    _k_width: IntAttr = param_def()

    @classmethod
    def get(cls, op_idx: int, parent: Attribute, k_width: int = 0) -> DotOperandEncodingAttr:
        return cls(IntAttr(op_idx), parent, IntAttr(k_width))

    @property
    def op_idx(self) -> int:
        return self._op_idx.data

    @property
    def k_width(self) -> int:
        return self._k_width.data

    def print_body(self, printer) -> str:
        k_width = f", kWidth = {self._k_width.data}" if self._k_width.data else ""
        return f"<{{opIdx = {self._op_idx.data}, parent = {printer.attr(self.parent)}{k_width}}}>"

    @classmethod
    def parse_parameters(cls, parser) -> DotOperandEncodingAttr:
        parser.expect("<")
        f = read_fields(parser, {"opIdx": _read_integer, "parent": _read_attribute, "kWidth": _read_integer})
        parser.expect(">")
        require(parser, f, "opIdx", "parent")
        return cls.get(f["opIdx"], f["parent"], f.get("kWidth", 0))


# ------------------------------------------------------------------ shared layouts


class _SwizzledLayout(SharedEncodingTrait):
    """`<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0][, CGALayout = ..]}>`
    (`parseSwizzledEncoding`); subclasses declare the parameters."""

    _vec: IntAttr
    _per_phase: IntAttr
    _max_phase: IntAttr
    _order: IntArray
    cta_layout: CTAEncodingAttr

    @classmethod
    def get(cls, vec: int, per_phase: int, max_phase: int, order: Sequence[int],
            cta_layout: CTAEncodingAttr | None = None):
        return cls(IntAttr(vec), IntAttr(per_phase), IntAttr(max_phase), _ints(order), _cta(cta_layout, len(order)))

    @property
    def vec(self) -> int:
        return self._vec.data

    @property
    def per_phase(self) -> int:
        return self._per_phase.data

    @property
    def max_phase(self) -> int:
        return self._max_phase.data

    @property
    def order(self) -> tuple[int, ...]:
        return self._order.data

    @property
    def rank(self) -> int:
        return len(self._order.data)

    def print_body(self, printer) -> str:
        return (f"<{{vec = {self.vec}, perPhase = {self.per_phase}, maxPhase = {self.max_phase}, "
                f"order = [{_join(self.order)}]{_cga_text(self.cta_layout)}}}>")

    @classmethod
    def parse_parameters(cls, parser):
        parser.expect("<")
        f = read_fields(parser, {"vec": read_uint, "perPhase": read_uint, "maxPhase": read_uint,
                                 "order": read_uint_array, "CGALayout": read_bases})
        parser.expect(">")
        order = f.get("order", ())
        return cls.get(f.get("vec", 0), f.get("perPhase", 0), f.get("maxPhase", 0), order,
                       _parse_cga(parser, f, len(order)))


@irdl_attr_definition
class SwizzledSharedEncodingAttr(_SwizzledLayout):
    """`#ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>`: rows
    XOR-swizzled in groups of `vec` elements."""

    name = "ttg.swizzled_shared"
    _vec: IntAttr = param_def()
    _per_phase: IntAttr = param_def()
    _max_phase: IntAttr = param_def()
    _order: IntArray = param_def()
    cta_layout: CTAEncodingAttr = param_def()


@irdl_attr_definition
class AMDRotatingSharedEncodingAttr(_SwizzledLayout):
    """`#ttg.amd_rotating_shared<{...}>`: the swizzled layout with a rotation per block of rows."""

    name = "ttg.amd_rotating_shared"
    _vec: IntAttr = param_def()
    _per_phase: IntAttr = param_def()
    _max_phase: IntAttr = param_def()
    _order: IntArray = param_def()
    cta_layout: CTAEncodingAttr = param_def()


@irdl_attr_definition
class NVMMASharedEncodingAttr(SharedEncodingTrait):
    """`#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16
    [, fp4Padded = true][, rank = 3 | , CGALayout = ..]}>`: the layout wgmma/tcgen05 and TMA read."""

    name = "ttg.nvmma_shared"
    _swizzling_byte_width: IntAttr = param_def()
    _transposed: BoolData = param_def()
    _element_bit_width: IntAttr = param_def()
    _fp4_padded: BoolData = param_def()
    cta_layout: CTAEncodingAttr = param_def()

    @classmethod
    def get(cls, swizzling_byte_width: int, transposed: bool, element_bit_width: int,
            fp4_padded: bool = False, cta_layout: CTAEncodingAttr | None = None,
            rank: int = 2) -> NVMMASharedEncodingAttr:
        return cls(IntAttr(swizzling_byte_width), BoolData(transposed), IntAttr(element_bit_width),
                   BoolData(fp4_padded), _cta(cta_layout, rank))

    @property
    def swizzling_byte_width(self) -> int:
        return self._swizzling_byte_width.data

    @property
    def transposed(self) -> bool:
        return self._transposed.data

    @property
    def element_bit_width(self) -> int:
        return self._element_bit_width.data

    @property
    def fp4_padded(self) -> bool:
        return self._fp4_padded.data

    @property
    def rank(self) -> int:
        return self.cta_layout.rank

    @property
    def vec(self) -> int:
        return 1 if self.swizzling_byte_width == 0 else 128 // self.element_bit_width

    @property
    def per_phase(self) -> int:
        return 1 if self.swizzling_byte_width == 0 else 128 // self.swizzling_byte_width

    @property
    def max_phase(self) -> int:
        return 1 if self.swizzling_byte_width == 0 else self.swizzling_byte_width // 16

    @property
    def alignment(self) -> int:
        return 128 * self.max_phase

    def print_body(self, printer) -> str:
        text = (f"<{{swizzlingByteWidth = {self.swizzling_byte_width}, "
                f"transposed = {'true' if self.transposed else 'false'}, "
                f"elementBitWidth = {self.element_bit_width}")
        if self.fp4_padded:
            text += ", fp4Padded = true"
        if self.cta_layout.is_default and self.rank != 2:
            text += f", rank = {self.rank}"
        else:
            text += _cga_text(self.cta_layout)
        return text + "}>"

    @classmethod
    def parse_parameters(cls, parser) -> NVMMASharedEncodingAttr:
        parser.expect("<")
        f = read_fields(parser, {"swizzlingByteWidth": read_uint, "transposed": read_bool,
                                 "elementBitWidth": read_uint, "fp4Padded": read_bool,
                                 "CGALayout": read_bases, "rank": read_uint})
        parser.expect(">")
        require(parser, f, "swizzlingByteWidth", "elementBitWidth")
        rank = f.get("rank", 2)
        return cls.get(f["swizzlingByteWidth"], f.get("transposed", False), f["elementBitWidth"],
                       f.get("fp4Padded", False), _parse_cga(parser, f, rank))


@irdl_attr_definition
class SharedLinearEncodingAttr(SharedEncodingTrait):
    """`#ttg.shared_linear<{offset = [[..]][, block = [[..]]]}, alignment = 16>`: a linear
    layout from (offset, block) onto `dim0..`; `block` prints only when it has bases."""

    name = "ttg.shared_linear"
    _offset: Bases = param_def()
    _block: Bases = param_def()
    _alignment: IntAttr = param_def()

    @classmethod
    def get(cls, offset: Iterable[Iterable[int]], block: Iterable[Iterable[int]] = (),
            alignment: int = 16) -> SharedLinearEncodingAttr:
        return cls(_bases(offset), _bases(block), IntAttr(alignment))

    @property
    def offset_bases(self) -> tuple[tuple[int, ...], ...]:
        return self._offset.data

    @property
    def block_bases(self) -> tuple[tuple[int, ...], ...]:
        return self._block.data

    @property
    def alignment(self) -> int:
        return self._alignment.data

    @property
    def rank(self) -> int:
        return _rank_of(self._offset.data, self._block.data)

    @property
    def order(self) -> tuple[int, ...]:
        return order_per_dim(self._offset.data, range(self.rank - 1, -1, -1))

    def print_body(self, printer) -> str:
        named = [("offset", self._offset.data)]
        if self._block.data:
            named.append(("block", self._block.data))
        return "<{" + _linear_text(named) + f"}}, alignment = {self.alignment}>"

    @classmethod
    def parse_parameters(cls, parser) -> SharedLinearEncodingAttr:
        parser.expect("<")
        f = read_fields(parser, {"offset": read_bases, "block": read_bases, "alignment": read_uint})
        if "alignment" in f:
            raise parser.error("alignment must be specified outside of the linear layout braces", f[_START])
        parser.expect(",")
        parser.expect_keyword("alignment")
        parser.expect("=")
        alignment = parser.parse_integer()
        parser.expect(">")
        offset = _required_bases(parser, f, "offset")
        block = f.get("block", ())
        _check_rank(parser, f, (offset, block))
        if alignment <= 0 or alignment & (alignment - 1):
            raise parser.error("alignment must be a positive power of two", f[_START])
        return cls.get(offset, block, alignment)


@irdl_attr_definition
class PaddedSharedEncodingAttr(SharedEncodingTrait):
    """`#ttg.padded_shared<[32:+4, 64:+8] {order = [1, 0], shape = [64, 64]}>`, or with the
    linear component spelled out: `{offset = [[..]], block = [[..]]}`. The short form
    prints when the component is the identity over `order` on one CTA."""

    name = "ttg.padded_shared"
    _intervals: IntArray = param_def()
    _paddings: IntArray = param_def()
    _offset: Bases = param_def()
    _block: Bases = param_def()

    @classmethod
    def get(cls, interval_paddings: Iterable[tuple[int, int]], offset: Iterable[Iterable[int]],
            block: Iterable[Iterable[int]] = ()) -> PaddedSharedEncodingAttr:
        pairs = list(interval_paddings)
        return cls(_ints(i for i, _ in pairs), _ints(p for _, p in pairs), _bases(offset), _bases(block))

    @classmethod
    def get_identity(cls, interval_paddings: Iterable[tuple[int, int]], order: Sequence[int],
                     shape: Sequence[int]) -> PaddedSharedEncodingAttr:
        """Padding over a row-major buffer of `shape` in `order`, on one CTA."""
        return cls.get(interval_paddings, identity_standard_nd(shape, order))

    @property
    def intervals(self) -> tuple[int, ...]:
        return self._intervals.data

    @property
    def paddings(self) -> tuple[int, ...]:
        return self._paddings.data

    @property
    def offset_bases(self) -> tuple[tuple[int, ...], ...]:
        return self._offset.data

    @property
    def block_bases(self) -> tuple[tuple[int, ...], ...]:
        return self._block.data

    @property
    def rank(self) -> int:
        return _rank_of(self._offset.data, self._block.data)

    @property
    def shape(self) -> tuple[int, ...]:
        """The output sizes of the linear component."""
        return out_dim_sizes(self.rank, self._offset.data, self._block.data)

    @property
    def order(self) -> tuple[int, ...]:
        return order_per_dim(self._offset.data, range(self.rank - 1, -1, -1))

    def print_body(self, printer) -> str:
        pads = ", ".join(f"{i}:+{p}" for i, p in zip(self.intervals, self.paddings))
        order, shape = self.order, self.shape
        if not self._block.data and self._offset.data == identity_standard_nd(shape, order):
            body = f"order = [{_join(order)}], shape = [{_join(shape)}]"
        else:
            body = _linear_text((("offset", self._offset.data), ("block", self._block.data)))
        return f"<[{pads}] {{{body}}}>"

    @classmethod
    def parse_parameters(cls, parser) -> PaddedSharedEncodingAttr:
        parser.expect("<")
        pairs = parser.parse_delimited("[", "]", lambda: _read_interval_padding(parser))
        f = read_fields(parser, {"offset": read_bases, "block": read_bases,
                                 "order": read_uint_array, "shape": read_uint_array})
        parser.expect(">")
        if "offset" in f or "block" in f:
            if "order" in f or "shape" in f:
                raise parser.error("Unexpected attribute order/shape found", f[_START])
            offset = _required_bases(parser, f, "offset")
            block = _required_bases(parser, f, "block")
            _check_rank(parser, f, (offset, block))
            return cls.get(pairs, offset, block)
        order, shape = f.get("order", ()), f.get("shape", ())
        if len(order) != len(shape):
            raise parser.error("Mismatch of shape and order ranks in padded layout", f[_START])
        return cls.get_identity(pairs, order, shape)


def _read_interval_padding(parser) -> tuple[int, int]:
    interval = parser.parse_integer()
    parser.expect(":")
    parser.expect("+")
    return interval, parser.parse_integer()


# ------------------------------------------------------------------ memory space


@irdl_attr_definition
class SharedMemorySpaceAttr(DialectAttribute):
    """`#ttg.shared_memory`: a memdesc in shared memory."""

    name = "ttg.shared_memory"
    ALIAS_NAME: ClassVar[str | None] = "smem"

    def print_body(self, printer) -> str:
        return ""

    @classmethod
    def parse_parameters(cls, parser) -> SharedMemorySpaceAttr:
        return cls()


OPS = ()
ATTRS = (
    BlockedEncodingAttr, LinearEncodingAttr, NvidiaMmaEncodingAttr, AMDMfmaEncodingAttr,
    AMDWmmaEncodingAttr, SliceEncodingAttr, DotOperandEncodingAttr, SwizzledSharedEncodingAttr,
    AMDRotatingSharedEncodingAttr, NVMMASharedEncodingAttr, SharedLinearEncodingAttr,
    PaddedSharedEncodingAttr, SharedMemorySpaceAttr,
)
