"""Every pass `ttpipe-opt -p` knows, by the name a user types, and how each kind of pass runs.

Passes come from three places, all into one table:

* Declarations `name = "module:Class"`: ttpipe's own Python passes (`TTPIPE_PASSES`), and
  the entry points of the group `ttpipe.passes` (`ttpipe.entry_points`) of every installed
  package, one per pass, named after the pass (`my-pass = "mypkg.passes:MyPass"`).
  Reading them imports nothing; a pass's class is imported when the pass is first looked
  up (`all_passes()[name]`, a pipeline naming it, the listing).
* `register_pass(MyPass)` (or `@register_pass` on the class) from Python.
* `register_pass(info)` with a `PassInfo` of another kind: the Triton bridge
  (`ttpipe.triton`) registers Triton's C++ passes (kind 'triton') and the named pipelines
  (kind 'pipeline') when it is imported, with `register_runner("triton", ...)`, which the
  driver calls to run a batch of them.

A Python pass's options are its dataclass fields (`num_stages` is spelled `num-stages`), its
summary the first line of its docstring. A name is registered once: registering it again
is a ValueError unless `replace=True`; two packages declaring it make the name an error
when it is used. An entry point that cannot be imported, or names no `ModulePass` class
whose `name` is the entry's, is a one-line PipelineError naming the entry and its package
when the pass is looked up. `scoped()` undoes the registrations made inside it (tests).
"""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, get_type_hints

from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from ttpipe import entry_points
from ttpipe.entry_points import Conflict, Declared, EntryPointError


class PipelineError(Exception):
    """A bad pipeline string, pass name or option, or a pass that cannot be loaded: one line,
    reported against the flag that gave it."""


@dataclass(frozen=True)
class PassOption:
    name: str
    type: type
    default: Any
    help: str = ""
    check: Callable[[Any], str | None] | None = None
    """Says why a (converted) value is rejected, e.g. "must be a power of two", or None."""


@dataclass(frozen=True)
class PassInfo:
    name: str
    summary: str
    options: tuple[PassOption, ...]
    kind: str
    """'python' (an xDSL ModulePass, run by the driver), 'pipeline' (expanded where it is
    parsed), or a kind with a runner (`register_runner`): 'triton' for Triton's C++ passes."""
    create: Callable[[dict[str, Any]], Any]
    """Options given -> a ModulePass ('python'), the list of PassInvocations it stands for
    ('pipeline'), or what the kind's runner takes ('triton': a function adding the pass to
    a Triton `ir.pass_manager`)."""
    description: str = ""

    def option(self, name: str) -> PassOption | None:
        return next((o for o in self.options if o.name == name), None)


@dataclass(frozen=True)
class PassInvocation:
    """A pass with the option values given to it."""

    info: PassInfo
    options: dict[str, Any]

    def describe(self) -> str:
        if not self.options:
            return self.info.name
        return self.info.name + "{" + " ".join(f"{k}={value_text(v)}" for k, v in self.options.items()) + "}"


BatchRunner = Callable[[ModuleOp, Sequence[PassInvocation]], ModuleOp]
"""Runs consecutive passes of one kind on a module; returns the module after them."""


