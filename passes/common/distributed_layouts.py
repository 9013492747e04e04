"""Linear layouts of distributed (register) encodings, the orders read off them, and the
encodings Triton infers for view ops.

Follows Triton 3.6 `LinearLayoutConversions.cpp` (`BlockedEncodingAttr::toLinearLayout`,
`fmaDotToLinearLayout`, `nvidiaMmaTile`, `NvidiaMmaEncodingAttr::toLinearLayout`,
`nvidiaDotToLinearLayout`, `SliceEncodingAttr::toLinearLayout`, `combineCtaCgaWithShape`,
`getSM120DotScaledScaleLayout`) and `Dialect.cpp` (`LinearEncodingAttr::getOrder`/
`getThreadOrder`/`getElemsPerThread`/`toLinearLayout`, `getOrderForMemory`,
`getDefaultBlockedEncoding`, and the distributed cases of `inferTransOpEncoding`,
`inferReshapeOpEncoding` and `inferFp4ToFpOpEncoding`).

Differences: AMD encodings have no linear layout here (`to_linear_layout` gives None and
callers leave the IR alone). A `#ttg.linear` keeps only its bases, so its output sizes are
the ones Triton's parser infers from them.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from xdsl.ir import Attribute

from ttpipe.dialects.ttg_attrs import (
    BlockedEncodingAttr,
    CTAEncodingAttr,
    DotOperandEncodingAttr,
    LinearEncodingAttr,
    NvidiaMmaEncodingAttr,
    SliceEncodingAttr,
    bases_per_dim,
    order_per_dim,
)
from ttpipe.passes.common.linear_layout import (
    LinearLayout,
    ensure_layout_not_larger_than,
    ensure_layout_not_smaller_than,
    identity_standard_nd,
    remove_standard_dim,
    reshape_layout,
    standard_out_dims,
    transpose_linear_layout,
)

REGISTER, LANE, WARP, BLOCK = "register", "lane", "warp", "block"
DISTRIBUTED_IN_DIMS = (REGISTER, LANE, WARP, BLOCK)


def matrix_order(rank: int, row_major: bool) -> list[int]:
    """`getMatrixOrder`: `[rank-1, ..., 0]`, with the two minor dims swapped if column-major."""
    order = list(range(rank - 1, -1, -1))
    if rank >= 2 and not row_major:
        order[0], order[1] = order[1], order[0]
    return order


def dot_operand_order(op_idx: int, rank: int, k_contig: bool) -> list[int]:
    """`getOrderForDotOperand`."""
    return matrix_order(rank, row_major=bool(op_idx) != k_contig)


def cta_linear_layout(cta: CTAEncodingAttr) -> LinearLayout:
    """`CTAEncodingAttr::getLinearLayout`: `block` onto dim0.. ."""
    return LinearLayout({BLOCK: cta.block_bases}, standard_out_dims(cta.rank))


def cta_layout_of(enc: Attribute) -> CTAEncodingAttr | None:
    """`getCTALayout`: the CTA layout an encoding carries; a dot operand's is its parent's
    broadcast along K, a slice's its parent's without the sliced dim, a linear layout's its
    block bases over the per-CTA shape. None for encodings without one here."""
    if isinstance(enc, DotOperandEncodingAttr):
        parent = cta_layout_of(enc.parent)
        if parent is None:
            return None
        k_dim = parent.rank - 1 if enc.op_idx == 0 else parent.rank - 2
        return CTAEncodingAttr.get([[0 if d == k_dim else v for d, v in enumerate(b)] for b in parent.block_bases],
                                   parent.rank)
    if isinstance(enc, SliceEncodingAttr):
        parent = cta_layout_of(enc.parent)
        if parent is None:
            return None
        return CTAEncodingAttr.get(remove_standard_dim(cta_linear_layout(parent), enc.dim).in_dim_bases(BLOCK),
                                   parent.rank - 1)
    if isinstance(enc, LinearEncodingAttr):
        rank = enc.rank
        layout = linear_encoding_layout(enc, rank)
        split = bases_per_dim(enc.block_bases, rank)
        per_cta = [layout.out_dim_size(d) // s for d, s in zip(layout.out_dim_names, split)]
        shifts = [p.bit_length() - 1 for p in per_cta]
        return CTAEncodingAttr.get([[v >> s for v, s in zip(b, shifts)] for b in enc.block_bases], rank)
    cta = getattr(enc, "cta_layout", None)
    return cta if isinstance(cta, CTAEncodingAttr) else None


def combine_cta_cga_with_shape(cta_layout: LinearLayout, cga: CTAEncodingAttr,
                               shape: Sequence[int]) -> LinearLayout:
    """`combineCtaCgaWithShape`: the in-CTA layout fitted to the per-CTA shape, times the
    CGA layout, onto dim0.. ."""
    names = standard_out_dims(len(shape))
    labeled = dict(zip(names, shape))
    cga_layout = ensure_layout_not_larger_than(cta_linear_layout(cga), labeled).transpose_outs(
        cta_layout.out_dim_names)
    cta_shape = {d: max(1, labeled[d] // cga_layout.out_dim_size(d)) for d in cta_layout.out_dim_names}
    cta_layout = ensure_layout_not_smaller_than(cta_layout, cta_shape)
    cta_layout = ensure_layout_not_larger_than(cta_layout, cta_shape)
    return (cta_layout * cga_layout).transpose_outs(names)


def _broadcasted_dot_operand_layout(shape: Sequence[int], order: Sequence[int], k_dim: int,
                                    in_dim: str) -> LinearLayout:
    """`broadcastedDotOperandLayout`: identity along M/N, broadcast along K."""
    names = standard_out_dims(len(shape))
    layout = LinearLayout.empty()
    for d in order:
        make = LinearLayout.zeros_1d if d == k_dim else LinearLayout.identity_1d
        layout = layout * make(shape[d], in_dim, names[d])
    return layout


def _blocked_layout(enc: BlockedEncodingAttr, shape: Sequence[int]) -> LinearLayout:
    order = enc.order
    cta = (identity_standard_nd(REGISTER, enc.size_per_thread, order)
           * identity_standard_nd(LANE, enc.threads_per_warp, order)
           * identity_standard_nd(WARP, enc.warps_per_cta, order))
    return combine_cta_cga_with_shape(cta, enc.cta_layout, shape)


def _fma_dot_layout(enc: DotOperandEncodingAttr, shape: Sequence[int]) -> LinearLayout:
    blocked: BlockedEncodingAttr = enc.parent
    rank = len(shape)
    order = blocked.order
    k_dim = rank - 1 if enc.op_idx == 0 else rank - 2
    thread_size = list(blocked.size_per_thread)
    thread_size[k_dim] = shape[k_dim]
    rep_names = [standard_out_dims(rank)[d] for d in order]
    registers = identity_standard_nd(REGISTER, thread_size, order)
    lanes = _broadcasted_dot_operand_layout(blocked.threads_per_warp, order, k_dim, LANE)
    warps = _broadcasted_dot_operand_layout(blocked.warps_per_cta, order, k_dim, WARP)
    cta = (registers.transpose_outs(rep_names) * lanes.transpose_outs(rep_names)
           * warps.transpose_outs(rep_names))
    return combine_cta_cga_with_shape(cta, cta_layout_of(enc), shape)


def nvidia_mma_tile(tile_shape: Sequence[int], k_width: int, order: Sequence[int],
                     rep_order: Sequence[int]) -> LinearLayout:
    """`nvidiaMmaTile`: kWidth registers and 4 lanes along the inner dim, 8 lanes along the
    outer dim, then register repeats (outer, then inner)."""
    rank = len(rep_order)
    names = standard_out_dims(rank)
    inner, outer = order[0], order[1]
    m, n = tile_shape[outer], tile_shape[inner]
    return (identity_standard_nd(REGISTER, [1] * rank, rep_order)
            * LinearLayout.identity_1d(k_width, REGISTER, names[inner])
            * LinearLayout.identity_1d(4, LANE, names[inner])
            * LinearLayout.identity_1d(8, LANE, names[outer])
            * LinearLayout.identity_1d(m // 8, REGISTER, names[outer])
            * LinearLayout.identity_1d(n // (k_width * 4), REGISTER, names[inner]))


def _nvidia_mma_layout(enc: NvidiaMmaEncodingAttr, shape: Sequence[int]) -> LinearLayout:
    rank = len(shape)
    tile = list(enc.instr_shape) if enc.is_ampere else list(enc.instr_shape[:2])
    rep_order = matrix_order(rank, row_major=True)
    cta = nvidia_mma_tile(tile, 2, matrix_order(rank, True), rep_order)
    warps = identity_standard_nd(WARP, enc.warps_per_cta, matrix_order(rank, not enc.is_hopper))
    cta = cta * warps.transpose_outs(cta.out_dim_names)
    return combine_cta_cga_with_shape(cta, enc.cta_layout, shape)


def _nvidia_dot_layout(enc: DotOperandEncodingAttr, shape: Sequence[int]) -> LinearLayout | None:
    mma: NvidiaMmaEncodingAttr = enc.parent
    rank = len(shape)
    is_a = enc.op_idx == 0
    if not is_a and not mma.is_ampere:
        return None
    tile = [1] * rank
    if is_a:
        tile[rank - 2], tile[rank - 1] = 16, enc.k_width * 8
    else:
        tile[rank - 2], tile[rank - 1] = enc.k_width * 8, 8
    order = dot_operand_order(enc.op_idx, rank, k_contig=True)
    cta = nvidia_mma_tile(tile, enc.k_width, order, order)
    k_dim = rank - 1 if is_a else rank - 2
    warps = _broadcasted_dot_operand_layout(mma.warps_per_cta, matrix_order(rank, not mma.is_hopper), k_dim, WARP)
    cta = cta * warps.transpose_outs(cta.out_dim_names)
    return combine_cta_cga_with_shape(cta, cta_layout_of(enc), shape)


def linear_encoding_layout(enc: LinearEncodingAttr, rank: int) -> LinearLayout:
    """The linear layout a `#ttg.linear` holds (output sizes inferred from its bases)."""
    return LinearLayout(list(enc.bases.items()), standard_out_dims(rank))


def to_linear_layout(shape: Sequence[int], enc: Attribute) -> LinearLayout | None:
    """`toLinearLayout(shape, enc)` for NVIDIA distributed encodings; None for others."""
    if isinstance(enc, BlockedEncodingAttr):
        return _blocked_layout(enc, shape)
    if isinstance(enc, LinearEncodingAttr):
        return _fit_linear(linear_encoding_layout(enc, len(shape)), shape)
    if isinstance(enc, NvidiaMmaEncodingAttr) and (enc.is_ampere or enc.is_hopper):
        return _nvidia_mma_layout(enc, shape)
    if isinstance(enc, DotOperandEncodingAttr):
        if isinstance(enc.parent, BlockedEncodingAttr):
            return _fma_dot_layout(enc, shape)
        if isinstance(enc.parent, NvidiaMmaEncodingAttr) and (enc.parent.is_ampere or enc.parent.is_hopper):
            return _nvidia_dot_layout(enc, shape)
        return None
    if isinstance(enc, SliceEncodingAttr):
        parent_shape = list(shape)
        parent_shape.insert(enc.dim, 1)
        parent = to_linear_layout(parent_shape, enc.parent)
        if parent is None:
            return None
        sliced = remove_standard_dim(parent, enc.dim)
        bases = sliced.bases
        bases[REGISTER] = [b for b in bases[REGISTER] if any(b)]
        return LinearLayout(bases, sliced.out_dim_names)
    return None


# -------------------------------------------------------------------- LinearEncodingAttr queries


def layout_order(layout: LinearLayout) -> list[int]:
    """`LinearEncodingAttr::getOrder`: dims in the order registers move along them."""
    rank = len(layout.out_dims)
    return list(order_per_dim(layout.in_dim_bases(REGISTER), range(rank - 1, -1, -1)))


def layout_thread_order(layout: LinearLayout) -> list[int]:
    return list(order_per_dim(layout.in_dim_bases(LANE), layout_order(layout)))


def contig_per_thread(layout: LinearLayout) -> list[int]:
    """`LinearEncodingAttr::getContigPerThread`: per dim, the elements a thread holds in a
    row along it, reading the register bases in the layout's order (each dim's from where
    the last dim's ended)."""
    order = layout_order(layout)
    contig = [1] * len(order)
    bases = iter(layout.in_dim_bases(REGISTER))
    basis = next(bases, None)
    for dim in order:
        while basis is not None and basis == tuple(contig[dim] if d == dim else 0 for d in range(len(order))):
            contig[dim] *= 2
            basis = next(bases, None)
    return contig


