"""What the differential tests share: the corpus IR just before one of Triton's passes, and
the two outputs to compare (Triton's C++ pass, ttpipe's Python pass), both as Triton
reprints them."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from xdsl.context import Context

from ttpipe.textio import parse_module, print_module
from ttpipe.triton.mlir import parse_file, reprint_text, triton_context

CORPUS = Path(__file__).resolve().parents[1] / "corpus"
TRITON_SRC_ENV = "TTPIPE_TRITON_SRC"
"""A Triton 3.6 source checkout; when set, Triton's own lit tests of a pass are compared too
(read from there, never copied here)."""


def triton_lit_tests(*names: str) -> list[Path]:
    """`test/TritonGPU/NAME` of the checkout `TTPIPE_TRITON_SRC` names; none when it is unset."""
    root = os.environ.get(TRITON_SRC_ENV)
    return [Path(root) / "test" / "TritonGPU" / name for name in names] if root else []


@dataclass(frozen=True)
class PassInput:
    """One run of a Triton pass in a corpus kernel's compile."""

    target: str
    kernel: str
    index: int
    """The pass's position in its stage (a pass may run more than once)."""
    pipeline_entry: str
    """The pass as Triton's pipeline string spells it, options included."""
    path: Path
    """The IR just before the pass."""

    def option(self, name: str) -> int:
        return int(re.search(rf"{name}=(\d+)", self.pipeline_entry).group(1))


def inputs_before(triton_pass: str) -> list[PassInput]:
    """Every run of `triton_pass` in the corpus, in corpus order."""
    found = []
    for manifest_path in sorted(CORPUS.glob("*/*/manifest.json")):
        manifest = json.loads(manifest_path.read_text())
        for stage in manifest["stages"]:
            for entry in stage["passes"]:
                if entry["pass"] == triton_pass:
                    found.append(PassInput(manifest["target_name"], manifest["kernel"], entry["index"],
                                           entry["pipeline"], manifest_path.parent / entry["before"]))
    return found


def triton_output(path: Path, add_pass: Callable, name: str) -> str:
    """Triton's text after `add_pass(pass_manager)` ran on the file."""
    from triton._C.libtriton import ir

    module = parse_file(str(path))
    manager = ir.pass_manager(triton_context())
    add_pass(manager)
    manager.run(module, name)
    return module.str()


def ttpipe_output(path: Path, pass_instance) -> str:
    """Triton's reprint of ttpipe's output after `pass_instance` ran on the file."""
    module = parse_module(path.read_text(), str(path)).module
    pass_instance.apply(Context(allow_unregistered=True), module)
    return reprint_text(print_module(module), str(path))


def assert_matches_triton(triton_pass: str, ttpipe_pass: Callable[[PassInput], object],
                          add_pass: Callable[[PassInput], Callable], *,
                          select: Callable[[PassInput], bool] = lambda case: True) -> None:
    """ttpipe's pass gives Triton's output on every selected corpus input; prints N/M per target."""
    from collections import Counter

    cases = [case for case in inputs_before(triton_pass) if select(case)]
    assert cases, f"no corpus IR before {triton_pass}"
    total, matched, failures = Counter(), Counter(), []
    for case in cases:
        total[case.target] += 1
        ours = ttpipe_output(case.path, ttpipe_pass(case))
        if ours == triton_output(case.path, add_pass(case), triton_pass):
            matched[case.target] += 1
        else:
            failures.append(f"{case.target}/{case.kernel} ({case.pipeline_entry}, {case.path.name})")
    for target in sorted(total):
        print(f"{target}: {matched[target]}/{total[target]} match Triton")
    assert not failures, "differs from Triton: " + ", ".join(failures)
