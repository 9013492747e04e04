"""Asynchronous TMA stores in loops: a port of Triton 3.6's `pipelineTMAStores`
(lib/Dialect/TritonGPU/Transforms/Pipeliner/TMAStoresPipeline.cpp).

`pipeline_tma_stores(loop)` rewrites each descriptor store of the loop body (not of
nested loops) into a store through shared memory that the TMA engine drains while the
loop goes on:

    tt.descriptor_store %desc[%i, %j], %src
  becomes
    ttng.async_tma_store_wait {pendings = 0}      // the buffer's previous store has read it
    ttg.local_store %src, %buffer
    ttng.fence_async_shared {bCluster = false}    // generic-proxy writes before the TMA reads
    ttng.async_tma_copy_local_to_global %desc[%i, %j] %buffer

(`tt.descriptor_reduce` becomes `ttng.async_tma_reduce`, `tt.descriptor_scatter`
`ttng.async_tma_scatter`). Stores of the same shape and element type share one buffer,
allocated before the loop; after it, one `async_tma_store_wait {pendings = 0}` and a
`ttg.local_dealloc` per store (Triton deallocates a shared buffer once per store too).

When a store uses a descriptor made in the kernel (not a kernel argument), the
`tt.make_tensor_descriptor`s of the loop write their descriptors into a ring of two
global-scratch slots (`lower_loops.lower_tma_descriptors`, as Triton's
`lowerTMADescriptorCreation`), since a TMA store may still read the previous one.

Not handled (the loop's stores stay synchronous): a device-side descriptor made in a
region nested in the loop body, and a store whose rank differs from its descriptor's
(`updateEncodingForShape` would then adapt the CTA layout). Triton leaves the replaced
`tt.make_tensor_descriptor` in the loop, dead; `lower_tma_descriptors` erases it.
"""

from __future__ import annotations

from xdsl.dialects.builtin import StringAttr, i32
from xdsl.ir import BlockArgument, Operation, SSAValue
from xdsl.rewriter import InsertPoint

from ttpipe.dialects import scf, tt, ttg, ttng
from ttpipe.dialects.ttg_attrs import NVMMASharedEncodingAttr, SharedMemorySpaceAttr
from ttpipe.dialects.ttg_types import MemDescType
from ttpipe.passes.common.builder import OpBuilder
from ttpipe.passes.pipeline.lower_loops import lower_tma_descriptors
from ttpipe.passes.pipeline.schedule import CoarseSchedule

DESCRIPTOR_RING_STAGES = 3
"""Triton multi-buffers in-loop descriptors as for a 3-stage schedule: two slots."""

STORE_OPS = (tt.DescriptorStoreOp, tt.DescriptorReduceOp, tt.DescriptorScatterOp)
"""Triton's `DescriptorStoreLikeOpInterface`."""


def tma_stores(loop: scf.ForOp) -> list[Operation]:
    """The descriptor stores of the loop body, in pre-order, not looking into nested loops."""
    found: list[Operation] = []

    def visit(op: Operation) -> None:
        if isinstance(op, STORE_OPS):
            found.append(op)
            return
        if isinstance(op, scf.ForOp):
            return
        for region in op.regions:
            for block in region.blocks:
                for nested in block.ops:
                    visit(nested)

    for op in loop.body.ops:
        visit(op)
    return found


def is_host_side_descriptor(value: SSAValue) -> bool:
    """A descriptor passed to the kernel (an argument of a public function)."""
    if not isinstance(value, BlockArgument):
        return False
    func = value.block.parent_op()
    if not isinstance(func, tt.FuncOp):
        return False
    visibility = func.sym_visibility
    return visibility is None or visibility == StringAttr("public")


def buffer_type(store: Operation) -> MemDescType | None:
    """The shared buffer a store goes through, of the stored tensor's shape with the
    descriptor's encoding (Triton's `getEncodingFromDescriptor`; a scatter's rows differ
    from its descriptor's block, the rank does not), or None when the ranks differ."""
    block = store.desc.type.blockType
    src = store.src.type
    if block.encoding is None or len(block.get_shape()) != len(src.get_shape()):
        return None
    return MemDescType.get(src.get_shape(), src.element_type, block.encoding, SharedMemorySpaceAttr(),
                           mutable=True)


def _is_fp4_padded(encoding) -> bool:
    return isinstance(encoding, NVMMASharedEncodingAttr) and encoding.fp4_padded


def store_async(store: Operation, buffer: SSAValue) -> None:
    """Replace one descriptor store by a wait, a copy into `buffer`, a fence and a TMA copy."""
    builder = OpBuilder(InsertPoint.before(store), store.location)
    builder.insert(ttng.TMAStoreWaitOp(pendings=0))
    builder.insert(ttg.LocalStoreOp(store.src, buffer))
    builder.insert(ttng.FenceAsyncSharedOp(b_cluster=False))
    if isinstance(store, tt.DescriptorScatterOp):
        builder.insert(ttng.AsyncTMAScatterOp(store.desc, store.x_offsets, store.y_offset, buffer))
    else:
        indices = list(store.indices)
        if _is_fp4_padded(store.desc.type.blockType.encoding):
            # Triton's `translateTMAIndices` doubles the innermost index of fp4-padded
            # boxes, but the copy is built from the original indices: the product stays
            # unused, as in Triton's output.
            builder.muli(indices[-1], builder.constant(2, i32))
        if isinstance(store, tt.DescriptorStoreOp):
            builder.insert(ttng.AsyncTMACopyLocalToGlobalOp(store.desc, indices, buffer))
        else:
            builder.insert(ttng.AsyncTMAReduceOp(store.desc, indices, buffer, kind=store.kind))
    store.detach()
    store.erase()


def pipeline_tma_stores(loop: scf.ForOp) -> bool:
    """Make the loop's TMA stores asynchronous; whether anything changed."""
    stores = tma_stores(loop)
    if not stores:
        return False
    if any(buffer_type(store) is None for store in stores):
        return False
    device_side = any(not is_host_side_descriptor(store.desc) for store in stores)
    if device_side and any(isinstance(op, tt.MakeTensorDescOp) and op.parent_op() is not loop
                           for op in loop.walk()):
        return False

    buffers: dict[tuple, SSAValue] = {}
    buffer_of: list[tuple[Operation, SSAValue]] = []
    for store in stores:
        src = store.src.type
        key = (tuple(src.get_shape()), src.element_type)
        if key not in buffers:
            alloc = OpBuilder(InsertPoint.before(loop), store.location).insert(
                ttg.LocalAllocOp(result_type=buffer_type(store)))
            buffers[key] = alloc.result
        buffer_of.append((store, buffers[key]))
    for store, buffer in buffer_of:
        store_async(store, buffer)

    after = OpBuilder(InsertPoint.after(loop), loop.location)
    after.insert(ttng.TMAStoreWaitOp(pendings=0))
    for _, buffer in buffer_of:
        after.insert(ttg.LocalDeallocOp(buffer))
    if device_side:
        lower_tma_descriptors(loop, CoarseSchedule(DESCRIPTOR_RING_STAGES))
    return True
