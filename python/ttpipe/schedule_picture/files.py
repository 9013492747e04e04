"""The pictures of a module as files: one SVG per pipelined or warp-specialized loop, named
`<function>-loop<N>.svg`, N counting a function's pictures in the order of its loops."""

from __future__ import annotations

import os
import re
from collections import Counter
from collections.abc import Mapping, Sequence

from xdsl.dialects.builtin import ModuleOp

from ttpipe.outputs import write_atomically
from ttpipe.textio import DiagnosticError
from ttpipe.schedule_picture.model import Picture, pictures
from ttpipe.schedule_picture.render import render
from ttpipe.schedule_picture.schedules import LoopKey, LoopSchedule, loop_schedules


def picture_files(drawn: Sequence[Picture]) -> dict[str, str]:
    """File name → SVG text of each picture."""
    counts: Counter[str] = Counter()
    files = {}
    for picture in drawn:
        stem = re.sub(r"[^\w.-]", "_", picture.function)
        files[f"{stem}-loop{counts[stem]}.svg"] = render(picture)
        counts[stem] += 1
    return files


def write_files(directory: str, files: Mapping[str, str]) -> list[str]:
    """Write `files` into `directory` (made if missing), all or none; their paths."""
    try:
        os.makedirs(directory, exist_ok=True)
    except OSError as exc:
        raise DiagnosticError(f"could not make the picture directory: {exc.strerror}", where=directory) from None
    paths = {os.path.join(directory, name): text.encode() for name, text in files.items()}
    write_atomically(paths, where=directory)
    return list(paths)


def write_pictures(module: ModuleOp, directory: str,
                   scheduled_loops: Mapping[LoopKey, LoopSchedule] | None = None) -> list[str]:
    """Draw every pipelined or warp-specialized loop of `module` into `directory`, one SVG
    each, and return their paths.

    `module` is the final IR. `scheduled_loops` are the schedules seen on the way
    (`ScheduleRecorder.loops`, or `loop_schedules(module_after_schedule_loops, pass_name)`);
    by default, those still stamped on `module`'s loops. Loops without one are drawn
    without a stage grid. Raises PictureError when drawsvg is missing, DiagnosticError
    when the files cannot be written.
    """
    if scheduled_loops is None:
        scheduled_loops = loop_schedules(module, "the input")
    return write_files(directory, picture_files(pictures(module, scheduled_loops)))
