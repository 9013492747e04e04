"""Pick the tensor-core instruction and layouts for every `tt.dot` and `tt.dot_scaled`.

Follows Triton 3.6 `lib/Dialect/TritonGPU/Transforms/AccelerateMatmul.cpp` (`BlockedToMMA`,
`BlockedToMMAv5`, `ScaledBlockedToMMA`, `ScaledBlockedToMMAv5`, `transposeDots`,
`decomposeMixedModeDotOp`), `DecomposeScaledBlocked.cpp`, the helpers of `Utility.cpp`
(`mmaVersionToInstrShape`, `comesFromLoadOrBlockArg`) and `lib/Analysis/Utility.cpp`
(`supportMMA`). The rewrites run under `ttpipe.passes.common.greedy`, MLIR's greedy driver,
because the driver decides as much of Triton's output as the rewrites do.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import (
    BFloat16Type,
    DenseArrayBase,
    Float8E4M3B11FNUZType,
    Float8E4M3FNType,
    Float8E4M3FNUZType,
    Float8E5M2FNUZType,
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
    i32,
    i64,
)
from xdsl.ir import Attribute, BlockArgument, Operation, OpResult, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter as XdslRewriter

from ttpipe.dialects import arith, tt, ttg, ttng
from ttpipe.dialects.builtin import DenseElementsAttr
from ttpipe.dialects.ttg_attrs import (
    AMDMfmaEncodingAttr,
    AMDWmmaEncodingAttr,
    BlockedEncodingAttr,
    CTAEncodingAttr,
    DotOperandEncodingAttr,
    LinearEncodingAttr,
    NvidiaMmaEncodingAttr,
    SharedMemorySpaceAttr,
    SliceEncodingAttr,
)
from ttpipe.dialects.ttg_types import AsyncTokenType, MemDescType
from ttpipe.passes.common.diagnostics import emit_remark, emit_warning
from ttpipe.passes.common.distributed_layouts import (
    cta_layout_of,
    default_blocked_encoding,
    infer_fp4_to_fp_encoding,
    infer_reshape_encoding,
    infer_trans_encoding,
    linear_encoding,
    memory_order,
    sm120_scale_layout,
    to_linear_layout,
)
from ttpipe.passes.common.greedy import Rewriter, apply_patterns_greedily
from ttpipe.passes.common.mma_layouts import (
    element_bit_width,
    mma_instr_shape,
    nvmma_shared_for,
    shape_per_cta,
    unswizzled_nvmma_shared,
)
from ttpipe.passes.common.target import bool_env, num_ctas, num_warps, nvidia_compute_capability, threads_per_warp
from ttpipe.passes.common.tmem_layouts import default_tmem_register_layout
from ttpipe.ir import floats

NATIVE_FP8_TYPES = (Float8E5M2Type, Float8E4M3FNType)
"""The fp8 formats wgmma and tcgen05 take (and mma.sync on sm_89 and sm_120)."""
FP8_TYPES = (*NATIVE_FP8_TYPES, Float8E4M3FNUZType, Float8E5M2FNUZType, Float8E4M3B11FNUZType)
"""Triton's `type::isFloat8`."""
DOT_INTERFACE_OPS = (tt.DotOp, tt.DotScaledOp, ttng.WarpGroupDotOp, ttng.TCGen5MMAOp, ttng.TCGen5MMAScaledOp)
LOAD_OPS = (tt.LoadOp, tt.DescriptorLoadOp, tt.DescriptorGatherOp)
VIEW_OPS = (tt.ExpandDimsOp, tt.ReshapeOp, tt.TransOp, tt.JoinOp, tt.SplitOp)
"""Triton's `isView`."""
ELEMENTWISE_TT_OPS = (tt.FpToFpOp, tt.BitcastOp, tt.IntToPtrOp, tt.PtrToIntOp, tt.AddPtrOp, tt.PreciseSqrtOp,
                      tt.PreciseDivFOp, tt.ClampFOp, tt.MulhiUIOp)
MMA_ENCODINGS = (NvidiaMmaEncodingAttr, AMDMfmaEncodingAttr, AMDWmmaEncodingAttr)
DISABLE_MMA_V3_ENV, DISABLE_MMA_V5_ENV = "DISABLE_MMA_V3", "DISABLE_MMA_V5"
SCALE_GROUP = 32
"""Elements along K that share one microscaling (mx) scale."""
NAN_SCALE = 0xFF
"""The e8m0 scale that stands for NaN."""
BENEFIT_DEFAULT, BENEFIT_MMA_V5, BENEFIT_SM120 = 1, 10, 10


# ------------------------------------------------------------------ small IR helpers


def value_location(value: SSAValue) -> Attribute:
    """MLIR's `Value::getLoc`: the defining op's location, or the block argument's own."""
    if isinstance(value, OpResult):
        return value.owner.location
    return getattr(value, "location", None) or UnknownLoc()


def located(op: Operation, location: Attribute) -> Operation:
    op.location = location
    return op


def with_encoding(type_: TensorType, encoding: Attribute) -> TensorType:
    return TensorType(type_.element_type, type_.get_shape(), encoding)


def convert(value: SSAValue, type_: TensorType, location: Attribute) -> ttg.ConvertLayoutOp:
    return located(ttg.ConvertLayoutOp.build(operands=[value], result_types=[type_]), location)


def strip_converts(value: SSAValue) -> SSAValue:
    while isinstance(value.owner, ttg.ConvertLayoutOp):
        value = value.owner.src
    return value


def is_fp8(type_: Attribute) -> bool:
    return isinstance(type_, FP8_TYPES)


def is_int(type_: Attribute, width: int | None = None) -> bool:
    return isinstance(type_, IntegerType) and (width is None or type_.width.data == width)


def true_constant(location: Attribute) -> arith.ConstantOp:
    return located(arith.ConstantOp.create(result_types=[i1], properties={"value": IntegerAttr(1, i1)}),
                   location)


def replace_dot(rewriter: Rewriter, dot: Operation, new_ops: list[Operation], result: SSAValue) -> None:
    """`replaceOpWithNewOp<ConvertLayoutOp>(dot, ...)`: `new_ops` and a convert back to the
    dot's type go before the dot, which the convert replaces."""
    back = convert(result, dot.results[0].type, dot.location)
    rewriter.insert_before(dot, [*new_ops, back])
    rewriter.replace_op(dot, [back.result])


