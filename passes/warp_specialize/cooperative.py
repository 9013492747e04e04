"""Cooperative consumer warpgroups (CUTLASS's `KernelTmaWarpSpecializedCooperative`): with
`ttg.num-warps = 4 C` (C >= 2, the kernel's `num_warps=8` gives C = 2), C consumer
warpgroups split the tile along M, warpgroup c computing and storing rows
`[c h, (c + 1) h)`, `h = M / C`.

Why one region per warpgroup: `ttng.arrive_barrier` arrives from thread 0 of its region,
and `warp_group_dot_wait` retires only its own warpgroup's wgmmas, so a region of two
warpgroups would release a stage the other warpgroup's wgmma still reads. Each warpgroup
in its own region releases with its own arrival; the empty mbarriers count C arrivals.
The regions of `ttg.warp_specialize` (AllocateWarpGroups gives the default region the
module's `ttg.num-warps`, which becomes 4):

    default          consumer warpgroup 0
    partition0..C-2  consumer warpgroups 1..C-1, num_warps(4)
    partition C-1    the TMA producer, num_warps(1)

Consumer warpgroup c runs the one-warpgroup consumer loop (`partition_loops` step 5), but
each wgmma reads the M-half `memdesc_subslice [c h, 0]` of its A stage and the whole B
stage into an `h x N` accumulator in the layout `ttpipe-accelerate-matmul` gives a 4-warp
wgmma of that shape (`warpsPerTileV3`: `[4, 1]`; `wgmma_instr_shape` of `h x N`, 4 warps).

The loop is at the top level of its function, its epilogue the ops after it up to the
`tt.return`; or it is a persistent kernel's K loop, its tile loop at the top level, its
epilogue the ops after it up to the tile loop's `scf.yield` (run once per tile). The
epilogue is rebuilt in each consumer region at that warpgroup's rows, and the original erased, so no tensor laid out
for the old warp count is left. Each store is rebuilt from its operands, demanding each
value either at one M-half along an axis ("split along a") or whole ("re-laid out"):

  - the loop's accumulators: the region's flushed `h x N` accumulator (only split along 0);
  - pure elementwise ops (`arith`, `math`, `ELEMENTWISE_TT_OPS`: truncf/extf, fp_to_fp,
    bitcast, addptr, ...), `ttg.convert_layout` and `tt.load`: their tensor operands
    demanded as the result is;
  - `tt.splat` of a scalar, splat `arith.constant`s (anywhere in the function): rebuilt
    at the demanded shape;
  - `tt.make_range` (1-D): split along 0 it becomes `[start + c h', start + (c + 1) h')`;
  - `tt.expand_dims` / `tt.broadcast`: the source demanded along the matching axis
    (whole where the broadcast source has extent 1 there);
  - scalars: computed after the loop by side-effect-free ops, cloned; else read as they
    are (captured by the partition regions);
  - `tt.store` of a value computed from an accumulator: pointer, value and mask split
    along the value's M axis; each warpgroup stores its rows;
  - `tt.reshape` keeping the M axis's extent and the elements before it (a batched
    kernel's `[M, N] -> [1, M, N]`; an epilogue subtiled as Triton's tutorial 09 does,
    `[M, N] -> [M, 2, N / 2]`): the M axis follows its dim (`reshaped_axis`);
  - `tt.trans`: the M axis permuted with the dims; `tt.split` and `tt.join` (the last
    dim, halved or doubled): the M axis kept, where it is not that last dim;
  - `tt.descriptor_store` of a value computed from an accumulator along M, M its first
    dim of more than one element (2-D, or `1 x M x N` for a 3-D descriptor): the
    descriptor's block is the whole tile (a host descriptor's TMA box cannot be halved),
    so each warpgroup `local_store`s its rows into its M-half of a shared staging tile in
    the descriptor's encoding, fences (`fence_async_shared`) and syncs its own warps
    (`gpu.barrier`); warpgroups 1..C-1 then arrive on a staging mbarrier (count C - 1),
    and warpgroup 0 waits on it and issues the one TMA store of the tile (CUTLASS's
    cooperative epilogue: all math warps write shared memory, one thread issues the TMA).
    In a persistent kernel the pair runs once per tile: its phase parity is an iteration
    argument of each consumer tile loop (from 0, flipped per tile; carried, not computed
    from the tile index: no division), warpgroup 0 waits the staging *full* mbarrier with
    it, and a staging *empty* mbarrier (count 1) closes the loop: at the start of each
    tile's epilogue warpgroup 0 waits for the previous tile's store to have read the tile
    (`async_tma_store_wait {pendings = 0}` then a barrier of its warps, as in
    `epilogue_store.py`: the wait is deferred a whole mainloop, not taken right after the
    store) and arrives on it; warpgroups 1..C-1 wait on it with the parity before writing
    their rows, so none rewrites its half before the previous tile's TMA store has read
    it; warpgroup 0 waits once more after its tile loop.

Layouts are mapped to one warpgroup: the accumulator's mma to the 4-warp one above,
`#ttg.blocked` by dividing the warps of dim 0 by C (else of the dim with most warps),
`#ttg.linear` by dropping the warp bases that step between the warpgroups' rows (what a
reshape or transpose of the accumulator is laid out in), `#ttg.slice` through its parent.
Anything else declines the loop (`Refused`), as do: any other op after the loop with a
tensor or a side effect (reductions, atomics, control flow), a store of a value not
computed from an accumulator, a function returning
values, an op with a tensor before the loop that has side effects or regions (side-effect-free
ones, epilogue offsets LICM hoisted, are rebuilt per warpgroup where the epilogue reads them
and erased), more than one `tt.func` in the
module (`ttg.num-warps` is the module's), a wgmma whose A is not its TMA tile unviewed,
and a tile whose M does not split into C multiples of 64 rows (`WGMMA_M`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field

from xdsl.dialects.builtin import IntegerAttr, ModuleOp, TensorType, i32
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.traits import is_side_effect_free

from ttpipe.dialects import arith, scf, tt, ttg, ttng
from ttpipe.dialects.builtin import DenseElementsAttr
from ttpipe.dialects.ttg_attrs import (
    BlockedEncodingAttr,
    LinearEncodingAttr,
    NvidiaMmaEncodingAttr,
    SharedMemorySpaceAttr,
    SliceEncodingAttr,
)
from ttpipe.dialects.ttg_types import MemDescType
from ttpipe.passes.accelerate_matmul import ELEMENTWISE_TT_OPS, is_arith_or_math_elementwise, is_int
from ttpipe.passes.common.builder import OpBuilder
from ttpipe.passes.common.hardware import WARPS_PER_WARPGROUP, WGMMA_M, wgmma_instr_shape
from ttpipe.passes.common.mma_layouts import element_bit_width
from ttpipe.passes.common.target import NUM_WARPS_ATTR, num_warps
from ttpipe.passes.pipeline.lower_loops import encoding_from_descriptor, single_buffer_view, tile_bytes
from ttpipe.passes.warp_specialize.epilogue_store import publish_to_tma, wait_stores_read


class Refused(Exception):
    """The epilogue or the loop cannot be split; the message is the remark's reason."""


