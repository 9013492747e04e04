"""Layout choices for tensor-core operands (mma.sync, wgmma, tcgen05).

Follows Triton 3.6: the `NVMMASharedEncodingAttr` builder from shape and order (`TritonGPUAttrDefs.td`) and
`getShapePerCTA` (`lib/Dialect/TritonGPU/IR/Dialect.cpp`). The register layouts of TMEM
are in `tmem_layouts`, the orders of register layouts in `distributed_layouts`.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import IntegerType
from xdsl.ir import Attribute

from ttpipe.dialects.ttg_attrs import CTAEncodingAttr, NVMMASharedEncodingAttr
from ttpipe.ir import floats
from ttpipe.passes.common.hardware import NVMMA_SWIZZLE_BYTES


def element_bit_width(type_: Attribute) -> int:
    if isinstance(type_, IntegerType):
        return type_.width.data
    return floats.float_format(type_).width


def shape_per_cta(shape: Sequence[int], cta: CTAEncodingAttr) -> list[int]:
    """`getShapePerCTA`: each dim divided by its CTA split (never below 1)."""
    splits = cta.cta_split_num
    return [max(1, s // splits[d]) if d < len(splits) else s for d, s in enumerate(shape)]


def nvmma_shared_for(shape: Sequence[int], order: Sequence[int], cta: CTAEncodingAttr,
                     element_bits: int, fp4_padded: bool = False) -> NVMMASharedEncodingAttr:
    """`NVMMASharedEncodingAttr::get(shape, order, CTALayout, eltTy, fp4Padded)`: the widest
    swizzle (128/64/32 bytes) the contiguous dimension fills, none below 8 rows."""
    per_cta = shape_per_cta(shape, cta)
    contig_bytes = per_cta[order[0]] * (2 if fp4_padded else 1) * element_bits // 8
    swizzle = next((w for w in NVMMA_SWIZZLE_BYTES if contig_bytes >= w and contig_bytes % w == 0), 0)
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