def _fit_linear(layout: LinearLayout, shape: Sequence[int]) -> LinearLayout:
    """`LinearEncodingAttr::toLinearLayout(shape)`: the layout grown or cut to `shape`."""
    names = layout.out_dim_names
    permuted = [names[d] for d in layout_order(layout)]
    named_shape = {names[d]: shape[d] for d in range(len(shape))}
    fitted = ensure_layout_not_smaller_than(layout.transpose_outs(permuted), named_shape)
    fitted = ensure_layout_not_larger_than(fitted, named_shape, broadcast_registers=False)
    return fitted.transpose_outs(names)


def elems_per_thread(layout: LinearLayout, shape: Sequence[int]) -> list[int]:
    """`LinearEncodingAttr::getElemsPerThread(shape)`."""
    fitted = _fit_linear(layout, shape)
    return list(bases_per_dim(fitted.in_dim_bases(REGISTER), len(shape), skip_broadcast=False))


def memory_order(enc: Attribute, shape: Sequence[int]) -> list[int] | None:
    """`getOrderForMemory`: the register order, unless the thread order differs and each
    thread holds one element along the thread order's fastest dim; None where the encoding
    has no linear layout here."""
    layout = to_linear_layout(shape, enc)
    if layout is None:
        return None
    order = layout_order(layout)
    thread_order = layout_thread_order(layout)
    if order == thread_order:
        return order
    if elems_per_thread(layout, shape)[thread_order[0]] == 1:
        return thread_order
    return order


