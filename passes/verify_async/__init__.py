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
  - a TMA copy into shared memory that another thread read or wrote with its own loads or
    stores (the generic proxy), or a TMA store or wgmma reading shared memory that a
    thread wrote with its own stores, ordered after that access but not after a
    `fence.proxy.async` (`ttng.fence_async_shared`) of that thread following it: the
    release orders the threads, not the proxies, so a load still in flight can return the
    TMA's bytes, an async read miss a store [proxy-fence] (found on the GPU:
    `ttpipe-row-ring`'s consumers released a slot right after reading it,
    docs/measurements.md, twelfth session). Not checked: a thread's own accesses before
    its own later TMA copies (a pipelined loop's), and tcgen05's;
  - a wgmma result read before a `warp_group_dot_wait` retires its group, or a wait that
    returns a result without retiring it (seed 001) [wgmma-flush];
  - a wait that never returns because no thread completes the phase it waits for, across
    partitions [deadlock].

What the IR leaves open comes from instances. First every integer argument 0, 1, 100 and
300 (trip counts of 0, 1, fewer than the stages, and a few turns of a ring), and every
integer the kernel reads the same (a scalar load, a reduction of loaded data:
`interpreter.gives_data`; one value however many uses it has, as a K bound loaded from
memory and the predicate of the MMA peeled before its loop), program id 0 of 100 programs
(along x; along y and z one: `cta.Instance`), each under three schedules: lazy
(asynchronous completions delivered only when no thread can move, so an early read sees
the write still in flight), in partition order and in reverse, and eager (each completion
delivered at once). Then, while a loop that runs protocol ops has not turned its rings
(depth + 1 trips in one go: a persistent kernel's tile loop with its ping-pong turns and
staging buffers, a grid-stride loop over a long vector; or, over all its executions, a
slot of each ring its body indexes taken a second time: an inner loop continuing a count
of slots that its outer loop carries, as a persistent row kernel's loop over a row's
slots), the value doubles, on 100 programs and on one (where the kernel reads the program
count, also on `value` programs, at most 2048: a persistent loop over rows pid, pid + P,
... turns its ring only with many programs; and, while a loop is still short in a kernel
that reads its program id, as the last of `value` programs: causal attention's key loop
grows with the program, not the arguments), as long as a loop not yet turned ran more
trips in one go or took more slots within the last 4 doublings and a run stays under 40
000 steps; the value that covers them gets all three schedules. Last, each integer
argument that steers control flow (reaches a loop bound, a branch or a predicate) 0 in
turn, the others at that value (a K of zero with tiles to store). A run that divides an
integer by zero, or reaches an `scf.for` whose step is not positive, ends there, reporting
what it found before: the kernel's behaviour is undefined at that instance (LLVM's `sdiv`,
`udiv`, `srem`, `urem`; scf.for's step must be positive), so it is no valid input (a
split-K count of 0, a persistent loop stepping by a program count of 0). A race is found
whenever both accesses happen in a run, whatever order that run gave them; a wrong phase
where a run makes the wait pass too early or never. The check is bounded, not a proof: a
protocol that goes wrong only at other values can pass it.

