"""When a tcgen05 MMA in a loop can stay in flight across iterations.

Follows Triton 3.6 `lib/Dialect/TritonGPU/Transforms/Pipeliner/MMAv5PipelineUtility.cpp`
(the analysis half): `areScalesPipelineable`, `isOperandPipelineableBase`,
`MMAv5PipelineableOperandsHelper`, `hasAccReadModifyWrite`, `isAccMultibufferingPossible`,
`requiresAccMultiBuffering` and `hasLoadsAfterMMA`.

An operand is pipelineable when it is loop-invariant or is a shared buffer
(`ttg.local_alloc`, seen through `memdesc_trans`/`memdesc_reshape` views) filled from a
load that is itself pipelined (it has a latency) and can be made asynchronous. Block scales
count as well: AccelerateMatmul routes them through `local_alloc`, and OptimizeDotOperands
leaves the MMA reading reshaped and transposed views of that buffer (the TMEM copy comes
later), so the same walk finds their loads.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from xdsl.ir import BlockArgument, Operation, SSAValue

from ttpipe.dialects import scf
from ttpipe.dialects.ttg import LocalAllocOp, LocalStoreOp, MemDescReshapeOp, MemDescTransOp
from ttpipe.dialects.ttg_attrs import SharedEncodingTrait
from ttpipe.dialects.ttng import TCGen5MMAOp, TCGen5MMAScaledOp, TMEMAllocOp, TMEMLoadOp, TMEMStoreOp
from ttpipe.passes.common.builder import is_constant_int_value
from ttpipe.passes.common.ir import ancestor_in_block, is_ancestor, is_before_in_block, yielded_value
from ttpipe.passes.pipeline.pipelining_utility import (
    LOADS,
    can_be_async_load,
    is_defined_outside_loop,
)

MMAV5_OPS = (TCGen5MMAOp, TCGen5MMAScaledOp)
"""Triton's `MMAv5OpInterface`: the tcgen05 MMAs, accumulating into TMEM."""


def _accumulator_alloc(mma: Operation, for_op: scf.ForOp) -> TMEMAllocOp | None:
    """The `ttng.tmem_alloc` of the MMA's accumulator when it is hoisted out of the loop."""
    alloc = mma.d.owner
    if isinstance(alloc, TMEMAllocOp) and is_defined_outside_loop(alloc.result, for_op):
        return alloc
    return None


def _users_in_loop(alloc: TMEMAllocOp, for_op: scf.ForOp, kind: type[Operation]) -> list[Operation]:
    return [use.operation for use in alloc.result.uses
            if isinstance(use.operation, kind) and is_ancestor(for_op, use.operation.parent_op())]


def are_scales_pipelineable(mma: TCGen5MMAScaledOp, for_op: scf.ForOp) -> bool:
    """`areScalesPipelineable`: both scales are shared buffers or loop-invariant."""
    return all(isinstance(scale.type.encoding, SharedEncodingTrait) or is_defined_outside_loop(scale, for_op)
               for scale in (mma.a_scale, mma.b_scale))


def operand_pipelineability(value: SSAValue, for_op: scf.ForOp, is_pipelineable: Callable[[Operation], bool],
                            is_load_to_be_pipelined: Callable[[Operation], bool]) -> tuple[bool, Operation | None]:
    """`isOperandPipelineableBase`: whether the operand can be ready a stage early, and the op
    that decided it (Triton's `foundDef` out-parameter; None where Triton leaves it as it was)."""
    if is_defined_outside_loop(value, for_op):
        return True, None
    if isinstance(value, BlockArgument):
        return False, None
    while isinstance(value.owner, (MemDescTransOp, MemDescReshapeOp)):
        value = value.owner.src
    if isinstance(value, BlockArgument):
        return False, None
    producer = value.owner
    if is_pipelineable(producer):
        return True, None
    if isinstance(producer, (LocalStoreOp, TMEMStoreOp, TMEMAllocOp)):
        return False, producer
    if not isinstance(producer, LocalAllocOp):
        return False, None
    if producer.src is None:
        return False, producer
    if is_defined_outside_loop(producer.src, for_op):
        return True, producer
    load = producer.src.owner
    if not isinstance(load, LOADS):
        return False, producer
    if not is_load_to_be_pipelined(load):
        return False, load
    return can_be_async_load(load), load