def comes_from_load_or_block_arg(value: SSAValue) -> bool:
    """`comesFromLoadOrBlockArg`: through converts, transposes and memdesc views to a load
    or an argument."""
    while isinstance(value, OpResult):
        owner = value.owner
        if isinstance(owner, (ttg.ConvertLayoutOp, tt.TransOp)) or owner.name.startswith("ttg.memdesc_"):
            value = owner.operands[0]
            continue
        break
    return isinstance(value, BlockArgument) or isinstance(value.owner, LOAD_OPS)


def _in_bit_width_slice(op: Operation) -> bool:
    """`bwdFilter` of `computeOrigBitWidth`: pure elementwise ops, views, fp4 upcasts,
    loads, broadcasts and converts."""
    if isinstance(op, (*VIEW_OPS, ttg.Fp4ToFpOp, tt.LoadOp, tt.DescriptorLoadOp, tt.BroadcastOp,
                       ttg.ConvertLayoutOp)):
        return True
    if isinstance(op, (tt.ElementwiseInlineAsmOp, tt.ExternElementwiseOp)):
        return bool(op.pure.value.data)
    elementwise = (op.name.startswith("math.") or isinstance(op, ELEMENTWISE_TT_OPS)
                   or (op.name.startswith("arith.") and not isinstance(op, arith.ConstantOp)))
    return elementwise


def original_bit_width(value: SSAValue) -> int:
    """`computeOrigBitWidth`: the narrowest element width `value` was loaded with (4 after
    an fp4 upcast), halved when a `tt.join` widened it on the way. The backward slice
    leaves out `value`'s own producer and stops at ops outside `_in_bit_width_slice`."""
    width = element_bit_width(value.type.element_type)
    root = value.owner
    if not isinstance(root, Operation) or not _in_bit_width_slice(root):
        return width
    sliced: list[Operation] = []
    seen = {id(root)}
    stack = [root]
    while stack:
        for operand in stack.pop().operands:
            owner = operand.owner
            if isinstance(owner, Operation) and id(owner) not in seen and _in_bit_width_slice(owner):
                seen.add(id(owner))
                sliced.append(owner)
                stack.append(owner)
    if any(isinstance(op, ttg.Fp4ToFpOp) for op in sliced):
        return 4
    for op in sliced:
        if isinstance(op, (tt.LoadOp, tt.DescriptorLoadOp)) and isinstance(op.results[0].type, TensorType):
            width = min(width, element_bit_width(op.results[0].type.element_type))
    if any(isinstance(op, tt.JoinOp) for op in sliced):
        width //= 2
    return width


def forward_slice(op: Operation) -> list[Operation]:
    """`getForwardSlice(op)`: users of results, transitively, and the ops nested in them."""
    found: dict[int, Operation] = {}

    def visit(current: Operation) -> None:
        for region in current.regions:
            for block in region.blocks:
                for nested in block.ops:
                    if id(nested) not in found:
                        visit(nested)
        for result in current.results:
            for use in result.uses:
                if id(use.operation) not in found:
                    visit(use.operation)
        found[id(current)] = current

    visit(op)
    found.pop(id(op), None)
    return list(found.values())


def connected_slice(dot: Operation) -> list[Operation]:
    """`getSlice(dot, filter, filter)` of `warpsPerTileV2`: the ops of the dot's region,
    transposes excluded, linked to it by def-use chains; in program order."""
    region = dot.parent_region()

    def keep(op: Operation) -> bool:
        return op.parent_region() is region and not isinstance(op, tt.TransOp)

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
    position = {id(op): i for i, op in enumerate(dot.parent.ops)}
    return sorted(found.values(), key=lambda op: position.get(id(op), len(position)))


# ------------------------------------------------------------------ MMA support (supportMMA)


def operand_supports_mma(type_: Attribute, version: int) -> bool:
    """`supportMMA(Value, version)`: fp8 can always be promoted to fp16."""
    return (is_fp8(type_) or isinstance(type_, (Float16Type, BFloat16Type))
            or (isinstance(type_, (Float32Type, Float64Type)) and version >= 2)
            or (is_int(type_, 8) and version >= 2))


def dot_supports_mma(dot: tt.DotOp, version: int, warps: int) -> bool:
    """`supportMMA(DotOp, version)`."""
    a_type, b_type = dot.a.type.element_type, dot.b.type.element_type
    ret = dot.d.type
    shape = shape_per_cta(ret.get_shape(), cta_layout_of(ret.encoding))
    k = dot.a.type.get_shape()[-1]
    if version == 5:
        if bool_env(DISABLE_MMA_V5_ENV) or any(is_int(t) for t in (a_type, b_type, ret.element_type)):
            return False
        return (len(shape) == 2 and warps in (4, 8) and k >= 256 // element_bit_width(a_type)
                and shape[-2] % 64 == 0 and shape[-1] % 16 == 0)
    if version == 3:
        if bool_env(DISABLE_MMA_V3_ENV) or k < 256 // element_bit_width(a_type) or len(shape) == 3:
            return False
        if not (warps % 4 == 0 and shape[-2] % 64 == 0 and shape[-1] % 16 == 0
                and (isinstance(a_type, (*NATIVE_FP8_TYPES, Float16Type, BFloat16Type, Float32Type))
                     or is_int(a_type, 8))):
            return False
        if (dot.maxNumImpreciseAcc.value.data < 32 and isinstance(a_type, NATIVE_FP8_TYPES)
                and isinstance(ret.element_type, Float32Type)):
            return False
    if isinstance(a_type, Float32Type) and isinstance(b_type, Float32Type):
        return dot.inputPrecision.value.data == tt.InputPrecision.tf32 and version >= 2
    return operand_supports_mma(a_type, version) and operand_supports_mma(b_type, version)


def mma_version(compute_capability: int, dot: tt.DotOp) -> int:
    """`getMMAVersionSafe`: the first version the target prefers that the dot fits, or 0;
    each wgmma/tcgen05 version passed over is reported as a remark on the dot."""
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
    warps = num_warps(dot)
    for version in preferred:
        if dot_supports_mma(dot, version, warps):
            return version
        if version in (3, 5):
            emit_remark(dot, f"MMA version {version} acceleration not applied due to unsupported shapes or "
                             "data types.",
                        f"Target compute capability ({compute_capability}) supports MMA v{version}.")
    return 0


# ------------------------------------------------------------------ layouts of the new IR


