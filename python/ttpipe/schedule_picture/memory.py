"""The shared-memory and TMEM allocations of a function: buffer rings, mbarrier arrays,
their bytes, and which allocation an op's buffer operand is a view of.

A ring is a `ttg.local_alloc` (or `ttng.tmem_alloc`) of `!ttg.memdesc<N x A x B ...>` that
ops reach through `ttg.memdesc_index`: N stages of `A x B ...` elements each. An mbarrier
array is an allocation of `N x 1 x i64` (one 64-bit mbarrier per stage). A value is traced
to its allocation through memdesc views (index, subslice, transpose, reshape, reinterpret),
`warp_group_dot_wait`'s forwarded operands, loop iteration arguments (to their initial
value) and the captures of `ttg.warp_specialize` partitions.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from xdsl.dialects.builtin import IntegerAttr, IntegerType, ModuleOp, StringAttr
from xdsl.ir import BlockArgument, Operation, SSAValue

from ttpipe.dialects import scf, ttg, ttng
from ttpipe.dialects.ttg_types import MemDescType
from ttpipe.ir.printer import Printer
from ttpipe.passes.common.builder import constant_int_value
from ttpipe.passes.common.hardware import SM90_MAX_SHARED_MEMORY_PER_BLOCK
from ttpipe.passes.common.shared_layouts import allocation_bytes
from ttpipe.passes.common.target import TARGET_ATTR, nvidia_compute_capability, op_location_text
from ttpipe.schedule_picture.cells import VIEWS, shape_text

SHARED_ATTR = "ttg.shared"
"""On the module, once Triton's allocate-shared-memory ran: the bytes of shared memory it uses."""

SHARED_MEMORY_LIMITS = {90: SM90_MAX_SHARED_MEMORY_PER_BLOCK, 100: SM90_MAX_SHARED_MEMORY_PER_BLOCK}
"""Shared memory one CTA may use, by compute capability: 227 KB on sm_90 and on sm_100 alike
(CUDA C++ Programming Guide, "Technical Specifications per Compute Capability", 9.0 and 10.0)."""

ALLOCS = (ttg.LocalAllocOp, ttng.TMEMAllocOp)


@dataclass(frozen=True)
class Allocation:
    """One allocation: a buffer (a ring when `depth` > 1) or an mbarrier array."""

    name: str
    location: str
    memory: str
    """'shared' or 'TMEM'."""
    type: MemDescType
    depth: int
    barrier: bool

    @property
    def bytes(self) -> int:
        return allocation_bytes(self.type)

    @property
    def stage_bytes(self) -> int:
        return self.bytes // self.depth

    @property
    def stage_text(self) -> str:
        """The tile of one stage, e.g. `128x64xf16`."""
        shape = self.type.get_shape()[1:] if self.depth > 1 else self.type.get_shape()
        return shape_text(shape, self.type.element_type)


@dataclass(frozen=True)
class Place:
    """Where a buffer operand points: an allocation, and the stage when it is a constant."""

    allocation: Allocation
    index: int | None

    @property
    def name(self) -> str:
        if not self.allocation.barrier or self.allocation.depth == 1:
            return self.allocation.name
        return f"{self.allocation.name}[{'i' if self.index is None else self.index}]"


class Memory:
    """The allocations of one function, by the names `ttpipe-opt` prints for them, and the
    tracing of values to them."""

    def __init__(self, function: Operation, names: Mapping[SSAValue, str]):
        indexed = {traced[0] for op in function.walk() if isinstance(op, ttg.MemDescIndexOp)
                   and (traced := _trace(op.src)) is not None}
        self.allocations: dict[Operation, Allocation] = {}
        for op in function.walk():
            if isinstance(op, ALLOCS):
                type_ = op.result.type
                depth = type_.get_shape()[0] if op in indexed and len(type_.get_shape()) > 1 else 1
                memory = "TMEM" if isinstance(op, ttng.TMEMAllocOp) else "shared"
                self.allocations[op] = Allocation(names[op.result], op_location_text(op), memory, type_, depth,
                                                  _is_barrier(type_))

    def place(self, value: SSAValue) -> Place | None:
        """The allocation `value` is a view of, or None when it is not traced to one."""
        traced = _trace(value)
        return None if traced is None else Place(self.allocations[traced[0]], traced[1])

    def shared_bytes(self) -> int:
        return sum(a.bytes for a in self.allocations.values() if a.memory == "shared")


def _trace(value: SSAValue) -> tuple[Operation, int | None] | None:
    """The allocating op `value` is a view of, with the stage of it that the `memdesc_index`
    on the allocation picks (None when that index is not a constant)."""
    index: int | None = None
    seen: set[SSAValue] = set()
    while value not in seen:
        seen.add(value)
        owner = value.owner
        if isinstance(owner, ALLOCS):
            return owner, index
        if isinstance(owner, VIEWS):
            if isinstance(owner, ttg.MemDescIndexOp):
                index = constant_int_value(owner.index)
            value = owner.src
        elif isinstance(owner, ttng.WarpGroupDotWaitOp):
            value = owner.inputs[value.index]
        elif isinstance(value, BlockArgument) and (outer := _outer_value(value)) is not None:
            value = outer
        else:
            return None
    return None


def value_names(module: ModuleOp) -> dict[SSAValue, str]:
    """The SSA name `ttpipe-opt` prints for each value of `module` (`%a`, `%12`)."""
    printer = Printer()
    printer.print_module(module)
    return printer.names


def _is_barrier(type_: MemDescType) -> bool:
    shape = type_.get_shape()
    element = type_.element_type
    return isinstance(element, IntegerType) and element.width.data == 64 and shape[-1] == 1


def _outer_value(arg: BlockArgument) -> SSAValue | None:
    """The value a loop's iteration argument starts as, or a partition's capture."""
    parent = arg.block.parent_op()
    if isinstance(parent, scf.ForOp) and arg.index > 0:
        return parent.initArgs[arg.index - 1]
    if isinstance(parent, ttg.WarpSpecializePartitionsOp):
        return parent.parent_op().explicitCaptures[arg.index]
    return None


@dataclass(frozen=True)
class SharedMemory:
    """The function's shared memory against the target's limit."""

    total: int
    source: str
    """How `total` was found: the module's `ttg.shared`, or the sum of the local_allocs."""
    limit: int | None
    target: str


def shared_memory(module: ModuleOp, memory: Memory) -> SharedMemory:
    attr = module.attributes.get(SHARED_ATTR)
    if isinstance(attr, IntegerAttr):
        total, source = attr.value.data, f"the module's {SHARED_ATTR}"
    else:
        total, source = memory.shared_bytes(), "the sum of the function's local_allocs"
    target = module.attributes.get(TARGET_ATTR)
    if not isinstance(target, StringAttr):
        return SharedMemory(total, source, None, "no ttg.target")
    return SharedMemory(total, source, SHARED_MEMORY_LIMITS.get(nvidia_compute_capability(module)), target.data)
