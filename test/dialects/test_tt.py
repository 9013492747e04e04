"""The tt dialect: the `!tt.ptr` and `!tt.tensordesc` types, the enums, the hand-written
`tt.func` form, the declarative forms of the other ops (inferred types, oilists, stripped
types), round trips that Triton reads back as the same module, and the verifiers."""

import pytest
from xdsl.dialects.builtin import IntegerAttr, TensorType, f16, f32, i1, i32
from xdsl.utils.exceptions import VerifyException

from ttpipe.dialects import tt
from ttpipe.roundtrip import check_text
from ttpipe.textio import DiagnosticError, parse_module, print_module
from ttpipe.ir.printer import attribute_text


def roundtrip(tmp_path, text: str) -> str:
    """Asserts that Triton reads ttpipe's print of `text` as the module it reads from `text`;
    returns ttpipe's print."""
    path = tmp_path / "input.mlir"
    path.write_text(text)
    outcome = check_text(text, str(path))
    assert outcome.ok and not outcome.detail, outcome.detail
    return print_module(parse_module(text, str(path)).module)


def func(body: str, args: str = "") -> str:
    return f"module {{\n  tt.func public @f({args}) {{\n{body}\n    tt.return\n  }}\n}}\n"


def ops_of(text: str, name: str) -> list:
    return [op for op in parse_module(text).module.walk() if op.name == name]


def verify_error(text: str) -> str:
    with pytest.raises(VerifyException) as info:
        parse_module(text).module.verify()
    return str(info.value)


# ------------------------------------------------------------------ types and enums


def test_pointer_type_elides_address_space_one():
    assert attribute_text(tt.PointerType(f16)) == "!tt.ptr<f16>"
    assert attribute_text(tt.PointerType(f16, 3)) == "!tt.ptr<f16, 3>"
    nested = tt.PointerType(TensorType(f16, [16, 32]))
    assert attribute_text(nested) == "!tt.ptr<tensor<16x32xf16>>"


def test_pointer_type_reads_explicit_address_space_one():
    (op,) = ops_of(func("", "%p: !tt.ptr<f32, 1>, %q: !tt.ptr<i8, 3>"), "tt.func")
    p, q = op.body.blocks.first.args
    assert p.type == tt.PointerType(f32) and q.type.addressSpace.data == 3


def test_tensordesc_type():
    desc = tt.TensorDescType(TensorType(f16, [16, 64]))
    assert attribute_text(desc) == "!tt.tensordesc<tensor<16x64xf16>>"


def test_enums_have_triton_keywords_and_values():
    assert tt.CacheModifier.cv == 7 and tt.EvictionPolicy.evict_first == 2
    assert tt.MemSemantic.acq_rel == 4 and tt.MemSyncScope.sys == 3
    assert tt.RMWOp["and"] == 1 and tt.RMWOp.exch == 10
    assert tt.DescriptorReduceKind["or"] == 7 and tt.DescriptorReduceKind.dec == 5
    assert tt.PropagateNan.all == 0xFFFF and tt.InputPrecision.bf16x6 == 4
    assert tt.ScaleDotElemType.fp16 == 6 and tt.ProgramIDDim.z == 2
    assert tt.RoundingMode.rtne == 1 and tt.PaddingOption.nan == 2
    assert tt.enum_attr(tt.CacheModifier.ca) == IntegerAttr(2, i32)


# ------------------------------------------------------------------ tt.func, tt.call, tt.return


FUNCS = """#loc = loc("k.py":3:0)
module {
  tt.func public @kernel(%x_ptr: !tt.ptr<f32> {tt.divisibility = 16 : i32} loc("x_ptr"(#loc)), %n: i32 loc("n"(#loc)), %s: !tt.ptr<f16, 3>) attributes {noinline = false} {
    %0:2 = tt.call @helper(%n, %n) : (i32, i32) -> (i32, f32)
    tt.call @sink() : () -> ()
    tt.return
  } loc(#loc)
  tt.func private @helper(%a: i32, %b: i32) -> (i32 {tt.res = 1 : i32}, f32) attributes {noinline = true} {
    %cst = arith.constant 1.000000e+00 : f32
    tt.return %a, %cst : i32, f32
  }
  tt.func nested @sink() {
    tt.return
  }
  tt.func private @decl(i32 {tt.divisibility = 16 : i32}, !tt.ptr<f16>) -> i32
  tt.func private @fn_result() -> ((i32) -> i32)
}
"""


