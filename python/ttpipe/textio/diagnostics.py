"""Diagnostics in MLIR's form: `FILE:LINE:COL: error: message`, the source line, a caret."""

from __future__ import annotations

import bisect
from dataclasses import dataclass, field


@dataclass
class SourceFile:
    """A named text buffer that maps byte offsets to 1-based line and column."""

    name: str
    text: str
    _line_starts: list[int] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        starts = [0]
        find = self.text.find
        pos = find("\n")
        while pos != -1:
            starts.append(pos + 1)
            pos = find("\n", pos + 1)
        self._line_starts = starts

    def line_col(self, offset: int) -> tuple[int, int]:
        index = bisect.bisect_right(self._line_starts, offset) - 1
        return index + 1, offset - self._line_starts[index] + 1

    def line_text(self, line: int) -> str:
        start = self._line_starts[line - 1]
        end = self.text.find("\n", start)
        return self.text[start:] if end == -1 else self.text[start:end]


class DiagnosticError(Exception):
    """An error the user caused, reported at a place in a source file (or at a file or flag)."""

    def __init__(self, message: str, source: SourceFile | None = None,
                 offset: int | None = None, where: str | None = None):
        super().__init__(message)
        self.message = message
        self.source = source
        self.offset = offset
        self.where = where

    def render(self) -> str:
        """The one-line diagnostic, followed (for a source position) by the line and a caret."""
        if self.source is not None and self.offset is not None:
            offset = min(self.offset, len(self.source.text))
            line, col = self.source.line_col(offset)
            text = self.source.line_text(line)
            caret = " " * (col - 1) + "^"
            return f"{self.source.name}:{line}:{col}: error: {self.message}\n{text}\n{caret}"
        if self.where is not None:
            return f"{self.where}: error: {self.message}"
        return f"error: {self.message}"

    def __str__(self) -> str:
        return self.render()
