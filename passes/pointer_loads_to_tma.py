"""`ttpipe-pointer-loads-to-tma`: pointer loads in loops that read one box of a strided
tensor become TMA loads of a tensor descriptor the kernel makes on the device.

Algorithm, for every `tt.load` inside an `scf.for`:
  1. `TileAccessAnalysis.load` (`passes/analysis/tile_access.py`): the box the load reads,
     or the reason it is none (a remark `load not turned into a TMA load: <reason>`). A
     load whose indices go through an in-bounds guard (`remsi`, `select`) is left too:
     TMA would read zeros where the load reads other elements, and only a caller that
     proves those elements are thrown away (warp specialization, for dot operands) may
     rewrite it (`convert`).
  2. The descriptor, before the outermost loop around the load (`TileAccess.scope`):
     the base pointer moved by the box's scope-invariant offset (`tt.addptr`, i64), the
     extents (i32; `TMA_MAX_COORDINATE_EXTENT` along a dimension no mask bounds), the
     strides (i64) and `tt.make_tensor_descriptor`, whose block is the tile in descriptor
     order (the stride-1 dimension last) in shared encoding `E`. Loads of the same box
     shape and encoding from the same tensor share one descriptor per function. A
     tensormap's extents must be >= 1: an extent not known to be is clamped to 1, and where
     it was below 1 (an empty tensor: the masked load reads `other` everywhere) the box's
     first coordinate becomes `EMPTY_COORDINATE`, past the extent, so TMA reads zeros.
  3. At the load: the coordinates (i32; the iteration count `j` as `(iv - lb) / step`, or
     `iv - lb` scaled where `step` divides it; a value that already computes one is reused)
     and `tt.descriptor_load`. Where the stride-1 dimension is not the tile's last, the box
     is the tile transposed: a `ttg.local_alloc` user reads it through
     `ttg.memdesc_trans`, any other user through `tt.trans`. TMA fills zeros where the mask
     is false: a load whose `other` is not zero qualifies only where registers read it,
     and gets `select(mask, value, other)`. Coordinates are taken to be
     `>= 0` (`tile_access`, step 5): the coordinates are not checked on the device, because
     any call in a kernel (`tt.assert` lowers to one) makes ptxas serialize its wgmmas
     (C7510).
  4. The address and mask computations left unused are erased, with the pointers the loop
     carries for the load and their advance.

`E` is the encoding of the load's one `ttg.local_alloc` user where TMA can write it (an NVMMA
layout whose contiguous dimension is the box's innermost: `tma_writable`), so that the
allocation becomes the TMA destination; else `nvmma_shared_for` of the box (Triton's default
for descriptors), the load a register value the allocation stores as before.

The tensormap lives in global scratch memory (Triton's `triton-nvidia-tma-lowering` makes
it with `ttng.tensormap_create`): launches need an allocator (`triton.set_allocator`; the
plug-in installs one where none is set, `ttpipe.runtime` passes its own scratch).

Preconditions: TTGIR with layouts (after `tritongpu-coalesce`); sm_90 or later (the pass
leaves modules of other targets alone). Attributes read: `ttg.target`; none written.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import IntegerType, ModuleOp, TensorType, i32, i64
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from ttpipe.dialects import arith, tt, ttg
from ttpipe.dialects.arith import CmpIPredicate
from ttpipe.dialects.ttg_attrs import NVMMASharedEncodingAttr
from ttpipe.dialects.ttg_types import MemDescType
from ttpipe.passes.analysis.axis_info import ModuleAxisInfo
from ttpipe.passes.analysis.polynomial import Atom, Iteration, Poly, ordered_terms
from ttpipe.passes.analysis.tile_access import NotATile, TileAccess, TileAccessAnalysis
from ttpipe.passes.common.builder import OpBuilder, constant_int_value
from ttpipe.passes.common.diagnostics import emit_remark
from ttpipe.passes.common.distributed_layouts import cta_layout_of, infer_trans_encoding
from ttpipe.passes.common.hardware import TMA_MAX_COORDINATE_EXTENT
from ttpipe.passes.common.ir import (
    dominates,
    enclosing_loop,
    erase_dead_chain,
    erase_self_updating_iter_args,
    is_zero_constant,
    iteration_index,
)
from ttpipe.passes.common.mma_layouts import element_bit_width, nvmma_shared_for
from ttpipe.passes.common.shared_layouts import trans_encoding, trans_type
from ttpipe.passes.pipeline.lower_loops import StageBuilder, replace_uses_and_propagate_type
from ttpipe.passes.pipeline.schedule import CoarseSchedule
from ttpipe.passes.common.target import nvidia_compute_capability

REMARK = "load not turned into a TMA load: "

def tma_writable(encoding: Attribute) -> bool:
    """TMA writes a box into shared memory as it lies in global memory, innermost dimension
    contiguous: an NVMMA layout that is not transposed (nor fp4-padded)."""
    return isinstance(encoding, NVMMASharedEncodingAttr) and not encoding.transposed and not encoding.fp4_padded


def descriptor_encoding(load: tt.LoadOp, access: TileAccess) -> Attribute:
    """`E` (module docstring): the shared encoding of the descriptor's block."""
    uses = list(load.result.uses)
    if len(uses) == 1 and isinstance(uses[0].operation, ttg.LocalAllocOp) and not access.unit_dims:
        encoding = trans_encoding(uses[0].operation.result.type.encoding, load.result.type.get_shape(), access.order)
        if tma_writable(encoding):
            return encoding
    type_ = access.box_type
    box = [d.size for d in access.dims]
    rank = len(box)
    return nvmma_shared_for(box, list(reversed(range(rank))), cta_layout_of(type_.encoding),
                            element_bit_width(type_.element_type))


