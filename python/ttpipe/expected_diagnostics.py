"""`--verify-diagnostics`: match errors against `expected-error` comments, as mlir-opt does.

A comment `// expected-error {{text}}` expects an error on its own line whose message
contains `text`; `@above`, `@below`, `@+N`, `@-N` and `@N` move the expected line.
`expected-warning`, `expected-remark` and `expected-note` are read the same way.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ttpipe.textio.diagnostics import DiagnosticError, SourceFile

_EXPECTED = re.compile(
    r"expected-(error|warning|remark|note)(-re)?\s*(?:@(above|below|[+-]?\d+))?\s*\{\{(.*?)\}\}")


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


def check(source: SourceFile, produced: list[DiagnosticError]) -> list[DiagnosticError]:
    """The mismatches, as diagnostics: unexpected errors and expectations not produced."""
    expected = expectations(source)
    problems: list[DiagnosticError] = []
    for diag in produced:
        line = diag.source.line_col(diag.offset)[0] if diag.source is not None and diag.offset is not None else None
        if line is None and diag.where is not None and diag.where.startswith(source.name + ":"):
            line_text = diag.where[len(source.name) + 1:].split(":")[0]
            line = int(line_text) if line_text.isdigit() else None
        match = next((e for e in expected if not e.matched and e.severity == "error"
                      and e.line == line and e.accepts(diag.message)), None)
        if match is None:
            problems.append(DiagnosticError(f"unexpected error: {diag.message}", diag.source, diag.offset,
                                            where=diag.where))
        else:
            match.matched = True
    for e in expected:
        if not e.matched:
            problems.append(DiagnosticError(f'expected {e.severity} "{e.text}" was not produced', source, e.offset))
    return problems
