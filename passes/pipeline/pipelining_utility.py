"""Loop and load predicates the pipeliner's phases share.

Follows Triton 3.6 `lib/Dialect/TritonGPU/Transforms/Pipeliner/PipeliningUtility.cpp`
(`loopHasDistGreaterThanOne`, `isOuterLoop`, `getNumStagesOrDefault`, `getCopyVecBytes`,
`canBeConvertedToAsyncLoad`, `getSharedEncoding`, `canBeAsyncLoad`) and `Utility.cpp`
(`getSharedEncIfAllUsersAreDotEnc`, `swizzleDotOperandLike`).

Differences: `copy_vec_bytes` handles the distributed layouts `to_linear_layout` knows (None
otherwise; callers then treat the load as not convertible); `shared_encoding` is the
pointer-load half of `getSharedEncoding` (a TMA load's encoding comes from its descriptor).
"""

from __future__ import annotations

from collections.abc import Iterable

from xdsl.dialects.builtin import TensorType
from xdsl.ir import Attribute, BlockArgument, Operation, SSAValue

from ttpipe.dialects import scf, tt
from ttpipe.dialects.ttg import ConvertLayoutOp, LocalAllocOp, LocalLoadOp
from ttpipe.dialects.ttg_attrs import DotOperandEncodingAttr, LinearEncodingAttr, SwizzledSharedEncodingAttr
from ttpipe.dialects.ttg_types import MemDescType
from ttpipe.passes.analysis.axis_info import ModuleAxisInfo
from ttpipe.passes.common.distributed_layouts import (
    DISTRIBUTED_IN_DIMS,
    REGISTER,
    contig_per_thread,
    cta_layout_of,
    dot_operand_order,
    layout_order,
    layout_thread_order,
    memory_order,
    nvidia_mma_tile,
    to_linear_layout,
)
from ttpipe.passes.common.ir import is_ancestor
from ttpipe.passes.common.mma_layouts import element_bit_width
from ttpipe.passes.common.linear_layout import divide_left
from ttpipe.passes.common.shared_layouts import (
    shared_layout,
    swizzled_shared_for_dot_operand,
    swizzled_shared_for_mma_operand,
)
from ttpipe.passes.pipeline.schedule import NUM_STAGES, get_int

CP_ASYNC_MIN_BYTES = 4
"""cp.async copies 4, 8 or 16 bytes; a load whose threads hold fewer contiguous bytes is
not worth making asynchronous."""

TMA_LOADS = (tt.DescriptorLoadOp, tt.DescriptorGatherOp)
LOADS = (tt.LoadOp, *TMA_LOADS)


# ------------------------------------------------------------------ loops


def loop_has_dist_greater_than_one(for_op: scf.ForOp) -> bool:
    """`loopHasDistGreaterThanOne`: the loop yields a block argument (an iteration argument
    carried over two iterations, or a value from outside), which the expander cannot take."""
    return any(isinstance(value, BlockArgument) for value in for_op.body.last_op.operands)


def num_stages_or_default(for_op: scf.ForOp, default: int) -> int:
    """`getNumStagesOrDefault`: the loop's `tt.num_stages`, else the pass option."""
    value = get_int(for_op, NUM_STAGES)
    return default if value is None else value


def is_defined_outside_loop(value: SSAValue, for_op: Operation) -> bool:
    """`LoopLikeOpInterface::isDefinedOutsideOfLoop`: the value's region is not the loop's
    nor nested in it."""
    scope = value.block.parent_op() if isinstance(value, BlockArgument) else value.owner.parent_op()
    return not is_ancestor(for_op, scope)


# ------------------------------------------------------------------ loads


