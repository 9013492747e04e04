"""Linear layouts of shared-memory encodings, and the memdesc view types built from them.

A shared layout maps the in-dims `offset` (elements within a CTA's buffer) and `block`
(the CTA) onto `dim0..dim<rank-1>`. Here a layout is a `SharedLayout`: the offset and
block basis vectors, each a tuple in `dim0..` order, in the order Triton's
`LinearLayout` keeps them. Follows Triton 3.6
`lib/Dialect/TritonGPU/IR/LinearLayoutConversions.cpp` (`swizzledSharedToLinearLayout`,
`getCoreMatrixLinearLayout`, `nvmmaSharedToLinearLayout`), `lib/Tools/LayoutUtils.cpp`
(`reshapeLayout`, `transposeLinearLayout`) and the shared-encoding cases of
`inferTransOpEncoding` (`Dialect.cpp`) and `MemDescReshapeOp::inferReturnTypes` (`Ops.cpp`).

Differences: no padded shared encoding; callers leave the IR as it is when they get `None`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.ir import Attribute

from ttpipe.dialects.ttg_attrs import (
    AMDMfmaEncodingAttr,
    AMDWmmaEncodingAttr,
    CTAEncodingAttr,
    NvidiaMmaEncodingAttr,
    NVMMASharedEncodingAttr,
    SharedLinearEncodingAttr,
    SwizzledSharedEncodingAttr,
)
from ttpipe.dialects.ttg_types import MemDescType
from ttpipe.passes.common.distributed_layouts import BLOCK, combine_cta_cga_with_shape
from ttpipe.passes.common.linear_layout import LinearLayout, standard_out_dims
from ttpipe.passes.common.mma_layouts import element_bit_width

OFFSET = "offset"
"""A shared layout's in-dim over the elements of one CTA's buffer."""

TMA_MAX_BLOCK_DIM = 256
"""TMA boxes are at most 256 elements along each dimension."""


@dataclass(frozen=True)
class SharedLayout:
    offset: tuple[tuple[int, ...], ...]
    block: tuple[tuple[int, ...], ...] = ()


def _identity_bases(size: int, dim: int, rank: int, start: int = 1) -> list[tuple[int, ...]]:
    """Bases of `identity1D(size)` onto `dim`, scaled by `start` (what `*=` appends)."""
    bases, value = [], start
    while value < start * size:
        bases.append(tuple(value if d == dim else 0 for d in range(rank)))
        value *= 2
    return bases


def _out_sizes(bases: Sequence[Sequence[int]], rank: int) -> list[int]:
    """Each out-dim's size: the power of two above every basis value (`LinearLayout`'s rule)."""
    sizes = [1] * rank
    for basis in bases:
        for d, v in enumerate(basis):
            while sizes[d] <= v:
                sizes[d] *= 2
    return sizes


def _grow_to(bases: list[tuple[int, ...]], sizes: list[int], shape: Sequence[int],
             dims: Sequence[int]) -> None:
    """`ensureLayoutNotSmallerThan`: append identity bases, dim by dim in `dims` order."""
    rank = len(shape)
    for d in dims:
        if sizes[d] < shape[d]:
            bases += _identity_bases(shape[d] // sizes[d], d, rank, sizes[d])
            sizes[d] = shape[d]


def reshape_bases(bases: Sequence[Sequence[int]], src_shape: Sequence[int],
                  dst_shape: Sequence[int]) -> tuple[tuple[int, ...], ...]:
    """`reshapeLayout`: flatten each basis row-major over `src_shape`, split it over `dst_shape`."""
    out = []
    for basis in bases:
        flat = 0
        for v, size in zip(basis, src_shape):
            flat = flat * size + v
        coords = []
        for size in reversed(dst_shape):
            coords.append(flat % size)
            flat //= size
        out.append(tuple(reversed(coords)))
    return tuple(out)


def transpose_bases(bases: Sequence[Sequence[int]], order: Sequence[int]) -> tuple[tuple[int, ...], ...]:
    """`transposeLinearLayout`: result dim i is source dim `order[i]`."""
    return tuple(tuple(b[i] for i in order) for b in bases)


def transpose_cta_layout(layout: CTAEncodingAttr, order: Sequence[int]) -> CTAEncodingAttr:
    return CTAEncodingAttr.get(transpose_bases(layout.block_bases, order), layout.rank)


def contiguous_dim(encoding: Attribute, rank: int) -> int | None:
    """The dim along which a shared encoding stores consecutive elements (None for others)."""
    if isinstance(encoding, NVMMASharedEncodingAttr):
        return 0 if encoding.transposed else rank - 1
    if isinstance(encoding, SwizzledSharedEncodingAttr):
        return encoding.order[0]
    return None


def tma_block_shape(enc: NVMMASharedEncodingAttr, shape: Sequence[int]) -> list[int]:
    """`getTMABlockShape(..., packedSize=true)`: the TMA box an NVMMA shared buffer is tiled by."""
    block = [min(s, TMA_MAX_BLOCK_DIM) for s in shape]
    contig = contiguous_dim(enc, len(block))
    if enc.fp4_padded:
        block[contig] = min(shape[contig] * 2, TMA_MAX_BLOCK_DIM)
    if enc.swizzling_byte_width:
        contig_size = 8 * enc.swizzling_byte_width // enc.element_bit_width
        if block[contig] < contig_size:
            raise ValueError("block shape too small for the NVMMA swizzle width")
        block[contig] = contig_size
    if enc.fp4_padded:
        block[contig] //= 2
    return block


def _core_matrix_bases(enc: NVMMASharedEncodingAttr) -> tuple[list[tuple[int, int]], int, int]:
    """`getCoreMatrixLinearLayout`: one 8-row swizzle tile, with its row and column counts."""
    tile_cols = 8 * max(16, enc.swizzling_byte_width) // enc.element_bit_width
    bases: list[tuple[int, int]] = []
    col = 1
    while col < tile_cols:
        bases.append((0, col // 16 * 8 + col % 8) if enc.fp4_padded else (0, col))
        col *= 2
    for row in (1, 2, 4):
        swizzled = enc.vec * ((row // enc.per_phase) % enc.max_phase)
        bases.append((row, swizzled // 16 * 8 + swizzled % 8) if enc.fp4_padded else (row, swizzled))
    return bases, 8, tile_cols


def _nvmma_offset_bases(enc: NVMMASharedEncodingAttr, shape: Sequence[int]) -> tuple[tuple[int, ...], ...]:
    rank = len(shape)
    tma = tma_block_shape(enc, shape)
    if enc.swizzling_byte_width == 0:
        bases: list[tuple[int, ...]] = []
        sizes = [1] * rank
        for d in range(rank - 1, -1, -1):
            bases += _identity_bases(tma[d], d, rank)
            sizes[d] = tma[d]
        _grow_to(bases, sizes, shape, range(rank - 1, -1, -1))
        return tuple(bases)
    collapsed = [math.prod(tma[:-1]), tma[-1]]
    if enc.transposed:
        collapsed.reverse()
    tile, rows, cols = _core_matrix_bases(enc)
    if collapsed[0] < rows or collapsed[1] * (2 if enc.fp4_padded else 1) < cols:
        raise ValueError("illegal NVMMA shared layout for this shape")
    bases2d: list[tuple[int, ...]] = list(tile)
    _grow_to(bases2d, [rows, cols], collapsed, (0, 1))
    pre_shape = tma[1:] + tma[:1] if enc.transposed else tma
    bases = reshape_bases(bases2d, collapsed, pre_shape)
    if enc.transposed:
        bases = transpose_bases(bases, [rank - 1, *range(rank - 1)])
    out = list(bases)
    _grow_to(out, _out_sizes(out, rank), shape, range(rank))
    return tuple(out)


def shared_layout(shape: Sequence[int], enc: Attribute) -> SharedLayout | None:
    """`toLinearLayout(shape, enc)` for a shared encoding, or None where not handled.

    `shape` is the allocation shape's last `rank` dimensions, as `toLinearLayout(MemDescType)`
    passes it. A CTA-split encoding lays out each CTA's share of `shape` (`getShapePerCTA`)
    and spreads the shares over the CGA (`combineCtaCgaWithShape`)."""
    if isinstance(enc, SharedLinearEncodingAttr):
        return SharedLayout(enc.offset_bases, enc.block_bases)
    if not isinstance(enc, (NVMMASharedEncodingAttr, SwizzledSharedEncodingAttr)):
        return None
    cga = enc.cta_layout
    per_cta = [max(1, size // split) for size, split in zip(shape, cga.cta_split_num)]
    if isinstance(enc, SwizzledSharedEncodingAttr):
        offset = _swizzled_offset_bases(enc, per_cta)
    else:
        try:
            offset = _nvmma_offset_bases(enc, per_cta)
        except ValueError:
            return None
    if cga.is_default:
        return SharedLayout(offset)
    per_cta_layout = LinearLayout({OFFSET: offset}, standard_out_dims(len(shape)))
    whole = combine_cta_cga_with_shape(per_cta_layout, cga, shape)
    return SharedLayout(whole.in_dim_bases(OFFSET), whole.in_dim_bases(BLOCK))


def _swizzled_offset_bases(enc: SwizzledSharedEncodingAttr, shape: Sequence[int]) -> tuple[tuple[int, ...], ...]:
    """`swizzledSharedToLinearLayout`'s offsets within one CTA's `shape`."""
    rank = len(shape)
    if rank == 1:
        return tuple(_identity_bases(shape[0], 0, 1))
    col_dim, row_dim = enc.order[0], enc.order[1]
    bases = []
    for col in _powers_below(shape[col_dim]):
        bases.append(_point(rank, {col_dim: col}))
    for row in _powers_below(shape[row_dim]):
        swizzled = (enc.vec * ((row // enc.per_phase) % enc.max_phase)) % shape[col_dim]
        bases.append(_point(rank, {row_dim: row, col_dim: swizzled}))
    for dim in enc.order[2:]:
        bases += _identity_bases(shape[dim], dim, rank)
    return tuple(bases)


def shared_alignment(enc: Attribute) -> int:
    """`SharedEncodingTrait::getAlignment`: NVMMA and shared-linear encodings say theirs, the
    rest use the default of 16 bytes."""
    if isinstance(enc, (NVMMASharedEncodingAttr, SharedLinearEncodingAttr)):
        return enc.alignment
    return 16


def _powers_below(n: int) -> list[int]:
    out, v = [], 1
    while v < n:
        out.append(v)
        v *= 2
    return out


def _point(rank: int, coords: dict[int, int]) -> tuple[int, ...]:
    return tuple(coords.get(d, 0) for d in range(rank))


def consecutive_offsets(shape: Sequence[int], layout: SharedLayout) -> int:
    """`getNumConsecutiveInOut` of the row-major flattened layout: how many leading offsets
    address consecutive elements."""
    flat_offsets = [b[0] for b in reshape_bases(layout.offset, shape, [math.prod(shape)])]
    flat_blocks = [b[0] for b in reshape_bases(layout.block, shape, [math.prod(shape)])]
    consec = 0
    while consec < len(flat_offsets) and flat_offsets[consec] == 1 << consec:
        consec += 1
    other = 0
    for v in flat_offsets[consec:] + flat_blocks:
        other |= v
    trailing_zeros = (other & -other).bit_length() - 1 if other else 31
    return 1 << min(consec, trailing_zeros)


def is_innermost_contiguous(type_: MemDescType, num_elems: int) -> bool | None:
    """`isInnermostContiguous`: whether at least `num_elems` leading offsets are consecutive
    in row-major order; None where the encoding's layout is not handled."""
    shape = type_.alloc_shape[len(type_.alloc_shape) - len(type_.shape):]
    layout = shared_layout(shape, type_.encoding)
    if layout is None:
        return None
    return consecutive_offsets(shape, layout) >= num_elems


