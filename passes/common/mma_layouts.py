"""Layout choices for tensor-core operands (mma.sync, wgmma, tcgen05).

Follows Triton 3.6: `mmaVersionToInstrShape` (`lib/Dialect/TritonGPU/Transforms/Utility.cpp`),
the `NVMMASharedEncodingAttr` builder from shape and order (`TritonGPUAttrDefs.td`) and
`getShapePerCTA` (`lib/Dialect/TritonGPU/IR/Dialect.cpp`). The register layouts of TMEM
are in `tmem_layouts`, the orders of register layouts in `distributed_layouts`.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import IntegerType
from xdsl.ir import Attribute

from ttpipe.dialects.ttg_attrs import CTAEncodingAttr, NVMMASharedEncodingAttr
from ttpipe.ir import floats

WGMMA_VALID_N = tuple(range(256, 0, -8))
WGMMA_VALID_N_INT8 = (224, 208, 192, 176, 160, 144, 128, 112, 96, 80, 64, 48, 32, 24, 16, 8)


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