def test_func_forms_round_trip(tmp_path):
    out = roundtrip(tmp_path, FUNCS)
    assert ('tt.func public @kernel(%x_ptr: !tt.ptr<f32> {tt.divisibility = 16 : i32} loc(' in out)
    assert "-> (i32 {tt.res = 1 : i32}, f32) attributes {noinline = true} {" in out
    assert "tt.func private @decl(i32 {tt.divisibility = 16 : i32}, !tt.ptr<f16>) -> i32 loc(" in out
    assert "tt.func private @fn_result() -> ((i32) -> i32) loc(" in out
    assert "tt.func nested @sink() {" in out
    assert "%0:2 = tt.call @helper(%n, %n) : (i32, i32) -> (i32, f32)" in out


def test_func_properties_are_stored_as_mlir_does():
    kernel, helper, sink, decl, _ = ops_of(FUNCS, "tt.func")
    assert kernel.sym_name.data == "kernel" and kernel.sym_visibility.data == "public"
    assert [d.data for d in kernel.arg_attrs.data][0]["tt.divisibility"] == IntegerAttr(16, i32)
    assert kernel.res_attrs is None and dict(kernel.attributes) == {"noinline": IntegerAttr(0, i1)}
    assert len(helper.function_type.outputs.data) == 2 and helper.arg_attrs is None
    assert sink.sym_visibility.data == "nested"
    assert decl.is_declaration and not decl.body.blocks
    x_ptr = kernel.body.blocks.first.args[0]
    assert x_ptr.location.desc.data == "x_ptr"


def test_func_verifies():
    parse_module(FUNCS).module.verify()


def test_func_rejects_mixed_argument_forms():
    with pytest.raises(DiagnosticError, match="mix"):
        parse_module("tt.func @f(%a: i32, i32) {\n tt.return\n}")


def test_return_must_match_function_type():
    text = "module {\n tt.func @f(%a: i32) -> f32 {\n tt.return %a : i32\n }\n}"
    assert "doesn't match function result type" in verify_error(text)


def test_call_must_match_callee():
    text = FUNCS.replace("tt.call @sink() : () -> ()", "tt.call @sink(%n) : (i32) -> ()")
    assert "incorrect number of operands for callee" in verify_error(text)
    text = FUNCS.replace("tt.call @sink()", "tt.call @nowhere()")
    assert "does not reference a valid function" in verify_error(text)


# ------------------------------------------------------------------ memory ops


LOADS = func("""\
    %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
    %ps = tt.splat %p : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>>
    %ptrs = tt.addptr %ps, %r : tensor<128x!tt.ptr<f32>>, tensor<128xi32>
    %ns = tt.splat %n : i32 -> tensor<128xi32>
    %m = arith.cmpi slt, %r, %ns : tensor<128xi32>
    %other = arith.constant dense<0.000000e+00> : tensor<128xf32>
    %a = tt.load %ptrs : tensor<128x!tt.ptr<f32>>
    %b = tt.load %ptrs, %m cacheModifier = cg : tensor<128x!tt.ptr<f32>>
    %c = tt.load %ptrs, %m, %other evictionPolicy = evict_last cacheModifier = ca {isVolatile = true} : tensor<128x!tt.ptr<f32>>
    %s = tt.load %p cacheModifier = cv : !tt.ptr<f32>
    tt.store %ptrs, %a, %m cacheModifier = wt evictionPolicy = evict_first : tensor<128x!tt.ptr<f32>>
    tt.store %p, %s : !tt.ptr<f32>
    %old = tt.atomic_rmw fadd, acq_rel, gpu, %ptrs, %b, %m : (tensor<128x!tt.ptr<f32>>, tensor<128xf32>, tensor<128xi1>) -> tensor<128xf32>
    %x = tt.atomic_rmw exch, relaxed, sys, %p, %s : (!tt.ptr<f32>, f32) -> f32
    %cas = tt.atomic_cas acquire, cta, %q, %n, %n : (!tt.ptr<i32>, i32, i32) -> i32""",
                "%p: !tt.ptr<f32>, %q: !tt.ptr<i32>, %n: i32")