def trans_encoding(enc: Attribute, shape: Sequence[int], order: Sequence[int]) -> Attribute | None:
    """`inferTransOpEncoding` for shared encodings, or None where not handled."""
    if list(order) == list(range(len(order))):
        return enc
    if isinstance(enc, SwizzledSharedEncodingAttr) and enc.rank == len(order):
        inverse = [order.index(i) for i in range(len(order))]
        return SwizzledSharedEncodingAttr.get(enc.vec, enc.per_phase, enc.max_phase,
                                              [inverse[o] for o in enc.order],
                                              transpose_cta_layout(enc.cta_layout, order))
    if isinstance(enc, NVMMASharedEncodingAttr) and list(order) == [1, 0]:
        if enc.rank != 2:
            return None
        return NVMMASharedEncodingAttr.get(enc.swizzling_byte_width, not enc.transposed,
                                           enc.element_bit_width, enc.fp4_padded,
                                           transpose_cta_layout(enc.cta_layout, order))
    layout = shared_layout(shape, enc)
    if layout is None or len(shape) != len(order):
        return None
    return SharedLinearEncodingAttr.get(transpose_bases(layout.offset, order),
                                        transpose_bases(layout.block, order), shared_alignment(enc))


def reshape_encoding(enc: Attribute, src_shape: Sequence[int], dst_shape: Sequence[int]) -> Attribute | None:
    """`inferMemDescReshapeOpEncoding`: NVMMA shared kept when the innermost dimension and the
    layout survive, else the generic shared-linear layout; None where not handled."""
    src = shared_layout(src_shape, enc)
    if src is None:
        return None
    dst_offset = reshape_bases(src.offset, src_shape, dst_shape)
    dst_block = reshape_bases(src.block, src_shape, dst_shape)
    if isinstance(enc, NVMMASharedEncodingAttr):
        inner_dst = dst_shape[contiguous_dim(enc, len(dst_shape))]
        inner_src = src_shape[contiguous_dim(enc, len(src_shape))]
        if inner_dst == inner_src:
            candidate = NVMMASharedEncodingAttr.get(enc.swizzling_byte_width, enc.transposed,
                                                    enc.element_bit_width, enc.fp4_padded,
                                                    rank=len(dst_shape))
            kept = shared_layout(dst_shape, candidate)
            if kept is not None and kept == SharedLayout(dst_offset, dst_block):
                return candidate
    return SharedLinearEncodingAttr.get(dst_offset, dst_block, shared_alignment(enc))


