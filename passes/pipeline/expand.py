"""Loop expansion for software pipelining: prologue, steady-state kernel, epilogue.

A port of Triton 3.6's `PipelineExpander.cpp` (lib/Dialect/TritonGPU/Transforms/Pipeliner/),
Triton's fork of MLIR's `mlir/lib/Dialect/SCF/Transforms/LoopPipelining.cpp`. Given an
`scf.for` and a schedule (each body op with its stage, in the order the kernel emits
them), it rewrites

    for i in [lb, ub):  S0(i) S1(i) S2(i)

into (3 stages, the numbers in parentheses being iterations)

    S0(0)                          // Prologue
    S0(1) S1(0)                    // Prologue
    for i in [lb, ub - 2):         // Kernel: ub unchanged when the epilogue is not peeled
      S0(i+2) S1(i+1) S2(i)
    S1(N-1) S2(N-2)                // Epilogue (only when peeled)
    S2(N-1)                        // Epilogue

Values used in a later stage than the one defining them travel through new loop-carried
values, one per iteration they live across.

Algorithm (`pipeline_for_loop`):
  1. Check the loop and schedule (`LoopPipeliner.initialize`): every body op has a stage,
     none sits in a nested region, every operand is defined no later in the unrolled
     schedule than its use, and loop-carried dependences have distance 1.
  2. Emit the prologue: for i in [0, maxStage), the ops of stages <= i, for iteration
     i - stage, predicated on `lb + i*step < ub` when the trip count is not known to be
     at least maxStage.
  3. Find the values that cross stages and the number of versions each needs.
  4. Create the kernel loop carrying the original iter args and those versions, clone the
     ops in schedule order, remap operands to the right version, and (when the epilogue
     is not peeled) predicate the ops of stage s < maxStage on `iv < ub - (maxStage-s)*step`.
  5. When peeling, emit the epilogue: for i in [1, maxStage], the ops of stages >= i,
     predicated on `total_iterations >= version` for dynamic loops.
  6. Replace the loop's results and erase it.

Mechanism only: the schedule, the predication of an op (`predicate_fn`) and the stage
predicates (`emit_predicate_stage_fn`) come in through `PipeliningOptions`. (MLIR's
`annotateFn` is left out: no phase of ttpipe's uses it.)

Changes of Triton's fork over MLIR's expander, all kept here (from its header):
  - a def with a distance of 1 scheduled in stage 0 is remapped correctly;
  - dynamic loops, with ops of the prologue predicated;
  - induction variables of a non-index type;
  - a source of distance 1 used several stages later;
  - a yielded value used after the loop and defined before the last stage is returned in
    the right version when the epilogue is not peeled (a select on its stage predicate).
As in the fork, a loop counts as static only when lb, ub and step are `index` constants
(`arith::ConstantIndexOp`); Triton's i32 loops are always treated as dynamic.

Differences from Triton: refusals are returned as a `Refusal` (op and reason) instead of
diagnostics emitted on the IR; the caller decides whether they are errors.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from xdsl.context import Context
from xdsl.dialects.builtin import IndexType, ModuleOp
from xdsl.ir import Block, BlockArgument, Operation, OpResult, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint

from ttpipe.dialects import scf
from ttpipe.dialects.arith import CmpIPredicate
from ttpipe.passes.common.diagnostics import emit_remark
from ttpipe.passes.common.target import error_at
from ttpipe.passes.common.builder import OpBuilder, constant_int_value, value_location
from ttpipe.passes.common.ir import yielded_value
from ttpipe.passes.pipeline.pipelining_utility import is_defined_outside_loop
from ttpipe.passes.pipeline.predicate import predicate_op
from ttpipe.passes.pipeline.schedule import (
    CoarseSchedule,
    body_ops,
    nested_operands,
    remove_pipelining_attributes,
)


PredicateFn = Callable[[Operation, SSAValue], "Operation | None"]
"""(op already in place, i1 predicate) -> the op standing for it, or None if impossible."""

PredicateStageFn = Callable[[OpBuilder, SSAValue, SSAValue, SSAValue, int, int], SSAValue]
"""(builder, iv, ub, step, maxStage, stage) -> the i1 saying whether `stage` runs."""

@dataclass
class PipeliningOptions:
    schedule: Sequence[tuple[Operation, int]]
    """Every body op but the terminator with its stage, in the kernel's emission order."""
    predicate_fn: PredicateFn | None = None
    peel_epilogue: bool = True
    """Peel the last maxStage iterations into an epilogue; otherwise the kernel runs the
    whole range and predicates the early stages in its last iterations."""
    support_dynamic_loops: bool = False
    """Accept loops whose trip count is unknown or smaller than maxStage (needs `predicate_fn`)."""
    emit_predicate_stage_fn: PredicateStageFn | None = None


