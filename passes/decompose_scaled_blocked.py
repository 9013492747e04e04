"""A `tt.dot_scaled` that no tensor-core rewrite took, as a `tt.dot` on fp16/bf16 operands.

Follows Triton 3.6 `lib/Dialect/TritonGPU/Transforms/DecomposeScaledBlocked.cpp`
(`DecomposeScaledBlocked`, added to `tritongpu-accelerate-matmul` by
`populateDecomposeScaledBlockedPatterns`); `ttpipe-accelerate-matmul` applies
`DecomposeScaledDot` with its other patterns, at the default benefit, as Triton does.

Algorithm, for a `tt.dot_scaled` whose result is not on an MMA layout and whose operands are
both packed along K:
  1. The compute type is f16 if either operand is fp16, else bf16 (`getComputeType`).
  2. Each operand is upcast to it (`ttg.fp4_to_fp` along K for packed e2m1, else
     `tt.fp_to_fp`) (`scaleArg`).
  3. A scaled operand is multiplied by its scale: the e8m0 exponent is zero-extended and
     shifted into the exponent field of a float wide enough to hold it (f32 for f16, bf16
     for bf16), truncated to the compute type (`scaleTo16`), repeated over the 32 elements
     it covers along K (expand a minor dim, broadcast it to 32, move it next to K, merge;
     `broadcastScale`) and converted to the operand's layout. B's scale is transposed
     first, as Triton takes it in A's orientation.
  4. Unless `fastMath`, elements whose scale is 0xFF become NaN (`maskNan`).
  5. Both operands are converted to `#ttg.dot_op` layouts of the result's layout, and a
     `tt.dot` with the same accumulator replaces the scaled dot, through a convert back to
     its type. The other patterns of the pass then take the new `tt.dot`.

Not handled (left as they are, where Triton asserts): operands or scales whose layout has no
linear layout here, which every layout inferred on the way needs (checked before any IR is
made).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.dialects.builtin import (
    BFloat16Type,
    Float16Type,
    Float32Type,
    IntegerType,
    TensorType,
    i1,
)
from xdsl.ir import Attribute, SSAValue
from xdsl.rewriter import InsertPoint

from ttpipe.dialects import arith, tt, ttg
from ttpipe.dialects.builtin import DenseElementsAttr
from ttpipe.dialects.ttg_attrs import (
    AMDMfmaEncodingAttr,
    AMDWmmaEncodingAttr,
    NvidiaMmaEncodingAttr,
    SliceEncodingAttr,
)
from ttpipe.ir import floats
from ttpipe.passes.common.builder import OpBuilder, value_location
from ttpipe.passes.common.distributed_layouts import (
    default_blocked_encoding,
    infer_fp4_to_fp_encoding,
    infer_reshape_encoding,
    to_linear_layout,
)
from ttpipe.passes.common.dot_rewrite import (
    register_operand,
    replace_with_convert,
    trans_op,
    with_element,
    with_encoding,
)
from ttpipe.passes.common.greedy import Rewriter
from ttpipe.passes.common.hardware import E8M0_NAN, MX_SCALE_BLOCK
from ttpipe.passes.common.mma_layouts import element_bit_width
from ttpipe.passes.common.target import num_ctas, num_warps, threads_per_warp

MMA_ENCODINGS = (NvidiaMmaEncodingAttr, AMDMfmaEncodingAttr, AMDWmmaEncodingAttr)
"""Triton's `MmaEncodingTrait`: a result already on one has been taken by an MMA rewrite."""

BENEFIT_DEFAULT = 1
"""The benefit `tritongpu-accelerate-matmul` gives `DecomposeScaledBlocked` (`benefitDefault`)."""


def transpose_order(rank: int) -> list[int]:
    """`DecomposeScaledBlocked::getTransposeOrder`: swap the two minor dims."""
    return [*range(rank - 2), rank - 1, rank - 2]


