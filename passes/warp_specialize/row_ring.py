"""`ttpipe-row-ring`: a kernel whose programs each walk one row two or more times (its
statistics, then its output: layer norm, RMS norm, softmax; or mean, variance, then output,
as Triton's tutorial writes a layer norm) becomes persistent and warp-specialized without
a dot: a one-warp producer streams every row's chunks by TMA into a ring of shared-memory
slots, the kernel's warps read each chunk from its slot in every loop and release it after
the last (seed 002's streams, across rows: the next rows' chunks land while this row is
written).

Algorithm, for a function whose top level holds loops L1, ..., Ln (n >= 2, no other loop)
that `row_cache.find` chains (same bounds, no dots, loads of each later loop reading tiles
of L1's loads X1, iteration for iteration; stores between them bounded), and whose program
is its row:
  1. The row: `%pid = tt.get_program_id x` (no other axis read), and each cached load's and
     each store's address `base + pid * S + C + (box)` with S, C, the loop bounds and the
     row's extent E functions of the kernel's arguments only (not of pid), boxes
     one-dimensional and contiguous once a tile's dimensions of size 1 are left out
     (`TileAccessAnalysis(unit_dims=True)`: a block pointer's `(1, BLOCK)` tiles; each read
     of the ring expands them back); an unmasked box (a row length `tl.constexpr`) takes
     as its extent what its loop's iterations reach, where the loop's bounds are constants
     (`tile_access.bounded_by_loop`); chunks of at least `SLOT_BYTES / MAX_CHUNKS_PER_SLOT`
     bytes (1 KB). No other loop, atomic or barrier in the function; its
     body one block (no early `return`); `num_warps` a multiple of 4 (Triton's warp
     specialization lowers only whole warpgroups: at 1 or 2 warps it rejects the kernel);
     the loops counting in i32, as the ring's chunk counters do (a length typed i64 makes
     them count in i64); the kernel's warps and the producer's warpgroup within a CTA's 32
     warps (`most_consumers`: a second consumer only where it fits as well: at 16 warps one).
  2. One descriptor for every row: the rows of X1 seen as one 1-D tensor from `base + C`
     (`TileAccessAnalysis` runs with `aligned_bases=False`: step 4 checks the alignment at
     run time, where the stride is known; a chunk's start within its row must be known on
     16 bytes, as TMA's innermost coordinate must be: an unaligned one is an illegal
     instruction on the H100),
     of `(G - 1) S + E` elements (G = `tt.get_num_programs x`); row r's chunk j (L1's
     iteration j) is the box at `r S + start(j)`. The box may read past E into the next row
     where the row's last chunk is partial: where the load has an `other`, the mask selects
     it (zero included: TMA does not zero what lies in the next row), as the original load did.
  3. Slots: K = max(1, SLOT_BYTES / chunk bytes) chunks a slot, SLOTS = RING_BYTES / (K
     chunk bytes) slots, each with a full and an empty mbarrier (count 1).
     A row takes R = ceil(trips / K) slots; chunk j sits in the row's slot j / K at place
     j % K. Whole slots make the waits, releases and barriers come once a slot: Triton's
     barrier analysis puts a CTA barrier between two waits on one mbarrier array and after
     an arrive, which once a chunk stalled every warp (ncu, docs/measurements.md).
  4. At run time, at the function's start, the ring version runs where (a) R <= SLOTS - T,
     T = ceil(`H100_BYTES_IN_FLIGHT_PER_SM` / slot bytes) (the stream slots: while a row
     fills the rest, the producer keeps the next row's first T slots in flight, enough to
     stream at the memory's bandwidth, and refills each slot the row's last loop releases
     at once; R <= SLOTS is what progress needs: the producer fills the slots in order, each
     waiting only for a slot of an earlier row, which that row's consumer releases in its
     last loop without waiting for any later row), (b) the 1-D tensor's coordinates fit i32
     and S >= 0, (c) its base and every row's start are 16-byte aligned
     (`base + C` and S times the element's bytes: TMA), and (d) no store
     of any row writes what any row's X1 or a prefetched load (step 6) reads: its byte hull
     over all rows is disjoint from theirs, or it writes that load's box of its own row in
     place (the same address and stride, the same box iteration for iteration): X1's in
     the last loop (through any pointer: the rows' addresses decide) or, through X1's own
     pointer, in an earlier loop (forwarded, step 5); a prefetched load's in a later loop
     than the load's (the row's prefetches are issued before it). The hulls are affine
     in the row, so rows 0 and G - 1 bound them. Otherwise the function body runs as written.
  5. The ring version, `ttg.warp_specialize`:
       - C consumers (the default region, and with C = 2 a partition of as many warps, on
         alternate rows: consumer c runs rows pid + c P, then every C P-th) run the function
         body with pid := row. L1's X1 waits for its slot's full mbarrier at the slot's first
         chunk and reads its chunks (`ttg.local_load`; step 7: a slot's chunks at once);
         each later loop's loads of X1's tiles read them there (no wait: L1 waited in every
         warp); in Ln, once the slot's chunks are read, a proxy fence and a `gpu.barrier`
         (every warp has read the slot), the arrive on its empty mbarrier, and a second
         barrier (so the analysis adds none before the next read). A row's slots are the
         CTA's slot count g .. g + R - 1 (g: slots of the earlier rows, all consumers'), the
         ring slot and phase of g' being g' % SLOTS and (g' / SLOTS) & 1. A store of a loop
         Lk before the last that writes X1's tile of its iteration through X1's pointer (a
         fused residual add storing x + r over r, which the next loop reads again: vLLM's
         fused_add_rms_norm) is forwarded: next to the store, a `ttg.local_store` writes the
         same tile into the chunk's place in its slot, so the loops after Lk read what
         memory now holds; Lk read the slot's chunks before (step 7), as the kernel reads
         each tile before storing it.
       - a one-warp partition walks every row: for each of its slots, wait for the empty
         mbarrier (phase flipped: the first pass through the ring does not wait), expect K
         chunks' bytes on the full one and issue K TMA copies per cached load; a chunk past
         the row's last is copied from past the view's end (rounded up to 16 bytes: TMA's
         coordinates must be aligned, and rows at a stride longer than their extent end
         anywhere), which TMA fills with zeros without reading memory, so every slot's
         bytes arrive alike.
     C: 2 where a loop's body reduces across warps (`tt.reduce`: online softmax's max
     and sum every chunk, each a barrier the consumer waits on; a second consumer fills
     those waits) or computes a special function on its tensors
     (`computes_special_function`: exp, log, sqrt, rsqrt, tanh, ..., a libdevice call: per
     element, the chain waits on the SM's special function units, 16 results a clock
     against 128 for float32 arithmetic, and a second consumer's warps fill those waits),
     else 1 (two consumers halve each one's registers: the layer norm's weights queue
     spills) for rows of at most half the slots a row may fill (`one_consumer_trips`),
     and 2 for longer rows: while one consumer finishes a row that long, the next row has
     fewer slots to stream into than it fills, and its first loop waits; a second
     consumer's warps run that row's loops in those waits. Longer rows run a second ring
     compile (step 8's condition names `ttpipe-row-ring{consumers=2}` as the compile the
     others run `instead`). Measured x copy, one consumer against two (twenty-second
     session), rows of 32768 bf16: a softmax in three loops (exp in two) 0.72 / 0.89,
     Mamba's gated RMS norm (a sigmoid in both loops) 0.59 / 0.82, an online log-softmax
     0.86 / 0.92; the layer norm in two loops 0.91 / 0.85 and in three 0.89 / 0.88, the RMS
     norm 0.93 / 0.94, a row's fp8 quantisation (a division, not counted) 0.94 / 0.93;
     rows of 49152 / 65536: the layer norm in two loops 0.79 / 0.87 and 0.68 / 0.76, in
     three 0.75 / 0.89 and 0.64 / 0.80, the RMS norm 0.93 / 0.93 and 0.81 / 0.92.
     `consumers=1|2` forces the count for every row.
     P (`sms`) is the SM count; the ring takes the shared memory of one CTA per SM, so the
     first P programs are resident at once; every later program exits at once (an
     `scf.if pid < P` around the allocations and partitions: it initialises no mbarrier).
  6. The consumers' other loads of the loops (a norm's weights), where `register_prefetch`
     allows them and their hull is known, are issued d iterations ahead into registers
     (`register_prefetch.prefetch`, the loop unrolled by d): d covers the consumer's share of
     the SM's bytes in flight (`H100_BYTES_IN_FLIGHT_PER_SM / (C chunk bytes)` chunks) as far
     as `PREFETCH_REGISTER_BYTES` a thread allow, counting the values the queue carries
     (`register_prefetch.carried_type`: widened where the loop widens the load). One CTA
     per SM hides no load latency behind other CTAs, and each chunk's work is short (the
     layer norm's consumer, not the memory, limits it: docs/measurements.md, fourteenth
     session). The first d of them go at the row's start,
     before L1 (step 4's hulls keep them clear of every store), so that their latency runs
     under L1 and the reductions between the loops instead of stalling the loop's first chunk.
  7. Each consumer's loops are unrolled by F = lcm(d, K) (`register_prefetch.unroll`): a
     loop of runs of F chunks, whole slots inside the row, then the row's last chunks
     (fewer than F) as one more run of guarded copies (`register_prefetch.guarded_run`: copy
     c in an `scf.if` on chunk c being in the row, nested in copy c - 1's). In a run, copy i
     reads place i % K of the row's slot r F / K + i / K (r: the run), known when the pass
     runs, and the slot's chunks are read at once, before its first copy: L1 after waiting
     once for the slot, with no remainder arithmetic. Ln releases the slot once its chunks
     are computed, after its last copy (`_free_slot`'s proxy fence keeps the reads before
     the refill). Releasing right after the reads, so that the producer refills the slot
     while its chunks are written out, measured 1-3 % slower on an H200 (twenty-ninth
     session: rows of 32768, the layer norm in two loops 0.79 / 0.80x copy, in three 0.73
     / 0.75, the online softmax 0.66 / 0.67, the RMS norm 0.86 either way). The guarded
     run, whose copies nest in the ifs of the chunks in the row, releases each slot before
     its first copy. Every slot of the row has its first chunk in the row, so the guarded
     run's slots are read, waited for and released alike (the chunks past the row, read
     from a slot the producer filled in whole, go unused). In the runs `unroll` drops the
     masks that bound a chunk by the row's length (`off + arange < N`), which hold there:
     no select of `other`, no predicated store; nor those the tile-access analysis reads as
     bounds that hold there (`register_prefetch.holds_in_runs`: a block pointer's `[0, N)`
     mask); the guarded run keeps them (its last chunk may be ragged). ptxas schedules a
     slot's chunks together, and the prefetch queue is back in place after each run; the
     guarded run's copies read it in place too (the loop as it was shifted it each
     iteration, waiting for the load just issued: a layer norm's rows of 20 chunks ran at
     0.79x copy against 0.88x now, fifteenth session).
  8. Where the ring pays (`RowProgram.launch_condition`): rows of `RING_MIN_ROW_BYTES` or more
     that leave the stream slots free (step 4a), i.e. L1 trip counts in a range. The ring's
     shared memory holds one CTA per SM, which shorter rows pay for (the default pipeline runs
     several CTAs per SM); longer rows take step 4's else-branch, the loops as written at
     one CTA per SM. L1's bounds are constants or kernel arguments (`launch_condition.Bound`:
     an argument may be divided by a constant after adding one, as `tl.cdiv(N, BLOCK)`
     prints) and its step a constant: with constant bounds the pass decides (no ring where
     the rows are outside the range); otherwise it writes the range on the function
     (`ttpipe.launch_when`, `passes/common/launch_condition.py`) and the Triton plug-in
     compiles the kernel a second time without this pass and launches, each time, the
     version the row's length asks for (`ttpipe.triton.versions`); with one consumer (step
     5) the range ends at `one_consumer_trips` and the second compile is the ring with two
     consumers, whose own range ends where the ring's does. Run by `ttpipe-opt`, the
     attribute stays on the function.

`RING_BYTES` is 192 KB, as in the design measured by hand first (docs/measurements.md, ninth
session, Gluon). Measured on the H100 (twelfth session), x copy bandwidth: rows of 32768
bf16 elements 0.87 (layer norm), 0.93 (RMS norm), 0.80 (online softmax), against 0.76,
0.74, 0.76 without the ring; rows of 16384 0.75-0.85 against 0.85-0.90; rows of 8192
0.68-0.76 against 0.93-0.98. Step 8 keeps those shorter and longer rows on the default
pipeline. Thirteenth session: the layer norm in three loops 0.83 against 0.53 (1.68x stock;
Triton's tutorial kernel 1.47-1.70x stock at rows of 26000-49152), the RMS norm written with
block pointers 0.81 against 0.74 (its weights were not loaded ahead: the loops carry the
offsets; since the fourteenth session `register_prefetch` takes offsets that advance by a
loop-invariant amount). Fourteenth session: the online softmax 0.91 (1.39x stock), its runs' maxima and sums
each one reduction once `ttpipe-merge-reductions` has merged the copies' (a pair of CTA
barriers a slot instead of one a chunk); with one consumer it would still run at 0.68.
Nineteenth session: rows filled half the ring at most (two rows in it) until rows filling
all but the stream slots were measured as fast (`build/exp/residual_ab.py`, x copy, against
the default pipeline that ran them before): a fused residual add + RMS norm reading two
inputs, rows of 32768 / 40960, 0.96 / 0.96 against 0.64 / 0.63; the RMS norm at 65536 /
81920 0.82 / 0.76 against 0.69 / 0.66; the online softmax (two consumers) 0.92 / 0.86
against 0.69 / 0.63; the layer norm 0.68 / 0.65 against 0.69 / 0.67 (its consumer, not the
memory, limits it at rows this long: 0.79 at 49152 either way). Two stream slots (32 KB)
ran as fast as three or four.

Remarks: `row ring not built: <reason>` at the function's first loop where its loops chain but a
precondition fails or constant bounds give rows outside step 8's range. Preconditions: sm_90
(TMA); TTGIR with layouts; before the pipeliner. Attributes: `ttpipe.launch_when` written on
the function (step 8).
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, field, replace

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, TensorType, i1, i32, i64
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint
from xdsl.traits import is_side_effect_free

from ttpipe.dialects import arith, gpu, scf, tt, ttg, ttng
from ttpipe.dialects import math as math_dialect
from ttpipe.dialects.arith import CmpIPredicate
from ttpipe.passes.analysis.axis_info import ModuleAxisInfo
from ttpipe.passes.analysis.polynomial import Iteration, Poly
from ttpipe.passes.analysis.tile_access import (
    NotATile,
    TileAccess,
    TileAccessAnalysis,
    bounded_by_loop,
    without_unit_dims,
)
from ttpipe.passes.common.builder import OpBuilder, constant_int_value
from ttpipe.passes.common.diagnostics import emit_remark
from ttpipe.passes.common.hardware import (
    H100_BYTES_IN_FLIGHT_PER_SM,
    H100_SMS,
    TMA_GLOBAL_ALIGN_BYTES,
    TMA_MAX_COORDINATE_EXTENT,
    MAX_WARPS_PER_CTA,
    WARPS_PER_WARPGROUP,
    fills_warpgroups,
    is_hopper,
    warpgroups,
)
from ttpipe.passes.common.ir import ceil_trip_count, iteration_index, replace_load
from ttpipe.passes.common.launch_condition import Bound, TripsBetween, set_launch_condition
from ttpipe.passes.common.mma_layouts import element_bit_width
from ttpipe.passes.common.target import num_warps, nvidia_compute_capability, threads_per_warp
from ttpipe.passes.pipeline.lower_loops import create_alloc, create_barrier_alloc, single_buffer_view, tile_bytes
from ttpipe.passes.pipeline.register_prefetch import (
    UnrolledCopy,
    carried_type,
    guarded_run,
    prefetch,
    prefetchable,
    unroll,
)
from ttpipe.passes.pipeline.row_cache import (
    CachedRow,
    disjoint,
    find,
    in_place,
    rewritten_early,
    same_box,
    walk_one_row,
)
from ttpipe.passes.pointer_loads_to_tma import DescriptorBuilder, descriptor_encoding
from ttpipe.passes.warp_specialize.cooperative import isolate
from ttpipe.passes.warp_specialize.loop_copies import PRODUCER_NUM_WARPS
from ttpipe.passes.warp_specialize.options import one_of

RING_BYTES = 192 * 1024
"""Shared memory of the ring (one CTA per SM; see the module docstring)."""

COORDINATE_MARGIN = 1 << 20
"""Elements the 1-D view of the rows keeps below `TMA_MAX_COORDINATE_EXTENT`."""

SLOT_BYTES = 16 * 1024
"""A slot's bytes at least: as many chunks as fill them share one full and one empty mbarrier
(each wait, release and barrier comes once a slot, not once a chunk)."""

MAX_CHUNKS_PER_SLOT = 16
"""The most chunks a slot takes: step 7 unrolls each consumer loop by a slot's chunks (at
least), and chunks of a few hundred bytes made loops of 64 copies whose compile, through
ttpipe's Python passes and its async check, ran past minutes. The bench's chunks (2-8 KB)
take 2-8."""

RING_MIN_ROW_BYTES = 48 * 1024
"""Rows shorter than this run faster through the default pipeline's many CTAs per SM (step 8),
whose second reads L2 still serves. Sixteenth session, x copy, the default against the ring
(`build/exp/ring_min_ab.py`): rows of 32 KB, a layer norm 0.98 against 0.70, a fused add +
RMS norm reading two inputs 0.86 against 0.85; rows of 40 KB, layer norm 0.86 against 0.82,
RMS norm 0.79 against 0.85; rows of 48 KB, layer norm 0.79 against 0.87, RMS norm 0.74
against 0.89, the fused add + RMS norm 0.76 against 0.89."""

PREFETCH_REGISTER_BYTES = 384
"""Bytes a consumer thread may hold in loads issued ahead, as the queue carries them (96
registers; step 6: bf16 weights widened to float32 where the loop widens them, so a layer
norm's w and b 6 chunks ahead). Fourteenth session, rows of 26624 / 32768 / 49152 bf16, x
copy: layer norm 0.89 / 0.90 / 0.79 against 0.86 / 0.87 / 0.73 with 128 bytes of bf16 (4
ahead; twelfth session: 0.85 / 0.87 / 0.74 against 0.81 / 0.84 / 0.68 at 64 bytes), the
layer norm in three loops 0.85 / 0.86 / 0.75 against 0.82 / 0.84 / 0.69, RMS norm 0.90 /
0.93 / 0.93 against 0.89 / 0.93 / 0.94 (its w 8 ahead either way)."""

MAX_CONSUMERS = 2
CONSUMERS = ("auto", *(str(count) for count in range(1, MAX_CONSUMERS + 1)))
"""The `consumers` option's choices (step 5)."""

REMARK = "row ring not built: "


class NotARow(Exception):
    """Why a function is not a row program (step 1)."""


@dataclass(eq=False)
class RowAccess:
    """A box (or scalar) address of row `pid`: `base + pid * stride + offset (+ box)`."""

    access: TileAccess | None
    """The box (None: a scalar store)."""
    base: SSAValue
    stride: Poly
    offset: Poly
    extent: Poly
    """Elements one row's box may cover past `offset + pid * stride` (1 for a scalar)."""
    element_bytes: int


@dataclass
class RowStore:
    """A store of the function, and the row's box it may write in place."""

    op: tt.StoreOp
    row: RowAccess
    in_place: tuple[int, ...] = ()
    """The cached loads (indices in `RowProgram.loads`) whose box of its own row the store may
    write, iteration for iteration: in the last loop, or before it (`forwarded`)."""
    forwarded: int | None = None
    """The cached load whose box it writes before the last loop, through that load's pointer:
    the loops after read the stored tile from the slot (step 5's forwarding)."""


@dataclass
class PrefetchedLoad:
    """A load of a loop that the consumer issues ahead into registers (step 6)."""

    op: tt.LoadOp
    loop: scf.ForOp
    row: RowAccess
    rewritten_by: tuple[int, ...] = ()
    """The stores (indices in `RowProgram.stores`) that write its box of its own row in a
    later loop, iteration for iteration: the row's prefetches, all issued before that loop,
    read what was there before."""


SPECIAL_FUNCTIONS = (math_dialect.ExpOp, math_dialect.Exp2Op, math_dialect.ExpM1Op, math_dialect.LogOp,
                     math_dialect.Log2Op, math_dialect.Log10Op, math_dialect.Log1pOp, math_dialect.SqrtOp,
                     math_dialect.RsqrtOp, math_dialect.SinOp, math_dialect.CosOp, math_dialect.TanOp,
                     math_dialect.TanhOp, math_dialect.ErfOp, math_dialect.ErfcOp, math_dialect.PowFOp,
                     tt.PreciseSqrtOp, tt.ExternElementwiseOp)
"""Ops the SM computes on its special function units (MUFU: ex2, lg2, rsqrt, sqrt, sin, cos,
tanh), or from them (a libdevice call). `arith.divf` is left out: its reciprocal measured
neutral (step 5)."""


def computes_special_function(op: Operation) -> bool:
    """Whether `op` computes a special function of every element of a tensor (step 5)."""
    return isinstance(op, SPECIAL_FUNCTIONS) and isinstance(op.results[0].type, TensorType)


@dataclass
class RowProgram:
    """Step 1's findings for one function."""

    func: tt.FuncOp
    pid: SSAValue
    row: CachedRow
    loads: list[RowAccess]
    stores: list[RowStore]
    prefetched: list[PrefetchedLoad]

    @property
    def chunks_per_slot(self) -> int:
        """Chunks (L1 iterations: one box of every cached load) a slot holds."""
        return max(1, SLOT_BYTES // self.row.chunk_bytes)

    @property
    def slot_bytes(self) -> int:
        """The bytes of a slot's chunks (what its full mbarrier expects)."""
        return self.chunks_per_slot * self.row.chunk_bytes

    @property
    def slots(self) -> int:
        """The ring's slots."""
        return RING_BYTES // self.slot_bytes

    @property
    def stream_slots(self) -> int:
        """Step 4a's T: the slots that hold the bytes an SM keeps in flight, left to the next row."""
        return -(-H100_BYTES_IN_FLIGHT_PER_SM // self.slot_bytes)

    @property
    def most_row_slots(self) -> int:
        """The slots a row may fill: all but the stream slots, into which the next row streams under it."""
        return self.slots - self.stream_slots

    @property
    def one_consumer_trips(self) -> int:
        """Step 5: the longest rows (L1 trips) one consumer takes where the cost model asks for
        one: rows of at most half the slots a row may fill."""
        return self.most_row_slots // 2 * self.chunks_per_slot

    @property
    def consumers(self) -> int:
        """Step 5's cost model: two consumers where a loop's body reduces across warps or
        computes a special function on its tensors."""
        return 2 if any(isinstance(op, tt.ReduceOp) or computes_special_function(op)
                        for loop in self.row.loops for op in loop.body.walk()) else 1

    def launch_condition(self) -> TripsBetween:
        """Step 8: the trip counts of L1 for which the ring is the faster version: rows of
        `RING_MIN_ROW_BYTES` or more that leave the stream slots free."""
        loop = self.row.first
        least = max(1, -(-RING_MIN_ROW_BYTES // self.row.chunk_bytes))
        return TripsBetween(Bound.of(loop.lowerBound, self.func), Bound.of(loop.upperBound, self.func),
                            constant_int_value(loop.step), least, self.most_row_slots * self.chunks_per_slot,
                            RowRing.name)

    def prefetch_distance(self, loads: list[tt.LoadOp], consumers: int) -> int:
        """Step 6's iterations ahead for one loop's prefetched `loads`: as many chunks as
        cover the consumer's share of the SM's bytes in flight, as far as
        `PREFETCH_REGISTER_BYTES` a thread allow."""
        ahead = -(-H100_BYTES_IN_FLIGHT_PER_SM // (consumers * self.row.chunk_bytes))
        threads = num_warps(self.func) * threads_per_warp(self.func)
        per_thread = sum(tile_bytes(carried_type(load)) for load in loads) // threads
        return max(1, min(ahead, PREFETCH_REGISTER_BYTES // max(per_thread, 1)))


def _split_row(poly: Poly, pid: SSAValue) -> tuple[Poly, Poly]:
    """`poly` as `pid * stride + offset`, neither reading pid; NotARow otherwise."""
    with_pid, offset = poly.split(lambda monomial: any(atom is pid for atom, _ in monomial))
    stride = with_pid.divided(Poly.atom(pid)) if not with_pid.is_zero else Poly.constant(0)
    if stride is None or pid in stride.atoms():
        raise NotARow("an address not affine in the program id")
    return stride, offset


def _arguments_only(func: tt.FuncOp, polys: list[Poly], allowed: set = frozenset()) -> None:
    """Every atom of `polys` is an argument of `func` (or one of `allowed`)."""
    args = set(func.body.block.args)
    for poly in polys:
        for atom in poly.atoms():
            if atom not in args and atom not in allowed:
                raise NotARow("a row's address or length computed from more than the kernel's arguments")


def _box_row(func: tt.FuncOp, pid: SSAValue, access: TileAccess, loop: scf.ForOp) -> RowAccess:
    """Step 1 for one box of `loop` (an unmasked one bounded by the loop's reach)."""
    access = bounded_by_loop(access, loop)
    if len(access.dims) != 1 or access.dims[0].stride != Poly.constant(1) or access.dims[0].extent is None:
        raise NotARow("a box that is not one contiguous run of the row")
    stride, offset = _split_row(access.base_offset, pid)
    dim = access.dims[0]
    _arguments_only(func, [stride, offset, dim.extent])
    _arguments_only(func, [dim.start], {Iteration(loop)})
    element_bytes = element_bit_width(access.element_type) // 8
    return RowAccess(access, access.base, stride, offset, dim.extent, element_bytes)


def _scalar_row(func: tt.FuncOp, pid: SSAValue, store: tt.StoreOp, analysis: TileAccessAnalysis) -> RowAccess:
    pointer = analysis.pointer(store.ptr, None)
    stride, offset = _split_row(pointer.offset.poly, pid)
    _arguments_only(func, [stride, offset])
    return RowAccess(None, pointer.base, stride, offset, Poly.constant(1), element_bit_width(store.value.type) // 8)


def _walks_rows(loop: Operation) -> bool:
    """Whether `loop`'s body holds two or more loops that walk one row
    (`row_cache.walk_one_row`), as a row program's body does (the remark's case: a loop
    over rows around them)."""
    inner = [op for op in loop.regions[0].block.ops if isinstance(op, scf.ForOp)]
    return len(inner) >= 2 and walk_one_row(inner)


def row_program(func: tt.FuncOp, analysis: TileAccessAnalysis) -> RowProgram | None:
    """Step 1 for `func`: its row program, None where it has no pair of loops, NotARow where
    a precondition fails."""
    loops = [op for op in func.walk() if isinstance(op, (scf.ForOp, scf.WhileOp))]
    if len(loops) < 2:
        return None
    if len(func.body.blocks) != 1:
        raise NotARow("the function's body branches between blocks (an early return)")
    if not fills_warpgroups(num_warps(func)):
        raise NotARow(f"{num_warps(func)} warps: warp specialization takes whole warpgroups of 4")
    if most_consumers(func) == 0:
        raise NotARow(f"{num_warps(func)} warps and the producer's warpgroup are more than a CTA's "
                      f"{MAX_WARPS_PER_CTA} warps")
    block = func.body.block
    if not all(isinstance(op, scf.ForOp) and op.parent_block() is block for op in loops):
        if any(_walks_rows(loop) for loop in loops):
            raise NotARow("the row's loops are inside another loop (a program walking several rows): the ring "
                          "makes a program of one row persistent itself")
        return None
    first = loops[0]
    found = find(loops, analysis)
    if isinstance(found, str):
        return None
    ids = [op for op in func.walk() if isinstance(op, tt.GetProgramIdOp)]
    if len(ids) != 1 or ids[0].axis.value.data != 0 or ids[0].parent_block() is not block:
        raise NotARow("not one tt.get_program_id x at the function's top level")
    pid = ids[0].result
    for op in func.body.walk():
        if isinstance(op, (tt.AtomicRMWOp, tt.AtomicCASOp, gpu.BarrierOp, tt.GetNumProgramsOp)):
            raise NotARow(f"'{op.name}' in the function")
        if not (is_side_effect_free(op) or isinstance(op, (tt.LoadOp, tt.StoreOp, scf.ForOp, scf.YieldOp,
                                                           tt.ReturnOp))):
            raise NotARow(f"'{op.name}' in the function")
    for value in (first.lowerBound, first.upperBound):
        if Bound.of(value, func) is None:
            raise NotARow("loop bounds that are not constants or the kernel's arguments (divided by a constant)")
    if constant_int_value(first.step) is None:
        raise NotARow("a loop step that is not a constant")
    if first.body.args[0].type != i32:
        raise NotARow("the row's loops count in i64 (a length typed i64): the ring counts chunks in i32")
    loads = [_box_row(func, pid, load.first, first) for load in found.loads]
    for load in loads:
        if load.access.dims[0].start.divisibility(analysis.divisibility) * load.element_bytes % TMA_GLOBAL_ALIGN_BYTES:
            raise NotARow("a chunk that does not start on 16 bytes of its row (TMA's innermost coordinate)")
    stores = []
    for op in (nested for nested in func.walk() if isinstance(nested, tt.StoreOp)):
        if isinstance(op.value.type, TensorType):
            try:
                box = analysis.store(op)
            except NotATile as exc:
                raise NotARow(f"a store whose region is not known ({exc})") from None
            loop = op.parent_op()
            row = _box_row(func, pid, box, loop if isinstance(loop, scf.ForOp) else first)
            rewritten = None if box.unit_dims else rewritten_early(found, row.access, op)
            if rewritten is not None:  # before the last loop: forwarded
                forwarded = found.loads.index(rewritten)
                stores.append(RowStore(op, row, (forwarded, ), forwarded))
            else:
                stores.append(RowStore(op, row, tuple(found.loads.index(load) for load in in_place(found, box, op))))
        else:
            stores.append(RowStore(op, _scalar_row(func, pid, op, analysis)))
    cached = {access.op for index in range(len(loops)) for access, _ in found.reads(index)}
    prefetched = []
    for loop in loops:
        for op in loop.body.ops:
            if isinstance(op, tt.LoadOp) and op not in cached and prefetchable(op, loop):
                try:
                    access = analysis.load(op, any_other=True)
                    row = _box_row(func, pid, access, loop)
                except (NotATile, NotARow):
                    continue  # a load whose hull is not known stays where it is
                prefetched.append(PrefetchedLoad(op, loop, row, _rewritten_later(loops, loop, row, stores)))
    program = RowProgram(func, pid, found, loads, stores, prefetched)
    if program.slots < 4:
        raise NotARow(f"one iteration reads {found.chunk_bytes} bytes; {RING_BYTES} hold fewer than four slots")
    if program.chunks_per_slot > MAX_CHUNKS_PER_SLOT:
        raise NotARow(f"one iteration reads {found.chunk_bytes} bytes: a slot would hold {program.chunks_per_slot} "
                      f"chunks, more than {MAX_CHUNKS_PER_SLOT} (each consumer loop is unrolled by a slot's chunks)")
    return program


def most_consumers(func: tt.FuncOp) -> int:
    """The most consumers (of the kernel's warps each) that, with the producer, fit one CTA."""
    fitting = (MAX_WARPS_PER_CTA // WARPS_PER_WARPGROUP - warpgroups(PRODUCER_NUM_WARPS)) // warpgroups(num_warps(func))
    return min(fitting, MAX_CONSUMERS)


def _rewritten_later(loops: list[scf.ForOp], loop: scf.ForOp, load: RowAccess,
                     stores: list[RowStore]) -> tuple[int, ...]:
    """The stores that write a box like `load`'s (in `loop`) in a later loop of the chain,
    iteration for iteration, through any pointer: where the rows meet at run time, the store
    writes the load's row in place."""
    return tuple(index for index, store in enumerate(stores)
                 if store.row.access is not None and store.op.parent_op() in loops[loops.index(loop) + 1:]
                 and same_box(load.access, store.row.access, loop, store.op.parent_op(), same_base=False))


class _Scalars:
    """i64 scalars of steps 2-3 at `b`'s point (the function's start), each built once."""

    def __init__(self, b: OpBuilder, descriptors: DescriptorBuilder, programs: SSAValue):
        self.b = b
        self.descriptors = descriptors
        self.last_row = b.insert(arith.ExtSIOp(b.subi(programs, b.int_constant(1, 32)), result_type=i64)).out
        self.values: dict[Poly, SSAValue] = {}
        self.starts: dict[RowAccess, SSAValue] = {}

    def value(self, poly: Poly) -> SSAValue:
        if poly not in self.values:
            self.values[poly] = self.descriptors.materialize(self.b, poly, i64)
        return self.values[poly]

    def elements(self, row: RowAccess) -> SSAValue:
        """Elements of the 1-D view of every row: `(G - 1) * stride + extent`."""
        return self.value(Poly.atom(self.last_row) * row.stride + row.extent)

    def start(self, row: RowAccess) -> SSAValue:
        """The byte address of row 0's first element."""
        if row not in self.starts:
            base = self.b.insert(tt.PtrToIntOp(row.base, result_type=i64)).result
            self.starts[row] = self.b.addi(base, self.value(row.offset.scaled(row.element_bytes)))
        return self.starts[row]

    def hull(self, row: RowAccess) -> tuple[SSAValue, SSAValue]:
        """[first, last] byte of every row's box (stride >= 0, checked beside)."""
        first = self.start(row)
        last = Poly.atom(self.last_row) * row.stride.scaled(row.element_bytes) + \
            (row.extent.scaled(row.element_bytes) - Poly.constant(1))
        return first, self.b.addi(first, self.value(last))


def hoisted_trip_count(b: OpBuilder, func: tt.FuncOp, loop: scf.ForOp) -> SSAValue:
    """L1's trip count at `b`'s point, before the body (its bounds, step 1's `Bound`s, and its
    constant step made again there)."""
    bounds = {value: Bound.of(value, func).build(b, func, value.type) for value in (loop.lowerBound, loop.upperBound)}
    bounds[loop.step] = b.constant(constant_int_value(loop.step), loop.step.type)
    return ceil_trip_count(b, loop, bounds)


def condition(program: RowProgram, s: _Scalars, row_slots: SSAValue) -> SSAValue:
    """Step 3: the i1 under which the ring version runs (`row_slots`: the slots a row fills)."""
    b = s.b
    zero = b.constant(0, i64)
    alignment = b.constant(TMA_GLOBAL_ALIGN_BYTES, i64)
    checks = [b.cmpi(CmpIPredicate.sle, row_slots, b.int_constant(program.most_row_slots, 32))]
    prefetched = [load.row for load in program.prefetched]
    for row in (*program.loads, *(store.row for store in program.stores), *prefetched):
        checks.append(b.cmpi(CmpIPredicate.sge, s.value(row.stride), zero))  # the hulls' bounds
    store_hulls = [s.hull(store.row) for store in program.stores]

    def clear(store: int, load: RowAccess, load_hull: tuple[SSAValue, SSAValue], in_place: bool) -> SSAValue:
        """The store's hull is disjoint from the load's, or (`in_place`) it writes the load's box of each row."""
        safe = disjoint(b, store_hulls[store], load_hull)
        if in_place:
            same = b.andi(b.cmpi(CmpIPredicate.eq, store_hulls[store][0], load_hull[0]),
                          b.cmpi(CmpIPredicate.eq, s.value(program.stores[store].row.stride), s.value(load.stride)))
            safe = b.insert(arith.OrIOp(safe, same)).result
        return safe

    for index, load in enumerate(program.loads):
        checks.append(b.cmpi(CmpIPredicate.sle, s.elements(load),
                             b.constant(TMA_MAX_COORDINATE_EXTENT - COORDINATE_MARGIN, i64)))
        for address in (s.start(load), s.value(load.stride.scaled(load.element_bytes))):
            checks.append(b.cmpi(CmpIPredicate.eq, b.insert(arith.RemSIOp(address, alignment)).result, zero))
        load_hull = s.hull(load)
        checks += [clear(store, load, load_hull, index in program.stores[store].in_place)
                   for store in range(len(program.stores))]
    for load in program.prefetched:
        load_hull = s.hull(load.row)
        checks += [clear(store, load.row, load_hull, store in load.rewritten_by)
                   for store in range(len(program.stores))]
    return functools.reduce(b.andi, checks)


@dataclass
class _SlotRead:
    """A load of a consumer's loop that reads its chunks from the ring's `buffer`."""

    load: tt.LoadOp
    buffer: SSAValue
    unit_dims: tuple[int, ...]
    """The dimensions of size 1 of its tile, not in the box the ring holds."""


@dataclass
class _SlotWrite:
    """A stored tile of a consumer's loop that the loop also writes into the ring's `buffer`
    (a forwarded store, step 5)."""

    value: SSAValue
    buffer: SSAValue


@dataclass
class _Ring:
    """The ring as one partition sees it: `slots` slots of `chunks_per_slot` chunks each."""

    buffers: list[SSAValue]
    full: SSAValue
    empty: SSAValue
    slots: SSAValue
    chunks_per_slot: int

    def slot_and_phase(self, b: OpBuilder, count: SSAValue) -> tuple[SSAValue, SSAValue]:
        """The slot of the CTA's `count`-th slot fill and the phase its mbarriers complete then."""
        slot = b.remsi(count, self.slots)
        return slot, b.andi(b.divsi(count, self.slots), b.int_constant(1, 32))

    def chunk(self, b: OpBuilder, buffer: SSAValue, slot: SSAValue, within: SSAValue | int) -> SSAValue:
        """Chunk `within` of `slot` in `buffer`."""
        first = b.muli(slot, b.int_constant(self.chunks_per_slot, 32))
        index = b.addi(first, within if isinstance(within, SSAValue) else b.int_constant(within, 32))
        return single_buffer_view(b, buffer, index)


def _row_loop(b: OpBuilder, first_row: SSAValue, programs: SSAValue, step: SSAValue,
              first_count: SSAValue) -> tuple[scf.ForOp, OpBuilder]:
    """`for row = first_row; row < G; row += step`, carrying the CTA's slot count (from
    `first_count`), and a builder at the start of its body."""
    body = Block(arg_types=[i32, i32])
    loop = b.insert(scf.ForOp(first_row, programs, step, [first_count], body=body))
    return loop, OpBuilder(InsertPoint.at_end(body), b.location)


def _coordinate(b: OpBuilder, load: RowAccess, row: SSAValue, chunk: SSAValue, loop: scf.ForOp,
                descriptors: DescriptorBuilder) -> SSAValue:
    """Row `row`'s chunk `chunk` in the 1-D view: `row * stride + start(chunk)`."""
    start = load.access.dims[0].start.substitute(Iteration(loop), Poly.atom(chunk))
    return descriptors.materialize(b, Poly.atom(row) * load.stride + start, i32)


def aligned_past_end(b: OpBuilder, elements: SSAValue, element_bytes: int) -> SSAValue:
    """The first coordinate at or past the end of a 1-D view of `elements` (i64) that is 16
    bytes aligned, as i32: a box there lies wholly out of bounds, and TMA takes only an
    innermost coordinate on 16 bytes (an unaligned one is an illegal instruction on the
    H100). The view's end is aligned where the rows are dense; rows at a longer stride than
    their extent (a slice of a wider tensor) end anywhere. Step 4's coordinate check keeps
    `COORDINATE_MARGIN` below the limit, so the rounding stays in i32."""
    per_align = b.constant(TMA_GLOBAL_ALIGN_BYTES // element_bytes, i64)
    return b.insert(arith.TruncIOp(b.muli(b.ceil_divsi(elements, per_align), per_align), result_type=i32)).out


def _producer(program: RowProgram, ring: _Ring, descriptors: list[SSAValue], past_ends: list[SSAValue],
              trips: SSAValue, row_slots: SSAValue, pid: SSAValue, programs: SSAValue, persistent: SSAValue,
              builder: DescriptorBuilder, location) -> Block:
    """The one-warp partition (step 4), reading outer values (`isolate` captures them): for
    each slot of each row, wait for it to be empty, expect its bytes and copy its chunks; a
    chunk past the row's last is copied from past the view's end (`past_ends`, aligned as
    TMA's coordinates must be): TMA fills it with zeros, reads no memory and counts its
    bytes, so every slot completes alike."""
    block = Block()
    b = OpBuilder(InsertPoint.at_end(block), location)
    rows, rb = _row_loop(b, pid, programs, persistent, b.int_constant(0, 32))
    row, count = rows.body.args
    fills = Block(arg_types=[i32])
    rb.insert(scf.ForOp(rb.int_constant(0, 32), row_slots, rb.int_constant(1, 32), [], body=fills))
    fb = OpBuilder(InsertPoint.at_end(fills), location)
    fill = fills.args[0]
    slot, phase = ring.slot_and_phase(fb, fb.addi(count, fill))
    fb.insert(ttng.WaitBarrierOp(single_buffer_view(fb, ring.empty, slot), fb.xori(phase, fb.int_constant(1, 32))))
    full = single_buffer_view(fb, ring.full, slot)
    true = fb.constant(1, i1)
    fb.insert(ttng.BarrierExpectOp(full, true, size=program.slot_bytes))
    for within in range(ring.chunks_per_slot):
        chunk = fb.addi(fb.muli(fill, fb.int_constant(ring.chunks_per_slot, 32)), fb.int_constant(within, 32))
        in_row = fb.cmpi(CmpIPredicate.slt, chunk, trips)
        for load, desc, past_end, buffer in zip(program.loads, descriptors, past_ends, ring.buffers):
            coordinate = fb.select(in_row, _coordinate(fb, load, row, chunk, program.row.first, builder), past_end)
            fb.insert(ttng.AsyncTMACopyGlobalToLocalOp(desc, [coordinate], full, ring.chunk(fb, buffer, slot, within),
                                                      true))
    fb.insert(scf.YieldOp())
    rb.insert(scf.YieldOp(rb.addi(count, row_slots)))
    b.insert(ttg.WarpReturnOp())
    return block


def _consumer(program: RowProgram, ring: _Ring, body: list[Operation], row_slots: SSAValue,
              pid: SSAValue, programs: SSAValue, sms: int, consumer: int, consumers: int,
              analysis: TileAccessAnalysis, location) -> Block:
    """Consumer `consumer` of `consumers` (at most 2; step 5): the function body for each of
    its rows, rows `pid + consumer P`, then every `consumers P`-th (P = `sms`)."""
    block = Block()
    b = OpBuilder(InsertPoint.at_end(block), location)
    first_row = b.addi(pid, b.int_constant(sms, 32)) if consumer else pid
    first_count = row_slots if consumer else b.int_constant(0, 32)
    rows, rb = _row_loop(b, first_row, programs, b.int_constant(consumers * sms, 32), first_count)
    row, count = rows.body.args
    mapping: dict[SSAValue, SSAValue] = {pid: row}
    for op in body:
        rb.insert(op.clone(value_mapper=mapping))
    row_start = _cloned_loop(program.row.first, mapping)
    last = len(program.row.loops) - 1
    for index, loop in enumerate(program.row.loops):
        cloned = _cloned_loop(loop, mapping)
        reads = [_SlotRead(mapping[access.op.result].owner, ring.buffers[program.row.loads.index(load)],
                           access.unit_dims) for access, load in program.row.reads(index)]
        writes = [_SlotWrite(mapping[store.op.value], ring.buffers[store.forwarded]) for store in program.stores
                  if store.forwarded is not None and store.op.parent_op() is loop]
        loads = [load.op for load in program.prefetched if load.loop is loop]
        distance = program.prefetch_distance(loads, consumers) if loads else 1
        if loads:
            cloned = prefetch(cloned, [mapping[load.result].owner for load in loads], distance,
                              earliest=row_start)
        factor = math.lcm(distance, ring.chunks_per_slot)
        runs, copies = unroll(cloned, factor, analysis)
        if index == 0:
            row_start = runs
        slots_a_run = factor // ring.chunks_per_slot
        sb = OpBuilder(InsertPoint.at_start(runs.body), runs.location)
        _runs_read_slots(copies, sb.muli(iteration_index(sb, runs), sb.int_constant(slots_a_run, 32)), reads,
                         writes, ring, count, wait=index == 0, release=index == last, computed=True)
        sb.set_before(cloned)  # the row's last chunks, fewer than a run: one run of guarded copies
        runs_done = sb.divsi(sb.subi(runs.upperBound, runs.lowerBound), runs.step)
        last_run_slot = sb.muli(runs_done, sb.int_constant(slots_a_run, 32))
        _runs_read_slots(guarded_run(cloned, factor), last_run_slot, reads, writes, ring, count, wait=index == 0,
                         release=index == last, computed=False)
    step = rb.muli(row_slots, rb.int_constant(consumers, 32)) if consumers > 1 else row_slots
    rb.insert(scf.YieldOp(rb.addi(count, step)))
    b.insert(ttg.WarpYieldOp() if consumer == 0 else ttg.WarpReturnOp())
    return block


def _cloned_loop(loop: scf.ForOp, mapping: dict[SSAValue, SSAValue]) -> scf.ForOp:
    """The clone of `loop` (the owner of its induction variable's clone)."""
    return mapping[loop.body.args[0]].owner.parent_op()


def _runs_read_slots(copies: list[UnrolledCopy], run_slot: SSAValue, reads: list[_SlotRead],
                     writes: list[_SlotWrite], ring: _Ring, count: SSAValue, wait: bool, release: bool,
                     computed: bool) -> None:
    """Step 7 in a run (the loop of runs, whole slots inside the row, or the guarded run of
    the row's last chunks) whose first slot is the row's `run_slot`: copies i to i + k - 1
    (i a multiple of k) read the row's slot `run_slot` + i / k, all its chunks at once
    before copy i: the first loop after waiting for the slot's full mbarrier (`wait`), the
    last then releasing it (`_free_slot`, `release`) after copy i + k - 1 (`computed`: the
    loop of runs) or, in the guarded run, whose copies nest in the ifs of the chunks in
    the row, before copy i. Each copy writes its forwarded tiles (`writes`) into its chunk
    of the slot where it stores them."""
    k = ring.chunks_per_slot
    for group in range(0, len(copies), k):
        b = OpBuilder(InsertPoint.before(copies[group].ops[0]), copies[group].ops[0].location)
        slot, phase = ring.slot_and_phase(b, b.addi(count, b.addi(run_slot, b.int_constant(group // k, 32))))
        if wait:
            b.insert(ttng.WaitBarrierOp(single_buffer_view(b, ring.full, slot), phase))
        read = [(load, _box_value(load, ring.chunk(b, x.buffer, slot, place), x.unit_dims, b))
                for place, copy in enumerate(copies[group:group + k])
                for x in reads for load in (copy.mapping[x.load.result].owner, )]
        if release:
            at = b
            if computed:
                last = copies[group + k - 1].ops[-1]
                at = OpBuilder(InsertPoint.after(last), last.location)
            _free_slot(at, ring, slot)
        for place, copy in enumerate(copies[group:group + k]):
            for write in writes:
                value = copy.mapping[write.value]
                store = next(op for op in copy.ops if isinstance(op, tt.StoreOp) and op.value is value)
                wb = OpBuilder(InsertPoint.before(store), store.location)
                wb.insert(ttg.LocalStoreOp(value, ring.chunk(wb, write.buffer, slot, place)))
        for load, value in read:  # last: the loads' address ops go, the first copy's included
            replace_load(load, _selected(load, value))


def _box_value(load: tt.LoadOp, chunk: SSAValue, unit_dims: tuple[int, ...], b: OpBuilder) -> SSAValue:
    """The box the load reads, from `chunk` (at `b`), its tile's dimensions of size 1
    expanded back (`unit_dims`)."""
    value = b.insert(ttg.LocalLoadOp(chunk, result_type=without_unit_dims(load.result.type, unit_dims))).result
    for dim in unit_dims:
        box = value.type
        shape = [*box.get_shape()[:dim], 1, *box.get_shape()[dim:]]
        value = b.insert(tt.ExpandDimsOp(value, axis=dim, result_type=TensorType(box.element_type, shape,
                                                                                  box.encoding.parent))).result
    return value


def _selected(load: tt.LoadOp, value: SSAValue) -> SSAValue:
    """What the load gives: where it has a mask and an `other`, `value` where the mask holds
    (the box may read the next row where it does not), selected at the load (the mask may be
    computed after the slot's read)."""
    if load.mask is None or load.other is None:
        return value
    return OpBuilder(InsertPoint.before(load), load.location).select(load.mask, value, load.other)


def _free_slot(b: OpBuilder, ring: _Ring, slot: SSAValue) -> None:
    """Every warp has read `slot` (a proxy fence, then a barrier); free it; a second barrier
    keeps every warp's next shared-memory access after the arrive (Triton's barrier analysis
    would otherwise put one before the next read, in every iteration). The fence orders the
    warps' reads (generic proxy) before the producer's next TMA writes into the slot (async
    proxy): without it a read issued just before the barrier could return what the next
    TMA wrote (measured: rows wrong in the chunks read last before the release, twelfth
    session)."""
    b.insert(ttng.FenceAsyncSharedOp(b_cluster=False))
    b.insert(gpu.BarrierOp())
    b.insert(ttng.ArriveBarrierOp(single_buffer_view(b, ring.empty, slot), b.constant(1, i1), count=1))
    b.insert(gpu.BarrierOp())


def build(program: RowProgram, descriptors: DescriptorBuilder, sms: int, consumers: int) -> None:
    """Steps 2-4 for one function: the program id and the run-time condition first, then
    `scf.if` (condition) { the ring version } else { the body as it was }."""
    block = program.func.body.block
    location = program.row.first.location
    pid = program.pid
    pid.owner.detach()
    block.insert_op_before(pid.owner, block.first_op)
    body = [op for op in block.ops if op is not pid.owner and not isinstance(op, tt.ReturnOp)]
    b = OpBuilder(InsertPoint.after(pid.owner), location)
    programs = b.insert(tt.GetNumProgramsOp(0)).result
    trips = hoisted_trip_count(b, program.func, program.row.first)
    chunks_per_slot = b.int_constant(program.chunks_per_slot, 32)
    row_slots = b.ceil_divsi(trips, chunks_per_slot)
    scalars = _Scalars(b, descriptors, programs)
    guard = condition(program, scalars, row_slots)
    ring_version, original = Block(), Block()
    versions = b.insert(scf.IfOp(guard, [], Region(ring_version), Region(original)))
    b.set_before(versions)  # `scalars` builds later values before the versions: the body moves into one
    for op in body:
        op.detach()
        original.add_op(op)
    original.add_op(scf.YieldOp())

    rb = OpBuilder(InsertPoint.at_end(ring_version), location)
    persistent = rb.int_constant(sms, 32)
    resident, no_row = Block(), Block()  # the programs past P exit at once: no mbarrier, no partition
    rb.insert(scf.IfOp(rb.cmpi(CmpIPredicate.slt, pid, persistent), [], Region(resident), Region(no_row)))
    no_row.add_op(scf.YieldOp())
    rb.insert(scf.YieldOp())
    rb = OpBuilder(InsertPoint.at_end(resident), location)
    rb.insert(scf.YieldOp())
    rb.set_before(resident.last_op)
    ready = rb.insert(gpu.BarrierOp())  # the mbarriers' initialisation seen by every warp
    encodings = [descriptor_encoding(load.first.op, load.first) for load in program.row.loads]
    buffers = [create_alloc(ready, load.first.box_type, location, encoding,
                            program.slots * program.chunks_per_slot, last=ready)
               for load, encoding in zip(program.row.loads, encodings)]
    full = create_barrier_alloc(ready, program.slots, 1, last=ready)
    empty = create_barrier_alloc(ready, program.slots, 1, last=ready)
    rb.set_before(ready)
    descs, past_ends = [], []
    for load, encoding in zip(program.loads, encodings):
        base = rb.insert(tt.AddPtrOp(load.base, scalars.value(load.offset))).result
        elements = scalars.elements(load)
        extent = rb.insert(arith.TruncIOp(elements, result_type=i32)).out
        past_ends.append(aligned_past_end(rb, elements, load.element_bytes))
        box = load.access.box_type
        block_type = TensorType(box.element_type, box.get_shape(), encoding)
        descs.append(rb.insert(tt.MakeTensorDescOp(base, [extent], [rb.constant(1, i64)],
                                                   tt.TensorDescType(block_type))).result)
    ring = _Ring(buffers, full, empty, rb.int_constant(program.slots, 32), program.chunks_per_slot)
    consumer_blocks = [_consumer(program, ring, body, row_slots, pid, programs, sms, consumer, consumers,
                                 descriptors.analysis, location) for consumer in range(consumers)]
    producer = _producer(program, ring, descs, past_ends, trips, row_slots, pid, programs, persistent, descriptors,
                         location)
    partitions = [*consumer_blocks[1:], producer]
    captures: list[SSAValue] = []
    isolate(partitions, captures, partitions)
    rb.set_after(ready)
    ws = rb.insert(ttg.WarpSpecializeOp(captures, default_region=Region(consumer_blocks[0]),
                                        partition_regions=[Region(block) for block in partitions],
                                        partition_num_warps=[num_warps(program.func)] * (consumers - 1)
                                        + [PRODUCER_NUM_WARPS]))
    ws.partitions_op.location = location


@dataclass(frozen=True)
class RowRing(ModulePass):
    """Stream a row program's rows through a ring of shared memory by a producer warp (persistent, warp-specialized).

    Before (one program per row; two loops over it, or more):

        %pid = tt.get_program_id x
        scf.for %off = %0 to %n step %B { %x = tt.load %row(pid)[%off..] ; sums }
        scf.for %off = %0 to %n step %B { %x = tt.load %row(pid)[%off..] ; tt.store %out(pid)[%off..] }

    After:

        scf.if (%n fits the ring less its stream slots, the rows' stores clear of their reads, TMA-aligned) {
          ttg.warp_specialize
          default {            // the kernel's warps (and, where a loop reduces, a second consumer)
            scf.for %row = %pid to %G step %P { the body, pid := row: the first loop waits for
              each slot of chunks and reads them, the later loops read them, the last releases
              each slot;
              the norms' weights loaded iterations ahead }
          }
          partition0 {         // one warp
            scf.for %row = %pid to %G step %P { scf.for %slot { wait empty ; expect ; TMA copies } }
          }
        } else { the body as it was }

    See `ttpipe.passes.warp_specialize.row_ring` for the algorithm and the preconditions.
    """

    name = "ttpipe-row-ring"

    sms: int = field(default=H100_SMS, metadata={"help": "persistent CTAs: the GPU's SM count"})
    consumers: str = field(default="auto", metadata={
        "help": "consumers on alternate rows, each of the kernel's warps: auto (two where a loop reduces across "
                "warps), 1 or 2", "check": one_of(CONSUMERS)})

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if not is_hopper(nvidia_compute_capability(op)):
            return
        analysis = TileAccessAnalysis(ModuleAxisInfo(op), aligned_bases=False, unit_dims=True)
        for func in [f for f in op.walk() if isinstance(f, tt.FuncOp)]:
            try:
                program = row_program(func, analysis)
            except NotARow as exc:
                first = next(loop for loop in func.walk() if isinstance(loop, scf.ForOp))
                emit_remark(first, REMARK + str(exc))
                continue
            if program is None:
                continue
            condition = program.launch_condition()
            if condition.known and not condition.holds(()):
                emit_remark(program.row.first, REMARK + f"rows of {condition.trips(())} chunks; the ring pays for "
                            f"{condition.at_least} to {condition.at_most}")
                continue
            fit = most_consumers(func)
            consumers = min(program.consumers, fit) if self.consumers == "auto" else int(self.consumers)
            if consumers > fit:
                emit_remark(program.row.first, REMARK + f"{consumers} consumers of {num_warps(func)} warps and the "
                            f"producer's warpgroup are more than a CTA's {MAX_WARPS_PER_CTA} warps")
                continue
            if self.consumers == "auto" and consumers == 1 and fit > 1:  # step 5: two consumers for longer rows
                if condition.known:
                    consumers = 1 if condition.trips(()) <= program.one_consumer_trips else 2
                elif condition.at_least > program.one_consumer_trips:
                    consumers = 2
                else:
                    condition = replace(condition, at_most=program.one_consumer_trips,
                                        instead=f"{self.name}{{sms={self.sms} consumers=2}}")
            build(program, DescriptorBuilder(func, analysis), self.sms, consumers)
            if not condition.known:
                set_launch_condition(func, condition)
