"""Triton's own MLIR context, parser and printer, as the reference for ttpipe's text.

`reprint(path)` is what "Triton reads the same module back" means in ttpipe's tests: the
text Triton's printer gives (debug info and `printNameLocAsPrefix`, as Triton prints its
stages) for the module it parses from `path`. Two files hold the same module when their
reprints are equal.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache


@cache
def triton_context():
    """One MLIR context with every dialect Triton's NVIDIA backend loads."""
    from triton._C.libtriton import ir, nvidia

    context = ir.context()
    ir.load_dialects(context)
    nvidia.load_dialects(context)
    return context


def parse_file(path: str, context=None):
    """Triton's parse of a file in `context` (default: `triton_context()`); raises
    RuntimeError (diagnostics go to stderr)."""
    from triton._C.libtriton import ir

    context = context or triton_context()
    module = ir.parse_mlir_module(path, context)
    module.context = context  # the module keeps its context alive
    return module


def reprint(path: str) -> str:
    return parse_file(path).str()


@contextmanager
def text_as_file(text: str, name: str) -> Iterator[str]:
    """The path of a temporary file holding `text` under the base name of `name` (the
    path Triton's default locations use)."""
    with tempfile.TemporaryDirectory(prefix="ttpipe-") as directory:
        path = os.path.join(directory, os.path.basename(name) or "module.mlir")
        with open(path, "w") as f:
            f.write(text)
        yield path


def reprint_text(text: str, name: str) -> str:
    """Reprint text as if it were the file `name`."""
    with text_as_file(text, name) as path:
        return reprint(path)


def parse_text(text: str, name: str, context=None):
    """Triton's parse of `text` as if it were the file `name`, in `context` (default:
    `triton_context()`); raises RuntimeError (diagnostics go to stderr)."""
    with text_as_file(text, name) as path:
        return parse_file(path, context)
