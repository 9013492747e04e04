"""Diagnostics in MLIR's form: `FILE:LINE:COL: error: message`, the source line, a caret;
remarks and warnings from passes go to a handler (`diagnostic_handler`) as `Diagnostic`s."""

from __future__ import annotations

import bisect
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
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

    @classmethod
    def read(cls, path: str) -> "SourceFile":
        """The file at `path`; a missing or unreadable file is a DiagnosticError at the path."""
        try:
            with open(path, encoding="utf-8") as f:
                return cls(path, f.read())
        except FileNotFoundError:
            raise DiagnosticError("could not open input file: no such file", where=path) from None
        except IsADirectoryError:
            raise DiagnosticError("could not open input file: it is a directory", where=path) from None
        except UnicodeDecodeError:
            raise DiagnosticError("could not read input file: not UTF-8 text", where=path) from None
        except OSError as exc:
            raise DiagnosticError(f"could not open input file: {exc.strerror}", where=path) from None

    def line_col(self, offset: int) -> tuple[int, int]:
        index = bisect.bisect_right(self._line_starts, offset) - 1
        return index + 1, offset - self._line_starts[index] + 1

    def line_text(self, line: int) -> str:
        start = self._line_starts[line - 1]
        end = self.text.find("\n", start)
        return self.text[start:] if end == -1 else self.text[start:end]


SPLIT_MARKER = "// -----"
"""What separates the chunks of a file that `--split-input-file` processes one by one."""


def split_chunks(source: SourceFile) -> list[SourceFile]:
    """Chunks between `// -----` lines, padded so that line numbers stay those of the file."""
    chunks = []
    lines = source.text.split("\n")
    start = 0
    for index, line in enumerate(lines + [SPLIT_MARKER]):
        if line.strip().startswith(SPLIT_MARKER) or index == len(lines):
            body = "\n".join(lines[start:index])
            chunks.append(SourceFile(source.name, "\n" * start + body))
            start = index + 1
    return chunks


class DiagnosticError(Exception):
    """An error the user caused, reported at a place in a source file (or at a file or flag),
    with notes at the other places involved."""

    def __init__(self, message: str, source: SourceFile | None = None,
                 offset: int | None = None, where: str | None = None, notes: list[Diagnostic] | None = None):
        super().__init__(message)
        self.message = message
        self.source = source
        self.offset = offset
        self.where = where
        self.notes = list(notes or ())

    def render(self) -> str:
        """The one-line diagnostic, followed (for a source position) by the line and a caret,
        then its notes."""
        return "\n".join([self._head(), *(note.render() for note in self.notes)])

    def _head(self) -> str:
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


SEVERITIES = ("error", "warning", "remark", "note")


@dataclass
class Diagnostic:
    """A remark, warning or note a pass emits (errors are raised as `DiagnosticError`), at
    `where` (`file:line:col`), with the notes attached to it."""

    severity: str
    message: str
    where: str | None = None
    notes: list[Diagnostic] = field(default_factory=list)

    def render(self) -> str:
        head = f"{self.where}: {self.severity}: {self.message}" if self.where else f"{self.severity}: {self.message}"
        return "\n".join([head, *(note.render() for note in self.notes)])


_handler: ContextVar[Callable[[Diagnostic], None] | None] = ContextVar("ttpipe_diagnostic_handler", default=None)


def emit(diagnostic: Diagnostic) -> None:
    """Hand a remark or warning to the active handler; without one it is dropped, as MLIR
    drops diagnostics other than errors when no handler is registered."""
    handler = _handler.get()
    if handler is not None:
        handler(diagnostic)


@contextmanager
def diagnostic_handler(handler: Callable[[Diagnostic], None]) -> Iterator[None]:
    """Route the remarks and warnings emitted inside the block to `handler`."""
    token = _handler.set(handler)
    try:
        yield
    finally:
        _handler.reset(token)
