"""How installed packages add passes and schedulers to ttpipe: entry points.

A package declares, in its pyproject.toml, one entry per pass or scheduler, named as the
user types it and pointing at the object:

    [project.entry-points."ttpipe.passes"]
    example-count-dots = "ttpipe_example_pass.count_dots:CountDots"   # an xDSL ModulePass

    [project.entry-points."ttpipe.schedulers"]
    example-loads-last = "ttpipe_example_pass.schedulers:loads_last"  # (loop, context) -> schedule

ttpipe declares its own passes the same way. Reading the declarations imports nothing;
`Declared.load` imports the one object, when its pass or scheduler is first used.
"""

from __future__ import annotations

import importlib.metadata
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

PASSES = "ttpipe.passes"
SCHEDULERS = "ttpipe.schedulers"


class EntryPointError(Exception):
    """A declared entry point that cannot be used; the message is one line naming it."""


@dataclass(frozen=True)
class Declared:
    """One entry point of `group`: `name = value` in the package `package`."""

    group: str
    name: str
    value: str
    package: str

    def describe(self) -> str:
        return f"entry point '{self.name} = {self.value}' of package '{self.package}' ({self.group})"

    def load(self) -> Any:
        """The object the entry point names; EntryPointError if it cannot be imported."""
        try:
            return importlib.metadata.EntryPoint(self.name, self.value, self.group).load()
        except Exception as exc:  # anything the package's import raises is the package's error
            raise EntryPointError(f"{self.describe()} cannot be loaded: {type(exc).__name__}: {exc}") from exc

    def error(self, problem: str) -> EntryPointError:
        return EntryPointError(f"{self.describe()}: {problem}")


@dataclass(frozen=True)
class Conflict:
    """A name that several packages declare: an error wherever it is used."""

    declared: tuple[Declared, ...]

    def describe(self) -> str:
        return "; ".join(entry.describe() for entry in self.declared)


def by_name(entries: Iterable[Declared]) -> dict[str, Declared | Conflict]:
    """The entries by name, a name declared more than once as a `Conflict` of them all."""
    found: dict[str, Declared | Conflict] = {}
    for entry in entries:
        earlier = found.get(entry.name)
        if earlier is None:
            found[entry.name] = entry
        else:
            found[entry.name] = Conflict((*(earlier.declared if isinstance(earlier, Conflict) else (earlier, )),
                                          entry))
    return found


def declared(group: str) -> list[Declared]:
    """Every entry point of `group` in the installed packages (one per package and name)."""
    return [Declared(group, entry.name, entry.value, entry.dist.name if entry.dist is not None else "?")
            for entry in importlib.metadata.entry_points(group=group)]
