"""The bridge to Triton 3.6: its MLIR context, parser and printer, its passes, and the
plug-in that compiles Triton's kernels through ttpipe pipelines (`install`, `uninstall`,
`installed`; importing this package does not import Triton)."""

from ttpipe.triton.plugin import install, installed, uninstall

__all__ = ["install", "installed", "uninstall"]
