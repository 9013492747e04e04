"""What the GPU tool wrappers (`ttpipe.bench.sanitize`, `ttpipe.bench.ncu`) share: finding the
tool, reading the result line `ttpipe.bench.launch` prints, and their plain-text table."""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Sequence
from typing import Any


def find_tool(name: str, given: str | None, paths: Sequence[str]) -> str | None:
    """`given` if it is executable; else `name` on PATH, else the first executable of `paths`."""
    if given:
        return given if os.access(given, os.X_OK) else None
    return shutil.which(name) or next((p for p in paths if os.access(p, os.X_OK)), None)


def launch_result(out: str) -> dict[str, Any]:
    """The last JSON result line of `ttpipe.bench.launch` in `out` ({} if there is none)."""
    for line in reversed(out.splitlines()):
        line = line.strip()
        if line.startswith("{") and '"case"' in line:
            try:
                return json.loads(line)
            except json.JSONDecodeError:
                continue
    return {}


def text_table(header: Sequence[Any], rows: Sequence[Sequence[Any]]) -> str:
    """Left-aligned columns, the header ruled off."""
    cells = [[str(cell) for cell in row] for row in [header, *rows]]
    widths = [max(len(row[i]) for row in cells) for i in range(len(header))]
    lines = ["  ".join(cell.ljust(width) for cell, width in zip(row, widths)).rstrip() for row in cells]
    return "\n".join([lines[0], "-" * len(lines[0]), *lines[1:]])
