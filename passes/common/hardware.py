"""NVIDIA hardware rules the passes share, as named constants and predicates.

Each name says what the hardware (or PTX) calls the thing; each docstring says where the
number comes from. Rules that depend on the compute capability take it as an argument.
"""

from __future__ import annotations

TMA_DESCRIPTOR_BYTES = 128
"""A TMA descriptor (`CUtensorMap`) is 128 bytes (CUDA driver API, `CU_TENSOR_MAP_NUM_QWORDS * 8`)."""

TMA_DESCRIPTOR_ALIGN = 64
"""A `CUtensorMap` must be 64-byte aligned in memory (`cuTensorMapEncodeTiled`)."""
