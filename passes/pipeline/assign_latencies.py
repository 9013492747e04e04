"""`ttpipe-assign-latencies`: Triton 3.6's `tritongpu-assign-latencies` on xDSL IR.

Follows `lib/Dialect/TritonGPU/Transforms/Pipeliner/AssignLatencies.cpp` (with
`loadOpsToIndirectionLevel`) over the helpers of `pipelining_utility.py` and
`mmav5_utility.py`; the load-width checks read `ttpipe.passes.analysis.axis_info`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.passes import ModulePass

from ttpipe.dialects import scf, tt
from ttpipe.dialects.ttng import TCGen5MMAOp, TCGen5MMAScaledOp, TMEMStoreOp, WarpGroupDotOp
from ttpipe.passes.analysis.axis_info import ModuleAxisInfo
from ttpipe.passes.common.ir import is_outer_loop
from ttpipe.passes.pipeline.mmav5_utility import (
    MMAV5_OPS,
    MMAv5PipelineableOperands,
    has_acc_read_modify_write,
    has_loads_after_mma,
    is_acc_multibuffering_possible,
    requires_acc_multi_buffering,
)
from ttpipe.passes.pipeline.pipelining_utility import (
    CP_ASYNC_MIN_BYTES,
    LOADS,
    TMA_LOADS,
    can_be_converted_to_async_load,
    copy_vec_bytes,
    local_alloc_encoding,
    loop_has_dist_greater_than_one,
    num_stages_or_default,
    shared_encoding_if_all_users_are_dot_operands,
)
from ttpipe.passes.pipeline.schedule import (
    DISALLOW_ACC_MULTI_BUFFER,
    LATENCY,
    NUM_STAGES,
    SELF_LATENCY,
    WARP_SPECIALIZE,
    body_ops,
    get_int,
    int_attr,
    nested_operands,
)

DOT_OPS = (tt.DotOp, tt.DotScaledOp, WarpGroupDotOp, TCGen5MMAOp, TCGen5MMAScaledOp)
"""Triton's `DotOpInterface`; operand 2 is the accumulator."""
WALK_ROOTS = (*DOT_OPS, TMEMStoreOp)
"""The ops whose operands `loads_to_indirection_level` follows back to the loads they read."""

ACCUMULATOR_OPERAND = 2


