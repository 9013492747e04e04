"""The epilogue as its own partition (seed 003, `epilogue=partition`): a persistent kernel's
consumer warpgroups hand each finished tile to a one-warp TMA-store partition through a
producer/consumer channel, and go on with their next tile at once.

The channel (CUTLASS's `PipelineAsync` verbs; Triton's NVWS `aref` models the same): `NB`
buffers, one per consumer region (1, or 2 with ping-pong), each holding the tile of every
`tt.descriptor_store` of the epilogue (`NB x tile` per store, in the descriptor's
encoding), and a *full* and an *empty* mbarrier per buffer, count 1 each.

    consumer region w, its j-th tile          epilogue partition, the CTA's t-th tile
    (the tile's values in registers)          (b = t % NB, its tile loop over every tile)
    acquire: wait empty[w], parity !(j & 1)   wait full[b], parity (t / NB) & 1
    write:   local_store each value -> buf    TMA store each buffer (indices cloned from
             fence_async_shared                the tile loop's scalar ops)
             gpu.barrier (all rows written)    async_tma_store_wait {pendings = 0};
    commit:  arrive full[w]                    gpu.barrier (every lane's bulk group read)
                                               release: arrive empty[b]

Buffer `w` is only ever used by consumer region `w`: with ping-pong, region w runs the CTA's
tiles t = w, w + 2, ... (so t % 2 = w), and with one consumer NB = 1. The consumer's parity
is an iteration argument of its tile loop (from `PRODUCER_START_PHASE`, 1: the consumer
region is the channel's producer, and a fresh empty mbarrier passes it), flipped per tile; the epilogue partition carries a `PipelineState` over
the `NB` buffers from (0, 0). Neither side can run two uses of a buffer ahead of the other
(each waits for the other's arrival on it), so the parities never alias. Deadlock-free: the
epilogue partition waits only for consumers, which wait only for the epilogue's release of
the tile before last of their own buffer, which needs only that tile's commit.

The epilogue partition is one warp holding no tensor: `requestedRegisters` 40, packed with
the producer's warp into one warpgroup by Triton's AllocateWarpGroups (`registers.py`). Its
`gpu.barrier` syncs only its own warp: the TMA store of a tile wider than the 128-byte
swizzle is several copies, issued by elected lanes, and `cp.async.bulk.wait_group.read`
waits for the caller's own bulk groups only.

Preconditions (phase 1, `refusal`): a persistent kernel without a cooperative split (one
consumer warpgroup, or ping-pong), whose epilogue's side effects are `tt.descriptor_store`s
only; the indices of the stores are computed by side-effect-free scalar ops of the tile
loop's body (cloned into the partition).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.dialects.builtin import TensorType
from xdsl.ir import Operation, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.traits import is_side_effect_free

from ttpipe.dialects import scf, tt, ttg, ttng
from ttpipe.passes.common.builder import OpBuilder
from ttpipe.passes.common.ir import backward_slice_in_block
from ttpipe.passes.pipeline.lower_loops import single_buffer_view
from ttpipe.passes.pipeline.schedule import body_ops
from ttpipe.passes.warp_specialize.cooperative import consumer_warpgroups
from ttpipe.passes.warp_specialize.epilogue_store import publish_to_tma, wait_stores_read

EPILOGUE_PARTITION = "ttpipe.epilogue_partition"
"""Unit attribute phase 1 stamps on a persistent tile loop whose epilogue is its own partition."""

EPILOGUE_NUM_WARPS = 1

def epilogue_ops(tile: scf.ForOp) -> list[Operation]:
    """The tile loop's ops after its K loop."""
    ops = body_ops(tile)
    k_loop = next(op for op in ops if isinstance(op, scf.ForOp))
    return ops[ops.index(k_loop) + 1:]


def refusal(tile: scf.ForOp) -> str | None:
    """Why this persistent kernel's epilogue cannot be its own partition, or None."""
    if consumer_warpgroups(tile) != 1:
        return "the cooperative warpgroups split each tile's epilogue between them"
    stores = [op for op in epilogue_ops(tile) if not is_side_effect_free(op)]
    if not stores or not all(isinstance(op, tt.DescriptorStoreOp) for op in stores):
        return "its side effects are not all tt.descriptor_store (TMA stores hand off; pointer stores do not)"
    for op in store_index_ops(tile, stores):
        if op.regions or not is_side_effect_free(op) or any(isinstance(r.type, TensorType) for r in op.results):
            return f"'{op.name}' computes a store index other than by scalar arithmetic"
    return None


def store_index_ops(tile: scf.ForOp, stores: Sequence[tt.DescriptorStoreOp]) -> list[Operation]:
    """The tile loop body's ops (in order) that compute the stores' indices, transitively."""
    return backward_slice_in_block([index for store in stores for index in store.indices], tile.body)


@dataclass(frozen=True)
class EpilogueChannel:
    """The channel's buffers (per store, `NB x tile`) and its full and empty mbarriers (`NB x 1 x i64`)."""

    buffers: dict[tt.DescriptorStoreOp, SSAValue]
    full: SSAValue
    empty: SSAValue
    depth: int

    def commit_tile(self, clones: dict[Operation, Operation], region: int, parity: SSAValue) -> None:
        """Consumer region `region`'s side for one tile: the cloned stores (`clones`: each
        original op's clone) replaced by acquire, write, commit."""
        stores = [clones[store] for store in self.buffers]
        b = OpBuilder(InsertPoint.before(stores[0]), stores[0].location)
        b.insert(ttng.WaitBarrierOp(single_buffer_view(b, self.empty, region), parity))
        for original, store in zip(self.buffers, stores):
            b.set_before(store)
            buffer = single_buffer_view(b, self.buffers[original], region)
            b.insert(ttg.LocalStoreOp(store.src, buffer), store.location)
        publish_to_tma(b)
        b.insert(ttng.ArriveBarrierOp(single_buffer_view(b, self.full, region), count=1))
        for store in stores:
            Rewriter.erase_op(store)

    def store_tile(self, b: OpBuilder, index: SSAValue, phase: SSAValue, mapping: dict[SSAValue, SSAValue]) -> None:
        """The epilogue partition's side for one tile, at `b`: wait, TMA-store every
        buffer (indices through `mapping`), wait for the stores to read, release."""
        b.insert(ttng.WaitBarrierOp(single_buffer_view(b, self.full, index), phase))
        for store, buffers in self.buffers.items():
            buffer = single_buffer_view(b, buffers, index)
            indices = [mapping.get(v, v) for v in store.indices]
            b.insert(ttng.AsyncTMACopyLocalToGlobalOp(mapping.get(store.desc, store.desc), indices, buffer),
                     store.location)
        wait_stores_read(b)
        b.insert(ttng.ArriveBarrierOp(single_buffer_view(b, self.empty, index), count=1))


def channel_stores(tile: scf.ForOp) -> list[tt.DescriptorStoreOp]:
    return [op for op in epilogue_ops(tile) if isinstance(op, tt.DescriptorStoreOp)]
