"""How the picture names one op: its name, the tile it makes, its wait counts or byte
counts, the buffers and mbarriers it touches, its kind (the colour it is drawn in) and its
source location (the tooltip)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.dialects.builtin import IntegerAttr, TensorType
from xdsl.ir import Attribute, Operation

from ttpipe.dialects import gpu, tt, ttg, ttng
from ttpipe.dialects.ttg_types import MemDescType
from ttpipe.passes.common.ir import enclosing_function
from ttpipe.passes.common.target import op_location_text
from ttpipe.passes.pipeline.lower_loops import MEMDESC_VIEWS

KINDS = ("copy", "mma", "sync", "memory", "other")
"""What an op does, in the legend's order: moves data between global memory and registers
or shared memory; multiplies on the tensor cores; waits, arrives, fences; touches shared
memory or TMEM; anything else (address and index arithmetic, layout changes)."""

COPY_OPS = (tt.LoadOp, tt.StoreOp, tt.DescriptorLoadOp, tt.DescriptorStoreOp, tt.DescriptorGatherOp,
            ttg.AsyncCopyGlobalToLocalOp, ttng.AsyncTMACopyGlobalToLocalOp, ttng.AsyncTMACopyLocalToGlobalOp,
            ttng.AsyncTMAGatherOp, ttng.AsyncTMAScatterOp, ttng.AsyncTMAReduceOp)
MMA_OPS = (tt.DotOp, tt.DotScaledOp, ttng.WarpGroupDotOp, ttng.TCGen5MMAOp, ttng.TCGen5MMAScaledOp)
SYNC_OPS = (ttg.AsyncWaitOp, ttg.AsyncCommitGroupOp, ttg.LocalBarrierOp, gpu.BarrierOp,
            ttng.WarpGroupDotWaitOp, ttng.TMAStoreWaitOp, ttng.WaitBarrierOp, ttng.ArriveBarrierOp,
            ttng.BarrierExpectOp, ttng.AsyncCopyMbarrierArriveOp, ttng.TCGen5CommitOp, ttng.FenceAsyncSharedOp,
            ttng.InitBarrierOp, ttng.InvalBarrierOp)

VIEWS = (*MEMDESC_VIEWS, ttng.TMEMSubSliceOp)
"""Ops that make a view of a buffer without touching its memory."""

COUNTS = {"num": "num={}", "pendings": "pendings={}", "size": "{} B"}
"""Properties worth a look, and how the cell spells them (cp.async and wgmma wait counts,
expect-tx bytes)."""


@dataclass(frozen=True)
class OpCell:
    """An op as the picture shows it."""

    name: str
    text: str
    location: str
    kind: str


def describe(op: Operation, operands: str = "") -> OpCell:
    """`op`'s cell: name, `operands` (the buffers and mbarriers it touches, named by the
    caller), the tile its first result holds and its counts."""
    parts = [op.name]
    if operands:
        parts.append(operands)
    if op.results and isinstance(op.results[0].type, (TensorType, MemDescType)):
        parts.append(tile_text(op.results[0].type))
    for prop, spelling in COUNTS.items():
        value = op.properties.get(prop)
        if isinstance(value, IntegerAttr):
            parts.append(spelling.format(value.value.data))
    return OpCell(op.name, " ".join(parts), op_location_text(op), kind_of(op))


def kind_of(op: Operation) -> str:
    if isinstance(op, COPY_OPS):
        return "copy"
    if isinstance(op, MMA_OPS):
        return "mma"
    if isinstance(op, SYNC_OPS):
        return "sync"
    if not isinstance(op, VIEWS) and any(isinstance(v.type, MemDescType) for v in (*op.operands, *op.results)):
        return "memory"
    return "other"


def tile_text(type_: TensorType | MemDescType) -> str:
    """`128x64xbf16`: a tensor's or buffer's shape and element type."""
    return shape_text(type_.get_shape(), type_.element_type)


def shape_text(shape: Sequence[int], element: Attribute) -> str:
    return "".join(f"{dim}x" for dim in shape) + element_text(element)


def element_text(type_: Attribute) -> str:
    if isinstance(type_, tt.PointerType):
        return f"ptr<{element_text(type_.pointeeType)}>"
    return str(type_)


def function_name(op: Operation) -> str:
    """The name of the `tt.func` around `op` ('module' outside any)."""
    function = enclosing_function(op)
    return function.sym_name.data if isinstance(function, tt.FuncOp) else "module"
