"""The ttng and nvws dialects: typed TMEM encodings, the `custom<Token>` and
`custom<BarriersAndPreds>` directives, mbarrier/TMA/wgmma/tcgen05 ops, the NVWS aref and
warp group ops, and round trips that Triton reads back as the same module."""

import pytest
from xdsl.dialects.builtin import ArrayAttr, IntAttr, f16, i32

from ttpipe.dialects import nvws, ttng
from ttpipe.dialects.tt import FALSE, TRUE, CacheModifier, InputPrecision, ScaleDotElemType
from ttpipe.dialects.ttg_types import AsyncTokenType, MemDescType
from ttpipe.roundtrip import check_text
from ttpipe.textio import DiagnosticError, parse_module, print_module
from ttpipe.ir.printer import attribute_text
from ttpipe.triton import mlir

MODULE = 'module attributes {{"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:100", "ttg.threads-per-warp" = 32 : i32}} {{\n{body}\n}}\n'

LAYOUTS = """
#blocked = #ttg.blocked<{sizePerThread = [1, 128], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#nvmma8 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 8}>
#nvmma8t = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 8}>
#scales_shared = #ttg.shared_linear<{offset = [[0, 1], [0, 2], [32, 0], [64, 0], [1, 0], [2, 0], [4, 0], [8, 0], [16, 0]]}, alignment = 128>
#smem = #ttg.shared_memory
#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>
#tmem_scales = #ttng.tensor_memory_scales_encoding<>
"""

BAR = "!ttg.memdesc<1xi64, #bar, #smem, mutable>"
A = "!ttg.memdesc<128x64xf16, #nvmma, #smem>"
B = "!ttg.memdesc<64x128xf16, #nvmma, #smem>"
ACC = "!ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>"
TOKEN = "!ttg.async.token"


def module(body: str) -> str:
    return LAYOUTS + MODULE.format(body=body)


def roundtrip(tmp_path, text: str) -> str:
    """Asserts that Triton reads ttpipe's print of `text` as the module it reads from `text`."""
    path = tmp_path / "input.mlir"
    path.write_text(text)
    outcome = check_text(text, str(path))
    assert outcome.ok and not outcome.detail, outcome.detail
    return print_module(parse_module(text, str(path)).module)


def ops_named(text: str, name: str) -> list:
    return [op for op in parse_module(text).module.walk() if op.name == name]


# ------------------------------------------------------------------ TMEM attributes


def test_tensor_memory_encoding_fields():
    text = module("tt.func @f(%m: !ttg.memdesc<128x64xf32, #ttng.tensor_memory_encoding<colStride = 2, "
                  "blockN = 64, blockM = 64, twoCTAs = true, CTASplitN = 2>, #ttng.tensor_memory, mutable>) {\n"
                  "  tt.return\n}")
    func = ops_named(text, "tt.func")[0]
    memdesc = func.body.block.args[0].type
    assert isinstance(memdesc, MemDescType)
    encoding = memdesc.encoding
    assert isinstance(encoding, ttng.TensorMemoryEncodingAttr)
    assert (encoding.block_m, encoding.block_n, encoding.col_stride) == (64, 64, 2)
    assert (encoding.cta_split_m, encoding.cta_split_n, encoding.two_ctas) == (1, 2, True)
    assert isinstance(memdesc.memory_space, ttng.TensorMemorySpaceAttr)
    assert encoding == ttng.TensorMemoryEncodingAttr.get(64, 64, 2, cta_split_n=2, two_ctas=True)
    printed = print_module(parse_module(text).module)
    # Declaration order, defaults elided, under Triton's alias.
    assert "#tmem = #ttng.tensor_memory_encoding<blockM = 64, blockN = 64, colStride = 2, CTASplitN = 2, twoCTAs = true>" in printed


