"""`ttpipe-stream-loops`: grid-stride loops without dots pipelined as streams of TMA loads,
as many stages deep as keeping the SM's memory pipe busy takes (seed 002).

Triton pipelines a loop's loads only when they feed a dot, or when the user marks the loop
(`tl.range(..., num_stages=...)`, `tt.num_stages`); a persistent pointwise kernel walking
memory in a plain grid-stride `for` loop, one CTA per SM, has one chunk per SM in flight.
This pass asks the pipeliner (`ttpipe-assign-latencies`, `ttpipe-pipeline`, which run after
it) for the stages a stated cost model says the loop needs, and gives its loads to TMA.

Algorithm, for every innermost `scf.for` of sm_90 with no dot, no `tt.num_stages` of its own
and at least one `tt.load` of a tensor:
  1. Only a grid-stride loop (its step reads `tt.get_num_programs`: a persistent kernel, a
     CTA per SM) is streamed. A program's own loop (a row of a norm or a softmax) runs
     with many CTAs per SM, and ptxas overlaps the loads of its unpipelined iterations
     where no store separates them: stock Triton's cubins keep more in flight than one
     iteration per CTA, and pipelining them measured slower, 0.46-0.72x stock (a looped
     layer norm in 512-element chunks at 8 warps, or at 32 warps; docs/measurements.md,
     2026-11-26, sixth session). Such loops get the remark `loop not streamed: <reason>`.
  2. Bytes per iteration `B`: the tiles its tensor loads bring, per CTA; one CTA per SM.
  3. In flight at `S` stages: `max(S - 1, 1) * B` (the pipeliner keeps `S - 1` iterations
     of loads ahead; unpipelined, one). The loop is left alone when one iteration already
     covers `H100_BYTES_IN_FLIGHT_PER_SM` (Little's law for the H100's bandwidth); else it
     gets the least `S` (2 to `MAX_STAGES`) that does, or the `S` that brings the most.
  4. The loads that are TMA boxes (`TileAccessAnalysis`; no in-bounds guard, `other` zero)
     become TMA loads of device-made descriptors (`pointer_loads_to_tma`); the others stay
     pointer loads, which the pipeliner turns into cp.async. Only in grid-stride loops: a
     CTA makes its descriptors (a tensormap written to global scratch, then fenced) before
     its first TMA copy, a fixed cost that a persistent CTA's stream amortizes and a
     program's loop over one row may not (a softmax over rows of 8192 bf16 elements with
     `tl.range(..., num_stages=3)` ran at 0.90x stock with TMA, at stock's speed with
     cp.async).
  5. `tt.num_stages = S` on the loop: `ttpipe-assign-latencies` then pipelines every load
     of the loop, not only those feeding dots.

`stages=N` (N >= 2) skips steps 1 and 3 and asks for N stages on every such loop (CTAs per
SM then count as many as the warps and the rings' shared memory allow); a loop with
`tt.num_stages` (`tl.range(..., num_stages=...)`) keeps the user's stages, its loads given
to TMA by step 4's rule. Attributes read: `ttg.target`, `ttg.num-warps`, `tt.num_stages`;
written: `tt.num_stages`.

Not done here: a kernel that walks the same row twice (mean, then normalize) reads it twice
from memory; `ttpipe-l2-eviction` keeps the row in L2 between the reads where it can,
`ttpipe-row-cache` (opt-in, `row-cache=true`) in shared memory, its buffer counted in the
CTAs per SM of forced stages (docs/measurements.md).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.passes import ModulePass

from ttpipe.dialects import scf, tt, ttg
from ttpipe.passes.analysis.axis_info import ModuleAxisInfo
from ttpipe.passes.analysis.tile_access import TileAccessAnalysis
from ttpipe.passes.common.diagnostics import emit_remark
from ttpipe.passes.common.hardware import (
    H100_BYTES_IN_FLIGHT_PER_SM,
    SM90_SHARED_MEMORY_PER_SM,
    is_hopper,
    sm90_ctas_per_sm_by_warps,
)
from ttpipe.passes.common.ir import backward_slice_in_block, enclosing_function, is_outer_loop
from ttpipe.passes.common.shared_layouts import allocation_bytes
from ttpipe.passes.common.target import nvidia_compute_capability, num_warps
from ttpipe.passes.pipeline.assign_latencies import DOT_OPS
from ttpipe.passes.pipeline.lower_loops import tile_bytes
from ttpipe.passes.pipeline.schedule import NUM_STAGES, int_attr
from ttpipe.passes.pointer_loads_to_tma import DescriptorBuilder, convert, descriptor_encoding, load_accesses

MAX_STAGES = 8
"""The deepest ring the cost model asks for."""

REMARK = "loop not streamed: "


@dataclass(frozen=True)
class StreamPlan:
    """What the cost model decided for one loop."""

    stages: int
    bytes_per_iteration: int
    ctas_per_sm: int
    in_flight: int


def is_grid_stride(loop: scf.ForOp) -> bool:
    """The loop's step reads `tt.get_num_programs`: a persistent kernel's loop over its work."""
    return any(isinstance(op, tt.GetNumProgramsOp) for op in backward_slice_in_block([loop.step], loop.parent_block()))


def allocated_shared_memory(loop: scf.ForOp) -> int:
    """Bytes of the shared buffers the function already allocates (`ttg.local_alloc` with a
    static size: `ttpipe-row-cache`'s row, say), which every CTA holds besides the ring."""
    return sum(allocation_bytes(op.result.type) for op in enclosing_function(loop).walk()
               if isinstance(op, ttg.LocalAllocOp) and op.src is None)


@dataclass(frozen=True)
class Occupancy:
    """Steps 1-3's inputs for one loop, read from the IR once."""

    bytes_per_iteration: int
    grid_stride: bool
    ctas_by_warps: int
    allocated_bytes: int

    @staticmethod
    def of(loop: scf.ForOp) -> Occupancy:
        loads = [op for op in loop.body.ops if isinstance(op, tt.LoadOp) and isinstance(op.result.type, TensorType)]
        return Occupancy(sum(tile_bytes(load.result.type) for load in loads), is_grid_stride(loop),
                         sm90_ctas_per_sm_by_warps(num_warps(loop)),
                         allocated_shared_memory(loop))

    def ctas_per_sm(self, stages: int) -> int:
        """Step 2."""
        if self.grid_stride:
            return 1
        per_cta = stages * self.bytes_per_iteration + self.allocated_bytes
        return max(1, min(self.ctas_by_warps, SM90_SHARED_MEMORY_PER_SM // per_cta))

    def in_flight(self, stages: int) -> int:
        """Step 3: bytes of loads an SM has in flight with `stages` stages (1: unpipelined)."""
        return self.ctas_per_sm(stages) * max(stages - 1, 1) * self.bytes_per_iteration

    def plan(self, stages: int) -> StreamPlan:
        return StreamPlan(stages, self.bytes_per_iteration, self.ctas_per_sm(stages), self.in_flight(stages))


def plan(loop: scf.ForOp, stages: int = 0) -> StreamPlan | str:
    """Steps 1-3 for one loop: its plan, or why it is not streamed (`stages`: forced)."""
    occupancy = Occupancy.of(loop)
    if stages:
        return occupancy.plan(stages)
    if not occupancy.grid_stride:
        return ("not a grid-stride loop: a program's own loop runs with many CTAs per SM, which keep its loads in "
                "flight unpipelined")
    unpipelined = occupancy.in_flight(1)
    if unpipelined >= H100_BYTES_IN_FLIGHT_PER_SM:
        return (f"{unpipelined} bytes in flight per SM unpipelined ({occupancy.bytes_per_iteration} per iteration), "
                f"enough to cover memory latency ({H100_BYTES_IN_FLIGHT_PER_SM})")
    best = max(range(2, MAX_STAGES + 1), key=lambda s: (min(occupancy.in_flight(s), H100_BYTES_IN_FLIGHT_PER_SM), -s))
    return occupancy.plan(best)


def is_memory_loop(loop: scf.ForOp) -> bool:
    """An innermost loop with no dot (the pipeliner's own case) that loads a tensor."""
    return (not is_outer_loop(loop) and not any(isinstance(op, DOT_OPS) for op in loop.walk())
            and any(isinstance(op, tt.LoadOp) and isinstance(op.result.type, TensorType) for op in loop.body.ops))


@dataclass(frozen=True)
class StreamLoops(ModulePass):
    """Pipeline memory-bound loops (no dot) as deep streams of loads, by a cost model of bytes in flight.

    Before (a grid-stride loop: its step is a multiple of the programs):

        scf.for %off = %start to %n step %stride {   // 2048 elements at a time
          %x = tt.load %p, %mask, %zero              // p = x + off + arange
          ...
        }

    After (then pipelined by ttpipe-pipeline: an S-stage ring, one mbarrier per stage):

        %desc = tt.make_tensor_descriptor %x, [%n], [1]
        scf.for %off = ... {
          %x = tt.descriptor_load %desc[%off]
          ...
        } {tt.num_stages = S}

    Other loops get `tt.num_stages = S` only (a cp.async ring). See
    `ttpipe.passes.pipeline.stream_loops` for the cost model and what it skips (a remark
    `loop not streamed: <reason>`).
    """

    name = "ttpipe-stream-loops"

    stages: int = field(default=0, metadata={"help": "stages for every memory-bound loop (0: the cost model's)"})

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if not is_hopper(nvidia_compute_capability(op)):
            return
        analysis: TileAccessAnalysis | None = None
        for func in [f for f in op.walk() if isinstance(f, tt.FuncOp)]:
            tma_loops: list[scf.ForOp] = []
            for loop in [o for o in func.walk() if isinstance(o, scf.ForOp)]:
                if not is_memory_loop(loop):
                    continue
                if NUM_STAGES not in loop.attributes:  # else the user's stages
                    decided = plan(loop, self.stages)
                    if isinstance(decided, str):
                        emit_remark(loop, REMARK + decided)
                        continue
                    loop.attributes[NUM_STAGES] = int_attr(decided.stages)
                if is_grid_stride(loop):  # step 4
                    tma_loops.append(loop)
            if not tma_loops:
                continue
            analysis = analysis or TileAccessAnalysis(ModuleAxisInfo(op))
            accesses = [(access, descriptor_encoding(load, access))
                        for loop in tma_loops for load, access in load_accesses(loop, analysis)
                        if not isinstance(access, str) and not access.guards and load.parent_op() is loop]
            convert(DescriptorBuilder(func, analysis), accesses)
