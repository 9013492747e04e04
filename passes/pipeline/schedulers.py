"""The schedulers of `ttpipe-schedule-loops`: what one is, the registry that names them, and
an example.

A scheduler is a function `(loop, LoopScheduleContext) -> CoarseSchedule | None` (the
`Scheduler` protocol). It sees the loop (already checked safe to pipeline) and the
latencies of its ops; it returns a schedule placing every op of the body at a stage and in
a cluster, or None to leave the loop alone. The pass checks the schedule (every op placed,
producers first) and writes it. Three ways to select one:

    register_scheduler("mine", my_scheduler)        # ttpipe-schedule-loops{scheduler=mine}
    ScheduleLoops(scheduler=my_scheduler)           # the function itself, from Python
    ttpipe-schedule-loops{scheduler=mypkg.mod:my_scheduler}

and an installed package can name one with an entry point of the group `ttpipe.schedulers`
(`mine = "mypkg.mod:my_scheduler"`), loaded when the name is first used. A name is
registered once (`default`, Triton's scheduler, included): registering it again is a
ValueError unless `replace=True`. Something that is not a scheduler (not callable with
`(loop, context)`, a class, a module attribute that is not a function) is refused with a
one-line error naming it. `scoped_schedulers()` undoes registrations made inside it (tests).
"""

from __future__ import annotations

import contextlib
import importlib
import inspect
from collections.abc import Iterator
from typing import TYPE_CHECKING, Protocol

from ttpipe import entry_points
from ttpipe.dialects import scf
from ttpipe.entry_points import Conflict, Declared, EntryPointError
from ttpipe.passes.pipeline.pipelining_utility import LOADS
from ttpipe.passes.pipeline.schedule import CoarseSchedule, body_ops

if TYPE_CHECKING:
    from ttpipe.passes.pipeline.schedule_loops import LoopScheduleContext


class Scheduler(Protocol):
    """Places the ops of a loop body; None (or an empty schedule) leaves the loop unpipelined."""

    def __call__(self, loop: scf.ForOp, context: LoopScheduleContext, /) -> CoarseSchedule | None: ...


SIGNATURE = "(loop, context) -> CoarseSchedule | None"

_SCHEDULERS: dict[str, Scheduler | Declared | Conflict] = {}
"""Name -> scheduler, an entry point not loaded yet, or the entry points of several packages
that declare the name (an error where it is used)."""
_LOADED: dict[Declared, Scheduler] = {}
"""The entry points loaded so far (the registry keeps the declarations)."""
_scanned = False


def not_a_scheduler(candidate: object) -> str | None:
    """Why `candidate` is not a Scheduler ("is a class", "takes (a, b, c)"), or None if it is one."""
    if isinstance(candidate, type):
        return "is a class"
    if not callable(candidate):
        return f"is not callable (a {type(candidate).__name__})"
    try:
        signature = inspect.signature(candidate)
    except ValueError:  # a builtin without a signature: nothing to check
        return None
    try:
        signature.bind(None, None)
    except TypeError:
        return f"takes {signature}"
    return None


def _schedulers() -> dict[str, Scheduler | Declared | Conflict]:
    global _scanned
    if not _scanned:
        _scanned = True
        _SCHEDULERS.update(entry_points.by_name(entry_points.declared(entry_points.SCHEDULERS)))
    return _SCHEDULERS


def register_scheduler(name: str, scheduler: Scheduler, *, replace: bool = False) -> None:
    """Make `scheduler` selectable as `ttpipe-schedule-loops{scheduler=NAME}`."""
    if ":" in name or not name:
        raise ValueError(f"register_scheduler: '{name}' cannot name a scheduler (a name has no ':', which "
                         f"module.path:function uses)")
    if (why := not_a_scheduler(scheduler)) is not None:
        raise TypeError(f"register_scheduler('{name}'): {_origin(scheduler)} {why}; "
                        f"a scheduler is a function {SIGNATURE}")
    schedulers = _schedulers()
    if name in schedulers and not replace:
        raise ValueError(f"register_scheduler: scheduler '{name}' is already registered ({_origin(schedulers[name])}); "
                         f"replace=True replaces it")
    schedulers[name] = scheduler


def _origin(found: Scheduler | Declared | Conflict) -> str:
    if isinstance(found, Declared | Conflict):
        return found.describe()
    qualname = getattr(found, "__qualname__", None)
    return f"{found.__module__}.{qualname}" if qualname else repr(found)


