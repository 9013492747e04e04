"""The TMA-store epilogue of a warp-specialized persistent kernel (seed 003): each tile's
result goes registers -> a shared staging tile (`local_store`, in the descriptor's swizzled
encoding) -> global memory by TMA store, and the store is waited for only when its staging
tile is about to be rewritten, by the next tile's epilogue, not right after it is issued.

Triton's TMA lowering turns a `tt.descriptor_store` into: allocate a staging tile, store,
fence, TMA store, `async_tma_store_wait {pendings = 0}`: the warpgroup stalls on every
tile's store before it can start the next tile's mainloop. Here each consumer region owns
one staging tile per `tt.descriptor_store` of the epilogue, allocated with the ring (so it
lives across tiles), and each tile's epilogue runs:

    async_tma_store_wait {pendings = 0}   // the previous tile's stores have read their tiles
    gpu.barrier                           // ... as every warp of the warpgroup now knows
    local_store %value, %staging          // this tile's result, swizzled
    fence_async_shared                    // generic-proxy writes visible to the TMA (async proxy)
    gpu.barrier                           // every warp's rows written before the TMA reads them
    async_tma_copy_local_to_global %desc[%offsets] %staging

and after the region's tile loop one `async_tma_store_wait {pendings = 0}`, so no store
still reads shared memory when the kernel's warps join and the tiles are freed.

Why the first barrier: a TMA store is issued by one elected thread per copy (Triton splits
a tile wider than the 128-byte swizzle into several copies, issued by different warps), and
`cp.async.bulk.wait_group.read` only waits for the calling thread's own bulk groups; the
barrier makes every issuing thread's wait precede every warp's rewrite. `gpu.barrier` in a
partition region syncs only that region's warps (a named barrier per partition).

The wait for tile t's store thus comes a whole mainloop later, at tile t + 1's epilogue,
when the store has long finished: a ring of one staging tile per region, its "empty"
signal being the bulk-group wait. (A deeper ring, waiting `pendings = 1`, would need a
second 32 KB tile per region and store where the ring's stages are worth more.)
"""

from __future__ import annotations

from xdsl.ir import Attribute, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from ttpipe.dialects import gpu, tt, ttg, ttng
from ttpipe.passes.common.builder import OpBuilder


def wait_stores_read(b: OpBuilder, location: Attribute | None = None) -> None:
    """The TMA stores issued so far have read their shared tiles, as every warp of the
    partition knows: `async_tma_store_wait {pendings = 0}`, then `gpu.barrier`."""
    b.insert(ttng.TMAStoreWaitOp(pendings=0), location)
    b.insert(gpu.BarrierOp(), location)


def publish_to_tma(b: OpBuilder, location: Attribute | None = None) -> None:
    """The partition's `local_store`s visible to the TMA (async proxy) and done in every
    warp before one thread issues the store: `fence_async_shared`, then `gpu.barrier`."""
    b.insert(ttng.FenceAsyncSharedOp(b_cluster=False), location)
    b.insert(gpu.BarrierOp(), location)


def store_through_staging(store: tt.DescriptorStoreOp, staging: SSAValue) -> None:
    """Replace the epilogue's `store` (a clone in a consumer region) by the sequence of the
    module docstring, through the region's `staging` tile."""
    location = store.location
    b = OpBuilder(InsertPoint.before(store), location)
    wait_stores_read(b, location)
    b.insert(ttg.LocalStoreOp(store.src, staging), location)
    publish_to_tma(b, location)
    b.insert(ttng.AsyncTMACopyLocalToGlobalOp(store.desc, list(store.indices), staging), location)
    Rewriter.erase_op(store)


def drain(b: OpBuilder) -> None:
    """After a region's tile loop: its last stores have read their staging tiles."""
    b.insert(ttng.TMAStoreWaitOp(pendings=0))
