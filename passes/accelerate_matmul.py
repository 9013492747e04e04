"""Pick the tensor-core instruction and layouts for every `tt.dot` and `tt.dot_scaled`.

Follows Triton 3.6 `lib/Dialect/TritonGPU/Transforms/AccelerateMatmul.cpp` (`BlockedToMMA`,
`BlockedToMMAv5`, `ScaledBlockedToMMA`, `ScaledBlockedToMMAv5`, `transposeDots`,
`decomposeMixedModeDotOp`), the helpers of `Utility.cpp` (`mmaVersionToInstrShape`,
`comesFromLoadOrBlockArg`) and `lib/Analysis/Utility.cpp` (`supportMMA`); the hardware
limits are the named rules of `ttpipe.passes.common.hardware`. `DecomposeScaledBlocked.cpp`
is `ttpipe.passes.decompose_scaled_blocked`. The rewrites run under
`ttpipe.passes.common.greedy`, MLIR's greedy driver, because the driver decides as much of
Triton's output as the rewrites do. `AccelerateMatmul` states the algorithm.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from xdsl.context import Context
from xdsl.dialects.builtin import (
    BFloat16Type,
    Float8E4M3B11FNUZType,
    Float8E4M3FNType,
    Float8E4M3FNUZType,
    Float8E5M2FNUZType,
    Float8E5M2Type,
    Float16Type,
    Float32Type,
    Float64Type,
    IntegerType,
    ModuleOp,
    TensorType,
    i1,
)
from xdsl.ir import Attribute, BlockArgument, Operation, OpResult, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint
from xdsl.rewriter import Rewriter as XdslRewriter

from ttpipe.dialects import arith, tt, ttg, ttng
from ttpipe.dialects.ttg_attrs import (
    BlockedEncodingAttr,
    CTAEncodingAttr,
    LinearEncodingAttr,
    NvidiaMmaEncodingAttr,
    SharedMemorySpaceAttr,
    SliceEncodingAttr,
)
from ttpipe.dialects.ttg_types import MemDescType
from ttpipe.passes.common.builder import OpBuilder, value_location
from ttpipe.passes.common.diagnostics import emit_remark, emit_warning
from ttpipe.passes.common.distributed_layouts import (
    cta_layout_of,
    linear_encoding,
    memory_order,
    sm120_scale_layout,
)
from ttpipe.passes.common.dot_rewrite import (
    accumulator_in,
    register_operand,
    replace_with_convert,
    trans_op,
    with_element,
    with_encoding,
)
from ttpipe.passes.common.greedy import Rewriter, apply_patterns_greedily
from ttpipe.passes.common.hardware import (
    MMA_SYNC_M,
    MMA_SYNC_N,
    MMA_SYNC_VERSION,
    TCGEN05_CTA_GROUP,
    TCGEN05_MAX_N,
    TCGEN05_SCALED_M,
    TCGEN05_VERSION,
    TMEM_ACCESS_NUM_WARPS,
    WARPS_PER_WARPGROUP,
    WGMMA_FP8_MIN_IMPRECISE_ACC,
    WGMMA_ROWS_PER_WARP,
    WGMMA_VERSION,
    fills_warpgroups,
    fits_tcgen05_cta_pair,
    fits_tcgen05_scaled_tile,
    fits_wgmma_tcgen05_tile,
    has_block_scaled_mma_sync,
    has_fp64_tensor_cores,
    has_tcgen05,
    has_tensor_cores,
    is_ampere_or_newer,
    is_hopper,
    k_fills_one_mma,
    mma_sync_instr_shape,
    mma_sync_takes_fp8,
    mma_version_minor,
    mma_versions,
    tcgen05_instr_shape,
    tcgen05_takes_operand_bits,
    tmem_column_stride,
    wgmma_instr_shape,
)
from ttpipe.passes.common.ir import forward_slice, set_operand_groups
from ttpipe.passes.common.mma_layouts import (
    element_bit_width,
    nvmma_shared_for,
    shape_per_cta,
    unswizzled_nvmma_shared,
)
from ttpipe.passes.common.target import bool_env, num_ctas, num_warps, nvidia_compute_capability
from ttpipe.passes.common.tmem_layouts import default_tmem_register_layout
from ttpipe.passes.decompose_scaled_blocked import BENEFIT_DEFAULT, DecomposeScaledDot

NATIVE_FP8_TYPES = (Float8E5M2Type, Float8E4M3FNType)
"""The fp8 formats wgmma and tcgen05 take, e4m3 and e5m2 (and mma.sync where
`mma_sync_takes_fp8`)."""
FP8_TYPES = (*NATIVE_FP8_TYPES, Float8E4M3FNUZType, Float8E5M2FNUZType, Float8E4M3B11FNUZType)
"""Triton's `type::isFloat8`."""
DOT_INTERFACE_OPS = (tt.DotOp, tt.DotScaledOp, ttng.WarpGroupDotOp, ttng.TCGen5MMAOp, ttng.TCGen5MMAScaledOp)
LOAD_OPS = (tt.LoadOp, tt.DescriptorLoadOp, tt.DescriptorGatherOp)
VIEW_OPS = (tt.ExpandDimsOp, tt.ReshapeOp, tt.TransOp, tt.JoinOp, tt.SplitOp)
"""Triton's `isView`."""
MEMDESC_VIEW_OPS = (ttg.MemDescIndexOp, ttg.MemDescSubsliceOp, ttg.MemDescTransOp, ttg.MemDescReshapeOp,
                    ttg.MemDescReinterpretOp)
