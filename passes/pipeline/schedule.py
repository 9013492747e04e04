"""The coarse schedule of a loop, and the op attributes through which the phases share it.

A software-pipelined `scf.for` is described by a stage and a cluster for each op of its
body: the stage says in which iteration (relative to the kernel iteration) the op runs,
the cluster orders ops within one iteration of the pipelined loop. The phases
(`ttpipe-assign-latencies`, `ttpipe-schedule-loops`, `ttpipe-pipeline`) talk only through
the attributes below, with Triton's names (`PipeliningUtility.h`), so any of them can be
swapped for Triton's own pass in a mixed pipeline.

`CoarseSchedule` follows Triton 3.6's class of that name (`Schedule.h`/`Schedule.cpp`):
clusters form an ordered list whose position is the cluster id; a `Cluster` object is a
handle whose id changes as clusters are inserted before it.
"""

from __future__ import annotations

from collections.abc import Iterable

from xdsl.dialects.builtin import IntegerAttr, i32
from xdsl.ir import BlockArgument, Operation, SSAValue

from ttpipe.passes.common.ir import is_before_in_block, yielded_value

NUM_STAGES = "tt.num_stages"
"""On a loop: its number of pipeline stages (else the pass option)."""
LATENCY = "tt.latency"
"""On an op: how many iterations ahead of its first use it must be issued."""
SELF_LATENCY = "tt.self_latency"
"""On an MMA: iterations it may stay in flight past its own issue."""
DISALLOW_ACC_MULTI_BUFFER = "tt.disallow_acc_multi_buffer"
WARP_SPECIALIZE = "tt.warp_specialize"
FLATTEN = "tt.flatten"
LOOP_STAGE = "loop.stage"
LOOP_CLUSTER = "loop.cluster"
SCHEDULED_MAX_STAGE = "tt.scheduled_max_stage"


def int_attr(value: int) -> IntegerAttr:
    return IntegerAttr(value, i32)


def get_int(op: Operation, name: str) -> int | None:
    attr = op.attributes.get(name)
    return attr.value.data if isinstance(attr, IntegerAttr) else None


def body_ops(for_op: Operation) -> list[Operation]:
    """The ops of a loop body, without its terminator."""
    ops = list(for_op.regions[0].block.ops)
    return ops[:-1]


class Cluster:
    """A position in the cluster order; compare by identity, read the id from the schedule."""

    __slots__ = ()


