"""Attention-shaped loops for Hopper warp specialization: which loops they are, and what
phase 1 checks before stamping one (`attention_lowering.py` builds it).

An attention-shaped loop (FlashAttention's forward inner loop as Triton users write it)
is an `scf.for` at the top level of its function whose body holds TMA tile loads (K, V:
`tt.descriptor_load` into a `ttg.local_alloc` of the descriptor's encoding, or pointer
loads phase 1 has turned into them), `ttng.warp_group_dot`s, and side-effect-free tensor
ops between them (the online softmax), and whose tensor iteration arguments (running
max, running sum, output accumulator) are computed from those. Concretely:

  - the first wgmma of the body (S = Q K^T) has its result read in the iteration: it is
    waited for at once (`warp_group_dot_wait {pendings = 0}`), which also retires the
    previous iteration's wgmmas, so the consumer releases the previous iteration's stage
    right after it;
  - a wgmma whose result is only yielded (O += P V) stays in flight into the next
    iteration; every read of its iteration argument in the body comes after the first
    wgmma (its wait forwards it), and after the loop one wait flushes it (seed 001);
  - every wgmma reads B from a loaded tile (a ring stage); A either from registers (P) or
    from a tile loaded once before the loop (Q: `tt.descriptor_load` into a
    `ttg.local_alloc`, read only by the loop's wgmmas), which the producer brings by TMA
    into its own buffer with its own mbarrier;
  - the only other ops with regions are `tt.reduce`s; side effects only the TMA loads;
  - before the loop, no side effect but the Q loads (each program is independent: the
    lowering may reorder them, `heavy_first_axes`);
  - the loop may be followed by more key loops (`sequence`: the tutorial's causal kernel
    runs the blocks below the diagonal, then the diagonal block), separated only by
    side-effect-free ops without regions, each such a loop itself, loading the same tiles
    (they share one ring);
  - after the last loop up to a bare `tt.return`: side-effect-free ops and stores of rows
    (`tt.store`, `tt.descriptor_store` of a value whose rows are split along axis 0);
  - with `ttg.num-warps = 4 C`, C > 1: the C warpgroups each take `rows / C` rows of the
    tile (`row_split.py`'s analysis must split every tensor of the loops and epilogue),
    one `tt.func` per module (the module's `ttg.num-warps` becomes 4);
  - the ring (`stages x (K + V tiles)`, two mbarriers per stage), the Q buffer and its
    mbarrier, the turn mbarriers, with C > 1 the staging tile (the Q buffer where the
    layouts match, `AttentionLoop.query_staging`) and mbarrier of each TMA store (with
    C = 1 the tile Triton's TMA lowering stages it in), and the shared scratch of the
    consumers' layout conversions (`scratch_bytes`: O converted for pointer stores, unless
    it goes through the Q buffer, `AttentionLoop.query_routing`) fit in shared memory with
    `stages` the loop's `tt.num_stages` (or the option), lowered while it does not fit, at
    least 2.

`mode=auto` also asks `unprofitable` (BLOCK_N x HEAD_DIM >= `MIN_KEY_BLOCK_WORK`) beyond
`partition.unprofitable`'s two consumer warpgroups.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from functools import cached_property
from math import inf, prod

from xdsl.dialects.builtin import IntegerType, ModuleOp, TensorType, i32
from xdsl.ir import Operation, SSAValue
from xdsl.traits import is_side_effect_free

from ttpipe.dialects import arith, scf, tt, ttg, ttng
from ttpipe.dialects.arith import CmpIPredicate
from ttpipe.dialects.ttg_types import MemDescType
from ttpipe.passes.common.arith_canonicalize import constant_attr, splat_of
from ttpipe.passes.common.hardware import (
    MBARRIER_BYTES,
    REGISTER_BITS,
    SM90_MAX_SHARED_MEMORY_PER_BLOCK,
    THREADS_PER_WARPGROUP,
)
from ttpipe.passes.common.ir import ancestor_in_block, is_before_in_block
from ttpipe.passes.common.mma_layouts import element_bit_width
from ttpipe.passes.pipeline.lower_loops import MEMDESC_VIEWS, Unsupported, encoding_from_descriptor, tile_bytes
from ttpipe.passes.pipeline.pipelining_utility import is_defined_outside_loop, num_stages_or_default
from ttpipe.passes.warp_specialize.cooperative import Refused, consumer_warpgroups
from ttpipe.passes.warp_specialize.pingpong import PING_PONG_WARPGROUPS
from ttpipe.passes.warp_specialize.row_split import RowSplit
from ttpipe.passes.warp_specialize.tma_pipeline import (
    MIN_STAGES,
    deepest_ring,
    reaches_alloc,
    ring_bytes,
    ring_tile_alloc,
    scratch_bytes,
    stage_bytes,
)

ATTENTION = "ttpipe.attention"
"""Phase 1's mark on an attention-shaped loop it stamped (phase 2 lowers it with
`attention_lowering.py`)."""

RESHAPES = (tt.ExpandDimsOp, tt.BroadcastOp, ttg.ConvertLayoutOp)
"""Ops that only move a tensor's elements between shapes or layouts: cheaper to recompute
where read than to keep the larger result in registers across an iteration."""


@dataclass
class KeyLoop:
    """One attention-shaped loop over key blocks: its TMA loads (K, V), wgmmas (S = Q K^T
    first) and the iteration arguments its in-flight wgmma carries."""

    loop: scf.ForOp
    loads: list[tt.DescriptorLoadOp]
    """The TMA tile loads of the body (K, V), in order."""
    tiles: dict[tt.DescriptorLoadOp, ttg.LocalAllocOp]
    dots: list[ttng.WarpGroupDotOp]
    in_flight: list[int]
    """Iteration arguments (by position) carrying a wgmma result across iterations."""
    overlap: SoftmaxOverlap | None = None
    """The body's split for the intra-warpgroup overlap, where it has that shape."""

    @property
    def stage_bytes(self) -> int:
        return stage_bytes(self.loads)