def test_tensor_memory_encoding_defaults_and_scales():
    encoding = ttng.TensorMemoryEncodingAttr.get(128, 256, 1)
    assert (encoding.cta_split_m, encoding.cta_split_n, encoding.two_ctas) == (1, 1, False)
    text = module(f"tt.func @f(%m: !ttg.memdesc<128x4xi8, #tmem_scales, #ttng.tensor_memory>, "
                  f"%n: !ttg.memdesc<128x4xi8, #ttng.tensor_memory_scales_encoding<CTASplitM = 2>, #ttng.tensor_memory>, "
                  f"%acc: {ACC}) {{\n  tt.return\n}}")
    printed = print_module(parse_module(text).module)
    assert "#tmem_scales = #ttng.tensor_memory_scales_encoding<>\n" in printed
    assert "#tmem_scales1 = #ttng.tensor_memory_scales_encoding<CTASplitM = 2>\n" in printed
    assert "#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>\n" in printed
    func = ops_named(text, "tt.func")[0]
    scales = func.body.block.args[1].type.encoding
    assert isinstance(scales, ttng.TensorMemoryScalesEncodingAttr)
    assert (scales.cta_split_m, scales.cta_split_n) == (2, 1)


@pytest.mark.parametrize("body, message", [
    ("blockM = 32, blockN = 64, colStride = 1", "blockM must be 64 or 128"),
    ("blockM = 128, blockN = 48, colStride = 1", "blockN must be a power of 2"),
    ("blockM = 128, blockN = 64, colStride = 3", "colStride must be 1, 2, or 4"),
    ("blockM = 128, blockN = 64", "missing required parameter: colStride"),
    ("blockM = 128, blockN = 64, colStride = 1, unpacked = true", "unknown parameter 'unpacked'"),
])
def test_tensor_memory_encoding_errors(body, message):
    text = module(f"tt.func @f(%m: !ttg.memdesc<128x64xf32, #ttng.tensor_memory_encoding<{body}>, "
                  f"#ttng.tensor_memory, mutable>) {{\n  tt.return\n}}")
    with pytest.raises(DiagnosticError, match=message):
        parse_module(text)


# ------------------------------------------------------------------ mbarriers and fences


def test_barrier_ops(tmp_path):
    body = f"""
  tt.func @barriers(%bar: {BAR}, %dep: {BAR}, %phase: i32, %pred: i1) {{
    ttng.init_barrier %bar, 1 : {BAR}
    ttng.barrier_expect %bar, 16384, %pred : {BAR}
    ttng.wait_barrier %bar, %phase : {BAR}
    ttng.wait_barrier %bar, %phase, %pred : {BAR}
    ttng.wait_barrier %bar, %phase deps %dep, %dep : {BAR}, {BAR}, {BAR}
    ttng.wait_barrier %bar, %phase, %pred deps %dep : {BAR}, {BAR}
    ttng.arrive_barrier %bar, 2 : {BAR}
    ttng.arrive_barrier %bar, 1, %pred : {BAR}
    ttng.async_copy_mbarrier_arrive %bar {{noIncrement}} : {BAR}
    ttng.tc_gen5_commit %bar : {BAR}
    ttng.tc_gen5_commit %bar, %pred {{two_ctas}} : {BAR}
    ttng.fence_async_shared {{bCluster = false}}
    ttng.cluster_arrive {{relaxed = true}}
    ttng.cluster_wait
    ttng.inval_barrier %bar : {BAR}
    tt.return
  }}"""
    printed = roundtrip(tmp_path, module(body))
    bar = "!ttg.memdesc<1xi64, #shared, #smem, mutable>"  # #bar prints under Triton's alias
    assert f"ttng.wait_barrier %arg0, %arg2, %arg3 deps %arg1 : {bar}, {bar} loc(" in printed
    assert "ttng.tc_gen5_commit %arg0, %arg3 {two_ctas} : " in printed
    text = module(body)
    wait = ops_named(text, "ttng.wait_barrier")[3]
    assert wait.pred is not None and len(wait.deps) == 1
    assert wait.properties["operandSegmentSizes"].get_values() == (1, 1, 1, 1)
    assert ops_named(text, "ttng.init_barrier")[0].count.value.data == 1


# ------------------------------------------------------------------ tcgen05