def test_loads_stores_atomics_round_trip(tmp_path):
    out = roundtrip(tmp_path, LOADS)
    # oilist clauses print in declaration order; defaults are elided
    assert "tt.load %2, %4, %cst cacheModifier = ca evictionPolicy = evict_last {isVolatile = true} :" in out
    assert "%5 = tt.load %2 : tensor<128x!tt.ptr<f32>>" in out
    assert "tt.store %2, %5, %4 cacheModifier = wt evictionPolicy = evict_first : tensor<128x!tt.ptr<f32>>" in out
    assert ("tt.atomic_rmw fadd, acq_rel, gpu, %2, %6, %4 : (tensor<128x!tt.ptr<f32>>, tensor<128xf32>, "
            "tensor<128xi1>) -> tensor<128xf32>") in out
    assert "tt.atomic_cas acquire, cta, %arg1, %arg2, %arg2 : (!tt.ptr<i32>, i32, i32) -> i32" in out


def test_load_infers_result_mask_and_other_types():
    loads = ops_of(LOADS, "tt.load")
    assert loads[0].result.type == TensorType(f32, [128])
    assert loads[2].mask.type == TensorType(i1, [128]) and loads[2].other.type == TensorType(f32, [128])
    assert loads[2].cache.value.data == tt.CacheModifier.ca and loads[2].isVolatile == tt.TRUE
    assert loads[0].cache == tt.enum_attr(tt.CacheModifier.none)
    assert loads[3].result.type == f32
    parse_module(LOADS).module.verify()


def test_load_with_boundary_check_and_padding(tmp_path):
    text = func("""\
    %t = tt.make_tensor_ptr %p, [%k, %k], [%k, %k], [%i, %i] {order = array<i32: 1, 0>} : <tensor<64x32xf16>>
    %u = tt.advance %t, [%i, %i] : <tensor<64x32xf16>>
    %v = tt.load %u {boundaryCheck = array<i32: 0, 1>, padding = 2 : i32} : !tt.ptr<tensor<64x32xf16>>
    tt.store %u, %v {boundaryCheck = array<i32: 1>} : !tt.ptr<tensor<64x32xf16>>""",
                "%p: !tt.ptr<f16>, %i: i32, %k: i64")
    out = roundtrip(tmp_path, text)
    # single operands of one dialect type print stripped, as MLIR's declarative printer does
    assert "tt.make_tensor_ptr %arg0, [%arg2, %arg2], [%arg2, %arg2], [%arg1, %arg1] {order = array<i32: 1, 0>} : " \
        "<tensor<64x32xf16>>" in out
    assert "tt.advance %0, [%arg1, %arg1] : <tensor<64x32xf16>>" in out
    assert "tt.load %1 {boundaryCheck = array<i32: 0, 1>, padding = 2 : i32} : !tt.ptr<tensor<64x32xf16>>" in out
    (load,) = ops_of(text, "tt.load")
    assert load.padding.value.data == tt.PaddingOption.nan
    assert load.result.type == TensorType(f16, [64, 32])


def test_unknown_enum_keyword_is_a_parse_error():
    with pytest.raises(DiagnosticError, match="expected one of none, ca, cg"):
        parse_module(func("    %x = tt.load %p cacheModifier = bogus : !tt.ptr<f32>", "%p: !tt.ptr<f32>"))


def test_shared_address_space_pointer(tmp_path):
    text = func("    %x = tt.load %s : !tt.ptr<f16, 3>\n    tt.store %s, %x : !tt.ptr<f16, 3>", "%s: !tt.ptr<f16, 3>")
    assert "tt.load %arg0 : !tt.ptr<f16, 3>" in roundtrip(tmp_path, text)


