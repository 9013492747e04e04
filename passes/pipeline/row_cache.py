"""`ttpipe-row-cache`: a kernel that walks the same row two or more times (its statistics,
then its output: layer norm, RMS norm, softmax; a layer norm's mean, variance and output)
reads it from memory once. The first loop's TMA copies land in a shared-memory copy of the
row, which the later loops read (seed 002; issue 11's "loops in sequence").

Algorithm, for each chain of loops L1, ..., Ln (n >= 2) of one block, in order, all
innermost, without dots, with the same lower bound, upper bound and step:
  1. Cached loads: a load X1 of L1 read again by a later loop Lk: a load Xk of Lk whose TMA
     box (`TileAccessAnalysis`) is X1's, iteration for iteration: the same base, strides and
     extents, and the same coordinates once L1's iteration count stands for Lk's; neither
     with an in-bounds guard, and X1's bounds known before L1. Every later loop reads at
     least one cached load.
  2. Preconditions: from L1 to Ln, no loop but the chain's and no side effect but
     `tt.store`s whose region `TileAccessAnalysis.store` reads (boxes with every extent
     bounded, or scalar stores), all computable before L1.
  3. At run time, before L1 (an `scf.if` around L1 .. Ln, the original ops in its else
     branch): the cached version runs where L1's trip count is at most `chunks` =
     `ROW_CACHE_BYTES` / the bytes one iteration caches, and where no store of the region
     writes the cached row: its bytes lie outside the row's, or it writes, at the same
     iteration of Ln, exactly the tile Ln reads (an in-place kernel: it reads each tile
     before writing it, and no loop reads it again). A store in place in an earlier loop
     is not: a later loop would read the shared copy where the original read the new
     values.
  4. The cached version: a `chunks x box` buffer per cached load, in the descriptor's
     shared layout, and `chunks` mbarriers (count 1), initialised before L1 (then a
     `gpu.barrier`); a loop issues every chunk's TMA copies at once, one mbarrier per chunk
     expecting the chunk's bytes (seed 002: launch all stages, then consume each as it
     lands); L1 waits for chunk j's mbarrier (phase 0: each is used once) and reads it with
     `ttg.local_load`; the later loops read chunk j with no wait (L1 waited for all of them,
     in every thread); after Ln the mbarriers are invalidated and the buffers freed.

`ROW_CACHE_BYTES` is 64 KB, a third of an SM's shared memory, so that three CTAs stay
resident and the later loops' other loads (a norm's weights) keep bytes in flight: rows of
up to 32768 bf16 elements are read once; longer ones take the original loops. The copies of
L1 are issued by the CTA itself, as deep as the row: no software pipeline is needed for them.

Measured on the H100 (docs/measurements.md, 2026-11-26): 1.05-1.23x stock where the row is
32768 elements, but 0.66-0.90x where it is 8192 (the row fit in L2 already, and the buffer
takes occupancy from 8 CTAs per SM to 3) or 131072 (the original loops run, still with the
buffer's occupancy): the row's length is a run-time value and the buffer's size a
compile-time one. So `ttgir-sm90` runs this pass only with `row-cache=true`.

Loops with the same bounds that are not cached get a remark `row not cached for this loop:
<reason>` at the later one. Preconditions: sm_90 (TMA); TTGIR with layouts. Attributes:
none read or written.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, TensorType, i1, i32, i64
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint
from xdsl.traits import is_side_effect_free

from ttpipe.dialects import arith, gpu, scf, tt, ttg, ttng
from ttpipe.dialects.arith import CmpIPredicate
from ttpipe.passes.analysis.axis_info import ModuleAxisInfo
from ttpipe.passes.analysis.polynomial import Iteration, Poly
from ttpipe.passes.analysis.tile_access import NotATile, TileAccess, TileAccessAnalysis, bounded_by_loop
from ttpipe.passes.common.builder import OpBuilder
from ttpipe.passes.common.diagnostics import emit_remark
from ttpipe.passes.common.hardware import is_hopper
from ttpipe.passes.common.ir import (
    ancestor_in_block,
    ceil_trip_count,
    dominates,
    is_before_in_block,
    iteration_index,
    replace_load,
    same_bounds,
)
from ttpipe.passes.common.mma_layouts import element_bit_width
from ttpipe.passes.common.target import nvidia_compute_capability
from ttpipe.passes.pipeline.lower_loops import create_alloc, create_barrier_alloc, single_buffer_view, tile_bytes
from ttpipe.passes.pipeline.stream_loops import is_memory_loop
from ttpipe.passes.pointer_loads_to_tma import DescriptorBuilder, descriptor_encoding, other_selected

ROW_CACHE_BYTES = 64 * 1024
"""Shared memory a CTA may give a cached row (see the module docstring)."""

REMARK = "row not cached for this loop: "


@dataclass
class CachedLoad:
    """A load of the first loop and the loads of the later loops that read its tiles again."""

    first: TileAccess
    """X1's box, in L1."""
    readers: list[list[TileAccess]]
    """For each later loop L2, ..., Ln: its loads reading X1's tiles (none, one or more)."""


