"""Unregistered ops across the hand-off to Triton.

Triton's Python bindings give no way to let its MLIR context accept unregistered ops
(`--allow-unregistered-dialect`), which lit tests use as placeholders (`"use"(%x)`). So
each crosses the hand-off as a call, and comes back:

    "use"(%x) {loop.stage = 0 : i32} : (tensor<...>) -> ()
    ->  tt.call @__ttpipe_unregistered_0(%x) {loop.stage = 0 : i32, ttpipe.unregistered = "use"}
        : (tensor<...>) -> ()

with a private declaration `tt.func private @__ttpipe_unregistered_0(tensor<...>)` per
signature. Triton treats a call, like an unregistered op, as having unknown memory effects,
so no pass removes or reorders it where it would not the original op. Ops with regions,
successors or properties stay as they are (Triton then rejects them as before).
"""

from __future__ import annotations

from xdsl.dialects.builtin import FunctionType, ModuleOp, StringAttr, SymbolRefAttr, UnregisteredOp
from xdsl.ir import Attribute, Region
from xdsl.rewriter import Rewriter

from ttpipe.dialects.tt import CallOp, FuncOp
from ttpipe.textio.registry import default_registry

STUB_PREFIX = "__ttpipe_unregistered_"
NAME_ATTR = "ttpipe.unregistered"
"""On the call: the unregistered op's name."""


def encoded(module: ModuleOp) -> ModuleOp | None:
    """A copy of `module` with its unregistered ops replaced by calls to stub declarations,
    or None when it has none to replace."""
    if not any(_encodable(op) for op in module.walk()):
        return None
    module = module.clone()
    ops = [op for op in module.walk() if _encodable(op)]
    stubs: dict[tuple[tuple[Attribute, ...], tuple[Attribute, ...]], str] = {}
    for op in ops:
        inputs = tuple(v.type for v in op.operands)
        outputs = tuple(r.type for r in op.results)
        callee = stubs.setdefault((inputs, outputs), f"{STUB_PREFIX}{len(stubs)}")
        attributes = dict(op.attributes)
        attributes.pop("op_name__", None)
        attributes[NAME_ATTR] = StringAttr(op.op_name.data)
        call = CallOp.create(operands=list(op.operands), result_types=list(outputs),
                             properties={"callee": SymbolRefAttr(callee)}, attributes=attributes)
        call.location = op.location
        Rewriter.replace_op(op, call)
    for (inputs, outputs), callee in stubs.items():
        stub = FuncOp.create(properties={"sym_name": StringAttr(callee),
                                         "sym_visibility": StringAttr("private"),
                                         "function_type": FunctionType.from_lists(inputs, outputs)},
                             regions=[Region()])
        module.body.block.add_op(stub)
    return module


def _encodable(op) -> bool:
    return isinstance(op, UnregisteredOp) and not op.regions and not op.successors and not op.properties


def decode(module: ModuleOp) -> None:
    """Undo `encoded` on `module`, as Triton gave it back."""
    registry = default_registry()
    for op in list(module.walk()):
        if isinstance(op, CallOp) and NAME_ATTR in op.attributes:
            attributes = dict(op.attributes)
            name = attributes.pop(NAME_ATTR).data
            new = registry.unregistered_op(name).create(
                operands=list(op.args), result_types=[r.type for r in op.results], attributes=attributes)
            new.location = op.location
            Rewriter.replace_op(op, new)
        elif isinstance(op, FuncOp) and op.sym_name.data.startswith(STUB_PREFIX):
            Rewriter.erase_op(op)
