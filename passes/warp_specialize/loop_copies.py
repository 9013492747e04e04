"""The partitions' copies of a warp-specialized loop (`partition_loops.py` steps 3-4):
each partition's own `scf.for` over the same iterations holding the ops stamped with its
`ttg.partition`, the iteration arguments it needs, and a `PipelineState` carried as two
more iteration arguments; the producer's TMA loads lowered onto the ring."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from xdsl.dialects.builtin import i32
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from ttpipe.dialects import scf, tt, ttng
from ttpipe.passes.common.builder import OpBuilder
from ttpipe.passes.pipeline.schedule import NUM_STAGES, body_ops, int_attr
from ttpipe.passes.warp_specialize.partition import CONSUMER, PARTITION
from ttpipe.passes.warp_specialize.tma_pipeline import PipelineState, PipelineTmaAsync

PRODUCER_NUM_WARPS = 1
"""The producer only issues TMA copies, which one thread does; `ttg.warp_specialize`
allows partitions of any power-of-two warps, and Triton's AllocateWarpGroups pads it
to a warpgroup for `setmaxnreg`."""


@dataclass
class PartitionLoop:
    """One partition's copy of the loop, while it is being built."""

    loop: scf.ForOp
    carried: list[int]
    """The original loop's iteration arguments (by position) this copy carries."""
    cloned: dict[Operation, Operation]
    state: PipelineState
    builder: OpBuilder
    """Inserting at the end of the new body."""


def partitions(op: Operation) -> set[int]:
    attr = op.attributes.get(PARTITION)
    return set(attr.get_values()) if attr is not None else set()


def carried_arguments(loop: scf.ForOp, partition: int) -> list[int]:
    """Step 3: the iteration arguments a partition's copy of the loop carries."""
    args = loop.body.args[1:]
    yielded = loop.body.last_op.operands
    carried: set[int] = set()
    for index, (arg, value) in enumerate(zip(args, yielded)):
        read = any(partition in partitions(use.operation) for use in arg.uses)
        defined = isinstance(value.owner, Operation) and partition in partitions(value.owner)
        result_read = partition == CONSUMER and bool(loop.results[index].uses)
        if read or defined or result_read:
            carried.add(index)
    pending = list(carried)
    while pending:
        value = yielded[pending.pop()]
        if value in args and args.index(value) not in carried:
            carried.add(args.index(value))
            pending.append(args.index(value))
    return sorted(carried)


def build_partition_loop(loop: scf.ForOp, partition: int, builder: OpBuilder, mapping: dict[SSAValue, SSAValue],
                         start_phase: int, carried_type: Callable[[Attribute], Attribute] | None = None,
                         state: PipelineState | None = None) -> PartitionLoop:
    """Step 3: the partition's copy of `loop` at `builder`, its ops cloned, not yet yielding;
    `carried_type` gives an iteration argument's type in the copy (the same by default);
    `state`: the (index, phase) the copy starts from (a persistent tile loop's), else
    (0, `start_phase`)."""
    carried = carried_arguments(loop, partition)
    carried_type = carried_type or (lambda type_: type_)
    if state is None:
        zero = builder.int_constant(0, 32)
        phase = builder.int_constant(start_phase, 32)
    else:
        zero, phase = state.index, state.phase
    old_args = loop.body.args
    inits = [mapping.get(loop.initArgs[i], loop.initArgs[i]) for i in carried] + [zero, phase]
    body = Block(arg_types=[old_args[0].type, *(carried_type(old_args[i + 1].type) for i in carried), i32, i32])
    mapping[old_args[0]] = body.args[0]
    for position, i in enumerate(carried):
        mapping[old_args[i + 1]] = body.args[position + 1]
    new_loop = builder.insert(scf.ForOp(*(mapping.get(v, v) for v in (loop.lowerBound, loop.upperBound, loop.step)),
                                        inits, body=body, unsigned_cmp=loop.unsignedCmp is not None), loop.location)
    new_loop.attributes[NUM_STAGES] = int_attr(0)
    body_builder = OpBuilder(InsertPoint.at_end(body), loop.location)
    cloned = {}
    for op in body_ops(loop):
        if partition in partitions(op):
            copy = op.clone(value_mapper=mapping)
            copy.attributes.pop(PARTITION, None)
            cloned[op] = body_builder.insert_clone(copy)
    return PartitionLoop(new_loop, carried, cloned, PipelineState(body.args[-2], body.args[-1]), body_builder)


def finish_loop(part: PartitionLoop, loop: scf.ForOp, mapping: dict[SSAValue, SSAValue],
                stages: SSAValue, yielded: dict[SSAValue, SSAValue] | None = None) -> None:
    """Advance the state and yield (through `yielded` where a value was replaced)."""
    b = part.builder
    b.set_after(part.loop.body.last_op)
    next_state = part.state.advance(b, stages)
    values = []
    for i in part.carried:
        value = mapping.get(loop.body.last_op.operands[i], loop.body.last_op.operands[i])
        values.append((yielded or {}).get(value, value))
    b.insert(scf.YieldOp(*values, next_state.index, next_state.phase))


def lower_producer(part: PartitionLoop, ring: PipelineTmaAsync, buffers: dict[Operation, SSAValue],
                   loads: Sequence[tt.DescriptorLoadOp]) -> None:
    """Step 4."""
    b = part.builder
    b.set_before(part.cloned[loads[0]])
    true = b.int_constant(1, 1)
    full = ring.producer_acquire(b, part.state, true)
    for load in loads:
        copy = part.cloned[load]
        b.set_before(copy)
        slot = ring.slot(b, buffers[load], part.state.index)
        b.insert(ttng.AsyncTMACopyGlobalToLocalOp(copy.desc, list(copy.indices), full, slot, true), copy.location)
        Rewriter.erase_op(copy)
    ring.producer_commit(b, part.state)