def _lookup(name: str) -> Scheduler | str:
    """The scheduler `name` names, or why there is none (the end of "option ... <why>")."""
    found = _schedulers().get(name)
    if isinstance(found, Conflict):
        return f"names a scheduler declared more than once: {_origin(found)}"
    if isinstance(found, Declared):
        if found not in _LOADED:
            try:
                loaded = found.load()
            except EntryPointError as exc:
                return f"names a scheduler that cannot be loaded: {exc}"
            if (why := not_a_scheduler(loaded)) is not None:
                return f"names {found.describe()}, which {why} (a scheduler is a function {SIGNATURE})"
            _LOADED[found] = loaded
        return _LOADED[found]
    if found is not None:
        return found
    module_name, colon, attribute = name.partition(":")
    if not colon:
        return (f"must name a registered scheduler ({', '.join(sorted(_schedulers()))}) "
                f"or a function as module.path:function")
    try:
        module = importlib.import_module(module_name)
    except Exception as exc:  # whatever the user's module raises on import
        return f"must name an importable module ({type(exc).__name__}: {exc})"
    if not hasattr(module, attribute):
        return f"must name a function of module '{module_name}', which has no '{attribute}'"
    found = getattr(module, attribute)
    why = not_a_scheduler(found)
    if why is None and not inspect.isfunction(found):
        why = f"is a {type(found).__name__}, not a function"
    if why is not None:
        return f"must name a scheduler function {SIGNATURE} ({name} {why})"
    return found


def scheduler_named(name: str) -> Scheduler | None:
    """A registered scheduler, or `module.path:function` imported on the spot; None if
    there is no such scheduler."""
    found = _lookup(name)
    return None if isinstance(found, str) else found


def check_scheduler_name(name: str) -> str | None:
    """Why `name` names no scheduler, or None if it does (an option check)."""
    found = _lookup(name)
    return found if isinstance(found, str) else None


def resolve_scheduler(scheduler: str | Scheduler) -> Scheduler:
    """The scheduler a name or a function stands for; ValueError (a name) or TypeError (not a
    scheduler) if there is none."""
    if isinstance(scheduler, str):
        found = _lookup(scheduler)
        if isinstance(found, str):
            raise ValueError(f"scheduler '{scheduler}' {found}")
        return found
    if (why := not_a_scheduler(scheduler)) is not None:
        raise TypeError(f"the scheduler {_origin(scheduler)} {why}; a scheduler is a function {SIGNATURE}")
    return scheduler


def scheduler_snapshot() -> dict[str, Scheduler | Declared | Conflict]:
    """The names registered now and what they stand for, to compare."""
    return dict(_schedulers())


@contextlib.contextmanager
def scoped_schedulers() -> Iterator[None]:
    """Undo, when the block exits, every scheduler registration made in it."""
    saved = scheduler_snapshot()
    try:
        yield
    finally:
        _SCHEDULERS.clear()
        _SCHEDULERS.update(saved)


def loads_in_stage_0(loop: scf.ForOp, context: LoopScheduleContext, lead: int = 1) -> CoarseSchedule | None:
    """All loads with a latency in stage 0, everything else in the last stage.

    1. The stage count is the largest load latency plus `lead` (none: leave the loop), so
       each load is issued `lead` iterations or more ahead of where its latency needs it.
    2. Each such load goes to stage 0, in a cluster of loads at the back of the order (the
       next iterations' loads are issued after this iteration's compute).
    3. Triton's completion steps place the rest: the loads' producers join them, values
       carried to the next iteration come a stage later, the others go to the last stage.
    """
    loads = [op for op in body_ops(loop) if isinstance(op, LOADS) and context.latencies.get(op, 0) > 0]
    if not loads:
        return None
    schedule = CoarseSchedule(max(context.latencies[op] for op in loads) + lead)
    compute = schedule.new_at_back()
    issue = schedule.new_at_back()
    for load in loads:
        schedule.insert(load, 0, issue)
    context.complete(loop, schedule, compute)
    return schedule


def loads_first_scheduler(loop: scf.ForOp, context: LoopScheduleContext) -> CoarseSchedule | None:
    """`loads_in_stage_0` with the stages the loads' latencies ask for."""
    return loads_in_stage_0(loop, context)


register_scheduler("loads-first", loads_first_scheduler)
