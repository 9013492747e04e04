"""Phase 2 for an attention-shaped loop (`attention.py`, stamped by phase 1): the K/V ring,
the Q buffer, and the producer and consumer regions under `ttg.warp_specialize`.

Algorithm, on a copy of the function that replaces it only when every step succeeds (the
row split's full check is the rebuild itself; a refusal leaves the loop as it was, its
stamps removed, with the remark `loop not warp-specialized: <reason>`):
  0. First, where the loop's trip count grows with a program id (causal attention), that
     id reads `num_programs - 1 - pid` everywhere (`attention.heavy_first_axes`): the
     longest programs launch first and the shortest end the grid.
  1. Before the loop: a `stages x tile` ring buffer per TMA load of the body (K, V) with
     `stages` full mbarriers (count 1) and `stages` empty ones (count C, one arrival per
     consumer warpgroup); a buffer per Q tile and one mbarrier for them all (count 1);
     with C > 1 a staging tile (the Q buffer where it has the layout,
     `AttentionLoop.query_staging`) and an mbarrier (count C - 1) per TMA store of the
     epilogue (`cooperative.store_staged_rows`); then a `gpu.barrier`. All freed after.
  2. The producer (last partition, one warp; `loop_copies.py`): arms the Q mbarrier with
     the Q tiles' bytes and issues their TMA copies once, then its copy of each key loop
     (one `PipelineState` carried from one to the next; the scalars a later loop reads,
     computed between the loops, cloned before its copy): wait empty, expect the stage's
     bytes on full, the K and V TMA copies into the stage.
  3. Consumer warpgroup c (the default region for c = 0, 4-warp partitions after it) runs
     the rest of the function for its rows `[c h, (c + 1) h)` (`row_split.py`): it waits
     the Q mbarrier (phase 0) and views its rows of each Q tile (`memdesc_subslice`), then
     its copy of the loop, carrying the row-tied iteration arguments at `h` rows and a
     `PipelineState`; per iteration: wait full (the stage's K and V landed); the body's
     ops in order, free tensors (constants, index ranges, masks) rebuilt where read; each
     wgmma async on the warpgroup's rows (A: its registers, or its Q rows: in shared memory,
     or loaded into registers once before the first loop where they take few registers,
     `attention.query_in_registers`; B: the stage);
     after the first, `warp_group_dot_wait {pendings = 0}` forwarding its result and the
     previous iteration's in-flight wgmma results (the only wait the softmax needs; it
     retires every earlier wgmma), then the release of the previous iteration's stage
     (not in the first iteration); wgmmas whose results are only yielded stay in flight.
     After the loop one `warp_group_dot_wait {pendings = 0}` flushes them. With more key
     loops after it, the ring state runs on into the next, the last stage of this one is
     released once flushed (the next reuses the ring), and the ops between are rebuilt.
     The rotated form (FlashAttention-3's intra-warpgroup overlap, where the body has its
     shape, `attention.SoftmaxOverlap`) is `ConsumerRegion.overlapped`'s. Where a loop takes
     the row max of scores scaled by a scalar (`attention.ScaledRowMax`), the loops and the
     epilogue are built twice under `scf.if` on the scale being in (0, inf), the first
     version reducing the unscaled scores (or their masked select against -inf, scaled
     after for the exponent) and scaling the row vector (`ConsumerRegion.before_scale`). Then the
     epilogue at its rows: `tt.store`s of its rows, TMA stores staged (C > 1: each
     warpgroup writes its rows, warpgroup 0 issues the store) or issued as they are (C = 1);
     a layout conversion of O for pointer stores goes through the warpgroup's rows of the Q
     buffer (`local_store`, `local_load` in the new layout) where `query_routing` allows,
     in place of the shared scratch Triton would allocate beside the ring.
  4. The original loop, Q loads, epilogue and the tensors only they read are erased; the
     module's `ttg.num-warps` becomes 4 (`cooperative.one_warpgroup_module`).

Correct for any trip count: with none, no stage is touched and the flush waits for
nothing; the producer's wait for stage k's reuse needs every warpgroup's release of
iteration k - stages, issued in iteration k - stages + 1 after a wait that only needs
loads of iterations <= k - stages + 1 < k: no cycle. A stage released in iteration j + 1
is no longer read: its K by the first wgmma of iteration j (waited in j), its V by the
in-flight wgmma of j, retired by the first wait of j + 1. The last stage is never
released (the producer issued its last acquire already).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field

from xdsl.dialects.builtin import FloatAttr, TensorType
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from ttpipe.dialects import arith, gpu, scf, tt, ttg, ttng
from ttpipe.dialects.arith import CmpFPredicate, CmpIPredicate
from ttpipe.dialects.builtin import DenseElementsAttr
from ttpipe.dialects.ttg_types import MemDescType
from ttpipe.passes.common.builder import OpBuilder
from ttpipe.passes.common.diagnostics import emit_remark
from ttpipe.passes.common.dot_rewrite import dot_operand_encoding
from ttpipe.passes.common.hardware import WARPS_PER_WARPGROUP
from ttpipe.passes.common.ir import ancestor_in_block, backward_slice_in_block, runs
from ttpipe.passes.common.mma_layouts import element_bit_width
from ttpipe.passes.pipeline.lower_loops import (
    MEMDESC_VIEWS,
    Unsupported,
    create_alloc,
    create_barrier_alloc,
    rebuilt_view,
    single_buffer_view,
)
from ttpipe.passes.pipeline.pipelining_utility import is_defined_outside_loop
from ttpipe.passes.pipeline.schedule import NUM_STAGES, int_attr
from ttpipe.passes.warp_specialize.attention import (
    ATTENTION,
    AttentionLoop,
    IndexRange,
    KeyLoop,
    ScaledRowMax,
    TileMask,
    heavy_first_axes,
    query_in_registers,
    recognize,
    scaled_row_maxes,
    sequence,
)
from ttpipe.passes.warp_specialize.cooperative import (
    Refused,
    StagedStore,
    is_tensor,
    isolate,
    one_warpgroup_module,
    staging_tile,
    store_staged_rows,
)
from ttpipe.passes.warp_specialize.loop_copies import (
    PRODUCER_NUM_WARPS,
    build_partition_loop,
    carried_arguments,
    finish_loop,
    lower_producer,
    partitions,
)
from ttpipe.passes.warp_specialize.partition import CONSUMER, PARTITION, PRODUCER, REMARK, rewrite_on_copy
from ttpipe.passes.warp_specialize.pingpong import PING_PONG, PING_PONG_WARPGROUPS, MmaTurns
from ttpipe.passes.warp_specialize.row_split import WarpgroupRows
from ttpipe.passes.warp_specialize.tma_pipeline import (
    CONSUMER_START_PHASE,
    PRODUCER_START_PHASE,
    PipelineState,
    PipelineTmaAsync,
    stage_bytes,
)


@dataclass
class AttentionSetup:
    """Step 1's buffers and mbarriers, made before the loop."""

    found: AttentionLoop
    ring: PipelineTmaAsync
    queries: dict[ttg.LocalAllocOp, SSAValue]
    """Each Q tile's allocation -> its one-slot buffer."""
    query_barrier: SSAValue
    staged: dict[tt.DescriptorStoreOp, StagedStore]
    turns: MmaTurns | None
    """Where the loop carries `PING_PONG`: the two warpgroups' turn mbarriers."""

    @staticmethod
    def build(found: AttentionLoop) -> AttentionSetup:
        loop, stages = found.loop, found.stages
        ring = PipelineTmaAsync.around(loop, found.keys[0].loads, stages, found.split.warpgroups)
        queries = {alloc: create_alloc(loop, load.result.type, load.location, alloc.result.type.encoding, 1)
                   for alloc, load in found.queries.items()}
        query_barrier = create_barrier_alloc(loop, 1, 1)
        outer = OpBuilder(InsertPoint.before(loop), loop.location)
        staged = {}
        if found.split.warpgroups > 1:
            for store in found.stores:
                query = found.query_staging(store)
                tile = single_buffer_view(outer, queries[query], 0) if query is not None else staging_tile(loop, store)
                staged[store] = StagedStore(tile, create_barrier_alloc(loop, 1, found.split.warpgroups - 1))
        turns = None
        if PING_PONG in loop.attributes:
            turns = MmaTurns(create_barrier_alloc(loop, PING_PONG_WARPGROUPS, 1))
        outer.insert(gpu.BarrierOp())
        return AttentionSetup(found, ring, queries, query_barrier, staged, turns)

    @property
    def shared(self) -> list[SSAValue]:
        return [*self.ring.values, *self.queries.values(), self.query_barrier]

    def buffers_of(self, key: KeyLoop) -> dict[tt.DescriptorLoadOp, SSAValue]:
        """The ring buffer of each TMA load of `key` (by position: every key loop loads the
        first one's tiles)."""
        return dict(zip(key.loads, self.ring.buffers))


