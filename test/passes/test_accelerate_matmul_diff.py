"""Differential test of `ttpipe-accelerate-matmul` against Triton's `tritongpu-accelerate-matmul`.

For every corpus kernel whose IR before Triton's pass holds a `tt.dot` or `tt.dot_scaled`,
and every chunk of the pass's lit tests (and of Triton's, where `TTPIPE_TRITON_SRC` names a
Triton checkout), Triton's reprint of ttpipe's output must equal Triton's reprint of its own
pass's output.
"""

from __future__ import annotations

import difflib
from collections import Counter
from pathlib import Path

import pytest
from corpus_diff import inputs_before, triton_lit_tests

TRITON_PASS = "tritongpu-accelerate-matmul"


def corpus_inputs() -> list[tuple[str, str, Path]]:
    """(target, kernel, IR before Triton's pass) for the kernels with dots."""
    return [(c.target, c.kernel, c.path) for c in inputs_before(TRITON_PASS)
            if "tt.dot " in c.path.read_text() or "tt.dot_scaled " in c.path.read_text()]


def triton_output(path: Path) -> str:
    from triton._C.libtriton import ir, passes

    from ttpipe.triton.mlir import parse_file, triton_context

    module = parse_file(str(path))
    manager = ir.pass_manager(triton_context())
    passes.ttgpuir.add_accelerate_matmul(manager)
    manager.run(module, TRITON_PASS)
    return module.str()


def ttpipe_output(path: Path) -> str:
    from xdsl.context import Context

    from ttpipe.passes.accelerate_matmul import AccelerateMatmul
    from ttpipe.textio import parse_module, print_module
    from ttpipe.triton.mlir import reprint_text

    module = parse_module(path.read_text(), str(path)).module
    AccelerateMatmul().apply(Context(allow_unregistered=True), module)
    return reprint_text(print_module(module), str(path))


def test_matches_triton_on_corpus():
    pytest.importorskip("triton")
    inputs = corpus_inputs()
    assert inputs, "no corpus kernel with a dot"
    totals, passed, failures = Counter(), Counter(), []
    for target, kernel, path in inputs:
        totals[target] += 1
        expected = triton_output(path)
        try:
            actual = ttpipe_output(path)
        except Exception as exc:  # a crash is a mismatch too; report it with the kernel
            failures.append(f"{target}/{kernel}: {type(exc).__name__}: {exc}")
            continue
        if actual == expected:
            passed[target] += 1
        else:
            diff = difflib.unified_diff(expected.splitlines(), actual.splitlines(), "triton", "ttpipe",
                                        lineterm="", n=1)
            failures.append(f"{target}/{kernel}:\n" + "\n".join(list(diff)[:40]))
    for target in sorted(totals):
        print(f"accelerate-matmul {target}: {passed[target]}/{totals[target]} match Triton")
    assert not failures, "\n\n".join(failures)


LIT = Path(__file__).resolve().parents[1] / "lit"
LIT_INPUTS = [*triton_lit_tests("accelerate-matmul.mlir"),
              *sorted(p for p in (LIT / "accelerate-matmul").glob("*.mlir") if p.name != "invalid.mlir")]
ENVIRONMENTS = {"32x32b": {}, "16x256b": {"TRITON_PREFER_TMEM_16x256_LAYOUT": "1"},
                "no-mma-v3": {"DISABLE_MMA_V3": "1"}, "no-mma-v5": {"DISABLE_MMA_V5": "1"}}
"""The environment variables both passes read: the TMEM register layout preferred, and the
MMA versions turned off (Triton's pass reads them when it runs, ttpipe's when it is made)."""


def lit_chunks(path: Path) -> list[str]:
    """The chunks `--split-input-file` runs, padded so that locations keep their lines."""
    chunks, offset = [], 0
    for chunk in path.read_text().split("// -----"):
        chunks.append("\n" * offset + chunk)
        offset += chunk.count("\n")
    return chunks


@pytest.mark.parametrize("environment", ENVIRONMENTS)
@pytest.mark.parametrize("path", LIT_INPUTS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_matches_triton_on_lit_chunks(path, environment, monkeypatch, tmp_path):
    """Every chunk of the lit tests, under each of `ENVIRONMENTS`, gives exactly Triton's
    output."""
    pytest.importorskip("triton")
    for name in {name for values in ENVIRONMENTS.values() for name in values}:
        monkeypatch.delenv(name, raising=False)
    for name, value in ENVIRONMENTS[environment].items():
        monkeypatch.setenv(name, value)
    failures = []
    for index, chunk in enumerate(lit_chunks(path)):
        chunk_path = tmp_path / path.name
        chunk_path.write_text(chunk)
        expected = triton_output(chunk_path)
        actual = ttpipe_output(chunk_path)
        if actual != expected:
            diff = difflib.unified_diff(expected.splitlines(), actual.splitlines(), "triton", "ttpipe",
                                        lineterm="", n=1)
            failures.append(f"chunk {index}:\n" + "\n".join(list(diff)[:30]))
    assert not failures, "\n\n".join(failures)