"""The `ttg` ops with Triton's `MemDescViewTrait`."""
ELEMENTWISE_TT_OPS = (tt.FpToFpOp, tt.BitcastOp, tt.IntToPtrOp, tt.PtrToIntOp, tt.AddPtrOp, tt.PreciseSqrtOp,
                      tt.PreciseDivFOp, tt.ClampFOp, tt.MulhiUIOp)
"""The `tt` ops with MLIR's `Elementwise` trait that have no memory effects."""
DISABLE_MMA_V3_ENV, DISABLE_MMA_V5_ENV = "DISABLE_MMA_V3", "DISABLE_MMA_V5"
"""The environment variables Triton's `supportMMA` reads (`getBoolEnv`); here they give the
defaults of the pass's options `disable-mma-v3` and `disable-mma-v5`."""
BENEFIT_MMA_V5, BENEFIT_SM120 = 10, 10
"""The pattern benefits of `tritongpu-accelerate-matmul` (`benefitDefault`, `benefitMMAv5`,
`benefitSM120`)."""


# ------------------------------------------------------------------ small IR helpers


def strip_converts(value: SSAValue) -> SSAValue:
    while isinstance(value.owner, ttg.ConvertLayoutOp):
        value = value.owner.src
    return value


def is_fp8(type_: Attribute) -> bool:
    return isinstance(type_, FP8_TYPES)


def is_int(type_: Attribute, width: int | None = None) -> bool:
    return isinstance(type_, IntegerType) and (width is None or type_.width.data == width)


def after_value(value: SSAValue) -> InsertPoint:
    """`setInsertionPointAfterValue`: right after the defining op, or at the start of the
    argument's block."""
    if isinstance(value, OpResult):
        return InsertPoint.after(value.owner)
    return InsertPoint.at_start(value.block)


def comes_from_load_or_block_arg(value: SSAValue) -> bool:
    """`comesFromLoadOrBlockArg`: through converts, transposes and memdesc views to a load
    or an argument."""
    while isinstance(value, OpResult):
        owner = value.owner
        if isinstance(owner, (ttg.ConvertLayoutOp, tt.TransOp, *MEMDESC_VIEW_OPS)):
            value = owner.operands[0]
            continue
        break
    return isinstance(value, BlockArgument) or isinstance(value.owner, LOAD_OPS)


def is_arith_or_math_elementwise(op: Operation) -> bool:
    """`math` ops, and `arith` ops but constants (each result element from the operands' at
    the same position)."""
    dialect = op.dialect_name()
    return dialect == "math" or (dialect == "arith" and not isinstance(op, arith.ConstantOp))


def is_pure_elementwise(op: Operation) -> bool:
    """MLIR's `Elementwise` trait on an op free of memory effects: `math` ops, `arith` ops
    but constants, the `tt` ones of `ELEMENTWISE_TT_OPS`, and pure inline asm and extern
    calls."""
    if isinstance(op, (tt.ElementwiseInlineAsmOp, tt.ExternElementwiseOp)):
        return bool(op.pure.value.data)
    return isinstance(op, ELEMENTWISE_TT_OPS) or is_arith_or_math_elementwise(op)


