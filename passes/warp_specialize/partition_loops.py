"""`ttpipe-ws-partition-loops`: phase 2 of Hopper warp specialization, the ring and the
partition loops under `ttg.warp_specialize`.

Algorithm, for every `scf.for` whose body ops carry `ttg.partition` (phase 1):
  1. The ring (`PipelineTmaAsync`): for each TMA load a `tt.num_stages x tile` buffer in
     the descriptor's encoding; `stages` full mbarriers of count 1 (the producer's
     expect-tx arrival) and `stages` empty mbarriers of count `CONSUMER_WARPGROUPS`; all
     allocated and initialised before the loop, invalidated and freed after it; then a
     `gpu.barrier`, so every warp sees the initialised mbarriers.
  2. `ttg.warp_specialize` in place of the loop: the default region (the module's warps)
     is the consumer, the last partition (`PRODUCER_NUM_WARPS` warps) the producer. The
     producer captures the loop-invariant values its ops read, the loop bounds, the ring
     and the mbarriers (block arguments of its isolated region). With C > 1 consumer
     warpgroups (`ttg.num-warps = 4 C`), consumer warpgroup 0 is the default region and
     warpgroups 1..C-1 are 4-warp partitions before the producer's, made isolated
     (`cooperative.isolate`: what they read from outside becomes a capture, scalar
     constants are re-created).
  3. Each partition gets a copy of the loop with the same bounds: the ops stamped with its
     partition, the iteration arguments those ops read or define (the consumer also those
     whose results are read after the loop), and a `PipelineState` (index, phase) as two
     more iteration arguments, advanced at the end of each iteration. Carried rather than
     computed from the induction variable: no division per iteration, and any lower bound
     and step work alike.
  4. Producer loop: `producer_acquire` (wait empty[index] with the producer phase, which
     starts at 1; expect the stage's bytes on full[index]) before the first load; each
     `tt.descriptor_load` becomes `ttng.async_tma_copy_global_to_local` into its buffer's
     stage `index`, signalling full[index]; `producer_commit` (nothing to emit for TMA).
  5. Consumer loop: `consumer_wait` (full[index], phase starting at 0) before the first read
     of the stage; the `local_alloc`s of the loaded tiles become views of stage `index`
     (their memdesc views rebuilt on them); the wgmmas become async, followed by one
     `warp_group_dot_wait {pendings = number of wgmmas}` forwarding their results and
     operands, which retires the previous iteration's wgmmas (one wgmma group stays in
     flight per dot); then `consumer_release` of the previous iteration's stage, except in
     the first iteration. The accumulators are yielded from the wait.
  6. After the consumer loop, one `warp_group_dot_wait {pendings = 0}` flushes the last
     wgmmas (seed 001: a single flush, where the results are read); the default region
     yields the loop's read results (`ttg.warp_yield`), which replace the loop's. The last
     stage is never released: the producer issued its last acquire already, and the
     mbarriers are invalidated after `ttg.warp_specialize`, when all warps have joined.
  7. Cooperative warpgroups (`cooperative.py`): each consumer loop's wgmmas read their
     warpgroup's M rows of the A stage (`memdesc_subslice`) into an accumulator of those
     rows; after each flush, the warpgroup's share of the epilogue is rebuilt in its region
     (TMA stores gathered in a staging tile and issued once by warpgroup 0), the default
     region yields nothing, the original epilogue and loop are erased, and the module's
     `ttg.num-warps` becomes 4.
  8. The loops get `tt.num_stages = 0`, as Triton's Hopper warp specialization stamps
     the loops it lowered: `ttpipe-assign-latencies` and `tritongpu-assign-latencies`
     assign nothing to loops of fewer than 2 stages, so the scheduler and the pipeliner
     (whose wgmma step also needs `tt.num_stages >= 1`) leave them alone, and neither loop
     carries `tt.warp_specialize`, the attribute `nvgpu-warp-specialization` looks for.

  9. Persistent kernels (phase 1's `partition_persistent`: the tile loop's ops stamped too,
     `lower_persistent`): the ring is allocated around the tile loop. seed 000 ("merge the
     output-tile and cta-k iterDomains") is realised as the producer's own copy of the tile
     loop with its K loop inside, ONE `PipelineState` carried through both (iteration
     arguments of each; the K loop starts from the tile loop's state and the tile loop
     yields the K loop's), so the ring never drains between tiles. A literal merged loop
     `0 .. tiles x k_tiles` would need a div/mod per iteration to recover (tile, k) and a
     tile count computed up front; the nest runs the same (tile, k) sequence without them.
     The consumer's copy of the tile loop holds its clones of the tile loop's ops in order:
     the offset arithmetic, its K loop (carrying the same state in the same sequence: the
     compute loop is derived from the load loop, same tile order, same stage/phase
     sequence), the flush `warp_group_dot_wait {pendings = 0}`, then `consumer_release` of
     the tile's last stage where its K loop ran (lower < upper bound), then the epilogue
     (reading the flushed accumulator); the accumulator's zero-init is the K loop's
     initial value, so it restarts per tile. The "no release in the first iteration" test
     compares the K loop's induction variable with its lower bound: per tile. Releasing
     each tile's last stage is what lets the producer of the next tiles reuse it (the
     protocol model `test_warp_specialize_protocol.py` runs the nest, tiles 0-5 x K
     iterations 0-5, stages 2-4, one and two consumers, and shows the hang without it).
     Epilogue `tt.descriptor_store`s stay as they are: Triton's TMA lowering stages each
     in its own shared tile and waits for the store to read it (`async_tma_store_wait
     {pendings = 0}`) before the next tile can rewrite it (a blocking wait per tile; the
     ring of epilogue buffers of seed 003 is a later round).
 10. Persistent kernels with cooperative warpgroups (`num_warps=8`): the empty mbarriers
     count C arrivals; each consumer warpgroup has its own copy of the tile loop (the tile
     loop's scalar ops cloned, its tensor ops, the zero-init, rebuilt at the warpgroup's
     rows) with step 9's K loop, flush and last-stage release, then its share of the
     epilogue (step 7). Each `tt.descriptor_store` has a staging tile and a full/empty
     mbarrier pair allocated around the tile loop; the consumer tile loops carry the
     pair's phase parity as a third iteration argument (after index and phase), 0 at the
     first tile, flipped at each yield (`cooperative.StagedStore`). Pointer stores need no
     staging: each warpgroup stores its own rows. Without a cooperative split, each
     consumer region stores its tiles through a staging tile of its own, allocated with
     the ring, waiting for the previous tile's store only before rewriting it
     (`epilogue_store.py`); every region that issues TMA stores waits for them once
     after its tile loop.

 11. Ping-pong persistent kernels (`ttpipe.ping_pong` on the tile loop, `pingpong.py`): two
     consumer regions (the default region and a 4-warp partition) each with the whole
     one-warpgroup consumer of step 9 over its own tiles (iterations w, w + 2, ... of the
     tile loop), the empty mbarriers counting one arrival; a K trip count computed once
     before each consumer tile loop, by which warpgroup 1 starts into the ring and each
     skips the other's tile after its own (`PipelineState.skip`); the turn mbarriers
     (`MmaTurns`, allocated with the ring) waited before each K loop and passed on after
     it, their parity a further iteration argument of each consumer tile loop. Tensors the
     second region reads from outside (the zero-init, LICM-hoisted epilogue offsets) are
     re-created in it (`cooperative.isolate`).

 12. An epilogue partition (`ttpipe.epilogue_partition` on the tile loop,
     `epilogue_partition.py`): a channel of one buffer per consumer region per TMA store
     and a full/empty mbarrier pair per buffer, allocated with the ring; each consumer
     region's epilogue writes its tile into its buffer and commits (its acquire parity a
     further iteration argument of its tile loop) instead of storing; a last, one-warp
     partition runs its own copy of the tile loop (every tile, a state over the buffers),
     the stores' index arithmetic cloned, and issues the TMA stores.

Correct for any trip count: all loops run the same iterations; with none, no barrier
is touched and the flush waits for nothing; with fewer than `stages`, the producer's
waits all pass on fresh empty mbarriers (phase 1) and never wait for a release. For
k >= stages, the producer's wait for iteration k needs the release of iteration k -
stages, which each consumer issues in iteration k - stages + 1 <= k - 1 after waiting only
for loads of iterations <= k - 1: no cycle (with C consumers the empty phase completes at
the C-th arrival, so the producer waits for every consumer's release). The staging
mbarrier of a cooperative TMA store is used once: warpgroups 1..C-1 arrive after their
rows are in shared memory; warpgroup 0 waits for phase 0, then stores. In a persistent
kernel, tile t (counted per CTA) uses parity t & 1: warpgroup 0 waits full phase t (the
arrivals of tile t), and warpgroups 1..C-1 wait empty phase t (warpgroup 0's arrival at
the start of tile t's epilogue, once tile t - 1's store has read the tile) before writing;
neither side can run two tiles ahead of the other, so the parity never aliases (the
protocol model runs it).

Preconditions: phase 1's (the stamps are trusted). Attributes read: `ttg.partition`,
`tt.num_stages`, `ttg.num-warps`; written: `tt.num_stages = 0` on the new loops,
`ttg.num-warps = 4` on the module with cooperative warpgroups; `ttg.partition` is dropped.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import IntegerAttr, ModuleOp, TensorType, i1, i32
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from ttpipe.dialects import gpu, scf, tt, ttg, ttng
from ttpipe.dialects.arith import CmpIPredicate
from ttpipe.passes.common.builder import OpBuilder
from ttpipe.passes.common.hardware import WARPS_PER_WARPGROUP
from ttpipe.passes.common.ir import runs, trip_count
from ttpipe.passes.pipeline.lower_loops import (
    StageBuilder,
    create_alloc,
    create_barrier_alloc,
    encoding_from_descriptor,
    replace_uses_and_propagate_type,
)
from ttpipe.passes.pipeline.pipelining_utility import is_defined_outside_loop
from ttpipe.passes.pipeline.schedule import NUM_STAGES, CoarseSchedule, body_ops, get_int, int_attr
from ttpipe.passes.warp_specialize.cooperative import (
    CooperativeSplit,
    StagedStore,
    WarpgroupEpilogue,
    consumer_warpgroups,
    erase_epilogue,
    isolate,
    one_warpgroup_module,
    plan,
    staging_tile,
    warpgroup_dot,
)
from ttpipe.passes.warp_specialize import epilogue_partition, epilogue_store, pingpong
from ttpipe.passes.warp_specialize.attention_lowering import is_attention_loop, lower_or_decline
from ttpipe.passes.warp_specialize.loop_copies import (
    PRODUCER_NUM_WARPS,
    PartitionLoop,
    build_partition_loop,
    carried_arguments,
    finish_loop,
    lower_producer,
    partitions,
)
from ttpipe.passes.warp_specialize.partition import CONSUMER, PARTITION, PRODUCER
from ttpipe.passes.warp_specialize.tma_pipeline import (
    CONSUMER_START_PHASE,
    PRODUCER_START_PHASE,
    PipelineState,
    PipelineTmaAsync,
)

def lower_consumer(part: PartitionLoop, ring: PipelineTmaAsync, buffers: dict[Operation, SSAValue],
                   tiles: dict[tt.DescriptorLoadOp, ttg.LocalAllocOp], lower_bound: SSAValue,
                   stages: SSAValue, split: CooperativeSplit | None = None, warpgroup: int = 0
                   ) -> dict[SSAValue, SSAValue]:
    """Step 5 (`tiles`: each load's `local_alloc` in the original body; `split`: the
    cooperative split, of which this is consumer `warpgroup`); returns the wait's outputs
    for the wgmma results."""
    loads = list(tiles)
    allocs = [part.cloned[tiles[load]] for load in loads]
    first = min(allocs, key=lambda op: op.parent_block().get_operation_index(op))
    b = part.builder
    b.set_before(first)
    ring.consumer_wait(b, part.state)
    for load, alloc in zip(loads, allocs):
        b.set_before(alloc)
        slot = ring.slot(b, buffers[load], part.state.index)
        replace_uses_and_propagate_type(StageBuilder(CoarseSchedule(), InsertPoint.before(alloc), alloc.location),
                                        alloc, slot)
        Rewriter.erase_op(alloc)
    dots = [op for op in part.loop.body.ops if isinstance(op, ttng.WarpGroupDotOp)]
    replaced = {}
    if split is not None:
        mine = [warpgroup_dot(b, dot, split, warpgroup) for dot in dots]
        replaced = {old.d: new.d for old, new in zip(dots, mine)}
        dots = mine
    for dot in dots:
        dot.properties["isAsync"] = IntegerAttr(1, i1)
    b.set_after(dots[-1])
    guarded = [dot.d for dot in dots] + [v for dot in dots for v in (dot.a, dot.b)]
    wait = b.insert(ttng.WarpGroupDotWaitOp(guarded, pendings=len(dots)), dots[-1].location)
    not_first = b.cmpi(CmpIPredicate.ne, part.loop.body.args[0], lower_bound)
    ring.consumer_release(b, part.state.previous_index(b, stages), not_first)
    waited = dict(zip(guarded, wait.outputs))
    return waited | {old: waited[new] for old, new in replaced.items()}


@dataclass
class RingSetup:
    """Steps 1 (and the staging tiles of a cooperative TMA-store epilogue), made before the
    warp-specialized loop `anchor`: the K loop itself, or the persistent tile loop around it."""

    stages: int
    k_ops: list[Operation]
    loads: list[tt.DescriptorLoadOp]
    tiles: dict[tt.DescriptorLoadOp, Operation]
    """Each TMA load -> the `local_alloc` of its tile."""
    warpgroups: int
    """Consumer warpgroups on each tile (`ttg.num-warps / 4`)."""
    regions: int
    """Consumer regions: the warpgroups, or the two ping-pong warpgroups."""
    split: CooperativeSplit | None
    ring: PipelineTmaAsync
    outer: OpBuilder
    """Inserting before `anchor`."""
    staged: dict[tt.DescriptorStoreOp, StagedStore]
    turns: pingpong.MmaTurns | None
    """The ping-pong turn mbarriers, where the tile loop `anchor` carries `PING_PONG`."""
    epilogue_staging: dict[tt.DescriptorStoreOp, list[SSAValue]]
    """A persistent epilogue's TMA stores (no cooperative split) -> a staging tile per
    consumer region (`epilogue_store.py`)."""
    channel: epilogue_partition.EpilogueChannel | None
    """Where the tile loop carries `EPILOGUE_PARTITION`: the hand-off to the epilogue partition."""

    @property
    def buffers(self) -> dict[tt.DescriptorLoadOp, SSAValue]:
        """Each TMA load -> its ring buffer."""
        return dict(zip(self.loads, self.ring.buffers))

    @staticmethod
    def build(anchor: scf.ForOp, k_loop: scf.ForOp) -> RingSetup:
        """The ring and mbarriers (freed after `anchor`), the staging tiles (with an *empty*
        mbarrier too when `anchor` is a tile loop, whose stores repeat), then a `gpu.barrier`."""
        stages = get_int(k_loop, NUM_STAGES)
        k_ops = body_ops(k_loop)
        loads = [op for op in k_ops if isinstance(op, tt.DescriptorLoadOp)]
        tiles = {load: next(iter(load.result.uses)).operation for load in loads}
        warpgroups = consumer_warpgroups(anchor)
        split = plan(k_loop, [op for op in k_ops if isinstance(op, ttng.WarpGroupDotOp)]) if warpgroups > 1 else None
        ring = PipelineTmaAsync.around(anchor, loads, stages, warpgroups)
        outer = OpBuilder(InsertPoint.before(anchor), anchor.location)

        staged = {}
        if split is not None:
            for store in split.stores:
                if isinstance(store, tt.DescriptorStoreOp):
                    staged[store] = StagedStore(staging_tile(anchor, store),
                                                create_barrier_alloc(anchor, 1, warpgroups - 1),
                                                create_barrier_alloc(anchor, 1, 1) if anchor is not k_loop else None)
        turns = None
        if pingpong.PING_PONG in anchor.attributes:
            turns = pingpong.MmaTurns(create_barrier_alloc(anchor, pingpong.PING_PONG_WARPGROUPS, 1))
        epilogue_staging = {}
        channel = None
        regions = pingpong.PING_PONG_WARPGROUPS if turns else warpgroups
        if epilogue_partition.EPILOGUE_PARTITION in anchor.attributes:
            stores = epilogue_partition.channel_stores(anchor)
            channel_buffers = {store: create_alloc(anchor, store.src.type, store.location,
                                                   encoding_from_descriptor(store.src.type, store.desc), regions)
                               for store in stores}
            channel = epilogue_partition.EpilogueChannel(channel_buffers, create_barrier_alloc(anchor, regions, 1),
                                                         create_barrier_alloc(anchor, regions, 1), regions)
        elif split is None and anchor is not k_loop:
            for op in epilogue_partition.epilogue_ops(anchor):
                if isinstance(op, tt.DescriptorStoreOp):
                    epilogue_staging[op] = [staging_tile(anchor, op) for _ in range(regions)]
        outer.insert(gpu.BarrierOp())
        return RingSetup(stages, k_ops, loads, tiles, warpgroups, regions, split, ring, outer, staged, turns,
                         epilogue_staging, channel)


@dataclass
class ProducerRegion:
    """The producer's partition while it is built: its isolated block (one argument per
    capture), the captures mapped to those arguments, the ring as it sees it, a builder."""

    block: Block
    mapping: dict[SSAValue, SSAValue]
    ring: PipelineTmaAsync
    stages: SSAValue
    builder: OpBuilder

    @staticmethod
    def start(setup: RingSetup, captures: list[SSAValue], location: Attribute) -> ProducerRegion:
        block = Block(arg_types=[value.type for value in captures])
        mapping: dict[SSAValue, SSAValue] = dict(zip(captures, block.args))
        b = OpBuilder(InsertPoint.at_end(block), location)
        return ProducerRegion(block, mapping, setup.ring.mapped(mapping), b.int_constant(setup.stages, 32), b)

    def k_loop(self, setup: RingSetup, k_loop: scf.ForOp, b: OpBuilder,
               state: PipelineState | None = None) -> PartitionLoop:
        """Step 4: the producer's copy of the K loop at `b`, lowered and yielding."""
        producer = build_partition_loop(k_loop, PRODUCER, b, self.mapping, PRODUCER_START_PHASE, state=state)
        lower_producer(producer, self.ring, {load: self.mapping[setup.buffers[load]] for load in setup.loads},
                       setup.loads)
        finish_loop(producer, k_loop, self.mapping, self.stages)
        return producer


