"""Output files written all together or not at all: a failed run leaves no half-written file."""

from __future__ import annotations

import contextlib
import os
import tempfile

from ttpipe.ir.diagnostics import DiagnosticError


def write_atomically(contents: dict[str, bytes], where: str) -> None:
    """Write each path's bytes; on an error, none of them (reported at `where`)."""
    staged: list[tuple[str, str]] = []
    try:
        for path, data in contents.items():
            fd, tmp = tempfile.mkstemp(dir=os.path.dirname(os.path.abspath(path)), prefix=".ttpipe-")
            staged.append((tmp, path))
            with os.fdopen(fd, "wb") as f:
                f.write(data)
            os.chmod(tmp, 0o644)
        for tmp, path in staged:
            os.replace(tmp, path)
    except OSError as exc:
        for tmp, _ in staged:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
        raise DiagnosticError(f"could not write output file: {exc.strerror}", where=where) from None