def _in_bit_width_slice(op: Operation) -> bool:
    """`bwdFilter` of `computeOrigBitWidth`: pure elementwise ops, views, fp4 upcasts,
    loads, broadcasts and converts."""
    if isinstance(op, (*VIEW_OPS, ttg.Fp4ToFpOp, tt.LoadOp, tt.DescriptorLoadOp, tt.BroadcastOp,
                       ttg.ConvertLayoutOp)):
        return True
    return is_pure_elementwise(op)


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


def wgmma_takes_a_type(type_: Attribute) -> bool:
    """wgmma multiplies e4m3/e5m2, s8, f16, bf16 and (as tf32) f32 operands (PTX ISA
    "wgmma.mma_async" types; `supportMMA` v3 checks A's)."""
    return isinstance(type_, (*NATIVE_FP8_TYPES, Float16Type, BFloat16Type, Float32Type)) or is_int(type_, 8)


def dot_supports_mma(dot: tt.DotOp, version: int, warps: int) -> bool:
    """`supportMMA(DotOp, version)`, without its environment switches (`MmaTarget` has them)."""
    a_type, b_type = dot.a.type.element_type, dot.b.type.element_type
    ret = dot.d.type
    shape = shape_per_cta(ret.get_shape(), cta_layout_of(ret.encoding))
    k = dot.a.type.get_shape()[-1]
    a_bits = element_bit_width(a_type)
    if version == TCGEN05_VERSION:
        if any(is_int(t) for t in (a_type, b_type, ret.element_type)):
            return False
        return (len(shape) == 2 and warps in TMEM_ACCESS_NUM_WARPS and k_fills_one_mma(k, a_bits)
                and fits_wgmma_tcgen05_tile(shape[-2], shape[-1]))
    if version == WGMMA_VERSION:
        if not k_fills_one_mma(k, a_bits) or len(shape) == 3:
            return False
        if not (fills_warpgroups(warps) and fits_wgmma_tcgen05_tile(shape[-2], shape[-1])
                and wgmma_takes_a_type(a_type)):
            return False
        if (dot.maxNumImpreciseAcc.value.data < WGMMA_FP8_MIN_IMPRECISE_ACC
                and isinstance(a_type, NATIVE_FP8_TYPES) and isinstance(ret.element_type, Float32Type)):
            return False
    if isinstance(a_type, Float32Type) and isinstance(b_type, Float32Type):
        return dot.inputPrecision.value.data == tt.InputPrecision.tf32 and version >= 2
    return operand_supports_mma(a_type, version) and operand_supports_mma(b_type, version)


@dataclass(frozen=True)
class MmaTarget:
    """The target's compute capability and the MMA versions the pass was told not to use."""

    compute_capability: int
    disable_mma_v3: bool = False
    disable_mma_v5: bool = False

    def mma_version(self, dot: tt.DotOp, report: bool = True) -> int:
        """`getMMAVersionSafe`: the first version of `mma_versions` the dot fits (a disabled
        version never fits), or 0. With `report`, each wgmma/tcgen05 version passed over is
        a remark on the dot, as Triton gives it each time a pattern asks."""
        warps = num_warps(dot)
        for version in mma_versions(self.compute_capability):
            if not self._disabled(version) and dot_supports_mma(dot, version, warps):
                return version
            if report and version in (WGMMA_VERSION, TCGEN05_VERSION):
                emit_remark(dot, f"MMA version {version} acceleration not applied due to unsupported shapes or "
                                 "data types.",
                            f"Target compute capability ({self.compute_capability}) supports MMA v{version}.")
        return 0

    def _disabled(self, version: int) -> bool:
        return ((version == WGMMA_VERSION and self.disable_mma_v3)
                or (version == TCGEN05_VERSION and self.disable_mma_v5))


def awaits_mma_layout(dot: Operation) -> bool:
    """The result has a layout that is not an `nvidia_mma` one yet (the dot patterns' first
    check)."""
    encoding = dot.results[0].type.encoding
    return encoding is not None and not isinstance(encoding, NvidiaMmaEncodingAttr)


