"""The warp-specialize inputs (`test/lit/warp-specialize/Inputs/*.ttir`) through `ttgir-sm90`,
each input under each option set once per test session: the attention compile tests and the
async checker's tests read the same final TTGIR, and compile to a cubin only where they
look past it (PTX, SASS, Triton's shared-memory total)."""

from __future__ import annotations

import functools
import pathlib
from dataclasses import dataclass

from xdsl.dialects.builtin import ModuleOp

from ttpipe import compile as ttpipe_compile
from ttpipe.ir.diagnostics import Diagnostic, SourceFile, diagnostic_handler
from ttpipe.pipeline import driver, spec
from ttpipe.textio import parse_module, print_module

INPUTS = pathlib.Path(__file__).parents[1] / "lit" / "warp-specialize" / "Inputs"


@dataclass(frozen=True)
class Specialized:
    """An input's final TTGIR (the pipeline without its async check, which the tests run
    themselves) and the remarks the pipeline made on the way. Tests read the module and
    never change it: the next test reads the same."""

    module: ModuleOp
    remarks: tuple[Diagnostic, ...]

    @functools.cached_property
    def ttgir(self) -> str:
        return print_module(self.module)


@functools.cache
def specialized(name: str, options: str) -> Specialized:
    """`name` through `ttgir-sm90{options verify-async=false}` (its locations name the input
    by `name` alone)."""
    found: list[Diagnostic] = []
    with diagnostic_handler(found.append):
        module = driver.run(parse_module((INPUTS / name).read_text(), name).module,
                            spec.parse(f"ttgir-sm90{{{options} verify-async=false}}"))
    return Specialized(module, tuple(found))


@functools.cache
def compiled(name: str, options: str) -> ttpipe_compile.Compiled:
    """`specialized(name, options)`'s TTGIR through Triton's backend to an sm_90a cubin."""
    return ttpipe_compile.compile_source(SourceFile(name, specialized(name, options).ttgir), "sm_90a")
