"""Triton 3.6's dialects (tt, ttg, ttng, nvws) and the upstream ones its IR uses, on xDSL."""

from __future__ import annotations

import importlib

DIALECT_MODULES = (
    "builtin", "arith", "math", "scf", "cf", "ub", "gpu", "llvm",
    "tt", "ttg_attrs", "ttg_types", "ttg", "ttng", "nvws",
)


def register_all(registry) -> None:
    """Add every op, attribute and type class to a `ttpipe.textio.registry.Registry`."""
    for name in DIALECT_MODULES:
        module = importlib.import_module(f"ttpipe.dialects.{name}")
        registry.add_ops(module.OPS)
        registry.add_attrs(module.ATTRS)
