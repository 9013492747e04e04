"""The `llvm` ops Triton's TTIR/TTGIR can hold before LLVM lowering: `llvm.intr.assume`.

Triton's `tl.assume` becomes `llvm.intr.assume %cond : i1`. Operand bundles
(`["align"(%p, %a : ...)]`) are not produced by Triton and are not modelled.
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import IntegerType
from xdsl.irdl import IRDLOperation, irdl_op_definition, operand_def

from ttpipe.ir.syntax import FormattedOp


@irdl_op_definition
class AssumeOp(FormattedOp, IRDLOperation):
    name = "llvm.intr.assume"
    cond = operand_def(IntegerType(1))
    SYNTAX: ClassVar = "$cond attr-dict `:` type($cond)"


OPS = (AssumeOp,)
ATTRS = ()