@dataclass
class CachedRow:
    """A chain of loops over the same row and the loads of the later ones that read the first's tiles."""

    loops: list[scf.ForOp]
    loads: list[CachedLoad]
    stores: list[tuple[tt.StoreOp, TileAccess | None]]
    """The region's stores: their boxes (None: a scalar store)."""

    @property
    def first(self) -> scf.ForOp:
        return self.loops[0]

    @property
    def last(self) -> scf.ForOp:
        return self.loops[-1]

    def reads(self, index: int) -> list[tuple[TileAccess, CachedLoad]]:
        """The cached loads loop `index` of the chain reads (L1: X1 itself), each with its load."""
        if index == 0:
            return [(load.first, load) for load in self.loads]
        return [(access, load) for load in self.loads for access in load.readers[index - 1]]

    @property
    def chunk_bytes(self) -> int:
        return sum(tile_bytes(load.first.op.result.type) for load in self.loads)

    @property
    def chunks(self) -> int:
        return ROW_CACHE_BYTES // self.chunk_bytes


def _in_terms_of(access: TileAccess, loop: scf.ForOp, other: scf.ForOp) -> list[Poly]:
    """The box's coordinates with `loop`'s iteration count written as `other`'s."""
    return [d.start.substitute(Iteration(loop), Poly.atom(Iteration(other))) for d in access.dims]


def same_box(first: TileAccess, second: TileAccess, first_loop: scf.ForOp, second_loop: scf.ForOp,
             same_base: bool = True) -> bool:
    """`first` (in `first_loop`) and `second` (in `second_loop`) read the same tiles, iteration
    for iteration (with `same_base=False`: the same tiles of two bases)."""
    return ((not same_base or first.base is second.base) and first.base_offset == second.base_offset
            and _layout(first) == _layout(second) and not first.guards and not second.guards
            and _in_terms_of(first, first_loop, second_loop) == [d.start for d in second.dims]
            and element_bit_width(first.element_type) == element_bit_width(second.element_type))


def _layout(access: TileAccess) -> list[tuple]:
    """Each dimension's tile dimension, size, stride and extent."""
    return [(d.tile_dim, d.size, d.stride, d.extent) for d in access.dims]


def walk_one_row(loops: list[scf.ForOp]) -> bool:
    """Step 1's first test: the loops are memory-bound (no dot) and have the same bounds."""
    return all(same_bounds(loops[0], loop) for loop in loops[1:]) and all(is_memory_loop(loop) for loop in loops)


