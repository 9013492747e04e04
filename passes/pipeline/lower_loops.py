"""`ttpipe-lower-loops`: the lowering phase of software pipelining.

A port of Triton 3.6 `lib/Dialect/TritonGPU/Transforms/Pipeliner/LowerLoops.cpp` (the first
step of `tritongpu-pipeline`, alone in the test pass `tritongpu-test-pipeline-lower-loop`),
with the helpers it calls from `PipeliningUtility.cpp`, `MMAv5PipelineUtility.cpp`,
`Utility.cpp` (`replaceUsesAndPropagateType`, `replaceUsesWithLocalLoad`,
`getSharedEncIfAllUsersAreDotEnc`) and `TMAUtilities.cpp`.

For every `scf.for` that carries a schedule (`tt.scheduled_max_stage`, and `loop.stage`/
`loop.cluster` on its body ops), it rewrites the body into the asynchronous form the
expander (`expand.py`) turns into prologue, kernel and epilogue. Every op it creates gets a
stage and cluster (through `StageBuilder`), so the expander can place it.

Algorithm, per loop (innermost first):
  1. Read the schedule (`CoarseSchedule.deserialize`).
  2. tcgen05 MMAs (`lower_mmas`), for each `tc_gen5_mma[_scaled]` with `tt.self_latency`
     and a TMEM accumulator allocated outside the loop:
     a. hoist shared/TMEM operand buffers allocated in the loop out of it (a store
        replaces the allocation);
     b. make the MMA async with an mbarrier commit into a ring of `n` mbarriers, `n` the
        stages between the MMA and its wait; add `wait_barrier` (phase, buffers it guards)
        at the wait's stage, before the first read of the accumulator (a new cluster), or
        `tt.self_latency` stages later; the phase and mbarrier index are loop-carried;
     c. multi-buffer the TMEM accumulator (`n x ...`) when its users span stages: the
        buffer index advances where the accumulator is overwritten (a store, or an MMA not
        accumulating).
  3. Loads (`lower_loads`), for each top-level `tt.load`, `tt.descriptor_load` or
     `tt.descriptor_gather` whose first use is `d > 0` stages later:
     a. a cp.async-able load (>= 4 bytes per copy, >= 32 bits per thread) or a TMA load
        gets a `local_alloc` of `d x ...` (one more for wgmma operands); loads sharing `d`
        share one ring: a loop-carried insert and extract index (and phase with TMA);
     b. TMA loads issued together (same stage and cluster, no use in between, same `d`)
        share one mbarrier per slot: one `barrier_expect` with their summed bytes and one
        `wait_barrier` before their first use;
     c. `tt.load` becomes `async_copy_global_to_local` + `async_commit_group` at its
        stage, `async_wait` + `local_load` at its first use; TMA loads become
        `async_tma_copy_global_to_local`/`async_tma_gather`; a `local_alloc` of the loaded
        value with the ring's encoding disappears (its users read the ring slot; this is how
        block scales, which AccelerateMatmul routes through shared memory, land directly in
        the ring); a scalar load becomes a load of `tensor<1x...>` first;
     d. the new index arithmetic takes the stage of its users (`schedule_dependencies`);
        an `async_wait {num = 0}` follows a loop with cp.async copies.
  4. `tt.make_tensor_descriptor` in the loop writes its descriptor into a ring of 128-byte
     global scratch slots (`tensormap_create`, fence, `reinterpret_tensor_descriptor`); the
     slot counter is loop-carried, out of any `scf.if`/`scf.for` around the op.
  5. Write the schedule back (`serialize`).

Preconditions: Triton GPU IR after `tritongpu-schedule-loops` (or `ttpipe-schedule-loops`).

Differences from Triton:
  - Where Triton asserts or aborts (an accumulator with no point to switch buffers, an
    unscheduled op, an MMA nested in the body, a `make_tensor_descriptor` nested in other
    than `scf.if`/`scf.for`, a `memdesc_reinterpret` of a replaced buffer, a rank-reducing
    multi-CTA TMA load, a device-side descriptor without NVMMA encoding), the loop is left
    exactly as it was: the lowering works on a copy of its function and keeps it only on
    success.
  - An accumulator whose first reader comes before its MMA in the schedule (it reads the
    previous iteration's result) is waited for at the reader's stage + 1, where Triton waits
    at the MMA's stage + 1: the same stage where the reader shares the MMA's, and before
    the reader where the reader is a stage earlier, which Triton's wait is not
    (`wait_stage_for_next_iteration_reader`; a loop with `loop_unroll_factor=2`).
  - A ring whose last `wait_barrier` comes in a later cluster than its load gets one more
    slot (`def_use_stage_diff`), as a later-cluster use does in Triton. No wait Triton
    places on the corpus comes there (every corpus loop is lowered as before); the wait
    above can, where it shares the load's stage (two MMAs chained on one accumulator at 2
    stages: the next copy of B2 ran before the wait for the MMA reading B2's one slot).
  - Layout questions go through `pipelining_utility`, as in `ttpipe-assign-latencies`: a
    `tt.load` whose register or shared layout has no linear layout here (multi-CTA
    cp.async, AMD encodings) stays a register load, and a load converted to a non-dot
    layout (`swizzleDotOperandLike`) gets an unswizzled ring.
  - A load that a wgmma reads from its ring slot gets one more slot than its stages even
    where the load is also read in registers (`load_requires_additional_buffer`); Triton 3.6
    leaves that ring one slot short, and its next copy races with the wgmma in flight.
  - Dead ops Triton leaves for the canonicalizer are not created (unused constants) or are
    erased (the replaced `make_tensor_descriptor`); the MMA lowering's unused -1 is kept,
    since it decides where the canonicalizer puts the function's -1. No remarks.

Attributes: reads `tt.scheduled_max_stage`, `loop.stage`, `loop.cluster`, `tt.self_latency`
(removed), `tt.contiguity`/`tt.divisibility`/`tt.constancy` (through the axis analysis);
writes `loop.stage`/`loop.cluster` on every body op and `tt.scheduled_max_stage`.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from xdsl.context import Context
from xdsl.dialects.builtin import (
    BFloat16Type,
    Float16Type,
    Float32Type,
    Float64Type,
    IntegerType,
    ModuleOp,
    Signedness,
    TensorType,
    UnitAttr,
    i1,
    i64,
)
from xdsl.ir import Attribute, Block, BlockArgument, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from ttpipe.dialects import scf, tt, ttg, ttng
from ttpipe.dialects.arith import CmpIPredicate
from ttpipe.dialects.ttg_attrs import (
    CTAEncodingAttr,
    NVMMASharedEncodingAttr,
    SharedMemorySpaceAttr,
    SwizzledSharedEncodingAttr,
)
from ttpipe.dialects.ttg_types import AsyncTokenType, MemDescType
from ttpipe.dialects.ub import PoisonOp
from ttpipe.passes.analysis.axis_info import ModuleAxisInfo
from ttpipe.passes.common.diagnostics import emit_remark
from ttpipe.passes.common.distributed_layouts import cta_layout_of, default_blocked_encoding
from ttpipe.passes.common.hardware import TMA_DESCRIPTOR_BYTES
from ttpipe.passes.common.integers import log2_exact
from ttpipe.passes.common.ir import (
    ancestor_in_block,
    append_yield_operands,
    is_ancestor,
    is_before_in_block,
    is_zero_constant,
    properly_dominates,
    replace_all_uses_dominated_by,
    replace_for_op_with_new_signature,
    replace_if_op_with_new_signature,
    set_operand_groups,
    use_count,
    users,
)
from ttpipe.passes.common.mma_layouts import element_bit_width, shape_per_cta
from ttpipe.passes.common.shared_layouts import contiguous_dim, reshape_type, tma_block_shape, trans_type
from ttpipe.passes.common.target import num_ctas, num_warps, threads_per_warp
from ttpipe.passes.common.builder import OpBuilder, constant_int_value, value_location
from ttpipe.passes.pipeline.mmav5_utility import MMAV5_OPS, MMAv5PipelineableOperands
from ttpipe.passes.pipeline.pipelining_utility import (
    CP_ASYNC_MIN_BYTES,
    LOADS,
    TMA_LOADS,
    can_be_converted_to_async_load,
    copy_vec_bytes,
    shared_encoding,
)
from ttpipe.passes.pipeline.schedule import (
    SCHEDULED_MAX_STAGE,
    SELF_LATENCY,
    Cluster,
    CoarseSchedule,
    body_ops,
    get_int,
    schedule_dependencies,
)

TMA_DESCRIPTOR_SCRATCH_ALIGN = 128
"""Triton aligns the global scratch of device-side TMA descriptors to 128 bytes (more than
the hardware's `TMA_DESCRIPTOR_ALIGN`); ttpipe does the same, so the IR matches."""

MEMDESC_VIEWS = (ttg.MemDescIndexOp, ttg.MemDescSubsliceOp, ttg.MemDescTransOp, ttg.MemDescReshapeOp,
                 ttg.MemDescReinterpretOp)
"""Triton's `MemDescViewTrait` ops: views of a buffer, not uses of its contents."""


class Unsupported(Exception):
    """IR this port does not lower (Triton would assert, or a layout is not computed here);
    the loop is left as it was."""


# ====================================================================== the stage-aware builder


class StageBuilder(OpBuilder):
    """Triton's `OpBuilderForStage`: inserts ops at a movable point and, while it has a
    stage and cluster, places each op it inserts there in the loop's schedule."""

    def __init__(self, schedule: CoarseSchedule | None, point: InsertPoint, location: Attribute,
                 stage_cluster: tuple[int, Cluster] | None = None):
        super().__init__(point, location)
        self.schedule = schedule
        self.stage_cluster = stage_cluster

    @classmethod
    def before(cls, op: Operation, schedule: CoarseSchedule, location: Attribute | None = None) -> StageBuilder:
        """A builder inserting before `op`, at `op`'s stage and cluster if it has them."""
        return cls(schedule, InsertPoint.before(op), location or op.location, schedule.placement.get(op))

    def set_stage_cluster(self, stage_cluster: tuple[int, Cluster] | None) -> None:
        self.stage_cluster = stage_cluster

    def insert_clone(self, op: Operation) -> Operation:
        super().insert_clone(op)
        if self.schedule is not None and self.stage_cluster is not None:
            self.schedule.insert(op, *self.stage_cluster)
        return op


# ====================================================================== IR helpers (PipeliningUtility)


def single_buffer_view(b: StageBuilder, alloc: SSAValue, index: SSAValue | int) -> SSAValue:
    """`createSingleBufferView`: `memdesc_index` of one slot of an `N x ...` buffer."""
    location = value_location(alloc)
    if isinstance(index, int):
        index = b.int_constant(index, 32, location)
    ring: MemDescType = alloc.type
    view = MemDescType.get(ring.shape[1:], ring.element_type, ring.encoding, ring.memory_space, ring.mutable)
    return b.insert(ttg.MemDescIndexOp(alloc, index, result_type=view), location).result


def increment_modulo(b: StageBuilder, counter: SSAValue, modulus: SSAValue, zero: SSAValue, one: SSAValue,
                     location: Attribute) -> tuple[SSAValue, SSAValue]:
    """`createIncrementModulo`: `(counter + 1 >= modulus) ? 0 : counter + 1`, and the wrap
    condition."""
    saved, b.location = b.location, location
    plus_one = b.addi(counter, one)
    wrap = b.cmpi(CmpIPredicate.sge, plus_one, modulus)
    next_value = b.select(wrap, zero, plus_one)
    b.location = saved
    return next_value, wrap


def _shared_memdesc(shape: Sequence[int], element: Attribute, encoding: Attribute) -> MemDescType:
    return MemDescType.get(shape, element, encoding, SharedMemorySpaceAttr(), mutable=True)


def create_alloc(for_op: scf.ForOp, type_: TensorType, location: Attribute, encoding: Attribute,
                 depth: int, last: Operation | None = None) -> SSAValue:
    """`createAlloc`: a `depth x shape` shared buffer before the loop, freed after it (after
    `last`, where given)."""
    b = StageBuilder(None, InsertPoint.before(for_op), location)
    buffer = _shared_memdesc((depth, *type_.get_shape()), type_.element_type, encoding)
    alloc = b.insert(ttg.LocalAllocOp(result_type=buffer)).result
    end = for_op if last is None else last
    b.set_after(end)
    b.insert(ttg.LocalDeallocOp(alloc), end.location)
    return alloc


def tile_bytes(type_: TensorType | MemDescType) -> int:
    """The bytes of one CTA's tile of a TMA load or store, or of the buffer a TMA copy fills
    (`createTMABarrierAndWait` sums them into a stage's expect-tx count)."""
    return math.prod(shape_per_cta(type_.get_shape(), tensor_cta_layout(type_))) * \
        element_bit_width(type_.element_type) // 8


def create_barrier_alloc(op: Operation, count: int, arrive_count: int = 1, last: Operation | None = None) -> SSAValue:
    """`createBarrierAlloc`: `count` mbarriers (`count x 1 x i64`, broadcast over the CTAs)
    initialised before `op`, invalidated and freed after it (after `last`, where given)."""
    b = StageBuilder(None, InsertPoint.before(op), op.location)
    ctas = num_ctas(op)
    encoding = SwizzledSharedEncodingAttr.get(1, 1, 1, [0], CTAEncodingAttr.get([[0]] * log2_exact(ctas), 1))
    barriers = _shared_memdesc((count, 1), i64, encoding)
    alloc = b.insert(ttg.LocalAllocOp(result_type=barriers)).result
    for i in range(count):
        b.insert(ttng.InitBarrierOp(single_buffer_view(b, alloc, i), count=arrive_count))
    b.set_after(op if last is None else last)
    for i in range(count):
        b.insert(ttng.InvalBarrierOp(single_buffer_view(b, alloc, i)))
    b.insert(ttg.LocalDeallocOp(alloc))
    return alloc


# ====================================================================== IR queries


def is_true_constant(value: SSAValue) -> bool:
    """`isConstTrue` of `multibufferTensorMemory`: an `arith.constant` i1 `true`."""
    return value.type == i1 and constant_int_value(value) not in (None, 0)


def _ring_encoding(op: Operation) -> Attribute | None:
    """`getSharedEncoding(Operation *)`: a TMA load's encoding comes from its descriptor."""
    if isinstance(op, TMA_LOADS):
        return encoding_from_descriptor(op.results[0].type, op.desc)
    return shared_encoding(op)


def _placement(schedule: CoarseSchedule, op: Operation) -> tuple[int, Cluster]:
    """`schedule[op]`; Triton asserts where an op has no place."""
    placed = schedule.placement.get(op)
    if placed is None:
        raise Unsupported(f"'{op.name}' has no stage in the schedule")
    return placed


def top_level_users_in_loop(op: Operation, for_op: scf.ForOp) -> list[Operation]:
    """`getTopLevelUsersInLoop`: the body ops using `op`'s results, following them through
    the loop's yield to the next iteration and through memdesc views."""
    found: list[Operation] = []
    queue = [use for result in op.results for use in result.uses]
    while queue:
        use = queue.pop()
        user = use.operation
        if isinstance(user, scf.YieldOp) and user.parent_op() is for_op:
            queue.extend(for_op.body.args[use.index + 1].uses)
            continue
        if isinstance(user, MEMDESC_VIEWS):
            queue.extend(user.result.uses)
            continue
        top = ancestor_in_block(for_op.body, user)
        if top is not None and top not in found:
            found.append(top)
    return found


def _sort_key(schedule: CoarseSchedule, op: Operation) -> tuple[int, int, int]:
    stage, cluster = _placement(schedule, op)
    return stage, schedule.cluster_id(cluster), op.parent_block().get_operation_index(op)


def first_use_of_pipelined_op(ops: Sequence[Operation], for_op: scf.ForOp,
                              schedule: CoarseSchedule) -> Operation:
    """`getFirstUseOfPipelinedOp`: the top-level user of `ops` that runs first (Triton
    asserts there is one)."""
    found = [u for op in ops for u in top_level_users_in_loop(op, for_op)]
    if not found:
        raise Unsupported("a pipelined load without users")
    return min(found, key=lambda u: _sort_key(schedule, u))


# ====================================================================== layouts


def tensor_cta_layout(type_: TensorType) -> CTAEncodingAttr:
    cta = cta_layout_of(type_.encoding)
    if cta is None:
        raise Unsupported("no CTA layout for the load's encoding")
    return cta


def encoding_from_descriptor(type_: TensorType, desc: SSAValue) -> Attribute:
    """`getEncodingFromDescriptor`: the descriptor's shared encoding, fitted to the rank of
    a rank-reducing load (`updateEncodingForShape`)."""
    block = desc.type.blockType
    encoding = block.encoding
    if tuple(block.get_shape()) == tuple(type_.get_shape()):
        return encoding
    rank = len(type_.get_shape())
    if not encoding.cta_layout.is_default:
        raise Unsupported("rank-reducing TMA load with a multi-CTA layout")
    if isinstance(encoding, NVMMASharedEncodingAttr):
        return NVMMASharedEncodingAttr.get(encoding.swizzling_byte_width, encoding.transposed,
                                           encoding.element_bit_width, encoding.fp4_padded, rank=rank)
    if isinstance(encoding, SwizzledSharedEncodingAttr):
        order = [rank - i - 1 for i in range(rank - len(encoding.order))]
        order += [o for o in encoding.order if o < rank]
        return SwizzledSharedEncodingAttr.get(encoding.vec, encoding.per_phase, encoding.max_phase, order,
                                              CTAEncodingAttr.get_default(rank))
    raise Unsupported("unhandled tensor descriptor encoding")


# ====================================================================== rewiring buffers


def rebuilt_view(b: OpBuilder, view: Operation, value: SSAValue) -> Operation:
    """The memdesc view op `view` built again at `b` on `value` (taking its mutability),
    with `view`'s attributes."""
    old_type: MemDescType = view.result.type
    mutable = value.type.mutable
    if isinstance(view, ttg.MemDescIndexOp):
        new_type = MemDescType.get(old_type.shape, old_type.element_type, old_type.encoding,
                                   old_type.memory_space, mutable)
        new = b.insert(ttg.MemDescIndexOp(value, view.index, result_type=new_type), view.location)
    elif isinstance(view, ttg.MemDescSubsliceOp):
        new_type = MemDescType.get(old_type.shape, old_type.element_type, old_type.encoding,
                                   old_type.memory_space, mutable, old_type.alloc_shape)
        new = b.insert(ttg.MemDescSubsliceOp(value, offsets=view.offsets, result_type=new_type), view.location)
    elif isinstance(view, ttg.MemDescTransOp):
        new_type = trans_type(value.type, view.order.get_values())
        if new_type is None:
            raise Unsupported("no layout for a rebuilt memdesc_trans")
        new = b.insert(ttg.MemDescTransOp(value, order=view.order, result_type=new_type), view.location)
    elif isinstance(view, ttg.MemDescReshapeOp):
        new_type = reshape_type(value.type, old_type.shape)
        if new_type is None:
            raise Unsupported("no layout for a rebuilt memdesc_reshape")
        new = b.insert(ttg.MemDescReshapeOp(value, result_type=new_type), view.location)
    else:
        raise Unsupported("a memdesc_reinterpret of a replaced buffer")
    for name, attr in view.attributes.items():
        new.attributes.setdefault(name, attr)
    return new


def replace_uses_and_propagate_type(b: StageBuilder, old: Operation, value: SSAValue) -> None:
    """`replaceUsesAndPropagateType`: the uses of `old` read `value` instead; memdesc views
    of `old` are rebuilt on `value` (taking its mutability) and their uses rewired in turn."""
    to_erase: list[Operation] = []
    plain_uses = []
    for use in [use for result in old.results for use in result.uses]:
        user = use.operation
        if isinstance(user, ttg.WarpSpecializeOp):
            raise Unsupported("a replaced buffer captured by ttg.warp_specialize")
        if not isinstance(user, MEMDESC_VIEWS):
            plain_uses.append(use)
            continue
        saved = b.insertion_point
        b.set_before(user)
        new = rebuilt_view(b, user, value)
        b.insertion_point = saved
        replace_uses_and_propagate_type(b, user, new.result)
        to_erase.append(user)
    for use in plain_uses:
        user = use.operation
        if isinstance(user, ttng.WarpGroupDotWaitOp):
            saved = b.insertion_point
            b.set_after(user)
            inputs = list(user.inputs)
            inputs[use.index] = value
            wait = b.insert(ttng.WarpGroupDotWaitOp(inputs, pendings=user.pendings), user.location)
            b.insertion_point = saved
            for old_result, new_result in zip(user.results, wait.results):
                old_result.replace_all_uses_with(new_result)
            b.schedule.erase(user)
            Rewriter.erase_op(user)
        else:
            user.operands[use.index] = value
    for op in to_erase:
        b.schedule.erase(op)
        Rewriter.erase_op(op)


def replace_uses_with_local_load(b: StageBuilder, old: SSAValue, view: SSAValue,
                                 token: SSAValue | None = None) -> None:
    """`replaceUsesWithLocalLoad`: a `local_alloc` of `old` with the ring's encoding is
    replaced by the ring slot `view`; any other use reads `local_load(view)`."""
    allocs = []
    for user in users(old):
        if isinstance(user, ttg.LocalAllocOp) and user.result.type.encoding == view.type.encoding:
            replace_uses_and_propagate_type(b, user, view)
            allocs.append(user)
    if sum(1 for _ in old.uses) > len(allocs):
        load = b.insert(ttg.LocalLoadOp(view, token, result_type=old.type), old.owner.location)
        old.replace_all_uses_with(load.result)
    for alloc in allocs:
        b.schedule.erase(alloc)
        Rewriter.erase_op(alloc)


# ====================================================================== loads


@dataclass
class AsyncLoad:
    """One load to pipeline through shared memory (Triton's `AsyncLoad`)."""

    stage_diff: int
    shared_encoding: Attribute
    contiguity: int = 1
    alloc: SSAValue | None = None
    barrier: SSAValue | None = None
    wait_op: Operation | None = None


@dataclass
class LoadGroup:
    """The loads sharing a ring depth: the slot they fill and the slot they read, and, with
    TMA, the mbarrier phase of that slot (Triton's `LoadGroupInfo`)."""

    insert_index: SSAValue | None = None
    extract_index: SSAValue | None = None
    phase: SSAValue | None = None
    has_tma_load: bool = False


def fills_masked_lanes(op: Operation) -> bool:
    """A `tt.load` whose masked-off lanes read a non-zero `other`: its value is the ring's
    select with it, in registers (cp.async fills masked lanes with zeros)."""
    return isinstance(op, tt.LoadOp) and op.other is not None and not is_zero_constant(op.other)


def must_load_to_registers(op: Operation) -> bool:
    """`mustLoadToRegisters`: the loaded value is needed in registers, not only in the ring."""
    if fills_masked_lanes(op):
        return True
    if use_count(op) != 1:
        return True
    alloc = users(op)[0]
    if not isinstance(alloc, ttg.LocalAllocOp):
        return True
    if isinstance(op, TMA_LOADS):
        return encoding_from_descriptor(op.results[0].type, op.desc) != alloc.result.type.encoding
    return False


def def_use_stage_diff(op: Operation, for_op: scf.ForOp, schedule: CoarseSchedule) -> int:
    """`getDefUseStageDiff`: stages from the load to its first use (one more for a use in a
    later cluster), or to the last `wait_barrier` guarding the buffer (one more for a wait in
    a later cluster). With d slots the copy of iteration i + d fills iteration i's slot in the
    kernel iteration that runs the stage d stages after the load's, the wait's stage; where the
    wait's cluster follows the load's, the copy comes first there and would overwrite a slot
    the MMA in flight still reads."""
    def_stage, def_cluster = _placement(schedule, op)
    found = top_level_users_in_loop(op, for_op)
    if isinstance(op, LOADS):
        for user in list(found):
            if isinstance(user, ttg.LocalAllocOp):
                found += [u for u in top_level_users_in_loop(user, for_op) if u not in found]
    use_stage = None
    for user in found:
        stage, cluster = _placement(schedule, user)
        if schedule.cluster_id(cluster) > schedule.cluster_id(def_cluster):
            stage += 1
        use_stage = stage if use_stage is None else min(use_stage, stage)
    for user in found:
        if isinstance(user, ttng.WaitBarrierOp):
            stage, cluster = _placement(schedule, user)
            if schedule.is_before(def_cluster, cluster):
                stage += 1
            use_stage = stage if use_stage is None else max(use_stage, stage)
    if use_stage is None:
        return 0
    return use_stage - def_stage


@dataclass
class AxisQueries:
    """`ModuleAxisInfoAnalysis` as `lowerLoop` sees it: computed once on the module before
    any loop is lowered. The lowering works on copies of functions; `origin` maps a value
    of a copy to the value the analysis saw. Answers `ModuleAxisInfo`'s queries."""

    analysis: ModuleAxisInfo
    origin: dict[SSAValue, SSAValue] = field(default_factory=dict)

    def contiguity(self, value: SSAValue) -> int:
        return self.analysis.contiguity(self.origin.get(value, value))

    def mask_alignment(self, mask: SSAValue) -> int:
        return self.analysis.mask_alignment(self.origin.get(mask, mask))


def load_requires_additional_buffer(op: Operation, ring_encoding: Attribute | None) -> bool:
    """`loadRequiresAdditionalBuffer`: a wgmma reads the ring slot, and keeps reading it while
    the next wgmma is issued. Triton 3.6 asks only of a load whose one use is that
    `local_alloc`; a load also read in registers (a norm's sum of squares over A's tile)
    keeps its wgmma reading the slot all the same (`replace_uses_with_local_load` replaces
    every `local_alloc` of the ring's encoding by the slot), one slot short: the next copy
    overwrites the slot the wgmma in flight reads (`ttpipe-verify-async`: write-before-release).
    Such a load gets the slot too."""

    def non_view_users(view: Operation) -> Iterable[Operation]:
        for user in users(view):
            if isinstance(user, MEMDESC_VIEWS):
                yield from non_view_users(user)
            else:
                yield user

    def feeds_wgmma(alloc: Operation) -> bool:
        return any(isinstance(user, ttng.WarpGroupDotOp) for user in non_view_users(alloc))

    if not must_load_to_registers(op):
        return feeds_wgmma(users(op)[0])
    if fills_masked_lanes(op):
        return False  # read through a select: its allocs copy registers
    return any(isinstance(user, ttg.LocalAllocOp) and user.result.type.encoding == ring_encoding and feeds_wgmma(user)
               for user in users(op))


def convert_scalar_to_tensor_load(load: tt.LoadOp, schedule: CoarseSchedule, for_op: scf.ForOp) -> None:
    """`convertScalarToTensorLoad`: a scalar load becomes a load of `tensor<1x...>` whose
    value `tt.unsplat` turns back into a scalar at its first use."""
    blocked = default_blocked_encoding([1], num_warps(load), threads_per_warp(load), num_ctas(load))
    b = StageBuilder.before(load, schedule)
    scalar_type = load.result.type

    def splat(value: SSAValue) -> SSAValue:
        return b.insert(tt.SplatOp(value, result_type=TensorType(value.type, [1], blocked))).result

    set_operand_groups(load, ptr=[splat(load.ptr)],
                       mask=[splat(load.mask)] if load.mask is not None else [],
                       other=[splat(load.other)] if load.other is not None else [])
    Rewriter.replace_value_with_new_type(load.result, TensorType(scalar_type, [1], blocked))
    first_use = first_use_of_pipelined_op([load], for_op, schedule)
    b.set_after(load)
    b.set_stage_cluster(_placement(schedule, first_use))
    unsplat = b.insert(tt.UnsplatOp(load.result))
    load.result.replace_uses_with_if(unsplat.result, lambda use: use.operation is not unsplat)


def create_async_copy(for_op: scf.ForOp, load: tt.LoadOp, async_load: AsyncLoad, group: LoadGroup,
                      schedule: CoarseSchedule) -> None:
    """`createAsyncCopy`: cp.async into the insert slot and a commit group at the load's
    stage; `async_wait` and the read of the extract slot at its first use."""
    first_use = first_use_of_pipelined_op([load], for_op, schedule)
    b = StageBuilder(schedule, InsertPoint.before(load), load.location, _placement(schedule, load))
    view = single_buffer_view(b, async_load.alloc, group.insert_index)
    copy = b.insert(ttg.AsyncCopyGlobalToLocalOp(load.ptr, view, load.mask, load.other, cache=load.cache,
                                                 evict=load.evict, is_volatile=load.isVolatile,
                                                 contiguity=async_load.contiguity))
    commit = b.insert(ttg.AsyncCommitGroupOp([copy.token]))
    b.set_stage_cluster(_placement(schedule, first_use))
    wait = b.insert(ttg.AsyncWaitOp([commit.asyncToken], num=0))
    view_load = single_buffer_view(b, async_load.alloc, group.extract_index)
    if not fills_masked_lanes(load):
        replace_uses_with_local_load(b, load.result, view_load, wait.retToken)
    elif load.result.uses:
        shared_load = b.insert(ttg.LocalLoadOp(view_load, wait.retToken, result_type=load.result.type))
        select = b.select(load.mask, shared_load.result, load.other)
        load.result.replace_all_uses_with(select)
    schedule.erase(load)
    Rewriter.erase_op(load)


def create_tma_async_copy(for_op: scf.ForOp, load: Operation, async_load: AsyncLoad, group: LoadGroup,
                          schedule: CoarseSchedule) -> None:
    """`createTMAAsyncCopy`: the TMA copy into the insert slot, arriving on the slot's
    mbarrier, at the load's stage; the read of the extract slot after the group's wait."""
    first_use = first_use_of_pipelined_op([load], for_op, schedule)
    b = StageBuilder(schedule, InsertPoint.before(load), load.location, _placement(schedule, load))
    view = single_buffer_view(b, async_load.alloc, group.insert_index)
    pred = b.int_constant(1, 1)
    if isinstance(load, tt.DescriptorLoadOp):
        indices = list(load.indices)
        encoding = load.desc.type.blockType.encoding
        if isinstance(encoding, NVMMASharedEncodingAttr) and encoding.fp4_padded:
            indices[-1] = b.muli(indices[-1], b.int_constant(2, 32))
        b.insert(ttng.AsyncTMACopyGlobalToLocalOp(load.desc, indices, async_load.barrier, view, pred))
    else:
        b.insert(ttng.AsyncTMAGatherOp(load.desc, load.x_offsets, load.y_offset, async_load.barrier, view, pred))
    b.set_after(async_load.wait_op)
    b.set_stage_cluster(_placement(schedule, first_use))
    view_load = single_buffer_view(b, async_load.alloc, group.extract_index)
    replace_uses_with_local_load(b, load.results[0], view_load)
    schedule.erase(load)
    Rewriter.erase_op(load)


def create_tma_barriers_and_waits(for_op: scf.ForOp, async_loads: dict[Operation, AsyncLoad],
                                  groups: dict[int, LoadGroup], schedule: CoarseSchedule) -> None:
    """`createTMABarrierAndWait`: TMA loads issued back to back at the same stage and
    cluster, with the same ring depth and no use between them, share one mbarrier per slot:
    one `barrier_expect` of their summed bytes before the first, one `wait_barrier` on the
    extract slot after the last."""
    wait_groups: list[list[Operation]] = []
    visited: set[Operation] = set()
    for load, async_load in async_loads.items():
        if not isinstance(load, TMA_LOADS) or load in visited:
            continue
        block = load.parent_block()
        user_set: set[Operation] = set()
        members: list[Operation] = []

        def add(member: Operation) -> None:
            members.append(member)
            visited.add(member)
            for user in users(member):
                if not must_load_to_registers(member):
                    alloc = users(member)[0]
                    if alloc.parent_block() is block:
                        user_set.update(users(alloc))
                        continue
                top = ancestor_in_block(for_op.body, user)
                if top is not None:
                    user_set.add(top)

        add(load)
        depth = async_load.stage_diff
        next_op = load.next_op
        while next_op is not None:
            if next_op in user_set or next_op in visited:
                break
            if isinstance(next_op, TMA_LOADS) and next_op in async_loads:
                if async_loads[next_op].stage_diff != depth:
                    break
                if schedule.placement.get(members[0]) == schedule.placement.get(next_op):
                    add(next_op)
            next_op = next_op.next_op
        wait_groups.append(members)

    for members in wait_groups:
        depth = async_loads[members[0]].stage_diff
        group = groups[depth]
        size = sum(tile_bytes(member.results[0].type) for member in members)
        barriers = create_barrier_alloc(for_op, depth)
        b = StageBuilder.before(members[0], schedule, for_op.location)
        barrier = single_buffer_view(b, barriers, group.insert_index)
        b.insert(ttng.BarrierExpectOp(barrier, b.int_constant(1, 1), size=size))
        b.set_after(members[-1])
        b.set_stage_cluster(_placement(schedule, first_use_of_pipelined_op(members, for_op, schedule)))
        wait_view = single_buffer_view(b, barriers, group.extract_index)
        wait = b.insert(ttng.WaitBarrierOp(wait_view, group.phase))
        for member in members:
            async_loads[member].barrier = barrier
            async_loads[member].wait_op = wait


def lower_loads(for_op: scf.ForOp, schedule: CoarseSchedule, axis: AxisQueries) -> scf.ForOp:
    """`lowerLoads` (step 3 of the module docstring)."""
    async_loads: dict[Operation, AsyncLoad] = {}
    scalar_loads: list[tt.LoadOp] = []
    for op in body_ops(for_op):
        if not isinstance(op, LOADS):
            continue
        stage_diff = def_use_stage_diff(op, for_op, schedule)
        if stage_diff == 0:
            continue
        contiguity = 1
        result_type = op.results[0].type
        if not isinstance(result_type, TensorType):
            can_use_async_cp = element_bit_width(result_type) >= 32
            shared = SwizzledSharedEncodingAttr.get(1, 1, 1, [0], CTAEncodingAttr.get_default(1))
            if can_use_async_cp:
                scalar_loads.append(op)
        else:
            shared = _ring_encoding(op)
            can_use_async_cp = isinstance(op, tt.LoadOp) and can_be_converted_to_async_load(op, axis)
            if can_use_async_cp:
                vec_bytes = copy_vec_bytes(result_type, shared) if shared is not None else None
                can_use_async_cp = vec_bytes is not None and vec_bytes >= CP_ASYNC_MIN_BYTES
            if can_use_async_cp:
                contiguity = axis.contiguity(op.ptr)
                if op.mask is not None:
                    contiguity = min(contiguity, axis.mask_alignment(op.mask))
        if can_use_async_cp or isinstance(op, TMA_LOADS):
            if load_requires_additional_buffer(op, shared):
                stage_diff += 1
            async_loads[op] = AsyncLoad(stage_diff, shared, contiguity)

    for load in scalar_loads:
        convert_scalar_to_tensor_load(load, schedule, for_op)
    if not async_loads:
        return for_op

    groups: dict[int, LoadGroup] = {}
    for load, async_load in async_loads.items():
        async_load.alloc = create_alloc(for_op, load.results[0].type, load.location, async_load.shared_encoding,
                                        async_load.stage_diff)
        group = groups.setdefault(async_load.stage_diff, LoadGroup())
        group.has_tma_load |= isinstance(load, TMA_LOADS)

    b = StageBuilder(schedule, InsertPoint.before(for_op), for_op.location)
    minus_one = b.int_constant(-1, 32)
    zero = b.int_constant(0, 32)
    one = b.int_constant(1, 32)
    new_inits: list[SSAValue] = []
    for group in groups.values():
        new_inits += [minus_one, minus_one] + ([zero] if group.has_tma_load else [])
    first_new_arg = len(for_op.body.args)
    for_op = replace_for_op_with_new_signature(for_op, new_inits)
    append_yield_operands(for_op, new_inits)

    args = iter(for_op.body.args[first_new_arg:])
    for depth, group in groups.items():
        insert_arg, extract_arg = next(args), next(args)
        phase_arg = next(args) if group.has_tma_load else None
        b = StageBuilder(schedule, InsertPoint.before(for_op.body.first_op), for_op.location)
        depth_value = b.int_constant(depth, 32)
        group.insert_index, _ = increment_modulo(b, insert_arg, depth_value, zero, one, for_op.location)
        group.extract_index, wrapped = increment_modulo(b, extract_arg, depth_value, zero, one, for_op.location)
        if phase_arg is not None:
            group.phase = b.select(wrapped, b.xori(phase_arg, one), phase_arg)

    create_tma_barriers_and_waits(for_op, async_loads, groups, schedule)

    has_async_copies = False
    for load, async_load in async_loads.items():
        group = groups[async_load.stage_diff]
        if isinstance(load, tt.LoadOp):
            create_async_copy(for_op, load, async_load, group, schedule)
            has_async_copies = True
        else:
            create_tma_async_copy(for_op, load, async_load, group, schedule)

    yield_op = for_op.body.last_op
    index = first_new_arg - 1
    for group in groups.values():
        for value in (group.insert_index, group.extract_index, group.phase):
            if value is not None:
                yield_op.operands[index] = value
                index += 1

    schedule_dependencies(for_op, schedule)
    if has_async_copies:
        b = StageBuilder(schedule, InsertPoint.after(for_op), for_op.location)
        b.insert(ttg.AsyncWaitOp(num=0))
    for op in body_ops(for_op):
        if op not in schedule.placement:
            raise Unsupported(f"'{op.name}' not found in the schedule")
    return for_op


# ====================================================================== tcgen05 MMAs


def self_latency(op: Operation) -> int:
    """`getSelfLatencyFromAttr`: read and drop `tt.self_latency`."""
    value = get_int(op, SELF_LATENCY)
    op.attributes.pop(SELF_LATENCY, None)
    return value or 0


def tmem_use_stage_bounds(alloc: Operation, for_op: scf.ForOp,
                          schedule: CoarseSchedule) -> tuple[Operation, Operation]:
    """`getTmemUseStageBoundOps`: the first and last top-level users of the accumulator."""
    first = last = None
    for user in users(alloc):
        if not is_ancestor(for_op, user.parent_op()):
            continue
        top = ancestor_in_block(for_op.body, user)
        _placement(schedule, top)
        if first is None:
            first = last = top
        if schedule.is_op_before(top, first):
            first = top
        if schedule.is_op_before(last, top):
            last = top
    if first is None:
        raise Unsupported("accumulator without users in the loop")
    return first, last


def hoist_buffer_out_of_loop(for_op: scf.ForOp, op: Operation, schedule: CoarseSchedule) -> Operation | None:
    """`hoistBufferOutOfLoop`: a shared/TMEM allocation from a value in the loop becomes a
    mutable allocation before the loop and a store of the value where it was."""
    if not isinstance(op, (ttng.TMEMAllocOp, ttg.LocalAllocOp)) or not is_ancestor(for_op, op):
        return None
    b = StageBuilder(schedule, InsertPoint.before(for_op), op.location)
    old_type: MemDescType = op.result.type
    new_alloc = op.clone()
    set_operand_groups(new_alloc, src=[])
    b.insert_clone(new_alloc)
    Rewriter.replace_value_with_new_type(new_alloc.result, MemDescType.get(
        old_type.shape, old_type.element_type, old_type.encoding, old_type.memory_space, True))
    b.set_stage_cluster(_placement(schedule, op))
    b.set_after(op)
    if isinstance(new_alloc, ttng.TMEMAllocOp):
        store = b.insert(ttng.TMEMStoreOp(new_alloc.result, op.src, b.int_constant(1, 1)))
    else:
        store = b.insert(ttg.LocalStoreOp(op.src, new_alloc.result))
    replace_uses_and_propagate_type(b, op, new_alloc.result)
    schedule.erase(op)
    Rewriter.erase_op(op)
    return store


def wait_stage_for_next_iteration_reader(schedule: CoarseSchedule, mma: Operation, reader: Operation) -> int:
    """The stage of the wait for MMA i where the first reader of its accumulator comes
    before it in the schedule, so it reads MMA i's result in iteration i + 1: the reader's
    stage + 1. Iteration i's stage s runs in kernel iteration i + s, so the reader of
    iteration i + 1 (stage r) runs in kernel iteration i + 1 + r, and MMA i (stage m) in
    i + m. Triton waits at m + 1, which comes after that reader where r < m (a loop unrolled
    by two, its second MMA a stage after the first's reader): a read of the accumulator
    while the MMA may still write it. At r + 1 the wait comes just before the reader; with
    r + 1 == m only if the reader's cluster follows the MMA's (else the wait would come
    before the MMA it waits for). Earlier readers cannot be waited for (`Unsupported`)."""
    mma_stage, mma_cluster = _placement(schedule, mma)
    reader_stage, reader_cluster = _placement(schedule, reader)
    wait_stage = reader_stage + 1
    if wait_stage < mma_stage or (wait_stage == mma_stage and not schedule.is_before(mma_cluster, reader_cluster)):
        raise Unsupported("an accumulator read in the next iteration before its tcgen05 MMA issues")
    return wait_stage


def create_barrier_and_wait_ops(for_op: scf.ForOp, schedule: CoarseSchedule, mma: Operation, latency: int,
                                alloc: ttng.TMEMAllocOp, phase_arg: int, barrier_index_arg: int) -> None:
    """`createBarrierAndWaitOps` (step 2a-b of the module docstring)."""
    mma_stage, mma_cluster = _placement(schedule, mma)

    def load_to_be_pipelined(op: Operation) -> bool:
        return mma_stage > _placement(schedule, op)[0]

    def earlier(op: Operation, than: Operation | None) -> bool:
        _placement(schedule, op)
        return than is None or schedule.is_op_before(op, than)

    sync_point: Operation | None = None
    for user in users(alloc):
        in_mma_block = isinstance(user, ttng.TMEMLoadOp) and user.parent_block() is mma.parent_block()
        if in_mma_block and earlier(user, sync_point):
            sync_point = user

    operands = MMAv5PipelineableOperands(mma, for_op, load_to_be_pipelined)
    updated = []
    for op in operands.unpipelineable_operand_defs:
        store = hoist_buffer_out_of_loop(for_op, op, schedule)
        updated.append(store if store is not None else op)
    if not operands.is_pipelineable and operands.is_operands_state_determined:
        for op in updated:
            if earlier(op, sync_point):
                sync_point = op

    wait_stage, wait_cluster = mma_stage + latency, mma_cluster
    if sync_point is not None and operands.is_operands_state_determined:
        if schedule.is_op_before(sync_point, mma):
            wait_stage = wait_stage_for_next_iteration_reader(schedule, mma, sync_point)
        else:
            wait_stage = _placement(schedule, sync_point)[0]
        wait_cluster = schedule.new_before(schedule.split_cluster_before(sync_point, for_op))
    depth = wait_stage - mma_stage + 1

    b = StageBuilder.before(mma, schedule)
    barriers = create_barrier_alloc(for_op, depth)
    true = b.int_constant(1, 1)
    phase = for_op.body.args[phase_arg + 1]
    zero = b.int_constant(0, 32, for_op.location)
    barrier_index = for_op.body.args[barrier_index_arg + 1] if depth > 1 else zero
    one = b.int_constant(1, 32, for_op.location)
    depth_value = b.int_constant(depth, 32, for_op.location) if depth > 1 else None
    barrier = single_buffer_view(b, barriers, barrier_index)
    set_operand_groups(mma, barriers=[*mma.barriers, barrier], barrier_preds=[*mma.barrier_preds, true])
    mma.is_async = UnitAttr()

    guarded = [mma.a, mma.b]
    if isinstance(mma, ttng.TCGen5MMAScaledOp):
        guarded += [mma.a_scale, mma.b_scale]
    b.set_after(mma)
    b.set_stage_cluster((wait_stage, wait_cluster))
    b.insert(ttng.WaitBarrierOp(barrier, phase, deps=guarded))

    for user in users(alloc):
        if not isinstance(user, ttng.TMEMLoadOp) or user.parent_block() is mma.parent_block():
            continue
        top = ancestor_in_block(for_op.body, user)
        if top is None:
            continue
        load_stage, load_cluster = _placement(schedule, top)
        if load_stage < wait_stage:
            b.set_stage_cluster((load_stage, load_cluster))
            b.set_before(user)
            b.insert(ttng.WaitBarrierOp(barrier, phase, deps=guarded))

    b.set_stage_cluster(_placement(schedule, mma))  # the cluster split may have moved the MMA
    yield_op = for_op.body.last_op
    b.set_before(yield_op)
    next_phase = b.xori(phase, one)
    next_index = barrier_index
    if depth > 1:
        next_index, wrapped = increment_modulo(b, barrier_index, depth_value, zero, one, b.location)
        next_phase = b.select(wrapped, next_phase, phase)
    yield_op.operands = [next_phase if v is phase else next_index if v is barrier_index else v
                         for v in yield_op.operands]


def multibuffer_tensor_memory(for_op: scf.ForOp, schedule: CoarseSchedule, alloc: ttng.TMEMAllocOp,
                              index_arg: int, depth: int) -> None:
    """`multibufferTensorMemory` (step 2c of the module docstring): `depth` accumulators; the
    index advances where the accumulator is overwritten (a store in the loop, or an MMA whose
    accumulate flag is not the constant true), users read the slot of the latest index."""
    index = for_op.body.args[index_arg + 1]
    index_defs: list[tuple[Operation, SSAValue]] = [(for_op.body.first_op, index)]

    def current_index(op: Operation) -> SSAValue:
        for def_op, value in reversed(index_defs):
            if properly_dominates(def_op, op):
                return value
        raise Unsupported("no buffer index dominates an accumulator user")

    b = StageBuilder(schedule, InsertPoint.before(alloc), alloc.location)
    old_type: MemDescType = alloc.result.type
    new_alloc = b.insert(ttng.TMEMAllocOp(result_type=MemDescType.get(
        (depth, *old_type.shape), old_type.element_type, old_type.encoding, old_type.memory_space, True),
        with_token=True))
    depth_value = b.int_constant(depth, 32)
    zero = b.int_constant(0, 32)
    one = b.int_constant(1, 32)
    valid = False
    accumulator_users = users(alloc.result)
    poison: list[SSAValue] = []

    def drop_token(op: Operation, dep: str) -> None:
        """Drop the op's token dependence; users of its token get a poison token."""
        set_operand_groups(op, **{dep: []})
        if op.token is None or not op.token.uses:
            return
        if not poison:
            poison_builder = StageBuilder(None, InsertPoint.before(for_op), for_op.location)
            poison.append(poison_builder.insert(PoisonOp(AsyncTokenType())).result)
        op.token.replace_all_uses_with(poison[0])

    def next_slot(user: Operation, switch: SSAValue, switch_when: bool) -> SSAValue:
        """The slot `user` writes: the next one where `switch` is `switch_when`, else the
        current one; later users read it."""
        b.set_stage_cluster(schedule.placement.get(user))
        b.set_before(user)
        current = current_index(user)
        advanced, _ = increment_modulo(b, current, depth_value, zero, one, for_op.location)
        new_index = b.select(switch, advanced, current) if switch_when else b.select(switch, current, advanced)
        replace_all_uses_dominated_by(user, new_index, current)
        index_defs.append((user, new_index))
        return single_buffer_view(b, new_alloc.result, new_index)

    for user in accumulator_users:
        if isinstance(user, ttng.TMEMStoreOp):
            drop_token(user, "dep")
            if is_ancestor(for_op, user):
                valid = True
                set_operand_groups(user, dst=[next_slot(user, user.pred, switch_when=True)])
            else:
                b.set_before(user)
                set_operand_groups(user, dst=[single_buffer_view(b, new_alloc.result, zero)])
        elif isinstance(user, ttng.TMEMLoadOp):
            drop_token(user, "dep")
            b.set_before(user)
            if is_ancestor(for_op, user):
                b.set_stage_cluster(schedule.placement.get(user))
                slot = single_buffer_view(b, new_alloc.result, current_index(user))
            else:
                slot = single_buffer_view(b, new_alloc.result, for_op.res[index_arg])
            set_operand_groups(user, src=[slot])
        elif isinstance(user, MMAV5_OPS):
            drop_token(user, "acc_dep")
            valid = not is_true_constant(user.useD)
            set_operand_groups(user, d=[next_slot(user, user.useD, switch_when=False)])
        else:
            raise Unsupported(f"unsupported user of the accumulator: '{user.name}'")
    if not valid:
        raise Unsupported("multi-buffering TMEM with no store to the accumulator and an MMA "
                          "that always accumulates")
    if alloc.token is not None:
        alloc.token.replace_all_uses_with(new_alloc.token)
    Rewriter.erase_op(alloc)
    last_index = index_defs[-1][1]
    replace_all_uses_dominated_by(last_index.owner, last_index, index)


def lower_mma(mma: Operation, for_op: scf.ForOp, schedule: CoarseSchedule) -> scf.ForOp:
    """`lowerMMA`: one loop-carried phase and mbarrier index, and a TMEM buffer index when
    the accumulator is multi-buffered."""
    alloc = mma.d.owner
    if not isinstance(alloc, ttng.TMEMAllocOp):
        return for_op
    latency = self_latency(mma)
    if latency == 0:
        return for_op
    first, last = tmem_use_stage_bounds(alloc, for_op, schedule)
    depth = _placement(schedule, last)[0] - _placement(schedule, first)[0]
    if schedule.is_op_in_earlier_cluster(first, last) or (
            schedule.is_op_in_same_cluster(first, last)
            and is_before_in_block(first, last)):
        depth += 1

    b = StageBuilder(schedule, InsertPoint.before(for_op), for_op.location)
    minus_one = b.int_constant(-1, 32)  # created unused too, as Triton does: it fixes where
    zero = b.int_constant(0, 32)        # the canonicalizer keeps the first -1 of the function
    new_inits = [zero, zero] + ([minus_one] if depth > 1 else [])
    phase_arg = len(for_op.initArgs)
    for_op = replace_for_op_with_new_signature(for_op, new_inits)
    append_yield_operands(for_op, for_op.body.args[phase_arg + 1:])
    create_barrier_and_wait_ops(for_op, schedule, mma, latency, alloc, phase_arg, phase_arg + 1)
    if depth > 1:
        multibuffer_tensor_memory(for_op, schedule, alloc, phase_arg + 2, depth)
    return for_op


def lower_mmas(for_op: scf.ForOp, schedule: CoarseSchedule) -> scf.ForOp:
    for mma in [op for op in for_op.walk(region_first=True) if isinstance(op, MMAV5_OPS)]:
        for_op = lower_mma(mma, for_op, schedule)
    return for_op


# ====================================================================== tensor descriptors made in the loop


TMA_U8, TMA_U16, TMA_U32, TMA_S32, TMA_U64, TMA_S64 = 0, 1, 2, 3, 4, 5
TMA_B4X16_P64 = 14
TMA_ELEMENT_TYPES = {BFloat16Type: 10, Float16Type: 6, Float32Type: 7, Float64Type: 9}
"""The CUtensorMap data types `getTMAElementType` picks by element type (the rest go by size)."""
TMA_SWIZZLE_MODES = {128: 3, 64: 2, 32: 1, 0: 0}


def _tma_element_type(element: Attribute, encoding: Attribute) -> int:
    """`getTMAElementType`."""
    if isinstance(encoding, NVMMASharedEncodingAttr) and encoding.fp4_padded:
        return TMA_B4X16_P64
    named = TMA_ELEMENT_TYPES.get(type(element))
    if named is not None:
        return named
    signed = isinstance(element, IntegerType) and element.signedness.data == Signedness.SIGNED
    by_size = {1: TMA_U8, 2: TMA_U16, 4: TMA_S32 if signed else TMA_U32, 8: TMA_S64 if signed else TMA_U64}
    size = element_bit_width(element) // 8
    if size not in by_size:
        raise Unsupported("tensor descriptor element type must have size 1, 2, 4 or 8")
    return by_size[size]


def create_tma_descriptor(b: StageBuilder, pointer: SSAValue, make: tt.MakeTensorDescOp) -> None:
    """`createTMADesc`: `tensormap_create` of `make`'s descriptor at `pointer`."""
    encoding = make.result.type.blockType.encoding
    if not isinstance(encoding, NVMMASharedEncodingAttr):
        raise Unsupported("device-side TMA descriptor with a non-NVMMA encoding")
    element = make.base.type.pointeeType
    shape = make.result.type.blockType.get_shape()
    per_cta = shape_per_cta(shape, encoding.cta_layout)
    try:
        block = tma_block_shape(encoding, per_cta)
    except ValueError as exc:
        raise Unsupported(str(exc)) from None
    if encoding.fp4_padded:
        block[contiguous_dim(encoding, len(block))] *= 2
    contig = block[-1]
    if encoding.fp4_padded and contig != 128:
        raise Unsupported("FP4 padded loads require 128 elements or more in the last dim")
    box = [b.int_constant(contig, 32)] + [b.int_constant(block[k], 32) for k in range(len(per_cta) - 2, -1, -1)]
    elem_size = b.constant(element_bit_width(element) // 8, i64)
    global_dim = list(reversed(make.shape))
    global_stride = [make.strides[k] for k in range(len(make.strides) - 2, -1, -1)]
    if encoding.fp4_padded:
        global_dim[0] = b.muli(global_dim[0], b.int_constant(2, 32))
    element_stride = [b.int_constant(1, 32)] * len(global_dim)
    global_stride = [b.muli(s, elem_size) for s in global_stride]
    b.insert(ttng.TensormapCreateOp(
        pointer, make.base, box, global_dim, global_stride, element_stride,
        elem_type=_tma_element_type(element, encoding), interleave_layout=0,
        swizzle_mode=TMA_SWIZZLE_MODES[encoding.swizzling_byte_width],
        fill_mode=int(make.padding.value.data == tt.PaddingOption.nan)))


def sink_value_redefinition(value: SSAValue, redefined: SSAValue, block: Block) -> SSAValue:
    """`sinkValueRedefinition`: `redefined`, computed in `block` (nested in the block that
    defines `value`), carried out of each enclosing `scf.if` (`value` on the other branch)
    and `scf.for` (as an iteration argument) up to `value`'s block."""
    home = value.owner if isinstance(value, BlockArgument) else value.owner.parent_block()
    while block is not home:
        op = block.parent_op()
        if isinstance(op, scf.ForOp):
            new_op = replace_for_op_with_new_signature(op, [value])
            append_yield_operands(new_op, [redefined])
        elif isinstance(op, scf.IfOp):
            new_op = replace_if_op_with_new_signature(op, redefined.type)
            taken, other = new_op.thenRegion.block.last_op, new_op.elseRegion.block.last_op
            if block is new_op.elseRegion.block:
                taken, other = other, taken
            taken.operands = [*taken.operands, redefined]
            other.operands = [*other.operands, value]
        else:
            raise Unsupported(f"a value redefined in '{op.name}', which sinkValueRedefinition does not handle")
        redefined = new_op.results[-1]
        block = new_op.parent_block()
    return redefined


def lower_tma_descriptors(for_op: scf.ForOp, schedule: CoarseSchedule) -> scf.ForOp:
    """`lowerTMADescriptors` (step 4 of the module docstring)."""
    depth = schedule.num_stages - 1
    if any(isinstance(op, ttng.WarpGroupDotOp) for op in body_ops(for_op)):
        depth += 1
    makes = [op for op in for_op.walk() if isinstance(op, tt.MakeTensorDescOp)]
    if not makes:
        return for_op
    b = StageBuilder(schedule, InsertPoint.before(for_op), for_op.location)
    scratch = {}
    for make in makes:
        scratch[make] = b.insert(ttg.GlobalScratchAllocOp(nbytes=depth * TMA_DESCRIPTOR_BYTES,
                                                          alignment=TMA_DESCRIPTOR_SCRATCH_ALIGN), make.location).result
    zero = b.int_constant(0, 32)
    one = b.int_constant(1, 32)
    first_counter = len(for_op.body.args)
    for_op = replace_for_op_with_new_signature(for_op, [zero] * len(makes))
    append_yield_operands(for_op, [zero] * len(makes))
    b.set_before(for_op)
    depth_value = b.int_constant(depth, 32)
    yield_op = for_op.body.last_op
    for i, make in enumerate(makes):
        counter = for_op.body.args[first_counter + i]
        mb = StageBuilder.before(make, schedule)
        offset = mb.muli(mb.int_constant(TMA_DESCRIPTOR_BYTES, 32), counter)
        pointer = mb.insert(tt.AddPtrOp(scratch[make], offset)).result
        create_tma_descriptor(mb, pointer, make)
        mb.insert(ttng.TensormapFenceproxyAcquireOp(pointer))
        descriptor = mb.insert(ttng.ReinterpretTensorDescOp(pointer, result_type=make.result.type))
        make.result.replace_all_uses_with(descriptor.result)
        next_counter, _ = increment_modulo(mb, counter, depth_value, zero, one, mb.location)
        next_counter = sink_value_redefinition(counter, next_counter, make.parent_block())
        yield_op.operands[counter.index - 1] = next_counter
        schedule.erase(make)
        Rewriter.erase_op(make)
    return for_op


# ====================================================================== driver


def lower_loop(for_op: scf.ForOp, axis: AxisQueries) -> None:
    """`lowerLoop`: steps 1-5 of the module docstring for one loop."""
    schedule = CoarseSchedule.deserialize(for_op)
    if schedule is None:
        return
    schedule.num_stages = max([schedule.num_stages, *(stage + 1 for stage, _ in schedule.placement.values())])
    for_op = lower_mmas(for_op, schedule)
    for_op = lower_loads(for_op, schedule, axis)
    for_op = lower_tma_descriptors(for_op, schedule)
    schedule.serialize(for_op)


def lower_loops(module: ModuleOp) -> dict[scf.ForOp, str]:
    """Lower every scheduled loop of `module`, innermost first; a loop this port cannot
    lower stays as it was (the lowering runs on a copy of its function, placed next to it,
    which replaces the function only on success). Returns those loops, each with why. The
    axis analysis runs once, at the first scheduled loop (a module with none, as a row ring's
    whose loops went to its partitions, skips it)."""
    analysis: ModuleAxisInfo | None = None
    refused: dict[scf.ForOp, str] = {}
    for func in [op for op in module.walk() if isinstance(op, tt.FuncOp)]:
        origin: dict[SSAValue, SSAValue] = {}
        refused_at: dict[int, str] = {}
        for position in range(len(_loops(func))):
            if SCHEDULED_MAX_STAGE not in _loops(func)[position].attributes:
                continue
            if analysis is None:
                analysis = ModuleAxisInfo(module)
            mapping: dict[SSAValue, SSAValue] = {}
            copy = func.clone(value_mapper=mapping)
            copy_origin = {new: origin.get(old, old) for old, new in mapping.items()}
            Rewriter.insert_op(copy, InsertPoint.after(func))  # module attributes stay in reach
            try:
                lower_loop(_loops(copy)[position], AxisQueries(analysis, copy_origin))
            except Unsupported as exc:
                Rewriter.erase_op(copy)
                refused_at[position] = str(exc)
                continue
            Rewriter.erase_op(func)
            func, origin = copy, copy_origin
        loops = _loops(func)
        refused.update((loops[position], reason) for position, reason in refused_at.items())
    return refused


def lowering_refusal_remark(loop: scf.ForOp, reason: str) -> None:
    """The remark for a loop `lower_loops` left as it was."""
    emit_remark(loop, f"loop not pipelined: lowering does not handle it ({reason})")


def _loops(func: tt.FuncOp) -> list[scf.ForOp]:
    """The loops of `func`, innermost first (MLIR's post-order walk); lowering a loop
    replaces it in place, so the positions stay."""
    return [op for op in func.walk(region_first=True) if isinstance(op, scf.ForOp)]


@dataclass(frozen=True)
class LowerLoops(ModulePass):
    """Lowers scheduled loops to async copies into multi-buffered rings, mbarriers and async tcgen05 MMAs.

    See `ttpipe.passes.pipeline.lower_loops` for the algorithm, its preconditions and how it
    differs from Triton's `tritongpu-test-pipeline-lower-loop`. A loop left as it was gets a
    remark `loop not pipelined: lowering does not handle it (<reason>)` at its location
    (`ttpipe-opt --remarks`; from Python, `ttpipe.ir.diagnostics.diagnostic_handler`).
    """

    name = "ttpipe-lower-loops"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for loop, reason in lower_loops(op).items():
            lowering_refusal_remark(loop, reason)