def staged_encoding(access: TileAccess, encoding: Attribute) -> Attribute:
    """The encoding a `ttg.local_alloc` of the tile (in the tile's order) has when it is the
    TMA box written in `encoding` (in the descriptor's order)."""
    inverse = [access.order.index(d) for d in range(len(access.order))]
    return trans_encoding(encoding, [d.size for d in access.dims], inverse)


EMPTY_COORDINATE = 1 << 30
"""A coordinate past every extent the descriptor can have where its tensor is empty (step 2)."""


@dataclass
class Descriptor:
    """A descriptor made before a scope, and the i1 that says its tensor is empty (some
    extent below 1), where that is not known false."""

    value: SSAValue
    key: tuple
    empty: SSAValue | None


class DescriptorBuilder:
    """Builds the descriptors and coordinates of `TileAccess`es of one function (steps 2-3);
    a polynomial some value the analysis read already computes, where it is in reach, is
    that value."""

    def __init__(self, func: tt.FuncOp, analysis: TileAccessAnalysis):
        self.analysis = analysis
        self.position: dict[SSAValue, int] = {}
        for op in func.walk():
            for region in op.regions:
                for block in region.blocks:
                    for arg in block.args:
                        self.position[arg] = len(self.position)
            for result in op.results:
                self.position[result] = len(self.position)
        self.descriptors: list[Descriptor] = []

    def _order(self, atom: Atom) -> int:
        if isinstance(atom, Iteration):
            return self.position.get(atom.loop.body.args[0], 0)
        return self.position.get(atom, 0)

    def _known(self, b: OpBuilder, poly: Poly, type_: IntegerType) -> SSAValue | None:
        """A value computing `poly` that dominates `b`'s point, cast to `type_`."""
        point = b.insertion_point.insert_before
        if poly.constant_value() is not None:
            return None  # a constant of the type wanted, not a cast of another
        for value in self.analysis.computed.get(poly, []):
            if point is not None and isinstance(value.type, IntegerType) and dominates(value, point):
                return b.sext_or_trunc(value, type_)
        return None

    def materialize(self, b: OpBuilder, poly: Poly, type_: IntegerType,
                    atom_value: Callable[[Atom], SSAValue] | None = None) -> SSAValue:
        """`poly` computed at `b`'s point as a scalar of `type_` (its atoms cast to it)."""
        known = self._known(b, poly, type_)
        if known is not None:
            return known
        total: SSAValue | None = None
        for atoms, coefficient in ordered_terms(poly, self._order):
            term: SSAValue | None = None
            for atom in atoms:
                value = b.sext_or_trunc(atom_value(atom) if atom_value else atom, type_)
                term = value if term is None else b.muli(term, value)
            if term is None:
                term = b.constant(coefficient, type_)
            elif coefficient != 1:
                term = b.muli(term, b.constant(coefficient, type_))
            total = term if total is None else b.addi(total, term)
        return total if total is not None else b.constant(0, type_)

    def descriptor(self, access: TileAccess, encoding: Attribute) -> Descriptor:
        """The descriptor of `access`'s box in `encoding`, made before its scope (step 2)."""
        load_type = access.op.result.type
        block = TensorType(load_type.element_type, [d.size for d in access.dims], encoding)
        key = (access.base, access.base_offset, tuple((d.stride, d.extent) for d in access.dims), block)
        for known in self.descriptors:
            if known.key == key and dominates(known.value, access.scope):
                return known
        b = OpBuilder(InsertPoint.before(access.scope), access.op.location)
        base = access.base
        if not access.base_offset.is_zero:
            base = b.insert(tt.AddPtrOp(base, self.materialize(b, access.base_offset, i64))).result
        extents, empty = [], None
        for dim in access.dims:
            constant = None if dim.extent is None else dim.extent.constant_value()
            if dim.extent is None or (constant is not None and constant >= 1):
                extents.append(b.constant(constant or TMA_MAX_COORDINATE_EXTENT, i32))
                continue
            extent = self.materialize(b, dim.extent, i32)
            one = b.constant(1, i32)
            below_one = b.cmpi(CmpIPredicate.slt, extent, one)
            empty = below_one if empty is None else b.insert(arith.OrIOp(empty, below_one)).result
            extents.append(b.maxsi(extent, one))
        strides = [self.materialize(b, d.stride, i64) for d in access.dims]
        desc = b.insert(tt.MakeTensorDescOp(base, extents, strides, tt.TensorDescType(block))).result
        self.descriptors.append(Descriptor(desc, key, empty))
        return self.descriptors[-1]

    def coordinates(self, b: OpBuilder, access: TileAccess, desc: Descriptor) -> list[SSAValue]:
        """The box's coordinates at `b`'s point (step 3), the first moved past every extent
        where the tensor is empty (step 2)."""
        coords = self._coordinates(b, access)
        if desc.empty is not None:
            coords[0] = b.select(desc.empty, b.constant(EMPTY_COORDINATE, i32), coords[0])
        return coords

    def _coordinates(self, b: OpBuilder, access: TileAccess) -> list[SSAValue]:
        coords = []
        for dim in access.dims:
            value = self._known(b, dim.start, i32)
            if value is None:
                value = self.materialize(b, _without_iterations(dim.start), i32, lambda a: self._iteration(b, a))
            coords.append(value)
        return coords

    def _iteration(self, b: OpBuilder, atom: Atom) -> SSAValue:
        """An atom's value at `b`'s point (a loop's iteration count computed)."""
        return iteration_index(b, atom.loop) if isinstance(atom, Iteration) else atom