def producer_block(setup: AttentionSetup, captures: list[SSAValue]) -> Block:
    """Step 2: the producer's isolated region: Q, then its copy of each key loop, one
    `PipelineState` carried through them, the scalars a later loop's bounds and loads read
    cloned before it."""
    found, loop = setup.found, setup.found.loop
    block = Block(arg_types=[value.type for value in captures])
    mapping: dict[SSAValue, SSAValue] = dict(zip(captures, block.args))
    b = OpBuilder(InsertPoint.at_end(block), loop.location)
    true = b.int_constant(1, 1)
    barrier = single_buffer_view(b, mapping[setup.query_barrier], 0)
    b.insert(ttng.BarrierExpectOp(barrier, true, size=stage_bytes(list(found.queries.values()))), loop.location)
    for alloc, load in found.queries.items():
        slot = single_buffer_view(b, mapping[setup.queries[alloc]], 0)
        indices = [mapping[v] for v in load.indices]
        b.insert(ttng.AsyncTMACopyGlobalToLocalOp(mapping[load.desc], indices, barrier, slot, true), load.location)
    ring = setup.ring.mapped(mapping)
    stages = b.int_constant(found.stages, 32)
    state = None
    for number, key in enumerate(found.keys):
        if number:
            needed = [v for v in producer_reads(key) if v not in mapping]
            for op in backward_slice_in_block(needed, loop.parent_block()):
                if isinstance(op, scf.ForOp):
                    raise Refused("a key loop whose bounds or loads read what an earlier key loop computes")
                clone = b.insert_clone(op.clone(value_mapper=mapping))
                mapping.update(zip(op.results, clone.results))
        producer = build_partition_loop(key.loop, PRODUCER, b, mapping, PRODUCER_START_PHASE, state=state)
        buffers = {load: mapping[buffer] for load, buffer in setup.buffers_of(key).items()}
        lower_producer(producer, ring, buffers, key.loads)
        finish_loop(producer, key.loop, mapping, stages)
        b.set_after(producer.loop)
        state = PipelineState(*producer.loop.results[-2:])
    b.insert(ttg.WarpReturnOp())
    return block


