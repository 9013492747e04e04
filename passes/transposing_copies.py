"""`ttpipe-transposing-copies`: a tile copied through registers from one shared-memory layout
to another that is contiguous along a different dim is held, between the two, in registers
laid out for both: each thread a 16-byte vector along the destination's contiguous dim, the
lanes of a warp along the source's.

Why. wgmma reads 32-bit (tf32) and 8-bit operands from shared memory K-major only. Where the
kernel's B is stored N-major (a row-major `[K, N]` matrix, the common case), Triton's
AccelerateMatmul copies it: after the pipeliner, each iteration reads the stage its TMA load
filled (`ttg.local_load`, N-contiguous) and writes it K-major (`ttg.local_alloc`) for the
wgmma. The registers between keep the load's layout (`sizePerThread = [1, 4]` along N, lanes
along N), so each thread stores its four elements one by one into four different rows of the
K-major tile. With the 128-byte swizzle those rows fall on two 16-byte chunks only: the 32
lanes of a store meet in 2 banks, a 16-way bank conflict, 16 stores a thread each iteration.

The layout built here instead (rank 2, `s` the source's contiguous dim, `d` the
destination's):
  - `sizePerThread[d] = 16 bytes / element` (4 for 32-bit elements), capped by the tile;
    one element along `s`: each thread writes one 16-byte vector into one row of the
    destination;
  - lanes along `s` first (`min(32, shape[s])`), the rest along `d`: the lanes of a load read
    consecutive elements of one source row, which any swizzle keeps in distinct banks; the
    lanes of a store write consecutive destination rows, whose 16-byte chunks the swizzle
    (chunk XOR row mod 8, for 128 bytes) spreads over all 32 banks;
  - warps along `d`, then `s`; `order = [s, d]`.
For the tf32 B tile `32 x 128` at 8 warps: `sizePerThread = [4, 1]`, `threadsPerWarp =
[1, 32]`, `warpsPerCTA = [8, 1]`. The SASS of a copy: 4 `LDSM` and 4 `STS.128` a thread
against 4 `LDS.128` and 16 conflicting `STS` (`test/passes/test_transposing_copies_compile.py`).

Algorithm, on the final TTGIR: for every `ttg.local_load` of a 2-D memdesc whose result has
one use, a `ttg.local_alloc` of it or a `ttg.local_store` of it, where the destination's
contiguous dim is not the source's (`contiguous_dim`: an NVMMA encoding's `transposed`, a
swizzled encoding's `order`) and the registers hold one element along the destination's
contiguous dim (`sizePerThread[d] == 1` of a blocked layout: the store scatters), the
local_load's result takes the layout above. Nothing else reads those registers, so no other
op changes; the copy moves the same elements to the same places.

The copy double-buffered, so that the wgmma stays in flight. The copy is an immutable
`ttg.local_alloc` each iteration, which Triton's pipeliner cannot leave a wgmma reading across
iterations: it waits for the wgmma (`warp_group_dot_wait {pendings = 0}`) right after issuing
it, and the next iteration's copy, TMA wait and wgmma issue all wait behind it. Where the copy
is read by the loop's one wgmma and nothing else, and that wait is the loop's only one:
  1. a buffer of two slots of the copy's memdesc is allocated before the loop (and freed
     after it), where the function's shared memory (the sum of its allocations, an upper
     bound on what Triton's allocator packs) leaves room; iteration j writes slot j mod 2
     (`ttg.local_store` into `ttg.memdesc_index`), which the wgmma reads;
  2. where the wgmma may stay in flight by the pipeliner's rules (`wgmma.carried_accumulator_index`
     on the value the flush forwards: its result only feeds the next iteration's wgmma as
     its accumulator; `wgmma.operand_is_multi_buffered`: its other operand a ring stage or a
     buffer from before the loop), the flush after it goes and the
     pipeliner's own waits are placed (`wgmma.insert_async_waits_in_loop`): `pendings = 1`
     after the wgmma, one flush after the loop. Where it may not, nothing changes.
Correctness: iteration j + 1 writes the slot wgmma j - 1 read; each warpgroup has waited for
wgmma j - 1 (`pendings = 1` after wgmma j) before it, and Triton's barrier analysis puts a CTA
barrier between a wgmma's read of the buffer and the next write to it, so the other
warpgroup's wgmma j - 1 is complete too. The fence Triton put before the wgmma
(`fence_async_shared`, for the copy's generic-proxy writes) stays between store and wgmma.
The TMA stages the wgmma reads are refilled after the wait, as for any pipelined wgmma.

Left alone: other register layouts (an MMA or dot-operand layout is some other op's), copies
whose registers have other readers, ranks other than 2 (a batched tile's leading dim), and
copies from global memory (`ttg.async_copy_global_to_local`, whose pointer layout reaches
back into the loop's address arithmetic).

Remarks, in program order: `transposing copy: registers laid out for both shared layouts
(sizePerThread [...], threadsPerWarp [...])` at each copy changed.
"""

