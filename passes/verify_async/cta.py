"""One run of a kernel's protocol: the threads of a CTA (one per partition), its mbarriers,
its asynchronous units, and a schedule that interleaves them.

A thread is a generator (interpreter.py) that yields at every op another thread can see,
and yields a `Blocked` while a `wait_barrier` cannot pass. The schedule picks, at every
step, the first runnable thread in its priority order. Completions of asynchronous work
that end on an mbarrier (TMA copies landing, tcgen05 ops finishing) are *events*: an eager
schedule delivers each when it is issued, a lazy one only when no thread can move, one at
a time, oldest first, so that a reader that does not wait for them reads too early. When
no thread can move and no event is left, the threads still blocked are a deadlock.
"""

from __future__ import annotations

from collections import Counter, deque
from collections.abc import Callable, Generator, Hashable
from dataclasses import dataclass, field

from xdsl.ir import Operation

from ttpipe.passes.verify_async.machine import (
    Access,
    Allocation,
    Clock,
    PROXY_FENCE,
    Mbarrier,
    Race,
    SharedMemory,
    View,
    join,
)
from ttpipe.passes.verify_async.violations import Violation, Violations


@dataclass(frozen=True)
class Instance:
    """What a run gives what the IR does not fix besides the arguments: the program count
    and this program's id along x (along y and z one program, id 0: a grid's other axes,
    such as a batch or a head, repeat what x does, and a persistent loop over the tiles of
    a 3-D grid of `num_programs` along each axis ran num_programs^3 tiles), the value of
    the data the kernel reads, the trips of a loop with unknown bounds and the side of an
    unknown branch."""

    num_programs: int = 100
    program_id: int = 0
    data: int = 0
    """Every integer that an op writing nothing gives and the checker does not compute (a
    scalar load's, a reduction's of loaded data): the run's value, as the arguments' (a flag:
    `unknown_branch`)."""
    unknown_trips: int = 2
    unknown_branch: bool = True


@dataclass(frozen=True)
class Schedule:
    lazy: bool
    reverse: bool


@dataclass(frozen=True)
class Blocked:
    """What a thread waits for at `op`: `ready()` becomes true once it may go on; `barrier`
    is the mbarrier it waits on, if any."""

    op: Operation
    ready: Callable[[], bool]
    barrier: Mbarrier | None = None
    parity: int = 0


class StepLimit(Exception):
    """The run took more steps than its budget; what it checked so far stands."""


@dataclass(eq=False)
class Thread:
    """A partition (or the whole CTA outside `ttg.warp_specialize`) and its async units."""

    name: str
    clock: Clock
    priority: int
    body: Generator | None = None
    blocked: Blocked | None = None
    done: bool = False
    wgmma_issued: int = 0
    cp_async_committed: int = 0
    cp_async_uncommitted: list[Access] = field(default_factory=list)
    bulk_issued: int = 0
    tcgen05_issued: int = 0

    def unit(self, kind: str) -> tuple:
        return (self.name, kind)

    def retired(self, kind: str) -> int:
        return self.clock.get(self.unit(kind), 0)

    def retire(self, kind: str, epoch: int) -> None:
        unit = self.unit(kind)
        self.clock[unit] = max(self.clock.get(unit, 0), epoch)

    def stamp(self) -> tuple[Hashable, int]:
        return (self.name, self.clock[self.name])

    def released(self) -> Clock:
        """The clock this thread publishes now; its own entry then moves on."""
        published = dict(self.clock)
        self.clock[self.name] += 1
        return published


@dataclass
class Coverage:
    """What the runs of one check have exercised so far: the most trips each `scf.for` ran in
    one go, and how often each `ttg.memdesc_index` took each slot of its buffer."""

    trips: dict[Operation, int] = field(default_factory=dict)
    slots: dict[Operation, Counter] = field(default_factory=dict)

    def loop_ran(self, loop: Operation, trips: int) -> None:
        self.trips[loop] = max(self.trips.get(loop, 0), trips)

    def slot_taken(self, index_op: Operation, slot: int) -> None:
        self.slots.setdefault(index_op, Counter())[slot] += 1