def keeps_fp64_on_fma(dot: tt.DotOp, compute_capability: int) -> bool:
    """An fp64 dot on a target without fast fp64 tensor cores stays on FMA (`BlockedToMMA`)."""
    types = (dot.a.type.element_type, dot.b.type.element_type, dot.d.type.element_type)
    return any(isinstance(t, Float64Type) for t in types) and not has_fp64_tensor_cores(compute_capability)


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
    reps = [-(-shape[0] // MMA_SYNC_M), -(-shape[1] // MMA_SYNC_N)]
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
    tile = [WARPS_PER_WARPGROUP, 1]
    while tile[0] * tile[1] < warps:
        if shape[0] > WGMMA_ROWS_PER_WARP * tile[0]:
            tile[0] *= 2
        else:
            tile[1] *= 2
    return tile


def mma_encoding(dot: tt.DotOp | tt.DotScaledOp, compute_capability: int, version: int) -> NvidiaMmaEncodingAttr:
    """`createMMAEncodingForDot`'s layout (mma.sync or wgmma): instrShape, warps per tile and
    the CTA layout of the dot's result."""
    ret = dot.d.type
    cta = cta_layout_of(ret.encoding)
    shape = shape_per_cta(ret.get_shape(), cta)
    warps = num_warps(dot)
    if version == WGMMA_VERSION:
        a_type = dot.a.type.element_type
        instr_shape = wgmma_instr_shape(shape, element_bit_width(a_type), is_int(a_type, 8), warps)
        tile = warps_per_tile_v3(dot, shape, warps)
    else:
        instr_shape = mma_sync_instr_shape(len(shape))
        tile = warps_per_tile_v2(dot, shape, warps)
    return NvidiaMmaEncodingAttr.get(version, mma_version_minor(compute_capability), tile, instr_shape, cta)


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
        b = OpBuilder(after_value(self.source), value_location(self.source), rewriter)
        return b.insert(ttg.LocalAllocOp(self.source, result_type=self.type)).result


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
        encoding = ttng.TensorMemoryEncodingAttr.get(block_m, block_n, tmem_column_stride(bits), split[0], split[1],
                                                     two_ctas)
        memdesc = MemDescType.get(ret.get_shape(), ret.element_type, encoding, ttng.TensorMemorySpaceAttr(),
                                  mutable=True)
        layout = default_tmem_register_layout(ret.get_shape(), bits, encoding, warps, cta)
        return None if layout is None else TmemAccumulator(memdesc, with_encoding(ret, layout))

    def allocate(self, b: OpBuilder, acc: SSAValue) -> ttng.TMEMAllocOp:
        """The accumulator, converted to the register layout, stored into a new TMEM buffer."""
        cvt = b.insert(ttg.ConvertLayoutOp(acc, result_type=self.registers))
        return b.insert(ttng.TMEMAllocOp(cvt.result, result_type=self.memdesc, with_token=True))

    def load(self, b: OpBuilder, alloc: ttng.TMEMAllocOp, token: SSAValue) -> SSAValue:
        """The accumulator read back into registers after `token`."""
        return b.insert(ttng.TMEMLoadOp(alloc.result, token, result_type=self.registers, with_token=True)).result


# ------------------------------------------------------------------ patterns


@dataclass(frozen=True)
class DotToWgmma:
    """`BlockedToMMA` at version 3 (sm_90): `ttng.warp_group_dot` with B, and A when it comes
    from a load or an argument, in NVMMA shared memory (A otherwise in registers), on an
    `nvidia_mma` v3 accumulator. Taken whenever the dot fits wgmma, wgmma being sm_90's
    first choice; where it does not, `DotToMmaSync` reports why."""

    target: MmaTarget
    root = tt.DotOp
    benefit = BENEFIT_DEFAULT

    def match_and_rewrite(self, dot: tt.DotOp, rewriter: Rewriter) -> bool:
        cc = self.target.compute_capability
        if not is_hopper(cc) or not awaits_mma_layout(dot) or keeps_fp64_on_fma(dot, cc):
            return False
        if self.target.mma_version(dot, report=False) != WGMMA_VERSION:
            return False
        a_type = dot.a.type.element_type
        allow_transpose = isinstance(a_type, (Float16Type, BFloat16Type))
        a_from_load = comes_from_load_or_block_arg(dot.a)
        a_shared = SharedOperand.plan(dot.a, 0, allow_transpose) if a_from_load else None
        b_shared = SharedOperand.plan(dot.b, 1, allow_transpose)
        if b_shared is None or (a_from_load and a_shared is None):
            return False
        mma = mma_encoding(dot, cc, WGMMA_VERSION)
        b = OpBuilder(InsertPoint.before(dot), dot.location, rewriter)
        acc = accumulator_in(b, dot, mma)
        if a_shared is None:
            a_new = register_operand(b, dot.a, 0, element_bit_width(a_type), mma)
        else:
            a_new = a_shared.stage(rewriter, 0, dot)
        b_new = b_shared.stage(rewriter, 1, dot)
        wgmma = b.insert(ttng.WarpGroupDotOp(a_new, b_new, acc, input_precision=dot.inputPrecision,
                                             max_num_imprecise_acc=dot.maxNumImpreciseAcc, is_async=False))
        replace_with_convert(rewriter, dot, wgmma.d)
        return True


@dataclass(frozen=True)
class DotToMmaSync:
    """`BlockedToMMA` at version 2: mma.sync, a `tt.dot` on `dot_op` register operands with
    kWidth from the narrowest width an operand was loaded with, on an `nvidia_mma` v2
    accumulator. Reports the wgmma/tcgen05 versions the dot does not fit, and the
    deprecated tensor cores of sm_70/75 (which stay on FMA)."""

    target: MmaTarget
    root = tt.DotOp
    benefit = BENEFIT_DEFAULT

    def match_and_rewrite(self, dot: tt.DotOp, rewriter: Rewriter) -> bool:
        cc = self.target.compute_capability
        if not has_tensor_cores(cc):
            return False
        if not is_ampere_or_newer(cc):
            emit_remark(dot, f"Dot op using MMA for compute capability {cc} has been deprecated. It falls back "
                             "to the FMA path.")
            return False
        if not awaits_mma_layout(dot) or keeps_fp64_on_fma(dot, cc):
            return False
        if self.target.mma_version(dot) != MMA_SYNC_VERSION:
            return False
        mma = mma_encoding(dot, cc, MMA_SYNC_VERSION)
        bits = min(original_bit_width(dot.a), original_bit_width(dot.b))
        b = OpBuilder(InsertPoint.before(dot), dot.location, rewriter)
        acc = accumulator_in(b, dot, mma)
        a_new = register_operand(b, dot.a, 0, bits, mma)
        b_new = register_operand(b, dot.b, 1, bits, mma)
        mma_dot = b.insert(tt.DotOp(a_new, b_new, acc, input_precision=dot.inputPrecision,
                                    max_num_imprecise_acc=dot.maxNumImpreciseAcc))
        replace_with_convert(rewriter, dot, mma_dot.d)
        return True


def uses_two_ctas(dot: tt.DotOp) -> bool:
    """`canUseTwoCTAs`: M split over a CTA pair, large enough, B loaded from global memory."""
    ret = dot.d.type
    cta = cta_layout_of(ret.encoding)
    if tuple(cta.cta_split_num) != (TCGEN05_CTA_GROUP, 1):
        return False
    shape = shape_per_cta(ret.get_shape(), cta)
    if not fits_tcgen05_cta_pair(shape[0], shape[1]):
        return False
    return isinstance(strip_converts(dot.b).owner, LOAD_OPS)


B_SPLIT_OVER_CTA_PAIR = CTAEncodingAttr.get([[0, 1]], 2)
"""`splitBOperand`'s CTA layout: B's N dim split over the two CTAs of a pair."""


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
    layout = _with_cta(loaded.type.encoding, B_SPLIT_OVER_CTA_PAIR)
    before = OpBuilder(InsertPoint.before(load), load.location, rewriter)
    for index, operand in enumerate(list(load.operands)):
        if not isinstance(operand.type, TensorType):
            continue
        cvt = before.insert(ttg.ConvertLayoutOp(operand, result_type=with_encoding(operand.type, layout)),
                            value_location(operand))
        load.operands[index] = cvt.result
    old_type = loaded.type
    loaded = XdslRewriter.replace_value_with_new_type(loaded, with_encoding(old_type, layout))
    after = OpBuilder(InsertPoint.after(load), load.location, rewriter)
    back = after.insert(ttg.ConvertLayoutOp(loaded, result_type=old_type))
    rewriter.replace_all_uses_with(loaded, back.result, keep=lambda op: op is back)
    return loaded


@dataclass(frozen=True)
class DotToTcgen05Mma:
    """`BlockedToMMAv5`: `ttng.tc_gen5_mma` on NVMMA shared operands, the accumulator moved
    into TMEM (`ttng.tmem_alloc`) and back (`ttng.tmem_load`); B split over a CTA pair
    (`cta_group::2`) when M is."""

    target: MmaTarget
    root = tt.DotOp
    benefit = BENEFIT_MMA_V5

    def match_and_rewrite(self, dot: tt.DotOp, rewriter: Rewriter) -> bool:
        if not awaits_mma_layout(dot):
            return False
        ret = dot.d.type
        cta = cta_layout_of(ret.encoding)
        warps = num_warps(dot)
        if self.target.mma_version(dot) != TCGEN05_VERSION:
            return False
        min_bits = min(original_bit_width(dot.a), original_bit_width(dot.b))
        if not tcgen05_takes_operand_bits(min_bits, dot.inputPrecision.value.data == tt.InputPrecision.tf32):
            return False
        two_ctas = uses_two_ctas(dot)
        instr_shape = tcgen05_instr_shape(shape_per_cta(ret.get_shape(), cta),
                                          element_bit_width(dot.a.type.element_type))
        accumulator = TmemAccumulator.plan(ret, instr_shape[0], instr_shape[1], warps, two_ctas)
        allow_transpose = not isinstance(dot.a.type.element_type, Float32Type)
        a_shared = SharedOperand.plan(dot.a, 0, allow_transpose)
        b_type = strip_converts(dot.b).type
        if two_ctas:
            b_layout = _with_cta(b_type.encoding, B_SPLIT_OVER_CTA_PAIR)
            b_type = None if b_layout is None else with_encoding(b_type, b_layout)
        b_shared = None if b_type is None else SharedOperand.plan(dot.b, 1, allow_transpose, source_type=b_type)
        if accumulator is None or a_shared is None or b_shared is None:
            return False
        if two_ctas:
            b_shared.source = split_b_operand(dot.b, rewriter)
        a_new = a_shared.stage(rewriter, 0)
        b_new = b_shared.stage(rewriter, 1)
        b = OpBuilder(InsertPoint.before(dot), dot.location, rewriter)
        alloc = accumulator.allocate(b, dot.c)
        true = b.constant(1, i1)
        mma = b.insert(ttng.TCGen5MMAOp(a_new, b_new, alloc.result, true, true, acc_dep=alloc.token,
                                        two_ctas=two_ctas, with_token=True))
        replace_with_convert(rewriter, dot, accumulator.load(b, alloc, mma.token))
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
    b = OpBuilder(InsertPoint.after(op), op.location, rewriter)
    alloc = b.insert(ttg.LocalAllocOp(loaded, result_type=memdesc))
    local_load = b.insert(ttg.LocalLoadOp(alloc.result, result_type=loaded.type))
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
        if not awaits_mma_layout(dot):
            return False
        if dot.a_scale is None or dot.b_scale is None:
            return False
        ret = dot.d.type
        cta = cta_layout_of(ret.encoding)
        shape = shape_per_cta(ret.get_shape(), cta)
        warps = num_warps(dot)
        if (not has_tcgen05(self.compute_capability) or warps not in TMEM_ACCESS_NUM_WARPS
                or not fits_tcgen05_scaled_tile(shape[0], shape[1])):
            return False
        a_kind, b_kind = dot.a_elem_type.value.data, dot.b_elem_type.value.data
        e2m1 = tt.ScaleDotElemType.e2m1
        a_fp4, b_fp4 = a_kind == e2m1, b_kind == e2m1
        lhs_k_pack, rhs_k_pack = bool(dot.lhs_k_pack.value.data), bool(dot.rhs_k_pack.value.data)
        a_padded = (a_kind != b_kind and a_fp4) or not lhs_k_pack
        b_padded = (a_kind != b_kind and not a_fp4 and b_fp4) or not rhs_k_pack
        a_shared = SharedOperand.plan(dot.a, 0, not a_fp4, a_padded, not lhs_k_pack)
        b_shared = SharedOperand.plan(dot.b, 1, not b_fp4, b_padded, not rhs_k_pack)
        accumulator = TmemAccumulator.plan(ret, TCGEN05_SCALED_M, min(shape[1], TCGEN05_MAX_N), warps, False)
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
        b = OpBuilder(InsertPoint.before(dot), dot.location, rewriter)
        alloc = accumulator.allocate(b, dot.c)
        staged = [stage_scale_through_shared(scale, rewriter) for scale in (dot.a_scale, dot.b_scale)]
        scale_cvts = [b.insert(ttg.ConvertLayoutOp(scale, result_type=with_encoding(scale.type, layout)))
                      for scale, layout in zip(staged, scale_layouts)]
        a_scale, b_scale = (b.insert(ttng.TMEMAllocOp(cvt.result, result_type=scale_type)).result
                            for cvt, scale_type in zip(scale_cvts, scale_types))
        true = b.constant(1, i1)
        mma = b.insert(ttng.TCGen5MMAScaledOp(a_new, b_new, alloc.result, a_scale, b_scale, true, true,
                                              a_type=dot.a_elem_type, b_type=dot.b_elem_type, acc_dep=alloc.token,
                                              with_token=True))
        replace_with_convert(rewriter, dot, accumulator.load(b, alloc, mma.token))
        return True


@dataclass(frozen=True)
class DotScaledToMmaSync:
    """`ScaledBlockedToMMA` (sm_120): a `tt.dot_scaled` on mma.sync (`nvidia_mma` v2)
    operands, with the scales in the layout the native block-scaled mma.sync reads."""

    compute_capability: int
    root = tt.DotScaledOp
    benefit = BENEFIT_SM120

    def match_and_rewrite(self, dot: tt.DotScaledOp, rewriter: Rewriter) -> bool:
        if not has_block_scaled_mma_sync(self.compute_capability) or num_ctas(dot) != 1:
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
        mma = mma_encoding(dot, self.compute_capability, MMA_SYNC_VERSION)
        bits = min(element_bit_width(dot.a.type.element_type), element_bit_width(dot.b.type.element_type))
        b = OpBuilder(InsertPoint.before(dot), dot.location, rewriter)
        acc = accumulator_in(b, dot, mma)
        a_new = register_operand(b, dot.a, 0, bits, mma)
        b_new = register_operand(b, dot.b, 1, bits, mma)
        new_scales = []
        for op_idx, scale in enumerate(scales):
            layout = sm120_scale_layout(scale.type.get_shape(), op_idx, mma.warps_per_cta,
                                        scale.type.encoding.cta_layout)
            scale_type = with_encoding(scale.type, linear_encoding(layout))
            cvt = b.insert(ttg.ConvertLayoutOp(scale, result_type=scale_type), value_location(scale))
            new_scales.append(cvt.result)
        a_scale, b_scale = new_scales
        scaled = b.insert(tt.DotScaledOp(a_new, b_new, acc, a_scale, b_scale, a_elem_type=dot.a_elem_type,
                                         b_elem_type=dot.b_elem_type, fast_math=dot.fastMath,
                                         lhs_k_pack=dot.lhs_k_pack, rhs_k_pack=dot.rhs_k_pack))
        replace_with_convert(rewriter, dot, scaled.d)
        return True


# ------------------------------------------------------------------ before and after the patterns


def transpose_dots(module: ModuleOp) -> None:
    """`transposeDots`: a `tt.dot_scaled` with only B scaled is computed transposed, so that
    the scaled operand is A: `trans(dot_scaled(trans(b), trans(a), trans(c)))`."""
    order = [1, 0]
    for dot in [op for op in module.walk() if isinstance(op, tt.DotScaledOp)]:
        if dot.a_scale is not None or dot.b_scale is None:
            continue
        b = OpBuilder(InsertPoint.before(dot), dot.location)

        def trans(value: SSAValue, location: Attribute) -> SSAValue:
            return b.insert(trans_op(value, order), location).result

        lhs = trans(dot.a, value_location(dot.a))
        rhs = trans(dot.b, value_location(dot.b))
        acc = trans(dot.c, value_location(dot.c))
        swapped = b.insert(tt.DotScaledOp(rhs, lhs, acc, dot.b_scale, None, a_elem_type=dot.b_elem_type,
                                          b_elem_type=dot.a_elem_type, fast_math=dot.fastMath))
        result = trans(swapped.d, dot.location)
        dot.d.replace_all_uses_with(result)
        dot.detach()
        dot.erase()


def promote_mixed_mode_operands(module: ModuleOp, compute_capability: int) -> None:
    """`decomposeMixedModeDotOp`: fp8 operands of an mma.sync dot become f16 unless
    mma.sync multiplies fp8 natively on the target (`mma_sync_takes_fp8`); FMA dots get
    operands of the result's element type (integer FMA dots are left alone, where Triton
    would emit an invalid `arith.extf`)."""
    for dot in [op for op in module.walk() if isinstance(op, tt.DotOp)]:
        a_type = dot.a.type.element_type
        d_type = dot.d.type.element_type
        mma = dot.d.type.encoding
        if isinstance(mma, NvidiaMmaEncodingAttr):
            native = isinstance(a_type, NATIVE_FP8_TYPES)
            if not native or mma_sync_takes_fp8(compute_capability) or mma.is_hopper:
                continue
            promoted = Float16Type()
        else:
            if a_type == d_type:
                continue
            promoted = d_type
        if isinstance(promoted, IntegerType) or is_int(a_type) or is_int(dot.b.type.element_type):
            continue
        b = OpBuilder(InsertPoint.before(dot), dot.location)
        upcasts = {}
        for name, operand in (("a", dot.a), ("b", dot.b)):
            type_ = with_element(operand.type, promoted)
            cls = tt.FpToFpOp if is_fp8(operand.type.element_type) else arith.ExtFOp
            upcasts[name] = [b.insert(cls(operand, result_type=type_)).results[0]]
        set_operand_groups(dot, **upcasts)


# ------------------------------------------------------------------ the pass


def _env_default(name: str, help_: str):
    """A boolean option whose default is Triton's environment variable `name`, read when
    the pass is made (as `triton-opt` reads it when the pass runs)."""
    return field(default_factory=lambda: bool_env(name), metadata={"help": help_})


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
         the front of their function), trying on each op its patterns, highest benefit first
         (ties in the order listed):
         - `tt.dot`: `DotToTcgen05Mma` (tcgen05: operands in NVMMA shared memory, the
           accumulator in TMEM, B split over a CTA pair when M is), `DotToWgmma` (wgmma),
           then `DotToMmaSync` (mma.sync). Each takes the dot when its version is the first
           of the target's (`hardware.mma_versions`: sm_90: wgmma then mma.sync; sm_100:
           tcgen05 then mma.sync; sm_80-89 and sm_110+: mma.sync; below sm_80: none) that
           the dot fits (`supportMMA`). instrShape is `mmaVersionToInstrShape`'s, warps
           `warpsPerTileV2/V3`'s, kWidth 32 / the narrowest width an operand was loaded
           with, the shared-memory order `getOrderForMemory`'s, the TMEM register layout
           `getDefaultLayoutForTmemLdSt`'s (16x256b first when
           `TRITON_PREFER_TMEM_16x256_LAYOUT` is set).
         - `tt.dot_scaled`: `DotScaledToMmaSync` (sm_120: native block-scaled mma.sync),
           `DotScaledToTcgen05Mma` (sm_100: scales in TMEM), then `DecomposeScaledDot`
           (`decompose_scaled_blocked`: an fp16/bf16 `tt.dot` with the scales multiplied
           in and NaN scales masked, which the `tt.dot` patterns take next).
         A dot that no pattern takes stays (FMA).
      4. Promote operands the chosen instruction cannot take (`decomposeMixedModeDotOp`):
         fp8 to f16 for mma.sync below sm_89, FMA operands to the result's type.

    Options: `disable-mma-v3` and `disable-mma-v5` keep dots off wgmma and tcgen05 (as if
    they did not fit); each defaults to Triton's environment variable (`DISABLE_MMA_V3`,
    `DISABLE_MMA_V5`: 1, true or on), read when the pass is made.

    Remarks and warnings go to the diagnostic handler (`ttpipe-opt` prints them, and
    `--verify-diagnostics` checks them), as Triton emits them: a remark each time a
    pattern finds that a dot cannot use wgmma/tcgen05 (with a note naming the target),
    one on sm_70-75 dots, and a warning where an operand is stored in shared memory in
    another order than its registers have.

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

    disable_mma_v3: bool = _env_default(DISABLE_MMA_V3_ENV, "keep dots off wgmma (default: $DISABLE_MMA_V3)")
    disable_mma_v5: bool = _env_default(DISABLE_MMA_V5_ENV, "keep dots off tcgen05 (default: $DISABLE_MMA_V5)")

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        cc = nvidia_compute_capability(op)
        target = MmaTarget(cc, self.disable_mma_v3, self.disable_mma_v5)
        transpose_dots(op)
        apply_patterns_greedily(op, [
            DotToWgmma(target), DotToMmaSync(target), DotScaledToMmaSync(cc), DecomposeScaledDot(),
            DotToTcgen05Mma(target), DotScaledToTcgen05Mma(cc),
        ])
        promote_mixed_mode_operands(op, cc)