def test_descriptor_ops_round_trip(tmp_path):
    text = func("""\
    %d = tt.make_tensor_descriptor %p, [%i, %i], [%k, %k] : <f16>, <tensor<8x64xf16>>
    %e = tt.make_tensor_descriptor %p, [%i, %i], [%k, %k] {padding = 2 : i32} : !tt.ptr<f16>, !tt.tensordesc<tensor<1x64xf16>>
    %x = tt.descriptor_load %d[%i, %i] cacheModifier = cg : !tt.tensordesc<tensor<8x64xf16>> -> tensor<8x64xf16>
    tt.descriptor_store %d[%i, %i], %x : !tt.tensordesc<tensor<8x64xf16>>, tensor<8x64xf16>
    tt.descriptor_reduce add, %d[%i, %i], %x : !tt.tensordesc<tensor<8x64xf16>>, tensor<8x64xf16>
    %rows = tt.make_range {end = 8 : i32, start = 0 : i32} : tensor<8xi32>
    %g = tt.descriptor_gather %e[%rows, %i] : (!tt.tensordesc<tensor<1x64xf16>>, tensor<8xi32>, i32) -> tensor<8x64xf16>
    tt.descriptor_scatter %e[%rows, %i], %g : !tt.tensordesc<tensor<1x64xf16>>, tensor<8xi32>, i32, tensor<8x64xf16>""",
                "%p: !tt.ptr<f16>, %i: i32, %k: i64")
    out = roundtrip(tmp_path, text)
    assert "tt.make_tensor_descriptor %arg0, [%arg1, %arg1], [%arg2, %arg2] : <f16>, <tensor<8x64xf16>>" in out
    assert "{padding = 2 : i32} : <f16>, <tensor<1x64xf16>>" in out
    assert "tt.descriptor_load %0[%arg1, %arg1] cacheModifier = cg : !tt.tensordesc<tensor<8x64xf16>> -> " \
        "tensor<8x64xf16>" in out
    assert "tt.descriptor_reduce add, %0[%arg1, %arg1], %2 : !tt.tensordesc<tensor<8x64xf16>>, tensor<8x64xf16>" in out
    assert "tt.descriptor_gather %1[%3, %arg1] : (!tt.tensordesc<tensor<1x64xf16>>, tensor<8xi32>, i32) -> " \
        "tensor<8x64xf16>" in out
    assert "tt.descriptor_scatter %1[%3, %arg1], %4 : !tt.tensordesc<tensor<1x64xf16>>, tensor<8xi32>, i32, " \
        "tensor<8x64xf16>" in out
    parse_module(text).module.verify()


# ------------------------------------------------------------------ compute ops


COMPUTE = func("""\
    %c = arith.constant dense<0.000000e+00> : tensor<32x32xf32>
    %d = tt.dot %a, %b, %c : tensor<32x16xf16> * tensor<16x32xf16> -> tensor<32x32xf32>
    %e = tt.dot %x, %y, %c, inputPrecision = tf32 {maxNumImpreciseAcc = 32 : i32} : tensor<32x32xf32> * tensor<32x32xf32> -> tensor<32x32xf32>
    %f = tt.dot_scaled %a8 scale %as, %b8 scale %bs, %c lhs = e4m3 rhs = e2m1 {fastMath = false} : tensor<32x64xf8E4M3FN>, tensor<32x2xi8> * tensor<32x32xi8>, tensor<32x2xi8> -> tensor<32x32xf32>
    %g = tt.dot_scaled %a8, %bn, %c lhs = e4m3 rhs = e2m1 {fastMath = true, rhs_k_pack = false} : tensor<32x64xf8E4M3FN> * tensor<64x16xi8> -> tensor<32x32xf32>
    %h = tt.fp_to_fp %x, rounding = rtne : tensor<32x32xf32> -> tensor<32x32xf16>
    %i = tt.fp_to_fp %a : tensor<32x16xf16> -> tensor<32x16xf32>
    %j = tt.clampf %x, %x, %y, propagateNan = all : tensor<32x32xf32>
    %k = tt.precise_sqrt %x : tensor<32x32xf32>
    %l = tt.precise_divf %x, %y : tensor<32x32xf32>
    %n = tt.mulhiui %s, %s : i32
    %o = tt.bitcast %x : tensor<32x32xf32> -> tensor<32x32xi32>
    %pid = tt.get_program_id z : i32
    %np = tt.get_num_programs x : i32""",
                  "%a: tensor<32x16xf16>, %b: tensor<16x32xf16>, %x: tensor<32x32xf32>, %y: tensor<32x32xf32>, "
                  "%a8: tensor<32x64xf8E4M3FN>, %b8: tensor<32x32xi8>, %as: tensor<32x2xi8>, %bs: tensor<32x2xi8>, "
                  "%s: i32, %bn: tensor<64x16xi8>")