@dataclass
class AttentionLoop:
    """What recognition found: one attention-shaped loop, or a sequence of them (Triton's
    tutorial runs the blocks below a causal diagonal in one loop and the diagonal block in
    the next), each taking the running max, sum and output from the one before."""

    keys: list[KeyLoop]
    queries: dict[ttg.LocalAllocOp, tt.DescriptorLoadOp]
    """The tiles loaded once before the loops (Q), by their allocation."""
    between: list[list[Operation]]
    """The ops between key loop k and key loop k + 1 (side-effect-free, no regions)."""
    epilogue: list[Operation]
    """The ops after the last loop, up to the `tt.return`."""
    split: RowSplit
    stages: int = 0
    asked_stages: int = 0
    """The loop's `tt.num_stages` (or the option); `stages` is less where that ring does not fit."""
    stores: list[tt.DescriptorStoreOp] = field(default_factory=list)
    """The epilogue's TMA stores (staged through shared memory with C > 1)."""

    @property
    def loop(self) -> scf.ForOp:
        """The first loop: the ring, the Q buffer and `ttg.warp_specialize` go before it."""
        return self.keys[0].loop

    @property
    def stage_bytes(self) -> int:
        """The bytes of one ring stage (every key loop loads the same tiles)."""
        return self.keys[0].stage_bytes

    def shared_bytes(self, stages: int) -> int:
        """Shared memory: the ring of `stages` and what lives beside it (`beside_ring_bytes`)."""
        return ring_bytes(stages, self.stage_bytes) + self.beside_ring_bytes

    @cached_property
    def beside_ring_bytes(self) -> int:
        """The Q tiles and their mbarrier, the turn mbarriers, the staging tiles (with one
        warpgroup, the tile Triton's TMA lowering stages each store in), and the scratch of
        every layout conversion the consumers run (`scratch_bytes`), all live with the ring
        inside `ttg.warp_specialize`."""
        queries = stage_bytes(list(self.queries.values())) + MBARRIER_BYTES
        turns = PING_PONG_WARPGROUPS * MBARRIER_BYTES
        if self.split.warpgroups > 1:
            staging = sum((0 if self.query_staging(store) else tile_bytes(store.src.type)) + MBARRIER_BYTES
                          for store in self.stores)
        else:
            staging = sum(tile_bytes(store.src.type) for store in self.stores)
        ops = [op for key in self.keys for op in key.loop.body.ops] + \
            [op for ops in self.between for op in ops] + self.epilogue
        scratch = sum(scratch_bytes(op) for op in ops if self.query_routing(op) is None)
        return queries + turns + staging + scratch

    def query_routing(self, op: Operation) -> ttg.LocalAllocOp | None:
        """The Q tile whose buffer can carry the epilogue's layout conversion `op` in place
        of Triton's scratch (O converted to a coalesced layout for pointer stores): a
        `ttg.convert_layout` after the loops that needs shared memory (`scratch_bytes`),
        whose result has the Q tile's shape and element type, split by rows, where no TMA
        store is staged in that buffer. Each warpgroup writes its rows (`local_store`) where
        its rows of Q were and reads them back in the new layout (`local_load`)."""
        if not isinstance(op, ttg.ConvertLayoutOp) or op not in self.epilogue or not scratch_bytes(op):
            return None
        if self.split.axes.get(op.result) != 0:
            return None
        staged = {self.query_staging(store) for store in self.stores}
        return next((alloc for alloc in self._queries_holding(op.result.type) if alloc not in staged), None)

    def query_staging(self, store: tt.DescriptorStoreOp) -> ttg.LocalAllocOp | None:
        """The Q tile whose buffer can stage `store` (O): the same shape, element type and
        shared layout. Each warpgroup writes its rows of O where its rows of Q were, which
        only its own wgmmas read, all flushed before its epilogue; the producer loads Q
        once, before the loop."""
        tile = store.src.type
        try:
            encoding = encoding_from_descriptor(tile, store.desc)
        except Unsupported:
            return None
        return next((alloc for alloc in self._queries_holding(tile) if alloc.result.type.encoding == encoding), None)

    def _queries_holding(self, tile: TensorType) -> list[ttg.LocalAllocOp]:
        """The Q tiles whose buffers have `tile`'s shape and element type."""
        return [alloc for alloc in self.queries
                if list(alloc.result.type.shape) == list(tile.get_shape())
                and alloc.result.type.element_type == tile.element_type]


