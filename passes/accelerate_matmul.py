"""Pick the tensor-core instruction and layouts for every `tt.dot` and `tt.dot_scaled`.

Follows Triton 3.6 `lib/Dialect/TritonGPU/Transforms/AccelerateMatmul.cpp`
(`BlockedToMMA`, `BlockedToMMAv5`, `ScaledBlockedToMMAv5`, `decomposeMixedModeDotOp`),
with the helpers of `Utility.cpp` (`mmaVersionToInstrShape`, `comesFromLoadOrBlockArg`) and
`lib/Analysis/Utility.cpp` (`supportMMA`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import (
    BFloat16Type,
    Float8E4M3FNType,
    Float8E5M2Type,
    Float16Type,
    Float32Type,
    Float64Type,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    TensorType,
    UnitAttr,
    UnknownLoc,
    i1,
)
from xdsl.ir import Attribute, Block, BlockArgument, Operation, OpResult, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter

from ttpipe.passes.common.ir import erase_dead_chain
from ttpipe.passes.common.mma_layouts import (
    cta_layout_of,
    element_bit_width,
    mma_instr_shape,
    nvmma_shared_for,
    order_for_memory,
    shape_per_cta,
    tmem_accumulator_layout,
    tmem_scales_layout,
    unswizzled_nvmma_shared,
)
from ttpipe.passes.common.target import num_warps, nvidia_compute_capability
from ttpipe.dialects import arith, tt, ttg, ttng
from ttpipe.dialects.ttg_attrs import (
    DotOperandEncodingAttr,
    NvidiaMmaEncodingAttr,
    SharedMemorySpaceAttr,
)
from ttpipe.dialects.ttg_types import AsyncTokenType, MemDescType

FP8_TYPES = (Float8E4M3FNType, Float8E5M2Type)
DOT_OPS = (tt.DotOp, tt.DotScaledOp, ttng.WarpGroupDotOp, ttng.TCGen5MMAOp, ttng.TCGen5MMAScaledOp)
LOAD_OPS = (tt.LoadOp, tt.DescriptorLoadOp, tt.DescriptorGatherOp)
VIEW_OP_NAMES = frozenset({"tt.expand_dims", "tt.reshape", "tt.trans", "tt.join", "tt.split",
                           "ttg.convert_layout", "tt.broadcast"})
ELEMENTWISE_TT_OP_NAMES = frozenset({"tt.fp_to_fp", "tt.bitcast", "tt.precise_sqrt", "tt.precise_divf",
                                     "tt.clampf", "tt.mulhiui", "tt.int_to_ptr", "tt.ptr_to_int",
                                     "tt.addptr", "ttg.fp4_to_fp"})


# ------------------------------------------------------------------ small IR helpers


def value_location(value: SSAValue) -> Attribute:
    """MLIR's `Value::getLoc`: the defining op's location, or the block argument's own."""
    if isinstance(value, OpResult):
        return value.owner.location
    return getattr(value, "location", None) or UnknownLoc()


def created(op: Operation, location: Attribute) -> Operation:
    """`op`, given `location` (new ops take the location of the op they stand for)."""
    op.location = location
    return op


def insert_after_value(op: Operation, value: SSAValue) -> None:
    """`setInsertionPointAfterValue`: right after the def, or first in the argument's block."""
    if isinstance(value, OpResult):
        value.owner.parent.insert_op_after(op, value.owner)
    else:
        block: Block = value.block
        if block.first_op is None:
            block.add_op(op)
        else:
            block.insert_op_before(op, block.first_op)


def strip_converts(value: SSAValue) -> SSAValue:
    while isinstance(value.owner, ttg.ConvertLayoutOp):
        value = value.owner.src
    return value


def with_encoding(type_: TensorType, encoding: Attribute) -> TensorType:
    return TensorType(type_.element_type, type_.get_shape(), encoding)


def convert(value: SSAValue, type_: TensorType, location: Attribute) -> ttg.ConvertLayoutOp:
    return created(ttg.ConvertLayoutOp.build(operands=[value], result_types=[type_]), location)


