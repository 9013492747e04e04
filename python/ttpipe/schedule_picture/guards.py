"""The async edges of a loop: which mbarrier or wait guards which buffer.

For every op of a lane's loops that takes part in an async protocol, one `Guard`:

* `ttng.wait_barrier`: the buffers the ops after it in its block read or write, up to the
  next op that waits on an mbarrier or arrives on the array it waited on (a consumer's full
  barrier guards its reads, a producer's empty barrier its refills);
* `ttng.async_tma_copy_global_to_local` (and gather): its mbarrier completes when the copy
  lands in its buffer; `tc_gen5_mma` with mbarriers: they complete when the MMA has read its
  operands; `barrier_expect`, `arrive_barrier`, `tc_gen5_commit`,
  `async_copy_mbarrier_arrive`: their mbarrier, no buffer;
* `ttg.async_wait`: the buffers the cp.async copies of its tokens' commit groups write
  (every cp.async buffer of the lane when it names no tokens);
* `ttng.warp_group_dot_wait`: the buffers of the operands it retires;
* `ttng.async_tma_store_wait`: the buffers the lane's TMA stores read.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

from xdsl.ir import BlockArgument, Operation, SSAValue

from ttpipe.dialects import scf, ttg, ttng
from ttpipe.dialects.ttg_types import MemDescType
from ttpipe.passes.common.ir import init_value, yielded_value
from ttpipe.schedule_picture.cells import VIEWS
from ttpipe.schedule_picture.memory import Allocation, Memory, Place

WRITTEN_OPERAND = {ttg.AsyncCopyGlobalToLocalOp: "result", ttng.AsyncTMACopyGlobalToLocalOp: "result",
                   ttng.AsyncTMAGatherOp: "result", ttg.LocalStoreOp: "dst", ttng.TMEMStoreOp: "dst",
                   ttng.TMEMCopyOp: "dst", ttng.TCGen5MMAOp: "d", ttng.TCGen5MMAScaledOp: "d"}
"""The buffer operand each op writes; every other buffer operand is read."""

SIGNALS = {ttng.BarrierExpectOp: "expects", ttng.ArriveBarrierOp: "arrives",
           ttng.TCGen5CommitOp: "tcgen05.commit arrives", ttng.AsyncCopyMbarrierArriveOp: "cp.async arrives",
           ttng.AsyncTMACopyGlobalToLocalOp: "TMA copy completes", ttng.AsyncTMAGatherOp: "TMA gather completes",
           ttng.TCGen5MMAOp: "tcgen05.mma completes", ttng.TCGen5MMAScaledOp: "tcgen05.mma completes"}
"""Ops that arrive on an mbarrier (or complete its transaction bytes), and the verb."""

COMPLETING = (ttng.AsyncTMACopyGlobalToLocalOp, ttng.AsyncTMAGatherOp, ttng.TCGen5MMAOp, ttng.TCGen5MMAScaledOp)
"""Ops whose mbarriers complete once they are done with their buffers."""


@dataclass(frozen=True)
class Access:
    allocation: Allocation
    write: bool


@dataclass(frozen=True)
class Guard:
    """One async edge: `op` of lane `lane` `verb`s `barrier` (None for a wait on a count)
    over `buffers`."""

    lane: int
    op: Operation
    verb: str
    barrier: Place | None
    buffers: tuple[Access, ...]

    @property
    def waits(self) -> bool:
        return isinstance(self.op, ttng.WaitBarrierOp)


def accesses(op: Operation, memory: Memory) -> list[Access]:
    """The buffers (not mbarriers) `op` itself reads or writes."""
    if isinstance(op, VIEWS):
        return []
    written = getattr(op, WRITTEN_OPERAND[type(op)]) if type(op) in WRITTEN_OPERAND else None
    found = []
    for value in op.operands:
        place = memory.place(value) if isinstance(value.type, MemDescType) else None
        if place is not None and not place.allocation.barrier:
            found.append(Access(place.allocation, value is written))
    return found


def guards(lanes: Sequence[Sequence[Operation]], memory: Memory) -> list[Guard]:
    """The guards of the ops under each lane's root ops, lane by lane, in op order."""
    found: list[Guard] = []
    for lane, roots in enumerate(lanes):
        ops = [op for root in roots for op in root.walk()]
        for op in ops:
            found += _guards_of(lane, op, ops, memory)
    return found


