"""Tile accesses: which pointer loads read one box of a strided tensor, as a TMA copy does.

A `tt.load` in a loop whose pointers are `base + sum_d (start_d + t_d) * stride_d` over the
tile's positions `t_d` (one dimension with stride 1), and whose mask is a conjunction of
`start_d + t_d < extent_d` (and `>= 0`), reads exactly what a TMA copy of that box reads
from a descriptor `(base, [extent_d], [stride_d])` at coordinates `[start_d]`: TMA fills what
lies outside `[0, extent_d)` with zeros, where the pointer load gives `other`.

`TileAccessAnalysis.load(load)` returns that box (`TileAccess`) or raises `NotATile` with
the reason. Algorithm:
  1. Address: the pointer tensor as a polynomial (`polynomial.Poly`) over tile coordinates
     `t_d` and scalar atoms, following `tt.splat`, `tt.make_range`, `tt.expand_dims`,
     `tt.broadcast`, `ttg.convert_layout`, `tt.addptr`, `arith.addi/subi/muli` and integer
     extensions, and scalar `arith` arithmetic; anything else a scalar reads is an atom.
     In the innermost loop around the load, the induction variable is `lb + step * j` (`j`
     its iteration count) and a pointer (or scalar) carried by the loop and advanced by a
     loop-invariant amount each iteration is `init + j * amount`.
  2. Guards: an index that `arith.remsi(x, M)` or `arith.select(x < M, x, c)` keeps in
     bounds (Triton's tutorials write both) equals `x` wherever `x < M`; elsewhere it reads
     some other element that the kernel must throw away. The analysis treats `x < M` as a
     bound and reports it as a `Guard`: the caller proves the positions past it are
     discarded (for a dot operand, the rows or columns of the result that the epilogue's
     stores mask off) or refuses the load.
  3. Mask: `arith.andi` of `arith.cmpi slt/sle/sgt/sge` comparisons between `e + t_d` (one
     tile coordinate, coefficient 1) and a value without tile coordinates, through
     `tt.broadcast`, `tt.expand_dims` and `ttg.convert_layout`; at most one upper bound per
     dimension, and a lower bound only where it is the tensor's own start.
  4. The box: the dimension of stride 1 is TMA's innermost; every other dimension's stride
     is the coefficient of its `t_d`. The descriptor is made once before the outermost loop
     around the load (the scope), so its base, extents and strides may depend only on
     values defined before that loop; everything else moves the coordinates. A bounded
     dimension's coordinate is the bound's start minus the bound's scope-variant part (so
     `offs_k < K - k * BLOCK_K` over pointers advanced by `BLOCK_K` gives coordinate
     `k * BLOCK_K`, extent `K`); a scope-variant term of the address not so accounted for
     must be a multiple of exactly one unbounded dimension's stride; the scope-invariant
     rest moves the base pointer.
  5. Dimensions of size 1 (a block pointer's `(1, BLOCK)` tile over a row): the tile's
     coordinate along one is always 0, so its stride is not in the address and its start is
     part of the base offset. With `unit_dims`, such a dimension is left out of the box
     (`TileAccess.unit_dims`): the box is the tile without it, a caller copies the box and
     expands the copy's dimensions back (`tt.expand_dims`); a mask on it compares no tile
     index (step 3 refuses it).
     Without `unit_dims`, a tile with one is `NotATile`.
  6. Rules TMA imposes (`hardware.py`): base and strides multiples of 16 bytes (from
     `tt.divisibility` through axis info), box sizes at most 256 and the innermost at least
     16 bytes, an element type TMA copies, no `isVolatile`, `other` zero or absent.
     Coordinates must be >= 0: TMA reads nothing below 0, where a pointer load reads memory
     before its base. The box's coordinates come from program ids, loop counters and the
     kernel's integer arguments (sizes, tile counts); for a launch the kernel handles
     without reading out of bounds, they are not negative, and the rewrite takes that as
     given where it cannot prove it (a grouped tile order divides by `min(tiles - first,
     GROUP)`, whose sign no local fact shows). A kernel that deliberately reads before its
     pointer argument, unmasked, is outside this model; a `>= 0` mask makes TMA's lower
     bound the load's own.

The analysis changes nothing; `passes/pointer_loads_to_tma.py` builds the descriptor and
the `tt.descriptor_load` from a `TileAccess`. `TileAccessAnalysis.store` reads a `tt.store`
the same way (the region it writes: `passes/pipeline/row_cache.py`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import cached_property
from math import gcd

from xdsl.dialects.builtin import IntegerType, TensorType
from xdsl.ir import Attribute, BlockArgument, Operation, SSAValue

from ttpipe.dialects import arith, scf, tt, ttg
from ttpipe.dialects.arith import CmpIPredicate
from ttpipe.dialects.ttg_attrs import SliceEncodingAttr
from ttpipe.passes.analysis.axis_info import ModuleAxisInfo
from ttpipe.passes.analysis.polynomial import Atom, Iteration, Monomial, Poly, TileCoord
from ttpipe.passes.common.arith_canonicalize import constant_attr, splat_of
from ttpipe.passes.common.builder import constant_int_value
from ttpipe.passes.common.hardware import (
    TMA_GLOBAL_ALIGN_BYTES,
    TMA_MIN_INNER_BOX_BYTES,
    tma_copies_element_bits,
)
from ttpipe.passes.common.integers import scf_for_trips
from ttpipe.passes.common.ir import advance, dominates, enclosing_loop, init_value, is_zero_constant, yielded_value
from ttpipe.passes.common.mma_layouts import element_bit_width


class NotATile(Exception):
    """A load TMA cannot perform as written; the message says why."""


@dataclass(frozen=True)
class Guard:
    """An index that equals `start + t_dim` wherever that is below `limit`, and is some
    other in-bounds index elsewhere (`arith.remsi` or `arith.select` keeping it in range)."""

    dim: int
    start: Poly
    limit: Poly


@dataclass(frozen=True)
class IndexForm:
    """An integer tensor (or scalar) as a polynomial in tile coordinates and scalar atoms,
    with the guards its value went through."""

    poly: Poly
    guards: tuple[Guard, ...] = ()

    def __add__(self, other: IndexForm) -> IndexForm:
        return IndexForm(self.poly + other.poly, self.guards + other.guards)

    def __sub__(self, other: IndexForm) -> IndexForm:
        return IndexForm(self.poly - other.poly, self.guards + other.guards)


@dataclass(frozen=True)
class PointerForm:
    """A pointer tensor: `base` (a scalar pointer) plus an offset in elements."""

    base: SSAValue
    offset: IndexForm


@dataclass(frozen=True)
class Bound:
    """`start + t_dim < limit` (upper) or `start + t_dim >= limit` (lower)."""

    dim: int
    start: Poly
    limit: Poly
    upper: bool


@dataclass(frozen=True)
class TileDim:
    """One dimension of a TMA box, in the descriptor's order (innermost last)."""

    tile_dim: int
    """The dimension of the loaded tile it is."""
    size: int
    stride: Poly
    """Elements between neighbours along it (1 for the innermost); scope-invariant."""
    start: Poly
    """The coordinate of the tile's first element along it, at the load."""
    extent: Poly | None
    """The tensor's size along it (scope-invariant); None where nothing bounds the load."""