@dataclass(frozen=True)
class IndexRange:
    """An i32 index tensor holding `base + [start, end)` along one dimension (and the same
    along the others): `splat(base) + make_range(start, end)` through expand_dims,
    broadcast and layout conversions; a splat alone is `[base, base + 1)`. `base` None: 0."""

    base: SSAValue | None
    start: int
    end: int


def _through_reshapes(value: SSAValue) -> Operation | None:
    """The op computing `value`, looking through `RESHAPES` (None: a block argument)."""
    op = value.owner
    while isinstance(op, RESHAPES):
        op = op.operands[0].owner
    return op if isinstance(op, Operation) else None


def index_range(value: SSAValue) -> IndexRange | None:
    """`value` as an `IndexRange`, or None where it is not one."""
    op = _through_reshapes(value)
    if isinstance(op, tt.MakeRangeOp):
        return IndexRange(None, op.start.value.data, op.end.value.data)
    if isinstance(op, tt.SplatOp) and isinstance(op.src.type, IntegerType):
        return IndexRange(op.src, 0, 1)
    if isinstance(op, arith.AddIOp):
        ranges = [index_range(v) for v in op.operands]
        if None not in ranges:
            splat = [r for r in ranges if r.base is not None]
            plain = [r for r in ranges if r.base is None or r.end - r.start > 1]
            if len(splat) == 1 and len(plain) == 1 and splat[0] is not plain[0]:
                return IndexRange(splat[0].base, plain[0].start, plain[0].end)
    return None


ALL_TRUE_BOUNDS = {
    CmpIPredicate.sge: (False, True), CmpIPredicate.uge: (False, True),
    CmpIPredicate.sgt: (False, True), CmpIPredicate.ugt: (False, True),
    CmpIPredicate.sle: (True, False), CmpIPredicate.ule: (True, False),
    CmpIPredicate.slt: (True, False), CmpIPredicate.ult: (True, False),
}
"""For `lhs PRED rhs` over two index ranges: which end of each (True: the last element,
False: the first) decides that the comparison holds for every pair (`a >= b` everywhere iff
min a >= max b; `a < b` everywhere iff max a < min b)."""


@dataclass(frozen=True)
class TileMask:
    """An `arith.select(mask, x, y)` whose mask is a conjunction of comparisons of index
    ranges (a causal mask `rows >= cols`, a bound `cols < seq_len`): where each comparison
    holds at its decisive ends, the mask is all true and the select is `x`."""

    select: arith.SelectOp
    comparisons: tuple[tuple[CmpIPredicate, IndexRange, bool, IndexRange, bool], ...]
    """(predicate, lhs range, lhs at its last element, rhs range, rhs at its last element)."""


def tile_mask(select: arith.SelectOp) -> TileMask | None:
    """`select` as a `TileMask`, or None."""
    comparisons = []
    pending = [select.condition]
    while pending:
        op = _through_reshapes(pending.pop())
        if isinstance(op, arith.AndIOp):
            pending += op.operands
            continue
        if not isinstance(op, arith.CmpIOp):
            return None
        predicate = CmpIPredicate(op.predicate.value.data)
        lhs, rhs = index_range(op.lhs), index_range(op.rhs)
        if predicate not in ALL_TRUE_BOUNDS or lhs is None or rhs is None or op.lhs.type.element_type != i32:
            return None
        comparisons.append((predicate, lhs, ALL_TRUE_BOUNDS[predicate][0], rhs, ALL_TRUE_BOUNDS[predicate][1]))
    return TileMask(select, tuple(comparisons))