def consumer_warpgroups(op: Operation) -> int:
    """Consumer warpgroups of a warp-specialized loop: one per 4 warps of `ttg.num-warps`."""
    return num_warps(op) // WARPS_PER_WARPGROUP


def is_tensor(value: SSAValue) -> bool:
    return isinstance(value.type, TensorType)


def splittable_elementwise(op: Operation) -> bool:
    """Ops whose result element i reads only element i of each tensor operand."""
    return isinstance(op, (*ELEMENTWISE_TT_OPS, ttg.ConvertLayoutOp, tt.LoadOp)) or is_arith_or_math_elementwise(op)


def forwarded_axis(op: Operation, axis: int) -> int | None:
    """The split rule forward (shared with `row_split.py`): the row axis of `op`'s results
    when its tensor operands hold the rows along `axis`: expand_dims moves it, a reshape
    keeping it follows it (`reshaped_axis`), a transpose permutes it, split and join keep
    it where they do not cut along it, broadcasts and elementwise ops keep it; None where
    `op` cannot carry the rows (the caller says why)."""
    if isinstance(op, tt.ExpandDimsOp):
        return axis if axis < op.axis.value.data else axis + 1
    if isinstance(op, tt.ReshapeOp) and not op.allow_reorder:
        return reshaped_axis(op.src.type, op.result.type, axis)
    if isinstance(op, tt.TransOp):
        return list(op.order.get_values()).index(axis)
    if isinstance(op, tt.SplitOp):
        return axis if axis != len(op.src.type.get_shape()) - 1 else None
    if isinstance(op, (tt.JoinOp, tt.BroadcastOp)) or splittable_elementwise(op):
        return axis
    return None