@dataclass(frozen=True)
class TileAccess:
    """What a pointer load reads (or a pointer store writes), as a TMA box of a descriptor
    made before `scope`."""

    op: tt.LoadOp | tt.StoreOp
    scope: Operation
    """The op of the function's entry block holding the load: the descriptor goes before it."""
    base: SSAValue
    base_offset: Poly
    """Elements from `base` to the descriptor's base pointer; scope-invariant."""
    dims: tuple[TileDim, ...]
    guards: tuple[Guard, ...]
    """Where the original load reads other elements than the box (positions past a guard's
    limit, in tile coordinates); the caller must prove the kernel discards them."""
    unit_dims: tuple[int, ...] = ()
    """The tile's dimensions of size 1, left out of the box (step 5)."""

    @property
    def element_type(self) -> Attribute:
        """The element type of the tile loaded or stored."""
        return self.tile_type.element_type

    @property
    def tile_type(self) -> TensorType:
        """The type of the tile loaded or stored."""
        return (self.op.result if isinstance(self.op, tt.LoadOp) else self.op.value).type

    @property
    def box_type(self) -> TensorType:
        """The box as a tensor: the tile's type without its dimensions of size 1, their layout
        sliced off (`#ttg.slice`); the tile's own type where it has none."""
        return without_unit_dims(self.tile_type, self.unit_dims)

    @property
    def transposed(self) -> bool:
        """The box's dimensions are not in the tile's order (its innermost, of stride 1, is
        not the tile's last but dimensions of size 1)."""
        tile_dims = [d.tile_dim for d in self.dims]
        return tile_dims != sorted(tile_dims)

    @property
    def order(self) -> list[int]:
        """Descriptor dimension i is tile dimension `order[i]`."""
        return [d.tile_dim for d in self.dims]