@dataclass
class SoftmaxOverlap:
    """FlashAttention-3's intra-warpgroup overlap of one body: iteration j + 1's `head`
    (the ops up to S = Q K^T, issued) and iteration j's `update` (the ops reading the
    accumulator, ending in O += P V, issued) go to the tensor cores back to back, then
    iteration j + 1's `tail` (the softmax) may run while P V computes. (ptxas waits for P V
    before the softmax: it packs the next P, as the exponents come, into the registers the
    wgmma in flight reads. Converting P after that wait instead measured 1-4 % slower:
    docs/measurements.md, twenty-eighth session.) `crossing`: the values the tail computes
    that the update reads (P, the rescale factor), carried from one rotated iteration to the
    next."""

    head: list[Operation]
    update: list[Operation]
    """The update's ops, after the loaded tiles' allocations and views it reads (rebuilt
    at the stage of the iteration it updates)."""
    tail: list[Operation]
    crossing: list[SSAValue]
    masks: list[TileMask] = field(default_factory=list)
    """The tail's masked selects (`TileMask`): the consumer runs the tail without them in
    the iterations where their masks are all true (the blocks below a causal diagonal)."""


def overlap_plan(found: KeyLoop) -> SoftmaxOverlap | None:
    """The overlap split of `found`'s body, or None where the body has another shape
    (then the consumer runs it in order): two wgmmas, the second in flight across
    iterations through one iteration argument (the accumulator); `update` = the ops
    depending on that argument (the accumulator's rescale and the second wgmma), which
    read no induction variable and no TMA load, together with the reshapes (`RESHAPES`)
    only they read; no other iteration argument is computed from them; every value they
    read from the rest (but the loaded tiles' views, rebuilt per stage) is computed after
    the first wgmma."""
    loop = found.loop
    if len(found.dots) != 2 or len(found.in_flight) != 1:
        return None
    body = [op for op in loop.body.ops if not isinstance(op, scf.YieldOp)]
    accumulator = loop.body.args[1 + found.in_flight[0]]
    update: list[Operation] = []
    tainted = {accumulator}
    for op in body:
        if any(v in tainted for v in op.operands):
            update.append(op)
            tainted.update(op.results)
    if found.dots[1] not in update or found.dots[0] in update:
        return None
    # Reshapes of what the update reads (the rescale factor's expand_dims, broadcast and
    # layout conversion) are recomputed in it, so the loop carries the row vector, not the
    # broadcast tile.
    moved = True
    while moved:
        moved = False
        for op in body:
            if (op not in update and isinstance(op, RESHAPES) and op.results[0].uses
                    and all(use.operation in update for use in op.results[0].uses)):
                update.append(op)
                moved = True
    update = [op for op in body if op in update]
    position = body.index(found.dots[0])
    head = [op for op in body[:position + 1] if op not in update]
    tail = [op for op in body[position + 1:] if op not in update]
    views = set(found.tiles.values()) | {op for op in body if isinstance(op, MEMDESC_VIEWS)}
    crossing: list[SSAValue] = []
    read_views: set[Operation] = set()
    inside = set(update)
    for op in update:
        if isinstance(op, (tt.DescriptorLoadOp, ttg.LocalAllocOp)) or loop.body.args[0] in op.operands:
            return None
        for value in op.operands:
            owner = value.owner
            if value in tainted or owner in inside or not isinstance(owner, Operation) \
                    or owner.parent_block() is not loop.body:
                continue
            if owner in views:
                while owner in views and owner not in read_views:
                    read_views.add(owner)
                    owner = owner.src.owner if isinstance(owner, MEMDESC_VIEWS) else None
                continue
            if owner in head:
                return None  # the head of the next iteration would overwrite it before the update reads it
            if value not in crossing:
                crossing.append(value)
    yielded = loop.body.last_op.operands
    if any(value in tainted for index, value in enumerate(yielded) if index not in found.in_flight):
        return None  # another iteration argument computed from the accumulator
    masks = [mask for op in tail if isinstance(op, arith.SelectOp) and (mask := tile_mask(op)) is not None]
    return SoftmaxOverlap(head, [op for op in body if op in read_views] + update, tail, crossing, masks)


