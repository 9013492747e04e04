"""Every pass `ttpipe-opt -p` knows, by the name a user types.

Python passes are xDSL `ModulePass` dataclasses named `ttpipe-*`, listed in
`_PYTHON_PASSES` as lazy imports so that `--list-passes` stays quick. Their options are
the dataclass fields (`num_stages` is spelled `num-stages`), their summary the first
line of the class docstring. Providers in `_PROVIDERS` add Triton's C++ passes
(`ttpipe.triton.passes`) and named pipelines (`ttpipe.triton.pipelines`).
"""

from __future__ import annotations

import dataclasses
import importlib
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any, get_type_hints


@dataclass(frozen=True)
class PassOption:
    name: str
    type: type
    default: Any
    help: str = ""
    check: Callable[[Any], str | None] | None = None
    """Says why a (converted) value is rejected, e.g. "must be a power of two", or None."""


@dataclass(frozen=True)
class PassInfo:
    name: str
    summary: str
    options: tuple[PassOption, ...]
    kind: str
    """'python' (runs on xDSL IR), 'triton' (a C++ pass of Triton's), or 'pipeline'."""
    create: Callable[[dict[str, Any]], Any]
    """Options given -> a ModulePass ('python'), a function adding the pass to a Triton
    `ir.pass_manager` ('triton'), or the list of PassInvocations it stands for ('pipeline')."""
    description: str = ""

    def option(self, name: str) -> PassOption | None:
        return next((o for o in self.options if o.name == name), None)


_PYTHON_PASSES: dict[str, str] = {
    "ttpipe-accelerate-matmul": "ttpipe.passes.accelerate_matmul:AccelerateMatmul",
    "ttpipe-optimize-dot-operands": "ttpipe.passes.optimize_dot_operands:OptimizeDotOperands",
    "ttpipe-assign-latencies": "ttpipe.passes.pipeline.assign_latencies:AssignLatencies",
    "ttpipe-schedule-loops": "ttpipe.passes.pipeline.schedule_loops:ScheduleLoops",
    "ttpipe-expand-loops": "ttpipe.passes.pipeline.expand:ExpandLoops",
    "ttpipe-pipeline": "ttpipe.passes.pipeline.pipeline:Pipeline",
    "ttpipe-lower-loops": "ttpipe.passes.pipeline.lower_loops:LowerLoops",
}
"""Pass name -> "module:Class" of its xDSL ModulePass."""

_PROVIDERS: tuple[str, ...] = (
    "ttpipe.triton.passes:triton_passes",
    "ttpipe.triton.pipelines:named_pipelines",
)
""""module:function"s returning PassInfos of passes defined elsewhere (Triton's) and of pipelines."""


def python_pass_info(cls) -> PassInfo:
    """A PassInfo for an xDSL ModulePass dataclass."""
    hints = get_type_hints(cls)
    options = []
    for field in dataclasses.fields(cls):
        if field.name == "name" or not field.init:
            continue
        default = field.default if field.default is not dataclasses.MISSING else None
        # `cli_type`: the type the option has on the command line, when the Python API
        # takes more (a scheduler name, or the scheduler function itself); `check`: as
        # PassOption's.
        options.append(PassOption(field.name.replace("_", "-"), field.metadata.get("cli_type", hints[field.name]),
                                  default, field.metadata.get("help", ""), field.metadata.get("check")))
    doc = (cls.__doc__ or "").strip()
    summary = doc.splitlines()[0] if doc else ""

    def create(values: dict[str, Any]):
        return cls(**{k.replace("-", "_"): v for k, v in values.items()})

    return PassInfo(cls.name, summary, tuple(options), "python", create, doc)


@cache
def all_passes() -> dict[str, PassInfo]:
    passes: dict[str, PassInfo] = {}
    for name, target in _PYTHON_PASSES.items():
        module_name, class_name = target.split(":")
        cls = getattr(importlib.import_module(module_name), class_name)
        passes[name] = python_pass_info(cls)
    for target in _PROVIDERS:
        module_name, function_name = target.split(":")
        for info in getattr(importlib.import_module(module_name), function_name)():
            passes[info.name] = info
    return passes
