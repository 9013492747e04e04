"""Triton's own MLIR context, parser and printer, as the reference for ttpipe's text.

`reprint(path)` is what "Triton reads the same module back" means in ttpipe's tests: the
text Triton's printer gives (debug info and `printNameLocAsPrefix`, as Triton prints its
stages) for the module it parses from `path`. Two files hold the same module when their
reprints are equal.
"""

from __future__ import annotations

import os
import tempfile
from functools import cache


@cache
def triton_context():
    """One MLIR context with every dialect Triton's NVIDIA backend loads."""
    from triton._C.libtriton import ir, nvidia

    context = ir.context()
    ir.load_dialects(context)
    nvidia.load_dialects(context)
    return context


def parse_file(path: str):
    """Triton's parse of a file; raises RuntimeError (diagnostics go to stderr)."""
    from triton._C.libtriton import ir

    return ir.parse_mlir_module(path, triton_context())


def reprint(path: str) -> str:
    return parse_file(path).str()


def reprint_text(text: str, name: str) -> str:
    """Reprint text as if it were the file `name` (the path Triton's default locations use)."""
    directory = tempfile.mkdtemp(prefix="ttpipe-")
    path = os.path.join(directory, os.path.basename(name))
    with open(path, "w") as f:
        f.write(text)
    try:
        return reprint(path)
    finally:
        os.unlink(path)
        os.rmdir(directory)