@dataclass(frozen=True)
class ScaledRowMax:
    """A max reduction of scaled scores, `tt.reduce(max)` of `arith.mulf(s, splat(c))` with c a
    scalar from outside the loop (`softmax(S * sm_scale)` as users write it) or a splat
    constant, or of a masked select of that product against -inf (`tl.where(mask, S *
    sm_scale, -inf)`, a causal kernel's). Where 0 < c < inf, x -> round(x c) is
    non-decreasing, so max_j round(s_j c) = round(c max_j s_j) bit for bit (NaNs as before: a
    NaN score stays NaN scaled), and a masked entry is -inf scaled or not (c (-inf) = -inf; a
    row all masked has the max -inf either way); the consumer then reduces s (masked alike)
    and scales the row vector, and the scaled tile feeds only the exponent, where the
    multiply and the subtraction of the max fuse into one FFMA (one FMUL fewer per score).
    For c <= 0, c = inf or NaN it would be wrong (max(s c) is then min(s) c, or a NaN where
    a score is 0): a run-time c puts the consumer in two versions on c
    (`attention_lowering.consumer_block`); a constant c is taken only in (0, inf), with no
    version. Another fill than -inf is not taken: round(f / c) c need not be f."""

    reduce: tt.ReduceOp
    scores: SSAValue
    scale: SSAValue
    """The scalar c, or the splat constant tile of it."""
    product: SSAValue
    """s c, the reduce's operand or the masked select's."""
    masked: arith.SelectOp | None = None
    """The select of the product against -inf between it and the reduce, if any."""
    known: float | None = None
    """c where it is a constant (then in (0, inf))."""

    @property
    def ops(self) -> list[Operation]:
        """The ops the consumer builds otherwise when it takes the max before the scale."""
        return [op for op in (self.reduce, self.product.owner, self.masked) if op is not None]


MAX_COMBINERS = (arith.MaxNumFOp, arith.MaximumFOp)


def scaled_row_maxes(found: AttentionLoop) -> list[ScaledRowMax]:
    """The `ScaledRowMax`es of the key loops' bodies."""
    return [scaled for key in found.keys for op in key.loop.body.ops
            if isinstance(op, tt.ReduceOp) and (scaled := scaled_row_max(op, key.loop)) is not None]


def scaled_row_max(reduce: tt.ReduceOp, loop: scf.ForOp) -> ScaledRowMax | None:
    """`reduce` as a `ScaledRowMax` of `loop`'s body, or None."""
    combiner = list(reduce.combineOp.blocks[0].ops)
    if len(reduce.srcs) != 1 or len(combiner) != 2 or not isinstance(combiner[0], MAX_COMBINERS):
        return None
    product, masked = reduce.srcs[0], None
    if isinstance(product.owner, arith.SelectOp):
        masked = product.owner
        if is_negative_infinity(masked.false_value):
            product = masked.true_value
        elif is_negative_infinity(masked.true_value):
            product = masked.false_value
        else:
            return None
    multiply = product.owner
    if not isinstance(multiply, arith.MulFOp):
        return None
    for scores, factor in ((multiply.lhs, multiply.rhs), (multiply.rhs, multiply.lhs)):
        owner = factor.owner
        if isinstance(owner, tt.SplatOp) and is_defined_outside_loop(owner.src, loop):
            return ScaledRowMax(reduce, scores, owner.src, product, masked)
        known = splat_of(constant_attr(factor))
        if isinstance(known, float) and 0 < known < inf:
            return ScaledRowMax(reduce, scores, factor, product, masked, known)
    return None


def is_negative_infinity(value: SSAValue) -> bool:
    """`value` is a constant -inf (a scalar or a splat)."""
    return splat_of(constant_attr(value)) == -inf


def is_attention_shaped(loop: scf.ForOp) -> bool:
    """A loop of two or more wgmmas (S = Q K^T, O += P V), one whose result the iteration
    reads other than as another wgmma's accumulator (the softmax reading S): attention-shaped,
    if anything. A GEMM's K loop only yields its wgmma results; a persistent GEMM flattened
    by `tritongpu-fuse-nested-loops` reads its one wgmma's result in its epilogue."""
    if sum(isinstance(op, ttng.WarpGroupDotOp) for op in loop.body.ops) < 2:
        return False
    for op in loop.body.ops:
        if isinstance(op, ttng.WarpGroupDotOp):
            for reader in read_in_body(op.d, loop):
                if not (isinstance(reader, ttng.WarpGroupDotOp) and reader.c is op.d):
                    return True
    return False