def linear_encoding(layout: LinearLayout) -> LinearEncodingAttr:
    """`LinearEncodingAttr::get(ctx, layout)` for a layout over register/lane/warp/block."""
    return LinearEncodingAttr.get(*(layout.in_dim_bases(d) for d in DISTRIBUTED_IN_DIMS))


# -------------------------------------------------------------------- encodings Triton builds


def default_blocked_encoding(shape: Sequence[int], num_warps: int, threads_per_warp: int,
                             num_ctas: int) -> BlockedEncodingAttr:
    """`getDefaultBlockedEncoding`: one element per thread, row-major."""
    rank = len(shape)
    order = list(range(rank - 1, -1, -1))
    size = [1] * rank
    ctas_per_cga, split = [1] * rank, [1] * rank
    remaining = num_ctas
    for d in range(rank - 1, -1, -1):
        i = order[d]
        ctas_per_cga[i] = max(1, min(remaining, max(1, shape[i] // size[i])))
        split[i] = ctas_per_cga[i]
        remaining //= ctas_per_cga[i]
    ctas_per_cga[rank - 1] *= remaining
    cta = CTAEncodingAttr.from_split_params(ctas_per_cga, split, order)
    return blocked_encoding_for_shape(shape, size, order, num_warps, threads_per_warp, cta)


def blocked_encoding_for_shape(shape: Sequence[int], size_per_thread: Sequence[int], order: Sequence[int],
                               num_warps: int, threads_per_warp: int,
                               cta: CTAEncodingAttr) -> BlockedEncodingAttr:
    """`BlockedEncodingAttr::get(shape, sizePerThread, order, numWarps, threadsPerWarp,
    CTALayout)`: lanes and warps fill the contiguous dims first."""
    rank = len(size_per_thread)
    split = cta.cta_split_num
    per_cta = [max(1, s // split[d]) for d, s in enumerate(shape)]
    threads, warps = [1] * rank, [1] * rank
    lanes_left, threads_left, warps_left = threads_per_warp, num_warps * threads_per_warp, num_warps
    prev_lanes = prev_warps = 1
    for d in range(rank - 1):
        i = order[d]
        per_dim = max(1, min(threads_left, max(1, per_cta[i] // size_per_thread[i])))
        threads[i] = max(1, min(per_dim, lanes_left))
        warps[i] = max(1, min(per_dim // threads[i], warps_left))
        warps_left //= warps[i]
        lanes_left //= threads[i]
        threads_left //= per_dim
        prev_lanes *= threads[i]
        prev_warps *= warps[i]
    threads[order[rank - 1]] = threads_per_warp // prev_lanes
    warps[order[rank - 1]] = num_warps // prev_warps
    return BlockedEncodingAttr.get(size_per_thread, threads, warps, order, cta)


def sm120_scale_layout(shape: Sequence[int], op_idx: int, mma_warps: Sequence[int],
                       cta: CTAEncodingAttr) -> LinearLayout:
    """`getSM120DotScaledScaleLayout`: the register layout of mma.sync block scales (one
    scale per quad of lanes, byte selector 0)."""
    names = standard_out_dims(len(shape))
    if op_idx == 0:
        lanes = [(8, 0), (0, 0), (1, 0), (2, 0), (4, 0)]
        order, warps = [1, 0], [mma_warps[0], mma_warps[1]]
    else:
        lanes = [(0, 0), (0, 0), (1, 0), (2, 0), (4, 0)]
        order, warps = [0, 1], [mma_warps[1], mma_warps[0]]
    layout = (LinearLayout.identity_1d(shape[1], REGISTER, names[1])
              * LinearLayout({LANE: lanes}, [names[0], names[1]])
              * _broadcasted_dot_operand_layout(warps, order, 1, WARP))
    return combine_cta_cga_with_shape(layout, cta, shape)


def infer_trans_encoding(enc: Attribute, shape: Sequence[int], order: Sequence[int]) -> Attribute | None:
    """`inferTransOpEncoding` for distributed encodings: a blocked layout permuted, or the
    transposed linear layout."""
    if list(order) == list(range(len(order))):
        return enc
    inverse = [list(order).index(i) for i in range(len(order))]
    if isinstance(enc, BlockedEncodingAttr):
        cta = CTAEncodingAttr.get(transpose_linear_layout(cta_linear_layout(enc.cta_layout), order)
                                  .in_dim_bases(BLOCK), len(order))
        return BlockedEncodingAttr.get([enc.size_per_thread[i] for i in order],
                                       [enc.threads_per_warp[i] for i in order],
                                       [enc.warps_per_cta[i] for i in order],
                                       [inverse[o] for o in enc.order], cta)
    layout = to_linear_layout(shape, enc)
    if layout is None:
        return None
    return linear_encoding(transpose_linear_layout(layout, order))


def reshape_decomposition(src: Sequence[int], dst: Sequence[int]) -> list[tuple[list[int], list[int]]]:
    """`getReshapeDecomposition`: groups of source dims and the destination dims they become."""
    if not src:
        return []
    groups: list[tuple[list[int], list[int]]] = [([], [])]
    i = j = 0
    src_n = dst_n = 1
    while i < len(src) or j < len(dst):
        if src_n < dst_n or (i < len(src) and src_n == 1) or (i < len(src) and src[i] == 1):
            src_n *= src[i]
            groups[-1][0].append(i)
            i += 1
        elif dst_n < src_n or (j < len(dst) and dst[j] == 1):
            dst_n *= dst[j]
            groups[-1][1].append(j)
            j += 1
        else:
            groups.append(([], []))
            src_n = dst_n = 1
    return groups


def _legacy_reshape_encoding(src_shape: Sequence[int], enc: Attribute,
                             dst_shape: Sequence[int]) -> BlockedEncodingAttr | None:
    """`inferReshapeOpLegacyEncoding`: the blocked encoding a reshape keeps, or None."""
    if not isinstance(enc, BlockedEncodingAttr):
        return None
    if list(src_shape) == list(dst_shape):
        return enc
    warps, threads = math.prod(enc.warps_per_cta), math.prod(enc.threads_per_warp)
    ctas = math.prod(enc.cta_layout.ctas_per_cga)
    if enc == default_blocked_encoding(src_shape, warps, threads, ctas):
        return default_blocked_encoding(dst_shape, warps, threads, ctas)
    if any(c != 1 for c in enc.cta_layout.ctas_per_cga) or any(c != 1 for c in enc.cta_layout.cta_split_num):
        return None
    fields = (enc.size_per_thread, enc.threads_per_warp, enc.warps_per_cta)
    for sub in fields:
        if any(s >= b and s % b for s, b in zip(src_shape, sub)):
            return None
    decomposition = reshape_decomposition(src_shape, dst_shape)
    inv_order = [list(enc.order).index(i) for i in range(len(enc.order))]
    for src_dims, _ in decomposition:
        physical = [inv_order[d] for d in reversed(src_dims)]
        if any(b != a + 1 for a, b in zip(physical, physical[1:])):
            return None
    for src_dims, _ in decomposition:
        remaining = [src_shape[d] for d in src_dims]
        for sub in fields:
            for i in range(len(src_dims) - 1, -1, -1):
                dim = src_dims[i]
                if sub[dim] == 1:
                    continue
                if any(remaining[j] != 1 for j in range(i + 1, len(src_dims))):
                    return None
                remaining[i] = remaining[i] // sub[dim] if remaining[i] >= sub[dim] else 0
                if remaining[i] == 0 and i != 0:
                    return None
    dst_remaining = list(dst_shape)
    dst_fields = []
    for sub in fields:
        dst_sub = [0] * len(dst_shape)
        for src_dims, dst_dims in decomposition:
            left = math.prod(sub[d] for d in src_dims)
            for i in range(len(dst_dims) - 1, -1, -1):
                value = min(left, dst_remaining[dst_dims[i]])
                dst_sub[dst_dims[i]] = value
                left //= value
                dst_remaining[dst_dims[i]] //= value
            dst_sub[dst_dims[0]] *= left
        dst_fields.append(dst_sub)
    decomposition.sort(key=lambda g: inv_order[g[0][0]])
    dst_inv_order = [0] * len(dst_shape)
    position = 0
    for _, dst_dims in decomposition:
        for dim in reversed(dst_dims):
            dst_inv_order[dim] = position
            position += 1
    dst_order = [dst_inv_order.index(i) for i in range(len(dst_shape))]
    return BlockedEncodingAttr.get(*dst_fields, dst_order, CTAEncodingAttr.get_default(len(dst_shape)))


def infer_reshape_encoding(src_shape: Sequence[int], enc: Attribute, dst_shape: Sequence[int]) -> Attribute | None:
    """`inferReshapeOpEncoding` for distributed encodings: the blocked encoding when one
    fits, else the reshaped linear layout."""
    legacy = _legacy_reshape_encoding(src_shape, enc, dst_shape)
    if legacy is not None:
        return legacy
    layout = to_linear_layout(src_shape, enc)
    if layout is None:
        return None
    return linear_encoding(reshape_layout(layout, dst_shape))


def infer_fp4_to_fp_encoding(shape: Sequence[int], axis: int, enc: Attribute) -> Attribute | None:
    """`inferFp4ToFpOpEncoding` (forward): two values per packed byte along `axis`."""
    layout = to_linear_layout(shape, enc)
    if layout is None:
        return None
    if layout_order(layout)[axis] == 0:
        if isinstance(enc, DotOperandEncodingAttr):
            return DotOperandEncodingAttr.get(enc.op_idx, enc.parent, enc.k_width * 2)
        if isinstance(enc, BlockedEncodingAttr):
            size = list(enc.size_per_thread)
            size[axis] *= 2
            return BlockedEncodingAttr.get(size, enc.threads_per_warp, enc.warps_per_cta, enc.order,
                                           enc.cta_layout)
    return linear_encoding(LinearLayout.identity_1d(2, REGISTER, layout.out_dim_names[axis]) * layout)
