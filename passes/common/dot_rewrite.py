"""What the rewrites of `tt.dot` and `tt.dot_scaled` onto tensor cores share: the dot-operand
layout of an MMA, transposes and retyped tensors, and the replacement of a dot by its rewritten form, as Triton's
`AccelerateMatmul.cpp` and `DecomposeScaledBlocked.cpp` build them
(`DotOperandEncodingAttr::get(opIdx, parent, eltTy)`, `replaceOpWithNewOp<ConvertLayoutOp>`).
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import TensorType
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.rewriter import InsertPoint

from ttpipe.dialects import tt, ttg
from ttpipe.dialects.ttg_attrs import DotOperandEncodingAttr, NvidiaMmaEncodingAttr
from ttpipe.passes.common.builder import OpBuilder, value_location
from ttpipe.passes.common.distributed_layouts import infer_trans_encoding
from ttpipe.passes.common.greedy import Rewriter
from ttpipe.passes.common.hardware import register_k_width


def with_element(type_: TensorType, element_type: Attribute) -> TensorType:
    """`RankedTensorType::clone(elementType)`."""
    return TensorType(element_type, type_.get_shape(), type_.encoding)


def trans_op(value: SSAValue, order: Sequence[int]) -> tt.TransOp:
    """`tt.trans` of `value` by `order`, with the result type Triton's builder infers."""
    type_ = value.type
    encoding = infer_trans_encoding(type_.encoding, type_.get_shape(), order)
    result = TensorType(type_.element_type, [type_.get_shape()[i] for i in order], encoding)
    return tt.TransOp(value, order=order, result_type=result)


def with_encoding(type_: TensorType, encoding: Attribute) -> TensorType:
    """`RankedTensorType::cloneWithEncoding`."""
    return TensorType(type_.element_type, type_.get_shape(), encoding)


def accumulator_in(b: OpBuilder, dot: Operation, mma: Attribute) -> SSAValue:
    """`dot`'s accumulator converted to the MMA layout `mma`: the rewritten dot's C."""
    converted = ttg.ConvertLayoutOp(dot.c, result_type=with_encoding(dot.d.type, mma))
    return b.insert(converted, value_location(dot.c)).result


def register_operand(b: OpBuilder, value: SSAValue, op_idx: int, bit_width: int, mma: Attribute) -> SSAValue:
    """`convertDotOperandForMMA`: `value` converted to the dot-operand layout of `mma`."""
    type_ = with_encoding(value.type, dot_operand_encoding(op_idx, mma, bit_width))
    return b.insert(ttg.ConvertLayoutOp(value, result_type=type_), value_location(value)).result


def replace_with_convert(rewriter: Rewriter, op: Operation, result: SSAValue) -> None:
    """`replaceOpWithNewOp<ConvertLayoutOp>(op, op.getType(), result)`: a convert of `result`
    back to `op`'s type, right before `op` and at its location, replaces `op`."""
    back = OpBuilder(InsertPoint.before(op), op.location, rewriter).insert(
        ttg.ConvertLayoutOp(result, result_type=op.results[0].type))
    rewriter.replace_op(op, [back.result])


def dot_operand_encoding(op_idx: int, parent: Attribute, element_bits: int) -> DotOperandEncodingAttr:
    """`DotOperandEncodingAttr::get(opIdx, parent, eltTy)`: for mma.sync and wgmma parents,
    kWidth is what one register holds along K (`register_k_width`); none otherwise."""
    if isinstance(parent, NvidiaMmaEncodingAttr) and (parent.is_ampere or parent.is_hopper):
        return DotOperandEncodingAttr.get(op_idx, parent, register_k_width(element_bits))
    return DotOperandEncodingAttr.get(op_idx, parent, 0)