class CTA:
    """The shared state of one run and the scheduler of its threads."""

    def __init__(self, instance: Instance, schedule: Schedule, violations: Violations, step_limit: int,
                 coverage: Coverage, plans: dict):
        self.instance = instance
        self.coverage = coverage
        """What this run and the runs before it exercised."""
        self.plans = plans
        """Each block's ops, read once for all the runs of a check (`interpreter.plan_block`)."""
        self.schedule = schedule
        self.violations = violations
        self.step_limit = step_limit
        self.steps = 0
        self.memory = SharedMemory()
        self.barriers: dict[tuple, Mbarrier] = {}
        self.events: deque[Callable[[], None]] = deque()
        self.threads: list[Thread] = []
        self.forks: Counter[str] = Counter()
        """The threads spawned so far under each name."""
        self.allocations: dict[Operation, Allocation] = {}

    # ------------------------------------------------------------------ threads

    def spawn(self, name: str, clock: Clock, body: Callable[[Thread], Generator]) -> Thread:
        """A thread forked at `clock`: named `name`, or `name#n` where `n` threads of that name
        ran before in this run (a `ttg.warp_specialize` run again, in a loop). A thread's name
        is its agent, and its units', in every clock; the fork's clock holds the earlier
        thread's entries (joined at its end), which must not cover the new thread's accesses,
        whose epochs start again at 1."""
        forks = self.forks[name]
        self.forks[name] += 1
        if forks:
            name = f"{name}#{forks}"
        thread = Thread(name, {**clock, name: 1}, len(self.threads))
        thread.body = body(thread)
        self.threads.append(thread)
        return thread

    def run(self, name: str, body: Callable[[Thread], Generator]) -> Thread:
        """Run `body` as the CTA's first thread, and every thread it spawns, to the end."""
        main = self.spawn(name, {}, body)
        while True:
            runnable = [t for t in self.threads if not t.done and (t.blocked is None or t.blocked.ready())]
            if not runnable:
                if self.events:
                    self.events.popleft()()
                    continue
                break
            thread = max(runnable, key=lambda t: t.priority) if self.schedule.reverse \
                else min(runnable, key=lambda t: t.priority)
            self.step(thread)
        for thread in self.threads:
            if not thread.done and thread.blocked is not None:
                self.report_deadlock(thread.blocked)
        return main

    def step(self, thread: Thread) -> None:
        self.steps += 1
        if self.steps > self.step_limit:
            raise StepLimit
        thread.blocked = None
        try:
            request = next(thread.body)
        except StopIteration:
            thread.done = True
            return
        if isinstance(request, Blocked):
            thread.blocked = request

    def deliver(self, event: Callable[[], None]) -> None:
        if self.schedule.lazy:
            self.events.append(event)
        else:
            event()

    # ------------------------------------------------------------------ memory

    def access(self, thread: Thread, op: Operation, view: View, write: bool, what: str) -> None:
        """A synchronous read or write of `view` by `thread` (the generic proxy)."""
        next_fence = (thread.unit(PROXY_FENCE), thread.retired(PROXY_FENCE) + 1)
        self.touch(Access(op, view, write, thread.name, thread.stamp(), what, next_fence), thread.clock)

    def release(self, thread: Thread, op: Operation, allocation: Allocation, what: str) -> None:
        """The end of `allocation`'s life (a dealloc, the kernel's end): a write of all of it."""
        access = Access(op, View(allocation), True, thread.name, thread.stamp(), what)
        for race in self.memory.touch(access, thread.clock, release=True):
            self.report_race(race)
        self.memory.release(allocation)

    def touch(self, access: Access, clock: Clock) -> None:
        for prior in self.memory.unfenced(access, clock):
            if access.write:
                message = (f"{access.what} overwrites {access.view.describe()} after {prior.what} of another thread "
                           f"with no fence.proxy.async (ttng.fence_async_shared) between: the generic access may "
                           f"still see the async write")
            else:
                message = (f"{access.what} reads {access.view.describe()} after {prior.what} wrote it with no "
                           f"fence.proxy.async (ttng.fence_async_shared) between: the async read may miss the "
                           f"generic write")
            self.violations.add(Violation("proxy-fence", access.op, message, prior.op,
                                          f"the access without a proxy fence after it ({prior.what})"))
        for race in self.memory.touch(access, clock):
            self.report_race(race)

    def report_race(self, race: Race) -> None:
        earlier, later = race.earlier, race.later
        place = later.view.describe()
        if earlier.write and not later.write:
            self.violations.add(Violation(
                "read-before-wait", later.op,
                f"{later.what} reads {place} while {earlier.what} that writes it may still be in flight: "
                f"no wait orders the read after the write", earlier.op, f"the write it races with ({earlier.what})"))
        elif not earlier.write:
            self.violations.add(Violation(
                "write-before-release", later.op,
                f"{later.what} overwrites {place} while {earlier.what} may still read it: no wait "
                f"(empty mbarrier, warp_group_dot_wait, async_wait, async_tma_store_wait) orders them",
                earlier.op, f"the read it races with ({earlier.what})"))
        else:
            self.violations.add(Violation(
                "write-write", later.op,
                f"{later.what} writes {place} while {earlier.what} that writes it may still be in flight",
                earlier.op, f"the other write ({earlier.what})"))

    # ------------------------------------------------------------------ mbarriers

    def barrier(self, view: View, op: Operation) -> Mbarrier | None:
        """The initialised mbarrier at `view`, or None (a violation) if there is none."""
        barrier = self.barriers.get(self.barrier_key(view))
        if barrier is None or not barrier.valid:
            state = "uninitialised" if barrier is None else "invalidated"
            self.violations.add(Violation(
                "init", op, f"'{op.name}' uses {view.describe()} as an mbarrier, which is {state} here",
                None if barrier is None else barrier.init_op, None if barrier is None else "initialised here"))
            return None
        return barrier

    @staticmethod
    def barrier_key(view: View) -> tuple:
        return (id(view.allocation), view.index, view.box)

    def init_barrier(self, op: Operation, view: View, count: int) -> None:
        self.barriers[self.barrier_key(view)] = Mbarrier(self.barrier_key(view), view, op, count)

    def inval_barrier(self, op: Operation, view: View) -> None:
        barrier = self.barrier(view, op)
        if barrier is not None:
            barrier.valid = False

    def arrive(self, thread: Thread, op: Operation, view: View, count: int) -> None:
        barrier = self.barrier(view, op)
        if barrier is not None:
            self.arrive_on(barrier, op, count, thread.released())

    def arrive_on(self, barrier: Mbarrier, op: Operation, count: int, clock: Clock) -> None:
        if count > barrier.pending:
            self.violations.add(Violation(
                "arrive-count", op,
                f"arrives {count} time(s) on {barrier.describe()} whose phase {barrier.completed} waits for "
                f"{barrier.pending} more arrival(s): more arrivals than its count of {barrier.count}",
                barrier.init_op, f"initialised here with count {barrier.count}"))
            return
        barrier.pending -= count
        barrier.arrivals.append(op)
        join(barrier.arrived_clock, clock)
        self.settle(barrier)

    def settle(self, barrier: Mbarrier) -> None:
        """Complete the barrier's phase if its arrivals and bytes are in; TMA copies issued on
        it and still in flight then bring more bytes than the phase's barrier_expect said."""
        if barrier.pending > 0 or barrier.tx != 0:
            return
        if barrier.copies_in_flight and barrier.expects:
            copy = barrier.copies_in_flight[0]
            self.violations.add(Violation(
                "expect-bytes", barrier.expects[0],
                f"barrier_expect announces {barrier.expected_bytes} bytes on {barrier.describe()}, but its TMA "
                f"copies bring more: phase {barrier.completed} completes after {barrier.delivered_bytes} bytes with "
                f"{len(barrier.copies_in_flight)} copy(ies) still in flight", copy, "a copy still in flight"))
        barrier.complete_if_done()

    def issue_copy(self, barrier: Mbarrier, op: Operation) -> None:
        barrier.copies_in_flight.append(op)

    def expect(self, thread: Thread, op: Operation, view: View, size: int) -> None:
        barrier = self.barrier(view, op)
        if barrier is None:
            return
        barrier.tx += size
        barrier.expected_bytes += size
        barrier.expects.append(op)
        self.arrive_on(barrier, op, 1, thread.released())

    def land(self, barrier: Mbarrier, op: Operation, access: Access, size: int, clock: Clock) -> None:
        """A TMA copy's bytes reach shared memory and complete `size` bytes on `barrier`."""
        barrier.copies_in_flight.remove(op)
        if barrier.tx - size < 0:
            announced = barrier.expects[0] if barrier.expects else None
            self.violations.add(Violation(
                "expect-bytes", op,
                f"the TMA copy completes {size} bytes on {barrier.describe()} in phase {barrier.completed}, "
                + (f"beyond the {barrier.expected_bytes} bytes its barrier_expect announced" if announced is not None
                   else "for which no barrier_expect announced any bytes"),
                announced, None if announced is None else f"barrier_expect of {barrier.expected_bytes} bytes here"))
        access.stamp = (barrier.agent, barrier.completed + 1)
        barrier.tx -= size
        barrier.delivered_bytes += size
        join(barrier.arrived_clock, clock)
        self.settle(barrier)

    def waiting(self, thread: Thread, op: Operation, view: View, parity: int) -> Blocked | None:
        """None if `wait_barrier(view, parity)` passes now (acquiring the phase), else what
        the thread blocks on."""
        barrier = self.barrier(view, op)
        if barrier is None:
            return None
        if barrier.passes(parity):
            join(thread.clock, barrier.completed_clock)
            return None
        return Blocked(op, lambda: barrier.passes(parity), barrier, parity)

    def report_deadlock(self, blocked: Blocked) -> None:
        barrier, op = blocked.barrier, blocked.op
        if barrier is None:
            return
        if barrier.pending == 0 and barrier.tx > 0 and barrier.expects:
            self.violations.add(Violation(
                "expect-bytes", barrier.expects[0],
                f"barrier_expect announces {barrier.expected_bytes} bytes on {barrier.describe()} in phase "
                f"{barrier.completed}, but its TMA copies bring {barrier.delivered_bytes}: the phase never "
                f"completes", op, "this wait never returns"))
            return
        self.violations.add(Violation(
            "deadlock", op,
            f"this wait on {barrier.describe()} for a phase of parity {blocked.parity} never returns: "
            f"{barrier.completed} phase(s) completed, and phase {barrier.completed} still waits for "
            f"{barrier.pending} of {barrier.count} arrival(s)"
            + (f" and {barrier.tx} bytes" if barrier.tx > 0 else "")
            + ", and no thread is left to complete it",
            barrier.arrivals[-1] if barrier.arrivals else barrier.init_op,
            "the last arrival of that phase" if barrier.arrivals else f"initialised here with count {barrier.count}"))
