"""`example-count-dots`: how many matrix multiplies each kernel has, at any stage.

1. For each `tt.func`, count the MMA ops in it, at any depth: `tt.dot` and `tt.dot_scaled`
   (TTIR), `ttng.warp_group_dot` (wgmma) and `ttng.tc_gen5_mma[_scaled]` (tcgen05) once
   `accelerate-matmul` has picked an instruction.
2. Write the count on the function as `example.dots = N : i32`; with `remark=true`, also
   emit a remark `N dot(s), M on the tensor cores` at the function.

Reads nothing else; writes `example.dots`. Triton keeps the attribute through its later
stages, so it is still in the TTGIR that the plug-in hands back.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import IntegerAttr, ModuleOp, i32
from xdsl.passes import ModulePass

from ttpipe.dialects import tt, ttng
from ttpipe.passes.common.diagnostics import emit_remark

DOTS = "example.dots"
TENSOR_CORE_MMAS = (ttng.WarpGroupDotOp, ttng.TCGen5MMAOp, ttng.TCGen5MMAScaledOp)
"""The MMAs that `accelerate-matmul` puts on wgmma or tcgen05."""


@dataclass(frozen=True)
class CountDots(ModulePass):
    """Count the MMA ops of each tt.func into `example.dots`."""

    name: ClassVar[str] = "example-count-dots"

    remark: bool = field(default=False, metadata={"help": "also report each count as a remark at its function"})

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for func in op.walk():
            if not isinstance(func, tt.FuncOp):
                continue
            mmas = [o for o in func.walk() if isinstance(o, (tt.DotOp, tt.DotScaledOp, *TENSOR_CORE_MMAS))]
            func.attributes[DOTS] = IntegerAttr(len(mmas), i32)
            if self.remark:
                on_tensor_cores = sum(isinstance(o, TENSOR_CORE_MMAS) for o in mmas)
                emit_remark(func, f"{len(mmas)} dot(s), {on_tensor_cores} on the tensor cores")
