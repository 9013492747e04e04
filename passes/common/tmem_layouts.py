"""Tensor-memory (TMEM) layouts and the register layouts that `tcgen05.ld`/`st` move them through.

Follows Triton 3.6 `tensorMemoryToLinearLayout` and `tensorMemoryScalesToLinearLayout`
(`lib/Dialect/TritonGPU/IR/LinearLayoutConversions.cpp`), and `getTileLayout`,
`getDistributedLayoutForTmemLdSt` and `getDefaultLayoutForTmemLdSt`
(`lib/Dialect/TritonNvidiaGPU/IR/Dialect.cpp`). A TMEM layout maps `row` (the 128 lanes)
and `col` (32-bit columns) onto the tensor; a register layout for it is found by tiling
one access atom (32x32b: a warp reads 32 rows, one column per register; 16x256b: 16 rows
and 8 columns per lane group) over the columns and the warps.

Differences: a layout that has no register layout here gives None, where Triton asserts.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import Enum

from xdsl.ir import Attribute

from ttpipe.dialects.ttg_attrs import CTAEncodingAttr, LinearEncodingAttr
from ttpipe.dialects.ttng import TensorMemoryEncodingAttr, TensorMemoryScalesEncodingAttr
from ttpipe.passes.common.distributed_layouts import LANE, REGISTER, WARP, cta_linear_layout, linear_encoding
from ttpipe.passes.common.hardware import TMEM_COLUMN_BITS, TMEM_ROWS, tmem_column_stride
from ttpipe.passes.common.linear_layout import (
    LinearLayout,
    divide_left,
    divide_right,
    ensure_layout_not_larger_than,
    standard_out_dims,
)
from ttpipe.passes.common.target import bool_env

ROW, COL = "row", "col"

PREFER_16X256_ENV = "TRITON_PREFER_TMEM_16x256_LAYOUT"
"""Environment variable (read as Triton's `getBoolEnv`) that makes 16x256b the default access atom."""


class TMemAccessAtom(Enum):
    """The `tcgen05.ld`/`st` shapes (`TMemAccessAtom`)."""

    I32x32b = "32x32b"
    I16x256b = "16x256b"


def tensor_memory_layout(shape: Sequence[int], enc: TensorMemoryEncodingAttr) -> LinearLayout:
    """`tensorMemoryToLinearLayout`: (row, col) onto (dim0, dim1) for a TMEM allocation."""
    dims = standard_out_dims(2)
    if enc.cta_split_n > 1:
        inner = TensorMemoryEncodingAttr.get(enc.block_m, enc.block_n, enc.col_stride, enc.cta_split_m, 1,
                                             enc.two_ctas)
        return (tensor_memory_layout([shape[0], shape[1] // enc.cta_split_n], inner)
                * LinearLayout.identity_1d(enc.cta_split_n, COL, dims[1]))
    if enc.cta_split_m > 1:
        split_m, block_m = enc.cta_split_m, enc.block_m
        m64_two_ctas = block_m == 64 and enc.two_ctas
        if m64_two_ctas:
            block_m, split_m = block_m * 2, split_m // 2
        inner = TensorMemoryEncodingAttr.get(block_m, enc.block_n, enc.col_stride, 1, enc.cta_split_n,
                                             enc.two_ctas)
        layout = (tensor_memory_layout([shape[0] // split_m, shape[1]], inner)
                  * LinearLayout.identity_1d(split_m, COL, dims[0]))
        if m64_two_ctas:
            bases = {k: list(v) for k, v in layout.bases.items()}
            bases[ROW][-1], bases[COL][-1] = bases[COL][-1], bases[ROW][-1]
            layout = layout.with_bases(bases)
        return layout
    block_m, block_n = enc.block_m, min(enc.block_n, shape[1])
    tile = LinearLayout.zeros_1d(enc.col_stride, COL, dims[1])
    if block_m == 64:
        tile = tile * (LinearLayout.identity_1d(16, ROW, dims[0]) * LinearLayout.identity_1d(block_n, COL, dims[1]))
        bases = {k: list(v) for k, v in tile.bases.items()}
        if shape[0] > block_m:
            bases[ROW].append((64, 0))
        elif shape[1] > block_n:
            bases[ROW].append((0, block_n))
        else:
            bases[ROW].append((0, 0))
        bases[ROW] += [(16, 0), (32, 0)]
        tile = LinearLayout(bases, dims)
    else:
        tile = tile * (LinearLayout.identity_1d(block_m, ROW, dims[0])
                       * LinearLayout.identity_1d(block_n, COL, dims[1]))
    reps_m = shape[0] // tile.out_dim_size(dims[0])
    reps_n = shape[1] // tile.out_dim_size(dims[1])
    return tile * LinearLayout.identity_1d(reps_m, COL, dims[0]) * LinearLayout.identity_1d(reps_n, COL, dims[1])


def tensor_memory_scales_layout(shape: Sequence[int], enc: TensorMemoryScalesEncodingAttr) -> LinearLayout:
    """`tensorMemoryScalesToLinearLayout`: the tcgen05 block-scale layout (32 rows per lane
    group, broadcast over the four lane groups, four scales per 32-bit column)."""
    dims = standard_out_dims(2)
    if enc.cta_split_n > 1:
        return (tensor_memory_scales_layout([shape[0], shape[1] // enc.cta_split_n],
                                            TensorMemoryScalesEncodingAttr.get(enc.cta_split_m, 1))
                * LinearLayout.identity_1d(enc.cta_split_n, COL, dims[1]))
    if enc.cta_split_m > 1:
        return (tensor_memory_scales_layout([shape[0] // enc.cta_split_m, shape[1]],
                                            TensorMemoryScalesEncodingAttr.get(1, enc.cta_split_n))
                * LinearLayout.identity_1d(enc.cta_split_m, COL, dims[0]))
    tile = (LinearLayout.identity_1d(32, ROW, dims[0]) * LinearLayout.zeros_1d(4, ROW, dims[0])
            * LinearLayout.identity_1d(4, COL, dims[1]) * LinearLayout.identity_1d(2, COL, dims[0]))
    tile = tile * (LinearLayout.identity_1d(-(-shape[0] // tile.out_dim_size(dims[0])), COL, dims[0])
                   * LinearLayout.identity_1d(-(-shape[1] // tile.out_dim_size(dims[1])), COL, dims[1]))
    return ensure_layout_not_larger_than(tile, dict(zip(dims, shape)))


def tmem_linear_layout(shape: Sequence[int], enc: Attribute) -> LinearLayout | None:
    if isinstance(enc, TensorMemoryEncodingAttr):
        return tensor_memory_layout(shape, enc)
    if isinstance(enc, TensorMemoryScalesEncodingAttr):
        return tensor_memory_scales_layout(shape, enc)
    return None


def _tile_layout(atom: TMemAccessAtom) -> LinearLayout:
    """`getTileLayout(atom, unpacked=false, withWarp=false)`: (register, lane) onto (row, col)."""
    tile = LinearLayout({REGISTER: [], LANE: []}, [ROW, COL])
    if atom is TMemAccessAtom.I32x32b:
        return tile * LinearLayout.identity_1d(32, LANE, ROW)
    return (tile * LinearLayout.identity_1d(2, REGISTER, COL) * LinearLayout.identity_1d(4, LANE, COL)
            * LinearLayout.identity_1d(8, LANE, ROW) * LinearLayout.identity_1d(2, REGISTER, ROW))


def tmem_register_layout(ll: LinearLayout, atom: TMemAccessAtom, num_warps: int, bitwidth: int,
                     cta: CTAEncodingAttr | None = None) -> LinearLayout | None:
    """`getDistributedLayoutForTmemLdSt(ll, atom, numWarps, bitwidth, ctaLayout)`."""
    dims = ll.out_dim_names
    row, col = ll.in_dims
    if cta is not None:
        cga = cta_linear_layout(cta)
        cga_shape = [size for _, size in cga.out_dims]
        cta_col = (LinearLayout.identity_1d(cga_shape[0], col, dims[0])
                   * LinearLayout.identity_1d(cga_shape[1], col, dims[1]))
        quotient = divide_right(ll, cta_col)
        if quotient is None:
            return None
        layout = tmem_register_layout(quotient, atom, num_warps, bitwidth)
        return None if layout is None else layout * cga
    if bitwidth != TMEM_COLUMN_BITS:
        best, quotient = 1, None
        contig = 1
        while bitwidth * contig <= TMEM_COLUMN_BITS:
            found = divide_left(ll, LinearLayout.identity_1d(contig, col, dims[1]))
            if found is None:
                break
            quotient, best = found, contig
            contig *= 2
        if best > 1:
            layout = tmem_register_layout(quotient, atom, num_warps, bitwidth * best)
            return None if layout is None else LinearLayout.identity_1d(best, REGISTER, dims[1]) * layout
        unpacked = divide_left(ll, LinearLayout.zeros_1d(tmem_column_stride(bitwidth), col, dims[1])
                               * LinearLayout.identity_1d(2, col, dims[1]))
        if bitwidth == 16 and unpacked is not None:
            layout = tmem_register_layout(unpacked, atom, num_warps, TMEM_COLUMN_BITS)
            return None if layout is None else LinearLayout.identity_1d(2, REGISTER, dims[1]) * layout
        padded = divide_left(ll, LinearLayout.zeros_1d(tmem_column_stride(bitwidth), col, dims[1]))
        if padded is not None:
            return tmem_register_layout(padded, atom, num_warps, TMEM_COLUMN_BITS)
        if ll.in_dim_size(col) == 1:
            return tmem_register_layout(ll, atom, num_warps, TMEM_COLUMN_BITS)
        return None
    tile = _tile_layout(atom)
    cols_missing = ll.in_dim_size(col) // tile.out_dim_size(COL)
    if cols_missing == 0:
        return None
    instr_32_rows = atom is TMemAccessAtom.I32x32b
    row_bases = ll.in_dim_bases(row)
    if len(row_bases) <= 4:
        return None
    layout_16_rows = not any(row_bases[4])
    composed = tile.compose(ll).sublayout([REGISTER, LANE], dims)
    if instr_32_rows:
        composed = composed.resize_in_dim(LANE, composed.in_dim_size(LANE) // 2)
    if not composed.is_injective:
        return None
    row16 = None
    if not instr_32_rows and not layout_16_rows:
        row16 = WARP if num_warps > 4 else REGISTER
    warps_to_tile = num_warps // (8 if row16 == WARP else 4)
    warp_broadcast = warps_to_tile // min(cols_missing, warps_to_tile)
    warps_to_tile //= warp_broadcast
    cols_missing //= warps_to_tile
    if cols_missing > 1:
        if instr_32_rows and layout_16_rows:
            tile = divide_left(tile, LinearLayout.identity_1d(2, LANE, ROW))
            tile = tile * (LinearLayout.identity_1d(cols_missing // 2, REGISTER, COL)
                           * LinearLayout.identity_1d(2, LANE, COL))
        else:
            tile = tile * LinearLayout.identity_1d(cols_missing, REGISTER, COL)
    bases = {k: list(v) for k, v in tile.bases.items()}
    bases.setdefault(WARP, [])
    bases[WARP] += [(32, 0), (64, 0)]
    if row16 is not None:
        bases[row16].append((16, 0))
    tile = LinearLayout(bases, [(ROW, TMEM_ROWS), (COL, tile.out_dim_size(COL))])
    tile = tile * LinearLayout.identity_1d(warps_to_tile, WARP, COL)
    tile = tile * LinearLayout.zeros_1d(warp_broadcast, WARP, COL)
    return tile.compose(ll)


def default_tmem_register_layout(shape: Sequence[int], element_bits: int, enc: Attribute, num_warps: int,
                                 cta: CTAEncodingAttr) -> LinearEncodingAttr | None:
    """`getDefaultLayoutForTmemLdSt`: the 16x256b layout when `TRITON_PREFER_TMEM_16x256_LAYOUT`
    is set and it fits, else the 32x32b one; None where no layout is found here."""
    ll = tmem_linear_layout(shape, enc)
    if ll is None:
        return None
    atoms = [TMemAccessAtom.I32x32b]
    if bool_env(PREFER_16X256_ENV):
        atoms.insert(0, TMemAccessAtom.I16x256b)
    for atom in atoms:
        layout = tmem_register_layout(ll, atom, num_warps, element_bits, cta)
        if layout is not None:
            return linear_encoding(layout)
    return None
