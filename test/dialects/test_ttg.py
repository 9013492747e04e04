"""The ttg dialect: typed layout attributes (fields, constructors, Triton's text with its
elisions), the memdesc and async-token types, and the ops, with round trips that Triton
reads back as the same module."""

import pytest
from xdsl.dialects.builtin import DenseArrayBase, TensorType, f16, i32

from ttpipe.dialects import ttg
from ttpipe.dialects.ttg_attrs import (
    AMDMfmaEncodingAttr,
    BlockedEncodingAttr,
    CTAEncodingAttr,
    DotOperandEncodingAttr,
    LinearEncodingAttr,
    MmaEncodingTrait,
    NvidiaMmaEncodingAttr,
    NVMMASharedEncodingAttr,
    PaddedSharedEncodingAttr,
    SharedEncodingTrait,
    SharedLinearEncodingAttr,
    SharedMemorySpaceAttr,
    SliceEncodingAttr,
    SwizzledSharedEncodingAttr,
)
from ttpipe.dialects.ttg_types import AsyncTokenType, MemDescType
from ttpipe.roundtrip import check_text
from ttpipe.textio import DiagnosticError, parse_module, print_module
from ttpipe.ir.printer import attribute_text

MODULE = ('module attributes {{"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, '
          'ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32}} {{\n{body}\n}}\n')

BLOCKED = "#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>"
MMA = "#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>"
SHARED = "#ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>"


def module(body: str, layouts: str = "") -> str:
    return layouts + MODULE.format(body=body)


def func_with_args(*types: str) -> str:
    args = ", ".join(f"%a{i}: {t}" for i, t in enumerate(types))
    return module(f"  tt.func @f({args}) {{\n    tt.return\n  }}")


def roundtrip(tmp_path, text: str) -> str:
    """Asserts that Triton reads ttpipe's print of `text` as the module it reads from `text`."""
    path = tmp_path / "input.mlir"
    path.write_text(text)
    outcome = check_text(text, str(path))
    assert outcome.ok and not outcome.detail, outcome.detail
    return print_module(parse_module(text, str(path)).module)


def arg_types(text: str) -> list:
    func = next(op for op in parse_module(text).module.walk() if op.name == "tt.func")
    return [arg.type for arg in func.body.block.args]


def encoding_of(text: str):
    """The encoding of the single function argument's tensor type."""
    (type_,) = arg_types(text)
    return type_.encoding


# ------------------------------------------------------------------ layouts: text


LAYOUTS = [
    BLOCKED,
    "#ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1], CGALayout = [[0, 1]]}>",
    "#ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1], CGALayout = [[0, 0]]}>",
    MMA,
    "#ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>",
    "#ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], CGALayout = [[1, 0]], instrShape = [16, 64, 16]}>",
    "#ttg.linear<{register = [[0, 1], [0, 2], [32, 0]], lane = [[0, 4], [0, 8], [1, 0], [2, 0], [4, 0]], warp = [[8, 0], [16, 0]], block = []}>",
    "#ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32], isTransposed = true}>",
    "#ttg.amd_mfma<{version = 4, warpsPerCTA = [2, 2], instrShape = [16, 16], isTransposed = false, tilesPerWarp = [2, 2], elementBitWidth = 64}>",
    "#ttg.amd_wmma<{version = 2, isTranspose = true, warpsPerCTA = [2, 2]}>",
    "#ttg.amd_wmma<{version = 3, isTranspose = false, warpsPerCTA = [2, 2], instrShape = [16, 16, 32]}>",
]


@pytest.mark.parametrize("layout", LAYOUTS)
def test_distributed_layout_roundtrips_and_prints_as_triton(tmp_path, layout):
    text = func_with_args(f"tensor<64x64xf32, {layout}>")
    printed = roundtrip(tmp_path, text)
    assert layout.split("<", 1)[1] in printed  # the body, as written (Triton's canonical form)


