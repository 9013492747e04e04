"""Alternative schedulers for `ttpipe-schedule-loops`, and how to write one.

A scheduler is a function `(loop, LoopScheduleContext) -> CoarseSchedule | None`. It sees
the loop (already checked safe to pipeline) and the latencies of its ops; it returns a
schedule placing every op of the body at a stage and in a cluster, or None to leave the
loop alone. The pass checks the schedule (every op placed, producers first) and writes it.
Register it to select it by name:

    from ttpipe.passes.pipeline.schedule_loops import ScheduleLoops, register_scheduler
    register_scheduler("mine", my_scheduler)        # ttpipe-schedule-loops{scheduler=mine}
    ScheduleLoops(scheduler=my_scheduler)           # or pass the function itself

`ttpipe-opt` can also load one as `scheduler=package.module:function`.
"""

from __future__ import annotations

from ttpipe.dialects import scf
from ttpipe.passes.pipeline.pipelining_utility import LOADS
from ttpipe.passes.pipeline.schedule import CoarseSchedule, body_ops
from ttpipe.passes.pipeline.schedule_loops import LoopScheduleContext, register_scheduler


def loads_first_scheduler(loop: scf.ForOp, context: LoopScheduleContext) -> CoarseSchedule | None:
    """All loads with a latency in stage 0, everything else in the last stage.

    1. The stage count is one more than the largest load latency (none: leave the loop).
    2. Each such load goes to stage 0, in a cluster of loads at the back of the order (the
       next iterations' loads are issued after this iteration's compute).
    3. Triton's completion steps place the rest: the loads' producers join them, values
       carried to the next iteration come a stage later, the others go to the last stage.
    """
    loads = [op for op in body_ops(loop) if isinstance(op, LOADS) and context.latencies.get(op, 0) > 0]
    if not loads:
        return None
    schedule = CoarseSchedule(max(context.latencies[op] for op in loads) + 1)
    compute = schedule.new_at_back()
    issue = schedule.new_at_back()
    for load in loads:
        schedule.insert(load, 0, issue)
    context.complete(loop, schedule, compute)
    return schedule


register_scheduler("loads-first", loads_first_scheduler)
