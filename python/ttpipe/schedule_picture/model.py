"""What one picture shows, gathered from the final IR and the captured schedules.

A picture is made for

1. each `ttg.warp_specialize` (a warp-specialized loop): its regions as lanes, with the
   schedules captured for any loop inside it;
2. each other loop location of the final IR whose loop indexes a buffer ring itself, or
   carries a captured schedule that no warp-specialized copy of it carries (a pipelined
   loop): one lane, the loops at that location that index a ring (all of them when none
   does);
3. each captured schedule whose location no loop of the final IR has: the stage grid only.

Each shows its buffers and mbarrier arrays with the async edges that guard them, the
arrows between lanes (an op that arrives on an mbarrier to the ops of other lanes that
wait on it) and the function's shared memory against the target's limit.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation

from ttpipe.dialects import scf, tt, ttg
from ttpipe.dialects.ttg_types import MemDescType
from ttpipe.passes.common.target import NUM_WARPS_ATTR, lookup_int, op_location_text
from ttpipe.schedule_picture.cells import OpCell, describe
from ttpipe.schedule_picture.guards import Guard, guards
from ttpipe.schedule_picture.lanes import Lane, LaneSpec, lane_rows, warp_specialize_lanes
from ttpipe.schedule_picture.memory import Allocation, Memory, Place, SharedMemory, shared_memory, value_names
from ttpipe.schedule_picture.schedules import LoopKey, LoopSchedule

@dataclass(frozen=True)
class Arrow:
    """An op of one lane arrives on `barrier`; an op of another lane waits on it."""

    barrier: str
    source: tuple[int, int]
    target: tuple[int, int]
    """(lane, row)."""


@dataclass(frozen=True)
class Buffer:
    """A buffer or mbarrier array, and the async edges that guard it (one line each)."""

    allocation: Allocation
    edges: tuple[str, ...]


@dataclass(frozen=True)
class Picture:
    function: str
    location: str
    kind: str
    """'warp-specialized loop' or 'pipelined loop'."""
    notes: tuple[str, ...]
    schedules: tuple[LoopSchedule, ...]
    lanes: tuple[Lane, ...] = ()
    arrows: tuple[Arrow, ...] = ()
    buffers: tuple[Buffer, ...] = ()
    shared: SharedMemory | None = None


def pictures(module: ModuleOp, schedules: Mapping[LoopKey, LoopSchedule]) -> list[Picture]:
    """The pictures of `module` (the final IR) with the schedules captured on the way."""
    found: list[Picture] = []
    drawn: set[LoopKey] = set()
    names = value_names(module)
    for function in (op for op in module.walk() if isinstance(op, tt.FuncOp)):
        memory = Memory(function, names)
        shared = shared_memory(module, memory)
        name = function.sym_name.data
        loops = [op for op in function.walk() if isinstance(op, scf.ForOp) and not _in_warp_specialize(op)]
        specialized = {(name, op_location_text(op)) for op in function.walk()
                       if isinstance(op, scf.ForOp) and _in_warp_specialize(op)}
        for op in function.walk():
            if isinstance(op, ttg.WarpSpecializeOp):
                keys = [(name, op_location_text(o)) for o in op.walk() if o is op or isinstance(o, scf.ForOp)]
                found.append(_picture(name, op, "warp-specialized loop", _schedules(keys, schedules, drawn),
                                      warp_specialize_lanes(op), memory, shared))
            elif op in loops and (name, op_location_text(op)) not in drawn:
                key = (name, op_location_text(op))
                group = [loop for loop in loops if op_location_text(loop) == key[1]]
                pipelined = [loop for loop in group if _indexes_ring(loop, memory)]
                if pipelined or key in schedules and key not in specialized:
                    lane = ("all warps", lookup_int(op, NUM_WARPS_ATTR), None, pipelined or group)
                    found.append(_picture(name, op, "pipelined loop", _schedules([key], schedules, drawn),
                                          [lane], memory, shared))
    for key, schedule in schedules.items():
        if key not in drawn:
            found.append(Picture(key[0], key[1], "pipelined loop", ("no loop at this location in the final IR",),
                                 (schedule,)))
    return found


def _schedules(keys: Sequence[LoopKey], schedules: Mapping[LoopKey, LoopSchedule],
               drawn: set[LoopKey]) -> tuple[LoopSchedule, ...]:
    """The schedules captured at `keys` (marked drawn)."""
    drawn.update(keys)
    return tuple(schedules[key] for key in dict.fromkeys(keys) if key in schedules)


def _picture(function: str, anchor: Operation, kind: str, schedules: tuple[LoopSchedule, ...],
             specs: list[LaneSpec], memory: Memory, shared: SharedMemory) -> Picture:
    def cell(op: Operation) -> OpCell:
        places = (memory.place(v) for v in op.operands if isinstance(v.type, MemDescType))
        return describe(op, " ".join(dict.fromkeys(p.name for p in places if p is not None)))

    lanes, rows_of = [], []
    for name, warps, registers, roots in specs:
        rows, where = lane_rows(roots, cell)
        lanes.append(Lane(name, warps, registers, tuple(rows)))
        rows_of.append(where)
    edges = guards([roots for *_, roots in specs], memory)
    notes = [] if schedules else [
        "neither the input nor a pass of this run stamped a schedule (loop.stage, loop.cluster) on this loop "
        "(an input already pipelined, or a loop warp-specialized without one): drawn from the final IR, without "
        "a stage grid"]
    return Picture(function, op_location_text(anchor), kind, tuple(notes), schedules, tuple(lanes),
                   tuple(_arrows(edges, rows_of)), tuple(_buffers(specs, edges, memory, lanes)), shared)


def _arrows(edges: list[Guard], rows_of: list[dict[Operation, int]]) -> list[Arrow]:
    """From the first op of each lane that arrives on an mbarrier to each op of another lane
    that waits on it."""
    arrows: dict[tuple, Arrow] = {}
    for wait in (g for g in edges if g.waits and g.barrier is not None):
        for signal in edges:
            if signal.waits or signal.lane == wait.lane or not _may_be_same(signal.barrier, wait.barrier):
                continue
            key = (signal.lane, wait.op)
            if key not in arrows:
                arrows[key] = Arrow(wait.barrier.name, (signal.lane, rows_of[signal.lane][signal.op]),
                                    (wait.lane, rows_of[wait.lane][wait.op]))
    return list(arrows.values())


def _may_be_same(a: Place | None, b: Place) -> bool:
    """Whether `a` and `b` may be one mbarrier: one array, and the same stage or a stage
    not known before run time."""
    return a is not None and a.allocation == b.allocation and (None in (a.index, b.index) or a.index == b.index)


def _buffers(specs: list[LaneSpec], edges: list[Guard], memory: Memory, lanes: list[Lane]) -> list[Buffer]:
    """The allocations the lanes' ops touch, in allocation order, each with its edges: one
    line per (mbarrier, verb), naming the buffers it covers and the lanes it is in."""
    touched = {place.allocation for *_, roots in specs for root in roots for op in root.walk()
               for value in op.operands if isinstance(value.type, MemDescType)
               and (place := memory.place(value)) is not None}
    lines: dict[Allocation, dict[str, tuple[dict[str, None], dict[str, None]]]] = {}

    def add(allocation: Allocation, head: str, buffer: str | None, lane: str) -> None:
        covered, lane_names = lines.setdefault(allocation, {}).setdefault(head, ({}, {}))
        if buffer is not None:
            covered[buffer] = None
        lane_names[lane] = None

    for edge in edges:
        lane = lanes[edge.lane].name
        guard = f"{edge.barrier.name}: {edge.verb}" if edge.barrier is not None else edge.verb
        if edge.barrier is not None and not edge.buffers:
            add(edge.barrier.allocation, guard, None, lane)
        for access in edge.buffers:
            then = " before writing" if access.write else " before reading"
            add(access.allocation, guard + (then if edge.waits else ""), None, lane)
            if edge.barrier is not None:
                then = ", then writes" if access.write else ", then reads"
                add(edge.barrier.allocation, guard + (then if edge.waits else ""), access.allocation.name, lane)
    return [Buffer(a, tuple(_line(head, *parts) for head, parts in lines.get(a, {}).items()))
            for a in memory.allocations.values() if a in touched]


def _line(head: str, buffers: Iterable[str], lanes: Iterable[str]) -> str:
    """`%11[i]: waits, then reads %a, %b (default, partition0)`."""
    named = ", ".join(buffers)
    return f"{head}{' ' + named if named else ''} ({', '.join(lanes)})"


def _indexes_ring(loop: scf.ForOp, memory: Memory) -> bool:
    """Whether an op of `loop`'s own body (not of a nested loop's) picks a stage of a ring."""
    pending = list(loop.body.ops)
    while pending:
        op = pending.pop()
        if isinstance(op, ttg.MemDescIndexOp):
            place = memory.place(op.src)
            if place is not None and not place.allocation.barrier and place.allocation.depth > 1:
                return True
        if not isinstance(op, scf.ForOp):
            pending += [nested for region in op.regions for block in region.blocks for nested in block.ops]
    return False


def _in_warp_specialize(op: Operation) -> bool:
    parent = op.parent_op()
    while parent is not None and not isinstance(parent, ttg.WarpSpecializeOp):
        parent = parent.parent_op()
    return parent is not None
