"""The coarse schedules of a run's loops, captured after the pass that stamped them.

`ttpipe-schedule-loops` (and Triton's `tritongpu-schedule-loops`) stamp each body op of an
`scf.for` with `loop.stage`/`loop.cluster` and the loop with `tt.scheduled_max_stage`; the
pipeliner then expands the loop and the attributes are gone. `ScheduleRecorder.record` is
called with the module after every batch of passes the driver hands off (and with the
input; `ScheduleRecorder.watches` ends a batch before Triton's pipeliner) and keeps, for
each loop's source location, the schedule it saw last, as plain data that outlives the IR.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.dialects.builtin import ModuleOp

from ttpipe.dialects import scf
from ttpipe.passes.pipeline.schedule import CoarseSchedule
from ttpipe.pipeline.registry import PassInvocation
from ttpipe.passes.common.target import op_location_text
from ttpipe.schedule_picture.cells import OpCell, describe, function_name


@dataclass(frozen=True)
class ScheduledOp:
    """One body op at its place in the schedule."""

    cell: OpCell
    stage: int
    cluster: int


@dataclass(frozen=True)
class LoopSchedule:
    """A loop's coarse schedule: its ops in issue order (cluster, then block order)."""

    function: str
    location: str
    num_stages: int
    num_clusters: int
    ops: tuple[ScheduledOp, ...]
    captured_after: str
    """The pass after which it was seen ('the input' when the input carried it)."""


EXPANDING_PASSES = frozenset({"tritongpu-pipeline"})
"""Triton's passes that expand scheduled loops (the schedule is gone after them). The
module must be seen right before them, so they start a hand-off of their own; ttpipe's
pipeliner, a Python pass, runs alone anyway."""

LoopKey = tuple[str, str]
"""(function, loop location): how a schedule is matched with the final IR's loops."""


def loop_schedules(module: ModuleOp, captured_after: str) -> dict[LoopKey, LoopSchedule]:
    """The schedule of every loop of `module` that carries one; of two loops at one location
    (partition copies of one loop), the one with more scheduled ops."""
    found: dict[LoopKey, LoopSchedule] = {}
    for loop in module.walk():
        if not isinstance(loop, scf.ForOp):
            continue
        schedule = CoarseSchedule.deserialize(loop)
        if schedule is None:
            continue
        ops = tuple(ScheduledOp(describe(op), stage, schedule.cluster_id(cluster))
                    for op, stage, cluster in schedule.ops_in_order(loop))
        key = (function_name(loop), op_location_text(loop))
        if key in found and len(found[key].ops) >= len(ops):
            continue
        found[key] = LoopSchedule(key[0], key[1], schedule.num_stages, len(schedule.clusters), ops, captured_after)
    return found


@dataclass
class ScheduleRecorder:
    """Remembers the schedules seen after each pass; the latest wins for each location.

    Its `after(invocation, module)` is the driver's after-pass hook
    (`ttpipe.pipeline.driver.run(..., after=recorder.after)`)."""

    loops: dict[LoopKey, LoopSchedule] = field(default_factory=dict)

    def record(self, module: ModuleOp, captured_after: str) -> None:
        self.loops.update(loop_schedules(module, captured_after))

    def after(self, invocation: PassInvocation, module: ModuleOp) -> None:
        self.record(module, invocation.info.name)

    @staticmethod
    def watches(invocation: PassInvocation) -> bool:
        """The driver's `watched`: whether the module must be seen on its own around this
        pass (one before a Triton pass that expands scheduled loops)."""
        return invocation.info.name in EXPANDING_PASSES