def find(loops: list[scf.ForOp], analysis: TileAccessAnalysis) -> CachedRow | str:
    """Steps 1-2 for a chain of loops of one block, in order: what to cache, or why nothing."""
    first, later = loops[0], loops[1:]
    if not walk_one_row(loops):
        return "not memory-bound loops with the same bounds"
    loads: list[CachedLoad] = []
    later_boxes = [_load_boxes(loop, analysis) for loop in later]
    for a1 in _load_boxes(first, analysis):
        if a1.transposed or not all(dominates(v, first) for v in _values(a1)):
            continue
        readers = [[a2 for a2 in boxes if same_box(a1, a2, first, loop)] for loop, boxes in zip(later, later_boxes)]
        if any(readers):
            loads.append(CachedLoad(a1, readers))
    if not loads:
        return "no load of a later loop reads the first's tiles"
    for position in range(len(later)):
        if not any(load.readers[position] for load in loads):
            return f"loop {position + 2} of {len(loops)} reads none of the first's tiles"
    stores: list[tuple[tt.StoreOp, TileAccess | None]] = []
    for op in (nested for top in _region(first, loops[-1]) for nested in top.walk()):
        if isinstance(op, (scf.ForOp, scf.WhileOp)) and op not in loops:
            return f"a loop between them ('{op.name}')"
        if isinstance(op, tt.StoreOp):
            try:
                box = analysis.store(op) if isinstance(op.value.type, TensorType) else None
            except NotATile as exc:
                return f"a store whose region is not known ({exc})"
            if box is not None and isinstance(loop := op.parent_op(), scf.ForOp):
                box = bounded_by_loop(box, loop)
            if box is not None and (any(d.extent is None for d in box.dims)
                                    or not all(dominates(v, first) for v in _values(box))):
                return "a store whose region is not known before the first loop"
            stores.append((op, box))
        elif not is_side_effect_free(op) and not isinstance(op, (tt.LoadOp, scf.YieldOp, scf.ForOp)):
            return f"'{op.name}' between the loops"
    row = CachedRow(list(loops), loads, stores)
    if row.chunks < 2:
        return f"one iteration caches {row.chunk_bytes} bytes; {ROW_CACHE_BYTES} hold fewer than two"
    return row


def _load_boxes(loop: scf.ForOp, analysis: TileAccessAnalysis) -> list[TileAccess]:
    """The boxes of the loads in `loop`'s body that are tiles."""
    boxes = []
    for op in loop.body.ops:
        if isinstance(op, tt.LoadOp):
            try:
                boxes.append(bounded_by_loop(analysis.load(op, any_other=True), loop))
            except NotATile:
                continue
    return boxes


def in_place(row: CachedRow, box: TileAccess, store: tt.StoreOp) -> list[CachedLoad]:
    """The cached loads of which the store writes, in the chain's last loop, exactly the tile
    that loop reads (step 3's in-place kernel), through any pointer (the run-time condition
    compares the rows' addresses)."""
    if ancestor_in_block(row.last.body, store) is None:
        return []
    return [load for access, load in row.reads(len(row.loops) - 1)
            if same_box(access, box, row.last, row.last, same_base=False)]


def rewritten_early(row: CachedRow, box: TileAccess, store: tt.StoreOp) -> CachedLoad | None:
    """The cached load whose row the store rewrites before the last loop: in the body of a loop
    Lk of the chain but the last, it writes X1's tile of Lk's iteration (X1's base and box,
    iteration for iteration), so that the loops after Lk must read what it stored (the ring
    forwards it, `ttpipe-row-ring` step 5). None where it does not."""
    loop = store.parent_op()
    if loop not in row.loops[:-1]:
        return None
    return next((load for load in row.loads if same_box(load.first, box, row.first, loop)), None)


def _region(first: scf.ForOp, second: scf.ForOp) -> list[Operation]:
    """The ops of the loops' block from `first` to `second`, both included."""
    return [op for op in first.parent_block().ops
            if not is_before_in_block(op, first) and not is_before_in_block(second, op)]


def _values(access: TileAccess) -> list[SSAValue]:
    """The SSA values a box's base, extents and strides read."""
    polys = [access.base_offset, *(d.stride for d in access.dims), *(d.extent for d in access.dims if d.extent)]
    return [access.base, *(a for p in polys for a in p.atoms() if isinstance(a, SSAValue))]


class _Builder:
    """Scalars of the run-time condition (step 3), at `b`'s point."""

    def __init__(self, b: OpBuilder, descriptors: DescriptorBuilder):
        self.b = b
        self.descriptors = descriptors

    def byte_range(self, access: TileAccess) -> tuple[SSAValue, SSAValue]:
        """[first, last] byte address a box's tiles cover (extents bounded, coordinates >= 0)."""
        b = self.b
        element_bytes = element_bit_width(access.element_type) // 8
        base = b.insert(tt.PtrToIntOp(access.base, result_type=i64)).result
        span = access.base_offset.scaled(element_bytes)
        first = b.addi(base, self.descriptors.materialize(b, span, i64))
        reach = Poly.constant(element_bytes - 1)
        for dim in access.dims:
            reach = reach + (dim.extent - Poly.constant(1)) * dim.stride.scaled(element_bytes)
        return first, b.addi(first, self.descriptors.materialize(b, reach, i64))

    def address(self, store: tt.StoreOp, analysis: TileAccessAnalysis) -> tuple[SSAValue, SSAValue]:
        """[first, last] byte address a scalar store writes."""
        b = self.b
        pointer = analysis.pointer(store.ptr, None)
        element_bytes = element_bit_width(store.value.type) // 8
        base = b.insert(tt.PtrToIntOp(pointer.base, result_type=i64)).result
        first = b.addi(base, self.descriptors.materialize(b, pointer.offset.poly.scaled(element_bytes), i64))
        return first, b.addi(first, b.constant(element_bytes - 1, i64))



