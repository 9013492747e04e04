"""Runs a pipeline of passes over one module, with MLIR's IR-printing hooks.

Python passes (`kind == "python"`) apply to the xDSL module in place, one at a time. Passes
of any other kind run through the runner registered for their kind
(`registry.register_runner`): consecutive ones form one batch, so that, for Triton's C++
passes (kind 'triton', whose runner the Triton bridge `ttpipe.triton` registers), the IR
crosses between xDSL and Triton only where the pipeline switches sides. A pass that the
user asked to see the IR around ends a batch.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp

from ttpipe.ir.diagnostics import Diagnostic, diagnostic_handler
from ttpipe.pipeline import registry, spec
from ttpipe.pipeline.registry import PassInvocation
from ttpipe.textio import parse_module

PassHook = Callable[[PassInvocation, ModuleOp], None]


def run(module: ModuleOp, invocations: Sequence[PassInvocation], *,
        before: PassHook | None = None, after: PassHook | None = None,
        verify: Callable[[ModuleOp, PassInvocation], None] | None = None,
        watched: Callable[[PassInvocation], bool] = lambda invocation: False) -> ModuleOp:
    """Apply each pass in order and return the module (a batch of another kind than
    'python', e.g. of Triton's passes, returns a new one).

    `watched(invocation)` says whether hooks want the IR around that pass on its own.
    """
    context = Context(allow_unregistered=True)
    for batch in _batches(invocations, watched):
        if before is not None:
            before(batch[0], module)
        if batch[0].info.kind == "python":
            batch[0].info.create(batch[0].options).apply(context, module)
        else:
            module = registry.runner(batch[0].info.kind)(module, batch)
        if verify is not None:
            verify(module, batch[-1])
        if after is not None:
            after(batch[-1], module)
    return module


def _batches(invocations: Sequence[PassInvocation],
             watched: Callable[[PassInvocation], bool]) -> list[list[PassInvocation]]:
    batches: list[list[PassInvocation]] = []
    for invocation in invocations:
        kind = invocation.info.kind
        joins = (batches and kind != "python" and batches[-1][-1].info.kind == kind
                 and not watched(invocation) and not watched(batches[-1][-1]))
        if joins:
            batches[-1].append(invocation)
        else:
            batches.append([invocation])
    return batches


DEFAULT_REMARK_PASSES = "ttpipe-assign-latencies,ttpipe-schedule-loops,ttpipe-pipeline"


def remarks(module: ModuleOp | str, passes: str = DEFAULT_REMARK_PASSES) -> list[Diagnostic]:
    """Run `passes` (a `ttpipe-opt -p` pipeline) over `module` (IR text is parsed first; a
    module is changed in place) and return the remarks and warnings they emit, each with
    its `where` (`file:line:col`), e.g. `loop not pipelined: it contains a gpu.barrier`."""
    if isinstance(module, str):
        module = parse_module(module, "<input>").module
    found: list[Diagnostic] = []
    with diagnostic_handler(found.append):
        run(module, spec.parse(passes))
    return found
