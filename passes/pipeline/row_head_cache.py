"""`ttpipe-row-head-cache`: a row kernel keeps the head of its row in shared memory for its
second pass, and walks that pass backwards, so that L2 only has to hold the row's tail.

A row kernel in two passes (statistics, then the output) re-reads its row; with the second
pass walked backwards (`ttpipe-reverse-rereads`), L2 serves the re-read of the row's end,
read last, but not of its start, evicted by the time the pass gets there once the rows in
flight outgrow L2 (8 CTAs x 132 SMs x 64 KB rows is 67 MB on an H100). The shared memory
each CTA may take without lowering the occupancy its warps allow (28 KB at 8 warps) holds
that start: the first pass stores its first chunks there as it reads them, the backwards
second pass reads them there last.

Algorithm, for every `tt.func` on sm_90 (TTGIR):
  1. Candidates: each last re-read X2 (`ttpipe.passes.analysis.rereads`) with its earlier
     reads, X1 the first (a three-pass layer norm reads its row in a mean loop, a variance
     loop and an output loop), where X1's value is each later read's (the same mask and
     `other`: `same_result`), the loops L1 (X1's) and L2 (X2's) walk the same iterations
     (as `last_rereads` pairs them), the reads are tensors with a layout, and L2 may run backwards
     (`reverse_rereads.reversible`).
  2. No write between the reads: from X1 to X2 (L1's body, whose later iterations run after
     X1, the ops and loops between L1 and L2, L2's body), no op with side effects but `tt.load`s and stores through other
     base pointers than X1's (`TileAccessAnalysis.pointer`), taken to address other memory
     (the assumption `ttpipe-reverse-rereads` makes); stores of L2 through X1's base are
     L2's own, which reversal proved touch each iteration's own window: each writes the
     chunk its iteration read, after reading it.
  3. The head: `chunks = (SM90_SHARED_MEMORY_PER_SM / ctas - SM90_SHARED_MEMORY_RESERVED_PER_CTA
     - scratch - the function's own shared buffers) / (bytes of the cached loads' tiles)`,
     `ctas` = the CTAs per SM the kernel's warps allow (`sm90_ctas_per_sm_by_warps`), `scratch` the larger of SCRATCH_RESERVE_BYTES and
     the largest layout conversion's; nothing where that is 0.
  4. Rewrite: a `chunks x tile` buffer per cached load (unswizzled, the load's order), made
     before L1 and freed after L2. In L1, after X1: `if j < chunks: local_store X1 ->
     head[j]` (j the iteration count). X2 and the reads between become `if j < chunks:
     local_load head[j] else: X` (X unchanged, its hints kept). Then L2 runs backwards (step 3 of
     `ttpipe-reverse-rereads`), so the chunks it reads from shared memory come last.
     Triton's barrier analysis orders the stores before the loads (a `bar.sync` in the
     iterations that touch the buffer).

Measured on the H100 (`python -m ttpipe.bench`, bf16, 8 warps, chunks of 2048: a 24 KB
head, 32 registers, 8 CTAs per SM; docs/measurements.md, 2026-11-26, seventh session): the
looped layer norm, RMS norm and online softmax over rows of 32768 elements from 0.74-0.76x
to 0.80-0.84x the copy bandwidth (1.23-1.27x stock Triton), a three-pass layer norm from
1.07x to 1.35x stock; rows of 8192 and 131072 unchanged within the noise; but shorter rows
in other chunkings lose up to 8 % (2048 elements in chunks of 512 at 4 warps: 0.93x stock;
4096 in chunks of 2048: 0.95x), where L2 held the row anyway and the head's shared memory
(likely through the L1 it takes from every row) costs more than it saves; guarding the
head with the row's length at run time (the reversal's `rows_l2_holds`) measured worse
still (0.92-0.94x), the buffer being allocated either way. So `ttgir-sm90` runs this pass
only with `row-head-cache=true`.

A last read not cached gets a remark `row head not kept in shared memory: <reason>`.
Preconditions: sm_90 TTGIR. Run after `ttpipe-l2-eviction` (whose hints X2 keeps) and
`ttpipe-row-cache` (a whole row cached leaves no re-read), before `ttpipe-reverse-rereads`
(which would no longer match L2's reads with L1's). Its own reversal of L2 is not guarded by
the row's length (a row shorter than L2 holds is cached whole, and read from there). Attributes read and written: none.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, TensorType, i32
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint
from xdsl.traits import is_side_effect_free

from ttpipe.dialects import scf, tt, ttg
from ttpipe.dialects.arith import CmpIPredicate
from ttpipe.passes.analysis.axis_info import ModuleAxisInfo
from ttpipe.passes.analysis.rereads import Rereads, last_rereads, same_result
from ttpipe.passes.analysis.tile_access import NotATile, TileAccessAnalysis
from ttpipe.passes.common.builder import OpBuilder
from ttpipe.passes.common.diagnostics import emit_remark
from ttpipe.passes.common.hardware import (
    SM90_SHARED_MEMORY_PER_SM,
    SM90_SHARED_MEMORY_RESERVED_PER_CTA,
    is_hopper,
    sm90_ctas_per_sm_by_warps,
)
from ttpipe.passes.common.ir import enclosing_function, is_before_in_block, iteration_index
from ttpipe.passes.common.target import nvidia_compute_capability, num_warps
from ttpipe.passes.pipeline.lower_loops import create_alloc, single_buffer_view, tile_bytes
from ttpipe.passes.pipeline.pipelining_utility import shared_encoding
from ttpipe.passes.pipeline.stream_loops import allocated_shared_memory
from ttpipe.passes.reverse_rereads import reverse, reversible
from ttpipe.passes.warp_specialize.tma_pipeline import scratch_bytes

REMARK = "row head not kept in shared memory: "

SCRATCH_RESERVE_BYTES = 2048
"""Shared memory left at least for the scratch Triton allocates after this pass (a row
reduction across warps needs a few hundred bytes); more where the function converts a
tensor between layouts (`scratch_bytes`: a store whose pointers are not 16-byte aligned
converts its value, 4 KB for 2048 bf16)."""


@dataclass
class RowHead:
    """Step 1's first and last loop and the reads whose chunks the head keeps."""

    first: scf.ForOp
    last: scf.ForOp
    reads: list[Rereads]

    @property
    def chunk_bytes(self) -> int:
        return sum(tile_bytes(reads.last.result.type) for reads in self.reads)