def disjoint(b: OpBuilder, a: tuple[SSAValue, SSAValue], c: tuple[SSAValue, SSAValue]) -> SSAValue:
    """An i1: the byte ranges [first, last] `a` and `c` do not overlap."""
    return b.insert(arith.OrIOp(b.cmpi(CmpIPredicate.slt, a[1], c[0]), b.cmpi(CmpIPredicate.slt, c[1], a[0]))).result


def condition(row: CachedRow, b: OpBuilder, descriptors: DescriptorBuilder, analysis: TileAccessAnalysis) -> SSAValue:
    """Step 3: the i1 under which the cached version runs."""
    ok = b.cmpi(CmpIPredicate.sle, ceil_trip_count(b, row.first), b.constant(row.chunks, i32))
    ranges = _Builder(b, descriptors)
    rewrites = [in_place(row, box, store) if box is not None else [] for store, box in row.stores]
    for load in row.loads:
        row_range = ranges.byte_range(load.first)
        for (store, box), rewritten in zip(row.stores, rewrites):
            if box is None:
                safe = disjoint(b, ranges.address(store, analysis), row_range)
            else:
                store_range = ranges.byte_range(box)
                safe = disjoint(b, store_range, row_range)
                if load in rewritten:
                    same = b.cmpi(CmpIPredicate.eq, store_range[0], row_range[0])
                    safe = b.insert(arith.OrIOp(safe, same)).result
            ok = b.insert(arith.AndIOp(ok, safe)).result
    return ok


def cache(row: CachedRow, analysis: TileAccessAnalysis, descriptors: DescriptorBuilder) -> None:
    """Steps 3-4 for one chain of loops."""
    first = row.first
    block = first.parent_block()
    region = _region(first, row.last)
    escaping = [r for op in region for r in op.results
                if any(ancestor_in_block(block, u.operation) not in region for u in r.uses)]
    b = OpBuilder(InsertPoint.before(first), first.location)
    cached = condition(row, b, descriptors, analysis)
    then_block, else_block = Block(), Block()
    if_op = b.insert(scf.IfOp(cached, [r.type for r in escaping], Region(then_block), Region(else_block)))
    mapping: dict[SSAValue, SSAValue] = {}
    for op in region:
        else_block.add_op(op.clone(value_mapper=mapping))
    else_block.add_op(scf.YieldOp(*(mapping[r] for r in escaping)))
    for op in region:
        op.detach()
        then_block.add_op(op)
    then_block.add_op(scf.YieldOp(*escaping))
    for index, result in enumerate(escaping):
        result.replace_uses_with_if(if_op.results[index],
                                    lambda use: ancestor_in_block(block, use.operation) is not if_op)
    _read_from_shared_memory(row, if_op, descriptors)


def _read_from_shared_memory(row: CachedRow, if_op: scf.IfOp, descriptors: DescriptorBuilder) -> None:
    """Step 4, in the `scf.if`'s then branch that now holds the original loops."""
    first, last = row.first, row.last
    chunks = row.chunks
    barriers = create_barrier_alloc(first, chunks, last=last)
    buffers = []
    for load in row.loads:
        access = load.first
        encoding = descriptor_encoding(access.op, access)
        buffer = create_alloc(first, access.op.result.type, access.op.location, encoding, chunks, last=last)
        buffers.append((replace(access, scope=if_op), encoding, buffer))
    b = OpBuilder(InsertPoint.before(first), first.location)
    b.insert(gpu.BarrierOp())
    _issue_all(row, b, barriers, buffers, descriptors)
    for (access, _, buffer), load in zip(buffers, row.loads):
        _replace_load(access.op, first, buffer, barriers, wait=True)
        for loop, readers in zip(row.loops[1:], load.readers):
            for reader in readers:
                _replace_load(reader.op, loop, buffer, barriers, wait=False)