def warps_per_tile_v2(dot: Operation, shape: Sequence[int], warps: int) -> list[int]:
    """`warpsPerTileV2`: chained dots share the warps of an already chosen mma layout, or
    all go along the longer dim; otherwise balance the 16x8 tiles between M and N."""
    if len(shape) == 3:
        return [warps, 1, 1]
    chained = False
    for op in connected_slice(dot):
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


def warps_per_tile_v3(dot: Operation, shape: Sequence[int], warps: int) -> list[int]:
    """`warpsPerTileV3`: a dot feeding another dot puts every warp on M; otherwise grow the
    (4, 1) warpgroup tile along M while M has room, then along N."""
    if any(isinstance(op, DOT_INTERFACE_OPS) for op in forward_slice(dot)):
        return [warps, 1]
    tile = [4, 1]
    while tile[0] * tile[1] < warps:
        if shape[0] > 16 * tile[0]:
            tile[0] *= 2
        else:
            tile[1] *= 2
    return tile


def mma_encoding(dot: Operation, compute_capability: int, version: int) -> NvidiaMmaEncodingAttr:
    """`createMMAEncodingForDot`'s layout: instrShape, warps per tile and the CTA layout of
    the dot's result."""
    ret = dot.results[0].type
    cta = cta_layout_of(ret.encoding)
    shape = shape_per_cta(ret.get_shape(), cta)
    warps = num_warps(dot)
    instr_shape = mma_instr_shape(version, shape, dot.operands[0].type.element_type, warps)
    tile = warps_per_tile_v3(dot, shape, warps) if version == 3 else warps_per_tile_v2(dot, shape, warps)
    return NvidiaMmaEncodingAttr.get(version, 1 if compute_capability == 75 else 0, tile, instr_shape, cta)


