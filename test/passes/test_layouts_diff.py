"""Differential tests of the layout helpers against Triton's own (through its Gluon bindings).

`distributed_layouts.to_linear_layout` must give `toLinearLayout`'s bases for blocked, slice,
dot-operand and nvidia_mma encodings, and `tmem_layouts.tmem_register_layout` the layout of
`getDistributedLayoutForTmemLdSt`, on seeded random configurations.
"""

from __future__ import annotations

import random

import pytest

from ttpipe.dialects.ttg_attrs import (
    BlockedEncodingAttr,
    CTAEncodingAttr,
    DotOperandEncodingAttr,
    NvidiaMmaEncodingAttr,
    SliceEncodingAttr,
)
from ttpipe.dialects.ttng import TensorMemoryEncodingAttr, TensorMemoryScalesEncodingAttr
from ttpipe.passes.common import tmem_layouts
from ttpipe.passes.common.distributed_layouts import DISTRIBUTED_IN_DIMS, cta_linear_layout, to_linear_layout
from ttpipe.passes.common.linear_layout import LinearLayout, divide_right

CGA_LAYOUTS = ([], [[1, 0]], [[0, 1]], [[0, 0]], [[1, 0], [0, 1]])


def bases(layout) -> list[list[list[int]]]:
    return [[list(b) for b in layout.in_dim_bases(d)] for d in DISTRIBUTED_IN_DIMS]


def gluon_bases(layout) -> list[list[list[int]]]:
    return [[list(b) for b in bases] for bases in (layout.reg_bases, layout.lane_bases, layout.warp_bases,
                                                    layout.block_bases)]


def test_distributed_layouts_match_triton():
    gluon = pytest.importorskip("triton._C.libtriton.gluon_ir")
    from ttpipe.triton.mlir import triton_context

    builder = gluon.GluonOpBuilder(triton_context())
    rng = random.Random(0)
    checked = 0
    for _ in range(150):
        size = [1 << rng.randint(0, 2) for _ in range(2)]
        lanes_log = rng.randint(0, 5)
        lanes = [1 << lanes_log, 1 << (5 - lanes_log)]
        warps_total = rng.choice([1, 2, 4, 8])
        warps_log = rng.randint(0, warps_total.bit_length() - 1)
        warps = [1 << warps_log, warps_total >> warps_log]
        order = rng.choice([[1, 0], [0, 1]])
        cga = rng.choice(CGA_LAYOUTS)
        shape = [1 << rng.randint(0, 7), 1 << rng.randint(0, 7)]
        cta = CTAEncodingAttr.get(cga, 2)
        blocked_t = builder.get_blocked_layout(size, lanes, warps, order, cga)
        blocked = BlockedEncodingAttr.get(size, lanes, warps, order, cta)
        version = rng.choice([2, 3])
        instr = [16, 8] if version == 2 else [16, rng.choice([8, 16, 64, 256]), 16]
        mma_warps = warps if version == 2 else [4 * max(1, warps_total // 4), 1]
        mma_t = builder.get_mma_layout([version, 0], mma_warps, cga, instr)
        mma = NvidiaMmaEncodingAttr.get(version, 0, mma_warps, instr, cta)
        k_width = rng.choice([1, 2, 4, 8])
        cases = [(blocked_t, blocked, shape), (mma_t, mma, shape),
                 (builder.get_dot_operand_layout(0, mma_t, k_width), DotOperandEncodingAttr.get(0, mma, k_width),
                  shape)]
        if version == 2:
            cases.append((builder.get_dot_operand_layout(1, mma_t, k_width),
                          DotOperandEncodingAttr.get(1, mma, k_width), shape))
        for op_idx in (0, 1):
            cases.append((builder.get_dot_operand_layout(op_idx, blocked_t, 0),
                          DotOperandEncodingAttr.get(op_idx, blocked, 0), shape))
        for dim in (0, 1):
            cases.append((builder.get_slice_layout(dim, blocked_t), SliceEncodingAttr.get(dim, blocked),
                          [shape[0]]))
        for triton_attr, ours, case_shape in cases:
            try:
                expected = gluon_bases(builder.to_linear_layout(triton_attr, case_shape))
            except Exception:  # a configuration Triton rejects
                continue
            assert bases(to_linear_layout(case_shape, ours)) == expected, (ours, case_shape)
            checked += 1
    assert checked > 500


def test_tmem_register_layouts_match_triton():
    gluon = pytest.importorskip("triton._C.libtriton.gluon_ir")
    import triton.language as tl
    from triton.experimental.gluon.language.nvidia.blackwell import TensorMemoryLayout, TensorMemoryScalesLayout

    rng = random.Random(1)
    element_types = {32: tl.float32, 16: tl.float16, 8: tl.int8}
    splits = [(1, 1), (2, 1), (1, 2), (2, 2)]
    checked = 0
    for _ in range(600):
        split = rng.choice(splits) if rng.random() < 0.4 else (1, 1)
        if rng.random() < 0.25:
            bits = 8
            shape = [rng.choice([128, 256]) * split[0], rng.choice([4, 8, 16, 32]) * split[1]]
            triton_layout = TensorMemoryScalesLayout(split if split != (1, 1) else None)
            ours = TensorMemoryScalesEncodingAttr.get(*split)
        else:
            bits = rng.choice([32, 16])
            block_m, block_n = rng.choice([64, 128]), rng.choice([16, 32, 64, 128, 256])
            two_ctas = split[0] == 2 and rng.random() < 0.2
            col_stride = 1 if bits == 32 else rng.choice([1, 2])
            shape = [block_m * split[0] * rng.choice([1, 2]), block_n * split[1] * rng.choice([1, 2])]
            triton_layout = TensorMemoryLayout((block_m, block_n), col_stride, split if split != (1, 1) else None,
                                               two_ctas)
            ours = TensorMemoryEncodingAttr.get(block_m, block_n, col_stride, split[0], split[1], two_ctas)
        cga = {(1, 1): [], (2, 1): [[1, 0]], (1, 2): [[0, 1]], (2, 2): [[1, 0], [0, 1]]}[split]
        cta = CTAEncodingAttr.get(cga, 2)
        tmem = tmem_layouts.tmem_linear_layout(shape, ours)
        cga_sizes = [size for _, size in cta_linear_layout(cta).out_dims]
        per_cta_cols = (LinearLayout.identity_1d(cga_sizes[0], "col", "dim0")
                        * LinearLayout.identity_1d(cga_sizes[1], "col", "dim1"))
        if divide_right(tmem, per_cta_cols) is None:
            continue  # Triton asserts on these
        warps = rng.choice([4, 8, 16])
        for atom in tmem_layouts.TMemAccessAtom:
            try:
                expected = gluon.compute_tmem_reg_layout(element_types[bits], shape, triton_layout, warps,
                                                         atom.value, cga)
            except Exception:  # a memdesc Triton rejects (too many columns)
                continue
            actual = tmem_layouts.tmem_register_layout(tmem, atom, warps, bits, cta)
            assert (None if actual is None else bases(actual)) == (
                None if expected is None else gluon_bases(expected)), (ours, shape, warps, atom)
            checked += 1
    assert checked > 300