def value_text(value: Any) -> str:
    """An option value as a pipeline string spells it."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, tuple):
        return ",".join(str(v) for v in value)
    return str(value)


def python_pass_info(cls: type[ModulePass]) -> PassInfo:
    """A PassInfo for an xDSL ModulePass dataclass."""
    hints = get_type_hints(cls)
    options = []
    for field in dataclasses.fields(cls):
        if field.name == "name" or not field.init:
            continue
        if field.default is not dataclasses.MISSING:
            default = field.default
        elif field.default_factory is not dataclasses.MISSING:
            default = field.default_factory()
        else:
            default = None
        # `cli_type`: the type the option has on the command line, when the Python API
        # takes more (a scheduler name, or the scheduler function itself); `check`: as
        # PassOption's.
        options.append(PassOption(field.name.replace("_", "-"), field.metadata.get("cli_type", hints[field.name]),
                                  default, field.metadata.get("help", ""), field.metadata.get("check")))
    doc = (cls.__doc__ or "").strip()
    summary = doc.splitlines()[0] if doc else ""

    def create(values: dict[str, Any]):
        return cls(**{k.replace("-", "_"): v for k, v in values.items()})

    return PassInfo(cls.name, summary, tuple(options), "python", create, doc)


TTPIPE_PASSES = tuple(Declared(entry_points.PASSES, name, value, "ttpipe") for name, value in (
    ("ttpipe-accelerate-matmul", "ttpipe.passes.accelerate_matmul:AccelerateMatmul"),
    ("ttpipe-optimize-dot-operands", "ttpipe.passes.optimize_dot_operands:OptimizeDotOperands"),
    ("ttpipe-assign-latencies", "ttpipe.passes.pipeline.assign_latencies:AssignLatencies"),
    ("ttpipe-schedule-loops", "ttpipe.passes.pipeline.schedule_loops:ScheduleLoops"),
    ("ttpipe-expand-loops", "ttpipe.passes.pipeline.expand:ExpandLoops"),
    ("ttpipe-pipeline", "ttpipe.passes.pipeline.pipeline:Pipeline"),
    ("ttpipe-lower-loops", "ttpipe.passes.pipeline.lower_loops:LowerLoops"),
    ("ttpipe-pointer-loads-to-tma", "ttpipe.passes.pointer_loads_to_tma:PointerLoadsToTma"),
    ("ttpipe-l2-eviction", "ttpipe.passes.l2_eviction:L2Eviction"),
    ("ttpipe-full-tile-versions", "ttpipe.passes.full_tile_versions:FullTileVersions"),
    ("ttpipe-transposing-copies", "ttpipe.passes.transposing_copies:TransposingCopies"),
    ("ttpipe-merge-reductions", "ttpipe.passes.merge_reductions:MergeReductions"),
    ("ttpipe-row-cache", "ttpipe.passes.pipeline.row_cache:RowCache"),
    ("ttpipe-row-ring", "ttpipe.passes.warp_specialize.row_ring:RowRing"),
    ("ttpipe-reverse-rereads", "ttpipe.passes.reverse_rereads:ReverseRereads"),
    ("ttpipe-row-head-cache", "ttpipe.passes.pipeline.row_head_cache:RowHeadCache"),
    ("ttpipe-stream-loops", "ttpipe.passes.pipeline.stream_loops:StreamLoops"),
    ("ttpipe-tile-order", "ttpipe.passes.tile_order:TileOrder"),
    ("ttpipe-verify-async", "ttpipe.passes.verify_async:VerifyAsync"),
    ("ttpipe-plant-async-mutant", "ttpipe.passes.verify_async.mutants:PlantAsyncMutant"),
    ("ttpipe-warp-specialize", "ttpipe.passes.warp_specialize.warp_specialize:WarpSpecialize"),
    ("ttpipe-ws-keep-nest", "ttpipe.passes.warp_specialize.keep_nest:KeepNest"),
    ("ttpipe-ws-partition", "ttpipe.passes.warp_specialize.partition:PartitionLoops"),
    ("ttpipe-ws-partition-loops", "ttpipe.passes.warp_specialize.partition_loops:PartitionLoopsToWarpSpecialize"),
    ("ttpipe-ws-registers", "ttpipe.passes.warp_specialize.registers:AssignPartitionRegisters"),
))
"""ttpipe's Python passes, declared as a package's entry points are (ttpipe's own list, so
that they do not depend on the metadata of ttpipe's installation)."""


_Entry = PassInfo | Declared | Conflict


class PassTable(Mapping[str, PassInfo]):
    """The registered passes by name. Looking one up loads it (an entry point's class is
    imported then); `name in table` and iterating over the names load nothing."""

    def __init__(self, entries: dict[str, _Entry]) -> None:
        self._entries = entries

    def __getitem__(self, name: str) -> PassInfo:
        entry = self._entries[name]
        if isinstance(entry, PassInfo):
            return entry
        if isinstance(entry, Conflict):
            raise PipelineError(f"pass '{name}' is declared more than once: {entry.describe()}")
        if entry not in _LOADED:
            _LOADED[entry] = _load(entry)
        return _LOADED[entry]

    def __contains__(self, name: object) -> bool:
        return name in self._entries

    def __iter__(self) -> Iterator[str]:
        return iter(self._entries)

    def __len__(self) -> int:
        return len(self._entries)


_ENTRIES: dict[str, _Entry] = {}
_RUNNERS: dict[str, BatchRunner] = {}
_LOADED: dict[Declared, PassInfo] = {}
"""PassInfos of the entry points loaded so far (the table keeps the declarations)."""
_TABLE = PassTable(_ENTRIES)
_scanned = False
"""Whether `_ENTRIES` holds the entry points yet (read on first use)."""


def _load(entry: Declared) -> PassInfo:
    try:
        cls = entry.load()
    except EntryPointError as exc:
        raise PipelineError(str(exc)) from exc
    if not (isinstance(cls, type) and issubclass(cls, ModulePass)):
        raise PipelineError(str(entry.error(f"{entry.value} is not an xDSL ModulePass class")))
    if getattr(cls, "name", None) != entry.name:
        raise PipelineError(str(entry.error(f"the pass {entry.value} is named '{getattr(cls, 'name', None)}'; "
                                            f"the entry point must have the pass's name")))
    return python_pass_info(cls)


def _entries() -> dict[str, _Entry]:
    global _scanned
    if not _scanned:
        _scanned = True
        _ENTRIES.update(entry_points.by_name((*TTPIPE_PASSES, *entry_points.declared(entry_points.PASSES))))
    return _ENTRIES


def all_passes() -> PassTable:
    """Every registered pass, by name."""
    _entries()
    return _TABLE


def _origin(entry: _Entry) -> str:
    if isinstance(entry, Declared):
        return entry.describe()
    if isinstance(entry, Conflict):
        return "entry points of several packages"
    return f"a {entry.kind} pass"


def register_pass(pass_: type[ModulePass] | PassInfo | None = None, /, *, replace: bool = False):
    """Make a pass usable by name: in pipeline strings, `ttpipe-opt` and the plug-in.

        @register_pass
        @dataclass(frozen=True)
        class CountDots(ModulePass):
            name = "example-count-dots"
            ...

    `pass_` is an xDSL ModulePass class, registered under its `name`, or a PassInfo (a pass
    of another kind, or a named pipeline). A name already registered (by ttpipe, by an
    installed package's entry point, or earlier) is a ValueError unless `replace=True`.
    Returns `pass_`, so that it decorates a class; `@register_pass(replace=True)` works too.
    """
    if pass_ is None:
        return lambda cls: register_pass(cls, replace=replace)
    if isinstance(pass_, PassInfo):
        info = pass_
        if info.kind not in ("python", "pipeline") and info.kind not in _RUNNERS:
            raise ValueError(f"register_pass: pass '{info.name}' is of kind '{info.kind}', which nothing runs; "
                             f"register_runner('{info.kind}', ...) first")
    elif isinstance(pass_, type) and issubclass(pass_, ModulePass) and isinstance(getattr(pass_, "name", None), str):
        info = python_pass_info(pass_)
    else:
        raise TypeError(f"register_pass: {pass_!r} is neither an xDSL ModulePass class with a `name` nor a PassInfo")
    entries = _entries()
    if info.name in entries and not replace:
        raise ValueError(f"register_pass: pass '{info.name}' is already registered ({_origin(entries[info.name])}); "
                         f"replace=True replaces it")
    entries[info.name] = info
    return pass_


def unregister_pass(name: str) -> None:
    """Forget the pass `name` (KeyError if there is none), e.g. inside `scoped()` in a test."""
    del _entries()[name]


def register_runner(kind: str, runner: BatchRunner, *, replace: bool = False) -> None:
    """Make the driver run passes of `kind` through `runner`: consecutive passes of that kind
    form one batch, and `runner(module, batch)` returns the module after them."""
    if kind in ("python", "pipeline"):
        raise ValueError(f"register_runner: passes of kind '{kind}' are run by the driver itself")
    if kind in _RUNNERS and not replace:
        raise ValueError(f"register_runner: kind '{kind}' already has a runner; replace=True replaces it")
    _RUNNERS[kind] = runner


def runner(kind: str) -> BatchRunner:
    """The runner of passes of `kind` (a PipelineError if none was registered)."""
    try:
        return _RUNNERS[kind]
    except KeyError:
        raise PipelineError(f"no runner for passes of kind '{kind}' (register_runner)") from None


def snapshot() -> tuple[dict[str, _Entry], dict[str, BatchRunner]]:
    """What is registered now (passes by where they come from, and runners), to compare."""
    return dict(_entries()), dict(_RUNNERS)


@contextlib.contextmanager
def scoped() -> Iterator[None]:
    """Undo, when the block exits, every registration made in it (passes and runners)."""
    entries, runners = snapshot()
    try:
        yield
    finally:
        _ENTRIES.clear()
        _ENTRIES.update(entries)
        _RUNNERS.clear()
        _RUNNERS.update(runners)