def producer_reads(key: KeyLoop) -> list[SSAValue]:
    """What the producer's copy of `key` reads from outside it: its ops' operands, the
    bounds, the initial values of the iteration arguments it carries (a K offset advanced
    per iteration)."""
    loop = key.loop
    read = [v for op in loop.body.ops if PRODUCER in partitions(op) for v in op.operands]
    read += [loop.lowerBound, loop.upperBound, loop.step, *(loop.initArgs[i] for i in carried_arguments(loop, PRODUCER))]
    return [v for v in read if is_defined_outside_loop(v, loop)]


def producer_captures(setup: AttentionSetup) -> list[SSAValue]:
    """What the producer reads from before the first loop (`producer_reads` of each key
    loop, the Q loads' descriptors and coordinates), then the buffers and mbarriers."""
    found = setup.found
    block = found.loop.parent_block()
    first = block.get_operation_index(found.loop)
    captures: list[SSAValue] = []
    read = [v for key in found.keys for v in producer_reads(key)]
    read += [v for load in found.queries.values() for v in load.operands]
    for value in read:
        top = ancestor_in_block(block, value.owner) if isinstance(value.owner, Operation) else None
        if top is not None and block.get_operation_index(top) >= first:  # between the loops: `producer_block` clones it
            for operand in backward_slice_in_block([value], block):
                read += [v for v in operand.operands if v not in read]
            continue
        if value not in captures:
            captures.append(value)
    return captures + setup.shared


