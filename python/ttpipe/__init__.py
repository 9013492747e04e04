"""ttpipe: Python-authored MLIR passes over Triton's GPU IR (tt, ttg, ttng)."""

__version__ = "0.1.0"
