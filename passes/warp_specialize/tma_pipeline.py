"""The TMA producer / wgmma consumer ring as IR builders: CUTLASS's `PipelineTmaAsync`
verbs and `PipelineState`, written fresh for TTGIR (CUTLASS
`include/cutlass/pipeline/sm90_pipeline.hpp`; CuTe DSL `cutlass/pipeline/sm90.py`).

A ring of `stages` shared-memory stages, each with a *full* and an *empty* mbarrier:

    barrier  init count               producer                   consumer
    full[s]  1                        acquire: arrive.expect_tx  wait: try_wait.parity
                                      (TMA completes the bytes)
    empty[s] consumer warpgroups      acquire: try_wait.parity   release: arrive

       producer ──TMA──▶ [ stage 0 | stage 1 | ... | stage S-1 ] ──wgmma──▶ consumer
                 ◀──────────────── empty[s] arrive ──────────────────────

`PipelineState` is (index, phase): the stage an iteration uses and the parity of the
mbarrier phase it waits for; `advance` moves to the next stage and flips the phase when
the index wraps. A fresh mbarrier is in phase 0, and a wait for parity 1 (the phase
"before" it) returns at once, so the producer starts at phase 1 (every stage starts
empty) and the consumer at phase 0: at iteration k the producer waits empty[k % S] with
`((k / S) & 1) ^ 1`, the consumer waits full[k % S] with `(k / S) & 1`.

Differences from CUTLASS: no cluster multicast (one CTA), no `count` in the state (the
loops know their trip count), and `consumer_release` is issued once per warpgroup by
thread 0 (Triton's `ttng.arrive_barrier`), not by an elected thread per warp.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from xdsl.dialects.builtin import TensorType
from xdsl.ir import Operation, SSAValue

from ttpipe.dialects import arith, tt, ttg, ttng
from ttpipe.dialects.ttg_attrs import DotOperandEncodingAttr, NVMMASharedEncodingAttr
from ttpipe.dialects.arith import CmpIPredicate
from ttpipe.passes.accelerate_matmul import is_pure_elementwise
from ttpipe.passes.common.builder import OpBuilder
from ttpipe.passes.common.hardware import MBARRIER_BYTES, SM90_MAX_SHARED_MEMORY_PER_BLOCK
from ttpipe.passes.pipeline.lower_loops import (
    MEMDESC_VIEWS,
    Unsupported,
    create_alloc,
    create_barrier_alloc,
    encoding_from_descriptor,
    single_buffer_view,
    tile_bytes,
)
from ttpipe.passes.warp_specialize.cooperative import Refused

PRODUCER_START_PHASE = 1
"""The producer's first waits on the fresh empty mbarriers must pass (CUTLASS
`make_producer_start_state`)."""

CONSUMER_START_PHASE = 0

MIN_STAGES = 2
"""The consumer frees a stage one iteration after reading it (its wgmma is still in flight
until the next `warp_group_dot_wait`), so the producer needs a second stage to fill."""


def stage_bytes(loads: Sequence[tt.DescriptorLoadOp]) -> int:
    """The bytes TMA tile loads bring together: the expect-tx count of the one mbarrier
    their copies signal (a ring stage's, or the Q tiles')."""
    return sum(tile_bytes(load.result.type) for load in loads)


def ring_bytes(stages: int, stage_bytes: int) -> int:
    """Shared memory of a ring: the stages and a full and an empty mbarrier per stage."""
    return stages * (stage_bytes + 2 * MBARRIER_BYTES)


def deepest_ring(asked: int, floor: int, shared_bytes: Callable[[int], int]) -> int:
    """The most stages from `asked` down to `floor` whose ring, with what lives beside it
    (`shared_bytes(stages)`), fits in an sm_90 CTA's shared memory; `floor` where none does
    (the caller refuses the loop if that does not fit either)."""
    stages = asked
    while stages > floor and shared_bytes(stages) > SM90_MAX_SHARED_MEMORY_PER_BLOCK:
        stages -= 1
    return stages


def scratch_bytes(op: Operation) -> int:
    """An upper bound of the shared scratch Triton's lowering of `op` takes: a
    `ttg.convert_layout` between distributed layouts goes through shared memory (at most its
    result's bytes) unless the layouts are equal, it feeds a wgmma's A from the accumulator
    layout (registers only), it converts a broadcast, splat or constant (Triton's
    remove-layout-conversions rebuilds those in the new layout, converting the smaller
    source, itself a conversion counted here), or it reaches TMA stores only
    (`_folds_into_tma_stores`); no other op of a loop or epilogue the consumers run has
    scratch. Counted beside the ring: Triton's allocator gives it its own space while
    `ttg.warp_specialize` keeps the ring alive."""
    if not isinstance(op, ttg.ConvertLayoutOp):
        return 0
    source, result = op.src.type.encoding, op.result.type.encoding
    if source == result or (isinstance(result, DotOperandEncodingAttr) and result.parent == source):
        return 0
    if _rebuilt_from_less(op.src):
        return 0
    if _folds_into_tma_stores(op.result):
        return 0
    return tile_bytes(op.result.type)


def _folds_into_tma_stores(value: SSAValue) -> bool:
    """Every read of `value` is a TMA store's, directly or through pure elementwise ops whose
    other tensor operands are broadcasts, splats or constants (a bias added, a ReLU): the
    store's staging takes any layout, so Triton's remove-layout-conversions drops the
    conversion (moving it onto the cheap operands); a pointer store, an atomic or any other
    reader anchors the layout and keeps it."""
    for use in value.uses:
        reader = use.operation
        if isinstance(reader, tt.DescriptorStoreOp):
            continue
        cheap = all(operand is value or not isinstance(operand.type, TensorType) or _rebuilt_from_less(operand)
                    for operand in reader.operands)
        if not (is_pure_elementwise(reader) and cheap and len(reader.results) == 1
                and _folds_into_tma_stores(reader.results[0])):
            return False
    return True


def _rebuilt_from_less(value: SSAValue) -> bool:
    """A broadcast, splat or constant tensor: Triton rebuilds it in whatever layout a reader
    wants from its smaller source instead of converting it."""
    return isinstance(value.owner, (tt.BroadcastOp, tt.SplatOp, arith.ConstantOp))


@dataclass(frozen=True)
class PipelineState:
    """The stage index and the phase parity of one side of the ring, as i32 values."""

    index: SSAValue
    phase: SSAValue

    def advance(self, b: OpBuilder, stages: SSAValue) -> PipelineState:
        """The next stage: `index + 1`, wrapping to 0 and flipping the phase at `stages`."""
        zero = b.int_constant(0, 32)
        one = b.int_constant(1, 32)
        next_index = b.addi(self.index, one)
        wrap = b.cmpi(CmpIPredicate.eq, next_index, stages)
        return PipelineState(b.select(wrap, zero, next_index), b.select(wrap, b.xori(self.phase, one), self.phase))

    def skip(self, b: OpBuilder, count: SSAValue, stages: SSAValue) -> PipelineState:
        """`count` (>= 0) stages on: `index + count` modulo `stages`, the phase flipped once
        per wrap (a ping-pong warpgroup skipping the other's K iterations)."""
        moved = b.addi(self.index, count)
        wraps = b.divsi(moved, stages)
        return PipelineState(b.remsi(moved, stages), b.xori(self.phase, b.andi(wraps, b.int_constant(1, 32))))

    def previous_index(self, b: OpBuilder, stages: SSAValue) -> SSAValue:
        """The index of the stage the previous iteration used."""
        zero = b.int_constant(0, 32)
        one = b.int_constant(1, 32)
        first = b.cmpi(CmpIPredicate.eq, self.index, zero)
        return b.select(first, b.subi(stages, one), b.subi(self.index, one))


@dataclass(frozen=True)
class PipelineTmaAsync:
    """A ring filled by TMA and drained by wgmma: the shared-memory buffers (`stages x
    tile` each), the full and empty mbarriers (`stages x 1 x i64`), and the expect-tx
    bytes of one stage."""

    buffers: Sequence[SSAValue]
    full: SSAValue
    empty: SSAValue
    stage_bytes: int

    @staticmethod
    def around(anchor: Operation, loads: Sequence[tt.DescriptorLoadOp], stages: int,
               consumers: int) -> PipelineTmaAsync:
        """The ring of `loads`, allocated and initialised before `anchor` and freed after
        it: a `stages x tile` buffer per load in its descriptor's encoding, `stages` full
        mbarriers (count 1) and `stages` empty ones (count `consumers`)."""
        buffers = [create_alloc(anchor, load.result.type, load.location,
                                encoding_from_descriptor(load.result.type, load.desc), stages) for load in loads]
        full = create_barrier_alloc(anchor, stages, 1)
        empty = create_barrier_alloc(anchor, stages, consumers)
        return PipelineTmaAsync(buffers, full, empty, stage_bytes(loads))

    def mapped(self, mapping: dict[SSAValue, SSAValue]) -> PipelineTmaAsync:
        """The ring as a region that captured it sees it."""
        return PipelineTmaAsync([mapping[v] for v in self.buffers], mapping[self.full], mapping[self.empty],
                                self.stage_bytes)

    @property
    def values(self) -> list[SSAValue]:
        """The buffers and the mbarrier arrays: what a partition captures."""
        return [*self.buffers, self.full, self.empty]

    def slot(self, b: OpBuilder, buffer: SSAValue, index: SSAValue) -> SSAValue:
        """The view of stage `index` of one of the ring's buffers."""
        return single_buffer_view(b, buffer, index)

    def producer_acquire(self, b: OpBuilder, state: PipelineState, pred: SSAValue) -> SSAValue:
        """Wait until the stage is empty, then arm its full mbarrier with the stage's
        bytes (the producer's one arrival); returns that mbarrier, which the TMA copies
        of the stage signal."""
        b.insert(ttng.WaitBarrierOp(single_buffer_view(b, self.empty, state.index), state.phase))
        full = single_buffer_view(b, self.full, state.index)
        b.insert(ttng.BarrierExpectOp(full, pred, size=self.stage_bytes))
        return full

    def producer_commit(self, b: OpBuilder, state: PipelineState) -> None:
        """Nothing to emit: each TMA copy completes its bytes on the full mbarrier
        (`complete_tx`), and `producer_acquire`'s expect-tx was the producer's arrival, so
        the phase completes when the last byte lands (CUTLASS `PipelineTmaAsync` makes
        this a no-op too)."""

    def consumer_wait(self, b: OpBuilder, state: PipelineState) -> None:
        """Wait until the stage's TMA bytes have all landed."""
        b.insert(ttng.WaitBarrierOp(single_buffer_view(b, self.full, state.index), state.phase))

    def consumer_release(self, b: OpBuilder, index: SSAValue, pred: SSAValue) -> None:
        """Mark stage `index` empty (one arrival per consumer warpgroup), where `pred`
        holds. Call it only once nothing reads the stage any more: after the
        `warp_group_dot_wait` that retired the wgmmas reading it."""
        b.insert(ttng.ArriveBarrierOp(single_buffer_view(b, self.empty, index), pred, count=1))


def ring_tile_alloc(load: tt.DescriptorLoadOp) -> ttg.LocalAllocOp:
    """A TMA tile load whose only use is a `local_alloc` in the descriptor's encoding (so
    the ring slot can stand for the allocation)."""
    uses = list(load.result.uses)
    alloc = uses[0].operation if len(uses) == 1 else None
    if not isinstance(alloc, ttg.LocalAllocOp):
        raise Refused("a TMA load whose value is used other than by one ttg.local_alloc")
    try:
        encoding = encoding_from_descriptor(load.result.type, load.desc)
    except Unsupported as exc:
        raise Refused(str(exc)) from None
    if encoding != alloc.result.type.encoding:
        raise Refused("a TMA load stored to shared memory in another encoding than its descriptor's")
    if isinstance(encoding, NVMMASharedEncodingAttr) and encoding.fp4_padded:
        raise Refused("fp4-padded TMA loads are a later round")
    return alloc


def reaches_alloc(op: Operation, allocs: set[Operation]) -> bool:
    """`op` is one of `allocs`, or a memdesc view (of a view ...) of one."""
    while isinstance(op, MEMDESC_VIEWS):
        op = op.src.owner
    return op in allocs