SHARED_LAYOUTS = [
    SHARED,
    "#ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0, 1], CGALayout = [[1, 0]]}>",
    "#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>",
    "#ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = true, elementBitWidth = 8, fp4Padded = true}>",
    "#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16, CGALayout = [[0, 1]]}>",
    "#ttg.shared_linear<{offset = [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [0, 32], [1, 0], [2, 0], [4, 0], [8, 0], [16, 0], [32, 0]]}, alignment = 16>",
    "#ttg.padded_shared<[32:+4] {order = [1, 0], shape = [64, 64]}>",
    "#ttg.padded_shared<[32:+4, 64:+8] {offset = [[0, 2], [0, 1], [0, 4], [0, 8], [0, 16], [0, 32], [1, 0], [2, 0], [4, 0], [8, 0], [16, 0], [32, 0]], block = []}>",
    "#ttg.amd_rotating_shared<{vec = 4, perPhase = 2, maxPhase = 4, order = [1, 0]}>",
]


@pytest.mark.parametrize("layout", SHARED_LAYOUTS)
def test_shared_layout_roundtrips_and_prints_as_triton(tmp_path, layout):
    text = func_with_args(f"!ttg.memdesc<64x64xf16, {layout}, #ttg.shared_memory>")
    printed = roundtrip(tmp_path, text)
    assert "#shared = " + layout in printed
    assert "#smem = #ttg.shared_memory" in printed


def test_fields_parse_in_any_order_and_print_in_triton_order(tmp_path):
    layout = "#ttg.blocked<{order = [1, 0], warpsPerCTA = [4, 1], threadsPerWarp = [4, 8], sizePerThread = [1, 4]}>"
    printed = roundtrip(tmp_path, func_with_args(f"tensor<64x64xf32, {layout}>"))
    assert "#blocked = " + BLOCKED in printed


def test_padded_identity_prints_in_short_form(tmp_path):
    linear = "#ttg.padded_shared<[32:+4] {offset = [[0, 1], [0, 2], [1, 0], [2, 0]], block = []}>"
    printed = roundtrip(tmp_path, func_with_args(f"!ttg.memdesc<4x4xf16, {linear}, #ttg.shared_memory>"))
    assert "#shared = #ttg.padded_shared<[32:+4] {order = [1, 0], shape = [4, 4]}>" in printed


def test_nvmma_rank_prints_only_for_single_cta_non_2d(tmp_path):
    layout = "#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16, rank = 3}>"
    printed = roundtrip(tmp_path, func_with_args(f"!ttg.memdesc<2x64x64xf16, {layout}, #ttg.shared_memory>"))
    assert "#shared = " + layout in printed
    encoding = arg_types(printed)[0].encoding
    assert encoding.rank == 3 and encoding.cta_layout.is_default


def test_slice_and_dot_operand_print_inline_with_parent_alias(tmp_path):
    text = func_with_args(f"tensor<64xf32, #ttg.slice<{{dim = 1, parent = {BLOCKED}}}>>",
                          f"tensor<64x16xf16, #ttg.dot_op<{{opIdx = 0, parent = {MMA}, kWidth = 2}}>>",
                          f"tensor<16x64xf16, #ttg.dot_op<{{opIdx = 1, parent = {BLOCKED}}}>>")
    printed = roundtrip(tmp_path, text)
    assert "tensor<64xf32, #ttg.slice<{dim = 1, parent = #blocked}>>" in printed
    assert "tensor<64x16xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>" in printed
    assert "tensor<16x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>" in printed  # kWidth = 0 elided


# ------------------------------------------------------------------ layouts: typed fields


def test_blocked_fields_read_as_tuples():
    blocked = encoding_of(func_with_args(f"tensor<64x64xf32, {BLOCKED}>"))
    assert isinstance(blocked, BlockedEncodingAttr)
    assert blocked.size_per_thread == (1, 4)
    assert blocked.threads_per_warp == (4, 8)
    assert blocked.warps_per_cta == (4, 1)
    assert blocked.order == (1, 0)
    assert blocked.rank == 2
    assert blocked.cta_layout == CTAEncodingAttr.get_default(2)
    assert blocked == BlockedEncodingAttr.get([1, 4], [4, 8], [4, 1], [1, 0])