def head_chunks(row: RowHead) -> int:
    """Step 3: the chunks the head holds without costing the kernel CTAs."""
    ctas = sm90_ctas_per_sm_by_warps(num_warps(row.first))
    scratch = max([SCRATCH_RESERVE_BYTES, *(scratch_bytes(op) for op in enclosing_function(row.first).walk())])
    budget = (SM90_SHARED_MEMORY_PER_SM // ctas - SM90_SHARED_MEMORY_RESERVED_PER_CTA - scratch
              - allocated_shared_memory(row.first))
    return max(budget, 0) // row.chunk_bytes


def _between(first_read: tt.LoadOp, last_read: tt.LoadOp) -> list[Operation]:
    """The ops that may run between X1 and X2 of one chunk: L1's body (the rest of X1's
    iteration and the later iterations), the ops between the loops, and L2's body (nested
    ops included)."""
    first, second = first_read.parent_op(), last_read.parent_op()
    tops = [op for op in first.body.ops if op is not first_read]
    tops += [op for op in first.parent_block().ops if is_before_in_block(first, op) and is_before_in_block(op, second)]
    tops += list(second.body.ops)
    return [nested for top in tops for nested in top.walk()]


def _base(access: tt.LoadOp | tt.StoreOp, analysis: TileAccessAnalysis) -> SSAValue | None:
    """The scalar base pointer the access addresses from, or None where the analysis cannot tell."""
    loop = access.parent_op()
    try:
        return analysis.pointer(access.ptr, loop if isinstance(loop, scf.ForOp) else None).base
    except NotATile:
        return None


def _unwritten(first_read: tt.LoadOp, last_read: tt.LoadOp, analysis: TileAccessAnalysis) -> bool:
    """Step 2."""
    second = last_read.parent_op()
    base = _base(first_read, analysis)
    for op in _between(first_read, last_read):
        if isinstance(op, tt.StoreOp):
            written = _base(op, analysis)
            own = op.parent_op() is second and is_before_in_block(last_read, op)
            if written is None or (written is base and not own):
                return False
        elif not op.regions and not isinstance(op, tt.LoadOp) and not is_side_effect_free(op):
            return False
    return base is not None


def find(reads: Rereads, analysis: TileAccessAnalysis) -> RowHead | str:
    """Steps 1-2 for one last read: what to cache, or why nothing."""
    first_read, last_read = reads.earlier[0], reads.last
    first, last = first_read.parent_op(), last_read.parent_op()
    if not (isinstance(first_read.result.type, TensorType) and shared_encoding(first_read) is not None):
        return "the first read is no tensor with a layout"
    if not all(same_result(first_read, later) for later in (*reads.earlier[1:], last_read)):
        return "a later read has another mask or `other` than the first"
    if not reversible(last, analysis):
        return "the last loop's iterations may depend on each other (it cannot run backwards)"
    if not _unwritten(first_read, last_read, analysis):
        return "a store between the reads may write the row"
    return RowHead(first, last, [reads])


