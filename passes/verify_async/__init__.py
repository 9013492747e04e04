"""`ttpipe-verify-async`: a static check of a kernel's asynchronous protocols, before codegen.

Pipelined and warp-specialized kernels are built from protocols — mbarrier phases and
arrive counts, `barrier_expect` byte counts, cp.async commit groups and waits, wgmma groups
and `wait_group` counts, TMA-store waits before a buffer is reused. A mistake in any is a
hang or a silent race on the GPU. This pass finds them in TTGIR.

Algorithm: a bounded model check of each function that uses mbarriers, async copies or
async MMAs. The function runs on an abstract CTA (machine.py, cta.py, interpreter.py):
every integer scalar is computed exactly — ring indices and phases carried around loops
included — tensors are opaque, each partition of a `ttg.warp_specialize` is a thread, and
every asynchronous unit (TMA copy, cp.async group, wgmma group, TMA-store group, tcgen05
op) completes through the ops that wait for it. Vector clocks give the happens-before
order that the protocol establishes; then:

  - a barrier op on an mbarrier that is not (or no longer) initialised is an error [init];
  - more arrivals in a phase than the barrier's count [arrive-count];
  - TMA copies bringing more bytes to a phase than its `barrier_expect` announced, or fewer
    (the phase never completes) [expect-bytes];
  - a read of shared or tensor memory not ordered after the write of it — a TMA copy
    not waited for, a cp.async group not retired, a wait of the wrong phase [read-before-wait];
  - a write not ordered after an earlier read — a stage refilled before the consumer
    released it, a buffer stored to while a wgmma or a TMA store still reads it; the end
    of the kernel and `local_dealloc` count as writes [write-before-release], or after an
    earlier write [write-write];
  - a wgmma result read before a `warp_group_dot_wait` retires its group, or a wait that
    returns a result without retiring it (seed 001) [wgmma-flush];
  - a wait that never returns because no thread completes the phase it waits for, across
    partitions [deadlock].

What the IR leaves open comes from a set of instances: every integer argument 0, 1, 100,
300 or 2560 (trip counts of 0, 1, fewer than the stages, several turns of the ring, and
for a persistent kernel on 132 programs four tiles of 128x128, two per ping-pong consumer,
so that every buffer and turn is used twice), program id 0; then, for each integer
argument, that one 0 and the others 1536 (a K of zero with two tiles to store per program). For each of
the first, three schedules (the others get the first): lazy (asynchronous completions delivered only when no thread can move,
so an early read sees the write still in flight), in partition order and in reverse, and
eager (each completion delivered at once). A race is found whenever both accesses happen
in a run, whatever order that run gave them; a wrong phase is found where a run makes the
wait pass too early or never. The check is bounded, not a proof: a protocol that goes wrong
only at other values can pass it.

Each violation is an error at the op at fault, naming the mbarrier or buffer and the rule
(in brackets), with a note at the other op involved; all of a function's violations are
reported. A function with an op the checker does not model, or that runs past
`max-steps`, gets a remark saying what was not checked. Runs in the named pipelines after
the pipeliner (and warp specialization); `verify-async=false` leaves it out.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from ttpipe.dialects import tt
from ttpipe.ir.diagnostics import emit
from ttpipe.passes.common.diagnostics import emit_remark
from ttpipe.passes.verify_async.cta import CTA, Instance, Schedule, StepLimit, Thread
from ttpipe.passes.verify_async.interpreter import (
    EFFECTS,
    OPAQUE,
    Interpreter,
    Unsupported,
    bit_width,
)
from ttpipe.passes.verify_async.violations import Violations

INSTANCE_VALUES = (0, 1, 100, 300, 2560)
"""The value every integer argument takes in each instance (see the module docstring)."""

ONE_ZERO_BASE = 1536
"""The value of the other integer arguments where one is 0."""

SCHEDULES = (Schedule(lazy=True, reverse=False), Schedule(lazy=True, reverse=True),
             Schedule(lazy=False, reverse=False))

MAX_STEPS = 400_000
"""Steps one run may take by default (a persistent GEMM's largest instance takes about 30 000)."""

PROTOCOL_OPS = frozenset(EFFECTS) - {cls for cls in EFFECTS if cls.__module__.endswith(".scf")}
"""Ops whose presence makes a function worth checking."""


@dataclass
class FunctionCheck:
    """The outcome of checking one function."""

    violations: Violations = field(default_factory=Violations)
    unsupported: Unsupported | None = None
    truncated: bool = False


def instances(func: tt.FuncOp, values, schedules) -> Iterator[list[tuple[list, Instance, Schedule]]]:
    """Groups of runs: each of `values` given to every integer argument, under every schedule;
    then, for each integer argument, that one 0 and the others `ONE_ZERO_BASE` (a K of zero
    with tiles to store, say), under the first schedule."""
    arguments = func.body.block.args
    integers = [i for i, arg in enumerate(arguments) if bit_width(arg.type) is not None]

    def given(value_of) -> list:
        return [value_of(i) if i in integers else OPAQUE for i in range(len(arguments))]

    for number, value in enumerate(values):
        yield [(given(lambda i: value), Instance(unknown_branch=(number + order) % 2 == 0), schedule)
               for order, schedule in enumerate(schedules)]
    for zero in integers:
        yield [(given(lambda i: 0 if i == zero else ONE_ZERO_BASE), Instance(), schedules[0])]


def check_function(func: tt.FuncOp, max_steps: int, values=INSTANCE_VALUES, schedules=SCHEDULES) -> FunctionCheck:
    """Run `func` on every instance and schedule until a run finds violations: the first
    such run's violations are the report (later runs mostly find their consequences)."""
    result = FunctionCheck()
    for group in instances(func, values, schedules):
        for arguments, instance, schedule in group:
            cta = CTA(instance, schedule, result.violations, max_steps)
            try:
                cta.run("cta", lambda thread: _kernel(cta, thread, func, arguments))
            except Unsupported as unsupported:
                result.unsupported = unsupported
                return result
            except StepLimit:
                result.truncated = True
            if result.violations:
                return result
    return result


def _kernel(cta: CTA, thread: Thread, func: tt.FuncOp, arguments: list):
    """The function's body, then its end: every allocation still live is released, which
    must come after every access to it."""
    yield from Interpreter(cta, thread, {}).region(func.body, arguments)
    end = func.body.block.last_op
    for allocation in cta.memory.live_allocations():
        cta.release(thread, end, allocation, "the end of the kernel")


def uses_async_protocols(func: tt.FuncOp) -> bool:
    return any(type(op) in PROTOCOL_OPS for op in func.walk())


def check_module(module: ModuleOp, max_steps: int = MAX_STEPS, values=INSTANCE_VALUES,
                 schedules=SCHEDULES) -> list[tuple[tt.FuncOp, FunctionCheck]]:
    """Every function of `module` that uses async protocols, and the outcome of its check."""
    return [(func, check_function(func, max_steps, values, schedules)) for func in module.walk()
            if isinstance(func, tt.FuncOp) and func.body.blocks and uses_async_protocols(func)]


@dataclass(frozen=True)
class VerifyAsync(ModulePass):
    """Check the asynchronous protocols of every function (mbarriers, TMA, cp.async, wgmma,
    tcgen05, warp specialization); each violation is an error."""

    name: ClassVar[str] = "ttpipe-verify-async"
    max_steps: int = field(default=MAX_STEPS, metadata={
        "help": "steps one run may take before the check of its function stops there (with a remark)"})

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        violations = []
        for func, result in check_module(op, self.max_steps):
            if result.unsupported is not None:
                emit_remark(result.unsupported.op, f"async protocols of @{func.sym_name.data} not checked: "
                                                   f"{result.unsupported.reason}")
            elif result.truncated:
                emit_remark(func, f"async protocols of @{func.sym_name.data} checked for the first "
                                  f"{self.max_steps} steps of some runs only")
            violations.extend(result.violations)
        if violations:
            for violation in violations[:-1]:
                emit(violation.diagnostic())
            raise violations[-1].error()