def demanded_axes(op: Operation, axis: int | None) -> list[int | None] | None:
    """The split rule's common part (shared with `row_split.py`): how each operand of `op`
    is demanded when its result is demanded along the row axis `axis` (None: whole), for
    `tt.splat`, `tt.expand_dims`, `tt.broadcast`, reshapes keeping the axis, transposes,
    split, join and elementwise ops; None for any other op (the caller decides); `Refused`
    for an expand_dims along the rows."""
    if isinstance(op, tt.SplatOp):
        return [None]
    if isinstance(op, tt.ExpandDimsOp):
        expanded = op.axis.value.data
        if axis == expanded:
            raise Refused("a tt.expand_dims along the M axis")
        return [None if axis is None else axis if axis < expanded else axis - 1]
    if isinstance(op, tt.BroadcastOp):
        return [None if axis is None or op.src.type.get_shape()[axis] == 1 else axis]
    if isinstance(op, tt.ReshapeOp) and not op.allow_reorder:
        if axis is None:
            return [None]
        source_axis = reshaped_axis(op.result.type, op.src.type, axis)
        return None if source_axis is None else [source_axis]
    if isinstance(op, tt.TransOp):
        return [None if axis is None else list(op.order.get_values())[axis]]
    if isinstance(op, tt.SplitOp):
        return None if axis == len(op.src.type.get_shape()) - 1 else [axis]
    if isinstance(op, tt.JoinOp):
        return [axis, axis]
    if splittable_elementwise(op):
        return [axis if is_tensor(operand) else None for operand in op.operands]
    return None


def rebuilt_leaf(b: OpBuilder, op: Operation, type_: TensorType, axis: int | None, index: int) -> SSAValue | None:
    """A splat constant or a `tt.make_range` built again at `b` as warpgroup `index`'s share
    `type_` (a range split along the rows starts at the warpgroup's first row), else None."""
    if splat_constant(op):
        return b.insert(arith.ConstantOp(DenseElementsAttr.splat(type_, op.value.splat_value())), op.location).result
    if isinstance(op, tt.MakeRangeOp):
        start = op.start.value.data + (0 if axis is None else index * type_.get_shape()[0])
        return b.insert(tt.MakeRangeOp(start=start, end=start + type_.get_shape()[0], result_type=type_),
                        op.location).result
    return None


def blocked_for_warpgroup(encoding: BlockedEncodingAttr, warpgroups: int) -> BlockedEncodingAttr:
    """One warpgroup's share of a blocked layout of `warpgroups` warpgroups: the warps of
    dim 0 divided by `warpgroups` (else those of the dim with most warps)."""
    warps = list(encoding.warps_per_cta)
    dims = [0] + sorted(range(1, len(warps)), key=lambda d: -warps[d])
    dim = next((d for d in dims if warps[d] % warpgroups == 0), None)
    if dim is None:
        raise Refused(f"no way to split the warps {warps} of a blocked layout over the warpgroups")
    warps[dim] //= warpgroups
    return BlockedEncodingAttr.get(encoding.size_per_thread, encoding.threads_per_warp, warps, encoding.order,
                                   encoding.cta_layout)


def reshaped_axis(src: TensorType, dst: TensorType, axis: int) -> int | None:
    """The axis of `dst` that is axis `axis` of `src` under a row-major reshape, where one
    is: a dim of the same extent with as many elements before it (`[M, N] -> [1, M, N]`,
    `[M, N] -> [M, 2, N / 2]`): a row r of `src` along `axis` is then row r of `dst` along
    it, and an M-half of `src` reshapes to that M-half of `dst`. Else None."""
    src_shape, dst_shape = src.get_shape(), dst.get_shape()
    before = 1
    for extent in src_shape[:axis]:
        before *= extent
    elements = 1
    for d, extent in enumerate(dst_shape):
        if elements == before and extent == src_shape[axis] and extent != 1:
            return d
        elements *= extent
    return None


def splat_constant(op: Operation) -> bool:
    """An `arith.constant` of a splat tensor (a zero-init, say): rebuilt wherever a region needs it."""
    return isinstance(op, arith.ConstantOp) and isinstance(op.value, DenseElementsAttr) and op.value.is_splat


