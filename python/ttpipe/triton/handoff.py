"""Runs a batch of Triton's C++ passes on an xDSL module: print, hand over, run, read back.

ttpipe prints the module (every location kept), Triton parses that text, ONE Triton pass
manager runs the whole batch, and ttpipe parses what Triton prints (`mod.str()`: debug
info, name locations as prefixes) back into a new module.

Triton's half runs in a forked child process (Triton's MLIR context is single-threaded,
so forking is safe). Triton is built with assertions, and its passes assert or call
`report_fatal_error` on IR they do not expect; MLIR's crash recovery turns most of these
into a failed pass, but a child that dies anyway (or bloats, or leaves the context in a
bad state) costs nothing here. The child's C++ stdout and stderr (fd 1 and 2) go to a
file: a failure becomes one `DiagnosticError` at the place of Triton's first error
(`FILE:LINE:COL: error: message`, the op's location), or says what crashed; on success
whatever the passes printed (`print-ir`, warnings) is copied to stderr.
"""

from __future__ import annotations

import os
import re
import signal
import sys
import tempfile
from collections.abc import Callable, Sequence

from xdsl.dialects.builtin import ModuleOp

from ttpipe.pipeline.spec import PassInvocation
from ttpipe.textio import DiagnosticError, parse_module, print_module
from ttpipe.triton import unregistered
from ttpipe.triton.mlir import triton_context

HANDOFF_NAME = "ttpipe-handoff.mlir"
"""The name Triton parses the handed-over text under (relative, in a temporary directory).

Locations the text cannot carry (MLIR prints none for an `scf.for` induction variable)
default to places in this file, the same on every run."""

_DIAGNOSTIC = re.compile(r"^(?:(?P<where>.+?): )?error: (?P<message>.*)$", re.M)
_FATAL = re.compile(r"^(?:LLVM ERROR: (?P<error>.*)|.*?: (?P<file>[^\s:]+):(?P<line>\d+): .*: "
                    r"Assertion `(?P<assertion>.*)' failed\.)$", re.M)
_FILE_LOC = re.compile(r'loc\("(?P<file>.*)":(?P<line>\d+):(?P<col>\d+)\)')
_SIGNAL = "A signal was caught while processing the MLIR module"

_STAGES = {  # exit status of the child -> what failed
    3: "Triton could not parse the IR ttpipe handed over",
    4: "Triton's passes failed",
    5: "Triton could not print the result",
}


def run_triton_passes(module: ModuleOp, batch: Sequence[PassInvocation]) -> ModuleOp:
    """The module after one Triton pass manager ran every pass of `batch`, in order.
    Unregistered ops cross as calls (`ttpipe.triton.unregistered`)."""
    calls = unregistered.encoded(module)
    result = _read_back(run_triton_text(print_module(calls or module), batch), batch)
    if calls is not None:
        unregistered.decode(result)
    return result


def run_triton_text(text: str, batch: Sequence[PassInvocation]) -> str:
    """Triton's print of the module in `text` after the passes of `batch`."""
    from triton._C.libtriton import ir

    context = triton_context()
    pm = ir.pass_manager(context)
    for invocation in batch:
        invocation.info.create(invocation.options)(pm)
    with tempfile.TemporaryDirectory(prefix="ttpipe-") as directory:
        with open(os.path.join(directory, HANDOFF_NAME), "w", encoding="utf-8") as f:
            f.write(text)
        status = _in_child(lambda: _run(ir, context, pm, directory))
        with open(os.path.join(directory, "log"), encoding="utf-8", errors="replace") as f:
            printed = f.read()
        if status == 0:
            sys.stderr.write(printed)
            with open(os.path.join(directory, "result.mlir"), encoding="utf-8") as f:
                return f.read()
    raise _failure(status, printed, batch)


def _run(ir, context, pm, directory: str) -> int:
    """The child's work, in `directory`; its exit status: 0, or the stage (`_STAGES`) that failed."""
    os.chdir(directory)
    log = os.open("log", os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    os.dup2(log, 1)
    os.dup2(log, 2)
    stage = 3
    try:
        mod = ir.parse_mlir_module(HANDOFF_NAME, context)
        stage = 4
        pm.run(mod, "ttpipe")
        stage = 5
        with open("result.mlir", "w", encoding="utf-8") as f:
            f.write(mod.str())
        return 0
    except Exception:  # Triton's diagnostics are in the log; the stage says what failed
        return stage


def _in_child(work: Callable[[], int]) -> int:
    """`work()` in a forked child: its result as exit status, or -N if signal N killed it."""
    pid = os.fork()
    if pid == 0:
        status = 70
        try:
            status = work()
        finally:
            os._exit(status)
    try:
        _, status = os.waitpid(pid, 0)
    except BaseException:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        raise
    return os.waitstatus_to_exitcode(status)


def _names(batch: Sequence[PassInvocation]) -> str:
    if len(batch) == 1:
        return f"'{batch[0].info.name}'"
    return f"one of {len(batch)} passes, '{batch[0].info.name}' to '{batch[-1].info.name}'"


def _failure(status: int, printed: str, batch: Sequence[PassInvocation]) -> DiagnosticError:
    """Triton's first error, at its location; a crash says what crashed, and in which passes."""
    error = _DIAGNOSTIC.search(printed)
    fatal = _FATAL.search(printed)
    where = error.group("where") if error is not None else None
    if where is not None and (loc := _FILE_LOC.fullmatch(where)) is not None:
        where = f"{loc['file']}:{loc['line']}:{loc['col']}"  # how MLIR's default handler prints it
    where = None if where == "<unknown>:0" else where
    if fatal is not None and (error is None or fatal.start() < error.start()):
        if fatal.group("assertion") is not None:
            cause = (f"assertion failed: {fatal.group('assertion')} "
                     f"({os.path.basename(fatal.group('file'))}:{fatal.group('line')})")
        else:
            cause = fatal.group("error").strip()
    elif error is not None and error.group("message").startswith(_SIGNAL):
        cause = "a signal was caught"
    elif error is not None:
        message = error.group("message").strip()
        return DiagnosticError(f"{_STAGES[status]}: {message}" if status == 3 else message, where=where)
    elif status < 0:
        cause = f"killed by {signal.Signals(-status).name}"
    else:
        return DiagnosticError(f"{_STAGES.get(status, 'Triton failed')} in {_names(batch)}, with no diagnostic")
    hint = " (--print-ir-after-all runs them one at a time)" if len(batch) > 1 else ""
    return DiagnosticError(f"Triton crashed in {_names(batch)}: {cause}{hint}", where=where)


def _read_back(text: str, batch: Sequence[PassInvocation]) -> ModuleOp:
    try:
        return parse_module(text, "<triton>").module
    except DiagnosticError as exc:
        detail = exc.message
        if exc.source is not None and exc.offset is not None:
            line, _ = exc.source.line_col(min(exc.offset, len(exc.source.text)))
            detail += f", in: {exc.source.line_text(line).strip()}"
        passes = ",".join(invocation.info.name for invocation in batch)
        raise DiagnosticError(f"ttpipe cannot read the IR Triton's '{passes}' produced: {detail}") from None