def read_in_body(value: SSAValue, loop: scf.ForOp) -> list[Operation]:
    """The ops of `loop`'s body (at any depth) reading `value`, but its yield."""
    readers = [ancestor_in_block(loop.body, use.operation) for use in value.uses]
    return [op for op in readers if op is not None and not isinstance(op, scf.YieldOp)]


def key_loop(loop: scf.ForOp) -> KeyLoop:
    """The key loop `loop` (its body's conditions in the module docstring), or `Refused`."""
    loads, tiles, dots = [], {}, []
    for op in loop.body.ops:
        if isinstance(op, scf.YieldOp):
            continue
        if isinstance(op, tt.DescriptorLoadOp):
            loads.append(op)
            tiles[op] = ring_tile_alloc(op)
        elif isinstance(op, ttng.WarpGroupDotOp):
            dots.append(op)
        elif op.regions and not isinstance(op, tt.ReduceOp):
            raise Refused(f"'{op.name}' in the body (nested loops and control flow)")
        elif not isinstance(op, (ttg.LocalAllocOp, *MEMDESC_VIEWS)) and not is_side_effect_free(op):
            raise Refused(f"'{op.name}' has side effects")
    if not loads:
        raise Refused("no TMA descriptor load in the body")
    allocs = set(tiles.values())
    for op in loop.body.ops:
        if isinstance(op, ttg.LocalAllocOp) and op not in allocs:
            raise Refused("a ttg.local_alloc in the body that is not a TMA load's (shared-memory P is a later round)")
    if not dots[0].d.uses or not read_in_body(dots[0].d, loop):
        raise Refused("the first wgmma's result is not read in the iteration (not attention-shaped)")
    for dot in dots:
        if not reaches_alloc(dot.b.owner, allocs):
            raise Refused("a wgmma whose B operand is not a tile loaded in the loop")
    yielded = loop.body.last_op.operands
    in_flight = []
    for index, (arg, value) in enumerate(zip(loop.body.args[1:], yielded)):
        owner = value.owner
        if isinstance(owner, ttng.WarpGroupDotOp) and owner in dots and not read_in_body(value, loop):
            in_flight.append(index)
            if any(not is_before_in_block(dots[0], reader) for reader in read_in_body(arg, loop)):
                raise Refused("the previous iteration's wgmma result is read before the first wgmma's wait")
    found = KeyLoop(loop, loads, tiles, dots, in_flight)
    found.overlap = overlap_plan(found)
    return found


def sequence(loop: scf.ForOp) -> tuple[list[scf.ForOp], list[list[Operation]]]:
    """`loop` and the attention-shaped loops that follow it in its block, each separated from
    the one before only by side-effect-free ops without regions; and those ops per gap."""
    loops, between, gap = [loop], [], []
    op = loop.next_op
    while op is not None:
        if isinstance(op, scf.ForOp) and is_attention_shaped(op):
            loops.append(op)
            between.append(gap)
            gap = []
        elif op.regions or not is_side_effect_free(op):
            break
        else:
            gap.append(op)
        op = op.next_op
    return loops, between


