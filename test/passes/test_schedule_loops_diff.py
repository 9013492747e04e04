"""Differential test: `ttpipe-schedule-loops` against Triton's own pass.

For every corpus kernel and target, Triton's reprint of what ttpipe's pass makes of the IR
before `tritongpu-schedule-loops` (latencies already assigned) must equal Triton's reprint
of what its C++ pass makes of it.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

pytest.importorskip("triton")

from xdsl.context import Context  # noqa: E402

from ttpipe.passes.pipeline.schedule_loops import ScheduleLoops  # noqa: E402
from ttpipe.textio import parse_module, print_module  # noqa: E402
from ttpipe.triton.mlir import reprint_text, triton_context  # noqa: E402

CORPUS = Path(__file__).resolve().parents[1] / "corpus"
TRITON_PASS = "tritongpu-schedule-loops"


def corpus_inputs() -> list[tuple[str, str, Path]]:
    """(target, kernel, IR before the pass) for each corpus kernel."""
    cases = []
    for manifest_path in sorted(CORPUS.glob("*/*/manifest.json")):
        manifest = json.loads(manifest_path.read_text())
        for stage in manifest["stages"]:
            for p in stage["passes"]:
                if p["pass"] == TRITON_PASS:
                    cases.append((manifest["target_name"], manifest["kernel"], manifest_path.parent / p["before"]))
    return cases


def triton_output(path: Path) -> str:
    from triton._C.libtriton import ir, passes

    ctx = triton_context()
    module = ir.parse_mlir_module(str(path), ctx)
    pm = ir.pass_manager(ctx)
    passes.ttgpuir.add_schedule_loops(pm)
    pm.run(module, TRITON_PASS)
    return module.str()


def ttpipe_output(path: Path) -> str:
    module = parse_module(path.read_text(), str(path)).module
    ScheduleLoops().apply(Context(), module)
    return reprint_text(print_module(module), str(path))


def test_matches_triton_on_corpus():
    cases = corpus_inputs()
    assert cases, f"no corpus IR before {TRITON_PASS}"
    total, matched, failures = Counter(), Counter(), []
    for target, kernel, path in cases:
        total[target] += 1
        if ttpipe_output(path) == triton_output(path):
            matched[target] += 1
        else:
            failures.append(f"{target}/{kernel} ({path.name})")
    for target in sorted(total):
        print(f"{target}: {matched[target]}/{total[target]} match Triton")
    assert not failures, "differs from Triton: " + ", ".join(failures)