@dataclass(frozen=True)
class Refusal:
    """Why a loop is left as it is: at `op` (the loop, or the op at fault)."""

    op: Operation
    reason: str
    bad_schedule: bool = False
    """The schedule contradicts the IR (an error in a hand-written schedule), as opposed to
    a loop the expander does not handle."""


def expansion_refusal_remark(loop: scf.ForOp, refusal: Refusal) -> None:
    """The remark for a scheduled loop the expander leaves as it is."""
    at = "" if refusal.op is loop else f", at '{refusal.op.name}'"
    emit_remark(loop, f"loop not pipelined: the expander refuses it ({refusal.reason}{at})")


def emit_predicate_for_stage(builder: OpBuilder, iv: SSAValue, ub: SSAValue, step: SSAValue,
                             max_stage: int, stage: int) -> SSAValue:
    """`iv < ub - (maxStage - stage) * step`: the iteration of `stage` that the kernel runs
    at `iv` is a real one (Triton's `emitPredicateForStage`)."""
    distance = builder.constant(max_stage - stage, iv.type)
    bound = builder.subi(ub, builder.muli(step, distance))
    return builder.cmpi(CmpIPredicate.slt, iv, bound)


def defining_op_and_distance(for_op: scf.ForOp, value: SSAValue) -> tuple[Operation | None, int]:
    """The body op defining `value`, following iter args to the yield (each adds 1 to the
    distance); None for the induction variable, values from outside and cycles of iter args
    (Triton's `getDefiningOpAndDistance`)."""
    distance = 0
    seen: set[SSAValue] = set()
    while isinstance(value, BlockArgument):
        if value.block is not for_op.body or value.index == 0:
            return None, 0
        distance += 1
        value = yielded_value(value)
        if value in seen:
            return None, 0
        seen.add(value)
    return value.owner, distance


def _is_in_region(value: SSAValue, region: Region) -> bool:
    """`region.isAncestor(value.getParentRegion())`."""
    current = value.block.parent if isinstance(value, BlockArgument) else value.owner.parent_region()
    while current is not None:
        if current is region:
            return True
        parent = current.parent_op()
        current = parent.parent_region() if parent is not None else None
    return False


def _values_used_from_above(op: Operation) -> list[SSAValue]:
    """Operands of ops nested in `op`'s regions that are defined outside each region
    (MLIR's `visitUsedValuesDefinedAbove`), in walk order."""
    used = []
    for region in op.regions:
        for nested in region.walk():
            for operand in nested.operands:
                if not _is_in_region(operand, region):
                    used.append(operand)
    return used


def clone_and_update_operands(op: Operation, builder: OpBuilder,
                              update: Callable[[Operation, int, SSAValue], None]) -> Operation:
    """Clone `op` at the builder's insertion point, then call `update(nested, index, value)`
    for each operand of the clone and of the ops in it that is defined outside the clone
    or is a block argument."""
    clone = builder.insert_clone(op.clone())
    inside = {result for nested in clone.walk() for result in nested.results}
    for nested in clone.walk():
        for index, operand in enumerate(nested.operands):
            if isinstance(operand, BlockArgument) or operand not in inside:
                update(nested, index, operand)
    return clone


@dataclass
class _LiveRange:
    last_use_stage: int = 0
    def_stage: int = 0


