"""The abstract CTA that `ttpipe-verify-async` runs a kernel's protocol on.

Happens-before is tracked with vector clocks. An *agent* is anything that can touch shared
or tensor memory: a thread (one per partition; a partition's warps act together, as
Triton lowers every barrier op to one elected thread), or an asynchronous unit of a
thread (its wgmma groups, cp.async groups, TMA-store bulk groups, tcgen05 ops), or an
mbarrier, which stands for the TMA copies that complete their bytes on it. Every access
carries a *stamp* `(agent, epoch)`: a clock `c` is ordered after it when `c[agent] >=
epoch`; a stamp of `None` is an access still in flight, ordered before nothing.

- A thread's own entry advances after each release (arrive, expect, the end of a
  partition), so what it does later is not covered by what it released.
- An async unit's epoch is the number of its groups retired: `warp_group_dot_wait`,
  `async_wait`, `async_tma_store_wait` raise the issuing thread's entry for the unit.
- An mbarrier collects the clocks of the arrivals (and of the TMA copies landing on it) of
  its current phase; completing the phase publishes them with `{barrier: phase + 1}`, and
  a `wait_barrier` that passes acquires the last completed phase's clock.

Shared memory is a shadow of accesses per allocation, at the granularity of a ring slot
(`memdesc_index`) and a box within it (`memdesc_subslice`, `tmem_subslice`): two accesses
to overlapping places, one of them a write, must be ordered, else it is a race.

Proxies: a thread's own loads and stores go through the generic proxy, TMA copies through
the async proxy, and ordering one before the other takes a `fence.proxy.async`
(`ttng.fence_async_shared`) by the thread after its access. Each thread's fences count in
its clock (`PROXY_FENCE` entry); a generic access records the count its fence must reach
(`Access.fence`); a TMA copy into a place that another thread accessed, and a TMA store or
a wgmma reading a place that a thread wrote, must be ordered after that fence as well as
after the access (`SharedMemory.unfenced`).
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass, field

from xdsl.ir import Operation

Clock = dict[Hashable, int]
Stamp = tuple[Hashable, int] | None

PROXY_FENCE = "fence.proxy.async"
"""A thread's clock entry `(thread, PROXY_FENCE)`: the proxy fences it has executed."""


def join(into: Clock, other: Clock) -> None:
    """`into` becomes the pointwise maximum of both clocks."""
    for agent, epoch in other.items():
        if into.get(agent, 0) < epoch:
            into[agent] = epoch


def ordered_after(clock: Clock, stamp: Stamp) -> bool:
    """Whether an agent at `clock` is ordered after the access stamped `stamp`."""
    return stamp is not None and clock.get(stamp[0], 0) >= stamp[1]


@dataclass(eq=False)
class Allocation:
    """One `ttg.local_alloc` or `ttng.tmem_alloc` executed: its shape and its op."""

    op: Operation
    shape: tuple[int, ...]
    element: str
    memory: str  # "shared" or "tensor"

    def describe(self, index: tuple[int | None, ...]) -> str:
        from_op = f"{'x'.join(map(str, self.shape))}x{self.element} {self.memory} memory"
        if index and len(self.shape) > len(index):
            slot = ", ".join("?" if i is None else str(i) for i in index)
            return f"slot [{slot}] of the {from_op}"
        return f"the {from_op}"


Box = tuple[tuple[int, int], ...] | None
"""Half-open intervals per dimension of a slot, or None for the whole slot."""


@dataclass(frozen=True)
class View:
    """A `!ttg.memdesc`: an allocation, the ring indices taken (`None`: unknown), and a box."""

    allocation: Allocation
    index: tuple[int | None, ...] = ()
    box: Box = None

    def overlaps(self, other: View) -> bool:
        if self.allocation is not other.allocation:
            return False
        for a, b in zip(self.index, other.index):
            if a is not None and b is not None and a != b:
                return False
        if self.box is None or other.box is None or len(self.index) != len(other.index):
            return True
        return all(lo < o_hi and o_lo < hi for (lo, hi), (o_lo, o_hi) in zip(self.box, other.box))

    def covers(self, other: View) -> bool:
        """Whether this view holds all of `other` (same slot, box inside)."""
        if self.allocation is not other.allocation or len(self.index) > len(other.index):
            return False
        if any(a is None or a != b for a, b in zip(self.index, other.index)):
            return False
        if self.box is None:
            return True
        if other.box is None or len(self.index) != len(other.index):
            return False
        return all(lo <= o_lo and o_hi <= hi for (lo, hi), (o_lo, o_hi) in zip(self.box, other.box))

    def describe(self) -> str:
        return self.allocation.describe(self.index)