def test_tc_gen5_mma_tokens_and_barriers(tmp_path):
    body = f"""
  tt.func @mma(%a: {A}, %b: {B}, %bar: {BAR}, %bar2: {BAR}, %useD: i1, %pred: i1, %p0: i1) {{
    %acc, %tok = ttng.tmem_alloc : () -> ({ACC}, {TOKEN})
    %t1 = ttng.tc_gen5_mma %a, %b, %acc[%tok], %useD, %pred : {A}, {B}, {ACC}
    %t2 = ttng.tc_gen5_mma %a, %b, %acc[], %useD, %pred, %bar[%p0], %bar2[%pred] {{is_async}} : {A}, {B}, {ACC}, {BAR}, {BAR}
    ttng.tc_gen5_mma %a, %b, %acc, %useD, %pred, %bar[%p0] {{is_async}} : {A}, {B}, {ACC}, {BAR}
    ttng.tc_gen5_mma %a, %b, %acc, %useD, %pred : {A}, {B}, {ACC}
    %v, %t3 = ttng.tmem_load %acc[%t2] : {ACC} -> tensor<128x128xf32, #blocked>
    %t4 = ttng.tmem_store %v, %acc[%t3], %pred : tensor<128x128xf32, #blocked> -> {ACC}
    ttng.tmem_store %v, %acc, %pred : tensor<128x128xf32, #blocked> -> {ACC}
    %w = ttng.tmem_load %acc : {ACC} -> tensor<128x128xf32, #blocked>
    %init = ttng.tmem_alloc %v : (tensor<128x128xf32, #blocked>) -> !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory>
    %half = ttng.tmem_subslice %acc {{N = 64 : i32}} : {ACC} -> !ttg.memdesc<128x64xf32, #tmem, #ttng.tensor_memory, mutable, 128x128>
    tt.return
  }}"""
    text = module(body)
    printed = roundtrip(tmp_path, text)
    assert "= ttng.tc_gen5_mma %arg0, %arg1, %result[%token], %arg4, %arg5 : " in printed
    assert "= ttng.tc_gen5_mma %arg0, %arg1, %result[], %arg4, %arg5, %arg2[%arg6], %arg3[%arg5] {is_async} : " in printed
    assert "    ttng.tc_gen5_mma %arg0, %arg1, %result, %arg4, %arg5 : " in printed
    assert "%result_0, %token_1 = ttng.tmem_load %result[%1] : " in printed
    first, second, third, fourth = ops_named(text, "ttng.tc_gen5_mma")
    assert isinstance(first.acc_dep.type, AsyncTokenType) and first.token is not None and not first.barriers
    assert second.acc_dep is None and second.token is not None and second.is_async is not None
    assert len(second.barriers) == 2 and len(second.barrier_preds) == 2
    assert second.properties["operandSegmentSizes"].get_values() == (1, 1, 1, 0, 1, 1, 2, 2)
    assert third.token is None and len(third.barriers) == 1
    assert fourth.token is None and fourth.is_async is None
    load = ops_named(text, "ttng.tmem_load")[0]
    assert load.dep is not None and isinstance(load.token.type, AsyncTokenType)
    assert ops_named(text, "ttng.tmem_subslice")[0].N.value.data == 64