@dataclass
class LoopPipeliner:
    """The state of one expansion (Triton's `LoopPipelinerInternal`)."""

    for_op: scf.ForOp
    options: PipeliningOptions
    max_stage: int = 0
    stages: dict[Operation, int] = field(default_factory=dict)
    op_order: list[Operation] = field(default_factory=list)
    dynamic_loop: bool = True
    value_mapping: dict[SSAValue, list[SSAValue | None]] = field(default_factory=dict)

    @property
    def lb(self) -> SSAValue:
        return self.for_op.lowerBound

    @property
    def ub(self) -> SSAValue:
        return self.for_op.upperBound

    @property
    def step(self) -> SSAValue:
        return self.for_op.step

    @property
    def iv(self) -> BlockArgument:
        return self.for_op.body.args[0]

    @property
    def iter_args(self) -> tuple[BlockArgument, ...]:
        return self.for_op.body.args[1:]

    @property
    def yield_op(self) -> Operation:
        return self.for_op.body.last_op

    def set_value_mapping(self, key: SSAValue, value: SSAValue, version: int) -> None:
        self.value_mapping.setdefault(key, [None] * (self.max_stage + 1))[version] = value

    def _version(self, key: SSAValue, version: int) -> SSAValue:
        value = self.value_mapping[key][version]
        if value is None:
            raise AssertionError(f"pipeliner: no version {version} of a value crossing stages")
        return value

    # ------------------------------------------------------------ 1. checks

    def initialize(self) -> Refusal | None:
        schedule = self.options.schedule
        if not schedule:
            return Refusal(self.for_op, "empty schedule")
        for op, stage in schedule:
            self.max_stage = max(self.max_stage, stage)
            self.stages[op] = stage
            self.op_order.append(op)

        bounds = [self._index_constant(v) for v in (self.ub, self.lb, self.step)]
        if None in bounds:
            if not self.options.support_dynamic_loops:
                return Refusal(self.for_op, "dynamic loop not supported")
        else:
            ub, lb, step = bounds
            iterations = -((lb - ub) // step)
            if iterations >= self.max_stage:
                self.dynamic_loop = False
            elif not self.options.support_dynamic_loops:
                return Refusal(self.for_op, "fewer loop iterations than pipeline stages")
        if (not self.options.peel_epilogue or self.dynamic_loop) and self.options.predicate_fn is None:
            return Refusal(self.for_op, "the loop needs predication and no predicate function is set")

        for op in body_ops(self.for_op):
            if op not in self.stages:
                return Refusal(op, "not assigned a pipeline stage", bad_schedule=True)
        refusal = self._verify_schedule()
        if refusal is not None:
            return refusal
        for op in self.stages:
            if op is self.yield_op:
                return Refusal(op, "terminator should not be assigned a stage", bad_schedule=True)
            if op.parent_block() is not self.for_op.body:
                return Refusal(op, "the owning block of all operations assigned a stage should be "
                                   "the loop body block", bad_schedule=True)
        for op in body_ops(self.for_op):
            for operand in nested_operands(op):
                definition, distance = defining_op_and_distance(self.for_op, operand)
                if definition is not None and distance > 1:
                    return Refusal(op, "only loop-carried dependences of distance 1 or values defined "
                                       "outside the loop are supported")
        return None

    @staticmethod
    def _index_constant(value: SSAValue) -> int | None:
        return constant_int_value(value) if isinstance(value.type, IndexType) else None

    def _verify_schedule(self) -> Refusal | None:
        """Every op comes after its operands in the unrolled schedule, allowing for distance."""
        cycles_per_iteration = len(self.op_order)
        unrolled = {op: cycle + self.stages[op] * cycles_per_iteration
                    for cycle, op in enumerate(self.op_order)}
        for consumer in self.op_order:
            for operand in nested_operands(consumer):
                producer, distance = defining_op_and_distance(self.for_op, operand)
                if producer is None or producer not in unrolled:
                    continue
                if unrolled[consumer] < unrolled[producer] - cycles_per_iteration * distance:
                    return Refusal(consumer, "operation scheduled before its operands", bad_schedule=True)
        return None

    # ------------------------------------------------------------ 2. prologue

    def emit_prologue(self, builder: OpBuilder) -> bool:
        for arg, init in zip(self.iter_args, self.for_op.initArgs):
            self.set_value_mapping(arg, init, 0)
        # An iter arg fed by a value from outside the loop holds it from the second
        # iteration on.
        for arg, yielded in zip(self.iter_args, self.yield_op.operands):
            if _is_in_region(yielded, self.for_op.region):
                continue
            for i in range(1, self.max_stage):
                self.set_value_mapping(arg, yielded, i)

        predicates: list[SSAValue | None] = [None] * self.max_stage
        for i in range(self.max_stage):
            iv = builder.addi(self.lb, builder.muli(self.step, builder.constant(i, self.lb.type)))
            self.set_value_mapping(self.iv, iv, i)
            if self.dynamic_loop:
                predicates[i] = builder.cmpi(CmpIPredicate.slt, iv, self.ub)
            for op in self.op_order:
                stage = self.stages[op]
                if stage > i:
                    continue
                version = i - stage

                def update(nested: Operation, index: int, value: SSAValue, version=version) -> None:
                    if value in self.value_mapping:
                        nested.operands[index] = self._version(value, version)

                new_op = clone_and_update_operands(op, builder, update)
                predicate = predicates[version]
                if predicate is not None:
                    new_op = self.options.predicate_fn(new_op, predicate)
                    if new_op is None:
                        return False
                for index, result in enumerate(op.results):
                    source = new_op.results[index]
                    for position, yielded in enumerate(self.yield_op.operands):
                        if yielded is not result:
                            continue
                        if predicate is not None and self.for_op.results[position].uses:
                            # Used after the loop: keep the previous version when this
                            # iteration does not run.
                            previous = self._version(self.iter_args[position], version)
                            source = builder.select(predicate, source, previous)
                        self.set_value_mapping(self.iter_args[position], source, version + 1)
                    self.set_value_mapping(result, new_op.results[index], version)
        return True

    # ------------------------------------------------------------ 3. cross-stage values

    def analyze_cross_stage_values(self) -> dict[SSAValue, _LiveRange]:
        cross: dict[SSAValue, _LiveRange] = {}
        for op in self.op_order:
            stage = self.stages[op]
            for value in [*op.operands, *_values_used_from_above(op)]:
                definition, distance = defining_op_and_distance(self.for_op, value)
                if definition is None:
                    continue
                def_stage = self.stages.get(definition)
                if def_stage is None or def_stage == stage or def_stage == stage + distance:
                    continue
                assert stage > def_stage, "pipeliner: use scheduled before its definition"
                info = cross.setdefault(value, _LiveRange())
                info.def_stage = def_stage
                info.last_use_stage = max(info.last_use_stage, stage)
        return cross

    # ------------------------------------------------------------ 4. kernel

    def create_kernel_loop(self, cross: dict[SSAValue, _LiveRange], builder: OpBuilder,
                           loop_arg_map: dict[tuple[SSAValue, int], int]) -> scf.ForOp:
        new_loop_args: list[SSAValue] = []
        for index, yielded in enumerate(self.yield_op.operands):
            definition = yielded.owner if isinstance(yielded, OpResult) else None
            if definition in self.stages:
                new_loop_args.append(self._version(self.iter_args[index], self.max_stage - self.stages[definition]))
            else:
                new_loop_args.append(self.for_op.initArgs[index])
        for value, info in cross.items():
            span = info.last_use_stage - info.def_stage
            for stage_index in range(span):
                new_loop_args.append(self._version(value, self.max_stage - info.last_use_stage + stage_index))
                loop_arg_map[(value, span - stage_index)] = len(new_loop_args) - 1

        new_ub = self.ub
        if self.options.peel_epilogue:
            max_stage_value = builder.constant(self.max_stage, self.ub.type)
            new_ub = builder.subi(self.ub, builder.muli(self.step, max_stage_value))
        body = Block(arg_types=[self.iv.type, *(v.type for v in new_loop_args)])
        body.args[0].location = self.for_op.location
        for arg, init in zip(body.args[1:], new_loop_args):
            arg.location = value_location(init)
        new_for = builder.insert(scf.ForOp(self.lb, new_ub, self.step, new_loop_args, body=body,
                                           unsigned_cmp=self.for_op.unsignedCmp is not None), self.for_op.location)
        new_for.attributes.update(self.for_op.attributes)
        return new_for

    def create_kernel(self, new_for: scf.ForOp, cross: dict[SSAValue, _LiveRange],
                      loop_arg_map: dict[tuple[SSAValue, int], int]) -> bool:
        self.value_mapping.clear()
        body = new_for.body
        new_iv = body.args[0]
        builder = OpBuilder(InsertPoint.at_end(body), self.for_op.location)
        mapping: dict[SSAValue, SSAValue] = {self.iv: new_iv}
        for arg, new_arg in zip(self.iter_args, body.args[1:]):
            mapping[arg] = new_arg

        predicates: list[SSAValue | None] = [None] * (self.max_stage + 1)
        if not self.options.peel_epilogue:
            emit = self.options.emit_predicate_stage_fn or emit_predicate_for_stage
            for stage in range(self.max_stage):
                predicates[stage] = emit(builder, new_iv, self.ub, self.step, self.max_stage, stage)

        for op in self.op_order:
            use_stage = self.stages[op]
            new_op = builder.insert_clone(op.clone(mapping))
            for nested, new_nested in zip(op.walk(), new_op.walk()):
                for index, value in enumerate(nested.operands):
                    self._remap_kernel_operand(value, index, new_nested, new_op, new_for, use_stage,
                                               mapping, loop_arg_map, builder)
            predicate = predicates[use_stage]
            if predicate is not None:
                new_op = self.options.predicate_fn(new_op, predicate)
                if new_op is None:
                    return False
                for result, new_result in zip(op.results, new_op.results):
                    mapping[result] = new_result

        yield_operands = self._kernel_yield_operands(new_for, mapping, predicates, builder)
        for value, info in cross.items():
            version = self.max_stage - info.last_use_stage + 1
            for _ in range(1, info.last_use_stage - info.def_stage):
                self.set_value_mapping(value, new_for.results[len(yield_operands)], version)
                version += 1
                yield_operands.append(body.args[len(yield_operands) + 2])
            self.set_value_mapping(value, new_for.results[len(yield_operands)], version)
            yield_operands.append(mapping.get(value, value))
        for index, yielded in enumerate(self.yield_op.operands):
            definition = yielded.owner if isinstance(yielded, OpResult) else None
            def_stage = self.stages.get(definition)
            if def_stage is None:
                for stage in range(1, self.max_stage + 1):
                    self.set_value_mapping(self.iter_args[index], yielded, stage)
            elif def_stage > 0:
                self.set_value_mapping(self.iter_args[index], new_for.results[index],
                                       self.max_stage - def_stage + 1)
        builder.insert(scf.YieldOp(*yield_operands))
        return True

    def _remap_kernel_operand(self, value: SSAValue, index: int, new_nested: Operation, new_op: Operation,
                              new_for: scf.ForOp, use_stage: int, mapping: dict[SSAValue, SSAValue],
                              loop_arg_map: dict[tuple[SSAValue, int], int], builder: OpBuilder) -> None:
        """Point one operand of a cloned kernel op at the version of its value for `use_stage`."""
        if value is self.iv:
            # The op runs for iteration iv + (maxStage - stage) * step.
            before = OpBuilder(InsertPoint.before(new_op), self.for_op.location)
            offset = before.muli(self.step, before.constant(self.max_stage - use_stage, self.step.type))
            new_nested.operands[index] = before.addi(new_for.body.args[0], offset)
            return
        source = value
        if isinstance(value, BlockArgument) and value.block is self.for_op.body:
            returned = yielded_value(value)
            if is_defined_outside_loop(returned, self.for_op):
                # A value from outside the loop read with distance 1.
                if use_stage != self.max_stage:
                    new_nested.operands[index] = returned
                return
            dep = returned.owner if isinstance(returned, OpResult) else None
            if dep is None:
                return
            dep_stage = self.stages.get(dep)
            if dep_stage is None or dep_stage == use_stage:
                return
            if dep_stage == use_stage + 1:
                # Carried from the next stage: in the kernel it is a direct use.
                new_nested.operands[index] = mapping.get(returned, returned)
                return
            source = returned
        definition = source.owner if isinstance(source, OpResult) else None
        if definition is None:
            return
        def_stage = self.stages.get(definition)
        if def_stage is None or def_stage == use_stage:
            return
        new_nested.operands[index] = new_for.body.args[1 + loop_arg_map[(value, use_stage - def_stage)]]

    def _kernel_yield_operands(self, new_for: scf.ForOp, mapping: dict[SSAValue, SSAValue],
                               predicates: list[SSAValue | None], builder: OpBuilder) -> list[SSAValue]:
        operands = []
        for index, yielded in enumerate(self.yield_op.operands):
            source = mapping.get(yielded, yielded)
            # Without an epilogue, a value used after the loop and defined before the last
            # stage must keep the version of the last real iteration.
            if not self.options.peel_epilogue and self.for_op.results[index].uses:
                definition = defining_op_and_distance(self.for_op, yielded)[0]
                def_stage = self.stages.get(definition) if definition is not None else None
                if def_stage is not None and def_stage < self.max_stage:
                    predicate = predicates[def_stage]
                    select = OpBuilder(builder.insertion_point, value_location(predicate))
                    source = select.select(predicate, source, new_for.body.args[index + 1])
            operands.append(source)
        return operands

    # ------------------------------------------------------------ 5. epilogue

    def emit_epilogue(self, builder: OpBuilder, return_values: list[SSAValue]) -> bool:
        t = self.lb.type
        zero = builder.constant(0, t)
        one = builder.constant(1, t)
        step_less_zero = builder.cmpi(CmpIPredicate.slt, self.step, zero)
        step_decr = builder.select(step_less_zero, one, builder.constant(-1, t))
        range_diff = builder.subi(self.ub, self.lb)
        range_incr_step = builder.addi(range_diff, self.step)
        range_decr = builder.addi(range_incr_step, step_decr)
        total_iterations = builder.divsi(range_decr, self.step)
        # Start at max(0, total - maxStage) to match a prologue that ran short.
        iteration = builder.subi(total_iterations, builder.constant(self.max_stage, t))
        iteration = builder.maxsi(zero, iteration)

        predicates: list[SSAValue | None] = [None] * (self.max_stage + 1)
        for i in range(1, self.max_stage + 1):
            last_iv = builder.addi(self.lb, builder.muli(self.step, iteration))
            self.set_value_mapping(self.iv, last_iv, i)
            iteration = builder.addi(iteration, one)
            if self.dynamic_loop:
                predicates[i] = builder.cmpi(CmpIPredicate.sge, total_iterations, builder.constant(i, t))

        yielded = self.yield_op.operands
        for i in range(1, self.max_stage + 1):
            return_map: list[tuple[SSAValue, int] | None] = [None] * len(return_values)
            for op in self.op_order:
                stage = self.stages[op]
                if stage < i:
                    continue
                current = self.max_stage - stage + i

                def update(nested: Operation, index: int, value: SSAValue, current=current) -> None:
                    if value in self.value_mapping:
                        nested.operands[index] = self._version(value, current)

                new_op = clone_and_update_operands(op, builder, update)
                if self.dynamic_loop:
                    new_op = self.options.predicate_fn(new_op, predicates[current])
                    if new_op is None:
                        return False
                for result, new_result in zip(op.results, new_op.results):
                    self.set_value_mapping(result, new_result, current)
                    for position, value in enumerate(yielded):
                        if value is not result:
                            continue
                        return_values[position] = new_result
                        return_map[position] = (self.iter_args[position], current)
                        if current + 1 <= self.max_stage:
                            self.set_value_mapping(self.iter_args[position], new_result, current + 1)
            if self.dynamic_loop:
                # Keep the previous stage's live-outs when this one does not run.
                for position, entry in enumerate(return_map):
                    if entry is None:
                        continue
                    key, current = entry
                    previous = self._version(key, current)
                    selected = builder.select(predicates[current], return_values[position], previous)
                    return_values[position] = selected
                    if current + 1 <= self.max_stage:
                        self.set_value_mapping(key, selected, current + 1)
        return True


def pipeline_for_loop(for_op: scf.ForOp, options: PipeliningOptions) -> scf.ForOp | Refusal:
    """Expand `for_op` by `options.schedule`; the new kernel loop, or why not.

    A refusal found before any rewrite leaves the IR untouched; a `predicate_fn` returning
    None part-way leaves it partly rewritten, as in MLIR (Triton's predicate functions never do).
    """
    pipeliner = LoopPipeliner(for_op, options)
    refusal = pipeliner.initialize()
    if refusal is not None:
        return refusal
    builder = OpBuilder(InsertPoint.before(for_op), for_op.location)
    if not pipeliner.emit_prologue(builder):
        return Refusal(for_op, "an op of the prologue cannot be predicated")
    cross = pipeliner.analyze_cross_stage_values()
    loop_arg_map: dict[tuple[SSAValue, int], int] = {}
    new_for = pipeliner.create_kernel_loop(cross, builder, loop_arg_map)
    if not pipeliner.create_kernel(new_for, cross, loop_arg_map):
        return Refusal(for_op, "an op of the kernel cannot be predicated")
    return_values = list(new_for.results[:len(for_op.results)])
    if options.peel_epilogue:
        after = OpBuilder(InsertPoint.after(new_for), for_op.location)
        if not pipeliner.emit_epilogue(after, return_values):
            return Refusal(for_op, "an op of the epilogue cannot be predicated")
    for result, value in zip(for_op.results, return_values):
        result.replace_all_uses_with(value)
    for_op.detach()
    for_op.erase()
    return new_for


@dataclass(frozen=True)
class ExpandLoops(ModulePass):
    """Expand every scheduled scf.for into prologue, kernel and epilogue (the expander alone).

    The expander of `ttpipe-pipeline` without lowering, for testing it on hand-set
    schedules (as MLIR's `test-scf-pipelining` does).

    Steps:
      1. For each `scf.for` with `tt.scheduled_max_stage`, read the schedule
         (`loop.stage`, `loop.cluster` on each body op) and order it by cluster.
      2. Expand it (`pipeline_for_loop`) with dynamic loops supported and ops predicated by
         `predicate_op` directly; with `peel-epilogue`, the last iterations are peeled.
      3. Remove the pipelining attributes.

    A schedule that contradicts the IR (an op without a stage, an op scheduled before its
    operands, a stage on a nested op) is an error at the op; a loop the expander does not
    handle (a dependence of distance > 1) is left as it is, with a remark
    `loop not pipelined: the expander refuses it (<reason>)` at its location
    (`ttpipe-opt --remarks`; from Python, `ttpipe.ir.diagnostics.diagnostic_handler`).
    """

    name = "ttpipe-expand-loops"
    peel_epilogue: bool = False

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for for_op in [o for o in op.walk() if isinstance(o, scf.ForOp)]:
            schedule = CoarseSchedule.deserialize(for_op)
            if schedule is None:
                continue
            options = PipeliningOptions(schedule.final_schedule(for_op), predicate_fn=predicate_op,
                                        peel_epilogue=self.peel_epilogue, support_dynamic_loops=True)
            result = pipeline_for_loop(for_op, options)
            if isinstance(result, Refusal) and result.bad_schedule:
                raise error_at(result.op, result.reason)
            if isinstance(result, Refusal):
                expansion_refusal_remark(for_op, result)
        remove_pipelining_attributes(op)