def _without_iterations(poly: Poly) -> Poly:
    """`poly` with `j * c` written `(iv - lb) * (c / step)` where a constant step divides
    every coefficient of `j` (what remains of `j` is computed by division)."""
    for atom in [a for a in poly.atoms() if isinstance(a, Iteration)]:
        loop = atom.loop
        step = constant_int_value(loop.step)
        with_j, rest = poly.split(lambda m: (atom, 1) in m)
        per_iteration = with_j.divided(Poly.atom(atom))
        scaled = per_iteration.divided(Poly.constant(step)) if step else None
        if scaled is not None and per_iteration.degree_in(lambda a: a == atom) == 0:
            iv = loop.body.args[0]
            lower = constant_int_value(loop.lowerBound)
            elapsed = Poly.atom(iv) - (Poly.constant(lower) if lower is not None else Poly.atom(loop.lowerBound))
            poly = rest + elapsed * scaled
    return poly



def convert(builder: DescriptorBuilder, accesses: Sequence[tuple[TileAccess, Attribute]],
            restage: bool = False) -> list[tt.DescriptorLoadOp]:
    """Steps 2-4: each load replaced by a `tt.descriptor_load` of its box in its descriptor
    encoding, then what computed the loads' addresses and masks erased where now unused.
    A `ttg.local_alloc` of the loaded tile becomes an allocation of the box (read through
    `ttg.memdesc_trans` where transposed) where its layout is the box's; with `restage`, also
    where it is not (the allocation takes the box's layout, its readers' types follow: the
    caller knows they read it either way)."""
    new_loads = []
    leftovers: list[SSAValue] = []
    for access, encoding in accesses:
        load = access.op
        desc = builder.descriptor(access, encoding)
        b = OpBuilder(InsertPoint.before(load), load.location)
        coords = builder.coordinates(b, access, desc)
        load_type = load.result.type
        layout = infer_trans_encoding(load_type.encoding, load_type.get_shape(), access.order)
        box_type = TensorType(load_type.element_type, [d.size for d in access.dims], layout)
        new_load = b.insert(tt.DescriptorLoadOp(desc.value, coords, result_type=box_type, cache=load.cache,
                                                evict=load.evict))
        leftovers += [v for v in (load.ptr, load.mask, load.other) if v is not None]
        _read_box(b, load, new_load.result, access, encoding, restage)
        Rewriter.erase_op(load)
        new_loads.append(new_load)
    _erase_unused(leftovers)
    for new_load in new_loads:
        loop = enclosing_loop(new_load)
        while loop is not None:
            inits = list(loop.initArgs)
            loop = erase_self_updating_iter_args(loop)
            _erase_unused(inits)
            loop = enclosing_loop(loop)
    return new_loads