@dataclass
class ConsumerRegion:
    """Step 3 for consumer warpgroup `index` while it is built (the default region for 0,
    which reads outer values directly; `isolate` makes the others isolated)."""

    setup: AttentionSetup
    index: int
    block: Block
    builder: OpBuilder
    rows: WarpgroupRows
    stages: SSAValue
    """The ring depth as an i32 constant of the region."""
    query_registers: dict[SSAValue, SSAValue] = field(default_factory=dict)
    """Each Q tile kept in registers (`query_in_registers`) -> the warpgroup's rows there."""
    max_first: dict[Operation, ScaledRowMax] = field(default_factory=dict)
    """In the version that takes row maxes before the scale: those reduces, their masked
    selects and products (`before_scale`)."""

    @staticmethod
    def start(setup: AttentionSetup, index: int, captures: list[SSAValue]) -> ConsumerRegion:
        """The region's block, the wait for the Q tiles, the views of its Q rows."""
        loop, split = setup.found.loop, setup.found.split
        block = Block(arg_types=[value.type for value in captures] if index else ())
        b = OpBuilder(InsertPoint.at_end(block), loop.location)
        rows = WarpgroupRows(split, index, b, b, loop)
        b.insert(ttng.WaitBarrierOp(single_buffer_view(b, setup.query_barrier, 0), b.int_constant(0, 32)))
        for alloc, buffer in setup.queries.items():
            slot = single_buffer_view(b, buffer, 0)
            tile: MemDescType = slot.type
            mine = MemDescType.get([split.half, *tile.shape[1:]], tile.element_type, tile.encoding,
                                   tile.memory_space, tile.mutable, tile.shape)
            offsets = [index * split.half] + [0] * (len(tile.shape) - 1)
            rows.mapping[alloc.result] = b.insert(ttg.MemDescSubsliceOp(slot, offsets=offsets, result_type=mine),
                                                  alloc.location).result
        return ConsumerRegion(setup, index, block, b, rows, b.int_constant(setup.found.stages, 32))

    # ---------------------------------------------------------------- ops of the body

    def build_ops(self, key: KeyLoop, ops: list[Operation], stage: SSAValue,
                  on_dot: Callable[[ttng.WarpGroupDotOp], object]) -> None:
        """Build the ops `ops` of `key`'s body in order at `rows.builder`, the loaded tiles
        read from ring stage `stage`; each wgmma goes to `on_dot(op)`; free tensors are built
        where read; the producer's ops, scalars already built and ops whose result is
        aliased (`WarpgroupRows.aliases`) are skipped."""
        rows, buffers = self.rows, self.setup.buffers_of(key)
        for op in ops:
            if isinstance(op, tt.DescriptorLoadOp) or CONSUMER not in partitions(op):
                continue
            if op.results and op.results[0] in rows.aliases:
                continue
            if rows.built(op):
                continue
            if op in key.tiles.values():
                load = next(load for load, alloc in key.tiles.items() if alloc is op)
                rows.mapping[op.result] = self.setup.ring.slot(rows.builder, buffers[load], stage)
            elif isinstance(op, MEMDESC_VIEWS) and op.src in rows.mapping:
                try:
                    rows.mapping[op.result] = rebuilt_view(rows.builder, op, rows.mapping[op.src]).result
                except Unsupported as exc:
                    raise Refused(str(exc)) from None
            elif isinstance(op, ttng.WarpGroupDotOp):
                on_dot(op)
            elif op in self.max_first:
                self.before_scale(self.max_first[op], op)
            else:
                rows.visit(op)

    def issue(self, op: ttng.WarpGroupDotOp) -> ttng.WarpGroupDotOp:
        """The warpgroup's async wgmma for `op` (A: its registers, its Q rows, or its Q rows
        loaded into registers once, before the first loop, `query_in_registers`)."""
        rows = self.rows
        a = rows.get(op.a, 0) if is_tensor(op.a) else self.query_operand(op)
        use_c = rows.get(op.useC) if op.useC is not None else None
        dot = rows.builder.insert(ttng.WarpGroupDotOp(a, rows.mapping[op.b], rows.get(op.c, 0), use_c,
                                                      input_precision=op.inputPrecision,
                                                      max_num_imprecise_acc=op.maxNumImpreciseAcc, is_async=True),
                                  op.location)
        rows.mapping[op.d] = dot.d
        return dot

    def query_operand(self, op: ttng.WarpGroupDotOp) -> SSAValue:
        """The A operand of `op`, whose A is a Q tile: the warpgroup's rows in shared memory,
        or in the dot-operand layout of its accumulator, loaded where free values before the
        loops go (`WarpgroupRows.outer`) when the first wgmma reading them is built."""
        rows, split = self.rows, self.setup.found.split
        view = rows.mapping[op.a]
        if not query_in_registers(op.a.owner, split.half):
            return view
        if op.a not in self.query_registers:
            tile: MemDescType = view.type
            encoding = dot_operand_encoding(0, rows.get(op.c, 0).type.encoding, element_bit_width(tile.element_type))
            loaded = TensorType(tile.element_type, tile.shape, encoding)
            self.query_registers[op.a] = rows.outer.insert(ttg.LocalLoadOp(view, result_type=loaded),
                                                           op.location).result
        return self.query_registers[op.a]

    def wait(self, values: list[SSAValue], pendings: int, location: Attribute) -> None:
        """`warp_group_dot_wait {pendings}` forwarding the original `values` (as built)."""
        rows = self.rows
        wait = rows.builder.insert(ttng.WarpGroupDotWaitOp([rows.mapping[v] for v in values], pendings=pendings),
                                   location)
        rows.mapping.update(zip(values, wait.outputs))

    def all_true(self, masks: list[TileMask]) -> SSAValue:
        """An i1: every comparison of every mask holds at its decisive ends, so the masks
        are all true in this iteration (`attention.TileMask`)."""
        b = self.rows.builder
        result = None
        for mask in masks:
            for predicate, lhs, lhs_last, rhs, rhs_last in mask.comparisons:
                holds = b.cmpi(predicate, self.end_of(lhs, lhs_last), self.end_of(rhs, rhs_last))
                result = holds if result is None else b.insert(arith.AndIOp(result, holds)).result
        return result

    def end_of(self, index: IndexRange, last: bool) -> SSAValue:
        """The first or last value of an index range, as an i32 of this iteration."""
        b = self.rows.builder
        offset = index.end - 1 if last else index.start
        if index.base is None:
            return b.int_constant(offset, 32)
        base = self.rows.get(index.base)
        return base if offset == 0 else b.addi(base, b.int_constant(offset, 32))

    def build_tail(self, key: KeyLoop, stage: SSAValue, outputs: list[tuple[SSAValue, SSAValue | None]]) -> None:
        """The overlap's tail (the softmax) at `rows.builder`. With masked selects whose masks
        can be all true (`SoftmaxOverlap.masks`): `scf.if` on that, the tail without the
        selects where it holds, with them where not, yielding the `outputs` (value, the
        value whose row axis it has) the rest of the iteration reads."""
        plan, rows = key.overlap, self.rows
        if not plan.masks:
            self.build_ops(key, plan.tail, stage, self.issue)
            return
        b = rows.builder
        condition = self.all_true(plan.masks)
        types = [rows.split.share_type(value.type, rows.split.axes.get(axis_of or value))
                 if is_tensor(value) else value.type for value, axis_of in outputs]
        branches = [Block(), Block()]
        guarded = b.insert(scf.IfOp(condition, types, Region(branches[0]), Region(branches[1])), key.loop.location)
        saved = dict(rows.mapping)
        unmasked = {mask.select.result: mask.select.true_value for mask in plan.masks}
        for block, aliases in zip(branches, (unmasked, {})):
            rows.mapping = dict(saved)
            rows.aliases = aliases
            rows.builder = OpBuilder(InsertPoint.at_end(block), key.loop.location)
            rows.scopes.append({})
            self.build_ops(key, plan.tail, stage, self.issue)
            rows.builder.insert(scf.YieldOp(*(self.carried(value, axis_of) for value, axis_of in outputs)))
            rows.scopes.pop()
        rows.aliases = {}
        rows.mapping = saved
        rows.mapping.update(zip((value for value, _ in outputs), guarded.results))
        rows.builder = b

    def scale_in_range(self, scaled_maxes: list[ScaledRowMax]) -> SSAValue:
        """An i1: every (run-time) scale of `scaled_maxes` is in (0, inf) (`ScaledRowMax`)."""
        b = self.rows.builder
        result = None
        for found in scaled_maxes:
            scale = self.rows.get(found.scale)
            zero = b.insert(arith.ConstantOp(FloatAttr(0.0, scale.type))).result
            infinity = b.insert(arith.ConstantOp(FloatAttr(math.inf, scale.type))).result
            positive = b.insert(arith.CmpFOp(CmpFPredicate.ogt, scale, zero)).result
            finite = b.insert(arith.CmpFOp(CmpFPredicate.olt, scale, infinity)).result
            holds = b.andi(positive, finite)
            result = holds if result is None else b.andi(result, holds)
        return result

    def before_scale(self, found: ScaledRowMax, op: Operation) -> None:
        """`found`'s op `op` (its product, masked select or reduce) where the max is taken over
        the unscaled scores, then scaled. The masked select, where it is built (not where it
        is known to pick the product, `WarpgroupRows.aliases`), becomes the select of the
        scores themselves, scaled after: `select(mask, s, -inf) c` is `select(mask, s c,
        -inf)` bit for bit for c in (0, inf), so the product is not built for it (unless
        something else reads it) and each tile's multiply has one reader, the exponent's
        subtraction, with which it fuses into an FFMA. The reduce reads the scores, or their
        select, and its row vector is multiplied by the scale."""
        rows, b = self.rows, self.rows.builder
        masked = found.masked is not None and found.masked.result not in rows.aliases
        if op is found.product.owner:
            if not masked or any(use.operation is not found.masked for use in found.product.uses):
                rows.visit(op)
            return
        scores = rows.get(found.scores, rows.split.axes.get(found.scores))
        if op is found.masked:
            with rows.reading_as(found.product, scores):
                rows.build(found.masked)
            unscaled = rows.mapping[found.masked.result]
            scale = self.scale_tile(found, unscaled.type, op.location)
            rows.mapping[found.masked.result] = b.insert(arith.MulFOp(unscaled, scale), op.location).result
            return
        source = found.reduce.srcs[0]
        # where masked, the select as built is `mulf(select of the scores, scale)` (above)
        with rows.reading_as(source, rows.mapping[source].owner.lhs if masked else scores):
            rows.visit(found.reduce)
        row_max = rows.mapping[found.reduce.results[0]]
        scale = self.scale_tile(found, row_max.type, found.reduce.location)
        rows.mapping[found.reduce.results[0]] = b.insert(arith.MulFOp(row_max, scale), found.reduce.location).result

    def scale_tile(self, found: ScaledRowMax, type_: TensorType, location: Attribute) -> SSAValue:
        """`found`'s scale as a tensor of `type_`: a splat of the scalar, or a constant."""
        b = self.rows.builder
        if found.known is not None:
            return b.insert(arith.ConstantOp(DenseElementsAttr.splat(type_, found.known)), location).result
        return b.insert(tt.SplatOp(self.rows.get(found.scale), result_type=type_), location).result

    def carried(self, value: SSAValue, axis_of: SSAValue | None = None) -> SSAValue:
        """`value` as built, along the axis of `axis_of` (itself by default)."""
        return self.rows.get(value, self.rows.split.axes.get(value if axis_of is None else axis_of))

    def new_loop(self, key: KeyLoop, b: OpBuilder, bounds: list[SSAValue],
                 inits: list[SSAValue]) -> tuple[scf.ForOp, OpBuilder]:
        loop = key.loop
        body = Block(arg_types=[loop.body.args[0].type, *(value.type for value in inits)])
        new = b.insert(scf.ForOp(*bounds, inits, body=body, unsigned_cmp=loop.unsignedCmp is not None), loop.location)
        new.attributes[NUM_STAGES] = int_attr(0)
        return new, OpBuilder(InsertPoint.at_end(body), loop.location)

    # ---------------------------------------------------------------- the loop in order

    def in_order(self, key: KeyLoop, state: PipelineState) -> tuple[list[SSAValue], PipelineState]:
        """`key`'s body in its order (no overlap within the warpgroup), from ring state
        `state`: the first wgmma waited at once, retiring the previous iteration's, then the
        previous stage released; returns the values of the loop's results, flushed, and the
        ring state after it."""
        setup, found, rows, b = self.setup, key, self.rows, self.builder
        loop, turns, index = key.loop, setup.turns, self.index
        args = loop.body.args
        if turns:
            turns.wait(b, index, b.int_constant(turns.start_parity(index), 32))
        inits = [self.carried(init, arg) for init, arg in zip(loop.initArgs, args[1:])]
        inits += [state.index, state.phase]
        if turns:
            inits.append(b.int_constant(turns.start_parity(index) ^ 1, 32))
        bounds = [rows.get(v) for v in (loop.lowerBound, loop.upperBound, loop.step)]
        new_loop, bb = self.new_loop(key, b, bounds, inits)
        body = new_loop.body
        rows.outer = OpBuilder(InsertPoint.before(new_loop), loop.location)
        saved = dict(rows.mapping)
        rows.mapping.update(zip(args, body.args))
        carried = len(loop.initArgs)
        state = PipelineState(body.args[carried + 1], body.args[carried + 2])
        turn_parity = body.args[carried + 3] if turns else None
        rows.builder = bb
        rows.scopes.append({})
        setup.ring.consumer_wait(bb, state)
        turn_taken = False

        def on_dot(op: ttng.WarpGroupDotOp) -> None:
            nonlocal turn_taken
            if turns and op is not found.dots[0] and not turn_taken:
                turns.wait(bb, index, turn_parity)  # this iteration's PV and the next one's QK
                turn_taken = True
            self.issue(op)
            if op is found.dots[0]:
                if turns:
                    turns.pass_to_other(bb, index)
                self.wait([op.d, *(args[1 + i] for i in found.in_flight)], 0, op.location)
                first = bb.cmpi(CmpIPredicate.ne, body.args[0], bounds[0])
                setup.ring.consumer_release(bb, state.previous_index(bb, self.stages), first)
            elif any(not isinstance(use.operation, scf.YieldOp) for use in op.d.uses):
                self.wait([op.d], 0, op.location)

        self.build_ops(key, [op for op in loop.body.ops if not isinstance(op, scf.YieldOp)], state.index, on_dot)
        yielded = loop.body.last_op.operands
        next_state = state.advance(bb, self.stages)
        next_turn = [bb.xori(turn_parity, bb.int_constant(1, 32))] if turns else []
        bb.insert(scf.YieldOp(*(self.carried(v, arg) for v, arg in zip(yielded, args[1:])),
                              next_state.index, next_state.phase, *next_turn))
        rows.scopes.pop()
        rows.mapping = saved
        rows.builder = b
        if turns:
            turns.pass_to_other(b, index)  # the turn taken for the last PV (or before the loop)
        results = list(new_loop.results[:carried])
        flushed = [results[i] for i in found.in_flight]
        if flushed:
            flush = b.insert(ttng.WarpGroupDotWaitOp(flushed, pendings=0), loop.location)
            for i, value in zip(found.in_flight, flush.outputs):
                results[i] = value
        return results, PipelineState(*new_loop.results[carried:carried + 2])

    # ---------------------------------------------------------------- the overlapped loop

    def overlapped(self, key: KeyLoop, state: PipelineState,
                   release_last: bool) -> tuple[list[SSAValue], PipelineState]:
        """FlashAttention-3's intra-warpgroup overlap (`attention.SoftmaxOverlap`), the loop
        rotated by one iteration under `scf.if (lower < upper)`:

            prologue   wait full[0]; S_0 = Q K_0^T; wait(0); softmax_0 -> P_0, alpha_0
            for j in 1 .. n-1 (carrying O, m, l, P, alpha, the state of stage j):
                       wait full[j]; S_j = Q K_j^T (issued)
                       O = O * alpha_{j-1} + P_{j-1} V_{j-1} (issued)
                       wait(1): S_j done, P V still computing
                       softmax_j -> P_j, alpha_j (free to run under P V; see
                                   `attention.SoftmaxOverlap` for where ptxas waits)
                       wait(0): O; release stage j - 1
            epilogue   O = O * alpha_{n-1} + P_{n-1} V_{n-1}; wait(0)

        With ping-pong turns, each warpgroup takes a turn for the wgmmas it issues back to
        back (S_0; S_j with the update; the last update). From ring state `state`; with
        `release_last`, the last stage is released too (a later key loop reuses the ring).
        Returns the loop's results and the ring state after it."""
        setup, found, rows, b = self.setup, key, self.rows, self.builder
        loop, turns, index, plan = key.loop, setup.turns, self.index, key.overlap
        args, yielded = loop.body.args, loop.body.last_op.operands
        accumulator = args[1 + found.in_flight[0]]
        others = [i for i in range(len(loop.initArgs)) if i not in found.in_flight]
        score = found.dots[0]
        lower, upper, step = (rows.get(v) for v in (loop.lowerBound, loop.upperBound, loop.step))
        inits = [self.carried(init, arg) for init, arg in zip(loop.initArgs, args[1:])]
        ran = runs(b, loop, lower, upper)
        then_block, else_block = Block(), Block()
        OpBuilder(InsertPoint.at_end(else_block), loop.location).insert(scf.YieldOp(*inits, state.index, state.phase))
        guarded = b.insert(scf.IfOp(ran, [value.type for value in (*inits, state.index, state.phase)],
                                    Region(then_block), Region(else_block)), loop.location)
        rows.outer = OpBuilder(InsertPoint.before(guarded), loop.location)  # free values read after it too
        tb = OpBuilder(InsertPoint.at_end(then_block), loop.location)
        outer_mapping = dict(rows.mapping)

        def enter(builder: OpBuilder, values: dict[SSAValue, SSAValue]) -> None:
            rows.mapping = dict(outer_mapping) | values
            rows.builder = builder
            rows.scopes.append({})

        def leave() -> None:
            rows.scopes.pop()

        def turn(builder: OpBuilder, parity: SSAValue | None) -> None:
            if turns:
                turns.wait(builder, index, parity)

        def pass_turn(builder: OpBuilder) -> None:
            if turns:
                turns.pass_to_other(builder, index)

        # Prologue: iteration 0's head and tail.
        enter(tb, {args[0]: lower} | {args[1 + i]: inits[i] for i in others})
        setup.ring.consumer_wait(tb, state)
        parity = tb.int_constant(turns.start_parity(index), 32) if turns else None
        turn(tb, parity)
        self.build_ops(key, plan.head, state.index, self.issue)
        pass_turn(tb)
        self.wait([score.d], 0, score.location)
        tail_outputs = [(yielded[i], args[1 + i]) for i in others] + [(v, None) for v in plan.crossing]
        self.build_tail(key, state.index, tail_outputs)
        loop_inits = [inits[found.in_flight[0]], *(self.carried(yielded[i], args[1 + i]) for i in others),
                      *(self.carried(v) for v in plan.crossing)]
        state = state.advance(tb, self.stages)
        loop_inits += [state.index, state.phase] + ([tb.xori(parity, tb.int_constant(1, 32))] if turns else [])
        leave()

        # The rotated loop: iteration j's head and tail, iteration j - 1's update.
        rows.mapping = dict(outer_mapping)
        rotated, bb = self.new_loop(key, tb, [tb.addi(lower, step), upper, step], loop_inits)
        body = rotated.body.args
        n_others, n_crossing = len(others), len(plan.crossing)
        carried_acc, carried_others = body[1], body[2:2 + n_others]
        carried_crossing = body[2 + n_others:2 + n_others + n_crossing]
        state = PipelineState(*body[2 + n_others + n_crossing:4 + n_others + n_crossing])
        parity = body[4 + n_others + n_crossing] if turns else None
        enter(bb, {args[0]: body[0], accumulator: carried_acc} | dict(zip((args[1 + i] for i in others),
                                                                           carried_others)))
        setup.ring.consumer_wait(bb, state)
        turn(bb, parity)
        self.build_ops(key, plan.head, state.index, self.issue)
        previous = state.previous_index(bb, self.stages)
        head_values = dict(rows.mapping)
        rows.mapping.update(zip(plan.crossing, carried_crossing))
        rows.mapping[accumulator] = carried_acc
        output = [op for op in plan.update if op is found.dots[1]][0]
        self.build_ops(key, plan.update, previous, self.issue)
        pass_turn(bb)
        update_result = rows.mapping[output.d]
        rows.mapping = head_values
        rows.mapping[output.d] = update_result
        self.wait([score.d], 1, score.location)
        self.build_tail(key, state.index, tail_outputs)
        self.wait([output.d], 0, output.location)
        setup.ring.consumer_release(bb, previous, bb.int_constant(1, 1))
        next_state = state.advance(bb, self.stages)
        bb.insert(scf.YieldOp(rows.mapping[output.d], *(self.carried(yielded[i], args[1 + i]) for i in others),
                              *(self.carried(v) for v in plan.crossing), next_state.index, next_state.phase,
                              *([bb.xori(parity, bb.int_constant(1, 32))] if turns else [])))
        leave()

        # Epilogue: the last iteration's update.
        results = rotated.results
        enter(tb, {accumulator: results[0]} | dict(zip(plan.crossing, results[1 + n_others:1 + n_others + n_crossing])))
        last = PipelineState(*results[1 + n_others + n_crossing:3 + n_others + n_crossing])
        turn(tb, results[3 + n_others + n_crossing] if turns else None)
        last_stage = last.previous_index(tb, self.stages)
        self.build_ops(key, plan.update, last_stage, self.issue)
        pass_turn(tb)
        self.wait([output.d], 0, output.location)
        if release_last:
            setup.ring.consumer_release(tb, last_stage, tb.int_constant(1, 1))
        final = {found.in_flight[0]: rows.mapping[output.d]} | dict(zip(others, results[1:1 + n_others]))
        leave()
        tb.insert(scf.YieldOp(*(final[i] for i in range(len(inits))), last.index, last.phase))

        rows.mapping = outer_mapping
        rows.builder = b
        return list(guarded.results[:len(inits)]), PipelineState(*guarded.results[len(inits):])

    # ---------------------------------------------------------------- after the loop

    def program(self) -> None:
        """The key loops from the ring's first stage, the ops between them, the epilogue, at
        `builder`."""
        setup, found, rows, b = self.setup, self.setup.found, self.rows, self.builder
        state = PipelineState(b.int_constant(0, 32), b.int_constant(CONSUMER_START_PHASE, 32))
        for number, key in enumerate(found.keys):
            more = number + 1 < len(found.keys)
            if key.overlap is not None:
                results, state = self.overlapped(key, state, release_last=more)
            else:
                results, state = self.in_order(key, state)
                if more:
                    ran = runs(b, key.loop, rows.get(key.loop.lowerBound), rows.get(key.loop.upperBound))
                    setup.ring.consumer_release(b, state.previous_index(b, self.stages), ran)
            rows.mapping.update(zip(key.loop.results, results))
            for op in found.between[number] if more else ():
                rows.visit(op)
        self.epilogue()

    def epilogue(self) -> None:
        """The epilogue at the warpgroup's rows, reading the last loop's results."""
        setup, found, rows, b = self.setup, self.setup.found, self.rows, self.builder
        split = found.split
        for op in found.epilogue:
            if isinstance(op, tt.DescriptorStoreOp) and op in setup.staged:
                store_staged_rows(b, op, rows.get(op.src, 0), 0, split.half, self.index, setup.staged[op], None,
                                  lambda: (rows.get(op.desc), [rows.get(v) for v in op.indices]))
            elif isinstance(op, tt.StoreOp):
                axis = split.axes[op.value]
                operands = [rows.get(v, axis if is_tensor(v) else None) for v in op.operands]
                b.insert_clone(op.clone(value_mapper=dict(zip(op.operands, operands))))
            elif isinstance(op, tt.DescriptorStoreOp):
                operands = [rows.get(v, 0 if v is op.src else None) for v in op.operands]
                b.insert_clone(op.clone(value_mapper=dict(zip(op.operands, operands))))
            elif (query := found.query_routing(op)) is not None:
                mine = rows.mapping[query.result]
                b.insert(ttg.LocalStoreOp(rows.get(op.src, 0), mine), op.location)
                share = split.share_type(op.result.type, 0)
                rows.mapping[op.result] = b.insert(ttg.LocalLoadOp(mine, result_type=share), op.location).result
            else:
                rows.visit(op)

    def finish(self) -> Block:
        """The region's terminator; the block."""
        self.builder.insert(ttg.WarpYieldOp([]) if self.index == 0 else ttg.WarpReturnOp())
        for op in self.block.walk():
            op.attributes.pop(PARTITION, None)  # on the clones of the body's ops
        return self.block


