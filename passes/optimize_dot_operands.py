"""`ttpipe-optimize-dot-operands`: Triton 3.6's `tritongpu-optimize-dot-operands` on xDSL IR.

Four rewrites, applied until none matches, turn the register transposes, reshapes and scale
shuffles in front of an MMA into views of shared memory that the MMA reads directly (the
algorithm is in `OptimizeDotOperands`'s docstring); the tcgen05 limits they check are the
named rules of `ttpipe.passes.common.hardware`.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint

from ttpipe.dialects.tt import DescriptorLoadOp, DotOp, ReshapeOp, TransOp
from ttpipe.dialects.ttg import ConvertLayoutOp, LocalAllocOp, LocalLoadOp, MemDescReshapeOp, MemDescTransOp
from ttpipe.dialects.ttg_attrs import (
    DotOperandEncodingAttr,
    NVMMASharedEncodingAttr,
    SharedMemorySpaceAttr,
)
from ttpipe.dialects.ttg_types import MemDescType
from ttpipe.dialects.ttng import (
    TCGen5MMAOp,
    TCGen5MMAScaledOp,
    TensorMemoryScalesEncodingAttr,
    TMEMAllocOp,
    WarpGroupDotOp,
)
from ttpipe.passes.common.ir import (
    defining_op,
    defining_op_through_converts,
    erase_dead_chain,
    erase_with_dead_producers,
    only_use_owner,
    set_operand_groups,
)
from ttpipe.passes.common.distributed_layouts import memory_order
from ttpipe.passes.common.hardware import TCGEN05_CP_CHUNK_BITS, TCGEN05_CP_CHUNK_SCALES, tcgen05_scale_tile_shape
from ttpipe.passes.common.mma_layouts import element_bit_width
from ttpipe.passes.common.shared_layouts import (
    is_innermost_contiguous,
    reshape_type,
    swizzled_shared_for_dot_operand,
    trans_encoding,
    trans_type,
    transpose_cta_layout,
)

SHARED_OPERAND_MMAS = (WarpGroupDotOp, TCGen5MMAOp, TCGen5MMAScaledOp)
"""wgmma and tcgen05.mma read shared operands through a descriptor that can say "transposed"."""

SCALE_TILE_ORDER = (0, 3, 2, 1, 4)
"""The permutation that turns pre-shuffled `(MN/128, K/4, 32, 4, 4)` scale tiles
(`tcgen05_scale_tile_shape`) into the `(MN/128, 4, 32, K/4, 4)` order tcgen05 reads them in."""


def _located(op: Operation, like: Operation) -> Operation:
    """`op`, at the location of the op it stands for."""
    op.location = like.location
    return op


@dataclass
class TransposeThroughSwizzledSmem(RewritePattern):
    """`convert_layout(tt.trans(x)) -> #dot_op` feeding a `tt.dot` (mma.sync) reads
    `local_load(memdesc_trans(local_alloc(x)))` through a swizzled buffer instead
    (Triton's `SwizzleShmemConvert`, with the identity convert it leaves folded away)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, cvt: ConvertLayoutOp, rewriter: PatternRewriter) -> None:
        if not isinstance(only_use_owner(cvt.result), DotOp):
            return
        trans = defining_op(cvt.src, TransOp)
        if trans is None or tuple(trans.order.get_values()) != (1, 0):
            return
        src_type = trans.src.type
        inner_cvt = defining_op(trans.src, ConvertLayoutOp)
        if inner_cvt is not None:
            src_type = inner_cvt.src.type
        dot_encoding = cvt.result.type.encoding
        if not isinstance(dot_encoding, DotOperandEncodingAttr):
            return
        order = memory_order(src_type.encoding, src_type.get_shape())
        if order is None:
            return
        cta_layout = transpose_cta_layout(src_type.encoding.cta_layout, (1, 0))
        encoding = swizzled_shared_for_dot_operand(
            dot_encoding, src_type.get_shape(), order, cta_layout,
            element_bit_width(src_type.element_type), need_trans=True)
        if encoding is None:
            return
        alloc_type = MemDescType.get(src_type.get_shape(), src_type.element_type, encoding,
                                     SharedMemorySpaceAttr())
        view_type = trans_type(alloc_type, (1, 0))
        if view_type is None:
            return
        alloc = _located(LocalAllocOp(trans.src, result_type=alloc_type), trans)
        view = _located(MemDescTransOp(alloc.result, order=(1, 0), result_type=view_type), trans)
        load = _located(LocalLoadOp(view.result, result_type=cvt.result.type), trans)
        rewriter.insert([alloc, view, load], InsertPoint.before(trans))
        rewriter.replace(cvt, [], [load.result])
        erase_dead_chain(rewriter, trans)


@dataclass
class FuseTransposeIntoMemdescTrans(RewritePattern):
    """`local_alloc(tt.trans(x))` feeding a wgmma/tcgen05 MMA becomes
    `memdesc_trans(local_alloc(x))` (Triton's `FuseTransMMAV3Plus`)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, alloc: LocalAllocOp, rewriter: PatternRewriter) -> None:
        if alloc.src is None or not isinstance(only_use_owner(alloc.result), SHARED_OPERAND_MMAS):
            return
        trans = defining_op(alloc.src, TransOp)
        if trans is None or tuple(trans.order.get_values()) != (1, 0):
            return
        alloc_type = alloc.result.type
        if not isinstance(alloc_type.encoding, NVMMASharedEncodingAttr):
            return
        src_type = trans.src.type
        inner_encoding = trans_encoding(alloc_type.encoding, src_type.get_shape(), (1, 0))
        if inner_encoding is None:
            return
        inner_type = MemDescType.get(src_type.get_shape(), src_type.element_type, inner_encoding,
                                     alloc_type.memory_space)
        outer_type = trans_type(inner_type, (1, 0))
        new_alloc = _located(LocalAllocOp(trans.src, result_type=inner_type), alloc)
        view = _located(MemDescTransOp(new_alloc.result, order=(1, 0), result_type=outer_type), alloc)
        rewriter.replace(alloc, [new_alloc, view], [view.result])
        erase_dead_chain(rewriter, trans)


@dataclass
class ReshapeAllocToMemdescReshape(RewritePattern):
    """`local_alloc(tt.reshape(x))` becomes `memdesc_reshape(local_alloc(x))` when the inner
    buffer can keep an NVMMA shared encoding (Triton's `ReshapeMemDesc`)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, alloc: LocalAllocOp, rewriter: PatternRewriter) -> None:
        if alloc.src is None:
            return
        reshape = defining_op(alloc.src, ReshapeOp)
        if reshape is None:
            return
        alloc_type = alloc.result.type
        inner_type = reshape_type(alloc_type, reshape.src.type.get_shape())
        if inner_type is None or not isinstance(inner_type.encoding, NVMMASharedEncodingAttr):
            return
        new_alloc = _located(LocalAllocOp(reshape.src, result_type=inner_type), alloc)
        view = _located(MemDescReshapeOp(new_alloc.result, result_type=alloc_type), alloc)
        rewriter.replace(alloc, [new_alloc, view], [view.result])
        erase_dead_chain(rewriter, reshape)


@dataclass
class ScalesTmemAllocToSharedView(RewritePattern):
    """A tcgen05 scaled MMA whose scale is `tmem_alloc(reshape(trans(reshape(local_load(smem)))))`
    reads the scale as `memdesc_reshape(memdesc_trans(memdesc_reshape(smem)))` instead
    (Triton's `UseShmemForScales`); `triton-nvidia-mma-lowering` later copies that view into
    TMEM with `ttng.tmem_copy`."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, mma: TCGen5MMAScaledOp, rewriter: PatternRewriter) -> None:
        for operand, scale in (("a_scale", mma.a_scale), ("b_scale", mma.b_scale)):
            if isinstance(scale.type.encoding, TensorMemoryScalesEncodingAttr):
                self.rewrite_scale(mma, operand, scale, rewriter)

    @staticmethod
    def rewrite_scale(mma: TCGen5MMAScaledOp, operand: str, scale: SSAValue, rewriter: PatternRewriter) -> None:
        """Make the scale operand `operand` (`a_scale` or `b_scale`, now `scale`) a view."""
        tmem_alloc = defining_op(scale, TMEMAllocOp)
        if tmem_alloc is None or tmem_alloc.src is None:
            return
        block_mn, num_scales = scale.type.shape
        shape_5d = tcgen05_scale_tile_shape(block_mn, num_scales)
        reshape_2d = defining_op_through_converts(tmem_alloc.src, ReshapeOp)
        if reshape_2d is None or reshape_2d.result.type.get_shape() != (block_mn, num_scales):
            return
        trans = defining_op_through_converts(reshape_2d.src, TransOp)
        if trans is None or tuple(trans.order.get_values()) != SCALE_TILE_ORDER:
            return
        reshape_5d = defining_op_through_converts(trans.src, ReshapeOp)
        if reshape_5d is None or reshape_5d.result.type.get_shape() != shape_5d:
            return
        local_load = defining_op_through_converts(reshape_5d.src, LocalLoadOp)
        if local_load is None:
            return
        shared = local_load.src
        local_alloc = defining_op(shared, LocalAllocOp)
        uses_tma = (local_alloc is not None and local_alloc.src is not None
                    and defining_op_through_converts(local_alloc.src, DescriptorLoadOp) is not None)
        if not _is_tmem_copy_compatible(shared.type, uses_tma):
            return
        type_5d = reshape_type(shared.type, shape_5d)
        type_trans = trans_type(type_5d, SCALE_TILE_ORDER) if type_5d is not None else None
        type_2d = reshape_type(type_trans, (block_mn, num_scales)) if type_trans is not None else None
        if type_2d is None:
            return
        view_5d = _located(MemDescReshapeOp(shared, result_type=type_5d), reshape_5d)
        view_trans = _located(MemDescTransOp(view_5d.result, order=SCALE_TILE_ORDER, result_type=type_trans), trans)
        view_2d = _located(MemDescReshapeOp(view_trans.result, result_type=type_2d), reshape_2d)
        rewriter.insert([view_5d, view_trans, view_2d], InsertPoint.before(tmem_alloc))
        set_operand_groups(mma, **{operand: [view_2d.result]})
        rewriter.notify_op_modified(mma)
        if not any(result.uses for result in tmem_alloc.results):
            erase_with_dead_producers(rewriter, tmem_alloc)


def _is_tmem_copy_compatible(scale_type: MemDescType, uses_tma: bool) -> bool:
    """`isTmemCopyCompatible`: the 32x128-bit chunks tcgen05.cp copies lie contiguously in the
    innermost axes; without TMA, only a 2-D buffer whose rows are whole chunks."""
    if not is_innermost_contiguous(scale_type, TCGEN05_CP_CHUNK_SCALES):
        return False
    if uses_tma:
        return True
    if len(scale_type.shape) != 2:
        return False
    return scale_type.shape[-1] * scale_type.element_type.bitwidth % TCGEN05_CP_CHUNK_BITS == 0


@dataclass(frozen=True)
class OptimizeDotOperands(ModulePass):
    """Rearranges MMA operands so that transposes and scale shuffles become shared-memory views.

    Follows Triton 3.6 `lib/Dialect/TritonGPU/Transforms/OptimizeDotOperands.cpp`
    (`tritongpu-optimize-dot-operands`), with the layout inference of `Dialect.cpp`
    (`inferTransOpEncoding`, `getOrderForMemory`), `Ops.cpp`
    (`MemDescReshapeOp::inferReturnTypes`), `TritonGPUAttrDefs.td` (the dot-operand
    `SwizzledSharedEncodingAttr` builder) and `LinearLayoutConversions.cpp` re-implemented
    in `ttpipe.passes.common.shared_layouts` and `.distributed_layouts`.

    Algorithm: apply these rewrites until none matches (each new op gets the location of
    the op it replaces; ops left unused are erased):
      1. `TransposeThroughSwizzledSmem` (`SwizzleShmemConvert`): a `ttg.convert_layout` to a
         `#ttg.dot_op` whose only use is a `tt.dot`, of `tt.trans(x) {order = [1, 0]}`,
         becomes `local_load(memdesc_trans(local_alloc(x)))`; the buffer is swizzled for the
         mma.sync operand (`needTrans`), in `x`'s memory order with its CTA layout
         transposed. The convert, now from a dot operand to the same type, is folded away
         (what Triton's `ConvertLayoutOp` canonicalization does next).
      2. `FuseTransposeIntoMemdescTrans` (`FuseTransMMAV3Plus`): `local_alloc(tt.trans(x)
         {order = [1, 0]})` whose only use is a `ttng.warp_group_dot`/`tc_gen5_mma`/
         `tc_gen5_mma_scaled` becomes `memdesc_trans(local_alloc(x))`; the inner buffer's
         NVMMA encoding is the alloc's with `transposed` flipped and its CTA layout
         transposed.
      3. `ReshapeAllocToMemdescReshape` (`ReshapeMemDesc`): `local_alloc(tt.reshape(x))`
         becomes `memdesc_reshape(local_alloc(x))` when the buffer of `x`'s shape, inferred
         back from the alloc's type, is NVMMA shared.
      4. `ScalesTmemAllocToSharedView` (`UseShmemForScales`): a `ttng.tc_gen5_mma_scaled`
         scale operand with `#ttng.tensor_memory_scales_encoding` defined by
         `tmem_alloc(reshape_2d(trans{0,3,2,1,4}(reshape_5d(local_load(smem)))))`
         (convert_layouts between them are looked through), with `smem` holding 512
         consecutive scales (and, unless `smem` is written from a `tt.descriptor_load`,
         2-D with rows of whole 32x128-bit chunks), is replaced by
         `memdesc_reshape(memdesc_trans(memdesc_reshape(smem)))`; the views get
         shared-linear encodings. The TMEM allocation goes away: Triton 3.6 emits the
         `ttng.tmem_copy` into TMEM later, in `triton-nvidia-mma-lowering`.

    Preconditions: Triton GPU IR after `tritongpu-accelerate-matmul`.

    Options: none. Triton 3.6's `tritongpu-optimize-dot-operands` declares
    `hoist-layout-conversion` but reads it nowhere, so this pass leaves it out (`make_ttgir`
    sets it to its default, true, on every NVIDIA target ttpipe compiles for).

    Differences from Triton, where the IR is left exactly as it is:
      - Triton first runs the whole canonicalizer on the module and adds
        `ConvertLayoutOp`'s canonicalization patterns to the rewrite set; here only the
        ops the rewrites orphan are erased and only the convert of rewrite 1 is folded.
      - Layout inference covers single-CTA swizzled, NVMMA and shared-linear encodings
        and single-CTA blocked sources: rewrites 1, 3 and 4 skip multi-CTA, padded shared,
        AMD and pre-Ampere MMA cases. Rewrite 2 handles multi-CTA NVMMA encodings (it needs
        no linear layout).
      - Where Triton would assert (an alloc feeding an MMA without an NVMMA encoding, a
        scale `tmem_alloc` with other uses) the IR is left as it is.

    Attributes: reads `allocation.offset` (an allocated `local_alloc` is not erased);
    writes none.
    """

    name = "ttpipe-optimize-dot-operands"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(
            GreedyRewritePatternApplier([
                TransposeThroughSwizzledSmem(),
                FuseTransposeIntoMemdescTrans(),
                ReshapeAllocToMemdescReshape(),
                ScalesTmemAllocToSharedView(),
            ]),
            apply_recursively=True,
        ).rewrite_module(op)