def test_tc_gen5_mma_scaled_and_tmem_copy(tmp_path):
    scales_smem = "!ttg.memdesc<128x4xi8, #scales_shared, #smem>"
    scales_tmem = "!ttg.memdesc<128x4xi8, #tmem_scales, #ttng.tensor_memory, mutable>"
    a8 = "!ttg.memdesc<128x128xf8E4M3FN, #nvmma8, #smem>"
    b4 = "!ttg.memdesc<64x128xi8, #nvmma8t, #smem>"
    body = f"""
  tt.func @scaled(%a: {a8}, %b: {b4}, %sa: {scales_smem}, %bar: {BAR}, %pred: i1) {{
    %acc = ttng.tmem_alloc : () -> {ACC}
    %as = ttng.tmem_alloc : () -> {scales_tmem}
    %bs = ttng.tmem_alloc : () -> {scales_tmem}
    ttng.tmem_copy %sa, %as : {scales_smem}, {scales_tmem}
    ttng.tmem_copy %sa, %bs, %bar : {scales_smem}, {scales_tmem}, {BAR}
    ttng.tc_gen5_mma_scaled %a, %b, %acc, %as, %bs, %pred, %pred lhs = e4m3 rhs = e2m1, %bar[%pred] {{is_async}} : {a8}, {b4}, {ACC}, {scales_tmem}, {scales_tmem}, {BAR}
    %t = ttng.tc_gen5_mma_scaled %a, %b, %acc[], %as, %bs, %pred, %pred lhs = e4m3 rhs = e2m1 : {a8}, {b4}, {ACC}, {scales_tmem}, {scales_tmem}
    tt.return
  }}"""
    text = module(body)
    printed = roundtrip(tmp_path, text)
    assert "lhs = e4m3 rhs = e2m1, %arg3[%arg4] {is_async}" in printed
    scaled = ops_named(text, "ttng.tc_gen5_mma_scaled")[0]
    assert ScaleDotElemType(scaled.a_type.value.data) is ScaleDotElemType.e4m3
    assert ScaleDotElemType(scaled.b_type.value.data) is ScaleDotElemType.e2m1


# ------------------------------------------------------------------ wgmma


def test_warp_group_dot(tmp_path):
    mma = "#ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 128, 16]}>"
    acc = f"tensor<128x128xf32, {mma}>"
    a = "!ttg.memdesc<128x64xf16, #nvmma, #smem>"
    b = "!ttg.memdesc<64x128xf16, #nvmma, #smem>"
    body = f"""
  tt.func @wgmma(%a: {a}, %b: {b}, %c: {acc}, %useC: i1) {{
    %d = ttng.warp_group_dot %a, %b, %c {{inputPrecision = 0 : i32, isAsync = true}} : {a} * {b} -> {acc}
    %e = ttng.warp_group_dot %a, %b, %d, %useC {{maxNumImpreciseAcc = 32 : i32}} : {a} * {b} -> {acc}
    %f:2 = ttng.warp_group_dot_wait %d, %e {{pendings = 0 : i32}} : {acc}, {acc}
    tt.return
  }}"""
    text = module(body)
    printed = roundtrip(tmp_path, text)
    a, b = (t.replace("#nvmma", "#shared") for t in (a, b))
    assert f"ttng.warp_group_dot %arg0, %arg1, %0, %arg3 {{maxNumImpreciseAcc = 32 : i32}} : {a} * {b} -> tensor<128x128xf32, #mma>" in printed
    first, second = ops_named(text, "ttng.warp_group_dot")
    assert InputPrecision(first.inputPrecision.value.data) is InputPrecision.tf32 and first.isAsync == TRUE
    assert InputPrecision(second.inputPrecision.value.data) is InputPrecision.ieee and second.isAsync == FALSE
    wait = ops_named(text, "ttng.warp_group_dot_wait")[0]
    assert [r.type for r in wait.outputs] == [o.type for o in wait.inputs]


# ------------------------------------------------------------------ TMA


