"""Remarks and warnings a pass attaches to an op (MLIR's `op.emitRemark()`/`emitWarning()`)."""

from __future__ import annotations

from xdsl.ir import Operation

from ttpipe.passes.common.target import op_location_text
from ttpipe.ir.diagnostics import Diagnostic, emit


def emit_remark(op: Operation, message: str, note: str | None = None) -> None:
    """A remark at `op`'s location, with an optional note at the same place."""
    where = op_location_text(op)
    notes = [Diagnostic("note", note, where)] if note else []
    emit(Diagnostic("remark", message, where, notes))


def emit_warning(op: Operation, message: str) -> None:
    emit(Diagnostic("warning", message, op_location_text(op)))
