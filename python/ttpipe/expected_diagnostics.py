"""`--verify-diagnostics`: match diagnostics against `expected-*` comments, as mlir-opt does.

A comment `// expected-error {{text}}` expects an error on its own line whose message
contains `text`; `@above`, `@below`, `@+N`, `@-N` and `@N` move the expected line.
`expected-warning`, `expected-remark` and `expected-note` are read the same way and match
the warnings, remarks and notes passes emit. With `only_expected` (mlir-opt's
`--verify-diagnostics=only-expected`) a diagnostic no comment expects is not a mismatch.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ttpipe.ir.diagnostics import SEVERITIES, Diagnostic, DiagnosticError, SourceFile

_EXPECTED = re.compile(
    rf"expected-({'|'.join(SEVERITIES)})(-re)?\s*(?:@(above|below|[+-]?\d+))?\s*\{{\{{(.*?)\}}\}}")


@dataclass
class Expectation:
    severity: str
    line: int
    text: str
    regex: bool
    offset: int
    matched: bool = False

    def accepts(self, message: str) -> bool:
        if self.regex:
            return re.search(self.text, message) is not None
        return self.text in message


def expectations(source: SourceFile) -> list[Expectation]:
    found = []
    pending_below: list[Expectation] = []
    for index, line in enumerate(source.text.split("\n"), start=1):
        stripped = line.strip()
        if pending_below and stripped and "expected-" not in stripped:
            for e in pending_below:
                e.line = index
            pending_below = []
        for m in _EXPECTED.finditer(line):
            where = m.group(3)
            target = index
            if where == "above":
                target = index - 1
            elif where and where[0] in "+-":
                target = index + int(where)
            elif where and where != "below":
                target = int(where)
            offset = source._line_starts[index - 1] + m.start()
            e = Expectation(m.group(1), target, m.group(4), bool(m.group(2)), offset)
            found.append(e)
            if where == "below":
                pending_below.append(e)
    return found


def check(source: SourceFile, produced: list[DiagnosticError | Diagnostic],
          only_expected: bool = False) -> list[DiagnosticError]:
    """The mismatches, as diagnostics: unexpected diagnostics (unless `only_expected`) and
    expectations not produced. A remark or warning counts with its notes."""
    expected = expectations(source)
    problems: list[DiagnosticError] = []
    for diag in _flattened(produced):
        severity = "error" if isinstance(diag, DiagnosticError) else diag.severity
        line = _line_of(source, diag)
        match = next((e for e in expected if not e.matched and e.severity == severity
                      and e.line == line and e.accepts(diag.message)), None)
        if match is not None:
            match.matched = True
        elif not only_expected:
            problems.append(DiagnosticError(f"unexpected {severity}: {diag.message}",
                                            getattr(diag, "source", None), getattr(diag, "offset", None),
                                            where=diag.where))
    for e in expected:
        if not e.matched:
            problems.append(DiagnosticError(f'expected {e.severity} "{e.text}" was not produced', source, e.offset))
    return problems


def _flattened(produced: list[DiagnosticError | Diagnostic]) -> list[DiagnosticError | Diagnostic]:
    """Each diagnostic, then what it carries (its notes, and the errors that follow it), in order."""
    flat: list[DiagnosticError | Diagnostic] = []
    for diag in produced:
        flat.append(diag)
        flat.extend(_flattened(list(getattr(diag, "notes", ()))))
    return flat


def _line_of(source: SourceFile, diag: DiagnosticError | Diagnostic) -> int | None:
    """The line of `source` a diagnostic points at, from its offset or its `file:line:col`."""
    own_source = getattr(diag, "source", None)
    offset = getattr(diag, "offset", None)
    if own_source is not None and offset is not None:
        return own_source.line_col(offset)[0]
    if diag.where is not None and diag.where.startswith(source.name + ":"):
        line_text = diag.where[len(source.name) + 1:].split(":")[0]
        return int(line_text) if line_text.isdigit() else None
    return None
