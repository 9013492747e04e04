"""Differential test: `ttpipe-assign-latencies` against Triton's own pass.

For every corpus kernel and target, Triton's reprint of what ttpipe's pass makes of the IR
before `tritongpu-assign-latencies` must equal Triton's reprint of what its C++ pass makes
of it, with the `num-stages` the kernel was compiled with.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest

pytest.importorskip("triton")

from xdsl.context import Context  # noqa: E402

from ttpipe.passes.pipeline.assign_latencies import AssignLatencies  # noqa: E402
from ttpipe.textio import parse_module, print_module  # noqa: E402
from ttpipe.triton.mlir import reprint_text, triton_context  # noqa: E402

CORPUS = Path(__file__).resolve().parents[1] / "corpus"
TRITON_PASS = "tritongpu-assign-latencies"


def corpus_inputs() -> list[tuple[str, str, int, Path]]:
    """(target, kernel, num-stages, IR before the pass) for each corpus kernel."""
    cases = []
    for manifest_path in sorted(CORPUS.glob("*/*/manifest.json")):
        manifest = json.loads(manifest_path.read_text())
        for stage in manifest["stages"]:
            for p in stage["passes"]:
                if p["pass"] == TRITON_PASS:
                    num_stages = int(re.search(r"num-stages=(\d+)", p["pipeline"]).group(1))
                    cases.append((manifest["target_name"], manifest["kernel"], num_stages,
                                  manifest_path.parent / p["before"]))
    return cases


def triton_output(path: Path, num_stages: int) -> str:
    from triton._C.libtriton import ir, passes

    ctx = triton_context()
    module = ir.parse_mlir_module(str(path), ctx)
    pm = ir.pass_manager(ctx)
    passes.ttgpuir.add_assign_latencies(pm, num_stages)
    pm.run(module, TRITON_PASS)
    return module.str()


def ttpipe_output(path: Path, num_stages: int) -> str:
    module = parse_module(path.read_text(), str(path)).module
    AssignLatencies(num_stages=num_stages).apply(Context(), module)
    return reprint_text(print_module(module), str(path))


def test_matches_triton_on_corpus():
    cases = corpus_inputs()
    assert cases, f"no corpus IR before {TRITON_PASS}"
    total, matched, failures = Counter(), Counter(), []
    for target, kernel, num_stages, path in cases:
        total[target] += 1
        if ttpipe_output(path, num_stages) == triton_output(path, num_stages):
            matched[target] += 1
        else:
            failures.append(f"{target}/{kernel} (num-stages={num_stages}, {path.name})")
    for target in sorted(total):
        print(f"{target}: {matched[target]}/{total[target]} match Triton")
    assert not failures, "differs from Triton: " + ", ".join(failures)
