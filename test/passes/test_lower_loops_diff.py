"""Differential tests: `ttpipe-lower-loops` against Triton's own LowerLoops step.

Triton's bindings do not expose `tritongpu-test-pipeline-lower-loop`, but
`tritongpu-pipeline{dump-intermediate-steps=true}` prints the module after its LowerLoops
step on stderr. For every corpus kernel's input to `tritongpu-pipeline`:
  - that dump and ttpipe's output, both canonicalized by Triton and printed without
    locations, must be equal;
  - Triton's whole `tritongpu-pipeline` must give the same result on ttpipe's lowered loop
    as on the original (its own LowerLoops then finds nothing left to do), so the expander
    takes ttpipe's output as it takes Triton's.
"""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

import pytest
from corpus_diff import inputs_before

pytest.importorskip("triton")

from xdsl.dialects.builtin import UnknownLoc  # noqa: E402

from ttpipe.passes.pipeline.lower_loops import lower_loops  # noqa: E402
from ttpipe.pipeline import spec  # noqa: E402
from ttpipe.textio import parse_module, print_module  # noqa: E402
from ttpipe.ir.printer import PrintOptions  # noqa: E402
from ttpipe.triton.handoff import run_triton_passes, run_triton_text  # noqa: E402

TRITON_PASS = "tritongpu-pipeline"
DUMP_HEADER = "// -----// SoftwarePipeliner internal IR Dump After: LowerLoops\n"


def corpus_inputs() -> list[tuple[str, str, Path]]:
    """(target, kernel, IR before tritongpu-pipeline) for kernels with a scheduled loop."""
    return [(c.target, c.kernel, c.path) for c in inputs_before(TRITON_PASS)
            if "tt.scheduled_max_stage" in c.path.read_text()]


def canonical_text(module) -> str:
    module = run_triton_passes(module, spec.parse("canonicalize"))
    for op in module.walk():
        op.location = UnknownLoc()
        for region in op.regions:
            for block in region.blocks:
                for arg in block.args:
                    arg.location = UnknownLoc()
    return print_module(module, PrintOptions(debug_info=False))


def triton_lowered(path: Path) -> str:
    log = io.StringIO()
    with contextlib.redirect_stderr(log):
        run_triton_text(path.read_text(), spec.parse(f"{TRITON_PASS}{{dump-intermediate-steps=true}}"))
    text = log.getvalue()
    start = text.index(DUMP_HEADER) + len(DUMP_HEADER)
    dump = text[start:text.index("\n\n\n", start)]
    return canonical_text(parse_module(dump, "<lower-loops dump>").module)


def ttpipe_lowered(path: Path, then: str | None = None) -> str:
    module = parse_module(path.read_text(), str(path)).module
    lower_loops(module)
    if then is not None:
        module = run_triton_passes(module, spec.parse(then))
    return canonical_text(module)


def triton_pipelined(path: Path) -> str:
    return canonical_text(run_triton_passes(parse_module(path.read_text(), str(path)).module,
                                            spec.parse(TRITON_PASS)))


def test_matches_triton_on_corpus():
    cases = corpus_inputs()
    assert cases, "no corpus IR with a scheduled loop before tritongpu-pipeline"
    failures = [f"{target}/{kernel} ({path.name})" for target, kernel, path in cases
                if ttpipe_lowered(path) != triton_lowered(path)]
    print(f"{len(cases) - len(failures)}/{len(cases)} match Triton")
    assert not failures, "differs from Triton: " + ", ".join(failures)


def test_triton_expands_it_as_its_own():
    cases = corpus_inputs()
    failures = [f"{target}/{kernel} ({path.name})" for target, kernel, path in cases
                if ttpipe_lowered(path, then=TRITON_PASS) != triton_pipelined(path)]
    print(f"{len(cases) - len(failures)}/{len(cases)} pipeline as Triton's own lowering")
    assert not failures, "Triton's pipeliner gives another result after ttpipe's lowering: " + ", ".join(failures)
