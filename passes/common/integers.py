"""Integer helpers that layouts, buffers and loops share."""

from __future__ import annotations


def log2_exact(value: int) -> int:
    """`llvm::Log2_32` of a power of two; raises ValueError for anything else."""
    if value <= 0 or value & (value - 1):
        raise ValueError(f"expected a power of two, got {value}")
    return value.bit_length() - 1


def scf_for_trips(lower: int, upper: int, step: int) -> int:
    """The iterations of a signed `scf.for` from `lower` to `upper` by `step` > 0: none
    where the upper bound is not above the lower."""
    return max(0, -(-(upper - lower) // step))