def _reshape(value: SSAValue, shape: Sequence[int]) -> tt.ReshapeOp:
    """`tt.reshape` with the result encoding Triton's builder infers."""
    type_ = value.type
    encoding = infer_reshape_encoding(type_.get_shape(), type_.encoding, shape)
    return tt.ReshapeOp(value, result_type=TensorType(type_.element_type, shape, encoding))


@dataclass(frozen=True)
class DecomposeScaledDot:
    """`DecomposeScaledBlocked`: a `tt.dot_scaled` no tensor-core rewrite took becomes a
    `tt.dot` on fp16/bf16 operands, each upcast, multiplied by its broadcast scale and
    NaN-masked (the module docstring has the steps)."""

    root = tt.DotScaledOp
    benefit = BENEFIT_DEFAULT

    def match_and_rewrite(self, dot: tt.DotScaledOp, rewriter: Rewriter) -> bool:
        if isinstance(dot.d.type.encoding, MMA_ENCODINGS):
            return False
        if not dot.lhs_k_pack.value.data or not dot.rhs_k_pack.value.data:
            return False
        kinds = (dot.a_elem_type.value.data, dot.b_elem_type.value.data)
        compute = Float16Type() if tt.ScaleDotElemType.fp16 in kinds else BFloat16Type()
        if not self._layouts_known(dot):
            return False
        b = OpBuilder(InsertPoint.before(dot), dot.location, rewriter)
        scaled = []
        for op_idx in (0, 1):
            value = self._scale_operand(b, dot, op_idx, compute)
            scaled.append(register_operand(b, value, op_idx, element_bit_width(compute), dot.d.type.encoding))
        new_dot = b.insert(tt.DotOp(scaled[0], scaled[1], dot.c))
        replace_with_convert(rewriter, dot, new_dot.d)
        return True

    @staticmethod
    def _layouts_known(dot: tt.DotScaledOp) -> bool:
        """Whether the operands and scales have linear layouts here, which every layout the
        decomposition infers needs (checked before any IR is made)."""
        values = [dot.a, dot.b, *(s for s in (dot.a_scale, dot.b_scale) if s is not None)]
        return all(to_linear_layout(v.type.get_shape(), v.type.encoding) is not None for v in values)

    def _scale_operand(self, b: OpBuilder, dot: tt.DotScaledOp, op_idx: int, compute: Attribute) -> SSAValue:
        """`scaleArg`: the operand upcast, times its broadcast scale, NaN-masked."""
        value = dot.a if op_idx == 0 else dot.b
        scale = dot.a_scale if op_idx == 0 else dot.b_scale
        kind = dot.a_elem_type.value.data if op_idx == 0 else dot.b_elem_type.value.data
        location = value_location(value)
        rank = len(value.type.get_shape())
        k_dim = rank - 1 if op_idx == 0 else rank - 2
        if kind == tt.ScaleDotElemType.e2m1:
            shape = list(value.type.get_shape())
            shape[k_dim] *= 2
            encoding = infer_fp4_to_fp_encoding(shape, k_dim, value.type.encoding)
            upcast = ttg.Fp4ToFpOp(value, axis=k_dim, result_type=TensorType(compute, shape, encoding))
            value = b.insert(upcast, location).result
        else:
            value = b.insert(tt.FpToFpOp(value, result_type=with_element(value.type, compute)), location).result
        if scale is None:
            return value
        if op_idx == 1:
            scale = b.insert(trans_op(scale, transpose_order(rank)), value_location(scale)).result
        scale_location = value_location(scale)
        factor = self._scale_to_float(b, scale, compute)
        factor = self._broadcast_scale(b, dot, factor, k_dim)
        factor = b.insert(ttg.ConvertLayoutOp(factor, result_type=value.type), scale_location).result
        scaled = b.insert(arith.MulFOp(value, factor), location).result
        if dot.fastMath.value.data:
            return scaled
        return self._mask_nan(b, dot, scaled, scale, k_dim)

    @staticmethod
    def _scale_to_float(b: OpBuilder, scale: SSAValue, compute: Attribute) -> SSAValue:
        """`scaleTo16`: the e8m0 exponent shifted into the exponent field of a float wide
        enough to hold it (f32 for an fp16 dot, bf16 otherwise), cast to `compute`."""
        location = value_location(scale)
        wide = Float32Type() if isinstance(compute, Float16Type) else compute
        fmt = floats.float_format(wide)
        int_type = IntegerType(fmt.width)
        int_tensor = with_element(scale.type, int_type)
        widened = b.insert(arith.ExtUIOp(scale, result_type=int_tensor), location).out
        shift_value = b.constant(fmt.mantissa_bits, int_type, location)
        shift = b.insert(tt.SplatOp(shift_value, result_type=int_tensor), location).result
        shifted = b.insert(arith.ShLIOp(widened, shift), location).result
        as_float = b.insert(tt.BitcastOp(shifted, result_type=with_element(scale.type, wide)), location).result
        if wide == compute:
            return as_float
        return b.insert(arith.TruncFOp(as_float, result_type=with_element(scale.type, compute)), location).out

    @staticmethod
    def _broadcast_scale(b: OpBuilder, dot: tt.DotScaledOp, scale: SSAValue, dim: int) -> SSAValue:
        """`broadcastScale`: each scale repeated over the 32 elements it covers along `dim`
        (expand a new minor dim, broadcast it to 32, move it next to `dim`, merge)."""
        location = value_location(scale)
        type_ = scale.type
        shape = list(type_.get_shape())
        rank = len(shape)
        blocked = default_blocked_encoding([*shape, 1], num_warps(dot), threads_per_warp(dot), num_ctas(dot))
        sliced_type = with_encoding(type_, SliceEncodingAttr.get(rank, blocked))
        sliced = b.insert(ttg.ConvertLayoutOp(scale, result_type=sliced_type), location).result
        expanded_type = TensorType(type_.element_type, [*shape, 1], blocked)
        expanded = b.insert(tt.ExpandDimsOp(sliced, axis=rank, result_type=expanded_type), location).result
        broadcast_type = TensorType(type_.element_type, [*shape, MX_SCALE_BLOCK], blocked)
        broadcast = b.insert(tt.BroadcastOp(expanded, result_type=broadcast_type), location).result
        order = list(range(rank))
        order.insert(dim + 1, rank)
        transposed = b.insert(trans_op(broadcast, order), location).result
        merged = list(shape)
        merged[dim] *= MX_SCALE_BLOCK
        return b.insert(_reshape(transposed, merged), location).result

    def _mask_nan(self, b: OpBuilder, dot: tt.DotScaledOp, value: SSAValue, scale: SSAValue,
                  dim: int) -> SSAValue:
        """`maskNan`: `where(scale == 0xFF, nan, value)`."""
        location = value_location(scale)
        scale_type = scale.type
        width = element_bit_width(scale_type.element_type)
        all_ones = E8M0_NAN - (1 << width) if E8M0_NAN >> (width - 1) else E8M0_NAN
        all_ones = b.insert(arith.ConstantOp(DenseElementsAttr.splat(scale_type, all_ones)), location).result
        is_nan = b.insert(arith.CmpIOp(arith.CmpIPredicate.eq, scale, all_ones), location).result
        condition = self._broadcast_scale(b, dot, is_nan, dim)
        condition_type = TensorType(i1, condition.type.get_shape(), value.type.encoding)
        condition = b.insert(ttg.ConvertLayoutOp(condition, result_type=condition_type), location).result
        nan = b.insert(arith.ConstantOp(DenseElementsAttr.splat(value.type, float("nan"))), location).result
        return b.insert(arith.SelectOp(condition, nan, value), location).result