def _guards_of(lane: int, op: Operation, lane_ops: list[Operation], memory: Memory) -> Iterator[Guard]:
    if isinstance(op, ttng.WaitBarrierOp):
        yield Guard(lane, op, "waits", memory.place(op.alloc), tuple(_after_wait(op, memory)))
    elif type(op) in SIGNALS:
        verb = f"expects {op.size.value.data} B" if isinstance(op, ttng.BarrierExpectOp) else SIGNALS[type(op)]
        touched = tuple(accesses(op, memory)) if isinstance(op, COMPLETING) else ()
        for barrier in _barrier_operands(op):
            yield Guard(lane, op, verb, memory.place(barrier), touched)
    elif isinstance(op, ttg.AsyncWaitOp):
        copies = _copies_of(op.asyncToken) if op.asyncToken else [o for o in lane_ops
                                                                   if isinstance(o, ttg.AsyncCopyGlobalToLocalOp)]
        yield Guard(lane, op, f"cp.async wait num={op.num.value.data}", None,
                    _unique(a for copy in copies for a in accesses(copy, memory)))
    elif isinstance(op, ttng.WarpGroupDotWaitOp):
        yield Guard(lane, op, f"wgmma wait pendings={op.pendings.value.data}", None,
                    _unique(accesses(op, memory)))
    elif isinstance(op, ttng.TMAStoreWaitOp):
        stores = [o for o in lane_ops if isinstance(o, ttng.AsyncTMACopyLocalToGlobalOp)]
        yield Guard(lane, op, f"TMA store wait pendings={op.pendings.value.data}", None,
                    _unique(a for store in stores for a in accesses(store, memory)))


def _barrier_operands(op: Operation) -> list[SSAValue]:
    if isinstance(op, (ttng.TCGen5MMAOp, ttng.TCGen5MMAScaledOp)):
        return list(op.barriers)
    if isinstance(op, (ttng.BarrierExpectOp, ttng.ArriveBarrierOp)):
        return [op.alloc]
    return [op.barrier]


def _after_wait(wait: ttng.WaitBarrierOp, memory: Memory) -> Iterator[Access]:
    """The buffers the ops after `wait` in its block touch, up to the next mbarrier wait or
    the next op that arrives on the mbarrier array waited on (the protocol's next round)."""
    waited = memory.place(wait.alloc)
    op = wait.next_op
    seen: set[Access] = set()
    while op is not None and not any(_ends_wait(nested, waited, memory) for nested in op.walk()):
        for nested in op.walk():
            for access in accesses(nested, memory):
                if access not in seen:
                    seen.add(access)
                    yield access
        op = op.next_op


def _ends_wait(op: Operation, waited: Place | None, memory: Memory) -> bool:
    if isinstance(op, ttng.WaitBarrierOp):
        return True
    if type(op) not in SIGNALS or waited is None:
        return False
    places = (memory.place(barrier) for barrier in _barrier_operands(op))
    return any(place is not None and place.allocation == waited.allocation for place in places)


def _copies_of(tokens: Iterable[SSAValue]) -> list[ttg.AsyncCopyGlobalToLocalOp]:
    """The cp.async copies whose commit groups `tokens` stand for, through loop-carried tokens."""
    pending, seen, copies = list(tokens), set(), []
    while pending:
        value = pending.pop()
        if value in seen:
            continue
        seen.add(value)
        owner = value.owner
        if isinstance(owner, ttg.AsyncCommitGroupOp):
            pending += owner.inputTokens
        elif isinstance(owner, ttg.AsyncCopyGlobalToLocalOp):
            copies.append(owner)
        elif isinstance(value, BlockArgument) and isinstance(value.block.parent_op(), scf.ForOp) and value.index > 0:
            pending += [init_value(value), yielded_value(value)]
    return copies


def _unique(items: Iterable[Access]) -> tuple[Access, ...]:
    return tuple(dict.fromkeys(items))