def insert_warp_specialize(setup: RingSetup, captures: list[SSAValue], consumers: Sequence[Block],
                           others: Sequence[Block], result_types: Sequence[Attribute],
                           location: Attribute) -> ttg.WarpSpecializeOp:
    """`ttg.warp_specialize` before the anchor: consumer 0 the default region, consumers
    1.. 4-warp partitions, then the producer's and any further one-warp partitions."""
    ws = setup.outer.insert(ttg.WarpSpecializeOp(
        captures, default_region=Region(consumers[0]),
        partition_regions=[Region(block) for block in (*consumers[1:], *others)],
        partition_num_warps=[WARPS_PER_WARPGROUP] * (len(consumers) - 1) + [PRODUCER_NUM_WARPS]
        + [epilogue_partition.EPILOGUE_NUM_WARPS] * (len(others) - 1),
        result_types=list(result_types)))
    ws.partitions_op.location = location
    return ws


def lower_loop(loop: scf.ForOp) -> None:
    """Steps 1-8 for one stamped loop."""
    setup = RingSetup.build(loop, loop)
    stages, ops, tiles, warpgroups, split = setup.stages, setup.k_ops, setup.tiles, setup.warpgroups, setup.split
    buffers, ring, staged = setup.buffers, setup.ring, setup.staged

    captures: list[SSAValue] = []
    for op in ops:
        if PRODUCER in partitions(op):
            for value in op.operands:
                if is_defined_outside_loop(value, loop) and value not in captures:
                    captures.append(value)
    for value in (loop.lowerBound, loop.upperBound, loop.step, *(loop.initArgs[i] for i in
                                                                 carried_arguments(loop, PRODUCER))):
        if value not in captures:
            captures.append(value)
    captures += ring.values

    # The producer, in the last partition (isolated: captures arrive as block arguments).
    producer_region = ProducerRegion.start(setup, captures, loop.location)
    pb = producer_region.builder
    producer = producer_region.k_loop(setup, loop, pb)
    pb.set_after(producer.loop)
    pb.insert(ttg.WarpReturnOp())

    # The consumer warpgroups: the default region, then partitions (isolated below).
    read = [i for i, result in enumerate(loop.results) if result.uses]
    consumer_blocks = []
    for index in range(warpgroups):
        block = Block(arg_types=[value.type for value in captures] if index else ())
        consumer_blocks.append(block)
        cb = OpBuilder(InsertPoint.at_end(block), loop.location)
        consumer_stages = cb.int_constant(stages, 32)
        consumer_map: dict[SSAValue, SSAValue] = {}
        epilogue = None
        if split is not None:
            epilogue = WarpgroupEpilogue(split, index, cb, {})
            consumer_map.update({init: epilogue.share(init, 0) for init in loop.initArgs
                                 if isinstance(init.type, TensorType)})
        consumer = build_partition_loop(loop, CONSUMER, cb, consumer_map, CONSUMER_START_PHASE,
                                        None if split is None else split.carried_type)
        waited = lower_consumer(consumer, ring, buffers, tiles, loop.lowerBound, consumer_stages, split, index)
        finish_loop(consumer, loop, consumer_map, consumer_stages, waited)
        cb.set_after(consumer.loop)
        new_results = {i: consumer.loop.results[consumer.carried.index(i)] for i in read}
        accumulators = [i for i in read if isinstance(new_results[i].type, TensorType)]
        flush = cb.insert(ttng.WarpGroupDotWaitOp([new_results[i] for i in accumulators], pendings=0))
        new_results.update(zip(accumulators, flush.outputs))
        if epilogue is None:
            cb.insert(ttg.WarpYieldOp([new_results[i] for i in read]))
            continue
        epilogue.results.update({loop.results[i]: new_results[i] for i in read})
        for store in split.stores:
            epilogue.store(store, staged.get(store))
        cb.insert(ttg.WarpYieldOp([]) if index == 0 else ttg.WarpReturnOp())
    isolate(consumer_blocks[1:], captures, [*consumer_blocks[1:], producer_region.block])

    ws = insert_warp_specialize(setup, captures, consumer_blocks, [producer_region.block],
                                [] if split is not None else [loop.results[i].type for i in read], loop.location)
    if split is not None:
        func = loop.parent_op()
        erase_epilogue(split)
        one_warpgroup_module(func)
        return
    for i, result in zip(read, ws.results):
        loop.results[i].replace_all_uses_with(result)
    Rewriter.erase_op(loop)