class CoarseSchedule:
    def __init__(self, num_stages: int = 0):
        self.num_stages = num_stages
        self.clusters: list[Cluster] = []
        self.placement: dict[Operation, tuple[int, Cluster]] = {}

    # ------------------------------------------------------------ clusters

    def new_at_back(self) -> Cluster:
        cluster = Cluster()
        self.clusters.append(cluster)
        return cluster

    def new_at_front(self) -> Cluster:
        cluster = Cluster()
        self.clusters.insert(0, cluster)
        return cluster

    def new_before(self, cluster: Cluster) -> Cluster:
        new = Cluster()
        self.clusters.insert(self.cluster_id(cluster), new)
        return new

    def cluster_id(self, cluster: Cluster) -> int:
        return next(i for i, c in enumerate(self.clusters) if c is cluster)

    def is_before(self, a: Cluster, b: Cluster) -> bool:
        return a is not b and self.cluster_id(a) < self.cluster_id(b)

    # ------------------------------------------------------------ placement

    def insert(self, op: Operation, stage: int, cluster: Cluster) -> None:
        self.num_stages = max(self.num_stages, stage + 1)
        self.placement[op] = (stage, cluster)

    def insert_if_absent(self, op: Operation, stage: int, cluster: Cluster) -> bool:
        if op in self.placement:
            return False
        self.insert(op, stage, cluster)
        return True

    def insert_minimum(self, op: Operation, stage: int, cluster: Cluster) -> bool:
        """Place `op` at (stage, cluster) unless it is already placed no later."""
        if op not in self.placement:
            self.insert(op, stage, cluster)
            return True
        old_stage, old_cluster = self.placement[op]
        if stage < old_stage or (stage == old_stage and self.is_before(cluster, old_cluster)):
            self.placement[op] = (stage, cluster)
            return True
        return False

    def insert_deps_of_op(self, op: Operation, stage: int, cluster: Cluster,
                          include_arg: bool, insert_if_earlier: bool = False) -> bool:
        """Place the in-body producers of `op`'s operands (transitively) with it."""
        inserted = False
        for value in nested_operands(op):
            seen: set[SSAValue] = set()
            while isinstance(value, BlockArgument) and include_arg and value not in seen:
                seen.add(value)
                if value.index > 0 and value.block is op.parent_block():
                    value = yielded_value(value)
                    continue
                break
            producer = value.owner if isinstance(value.owner, Operation) else None
            if producer is None or producer.parent_block() is not op.parent_block():
                continue
            placed = (self.insert_minimum(producer, stage, cluster) if insert_if_earlier
                      else self.insert_if_absent(producer, stage, cluster))
            if placed:
                inserted = True
                self.insert_deps_of_op(producer, stage, cluster, include_arg, insert_if_earlier)
        return inserted

    def erase(self, op: Operation) -> None:
        self.placement.pop(op, None)

    def shrink_to_fit(self) -> None:
        """Renumber stages from 0 and drop empty trailing ones."""
        if not self.placement:
            self.num_stages = 0
            return
        stages = [stage for stage, _ in self.placement.values()]
        low = min(stages)
        self.placement = {op: (stage - low, cluster) for op, (stage, cluster) in self.placement.items()}
        self.num_stages = max(stages) - low + 1

    def split_cluster_before(self, op: Operation, for_op: Operation) -> Cluster:
        """Move the ops of `op`'s cluster that precede it into a new cluster just before."""
        cluster = self.placement[op][1]
        new: Cluster | None = None
        for other in body_ops(for_op):
            if other is op:
                break
            placed = self.placement.get(other)
            if placed is not None and placed[1] is cluster:
                if new is None:
                    new = self.new_before(cluster)
                self.placement[other] = (placed[0], new)
        return cluster

    def is_op_before(self, a: Operation, b: Operation) -> bool:
        """Whether `a` comes before `b` in the unrolled code: stage, then cluster, then block order."""
        (stage_a, cluster_a), (stage_b, cluster_b) = self.placement[a], self.placement[b]
        if stage_a != stage_b:
            return stage_a < stage_b
        if cluster_a is not cluster_b:
            return self.is_before(cluster_a, cluster_b)
        return is_before_in_block(a, b)

    def is_op_in_earlier_cluster(self, a: Operation, b: Operation) -> bool:
        return self.is_before(self.placement[a][1], self.placement[b][1])

    def is_op_in_same_cluster(self, a: Operation, b: Operation) -> bool:
        return self.placement[a][1] is self.placement[b][1]

    # ------------------------------------------------------------ order

    def ops_in_order(self, for_op: Operation) -> list[tuple[Operation, int, Cluster]]:
        """Scheduled body ops by cluster, and by block order within a cluster."""
        by_cluster: dict[int, list[tuple[Operation, int, Cluster]]] = {}
        for op in body_ops(for_op):
            placed = self.placement.get(op)
            if placed is None:
                continue
            stage, cluster = placed
            by_cluster.setdefault(self.cluster_id(cluster), []).append((op, stage, cluster))
        return [entry for cid in sorted(by_cluster) for entry in by_cluster[cid]]

    def final_schedule(self, for_op: Operation) -> list[tuple[Operation, int]]:
        """(op, stage) in emission order: what the expander consumes."""
        return [(op, stage) for op, stage, _ in self.ops_in_order(for_op)]

    # ------------------------------------------------------------ attributes

    def serialize(self, for_op: Operation) -> None:
        """Stamp `loop.stage`/`loop.cluster` on the ops and `tt.scheduled_max_stage` on the loop."""
        for op, stage, cluster in self.ops_in_order(for_op):
            op.attributes[LOOP_STAGE] = int_attr(stage)
            op.attributes[LOOP_CLUSTER] = int_attr(self.cluster_id(cluster))
        max_stage = self.num_stages - 1
        existing = get_int(for_op, SCHEDULED_MAX_STAGE)
        if existing is not None:
            max_stage = max(max_stage, existing)
        for_op.attributes[SCHEDULED_MAX_STAGE] = int_attr(max_stage)

    @staticmethod
    def deserialize(for_op: Operation, normalize_cluster_ids: bool = True) -> "CoarseSchedule | None":
        """The schedule stamped on a loop, or None if it has none (`tt.scheduled_max_stage`)."""
        max_stage = get_int(for_op, SCHEDULED_MAX_STAGE)
        if max_stage is None:
            return None
        schedule = CoarseSchedule(max_stage + 1)
        placed = [(op, get_int(op, LOOP_STAGE), get_int(op, LOOP_CLUSTER)) for op in body_ops(for_op)
                  if LOOP_STAGE in op.attributes and LOOP_CLUSTER in op.attributes]
        ids = [cluster for _, _, cluster in placed]
        low = min(ids) if ids and normalize_cluster_ids else 0
        high = max(ids) if ids else -1
        clusters = {cid: schedule.new_at_back() for cid in range(low, high + 1)}
        for op, stage, cluster in placed:
            schedule.insert(op, stage, clusters[cluster])
        schedule.num_stages = max_stage + 1
        return schedule


def nested_operands(op: Operation) -> Iterable[SSAValue]:
    """Operands of `op` and of ops nested in it that are defined outside `op`, in the order of
    Triton's `getNestedOperands` (a post-order walk: nested ops before `op` itself)."""
    inside: set[SSAValue] = set()
    for nested in op.walk():
        inside.update(nested.results)
        for region in nested.regions:
            for block in region.blocks:
                inside.update(block.args)
    seen: list[SSAValue] = []
    for nested in op.walk(region_first=True):
        for operand in nested.operands:
            if operand not in inside and operand not in seen:
                seen.append(operand)
    return seen


def schedule_dependencies(for_op: Operation, schedule: CoarseSchedule) -> None:
    """Place the producers of each scheduled op with it, stage by stage (earliest wins)."""
    ops = schedule.ops_in_order(for_op)
    for stage in range(schedule.num_stages):
        for op, op_stage, cluster in ops:
            if op_stage == stage:
                schedule.insert_deps_of_op(op, stage, cluster, include_arg=False, insert_if_earlier=True)


def remove_pipelining_attributes(root: Operation) -> None:
    """Drop `loop.stage`, `loop.cluster` and `tt.scheduled_max_stage` from every op under
    `root` (Triton's `removePipeliningAttributes`), once the loops are expanded."""
    for op in root.walk():
        for name in (LOOP_STAGE, LOOP_CLUSTER, SCHEDULED_MAX_STAGE):
            op.attributes.pop(name, None)