def comes_from_load_or_block_arg(value: SSAValue) -> bool:
    """`comesFromLoadOrBlockArg`: through converts and transposes to a load or an argument."""
    while isinstance(value.owner, (ttg.ConvertLayoutOp, tt.TransOp)):
        value = value.owner.operands[0]
    return isinstance(value, BlockArgument) or isinstance(value.owner, LOAD_OPS)


def _is_backward_slice_op(op: Operation) -> bool:
    """`bwdFilter` of `computeOrigBitWidth`: pure elementwise ops, views, fp4 upcasts, loads."""
    if isinstance(op, (tt.LoadOp, tt.DescriptorLoadOp)) or op.name in VIEW_OP_NAMES:
        return True
    elementwise = op.name.startswith(("arith.", "math.")) or op.name in ELEMENTWISE_TT_OP_NAMES
    return elementwise and op.name != "arith.constant" and not isinstance(op, arith.ConstantOp)


def original_bit_width(value: SSAValue) -> int:
    """`computeOrigBitWidth`: the narrowest element width `value` was loaded with (4 after
    an fp4 upcast), halved when a `tt.join` widened it on the way."""
    slice_ops: list[Operation] = []
    seen: set[int] = set()
    stack = [value]
    while stack:
        owner = stack.pop().owner
        if not isinstance(owner, Operation) or id(owner) in seen or not _is_backward_slice_op(owner):
            continue
        seen.add(id(owner))
        slice_ops.append(owner)
        stack.extend(owner.operands)
    if any(op.name == "ttg.fp4_to_fp" for op in slice_ops):
        return 4
    width = element_bit_width(value.type.element_type)
    for op in slice_ops:
        if isinstance(op, (tt.LoadOp, tt.DescriptorLoadOp)) and isinstance(op.results[0].type, TensorType):
            width = min(width, element_bit_width(op.results[0].type.element_type))
    if any(op.name == "tt.join" for op in slice_ops):
        width //= 2
    return width


def forward_slice(value: SSAValue) -> list[Operation]:
    """`getForwardSlice`: every op reached by following uses of results, transitively."""
    found: list[Operation] = []
    seen: set[int] = set()
    stack = [use.operation for use in value.uses]
    while stack:
        op = stack.pop()
        if id(op) in seen:
            continue
        seen.add(id(op))
        found.append(op)
        for result in op.results:
            stack.extend(use.operation for use in result.uses)
    return found


def connected_slice(dot: Operation, keep: Callable[[Operation], bool]) -> list[Operation]:
    """`getSlice` with one filter both ways: ops linked to `dot` by def-use chains, in
    program order."""
    found: dict[int, Operation] = {id(dot): dot}
    stack = [dot]
    while stack:
        op = stack.pop()
        neighbours = [v.owner for v in op.operands if isinstance(v.owner, Operation)]
        neighbours += [use.operation for r in op.results for use in r.uses]
        for other in neighbours:
            if id(other) not in found and keep(other):
                found[id(other)] = other
                stack.append(other)
    order = {id(op): i for i, op in enumerate(dot.parent.ops)} if dot.parent else {}
    return sorted(found.values(), key=lambda op: order.get(id(op), len(order)))


def is_fp8(type_: Attribute) -> bool:
    return isinstance(type_, FP8_TYPES)


def is_int8(type_: Attribute) -> bool:
    return isinstance(type_, IntegerType) and type_.width.data == 8


# ------------------------------------------------------------------ MMA support (supportMMA)


def operand_supports_mma(type_: Attribute, version: int) -> bool:
    return (is_fp8(type_) or isinstance(type_, (Float16Type, BFloat16Type))
            or (isinstance(type_, (Float32Type, Float64Type)) and version >= 2)
            or (is_int8(type_) and version >= 2))


