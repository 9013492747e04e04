"""A scheduler that breaks the rules, for schedule-loops-invalid.mlir: in a function named
`unplaced` it leaves the first op of the loop out; in one named `backwards` it puts the ops
with a latency in the last of two stages and their users in the first."""

from ttpipe.dialects.tt import FuncOp
from ttpipe.passes.pipeline.schedule import CoarseSchedule, body_ops


def rule_breaker(loop, context):
    func = loop.parent_op()
    while not isinstance(func, FuncOp):
        func = func.parent_op()
    schedule = CoarseSchedule(2)
    cluster = schedule.new_at_back()
    ops = body_ops(loop)
    if func.sym_name.data == "unplaced":
        ops = ops[1:]
    for op in ops:
        schedule.insert(op, 1 if func.sym_name.data == "backwards" and op in context.latencies else 0, cluster)
    return schedule
