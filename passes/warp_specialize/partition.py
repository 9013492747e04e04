"""`ttpipe-ws-partition`: phase 1 of Hopper warp specialization, which loops to split and
into which partitions each op of their bodies goes.

Algorithm, for every `scf.for` marked `tt.warp_specialize` (`mode=marked`), or every loop
holding a `ttng.warp_group_dot` (`mode=auto`, where for a loop the user did not mark the
cost model `unprofitable` also has to find it worth it), on a copy of its function that
replaces the function only when the loop is specialized (a refused loop stays exactly as
it was):
  0. Prepare the copy: with `programs` set, a lone K loop that is not attention-shaped is
     first tried with its kernel made persistent over that many programs
     (`persistent_programs.py`: the function's body in a tile loop over the grid), and taken
     as the persistent nest below; where that is refused (the reason as a remark `tiles kept
     one a program: <reason>`) the loop is tried as written. Then the K loop's pointer
     loads become TMA loads of descriptors the kernel makes (`pointer_loads.tma_plan`,
     `pointer_loads_to_tma.convert`; a load that is no TMA box, or whose in-bounds guard
     the kernel is not shown to discard, refuses the loop); in a persistent kernel, the
     tile loop's integer inductions are read in closed form, `init + iteration * c`
     (`common.ir.closed_form_inductions`), and its epilogue values computed ahead of its K
     loop move after it (`common.ir.sink_below`).
  1. Check the preconditions below (`refusal`); a loop that fails one gets the remark
     `loop not warp-specialized: <reason>` (in `mode=auto` only loops holding a wgmma are
     reported) and keeps its ops unstamped, so the pipeliner handles it as before.
  2. Seed the partitions: each `tt.descriptor_load` goes to the producer (`PRODUCER`);
     its `ttg.local_alloc`, the memdesc views of that, and the `ttng.warp_group_dot`s go
     to the consumer (`CONSUMER`); so does whatever computes a loop result read after
     the loop.
  3. Propagate backwards to a fixed point: an op of the body that defines an operand of
     an op in partition p is in p too (but not a TMA load through its `local_alloc`: the
     ring stage replaces that edge), and so is the value yielded for an iteration
     argument that an op of p reads. Only side-effect-free scalar ops (index arithmetic)
     can end up in both; a scalar op no partition needs goes to the consumer.
  4. Stamp `ttg.partition = array<i32: p...>` on every op of the body (not the yield) and
     the ring depth as `tt.num_stages` on the loop; on a persistent kernel's tile loop,
     `ttpipe.ping_pong` where its two consumer warpgroups take turns on its tiles
     (`pingpong.choose`: the cost model, or the `consumers` option forcing either), and
     with `epilogue=partition` `ttpipe.epilogue_partition` where the epilogue can be handed
     to its own warp (`epilogue_partition.refusal`; else a remark `epilogue kept in the
     consumers: <reason>`).

Preconditions (each refusal is one remark reason; "this round" marks what a later round
may lift):
  - the target is sm_90 (`ttg.target = "cuda:9x"`), one CTA, and `ttg.num-warps` a multiple
    of 4: one consumer warpgroup per 4 warps. With more than one (`num_warps=8`), they are
    cooperative, each in its own region splitting the tile along M (`cooperative.py`, whose
    `plan` states and checks the further preconditions: the epilogue's split rule, a tile
    of M a multiple of 64 per warpgroup, one function per module);
  - no `ttg.warp_specialize` in the function already, and the loop is not nested in a loop
    and holds no op with regions (no nested loops, no `scf.if`), except a persistent
    kernel's nest (`persistent_loops`: a tile loop holding exactly one `scf.for`, the K loop,
    and no wgmma of its own; either loop marked), which `persistent_refusal` checks: the K
    loop as above (with cooperative warpgroups, `plan` splits the epilogue after the K loop
    in the tile loop's body), the tile loop at the function's top level carrying no values
    but integer inductions (step 0 reads those in closed form: an epilogue tile counter
    `tile_c += NUM_SMS`, as Triton's tutorial 09 keeps one), before the K loop only scalar
    arithmetic and splat constants,
    after it an epilogue without regions; the ring plus TMA-store staging (with cooperative
    warpgroups also each staging tile's full/empty mbarrier pair) fits. Its K loop's ops are
    stamped as a lone loop's; the tile loop's ops `[0]` (the consumer runs them all) or
    `[0, 1]` (the K loop, and the scalar ops the producer's loads and K bounds need);
  - every op of the body is one of: a TMA tile load (`tt.descriptor_load`) whose only use
    is a `ttg.local_alloc` in the descriptor's shared encoding; that allocation and memdesc
    views of it, read only as wgmma operands; a `ttng.warp_group_dot` with both operands
    in shared memory; a side-effect-free op on scalars. So stores, atomics, barriers and
    any other side effect refuse the loop (pointer loads are TMA loads by now, step 0);
  - the iteration arguments are accumulators (tensors read only as a wgmma's accumulator,
    with a wgmma's result yielded for them) or scalars computed from the induction
    variable, iteration arguments and loop invariants ("induction-derived");
  - `num-stages` (or the loop's `tt.num_stages`) is at least 2 (the consumer releases a
    stage one iteration after reading it, so a one-stage ring would deadlock) and the ring
    (stages x summed TMA tile bytes, plus two mbarriers per stage; with cooperative
    warpgroups also the staging tile and mbarrier of each TMA store and the scratch of the
    epilogue's layout conversions, `tma_pipeline.scratch_bytes`, which Triton allocates
    beside the ring while the consumer regions run the epilogue; one consumer warpgroup
    runs it after `ttg.warp_specialize`, where the ring is freed) fits in
    `SM90_MAX_SHARED_MEMORY_PER_BLOCK`. A ring too deep to fit is made shallower
    (`WarpSpecializedLoop.fit_ring`, with a remark `ring of N stages, not M: ...`), but no
    shallower than keeps `RING_BYTES_IN_FLIGHT` ahead of the wgmmas (or than asked):
    below that the software pipeliner's deeper ring measured faster. The other way, a K
    loop that asks for no depth itself (no `tt.num_stages`: the depth is the kernel's
    `num_stages`, 3 unless the launch says otherwise) gets a ring as deep as keeps
    `RING_BYTES_IN_FLIGHT` ahead where that is deeper and fits. The shared memory costs no
    occupancy: a warp-specialized CTA's register budgets (`registers.py`) take the SM's
    whole register file, so it holds its SM alone either way. 128x128x64 16-bit tiles go
    from 3 stages to 4. Measured on the H100 on bias + GELU GEMMs written for the check
    (fp16, 4096^3 and 8192^3), against the same kernel whose K loop asks for 3 stages:
    persistent 1.12-1.21x at 4 and 8 warps, a program a tile 1.11-1.18x at 8 warps
    (docs/measurements.md, twenty-fourth session). A depth the loop asks for is kept.

Attributes read: `ttg.target`, `ttg.num-warps`, `ttg.num-ctas` (module), `tt.warp_specialize`
and `tt.num_stages` (loop). Written: `ttg.partition` (body ops, Triton's name and form),
`tt.num_stages` (loop: the ring depth the next phase builds), `ttpipe.ping_pong` (tile loop;
Triton 3.6 has no name for it on NVIDIA).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from xdsl.context import Context
from xdsl.dialects.builtin import DenseArrayBase, ModuleOp, TensorType, UnitAttr, i32
from xdsl.ir import BlockArgument, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.traits import is_side_effect_free

from ttpipe.dialects import scf, tt, ttg, ttng
from ttpipe.dialects.ttg_types import MemDescType
from ttpipe.passes.analysis.axis_info import ModuleAxisInfo
from ttpipe.passes.analysis.tile_access import TileAccessAnalysis
from ttpipe.passes.common.diagnostics import emit_remark
from ttpipe.passes.common.ir import backward_slice_in_block, closed_form_inductions, sink_below, yielded_value
from ttpipe.passes.common.hardware import (
    MBARRIER_BYTES,
    SM90_MAX_SHARED_MEMORY_PER_BLOCK,
    fills_warpgroups,
    is_hopper,
)
from ttpipe.passes.common.target import nvidia_compute_capability, num_ctas, num_warps
from ttpipe.passes.pipeline.lower_loops import (
    MEMDESC_VIEWS,
    tile_bytes,
)
from ttpipe.passes.pipeline.pipelining_utility import is_defined_outside_loop, num_stages_or_default
from ttpipe.passes.pipeline.schedule import NUM_STAGES, WARP_SPECIALIZE, body_ops, int_attr
from ttpipe.passes.pointer_loads_to_tma import DescriptorBuilder, convert
from ttpipe.passes.warp_specialize import attention, epilogue_partition, persistent_programs, pingpong
from ttpipe.passes.warp_specialize.options import WarpSpecializeOptions
from ttpipe.passes.warp_specialize.cooperative import Refused, consumer_warpgroups, plan, splat_constant
from ttpipe.passes.warp_specialize.pointer_loads import query_plan, tma_plan
from ttpipe.passes.warp_specialize.tma_pipeline import (
    MIN_STAGES,
    deepest_ring,
    reaches_alloc,
    ring_bytes,
    ring_tile_alloc,
    scratch_bytes,
    stage_bytes,
)

PARTITION = "ttg.partition"
"""Triton's attribute naming the partitions (`array<i32: ...>`) an op of a warp-specialized
loop runs in."""

CONSUMER = 0
"""The wgmma partition: the default region of `ttg.warp_specialize` (the module's warps),
and with cooperative warpgroups the partitions before the producer's too."""

PRODUCER = 1
"""The TMA partition: the last partition of `ttg.warp_specialize`, one warp."""

REMARK = "loop not warp-specialized: "

EPILOGUE_REMARK = "epilogue kept in the consumers: "

RING_REMARK = "ring of "

RING_BYTES_IN_FLIGHT = 96 * 1024
"""Bytes of TMA loads a GEMM's ring keeps ahead of the stage its wgmmas read, below which
a shallower ring measured slower than the software pipeliner's deeper one on the H100:
128x256x64 tiles (48 KB a stage) run 1.13-1.17x stock at 3 stages (96 KB ahead), 128x128x64
ping-pong tiles (32 KB) lose 18 % from 4 stages (96 KB) to 3 (64 KB; docs/measurements.md,
2026-11-25). `fit_ring` lowers a ring that does not fit no further than this."""


@dataclass
class WarpSpecializedLoop:
    """What the partitioning found in one loop."""

    loop: scf.ForOp
    loads: list[tt.DescriptorLoadOp] = field(default_factory=list)
    dots: list[ttng.WarpGroupDotOp] = field(default_factory=list)
    stages: int = 0
    ping_pong: bool = False
    """A persistent kernel whose two consumer warpgroups take turns (`pingpong.py`)."""
    asked_stages: int = 0
    """The loop's `tt.num_stages` (or the option); `stages` is less where that ring does not fit."""
    loop_asked: bool = False
    """`asked_stages` is the loop's own `tt.num_stages` (a user's `tl.range(..., num_stages=N)`),
    which `fit_ring` keeps; the option's depth it deepens to `latency_ring`."""
    beside_ring: str = ""
    """What `fit_ring` counted beside the ring (" and N bytes of ..."), for remarks."""
    beside_ring_bytes: int = 0

    @property
    def stage_bytes(self) -> int:
        return stage_bytes(self.loads)

    def shared_bytes(self, stages: int) -> int:
        return ring_bytes(stages, self.stage_bytes) + self.beside_ring_bytes

    @property
    def latency_ring(self) -> int:
        """The stages that keep `RING_BYTES_IN_FLIGHT` ahead of the stage the wgmmas read."""
        return max(MIN_STAGES, -(-RING_BYTES_IN_FLIGHT // self.stage_bytes) + 1)

    @property
    def shallowest_ring(self) -> int:
        """The fewest stages `fit_ring` may lower the ring to: `latency_ring`, never more than
        asked for."""
        return min(self.asked_stages, self.latency_ring)

    def fit_ring(self, beside_bytes: int, beside: str) -> None:
        """The deepest ring of at most `asked_stages` stages (where the loop did not ask,
        at most `latency_ring` where that is more), and at least `shallowest_ring`, that fits
        in shared memory beside `beside_bytes` (described by `beside`), or `Refused`."""
        self.beside_ring_bytes, self.beside_ring = beside_bytes, beside
        deepest = self.asked_stages if self.loop_asked else max(self.asked_stages, self.latency_ring)
        stages = deepest_ring(deepest, self.shallowest_ring, self.shared_bytes)
        if self.shared_bytes(stages) > SM90_MAX_SHARED_MEMORY_PER_BLOCK:
            raise Refused(f"a ring of {stages} stages of {self.stage_bytes} bytes{beside} needs "
                          f"{self.shared_bytes(stages)} bytes of shared memory, more than the "
                          f"{SM90_MAX_SHARED_MEMORY_PER_BLOCK} of sm_90")
        self.stages = stages


def remark_shallower_ring(found: WarpSpecializedLoop | attention.AttentionLoop, beside: str) -> None:
    """Where `found`'s ring is shallower than the depth asked for, a remark at its loop:
    what the asked ring, with what lives beside it (`beside`), would need."""
    stages, asked = found.stages, found.asked_stages
    if stages < asked:
        emit_remark(found.loop, f"{RING_REMARK}{stages} stages, not {asked}: {asked} stages of {found.stage_bytes} "
                                f"bytes{beside} would need {found.shared_bytes(asked)} bytes of shared memory, more "
                                f"than the {SM90_MAX_SHARED_MEMORY_PER_BLOCK} of sm_90")


def _is_scalar(value: SSAValue) -> bool:
    return not isinstance(value.type, (TensorType, MemDescType))


def _views_and_readers(value: SSAValue) -> list[Operation]:
    """The memdesc views of `value` (recursively) and the ops reading them otherwise."""
    found = []
    for use in value.uses:
        found.append(use.operation)
        if isinstance(use.operation, MEMDESC_VIEWS):
            found += _views_and_readers(use.operation.result)
    return found


def check_target(module: ModuleOp, op: Operation) -> None:
    """The module-level preconditions."""
    cc = nvidia_compute_capability(module)
    if not is_hopper(cc):
        raise Refused(f"the target is sm_{cc}; this pass warp-specializes for sm_90")
    if num_ctas(op) != 1:
        raise Refused("clusters (ttg.num-ctas > 1) are a later round")
    if not fills_warpgroups(num_warps(op)):
        raise Refused(f"ttg.num-warps is {num_warps(op)}; the consumers are whole warpgroups (a multiple of 4 "
                      f"warps)")


def check_context(loop: scf.ForOp, nested: bool = False) -> None:
    """The target's, the enclosing loops' and the function's preconditions (`nested`: the
    K loop of a persistent kernel, whose tile loop `persistent_refusal` checks)."""
    module = loop.get_toplevel_object()
    check_target(module, loop)
    func = loop.parent_op()
    while func is not None and not isinstance(func, tt.FuncOp):
        if isinstance(func, scf.ForOp | scf.WhileOp) and not nested:
            raise Refused("the loop is nested in another loop, not as the K loop of a persistent tile loop")
        func = func.parent_op()
    if func is not None and any(isinstance(op, ttg.WarpSpecializeOp) for op in func.walk()):
        raise Refused("the function is already warp-specialized (it holds a ttg.warp_specialize)")


def refusal(loop: scf.ForOp, default_stages: int, nested: bool = False) -> WarpSpecializedLoop:
    """Step 1: the loop's loads, wgmmas and ring depth, or `Refused` with the reason
    (`nested`: the K loop of a persistent kernel, whose tile loop `persistent_refusal` checks)."""
    check_context(loop, nested)
    found = WarpSpecializedLoop(loop)
    allocs: set[Operation] = set()
    for op in loop.body.ops:
        if isinstance(op, scf.YieldOp):
            continue
        if op.regions:
            raise Refused(f"'{op.name}' in the body (nested loops and control flow are a later round)")
        if isinstance(op, tt.DescriptorLoadOp):
            found.loads.append(op)
            allocs.add(ring_tile_alloc(op))
        elif isinstance(op, ttng.WarpGroupDotOp):
            found.dots.append(op)
        elif isinstance(op, (ttg.LocalAllocOp, *MEMDESC_VIEWS)):
            continue  # checked from their load below
        elif not is_side_effect_free(op):
            raise Refused(f"'{op.name}' has side effects")
        elif not all(_is_scalar(v) for v in (*op.operands, *op.results)):
            raise Refused(f"'{op.name}' computes on tensors; the body may hold only TMA loads, wgmmas "
                          f"and scalar index arithmetic")
    if not found.loads or not found.dots:
        raise Refused("no TMA descriptor load feeding a ttng.warp_group_dot")
    for op in loop.body.ops:
        if isinstance(op, (ttg.LocalAllocOp, *MEMDESC_VIEWS)) and not reaches_alloc(op, allocs):
            raise Refused(f"'{op.name}' of a buffer that is not a TMA load's")
    for alloc in allocs:
        for reader in _views_and_readers(alloc.result):
            if not isinstance(reader, (ttng.WarpGroupDotOp, *MEMDESC_VIEWS)):
                raise Refused(f"a loaded tile is read by '{reader.name}'; only by wgmma this round")
    for dot in found.dots:
        if not isinstance(dot.a.type, MemDescType):
            raise Refused("a wgmma with its A operand in registers")
    _check_iteration_arguments(loop, found.dots)
    found.stages = found.asked_stages = num_stages_or_default(loop, default_stages)
    found.loop_asked = NUM_STAGES in loop.attributes
    if found.stages < MIN_STAGES:
        raise Refused(f"num_stages is {found.stages}; the ring needs at least {MIN_STAGES} stages")
    split = plan(loop, found.dots) if consumer_warpgroups(loop) > 1 else None  # `Refused` where rows do not split
    if nested:
        return found  # the tile loop's epilogue lives beside the ring: `persistent_refusal` fits it
    beside_bytes, beside = 0, ""
    if split is not None:
        if split.staging_bytes:
            beside_bytes += split.staging_bytes + MBARRIER_BYTES * len(split.stores)
            beside = f" and {split.staging_bytes} bytes of TMA store staging"
        # Each consumer region runs its rows' epilogue.
        scratch = sum(scratch_bytes(op) for op in split.epilogue)
        if scratch:
            beside_bytes += scratch
            beside += f" and {scratch} bytes of the epilogue's layout conversions"
    found.fit_ring(beside_bytes, beside)
    return found


def _check_iteration_arguments(loop: scf.ForOp, dots: list[ttng.WarpGroupDotOp]) -> None:
    yielded = loop.body.last_op.operands
    for index, (arg, value) in enumerate(zip(loop.body.args[1:], yielded)):
        if _is_scalar(arg) and _is_scalar(value):
            continue  # induction-derived: only side-effect-free scalar ops compute it (checked above)
        if isinstance(arg.type, TensorType):
            readers = [use.operation for use in arg.uses]
            if (all(isinstance(r, ttng.WarpGroupDotOp) and r.c is arg for r in readers)
                    and isinstance(value.owner, ttng.WarpGroupDotOp) and value.owner in dots
                    and all(isinstance(u.operation, scf.YieldOp | ttng.WarpGroupDotOp)
                            and (isinstance(u.operation, scf.YieldOp) or u.operation.c is value)
                            for u in value.uses)):
                continue
        raise Refused(f"iteration argument {index} is neither a wgmma accumulator nor an induction-derived scalar")


def assign_partitions(found: WarpSpecializedLoop) -> dict[Operation, set[int]]:
    """Steps 2-3: the partitions of each op of the body."""
    loop = found.loop
    parts: dict[Operation, set[int]] = {op: set() for op in body_ops(loop)}
    for load in found.loads:
        parts[load].add(PRODUCER)
    for op in parts:
        if isinstance(op, (ttg.LocalAllocOp, ttng.WarpGroupDotOp, *MEMDESC_VIEWS)):
            parts[op].add(CONSUMER)
    yielded = loop.body.last_op.operands
    for result, value in zip(loop.results, yielded):
        if result.uses and isinstance(value.owner, Operation) and value.owner in parts:
            parts[value.owner].add(CONSUMER)
    changed = True
    while changed:
        changed = False
        for op in reversed(list(parts)):
            for operand in op.operands:
                if isinstance(op, ttg.LocalAllocOp):
                    continue  # the ring slot replaces the tile: the consumer needs no load
                for source in _body_sources(loop, operand):
                    if not parts[op] <= parts[source]:
                        parts[source] |= parts[op]
                        changed = True
    for op, found_parts in parts.items():
        if not found_parts:
            found_parts.add(CONSUMER)
    return parts


def _body_sources(loop: scf.ForOp, value: SSAValue) -> list[Operation]:
    """The body op defining `value`, or for an iteration argument the body op defining
    the value yielded for it."""
    if isinstance(value, BlockArgument):
        if value.block is not loop.body or value.index == 0:
            return []
        value = yielded_value(value)
        if isinstance(value, BlockArgument) or is_defined_outside_loop(value, loop):
            return []
    if value.owner.parent_block() is loop.body:
        return [value.owner]
    return []


def weighs_cost(mode: str, *loops: scf.ForOp) -> bool:
    """Whether the cost model decides: `mode=auto` on loops the user did not mark
    `tt.warp_specialize` (a marked loop is specialized wherever it can be, in either mode)."""
    return mode == "auto" and not any(WARP_SPECIALIZE in loop.attributes for loop in loops)


def unprofitable(loop: scf.ForOp, ping_pong: bool = False) -> str | None:
    """`mode=auto`'s cost model: why warp specialization would not pay for this loop, or None.

    It pays when the consumers are two or more warpgroups (`num_warps >= 8`): the producer's
    warpgroup gives its registers to them (232 each, `registers.py`), so each can hold its
    half of a 128x256 tile's accumulator while TMA and wgmma overlap across warpgroups. With
    one consumer warpgroup (`num_warps = 4`), eight warps leave `maxnreg` at 256 with or
    without `setmaxnreg`, and the consumer issues the wgmma stream the software pipeliner
    already overlaps with its TMA loads: measured on the H100 at 0.95-0.99x the pipelined
    kernel, against 1.11-1.19x for two consumer warpgroups (docs/measurements.md,
    2026-11-25). Two ping-pong warpgroups (`ping_pong`, a persistent kernel of `num_warps=4`,
    `pingpong.py`) are two consumer warpgroups too. A loop marked `tt.warp_specialize` is
    specialized regardless, in either mode (`weighs_cost`)."""
    if consumer_warpgroups(loop) < 2 and not ping_pong:
        return ("one consumer warpgroup (num_warps=4) does not pay: the software pipeliner overlaps its "
                "loads as well (mode=auto warp-specializes with two or more consumer warpgroups)")
    return None


def partition_loop(loop: scf.ForOp, default_stages: int, mode: str, consumers: str) -> WarpSpecializedLoop:
    """Steps 1-4 for one loop (`Refused` leaves it untouched); in `mode=auto`, only where
    `unprofitable` finds no reason against it."""
    found = refusal(loop, default_stages)
    pingpong.loop_refusal(consumers)
    if weighs_cost(mode, loop) and (why := unprofitable(loop)) is not None:
        raise Refused(why)
    for op, parts in assign_partitions(found).items():
        op.attributes[PARTITION] = DenseArrayBase.from_list(i32, sorted(parts))
    loop.attributes[NUM_STAGES] = int_attr(found.stages)
    remark_shallower_ring(found, found.beside_ring)
    return found


def partition_attention(loop: scf.ForOp, default_stages: int, mode: str, consumers: str) -> None:
    """Steps 1-4 for an attention-shaped loop and the key loops after it (`attention.py`: its
    preconditions): in each, the producer gets the K/V loads and their index arithmetic, the
    consumer everything else; `ATTENTION` on the first sends them to
    `attention_lowering.py` in phase 2. A ring shallower than the loop's `tt.num_stages` (or
    the option), for lack of shared memory, gets a remark saying what the asked depth needs."""
    check_context(loop)
    shaped = attention.recognize(loop, default_stages)
    if weighs_cost(mode, loop) and (why := unprofitable(loop) or attention.unprofitable(shaped)) is not None:
        raise Refused(why)
    turns = attention.takes_turns(shaped, consumers)
    remark_shallower_ring(shaped, " with Q, the staging tiles and the consumers' layout conversions")
    for key in shaped.keys:
        found = WarpSpecializedLoop(key.loop, key.loads, key.dots, shaped.stages)
        for op, parts in assign_partitions(found).items():
            op.attributes[PARTITION] = DenseArrayBase.from_list(i32, sorted(parts))
        key.loop.attributes[NUM_STAGES] = int_attr(shaped.stages)
    loop.attributes[attention.ATTENTION] = UnitAttr()
    if turns:
        loop.attributes[pingpong.PING_PONG] = UnitAttr()


def persistent_loops(loop: scf.ForOp) -> tuple[scf.ForOp, scf.ForOp] | None:
    """(tile loop, K loop) where `loop` is either loop of a persistent kernel's nest: a loop
    holding no wgmma itself and exactly one `scf.for` (the K loop), or the one loop nested
    so in an `scf.for`; None for any other loop."""
    def tile_and_k(outer: Operation) -> tuple[scf.ForOp, scf.ForOp] | None:
        if not isinstance(outer, scf.ForOp):
            return None
        inner = [op for op in outer.body.ops if isinstance(op, scf.ForOp)]
        if len(inner) != 1 or any(isinstance(op, ttng.WarpGroupDotOp) for op in outer.body.ops):
            return None
        return outer, inner[0]

    return tile_and_k(loop) or tile_and_k(loop.parent_op())


def persistent_refusal(tile: scf.ForOp, k_loop: scf.ForOp, default_stages: int,
                       consumers: str, epilogue: str = "inline") -> WarpSpecializedLoop:
    """Step 1 for a persistent kernel: the K loop's preconditions (`refusal`), and the tile
    loop's: at the top level of its function, no iteration arguments (step 0 has put the
    inductions in closed form; other carried values would need a copy per partition), before the
    K loop only side-effect-free scalar ops and splat constants (tile offsets; the
    accumulator's zero-init), after it an epilogue of ops without regions, which the
    consumer runs once per tile; whether the consumers take turns (`pingpong.choose`, by
    `consumers`); the ring plus the shared staging tile of each `tt.descriptor_store`
    (TMA lowering's, live with the ring; one per ping-pong warpgroup) and the scratch of the
    epilogue's layout conversions (`scratch_bytes`) fits."""
    check_target(tile.get_toplevel_object(), tile)
    if not isinstance(tile.parent_op(), tt.FuncOp):
        raise Refused("the tile loop of a persistent kernel is nested in another loop or region")
    if tile.body.args[1:]:
        raise Refused("the tile loop carries a value (iteration argument) that is not an induction advanced by a "
                      "loop-invariant amount")
    found = refusal(k_loop, default_stages, nested=True)
    found.ping_pong = pingpong.choose(tile, k_loop, found.dots, consumers)
    ops = body_ops(tile)
    position = ops.index(k_loop)
    for op in ops[:position]:
        if op.regions or not is_side_effect_free(op):
            raise Refused(f"'{op.name}' before the K loop in the tile loop; only scalar arithmetic this round")
        if not all(_is_scalar(v) for v in op.results) and not splat_constant(op):
            raise Refused(f"'{op.name}' computes a tensor before the K loop in the tile loop")
    staging = 0
    for op in ops[position + 1:]:
        if op.regions:
            raise Refused(f"'{op.name}' in the epilogue of the tile loop (control flow is a later round)")
        if isinstance(op, tt.DescriptorStoreOp):
            staging += tile_bytes(op.src.type)
            if consumer_warpgroups(tile) > 1:
                staging += 2 * MBARRIER_BYTES  # its staging full/empty mbarrier pair
        staging += scratch_bytes(op)
    if found.ping_pong:
        staging = pingpong.PING_PONG_WARPGROUPS * staging + pingpong.PING_PONG_WARPGROUPS * MBARRIER_BYTES
    if epilogue == "partition":
        staging += 2 * pingpong.PING_PONG_WARPGROUPS * MBARRIER_BYTES  # at most: the channel's full/empty pairs
    found.fit_ring(staging, f" and {staging} bytes of TMA store staging and epilogue layout conversions")
    return found


def producer_tile_ops(tile: scf.ForOp, k_loop: scf.ForOp, k_parts: dict[Operation, set[int]]) -> list[Operation]:
    """The ops of the tile loop's body before the K loop that the producer needs: those
    computing the K loop's bounds or a value its producer ops read (transitively)."""
    needed = [k_loop.lowerBound, k_loop.upperBound, k_loop.step]
    needed += [v for op, parts in k_parts.items() if PRODUCER in parts for v in op.operands]
    return backward_slice_in_block(needed, tile.body)


def partition_persistent(tile: scf.ForOp, k_loop: scf.ForOp, default_stages: int, mode: str,
                         consumers: str, epilogue: str = "inline") -> WarpSpecializedLoop:
    """Steps 1-4 for a persistent kernel: the K loop's ops stamped as a lone K loop's, the
    tile loop's ops stamped too (the consumer runs all of them, the producer the scalar ops
    its K loop needs, both the K loop itself), and `PING_PONG` on the tile loop where its
    consumers take turns, so phase 2 sees the nest."""
    found = persistent_refusal(tile, k_loop, default_stages, consumers, epilogue)
    if weighs_cost(mode, tile, k_loop) and (why := unprofitable(tile, found.ping_pong)) is not None:
        raise Refused(why)
    k_parts = assign_partitions(found)
    producer_ops = producer_tile_ops(tile, k_loop, k_parts)
    for op, parts in k_parts.items():
        op.attributes[PARTITION] = DenseArrayBase.from_list(i32, sorted(parts))
    for op in tile.body.ops:
        if not isinstance(op, scf.YieldOp):
            parts = [CONSUMER, PRODUCER] if op is k_loop or op in producer_ops else [CONSUMER]
            op.attributes[PARTITION] = DenseArrayBase.from_list(i32, parts)
    k_loop.attributes[NUM_STAGES] = int_attr(found.stages)
    remark_shallower_ring(found, found.beside_ring)
    if found.ping_pong:
        tile.attributes[pingpong.PING_PONG] = UnitAttr()
    if epilogue == "partition":
        why = epilogue_partition.refusal(tile)
        if why is None:
            tile.attributes[epilogue_partition.EPILOGUE_PARTITION] = UnitAttr()
        else:
            emit_remark(tile, EPILOGUE_REMARK + why)
    return found


def rewrite_on_copy(func: tt.FuncOp, rewrite: Callable[[tt.FuncOp], None],
                    keep: bool = True) -> tuple[tt.FuncOp, Refused | None]:
    """`rewrite` a copy of `func` that replaces it only where it succeeds (and `keep`; with
    `keep=False` a probe: the copy goes whatever happens); a refusal leaves `func` exactly as
    it was. The module holds one of the two at a time (its attributes in reach;
    `cooperative.plan` and the row split count its functions). Returns the function now in
    place and the refusal, if any."""
    copy = func.clone()
    Rewriter.insert_op(copy, InsertPoint.after(func))
    func.detach()
    refused = None
    try:
        rewrite(copy)
    except Refused as exc:
        refused = exc
    if refused is None and keep:
        func.erase()
        return copy, None
    Rewriter.insert_op(func, InsertPoint.before(copy))
    Rewriter.erase_op(copy)
    return func, refused


def is_candidate(loop: scf.ForOp, mode: str) -> bool:
    """A loop `mode` asks for: marked `tt.warp_specialize`, or (auto) holding a wgmma."""
    if mode == "marked":
        return WARP_SPECIALIZE in loop.attributes
    return any(isinstance(op, ttng.WarpGroupDotOp) for op in loop.walk())


def function_loops(func: tt.FuncOp) -> list[scf.ForOp]:
    """The loops of `func`, outermost first; a copy of `func` has its loops at the same
    positions, and rewriting a loop's loads keeps them there."""
    return [op for op in func.walk() if isinstance(op, scf.ForOp)]


@dataclass(frozen=True)
class PartitionLoops(WarpSpecializeOptions, ModulePass):
    """Choose the loops to warp-specialize and stamp each body op with its partition (`ttg.partition`).

    See `ttpipe.passes.warp_specialize.partition` for the algorithm, the preconditions and
    the attributes. Refused loops get `loop not warp-specialized: <reason>` remarks.
    """

    name = "ttpipe-ws-partition"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for func in [f for f in op.ops if isinstance(f, tt.FuncOp)]:
            tried: set[int] = set()
            loops = function_loops(func)
            for position in range(len(loops)):
                loop = loops[position]
                if not is_candidate(loop, self.mode) or any(PARTITION in op.attributes for op in loop.body.ops):
                    continue  # not asked for, or stamped with the attention loop before it
                nest = persistent_loops(loop)
                if nest is not None:
                    tile = loops.index(nest[0])
                    if tile in tried:
                        continue  # the other loop of a nest already tried
                    tried.add(tile)
                if self.takes_programs(loop):
                    specialized, refused = self.specialize(func, position, persistent=True)
                    if refused is None:
                        func, loops = specialized, function_loops(specialized)
                        continue
                    emit_remark(loop, persistent_programs.REMARK + str(refused))
                specialized, refused = self.specialize(func, position)
                if refused is not None:
                    emit_remark(loop, REMARK + str(refused))
                if specialized is not func:
                    func, loops = specialized, function_loops(specialized)

    def takes_programs(self, loop: scf.ForOp) -> bool:
        """Whether phase 1 first tries `loop` with its programs made persistent: a lone K
        loop (no persistent nest, not attention-shaped: persistent attention programs
        measured slower, docs/measurements.md, ninth session) with `programs` set."""
        return self.programs > 0 and persistent_loops(loop) is None and not attention.is_attention_shaped(loop)

    def specialize(self, func: tt.FuncOp, position: int, keep: bool = True,
                   persistent: bool = False) -> tuple[tt.FuncOp, Refused | None]:
        """Steps 1-4 for the loop at `position` of `func`, on a copy of `func` that replaces
        it only if the loop is specialized and `keep` (a refused loop stays exactly as it
        was, `rewrite_on_copy`; `keep=False` only asks whether it would be). On the copy
        first: with `persistent`, the program-per-tile kernel made persistent over
        `programs` programs (`persistent_programs.py`; the K loop is then at its place in
        the walk under the tile loop); the K loop's pointer loads rewritten as TMA loads
        (`pointer_loads.py`); in a persistent kernel, the tile loop's carried inductions in
        closed form (`closed_form_inductions`: an epilogue tile counter) and the epilogue
        values computed ahead of the K loop moved after it (`sink_below`). Returns the
        function now in place and the refusal, if any."""

        def specialize(copy: tt.FuncOp) -> None:
            copy_loop = function_loops(copy)[position]
            if persistent:
                why = persistent_programs.refusal(copy, copy_loop)
                if why is not None:
                    raise Refused(why)
                persistent_programs.make_persistent(copy, self.programs)
            at = function_loops(copy).index(copy_loop)
            check_target(copy.get_toplevel_object(), copy_loop)
            nest = persistent_loops(copy_loop)
            k_loop = copy_loop if nest is None else nest[1]
            queries = nest is None and attention.is_attention_shaped(k_loop)
            loops = attention.sequence(k_loop)[0] if queries else [k_loop]
            if any(isinstance(op, tt.LoadOp) for each in loops for op in each.body.ops) or queries:
                analysis = TileAccessAnalysis(ModuleAxisInfo(copy.get_toplevel_object()))
                plan = [access for each in loops for access in tma_plan(each, analysis)]
                if queries:
                    plan += query_plan(loops, analysis)
                convert(DescriptorBuilder(copy, analysis), plan, restage=True)
            nest = persistent_loops(function_loops(copy)[at])
            if nest is not None:
                closed_form_inductions(nest[0])
                sink_below(nest[1])
            self._partition(function_loops(copy)[at])

        return rewrite_on_copy(func, specialize, keep)

    def _partition(self, loop: scf.ForOp) -> None:
        nest = persistent_loops(loop)
        if nest is None:
            if attention.is_attention_shaped(loop):
                partition_attention(loop, self.num_stages, self.mode, self.consumers)
            else:
                partition_loop(loop, self.num_stages, self.mode, self.consumers)
            if self.epilogue == "partition":
                emit_remark(loop, EPILOGUE_REMARK + "a loop that is not a persistent kernel's stores one tile")
        else:
            partition_persistent(*nest, self.num_stages, self.mode, self.consumers, self.epilogue)