def dot_supports_mma(dot: tt.DotOp, version: int, warps: int) -> bool:
    """`supportMMA(DotOp, version)` (DISABLE_MMA_V3/V5 are not read)."""
    a_type, b_type = dot.a.type.element_type, dot.b.type.element_type
    ret = dot.d.type
    cta = cta_layout_of(ret.encoding)
    shape = shape_per_cta(ret.get_shape(), cta) if cta is not None else list(ret.get_shape())
    k = dot.a.type.get_shape()[-1]
    if version == 5:
        if any(isinstance(t, IntegerType) for t in (a_type, b_type, ret.element_type)):
            return False
        return (len(shape) == 2 and warps in (4, 8) and k >= 256 // element_bit_width(a_type)
                and shape[-2] % 64 == 0 and shape[-1] % 16 == 0)
    if version == 3:
        if k < 256 // element_bit_width(a_type) or len(shape) == 3:
            return False
        if not (warps % 4 == 0 and shape[-2] % 64 == 0 and shape[-1] % 16 == 0
                and (is_fp8(a_type) or is_int8(a_type)
                     or isinstance(a_type, (Float16Type, BFloat16Type, Float32Type)))):
            return False
        if (dot.maxNumImpreciseAcc.value.data < 32 and is_fp8(a_type)
                and isinstance(ret.element_type, Float32Type)):
            return False
    if isinstance(a_type, Float32Type) and isinstance(b_type, Float32Type):
        return dot.inputPrecision.value.data == tt.InputPrecision.tf32 and version >= 2
    return operand_supports_mma(a_type, version) and operand_supports_mma(b_type, version)


def mma_version(compute_capability: int, dot: tt.DotOp, warps: int) -> int:
    """`getMMAVersionSafe`: the preferred version the target has and the dot fits, or 0."""
    if compute_capability < 75:
        preferred = (1,)
    elif compute_capability < 90:
        preferred = (2,)
    elif compute_capability < 100:
        preferred = (3, 2)
    elif compute_capability < 110:
        preferred = (5, 2)
    else:
        preferred = (2,)
    return next((v for v in preferred if dot_supports_mma(dot, v, warps)), 0)


# ------------------------------------------------------------------ warps per tile


