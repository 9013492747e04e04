"""Triton 3.6's dialects (tt, ttg, ttng, nvws) and the upstream ones its IR uses, on xDSL."""

from __future__ import annotations

from ttpipe.dialects import arith, builtin, cf, gpu, llvm, math, nvws, scf, tt, ttg, ttg_attrs, ttg_types, ttng, ub

DIALECT_MODULES = (builtin, arith, math, scf, cf, ub, gpu, llvm, tt, ttg_attrs, ttg_types, ttg, ttng, nvws)
"""Each module lists its op classes in `OPS` and its attribute and type classes in `ATTRS`."""


def register_all(registry) -> None:
    """Add every op, attribute and type class to a `ttpipe.textio.registry.Registry`."""
    for module in DIALECT_MODULES:
        registry.add_ops(module.OPS)
        registry.add_attrs(module.ATTRS)
