"""The abstract CTA that `ttpipe-verify-async` runs a kernel's protocol on.

Happens-before is tracked with vector clocks. An *agent* is anything that can touch shared
or tensor memory: a thread (one per partition and run of its `ttg.warp_specialize`; a
partition's warps act together, as Triton lowers every barrier op to one elected thread),
or an asynchronous unit of a thread (its wgmma groups, cp.async groups, TMA-store bulk
groups, tcgen05 ops), or an mbarrier, which stands for the TMA copies that complete their
bytes on it. Every access carries a *stamp* `(agent, epoch)`: a clock `c` is ordered after
it when `c[agent] >= epoch`; a stamp of `None` is an access still in flight, ordered
before nothing.

- A thread's own entry advances after each release (arrive, expect, the end of a
  partition), so what it does later is not covered by what it released.
- An async unit's epoch is the number of its groups retired: `warp_group_dot_wait`,
  `async_wait`, `async_tma_store_wait` raise the issuing thread's entry for the unit.
- An mbarrier collects the clocks of the arrivals (and of the TMA copies landing on it) of
  its current phase; completing the phase publishes them with `{barrier: phase + 1}`, and
  a `wait_barrier` that passes acquires the last completed phase's clock.

Shared memory is a shadow of accesses per allocation, at the granularity of a ring slot
(`memdesc_index`) and a box within it (`memdesc_subslice`, `tmem_subslice`): two accesses
to overlapping places, one of them a write, must be ordered, else it is a race. An
allocation's accesses are kept by the first ring index of their views (`History`): an
access of one slot is compared with that slot's and with those of the whole allocation or
of an unknown slot, not with every slot's (a ring of 12 slots read by 8 copies a slot
made each check scan the ring's whole history).

Proxies: a thread's own loads and stores go through the generic proxy, TMA copies through
the async proxy, and ordering one before the other takes a `fence.proxy.async`
(`ttng.fence_async_shared`) by the thread after its access. Each thread's fences count in
its clock (`PROXY_FENCE` entry); a generic access records the count its fence must reach
(`Access.fence`); a TMA copy into a place that another thread accessed, and a TMA store or
a wgmma reading a place that a thread wrote, must be ordered after that fence as well as
after the access (`SharedMemory.unfenced`).
"""

from __future__ import annotations

import heapq
import itertools
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


def first_slot(view: View) -> int | None:
    """The view's first ring index: None where it spans the allocation or its slot is unknown,
    so that it may overlap any view of the allocation."""
    return view.index[0] if view.index else None


@dataclass
class History:
    """An allocation's accesses not yet known to be ordered before all later ones, in the
    order made, grouped by `first_slot` of their views: views of two known, different first
    slots neither overlap nor cover each other."""

    allocation: Allocation
    slots: dict[int | None, list[tuple[int, Access]]] = field(default_factory=dict)
    """First slot -> (the order made, the access)."""

    def _groups(self, slot: int | None) -> list[list[tuple[int, Access]]]:
        if slot is None:
            return list(self.slots.values())
        return [group for group in (self.slots.get(slot), self.slots.get(None)) if group]

    def meeting(self, view: View) -> list[Access]:
        """The accesses whose views may overlap `view`, in the order made."""
        return [access for _, access in heapq.merge(*self._groups(first_slot(view)), key=lambda entry: entry[0])]

    def forget(self, view: View, forgotten) -> None:
        """Drop the accesses that `forgotten(access)` says `view` makes moot; only a view with
        a known first slot, or of the whole allocation, covers any."""
        if not view.index:
            groups = list(self.slots.values())
        elif view.index[0] is None:
            return
        else:
            groups = [self.slots.get(view.index[0], [])]
        for group in groups:
            group[:] = [entry for entry in group if not forgotten(entry[1])]

    def add(self, order: int, access: Access) -> None:
        self.slots.setdefault(first_slot(access.view), []).append((order, access))


@dataclass
class SharedMemory:
    """The shadow of every allocation: the accesses not yet known to be ordered before
    all later ones."""

    histories: dict[int, History] = field(default_factory=dict)
    made: itertools.count = field(default_factory=itertools.count)
    """The order in which accesses are made."""

    def touch(self, access: Access, clock: Clock, release: bool = False) -> list[Race]:
        """Record `access`, made by an agent at `clock` (`release`: the memory's release at a
        dealloc or the kernel's end); the earlier accesses it races with."""
        view = access.view
        history = self.histories.setdefault(id(view.allocation), History(view.allocation))
        races = [Race(prior, access) for prior in history.meeting(view)
                 if (prior.write or access.write) and prior.view.overlaps(view)
                 and not ordered_after(clock, prior.stamp) and not ordered_by_hardware(prior, access, release)]
        if not races:
            if access.write:
                history.forget(view, lambda prior: view.covers(prior.view))
            else:
                history.forget(view, lambda prior: not prior.write and prior.agent == access.agent
                               and view.covers(prior.view))
        history.add(next(self.made), access)
        return races

    def unfenced(self, access: Access, clock: Clock) -> list[Access]:
        """For an async-proxy access of shared memory (made at `clock`): the earlier
        generic-proxy accesses it is ordered after but not after their thread's next proxy
        fence. A write (a TMA copy) checks the accesses of other threads; a read (a TMA
        store, a wgmma operand) the writes of any thread. Call before `touch`, which
        forgets what a write covers."""
        history = self.histories.get(id(access.view.allocation))
        if access.issuer is None or access.view.allocation.memory != "shared" or history is None:
            return []
        return [prior for prior in history.meeting(access.view)
                if prior.fence is not None and (prior.agent != access.issuer if access.write else prior.write)
                and prior.view.overlaps(access.view)
                and ordered_after(clock, prior.stamp) and not ordered_after(clock, prior.fence)]

    def release(self, allocation: Allocation) -> None:
        """Forget a deallocated allocation (its release was checked as a write of all of it)."""
        self.histories.pop(id(allocation), None)

    def live_allocations(self) -> list[Allocation]:
        """The allocations accessed and not released."""
        return [history.allocation for history in self.histories.values()]


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