def test_tma_ops(tmp_path):
    desc = "!tt.tensordesc<tensor<128x64xf16, #nvmma>>"
    buf = "!ttg.memdesc<128x64xf16, #nvmma, #smem, mutable>"
    gdesc = "!tt.tensordesc<tensor<1x128xbf16, #nvmma>>"
    gbuf = "!ttg.memdesc<32x128xbf16, #nvmma, #smem, mutable>"
    body = f"""
  tt.func @tma(%desc: {desc}, %buf: {buf}, %bar: {BAR}, %x: i32, %y: i32, %pred: i1,
               %gdesc: {gdesc}, %xs: tensor<32xi32, #blocked1>, %gbuf: {gbuf},
               %ptr: !tt.ptr<i8>, %base: !tt.ptr<i8>, %stride: i64) {{
    ttng.async_tma_copy_global_to_local %desc[%x, %y] %buf, %bar, %pred : {desc}, {BAR} -> {buf}
    ttng.async_tma_copy_global_to_local %desc[%x, %y] %buf, %bar, %pred cacheModifier = cg evictionPolicy = evict_last {{isVolatile = true}} : {desc}, {BAR} -> {buf}
    ttng.async_tma_copy_local_to_global %desc[%x, %y] %buf : {desc}, {buf}
    ttng.async_tma_reduce add, %desc[%x, %y] %buf : {desc}, {buf}
    ttng.async_tma_store_wait {{pendings = 0 : i32}}
    ttng.async_tma_gather %gdesc[%xs, %y] %gbuf, %bar, %pred : {gdesc}, tensor<32xi32, #blocked1>, i32, {BAR}, {gbuf}, i1
    ttng.async_tma_scatter %gdesc[%xs, %y] %gbuf : {gdesc}, tensor<32xi32, #blocked1>, i32, {gbuf}
    ttng.tensormap_create %ptr, %base, [%x, %y], [%x, %y], [%stride], [%x, %x] {{elem_type = 6 : i32, fill_mode = 0 : i32, interleave_layout = 0 : i32, swizzle_mode = 3 : i32}} : (!tt.ptr<i8>, !tt.ptr<i8>, i32, i32, i32, i32, i64, i32, i32) -> ()
    ttng.tensormap_fenceproxy_acquire %ptr : !tt.ptr<i8>
    %d = ttng.reinterpret_tensor_descriptor %ptr : !tt.ptr<i8> to {desc}
    tt.return
  }}"""
    text = module(body)
    printed = roundtrip(tmp_path, text)
    assert "cacheModifier = cg evictionPolicy = evict_last {isVolatile = true}" in printed
    plain, hinted = ops_named(text, "ttng.async_tma_copy_global_to_local")
    assert CacheModifier(plain.cache.value.data) is CacheModifier.none  # the default, elided
    assert CacheModifier(hinted.cache.value.data) is CacheModifier.cg
    create = ops_named(text, "ttng.tensormap_create")[0]
    assert create.properties["operandSegmentSizes"].get_values() == (1, 1, 2, 2, 1, 2)


# ------------------------------------------------------------------ NVWS


AREF = "!nvws.aref<[!ttg.memdesc<2x128x64xf16, #nvmma, #smem, mutable>, !ttg.memdesc<2x128x128xf32, #tmem, #ttng.tensor_memory, mutable>]>"
VIEWS = ("!ttg.memdesc<128x64xf16, #nvmma, #smem, mutable, 2x128x64>, "
         "!ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable, 2x128x128>")


def test_aref_ops(tmp_path):
    body = f"""
  tt.func @aref(%x: !ttg.memdesc<2x128x64xf16, #nvmma, #smem, mutable>, %y: !ttg.memdesc<2x128x128xf32, #tmem, #ttng.tensor_memory, mutable>, %s: i32, %p: i32) {{
    %aref = nvws.aref.create %x, %y : {AREF}
    %put:3 = nvws.aref.put.enter %aref[%s, %p] : {AREF} -> {VIEWS}, !ttg.async.token
    nvws.aref.put.exit %aref[%s], %put#2 [#nvws.async_op<tma_load>, #nvws.async_op<tc5mma>] : {AREF}, !ttg.async.token
    %get:3 = nvws.aref.get.enter %aref : {AREF} -> {VIEWS}, !ttg.async.token
    %views:2 = nvws.aref.buffer %aref[%s], %get#2 : {AREF}, !ttg.async.token -> {VIEWS}
    nvws.aref.get.exit %aref, %get#2 [#nvws.async_op<none>] {{ttg.partition = array<i32: 1>}} : <[!ttg.memdesc<2x128x64xf16, #nvmma, #smem, mutable>, !ttg.memdesc<2x128x128xf32, #tmem, #ttng.tensor_memory, mutable>]>, !ttg.async.token
    tt.return
  }}"""
    text = module(body)
    printed = roundtrip(tmp_path, text)
    # An unqualified `type($aref)` prints stripped, as Triton prints it.
    assert "nvws.aref.create %arg0, %arg1 : <[!ttg.memdesc<2x128x64xf16" in printed
    assert "nvws.aref.get.exit %0, %token_1 [#nvws.async_op<none>] {ttg.partition = array<i32: 1>} : <[" in printed
    aref = ops_named(text, "nvws.aref.create")[0].result.type
    assert isinstance(aref, nvws.ArefType) and len(aref.base_types) == 2
    exit_op = ops_named(text, "nvws.aref.put.exit")[0]
    assert [a.kind for a in exit_op.async_ops.data] == [nvws.AsyncOp.tma_load, nvws.AsyncOp.tc5mma]
    get = ops_named(text, "nvws.aref.get.enter")[0]
    assert get.stage is None and len(get.buffers) == 2 and isinstance(get.token.type, AsyncTokenType)