def test_cta_layout_legacy_fields():
    # CGALayout = [[0, 1]]: two CTAs split along dim1.
    split = CTAEncodingAttr.get([[0, 1]], 2)
    assert (split.ctas_per_cga, split.cta_split_num, split.cta_order) == ((1, 2), (1, 2), (1, 0))
    # CGALayout = [[0, 0]]: two CTAs holding the same data.
    broadcast = CTAEncodingAttr.get([[0, 0]], 2)
    assert (broadcast.ctas_per_cga, broadcast.cta_split_num, broadcast.cta_order) == ((2, 1), (1, 1), (0, 1))
    assert CTAEncodingAttr.from_split_params([2, 1], [2, 1], [1, 0]).block_bases == ((1, 0),)
    assert CTAEncodingAttr.get_default(3).is_default and CTAEncodingAttr.get_default(3).ctas_per_cga == (1, 1, 1)


def test_constructed_layouts_print_as_triton():
    cta = CTAEncodingAttr.get([[1, 0]], 2)
    assert attribute_text(BlockedEncodingAttr.get([1, 1], [32, 1], [4, 1], [0, 1], cta)) == (
        "#ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], "
        "order = [0, 1], CGALayout = [[1, 0]]}>")
    mma = NvidiaMmaEncodingAttr.get(3, 0, [4, 1], [16, 128, 16])
    assert attribute_text(mma) == ("#ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, "
                                   "warpsPerCTA = [4, 1], instrShape = [16, 128, 16]}>")
    assert mma.is_hopper and not mma.is_ampere
    assert attribute_text(DotOperandEncodingAttr.get(0, mma, 2)) == (
        "#ttg.dot_op<{opIdx = 0, parent = " + attribute_text(mma) + ", kWidth = 2}>")
    assert attribute_text(SliceEncodingAttr.get(0, mma)) == "#ttg.slice<{dim = 0, parent = " + attribute_text(mma) + "}>"
    assert attribute_text(NVMMASharedEncodingAttr.get(128, False, 16, rank=3)) == (
        "#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16, rank = 3}>")
    assert attribute_text(SwizzledSharedEncodingAttr.get(8, 1, 8, [1, 0])) == (
        "#ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>")
    assert attribute_text(PaddedSharedEncodingAttr.get_identity([(32, 4)], [1, 0], [64, 32])) == (
        "#ttg.padded_shared<[32:+4] {order = [1, 0], shape = [64, 32]}>")
    assert attribute_text(SharedLinearEncodingAttr.get([[0, 1], [1, 0]], alignment=32)) == (
        "#ttg.shared_linear<{offset = [[0, 1], [1, 0]]}, alignment = 32>")
    assert attribute_text(LinearEncodingAttr.get([[0, 1]], [[1, 0]], [], [])) == (
        "#ttg.linear<{register = [[0, 1]], lane = [[1, 0]], warp = [], block = []}>")
    assert attribute_text(AMDMfmaEncodingAttr.get(3, [2, 2], [32, 32], True)) == (
        "#ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32], isTransposed = true}>")
    assert attribute_text(SharedMemorySpaceAttr()) == "#ttg.shared_memory"


def test_other_layout_fields():
    layouts = "".join(f"#l{i} = {text}\n" for i, text in enumerate([
        "#ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = true, elementBitWidth = 8}>",
        "#ttg.padded_shared<[32:+4, 64:+8] {order = [0, 1], shape = [16, 32]}>",
        "#ttg.shared_linear<{offset = [[0, 1], [1, 0]], block = [[0, 2]]}, alignment = 8>",
        "#ttg.linear<{register = [[0, 1]], lane = [[1, 0]], warp = [[2, 0]], block = [[0, 2]]}>",
        MMA,
    ]))
    text = module("  tt.func @f(%a: !ttg.memdesc<16x16xi8, #l0, #ttg.shared_memory>, "
                  "%b: !ttg.memdesc<16x32xf16, #l1, #ttg.shared_memory>, "
                  "%c: !ttg.memdesc<2x4xf16, #l2, #ttg.shared_memory>, %d: tensor<4x4xf32, #l3>, "
                  "%e: tensor<32x32xf16, #ttg.dot_op<{opIdx = 1, parent = #l4, kWidth = 4}>>) {\n    tt.return\n  }",
                  layouts)
    nvmma, padded, shared_linear, linear, dot = (t.encoding for t in arg_types(text))
    assert isinstance(nvmma, SharedEncodingTrait)
    assert (nvmma.swizzling_byte_width, nvmma.transposed, nvmma.element_bit_width, nvmma.fp4_padded) == (64, True, 8, False)
    assert (nvmma.vec, nvmma.per_phase, nvmma.max_phase) == (16, 2, 4)
    assert (padded.intervals, padded.paddings, padded.order, padded.shape) == ((32, 64), (4, 8), (0, 1), (16, 32))
    assert padded.block_bases == ()
    assert (shared_linear.offset_bases, shared_linear.block_bases, shared_linear.alignment) == (((0, 1), (1, 0)), ((0, 2),), 8)
    assert shared_linear.order == (1, 0)
    assert linear.register_bases == ((0, 1),) and linear.warp_bases == ((2, 0),) and linear.rank == 2
    assert (dot.op_idx, dot.k_width) == (1, 4)
    assert isinstance(dot.parent, MmaEncodingTrait)
    assert (dot.parent.version_major, dot.parent.warps_per_cta, dot.parent.instr_shape) == (2, (2, 2), (16, 8))


