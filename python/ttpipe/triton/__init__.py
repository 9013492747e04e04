"""The bridge to Triton 3.6: its MLIR context, parser and printer, its passes, and the
plug-in that compiles Triton's kernels through ttpipe pipelines (`install`, `uninstall`,
`installed`).

Importing this package registers, with the driver's registry, Triton's C++ passes (kind
'triton'), the runner that hands a batch of them to Triton (`handoff.run_triton_passes`),
and the named pipelines `ttgir-sm80/90/100`; the command-line tools and the plug-in import
it. It does not import Triton: the passes' bindings are looked up when a pass runs.
"""

from ttpipe.pipeline.registry import register_pass, register_runner
from ttpipe.triton.handoff import run_triton_passes
from ttpipe.triton.passes import triton_passes
from ttpipe.triton.pipelines import named_pipelines
from ttpipe.triton.plugin import install, installed, uninstall

__all__ = ["install", "installed", "uninstall"]

register_runner("triton", run_triton_passes)
for _info in (*triton_passes(), *named_pipelines()):
    register_pass(_info)