def test_compute_ops_round_trip(tmp_path):
    out = roundtrip(tmp_path, COMPUTE)
    assert "tt.dot %arg2, %arg3, %cst, inputPrecision = tf32 {maxNumImpreciseAcc = 32 : i32} :" in out
    assert "tt.dot %arg0, %arg1, %cst : tensor<32x16xf16> * tensor<16x32xf16> -> tensor<32x32xf32>" in out
    assert ("tt.dot_scaled %arg4 scale %arg6, %arg5 scale %arg7, %cst lhs = e4m3 rhs = e2m1 {fastMath = false} : "
            "tensor<32x64xf8E4M3FN>, tensor<32x2xi8> * tensor<32x32xi8>, tensor<32x2xi8> -> tensor<32x32xf32>") in out
    assert "tt.fp_to_fp %arg2, rounding = rtne : tensor<32x32xf32> -> tensor<32x32xf16>" in out
    assert "tt.clampf %arg2, %arg2, %arg3, propagateNan = all : tensor<32x32xf32>" in out
    assert "tt.get_program_id z : i32" in out
    parse_module(COMPUTE).module.verify()


def test_dot_infers_accumulator_and_keeps_defaults():
    d, e = ops_of(COMPUTE, "tt.dot")
    assert d.inputPrecision == tt.enum_attr(tt.InputPrecision.ieee) and d.maxNumImpreciseAcc.value.data == 0
    assert e.inputPrecision.value.data == tt.InputPrecision.tf32 and e.c.type == e.d.type
    f, g = ops_of(COMPUTE, "tt.dot_scaled")
    assert f.a_scale is not None and g.a_scale is None and g.rhs_k_pack == tt.FALSE and g.lhs_k_pack == tt.TRUE


SHAPES = func("""\
    %r = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
    %e = tt.expand_dims %r {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
    %b = tt.broadcast %e : tensor<16x1xi32> -> tensor<16x8xi32>
    %t = tt.trans %b {order = array<i32: 1, 0>} : tensor<16x8xi32> -> tensor<8x16xi32>
    %v = tt.reshape %t : tensor<8x16xi32> -> tensor<128xi32>
    %w = tt.reshape %v allow_reorder efficient_layout : tensor<128xi32> -> tensor<16x8xi32>
    %c = tt.cat %r, %r : tensor<16xi32> -> tensor<32xi32>
    %j = tt.join %r, %r : tensor<16xi32> -> tensor<16x2xi32>
    %lo, %hi = tt.split %j : tensor<16x2xi32> -> tensor<16xi32>
    %one = tt.make_range {end = 1 : i32, start = 0 : i32} : tensor<1xi32>
    %u = tt.unsplat %one : tensor<1xi32>
    %g = tt.gather %r[%lo] {axis = 0 : i32, efficient_layout} : (tensor<16xi32>, tensor<16xi32>) -> tensor<16xi32>
    %m = arith.cmpi slt, %r, %hi : tensor<16xi32>
    %h = tt.histogram %r, %m : tensor<16xi32> -> tensor<8xi32>
    %h2 = tt.histogram %r : tensor<16xi32> -> tensor<8xi32>
    %i = tt.ptr_to_int %p : !tt.ptr<f32> -> i64
    %q = tt.int_to_ptr %i : i64 -> !tt.ptr<f32>
    %qq = tt.bitcast %q : !tt.ptr<f32> -> !tt.ptr<i32>""", "%p: !tt.ptr<f32>")


def test_shape_ops_round_trip(tmp_path):
    out = roundtrip(tmp_path, SHAPES)
    assert "tt.reshape %4 allow_reorder efficient_layout : tensor<128xi32> -> tensor<16x8xi32>" in out
    assert "%outLHS, %outRHS = tt.split %7 : tensor<16x2xi32> -> tensor<16xi32>" in out
    assert "%9 = tt.unsplat %8 : tensor<1xi32>" in out
    assert "tt.gather %0[%outLHS] {axis = 0 : i32, efficient_layout} : (tensor<16xi32>, tensor<16xi32>) -> " \
        "tensor<16xi32>" in out
    assert "%12 = tt.histogram %0, %11 : tensor<16xi32> -> tensor<8xi32>" in out
    parse_module(SHAPES).module.verify()


