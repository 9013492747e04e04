"""The ops of a kernel run on the abstract CTA: exact integer scalars, abstract tensors.

Every integer scalar the kernel computes (ring indices, phases, trip counts, predicates) is
computed exactly, so loop-carried phases and indices are followed iteration by iteration;
what the IR does not fix comes from the run's `Instance` (the data the kernel reads, one
value for every read: `gives_data`); a division by zero ends the run (`Undefined`). Tensors
are opaque, except the result of an asynchronous `warp_group_dot`, which stays *pending*
until a wait retires its group. Memory descriptors are `View`s. The effect of each op:

- `local_alloc`/`tmem_alloc` make an allocation (a write when given a value);
  `local_dealloc` and the end of the kernel write all of it (nothing may still use it).
- `local_load`, `local_store`, `tmem_load`, `tmem_store`: synchronous read or write.
- `init_barrier`, `inval_barrier`, `barrier_expect` (expect-tx and one arrival),
  `arrive_barrier`, `wait_barrier` (blocks until its parity's phase completes): the
  mbarrier model of machine.py, each honouring its predicate.
- `async_tma_copy_global_to_local`/`async_tma_gather`: a write in flight until its bytes
  land on its mbarrier (an event). `async_tma_copy_local_to_global`/`_reduce`/`_scatter`:
  a read in flight until `async_tma_store_wait` retires its bulk group.
- `async_copy_global_to_local`: a write in flight until `async_commit_group` closes its group
  and `async_wait` retires it; `async_copy_mbarrier_arrive` arrives once they are done.
- `warp_group_dot` (async): reads its shared operands until `warp_group_dot_wait` retires
  its group; its result may only be read after that (seed 001), except as the accumulator
  of the next wgmma. Synchronous dots complete at once.
- `tc_gen5_mma(_scaled)`, `tmem_copy`: tcgen05 ops reading and writing until they complete,
  in issue order (events), arriving on their mbarriers; `tc_gen5_commit` arrives once all
  earlier ones are done.
- `ttg.warp_specialize` forks a thread per region from the current one and joins them;
  each run forks new threads (a warp_specialize in a loop: `CTA.spawn`).

An op that takes or makes a memory descriptor or an async token and is none of these
stops the check of its function (`Unsupported`): the checker reports only what it models.
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from dataclasses import dataclass

from xdsl.dialects.builtin import IndexType, IntegerAttr, IntegerType, TensorType
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.traits import MemoryEffectKind, get_effects

from ttpipe.dialects import scf, tt, ttg, ttng
from ttpipe.dialects.ttg_types import MemDescType
from ttpipe.ir.printer import attribute_text
from ttpipe.passes.pipeline.lower_loops import tile_bytes
from ttpipe.passes.verify_async.cta import CTA, Blocked, Thread
from ttpipe.passes.verify_async.machine import PROXY_FENCE, Access, Allocation, View, join
from ttpipe.passes.verify_async.violations import Violation


class Unsupported(Exception):
    """An op the checker does not model; its function is not checked."""

    def __init__(self, op: Operation, reason: str):
        super().__init__(reason)
        self.op = op
        self.reason = reason


class Undefined(Exception):
    """The run reached an op whose behaviour is undefined at this instance (an integer division
    by zero: LLVM's `sdiv`, `udiv`, `srem`, `urem`; an `scf.for` whose step is not positive),
    so the instance is no valid input of the kernel and the run ends there. Taking the quotient
    as unknown instead made each of its uses unknown on its own (a split-K loop running while
    the MMA before it was predicated off), and running such a loop for unknown trips gave loops
    that share its step unrelated trip counts (a ping-pong kernel's producer, over every tile,
    and its consumers, over every other one)."""


class _Unknown:
    def __repr__(self) -> str:
        return "?"


UNKNOWN = _Unknown()
"""An integer the IR does not fix."""

OPAQUE = object()
"""A tensor or other value the protocol does not depend on."""


@dataclass(frozen=True)
class PendingWgmma:
    """The result of an async wgmma of `thread`, group `group`, until retired."""

    thread: Thread
    group: int
    op: Operation


# ---------------------------------------------------------------------- integers


def bit_width(type_) -> int | None:
    if isinstance(type_, IntegerType):
        return type_.width.data
    if isinstance(type_, IndexType):
        return 64
    return None


def wrapped(value: int, bits: int) -> int:
    """`value` as a signed integer of `bits` bits (i1 as 0/1)."""
    if bits == 1:
        return value & 1
    value &= (1 << bits) - 1
    return value - (1 << bits) if value >> (bits - 1) else value


def unsigned(value: int, bits: int) -> int:
    return value & ((1 << bits) - 1)


def _div(a: int, b: int) -> int:
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


def _rem(a: int, b: int) -> int:
    return a - _div(a, b) * b


_BINARY: dict[str, Callable[[int, int, int], int]] = {
    "arith.addi": lambda a, b, n: a + b,
    "arith.subi": lambda a, b, n: a - b,
    "arith.muli": lambda a, b, n: a * b,
    "arith.divsi": lambda a, b, n: _div(a, b),
    "arith.remsi": lambda a, b, n: _rem(a, b),
    "arith.divui": lambda a, b, n: unsigned(a, n) // unsigned(b, n),
    "arith.remui": lambda a, b, n: unsigned(a, n) % unsigned(b, n),
    "arith.ceildivsi": lambda a, b, n: -((-a) // b) if b > 0 else -(a // -b) if a >= 0 else _div(a, b),
    "arith.ceildivui": lambda a, b, n: -(-unsigned(a, n) // unsigned(b, n)),
    "arith.floordivsi": lambda a, b, n: a // b,
    "arith.andi": lambda a, b, n: a & b,
    "arith.ori": lambda a, b, n: a | b,
    "arith.xori": lambda a, b, n: a ^ b,
    "arith.shli": lambda a, b, n: a << b if 0 <= b < n else 0,
    "arith.shrsi": lambda a, b, n: a >> b if 0 <= b < n else (-1 if a < 0 else 0),
    "arith.shrui": lambda a, b, n: unsigned(a, n) >> b if 0 <= b < n else 0,
    "arith.maxsi": lambda a, b, n: max(a, b),
    "arith.minsi": lambda a, b, n: min(a, b),
    "arith.maxui": lambda a, b, n: max(unsigned(a, n), unsigned(b, n)),
    "arith.minui": lambda a, b, n: min(unsigned(a, n), unsigned(b, n)),
}
_DIVIDES = {"arith.divsi", "arith.remsi", "arith.divui", "arith.remui", "arith.ceildivsi",
            "arith.ceildivui", "arith.floordivsi"}

_COMPARE: dict[int, Callable[[int, int, int], bool]] = {
    0: lambda a, b, n: a == b, 1: lambda a, b, n: a != b,
    2: lambda a, b, n: a < b, 3: lambda a, b, n: a <= b, 4: lambda a, b, n: a > b, 5: lambda a, b, n: a >= b,
    6: lambda a, b, n: unsigned(a, n) < unsigned(b, n), 7: lambda a, b, n: unsigned(a, n) <= unsigned(b, n),
    8: lambda a, b, n: unsigned(a, n) > unsigned(b, n), 9: lambda a, b, n: unsigned(a, n) >= unsigned(b, n),
}
_CASTS = {"arith.extsi", "arith.extui", "arith.trunci", "arith.index_cast", "arith.index_castui"}


# ---------------------------------------------------------------------- the interpreter


def unknown_results(op: Operation) -> list:
    """What a pure op gives that the checker does not compute: unknown integers, opaque tensors."""
    return [UNKNOWN if bit_width(r.type) is not None else OPAQUE for r in op.results]


def unmodelled(op: Operation) -> str | None:
    """Why the checker cannot run an op without a protocol effect, None where it can."""
    if op.successors:
        return f"'{op.name}' branches to another block (only structured control flow is modelled)"
    if any(isinstance(result.type, MemDescType) for result in op.results):
        return f"'{op.name}' makes a memory descriptor the checker does not model"
    if any(isinstance(operand.type, MemDescType) for operand in op.operands):
        return f"'{op.name}' takes a memory descriptor the checker does not model"
    return None


RUN_DEPENDENT = (tt.GetProgramIdOp, tt.GetNumProgramsOp)
"""Pure ops whose results the run's instance fixes."""


def gives_data(op: Operation) -> bool:
    """Whether `op` gives an integer that is data the kernel reads: it reads memory and writes
    nothing (a non-volatile load), or has no effect and takes no address (a reduction, a
    float compare). Data is the run's `Instance.data`, so every use of it (a loop bound and
    the predicate of the MMA peeled before the loop) sees one value; taken as unknown
    instead, each use was guessed apart: the peeled MMA skipped while the loop to a loaded K
    bound ran and waited for it (Triton's sm_100a GEMMs over `tl.range(0, tl.load(kptr),
    ...)`). Stay unknown: what other programs change while the kernel runs (an atomic's
    result, a volatile load's, a side-effecting inline asm's: a spin lock's compare-and-swap
    would spin for ever), and addresses (`tt.ptr_to_int`: pointer arguments are opaque, and
    a row kernel's alignment checks take both sides)."""
    if all(bit_width(result.type) is None for result in op.results):
        return False
    effects = get_effects(op)
    if effects is None or any(effect.kind is not MemoryEffectKind.READ for effect in effects):
        return False
    return bool(effects) or not any(_addresses(operand.type) for operand in op.operands)


def _addresses(type_) -> bool:
    """A pointer or a tensor of pointers."""
    return isinstance(type_ if not isinstance(type_, TensorType) else type_.element_type, tt.PointerType)


def computed_by_pure(op: Operation) -> bool:
    """Whether `Interpreter.pure` gives `op` a value of its own (a poison, the run's program
    ids, a select's chosen operand, data), not `unknown_results`."""
    return isinstance(op, RUN_DEPENDENT) or op.name in ("ub.poison", "arith.select") or gives_data(op)

TERMINATORS = (scf.YieldOp, scf.ConditionOp, tt.ReturnOp, ttg.WarpYieldOp, ttg.WarpReturnOp, ttg.MaskReturnOp)

PENDING_ALLOWED = (ttng.WarpGroupDotWaitOp, scf.YieldOp, ttg.WarpYieldOp)
"""Ops that may take a pending wgmma result without reading it (a wgmma's accumulator, and
an `arith.select` of accumulators, whose result is then what is pending, too)."""


class Interpreter:
    """Runs one thread's ops; each method that can block or touch shared state is a
    generator the CTA's scheduler steps."""

    def __init__(self, cta: CTA, thread: Thread, env: dict[SSAValue, object]):
        self.cta = cta
        self.thread = thread
        self.env = env

    # ---------------------------------------------------------------- structure

    def region(self, region: Region, args) -> Generator:
        return (yield from self.block(region.first_block, args))

    def block(self, block: Block, args) -> Generator:
        env = self.env
        for arg, value in zip(block.args, args):
            env[arg] = value
        steps = self.cta.plans.get(block)
        if steps is None:
            steps = self.cta.plans[block] = plan_block(block)
        for step in steps:
            kind = step.kind
            if kind is INTEGER:
                values = [env.get(v, UNKNOWN) for v in step.operands]
                if all(type(v) is int for v in values):
                    env[step.results[0]] = step.evaluate(values)
                else:
                    env[step.results[0]] = step.absorb(values) if step.absorb is not None else UNKNOWN
                continue
            if step.reads_tensors:
                self.check_pending(step.op, step.operands)
            if kind is TERMINATOR:
                return [env[v] for v in step.operands]
            if kind is EFFECT:
                results = yield from step.handler(self, step.op)
            elif kind is VIEW:
                results = step.handler(self, step.op)
            else:
                results = step.unknown if step.unknown is not None else self.pure(step.op)
            if results:
                for result, value in zip(step.results, results):
                    env[result] = value
        return []

    def value(self, ssa: SSAValue):
        return self.env.get(ssa, UNKNOWN)

    def integer(self, ssa: SSAValue | None, default: int = 1):
        """An integer operand (a predicate: `default` when absent)."""
        if ssa is None:
            return default
        value = self.env.get(ssa, UNKNOWN)
        return value if isinstance(value, int) else UNKNOWN

    def predicate(self, ssa: SSAValue | None) -> bool:
        value = self.integer(ssa)
        if value is UNKNOWN:
            return self.cta.instance.unknown_branch
        return bool(value)

    def view(self, ssa: SSAValue, op: Operation) -> View:
        value = self.env.get(ssa)
        if not isinstance(value, View):
            raise Unsupported(op, f"'{op.name}' takes a memory descriptor that is not a known allocation")
        return value

    def check_pending(self, op: Operation, operands: tuple[SSAValue, ...]) -> None:
        """A pending wgmma result read before a wait retires its group (seed 001)."""
        thread = self.thread
        env = self.env
        for index, ssa in enumerate(operands):
            value = env.get(ssa)
            if not isinstance(value, PendingWgmma) or value.thread is not thread:
                continue
            if isinstance(op, PENDING_ALLOWED) or (isinstance(op, ttng.WarpGroupDotOp) and ssa is op.c) \
                    or (op.name == "arith.select" and index > 0):
                continue
            if isinstance(op, (scf.ForOp, scf.IfOp, scf.WhileOp)) or value.group <= thread.retired("wgmma"):
                continue
            self.cta.violations.add(Violation(
                "wgmma-flush", op,
                f"'{op.name}' reads the result of the wgmma of group {value.group} before a "
                f"warp_group_dot_wait retires it ({value.group - thread.retired('wgmma')} group(s) still in flight "
                f"that it needs)", value.op, "the wgmma whose result it reads"))

    # ---------------------------------------------------------------- pure ops

    def pure(self, op: Operation):
        """An op without a protocol effect: an integer the IR does not fix, an opaque tensor."""
        name = op.name
        if name == "ub.poison":
            return [OPAQUE]
        if (reason := unmodelled(op)) is not None:
            raise Unsupported(op, reason)
        if isinstance(op, tt.GetProgramIdOp):
            return [self.cta.instance.program_id if op.axis.value.data == 0 else 0]
        if isinstance(op, tt.GetNumProgramsOp):
            return [self.cta.instance.num_programs if op.axis.value.data == 0 else 1]
        if name == "arith.select":
            return [self.selected(op)]
        if gives_data(op):
            return [self.data(bits) if (bits := bit_width(r.type)) is not None else OPAQUE for r in op.results]
        return unknown_results(op)

    def data(self, bits: int) -> int:
        """An integer of `bits` bits the kernel reads: the instance's data (a flag, the side of
        the instance's unknown branch)."""
        instance = self.cta.instance
        return int(instance.unknown_branch) if bits == 1 else wrapped(instance.data, bits)

    def selected(self, op: Operation):
        """A select of tensors: the chosen value, so that a pending accumulator stays pending."""
        condition, true_value, false_value = (self.value(v) for v in op.operands)
        if isinstance(condition, int):
            return true_value if condition else false_value
        return next((v for v in (true_value, false_value) if isinstance(v, PendingWgmma)), OPAQUE)


# ---------------------------------------------------------------------- effects: control flow


def _for(self: Interpreter, op: scf.ForOp):
    lower, upper, step = (self.integer(v) for v in (op.lowerBound, op.upperBound, op.step))
    args = [self.value(v) for v in op.initArgs]
    if step is not UNKNOWN and (step == 0 or (step < 0 and op.unsignedCmp is None)):
        raise Undefined(f"'scf.for' steps by {step}")
    if UNKNOWN in (lower, upper, step):
        for _ in range(self.cta.instance.unknown_trips):
            args = yield from self.block(op.body, [UNKNOWN, *args])
        return args
    bits = bit_width(op.lowerBound.type) or 64
    index = lower
    below = (lambda i: unsigned(i, bits) < unsigned(upper, bits)) if op.unsignedCmp is not None \
        else (lambda i: i < upper)
    trips = 0
    while below(index):
        args = yield from self.block(op.body, [index, *args])
        index = wrapped(index + step, bits)
        trips += 1
    self.cta.coverage.loop_ran(op, trips)
    return args


def _if(self: Interpreter, op: scf.IfOp):
    taken = op.thenRegion if self.predicate(op.condition) else op.elseRegion
    if not taken.blocks:
        return [OPAQUE for _ in op.results]
    return (yield from self.region(taken, []))


def _while(self: Interpreter, op: scf.WhileOp):
    args = [self.value(v) for v in op.inits]
    unknown_trips = self.cta.instance.unknown_trips
    while True:
        condition, *carried = yield from self.region(op.before, args)
        if condition is UNKNOWN:
            if unknown_trips == 0:
                return carried
            unknown_trips -= 1
        elif not condition:
            return carried
        args = yield from self.region(op.after, carried)


def _execute_region(self: Interpreter, op: scf.ExecuteRegionOp):
    return (yield from self.region(op.regions[0], []))


def _mask(self: Interpreter, op: ttg.MaskOp):
    if self.predicate(op.pred):
        return (yield from self.region(op.region, []))
    return [OPAQUE for _ in op.results]


def _warp_specialize(self: Interpreter, op: ttg.WarpSpecializeOp):
    """Fork a thread per region from this one; block until all end; join their clocks."""
    cta, parent = self.cta, self.thread
    captures = [self.value(v) for v in op.explicitCaptures]
    clock = parent.released()
    regions = [("default", op.defaultRegion, None), *((f"partition{i}", r, captures)
                                                     for i, r in enumerate(op.partition_regions))]
    children = []
    results: list = []
    for name, region, args in regions:
        def body(thread: Thread, region=region, args=args, default=args is None):
            interpreter = Interpreter(cta, thread, dict(self.env) if default else {})
            values = yield from interpreter.region(region, args or [])
            if default:
                results.extend(values)
        children.append(cta.spawn(f"{parent.name}/{name}" if parent.name != "cta" else name, clock, body))
    yield Blocked(op, lambda: all(child.done for child in children))
    for child in children:
        join(parent.clock, child.clock)
    return results


# ---------------------------------------------------------------------- effects: memory


def _allocation(self: Interpreter, op: Operation, type_: MemDescType, memory: str) -> View:
    """The memory of an allocation op: the same every time the op runs (Triton gives each
    allocation one offset), so a buffer allocated in a loop is reused by every iteration."""
    allocations = self.cta.allocations
    if op not in allocations:
        allocations[op] = Allocation(op, tuple(type_.alloc_shape), attribute_text(type_.element_type), memory)
    return View(allocations[op])


def _local_alloc(self: Interpreter, op: ttg.LocalAllocOp):
    view = _allocation(self, op, op.result.type, "shared")
    if op.src is not None:
        self.cta.access(self.thread, op, view, True, "local_alloc")
        yield
    return [view]


def _tmem_alloc(self: Interpreter, op: ttng.TMEMAllocOp):
    view = _allocation(self, op, op.result.type, "tensor")
    if op.src is not None:
        self.cta.access(self.thread, op, view, True, "tmem_alloc")
        yield
    return [view, OPAQUE][:len(op.results)]


def _dealloc(self: Interpreter, op: ttg.LocalDeallocOp):
    self.cta.release(self.thread, op, self.view(op.src, op).allocation, "local_dealloc")
    yield
    return []


def _index(self: Interpreter, op: ttg.MemDescIndexOp):
    view = self.view(op.src, op)
    index = self.integer(op.index)
    if view.box is not None:
        raise Unsupported(op, "'ttg.memdesc_index' of a subslice")
    if index is UNKNOWN:
        return [View(view.allocation, view.index + (None,))]
    self.cta.coverage.slot_taken(op, index)
    return [View(view.allocation, view.index + (index,))]


def _boxed(view: View, offsets, shape, slot_shape) -> View:
    box = view.box or tuple((0, n) for n in slot_shape)
    if len(offsets) != len(box):
        return view
    return View(view.allocation, view.index,
                tuple((lo + o, lo + o + n) for (lo, _), o, n in zip(box, offsets, shape)))


def _subslice(self: Interpreter, op: ttg.MemDescSubsliceOp):
    view = self.view(op.src, op)
    return [_boxed(view, op.offsets.get_values(), op.result.type.shape, op.src.type.shape)]


def _tmem_subslice(self: Interpreter, op: ttng.TMEMSubSliceOp):
    view = self.view(op.src, op)
    rows = op.src.type.shape[0]
    return [_boxed(view, (0, op.N.value.data), (rows, op.result.type.shape[-1]), op.src.type.shape)]


def _same_view(self: Interpreter, op: Operation):
    """trans, reshape, reinterpret: the same bytes under another shape."""
    return [self.view(op.operands[0], op)]


def _local_load(self: Interpreter, op: ttg.LocalLoadOp):
    self.cta.access(self.thread, op, self.view(op.src, op), False, "local_load")
    yield
    return [OPAQUE]


def _local_store(self: Interpreter, op: ttg.LocalStoreOp):
    self.cta.access(self.thread, op, self.view(op.dst, op), True, "local_store")
    yield
    return []


def _tmem_load(self: Interpreter, op: ttng.TMEMLoadOp):
    self.cta.access(self.thread, op, self.view(op.src, op), False, "tmem_load")
    yield
    return [OPAQUE for _ in op.results]


def _tmem_store(self: Interpreter, op: ttng.TMEMStoreOp):
    if self.predicate(op.pred):
        self.cta.access(self.thread, op, self.view(op.dst, op), True, "tmem_store")
        yield
    return [OPAQUE for _ in op.results]


# ---------------------------------------------------------------------- effects: mbarriers


def _init_barrier(self: Interpreter, op: ttng.InitBarrierOp):
    self.cta.init_barrier(op, self.view(op.alloc, op), op.count.value.data)
    yield
    return []


def _inval_barrier(self: Interpreter, op: ttng.InvalBarrierOp):
    self.cta.inval_barrier(op, self.view(op.alloc, op))
    yield
    return []


def _barrier_expect(self: Interpreter, op: ttng.BarrierExpectOp):
    if self.predicate(op.pred):
        self.cta.expect(self.thread, op, self.view(op.alloc, op), op.size.value.data)
        yield
    return []


def _arrive_barrier(self: Interpreter, op: ttng.ArriveBarrierOp):
    if self.predicate(op.pred):
        self.cta.arrive(self.thread, op, self.view(op.alloc, op), op.count.value.data)
        yield
    return []


def _wait_barrier(self: Interpreter, op: ttng.WaitBarrierOp):
    if not self.predicate(op.pred):
        return []
    view = self.view(op.alloc, op)
    parity = self.integer(op.phase)
    if parity is UNKNOWN:
        raise Unsupported(op, "'ttng.wait_barrier' with a phase the checker cannot compute")
    while True:
        blocked = self.cta.waiting(self.thread, op, view, parity & 1)
        if blocked is None:
            break
        yield blocked
    yield
    return []


# ---------------------------------------------------------------------- effects: async copies


def _tma_load(self: Interpreter, op: Operation):
    """`async_tma_copy_global_to_local`, `async_tma_gather`: bytes land on the mbarrier."""
    if not self.predicate(op.pred):
        return []
    cta, thread = self.cta, self.thread
    view = self.view(op.result, op)
    barrier = cta.barrier(self.view(op.barrier, op), op)
    access = Access(op, view, True, ("tma", id(op)), None, "the TMA copy", issuer=thread.name)
    cta.touch(access, thread.clock)
    if barrier is not None:
        clock = dict(thread.clock)
        size = tile_bytes(op.result.type)
        cta.issue_copy(barrier, op)
        cta.deliver(lambda: cta.land(barrier, op, access, size, clock))
    yield
    return []


def _tma_store(self: Interpreter, op: Operation):
    """`async_tma_copy_local_to_global`, `_reduce`, `_scatter`: a bulk group reading shared memory."""
    thread = self.thread
    thread.bulk_issued += 1
    access = Access(op, self.view(op.src, op), False, thread.unit("bulk"), (thread.unit("bulk"), thread.bulk_issued),
                    "the TMA store", issuer=thread.name)
    self.cta.touch(access, thread.clock)
    yield
    return []


def _tma_store_wait(self: Interpreter, op: ttng.TMAStoreWaitOp):
    thread = self.thread
    thread.retire("bulk", thread.bulk_issued - op.pendings.value.data)
    return []


def _cp_async(self: Interpreter, op: ttg.AsyncCopyGlobalToLocalOp):
    thread = self.thread
    access = Access(op, self.view(op.result, op), True, thread.unit("cp.async"), None, "the cp.async copy")
    self.cta.touch(access, thread.clock)
    thread.cp_async_uncommitted.append(access)
    yield
    return [OPAQUE]


def _commit(thread: Thread) -> None:
    thread.cp_async_committed += 1
    for access in thread.cp_async_uncommitted:
        access.stamp = (thread.unit("cp.async"), thread.cp_async_committed)
    thread.cp_async_uncommitted.clear()


def _commit_group(self: Interpreter, op: ttg.AsyncCommitGroupOp):
    _commit(self.thread)
    return [OPAQUE]


def _async_wait(self: Interpreter, op: ttg.AsyncWaitOp):
    thread = self.thread
    thread.retire("cp.async", thread.cp_async_committed - op.num.value.data)
    return [OPAQUE]


def _cp_async_arrive(self: Interpreter, op: ttng.AsyncCopyMbarrierArriveOp):
    """Arrives on the mbarrier once this thread's cp.async copies so far are complete."""
    cta, thread = self.cta, self.thread
    barrier = cta.barrier(self.view(op.barrier, op), op)
    if barrier is None:
        return []
    if thread.cp_async_uncommitted:
        _commit(thread)
    clock = thread.released()
    clock[thread.unit("cp.async")] = thread.cp_async_committed
    if op.noIncrement is None:
        barrier.pending += 1
    cta.deliver(lambda: cta.arrive_on(barrier, op, 1, clock))
    yield
    return []


# ---------------------------------------------------------------------- effects: MMAs


def _warp_group_dot(self: Interpreter, op: ttng.WarpGroupDotOp):
    thread = self.thread
    if op.isAsync.value.data:
        thread.wgmma_issued += 1
        stamp = (thread.unit("wgmma"), thread.wgmma_issued)
    else:
        stamp = thread.stamp()
    for operand in (op.a, op.b):
        if isinstance(operand.type, MemDescType):
            self.cta.touch(Access(op, self.view(operand, op), False, stamp[0], stamp, "the wgmma", issuer=thread.name),
                           thread.clock)
    yield
    return [PendingWgmma(thread, thread.wgmma_issued, op) if op.isAsync.value.data else OPAQUE]


def _warp_group_dot_wait(self: Interpreter, op: ttng.WarpGroupDotWaitOp):
    """Retire all but `pendings` wgmma groups; a result whose group is retired is readable,
    one still in flight passes through pending (the pipeliner's accumulator chain)."""
    thread = self.thread
    thread.retire("wgmma", thread.wgmma_issued - op.pendings.value.data)
    results = []
    for ssa in op.inputs:
        value = self.value(ssa)
        if isinstance(value, PendingWgmma) and value.thread is thread and value.group <= thread.retired("wgmma"):
            value = OPAQUE
        results.append(value)
    return results


def _tcgen05(self: Interpreter, op: Operation, reads, writes, barriers):
    """A tcgen05 op: asynchronous reads and writes until it completes, in issue order, then
    arrivals on `barriers` (mbarrier, predicate) pairs."""
    cta, thread = self.cta, self.thread
    thread.tcgen05_issued += 1
    unit = thread.unit("tcgen05")
    stamp = (unit, thread.tcgen05_issued)
    for ssa in reads:
        cta.touch(Access(op, self.view(ssa, op), False, unit, stamp, f"the {op.name}"), thread.clock)
    for ssa in writes:
        cta.touch(Access(op, self.view(ssa, op), True, unit, stamp, f"the {op.name}"), thread.clock)
    clock = thread.released()
    clock[unit] = thread.tcgen05_issued
    for barrier_ssa, predicate in barriers:
        if self.predicate(predicate):
            barrier = cta.barrier(self.view(barrier_ssa, op), op)
            if barrier is not None:
                cta.deliver(lambda barrier=barrier: cta.arrive_on(barrier, op, 1, clock))
    yield


def _tc_gen5_mma(self: Interpreter, op: Operation):
    if not self.predicate(op.pred):
        return [OPAQUE for _ in op.results]
    reads = [op.a, op.b] + ([op.a_scale, op.b_scale] if isinstance(op, ttng.TCGen5MMAScaledOp) else [])
    if op.is_async is None and not op.barriers:
        thread = self.thread
        for ssa in reads:
            self.cta.access(thread, op, self.view(ssa, op), False, f"the {op.name}")
        self.cta.access(thread, op, self.view(op.d, op), True, f"the {op.name}")
        yield
        return [OPAQUE for _ in op.results]
    yield from _tcgen05(self, op, reads, [op.d], list(zip(op.barriers, op.barrier_preds)))
    return [OPAQUE for _ in op.results]


def _tc_gen5_commit(self: Interpreter, op: ttng.TCGen5CommitOp):
    yield from _tcgen05(self, op, [], [], [(op.barrier, op.pred)])
    return []


def _tmem_copy(self: Interpreter, op: ttng.TMEMCopyOp):
    barriers = [(op.barrier, None)] if op.barrier is not None else []
    yield from _tcgen05(self, op, [op.src], [op.dst], barriers)
    return []


def _no_effect(self: Interpreter, op: Operation):
    return []


def _proxy_fence(self: Interpreter, op: ttng.FenceAsyncSharedOp):
    """`fence.proxy.async`: the thread's generic accesses so far ordered before async-proxy
    ones that its later releases order."""
    self.thread.retire(PROXY_FENCE, self.thread.retired(PROXY_FENCE) + 1)
    return []


EFFECTS: dict[type, Callable[[Interpreter, Operation], Generator]] = {
    scf.ForOp: _for,
    scf.IfOp: _if,
    scf.WhileOp: _while,
    scf.ExecuteRegionOp: _execute_region,
    ttg.MaskOp: _mask,
    ttg.WarpSpecializeOp: _warp_specialize,
    ttg.LocalAllocOp: _local_alloc,
    ttng.TMEMAllocOp: _tmem_alloc,
    ttg.LocalDeallocOp: _dealloc,
    ttg.LocalLoadOp: _local_load,
    ttg.LocalStoreOp: _local_store,
    ttng.TMEMLoadOp: _tmem_load,
    ttng.TMEMStoreOp: _tmem_store,
    ttng.InitBarrierOp: _init_barrier,
    ttng.InvalBarrierOp: _inval_barrier,
    ttng.BarrierExpectOp: _barrier_expect,
    ttng.ArriveBarrierOp: _arrive_barrier,
    ttng.WaitBarrierOp: _wait_barrier,
    ttng.AsyncTMACopyGlobalToLocalOp: _tma_load,
    ttng.AsyncTMAGatherOp: _tma_load,
    ttng.AsyncTMACopyLocalToGlobalOp: _tma_store,
    ttng.AsyncTMAReduceOp: _tma_store,
    ttng.AsyncTMAScatterOp: _tma_store,
    ttg.AsyncCopyGlobalToLocalOp: _cp_async,
    ttng.AsyncCopyMbarrierArriveOp: _cp_async_arrive,
    ttng.WarpGroupDotOp: _warp_group_dot,
    ttng.TCGen5MMAOp: _tc_gen5_mma,
    ttng.TCGen5MMAScaledOp: _tc_gen5_mma,
    ttng.TCGen5CommitOp: _tc_gen5_commit,
    ttng.TMEMCopyOp: _tmem_copy,
}
"""Ops that can block, touch shared state or run regions: generators the scheduler steps."""

VIEWS_AND_RETIREMENTS: dict[type, Callable[[Interpreter, Operation], list]] = {
    ttg.MemDescIndexOp: _index,
    ttg.MemDescSubsliceOp: _subslice,
    ttng.TMEMSubSliceOp: _tmem_subslice,
    ttg.MemDescTransOp: _same_view,
    ttg.MemDescReshapeOp: _same_view,
    ttg.MemDescReinterpretOp: _same_view,
    ttng.TMAStoreWaitOp: _tma_store_wait,
    ttg.AsyncCommitGroupOp: _commit_group,
    ttg.AsyncWaitOp: _async_wait,
    ttng.WarpGroupDotWaitOp: _warp_group_dot_wait,
    ttng.FenceAsyncSharedOp: _proxy_fence,
}
"""Ops with an effect that no other thread sees at once (views, retiring async groups)."""


# ---------------------------------------------------------------------- plans

TERMINATOR, EFFECT, VIEW, INTEGER, PURE = "terminator", "effect", "view", "integer", "pure"


@dataclass(eq=False)
class Step:
    """One op of a block, read once per check: its operands and results, how it runs, and
    (an integer op) the function that evaluates it."""

    op: Operation
    operands: tuple[SSAValue, ...]
    results: tuple[SSAValue, ...]
    kind: str
    handler: Callable | None = None
    evaluate: Callable[[list[int]], object] | None = None
    absorb: Callable[[list[object]], object] | None = None
    """(`arith.andi`, `arith.ori`, `arith.select`) the value where an unknown operand cannot
    change it: `false and x`, `true or x`, a known condition's operand."""
    reads_tensors: bool = False
    """Whether an operand is a tensor (only tensors may hold a pending wgmma result)."""
    unknown: tuple | None = None
    """(a pure op whose results no run computes) its results: `unknown_results`, once."""


def plan_block(block: Block) -> list[Step]:
    return [step for op in block.ops if (step := _plan(op)) is not None]


def _plan(op: Operation) -> Step | None:
    if isinstance(op, ttg.WarpSpecializePartitionsOp):
        return None
    operands, results = tuple(op.operands), tuple(op.results)
    step = Step(op, operands, results, PURE, reads_tensors=any(isinstance(v.type, TensorType) for v in operands))
    if isinstance(op, TERMINATORS):
        step.kind = TERMINATOR
    elif type(op) in EFFECTS:
        step.kind, step.handler = EFFECT, EFFECTS[type(op)]
    elif type(op) in VIEWS_AND_RETIREMENTS:
        step.kind, step.handler = VIEW, VIEWS_AND_RETIREMENTS[type(op)]
    elif len(results) == 1 and op.name.startswith("arith.") and bit_width(results[0].type) is not None:
        evaluate = _integer(op, op.name, bit_width(results[0].type))
        if evaluate is not None:
            step.kind, step.evaluate = INTEGER, evaluate
            step.absorb = _absorbing(op.name, bit_width(results[0].type))
    if step.kind is PURE and not computed_by_pure(op) and unmodelled(op) is None:
        step.unknown = tuple(unknown_results(op))
    return step


def _absorbing(name: str, bits: int) -> Callable[[list[object]], object] | None:
    """The value of an `arith.andi` with a known zero operand, an `arith.ori` with a known
    all-ones operand, an `arith.select` with a known condition whose chosen operand is known
    (else UNKNOWN): a runtime-versioned region guarded by `known_false and unknown` (a row
    too long for the cache, whatever the pointers) is not entered."""
    if name in ("arith.andi", "arith.ori"):
        absorbing = 0 if name == "arith.andi" else wrapped(-1, bits)
        return lambda operands: absorbing if absorbing in operands else UNKNOWN
    if name == "arith.select":
        return lambda operands: (UNKNOWN if type(operands[0]) is not int
                                 else operands[1] if operands[0] else operands[2])
    return None


def _integer(op: Operation, name: str, bits: int) -> Callable[[list[int]], object] | None:
    """The evaluation of an integer arith op on known operands (None: an op not modelled)."""
    if name == "arith.constant":
        value = wrapped(op.value.value.data, bits) if isinstance(op.value, IntegerAttr) else UNKNOWN
        return lambda operands: value
    if name in _BINARY:
        apply = _BINARY[name]
        if name in _DIVIDES:
            return lambda operands: _divide(op, apply, operands, bits)
        return lambda operands: wrapped(apply(operands[0], operands[1], bits), bits)
    if name == "arith.cmpi":
        compare, width = _COMPARE[op.predicate.value.data], bit_width(op.lhs.type) or 64
        return lambda operands: int(compare(operands[0], operands[1], width))
    if name == "arith.select":
        return lambda operands: operands[1] if operands[0] else operands[2]
    if name in _CASTS:
        source_bits = bit_width(op.operands[0].type) or 64
        zero_extends = name in ("arith.extui", "arith.index_castui")
        return lambda operands: wrapped(unsigned(operands[0], source_bits) if zero_extends
                                        else -operands[0] if source_bits == 1 else operands[0], bits)
    return None


def _divide(op: Operation, apply: Callable[[int, int, int], int], operands: list[int], bits: int) -> int:
    """A division or remainder of known operands; by zero, undefined (`Undefined`)."""
    if operands[1] == 0:
        raise Undefined(f"'{op.name}' divides by zero")
    return wrapped(apply(operands[0], operands[1], bits), bits)