def recognize(loop: scf.ForOp, default_stages: int) -> AttentionLoop:
    """The attention-shaped loop `loop` with the key loops that follow it (`sequence`), or
    `Refused` with the reason (the module docstring lists the conditions)."""
    func = loop.parent_op()
    if not isinstance(func, tt.FuncOp) or loop.parent_block() is not func.body.blocks[0]:
        raise Refused("an attention loop must be at the top level of its function")
    warpgroups = consumer_warpgroups(loop)
    module = func.parent_op()
    if warpgroups > 1 and isinstance(module, ModuleOp) and sum(isinstance(op, tt.FuncOp) for op in module.ops) != 1:
        raise Refused("cooperative warpgroups change the module's ttg.num-warps: one tt.func per module")
    loops, between = sequence(loop)
    keys = [key_loop(each) for each in loops]
    first = keys[0]
    for key in keys[1:]:
        if [(load.result.type, key.tiles[load].result.type) for load in key.loads] != \
                [(load.result.type, first.tiles[load].result.type) for load in first.loads]:
            raise Refused("key loops that load other tiles than the first (they share its ring)")
    queries: dict[ttg.LocalAllocOp, tt.DescriptorLoadOp] = {}
    for key in keys:
        for dot in key.dots:
            if isinstance(dot.a.type, MemDescType):
                queries.setdefault(dot.a.owner, _query_load(dot.a, loops))
    ops = list(func.body.blocks[0].ops)
    queries_loads = set(queries.values()) | set(queries)
    for op in ops[:ops.index(loop)]:
        if op not in queries_loads and any(not is_side_effect_free(nested) for nested in op.walk()):
            raise Refused(f"'{op.name}' before the loop has side effects")
    epilogue = ops[ops.index(loops[-1]) + 1:-1]
    if not isinstance(ops[-1], tt.ReturnOp) or ops[-1].operands:
        raise Refused("the function returns values; the epilogue must end in a bare tt.return")
    stores = []
    for op in epilogue:
        if op.regions and not isinstance(op, tt.ReduceOp):
            raise Refused(f"'{op.name}' after the loop (control flow in the epilogue)")
        if isinstance(op, tt.DescriptorStoreOp):
            stores.append(op)
        elif not isinstance(op, tt.StoreOp) and not is_side_effect_free(op):
            raise Refused(f"'{op.name}' after the loop has side effects")
    split = RowSplit(warpgroups, first.dots[0].d.type.get_shape()[0])
    split.check_rows()
    for key, after in zip(keys, [*between, epilogue]):
        split.forward(key.loop, after)
    for op in epilogue:
        if isinstance(op, tt.StoreOp) and op.value not in split.axes:
            raise Refused("a tt.store after the loop of a value that is not the warpgroups' rows")
        if isinstance(op, tt.DescriptorStoreOp) and split.axes.get(op.src) != 0:
            raise Refused("a tt.descriptor_store after the loop of a value whose rows are not its first axis")
    found = AttentionLoop(keys, queries, between, epilogue, split, stores=stores,
                          asked_stages=num_stages_or_default(loop, default_stages))
    stages = deepest_ring(found.asked_stages, MIN_STAGES, found.shared_bytes)
    if stages < MIN_STAGES or found.shared_bytes(stages) > SM90_MAX_SHARED_MEMORY_PER_BLOCK:
        raise Refused(f"a ring of {MIN_STAGES} stages of {found.stage_bytes} bytes with the Q tiles and staging "
                      f"needs {found.shared_bytes(MIN_STAGES)} bytes of shared memory, more than the "
                      f"{SM90_MAX_SHARED_MEMORY_PER_BLOCK} of sm_90")
    found.stages = stages
    return found


def _query_load(a: SSAValue, loops: list[scf.ForOp]) -> tt.DescriptorLoadOp:
    """The TMA load before `loops` whose tile the wgmma operand `a` is (Q), or `Refused`."""
    loop = loops[0]
    alloc = a.owner
    if not isinstance(alloc, ttg.LocalAllocOp) or alloc.src is None:
        raise Refused("a wgmma whose A operand in shared memory is neither loaded in the loop nor a tile loaded "
                      "before it")
    load = alloc.src.owner
    if (not isinstance(load, tt.DescriptorLoadOp) or alloc.parent_block() is not loop.parent_block()
            or load.parent_block() is not loop.parent_block() or not is_before_in_block(alloc, loop)):
        raise Refused("a wgmma A operand that is not a TMA tile loaded before the loop")
    if ring_tile_alloc(load) is not alloc:
        raise Refused("the Q tile's allocation is not its TMA load's only use")
    if any(not isinstance(use.operation, ttng.WarpGroupDotOp) or use.operation.a is not a
           or not any(each.is_ancestor(use.operation) for each in loops) for use in a.uses):
        raise Refused("the Q tile is read other than as the loops' wgmma A operand")
    return load


class Trend(Enum):
    """How a scalar moves as one program id grows."""

    CONSTANT = "constant"
    INCREASING = "increasing"
    UNKNOWN = "unknown"


def trend(value: SSAValue, axis: int) -> Trend:
    """How `value` moves as `tt.get_program_id` along `axis` grows (with the other program
    ids and the arguments fixed): through additions, multiplications by positive
    constants, subtractions of constants, min and max."""
    op = value.owner
    if not isinstance(op, Operation):
        return Trend.CONSTANT
    if isinstance(op, tt.GetProgramIdOp):
        return Trend.INCREASING if op.axis.value.data == axis else Trend.CONSTANT
    trends = [trend(v, axis) for v in op.operands]
    if all(t is Trend.CONSTANT for t in trends):
        return Trend.CONSTANT
    if Trend.UNKNOWN in trends:
        return Trend.UNKNOWN
    if isinstance(op, (arith.AddIOp, arith.MinSIOp, arith.MaxSIOp)):
        return Trend.INCREASING
    if isinstance(op, arith.SubIOp) and trends[1] is Trend.CONSTANT:
        return Trend.INCREASING
    if isinstance(op, arith.MulIOp):
        constant = next((v for v, t in zip(op.operands, trends) if t is Trend.CONSTANT), None)
        if constant is not None and isinstance(constant.owner, arith.ConstantOp) \
                and constant.owner.value.value.data > 0:
            return Trend.INCREASING
    return Trend.UNKNOWN