@dataclass(frozen=True)
class AssignLatencies(ModulePass):
    """Assign latencies (`tt.latency`) to the loads and tcgen05 MMAs of loops to pipeline.

    Steps, for every `scf.for` (inner loops first) that `num-stages` (or the loop's
    `tt.num_stages`) allows more than one stage and that is pipelineable:
    1. If some op of the body already has a `tt.latency`, keep the user's latencies as they are.
    2. Loads: walk back from each dot (`tt.dot`, wgmma, tcgen05; also `ttng.tmem_store`)
       through its A/B operands and record each load met with its indirection level (0 for a
       load feeding the dot, 1 for a load feeding that load's address, ...). A loop with
       `tt.num_stages` also walks back from every other op. A load is kept only when
       pipelining it pays: a pointer load must move at least 32 contiguous bits per thread
       (axis info) into a buffer it can share with its users, at least 4 bytes per cp.async;
       TMA loads always qualify. A load met at two levels is dropped, and so is a level that
       leaves no stage for the loads behind it (level >= stages - 1).
    3. Every kept load gets latency `(stages - 1) // (max level + 1)`.
    4. tcgen05 MMAs (none when the loop also has a synchronous `tt.dot`): when all operands
       can be ready a stage early, or their state is known and the accumulator is not read
       after the MMA in the iteration, the MMA may overlap itself (`tt.self_latency = 1`).
       Its users move to the next stage (`tt.latency = 1`) unless the accumulator is read in
       the loop and cannot be multi-buffered (`tt.disallow_acc_multi_buffer`, or never
       overwritten in the loop). In a warp-specialized loop (`tt.warp_specialize` on it or
       an enclosing loop) the latency grows by one, or is dropped when the loop reads,
       modifies and writes back the accumulator.

    Preconditions: none. Skipped: loops yielding a block argument (a value carried over
    more than one iteration) and loops containing loops (`tt.flatten` asks
    tritongpu-fuse-nested-loops, which runs before, to flatten a nest; one left nested is
    skipped here like any outer loop). This pass emits no remarks: `ttpipe-schedule-loops`
    reports (`loop not pipelined: <reason>`) the loops asked to pipeline that it skips.
    Reads: `tt.num_stages`, `tt.latency`, `tt.disallow_acc_multi_buffer`,
    `tt.warp_specialize`, `tt.contiguity`/`tt.divisibility`/`tt.constancy` hints.
    Writes: `tt.latency` on loads and MMAs, `tt.self_latency` on MMAs. With calls, the axis
    analysis also writes the hints callers pass onto callees' arguments, as Triton's does.
    """

    name = "ttpipe-assign-latencies"

    num_stages: int = field(default=3, metadata={"help": "number of pipeline stages"})

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        loops = [loop for loop in op.walk(region_first=True) if isinstance(loop, scf.ForOp)
                 and _can_pipeline(loop) and num_stages_or_default(loop, self.num_stages) > 1]
        latencies: dict[Operation, int] = {}
        axis_info: ModuleAxisInfo | None = None
        for loop in loops:
            user_given = {o: _latency(o) for o in body_ops(loop) if LATENCY in o.attributes}
            if user_given:
                latencies.update(user_given)
                continue
            if walks_loads(loop):
                if axis_info is None:
                    axis_info = ModuleAxisInfo(op)
                assign_load_latencies(loop, num_stages_or_default(loop, self.num_stages), axis_info, latencies)
            assign_mma_latencies(loop, latencies)
        for target, latency in latencies.items():
            target.attributes[LATENCY] = int_attr(latency)


def _can_pipeline(loop: scf.ForOp) -> bool:
    """`preCondition`: no value carried over two iterations, no inner loop."""
    return not loop_has_dist_greater_than_one(loop) and not is_outer_loop(loop)


def _latency(op: Operation) -> int:
    value = get_int(op, LATENCY)
    return 0 if value is None else value


# ------------------------------------------------------------------ loads


def assign_load_latencies(loop: scf.ForOp, num_stages: int, axis_info: ModuleAxisInfo,
                          latencies: dict[Operation, int]) -> None:
    """Steps 2-3: every pipelined load gets the same share of the stages."""
    levels = loads_to_indirection_level(loop, NUM_STAGES in loop.attributes, axis_info, num_stages)
    if not levels:
        return
    max_level = max(level for level, _ in levels.values())
    for load in levels:
        latencies[load] = (num_stages - 1) // (max_level + 1)


def walks_loads(loop: scf.ForOp) -> bool:
    """Whether `loads_to_indirection_level` meets any load of `loop`: its walks start at a dot
    (or a TMEM store) of the body, or, in a loop the user gave `tt.num_stages`, at every op;
    elsewhere no load is pipelined (and no axis analysis is needed)."""
    return NUM_STAGES in loop.attributes or any(isinstance(op, WALK_ROOTS) for op in body_ops(loop))