def test_shape_ops_infer_types():
    (split,) = ops_of(SHAPES, "tt.split")
    assert split.outRHS.type == split.outLHS.type == TensorType(i32, [16])
    (unsplat,) = ops_of(SHAPES, "tt.unsplat")
    assert unsplat.result.type == i32
    hist = ops_of(SHAPES, "tt.histogram")
    assert hist[0].mask.type == TensorType(i1, [16]) and hist[1].mask is None


REGIONS = func("""\
    %s = "tt.reduce"(%x) <{axis = 0 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %m = arith.maxnumf %a, %b : f32
      tt.reduce.return %m : f32
    }) : (tensor<128xf32>) -> f32
    %v:2 = "tt.reduce"(%y, %r) <{axis = 1 : i32}> ({
    ^bb0(%a: f32, %i: i32, %b: f32, %j: i32):
      tt.reduce.return %a, %i : f32, i32
    }) : (tensor<4x128xf32>, tensor<4x128xi32>) -> (tensor<4xf32>, tensor<4xi32>)
    %c = "tt.scan"(%x) <{axis = 0 : i32, reverse = true}> ({
    ^bb0(%a: f32, %b: f32):
      %t = arith.addf %a, %b : f32
      tt.scan.return %t : f32
    }) : (tensor<128xf32>) -> tensor<128xf32>
    %me = "tt.map_elementwise"(%x, %x) <{pack = 2 : i32}> ({
    ^bb0(%a: f32, %b: f32, %e: f32, %f: f32):
      tt.map_elementwise.return %a, %f : f32, f32
    }) : (tensor<128xf32>, tensor<128xf32>) -> tensor<128xf32>""",
               "%x: tensor<128xf32>, %y: tensor<4x128xf32>, %r: tensor<4x128xi32>")


def test_reduce_scan_map_round_trip_in_generic_form(tmp_path):
    out = roundtrip(tmp_path, REGIONS)
    assert '%0 = "tt.reduce"(%arg0) <{axis = 0 : i32}> ({' in out
    assert "tt.reduce.return %4 : f32" in out
    assert "}) : (tensor<4x128xf32>, tensor<4x128xi32>) -> (tensor<4xf32>, tensor<4xi32>)" in out
    assert '"tt.scan"(%arg0) <{axis = 0 : i32, reverse = true}> ({' in out
    assert "tt.map_elementwise.return %arg3, %arg6 : f32, f32" in out
    parse_module(REGIONS).module.verify()


def test_reduce_has_no_custom_form():
    with pytest.raises(DiagnosticError, match="no custom assembly form"):
        parse_module(func("    %s = tt.reduce %x : tensor<4xf32>", "%x: tensor<4xf32>"))


MISC = func("""\
    %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
    %x = tt.elementwise_inline_asm "mov.b32 $0, $1;" {constraints = "=r,r", packed_element = 1 : i32, pure = true} %r : tensor<64xi32> -> tensor<64xi32>
    %y:2 = tt.elementwise_inline_asm "asm" {constraints = "=r,=r,r,r", packed_element = 2 : i32, pure = false} %r, %x : tensor<64xi32>, tensor<64xi32> -> tensor<64xi32>, tensor<64xi32>
    %z = tt.extern_elementwise %r, %x {libname = "", libpath = "", pure = true, symbol = "__nv_add"} : (tensor<64xi32>, tensor<64xi32>) -> tensor<64xi32>
    tt.print " x: " {hex = false, isSigned = array<i32: 1, 1>} : %r, %x : tensor<64xi32>, tensor<64xi32>
    tt.print "done" {hex = false, isSigned = array<i32>}
    %c = arith.cmpi sgt, %r, %x : tensor<64xi32>
    tt.assert %c, "r > x" : tensor<64xi1>""")


def test_asm_print_assert_round_trip(tmp_path):
    out = roundtrip(tmp_path, MISC)
    assert '%2:2 = tt.elementwise_inline_asm "asm" {constraints = "=r,=r,r,r", packed_element = 2 : i32, ' \
        'pure = false} %0, %1 : tensor<64xi32>, tensor<64xi32> -> tensor<64xi32>, tensor<64xi32>' in out
    assert 'tt.extern_elementwise %0, %1 {libname = "", libpath = "", pure = true, symbol = "__nv_add"} : ' \
        '(tensor<64xi32>, tensor<64xi32>) -> tensor<64xi32>' in out
    assert 'tt.print " x: " {hex = false, isSigned = array<i32: 1, 1>} : %0, %1 : tensor<64xi32>, tensor<64xi32>' in out
    assert 'tt.print "done" {hex = false, isSigned = array<i32>} loc(' in out
    assert 'tt.assert %4, "r > x" : tensor<64xi1>' in out
    parse_module(MISC).module.verify()