def warps_per_tile_v2(dot: Operation, shape: Sequence[int], warps: int) -> list[int]:
    """`warpsPerTileV2`: chained dots share the warps of an already chosen mma layout, or
    all go along the longer dim; otherwise balance the 16x8 tiles between M and N."""
    if len(shape) == 3:
        return [warps, 1, 1]
    chained = False
    region = dot.parent_region()
    for op in connected_slice(dot, lambda o: o.parent_region() is region and not isinstance(o, tt.TransOp)):
        if op is dot or not isinstance(op, (tt.DotOp, tt.DotScaledOp)):
            continue
        result = op.results[0].type
        if len(result.get_shape()) != len(shape):
            continue
        if isinstance(result.encoding, NvidiaMmaEncodingAttr):
            return list(result.encoding.warps_per_cta)
        chained = True
    if chained:
        return [warps, 1] if shape[0] >= shape[1] else [1, warps]
    tile = [1, 1]
    reps = [-(-shape[0] // 16), -(-shape[1] // 8)]
    while tile[0] * tile[1] < warps:
        if reps[0] >= reps[1]:
            tile[0] *= 2
            if reps[0] != 1:
                reps[0] //= 2
        else:
            tile[1] *= 2
            reps[1] //= 2
    return tile


def warps_per_tile_v3(dot: Operation, shape: Sequence[int], warps: int, instr_shape: Sequence[int]) -> list[int]:
    """`warpsPerTileV3`: a dot feeding another dot puts every warp on M; otherwise grow the
    (4, 1) warpgroup tile along M while M has room, then along N."""
    if any(isinstance(op, DOT_OPS) for op in forward_slice(dot.results[0])):
        return [warps, 1]
    tile = [4, 1]
    while tile[0] * tile[1] < warps:
        if shape[0] > 16 * tile[0]:
            tile[0] *= 2
        else:
            tile[1] *= 2
    return tile


# ------------------------------------------------------------------ operand staging


@dataclass
class SharedOperand:
    """A dot operand to copy into shared memory: its source (converts peeled) and memdesc type."""

    source: SSAValue
    type: MemDescType

    @staticmethod
    def plan(value: SSAValue, op_idx: int, allow_transpose: bool, fp4_padded: bool = False,
             force_transpose: bool = False) -> SharedOperand | None:
        """`getSharedMemoryMMAOperand`'s choice, or None where the layout is not handled."""
        source = strip_converts(value)
        type_ = source.type
        order = order_for_memory(type_.encoding)
        cta = cta_layout_of(type_.encoding)
        if order is None or cta is None or len(order) != 2:
            return None
        if not allow_transpose:
            order = [0, 1] if op_idx == 1 else [1, 0]
            if force_transpose:
                order.reverse()
        encoding = nvmma_shared_for(type_.get_shape(), order, cta,
                                    element_bit_width(type_.element_type), fp4_padded)
        return SharedOperand(source, MemDescType.get(type_.get_shape(), type_.element_type, encoding,
                                                     SharedMemorySpaceAttr()))

    def stage(self) -> SSAValue:
        alloc = created(ttg.LocalAllocOp.build(operands=[[self.source]], result_types=[self.type]),
                        value_location(self.source))
        insert_after_value(alloc, self.source)
        return alloc.result


def register_operand(value: SSAValue, op_idx: int, bit_width: int, mma: Attribute) -> ttg.ConvertLayoutOp:
    """`convertDotOperandForMMA`: `value` converted to `dot_op<opIdx, mma, kWidth = 32/bits>`."""
    encoding = DotOperandEncodingAttr.get(op_idx, mma, 32 // bit_width)
    return convert(value, with_encoding(value.type, encoding), value_location(value))


def replace_dot(dot: Operation, new_ops: list[Operation], result: SSAValue) -> None:
    """Insert `new_ops` before `dot`, convert `result` back to the dot's type and replace the
    dot with it; then drop the producers the dot alone used."""
    back = convert(result, dot.results[0].type, dot.location)
    dot.parent.insert_ops_before([*new_ops, back], dot)
    producers = [v.owner for v in dot.operands if isinstance(v.owner, Operation)]
    dot.results[0].replace_all_uses_with(back.result)
    dot.detach()
    dot.erase()
    rewriter = PatternRewriter(back)
    for producer in producers:
        erase_dead_chain(rewriter, producer)


def true_constant(location: Attribute) -> arith.ConstantOp:
    return created(arith.ConstantOp.create(result_types=[i1], properties={"value": IntegerAttr(1, i1)}),
                   location)


# ------------------------------------------------------------------ patterns


@dataclass(frozen=True)
class DotToMmaSync:
    """`BlockedToMMA`, versions 2 and 3: mma.sync (`nvidia_mma` v2, operands as `dot_op`
    tensors) or wgmma (v3, `ttng.warp_group_dot` with B, and A when it comes from a load,
    in NVMMA shared memory)."""

    compute_capability: int

    def match_and_rewrite(self, dot: tt.DotOp) -> bool:
        cc = self.compute_capability
        ret = dot.d.type
        if cc < 80 or ret.encoding is None or isinstance(ret.encoding, NvidiaMmaEncodingAttr):
            return False
        types = (dot.a.type.element_type, dot.b.type.element_type, ret.element_type)
        if any(isinstance(t, Float64Type) for t in types) and cc not in (80, 90):
            return False
        if isinstance(types[0], Float64Type):
            return False
        warps = num_warps(dot)
        version = mma_version(cc, dot, warps)
        cta = cta_layout_of(ret.encoding)
        if version not in (2, 3) or cta is None:
            return False
        shape = shape_per_cta(ret.get_shape(), cta)
        instr_shape = mma_instr_shape(version, shape, types[0], warps)
        if instr_shape is None:
            return False
        if version == 3:
            tile = warps_per_tile_v3(dot, shape, warps, instr_shape)
        else:
            tile = warps_per_tile_v2(dot, shape, warps)
        mma = NvidiaMmaEncodingAttr.get(version, 1 if cc == 75 else 0, tile, instr_shape, cta)
        new_ret = with_encoding(ret, mma)
        a, b = dot.a, dot.b
        if version == 3:
            allow_transpose = isinstance(types[0], (Float16Type, BFloat16Type))
            a_in_registers = not comes_from_load_or_block_arg(a)
            a_shared = None if a_in_registers else SharedOperand.plan(a, 0, allow_transpose)
            b_shared = SharedOperand.plan(b, 1, allow_transpose)
            if b_shared is None or (not a_in_registers and a_shared is None):
                return False
            acc = convert(dot.c, new_ret, value_location(dot.c))
            new_ops: list[Operation] = [acc]
            if a_in_registers:
                a_cvt = register_operand(a, 0, element_bit_width(types[0]), mma)
                new_ops.append(a_cvt)
                a_new = a_cvt.result
            else:
                a_new = a_shared.stage()
            b_new = b_shared.stage()
            wgmma = created(ttng.WarpGroupDotOp.build(
                operands=[a_new, b_new, acc.result, []], result_types=[new_ret],
                properties={"inputPrecision": dot.inputPrecision,
                            "maxNumImpreciseAcc": dot.maxNumImpreciseAcc,
                            "isAsync": IntegerAttr(0, i1)}), dot.location)
            replace_dot(dot, [*new_ops, wgmma], wgmma.d)
            return True
        bits = min(original_bit_width(a), original_bit_width(b))
        if bits > 32:
            return False
        acc = convert(dot.c, new_ret, value_location(dot.c))
        a_cvt = register_operand(a, 0, bits, mma)
        b_cvt = register_operand(b, 1, bits, mma)
        mma_dot = created(tt.DotOp.build(
            operands=[a_cvt.result, b_cvt.result, acc.result], result_types=[new_ret],
            properties={"inputPrecision": dot.inputPrecision,
                        "maxNumImpreciseAcc": dot.maxNumImpreciseAcc}), dot.location)
        replace_dot(dot, [acc, a_cvt, b_cvt, mma_dot], mma_dot.d)
        return True


def _tmem_accumulator(ret: TensorType, instr_shape: Sequence[int], warps: int, two_ctas: bool):
    """The TMEM memdesc of a dot's accumulator and the register layout it moves through."""
    cta = cta_layout_of(ret.encoding)
    bits = element_bit_width(ret.element_type)
    if cta is None or bits != 32:
        return None
    layout = tmem_accumulator_layout(ret.get_shape(), warps, cta)
    if layout is None:
        return None
    split = cta.cta_split_num
    encoding = ttng.TensorMemoryEncodingAttr.get(instr_shape[0], instr_shape[1], 32 // bits,
                                                 split[0], split[1], two_ctas)
    memdesc = MemDescType.get(ret.get_shape(), ret.element_type, encoding, ttng.TensorMemorySpaceAttr(),
                              mutable=True)
    return memdesc, with_encoding(ret, layout)


def _accumulator_ops(dot: Operation, memdesc: MemDescType, reg_type: TensorType):
    acc_cvt = convert(dot.operands[2], reg_type, dot.location)
    alloc = created(ttng.TMEMAllocOp.build(operands=[[acc_cvt.result]],
                                           result_types=[memdesc, [AsyncTokenType()]]), dot.location)
    return acc_cvt, alloc


@dataclass(frozen=True)
class DotToTcgen05Mma:
    """`BlockedToMMAv5`: `ttng.tc_gen5_mma` on NVMMA shared operands, the accumulator moved
    into TMEM (`ttng.tmem_alloc`) and back (`ttng.tmem_load`)."""

    compute_capability: int

    def match_and_rewrite(self, dot: tt.DotOp) -> bool:
        ret = dot.d.type
        if ret.encoding is None or isinstance(ret.encoding, NvidiaMmaEncodingAttr):
            return False
        warps = num_warps(dot)
        if mma_version(self.compute_capability, dot, warps) != 5:
            return False
        precision = dot.inputPrecision.value.data
        if (min(original_bit_width(dot.a), original_bit_width(dot.b)) >= 32
                and precision != tt.InputPrecision.tf32):
            return False
        cta = cta_layout_of(ret.encoding)
        if cta is None or _uses_two_ctas(dot, cta):
            return False
        allow_transpose = not isinstance(dot.a.type.element_type, Float32Type)
        a_shared = SharedOperand.plan(dot.a, 0, allow_transpose)
        b_shared = SharedOperand.plan(dot.b, 1, allow_transpose)
        instr_shape = mma_instr_shape(5, shape_per_cta(ret.get_shape(), cta), dot.a.type.element_type, warps)
        accumulator = _tmem_accumulator(ret, instr_shape, warps, False)
        if a_shared is None or b_shared is None or accumulator is None:
            return False
        a_new, b_new = a_shared.stage(), b_shared.stage()
        memdesc, reg_type = accumulator
        acc_cvt, alloc = _accumulator_ops(dot, memdesc, reg_type)
        true = true_constant(dot.location)
        mma = created(ttng.TCGen5MMAOp.build(
            operands=[a_new, b_new, alloc.result, [alloc.token], true.result, true.result, [], []],
            result_types=[[AsyncTokenType()]]), dot.location)
        load = created(ttng.TMEMLoadOp.build(operands=[alloc.result, [mma.token]],
                                             result_types=[reg_type, [AsyncTokenType()]]), dot.location)
        replace_dot(dot, [acc_cvt, alloc, true, mma, load], load.result)
        return True


def _uses_two_ctas(dot: tt.DotOp, cta) -> bool:
    """`canUseTwoCTAs`: M split over a CTA pair, large enough, B loaded from global memory."""
    split = cta.cta_split_num
    if len(split) != 2 or split[0] != 2 or split[1] != 1:
        return False
    shape = shape_per_cta(dot.d.type.get_shape(), cta)
    if shape[0] < 64 or shape[1] < 32:
        return False
    return isinstance(strip_converts(dot.b).owner, LOAD_OPS)


def stage_scale_through_shared(scale: SSAValue) -> SSAValue:
    """`addSmemStageToScaleLoad`: `load` -> `local_load(local_alloc(load))` under the views
    (reshape, trans, convert) between the scale's load and the dot, so that the TMEM copy
    rewrite can later take the scales from shared memory."""
    op = scale.owner
    through_views = False
    while isinstance(op, Operation) and not isinstance(op, (tt.LoadOp, tt.DescriptorLoadOp)):
        if not isinstance(op, (tt.ReshapeOp, tt.TransOp, ttg.ConvertLayoutOp)):
            return scale
        op = op.operands[0].owner
        through_views = True
    if not isinstance(op, Operation):
        return scale
    loaded = op.results[0]
    cta = cta_layout_of(loaded.type.encoding)
    encoding = unswizzled_nvmma_shared(element_bit_width(loaded.type.element_type), cta)
    memdesc = MemDescType.get(loaded.type.get_shape(), loaded.type.element_type, encoding, SharedMemorySpaceAttr())
    alloc = created(ttg.LocalAllocOp.build(operands=[[loaded]], result_types=[memdesc]), op.location)
    local_load = created(ttg.LocalLoadOp.build(operands=[alloc.result, []], result_types=[loaded.type]),
                         op.location)
    op.parent.insert_ops_after([alloc, local_load], op)
    loaded.replace_uses_with_if(local_load.result, lambda use: use.operation is not alloc)
    return scale if through_views else local_load.result


@dataclass(frozen=True)
class DotScaledToTcgen05Mma:
    """`ScaledBlockedToMMAv5`: `ttng.tc_gen5_mma_scaled` with both scales in TMEM; the
    scales' loads are routed through `ttg.local_alloc` + `ttg.local_load`."""

    compute_capability: int

    def match_and_rewrite(self, dot: tt.DotScaledOp) -> bool:
        ret = dot.d.type
        if ret.encoding is None or isinstance(ret.encoding, NvidiaMmaEncodingAttr):
            return False
        if dot.a_scale is None or dot.b_scale is None or self.compute_capability // 10 != 10:
            return False
        cta = cta_layout_of(ret.encoding)
        warps = num_warps(dot)
        if cta is None or warps not in (4, 8):
            return False
        shape = shape_per_cta(ret.get_shape(), cta)
        if shape[0] < 128 or shape[1] < 16:
            return False
        a_kind, b_kind = dot.a_elem_type.value.data, dot.b_elem_type.value.data
        e2m1 = tt.ScaleDotElemType.e2m1
        a_fp4, b_fp4 = a_kind == e2m1, b_kind == e2m1
        lhs_k_pack, rhs_k_pack = bool(dot.lhs_k_pack.value.data), bool(dot.rhs_k_pack.value.data)
        a_padded = (a_kind != b_kind and a_fp4) or not lhs_k_pack
        b_padded = (a_kind != b_kind and not a_fp4 and b_fp4) or not rhs_k_pack
        a_shared = SharedOperand.plan(dot.a, 0, not a_fp4, a_padded, not lhs_k_pack)
        b_shared = SharedOperand.plan(dot.b, 1, not b_fp4, b_padded, not rhs_k_pack)
        accumulator = _tmem_accumulator(ret, [128, min(shape[1], 256)], warps, False)
        scale_layouts = [tmem_scales_layout(s.type.get_shape(), warps, cta_layout_of(s.type.encoding))
                         if cta_layout_of(s.type.encoding) is not None else None
                         for s in (dot.a_scale, dot.b_scale)]
        if a_shared is None or b_shared is None or accumulator is None or None in scale_layouts:
            return False
        a_new, b_new = a_shared.stage(), b_shared.stage()
        memdesc, reg_type = accumulator
        acc_cvt, alloc = _accumulator_ops(dot, memdesc, reg_type)
        split = cta.cta_split_num
        scale_encoding = ttng.TensorMemoryScalesEncodingAttr.get(split[0], split[1])
        scale_cvts, scale_allocs = [], []
        staged = [stage_scale_through_shared(dot.a_scale), stage_scale_through_shared(dot.b_scale)]
        for scale, layout in zip(staged, scale_layouts):
            scale_cvts.append(convert(scale, with_encoding(scale.type, layout), dot.location))
        for scale, cvt in zip(staged, scale_cvts):
            scale_type = MemDescType.get(scale.type.get_shape(), scale.type.element_type, scale_encoding,
                                         ttng.TensorMemorySpaceAttr())
            scale_allocs.append(created(ttng.TMEMAllocOp.build(operands=[[cvt.result]],
                                                               result_types=[scale_type, []]), dot.location))
        true = true_constant(dot.location)
        mma = created(ttng.TCGen5MMAScaledOp.build(
            operands=[a_new, b_new, alloc.result, [alloc.token], scale_allocs[0].result, scale_allocs[1].result,
                      true.result, true.result, [], []],
            result_types=[[AsyncTokenType()]],
            properties={"a_type": dot.a_elem_type, "b_type": dot.b_elem_type}), dot.location)
        load = created(ttng.TMEMLoadOp.build(operands=[alloc.result, [mma.token]],
                                             result_types=[reg_type, [AsyncTokenType()]]), dot.location)
        replace_dot(dot, [acc_cvt, alloc, *scale_cvts, *scale_allocs, true, mma, load], load.result)
        return True


# ------------------------------------------------------------------ clean-ups after the patterns


def promote_mixed_mode_operands(module: ModuleOp, compute_capability: int) -> None:
    """`decomposeMixedModeDotOp`: fp8 operands of an mma.sync dot become f16 unless the
    target multiplies fp8 natively (sm_89, sm_120); FMA dots get operands of the result's
    element type."""
    for dot in [op for op in module.walk() if isinstance(op, tt.DotOp)]:
        a_type = dot.a.type.element_type
        d_type = dot.d.type.element_type
        mma = dot.d.type.encoding
        if isinstance(mma, NvidiaMmaEncodingAttr):
            if not is_fp8(a_type) or compute_capability in (89, 120) or mma.version_major == 3:
                continue
            promoted = Float16Type()
        else:
            if a_type == d_type:
                continue
            promoted = d_type
        if isinstance(promoted, IntegerType) or isinstance(a_type, IntegerType):
            continue
        for index in (0, 1):
            operand = dot.operands[index]
            type_ = TensorType(promoted, operand.type.get_shape(), operand.type.encoding)
            if is_fp8(operand.type.element_type):
                upcast = tt.FpToFpOp.build(operands=[operand], result_types=[type_])
            else:
                upcast = arith.ExtFOp.build(operands=[operand], result_types=[type_])
            dot.parent.insert_op_before(created(upcast, dot.location), dot)
            dot.operands[index] = upcast.results[0]


def fold_constants(func: Operation) -> None:
    """What MLIR's greedy driver does to constants: one `arith.constant` per value and type
    in a function, every one not already in the leading run of constants of the entry
    block moved to its front with an unknown location (a constant that absorbs a duplicate
    also loses its location)."""
    entry = func.regions[0].blocks[0] if func.regions and func.regions[0].blocks else None
    if entry is None:
        return
    known: dict[tuple[Attribute, Attribute], arith.ConstantOp] = {}
    owned: set[int] = set()
    for op in list(func.walk()):
        if not isinstance(op, arith.ConstantOp) or op is func:
            continue
        key = (op.value, op.result.type)
        if key in known:
            op.result.replace_all_uses_with(known[key].result)
            op.detach()
            op.erase()
            known[key].location = UnknownLoc()
            continue
        known[key] = op
        in_leading_run = op.parent is entry and (op is entry.first_op or id(op.prev_op) in owned)
        if not in_leading_run:
            op.detach()
            entry.insert_op_before(op, entry.first_op)
            op.location = UnknownLoc()
        owned.add(id(op))


# ------------------------------------------------------------------ the pass


@dataclass(frozen=True)
class AccelerateMatmul(ModulePass):
    """Pick the tensor-core instruction and layouts for every tt.dot and tt.dot_scaled (NVIDIA).

    Triton 3.6's `tritongpu-accelerate-matmul` (lib/Dialect/TritonGPU/Transforms/AccelerateMatmul.cpp).

    Algorithm:
      1. Read the compute capability from `ttg.target = "cuda:NN"`.
      2. Visit the dots last to first (MLIR's greedy driver pops its post-order worklist
         from the back; this decides where allocs of a shared value land) and
         rewrite each with the first pattern that applies, most specific first:
         `DotScaledToTcgen05Mma` and `DotToTcgen05Mma` (sm_100: tcgen05 with the accumulator
         in TMEM), then `DotToMmaSync` (wgmma on sm_90, mma.sync otherwise; the version is
         `getMMAVersionSafe`'s, instrShape `mmaVersionToInstrShape`'s, warps
         `warpsPerTileV2/V3`'s). A dot no pattern takes stays (FMA).
      3. Promote operands the chosen instruction cannot take (`decomposeMixedModeDotOp`).
      4. Do what the greedy driver does besides: drop producers a rewrite left unused, and
         unique constants and hoist them to the front of their function (new `%true`s have
         an unknown location).

    Preconditions: TTGIR with layouts (after `tritongpu-remove-layout-conversions`),
    `ttg.num-warps` set. A module without a CUDA `ttg.target` is an error at the module.

    Not handled (the dot is left exactly as it is, where Triton would rewrite it):
      - `tt.dot_scaled` where no tcgen05 instruction applies (Triton's
        `DecomposeScaledBlocked` upcasts it into a `tt.dot`; sm_90's mxfp path), a
        `tt.dot_scaled` with one scale (Triton transposes it first), and sm_120's
        `ScaledBlockedToMMA`;
      - tcgen05 accumulators other than 32-bit with 128 rows per CTA, scales other than
        power-of-two shapes with 4 warps, and the two-CTA (`cta_group::2`) split of B;
      - operands whose layout is not blocked (the shared-memory order comes from the
        blocked `order`, not from Triton's linear-layout heuristic).

    Differences from Triton: no remarks or warnings are printed; the greedy driver's other
    folds are not run.
    """

    name = "ttpipe-accelerate-matmul"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        compute_capability = nvidia_compute_capability(op)
        dot_patterns = (DotToTcgen05Mma(compute_capability), DotToMmaSync(compute_capability))
        scaled_patterns = (DotScaledToTcgen05Mma(compute_capability),)
        for dot in reversed([o for o in op.walk() if isinstance(o, (tt.DotOp, tt.DotScaledOp))]):
            patterns = dot_patterns if isinstance(dot, tt.DotOp) else scaled_patterns
            for pattern in patterns:
                if pattern.match_and_rewrite(dot):
                    break
        promote_mixed_mode_operands(op, compute_capability)
        for func in [o for o in op.walk() if isinstance(o, tt.FuncOp)]:
            fold_constants(func)