# ------------------------------------------------------------------ types


def test_memdesc_variants(tmp_path):
    text = module("  tt.func @f(%a: !ttg.memdesc<64x64xf16, #shared, #smem>, "
                  "%b: !ttg.memdesc<3x64x64xf16, #shared, #smem, mutable>, "
                  "%c: !ttg.memdesc<64x64xf16, #shared, #smem, mutable, 3x64x64>, "
                  "%d: !ttg.memdesc<32x64xf16, #shared, #smem, 64x64>) {\n    tt.return\n  }",
                  f"#shared = {SHARED}\n#smem = #ttg.shared_memory\n")
    printed = roundtrip(tmp_path, text)
    for spelled in ("!ttg.memdesc<64x64xf16, #shared, #smem>", "!ttg.memdesc<3x64x64xf16, #shared, #smem, mutable>",
                    "!ttg.memdesc<64x64xf16, #shared, #smem, mutable, 3x64x64>",
                    "!ttg.memdesc<32x64xf16, #shared, #smem, 64x64>"):
        assert spelled in printed
    a, b, c, d = arg_types(text)
    assert isinstance(a, MemDescType)
    assert (a.shape, a.element_type, a.mutable, a.alloc_shape) == ((64, 64), f16, False, (64, 64))
    assert isinstance(a.encoding, SwizzledSharedEncodingAttr) and isinstance(a.memory_space, SharedMemorySpaceAttr)
    assert (b.shape, b.mutable, b.alloc_shape) == ((3, 64, 64), True, (3, 64, 64))
    assert (c.shape, c.mutable, c.alloc_shape) == ((64, 64), True, (3, 64, 64))
    assert (d.shape, d.mutable, d.alloc_shape) == ((32, 64), False, (64, 64))
    assert c == MemDescType.get([64, 64], f16, a.encoding, SharedMemorySpaceAttr(), mutable=True, alloc_shape=[3, 64, 64])
    assert attribute_text(c) == f"!ttg.memdesc<64x64xf16, {SHARED}, #ttg.shared_memory, mutable, 3x64x64>"


def test_async_token_type():
    assert attribute_text(AsyncTokenType()) == "!ttg.async.token"


# ------------------------------------------------------------------ ops


OPS_LAYOUTS = f"""#blocked = {BLOCKED}
#blocked1 = #ttg.blocked<{{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}}>
#blocked2 = #ttg.blocked<{{sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}}>
#shared = {SHARED}
#shared1 = #ttg.swizzled_shared<{{vec = 8, perPhase = 1, maxPhase = 8, order = [0, 1]}}>
#smem = #ttg.shared_memory
"""