Each violation is an error at the op at fault, naming the mbarrier or buffer and the rule
(in brackets), with a note at the other op involved; all the violations of the first run
that finds any are reported, in the order found, as one diagnostic (the first, most often
the cause, leads; the others follow it), so that a caller that shows one error (the
plug-in, inside Triton's compile) shows them all. A function with an op the checker does not model, or that runs past
`max-steps`, gets a remark saying what was not checked. Runs in the named pipelines after
the pipeliner (and warp specialization); `verify-async=false` leaves it out.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import BlockArgument, SSAValue
from xdsl.passes import ModulePass

from ttpipe.dialects import arith, scf, tt, ttg
from ttpipe.passes.common.diagnostics import emit_remark
from ttpipe.passes.verify_async.cta import CTA, Coverage, Instance, Schedule, StepLimit, Thread
from ttpipe.passes.verify_async.interpreter import (
    EFFECTS,
    OPAQUE,
    Interpreter,
    Undefined,
    Unsupported,
    bit_width,
)
from ttpipe.passes.verify_async.violations import Violations

INSTANCE_VALUES = (0, 1, 100, 300)
"""The value every integer argument takes in the first instances (see the module docstring)."""

GROWTH = 2
GROWTH_STEPS = 40_000
PATIENCE = 4
"""Instances grow by `GROWTH` from the last of `INSTANCE_VALUES` while a loop of protocol ops
has not turned its rings, as long as a run takes fewer than `GROWTH_STEPS` steps and a loop
not yet turned (or turned by the last value) grew (trips in one go, slots taken) within the
last `PATIENCE` values (tiles per program of a persistent kernel grow in steps; a row
kernel's loop over runs of whole slots starts only at rows of a run)."""

PERSISTENT_PROGRAMS = 2048
"""The most programs of the runs on as many programs as the instance's value (a kernel that
reads the program count): a persistent loop over rows pid, pid + 132, ... (the H100's SMs)
takes 15 rows there, each ring slot twice for rows of up to 6 of a 12-slot ring, however
long the rows grow, where `value` programs made each run's work grow with the square of the
value (the row ring at rows of 38 400: 24 000 steps a run, 1.4-1.8 s)."""

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


@dataclass(frozen=True)
class ProtocolLoop:
    """A loop that runs protocol ops, and the slot choices of its rings."""

    loop: scf.ForOp
    rings: tuple[ttg.MemDescIndexOp, ...]
    """The `ttg.memdesc_index` ops of its body whose slot it computes (not a constant, not a
    value from outside the loop)."""
    trips: int
    """Trips in one go that take every slot of its deepest buffer and one again (`depth + 1`;
    a loop without a buffer: 2)."""

    def covered(self, coverage: Coverage) -> bool:
        """The runs have turned its rings: `trips` in one go, or each ring has taken a slot a
        second time over the runs' executions of the loop (a slot index carried in from
        outside, as a persistent kernel's count of slots filled by earlier rows, whose inner
        loop's every execution is short)."""
        if coverage.trips.get(self.loop, 0) >= self.trips:
            return True
        return bool(self.rings) and all(any(n > 1 for n in coverage.slots.get(ring, {}).values())
                                        for ring in self.rings)

    def progress(self, coverage: Coverage) -> int:
        """Grows while the runs exercise more of the loop: its trips in one go and the slots
        its rings took."""
        return coverage.trips.get(self.loop, 0) + sum(len(coverage.slots.get(ring, ())) for ring in self.rings)


def protocol_loops(func: tt.FuncOp) -> list[ProtocolLoop]:
    """The loops that run protocol ops (in their own body), each with its rings."""
    loops = []
    for loop in func.walk():
        if isinstance(loop, scf.ForOp) and any(type(op) in PROTOCOL_OPS for op in loop.body.ops):
            indexes = [op for op in loop.body.ops if isinstance(op, ttg.MemDescIndexOp)]
            rings = tuple(op for op in indexes if _computed_in(loop, op.index))
            loops.append(ProtocolLoop(loop, rings, max((op.src.type.shape[0] for op in indexes), default=1) + 1))
    return loops


def _computed_in(loop: scf.ForOp, value: SSAValue) -> bool:
    """`value` is one of the loop body's arguments or a result of an op inside it (not a constant)."""
    if isinstance(value, BlockArgument):
        return value.block is loop.body
    return not isinstance(value.owner, arith.ConstantOp) and loop.is_ancestor(value.owner)


@dataclass
class _Runner:
    """Runs one function on instances, sharing the violations and the loop coverage."""

    func: tt.FuncOp
    max_steps: int
    result: FunctionCheck = field(default_factory=FunctionCheck)
    coverage: Coverage = field(default_factory=Coverage)
    plans: dict = field(default_factory=dict)
    steps: int = 0
    """The steps of the last run."""

    def run(self, value: int, instance: Instance, schedule: Schedule, zero: int | None = None) -> bool:
        """One run with every integer argument and the data the kernel reads at `value`
        (argument `zero` at 0); True when the check is over (violations found, or an op not
        modelled). A run past `max_steps` stops there; what it checked stands."""
        arguments = [(0 if i == zero else value) if bit_width(arg.type) is not None else OPAQUE
                     for i, arg in enumerate(self.func.body.blocks[0].args)]
        cta = CTA(replace(instance, data=value), schedule, self.result.violations, self.max_steps, self.coverage,
                  self.plans)
        try:
            cta.run("cta", lambda thread: _kernel(cta, thread, self.func, arguments))
        except Unsupported as unsupported:
            self.result.unsupported = unsupported
            return True
        except StepLimit:
            self.result.truncated = True
        except Undefined:  # the instance is no valid input; what the run checked before stands
            pass
        self.steps = cta.steps
        return bool(self.result.violations)

    def short(self, loops: list[ProtocolLoop]) -> list[ProtocolLoop]:
        """The loops whose rings the runs have not turned yet."""
        return [loop for loop in loops if not loop.covered(self.coverage)]

    def progress(self, loops: list[ProtocolLoop]) -> dict[scf.ForOp, int]:
        return {loop.loop: loop.progress(self.coverage) for loop in loops}


def check_function(func: tt.FuncOp, max_steps: int, values=INSTANCE_VALUES, schedules=SCHEDULES) -> FunctionCheck:
    """Run `func` on growing instances until a run finds violations (the first such run's
    violations are the report: later runs mostly find their consequences) or every loop of
    protocol ops has reused every slot of its rings (or stops growing, or the runs grow too long);
    then each integer argument that steers control 0 in turn, the others at the last value."""
    runner = _Runner(func, max_steps)
    targets = protocol_loops(func)
    # a grid-stride loop turns its rings on few programs; a persistent loop over the programs'
    # work (rows pid, pid + P, ...) on many: as many as the instance's value
    grid_stride = any(isinstance(op, tt.GetNumProgramsOp) for op in func.walk())
    program_counts = (100, 1) if grid_stride else (100,)
    reads_program_id = any(isinstance(op, tt.GetProgramIdOp) for op in func.walk())
    for number, value in enumerate(values):
        for order, schedule in enumerate(schedules):
            if runner.run(value, Instance(unknown_branch=(number + order) % 2 == 0), schedule):
                return runner.result
    short = runner.short(targets)
    progress = runner.progress(targets)
    idle = 0
    while short:
        value *= GROWTH
        steps = 0
        counts = (*program_counts, min(value, PERSISTENT_PROGRAMS)) if grid_stride else program_counts
        for programs in counts:
            if runner.run(value, Instance(num_programs=programs), schedules[0]):
                return runner.result
            steps = max(steps, runner.steps)
        if runner.short(targets) and reads_program_id:
            # loops whose trips grow with the program, not the arguments (causal attention's
            # key blocks): the last program of as many as the instance's value
            if runner.run(value, Instance(num_programs=value, program_id=value - 1), schedules[0]):
                return runner.result
            steps = max(steps, runner.steps)
        was_short, short = short, runner.short(targets)
        before, progress = progress, runner.progress(targets)
        if not short and steps <= GROWTH_STEPS:
            for schedule in schedules[1:]:
                for programs in counts:
                    if runner.run(value, Instance(num_programs=programs), schedule):
                        return runner.result
        watched = {loop.loop for loop in (*was_short, *short)}
        idle = idle + 1 if all(progress[loop] == before[loop] for loop in watched) else 0
        if steps > GROWTH_STEPS or runner.result.truncated or idle == PATIENCE:
            break
    for zero in control_arguments(func):
        if runner.run(value, Instance(), schedules[0], zero):
            return runner.result
    return runner.result


def control_arguments(func: tt.FuncOp) -> list[int]:
    """The integer arguments that reach, through integer ops, a loop bound, a branch or a
    predicate (a size, not a stride that only moves pointers)."""
    block = func.body.blocks[0]
    reaching: list[int] = []
    for index, argument in enumerate(block.args):
        if bit_width(argument.type) is None:
            continue
        seen, frontier = set(), [argument]
        while frontier and index not in reaching:
            value = frontier.pop()
            for use in value.uses:
                user = use.operation
                if isinstance(user, (scf.ForOp, scf.IfOp, scf.WhileOp)) or type(user) in PROTOCOL_OPS:
                    reaching.append(index)
                    break
                for result in user.results:
                    if bit_width(result.type) is not None and result not in seen:
                        seen.add(result)
                        frontier.append(result)
    return reaching


def _kernel(cta: CTA, thread: Thread, func: tt.FuncOp, arguments: list):
    """The function's body, then its end: every allocation still live is released, which
    must come after every access to it."""
    yield from Interpreter(cta, thread, {}).region(func.body, arguments)
    end = func.body.blocks[0].last_op
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
        if violations:  # the first (most often the cause) leads; the others follow it, each with its note
            first = violations[0].error()
            first.notes += [violation.diagnostic() for violation in violations[1:]]
            raise first