def tile_loop_copy(b: OpBuilder, tile: scf.ForOp, mapping: dict[SSAValue, SSAValue], state: PipelineState,
                   parities: Sequence[SSAValue] = (), turn: int | None = None
                   ) -> tuple[scf.ForOp, PipelineState, list[SSAValue], OpBuilder]:
    """Step 9: a partition's copy of a persistent kernel's tile loop at `b`, carrying a
    `PipelineState` from `state` and after it one iteration argument per initial mbarrier
    parity of `parities` (step 10's staging pair, a ping-pong turn); with `turn` = w, only
    the iterations w, w + 2, ... (`pingpong.py`). Returns the loop, its state and parities
    in the body, and a builder at the end of its body (not yet yielding)."""
    inits = [state.index, state.phase, *parities]
    body = Block(arg_types=[tile.body.args[0].type] + [i32] * len(inits))
    lower, upper, step = (mapping.get(v, v) for v in (tile.lowerBound, tile.upperBound, tile.step))
    if turn is not None:
        lower = b.addi(lower, b.muli(step, b.int_constant(turn, 32))) if turn else lower
        step = b.muli(step, b.int_constant(pingpong.PING_PONG_WARPGROUPS, 32))
    mapping[tile.body.args[0]] = body.args[0]
    new_tile = b.insert(scf.ForOp(lower, upper, step, inits, body=body, unsigned_cmp=tile.unsignedCmp is not None),
                        tile.location)
    new_tile.attributes[NUM_STAGES] = int_attr(0)
    return (new_tile, PipelineState(body.args[1], body.args[2]), list(body.args[3:]),
            OpBuilder(InsertPoint.at_end(body), tile.location))