def consumer_block(setup: AttentionSetup, index: int, captures: list[SSAValue]) -> Block:
    """Step 3 for consumer warpgroup `index`: each key loop from the ring state the one
    before left (the last stage of every loop but the last released for the next), the ops
    between them, the epilogue. With row maxes of scores scaled by run-time scalars
    (`ScaledRowMax`), all that in two versions under `scf.if` on the scales being in (0, inf),
    those maxes taken before the scale in the first (the condition is the same in every
    warpgroup, so each runs one version and the ring sees one protocol); maxes of scores
    scaled by constants in (0, inf) are taken before the scale in every version."""
    region = ConsumerRegion.start(setup, index, captures)
    scaled = scaled_row_maxes(setup.found)
    constant_scales = {op: found for found in scaled if found.known is not None for op in found.ops}
    at_run_time = [found for found in scaled if found.known is None]
    if not at_run_time:
        region.max_first = constant_scales
        region.program()
        return region.finish()
    rows = region.rows
    condition = region.scale_in_range(at_run_time)
    versions = [Block(), Block()]
    guarded = region.builder.insert(scf.IfOp(condition, [], Region(versions[0]), Region(versions[1])),
                                    setup.found.loop.location)
    mapping, scopes = dict(rows.mapping), [dict(scope) for scope in rows.scopes]
    before_scale = {op: found for found in scaled for op in found.ops}
    for block, max_first in zip(versions, (before_scale, constant_scales)):
        rows.mapping, rows.scopes = dict(mapping), [dict(scope) for scope in scopes]
        region.builder = rows.builder = rows.outer = OpBuilder(InsertPoint.at_end(block), setup.found.loop.location)
        region.max_first, region.query_registers = max_first, {}
        region.program()
        region.builder.insert(scf.YieldOp())
    region.builder = rows.builder = OpBuilder(InsertPoint.after(guarded), setup.found.loop.location)
    return region.finish()


