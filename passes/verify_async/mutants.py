"""`ttpipe-plant-async-mutant`: plant one protocol bug in a module, for measuring what a
checker (`ttpipe-verify-async`) or the GPU makes of it (`ttpipe.async_mutants`,
`ttpipe.bench.mutants`).

Operators, each applicable at every op of its kinds (its *sites*, counted in walk order):

- `drop-arrive`: an `arrive_barrier`, `tc_gen5_commit` or `async_copy_mbarrier_arrive` erased;
- `shift-phase`: a `wait_barrier` waits the other parity (`phase xor 1`);
- `expect-half`, `expect-double`: a `barrier_expect` announces half or twice its bytes;
- `loosen-wait`: a `warp_group_dot_wait`, `async_wait` or `async_tma_store_wait` leaves one
  more group in flight;
- `early-reuse`: an async copy into a ring slot writes the next slot (`(i + 1) mod depth`),
  a stage its consumer has not released;
- `hoist-read`: a `wait_barrier` moved below the first op after it that reads shared or
  tensor memory, so that read no longer waits;
- `drop-fence`: a `fence_async_shared` erased (a thread's loads or stores of shared memory no
  longer ordered before the async proxy's accesses that follow).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import IntegerAttr, ModuleOp, i32
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from ttpipe.dialects import arith, ttg, ttng
from ttpipe.passes.common.target import error_at, op_location_text

Mutation = Callable[[Operation], bool]
"""Plants a bug at one op of a cloned module; False where the op does not fit after all."""


def _constant(op: Operation, value: int) -> SSAValue:
    constant = arith.ConstantOp(IntegerAttr(value, i32))
    Rewriter.insert_op(constant, InsertPoint.before(op))
    return constant.result


def _erase(op: Operation) -> bool:
    Rewriter.erase_op(op)
    return True


def _shift_phase(op: ttng.WaitBarrierOp) -> bool:
    flipped = arith.XOrIOp(op.phase, _constant(op, 1))
    Rewriter.insert_op(flipped, InsertPoint.before(op))
    op.operands[1] = flipped.result
    return True


def _expect_scaled(factor: float) -> Mutation:
    def mutate(op: ttng.BarrierExpectOp) -> bool:
        op.size = IntegerAttr(int(op.size.value.data * factor), i32)
        return True
    return mutate


def _loosen_wait(op: Operation) -> bool:
    attribute = "num" if isinstance(op, ttg.AsyncWaitOp) else "pendings"
    count = op.properties[attribute]
    op.properties[attribute] = IntegerAttr(count.value.data + 1, count.type)
    return True


def _early_reuse(op: Operation) -> bool:
    """The copy's destination `memdesc_index %ring[%i]` becomes `%ring[(%i + 1) mod depth]`."""
    destination = op.result
    index_op = destination.owner
    if not isinstance(index_op, ttg.MemDescIndexOp):
        return False
    depth = index_op.src.type.shape[0]
    if depth < 2:
        return False
    index = index_op.index
    following = arith.AddIOp(index, _constant(op, 1))
    Rewriter.insert_op(following, InsertPoint.before(op))
    wrapped = arith.RemSIOp(following.result, _constant(op, depth))
    Rewriter.insert_op(wrapped, InsertPoint.before(op))
    moved = ttg.MemDescIndexOp(index_op.src, wrapped.result, result_type=index_op.result.type)
    Rewriter.insert_op(moved, InsertPoint.before(op))
    op.operands[list(op.operands).index(destination)] = moved.result
    return True


READS = (ttg.LocalLoadOp, ttng.WarpGroupDotOp, ttng.TMEMLoadOp, ttng.TCGen5MMAOp, ttng.TCGen5MMAScaledOp)


def _hoist_read(op: ttng.WaitBarrierOp) -> bool:
    reader = op.next_op
    while reader is not None and not isinstance(reader, READS):
        if reader.regions or isinstance(reader, (ttng.WaitBarrierOp, ttg.AsyncWaitOp)):
            return False
        reader = reader.next_op
    if reader is None:
        return False
    op.detach()
    Rewriter.insert_op(op, InsertPoint.after(reader))
    return True


OPERATORS: dict[str, tuple[tuple[type, ...], Mutation]] = {
    "drop-arrive": ((ttng.ArriveBarrierOp, ttng.TCGen5CommitOp, ttng.AsyncCopyMbarrierArriveOp), _erase),
    "shift-phase": ((ttng.WaitBarrierOp,), _shift_phase),
    "expect-half": ((ttng.BarrierExpectOp,), _expect_scaled(0.5)),
    "expect-double": ((ttng.BarrierExpectOp,), _expect_scaled(2)),
    "loosen-wait": ((ttng.WarpGroupDotWaitOp, ttg.AsyncWaitOp, ttng.TMAStoreWaitOp), _loosen_wait),
    "early-reuse": ((ttng.AsyncTMACopyGlobalToLocalOp, ttg.AsyncCopyGlobalToLocalOp), _early_reuse),
    "hoist-read": ((ttng.WaitBarrierOp,), _hoist_read),
    "drop-fence": ((ttng.FenceAsyncSharedOp,), _erase),
}


def sites(module: ModuleOp, operator: str) -> list[Operation]:
    """The ops `operator` may mutate, in walk order (a site is its position here)."""
    kinds = OPERATORS[operator][0]
    return [op for op in module.walk() if isinstance(op, kinds)]


def plant(module: ModuleOp, operator: str, site: int) -> str | None:
    """Plant `operator`'s bug at site number `site` of `module`, in place: its location, or
    None where the op does not fit."""
    op = sites(module, operator)[site]
    location = op_location_text(op)
    return location if OPERATORS[operator][1](op) else None


def mutants(module: ModuleOp) -> Iterator[tuple[str, int, str, ModuleOp]]:
    """(operator, site number, site location, mutated clone) for every operator and site."""
    for operator in OPERATORS:
        for number in range(len(sites(module, operator))):
            clone = module.clone()
            location = plant(clone, operator, number)
            if location is not None:
                yield operator, number, location, clone


@dataclass(frozen=True)
class PlantAsyncMutant(ModulePass):
    """Plant one protocol bug (an operator of `ttpipe.async_mutants` at one site, counted in
    walk order) in the module: for measuring what a checker or the GPU makes of it."""

    name: ClassVar[str] = "ttpipe-plant-async-mutant"
    operator: str = field(default="shift-phase", metadata={"help": "one of " + ", ".join(OPERATORS)})
    site: int = field(default=0, metadata={"help": "which of the operator's sites, in walk order"})

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if self.operator not in OPERATORS:
            raise error_at(op, f"unknown mutation operator '{self.operator}'; expected one of {', '.join(OPERATORS)}")
        count = len(sites(op, self.operator))
        if not 0 <= self.site < count:
            raise error_at(op, f"no site {self.site} for '{self.operator}': the module has {count}")
        if plant(op, self.operator, self.site) is None:
            raise error_at(op, f"site {self.site} of '{self.operator}' does not fit the mutation")
