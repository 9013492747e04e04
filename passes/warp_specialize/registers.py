"""`ttpipe-ws-registers`: phase 3 of Hopper warp specialization, the register budget of
each partition (`requestedRegisters` of `ttg.warp_specialize`).

Rule, for a CTA of `T` warpgroups alone on its SM (Triton's AllocateWarpGroups packs the
partitions of fewer than 4 warps together and pads them to a warpgroup): the launch gives every thread
`maxnreg = floor8(REGISTERS_PER_SM / (128 T))` registers, so the CTA holds `128 T maxnreg`
of the SM's 65536 and `setmaxnreg` may only move registers between its warpgroups, keeping
that sum. A partition that holds no tensor in registers (only scalars, TMA copies,
mbarrier ops: the TMA producer) asks for `TMA_PRODUCER_REGISTERS` (40); the `C` consumer
warpgroups (the default region's, and those of partitions holding tensors) share the
rest evenly:

    consumer = min(256, floor8((T maxnreg - 40 P) / C))      P producer warpgroups

and each consumer partition asks for that. The default region never asks: Triton's
AllocateWarpGroups gives it what the partitions leave, `floor8(maxnreg + sum over partition
warpgroups (maxnreg - requested) / default warpgroups)`, capped at 256 by `setmaxnreg`.

  - one consumer warpgroup + the producer (`num_warps=4`): T = 2, maxnreg = 256, the
    partitions ask [40]; the consumer keeps 256 (`setmaxnreg.inc 256`, capped from 472),
    the producer drops to 40 (`setmaxnreg.dec 40`);
  - two cooperative consumer warpgroups + the producer (`num_warps=8`): T = 3,
    maxnreg = floor8(65536 / 384) = 168, T maxnreg = 504 (<= 512 = 65536 / 128),
    consumer = floor8((504 - 40) / 2) = 232: the partitions ask [232, 40] and the default
    region gets 168 + (168 - 232) + (168 - 40) = 232; `setmaxnreg.inc 232` in both
    consumer warpgroups, `.dec 40` in the producer, 2 x 232 + 40 = 504 (CUTLASS's
    cooperative kernel: `MmaRegisterRequirement = 232`, `LoadRegisterRequirement = 40`);
  - two ping-pong consumer warpgroups + the producer (`num_warps=4`, `pingpong.py`): the
    same three warpgroups, the same [232, 40];
  - partitions of fewer than 4 warps holding no tensor (the TMA producer, the one-warp
    epilogue partition of `epilogue_partition.py`) share one warpgroup, as AllocateWarpGroups
    lays them out: ping-pong + producer + epilogue is still three warpgroups, [232, 40, 40].

Preconditions: none. Reads `ttg.warp_specialize`'s partitions and `ttg.num-warps`; writes
`requestedRegisters` where it is absent.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.ir import Region
from xdsl.passes import ModulePass

from ttpipe.dialects import ttg
from ttpipe.dialects.props import i32_array
from ttpipe.passes.common.hardware import (
    REGISTERS_PER_SM,
    THREADS_PER_WARPGROUP,
    setmaxnreg_floor,
    warpgroups,
)
from ttpipe.passes.common.target import num_warps

TMA_PRODUCER_REGISTERS = 40
"""Registers per thread of a warpgroup that only computes addresses and issues TMA copies:
CUTLASS's `LoadRegisterRequirement` in its warp-specialized Hopper GEMMs (`setmaxnreg`
takes 24 to 256 in steps of 8; 40 leaves room for the loop's scalars without spilling)."""


def _holds_tensors(region: Region) -> bool:
    return any(isinstance(result.type, TensorType) for op in region.walk() for result in op.results)


def consumer_registers(consumer_warpgroups: int, producer_warpgroups: int) -> int:
    """The rule of the module docstring: registers per thread of each consumer warpgroup."""
    total = consumer_warpgroups + producer_warpgroups
    maxnreg = setmaxnreg_floor(REGISTERS_PER_SM // (THREADS_PER_WARPGROUP * total))
    return setmaxnreg_floor((total * maxnreg - TMA_PRODUCER_REGISTERS * producer_warpgroups) // consumer_warpgroups)


def requested_registers(ws: ttg.WarpSpecializeOp) -> list[int]:
    """The rule of the module docstring: `requestedRegisters` of each partition."""
    consumers = [_holds_tensors(region) for region in ws.partition_regions]
    warps = ws.partitionNumWarps.get_values()
    # AllocateWarpGroups lays the partitions out biggest first from warp `ttg.num-warps` on:
    # the consumers' whole warpgroups, then the tensor-free partitions' warps packed together.
    producer_warpgroups = warpgroups(sum(n for n, consumer in zip(warps, consumers) if not consumer))
    consumer_warpgroups = warpgroups(num_warps(ws)) + sum(warpgroups(n) for n, consumer in zip(warps, consumers)
                                                           if consumer)
    consumer = consumer_registers(consumer_warpgroups, producer_warpgroups)
    return [consumer if holds else TMA_PRODUCER_REGISTERS for holds in consumers]


@dataclass(frozen=True)
class AssignPartitionRegisters(ModulePass):
    """Set `requestedRegisters` on `ttg.warp_specialize` ops: 40 for TMA producers, the rest shared by the consumers.

    See `ttpipe.passes.warp_specialize.registers` for the rule and how Triton turns it into `setmaxnreg`.
    """

    name = "ttpipe-ws-registers"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for ws in [o for o in op.walk() if isinstance(o, ttg.WarpSpecializeOp)]:
            if ws.requestedRegisters is not None:
                continue
            ws.properties["requestedRegisters"] = i32_array(requested_registers(ws))
