"""`example-loads-ahead`: a scheduler for `ttpipe-schedule-loops` that issues loads one
stage further ahead than their latency asks for.

It is ttpipe's `loads-first` placement (every load with a latency in stage 0, Triton's
completion steps for the rest) with one stage more: each load is issued two iterations or
more before its use. A scheduler may equally build its `CoarseSchedule` from scratch (see
`ttpipe.passes.pipeline.schedulers`).
"""

from __future__ import annotations

from ttpipe.dialects import scf
from ttpipe.passes.pipeline.schedule import CoarseSchedule
from ttpipe.passes.pipeline.schedule_loops import LoopScheduleContext
from ttpipe.passes.pipeline.schedulers import loads_in_stage_0


def loads_ahead(loop: scf.ForOp, context: LoopScheduleContext) -> CoarseSchedule | None:
    return loads_in_stage_0(loop, context, lead=2)