from __future__ import annotations

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, TensorType, i32
from xdsl.ir import Operation
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from ttpipe.dialects import scf, ttg
from ttpipe.dialects.ttg_attrs import BlockedEncodingAttr, SharedMemorySpaceAttr
from ttpipe.dialects.ttg_types import MemDescType
from ttpipe.passes.common.builder import OpBuilder
from ttpipe.passes.common.diagnostics import emit_remark
from ttpipe.passes.common.dot_rewrite import with_encoding
from ttpipe.passes.common.hardware import SM90_MAX_SHARED_MEMORY_PER_BLOCK
from ttpipe.passes.common.ir import enclosing_function, iteration_index
from ttpipe.passes.common.mma_layouts import element_bit_width
from ttpipe.passes.common.shared_layouts import allocation_bytes, contiguous_dim
from ttpipe.passes.common.target import num_warps
from ttpipe.passes.pipeline.wgmma import (
    body_dots,
    body_waits,
    carried_accumulator_index,
    insert_async_waits_in_loop,
    insert_wait,
    operand_is_multi_buffered,
    pendings,
)

COPY_SLOTS = 2
"""Slots of a double-buffered copy: the one the wgmma in flight reads, the one being written."""
SHARED_VECTOR_BYTES = 16
"""The widest shared-memory access of one thread (`st.shared.v4.b32`)."""
LANES = 32


def copy_writer(load: ttg.LocalLoadOp) -> ttg.LocalAllocOp | ttg.LocalStoreOp | None:
    """The op writing the local_load's registers to shared memory, where that is their only use."""
    uses = list(load.result.uses)
    if len(uses) != 1:
        return None
    user = uses[0].operation
    if isinstance(user, ttg.LocalAllocOp) or (isinstance(user, ttg.LocalStoreOp) and uses[0].index == 0):
        return user
    return None


def written_type(writer: ttg.LocalAllocOp | ttg.LocalStoreOp) -> MemDescType:
    return writer.result.type if isinstance(writer, ttg.LocalAllocOp) else writer.dst.type


def scatters(registers: TensorType, destination_dim: int) -> bool:
    """The registers are a blocked layout with one element a thread along `destination_dim`:
    each element is its own store."""
    encoding = registers.encoding
    return isinstance(encoding, BlockedEncodingAttr) and encoding.size_per_thread[destination_dim] == 1