def heavy_first_axes(found: AttentionLoop) -> list[int]:
    """The grid axes along which the loop's trip count grows (causal attention's key loop
    ends at the query block's diagonal, `min(seq_len, (pid + 1) BLOCK_M)`): launching those
    programs in reverse order starts the longest first, so the lightest finish the grid
    (FlashAttention-3's order for causal masks). Only for a kernel whose programs share
    nothing (recognition leaves no side effect but the loads, the loop's and the
    epilogue's stores)."""
    loop = found.loop
    return [axis for axis in range(3) if trend(loop.lowerBound, axis) is Trend.CONSTANT
            and trend(loop.step, axis) is Trend.CONSTANT and trend(loop.upperBound, axis) is Trend.INCREASING]


MIN_KEY_BLOCK_WORK = 64 * 128
"""`mode=auto`'s floor on BLOCK_N x HEAD_DIM: below it the two wgmmas a warpgroup issues per
key block are too short to hide its softmax and the block's mbarrier hand-offs. Measured
on the H100 (docs/measurements.md, 2026-11-26 fourth session): 64x64 (D = 64, BLOCK_N = 64)
runs at 0.95-0.97x the pipelined kernel; 64x128 and 128x64 at 1.08-1.21x, 128x128 at 1.20x."""


QUERY_REGISTERS = 16
"""The 32-bit registers per thread up to which a warpgroup keeps its rows of a 16-bit Q tile in
registers for the S = Q K^T wgmmas (A from registers, read once from shared memory) instead of
having every wgmma read them from shared memory. Measured on the H100 (docs/measurements.md,
2026-11-26, ninth session), where these kernels run at the 700 W power limit: D = 64 (16
registers) 1.036x, the pointer kernel at D = 128 (32 registers) 1.015x, the descriptor kernel at
D = 128 0.996-0.997x; kept to the measured gain."""


def query_in_registers(alloc: ttg.LocalAllocOp, warpgroup_rows: int) -> bool:
    """The Q tile of `alloc` goes to each warpgroup's registers (`QUERY_REGISTERS`): 16-bit
    elements (the types measured; 8-bit Q stays in shared memory) whose `warpgroup_rows` rows
    take at most that many registers per thread of the warpgroup."""
    tile: MemDescType = alloc.result.type
    bits = element_bit_width(tile.element_type)
    per_thread = warpgroup_rows * prod(tile.shape[1:]) * bits // (REGISTER_BITS * THREADS_PER_WARPGROUP)
    return bits == 16 and per_thread <= QUERY_REGISTERS


def unprofitable(found: AttentionLoop) -> str | None:
    """`mode=auto`'s cost model for an attention loop (beyond the one-warpgroup rule of
    `partition.unprofitable`): why warp specialization would not pay, or None."""
    key_block = found.keys[0].dots[0].d.type.get_shape()[1]
    head_dim = found.keys[0].dots[-1].d.type.get_shape()[1]
    if key_block * head_dim < MIN_KEY_BLOCK_WORK:
        return (f"a {key_block}-key block at head dimension {head_dim} gives each warpgroup too little wgmma "
                f"work per block to hide its softmax (mode=auto specializes from BLOCK_N x HEAD_DIM = "
                f"{MIN_KEY_BLOCK_WORK})")
    return None


def takes_turns(found: AttentionLoop, consumers: str) -> bool:
    """Whether the two consumer warpgroups take turns at the tensor cores (FlashAttention-3's
    ping-pong: one's PV and next QK^T wgmmas while the other runs its softmax). Only with
    `consumers=pingpong` (which refuses any count but two warpgroups): measured on the H100
    at 0.75-0.93x the free-running warpgroups (docs/measurements.md, 2026-11-26 fourth
    session), because the softmax of a 64-row share takes about as long as its two
    wgmmas, so each mbarrier hand-off idles the tensor cores; warpgroups left to run
    free overlap one's softmax with the other's wgmmas without the hand-offs."""
    if consumers != "pingpong":
        return False
    if len(found.keys) > 1:
        raise Refused("ping-pong turns over a sequence of key loops are a later round")
    if found.split.warpgroups != PING_PONG_WARPGROUPS:
        raise Refused(f"ping-pong needs {PING_PONG_WARPGROUPS} consumer warpgroups (num_warps=8); this loop has "
                      f"{found.split.warpgroups}")
    return True
