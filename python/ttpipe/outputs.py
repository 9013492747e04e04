"""What a command leaves behind when it fails: output files are written all together or not
at all, and a ttpipe bug is reported in one line (its traceback on request)."""

from __future__ import annotations

import contextlib
import os
import stat
import sys
import tempfile
import traceback

from ttpipe.ir.diagnostics import DiagnosticError


def write_atomically(contents: dict[str, bytes], where: str) -> None:
    """Write each path's bytes; on an error, none of them (reported at `where`).

    A path that exists and is not a regular file (`/dev/null`, `/dev/stdout`, a pipe) is
    written in place, after the files: renaming over it would replace the device."""
    staged: list[tuple[str, str]] = []
    streams = {path: data for path, data in contents.items() if _is_stream(path)}
    try:
        for path, data in contents.items():
            if path in streams:
                continue
            fd, tmp = tempfile.mkstemp(dir=os.path.dirname(os.path.abspath(path)), prefix=".ttpipe-")
            staged.append((tmp, path))
            with os.fdopen(fd, "wb") as f:
                f.write(data)
            os.chmod(tmp, 0o644)
        for tmp, path in staged:
            os.replace(tmp, path)
        for path, data in streams.items():
            with open(path, "wb") as f:
                f.write(data)
    except OSError as exc:
        for tmp, _ in staged:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
        raise DiagnosticError(f"could not write output file: {exc.strerror}", where=where) from None


def _is_stream(path: str) -> bool:
    try:
        return not stat.S_ISREG(os.stat(path).st_mode)
    except FileNotFoundError:
        return False


DEBUG_ENV = "TTPIPE_DEBUG"
"""Set (to anything but `0`) it makes an internal error show its traceback, as `--debug` does."""

INTERNAL_ERROR_STATUS = 2


def debugging(flag: bool) -> bool:
    """Whether an internal error shows its traceback: the command's `--debug` or TTPIPE_DEBUG."""
    return flag or os.environ.get(DEBUG_ENV, "0") not in ("", "0")


def internal_error(program: str, exc: BaseException, debug: bool) -> int:
    """Report an exception that is not a diagnostic (a ttpipe bug) on stderr and return the
    exit status: one line `PROGRAM: internal error: Type: message`, after the traceback when
    `debug`."""
    if debug:
        traceback.print_exception(type(exc), exc, exc.__traceback__)
    message = next((line.strip() for line in str(exc).splitlines() if line.strip()), "")
    hint = "" if debug else f" (run with --debug or {DEBUG_ENV}=1 for the traceback)"
    sys.stderr.write(f"{program}: internal error: {type(exc).__name__}: {message}{hint}\n")
    return INTERNAL_ERROR_STATUS
