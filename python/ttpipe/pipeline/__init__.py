"""Pass registry, pipeline strings and the pipeline driver.

`register_pass` adds a pass (an xDSL ModulePass class, or a PassInfo), as the entry points
of the group `ttpipe.passes` of installed packages do; see `registry`.
"""

from ttpipe.pipeline.registry import PipelineError, all_passes, register_pass, register_runner, scoped

__all__ = ["PipelineError", "all_passes", "register_pass", "register_runner", "scoped"]
