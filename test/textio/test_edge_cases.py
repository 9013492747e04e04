"""Text I/O edge cases found on kernels outside the corpus: exact float bits, strings as
bytes, SSA names from any location name, multi-block regions in custom forms."""

import pytest

from ttpipe.dialects.ttg_attrs import BlockedEncodingAttr
from ttpipe.roundtrip import check_text
from ttpipe.ir import floats
from ttpipe.ir.printer import _sanitize
from ttpipe.textio import parse_module


def _roundtrips(tmp_path, text: str) -> None:
    path = tmp_path / "input.mlir"
    path.write_text(text)
    outcome = check_text(text, str(path))
    assert outcome.ok and not outcome.detail, outcome.detail


@pytest.mark.parametrize("literal,type_", [
    ("0xFFF0000000000000", "f64"),   # -inf: a hex f64 keeps its type, or it reads as i64
    ("0xFFC00000", "f32"),           # negative quiet NaN
    ("0x7F800001", "f32"),           # signalling NaN with a payload
    ("0xFE00", "f16"),
    ("0xFF8A", "bf16"),
    ("0x7D", "f8E5M2"),
    ("0xFF", "f8E4M3FN"),            # the negative NaN of a format with two NaNs
    ("-0.000000e+00", "f32"),
])
def test_float_bits_survive(tmp_path, literal, type_):
    _roundtrips(tmp_path, f"""module {{
  tt.func @k() -> {type_} {{
    %c = arith.constant {literal} : {type_}
    tt.return %c : {type_}
  }}
}}
""")


@pytest.mark.parametrize("name", sorted(floats.FLOAT_TYPES_BY_NAME))
def test_every_bit_pattern_reads_back(name):
    """Every pattern with the sign clear, and with it set every 7th (a sign only prefixes the
    text: a step prime to the fields' widths still meets every exponent, NaNs and infinities
    among them), for formats of up to 16 bits."""
    type_ = floats.FLOAT_TYPES_BY_NAME[name]
    width = floats.float_format(type_).width
    if width > 16:
        pytest.skip("exhaustive only for formats of up to 16 bits")
    sign = 1 << (width - 1)
    for bits in [*range(sign), *range(sign, 1 << width, 7), (1 << width) - 1]:
        attr = floats.float_attr_from_bits(bits, type_)
        assert floats.bits_of(attr.value.data, type_) == bits
        text = floats.format_bits(bits, type_)
        assert floats.literal_to_bits(text.lstrip("-"), text.startswith("-"), type_) == bits, text


def test_strings_are_bytes(tmp_path):
    _roundtrips(tmp_path, """module {
  tt.func @k() {
    tt.return loc("\\C3\\A9\\FF \\22q\\22.py":1:0)
  }
}
""")


def test_names_from_locations_are_sanitized(tmp_path):
    assert _sanitize("Ŷ") == "C5B6"
    assert _sanitize("x#y") == "x23y"
    assert _sanitize("a b") == "a_b"
    assert _sanitize("9x") == "_9x"
    assert _sanitize("") is None
    _roundtrips(tmp_path, """module {
  tt.func @k(%a: i32 loc("Ŷ"("f.py":1:0)), %b: i32 loc("x#y"("f.py":2:0))) {
    tt.return
  }
}
""")


def test_warp_specialize_partition_with_several_blocks(tmp_path):
    _roundtrips(tmp_path, """module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:100", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @k(%arg0: i32) {
    ttg.warp_specialize(%arg0) attributes {requestedRegisters = array<i32: 24>}
    default {
      ttg.warp_yield
    }
    partition0(%a: i32) num_warps(1) {
      %c = arith.cmpi eq, %a, %a : i32
      cf.cond_br %c, ^bb1, ^bb2
    ^bb1:
      ttg.warp_return
    ^bb2:
      ttg.warp_return
    } : (i32) -> ()
    tt.return
  }
}
""")


def test_a_type_read_again_is_the_file_s_own():
    """`Parser.try_type` reads a bracketed type once per parse: a second module whose alias
    `#blocked` means another layout reads its own, and the same text in one module gives
    the same type on every op."""
    def module(size_per_thread: int) -> str:
        blocked = (f"#ttg.blocked<{{sizePerThread = [{size_per_thread}], threadsPerWarp = [32], "
                   "warpsPerCTA = [4], order = [0]}>")
        return f"""#blocked = {blocked}
module attributes {{"ttg.num-warps" = 4 : i32}} {{
  tt.func @k(%p: tensor<128x!tt.ptr<f16>, #blocked>) -> tensor<128xf16, #blocked> {{
    %a = tt.load %p : tensor<128x!tt.ptr<f16>, #blocked>
    %b = tt.load %p : tensor<128x!tt.ptr<f16>, #blocked>
    %c = arith.addf %a, %b : tensor<128xf16, #blocked>
    tt.return %c : tensor<128xf16, #blocked>
  }}
}}
"""
    for size in (1, 2):
        parsed = parse_module(module(size), "k.mlir").module
        loads = [op for op in parsed.walk() if op.name == "tt.load"]
        types = {load.result.type for load in loads}
        assert len(types) == 1
        encoding = types.pop().encoding
        assert isinstance(encoding, BlockedEncodingAttr)
        assert list(encoding.size_per_thread) == [size]
