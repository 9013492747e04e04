"""`ttpipe-schedule-loops`: a stage and a cluster for every op of each loop to pipeline.

Follows Triton 3.6 `lib/Dialect/TritonGPU/Transforms/Pipeliner/ScheduleLoops.cpp` and the
parts of `Schedule.cpp` it uses (`scheduleDependencies` lives in `schedule.py`). The
schedule itself is pluggable: a scheduler is a function `(loop, LoopScheduleContext) ->
CoarseSchedule | None`; `triton_scheduler` is Triton's, and its steps are public so that
another scheduler can reuse them. `schedulers.py` holds the registry that names schedulers
(`register_scheduler`; `default` is Triton's) and an example.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from xdsl.context import Context
from xdsl.dialects.builtin import IntegerAttr, ModuleOp
from xdsl.ir import BlockArgument, Operation
from xdsl.passes import ModulePass

from ttpipe.dialects import scf, tt, ttg
from ttpipe.dialects.gpu import BarrierOp
from ttpipe.dialects.ttng import (
    ArriveBarrierOp,
    AsyncTMACopyGlobalToLocalOp,
    AsyncTMAGatherOp,
    TMEMLoadOp,
    TMEMStoreOp,
    WaitBarrierOp,
)
from ttpipe.passes.common.diagnostics import emit_remark
from ttpipe.passes.common.ir import ancestor_in_block, forward_slice, is_outer_loop, yielded_value
from ttpipe.passes.common.target import error_at
from ttpipe.passes.pipeline.mmav5_utility import MMAV5_OPS
from ttpipe.passes.pipeline.pipelining_utility import (
    loop_has_dist_greater_than_one,
    num_stages_or_default,
)
from ttpipe.passes.pipeline.schedule import (
    LATENCY,
    WARP_SPECIALIZE,
    Cluster,
    CoarseSchedule,
    body_ops,
    nested_operands,
    schedule_dependencies,
)
from ttpipe.passes.pipeline.schedulers import Scheduler, check_scheduler_name, register_scheduler, resolve_scheduler


@dataclass(frozen=True)
class LoopScheduleContext:
    """What a scheduler gets besides the loop: the latencies `ttpipe-assign-latencies` (or
    the user) gave its ops, read off the IR before the pass removed them."""

    latencies: Mapping[Operation, int]

    def complete(self, loop: scf.ForOp, schedule: CoarseSchedule, after_prologue: Cluster | None = None) -> None:
        """Triton's steps after the key ops are placed: their producers join them, values
        carried to the next iteration are computed a stage later, and the remaining ops go
        to the last stage (into `after_prologue`, by default the first cluster)."""
        schedule_dependencies(loop, schedule)
        schedule_distance_one_dependencies(loop, schedule)
        schedule_remaining_to_last_stage(loop, schedule, after_prologue or schedule.clusters[0])


@dataclass(frozen=True)
class ScheduleLoops(ModulePass):
    """Give every op of each loop to pipeline a stage and a cluster (`loop.stage`, `loop.cluster`).

    Steps:
    1. Read and remove every `tt.latency` of the module.
    2. For each `scf.for` (inner loops first) that is safe to pipeline (no value carried over
       two iterations, no inner loop, no `gpu.barrier`), ask the scheduler for a schedule;
       `scheduler=NAME` picks a registered one, and the Python API also takes a function
       (`ScheduleLoops(scheduler=my_fn)`). Triton's (`default`):
       a. Key ops: each op downstream of a latency op is staged by the longest latency path
          from it to the end of the iteration, clusters in reverse stage order; `scf.if`s in
          that slice whose own users are unscheduled go to a trailing epilogue cluster. A
          warp-specialized loop without latencies keeps the schedule it carries, pruned to
          the stages of its latency ops.
       b. `scf.if`s feeding a scheduled op move to a prologue cluster at the stage of their
          first user; other `scf.if`s to an epilogue cluster of the last stage.
       c. Producers join their users' stage and cluster, stage by stage.
       d. Values yielded for the next iteration are computed one stage later, in a cluster
          just before their user's (loads: with their user).
       e. The rest goes to the last stage, never in a cluster before its producers'.
    3. Check (ttpipe's addition, for custom schedulers) that every body op has a place and
       that no op comes before a producer in the same iteration; write `loop.stage`/`loop.cluster` on the ops and
       `tt.scheduled_max_stage` on the loop.

    Reads: `tt.latency` (removed), `tt.warp_specialize` and an existing schedule
    (`loop.stage`, `loop.cluster`, `tt.scheduled_max_stage`) on warp-specialized loops.
    Writes: `loop.stage`, `loop.cluster`, `tt.scheduled_max_stage`.
    Skips loops the scheduler returns nothing for, and unsafe loops, as they are.

    Remarks: a loop skipped (or given a one-stage schedule) although it has ops with a
    latency or a `tt.num_stages` above 1 gets a remark `loop not pipelined: <reason>` at its
    location. `ttpipe-opt --remarks` prints them; from Python, collect them with
    `ttpipe.ir.diagnostics.diagnostic_handler(remarks.append)` around the pass
    (or use `ttpipe.pipeline.driver.remarks`).
    """

    name = "ttpipe-schedule-loops"

    scheduler: str | Scheduler = field(default="default", metadata={
        "help": "a registered scheduler's name (default: Triton's) or module.path:function",
        "cli_type": str, "check": check_scheduler_name})

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        scheduler = resolve_scheduler(self.scheduler)
        latencies = deserialize_latencies(op)
        for loop in [o for o in op.walk(region_first=True) if isinstance(o, scf.ForOp)]:
            in_loop = {o: latencies[o] for o in body_ops(loop) if o in latencies}
            asked = bool(in_loop) or num_stages_or_default(loop, 0) > 1  # the user asked for it
            reason = unsafe_to_pipeline_reason(loop)
            if reason is not None:
                if asked:
                    emit_remark(loop, f"loop not pipelined: {reason}")
                continue
            schedule = scheduler(loop, LoopScheduleContext(in_loop))
            if schedule is None or not schedule.placement:
                if asked:
                    emit_remark(loop, "loop not pipelined: no op in it has a latency to hide "
                                      "(no load or MMA was found worth pipelining)")
                continue
            verify_schedule(loop, schedule)
            schedule.serialize(loop)
            if asked and max(stage for stage, _ in schedule.placement.values()) == 0:
                emit_remark(loop, "loop not pipelined: its schedule has one stage")


def deserialize_latencies(root: Operation) -> dict[Operation, int]:
    """`deserializeLatencies`: every op's `tt.latency`, removed from the IR."""
    latencies = {}
    for op in root.walk():
        attr = op.attributes.pop(LATENCY, None)
        if isinstance(attr, IntegerAttr):
            latencies[op] = attr.value.data
    return latencies


def unsafe_to_pipeline_reason(loop: scf.ForOp) -> str | None:
    """Triton's `isSafeToPipeline`, with the reason it refuses the loop (the end of a `loop
    not pipelined: ` remark), or None when the expander can take it."""
    # A value carried over two iterations needs a distance the expander does not handle.
    if loop_has_dist_greater_than_one(loop):
        return "it carries a value over more than one iteration"
    # Outer loops are not pipelined.
    if is_outer_loop(loop):
        return "it contains a loop"
    # A barrier would be reordered against the other stages' memory accesses.
    if any(isinstance(o, BarrierOp) for o in loop.walk()):
        return "it contains a gpu.barrier"
    return None


def verify_schedule(loop: scf.ForOp, schedule: CoarseSchedule) -> None:
    """Every body op placed, at a stage in range, after the producers of its operands within
    the iteration; a DiagnosticError at the first op that is not."""
    for op in body_ops(loop):
        placed = schedule.placement.get(op)
        if placed is None:
            raise error_at(op, f"the schedule of the loop gives '{op.name}' no stage; a scheduler must place "
                               f"every op of the loop body")
        if not 0 <= placed[0] < schedule.num_stages or placed[1] not in schedule.clusters:
            raise error_at(op, f"the schedule puts '{op.name}' at stage {placed[0]}; stages are 0 to "
                               f"{schedule.num_stages - 1} and clusters must be the schedule's")
        for value in nested_operands(op):
            producer = value.owner if not isinstance(value, BlockArgument) else None
            if producer is not None and producer.parent_block() is loop.body and \
                    not schedule.is_op_before(producer, op):
                raise error_at(op, f"the schedule puts '{op.name}' before '{producer.name}', which produces "
                                   f"its operand; a producer must come first (earlier stage, or earlier cluster)")


# ------------------------------------------------------------------ Triton's scheduler


def triton_scheduler(loop: scf.ForOp, context: LoopScheduleContext) -> CoarseSchedule | None:
    """`scheduleLoop`: steps 2a-2e of `ScheduleLoops`."""
    schedule = initial_schedule(loop, context.latencies)
    if not schedule.placement:
        return None
    after_prologue = schedule_prologue_and_epilogue(loop, schedule)
    context.complete(loop, schedule, after_prologue)
    return schedule


register_scheduler("default", triton_scheduler)

LATENCY_OPS = (tt.LoadOp, tt.DescriptorLoadOp, tt.DescriptorGatherOp, ttg.LocalStoreOp, ttg.LocalLoadOp,
               TMEMLoadOp, TMEMStoreOp, ttg.AsyncCopyGlobalToLocalOp, AsyncTMACopyGlobalToLocalOp,
               AsyncTMAGatherOp, *MMAV5_OPS, WaitBarrierOp, ArriveBarrierOp)
"""Ops whose stage a warp-specialized loop's existing schedule is judged by."""


def initial_schedule(loop: scf.ForOp, latencies: Mapping[Operation, int]) -> CoarseSchedule:
    """`getInitialSchedule`: from the latencies, else (warp-specialized loops) the schedule
    the loop carries; empty when neither applies."""
    if latencies:
        return schedule_key_ops(loop, latencies)
    existing = CoarseSchedule.deserialize(loop) if WARP_SPECIALIZE in loop.attributes else None
    if existing is None:
        return CoarseSchedule(0)
    # A loop split off a warp-specialized one may see only some of the original stages:
    # keep it pipelined only if its latency ops still span several.
    ops = body_ops(loop)
    stages = {existing.placement[o][0] for o in ops
              if (o in latencies or isinstance(o, LATENCY_OPS)) and o in existing.placement}
    if len(stages) <= 1:
        normalized = CoarseSchedule(1)
        cluster = normalized.new_at_front()
        for o in ops:
            normalized.insert(o, 0, cluster)
        return normalized
    existing.shrink_to_fit()
    return existing


def schedule_key_ops(loop: scf.ForOp, latencies: Mapping[Operation, int]) -> CoarseSchedule:
    """`scheduleKeyOps`: stage each op downstream of a latency op by the longest latency path
    from it to the end of the iteration; one cluster per stage, latest stage first."""
    ops = body_ops(loop)
    if not any(o in latencies for o in ops):
        return CoarseSchedule(0)
    distance: dict[Operation, int] = {}
    for op in reversed(ops):
        users = [ancestor_in_block(loop.body, use.operation) for result in op.results for use in result.uses]
        longest = max((distance[u] for u in users if u is not None and u in distance), default=-1)
        distance[op] = latencies.get(op, 0) + max(longest, 0)
    downstream = _forward_reachable(loop, [o for o in ops if o in latencies])
    max_distance = max([0] + [distance[o] for o in ops if o in latencies])
    op_to_stage = {o: max_distance - distance[o] for o in ops if o in downstream}
    max_stage = max(op_to_stage.values())
    schedule = CoarseSchedule(max_stage + 1)
    clusters = [schedule.new_at_back() for _ in range(max_stage + 1)]
    for op, stage in op_to_stage.items():
        schedule.insert(op, stage, clusters[max_stage - stage])
    # An `scf.if` of the slice whose results feed nothing scheduled goes as late as possible.
    epilogue = schedule.new_at_back()
    for op, stage in op_to_stage.items():
        if isinstance(op, scf.IfOp) and op not in latencies and not any(o in op_to_stage for o in forward_slice(op)):
            schedule.insert(op, stage, epilogue)
    return schedule


def _forward_reachable(loop: scf.ForOp, roots: Iterable[Operation]) -> set[Operation]:
    """Body ops reachable from `roots` through uses (ancestors in the body, not the yield)."""
    terminator = loop.body.last_op
    reached: set[Operation] = set()
    stack = list(roots)
    while stack:
        op = stack.pop()
        if op in reached:
            continue
        reached.add(op)
        for result in op.results:
            for use in result.uses:
                user = ancestor_in_block(loop.body, use.operation)
                if user is not None and user is not terminator:
                    stack.append(user)
    return reached


def backward_slice_ifs(op: Operation) -> list[scf.IfOp]:
    """The `scf.if`s in `getBackwardSlice(op)` with block arguments omitted and values used in
    nested regions followed: the producers of `op`'s operands, transitively, `op` excluded."""
    found: list[scf.IfOp] = []
    visited: set[Operation] = {op}
    stack = [op]
    while stack:
        current = stack.pop()
        for value in nested_operands(current) if current.regions else current.operands:
            producer = value.owner
            if isinstance(value, BlockArgument) or producer in visited:
                continue
            visited.add(producer)
            if isinstance(producer, scf.IfOp):
                found.append(producer)
            stack.append(producer)
    return found


def schedule_prologue_and_epilogue(loop: scf.ForOp, schedule: CoarseSchedule) -> Cluster | None:
    """`schedulePrologueAndEpilogue`: `scf.if`s feeding scheduled ops go to a prologue
    cluster at the front, at the first stage that needs them; the other `scf.if`s of the
    body to an epilogue cluster of the last stage. Returns the cluster after the prologue."""
    after_prologue = schedule.clusters[0] if schedule.clusters else None
    if_to_stage: dict[scf.IfOp, int] = {}
    for stage in range(schedule.num_stages):
        for op, op_stage, _ in schedule.ops_in_order(loop):
            if op_stage == stage:
                for if_op in backward_slice_ifs(op):
                    if_to_stage.setdefault(if_op, stage)
    if if_to_stage:
        prologue = schedule.new_at_front()
        for if_op, stage in if_to_stage.items():
            schedule.insert_if_absent(if_op, stage, prologue)
    epilogue = schedule.new_at_back()
    for op in body_ops(loop):
        if isinstance(op, scf.IfOp) and op not in if_to_stage:
            schedule.insert_if_absent(op, schedule.num_stages - 1, epilogue)
    return after_prologue


def schedule_distance_one_dependencies(loop: scf.ForOp, schedule: CoarseSchedule) -> None:
    """`scheduleDistanceOneDependencies`: a value an op reads from the previous iteration is
    computed one stage later than the op, in a cluster just before it (a load: with it)."""
    num_stages = schedule.num_stages
    before: dict[Cluster, Cluster] = {}
    for op in body_ops(loop):
        if op not in schedule.placement:
            continue
        stage, cluster = schedule.placement[op]
        if stage == num_stages - 1:
            continue
        for operand in nested_operands(op):
            if not (isinstance(operand, BlockArgument) and operand.index > 0 and operand.block is op.parent_block()):
                continue
            value = yielded_value(operand)
            producer = value.owner
            if isinstance(value, BlockArgument) or producer in schedule.placement:
                continue
            if isinstance(producer, tt.LoadOp):
                schedule.insert_if_absent(producer, stage, cluster)
                schedule.insert_deps_of_op(producer, stage, cluster, include_arg=True, insert_if_earlier=True)
            else:
                if cluster not in before:
                    before[cluster] = schedule.new_before(cluster)
                schedule.insert_if_absent(producer, stage + 1, before[cluster])
                schedule.insert_deps_of_op(producer, stage + 1, before[cluster], include_arg=True,
                                           insert_if_earlier=True)


def schedule_remaining_to_last_stage(loop: scf.ForOp, schedule: CoarseSchedule, after_prologue: Cluster) -> None:
    """`scheduleRemainingToLastStage`: unscheduled ops go to the last stage, into
    `after_prologue` or the latest cluster among their last-stage producers'."""
    last = schedule.num_stages - 1
    op_to_cluster = {op: after_prologue for op in body_ops(loop) if op not in schedule.placement}
    queue = [op for op, stage, _ in schedule.ops_in_order(loop) if stage == last]
    while queue:
        op = queue.pop()
        op_cluster = schedule.placement[op][1] if op in schedule.placement else op_to_cluster[op]
        for result in op.results:
            for use in result.uses:
                user = use.operation
                if user in op_to_cluster and schedule.cluster_id(op_to_cluster[user]) < schedule.cluster_id(op_cluster):
                    op_to_cluster[user] = op_cluster
                    queue.append(user)
    for op, cluster in op_to_cluster.items():
        schedule.insert(op, last, cluster)