OPS_BODY = """  tt.func @f(%ptr: tensor<64x64x!tt.ptr<f16>, #blocked>, %mask: tensor<64x64xi1, #blocked>, %other: tensor<64x64xf16, #blocked>, %pred: i1, %q: tensor<64x32xi8, #blocked>) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %cst = arith.constant dense<0.000000e+00> : tensor<64x64xf16, #blocked>
    %cvt = ttg.convert_layout %cst : tensor<64x64xf16, #blocked> -> tensor<64x64xf16, #blocked2>
    %buf = ttg.local_alloc {alignment = 16 : i32} : () -> !ttg.memdesc<2x64x64xf16, #shared, #smem, mutable>
    %init = ttg.local_alloc %cst : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #shared, #smem>
    %view = ttg.memdesc_index %buf[%c0] : !ttg.memdesc<2x64x64xf16, #shared, #smem, mutable> -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
    %sub = ttg.memdesc_subslice %view[0, 32] : !ttg.memdesc<64x64xf16, #shared, #smem, mutable> -> !ttg.memdesc<64x32xf16, #shared, #smem, mutable, 64x64>
    %t0 = ttg.async_copy_global_to_local %ptr, %view mask %mask other %other cacheModifier = ca evictionPolicy = evict_last {contiguity = 8 : i32, isVolatile = true} : tensor<64x64x!tt.ptr<f16>, #blocked> -> <64x64xf16, #shared, #smem, mutable>
    %t1 = ttg.async_copy_global_to_local %ptr, %view : tensor<64x64x!tt.ptr<f16>, #blocked> -> <64x64xf16, #shared, #smem, mutable>
    %g0 = ttg.async_commit_group
    %g1 = ttg.async_commit_group tokens %t0, %t1
    %w = ttg.async_wait %g0, %g1 {num = 0 : i32}
    %ld = ttg.local_load %view token %w : !ttg.memdesc<64x64xf16, #shared, #smem, mutable> -> tensor<64x64xf16, #blocked>
    ttg.local_store %cst, %view : tensor<64x64xf16, #blocked> -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
    %tr = ttg.memdesc_trans %init {order = array<i32: 1, 0>} : !ttg.memdesc<64x64xf16, #shared, #smem> -> !ttg.memdesc<64x64xf16, #shared1, #smem>
    %re = ttg.memdesc_reinterpret %view : !ttg.memdesc<64x64xf16, #shared, #smem, mutable> -> !ttg.memdesc<64x32xi32, #shared, #smem, mutable>
    %ps = ttg.predicate_stage %c0, %c1, %c1 maxStage 2 stage 0 : i32 -> i1
    %m = "ttg.mask"(%pred) ({
      %x = arith.addi %c0, %c1 : i32
      "ttg.mask.return"(%x) : (i32) -> ()
    }) : (i1) -> i32
    %f = ttg.fp4_to_fp %q {axis = 1 : i32} : tensor<64x32xi8, #blocked> -> tensor<64x64xbf16, #blocked1>
    %scratch = ttg.global_scratch_alloc {alignment = 128 : i32, nbytes = 1024 : i32} : !tt.ptr<i8>
    ttg.local_barrier
    ttg.local_dealloc %buf : !ttg.memdesc<2x64x64xf16, #shared, #smem, mutable>
    tt.return
  }"""


def test_ops_roundtrip(tmp_path):
    printed = roundtrip(tmp_path, module(OPS_BODY, OPS_LAYOUTS))
    # Custom forms as Triton prints them: elided defaults, the oilist, the stripped memdesc.
    assert ("mask %arg1 other %arg2 cacheModifier = ca evictionPolicy = evict_last "
            "{contiguity = 8 : i32, isVolatile = true} : tensor<64x64x!tt.ptr<f16>, #blocked> -> "
            "<64x64xf16, #shared, #smem, mutable>") in printed
    assert "[0, 32] : !ttg.memdesc<64x64xf16, #shared, #smem, mutable> -> " in printed
    assert '"ttg.mask"(%arg3) ({' in printed
    assert "ttg.predicate_stage %c0_i32, %c1_i32, %c1_i32 maxStage 2 stage 0 : i32 -> i1" in printed


