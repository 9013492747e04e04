"""`example-loads-ahead`: a scheduler for `ttpipe-schedule-loops` that issues loads one
stage further ahead than their latency asks for.

1. The loads with a latency go to stage 0 (a loop without any is left as it is).
2. The loop gets one stage more than the largest load latency needs (`latency + 2`), so each
   load is issued two iterations or more before its use.
3. Triton's completion steps (`context.complete`) place the rest: producers with the loads,
   values carried to the next iteration a stage later, everything else in the last stage.
"""

from __future__ import annotations

from ttpipe.dialects import scf
from ttpipe.passes.pipeline.pipelining_utility import LOADS
from ttpipe.passes.pipeline.schedule import CoarseSchedule, body_ops
from ttpipe.passes.pipeline.schedule_loops import LoopScheduleContext


def loads_ahead(loop: scf.ForOp, context: LoopScheduleContext) -> CoarseSchedule | None:
    loads = [op for op in body_ops(loop) if isinstance(op, LOADS) and context.latencies.get(op, 0) > 0]
    if not loads:
        return None
    schedule = CoarseSchedule(max(context.latencies[op] for op in loads) + 2)
    compute = schedule.new_at_back()
    issue = schedule.new_at_back()
    for load in loads:
        schedule.insert(load, 0, issue)
    context.complete(loop, schedule, compute)
    return schedule
