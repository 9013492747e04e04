"""A whole function's tensors split by rows over consumer warpgroups: the analysis and the
per-warpgroup rebuild behind warp-specialized attention (`attention.py`).

A kernel whose `ttg.num-warps = 4 C` computes a `rows x ...` tile with C warpgroups
laid along the rows (the wgmma layouts' `warpsPerCTA = [4 C, 1]`). Warp specialization
gives each warpgroup its own region (`cooperative.py` says why: mbarrier arrivals and
`warp_group_dot_wait` are per region), so each region must compute its `h = rows / C`
rows alone, in layouts of 4 warps. This module decides, for every tensor of the function,
whether it is split (which axis holds the rows) or whole, and rebuilds the function's ops
for warpgroup c.

Analysis (`RowSplit.forward`), a fixed point over the loop:
  - seeds: every `ttng.warp_group_dot` result is row-tied along axis 0 (its A operand is
    the warpgroup's rows);
  - forward: an elementwise op (`arith`, `math`, the pure `tt` elementwise ops,
    `ttg.convert_layout`) with a row-tied operand is row-tied along the same axis;
    `tt.expand_dims` and `tt.broadcast` carry the axis to its new position; `tt.reduce`
    along another axis too (a reduction along the rows cannot be split: refused); an
    iteration argument is row-tied where the value yielded for it is, and so is the
    loop's result (the epilogue's rule, `cooperative.forwarded_axis`, plus `tt.reduce`).
    Any other op reading a row-tied tensor refuses the split.
  - every other tensor is free (constants, `tt.splat`, `tt.make_range`, index math): it is
    built where a row-tied op demands it, along the demanded axis or whole, and memoized
    per (value, axis), so a free value read both ways is built both ways.

Demand rule (`operand_axes`), for an op whose result is needed along axis `a` (None:
whole): elementwise operands along `a`; `tt.splat` reads a scalar; `tt.expand_dims e`
reads its source along `a` (or `a - 1` past `e`; along `e` itself is refused);
`tt.broadcast` reads its source along `a` unless the source has extent 1 there (whole);
`tt.reduce r` reads its operands along `a` (or `a + 1` from `r` on); unit reshapes follow
their axis (`cooperative.demanded_axes`, plus `tt.reduce`). A free `tt.make_range` along
axis 0 becomes `[start + c h, start + (c + 1) h)` (`cooperative.rebuilt_leaf`).

Layouts (`RowSplit.encoding`): `#ttg.nvidia_mma` of `warpsPerCTA = [4 C, 1]` becomes
`[4, 1]` with the same `instrShape` (wgmma's instruction shape does not depend on M beyond
its 64-row granularity); `#ttg.slice` and `#ttg.dot_op` map their parent; `#ttg.blocked`
divides the warps of dim 0 by C (else of the dim with most warps,
`cooperative.blocked_for_warpgroup`). Anything else refuses.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from xdsl.dialects.builtin import TensorType
from xdsl.ir import Attribute, BlockArgument, Operation, SSAValue
from xdsl.rewriter import Rewriter
from xdsl.traits import is_side_effect_free

from ttpipe.dialects import arith, scf, tt, ttng
from ttpipe.dialects.ttg_attrs import (
    BlockedEncodingAttr,
    DotOperandEncodingAttr,
    NvidiaMmaEncodingAttr,
    SliceEncodingAttr,
)
from ttpipe.passes.common.builder import OpBuilder
from ttpipe.passes.common.hardware import WARPS_PER_WARPGROUP, WGMMA_M
from ttpipe.passes.common.ir import ancestor_in_block, is_before_in_block
from ttpipe.passes.warp_specialize.cooperative import (
    Refused,
    blocked_for_warpgroup,
    demanded_axes,
    forwarded_axis,
    is_tensor,
    rebuilt_leaf,
)

Axis = int | None
"""The axis along which a tensor holds the split rows; None: the tensor is whole."""


@dataclass
class RowSplit:
    """The row-split of one function's tile over `warpgroups` consumer warpgroups."""

    warpgroups: int
    rows: int
    axes: dict[SSAValue, int] = field(default_factory=dict)
    """The row-tied tensors and the axis of their rows."""

    @property
    def half(self) -> int:
        """The rows of one warpgroup."""
        return self.rows // self.warpgroups

    def check_rows(self) -> None:
        if self.rows % (self.warpgroups * WGMMA_M):
            raise Refused(f"the tile's {self.rows} rows do not split into {self.warpgroups} warpgroups of a "
                          f"multiple of {WGMMA_M} rows")

    # ---------------------------------------------------------------- layouts

    def encoding(self, encoding: Attribute) -> Attribute:
        """The layout of one warpgroup's share of a tensor laid out for all of them."""
        if self.warpgroups == 1:
            return encoding
        if isinstance(encoding, NvidiaMmaEncodingAttr):
            if list(encoding.warps_per_cta) != [WARPS_PER_WARPGROUP * self.warpgroups, 1]:
                raise Refused(f"an mma layout with warpsPerCTA = {list(encoding.warps_per_cta)}, not the warpgroups "
                              f"laid along the rows")
            return NvidiaMmaEncodingAttr.get(encoding.version_major, encoding.version_minor, [WARPS_PER_WARPGROUP, 1],
                                             encoding.instr_shape, encoding.cta_layout)
        if isinstance(encoding, SliceEncodingAttr):
            return SliceEncodingAttr.get(encoding.dim, self.encoding(encoding.parent))
        if isinstance(encoding, DotOperandEncodingAttr):
            return DotOperandEncodingAttr.get(encoding.op_idx, self.encoding(encoding.parent), encoding.k_width)
        if isinstance(encoding, BlockedEncodingAttr):
            return blocked_for_warpgroup(encoding, self.warpgroups)
        raise Refused(f"a tensor in a layout this pass cannot split over warpgroups ({encoding.name})")

    def share_type(self, type_: TensorType, axis: Axis) -> TensorType:
        """The type of one warpgroup's share: `half` rows along `axis`, 4-warp layout."""
        shape = list(type_.get_shape())
        if axis is not None:
            if shape[axis] != self.rows:
                raise Refused(f"a tensor with {shape[axis]} rows along its row axis, not the tile's {self.rows}")
            shape[axis] = self.half
        return TensorType(type_.element_type, shape, self.encoding(type_.encoding))

    # ---------------------------------------------------------------- analysis

    def forward(self, loop: scf.ForOp, after: Iterable[Operation]) -> None:
        """The row-tied values of `loop` (to a fixed point) and of the ops `after` it."""
        body = [op for op in loop.body.ops if not isinstance(op, scf.YieldOp)]
        for op in body:
            if isinstance(op, ttng.WarpGroupDotOp):
                self.axes[op.d] = 0
        yielded = loop.body.last_op.operands
        changed = True
        while changed:
            changed = False
            for op in body:
                changed |= self._forward_op(op)
            for arg, value in zip(loop.body.args[1:], yielded):
                if value in self.axes and self.axes.get(arg) != self.axes[value]:
                    if arg in self.axes:
                        raise Refused("an iteration argument whose rows move between iterations")
                    self.axes[arg] = self.axes[value]
                    changed = True
        for arg, result in zip(loop.body.args[1:], loop.results):
            if arg in self.axes:
                self.axes[result] = self.axes[arg]
        for op in after:
            self._forward_op(op)

    def _forward_op(self, op: Operation) -> bool:
        """The axis of `op`'s result from its row-tied operands; True where it is new."""
        if isinstance(op, ttng.WarpGroupDotOp):
            for operand in (op.a, op.c):
                if is_tensor(operand) and self.axes.get(operand, 0) != 0:
                    raise Refused("a wgmma operand whose rows are not along axis 0")
            return False
        found = {self.axes[v] for v in op.operands if v in self.axes}
        if not found:
            return False
        if len(found) > 1:
            raise Refused(f"'{op.name}' combines rows along different axes")
        axis = found.pop()
        if isinstance(op, (tt.StoreOp, tt.DescriptorStoreOp)):
            return False
        if len(op.results) != 1 or not is_tensor(op.results[0]):
            raise Refused(f"'{op.name}' reads the warpgroups' rows; only tensor ops with one result can be split")
        if isinstance(op, tt.ReduceOp):
            reduced = op.axis.value.data
            if reduced == axis:
                raise Refused("a tt.reduce along the rows the warpgroups split")
            axis = axis if axis < reduced else axis - 1
        else:
            axis = forwarded_axis(op, axis)
            if axis is None and isinstance(op, tt.ReshapeOp) and not op.allow_reorder:
                raise Refused(f"'{op.name}' moves the row axis")
            if axis is None:
                raise Refused(f"'{op.name}' reads the warpgroups' rows and cannot be split along them")
        result = op.results[0]
        if self.axes.get(result) == axis:
            return False
        self.axes[result] = axis
        return True

    def operand_axes(self, op: Operation, axis: Axis) -> list[Axis]:
        """The demand rule: how each operand of `op` is needed when its result is needed
        along `axis` (`cooperative.demanded_axes`, and `tt.reduce` along another axis);
        `Refused` where it cannot be."""
        if isinstance(op, tt.ReduceOp):
            reduced = op.axis.value.data
            return [None if axis is None else axis if axis < reduced else axis + 1 for _ in op.operands]
        rule = demanded_axes(op, axis)
        if rule is None:
            raise Refused(f"'{op.name}' cannot be split over the warpgroups")
        return rule