def test_op_fields():
    ops = {op.name: op for op in parse_module(module(OPS_BODY, OPS_LAYOUTS)).module.walk()}
    copy = ops["ttg.async_copy_global_to_local"]  # the last one: no mask, defaults
    assert copy.mask is None and copy.cache == copy.get_irdl_definition().properties["cache"].default_value
    copy = next(op for op in copy.parent_block().ops if isinstance(op, ttg.AsyncCopyGlobalToLocalOp))
    assert copy.mask is not None and copy.other is not None
    assert (copy.cache.value.data, copy.evict.value.data, copy.contiguity.value.data) == (2, 3, 8)
    assert isinstance(copy.token.type, AsyncTokenType)
    assert copy.other.type == TensorType(f16, [64, 64], copy.src.type.encoding)
    subslice = ops["ttg.memdesc_subslice"]
    assert subslice.offsets == DenseArrayBase.from_list(i32, [0, 32])
    alloc = ops["ttg.local_alloc"]
    assert isinstance(alloc.result.type, MemDescType)


WARP_SPECIALIZE = """  tt.func @f(%x: i32, %y: f32) -> i32 {
    %c1 = arith.constant 1 : i32
    %0 = arith.addi %x, %c1 : i32
    %r:2 = ttg.warp_specialize(%0, %y) attributes {actualRegisters = array<i32: 232, 40, 40>, requestedRegisters = array<i32: 40, 40>, "ttg.warp_specialize.tag" = 0 : i32}
    default {
      %1 = arith.muli %0, %0 : i32
      ttg.warp_yield %1, %y : i32, f32
    }
    partition0(%a: i32, %b: f32) num_warps(4) {
      %1 = arith.addi %a, %a : i32
      %2 = arith.addi %1, %a : i32
      ttg.warp_return
    }
    partition1(%a: i32, %b: f32) num_warps(2) {
      ttg.warp_return
    } : (i32, f32) -> (i32, f32)
    ttg.warp_specialize()
    default {
      ttg.warp_yield
    } : () -> ()
    tt.return %r#0 : i32
  }"""


def test_warp_specialize_roundtrip(tmp_path):
    printed = roundtrip(tmp_path, module(WARP_SPECIALIZE))
    assert "attributes {actualRegisters = array<i32: 232, 40, 40>, requestedRegisters = array<i32: 40, 40>, " in printed
    assert ") num_warps(4) {" in printed and ") num_warps(2) {" in printed
    assert "\n    } : (i32, f32) -> (i32, f32)" in printed
    assert "    default {\n      ttg.warp_yield" in printed


def test_warp_specialize_structure():
    ws = next(op for op in parse_module(module(WARP_SPECIALIZE)).module.walk()
              if isinstance(op, ttg.WarpSpecializeOp))
    assert ws.partitionNumWarps == DenseArrayBase.from_list(i32, [4, 2])
    assert ws.requestedRegisters == DenseArrayBase.from_list(i32, [40, 40])
    assert "ttg.warp_specialize.tag" in ws.attributes
    assert isinstance(ws.partitions_op, ttg.WarpSpecializePartitionsOp)
    first, second = ws.partition_regions
    assert [arg.type for arg in first.block.args] == [i32, ws.operands[1].type]
    assert isinstance(first.block.last_op, ttg.WarpReturnOp)
    assert len(second.block.ops) == 1
    assert isinstance(ws.defaultRegion.block.last_op, ttg.WarpYieldOp)


def test_partitions_cannot_capture_implicitly():
    body = WARP_SPECIALIZE.replace("%1 = arith.addi %a, %a : i32", "%1 = arith.addi %a, %x : i32")
    with pytest.raises(DiagnosticError, match="undeclared SSA value"):
        parse_module(module(body))


# ------------------------------------------------------------------ errors


@pytest.mark.parametrize("type_,message", [
    ("tensor<4xf32, #ttg.bogus<{}>>", "unknown attribute '#ttg.bogus'"),
    ("tensor<4x4xf32, #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]}>>",
     "must all have the same rank"),
    ("tensor<4x4xf32, #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1], bogus = 1}>>",
     "unexpected key: bogus"),
    ("tensor<4x4xf32, #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1], CGALayout = [[1]]}>>",
     "does not match rank 2"),
    ("!ttg.memdesc<64x64xf16, #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false}>, #ttg.shared_memory>",
     "expected 'elementBitWidth'"),
    ("!ttg.memdesc<f16, #ttg.shared_memory, #ttg.shared_memory>", "rank 0 memdesc"),
])
def test_invalid_layouts_are_clean_errors(type_, message):
    with pytest.raises(DiagnosticError, match=message):
        parse_module(func_with_args(type_))
