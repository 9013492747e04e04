"""`ModuleAxisInfo` against expectations of our own: every `expected-remark` of
`axis-info.mlir` (contiguity, divisibility, constancy, constant value of the result of the
op on the next line) must be exactly what ttpipe's analysis finds for that op, and every op
so marked must have been found."""

from __future__ import annotations

import re
from pathlib import Path

from ttpipe.passes.analysis.axis_info import AxisInfo, ModuleAxisInfo
from ttpipe.textio import parse_module

EXPECTATIONS = Path(__file__).with_name("axis-info.mlir")
REMARK = re.compile(r"expected-remark @below \{\{(.*)\}\}")


def remark_text(info: AxisInfo) -> str:
    """`AxisInfo::print`."""
    def dims(values):
        return "[" + ", ".join(map(str, values)) + "]"
    constant = "<none>" if info.constant_value is None else str(info.constant_value)
    return (f"contiguity = {dims(info.contiguity)}, divisibility = {dims(info.divisibility)}, "
            f"constancy = {dims(info.constancy)}, constant_value = {constant}")


def chunks(text: str) -> list[str]:
    """`--split-input-file` chunks, padded so that line numbers stay those of the file."""
    lines = text.split("\n")
    out, start = [], 0
    for index, line in enumerate(lines + ["// -----"]):
        if line.startswith("// -----"):
            out.append("\n" * start + "\n".join(lines[start:index]))
            start = index + 1
    return out


def expectations(chunk: str) -> list[tuple[int, str]]:
    """(line of the marked op, expected text) for each remark of a chunk."""
    found = []
    lines = chunk.split("\n")
    for index, line in enumerate(lines):
        match = REMARK.search(line)
        if match is None:
            continue
        target = index + 1
        while lines[target].strip().startswith("//"):
            target += 1
        found.append((target + 1, match.group(1)))
    return found


def test_matches_our_expectations():
    checked, failures = 0, []
    for chunk in chunks(EXPECTATIONS.read_text()):
        module = parse_module(chunk, str(EXPECTATIONS)).module
        analysis = ModuleAxisInfo(module)
        ops_by_line: dict[int, list] = {}
        for op in module.walk():
            line = getattr(op.location, "line", None)
            if line is not None:
                ops_by_line.setdefault(line.data, []).append(op)
        for line, expected in expectations(chunk):
            texts = [remark_text(info) for op in ops_by_line.get(line, []) for result in op.results
                     if (info := analysis.axis_info(result)) is not None]
            checked += 1
            if expected not in texts:
                failures.append(f"axis-info.mlir:{line}: expected {expected}; got {texts}")
    assert checked == len(REMARK.findall(EXPECTATIONS.read_text())) > 60
    assert not failures, "\n".join(failures)


def test_queries_read_the_fastest_dim():
    text = """
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @f(%p: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %n: i32) {
    %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %e = tt.expand_dims %r {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x64xi32, #blocked>
    %b = tt.broadcast %e : tensor<1x64xi32, #blocked> -> tensor<32x64xi32, #blocked>
    %s = tt.splat %p : !tt.ptr<f16> -> tensor<32x64x!tt.ptr<f16>, #blocked>
    %a = tt.addptr %s, %b : tensor<32x64x!tt.ptr<f16>, #blocked>, tensor<32x64xi32, #blocked>
    %nn = tt.splat %n : i32 -> tensor<32x64xi32, #blocked>
    %m = arith.cmpi slt, %b, %nn : tensor<32x64xi32, #blocked>
    %l = tt.load %a, %m : tensor<32x64x!tt.ptr<f16>, #blocked>
    tt.return
  }
}
"""
    from ttpipe.dialects.tt import LoadOp

    module = parse_module(text, "t.mlir").module
    analysis = ModuleAxisInfo(module)
    load = next(op for op in module.walk() if isinstance(op, LoadOp))
    assert analysis.contiguity(load.ptr) == 8
    assert analysis.alignment(load.ptr) == 8
    assert analysis.mask_alignment(load.mask) == 1

