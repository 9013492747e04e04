"""What the module says about the hardware: `ttg.target`, warps and CTAs; and Triton's
boolean environment knobs.

Follows Triton 3.6 `getNVIDIAComputeCapability` (`lib/Dialect/TritonGPU/Transforms/Utility.cpp`),
`lookupNumWarps` / `lookupNumCTAs` (`lib/Dialect/TritonGPU/IR/Dialect.cpp`) and `getBoolEnv`
(`include/triton/Tools/Sys/GetEnv.hpp`).
"""

from __future__ import annotations

import os

from xdsl.dialects.builtin import FileLineColLoc, IntegerAttr, ModuleOp, StringAttr
from xdsl.ir import Operation

from ttpipe.textio import DiagnosticError

TARGET_ATTR = "ttg.target"
NUM_WARPS_ATTR = "ttg.num-warps"
NUM_CTAS_ATTR = "ttg.num-ctas"
THREADS_PER_WARP_ATTR = "ttg.threads-per-warp"
CUDA_PREFIX = "cuda:"


def op_location_text(op: Operation) -> str:
    """`file:line:col` of the first file location under `op`'s location, or `<unknown>`."""
    loc = getattr(op, "location", None)
    while loc is not None and not isinstance(loc, FileLineColLoc):
        loc = getattr(loc, "location", None) or getattr(loc, "callee", None)
    if isinstance(loc, FileLineColLoc):
        return f"{loc.filename.data}:{loc.line.data}:{loc.column.data}"
    return "<unknown>"


def error_at(op: Operation, message: str) -> DiagnosticError:
    """A one-line diagnostic placed at `op`'s source location."""
    return DiagnosticError(message, where=op_location_text(op))


def nvidia_compute_capability(module: ModuleOp) -> int:
    """The NN of `ttg.target = "cuda:NN"`; a DiagnosticError at the module when it is
    missing or not a CUDA target."""
    target = module.attributes.get(TARGET_ATTR)
    if not isinstance(target, StringAttr):
        raise error_at(module, f"module has no '{TARGET_ATTR}' attribute; expected e.g. "
                               f"{TARGET_ATTR} = \"cuda:90\"")
    text = target.data
    digits = text.removeprefix(CUDA_PREFIX)
    if not text.startswith(CUDA_PREFIX) or not digits.isdigit():
        raise error_at(module, f"unsupported {TARGET_ATTR} \"{text}\"; expected \"cuda:<compute capability>\"")
    return int(digits)


def lookup_int(op: Operation, name: str) -> int | None:
    """The integer attribute `name` of the nearest op around `op` (itself included) that
    sets it, or None."""
    current: Operation | None = op
    while current is not None:
        attr = current.attributes.get(name)
        if isinstance(attr, IntegerAttr):
            return attr.value.data
        current = current.parent_op()
    return None


def num_warps(op: Operation) -> int:
    """`lookupNumWarps`: `ttg.num-warps` of the nearest enclosing op that sets it."""
    found = lookup_int(op, NUM_WARPS_ATTR)
    if found is None:
        raise error_at(op, f"no '{NUM_WARPS_ATTR}' on the module or an enclosing op")
    return found


def num_ctas(op: Operation) -> int:
    """`lookupNumCTAs`: `ttg.num-ctas` of the module (1 when absent)."""
    found = lookup_int(op, NUM_CTAS_ATTR)
    return 1 if found is None else found


def threads_per_warp(op: Operation) -> int:
    """`TritonGPUDialect::getThreadsPerWarp`: `ttg.threads-per-warp` of the module (32 when absent)."""
    found = lookup_int(op, THREADS_PER_WARP_ATTR)
    return 32 if found is None else found


def bool_env(name: str) -> bool:
    """`triton::tools::getBoolEnv`: set to 1, true or on (any case)."""
    return os.environ.get(name, "").lower() in ("1", "true", "on")