@dataclass
class CooperativeSplit:
    """The split of one loop and its epilogue over `warpgroups` consumer warpgroups."""

    loop: scf.ForOp
    warpgroups: int
    rows: int
    """M of the tile (of every wgmma result)."""
    accumulator: NvidiaMmaEncodingAttr
    warpgroup_accumulator: NvidiaMmaEncodingAttr
    stores: list[Operation]
    epilogue: list[Operation]
    axes: dict[SSAValue, int] = field(default_factory=dict)
    """The M axis of each value computed from an accumulator."""

    @property
    def half(self) -> int:
        return self.rows // self.warpgroups

    @property
    def staging_bytes(self) -> int:
        """Shared memory of the staging tiles of the descriptor stores."""
        return sum(tile_bytes(store.src.type) for store in self.stores if isinstance(store, tt.DescriptorStoreOp))

    def carried_type(self, type_: Attribute) -> Attribute:
        """A loop-carried value's type in one consumer warpgroup's loop: an accumulator's rows."""
        return self.share_type(type_, 0) if isinstance(type_, TensorType) else type_

    # ---------------------------------------------------------------- layouts

    def encoding(self, encoding: Attribute) -> Attribute:
        """The layout of one warpgroup's share of a tensor laid out for all of them."""
        if isinstance(encoding, NvidiaMmaEncodingAttr):
            if encoding != self.accumulator:
                raise Refused("an mma layout in the epilogue other than the accumulator's")
            return self.warpgroup_accumulator
        if isinstance(encoding, SliceEncodingAttr):
            return SliceEncodingAttr.get(encoding.dim, self.encoding(encoding.parent))
        if isinstance(encoding, BlockedEncodingAttr):
            return blocked_for_warpgroup(encoding, self.warpgroups)
        if isinstance(encoding, LinearEncodingAttr):
            # The warp bases that step between the warpgroups' row blocks (one nonzero entry,
            # half, 2 half, ...: warpgroup c's rows start at c half) go; the rest is each
            # warpgroup's layout of its rows.
            steps = {self.half << i for i in range(self.warpgroups.bit_length() - 1)}
            between = [basis for basis in encoding.warp_bases
                       if sum(1 for entry in basis if entry) == 1 and max(basis) in steps]
            if len(between) != len(steps):
                raise Refused("a linear layout whose warps do not split the tile's rows over the warpgroups")
            return LinearEncodingAttr.get(encoding.register_bases, encoding.lane_bases,
                                          [basis for basis in encoding.warp_bases if basis not in between],
                                          encoding.block_bases)
        raise Refused(f"the epilogue holds a tensor in a layout this pass cannot split ({encoding.name})")

    def share_type(self, type_: TensorType, axis: int | None) -> TensorType:
        shape = list(type_.get_shape())
        if axis is not None:
            if shape[axis] != self.rows:
                raise Refused(f"a tensor of the epilogue has {shape[axis]} rows along its M axis, not the tile's "
                              f"{self.rows}")
            shape[axis] = self.half
        return TensorType(type_.element_type, shape, self.encoding(type_.encoding))

    # ---------------------------------------------------------------- the rule

    def operand_axes(self, value: SSAValue, axis: int | None) -> list[int | None]:
        """The split rule: how each operand of `value`'s op is demanded when `value` is
        demanded along `axis` (None: whole); raises `Refused` where it cannot be split."""
        op = value.owner
        if not is_tensor(value):
            if isinstance(op, Operation) and op in self.epilogue:
                if not is_side_effect_free(op) or op.regions:
                    raise Refused(f"'{op.name}' after the loop computes a scalar with side effects")
                return [None] * len(op.operands)
            return []
        if isinstance(op, Operation) and op is self.loop:
            if axis != 0:
                raise Refused("an accumulator read other than row by row after the loop")
            return []
        if not isinstance(op, Operation):
            raise Refused("a tensor block argument read after the loop")
        self.share_type(value.type, axis)
        if splat_constant(op):
            return []
        if op not in self.epilogue and (op.regions or not is_side_effect_free(op)):
            raise Refused(f"'{op.name}' computes a tensor before the loop that its epilogue reads")
        if isinstance(op, tt.MakeRangeOp):
            return []
        rule = demanded_axes(op, axis)
        if rule is None:
            raise Refused(f"'{op.name}' after the loop cannot be split along M")
        return rule

    def check(self, value: SSAValue, axis: int | None, seen: set) -> None:
        """Run the rule over everything `value` needs."""
        if (value, axis) in seen:
            return
        seen.add((value, axis))
        operand_axes = self.operand_axes(value, axis)
        if operand_axes:
            for operand, operand_axis in zip(value.owner.operands, operand_axes):
                self.check(operand, operand_axis, seen)