def test_memory_effects():
    from xdsl.traits import MemoryEffectKind, get_effects, is_speculatable
    loads = ops_of(LOADS, "tt.load")
    assert {e.kind for e in get_effects(loads[0])} == {MemoryEffectKind.READ}
    assert {e.kind for e in get_effects(loads[2])} == {MemoryEffectKind.READ, MemoryEffectKind.WRITE}
    asm = ops_of(MISC, "tt.elementwise_inline_asm")
    assert get_effects(asm[0]) == frozenset() and is_speculatable(asm[0])
    assert get_effects(asm[1]) and not is_speculatable(asm[1])


# ------------------------------------------------------------------ verifiers


@pytest.mark.parametrize("body, args, message", [
    ("%0 = tt.make_range {end = 0 : i32, start = 16 : i32} : tensor<16xi32>", "", "start must be less than end"),
    ("%0 = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<16xi32>", "", "must match size of range"),
    ("%0 = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi64>", "", "must have i32 elements"),
    ("%0 = tt.bitcast %x : tensor<4xf32> -> tensor<4xf16>", "%x: tensor<4xf32>", "Cannot bitcast data-type of size 32"),
    ("%0 = tt.bitcast %p : !tt.ptr<f32> -> i64", "%p: !tt.ptr<f32>", "Cannot bitcast pointer to non-pointer"),
    ("%0 = tt.fp_to_fp %x : tensor<4xf32> -> tensor<4xf16>", "%x: tensor<4xf32>", "Rounding mode is required"),
    ("%0 = tt.trans %x {order = array<i32: 0, 0>} : tensor<4x2xf32> -> tensor<2x4xf32>", "%x: tensor<4x2xf32>",
     "permutation"),
    ("%0 = tt.trans %x {order = array<i32: 0, 1>} : tensor<4x2xf32> -> tensor<2x4xf32>", "%x: tensor<4x2xf32>",
     "result shape must match"),
    ("%0 = tt.broadcast %x : tensor<4x2xf32> -> tensor<4x4xf32>", "%x: tensor<4x2xf32>", "Different dimensions at index 1"),
    ("%0 = tt.reshape %x : tensor<4x2xf32> -> tensor<16xf32>", "%x: tensor<4x2xf32>", "number of src and dst elements"),
    ("%0 = tt.join %x, %x : tensor<4xf32> -> tensor<8xf32>", "%x: tensor<4xf32>", "result shape must be (4, 2)"),
    ("%0, %1 = tt.split %x : tensor<4x4xf32> -> tensor<4xf32>", "%x: tensor<4x4xf32>", "last dimension of input tensor must be 2"),
    ("%0 = tt.expand_dims %x {axis = 0 : i32} : tensor<4xf32> -> tensor<4x1xf32>", "%x: tensor<4xf32>", "result shape must be"),
    ("%0 = tt.unsplat %x : tensor<4xf32>", "%x: tensor<4xf32>", "exactly one element"),
    ("%0 = tt.dot %a, %b, %c : tensor<4x4xf32> * tensor<4x4xf16> -> tensor<4x4xf32>",
     "%a: tensor<4x4xf32>, %b: tensor<4x4xf16>, %c: tensor<4x4xf32>", "same bit width"),
    ("%0 = tt.dot %a, %b, %c : tensor<4x8xf32> * tensor<4x4xf32> -> tensor<4x4xf32>",
     "%a: tensor<4x8xf32>, %b: tensor<4x4xf32>, %c: tensor<4x4xf32>", "expected the last dimension of the first operand"),
    ("%0 = tt.dot_scaled %a, %b, %c lhs = e4m3 rhs = e2m1 {fastMath = false, rhs_k_pack = false} : "
     "tensor<32x64xf8E4M3FN> * tensor<32x32xi8> -> tensor<32x32xf32>",
     "%a: tensor<32x64xf8E4M3FN>, %b: tensor<32x32xi8>, %c: tensor<32x32xf32>", "expected the last dimension"),
    ("%0 = tt.dot_scaled %a scale %s, %b, %c lhs = e4m3 rhs = e4m3 {fastMath = false} : "
     "tensor<32x64xf8E4M3FN>, tensor<32x4xi8> * tensor<64x32xf8E4M3FN> -> tensor<32x32xf32>",
     "%a: tensor<32x64xf8E4M3FN>, %b: tensor<64x32xf8E4M3FN>, %c: tensor<32x32xf32>, %s: tensor<32x4xi8>",
     "scales K dimension must match"),
    ("%0 = tt.gather %x[%i] {axis = 0 : i32} : (tensor<4xf32>, tensor<8xi32>) -> tensor<4xf32>",
     "%x: tensor<4xf32>, %i: tensor<8xi32>", "indices and output shapes must match"),
    ("%0 = tt.descriptor_load %d[%i] : !tt.tensordesc<tensor<16xf16>> -> tensor<8xf16>",
     "%d: !tt.tensordesc<tensor<16xf16>>, %i: i32", "block and tensor types must match"),
    ("%0 = tt.descriptor_load %d[%i, %i] : !tt.tensordesc<tensor<2x8xf16>> -> tensor<8xf16>",
     "%d: !tt.tensordesc<tensor<2x8xf16>>, %i: i32", "ranked reduce load only allowed"),
    ("%0 = tt.elementwise_inline_asm \"\" {constraints = \"=r,r\", packed_element = 3 : i32, pure = true} %x : "
     "tensor<4xf32> -> tensor<4xf32>", "%x: tensor<4xf32>", "must be a multiple of the op's packed_element"),
    ("%0 = tt.elementwise_inline_asm \"\" {constraints = \"=r,r,r\", packed_element = 1 : i32, pure = true} %x, %y : "
     "tensor<4xf32>, tensor<8xf32> -> tensor<4xf32>", "%x: tensor<4xf32>, %y: tensor<8xf32>", "same shape"),
    ("%0 = tt.splat %s : f32 -> tensor<6xf32>", "%s: f32", "power-of-two"),
    ("%0 = tt.atomic_cas acq_rel, gpu, %p, %a, %a : (!tt.ptr<f32>, i32, i32) -> i32", "%p: !tt.ptr<f32>, %a: i32",
     "failed to verify that ptr type matches cmp type"),
    ("%0 = tt.atomic_rmw add, relaxed, gpu, %p, %a : (!tt.ptr<i32, 3>, i32) -> i32", "%p: !tt.ptr<i32, 3>, %a: i32",
     "failed to verify that ptr type matches value type"),
])
def test_verifier_rejects(body, args, message):
    assert message in verify_error(func("    " + body, args))