def test_warp_group_and_tokens(tmp_path):
    desc = "!tt.tensordesc<tensor<128x64xf16, #nvmma>>"
    buf = "!ttg.memdesc<128x64xf16, #nvmma, #smem, mutable>"
    gdesc = "!tt.tensordesc<tensor<1x64xf16, #nvmma>>"
    body = f"""
  tt.func @ws(%desc: {desc}, %buf: {buf}, %gdesc: {gdesc}, %xs: tensor<128xi32, #blocked1>, %x: i32, %flag: i1) {{
    %tokens = nvws.create_token {{loadType = 2 : i32, numBuffers = 3 : i32}} : tensor<3x!nvws.token>
    nvws.warp_group
    partition0 num_warps(4) {{
      nvws.producer_acquire %tokens, %x, %flag : tensor<3x!nvws.token>, i32, i1
      nvws.descriptor_load %desc[%x, %x] 16384 %buf cacheModifier = ca : {desc}, i32, i32, {buf}
      nvws.descriptor_gather %gdesc[%xs, %x] 16384 %buf : {gdesc}, tensor<128xi32, #blocked1>, i32, {buf}
      nvws.producer_commit %tokens, %x : tensor<3x!nvws.token>, i32
      nvws.warp_group.yield %x : i32
    }}
    partition1 num_warps(8) {{
      nvws.consumer_wait %tokens, %x, %flag : tensor<3x!nvws.token>, i32, i1
      nvws.consumer_release %tokens, %x : tensor<3x!nvws.token>, i32
      nvws.warp_group.return
    }}
    tt.return
  }}"""
    text = module(body)
    printed = roundtrip(tmp_path, text)
    assert "    nvws.warp_group\n    partition0 num_warps(4) {\n" in printed
    assert "    }\n    partition1 num_warps(8) {\n" in printed
    group = ops_named(text, "nvws.warp_group")[0]
    assert group.numWarps.get_values() == (4, 8) and len(group.regions) == 2 and not group.results
    create = ops_named(text, "nvws.create_token")[0]
    assert create.load_kind is nvws.TokenLoadType.tmaLoadOp and create.numBuffers.value.data == 3


def test_nvws_array_attributes_print_as_triton_does(tmp_path):
    """`ArrayOfAttr` bodies are not `<...>`, so MLIR prints them in the opaque dialect form."""
    types = nvws.TypeArrayAttr(ArrayAttr([i32, f16]))
    ints = nvws.IntArrayAttr(ArrayAttr([IntAttr(1), IntAttr(2)]))
    assert attribute_text(types) == "#nvws<type_array[i32, f16]>"
    assert attribute_text(ints) == "#nvws<int_array[1, 2]>"
    path = tmp_path / "attrs.mlir"
    path.write_text(f"module attributes {{x.types = {attribute_text(types)}, x.ints = {attribute_text(ints)}}} {{\n}}\n")
    assert 'module attributes {x.ints = #nvws<int_array[1, 2]>, x.types = #nvws<type_array[i32, f16]>}' in mlir.reprint(str(path))
    aref = nvws.ArefType.get([i32])
    assert aref.baseType == nvws.TypeArrayAttr(ArrayAttr([i32]))
    assert attribute_text(aref) == "!nvws.aref<[i32]>"