def _issue_all(row: CachedRow, b: OpBuilder, barriers: SSAValue, buffers, descriptors: DescriptorBuilder) -> None:
    """The loop that issues every chunk's TMA copies, one mbarrier per chunk."""
    first = row.first
    body = Block(arg_types=[i32])
    b.insert(scf.ForOp(b.constant(0, i32), ceil_trip_count(b, first), b.constant(1, i32), [], body=body))
    ib = OpBuilder(InsertPoint.at_end(body), first.location)
    chunk = body.args[0]
    barrier = single_buffer_view(ib, barriers, chunk)
    true = ib.constant(1, i1)
    ib.insert(ttng.BarrierExpectOp(barrier, true, size=row.chunk_bytes))
    for access, encoding, buffer in buffers:
        desc = descriptors.descriptor(access, encoding)
        chunk_box = replace(access, dims=tuple(replace(d, start=d.start.substitute(Iteration(first), Poly.atom(chunk)))
                                               for d in access.dims))
        coords = descriptors.coordinates(ib, chunk_box, desc)
        ib.insert(ttng.AsyncTMACopyGlobalToLocalOp(desc.value, coords, barrier, single_buffer_view(ib, buffer, chunk),
                                                  true))
    ib.insert(scf.YieldOp())


def _replace_load(load: tt.LoadOp, loop: scf.ForOp, buffer: SSAValue, barriers: SSAValue, wait: bool) -> None:
    """The load reads chunk j (this iteration's) of `buffer`, after its mbarrier where `wait`."""
    b = OpBuilder(InsertPoint.before(load), load.location)
    chunk = iteration_index(b, loop)
    if wait:
        b.insert(ttng.WaitBarrierOp(single_buffer_view(b, barriers, chunk), b.constant(0, i32)))
    value = b.insert(ttg.LocalLoadOp(single_buffer_view(b, buffer, chunk), result_type=load.result.type)).result
    replace_load(load, other_selected(b, load, value))


@dataclass(frozen=True)
class RowCache(ModulePass):
    """Read a row that two or more loops walk once: the first loop's TMA copies land in shared memory, the later loops read them there.

    Before:

        scf.for %off = %0 to %n step %B { %x = tt.load %row[%off..] ; sums }
        scf.for %off = %0 to %n step %B { %x = tt.load %row[%off..] ; tt.store %out[%off..] }

    After:

        scf.if (%n fits in 64 KB and %out does not overlap %row but in place) {
          issue every chunk's TMA copy into a K x B buffer, an mbarrier each
          scf.for ... { wait chunk j ; %x = ttg.local_load chunk j ; sums }
          scf.for ... { %x = ttg.local_load chunk j ; tt.store %out[%off..] }
        } else { the loops as they were }

    See `ttpipe.passes.pipeline.row_cache` for the algorithm and the preconditions.
    """

    name = "ttpipe-row-cache"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if not is_hopper(nvidia_compute_capability(op)):
            return
        analysis = TileAccessAnalysis(ModuleAxisInfo(op))
        for func in [f for f in op.walk() if isinstance(f, tt.FuncOp)]:
            descriptors = DescriptorBuilder(func, analysis)
            for row in _rows(func, analysis):
                cache(row, analysis, descriptors)


def _rows(func: tt.FuncOp, analysis: TileAccessAnalysis) -> list[CachedRow]:
    """The chains of loops to cache, each loop in at most one: from each first loop, the later
    loops of its block in order, as long as the chain stays cacheable."""
    rows: list[CachedRow] = []
    taken: set[scf.ForOp] = set()
    loops = [op for op in func.walk() if isinstance(op, scf.ForOp)]
    for first in loops:
        if first in taken:
            continue
        chain, row = [first], None
        for later in loops:
            if later in taken or later.parent_block() is not first.parent_block() \
                    or not is_before_in_block(first, later):
                continue
            found = find([*chain, later], analysis)
            if isinstance(found, CachedRow):
                chain, row = [*chain, later], found
            elif row is not None:
                break
            elif same_bounds(first, later) and is_memory_loop(first) and is_memory_loop(later):
                emit_remark(later, REMARK + found)
        if row is not None:
            rows.append(row)
            taken.update(row.loops)
    return rows
