"""Differential test: `ttpipe-pipeline` against Triton's `tritongpu-pipeline`.

Two sets of inputs:
  - every corpus kernel: the IR before `tritongpu-pipeline` (scheduled by Triton's
`tritongpu-schedule-loops`) goes through Triton's C++ pass and through ttpipe's, with the
pass's `num-stages`;
  - the cases of the lit tests: the hand-scheduled loops of `test/lit/pipeline/expand` and
    `wgmma-waits` as they are; the unscheduled loops of the whole-pipeliner lit tests
    (`cp-async/`, `hopper-wgmma/`, `blackwell-tcgen05/`, `loop-nest.mlir`) and, where
    `TTPIPE_TRITON_SRC` names a Triton 3.6 checkout, Triton's own `loop-pipeline*.mlir` (read
    from there, never copied here), both after Triton's `tritongpu-assign-latencies` and
    `tritongpu-schedule-loops` (so that only the pipeliner differs).
Triton's reprints of both outputs must be equal. Both sides are reprinted from text
because the pass creates loops: the locations of an `scf.for`'s block arguments (which name
them, `%acc_112`) are not part of its text, so any module read from text names them
`%argN`. The counts are printed. Cases listed in `KNOWN_DIFFERENCES` differ for a reason
given there and are reported, not failed; any other difference fails.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest
from corpus_diff import inputs_before, triton_lit_tests

pytest.importorskip("triton")

from xdsl.context import Context  # noqa: E402

from ttpipe.passes.pipeline.pipeline import Pipeline  # noqa: E402
from ttpipe.textio import parse_module, print_module  # noqa: E402
from ttpipe.triton.mlir import reprint_text, triton_context  # noqa: E402

TRITON_PASS = "tritongpu-pipeline"

LIT = Path(__file__).resolve().parents[1] / "lit"
HAND_SCHEDULED = [*sorted((LIT / "pipeline" / "expand").glob("*.mlir")),
                  *sorted((LIT / "pipeline" / "wgmma-waits").glob("*.mlir"))]
TRITON_REFERENCE = [(path, 3) for path in triton_lit_tests("loop-pipeline.mlir", "loop-pipeline-hopper.mlir")]
UNSCHEDULED = [*((p, 3) for folder in ("cp-async", "hopper-wgmma", "blackwell-tcgen05")
                 for p in sorted((LIT / "pipeline" / folder).glob("*.mlir"))),
               (LIT / "pipeline" / "loop-nest.mlir", 3)]
"""Our lit tests of the whole pipeliner: their loops carry no schedule yet."""

KNOWN_DIFFERENCES: dict[tuple[str, str], str] = {
    ("issued-together.mlir", "issued_together"):
        "seed 001: one wait_group 0 after two dots issued together (Triton waits after each)",
    ("loop-pipeline-hopper.mlir", "tma_store_device_side_desc_pipeline"):
        "Triton leaves the replaced tt.make_tensor_descriptor in the loop, dead",
    ("tma-store.mlir", "descriptor_made_in_loop"):
        "Triton leaves the replaced tt.make_tensor_descriptor in the loop, dead",
    ("loop-pipeline.mlir", "predicate_stage1"):
        "Triton's test hook `__test_keep_predicate_stage` is not ported (test_pipeline_helpers.py "
        "checks the unresolved stage predicate through pipeline_for_loop)",
}
"""(target or file, kernel or function) -> why ttpipe's output differs from Triton's there."""


def corpus_inputs() -> list[tuple[str, str, int, Path]]:
    """(target, kernel, num-stages, IR before the pass) for each run of the pass."""
    return [(c.target, c.kernel, c.option("num-stages"), c.path) for c in inputs_before(TRITON_PASS)]


def triton_output(path: Path, num_stages: int) -> str:
    """Triton's pipeliner on `path`, reprinted."""
    from triton._C.libtriton import ir, passes

    ctx = triton_context()
    module = ir.parse_mlir_module(str(path), ctx)
    pm = ir.pass_manager(ctx)
    passes.ttgpuir.add_pipeline(pm, num_stages, False)
    pm.run(module, TRITON_PASS)
    return reprint_text(module.str(), str(path))


def triton_scheduled(path: Path, out: Path) -> None:
    """Write `path` after Triton's `tritongpu-assign-latencies` and `-schedule-loops`."""
    from triton._C.libtriton import ir, passes

    module = ir.parse_mlir_module(str(path), triton_context())
    pm = ir.pass_manager(triton_context())
    passes.ttgpuir.add_assign_latencies(pm, 3)
    passes.ttgpuir.add_schedule_loops(pm)
    pm.run(module, "schedule")
    out.write_text(module.str())


def ttpipe_output(path: Path, num_stages: int) -> str:
    module = parse_module(path.read_text(), str(path)).module
    Pipeline(num_stages=num_stages).apply(Context(), module)
    return reprint_text(print_module(module), str(path))


def test_matches_triton_on_corpus():
    cases = corpus_inputs()
    assert cases, f"no corpus IR before {TRITON_PASS}"
    total, matched, known, failures = Counter(), Counter(), [], []
    for target, kernel, num_stages, path in cases:
        total[target] += 1
        if ttpipe_output(path, num_stages) == triton_output(path, num_stages):
            matched[target] += 1
        elif (target, kernel) in KNOWN_DIFFERENCES:
            known.append(f"{target}/{kernel}: {KNOWN_DIFFERENCES[target, kernel]}")
        else:
            failures.append(f"{target}/{kernel} ({path.name})")
    for target in sorted(total):
        print(f"{target}: {matched[target]}/{total[target]} match Triton")
    for line in known:
        print("known difference:", line)
    assert not failures, "differs from Triton: " + ", ".join(failures)


def lit_cases(tmp: Path) -> list[tuple[str, str, int, Path]]:
    """(file, function, num-stages, scheduled IR) for each chunk of the lit inputs."""
    cases = []
    for path, stages, schedule in [*((p, 3, False) for p in HAND_SCHEDULED if p.name != "invalid.mlir"),
                                   *((p, n, True) for p, n in [*UNSCHEDULED, *TRITON_REFERENCE])]:
        for index, chunk in enumerate(path.read_text().split("\n// -----\n")):
            source = tmp / f"{path.stem}-{index}.mlir"
            source.write_text(chunk)
            if schedule:
                scheduled = tmp / f"{path.stem}-{index}-scheduled.mlir"
                triton_scheduled(source, scheduled)
                source = scheduled
            function = re.search(r"tt\.func\s+(?:public\s+|private\s+)?@(\w+)", chunk)
            cases.append((path.name, function.group(1) if function else "?", stages, source))
    return cases


def test_matches_triton_on_lit_cases(tmp_path: Path):
    total = matched = 0
    known, failures = [], []
    for name, function, num_stages, path in lit_cases(tmp_path):
        total += 1
        if ttpipe_output(path, num_stages) == triton_output(path, num_stages):
            matched += 1
        elif (name, function) in KNOWN_DIFFERENCES:
            known.append(f"{name} @{function}: {KNOWN_DIFFERENCES[name, function]}")
        else:
            failures.append(f"{name} @{function}")
    print(f"lit cases: {matched}/{total} match Triton")
    for line in known:
        print("known difference:", line)
    assert not failures, "differs from Triton: " + ", ".join(failures)
