"""The schedule picture: one SVG per pipelined or warp-specialized loop, readable in a browser.

Each picture shows the loop body's ops as a grid of stage × cluster (the schedule a pass
stamped, `loop.stage`/`loop.cluster`, captured before the pipeliner expanded the loop),
the lanes that run the final loop (one per `ttg.warp_specialize` region, with its warps and
register budget, or one for all the warps) with their ops in order, each buffer ring with
its depth and bytes, each mbarrier array, the async edges (which mbarrier or wait guards
which buffer, arrows from the lane that arrives to the lane that waits) and the shared
memory against the target's limit. Every op's source location is in its tooltip.

    ttpipe-opt FILE -p ttgir-sm90 --schedule-picture=DIR

From Python, with the driver (and `ttpipe.triton` imported, for the named pipelines):

    recorder = ScheduleRecorder()
    module = driver.run(module, spec.parse("ttgir-sm90"), after=recorder.after,
                        watched=ScheduleRecorder.watches)
    write_pictures(module, "pictures", scheduled_loops=recorder.loops)

`watched` gives Triton's pipeliner a batch of its own, so that the schedule is seen after
`tritongpu-schedule-loops` even when the pipeliner would follow it in the same batch.
Drawing needs drawsvg, the optional extra `ttpipe[picture]`.
"""

from ttpipe.schedule_picture.files import picture_files, write_files, write_pictures
from ttpipe.schedule_picture.model import Picture, pictures
from ttpipe.schedule_picture.render import INSTALL_HINT, PictureError, require_drawsvg
from ttpipe.schedule_picture.schedules import LoopSchedule, ScheduleRecorder, loop_schedules

__all__ = ["INSTALL_HINT", "LoopSchedule", "Picture", "PictureError", "ScheduleRecorder", "loop_schedules",
           "picture_files", "pictures", "require_drawsvg", "write_files", "write_pictures"]