@dataclass
class WarpgroupRows:
    """The rebuild of row-tied and free values for consumer warpgroup `index`.

    `mapping` holds what the region has built for values of the original function: row-tied
    tensors (as the warpgroup's rows), scalars cloned into the region, views of shared
    memory. `outer` inserts before the region's loop: free values defined before the
    original loop are built there once; others at `builder`, where they are needed."""

    split: RowSplit
    index: int
    builder: OpBuilder
    outer: OpBuilder
    loop: scf.ForOp
    """The first loop the region runs: what its block holds before it is outside."""
    mapping: dict[SSAValue, SSAValue] = field(default_factory=dict)
    scopes: list[dict[tuple[SSAValue, Axis], SSAValue]] = field(default_factory=lambda: [{}])
    aliases: dict[SSAValue, SSAValue] = field(default_factory=dict)
    """Values read as another (a select known to pick its first operand): not built."""

    def get(self, value: SSAValue, axis: Axis = None) -> SSAValue:
        """`value` in this region: row-tied ones as built, free tensors along `axis`."""
        if value in self.mapping:
            if is_tensor(value) and self.split.axes.get(value, axis) != axis:
                raise Refused("a row-tied tensor read whole (or along another axis)")
            return self.mapping[value]
        if value in self.aliases:
            return self.get(self.aliases[value], axis)
        if not is_tensor(value):
            owner = value.owner
            if isinstance(owner, Operation) and self._inside(owner):
                return self._build_scalar(value)
            return value
        if value in self.split.axes:
            raise Refused(f"a row-tied tensor read before it is computed ({value.name_hint or 'unnamed'})")
        key = (value, axis)
        for scope in reversed(self.scopes):
            if key in scope:
                return scope[key]
        owner = value.owner
        outside = (isinstance(owner, Operation) and owner.parent_block() is self.loop.parent_block()
                   and is_before_in_block(owner, self.loop))
        return self._build_free(value, axis, outside)

    def _inside(self, op: Operation) -> bool:
        """`op` is the first loop's, or comes after it (later loops, the ops between them):
        not a value the region may read as it is."""
        top = ancestor_in_block(self.loop.parent_block(), op)
        return top is not None and (top is self.loop or is_before_in_block(self.loop, top))

    def _build_scalar(self, value: SSAValue) -> SSAValue:
        """A scalar of the loops or between them read before the walk reaches it (a mask's
        bound, a later loop's bound): built where read, then known to the walk."""
        op = value.owner
        if op.regions or not is_side_effect_free(op):
            raise Refused(f"a scalar the warpgroups cannot re-create ('{op.name}')")
        clone = self.builder.insert_clone(op.clone(value_mapper={v: self.get(v) for v in op.operands}))
        self.mapping.update(zip(op.results, clone.results))
        return self.mapping[value]

    def _build_free(self, value: SSAValue, axis: Axis, outside: bool) -> SSAValue:
        """`value` along `axis`, built outside the loops or where the region reads it, and
        recorded in that scope (with an op of several results, `tt.split`'s, each result:
        the op is cloned once)."""
        op = value.owner
        if isinstance(value, BlockArgument) or op.regions or not is_side_effect_free(op):
            raise Refused(f"a tensor the warpgroups cannot re-create ('{getattr(op, 'name', 'argument')}')")
        b, scope = (self.outer, self.scopes[0]) if outside else (self.builder, self.scopes[-1])
        leaf = rebuilt_leaf(b, op, self.split.share_type(value.type, axis), axis, self.index)
        if leaf is not None:
            scope[(value, axis)] = leaf
            return leaf
        if isinstance(op, arith.ConstantOp):
            raise Refused("a non-splat tensor constant read by the warpgroups")
        operand_axes = self.split.operand_axes(op, axis)
        operands = [self.get(v, a) for v, a in zip(op.operands, operand_axes)]
        clone = b.insert_clone(op.clone(value_mapper=dict(zip(op.operands, operands))))
        for old, new in zip(op.results, clone.results):
            scope[(old, axis)] = Rewriter.replace_value_with_new_type(new, self.split.share_type(old.type, axis))
        return scope[(value, axis)]

    @contextmanager
    def reading_as(self, value: SSAValue, replacement: SSAValue) -> Iterator[None]:
        """Within: `value` is read as `replacement`; after, as what was built for it (or
        nothing, where nothing was)."""
        built = self.mapping.pop(value, None)
        self.mapping[value] = replacement
        try:
            yield
        finally:
            if built is None:
                del self.mapping[value]
            else:
                self.mapping[value] = built

    def built(self, op: Operation) -> bool:
        """A non-tensor op (a scalar, a view) already built where something read it first."""
        return bool(op.results) and not any(is_tensor(r) for r in op.results) and all(
            r in self.mapping for r in op.results)

    def visit(self, op: Operation) -> None:
        """The walk's step for `op`: a row-tied op, or a scalar one not built yet, is built
        now; a free tensor waits for what reads it."""
        free = any(is_tensor(r) for r in op.results) and not any(r in self.split.axes for r in op.results)
        if not free and not self.built(op):
            self.build(op)

    def build(self, op: Operation) -> Operation:
        """Clone the row-tied (or scalar) op `op` at the builder, its operands as the rule
        demands, its result as the warpgroup's share."""
        result = op.results[0] if op.results else None
        axis = self.split.axes.get(result) if result is not None else None
        if result is not None and is_tensor(result):
            operand_axes = self.split.operand_axes(op, axis)
        else:
            operand_axes = [None] * len(op.operands)
        operands = [self.get(v, a) for v, a in zip(op.operands, operand_axes)]
        clone = self.builder.insert_clone(op.clone(value_mapper=dict(zip(op.operands, operands))))
        for old, new in zip(op.results, clone.results):
            if is_tensor(old):
                new = Rewriter.replace_value_with_new_type(new, self.split.share_type(old.type, axis))
            self.mapping[old] = new
        return clone