def _read_box(b: OpBuilder, load: tt.LoadOp, box: SSAValue, access: TileAccess, encoding: Attribute,
              restage: bool) -> None:
    """The users of `load` read `box` instead (step 3): allocations of the tile as the TMA
    destination, the others through `tt.trans` where the box is transposed."""
    inverse = [access.order.index(d) for d in range(len(access.order))]
    staged_as = staged_encoding(access, encoding)
    for use in list(load.result.uses):
        user = use.operation
        if not isinstance(user, ttg.LocalAllocOp) or user.src is not load.result:
            continue
        alloc_type: MemDescType = user.result.type
        if alloc_type.encoding != staged_as and not restage:
            continue
        ub = OpBuilder(InsertPoint.before(user), user.location)
        staged = ub.insert(ttg.LocalAllocOp(box, result_type=MemDescType.get(
            box.type.get_shape(), alloc_type.element_type, encoding, alloc_type.memory_space,
            alloc_type.mutable))).result
        view = staged
        if access.transposed:
            view = ub.insert(ttg.MemDescTransOp(staged, order=inverse, result_type=trans_type(staged.type, inverse)))
            view = view.result
        if view.type == alloc_type:
            user.result.replace_all_uses_with(view)
        else:
            replace_uses_and_propagate_type(StageBuilder(CoarseSchedule(), InsertPoint.before(user), user.location),
                                            user, view)
        Rewriter.erase_op(user)
    if load.result.uses:
        value = box
        if access.transposed:
            value = b.insert(tt.TransOp(box, order=inverse, result_type=load.result.type)).result
        load.result.replace_all_uses_with(other_selected(b, load, value))


def _erase_unused(values: Sequence[SSAValue]) -> None:
    for value in values:
        if isinstance(value.owner, Operation) and value.owner.parent is not None:
            erase_dead_chain(None, value.owner)


def load_accesses(root: Operation, analysis: TileAccessAnalysis) -> list[tuple[tt.LoadOp, TileAccess | str]]:
    """Every `tt.load` in `root` (a function or a loop) inside a loop, with its box or why it
    has none (a load whose `other` is not zero qualifies where registers read it: `_read_box`
    selects `other`)."""
    found = []
    for op in root.walk():
        if isinstance(op, tt.LoadOp) and enclosing_loop(op) is not None:
            registers_only = not any(isinstance(use.operation, ttg.LocalAllocOp) for use in op.result.uses)
            try:
                found.append((op, analysis.load(op, any_other=registers_only)))
            except NotATile as exc:
                found.append((op, str(exc)))
    return found


def other_selected(b: OpBuilder, load: tt.LoadOp, value: SSAValue) -> SSAValue:
    """`value` (what TMA read, zeros where the mask is false) with the load's `other` where
    that is not zero: `select(mask, value, other)`."""
    if load.other is None or is_zero_constant(load.other):
        return value
    return b.select(load.mask, value, load.other)


@dataclass(frozen=True)
class PointerLoadsToTma(ModulePass):
    """Rewrite pointer loads that read one box of a strided tensor as TMA loads of device-made descriptors.

    Before (in a loop):

        %p = tt.addptr (splat %a_ptr), (%rows * %stride + %cols)   // + %k each iteration
        %x = tt.load %p, (%cols < %K - %k), %zero

    After:

        %desc = tt.make_tensor_descriptor %a_ptr, [%M?, %K], [%stride, 1]   // before the loop nest
        %x = tt.descriptor_load %desc[%row0, %k]

    See `ttpipe.passes.pointer_loads_to_tma` for the algorithm and
    `ttpipe.passes.analysis.tile_access` for which loads qualify; the others get a remark
    `load not turned into a TMA load: <reason>`.
    """

    name = "ttpipe-pointer-loads-to-tma"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if nvidia_compute_capability(op) < 90:
            return
        analysis = TileAccessAnalysis(ModuleAxisInfo(op))
        for func in [f for f in op.walk() if isinstance(f, tt.FuncOp)]:
            converted = []
            for load, access in load_accesses(func, analysis):
                if isinstance(access, str):
                    emit_remark(load, REMARK + access)
                elif access.guards:
                    emit_remark(load, REMARK + "its indices are kept in bounds by remsi/select, and the elements "
                                               "past the bound are not shown to be discarded")
                else:
                    converted.append((access, descriptor_encoding(load, access)))
            convert(DescriptorBuilder(func, analysis), converted)