def _gf2_preimages(targets: Iterable[tuple[int, ...]], bases: Iterable[tuple[int, ...]],
                   dim_bits: list[int]) -> list[int] | None:
    """For each target coordinate, the index whose bits select the `bases` that XOR to it
    (`invertAndCompose` onto one in-dim); None if one has no pre-image."""
    shifts, shift = [], 0
    for bits in dim_bits:
        shifts.append(shift)
        shift += bits

    def pack(coords: tuple[int, ...]) -> int:
        return sum(v << s for v, s in zip(coords, shifts))

    pivots: dict[int, tuple[int, int]] = {}
    for index, basis in enumerate(bases):
        vector, combo = pack(basis), 1 << index
        while vector:
            top = vector.bit_length() - 1
            if top not in pivots:
                pivots[top] = (vector, combo)
                break
            vector ^= pivots[top][0]
            combo ^= pivots[top][1]
    images = []
    for target in targets:
        vector, combo = pack(target), 0
        while vector:
            top = vector.bit_length() - 1
            if top not in pivots:
                return None
            vector ^= pivots[top][0]
            combo ^= pivots[top][1]
        images.append(combo)
    return images


def copy_vec_bytes(register_type: TensorType, shared_encoding: Attribute) -> int | None:
    """`getCopyVecBytes`: how many bytes each thread can copy at once from registers into a
    buffer of `shared_encoding` (`invertAndCompose` of the two layouts, then
    `getNumConsecutiveInOut`: the leading registers that land on consecutive offsets of one
    CTA's buffer, bounded by the alignment the other bases leave). None where a layout is not
    handled."""
    shape = list(register_type.get_shape())
    registers = to_linear_layout(shape, register_type.encoding)
    shared = shared_layout(shape, shared_encoding)
    if registers is None or shared is None:
        return None
    dim_bits = [max(size - 1, 0).bit_length() for size in shape]
    bases = [b for name in DISTRIBUTED_IN_DIMS if registers.has_in_dim(name) for b in registers.in_dim_bases(name)]
    images = _gf2_preimages(bases, shared.offset + shared.block, dim_bits)
    if images is None:
        return None
    offset_bits = len(shared.offset)  # an image's low bits select offset bases, its high bits block bases
    leading = min(len(registers.in_dim_bases(REGISTER)), offset_bits)
    consecutive = 0
    while consecutive < leading and images[consecutive] == 1 << consecutive:
        consecutive += 1
    other = 0
    for image in images[consecutive:]:
        other |= image & ((1 << offset_bits) - 1)
    trailing_zeros = (other & -other).bit_length() - 1 if other else 31
    elements = 1 << min(consecutive, trailing_zeros)
    return elements * element_bit_width(register_type.get_element_type()) // 8


def can_be_converted_to_async_load(load: tt.LoadOp, axis_info: ModuleAxisInfo) -> bool:
    """`canBeConvertedToAsyncLoad`: each thread reads at least 32 contiguous bits (the
    pointers' contiguity, bounded by the mask's constancy)."""
    ptr = load.ptr
    vec = axis_info.contiguity(ptr)
    if load.mask is not None:
        vec = min(vec, axis_info.mask_alignment(load.mask))
    ptr_type = ptr.type
    if isinstance(ptr_type, TensorType):
        width = vec * element_bit_width(ptr_type.get_element_type().pointeeType)
    else:
        width = element_bit_width(ptr_type.pointeeType)
    return width >= 32


def _memory_order(type_: Attribute) -> list[int] | None:
    """`getOrderForMemory(TensorOrMemDesc)`: a swizzled buffer's order, a tensor's heuristic one."""
    if isinstance(type_, MemDescType):
        return list(type_.encoding.order) if isinstance(type_.encoding, SwizzledSharedEncodingAttr) else None
    return memory_order(type_.encoding, type_.get_shape())


def shared_encoding_if_all_users_are_dot_operands(value: SSAValue) -> tuple[Attribute | None, bool]:
    """`getSharedEncIfAllUsersAreDotEnc`: the swizzled encoding every (transitive) user's
    conversion to a dot operand needs, and whether two users need different ones. Like
    Triton, the flag is reset on entry to each level of the recursion."""
    state = {"incompatible": False}

    def visit(value: SSAValue) -> SwizzledSharedEncodingAttr | None:
        state["incompatible"] = False
        found: SwizzledSharedEncodingAttr | None = None
        for use in value.uses:
            user = use.operation
            if len(user.results) != 1:
                return None
            result_type = user.results[0].type
            if isinstance(result_type, MemDescType):
                needed = result_type.encoding
                if not isinstance(needed, SwizzledSharedEncodingAttr) or visit(user.results[0]) is None:
                    return None
            else:
                if not isinstance(user, (LocalLoadOp, ConvertLayoutOp)):
                    return None
                needed = (_dot_operand_shared(value.type, result_type)
                          if isinstance(result_type.encoding, DotOperandEncodingAttr)
                          else _mma_microtile_shared(value.type, result_type))
                if needed is None:
                    return None
            if found is not None and found != needed:
                state["incompatible"] = True
                return None
            found = needed
        return found

    return visit(value), state["incompatible"]


