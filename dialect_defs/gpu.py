"""The one upstream `gpu` op Triton's TTGIR contains: `gpu.barrier` (a CTA-wide barrier,
which Triton's membar analysis and warp-specialization lowering insert)."""

from __future__ import annotations

from typing import ClassVar

from xdsl.irdl import IRDLOperation, irdl_op_definition

from ttpipe.ir.syntax import FormattedOp


@irdl_op_definition
class BarrierOp(FormattedOp, IRDLOperation):
    name = "gpu.barrier"
    SYNTAX: ClassVar = "attr-dict"


OPS = (BarrierOp,)
ATTRS = ()
