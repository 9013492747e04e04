"""Integer helpers that layouts and buffers share."""

from __future__ import annotations


def log2_exact(value: int) -> int:
    """`llvm::Log2_32` of a power of two; raises ValueError for anything else."""
    if value <= 0 or value & (value - 1):
        raise ValueError(f"expected a power of two, got {value}")
    return value.bit_length() - 1