def trans_type(src: MemDescType, order: Sequence[int]) -> MemDescType | None:
    """`MemDescTransOp::inferReturnTypes`."""
    enc = trans_encoding(src.encoding, src.shape, order)
    if enc is None:
        return None
    rank = len(order)
    lead, tail = src.alloc_shape[:-rank], src.alloc_shape[-rank:]
    return MemDescType.get([src.shape[i] for i in order], src.element_type, enc, src.memory_space,
                           src.mutable, (*lead, *(tail[i] for i in order)))


def reshape_type(src: MemDescType, dst_shape: Sequence[int]) -> MemDescType | None:
    """`MemDescReshapeOp::inferReturnTypes`."""
    if math.prod(dst_shape) != math.prod(src.shape):
        return None
    enc = reshape_encoding(src.encoding, src.shape, dst_shape)
    if enc is None:
        return None
    lead = src.alloc_shape[:len(src.alloc_shape) - len(src.shape)]
    return MemDescType.get(dst_shape, src.element_type, enc, src.memory_space, src.mutable,
                           (*lead, *dst_shape))


SHARED_BANK_BITS = 1024
"""32 banks of 32 bits: the span one swizzle phase has to cover."""


def swizzled_shared_for_dot_operand(dot_operand, shape: Sequence[int], order: Sequence[int],
                                    cta_layout: CTAEncodingAttr, element_bits: int,
                                    need_trans: bool) -> SwizzledSharedEncodingAttr | None:
    """`SwizzledSharedEncodingAttr::get(dotOpEnc, shape, order, CTALayout, bitwidth, needTrans)`
    for NVIDIA parents: unswizzled for a non-MMA parent, the mma.sync/wgmma bank-conflict-free
    swizzle for Ampere and Hopper; None for AMD and older NVIDIA MMA parents."""
    parent = dot_operand.parent
    if not isinstance(parent, NvidiaMmaEncodingAttr):
        if isinstance(parent, (AMDMfmaEncodingAttr, AMDWmmaEncodingAttr)):
            return None
        return SwizzledSharedEncodingAttr.get(1, 1, 1, order, cta_layout)
    if not (parent.is_ampere or parent.is_hopper):
        return None
    return swizzled_shared_for_mma_operand(dot_operand.op_idx, dot_operand.k_width, shape, order, cta_layout,
                                           element_bits, need_trans)