def _forward_axes(split: CooperativeSplit) -> None:
    """The M axis of each epilogue value computed from an accumulator."""
    for result in split.loop.results:
        if is_tensor(result):
            split.axes[result] = 0
    for op in split.epilogue:
        axes = {split.axes[v] for v in op.operands if v in split.axes}
        if not axes or not op.results:
            continue
        if len(axes) > 1:
            raise Refused(f"'{op.name}' combines accumulator rows along different axes")
        axis = forwarded_axis(op, axes.pop())
        if axis is None:
            if isinstance(op, tt.SplitOp):
                raise Refused(f"'{op.name}' after the loop cuts along the M axis")
            moved = isinstance(op, tt.ReshapeOp) and not op.allow_reorder
            raise Refused(f"'{op.name}' after the loop {'moves the M axis' if moved else 'cannot be split along M'}")
        for result in op.results:
            split.axes[result] = axis


def store_rows_axis(split: CooperativeSplit, store: tt.DescriptorStoreOp) -> int | None:
    """The M axis of a descriptor store's value where it is the value's first dim of more
    than one element (a 2-D tile, or a 3-D `1 x M x N` one of a batched descriptor), else
    None: the staging tile is split along its outermost rows."""
    axis = split.axes.get(store.src)
    shape = store.src.type.get_shape()
    if axis is None or len(shape) < 2 or any(extent != 1 for extent in shape[:axis]):
        return None
    return axis


def _tensor_ops(ops: Sequence[Operation]) -> Iterator[Operation]:
    """`ops` and the ops nested in them that take or make a tensor."""
    for op in ops:
        for nested in op.walk():
            if any(is_tensor(v) for v in (*nested.operands, *nested.results)):
                yield nested