def bounded_by_loop(access: TileAccess, loop: scf.ForOp) -> TileAccess:
    """`access` (at an op of `loop`'s body) with every dimension that nothing bounds (no mask:
    `extent` None) bounded by what the loop's iterations reach, `start(T - 1) + size` for its
    T trips, where its bounds and step are constants and the start depends on no other
    iteration or tile coordinate: an unmasked load or store reads or writes exactly that
    hull, and a descriptor of that extent covers it. Dimensions it cannot bound stay None."""
    lower, upper, step = (constant_int_value(v) for v in (loop.lowerBound, loop.upperBound, loop.step))
    if None in (lower, upper, step) or step <= 0:
        return access
    last = Poly.constant(max(1, scf_for_trips(lower, upper, step)) - 1)
    dims = []
    for dim in access.dims:
        if dim.extent is None:
            reach = dim.start.substitute(Iteration(loop), last) + Poly.constant(dim.size)
            if not any(isinstance(atom, (Iteration, TileCoord)) for atom in reach.atoms()):
                dim = replace(dim, extent=reach)
        dims.append(dim)
    return replace(access, dims=tuple(dims))


def without_unit_dims(tile: TensorType, unit_dims: Sequence[int]) -> TensorType:
    """`tile` without its dimensions `unit_dims` (of size 1, increasing), each sliced off its
    layout: the innermost `#ttg.slice` is the last dimension's, so that `tt.expand_dims` of
    the first dimension, then the next, ... peels them off in turn."""
    shape, encoding = list(tile.get_shape()), tile.encoding
    for dim in reversed(unit_dims):
        del shape[dim]
        encoding = SliceEncodingAttr.get(dim, encoding)
    return TensorType(tile.element_type, shape, encoding)


_SIGNED_UPPER = {CmpIPredicate.slt: 0, CmpIPredicate.sle: 1}
"""x < limit + k (x on the left)."""
_SIGNED_LOWER = {CmpIPredicate.sge: 0, CmpIPredicate.sgt: 1}
"""x >= limit + k (x on the left)."""
_SWAPPED = {CmpIPredicate.sgt: CmpIPredicate.slt, CmpIPredicate.sge: CmpIPredicate.sle,
            CmpIPredicate.slt: CmpIPredicate.sgt, CmpIPredicate.sle: CmpIPredicate.sge}
"""The predicate with its operands exchanged."""


def _splat_int(value: SSAValue) -> int | None:
    """The integer a splat `arith.constant` holds."""
    splat = splat_of(constant_attr(value))
    return splat if isinstance(splat, int) else None


def _shape(value: SSAValue) -> tuple[int, ...]:
    return tuple(value.type.get_shape()) if isinstance(value.type, TensorType) else ()


def _single_coordinate(poly: Poly) -> tuple[int, Poly] | None:
    """(d, e) where `poly` is `e + t_d` with `e` free of tile coordinates."""
    coords = [a for a in poly.atoms() if isinstance(a, TileCoord)]
    if len(coords) != 1:
        return None
    coord = coords[0]
    with_coord, rest = poly.split(lambda m: (coord, 1) in m)
    if with_coord != Poly.atom(coord):
        return None
    return coord.dim, rest


def _remap(form: IndexForm, dims: dict[int, int | None]) -> IndexForm:
    """`form` with tile coordinate d renamed `dims[d]` (None: d is 0, a size-1 dimension);
    a guard on a size-1 dimension is `NotATile` (the caller checks before broadcasting)."""
    def rename(atom: Atom) -> Atom | None:
        if not isinstance(atom, TileCoord):
            return atom
        new = dims[atom.dim]
        return None if new is None else TileCoord(new)

    return IndexForm(form.poly.map_atoms(rename), tuple(replace(g, dim=dims[g.dim]) for g in form.guards))


