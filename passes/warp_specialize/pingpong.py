"""Ping-pong consumer warpgroups (CUTLASS's `KernelTmaWarpSpecializedPingpong`): in a
persistent kernel of `num_warps = 4`, two consumer warpgroups take the CTA's output tiles
in turn, each running the whole one-warpgroup consumer (K loop, flush, epilogue) on its
tiles, and their mainloops are ordered so that one's wgmmas run while the other stores:

    warpgroup 0   [ MMA tile 0 ][ epilogue 0 ]          [ MMA tile 2 ][ epilogue 2 ] ...
    warpgroup 1                [ MMA tile 1  ][ epilogue 1 ]          [ MMA tile 3 ] ...
    producer      loads tile 0, tile 1, tile 2, ... into one ring, in tile order

The cost model (`choose`), for a persistent kernel's tile loop (`consumers=auto`):
  - tile shape: the kernel's layouts are one warpgroup's (`ttg.num-warps = 4`); with
    `num_warps = 8` the two warpgroups split each tile instead (`cooperative.py`), the
    larger tile reading less shared memory per flop;
  - register pressure: each warpgroup holds a whole tile's fp32 accumulators,
    `M N / 128` registers per thread; ping-pong only where that leaves
    `EPILOGUE_REGISTERS` of the consumer budget (`registers.py`: 232 with two consumer
    warpgroups and the producer) for the wgmma descriptors, addresses and the epilogue's
    converted tile: 128x128 (128 registers) qualifies, 128x256 (256) does not and keeps one
    consumer warpgroup;
  - K-loop length: each warpgroup skips the other's K iterations in the ring by their
    count, computed once, so the K loop's bounds must be the same for every tile (defined
    outside the tile loop). The epilogue a warpgroup hides under the other's mainloop is a
    fixed cost per tile; the longer the K loop the less there is to hide, but nothing is
    lost: the tensor cores stay busy with either warpgroup's wgmmas.
`consumers=pingpong` forces it (a loop it cannot apply to is refused, with the reason),
`consumers=cooperative` keeps the warpgroups of the kernel's `num_warps` on each tile.

The protocol (phase 2, `partition_loops.lower_persistent` with `PING_PONG` on the tile loop):
  - Tiles: warpgroup w runs tile loop iterations w, w + 2, ...: lower bound `lb + w step`,
    step `2 step`.
  - Ring: each stage is read by one warpgroup, so the empty mbarriers count one arrival.
    The producer loads every tile's K iterations in tile order, so a warpgroup's
    `PipelineState` skips the other's: warpgroup 1 starts `n` stages in, and each
    warpgroup, after its tile, skips `n` (`PipelineState.skip`), `n` the K trip count.
  - Turns (`MmaTurns`): two mbarriers of count 1, `turn[w]`, allocated with the ring.
    Warpgroup w waits `turn[w]` before its K loop and arrives on `turn[1 - w]` after it
    (its last wgmmas still in flight, before the flush), so the mainloops alternate
    0, 1, 0, 1, ... and each epilogue runs under the other warpgroup's mainloop. The
    parity is an iteration argument of each consumer tile loop, flipped per tile:
    warpgroup 0 starts at 1 (a fresh mbarrier passes it: tile 0 goes first), warpgroup 1
    at 0 (it waits for warpgroup 0's first arrival). Neither can run two turns ahead of
    the other, so the parity never aliases; the last arrival may have no waiter, and the
    mbarriers are invalidated after `ttg.warp_specialize`, when all warps have joined.
  - No deadlock: warpgroup 1's first wait needs warpgroup 0's K loop to finish, which
    needs only the producer's loads of tile 0, which need only releases of tile 0's
    stages (warpgroup 0's own); in general turn t waits for turn t - 1's K loop, whose
    stages the producer fills after the releases of turns <= t - 1. The protocol model in
    `test_warp_specialize_protocol.py` runs it.
  - Epilogues are each warpgroup's own (the tile loop's ops after the K loop, cloned);
    a `tt.descriptor_store` gets its own staging tile in each region from Triton's TMA
    lowering.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from xdsl.dialects.builtin import TensorType
from xdsl.ir import SSAValue

from ttpipe.dialects import scf, ttng
from ttpipe.passes.common.builder import OpBuilder
from ttpipe.passes.common.hardware import THREADS_PER_WARPGROUP
from ttpipe.passes.common.target import num_warps
from ttpipe.passes.pipeline.lower_loops import single_buffer_view
from ttpipe.passes.pipeline.pipelining_utility import is_defined_outside_loop
from ttpipe.passes.warp_specialize.cooperative import Refused, consumer_warpgroups, rematerializable
from ttpipe.passes.warp_specialize.registers import consumer_registers

PING_PONG = "ttpipe.ping_pong"
"""Unit attribute phase 1 stamps on a persistent tile loop whose consumers take turns."""

PING_PONG_WARPGROUPS = 2

EPILOGUE_REGISTERS = 64
"""Registers per thread a ping-pong consumer keeps beside its accumulators: the epilogue's
converted tile (a 128x128 fp16/bf16 tile is 64 per thread), addresses, loop state."""

PING_PONG_CONSUMER_REGISTERS = consumer_registers(PING_PONG_WARPGROUPS, 1)
"""A consumer's budget with two consumer warpgroups and the TMA producer (232)."""