def test_reduce_verifier():
    bad_arity = REGIONS.replace("tt.reduce.return %a, %i : f32, i32", "tt.reduce.return %a : f32")
    assert "expected combine operation to return 2 values but got 1" in verify_error(bad_arity)
    bad_shape = REGIONS.replace("-> (tensor<4xf32>, tensor<4xi32>)", "-> (tensor<128xf32>, tensor<128xi32>)")
    assert "without the reduced axis" in verify_error(bad_shape)
    bad_arg = REGIONS.replace("^bb0(%a: f32, %b: f32):\n      %t = arith.addf %a, %b : f32",
                              "^bb0(%a: f32, %b: f16):\n      %t = arith.addf %a, %a : f32")
    assert "type mismatch on combine operation" in verify_error(bad_arg)


def test_map_elementwise_verifier():
    bad = REGIONS.replace("<{pack = 2 : i32}>", "<{pack = 3 : i32}>")
    assert "Pack must be a power of 2" in verify_error(bad)
    bad = REGIONS.replace("tt.map_elementwise.return %a, %f : f32, f32", "tt.map_elementwise.return %a : f32")
    assert "region return does not match" in verify_error(bad)
    bad = REGIONS.replace("tt.map_elementwise.return %a, %f : f32, f32",
                          "tt.store %p, %a : !tt.ptr<f32>\n      tt.map_elementwise.return %a, %f : f32, f32")
    bad = bad.replace("%r: tensor<4x128xi32>", "%r: tensor<4x128xi32>, %p: !tt.ptr<f32>")
    assert "Stores are not supported inside map_elementwise" in verify_error(bad)