def _dot_operand_shared(src_type: Attribute, dst_type: TensorType) -> SwizzledSharedEncodingAttr | None:
    """The swizzled buffer a conversion of `src_type` into a dot operand reads from."""
    encoding = dst_type.encoding
    if not isinstance(encoding, DotOperandEncodingAttr):
        return None
    cta = cta_layout_of(encoding)
    order = _memory_order(src_type)
    if cta is None or order is None:
        return None
    return swizzled_shared_for_dot_operand(encoding, src_type.get_shape(), order, cta,
                                           element_bit_width(src_type.get_element_type()), need_trans=False)


def _mma_microtile_shared(src_type: Attribute, dst_type: TensorType) -> SwizzledSharedEncodingAttr | None:
    """`swizzleDotOperandLike`: where `dst_type`'s registers hold MMA operand microtiles (its
    thread order an operand's with K contiguous, kWidth elements a thread along it, then 4
    lanes, then 8 lanes along the next dim: `nvidiaMmaTile` divides its layout on the
    left), the swizzled buffer that operand reads from; else None."""
    shape = dst_type.get_shape()
    layout = to_linear_layout(shape, dst_type.encoding)
    if layout is None or len(shape) < 2:
        return None
    order = layout_thread_order(layout)
    rank = len(order)
    op_idx = next((i for i in (0, 1) if dot_operand_order(i, rank, k_contig=True) == order), None)
    if op_idx is None:
        return None
    k_width = contig_per_thread(layout)[order[0]]
    tile_shape = [1] * rank
    tile_shape[order[0]], tile_shape[order[1]] = 4 * k_width, 8
    if divide_left(layout, nvidia_mma_tile(tile_shape, k_width, order, list(range(rank)))) is None:
        return None
    # Triton's FIXME: a linear encoding has no CTA layout of its own, so the source's is taken
    cta = cta_layout_of(src_type.encoding if isinstance(dst_type.encoding, LinearEncodingAttr) else dst_type.encoding)
    if cta is None:
        return None
    return swizzled_shared_for_mma_operand(op_idx, k_width, shape, order, cta,
                                           element_bit_width(dst_type.get_element_type()), need_trans=False)


def local_alloc_encoding(op: Operation) -> tuple[Attribute | None, bool]:
    """The encoding of the `ttg.local_alloc`s using `op`'s result, and whether they agree."""
    found = None
    for use in op.results[0].uses:
        if isinstance(use.operation, LocalAllocOp):
            encoding = use.operation.result.type.encoding
            if found is not None and encoding != found:
                return found, False
            found = encoding
    return found, True


def shared_encoding(load: tt.LoadOp) -> Attribute | None:
    """`getSharedEncoding` of a pointer load: its `local_alloc` users' encoding, else the one
    its dot-operand users need, else an unswizzled buffer in the tensor's order."""
    encoding, _ = local_alloc_encoding(load)
    if encoding is not None:
        return encoding
    encoding, _ = shared_encoding_if_all_users_are_dot_operands(load.result)
    if encoding is not None:
        return encoding
    type_ = load.result.type
    layout = to_linear_layout(type_.get_shape(), type_.encoding)
    cta = cta_layout_of(type_.encoding)
    if layout is None or cta is None:
        return None
    return SwizzledSharedEncodingAttr.get(1, 1, 1, layout_order(layout), cta)


def can_be_async_load(op: Operation) -> bool:
    """`canBeAsyncLoad`: TMA loads always; pointer loads when cp.async copies at least 4 bytes."""
    if isinstance(op, TMA_LOADS):
        return True
    encoding = shared_encoding(op)
    if encoding is None:
        return False
    vec_bytes = copy_vec_bytes(op.result.type, encoding)
    return vec_bytes is not None and vec_bytes >= CP_ASYNC_MIN_BYTES
