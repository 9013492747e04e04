"""Shared layouts of encodings split over a CTA cluster (`num_ctas` > 1), and the cp.async
vector width read through them (`getCopyVecBytes`).

Each CTA lays out its share of the buffer as a single CTA lays out a buffer of that shape
(`getShapePerCTA`); the `block` bases place the shares (`combineCtaCgaWithShape`), zero where
the CTAs hold copies of one share.
"""

from xdsl.dialects.builtin import TensorType, bf16

from ttpipe.dialects.ttg_attrs import (
    BlockedEncodingAttr,
    CTAEncodingAttr,
    NVMMASharedEncodingAttr,
    SwizzledSharedEncodingAttr,
)
from ttpipe.passes.common.shared_layouts import SharedLayout, shared_layout
from ttpipe.passes.pipeline.pipelining_utility import copy_vec_bytes

SPLIT_N = CTAEncodingAttr.get([[0, 1]], 2)
BROADCAST = CTAEncodingAttr.get([[0, 0]], 2)


def nvmma(cta: CTAEncodingAttr | None = None) -> NVMMASharedEncodingAttr:
    return NVMMASharedEncodingAttr.get(128, False, 16, cta_layout=cta)


def swizzled(cta: CTAEncodingAttr | None = None) -> SwizzledSharedEncodingAttr:
    return SwizzledSharedEncodingAttr.get(8, 1, 8, [1, 0], cta)


def test_a_split_buffer_lays_out_each_ctas_share_as_one_cta_would():
    for encoding in (nvmma, swizzled):
        share = shared_layout([64, 128], encoding())
        assert shared_layout([64, 256], encoding(SPLIT_N)) == SharedLayout(share.offset, ((0, 128), ))


def test_ctas_holding_copies_of_one_buffer_get_a_zero_block_basis():
    for encoding in (nvmma, swizzled):
        whole = shared_layout([128, 64], encoding())
        assert shared_layout([128, 64], encoding(BROADCAST)) == SharedLayout(whole.offset, ((0, 0), ))


def test_copies_into_split_buffers_keep_their_vector_width():
    b_rows = BlockedEncodingAttr.get([1, 8], [2, 16], [8, 1], [1, 0], SPLIT_N)
    a_rows = BlockedEncodingAttr.get([1, 8], [4, 8], [8, 1], [1, 0], BROADCAST)
    assert copy_vec_bytes(TensorType(bf16, [64, 256], b_rows), nvmma(SPLIT_N)) == 16
    assert copy_vec_bytes(TensorType(bf16, [128, 64], a_rows), nvmma(BROADCAST)) == 16
    across_rows = BlockedEncodingAttr.get([8, 1], [16, 2], [1, 8], [0, 1], SPLIT_N)
    assert copy_vec_bytes(TensorType(bf16, [64, 256], across_rows), nvmma(SPLIT_N)) == 2