def swizzled_shared_for_mma_operand(op_idx: int, k_width: int, shape: Sequence[int], order: Sequence[int],
                                    cta_layout: CTAEncodingAttr, element_bits: int,
                                    need_trans: bool) -> SwizzledSharedEncodingAttr:
    """`SwizzledSharedEncodingAttr::get(opIdx, kWidth, shape, order, CTALayout, bitwidth,
    needTrans)`: the mma.sync/wgmma bank-conflict-free swizzle of operand `op_idx`."""
    splits = cta_layout.cta_split_num
    k = max(1, shape[order[0]] // splits[order[0]])
    per_phase = max(SHARED_BANK_BITS // (element_bits * k), 1)
    mma_stride, vec = 8, 4 * k_width
    if need_trans:
        vec, mma_stride = mma_stride, vec
    rank = len(order)
    k_dim = rank - 1 if op_idx == 0 else rank - 2
    if order[0] != k_dim:
        vec, mma_stride = mma_stride, vec
    max_phase = max(min(mma_stride, SHARED_BANK_BITS // (vec * element_bits)), 1)
    max_phase = max(max_phase // per_phase, 1)
    return SwizzledSharedEncodingAttr.get(vec, per_phase, max_phase, order, cta_layout)


def allocation_bytes(type_: MemDescType) -> int:
    """The bytes a `ttg.local_alloc` (or `ttng.tmem_alloc`) of `type_` takes: every stage
    of its allocation shape."""
    return math.prod(type_.alloc_shape) * element_bit_width(type_.element_type) // 8