@dataclass(eq=False)
class Access:
    """One read or write of a view by `op`, performed by `agent` under `stamp`."""

    op: Operation
    view: View
    write: bool
    agent: Hashable
    stamp: Stamp
    what: str
    fence: Stamp = None
    """A generic-proxy access by a thread: its next proxy fence, which an async-proxy write of
    the place by another thread must be ordered after (None for async-proxy accesses)."""
    issuer: Hashable | None = None
    """The thread that issued an async-proxy access (a TMA copy or store, a wgmma)."""


TCGEN05 = "tcgen05"
"""The tensor core's async unit on sm_100: its ops run in issue order, so two accesses of
one thread's tcgen05 ops are ordered; and it drains before the CTA's memory is released
(Triton's TMEM deallocation waits for it), so a release does not race with it."""


def _is_tcgen05(agent) -> bool:
    return isinstance(agent, tuple) and agent[-1] == TCGEN05


def ordered_by_hardware(earlier: Access, later: Access, release: bool) -> bool:
    if release:
        return _is_tcgen05(earlier.agent)
    return earlier.agent == later.agent and _is_tcgen05(earlier.agent)


@dataclass(frozen=True)
class Race:
    """Two unordered accesses, one a write."""

    earlier: Access
    later: Access


@dataclass
class SharedMemory:
    """The shadow of every allocation: the accesses not yet known to be ordered before
    all later ones."""

    accesses: dict[int, list[Access]] = field(default_factory=dict)

    def touch(self, access: Access, clock: Clock, release: bool = False) -> list[Race]:
        """Record `access`, made by an agent at `clock` (`release`: the memory's release at a
        dealloc or the kernel's end); the earlier accesses it races with."""
        key = id(access.view.allocation)
        earlier = self.accesses.setdefault(key, [])
        races = [Race(prior, access) for prior in earlier
                 if (prior.write or access.write) and prior.view.overlaps(access.view)
                 and not ordered_after(clock, prior.stamp) and not ordered_by_hardware(prior, access, release)]
        if not races:
            if access.write:
                earlier[:] = [p for p in earlier if not access.view.covers(p.view)]
            else:
                earlier[:] = [p for p in earlier
                              if p.write or p.agent != access.agent or not access.view.covers(p.view)]
        earlier.append(access)
        return races

    def unfenced(self, access: Access, clock: Clock) -> list[Access]:
        """For an async-proxy access of shared memory (made at `clock`): the earlier
        generic-proxy accesses it is ordered after but not after their thread's next proxy
        fence. A write (a TMA copy) checks the accesses of other threads; a read (a TMA
        store, a wgmma operand) the writes of any thread. Call before `touch`, which
        forgets what a write covers."""
        if access.issuer is None or access.view.allocation.memory != "shared":
            return []
        return [prior for prior in self.accesses.get(id(access.view.allocation), [])
                if prior.fence is not None and (prior.agent != access.issuer if access.write else prior.write)
                and prior.view.overlaps(access.view)
                and ordered_after(clock, prior.stamp) and not ordered_after(clock, prior.fence)]

    def release(self, allocation: Allocation) -> None:
        """Forget a deallocated allocation (its release was checked as a write of all of it)."""
        self.accesses.pop(id(allocation), None)

    def live_allocations(self) -> list[Allocation]:
        """The allocations accessed and not released."""
        return [accesses[-1].view.allocation for accesses in self.accesses.values() if accesses]


@dataclass(eq=False)
class Mbarrier:
    """The state of one mbarrier: arrive count, pending arrivals and transaction bytes of
    the current phase, the phases completed, and the clocks and ops behind them."""

    key: tuple
    view: View
    init_op: Operation
    count: int
    pending: int = 0
    tx: int = 0
    completed: int = 0
    valid: bool = True
    arrived_clock: Clock = field(default_factory=dict)
    completed_clock: Clock = field(default_factory=dict)
    expects: list[Operation] = field(default_factory=list)
    expected_bytes: int = 0
    delivered_bytes: int = 0
    arrivals: list[Operation] = field(default_factory=list)
    copies_in_flight: list[Operation] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.pending = self.count

    @property
    def agent(self) -> tuple:
        return ("mbarrier",) + self.key

    def passes(self, parity: int) -> bool:
        """`mbarrier.try_wait.parity`: the phase of that parity has completed, i.e. the
        current phase has the other parity."""
        return (self.completed & 1) != parity

    def complete_if_done(self) -> bool:
        if self.pending > 0 or self.tx != 0:
            return False
        self.completed += 1
        self.completed_clock = dict(self.arrived_clock)
        join(self.completed_clock, {self.agent: self.completed})
        self.pending = self.count
        self.arrived_clock = {}
        self.expects = []
        self.expected_bytes = self.delivered_bytes = 0
        self.arrivals = []
        return True

    def describe(self) -> str:
        allocation, index = self.view.allocation, self.view.index
        shape = f"{'x'.join(map(str, allocation.shape))}x{allocation.element}"
        if index:
            return f"mbarrier [{', '.join('?' if i is None else str(i) for i in index)}] of the {shape} array"
        return f"the mbarrier ({shape})"