def copy_layout(registers: TensorType, source_dim: int, destination_dim: int, warps: int) -> BlockedEncodingAttr:
    """The module docstring's layout: a 16-byte vector a thread along `destination_dim`, lanes
    along `source_dim` first, warps along `destination_dim` first."""
    shape = registers.get_shape()
    size, threads, warps_per_cta = [1, 1], [1, 1], [1, 1]
    size[destination_dim] = max(1, min(SHARED_VECTOR_BYTES * 8 // element_bit_width(registers.element_type),
                                       shape[destination_dim]))
    threads[source_dim] = min(LANES, shape[source_dim])
    threads[destination_dim] = LANES // threads[source_dim]
    rows = max(1, shape[destination_dim] // (size[destination_dim] * threads[destination_dim]))
    warps_per_cta[destination_dim] = min(warps, rows)
    warps_per_cta[source_dim] = warps // warps_per_cta[destination_dim]
    return BlockedEncodingAttr.get(size, threads, warps_per_cta, [source_dim, destination_dim],
                                   registers.encoding.cta_layout)


def shared_bytes(func: Operation) -> int:
    """The function's shared memory if no two allocations shared space: an upper bound. (Not
    `stream_loops.allocated_shared_memory`, which counts only the buffers allocated empty:
    a copy of registers, such as an epilogue's staging, takes its space too.)"""
    return sum(allocation_bytes(op.result.type) for op in func.walk() if isinstance(op, ttg.LocalAllocOp))


def double_buffered(copy: ttg.LocalAllocOp) -> bool:
    """Steps 1-2 of the module docstring for the copy `copy` (an immutable `local_alloc` of
    registers); True where it now has two slots and its wgmma stays in flight."""
    loop = copy.parent_op()
    if not isinstance(loop, scf.ForOp) or copy.src is None or loop.body.args[0].type != i32:
        return False  # (memdesc_index takes an i32 slot)
    readers = {use.operation for use in copy.result.uses}
    dots, waits = body_dots(loop), body_waits(loop)
    if len(dots) != 1 or len(waits) != 1 or dots[0] not in readers or not readers <= {dots[0], waits[0]}:
        return False
    dot, flush = dots[0], waits[0]
    other_operand = dot.a if dot.b is copy.result else dot.b
    if pendings(flush) != 0 or flush.prev_op is not dot or dot.d not in flush.inputs \
            or not operand_is_multi_buffered(other_operand, loop):
        return False
    index = carried_accumulator_index(dot, flush.results[list(flush.inputs).index(dot.d)], loop)
    copy_type = copy.result.type
    slot_type = MemDescType.get(copy_type.get_shape(), copy_type.element_type, copy_type.encoding,
                                SharedMemorySpaceAttr(), mutable=True)
    slots_type = MemDescType.get([COPY_SLOTS, *copy_type.get_shape()], copy_type.element_type, copy_type.encoding,
                                 SharedMemorySpaceAttr(), mutable=True)
    grown = shared_bytes(enclosing_function(loop)) + allocation_bytes(slots_type) - allocation_bytes(copy_type)
    if index is None or grown > SM90_MAX_SHARED_MEMORY_PER_BLOCK:
        return False
    # the flush goes: its results are the values it forwarded
    for result, forwarded in zip(flush.results, flush.inputs):
        result.replace_all_uses_with(forwarded)
    Rewriter.erase_op(flush)
    slots = OpBuilder(InsertPoint.before(loop), loop.location).insert(ttg.LocalAllocOp(result_type=slots_type)).result
    in_body = OpBuilder(InsertPoint.before(copy), copy.location)
    slot_index = in_body.remsi(iteration_index(in_body, loop), in_body.constant(COPY_SLOTS, i32))
    slot = in_body.insert(ttg.MemDescIndexOp(slots, slot_index, result_type=slot_type)).result
    in_body.insert(ttg.LocalStoreOp(copy.src, slot))
    copy.result.replace_all_uses_with(slot)
    Rewriter.erase_op(copy)
    insert_async_waits_in_loop(loop, {dot: index})
    after = insert_wait(loop, loop.parent_block(), loop.location, 0, [loop.results[index]])
    Rewriter.insert_op(ttg.LocalDeallocOp(slots), InsertPoint.after(after))
    return True


class TransposingCopies(ModulePass):
    """Copies between shared layouts of different contiguous dims held in registers laid out for both.

    Before (a tf32 wgmma's B, N-major in its TMA stage, K-major for the wgmma):

        %b = ttg.local_load %stage : !ttg.memdesc<32x128xf32, #nvmma_n> -> tensor<32x128xf32, #blocked_n>
        %k = ttg.local_alloc %b : (tensor<32x128xf32, #blocked_n>) -> !ttg.memdesc<32x128xf32, #nvmma_k>

    After (`#blocked_k`: sizePerThread [4, 1], threadsPerWarp [1, 32], warpsPerCTA [8, 1]):

        %b = ttg.local_load %stage : !ttg.memdesc<32x128xf32, #nvmma_n> -> tensor<32x128xf32, #blocked_k>
        %k = ttg.local_alloc %b : (tensor<32x128xf32, #blocked_k>) -> !ttg.memdesc<32x128xf32, #nvmma_k>

    See `ttpipe.passes.transposing_copies` for the algorithm.
    """

    name = "ttpipe-transposing-copies"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for load in [inner for inner in op.walk() if isinstance(inner, ttg.LocalLoadOp)]:
            writer = copy_writer(load)
            source, registers = load.src.type, load.result.type
            if writer is None or len(source.get_shape()) != 2:
                continue
            source_dim = contiguous_dim(source.encoding, 2)
            destination_dim = contiguous_dim(written_type(writer).encoding, 2)
            if source_dim is None or destination_dim is None or source_dim == destination_dim:
                continue
            done = []
            if scatters(registers, destination_dim):
                layout = copy_layout(registers, source_dim, destination_dim, num_warps(load))
                Rewriter.replace_value_with_new_type(load.result, with_encoding(registers, layout))
                done.append("registers laid out for both shared layouts (sizePerThread "
                            f"[{', '.join(map(str, layout.size_per_thread))}], threadsPerWarp "
                            f"[{', '.join(map(str, layout.threads_per_warp))}])")
            if isinstance(writer, ttg.LocalAllocOp) and double_buffered(writer):
                done.append(f"{COPY_SLOTS} slots, its wgmma in flight across iterations")
            if done:
                emit_remark(load, "transposing copy: " + "; ".join(done))