def start_state(b: OpBuilder, start_phase: int) -> PipelineState:
    return PipelineState(b.int_constant(0, 32), b.int_constant(start_phase, 32))


def clone_into(b: OpBuilder, ops: Sequence[Operation], mapping: dict[SSAValue, SSAValue]
               ) -> dict[Operation, Operation]:
    """Clone `ops` at `b` (without their `ttg.partition`); returns each op's clone."""
    clones = {}
    for op in ops:
        copy = op.clone(value_mapper=mapping)
        copy.attributes.pop(PARTITION, None)
        clones[op] = b.insert_clone(copy)
    return clones


def lower_persistent(tile: scf.ForOp) -> None:
    """Steps 9-10: a persistent kernel's stamped tile loop and its K loop (phase 1's
    `partition_persistent`), with one or more consumer warpgroups."""
    k_loop = next(op for op in tile.body.ops if isinstance(op, scf.ForOp))
    setup = RingSetup.build(tile, k_loop)
    stages, k_ops, tiles, split = setup.stages, setup.k_ops, setup.tiles, setup.split
    buffers, ring, staged = setup.buffers, setup.ring, setup.staged
    tile_ops = body_ops(tile)
    position = tile_ops.index(k_loop)
    producer_tile_ops = [op for op in tile_ops[:position] if PRODUCER in partitions(op)]

    captures: list[SSAValue] = []
    read = [v for op in (*producer_tile_ops, *(op for op in k_ops if PRODUCER in partitions(op))) for v in op.operands]
    read += [k_loop.lowerBound, k_loop.upperBound, k_loop.step,
             *(k_loop.initArgs[i] for i in carried_arguments(k_loop, PRODUCER)),
             tile.lowerBound, tile.upperBound, tile.step]
    for value in read:
        if is_defined_outside_loop(value, tile) and value not in captures:
            captures.append(value)
    captures += ring.values

    # The producer: its tile loop around its K loop, one PipelineState through both.
    producer_region = ProducerRegion.start(setup, captures, tile.location)
    pb = producer_region.builder
    producer_tile, producer_state, _, tb = tile_loop_copy(pb, tile, producer_region.mapping,
                                                          start_state(pb, PRODUCER_START_PHASE))
    clone_into(tb, producer_tile_ops, producer_region.mapping)
    producer = producer_region.k_loop(setup, k_loop, tb, producer_state)
    tb.set_after(producer.loop)
    tb.insert(scf.YieldOp(*producer.loop.results[-2:]))
    pb.set_after(producer_tile)
    pb.insert(ttg.WarpReturnOp())

    # The consumer warpgroups: each its tile loop around its K loop, the flush, the release
    # of the tile's last stage, its epilogue (the default region, then partitions). Ping-pong
    # warpgroups take turns: each its own tiles, its mainloop between the turn mbarriers.
    turns = setup.turns
    consumer_blocks = []
    for index in range(setup.regions):
        block = Block(arg_types=[value.type for value in captures] if index else ())
        consumer_blocks.append(block)
        cb = OpBuilder(InsertPoint.at_end(block), tile.location)
        consumer_stages = cb.int_constant(stages, 32)
        consumer_map: dict[SSAValue, SSAValue] = {}
        state = start_state(cb, CONSUMER_START_PHASE)
        # The tile loop's mbarrier parities: the staging pair's, the turn's, the channel's.
        parities = [cb.int_constant(0, 32)] if staged else []
        if turns:
            k_trips = trip_count(cb, k_loop, consumer_map)
            state = state.skip(cb, k_trips, consumer_stages) if index else state
            parities.append(cb.int_constant(turns.start_parity(index), 32))
        if setup.channel:
            parities.append(cb.int_constant(PRODUCER_START_PHASE, 32))  # the region is the channel's producer
        consumer_tile, consumer_state, parities, tb = tile_loop_copy(cb, tile, consumer_map, state, parities,
                                                                      index if turns else None)
        turn_parity = parities[1 if staged else 0] if turns else None
        # A split's warpgroup builds its own share of the tensors (the accumulator's
        # zero-init) below, not the whole tile's.
        clone_into(tb, [op for op in tile_ops[:position]
                        if split is None or not any(isinstance(r.type, TensorType) for r in op.results)], consumer_map)
        epilogue = None
        if split is not None:
            epilogue = WarpgroupEpilogue(split, index, tb, {}, parities[0] if staged else None)
            consumer_map.update({init: epilogue.share(init, 0) for init in k_loop.initArgs
                                 if isinstance(init.type, TensorType)})
        if turns:
            turns.wait(tb, index, turn_parity)
        consumer = build_partition_loop(k_loop, CONSUMER, tb, consumer_map, CONSUMER_START_PHASE,
                                        None if split is None else split.carried_type, state=consumer_state)
        lower_bound = consumer_map.get(k_loop.lowerBound, k_loop.lowerBound)
        upper_bound = consumer_map.get(k_loop.upperBound, k_loop.upperBound)
        waited = lower_consumer(consumer, ring, buffers, tiles, lower_bound, consumer_stages, split, index)
        finish_loop(consumer, k_loop, consumer_map, consumer_stages, waited)
        tb.set_after(consumer.loop)
        if turns:
            turns.pass_to_other(tb, index)
        results = {i: consumer.loop.results[consumer.carried.index(i)] for i, r in enumerate(k_loop.results)
                   if r.uses}
        accumulators = [i for i in results if isinstance(results[i].type, TensorType)]
        flush = tb.insert(ttng.WarpGroupDotWaitOp([results[i] for i in accumulators], pendings=0), k_loop.location)
        results.update(zip(accumulators, flush.outputs))
        after = PipelineState(*consumer.loop.results[-2:])
        ran = runs(tb, k_loop, lower_bound, upper_bound)
        ring.consumer_release(tb, after.previous_index(tb, consumer_stages), ran)
        consumer_map.update({k_loop.results[i]: value for i, value in results.items()})
        if epilogue is None:
            clones = clone_into(tb, tile_ops[position + 1:], consumer_map)
            for store, tiles_of_regions in setup.epilogue_staging.items():
                epilogue_store.store_through_staging(clones[store], tiles_of_regions[index])
            if setup.channel:
                setup.channel.commit_tile(clones, index, parities[-1])
        else:
            epilogue.results.update(consumer_map)
            for store in split.stores:
                epilogue.store(store, staged.get(store))
        if turns:
            after = after.skip(tb, k_trips, consumer_stages)  # the other warpgroup's next tile
        flipped = [tb.xori(parity, tb.int_constant(1, 32)) for parity in parities]
        tb.insert(scf.YieldOp(after.index, after.phase, *flipped))
        cb.set_after(consumer_tile)
        if setup.epilogue_staging or (staged and index == 0):
            epilogue_store.drain(cb)
        cb.insert(ttg.WarpYieldOp([]) if index == 0 else ttg.WarpReturnOp())
        for op in block.walk():
            op.attributes.pop(PARTITION, None)  # on the epilogue's clones
    others = [producer_region.block]
    if setup.channel:
        others.append(epilogue_partition_block(tile, setup.channel, captures))
    isolate([*consumer_blocks[1:], *others[1:]], captures, [*consumer_blocks[1:], *others])
    insert_warp_specialize(setup, captures, consumer_blocks, others, [], tile.location)
    func = tile.parent_op()
    Rewriter.erase_op(tile, safe_erase=False)
    if split is not None:
        one_warpgroup_module(func)


