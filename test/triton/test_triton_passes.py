"""Triton's C++ passes are registered under triton-opt's names: every `add_*` binding of
triton 3.6 once, with the options its binding takes, in argument order, with their .td
defaults (checked against the pipeline Triton's own pass manager prints)."""

import re

import pytest
from triton._C import libtriton
from triton._C.libtriton import ir

from ttpipe.pipeline.registry import all_passes
from ttpipe.triton.mlir import triton_context

TRITON_PASSES = sorted((info for info in all_passes().values() if info.kind == "triton"), key=lambda i: i.name)
SAMPLE = {"str": "cuda:90", "bool": False}  # anything else is an int


def _bindings(module, prefix: str):
    """(path, function) of every function under `module` that adds a pass to a pass manager."""
    for name in dir(module):
        value = getattr(module, name)
        if type(value).__name__ == "module":
            yield from _bindings(value, f"{prefix}.{name}")
        elif callable(value) and "arg0: triton._C.libtriton.ir.pass_manager" in (value.__doc__ or ""):
            yield f"{prefix}.{name}", value


def _pipeline(add) -> tuple[str, dict[str, str]]:
    """The pass name and options Triton's pass manager prints for what `add(pm)` added."""
    pm = ir.pass_manager(triton_context())
    add(pm)
    m = re.fullmatch(r"any\(([\w-]+)(?:\{(.*)\})?\)", pm.get_pipeline_str())
    assert m is not None, pm.get_pipeline_str()
    return m.group(1), dict(item.split("=", 1) for item in (m.group(2) or "").split())


def _text(value) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def test_every_binding_is_registered_under_its_name():
    exposed = {}
    bindings = [*_bindings(libtriton.passes, "passes"), *_bindings(libtriton.nvidia.passes, "nvidia.passes")]
    for path, function in bindings:
        types = re.findall(r"arg\d+: ([\w.]+)", function.__doc__.splitlines()[0])[1:]
        arguments = [SAMPLE.get(t, 1) for t in types]
        name, _ = _pipeline(lambda pm, f=function, a=arguments: f(pm, *a))
        exposed[name] = path
    assert len(exposed) == 70
    assert sorted(exposed) == [info.name for info in TRITON_PASSES]


@pytest.mark.parametrize("info", TRITON_PASSES, ids=lambda info: info.name)
def test_options_map_to_the_binding_arguments(info):
    name, defaults = _pipeline(info.create({}))
    assert name == info.name
    for option in info.options:
        assert defaults[option.name] == _text(option.default), option.name
    changed = {o.name: {bool: not o.default, int: o.default * 2 or 1, str: "cuda:80"}[o.type] for o in info.options}
    _, given = _pipeline(info.create(changed))
    assert {key: given[key] for key in changed} == {key: _text(value) for key, value in changed.items()}


def test_registry_stays_quick_to_list():
    """Listing passes imports no Triton: each binding is looked up when its pass is added."""
    import subprocess
    import sys

    code = ("import sys; from ttpipe.pipeline.registry import all_passes; all_passes(); "
            "print('triton._C.libtriton' in sys.modules)")
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True).stdout.strip() == "False"