def dot_operand_encoding(op_idx: int, parent: Attribute, element_bits: int) -> DotOperandEncodingAttr:
    """`DotOperandEncodingAttr::get(opIdx, parent, eltTy)`: kWidth = 32 / bits (at least 1)
    for mma.sync and wgmma parents, none otherwise."""
    if isinstance(parent, NvidiaMmaEncodingAttr) and (parent.is_ampere or parent.is_hopper):
        return DotOperandEncodingAttr.get(op_idx, parent, max(32 // element_bits, 1))
    return DotOperandEncodingAttr.get(op_idx, parent, 0)


def register_operand(value: SSAValue, op_idx: int, bit_width: int, mma: Attribute) -> ttg.ConvertLayoutOp:
    """`convertDotOperandForMMA`: `value` converted to the dot-operand layout of `mma`."""
    return convert(value, with_encoding(value.type, dot_operand_encoding(op_idx, mma, bit_width)),
                   value_location(value))


@dataclass
class SharedOperand:
    """`getSharedMemoryMMAOperand`, planned before any IR is made: the operand's source
    (converts peeled), the NVMMA memdesc it is copied to, and whether that forces a
    different order than the registers have."""

    source: SSAValue
    type: MemDescType
    forced_order: list[int] | None

    @staticmethod
    def plan(value: SSAValue, op_idx: int, allow_transpose: bool, fp4_padded: bool = False,
             force_transpose: bool = False, source_type: TensorType | None = None) -> SharedOperand | None:
        """None where the source's layout has no linear layout here. `source_type` stands
        for the source's type when a rewrite is about to change it."""
        source = strip_converts(value)
        type_ = source_type or source.type
        order = memory_order(type_.encoding, type_.get_shape())
        cta = cta_layout_of(type_.encoding)
        if order is None or cta is None:
            return None
        new_order = list(order)
        if not allow_transpose:
            new_order = [0, 1] if op_idx == 1 else [1, 0]
            if force_transpose:
                new_order.reverse()
        encoding = nvmma_shared_for(type_.get_shape(), new_order, cta, element_bit_width(type_.element_type),
                                    fp4_padded)
        memdesc = MemDescType.get(type_.get_shape(), type_.element_type, encoding, SharedMemorySpaceAttr())
        return SharedOperand(source, memdesc, new_order if new_order != order else None)

    def stage(self, rewriter: Rewriter, op_idx: int, warn_on: Operation | None = None) -> SSAValue:
        """The `ttg.local_alloc`, right after the source is defined."""
        if warn_on is not None and self.forced_order is not None:
            first, second = self.forced_order[:2]
            emit_warning(warn_on, f"Warning: Forcing a different order [{first}, {second}] on SMEM than the "
                                  f"register order for the operand {op_idx}. Registers will be transposed before "
                                  "SMEM store and the pipelined load for this operand will be disabled, so poor "
                                  "performance is expected. Recommendation: consider transposing the operand in "
                                  "global memory to remove the need to transpose the tensor in registers.")
        alloc = located(ttg.LocalAllocOp.build(operands=[[self.source]], result_types=[self.type]),
                        value_location(self.source))
        rewriter.insert_after_value(self.source, [alloc])
        return alloc.result


@dataclass(frozen=True)
class TmemAccumulator:
    """The TMEM memdesc of a tcgen05 accumulator and the register layout it moves through."""

    memdesc: MemDescType
    registers: TensorType

    @staticmethod
    def plan(ret: TensorType, block_m: int, block_n: int, warps: int, two_ctas: bool) -> TmemAccumulator | None:
        cta = cta_layout_of(ret.encoding)
        bits = element_bit_width(ret.element_type)
        split = cta.cta_split_num
        encoding = ttng.TensorMemoryEncodingAttr.get(block_m, block_n, 32 // bits, split[0], split[1], two_ctas)
        memdesc = MemDescType.get(ret.get_shape(), ret.element_type, encoding, ttng.TensorMemorySpaceAttr(),
                                  mutable=True)
        layout = default_tmem_register_layout(ret.get_shape(), bits, encoding, warps, cta)
        return None if layout is None else TmemAccumulator(memdesc, with_encoding(ret, layout))

    def allocate(self, acc: SSAValue, location: Attribute) -> tuple[ttg.ConvertLayoutOp, ttng.TMEMAllocOp]:
        cvt = convert(acc, self.registers, location)
        alloc = located(ttng.TMEMAllocOp.build(operands=[[cvt.result]],
                                               result_types=[self.memdesc, [AsyncTokenType()]]), location)
        return cvt, alloc

    def load(self, alloc: ttng.TMEMAllocOp, token: SSAValue, location: Attribute) -> ttng.TMEMLoadOp:
        return located(ttng.TMEMLoadOp.build(operands=[alloc.result, [token]],
                                             result_types=[self.registers, [AsyncTokenType()]]), location)


# ------------------------------------------------------------------ patterns


@dataclass(frozen=True)
class DotToMmaSync:
    """`BlockedToMMA`: mma.sync (`nvidia_mma` v2: a `tt.dot` on `dot_op` register operands)
    or wgmma (v3: `ttng.warp_group_dot` with B, and A when it comes from a load or an
    argument, in NVMMA shared memory)."""

    compute_capability: int
    root = tt.DotOp
    benefit = BENEFIT_DEFAULT

    def match_and_rewrite(self, dot: tt.DotOp, rewriter: Rewriter) -> bool:
        cc = self.compute_capability
        if cc < 70:
            return False
        if cc < 80:
            emit_remark(dot, f"Dot op using MMA for compute capability {cc} has been deprecated. It falls back "
                             "to the FMA path.")
            return False
        ret = dot.d.type
        if ret.encoding is None or isinstance(ret.encoding, NvidiaMmaEncodingAttr):
            return False
        types = (dot.a.type.element_type, dot.b.type.element_type, ret.element_type)
        if any(isinstance(t, Float64Type) for t in types) and cc not in (80, 90):
            return False
        version = mma_version(cc, dot)
        if version not in (2, 3):
            return False
        if version == 3:
            return self._wgmma(dot, rewriter, types[0])
        return self._mma_sync(dot, rewriter)

    def _mma_sync(self, dot: tt.DotOp, rewriter: Rewriter) -> bool:
        mma = mma_encoding(dot, self.compute_capability, 2)
        new_ret = with_encoding(dot.d.type, mma)
        bits = min(original_bit_width(dot.a), original_bit_width(dot.b))
        acc = convert(dot.c, new_ret, value_location(dot.c))
        a_cvt = register_operand(dot.a, 0, bits, mma)
        b_cvt = register_operand(dot.b, 1, bits, mma)
        mma_dot = located(tt.DotOp.build(
            operands=[a_cvt.result, b_cvt.result, acc.result], result_types=[new_ret],
            properties={"inputPrecision": dot.inputPrecision, "maxNumImpreciseAcc": dot.maxNumImpreciseAcc}),
            dot.location)
        replace_dot(rewriter, dot, [acc, a_cvt, b_cvt, mma_dot], mma_dot.d)
        return True

    def _wgmma(self, dot: tt.DotOp, rewriter: Rewriter, a_type: Attribute) -> bool:
        allow_transpose = isinstance(a_type, (Float16Type, BFloat16Type))
        a_from_load = comes_from_load_or_block_arg(dot.a)
        a_shared = SharedOperand.plan(dot.a, 0, allow_transpose) if a_from_load else None
        b_shared = SharedOperand.plan(dot.b, 1, allow_transpose)
        if b_shared is None or (a_from_load and a_shared is None):
            return False
        mma = mma_encoding(dot, self.compute_capability, 3)
        new_ret = with_encoding(dot.d.type, mma)
        acc = convert(dot.c, new_ret, value_location(dot.c))
        rewriter.insert_before(dot, [acc])
        if a_shared is None:
            a_cvt = register_operand(dot.a, 0, element_bit_width(a_type), mma)
            rewriter.insert_before(dot, [a_cvt])
            a_new = a_cvt.result
        else:
            a_new = a_shared.stage(rewriter, 0, dot)
        b_new = b_shared.stage(rewriter, 1, dot)
        wgmma = located(ttng.WarpGroupDotOp.build(
            operands=[a_new, b_new, acc.result, []], result_types=[new_ret],
            properties={"inputPrecision": dot.inputPrecision, "maxNumImpreciseAcc": dot.maxNumImpreciseAcc,
                        "isAsync": IntegerAttr(0, i1)}), dot.location)
        replace_dot(rewriter, dot, [wgmma], wgmma.d)
        return True


def uses_two_ctas(dot: tt.DotOp) -> bool:
    """`canUseTwoCTAs`: M split over a CTA pair, large enough, B loaded from global memory."""
    ret = dot.d.type
    cta = cta_layout_of(ret.encoding)
    split = cta.cta_split_num
    if len(split) != 2 or split[0] != 2 or split[1] != 1:
        return False
    shape = shape_per_cta(ret.get_shape(), cta)
    if shape[0] < 64 or shape[1] < 32:
        return False
    return isinstance(strip_converts(dot.b).owner, LOAD_OPS)


def _with_cta(encoding: Attribute, cta: CTAEncodingAttr) -> Attribute | None:
    """`replaceCTALayout` (blocked and slice layouts)."""
    if isinstance(encoding, BlockedEncodingAttr):
        return BlockedEncodingAttr.get(encoding.size_per_thread, encoding.threads_per_warp,
                                       encoding.warps_per_cta, encoding.order, cta)
    if isinstance(encoding, SliceEncodingAttr):
        parent = _with_cta(encoding.parent, cta)
        return None if parent is None else SliceEncodingAttr.get(encoding.dim, parent)
    return None


def split_b_operand(b: SSAValue, rewriter: Rewriter) -> SSAValue:
    """`splitBOperand`: the load of B re-laid out with its N dim split over the CTA pair
    (tensor operands converted before the load, the result converted back after it)."""
    loaded = strip_converts(b)
    load = loaded.owner
    layout = _with_cta(loaded.type.encoding, CTAEncodingAttr.get([[0, 1]], 2))
    for index, operand in enumerate(list(load.operands)):
        if not isinstance(operand.type, TensorType):
            continue
        cvt = convert(operand, with_encoding(operand.type, layout), value_location(operand))
        rewriter.insert_before(load, [cvt])
        load.operands[index] = cvt.result
    old_type = loaded.type
    loaded = XdslRewriter.replace_value_with_new_type(loaded, with_encoding(old_type, layout))
    back = convert(loaded, old_type, load.location)
    rewriter.insert_after(load, [back])
    rewriter.replace_all_uses_with(loaded, back.result, keep=lambda op: op is back)
    return loaded


@dataclass(frozen=True)
class DotToTcgen05Mma:
    """`BlockedToMMAv5`: `ttng.tc_gen5_mma` on NVMMA shared operands, the accumulator moved
    into TMEM (`ttng.tmem_alloc`) and back (`ttng.tmem_load`); B split over a CTA pair
    (`cta_group::2`) when M is."""

    compute_capability: int
    root = tt.DotOp
    benefit = BENEFIT_MMA_V5

    def match_and_rewrite(self, dot: tt.DotOp, rewriter: Rewriter) -> bool:
        ret = dot.d.type
        if ret.encoding is None or isinstance(ret.encoding, NvidiaMmaEncodingAttr):
            return False
        cta = cta_layout_of(ret.encoding)
        warps = num_warps(dot)
        if mma_version(self.compute_capability, dot) != 5:
            return False
        if (min(original_bit_width(dot.a), original_bit_width(dot.b)) >= 32
                and dot.inputPrecision.value.data != tt.InputPrecision.tf32):
            return False
        two_ctas = uses_two_ctas(dot)
        instr_shape = mma_instr_shape(5, shape_per_cta(ret.get_shape(), cta), dot.a.type.element_type, warps)
        accumulator = TmemAccumulator.plan(ret, instr_shape[0], instr_shape[1], warps, two_ctas)
        allow_transpose = not isinstance(dot.a.type.element_type, Float32Type)
        a_shared = SharedOperand.plan(dot.a, 0, allow_transpose)
        b_type = strip_converts(dot.b).type
        if two_ctas:
            b_layout = _with_cta(b_type.encoding, CTAEncodingAttr.get([[0, 1]], 2))
            b_type = None if b_layout is None else with_encoding(b_type, b_layout)
        b_shared = None if b_type is None else SharedOperand.plan(dot.b, 1, allow_transpose, source_type=b_type)
        if accumulator is None or a_shared is None or b_shared is None:
            return False
        if two_ctas:
            b_shared.source = split_b_operand(dot.b, rewriter)
        a_new = a_shared.stage(rewriter, 0)
        b_new = b_shared.stage(rewriter, 1)
        acc_cvt, alloc = accumulator.allocate(dot.c, dot.location)
        true = true_constant(dot.location)
        mma = located(ttng.TCGen5MMAOp.build(
            operands=[a_new, b_new, alloc.result, [alloc.token], true.result, true.result, [], []],
            result_types=[[AsyncTokenType()]], properties={"two_ctas": UnitAttr()} if two_ctas else {}),
            dot.location)
        load = accumulator.load(alloc, mma.token, dot.location)
        replace_dot(rewriter, dot, [acc_cvt, alloc, true, mma, load], load.result)
        return True


def stage_scale_through_shared(scale: SSAValue, rewriter: Rewriter) -> SSAValue:
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
    encoding = unswizzled_nvmma_shared(element_bit_width(loaded.type.element_type),
                                       cta_layout_of(loaded.type.encoding))
    memdesc = MemDescType.get(loaded.type.get_shape(), loaded.type.element_type, encoding, SharedMemorySpaceAttr())
    alloc = located(ttg.LocalAllocOp.build(operands=[[loaded]], result_types=[memdesc]), op.location)
    local_load = located(ttg.LocalLoadOp.build(operands=[alloc.result, []], result_types=[loaded.type]),
                         op.location)
    rewriter.insert_after(op, [alloc])
    rewriter.insert_after(alloc, [local_load])
    rewriter.replace_all_uses_with(loaded, local_load.result, keep=lambda user: user is alloc)
    return scale if through_views else local_load.result


@dataclass(frozen=True)
class DotScaledToTcgen05Mma:
    """`ScaledBlockedToMMAv5`: `ttng.tc_gen5_mma_scaled` with both scales in TMEM; the
    scales' loads are routed through `ttg.local_alloc` + `ttg.local_load`."""

    compute_capability: int
    root = tt.DotScaledOp
    benefit = BENEFIT_MMA_V5

    def match_and_rewrite(self, dot: tt.DotScaledOp, rewriter: Rewriter) -> bool:
        ret = dot.d.type
        if ret.encoding is None or isinstance(ret.encoding, NvidiaMmaEncodingAttr):
            return False
        if dot.a_scale is None or dot.b_scale is None:
            return False
        cta = cta_layout_of(ret.encoding)
        shape = shape_per_cta(ret.get_shape(), cta)
        warps = num_warps(dot)
        if self.compute_capability // 10 != 10 or warps not in (4, 8) or shape[0] < 128 or shape[1] < 16:
            return False
        a_kind, b_kind = dot.a_elem_type.value.data, dot.b_elem_type.value.data
        e2m1 = tt.ScaleDotElemType.e2m1
        a_fp4, b_fp4 = a_kind == e2m1, b_kind == e2m1
        lhs_k_pack, rhs_k_pack = bool(dot.lhs_k_pack.value.data), bool(dot.rhs_k_pack.value.data)
        a_padded = (a_kind != b_kind and a_fp4) or not lhs_k_pack
        b_padded = (a_kind != b_kind and not a_fp4 and b_fp4) or not rhs_k_pack
        a_shared = SharedOperand.plan(dot.a, 0, not a_fp4, a_padded, not lhs_k_pack)
        b_shared = SharedOperand.plan(dot.b, 1, not b_fp4, b_padded, not rhs_k_pack)
        accumulator = TmemAccumulator.plan(ret, 128, min(shape[1], 256), warps, False)
        split = cta.cta_split_num
        scale_encoding = ttng.TensorMemoryScalesEncodingAttr.get(split[0], split[1])
        scale_types, scale_layouts = [], []
        for scale in (dot.a_scale, dot.b_scale):
            scale_type = MemDescType.get(scale.type.get_shape(), scale.type.element_type, scale_encoding,
                                         ttng.TensorMemorySpaceAttr())
            scale_types.append(scale_type)
            scale_layouts.append(default_tmem_register_layout(
                scale.type.get_shape(), element_bit_width(scale.type.element_type), scale_encoding, warps,
                cta_layout_of(scale.type.encoding)))
        if a_shared is None or b_shared is None or accumulator is None or None in scale_layouts:
            return False
        a_new = a_shared.stage(rewriter, 0, dot)
        b_new = b_shared.stage(rewriter, 1, dot)
        acc_cvt, alloc = accumulator.allocate(dot.c, dot.location)
        rewriter.insert_before(dot, [acc_cvt, alloc])
        staged = [stage_scale_through_shared(scale, rewriter) for scale in (dot.a_scale, dot.b_scale)]
        scale_cvts = [convert(scale, with_encoding(scale.type, layout), dot.location)
                      for scale, layout in zip(staged, scale_layouts)]
        scale_allocs = [located(ttng.TMEMAllocOp.build(operands=[[cvt.result]], result_types=[scale_type, []]),
                                dot.location) for cvt, scale_type in zip(scale_cvts, scale_types)]
        true = true_constant(dot.location)
        mma = located(ttng.TCGen5MMAScaledOp.build(
            operands=[a_new, b_new, alloc.result, [alloc.token], scale_allocs[0].result, scale_allocs[1].result,
                      true.result, true.result, [], []],
            result_types=[[AsyncTokenType()]],
            properties={"a_type": dot.a_elem_type, "b_type": dot.b_elem_type}), dot.location)
        load = accumulator.load(alloc, mma.token, dot.location)
        replace_dot(rewriter, dot, [*scale_cvts, *scale_allocs, true, mma, load], load.result)
        return True


@dataclass(frozen=True)
class DotScaledToMmaSync:
    """`ScaledBlockedToMMA` (sm_120): a `tt.dot_scaled` on mma.sync (`nvidia_mma` v2)
    operands, with the scales in the layout the native block-scaled mma.sync reads."""

    compute_capability: int
    root = tt.DotScaledOp
    benefit = BENEFIT_SM120

    def match_and_rewrite(self, dot: tt.DotScaledOp, rewriter: Rewriter) -> bool:
        if self.compute_capability != 120 or num_ctas(dot) != 1:
            return False
        if dot.a_scale is None or dot.b_scale is None:
            return False
        scales = (dot.a_scale, dot.b_scale)
        if any(isinstance(s.type.encoding, LinearEncodingAttr) for s in scales):
            return False
        fp8 = (tt.ScaleDotElemType.e4m3, tt.ScaleDotElemType.e5m2)
        fp4 = (tt.ScaleDotElemType.e2m1,)
        a_kind, b_kind = dot.a_elem_type.value.data, dot.b_elem_type.value.data
        if (a_kind in fp8 and b_kind in fp4) or (a_kind in fp4 and b_kind in fp8):
            return False
        if scales[0].type.element_type != scales[1].type.element_type:
            return False
        if not all(isinstance(s.type.encoding, BlockedEncodingAttr) for s in scales):
            return False
        mma = mma_encoding(dot, self.compute_capability, 2)
        new_ret = with_encoding(dot.d.type, mma)
        bits = min(element_bit_width(dot.a.type.element_type), element_bit_width(dot.b.type.element_type))
        acc = convert(dot.c, new_ret, value_location(dot.c))
        a_cvt = register_operand(dot.a, 0, bits, mma)
        b_cvt = register_operand(dot.b, 1, bits, mma)
        scale_cvts = []
        for op_idx, scale in enumerate(scales):
            layout = sm120_scale_layout(scale.type.get_shape(), op_idx, mma.warps_per_cta,
                                        scale.type.encoding.cta_layout)
            scale_cvts.append(convert(scale, with_encoding(scale.type, linear_encoding(layout)),
                                      value_location(scale)))
        scaled = located(tt.DotScaledOp.build(
            operands=[a_cvt.result, b_cvt.result, acc.result, [scale_cvts[0].result], [scale_cvts[1].result]],
            result_types=[new_ret],
            properties={"a_elem_type": dot.a_elem_type, "b_elem_type": dot.b_elem_type, "fastMath": dot.fastMath,
                        "lhs_k_pack": dot.lhs_k_pack, "rhs_k_pack": dot.rhs_k_pack}), dot.location)
        replace_dot(rewriter, dot, [acc, a_cvt, b_cvt, *scale_cvts, scaled], scaled.d)
        return True


# ------------------------------------------------------------------ DecomposeScaledBlocked


def _transpose_order(rank: int) -> list[int]:
    """`DecomposeScaledBlocked::getTransposeOrder`: swap the two minor dims."""
    return [*range(rank - 2), rank - 1, rank - 2]


@dataclass
class _Builder:
    """Creates ops before the dot being decomposed, each with its result type inferred as
    Triton's builders infer it, and reports them to the rewriter. The layouts it infers
    exist (`DecomposeScaledDot._layouts_known` checks that first)."""

    rewriter: Rewriter
    anchor: Operation

    def add(self, op: Operation, location: Attribute) -> SSAValue:
        located(op, location)
        self.rewriter.insert_before(self.anchor, [op])
        return op.results[0]

    def cast(self, cls: type[Operation], value: SSAValue, type_: Attribute, location: Attribute) -> SSAValue:
        return self.add(cls.build(operands=[value], result_types=[type_]), location)

    def binary(self, cls: type[Operation], lhs: SSAValue, rhs: SSAValue, location: Attribute) -> SSAValue:
        return self.add(cls.build(operands=[lhs, rhs], result_types=[lhs.type]), location)

    def constant(self, type_: Attribute, value: Attribute, location: Attribute) -> SSAValue:
        return self.add(arith.ConstantOp.create(result_types=[type_], properties={"value": value}), location)

    def trans(self, value: SSAValue, order: Sequence[int], location: Attribute) -> SSAValue:
        type_ = value.type
        encoding = infer_trans_encoding(type_.encoding, type_.get_shape(), order)
        result = TensorType(type_.element_type, [type_.get_shape()[i] for i in order], encoding)
        return self.add(tt.TransOp.build(operands=[value], result_types=[result],
                                         properties={"order": DenseArrayBase.from_list(i32, list(order))}),
                        location)

    def reshape(self, value: SSAValue, shape: Sequence[int], location: Attribute) -> SSAValue:
        type_ = value.type
        encoding = infer_reshape_encoding(type_.get_shape(), type_.encoding, shape)
        return self.add(tt.ReshapeOp.build(operands=[value], result_types=[TensorType(type_.element_type, shape,
                                                                                       encoding)]), location)


@dataclass(frozen=True)
class DecomposeScaledDot:
    """`DecomposeScaledBlocked`: a `tt.dot_scaled` no tensor-core rewrite took becomes a
    `tt.dot` on fp16/bf16 operands: each operand is upcast (`tt.fp_to_fp`, or
    `ttg.fp4_to_fp` for packed e2m1), multiplied by its scale (an e8m0 exponent shifted
    into a float, broadcast over its 32 elements along K) and, unless `fastMath`, set to
    NaN where the scale is 0xFF. The new `tt.dot` is then taken by the other patterns."""

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
        build = _Builder(rewriter, dot)
        scaled = []
        for op_idx in (0, 1):
            value = self._scale_operand(build, dot, op_idx, compute)
            encoding = dot_operand_encoding(op_idx, dot.d.type.encoding, element_bit_width(compute))
            scaled.append(build.add(ttg.ConvertLayoutOp.build(operands=[value],
                                                              result_types=[with_encoding(value.type, encoding)]),
                                    value_location(value)))
        new_dot = located(tt.DotOp.build(operands=[scaled[0], scaled[1], dot.c], result_types=[dot.c.type]),
                          dot.location)
        replace_dot(rewriter, dot, [new_dot], new_dot.d)
        return True

    @staticmethod
    def _layouts_known(dot: tt.DotScaledOp) -> bool:
        """Whether the operands and scales have linear layouts here, which every layout the
        decomposition infers needs (checked before any IR is made)."""
        values = [dot.a, dot.b, *(s for s in (dot.a_scale, dot.b_scale) if s is not None)]
        return all(to_linear_layout(v.type.get_shape(), v.type.encoding) is not None for v in values)

    def _scale_operand(self, build: _Builder, dot: tt.DotScaledOp, op_idx: int, compute: Attribute) -> SSAValue:
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
            value = build.add(ttg.Fp4ToFpOp.build(operands=[value], result_types=[TensorType(compute, shape, encoding)],
                                                  properties={"axis": IntegerAttr(k_dim, i32)}), location)
        else:
            value = build.cast(tt.FpToFpOp, value, TensorType(compute, value.type.get_shape(),
                                                              value.type.encoding), location)
        if scale is None:
            return value
        if op_idx == 1:
            scale = build.trans(scale, _transpose_order(rank), value_location(scale))
        scale_location = value_location(scale)
        factor = self._scale_to_float(build, scale, compute)
        factor = self._broadcast_scale(build, dot, factor, k_dim)
        factor = build.add(ttg.ConvertLayoutOp.build(operands=[factor], result_types=[value.type]), scale_location)
        scaled = build.binary(arith.MulFOp, value, factor, location)
        if dot.fastMath.value.data:
            return scaled
        return self._mask_nan(build, dot, scaled, scale, k_dim)

    @staticmethod
    def _scale_to_float(build: _Builder, scale: SSAValue, compute: Attribute) -> SSAValue:
        """`scaleTo16`: the e8m0 exponent shifted into the exponent field of a float wide
        enough to hold it (f32 for an fp16 dot, bf16 otherwise), cast to `compute`."""
        location = value_location(scale)
        wide = Float32Type() if isinstance(compute, Float16Type) else compute
        fmt = floats.float_format(wide)
        int_type = IntegerType(fmt.width)
        int_tensor = TensorType(int_type, scale.type.get_shape(), scale.type.encoding)
        widened = build.cast(arith.ExtUIOp, scale, int_tensor, location)
        shift_value = build.constant(int_type, IntegerAttr(fmt.mantissa_bits, int_type), location)
        shift = build.add(tt.SplatOp.build(operands=[shift_value], result_types=[int_tensor]), location)
        shifted = build.binary(arith.ShLIOp, widened, shift, location)
        as_float = build.cast(tt.BitcastOp, shifted, TensorType(wide, scale.type.get_shape(), scale.type.encoding),
                              location)
        if wide == compute:
            return as_float
        return build.cast(arith.TruncFOp, as_float, TensorType(compute, scale.type.get_shape(),
                                                                scale.type.encoding), location)

    @staticmethod
    def _broadcast_scale(build: _Builder, dot: tt.DotScaledOp, scale: SSAValue, dim: int) -> SSAValue:
        """`broadcastScale`: each scale repeated over the 32 elements it covers along `dim`
        (expand a new minor dim, broadcast it to 32, move it next to `dim`, merge)."""
        location = value_location(scale)
        type_ = scale.type
        shape = list(type_.get_shape())
        rank = len(shape)
        blocked = default_blocked_encoding([*shape, 1], num_warps(dot), threads_per_warp(dot), num_ctas(dot))
        sliced = build.add(ttg.ConvertLayoutOp.build(
            operands=[scale], result_types=[with_encoding(type_, SliceEncodingAttr.get(rank, blocked))]), location)
        expanded = build.add(tt.ExpandDimsOp.build(
            operands=[sliced], result_types=[TensorType(type_.element_type, [*shape, 1], blocked)],
            properties={"axis": IntegerAttr(rank, i32)}), location)
        broadcast = build.add(tt.BroadcastOp.build(
            operands=[expanded], result_types=[TensorType(type_.element_type, [*shape, SCALE_GROUP], blocked)]),
            location)
        order = list(range(rank))
        order.insert(dim + 1, rank)
        transposed = build.trans(broadcast, order, location)
        merged = list(shape)
        merged[dim] *= SCALE_GROUP
        return build.reshape(transposed, merged, location)

    def _mask_nan(self, build: _Builder, dot: tt.DotScaledOp, value: SSAValue, scale: SSAValue,
                  dim: int) -> SSAValue:
        """`maskNan`: `where(scale == 0xFF, nan, value)`."""
        location = value_location(scale)
        scale_type = scale.type
        width = element_bit_width(scale_type.element_type)
        all_ones = NAN_SCALE - (1 << width) if NAN_SCALE >> (width - 1) else NAN_SCALE
        all_ones = build.constant(scale_type, DenseElementsAttr.splat(scale_type, all_ones), location)
        is_nan = build.add(arith.CmpIOp.build(
            operands=[scale, all_ones], result_types=[arith.i1_like(scale_type)],
            properties={"predicate": IntegerAttr(arith.CmpIPredicate.eq, i64)}), location)
        condition = self._broadcast_scale(build, dot, is_nan, dim)
        condition = build.add(ttg.ConvertLayoutOp.build(
            operands=[condition], result_types=[TensorType(i1, condition.type.get_shape(), value.type.encoding)]),
            location)
        nan = build.constant(value.type, DenseElementsAttr.splat(value.type, float("nan")), location)
        return build.add(arith.SelectOp.build(operands=[condition, nan, value], result_types=[value.type]), location)


# ------------------------------------------------------------------ before and after the patterns


def transpose_dots(module: ModuleOp) -> None:
    """`transposeDots`: a `tt.dot_scaled` with only B scaled is computed transposed, so that
    the scaled operand is A: `trans(dot_scaled(trans(b), trans(a), trans(c)))`."""
    order = [1, 0]
    for dot in [op for op in module.walk() if isinstance(op, tt.DotScaledOp)]:
        if dot.a_scale is not None or dot.b_scale is None:
            continue
        built: list[Operation] = []

        def trans(value: SSAValue, location: Attribute) -> SSAValue:
            type_ = value.type
            encoding = infer_trans_encoding(type_.encoding, type_.get_shape(), order)
            op = located(tt.TransOp.build(operands=[value], result_types=[TensorType(
                type_.element_type, type_.get_shape()[::-1], encoding)],
                properties={"order": DenseArrayBase.from_list(i32, order)}), location)
            built.append(op)
            return op.result

        lhs = trans(dot.a, value_location(dot.a))
        rhs = trans(dot.b, value_location(dot.b))
        acc = trans(dot.c, value_location(dot.c))
        swapped = located(tt.DotScaledOp.build(
            operands=[rhs, lhs, acc, [dot.b_scale], []], result_types=[acc.type],
            properties={"a_elem_type": dot.b_elem_type, "b_elem_type": dot.a_elem_type,
                        "fastMath": dot.fastMath}), dot.location)
        built.append(swapped)
        result = trans(swapped.d, dot.location)
        dot.parent.insert_ops_before(built, dot)
        dot.d.replace_all_uses_with(result)
        dot.detach()
        dot.erase()


def promote_mixed_mode_operands(module: ModuleOp, compute_capability: int) -> None:
    """`decomposeMixedModeDotOp`: fp8 operands of an mma.sync dot become f16 unless the
    target multiplies fp8 natively (sm_89, sm_120); FMA dots get operands of the result's
    element type (integer FMA dots are left alone, where Triton would emit an invalid
    `arith.extf`)."""
    for dot in [op for op in module.walk() if isinstance(op, tt.DotOp)]:
        a_type = dot.a.type.element_type
        d_type = dot.d.type.element_type
        mma = dot.d.type.encoding
        if isinstance(mma, NvidiaMmaEncodingAttr):
            native = isinstance(a_type, NATIVE_FP8_TYPES)
            if not native or compute_capability in (89, 120) or mma.is_hopper:
                continue
            promoted = Float16Type()
        else:
            if a_type == d_type:
                continue
            promoted = d_type
        if isinstance(promoted, IntegerType) or is_int(a_type) or is_int(dot.b.type.element_type):
            continue
        for index in (0, 1):
            operand = dot.operands[index]
            type_ = TensorType(promoted, operand.type.get_shape(), operand.type.encoding)
            cls = tt.FpToFpOp if is_fp8(operand.type.element_type) else arith.ExtFOp
            upcast = located(cls.build(operands=[operand], result_types=[type_]), dot.location)
            dot.parent.insert_op_before(upcast, dot)
            dot.operands[index] = upcast.results[0]


# ------------------------------------------------------------------ the pass


@dataclass(frozen=True)
class AccelerateMatmul(ModulePass):
    """Pick the tensor-core instruction and layouts for every tt.dot and tt.dot_scaled (NVIDIA).

    Triton 3.6's `tritongpu-accelerate-matmul` (lib/Dialect/TritonGPU/Transforms/AccelerateMatmul.cpp).

    Algorithm:
      1. Read the compute capability from `ttg.target = "cuda:NN"`.
      2. Transpose every `tt.dot_scaled` that scales only B, so that its scaled operand is A
         (`transposeDots`).
      3. Rewrite under MLIR's greedy driver (`passes/common/greedy.py`: last op first, new
         ops right after, dead ops erased, fold hooks run, constants uniqued and hoisted to
         the front of their function), trying on each op its patterns, highest benefit first:
         - `tt.dot`: `DotToTcgen05Mma` (tcgen05: operands in NVMMA shared memory, the
           accumulator in TMEM, B split over a CTA pair when M is), then `DotToMmaSync`
           (wgmma, or mma.sync). The version is `getMMAVersionSafe`'s (sm_90: wgmma then
           mma.sync; sm_100: tcgen05 then mma.sync; sm_80-89 and sm_110+: mma.sync; below
           sm_80: none), instrShape `mmaVersionToInstrShape`'s, warps `warpsPerTileV2/V3`'s,
           kWidth 32 / the narrowest width an operand was loaded with, the shared-memory
           order `getOrderForMemory`'s, the TMEM register layout
           `getDefaultLayoutForTmemLdSt`'s (16x256b first when
           `TRITON_PREFER_TMEM_16x256_LAYOUT` is set).
         - `tt.dot_scaled`: `DotScaledToMmaSync` (sm_120: native block-scaled mma.sync),
           `DotScaledToTcgen05Mma` (sm_100: scales in TMEM), then `DecomposeScaledDot`
           (an fp16/bf16 `tt.dot` with the scales multiplied in and NaN scales masked,
           which the `tt.dot` patterns take next).
         A dot that no pattern takes stays (FMA).
      4. Promote operands the chosen instruction cannot take (`decomposeMixedModeDotOp`):
         fp8 to f16 for mma.sync below sm_89, FMA operands to the result's type.

    Remarks and warnings go to the diagnostic handler (`ttpipe-opt` prints them, and
    `--verify-diagnostics` checks them), as Triton emits them: a remark each time a dot
    cannot use wgmma/tcgen05 (with a note naming the target), one on sm_70-75 dots, and a
    warning where an operand is stored in shared memory in another order than its
    registers have.

    Preconditions: TTGIR with layouts (after `tritongpu-remove-layout-conversions`),
    `ttg.num-warps` set. A module without a CUDA `ttg.target` is an error at the module.
    Reads `ttg.target`, `ttg.num-warps`, `ttg.num-ctas` and `ttg.threads-per-warp`; sets
    no attribute but the new ops' own (`two_ctas` on a `ttng.tc_gen5_mma` over a CTA pair).

    Left as they are, as Triton leaves them: dots already on an MMA layout, dots without a
    tensor-core version (FMA), and `tt.dot_scaled`s with an operand not packed along K that
    tcgen05 does not take. Not handled (left exactly as they are, where Triton asserts):
    operands, scales or results whose layout has no linear layout here (AMD's), tcgen05
    accumulators and scales without a TMEM register layout, sm_120 scales that are not
    blocked.

    Differences from Triton: the driver runs only the fold hooks `greedy.fold` lists and no
    region simplification (dead block arguments of multi-block regions stay); integer FMA
    dots are not promoted (Triton emits an invalid `arith.extf` for them).
    """

    name = "ttpipe-accelerate-matmul"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        cc = nvidia_compute_capability(op)
        transpose_dots(op)
        apply_patterns_greedily(op, [
            DotToMmaSync(cc), DotScaledToMmaSync(cc), DecomposeScaledDot(), DotToTcgen05Mma(cc),
            DotScaledToTcgen05Mma(cc),
        ])
        promote_mixed_mode_operands(op, cc)