def loads_to_indirection_level(loop: scf.ForOp, pipeline_without_dot: bool, axis_info: ModuleAxisInfo,
                               num_stages: int, filter_small: bool = True
                               ) -> dict[Operation, tuple[int, Operation]]:
    """`loadOpsToIndirectionLevel`: load -> (indirection level, its final user: the dot or
    the load it feeds), in the order the walks meet them."""
    levels: dict[Operation, tuple[int, Operation]] = {}
    seen: set[Operation] = set()
    excluded: set[Operation] = set()

    def walk(root: Operation) -> None:
        stack = [(root, root, 0)]
        while stack:
            op, final_user, distance = stack.pop()
            if op in seen or op in excluded:
                continue
            seen.add(op)
            if isinstance(op, LOADS):
                if not is_pipelining_beneficial(op, axis_info, filter_small):
                    continue
                if op in levels:
                    if levels[op][0] != distance:
                        # Uses at different distances: no stage fits both.
                        del levels[op]
                        excluded.add(op)
                        continue
                else:
                    levels[op] = (distance, final_user)
                final_user = op
                distance += 1
            children = []
            for operand in nested_operands(op):
                if isinstance(op, DOT_OPS) and operand is op.operands[ACCUMULATOR_OPERAND]:
                    continue  # only the A and B operands are worth pipelining
                producer = operand.owner
                if isinstance(producer, Operation) and producer.parent_block() is op.parent_block():
                    children.append((producer, final_user, distance))
            stack.extend(reversed(children))

    for op in body_ops(loop):
        if isinstance(op, WALK_ROOTS):
            seen.clear()
            walk(op)
    if pipeline_without_dot:
        for op in body_ops(loop):
            if not isinstance(op, LOADS):
                walk(op)
    return {load: info for load, info in levels.items() if info[0] < num_stages - 1}


def is_pipelining_beneficial(op: Operation, axis_info: ModuleAxisInfo, filter_small: bool) -> bool:
    """`AssignLoadLatencies::isPipeliningBeneficial`."""
    if isinstance(op, tt.LoadOp) and filter_small and not can_be_converted_to_async_load(op, axis_info):
        return False
    if isinstance(op, TMA_LOADS):
        return True
    _, incompatible = shared_encoding_if_all_users_are_dot_operands(op.result)
    if incompatible:
        return False
    encoding, consistent = local_alloc_encoding(op)
    if not consistent:
        return False
    if encoding is not None and filter_small:
        vec_bytes = copy_vec_bytes(op.result.type, encoding)
        if vec_bytes is None or vec_bytes < CP_ASYNC_MIN_BYTES:
            return False
    return True


# ------------------------------------------------------------------ MMAs


def assign_mma_latencies(loop: scf.ForOp, latencies: dict[Operation, int]) -> None:
    """Step 4."""
    body = body_ops(loop)
    if any(isinstance(o, tt.DotOp) for o in body):
        # With a synchronous dot in the loop, peeling the last iteration beats a full
        # iteration of masked ops waiting on one MMA.
        return

    def is_load_to_be_pipelined(load: Operation) -> bool:
        return latencies.get(load, 0) > 0

    self_latencies: dict[Operation, int] = {}
    for mma in body:
        if not isinstance(mma, MMAV5_OPS):
            continue
        operands = MMAv5PipelineableOperands(mma, loop, is_load_to_be_pipelined)
        if not (operands.is_pipelineable or
                (operands.is_operands_state_determined and not has_loads_after_mma(mma, loop))):
            continue
        self_latencies[mma] = 1
        if not requires_acc_multi_buffering(mma, loop) or (
                is_acc_multibuffering_possible(mma, loop) and DISALLOW_ACC_MULTI_BUFFER not in loop.attributes):
            latencies[mma] = 1
        # A pipelined MMA's latency should be its accumulator's buffer count; software
        # pipelining needs one more (a user in an `scf.if` is pushed to the loop's end),
        # warp specialization gets it right.
        if _is_warp_specialized(loop):
            if has_acc_read_modify_write(mma, loop):
                latencies.pop(mma, None)
            else:
                latencies[mma] = latencies.get(mma, 0) + 1
    for mma, latency in self_latencies.items():
        mma.attributes[SELF_LATENCY] = int_attr(latency)


def _is_warp_specialized(loop: scf.ForOp) -> bool:
    current: Operation | None = loop
    while current is not None:
        if isinstance(current, scf.ForOp) and WARP_SPECIALIZE in current.attributes:
            return True
        current = current.parent_op()
    return False
