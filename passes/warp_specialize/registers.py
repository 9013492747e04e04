"""`ttpipe-ws-registers`: phase 3 of Hopper warp specialization, the register budget of
each partition (`requestedRegisters` of `ttg.warp_specialize`).

Rule: a partition that holds no tensor in registers (only scalars, TMA copies, mbarrier
ops: the TMA producer) asks for `TMA_PRODUCER_REGISTERS`; if any partition holds tensors,
the op is left without `requestedRegisters` (no `setmaxnreg` at all), since this phase has
no estimate for it. The default region never asks: Triton's AllocateWarpGroups gives it
what the partitions leave. With `W` warps in all (partitions padded to whole warpgroups),
every warp starts at `maxnreg = 65536 / (32 W)` rounded down to 8; the default warpgroups
then get `maxnreg + sum over partition warpgroups (maxnreg - requested) / default
warpgroups`, rounded down to 8 and capped at 256 by `setmaxnreg`. So one consumer
warpgroup with the one-warp producer (padded to a warpgroup): W = 8, maxnreg = 256, the
consumer keeps 256 (`setmaxnreg.inc 256`) and the producer drops to 40
(`setmaxnreg.dec 40`); two consumer warpgroups: W = 12, maxnreg = 168, consumers 232.

Preconditions: none. Reads `ttg.warp_specialize`'s partitions; writes `requestedRegisters`
where it is absent.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.passes import ModulePass

from ttpipe.dialects import ttg
from ttpipe.dialects.props import i32_array

TMA_PRODUCER_REGISTERS = 40
"""Registers per thread of a warpgroup that only computes addresses and issues TMA copies:
CUTLASS's `LoadRegisterRequirement` in its warp-specialized Hopper GEMMs (`setmaxnreg`
takes 24 to 256 in steps of 8; 40 leaves room for the loop's scalars without spilling)."""


def requested_registers(ws: ttg.WarpSpecializeOp) -> list[int] | None:
    """The rule of the module docstring; None where a partition holds tensors."""
    requested = []
    for region in ws.partition_regions:
        if any(isinstance(result.type, TensorType) for op in region.walk() for result in op.results):
            return None
        requested.append(TMA_PRODUCER_REGISTERS)
    return requested


@dataclass(frozen=True)
class AssignPartitionRegisters(ModulePass):
    """Set `requestedRegisters` on `ttg.warp_specialize` ops whose partitions only issue TMA copies.

    See `ttpipe.passes.warp_specialize.registers` for the rule and how Triton turns it into `setmaxnreg`.
    """

    name = "ttpipe-ws-registers"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for ws in [o for o in op.walk() if isinstance(o, ttg.WarpSpecializeOp)]:
            if ws.requestedRegisters is not None:
                continue
            requested = requested_registers(ws)
            if requested is not None:
                ws.properties["requestedRegisters"] = i32_array(requested)