class TileAccessAnalysis:
    """Tile accesses of the loads of one module's functions (see the module docstring)."""

    def __init__(self, axis_info: ModuleAxisInfo, aligned_bases: bool = True, unit_dims: bool = False):
        self.axis_info = axis_info
        self.unit_dims = unit_dims
        """Whether a tile's dimensions of size 1 are left out of its box (step 5) rather than
        refused: for a caller that copies the box and expands the copy itself."""
        self.aligned_bases = aligned_bases
        """Whether a box's own base address must be known 16-byte aligned, as a descriptor
        made at that address needs. False for a caller that makes one descriptor over a wider
        view, whose base it checks at run time, and reads the box at coordinates
        (`ttpipe-row-ring`: one 1-D view of every row, a row's chunk at `r S + j B`)."""
        self.computed: dict[Poly, list[SSAValue]] = {}
        """The scalars `scalar` has read, by their polynomial: values that compute it, so
        that coordinates can reuse them rather than compute them again."""

    # ------------------------------------------------------------------ scalars

    def scalar(self, value: SSAValue, loop: scf.ForOp | None) -> Poly:
        """An integer scalar as a polynomial over atoms (`loop`: the loop whose induction
        variable and advancing iteration arguments become `lb + step * j`, `init + j * a`)."""
        poly = self._scalar(value, loop)
        known = self.computed.setdefault(poly, [])
        if value not in known:
            known.append(value)
        return poly

    def _scalar(self, value: SSAValue, loop: scf.ForOp | None) -> Poly:
        owner = value.owner
        if isinstance(owner, arith.ConstantOp):
            constant = constant_int_value(value)
            if constant is not None and value.type != IntegerType(1):
                return Poly.constant(constant)
        if isinstance(owner, (arith.AddIOp, arith.SubIOp, arith.MulIOp)):
            lhs, rhs = self.scalar(owner.lhs, loop), self.scalar(owner.rhs, loop)
            if isinstance(owner, arith.AddIOp):
                return lhs + rhs
            return lhs - rhs if isinstance(owner, arith.SubIOp) else lhs * rhs
        if isinstance(owner, arith.ExtSIOp) or (isinstance(owner, arith.ExtUIOp) and self.nonnegative(owner.in_)):
            return self.scalar(owner.in_, loop)
        if isinstance(value, BlockArgument) and loop is not None and value.block is loop.body:
            if value.index == 0:
                return self.scalar(loop.lowerBound, None) + self.scalar(loop.step, None) * Poly.atom(Iteration(loop))
            amount = advance(value)
            if amount is not None:
                step = self.scalar(amount, None)
                return self.scalar(init_value(value), None) + step * Poly.atom(Iteration(loop))
        return Poly.atom(value)

    # ------------------------------------------------------------------ index tensors

    def index(self, value: SSAValue, loop: scf.ForOp | None) -> IndexForm:
        """An integer tensor or scalar as an `IndexForm`, or `NotATile`."""
        if not isinstance(value.type, TensorType):
            return IndexForm(self.scalar(value, loop))
        owner = value.owner
        splat = _splat_int(value)
        if splat is not None:
            return IndexForm(Poly.constant(splat))
        if isinstance(owner, tt.SplatOp):
            return IndexForm(self.scalar(owner.src, loop))
        if isinstance(owner, tt.MakeRangeOp):
            return IndexForm(Poly.constant(owner.start.value.data) + Poly.atom(TileCoord(0)))
        if isinstance(owner, (tt.ExpandDimsOp, tt.BroadcastOp, ttg.ConvertLayoutOp)):
            return self._reshaped(owner, self.index(owner.src, loop))
        if isinstance(owner, (arith.AddIOp, arith.SubIOp)):
            lhs, rhs = self.index(owner.lhs, loop), self.index(owner.rhs, loop)
            return lhs + rhs if isinstance(owner, arith.AddIOp) else lhs - rhs
        if isinstance(owner, arith.MulIOp):
            lhs, rhs = self.index(owner.lhs, loop), self.index(owner.rhs, loop)
            if _has_coordinates(lhs.poly) and _has_coordinates(rhs.poly):
                raise NotATile(f"a product of two tile indices ('{owner.name}') in an address")
            return IndexForm(lhs.poly * rhs.poly, lhs.guards + rhs.guards)
        if isinstance(owner, arith.ExtSIOp):
            return self.index(owner.in_, loop)
        if isinstance(owner, arith.RemSIOp):
            return self._guarded(self.index(owner.lhs, loop), owner.rhs, loop, owner)
        if isinstance(owner, arith.SelectOp):
            kept = self._select_in_bounds(owner, loop)
            if kept is not None:
                return kept
        if isinstance(value, BlockArgument) and loop is not None and value.block is loop.body and value.index > 0:
            start, step = self._carried(value, loop, self.index)
            return IndexForm(start.poly + step.poly * Poly.atom(Iteration(loop)), start.guards)
        name = owner.name if isinstance(owner, Operation) else "a block argument"
        raise NotATile(f"an address computed with '{name}', which is not an affine index of the tile")

    def _carried(self, arg: BlockArgument, loop: scf.ForOp, form_of):
        """(the form of `arg`'s initial value, the `IndexForm` of the amount the loop adds to
        it each iteration), for an index or pointer tensor the loop carries; `form_of` is
        `index` or `pointer`."""
        amount = advance(arg)
        if amount is None:
            raise NotATile("an index or pointer the loop carries other than advanced by a loop-invariant amount")
        start = form_of(init_value(arg), None)
        step = self.index(amount, None)
        if _has_coordinates(step.poly) or step.guards:
            raise NotATile("an index or pointer the loop advances by different amounts at different positions of "
                           "the tile")
        return start, step

    def _reshaped(self, op: Operation, form: IndexForm) -> IndexForm:
        """`form` through `tt.expand_dims`, `tt.broadcast` or `ttg.convert_layout`."""
        rank = len(_shape(op.src))
        if isinstance(op, tt.ExpandDimsOp):
            axis = op.axis.value.data
            return _remap(form, {d: d + (d >= axis) for d in range(rank)})
        if isinstance(op, tt.BroadcastOp):
            source = _shape(op.src)
            guards = [g for g in form.guards if source[g.dim] != 1]
            if len(guards) != len(form.guards):
                raise NotATile("a guarded index of one position broadcast along a tile dimension")
            return _remap(IndexForm(form.poly, tuple(guards)),
                          {d: (None if source[d] == 1 else d) for d in range(rank)})
        return form

    def _guarded(self, form: IndexForm, limit: SSAValue, loop: scf.ForOp | None, op: Operation) -> IndexForm:
        """`x % limit` or `where(x < limit, x, c)`: `x` with a guard at `limit`."""
        single = _single_coordinate(form.poly)
        limit_form = self.index(limit, loop)
        if single is None or form.guards or limit_form.guards or _has_coordinates(limit_form.poly):
            raise NotATile(f"'{op.name}' of an index that is not one tile dimension's position against a "
                           f"uniform limit")
        dim, start = single
        return IndexForm(form.poly, (Guard(dim, start, limit_form.poly), ))

    def _select_in_bounds(self, op: arith.SelectOp, loop: scf.ForOp | None) -> IndexForm | None:
        """`select(x < limit, x, c)` (c uniform): `x` guarded at `limit`."""
        condition = op.condition.owner
        if not isinstance(condition, arith.CmpIOp) or condition.lhs is not op.true_value:
            return None
        if CmpIPredicate(condition.predicate.value.data) != CmpIPredicate.slt:
            return None
        fallback = self.index(op.false_value, loop)
        if _has_coordinates(fallback.poly):
            return None
        return self._guarded(self.index(op.true_value, loop), condition.rhs, loop, op)

    # ------------------------------------------------------------------ pointers

    def pointer(self, value: SSAValue, loop: scf.ForOp | None) -> PointerForm:
        """A pointer tensor or scalar as a `PointerForm`, or `NotATile`."""
        owner = value.owner
        if isinstance(owner, tt.AddPtrOp):
            inner = self.pointer(owner.ptr, loop)
            return PointerForm(inner.base, inner.offset + self.index(owner.offset, loop))
        if isinstance(owner, tt.SplatOp):
            return self.pointer(owner.src, loop)
        if isinstance(owner, (tt.ExpandDimsOp, tt.BroadcastOp, ttg.ConvertLayoutOp)):
            inner = self.pointer(owner.src, loop)
            return PointerForm(inner.base, self._reshaped(owner, inner.offset))
        if isinstance(value, BlockArgument) and loop is not None and value.block is loop.body and value.index > 0:
            start, step = self._carried(value, loop, self.pointer)
            return PointerForm(start.base, IndexForm(start.offset.poly + step.poly * Poly.atom(Iteration(loop)),
                                                     start.offset.guards))
        if not isinstance(value.type, TensorType):
            return PointerForm(value, IndexForm(Poly()))
        name = owner.name if isinstance(owner, Operation) else "a block argument"
        raise NotATile(f"a pointer tensor made by '{name}'")

    # ------------------------------------------------------------------ masks

    def mask(self, value: SSAValue | None, loop: scf.ForOp | None) -> list[Bound]:
        """The bounds whose conjunction a mask is, or `NotATile`."""
        if value is None:
            return []
        owner = value.owner
        splat = _splat_int(value)
        if splat is not None and splat != 0:
            return []
        if isinstance(owner, arith.AndIOp):
            return self.mask(owner.lhs, loop) + self.mask(owner.rhs, loop)
        if isinstance(owner, (tt.ExpandDimsOp, tt.BroadcastOp, ttg.ConvertLayoutOp)):
            rank = len(_shape(owner.src))
            if isinstance(owner, tt.ExpandDimsOp):
                axis = owner.axis.value.data
                dims = {d: d + (d >= axis) for d in range(rank)}
            else:
                dims = {d: d for d in range(rank)}
            bounds = self.mask(owner.src, loop)
            if isinstance(owner, tt.BroadcastOp) and any(_shape(owner.src)[b.dim] == 1 for b in bounds):
                raise NotATile("a mask bound of one position broadcast along a tile dimension")
            return [replace(b, dim=dims[b.dim]) for b in bounds]
        if isinstance(owner, arith.CmpIOp) and isinstance(value.type, TensorType):
            return [self._comparison(owner, loop)]
        raise NotATile("a mask that is not a conjunction of bounds on the tile's indices")

    def _comparison(self, op: arith.CmpIOp, loop: scf.ForOp | None) -> Bound:
        predicate = CmpIPredicate(op.predicate.value.data)
        lhs, rhs = self.index(op.lhs, loop), self.index(op.rhs, loop)
        if lhs.guards or rhs.guards:
            raise NotATile("a mask comparing an index that is kept in bounds by remsi/select")
        if _has_coordinates(rhs.poly) and not _has_coordinates(lhs.poly) and predicate in _SWAPPED:
            lhs, rhs, predicate = rhs, lhs, _SWAPPED[predicate]
        single = _single_coordinate(lhs.poly)
        if single is None or _has_coordinates(rhs.poly):
            raise NotATile("a mask comparison that is not one tile dimension's index against a uniform value")
        dim, start = single
        if predicate in _SIGNED_UPPER:
            return Bound(dim, start, rhs.poly + Poly.constant(_SIGNED_UPPER[predicate]), upper=True)
        if predicate in _SIGNED_LOWER:
            return Bound(dim, start, rhs.poly + Poly.constant(_SIGNED_LOWER[predicate]), upper=False)
        raise NotATile(f"a mask comparison '{predicate.name}' (only signed <, <=, >, >= bound a TMA box)")

    # ------------------------------------------------------------------ facts about atoms

    def nonnegative(self, value: SSAValue) -> bool:
        """Whether an integer scalar is >= 0 wherever it is defined (see the module docstring)."""
        return self._nonnegative(value, frozenset())

    def _nonnegative(self, value: SSAValue, visiting: frozenset) -> bool:
        if value in visiting:
            return isinstance(value, BlockArgument)  # induction: assumed for the iteration that yields it
        visiting = visiting | {value}
        owner = value.owner
        constant = constant_int_value(value)
        if constant is not None:
            return constant >= 0
        if isinstance(owner, (tt.GetProgramIdOp, tt.GetNumProgramsOp, arith.ExtUIOp)):
            return True
        if isinstance(value, BlockArgument):
            loop = value.block.parent_op()
            if isinstance(loop, scf.ForOp) and value.index == 0:
                return self._nonnegative(loop.lowerBound, visiting)
            if isinstance(loop, scf.ForOp):
                return (self._nonnegative(init_value(value), visiting)
                        and self._nonnegative(yielded_value(value), visiting))
            return False
        both = (arith.AddIOp, arith.MulIOp, arith.DivSIOp, arith.MinSIOp, arith.SelectOp)
        if isinstance(owner, both):
            operands = owner.operands[1:] if isinstance(owner, arith.SelectOp) else owner.operands
            return all(self._nonnegative(v, visiting) for v in operands)
        if isinstance(owner, (arith.RemSIOp, arith.ShRSIOp, arith.ExtSIOp)):
            return self._nonnegative(owner.operands[0], visiting)
        if isinstance(owner, (arith.MaxSIOp, arith.AndIOp)):
            return any(self._nonnegative(v, visiting) for v in owner.operands)
        return False

    def divisibility(self, atom: Atom) -> int:
        """A power of two dividing an atom (axis info's, for scalars)."""
        if isinstance(atom, (TileCoord, Iteration)):
            return 1
        info = self.axis_info.axis_info(atom)
        return info.divisibility[0] if info is not None else 1

    # ------------------------------------------------------------------ loads

    def load(self, load: tt.LoadOp, any_other: bool = False) -> TileAccess:
        """The TMA box `load` reads (module docstring, steps 1-5), or `NotATile`; with
        `any_other`, also where `other` is not zero (the caller selects it in registers)."""
        if not isinstance(load.result.type, TensorType):
            raise NotATile("a scalar load")
        if load.isVolatile.value.data:
            raise NotATile("a volatile load")
        if not any_other and load.other is not None and not is_zero_constant(load.other):
            raise NotATile("a masked load whose 'other' is not zero (TMA fills with zeros)")
        return self._box(load, load.result.type)

    def store(self, store: tt.StoreOp) -> TileAccess:
        """The box a `tt.store` of a tensor writes (what `load` says of a load), or `NotATile`."""
        if not isinstance(store.value.type, TensorType):
            raise NotATile("a scalar store")
        return self._box(store, store.value.type)

    def _box(self, op: tt.LoadOp | tt.StoreOp, type_: TensorType) -> TileAccess:
        loop = enclosing_loop(op)
        return _Box(self, op, type_, _scope(op), self.pointer(op.ptr, loop), self.mask(op.mask, loop)).access()