def _in_head(b: OpBuilder, loop: scf.ForOp, chunks: int) -> tuple[SSAValue, SSAValue]:
    """(j, `j < chunks`) at `b`'s point in `loop`'s body, j the iterations run before this one."""
    index = iteration_index(b, loop)
    return index, b.cmpi(CmpIPredicate.slt, index, b.constant(chunks, i32))


def cache_head(row: RowHead, chunks: int) -> None:
    """Step 4."""
    for reads in row.reads:
        first_read = reads.earlier[0]
        type_ = first_read.result.type
        head = create_alloc(row.first, type_, first_read.location, shared_encoding(first_read), chunks, last=row.last)
        b = OpBuilder(InsertPoint.after(first_read), first_read.location)
        index, in_head = _in_head(b, row.first, chunks)
        stored = Block()
        b.insert(scf.IfOp(in_head, [], Region(stored)))
        sb = OpBuilder(InsertPoint.at_end(stored), first_read.location)
        sb.insert(ttg.LocalStoreOp(first_read.result, single_buffer_view(sb, head, index)))
        sb.insert(scf.YieldOp())
        for later in (*reads.earlier[1:], reads.last):
            _read_head(later, head, chunks)
    reverse(row.last)


def _read_head(load: tt.LoadOp, head: SSAValue, chunks: int) -> None:
    """`load` becomes `if j < chunks: local_load head[j] else: load`."""
    b = OpBuilder(InsertPoint.before(load), load.location)
    index, in_head = _in_head(b, load.parent_op(), chunks)
    cached, loaded = Block(), Block()
    choice = b.insert(scf.IfOp(in_head, [load.result.type], Region(cached), Region(loaded)))
    cb = OpBuilder(InsertPoint.at_end(cached), load.location)
    view = single_buffer_view(cb, head, index)
    cb.insert(scf.YieldOp(cb.insert(ttg.LocalLoadOp(view, result_type=load.result.type)).result))
    load.result.replace_all_uses_with(choice.results[0])
    load.detach()
    loaded.add_op(load)
    loaded.add_op(scf.YieldOp(load.result))


@dataclass(frozen=True)
class RowHeadCache(ModulePass):
    """Keep the head of a row a kernel reads twice in shared memory, and walk the second read backwards.

    Before:

        scf.for %off = %0 to %n step %B { %x = tt.load %row[%off..] ; sums }
        scf.for %off = %0 to %n step %B { %x = tt.load %row[%off..] ; tt.store %out[%off..] }

    After (K chunks of shared memory the CTA's occupancy leaves):

        scf.for %off = %0 to %n step %B { %x = tt.load %row[%off..] ; if j < K { head[j] = %x } ; sums }
        scf.for %off = %0 to %n step %B {      // backwards: j = last .. 0
          %x = if j < K { head[j] } else { tt.load %row[%off..] } ; tt.store %out[%off..]
        }

    See `ttpipe.passes.pipeline.row_head_cache` for the algorithm.
    """

    name = "ttpipe-row-head-cache"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if not is_hopper(nvidia_compute_capability(op)):
            return
        candidates = [reads for func in op.walk() if isinstance(func, tt.FuncOp) for reads in last_rereads(func)]
        if not candidates:
            return  # no axis info to compute
        analysis = TileAccessAnalysis(ModuleAxisInfo(op))
        rows: list[RowHead] = []
        for reads in candidates:
            found = find(reads, analysis)
            if isinstance(found, RowHead):
                rows.append(found)
            else:
                emit_remark(reads.last, REMARK + found)
        for row in _merged(rows):
            chunks = head_chunks(row)
            if chunks > 0:
                cache_head(row, chunks)
            else:
                emit_remark(row.reads[0].last, REMARK + f"one iteration reads {row.chunk_bytes} bytes; the "
                            f"shared memory its occupancy leaves holds less")


def _merged(rows: list[RowHead]) -> list[RowHead]:
    """One `RowHead` per last loop (it is reversed once), holding the reads it shares with
    the first loop found for it."""
    merged: dict[Operation, RowHead] = {}
    for row in rows:
        if row.last not in merged:
            merged[row.last] = row
        elif merged[row.last].first is row.first:
            merged[row.last].reads += row.reads
    return list(merged.values())
