"""Layout choices for tensor-core operands and accumulators (mma.sync, wgmma, tcgen05).

Follows Triton 3.6: `mmaVersionToInstrShape` (`lib/Dialect/TritonGPU/Transforms/Utility.cpp`),
the `NVMMASharedEncodingAttr` builder from shape and order (`TritonGPUAttrDefs.td`),
`getOrderForMemory` / `getShapePerCTA` (`lib/Dialect/TritonGPU/IR/Dialect.cpp`) and
`getDefaultLayoutForTmemLdSt` with the 32x32b message
(`lib/Dialect/TritonNvidiaGPU/IR/Dialect.cpp`).

Differences: no `LinearLayout` algebra. The TMEM register layouts are written out in
closed form for the cases listed on `tmem_accumulator_layout` / `tmem_scales_layout`;
every other case gives None and callers leave the IR as it is. `order_for_memory`
handles blocked encodings only (their `order`, which is what Triton's linear-layout
heuristic gives for them).
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import IntegerType
from xdsl.ir import Attribute

from ttpipe.dialects.ttg_attrs import (
    BlockedEncodingAttr,
    CTAEncodingAttr,
    LinearEncodingAttr,
    NVMMASharedEncodingAttr,
)
from ttpipe.textio import floats

TMEM_LANES = 128
"""Rows of tensor memory; a 32x32b message covers 32 of them per warp."""

SCALE_BYTES_PER_COLUMN = 4
"""tcgen05 block scales pack four 8-bit scales into one 32-bit TMEM column."""

WGMMA_VALID_N = tuple(range(256, 0, -8))
WGMMA_VALID_N_INT8 = (224, 208, 192, 176, 160, 144, 128, 112, 96, 80, 64, 48, 32, 24, 16, 8)


def element_bit_width(type_: Attribute) -> int:
    if isinstance(type_, IntegerType):
        return type_.width.data
    return floats.float_format(type_).width


def cta_layout_of(encoding: Attribute) -> CTAEncodingAttr | None:
    """`getCTALayout` for encodings that carry one (blocked, mma, ...); None for others."""
    cta = getattr(encoding, "cta_layout", None)
    return cta if isinstance(cta, CTAEncodingAttr) else None


def shape_per_cta(shape: Sequence[int], cta: CTAEncodingAttr) -> list[int]:
    """`getShapePerCTA`: each dim divided by its CTA split (never below 1)."""
    splits = cta.cta_split_num
    return [max(1, s // splits[d]) if d < len(splits) else s for d, s in enumerate(shape)]


def order_for_memory(encoding: Attribute) -> list[int] | None:
    """`getOrderForMemory` of a blocked tensor; None for other encodings."""
    if isinstance(encoding, BlockedEncodingAttr):
        return list(encoding.order)
    return None


def nvmma_shared_for(shape: Sequence[int], order: Sequence[int], cta: CTAEncodingAttr,
                     element_bits: int, fp4_padded: bool = False) -> NVMMASharedEncodingAttr:
    """`NVMMASharedEncodingAttr::get(shape, order, CTALayout, eltTy, fp4Padded)`: the widest
    swizzle (128/64/32 bytes) the contiguous dimension fills, none below 8 rows."""
    per_cta = shape_per_cta(shape, cta)
    contig_bytes = per_cta[order[0]] * (2 if fp4_padded else 1) * element_bits // 8
    swizzle = next((w for w in (128, 64, 32) if contig_bytes >= w and contig_bytes % w == 0), 0)
    outer = 1
    for dim in order[1:]:
        outer *= per_cta[dim]
    if len(per_cta) < 2 or outer < 8:
        swizzle = 0
    return NVMMASharedEncodingAttr.get(swizzle, order[0] == 0, element_bits, fp4_padded, cta,
                                       rank=len(shape))


def unswizzled_nvmma_shared(element_bits: int, cta: CTAEncodingAttr) -> NVMMASharedEncodingAttr:
    """The NVMMA layout the scales of a scaled dot are staged through: no swizzle."""
    return NVMMASharedEncodingAttr.get(0, False, element_bits, False, cta, rank=cta.rank)


def mma_instr_shape(version: int, shape: Sequence[int], element_type: Attribute,
                    num_warps: int) -> list[int] | None:
    """`mmaVersionToInstrShape`; None where Triton would assert."""
    if version == 2:
        return [1] * (len(shape) - 2) + [16, 8]
    bits = element_bit_width(element_type)
    k = 256 // bits
    if version == 3:
        if shape[0] % 64 or shape[1] % 8:
            return None
        is_int8 = isinstance(element_type, IntegerType) and bits == 8
        valid = WGMMA_VALID_N_INT8 if is_int8 else WGMMA_VALID_N
        m_warps = max(shape[0] // 16, 1)
        n_warps = max(num_warps // m_warps, 1)
        max_n = max(shape[1] // n_warps, 8)
        n = next((n for n in valid if shape[1] % n == 0 and n <= max_n), None)
        return None if n is None else [16, n, k]
    if version == 5:
        return [128 if shape[0] >= 128 else 64, min(shape[1], 256), k]
    return None


def _pow2_bases(count: int, dim: int, start: int = 1) -> list[list[int]]:
    """Bases `[start, 2*start, ...]` (count of them) along `dim` of a rank-2 layout."""
    return [[start << i if d == dim else 0 for d in range(2)] for i in range(count)]


def _log2(n: int) -> int | None:
    return n.bit_length() - 1 if n > 0 and n & (n - 1) == 0 else None


def _block_bases(cta: CTAEncodingAttr, per_cta: Sequence[int]) -> list[list[int]]:
    return [[b * per_cta[d] for d, b in enumerate(basis)] for basis in cta.block_bases]


def tmem_accumulator_layout(shape: Sequence[int], num_warps: int,
                            cta: CTAEncodingAttr) -> LinearEncodingAttr | None:
    """The 32x32b register layout of a 32-bit TMEM accumulator (blockM = 128, one CTA per
    `cta_group`): each thread owns one row; lanes and warps 0-3 cover the 128 rows, the
    columns go to registers, and warps 4-7 (8 warps) take the upper half of the columns.

    Handled: a per-CTA shape of exactly 128 rows and a power-of-two column count >= 2, with
    4 or 8 warps, and 64 rows with 4 warps (`_tmem_accumulator_layout_m64`). None otherwise."""
    per_cta = shape_per_cta(shape, cta)
    if len(per_cta) != 2 or num_warps not in (4, 8):
        return None
    if per_cta[0] == TMEM_LANES // 2 and num_warps == 4:
        return _tmem_accumulator_layout_m64(per_cta, cta)
    if per_cta[0] != TMEM_LANES:
        return None
    col_tiles = num_warps // 4
    log_cols = _log2(per_cta[1] // col_tiles)
    if log_cols is None or per_cta[1] < 2:
        return None
    register = _pow2_bases(log_cols, 1)
    lane = _pow2_bases(5, 0)
    warp = _pow2_bases(2, 0, 32) + _pow2_bases(_log2(col_tiles), 1, per_cta[1] // col_tiles)
    return LinearEncodingAttr.get(register, lane, warp, _block_bases(cta, per_cta))


def _tmem_accumulator_layout_m64(per_cta: Sequence[int], cta: CTAEncodingAttr) -> LinearEncodingAttr | None:
    """blockM = 64: each warp reads 16 rows; lane 16 takes the upper half of the columns."""
    log_half = _log2(per_cta[1] // 2)
    if log_half is None or per_cta[1] < 4:
        return None
    register = _pow2_bases(log_half, 1)
    lane = _pow2_bases(4, 0) + [[0, per_cta[1] // 2]]
    warp = _pow2_bases(2, 0, 16)
    return LinearEncodingAttr.get(register, lane, warp, _block_bases(cta, per_cta))


def tmem_scales_layout(shape: Sequence[int], num_warps: int,
                       cta: CTAEncodingAttr) -> LinearEncodingAttr | None:
    """The 32x32b register layout of tcgen05 block scales (`tensor_memory_scales_encoding`):
    four scales per register along K, 32 rows per lane group, the 32-row groups and further
    K groups in registers; every warp holds the same data.

    Handled: one CTA, 4 warps, power-of-two rows >= 128 and power-of-two K >= 4. None otherwise."""
    if len(shape) != 2 or num_warps != 4 or not cta.is_default:
        return None
    rows, k = shape
    log_rows, log_k = _log2(rows), _log2(k)
    if log_rows is None or log_k is None or rows < TMEM_LANES or k < SCALE_BYTES_PER_COLUMN:
        return None
    register = (_pow2_bases(2, 1) + _pow2_bases(log_rows - 5, 0, 32)
                + _pow2_bases(log_k - 2, 1, SCALE_BYTES_PER_COLUMN))
    lane = _pow2_bases(5, 0)
    warp = [[0, 0], [0, 0]]
    return LinearEncodingAttr.get(register, lane, warp, [])
