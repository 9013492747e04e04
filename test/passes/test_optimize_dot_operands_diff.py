"""Differential test: `ttpipe-optimize-dot-operands` against Triton's own pass.

For every corpus kernel and both runs of `tritongpu-optimize-dot-operands` in make_ttgir
(after accelerate-matmul, and late), Triton's reprint of ttpipe's output must equal
Triton's reprint of what its C++ pass makes of the same input.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

pytest.importorskip("triton")

from xdsl.context import Context  # noqa: E402

from ttpipe.passes.optimize_dot_operands import OptimizeDotOperands  # noqa: E402
from ttpipe.textio import parse_module, print_module  # noqa: E402
from ttpipe.triton.mlir import reprint_text, triton_context  # noqa: E402

CORPUS = Path(__file__).resolve().parents[1] / "corpus"
TRITON_PASS = "tritongpu-optimize-dot-operands"


def corpus_inputs() -> list[tuple[str, str, int, Path]]:
    """(target, kernel, pass index, IR before the pass) for each run of the pass."""
    cases = []
    for manifest_path in sorted(CORPUS.glob("*/*/manifest.json")):
        manifest = json.loads(manifest_path.read_text())
        for stage in manifest["stages"]:
            for p in stage["passes"]:
                if p["pass"] == TRITON_PASS:
                    cases.append((manifest["target_name"], manifest["kernel"], p["index"],
                                  manifest_path.parent / p["before"]))
    return cases


def triton_output(path: Path) -> str:
    from triton._C.libtriton import ir, passes

    ctx = triton_context()
    module = ir.parse_mlir_module(str(path), ctx)
    pm = ir.pass_manager(ctx)
    passes.ttgpuir.add_optimize_dot_operands(pm, True)
    pm.run(module, TRITON_PASS)
    return module.str()


def ttpipe_output(path: Path) -> str:
    module = parse_module(path.read_text(), str(path)).module
    OptimizeDotOperands().apply(Context(), module)
    return reprint_text(print_module(module), str(path))


def test_matches_triton_on_corpus():
    cases = corpus_inputs()
    assert cases, "no corpus IR before tritongpu-optimize-dot-operands"
    total, matched, failures = Counter(), Counter(), []
    for target, kernel, index, path in cases:
        total[target] += 1
        if ttpipe_output(path) == triton_output(path):
            matched[target] += 1
        else:
            failures.append(f"{target}/{kernel} (pass {index}, {path.name})")
    for target in sorted(total):
        print(f"{target}: {matched[target]}/{total[target]} match Triton")
    assert not failures, "differs from Triton: " + ", ".join(failures)