def epilogue_partition_block(tile: scf.ForOp, channel: epilogue_partition.EpilogueChannel,
                             captures: list[SSAValue]) -> Block:
    """Step 12: the epilogue partition, its tile loop over every tile carrying a state over
    the channel's buffers, the stores' index arithmetic cloned (isolated by the caller)."""
    block = Block(arg_types=[value.type for value in captures])
    b = OpBuilder(InsertPoint.at_end(block), tile.location)
    mapping: dict[SSAValue, SSAValue] = {}
    epilogue_tile, state, _, tb = tile_loop_copy(b, tile, mapping, start_state(b, CONSUMER_START_PHASE))
    clone_into(tb, epilogue_partition.store_index_ops(tile, list(channel.buffers)), mapping)
    channel.store_tile(tb, state.index, state.phase, mapping)
    after = state.advance(tb, tb.int_constant(channel.depth, 32))
    tb.insert(scf.YieldOp(after.index, after.phase))
    b.set_after(epilogue_tile)
    b.insert(ttg.WarpReturnOp())
    return block


def stamped_loops(module: ModuleOp) -> list[scf.ForOp]:
    """The stamped loops, outermost first; a persistent kernel's K loop is lowered with its
    tile loop, not on its own."""
    loops = [op for op in module.walk() if isinstance(op, scf.ForOp)
             and any(PARTITION in body_op.attributes for body_op in op.body.ops)]
    return [loop for loop in loops if not (isinstance(loop.parent_op(), scf.ForOp) and loop.parent_op() in loops)]


@dataclass(frozen=True)
class PartitionLoopsToWarpSpecialize(ModulePass):
    """Turn each loop stamped with `ttg.partition` into a TMA ring and producer/consumer loops under `ttg.warp_specialize`.

    See `ttpipe.passes.warp_specialize.partition_loops` for the algorithm.
    """

    name = "ttpipe-ws-partition-loops"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for loop in stamped_loops(op):
            if loop.get_toplevel_object() is not op:
                continue  # a later key loop of an attention loop lowered before it
            if is_attention_loop(loop):
                lower_or_decline(loop)
            elif any(isinstance(body_op, scf.ForOp) for body_op in loop.body.ops):
                lower_persistent(loop)
            else:
                lower_loop(loop)
