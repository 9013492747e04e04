"""Every corpus kernel's TTIR through `ttgir-sm90`/`ttgir-sm100` with ttpipe's Python passes
(accelerate-matmul, optimize-dot-operands, assign-latencies, schedule-loops, pipeline)
gives the final TTGIR that Triton's own passes give: the corpus's `final-ttgir.mlir`, which
Triton 3.6's make_ttgir wrote when it compiled the kernel (`test_named_pipelines.py` checks
that `impl=triton` is make_ttgir).

On a kernel in `HANDOFF_SENSITIVE` the two must hold the same ops, in any order: there MLIR's
print and parse alone, between two of Triton's passes, change the order of some ops in
make_ttgir's result (the per-pass diff tests check each Python pass on it exactly)."""

import json
import pathlib
import re

import pytest

from corpus_kernels import CORPUS_KERNELS, KERNEL_DIRS
from pipeline_parity import ADDITIONS_OFF

from ttpipe.pipeline import driver, spec
from ttpipe.textio import parse_module, print_module
from ttpipe.triton import mlir

TRITON_NONDETERMINISTIC = {"matmul_tma_persistent_ws_hopper"}
"""Triton's own nvgpu-warp-specialization gives different IR from run to run on this kernel."""

HANDOFF_SENSITIVE = {"matmul_ptr_2cta"}
"""Kernels whose make_ttgir result changes when the IR crosses text between two of Triton's
passes, with no ttpipe pass in between (`handoff.run_triton_text` twice). Parsed IR lists
each value's uses in text order, where make_ttgir's run lists them in the order the passes
made them, and a later pass visits the CTA-split row indices' copies (one per layout) in
that order: the same ops, in another order."""


def _ttgir(ttir: pathlib.Path, pipeline: str) -> str:
    module = parse_module(ttir.read_text(), str(ttir)).module
    module = driver.run(module, spec.parse(pipeline))
    return mlir.reprint_text(print_module(module), str(ttir))


def test_the_whole_corpus_is_checked():
    assert len(KERNEL_DIRS) == CORPUS_KERNELS


@pytest.mark.parametrize("kernel_dir", KERNEL_DIRS, ids=lambda p: f"{p.parent.name}-{p.name}")
def test_python_passes_give_make_ttgir_output(kernel_dir: pathlib.Path):
    if kernel_dir.name in TRITON_NONDETERMINISTIC:
        pytest.skip("Triton's warp specialization is not deterministic on this kernel")
    manifest = json.loads((kernel_dir / "manifest.json").read_text())
    options = manifest["options"]  # the compile options (the top level records results: warps after specialization)
    name = "ttgir-sm90" if kernel_dir.parent.name == "sm90a" else "ttgir-sm100"
    num_warps, num_stages, num_ctas = (options.get(key) or manifest[key] for key in ("num_warps", "num_stages", "num_ctas"))
    common = f"num-warps={num_warps} num-stages={num_stages} num-ctas={num_ctas}"
    ttir = kernel_dir / "final-ttir.mlir"
    ours = _ttgir(ttir, f"{name}{{{common} impl=ttpipe {ADDITIONS_OFF[name]}}}")
    theirs = mlir.reprint_text((kernel_dir / "final-ttgir.mlir").read_text(), str(ttir))
    if kernel_dir.name in HANDOFF_SENSITIVE:
        assert _ops_in_any_order(ours) == _ops_in_any_order(theirs)
    else:
        assert ours == theirs


def _ops_in_any_order(text: str) -> list[str]:
    """The module's lines without locations and value names, its layout aliases written out,
    sorted: equal for two modules that hold the same ops, whatever their order."""
    aliases = dict(re.findall(r"^(#[\w.]+) = (.*)$", text, re.M))
    lines = []
    for line in text.splitlines():
        if line.startswith("#"):
            continue
        line = re.sub(r" loc\(.*\)$", "", line)
        line = re.sub(r"%[\w.$-]+", "%", line)
        line = re.sub(r"#[\w.]+", lambda alias: aliases.get(alias.group(0), alias.group(0)), line)
        lines.append(line)
    return sorted(lines)
