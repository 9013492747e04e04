"""Triton 3.6's dialects (tt, ttg, ttng, nvws) and the upstream ones its IR uses, on xDSL."""

from __future__ import annotations


def register_all(registry) -> None:
    """Add every op, attribute and type class to a `ttpipe.textio.registry.Registry`."""
    from ttpipe.dialects import arith, builtin

    for module in (builtin, arith):
        registry.add_ops(getattr(module, "OPS", ()))
        registry.add_attrs(getattr(module, "ATTRS", ()))