class _Box:
    """Steps 4-5 for one load (or store) of a `type_` tile: its address split into the
    descriptor and the coordinates."""

    def __init__(self, analysis: TileAccessAnalysis, op: tt.LoadOp | tt.StoreOp, type_: TensorType,
                 scope: Operation, pointer: PointerForm, bounds: list[Bound]):
        self.analysis = analysis
        self.op = op
        self.type = type_
        self.scope = scope
        self.pointer = pointer
        self.bounds = bounds
        self.shape = tuple(type_.get_shape())
        self.rank = len(self.shape)

    def invariant(self, atom: Atom) -> bool:
        """Defined before the scope (so the descriptor can read it)."""
        if isinstance(atom, (TileCoord, Iteration)):
            return False
        return dominates(atom, self.scope)

    def invariant_monomial(self, monomial: Monomial) -> bool:
        return all(self.invariant(a) for a, _ in monomial)

    @cached_property
    def unit_dims(self) -> tuple[int, ...]:
        """The tile's dimensions of size 1 (step 5)."""
        return tuple(d for d, size in enumerate(self.shape) if size == 1)

    @cached_property
    def strides(self) -> list[Poly]:
        """The coefficient of each `t_d` in the address (step 4)."""
        offset = self.pointer.offset.poly
        if offset.degree_in(lambda a: isinstance(a, TileCoord)) > 1:
            raise NotATile("an address that is not linear in the tile's indices")
        strides = []
        for dim in range(self.rank):
            coord = TileCoord(dim)
            with_coord, _ = offset.split(lambda m: (coord, 1) in m)
            strides.append(with_coord.substitute(coord, Poly.constant(1)))
        return strides

    def access(self) -> TileAccess:
        element = self.type.element_type
        if not tma_copies_element_bits(element_bit_width(element)):
            raise NotATile(f"elements of {element_bit_width(element)} bits, which TMA does not copy")
        unit_dims = self.unit_dims
        if unit_dims and (not self.analysis.unit_dims or len(unit_dims) == self.rank):
            raise NotATile("a tile dimension of size 1")
        if not self.invariant(self.pointer.base):
            raise NotATile("a base pointer computed inside the loop nest")
        box_dims = [d for d in range(self.rank) if d not in unit_dims]
        strides = self.strides
        innermost = [d for d in box_dims if strides[d] == Poly.constant(1)]
        if len(innermost) != 1:
            raise NotATile("no single tile dimension with stride 1 (TMA's innermost dimension is contiguous)")
        inner = innermost[0]
        for dim, stride in enumerate(strides):
            if dim in unit_dims:
                continue
            if stride.is_zero:
                raise NotATile(f"tile dimension {dim} does not move the address")
            if not all(self.invariant(a) for a in stride.atoms()):
                raise NotATile(f"the stride of tile dimension {dim} changes inside the loop nest")
        upper, lower = self._bounds()
        starts: dict[int, Poly] = {}
        extents: dict[int, Poly] = {}
        constant_part, _ = self.pointer.offset.poly.split(lambda m: not any(isinstance(a, TileCoord) for a, _ in m))
        for dim, bound in upper.items():
            invariant_limit, variant_limit = bound.limit.split(self.invariant_monomial)
            starts[dim] = bound.start - variant_limit
            extents[dim] = invariant_limit
        rest = constant_part - _sum_products(starts, strides)
        variant, base_offset = rest.split(lambda m: not self.invariant_monomial(m))
        unbounded = [d for d in box_dims if d not in upper]
        for dim in unbounded:
            starts[dim] = Poly()
        for monomial, coefficient in variant.terms.items():
            term = Poly({monomial: coefficient})
            owners = [d for d in unbounded if d != inner and term.divided(strides[d]) is not None]
            if not owners and inner in unbounded:
                owners = [inner]
            if len(owners) != 1:
                raise NotATile("the tile's origin moves inside the loop nest along no single unbounded dimension "
                               "(or against a mask bound)")
            starts[owners[0]] = starts[owners[0]] + term.divided(strides[owners[0]])
        for dim, bound in lower.items():
            if bound.limit - bound.start + starts[dim] != Poly():
                raise NotATile(f"a lower bound on tile dimension {dim} other than the tensor's start")
        self._check_alignment(base_offset, strides, inner, element)
        order = [d for d in box_dims if d != inner] + [inner]
        dims = tuple(TileDim(d, self.shape[d], strides[d], starts[d], extents.get(d)) for d in order)
        guards = tuple(Guard(g.dim, starts[g.dim], extents[g.dim]) for g in self.pointer.offset.guards
                       if g.dim not in self._masked_guards)
        return TileAccess(self.op, self.scope, self.pointer.base, base_offset, dims, guards, unit_dims)

    def _bounds(self) -> tuple[dict[int, Bound], dict[int, Bound]]:
        """The upper and lower bound of each dimension, from the mask and the guards."""
        upper: dict[int, Bound] = {}
        lower: dict[int, Bound] = {}
        self._masked_guards: set[int] = set()
        for bound in self.bounds:
            table = upper if bound.upper else lower
            if bound.dim in table and _absolute(table[bound.dim]) != _absolute(bound):
                raise NotATile(f"two different {'upper' if bound.upper else 'lower'} bounds on tile dimension "
                               f"{bound.dim}")
            table[bound.dim] = bound
        for guard in self.pointer.offset.guards:
            as_bound = Bound(guard.dim, guard.start, guard.limit, upper=True)
            if guard.dim in upper:
                if _absolute(upper[guard.dim]) != _absolute(as_bound):
                    raise NotATile(f"a mask and an in-bounds guard with different limits on tile dimension "
                                   f"{guard.dim}")
                self._masked_guards.add(guard.dim)  # the mask drops what the guard replaced: nothing to discard
            upper[guard.dim] = upper.get(guard.dim, as_bound)
        return upper, lower

    def _check_alignment(self, base_offset: Poly, strides: list[Poly], inner: int, element) -> None:
        element_bytes = element_bit_width(element) // 8
        base_bytes = self.analysis.divisibility(self.pointer.base)
        offset_bytes = base_offset.divisibility(self.analysis.divisibility) * element_bytes
        alignment = base_bytes if base_offset.is_zero else gcd(base_bytes, offset_bytes)
        if self.analysis.aligned_bases and alignment % TMA_GLOBAL_ALIGN_BYTES:
            raise NotATile(f"the base address is known aligned to {alignment} bytes; TMA needs "
                           f"{TMA_GLOBAL_ALIGN_BYTES}")
        for dim, stride in enumerate(strides):
            if dim == inner or dim in self.unit_dims:
                continue
            stride_bytes = stride.divisibility(self.analysis.divisibility) * element_bytes
            if stride_bytes % TMA_GLOBAL_ALIGN_BYTES:
                raise NotATile(f"the stride of tile dimension {dim} is known a multiple of {stride_bytes} bytes; "
                               f"TMA needs {TMA_GLOBAL_ALIGN_BYTES}")
        if self.shape[inner] * element_bytes < TMA_MIN_INNER_BOX_BYTES:
            raise NotATile(f"the innermost dimension holds {self.shape[inner] * element_bytes} bytes; a TMA box "
                           f"at least {TMA_MIN_INNER_BOX_BYTES}")


def _absolute(bound: Bound) -> Poly:
    """`limit - start`: bounds with equal values bound the same positions."""
    return bound.limit - bound.start


def _sum_products(starts: dict[int, Poly], strides: Sequence[Poly]) -> Poly:
    result = Poly()
    for dim, start in starts.items():
        result = result + start * strides[dim]
    return result


def _has_coordinates(poly: Poly) -> bool:
    return any(isinstance(a, TileCoord) for a in poly.atoms())


def _scope(op: Operation) -> Operation:
    """The op of the function's entry block that holds `op`."""
    current = op
    while not isinstance(current.parent_op(), tt.FuncOp):
        current = current.parent_op()
        if current is None:
            raise NotATile("a load outside a function")
    return current
