"""`ttpipe-l2-eviction`: a kernel that reads the same memory in two loops keeps it in L2
between the reads, by marking what it will not read again `evict_first`.

A row kernel in two passes (layer norm, RMS norm, softmax written with loops: statistics,
then the output) reads each row twice. Its second read is an L2 hit only if the row's lines
survive from the first; with every access at the default priority, the lines the second
loop reads for the last time and the output it writes compete with the rows still waiting
for their second read (1056 rows in flight on an H100 at 8 CTAs per SM), and DRAM serves
part of the second read again. L2 replaces `evict_first` lines before normal ones (PTX
`createpolicy.fractional.L2::evict_first`, Triton's `evictionPolicy = evict_first` on
`tt.load` and `tt.store`): marking the last reads and the output so protects the rows in
flight.

Algorithm, for every `tt.func`:
  1. Last reads (`ttpipe.passes.analysis.rereads.last_rereads`): a `tt.load` of a loop that
     reads, iteration for iteration, what a load of an earlier loop with the same bounds
     read (pointers the same expression, the induction variables standing for each other),
     that no later loop reads again, and whose address depends on the program id along
     every grid axis the function reads: a program's last read of data other programs read
     too (a norm's weights, a head's keys) is not the kernel's last, and `evict_first` there
     would send it to DRAM for them. Each gets `evict_first`.
  2. The output: every `tt.store` in a loop holding a last read (its body, nested regions
     included) gets `evict_first`: the pass the kernel writes its result in, which it does
     not read back.
A load or store whose eviction policy the kernel sets (anything but `evict_normal`) is left
as written: the hint is the user's. So is one with a cache modifier (`.ca`, `.cg`, `.cs`, ...):
PTX takes no eviction priority beside a cache operator (ptxas: "Modifier '.evict_first' cannot
be combined with modifier '.cg'"). The first read keeps the default: marking it
`evict_last` measured no better (docs/measurements.md, 2026-11-26, sixth session).

Measured on the H100 (`python -m ttpipe.bench`, bf16, 8 warps, chunks of 2048, ratios in
one run; docs/measurements.md, 2026-11-26, sixth session): over rows of 8192 elements the
looped layer norm goes from 0.86x to 0.99x the copy bandwidth (1.15x stock Triton), RMS norm
to 0.98x (1.32x), online softmax to 0.92x (1.06x); rows of 32768 gain 5-9 % (0.69-0.71x
copy); rows of 131072 nothing (the rows in flight, 8 CTAs x 132 SMs x 256 KB, outgrow the
50 MB L2 at any priority).

Where an SM's L1 holds the rows of all its CTAs (below `SM90_L1_ROWS_BYTES`, 64 KB) the
second read hits L1 and the hints only cost: 2.5-4.6 % on rows of 1024 elements at 4 and 8
warps (docs/measurements.md, eighth session). The hints do not depend on the row's length,
which is a run-time value: `ttpipe-reverse-rereads`, which versions the loop on it, runs
the loop with the hints restored to `evict_normal` below that bound (`L2_EVICTION_MARK` says which).

Changes only the two properties and marks what it changed; no op is added or moved, so
every other pass sees the same IR. Preconditions: none (TTIR or TTGIR; the hints lower on
sm_80 and later). Attributes read and written: `evict` of `tt.load` and `tt.store`;
written: `ttpipe.l2_eviction` (unit) on each load and store it marked.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, UnitAttr
from xdsl.passes import ModulePass

from ttpipe.dialects import tt
from ttpipe.dialects.tt import CacheModifier, EvictionPolicy, enum_attr
from ttpipe.passes.analysis.rereads import last_rereads

EVICT_NORMAL = enum_attr(EvictionPolicy.evict_normal)
EVICT_FIRST = enum_attr(EvictionPolicy.evict_first)
CACHE_NONE = enum_attr(CacheModifier.none)

L2_EVICTION_MARK = "ttpipe.l2_eviction"
"""Unit attribute on each load and store this pass marked (not those the kernel marked
itself): `ttpipe-reverse-rereads` restores their policy where the rows are short."""


@dataclass
class EvictionPlan:
    """What `plan` marks `evict_first` in one function (steps 1 and 2)."""

    last_reads: list[tt.LoadOp]
    outputs: list[tt.StoreOp]


def takes_eviction_hint(access: tt.LoadOp | tt.StoreOp) -> bool:
    """Neither an eviction policy nor a cache modifier of the kernel's own: PTX combines an
    eviction priority with no cache operator."""
    return access.evict == EVICT_NORMAL and access.cache == CACHE_NONE


def plan(func: tt.FuncOp) -> EvictionPlan:
    """Steps 1-2 for one function: the loads and stores to mark."""
    last_reads = [reads.last for reads in last_rereads(func)]
    holding = dict.fromkeys(load.parent_op() for load in last_reads)  # in the function's order
    outputs = [op for loop in holding for op in loop.walk() if isinstance(op, tt.StoreOp)]
    return EvictionPlan([op for op in last_reads if takes_eviction_hint(op)],
                        [op for op in outputs if takes_eviction_hint(op)])


class L2Eviction(ModulePass):
    """Keep memory a kernel reads in two loops in L2 between the reads: the last reads and the output evict_first.

    Before:

        scf.for %off = %0 to %n step %B { %x = tt.load %row[%off..] ; sums }
        scf.for %off = %0 to %n step %B { %x = tt.load %row[%off..] ; tt.store %out[%off..], %y }

    After:

        scf.for %off = %0 to %n step %B { %x = tt.load %row[%off..] ; sums }
        scf.for %off = %0 to %n step %B {
          %x = tt.load %row[%off..] evictionPolicy = evict_first
          tt.store %out[%off..], %y evictionPolicy = evict_first
        }

    See `ttpipe.passes.l2_eviction` for the algorithm.
    """

    name = "ttpipe-l2-eviction"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for func in [f for f in op.walk() if isinstance(f, tt.FuncOp)]:
            marked = plan(func)
            for access in [*marked.last_reads, *marked.outputs]:
                access.evict = EVICT_FIRST
                access.attributes[L2_EVICTION_MARK] = UnitAttr()