@dataclass
class MMAv5PipelineableOperands:
    """`MMAv5PipelineableOperandsHelper`: whether every operand of a tcgen05 MMA in a loop
    (A, B and, scaled, both scales) can be ready a stage early."""

    mma: Operation
    for_op: scf.ForOp
    is_load_to_be_pipelined: Callable[[Operation], bool]
    is_pipelineable: bool = field(default=False, init=False)
    is_operands_state_determined: bool = field(default=True, init=False)
    """False when some operand's producer cannot be told apart (e.g. a block argument)."""
    unpipelineable_operand_defs: list[Operation] = field(default_factory=list, init=False)

    def __post_init__(self) -> None:
        if _accumulator_alloc(self.mma, self.for_op) is None:
            return
        self._check_pair(self.mma.a, self.mma.b)
        if isinstance(self.mma, TCGen5MMAScaledOp):
            if not are_scales_pipelineable(self.mma, self.for_op):
                self.is_operands_state_determined = False
                return
            self._check_pair(self.mma.a_scale, self.mma.b_scale)
        self.is_pipelineable = self.is_operands_state_determined and not self.unpipelineable_operand_defs

    def _check_pair(self, first: SSAValue, second: SSAValue) -> None:
        """Check two operands sharing one `foundDef`, as Triton does: a producer the first
        check recorded still counts for the second when that one records none."""
        found: Operation | None = None
        for operand in (first, second):
            pipelineable, decided_by = operand_pipelineability(operand, self.for_op, lambda op: False,
                                                               self.is_load_to_be_pipelined)
            found = decided_by or found
            if pipelineable:
                continue
            if found is not None:
                self.unpipelineable_operand_defs.append(found)
            else:
                self.is_operands_state_determined = False


def has_acc_read_modify_write(mma: Operation, for_op: scf.ForOp) -> bool:
    """`hasAccReadModifyWrite`: a value loaded from the accumulator in the loop is changed and
    stored back (pessimistically true when the accumulator is not hoisted)."""
    alloc = _accumulator_alloc(mma, for_op)
    if alloc is None:
        return True
    stores = _users_in_loop(alloc, for_op, TMEMStoreOp)
    loads = _users_in_loop(alloc, for_op, TMEMLoadOp)
    if not stores or not loads:
        return False
    seen: set[SSAValue] = set()
    read = [load.results[0] for load in loads]
    modified: list[SSAValue] = []
    while read:
        value = read.pop()
        if value in seen:
            continue
        seen.add(value)
        for use in value.uses:
            user = use.operation
            if user in stores:
                continue
            if isinstance(user, scf.YieldOp):
                read.extend(_forwarded(user, use.index, for_op))
            else:
                modified.extend(v for v in user.results if v not in modified)
    while modified:
        value = modified.pop()
        if value in seen:
            continue
        seen.add(value)
        for use in value.uses:
            user = use.operation
            if user in stores:
                return True
            if isinstance(user, scf.YieldOp):
                modified.extend(v for v in _forwarded(user, use.index, for_op) if v not in modified)
            else:
                modified.extend(v for v in user.results if v not in modified)
    return False


def _forwarded(yield_op: scf.YieldOp, index: int, for_op: scf.ForOp) -> list[SSAValue]:
    """Where an `scf.yield` operand flows: the `scf.if` result, or the loop's iteration argument."""
    parent = yield_op.parent_op()
    if isinstance(parent, scf.IfOp):
        return [parent.results[index]]
    if parent is for_op:
        return [for_op.body.args[index + 1]]
    return []


def _acc_use_flag_set_to_false(mma: Operation, for_op: scf.ForOp) -> bool:
    """`accUseFlagSetToFalse`: the MMA overwrites the accumulator, always or on a flag that
    the loop computes."""
    flag = mma.useD
    if is_constant_int_value(flag, 0):
        return True
    seen: set[SSAValue] = set()
    while isinstance(flag, BlockArgument) and flag.block is for_op.body and flag.index > 0 and flag not in seen:
        seen.add(flag)
        flag = yielded_value(flag)
    return not isinstance(flag, BlockArgument) and is_ancestor(for_op, flag.owner)


def _acc_overwritten_in_loop(mma: Operation, for_op: scf.ForOp) -> bool:
    alloc = _accumulator_alloc(mma, for_op)
    return alloc is not None and bool(_users_in_loop(alloc, for_op, TMEMStoreOp))


def is_acc_multibuffering_possible(mma: Operation, for_op: scf.ForOp) -> bool:
    """`isAccMultibufferingPossible`: the loop overwrites the accumulator somewhere, which is
    where the buffer can be swapped."""
    return _acc_use_flag_set_to_false(mma, for_op) or _acc_overwritten_in_loop(mma, for_op)


def requires_acc_multi_buffering(mma: Operation, for_op: scf.ForOp) -> bool:
    """`requiresAccMultiBuffering`: the loop reads the accumulator (pessimistically true when
    it is not hoisted)."""
    alloc = _accumulator_alloc(mma, for_op)
    return alloc is None or bool(_users_in_loop(alloc, for_op, TMEMLoadOp))


def has_loads_after_mma(mma: Operation, for_op: scf.ForOp) -> bool:
    """`hasLoadsAfterMMA`: the accumulator is read later in the same iteration."""
    alloc = _accumulator_alloc(mma, for_op)
    if alloc is None:
        return False
    for use in alloc.result.uses:
        if isinstance(use.operation, TMEMLoadOp):
            ancestor = ancestor_in_block(for_op.body, use.operation)
            if ancestor is not None and is_before_in_block(mma, ancestor):
                return True
    return False

