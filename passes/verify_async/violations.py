"""The violations `ttpipe-verify-async` finds, one per op at fault and rule, each with a note
at the other op involved; rendered as MLIR diagnostics."""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.ir import Operation

from ttpipe.ir.diagnostics import Diagnostic, DiagnosticError
from ttpipe.passes.common.target import op_location_text


@dataclass(frozen=True)
class Violation:
    """A broken rule (the pass's docstring lists them: init, arrive-count, expect-bytes,
    read-before-wait, write-before-release, write-write, proxy-fence, wgmma-flush, deadlock) at `op`."""

    rule: str
    op: Operation
    message: str
    other: Operation | None = None
    note: str | None = None

    def diagnostic(self) -> Diagnostic:
        notes = [Diagnostic("note", self.note, op_location_text(self.other))] if self.other is not None else []
        return Diagnostic("error", f"{self.message} [{self.rule}]", op_location_text(self.op), notes)

    def error(self) -> DiagnosticError:
        diagnostic = self.diagnostic()
        return DiagnosticError(diagnostic.message, where=diagnostic.where, notes=diagnostic.notes)


@dataclass
class Violations:
    """The violations found so far, the first of each (op, rule, other op) kept."""

    found: dict[tuple, Violation] = field(default_factory=dict)

    def add(self, violation: Violation) -> None:
        key = (id(violation.op), violation.rule, id(violation.other))
        self.found.setdefault(key, violation)

    def __bool__(self) -> bool:
        return bool(self.found)

    def __iter__(self):
        return iter(self.found.values())