def plan(loop: scf.ForOp, dots: Sequence[ttng.WarpGroupDotOp]) -> CooperativeSplit:
    """The split of `loop` (whose wgmmas are `dots`) over its consumer warpgroups, or `Refused`."""
    warpgroups = consumer_warpgroups(loop)
    outer = loop.parent_op()
    tile = outer if isinstance(outer, scf.ForOp) else None
    func = outer.parent_op() if tile is not None else outer
    top = tile if tile is not None else loop
    if not isinstance(func, tt.FuncOp) or top.parent_block() is not func.body.blocks[0]:
        raise Refused("cooperative warpgroups need the loop (or its persistent tile loop) at the top level of its "
                      "function")
    module = func.parent_op()
    if isinstance(module, ModuleOp) and sum(isinstance(op, tt.FuncOp) for op in module.ops) != 1:
        raise Refused("cooperative warpgroups change the module's ttg.num-warps: one tt.func per module")
    types = {dot.d.type for dot in dots}
    if len(types) != 1:
        raise Refused("wgmmas of different result types in one cooperative loop")
    acc: TensorType = types.pop()
    rows, cols = acc.get_shape()
    if not isinstance(acc.encoding, NvidiaMmaEncodingAttr) or rows % (warpgroups * WGMMA_M):
        raise Refused(f"the tile's M ({rows}) does not split into {warpgroups} warpgroups of a multiple of "
                      f"{WGMMA_M} rows")
    for dot in dots:
        if not isinstance(dot.a.owner, ttg.LocalAllocOp):
            raise Refused("a wgmma whose A operand is a view of its tile (the split slices A's rows)")
    a_element = dots[0].a.type.element_type
    instr = wgmma_instr_shape([rows // warpgroups, cols], element_bit_width(a_element), is_int(a_element, 8),
                              WARPS_PER_WARPGROUP)
    if instr is None:
        raise Refused(f"no wgmma shape for a {rows // warpgroups}x{cols} warpgroup tile")
    mine = NvidiaMmaEncodingAttr.get(acc.encoding.version_major, acc.encoding.version_minor,
                                     [WARPS_PER_WARPGROUP, 1], instr, acc.encoding.cta_layout)
    ops = list(loop.parent_block().ops)
    position = ops.index(loop)
    terminator = ops[-1]
    if tile is None and (not isinstance(terminator, tt.ReturnOp) or terminator.operands):
        raise Refused("the function returns values; the epilogue must end in a bare tt.return")
    epilogue = ops[position + 1:-1]
    before = ops[:position]
    if tile is not None:
        top_ops = list(func.body.blocks[0].ops)
        before += top_ops[:top_ops.index(tile)]
        for nested in _tensor_ops(top_ops[top_ops.index(tile) + 1:]):
            raise Refused(f"'{nested.name}' with a tensor after the persistent tile loop (laid out for the kernel's "
                          "warps, which the split makes one warpgroup)")
    for nested in _tensor_ops(before):
        if nested.regions or not is_side_effect_free(nested):
            raise Refused(f"'{nested.name}' with a tensor before the loop (only side-effect-free ops, whose "
                          f"epilogue uses are rebuilt per warpgroup)")
    for init in loop.initArgs:
        if is_tensor(init) and not (isinstance(init.owner, Operation) and splat_constant(init.owner)):
            raise Refused("an accumulator whose initial value is not a splat constant")
    stores = [op for op in epilogue if not is_side_effect_free(op) and not isinstance(op, tt.LoadOp)]
    split = CooperativeSplit(loop, warpgroups, rows, acc.encoding, mine, stores, epilogue)
    _forward_axes(split)
    seen: set = set()
    for store in stores:
        if isinstance(store, tt.StoreOp) and store.value in split.axes:
            axis = split.axes[store.value]
            for operand in store.operands:
                split.check(operand, axis if is_tensor(operand) else None, seen)
        elif isinstance(store, tt.DescriptorStoreOp) and store_rows_axis(split, store) is not None:
            split.check(store.src, store_rows_axis(split, store), seen)
            for index in store.indices:
                split.check(index, None, seen)
        else:
            raise Refused(f"'{store.name}' after the loop: only tt.store and tt.descriptor_store of "
                          f"accumulator rows can be split")
    for op in epilogue:
        if op.regions:
            raise Refused(f"'{op.name}' after the loop (control flow in the epilogue)")
    return split


# ==================================================================== building


@dataclass
class StagedStore:
    """The shared staging tile of one `tt.descriptor_store`, its *full* mbarrier (count
    C - 1: warpgroups 1..C-1 arrive once their rows are in it) and, in a persistent
    kernel, its *empty* mbarrier (count 1: warpgroup 0 arrives at the start of each tile's
    epilogue, once the previous tile's TMA store has read the tile, `async_tma_store_wait
    {pendings = 0}` and a barrier of its warps; warpgroups 1..C-1 wait on it before writing
    their rows). None where the store runs once."""

    tile: SSAValue
    full: SSAValue
    empty: SSAValue | None = None


@dataclass
class WarpgroupEpilogue:
    """Consumer warpgroup `index`'s share of the epilogue, built at `builder`."""

    split: CooperativeSplit
    index: int
    builder: OpBuilder
    results: dict[SSAValue, SSAValue]
    """The loop's results as this warpgroup's loop gives them (accumulators flushed), and
    the scalars the region computed for values of the original (a persistent tile loop's
    offsets)."""
    phase: SSAValue | None = None
    """The staging mbarriers' phase parity of this epilogue run (i32): 0 where it runs
    once; a persistent tile loop's iteration argument, flipped per tile."""
    built: dict[tuple[SSAValue, int | None], SSAValue] = field(default_factory=dict)

    def share(self, value: SSAValue, axis: int | None) -> SSAValue:
        """`value` as this warpgroup needs it: its rows along `axis`, or whole (None)."""
        key = (value, axis)
        if key not in self.built:
            self.built[key] = self._build(value, axis)
        return self.built[key]

    def _build(self, value: SSAValue, axis: int | None) -> SSAValue:
        split, b = self.split, self.builder
        op = value.owner
        operand_axes = split.operand_axes(value, axis)
        if op is split.loop:
            return self.results[value]
        if not is_tensor(value):
            if not isinstance(op, Operation) or op not in split.epilogue:
                return self.results.get(value, value)
            return b.insert_clone(op.clone(value_mapper={v: self.share(v, None) for v in op.operands})).results[
                value.index]
        type_ = split.share_type(value.type, axis)
        leaf = rebuilt_leaf(b, op, type_, axis, self.index)
        if leaf is not None:
            return leaf
        operands = [self.share(v, a) for v, a in zip(op.operands, operand_axes)]
        clone = b.insert_clone(op.clone(value_mapper=dict(zip(op.operands, operands))))
        for old, new in zip(op.results, clone.results):
            self.built[(old, axis)] = Rewriter.replace_value_with_new_type(new, split.share_type(old.type, axis))
        return self.built[(value, axis)]

    def store(self, store: Operation, staged: StagedStore | None) -> None:
        """Rebuild one store for this warpgroup's rows."""
        split, b = self.split, self.builder
        if isinstance(store, tt.StoreOp):
            axis = split.axes[store.value]
            operands = [self.share(v, axis if is_tensor(v) else None) for v in store.operands]
            b.insert_clone(store.clone(value_mapper=dict(zip(store.operands, operands))))
            return
        axis = store_rows_axis(split, store)
        store_staged_rows(b, store, self.share(store.src, axis), axis, split.half, self.index, staged, self.phase,
                          lambda: (self.share(store.desc, None), [self.share(v, None) for v in store.indices]))


def store_staged_rows(b: OpBuilder, store: tt.DescriptorStoreOp, rows: SSAValue, axis: int, half: int, index: int,
                      staged: StagedStore, phase: SSAValue | None,
                      target: Callable[[], tuple[SSAValue, list[SSAValue]]]) -> None:
    """Consumer warpgroup `index`'s part of a cooperative TMA store (its `rows`, `half` of
    the tile along `axis`): write them into its part of the staging tile; warpgroups
    1..C-1 arrive on the staging *full* mbarrier, warpgroup 0 waits on it (parity `phase`,
    0 where None) and issues the store through the descriptor at the coordinates `target()`
    builds in its region (a descriptor made in the epilogue is rebuilt there too)."""
    tile_type: MemDescType = staged.tile.type
    shape = list(tile_type.shape)
    shape[axis] = half
    mine = MemDescType.get(shape, tile_type.element_type, tile_type.encoding, tile_type.memory_space, True,
                           tile_type.alloc_shape)
    offsets = [index * half if d == axis else 0 for d in range(len(shape))]
    view = b.insert(ttg.MemDescSubsliceOp(staged.tile, offsets=offsets, result_type=mine), store.location)
    persistent = staged.empty is not None
    if persistent and index:
        # Warpgroup 0's arrival at the start of this tile's epilogue: the previous tile's
        # TMA store has read the staging tile (phase t completes at tile t).
        b.insert(ttng.WaitBarrierOp(single_buffer_view(b, staged.empty, 0), phase), store.location)
    elif persistent:
        # The previous tile's store has read the staging tile: every warp of warpgroup 0
        # has waited for its own bulk groups (the barrier) before the tile is rewritten
        # and before warpgroups 1..C-1 are let in (`epilogue_store.py`).
        wait_stores_read(b, store.location)
        b.insert(ttng.ArriveBarrierOp(single_buffer_view(b, staged.empty, 0), count=1), store.location)
    b.insert(ttg.LocalStoreOp(rows, view.result), store.location)
    publish_to_tma(b, store.location)
    full = single_buffer_view(b, staged.full, 0)
    if index:
        b.insert(ttng.ArriveBarrierOp(full, count=1), store.location)
        return
    b.insert(ttng.WaitBarrierOp(full, phase if phase is not None else b.int_constant(0, 32)), store.location)
    descriptor, indices = target()
    b.insert(ttng.AsyncTMACopyLocalToGlobalOp(descriptor, indices, staged.tile), store.location)
    if not persistent:
        b.insert(ttng.TMAStoreWaitOp(pendings=0), store.location)


def warpgroup_dot(b: OpBuilder, dot: ttng.WarpGroupDotOp, split: CooperativeSplit,
                  index: int) -> ttng.WarpGroupDotOp:
    """Consumer warpgroup `index`'s wgmma in place of `dot` (whose accumulator operand is
    already the warpgroup's): rows `[index h, (index + 1) h)` of the A stage, all of B."""
    a_type: MemDescType = dot.a.type
    rows_type = MemDescType.get([split.half, *a_type.shape[1:]], a_type.element_type, a_type.encoding,
                                a_type.memory_space, a_type.mutable, a_type.alloc_shape)
    b.set_before(dot)
    offsets = [index * split.half] + [0] * (len(a_type.shape) - 1)
    rows = b.insert(ttg.MemDescSubsliceOp(dot.a, offsets=offsets, result_type=rows_type), dot.location)
    mine = b.insert(ttng.WarpGroupDotOp(rows.result, dot.b, dot.c, dot.useC, input_precision=dot.inputPrecision,
                                        max_num_imprecise_acc=dot.maxNumImpreciseAcc, is_async=dot.isAsync),
                    dot.location)
    dot.d.replace_all_uses_with(mine.d)
    Rewriter.erase_op(dot)
    return mine


def staging_tile(anchor: Operation, store: tt.DescriptorStoreOp) -> SSAValue:
    """The shared tile a descriptor store's rows are gathered in, in the descriptor's
    encoding: allocated before `anchor`, freed after it."""
    type_: TensorType = store.src.type
    tile = MemDescType.get(type_.get_shape(), type_.element_type, encoding_from_descriptor(type_, store.desc),
                           SharedMemorySpaceAttr(), True)
    b = OpBuilder(InsertPoint.before(anchor), store.location)
    staging = b.insert(ttg.LocalAllocOp(result_type=tile)).result
    b.set_after(anchor)
    b.insert(ttg.LocalDeallocOp(staging))
    return staging


def erase_epilogue(split: CooperativeSplit) -> None:
    """Erase the epilogue and the loop (`one_warpgroup_module` then)."""
    for op in reversed(split.epilogue):
        Rewriter.erase_op(op, safe_erase=False)
    Rewriter.erase_op(split.loop)


def one_warpgroup_module(func: tt.FuncOp) -> None:
    """Once the original loop and epilogue are erased: erase the side-effect-free tensor ops
    nothing reads any more (the zero-init, epilogue offsets hoisted before the loop, each
    rebuilt per warpgroup) and give the module the warps of one consumer warpgroup."""
    module = func.parent_op()
    for op in reversed(list(func.body.blocks[0].ops)):
        if (any(is_tensor(r) for r in op.results) and is_side_effect_free(op)
                and not any(r.uses for r in op.results)):
            Rewriter.erase_op(op)
    module.attributes[NUM_WARPS_ATTR] = IntegerAttr(WARPS_PER_WARPGROUP, i32)


def rematerializable(value: SSAValue) -> bool:
    """A tensor a partition can re-create from scalars: computed by side-effect-free ops
    without regions from other such tensors, scalars and constants (`isolate` clones them)."""
    owner = value.owner
    if not isinstance(owner, Operation) or owner.regions or not is_side_effect_free(owner):
        return False
    return all(not is_tensor(v) or rematerializable(v) for v in owner.operands)


def isolate(blocks: Sequence[Block], captures: list[SSAValue], all_partitions: Sequence[Block]) -> None:
    """Make the partition `blocks` isolated from above: each value defined outside them
    that they read becomes a capture (a block argument of every partition in
    `all_partitions`), but scalar constants and `rematerializable` tensors, which are
    re-created at the start of the block (a tensor in registers cannot cross to other warps)."""
    outside: list[SSAValue] = []
    for block in blocks:
        recreated: dict[SSAValue, SSAValue] = {}
        start = block.first_op

        def inside(value: SSAValue) -> SSAValue:
            if block.is_ancestor(value.owner):
                return value
            if value in recreated:
                return recreated[value]
            owner = value.owner
            if (isinstance(owner, arith.ConstantOp) and not is_tensor(value)) or (
                    is_tensor(value) and rematerializable(value)):
                copy = owner.clone()
                copy.operands = [inside(v) for v in owner.operands]
                Rewriter.insert_op(copy, InsertPoint.before(start))
                recreated.update(zip(owner.results, copy.results))
                return recreated[value]
            if value not in captures and value not in outside:
                outside.append(value)
            return value

        for op in list(block.walk()):
            op.operands = [inside(v) for v in op.operands]
    for value in outside:
        captures.append(value)
        for block in all_partitions:
            block.insert_arg(value.type, len(block.args))
    for block in blocks:
        args = dict(zip(captures, block.args))
        for op in block.walk():
            op.operands = [args.get(v, v) for v in op.operands]