def lower(loop: scf.ForOp) -> None:
    """Steps 1-4 for one stamped attention loop and the key loops after it; `Refused` where
    the row split fails."""
    found = recognize(loop, 0)  # the ring depth phase 1 chose is the loop's tt.num_stages
    func = loop.parent_op()
    for axis in heavy_first_axes(found):
        reverse_programs(func, axis)
    setup = AttentionSetup.build(found)
    captures = producer_captures(setup)
    producer = producer_block(setup, captures)
    consumers = [consumer_block(setup, index, captures) for index in range(found.split.warpgroups)]
    isolate(consumers[1:], captures, [*consumers[1:], producer])
    outer = OpBuilder(InsertPoint.before(loop), loop.location)
    ws = outer.insert(ttg.WarpSpecializeOp(
        captures, default_region=Region(consumers[0]),
        partition_regions=[Region(block) for block in (*consumers[1:], producer)],
        partition_num_warps=[WARPS_PER_WARPGROUP] * (len(consumers) - 1) + [PRODUCER_NUM_WARPS]))
    ws.partitions_op.location = loop.location
    for op in reversed(found.epilogue):
        Rewriter.erase_op(op, safe_erase=False)
    for key, between in reversed(list(zip(found.keys, [[], *found.between]))):
        Rewriter.erase_op(key.loop, safe_erase=False)
        for op in reversed(between):
            Rewriter.erase_op(op, safe_erase=False)
    for alloc, load in found.queries.items():
        Rewriter.erase_op(alloc, safe_erase=False)
        Rewriter.erase_op(load, safe_erase=False)
    one_warpgroup_module(func)


