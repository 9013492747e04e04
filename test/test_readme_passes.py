"""The README's pass table names every pass ttpipe registers (`ttpipe-*`), each as
`` `name` `` or `` `name{options}` `` in one of its rows (a pass of its own, or a phase in
its pass's row): a pass added without a line there fails here."""

from __future__ import annotations

import re
from pathlib import Path

import ttpipe.triton  # noqa: F401  registers the passes the Triton bridge adds
from ttpipe.pipeline.registry import all_passes

README = Path(__file__).resolve().parents[1] / "README.md"


def _pass_table() -> str:
    """The rows of the table under `## Passes`."""
    text = README.read_text()
    start = text.index("\n## Passes\n")
    section = text[start:text.index("\n## ", start + 1)]
    return "\n".join(line for line in section.splitlines() if line.startswith("| `"))


def test_every_ttpipe_pass_is_in_the_readme_pass_table():
    named = set(re.findall(r"`(ttpipe-[a-z0-9-]+)[`{]", _pass_table()))
    registered = {name for name in all_passes() if name.startswith("ttpipe-")}
    assert registered, "no ttpipe pass registered"
    assert not registered - named, f"passes the README's pass table does not name: {sorted(registered - named)}"