def accumulator_registers(dots: list[ttng.WarpGroupDotOp]) -> int:
    """fp32 registers per thread of one warpgroup holding the whole tile's accumulators."""
    return sum(math.prod(dot.d.type.get_shape()) for dot in dots) // THREADS_PER_WARPGROUP


def refusal(tile: scf.ForOp, k_loop: scf.ForOp, dots: list[ttng.WarpGroupDotOp]) -> str | None:
    """Why the consumers of this persistent kernel cannot take turns, or None."""
    if consumer_warpgroups(tile) != 1:
        return (f"ping-pong needs one warpgroup's layouts (num_warps=4); num_warps={num_warps(tile)} splits "
                f"each tile cooperatively")
    registers = accumulator_registers(dots)
    if registers + EPILOGUE_REGISTERS > PING_PONG_CONSUMER_REGISTERS:
        return (f"ping-pong: the tile's accumulators take {registers} registers per thread, more than the "
                f"{PING_PONG_CONSUMER_REGISTERS - EPILOGUE_REGISTERS} a consumer of "
                f"{PING_PONG_CONSUMER_REGISTERS} can spare beside its epilogue")
    if k_loop.unsignedCmp is not None:
        return "ping-pong: the K loop compares unsigned (its trip count is computed signed)"
    for bound in (k_loop.lowerBound, k_loop.upperBound, k_loop.step):
        if not is_defined_outside_loop(bound, tile):
            return "ping-pong: the K loop's bounds change from tile to tile"
    for op in tile.body.walk():
        for operand in op.operands:
            if (isinstance(operand.type, TensorType) and is_defined_outside_loop(operand, tile)
                    and not rematerializable(operand)):
                return (f"ping-pong: '{op.name}' reads a tensor from before the tile loop that a partition "
                        f"cannot re-create")
    return None


def choose(tile: scf.ForOp, k_loop: scf.ForOp, dots: list[ttng.WarpGroupDotOp], consumers: str) -> bool:
    """Whether the tile loop's consumers take turns; `Refused` where `pingpong` is forced
    and cannot be."""
    if consumers == "cooperative":
        return False
    why = refusal(tile, k_loop, dots)
    if why is not None and consumers == "pingpong":
        raise Refused(why)
    return why is None


def loop_refusal(consumers: str) -> None:
    """A loop that is not a persistent kernel's has one tile: nothing to take turns on."""
    if consumers == "pingpong":
        raise Refused("ping-pong needs a persistent kernel (a tile loop around the K loop)")


@dataclass(frozen=True)
class MmaTurns:
    """The two turn mbarriers (`2 x 1 x i64`, count 1): `turn[w]` lets warpgroup w run its mainloop."""

    barriers: SSAValue

    @staticmethod
    def start_parity(warpgroup: int) -> int:
        return 1 - warpgroup

    def wait(self, b: OpBuilder, warpgroup: int, parity: SSAValue) -> None:
        b.insert(ttng.WaitBarrierOp(single_buffer_view(b, self.barriers, warpgroup), parity))

    def pass_to_other(self, b: OpBuilder, warpgroup: int) -> None:
        other = single_buffer_view(b, self.barriers, PING_PONG_WARPGROUPS - 1 - warpgroup)
        b.insert(ttng.ArriveBarrierOp(other, b.int_constant(1, 1), count=1))