def reverse_programs(func: tt.FuncOp, axis: int) -> None:
    """Every `tt.get_program_id` along `axis` of `func` reads `num_programs - 1 - pid`."""
    for op in [op for op in func.walk() if isinstance(op, tt.GetProgramIdOp) and op.axis.value.data == axis]:
        b = OpBuilder(InsertPoint.after(op), op.location)
        count = b.insert(tt.GetNumProgramsOp(axis)).result
        last = b.subi(count, b.int_constant(1, 32))
        reversed_id = b.subi(last, op.result)
        op.result.replace_uses_with_if(reversed_id, lambda use: use.operation is not reversed_id.owner)


def _unstamp(loop: scf.ForOp) -> None:
    """Take phase 1's stamps off `loop` and the key loops it stamped with it."""
    for each in sequence(loop)[0]:
        for op in each.walk():
            op.attributes.pop(PARTITION, None)
    loop.attributes.pop(ATTENTION, None)
    loop.attributes.pop(PING_PONG, None)


def lower_or_decline(loop: scf.ForOp) -> None:
    """`lower` on a copy of the function, which replaces it on success (`rewrite_on_copy`);
    else the loop is left as it was, unstamped, with a remark."""
    func = loop.parent_op()
    position = [op for op in func.walk() if isinstance(op, scf.ForOp)].index(loop)
    _, refused = rewrite_on_copy(func, lambda copy: lower([op for op in copy.walk()
                                                           if isinstance(op, scf.ForOp)][position]))
    if refused is not None:
        _unstamp(loop)
        emit_remark(loop, REMARK + str(refused))


def is_attention_loop(loop: scf.ForOp) -> bool:
    return ATTENTION in loop.attributes

