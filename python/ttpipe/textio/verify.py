"""Verification of parsed or transformed IR, reported at the op's place in the input.

Each op's own verifier (`verify_`: IRDL constraints plus the op's checks) runs directly;
xDSL's `Operation.verify` would wrap a failure in a message holding the whole module
printed by xDSL's printer, which is slow and does not know Triton's syntax.
"""

from __future__ import annotations

from xdsl.dialects.builtin import FileLineColLoc
from xdsl.ir import Operation
from xdsl.utils.exceptions import VerifyException

from ttpipe.ir.diagnostics import DiagnosticError, SourceFile


def verify(module: Operation, source: SourceFile | None = None,
           op_offsets: dict[int, int] | None = None, context: str = "") -> None:
    """Raise DiagnosticError for the first op that fails its verifier."""
    for op in module.walk():
        try:
            op.verify_()
        except (VerifyException, ValueError, TypeError, KeyError, IndexError, AttributeError) as exc:
            message = _clean(str(exc), op)
            if context:
                message = f"{message} ({context})"
            raise _at_op(message, op, source, op_offsets) from None


def _clean(message: str, op: Operation) -> str:
    first = message.strip().splitlines()[0] if message.strip() else "verification failed"
    if first.startswith(f"'{op.name}'"):
        return first
    return f"'{op.name}' op {first}"


def _at_op(message: str, op: Operation, source: SourceFile | None,
           op_offsets: dict[int, int] | None) -> DiagnosticError:
    if source is not None and op_offsets is not None and id(op) in op_offsets:
        return DiagnosticError(message, source, op_offsets[id(op)])
    loc = op.location
    while hasattr(loc, "location") and not isinstance(loc, FileLineColLoc):
        loc = loc.location  # a NameLoc: its child
    if isinstance(loc, FileLineColLoc):
        return DiagnosticError(message, where=f"{loc.filename.data}:{loc.line.data}:{loc.column.data}")
    return DiagnosticError(message, where="<unknown>")
