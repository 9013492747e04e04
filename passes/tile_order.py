"""`ttpipe-tile-order`: a GEMM kernel that walks its output tiles in row-major order walks
them in groups of rows instead, so that the tiles running at once share their operands in L2.

A matmul kernel written the plain way numbers its output tiles row by row and takes tile t at
row `t / n`, column `t % n` (n tiles a row): `pid_m = pid // num_pid_n`,
`pid_n = pid % num_pid_n`, per program or per iteration of a persistent loop over tiles;
or it launches a 2-D grid, `pid_m = program_id(0)`, `pid_n = program_id(1)`, which the GPU
starts x fastest: row-major in t = y * X + x. The tiles in flight together (132 SMs' worth) then cover one or two rows of tiles and every
column, so each wave of tiles reads all of B (N x K) again; once B outgrows L2 (8192^2 bf16
is 128 MB against the H100's 50 MB) every wave reads it from DRAM. Grouped, as Triton's
tutorials and CUTLASS's swizzled tile schedulers order tiles, the same wave covers `group`
rows and a 1/`group` share of the columns: A and B panels both reused from L2.
Measured on the H100 (docs/measurements.md, twenty-third session; a persistent bf16 GEMM,
B transposed in the kernel, sigmoid epilogue, the same source grouped by hand against
not): 8192^3 at 128x128 tiles 455 -> 543 TFLOP/s, at 128x256 624 -> 686; 4096^3 477 -> 512
and 622 -> 666; stock Triton gains alike from the hand-grouped source. The pass itself, on
the bench's row-major kernels against the same pipeline without it (8192^3): persistent
582 -> 708 TFLOP/s (128x256), a 2-D grid 533 -> 596 (128x128) and 664 -> 685 (128x256).

Algorithm, for every `tt.func`:
  1. Tile indices. A linear tile index t is either the induction variable of a top-level
     `scf.for` whose lower bound is `tt.get_program_id` (a persistent loop over tiles) or,
     where no such loop starts at it, `tt.get_program_id` itself (one program a tile).
     Every use of t is an `arith.divsi t, n` or an `arith.remsi t, n` with one n, at least
     one of each: the tile's row (slow = t / n) and column (fast = t % n). Anything else
     reading t declines.
     A grid: the function reads one id along x and one along y, neither divided nor a
     loop's start; slow is the y id, fast the x id, t = y * X + x over the X x Y grid.
  2. Legality. Grouping changes which program, and in a persistent loop which iteration,
     computes which tile. That keeps the kernel's meaning when what a program does with a
     tile depends on the tile only through slow and fast:
       - no value the tile's code reads depends on the program id along t's axis other than
         through t (ids along the other axes, and the grid size, are the same for the tiles
         swapped; values computed from the id ahead of a persistent loop are not, nor are
         its upper bound and step);
       - a persistent loop carries no values from one tile to the next (no `iter_args`)
         and its tiles do not talk through memory: no atomics, and no pointer argument
         both read and written in the loop (each access's pointer traced to the function's
         arguments through address arithmetic, block pointers, descriptors and the loops
         that carry them; an access not traced declines). Programs, by contrast, run in no
         order Triton promises, so a program per tile needs neither, and a grid's ids are
         its coordinates: whatever reads them reads the tile.
     t must take every value of [0, T) once over the launch, T = rows x n: the grid size
     along the axis for a program per tile, the loop's upper bound for a persistent loop
     launched with at least `step` programs (a persistent kernel launched with fewer misses
     tiles either way). `rows` is the other factor where T is written `rows * n`; otherwise
     T / n, and the grouped order is selected at run time only where n divides T. A grid
     has rows = Y and n = X.
  3. Profit (the cost model). Only tiles that compute a dot (`tt.dot`, `tt.dot_scaled`,
     `ttng.warp_group_dot`, `ttng.tc_gen5_mma`) one of whose operands is read from addresses
     that depend on slow and not on fast and the other on fast and not on slow (dependence
     traced through values, loops' carried values and nested regions): a GEMM tile whose A
     panel is shared along its row of tiles and B panel along its column. Attention, whose
     K and V follow the head alone, and tiles whose operands do not split that way, keep
     their order: grouping buys them nothing.
  4. Rewrite, at t's first use:
         width = group * n ; first = (t / width) * group
         size  = max(min(rows - first, group), 1)
         slow' = first + (t % width) % size ; fast' = (t % width) / size
     a bijection of [0, rows x n) onto itself that walks `group` rows of tiles column by
     column (the last group shorter where `group` does not divide rows). The divisions'
     results are replaced by slow' and fast' (by `select(n divides T, slow', slow)` where
     rows is T / n; the `max` keeps the unselected side free of a division by zero). A
     grid's ids are read as fast' and slow' after the ids, t computed from them.

Options: `group`, the rows of tiles a group spans (8, as Triton's tutorials take it; 1
leaves the order as it is).

Preconditions: TTIR or TTGIR, before loops are fused or pipelined (`make_ttgir`'s
`tritongpu-fuse-nested-loops` would fold t into a flattened loop's counters). Attributes:
none read; `ttpipe.tile_order` (the group, i32) written on the `scf.for` or
`tt.get_program_id` whose tiles it regrouped.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.context import Context
from xdsl.dialects.builtin import IntegerAttr, ModuleOp, TensorType, i32
from xdsl.ir import Attribute, BlockArgument, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from ttpipe.dialects import arith, scf, tt, ttg, ttng
from ttpipe.dialects.arith import CmpIPredicate
from ttpipe.passes.common.builder import OpBuilder
from ttpipe.passes.common.diagnostics import emit_remark
from ttpipe.passes.common.ir import erase_dead_chain
from ttpipe.passes.pipeline.pipelining_utility import is_defined_outside_loop

TILE_ORDER_MARK = "ttpipe.tile_order"
"""i32 attribute, the group, on the loop or program id whose tiles the pass regrouped."""

REMARK = "tiles kept in row-major order: "

DOT_OPS = (tt.DotOp, tt.DotScaledOp, ttng.WarpGroupDotOp, ttng.TCGen5MMAOp, ttng.TCGen5MMAScaledOp)
"""Ops that multiply two tiles (their `a` and `b` operands)."""

ATOMIC_OPS = (tt.AtomicRMWOp, tt.AtomicCASOp, tt.DescriptorReduceOp)
GLOBAL_READS = (tt.LoadOp, tt.DescriptorLoadOp, tt.DescriptorGatherOp)
GLOBAL_WRITES = (tt.StoreOp, tt.DescriptorStoreOp, tt.DescriptorScatterOp)
ADDRESS_STEPS = (tt.AddPtrOp, tt.SplatOp, tt.BroadcastOp, tt.ExpandDimsOp, tt.ReshapeOp, ttg.ConvertLayoutOp,
                 tt.AdvanceOp, tt.MakeTensorPtrOp, tt.MakeTensorDescOp)
"""Ops whose first operand is the pointer (or base) their result addresses from."""


class Declined(Exception):
    """Why a tile index keeps its order (a remark at the index)."""


@dataclass
class TileIndex:
    """Step 1: a linear tile index and its row and column."""

    index: SSAValue
    """t: the persistent loop's induction variable, or the program id."""
    anchor: tt.GetProgramIdOp | scf.ForOp
    """What defines t: the program id, or the loop (remarks and the mark go here)."""
    program_id: tt.GetProgramIdOp
    tiles_per_row: SSAValue
    """n."""
    rows: list[arith.DivSIOp]
    columns: list[arith.RemSIOp]

    @property
    def loop(self) -> scf.ForOp | None:
        return self.anchor if isinstance(self.anchor, scf.ForOp) else None

    @property
    def scope(self) -> Operation:
        """What computes a tile: the loop, or the function."""
        return self.anchor if isinstance(self.anchor, scf.ForOp) else self.anchor.parent_op()


@dataclass
class GridTiles:
    """Step 1: a two-dimensional grid of a program a tile, the x id the tile's column and the
    y id its row (the launch runs x fastest: the row-major order of t = y * X + x)."""

    column_id: tt.GetProgramIdOp
    row_id: tt.GetProgramIdOp

    @property
    def anchor(self) -> tt.GetProgramIdOp:
        return self.column_id


def tile_indices(func: tt.FuncOp) -> list[TileIndex | GridTiles | tuple[Operation, Declined]]:
    """Step 1 for one function: a grid of tiles over the x and y ids, else each program id's
    persistent loops over tiles, or the id itself where no such loop starts at it, as a tile
    index or why it is not one. Functions that compute no dot are left out: they number no
    GEMM tiles. Nor do functions whose body branches between blocks (an early `return`): their
    ids' readers need not follow them in one block."""
    if not any(isinstance(op, DOT_OPS) for op in func.walk()) or len(func.body.blocks) != 1:
        return []
    ids = [op for op in func.body.block.ops if isinstance(op, tt.GetProgramIdOp)]
    grid = _grid_tiles(ids)
    if grid is not None:
        return [grid]
    found: list[TileIndex | GridTiles | tuple[Operation, Declined]] = []
    for pid in ids:
        loops = [use.operation for use in pid.result.uses
                 if isinstance(use.operation, scf.ForOp) and use.operation.lowerBound is pid.result
                 and use.operation.parent_op() is func]
        anchors = [(loop.body.args[0], loop) for loop in loops] or [(pid.result, pid)]
        for index, anchor in anchors:
            try:
                found.append(_coordinates(index, anchor, pid))
            except Declined as why:
                found.append((anchor, why))
    return found


def _grid_tiles(ids: list[tt.GetProgramIdOp]) -> GridTiles | None:
    """The x and y ids as a grid's column and row: one id along each, neither a loop's
    start nor divided into coordinates of its own."""
    by_axis = {axis: [op for op in ids if op.axis.value.data == axis] for axis in (0, 1)}
    if any(len(found) != 1 for found in by_axis.values()):
        return None
    column_id, row_id = by_axis[0][0], by_axis[1][0]
    for pid in (column_id, row_id):
        if any(isinstance(use.operation, (scf.ForOp, arith.DivSIOp, arith.RemSIOp)) for use in pid.result.uses):
            return None
    return GridTiles(column_id, row_id)


def _coordinates(index: SSAValue, anchor: tt.GetProgramIdOp | scf.ForOp, pid: tt.GetProgramIdOp) -> TileIndex:
    rows, columns = [], []
    for use in index.uses:
        user = use.operation
        if isinstance(user, (arith.DivSIOp, arith.RemSIOp)) and use.index == 0:
            (rows if isinstance(user, arith.DivSIOp) else columns).append(user)
        else:
            raise Declined(f"the tile index is read by '{user.name}', not only divided into a row and a column")
    divisors = {op.rhs for op in (*rows, *columns)}
    if not rows or not columns or len(divisors) != 1:
        raise Declined("the tile index is not divided into a row (t / n) and a column (t % n) by one n")
    return TileIndex(index, anchor, pid, divisors.pop(), rows, columns)


def dependent_values(seeds: set[SSAValue], scope: Operation) -> set[SSAValue]:
    """The values in `scope` (and `seeds`) that depend on `seeds`: through operands, the
    values a region yields to its op's results, and an `scf.for`'s initial and yielded
    values to its carried block arguments (the other region ops' block arguments depend on
    every operand of the op)."""
    dependent = set(seeds)
    ops = list(scope.walk())
    changed = True
    while changed:
        changed = False

        def add(value: SSAValue) -> None:
            nonlocal changed
            if value not in dependent:
                dependent.add(value)
                changed = True

        for op in ops:
            reads = any(v in dependent for v in op.operands)
            if isinstance(op, scf.ForOp):
                if any(v in dependent for v in (op.lowerBound, op.upperBound, op.step)):
                    add(op.body.args[0])
                for arg, init, value, result in zip(op.body.args[1:], op.initArgs, op.body.last_op.operands,
                                                    op.results):
                    if init in dependent or value in dependent:
                        add(arg)
                        add(result)
            else:
                blocks = [block for region in op.regions for block in region.blocks]
                if reads:
                    for arg in (arg for block in blocks for arg in block.args):
                        add(arg)
                reads = reads or any(v in dependent for block in blocks if block.last_op is not None
                                     for v in block.last_op.operands)
            if reads:
                for result in op.results:
                    add(result)
    return dependent


def check_legal(tile: TileIndex | GridTiles) -> None:
    """Step 2: raise `Declined` where regrouping could change what the kernel computes (never
    for a grid: its ids are the tile's coordinates)."""
    if isinstance(tile, GridTiles):
        return
    axis = tile.program_id.axis
    if any(isinstance(op, tt.GetProgramIdOp) and op is not tile.program_id and op.axis == axis
           for op in tile.scope.walk()):
        raise Declined("the tile's code reads the program id")
    loop = tile.loop
    if loop is None:  # step 1 saw every use of the id: the row and the column
        return
    from_id = dependent_values({tile.program_id.result}, tile.program_id.parent_op())
    if loop.upperBound in from_id or loop.step in from_id:
        raise Declined("the loop over tiles ends or steps by a value computed from the program id")
    if any(value in from_id and is_defined_outside_loop(value, loop) for op in loop.body.walk()
           for value in op.operands):
        raise Declined("the tile's code reads a value computed from the program id")
    if loop.initArgs:
        raise Declined("the loop over tiles carries values from one tile to the next")
    reads: set[BlockArgument] = set()
    writes: set[BlockArgument] = set()
    for op in loop.body.walk():
        if isinstance(op, ATOMIC_OPS):
            raise Declined(f"the loop over tiles updates memory with '{op.name}'")
        if isinstance(op, (*GLOBAL_READS, *GLOBAL_WRITES)):
            roots = pointer_roots(op.ptr if isinstance(op, (tt.LoadOp, tt.StoreOp)) else op.desc)
            if roots is None:
                raise Declined(f"the pointer of a '{op.name}' in the loop over tiles is not traced to an argument")
            (reads if isinstance(op, GLOBAL_READS) else writes).update(roots)
        elif may_touch_memory(op):
            raise Declined(f"the loop over tiles holds '{op.name}', which may order its tiles through memory")
    if reads & writes:
        raise Declined("the loop over tiles reads memory through a pointer it writes through")


def may_touch_memory(op: Operation) -> bool:
    """Whether `op`, not one of the reads, writes and address steps the loop's check traces,
    may read or write global memory: a call, impure inline assembly or external function,
    or any other op that takes a pointer or a descriptor (the loops, branches and selects
    that carry them aside)."""
    if isinstance(op, tt.CallOp):
        return True
    if isinstance(op, (tt.ElementwiseInlineAsmOp, tt.ExternElementwiseOp)):
        return not op.pure.value.data
    if isinstance(op, (*ADDRESS_STEPS, arith.SelectOp, scf.ForOp, scf.IfOp, scf.YieldOp)):
        return False
    return any(is_pointer_like(value.type) for value in op.operands)


def is_pointer_like(type_: Attribute) -> bool:
    """A pointer, a tensor of pointers, a block pointer or a tensor descriptor."""
    if isinstance(type_, TensorType):
        type_ = type_.element_type
    return isinstance(type_, (tt.PointerType, tt.TensorDescType))


def pointer_roots(value: SSAValue) -> set[BlockArgument] | None:
    """The function arguments `value` (a pointer, tensor of pointers, block pointer or
    descriptor) addresses from, through address arithmetic and the loops and branches that
    carry it; None where it comes from anything else (a loaded pointer, an integer)."""
    roots: set[BlockArgument] = set()
    pending, seen = [value], set()
    while pending:
        current = pending.pop()
        if current in seen:
            continue
        seen.add(current)
        owner = current.owner
        if isinstance(current, BlockArgument):
            parent = owner.parent_op()
            if isinstance(parent, tt.FuncOp):
                roots.add(current)
            elif isinstance(parent, scf.ForOp) and current.index > 0:
                pending += [parent.initArgs[current.index - 1], parent.body.last_op.operands[current.index - 1]]
            else:
                return None
        elif isinstance(owner, ADDRESS_STEPS):
            pending.append(owner.operands[0])
        elif isinstance(owner, arith.SelectOp):
            pending += [owner.true_value, owner.false_value]
        elif isinstance(owner, scf.ForOp):
            index = owner.results.index(current)
            pending += [owner.initArgs[index], owner.body.last_op.operands[index]]
        elif isinstance(owner, scf.IfOp):
            index = owner.results.index(current)
            pending += [region.block.last_op.operands[index] for region in owner.regions if region.blocks]
        else:
            return None
    return roots


def check_profitable(tile: TileIndex | GridTiles) -> None:
    """Step 3: raise `Declined` unless a dot of the tile reads one operand along the row of
    tiles and the other along the column."""
    if isinstance(tile, GridTiles):
        scope = tile.row_id.parent_op()
        row_seeds, column_seeds = {tile.row_id.result}, {tile.column_id.result}
    else:
        scope = tile.scope
        row_seeds, column_seeds = {op.result for op in tile.rows}, {op.result for op in tile.columns}
    rows = dependent_values(row_seeds, scope)
    columns = dependent_values(column_seeds, scope)
    for dot in (op for op in scope.walk() if isinstance(op, DOT_OPS)):
        sides = {(dot.a in rows, dot.a in columns), (dot.b in rows, dot.b in columns)}
        if sides == {(True, False), (False, True)}:
            return
    raise Declined("no dot of the tile reads one operand along its row of tiles and the other along its column")


def regroup(tile: TileIndex, group: int) -> None:
    """Step 4: the row and column of t replaced by those of the grouped order."""
    first_use = min((*tile.rows, *tile.columns), key=lambda op: op.parent_block().get_operation_index(op))
    b = OpBuilder(InsertPoint.before(first_use), first_use.location)
    t, n = tile.index, tile.tiles_per_row
    total, rows_of_tiles = _total_and_rows(b, tile)
    divides = None
    if rows_of_tiles is None:
        rows_of_tiles = b.divsi(total, n)
        divides = b.cmpi(CmpIPredicate.eq, b.remsi(total, n), b.constant(0, t.type))
    row, column = grouped_coordinates(b, t, n, rows_of_tiles, group)
    for olds, new in ((tile.rows, row), (tile.columns, column)):
        for old in olds:
            if divides is None:
                old.result.replace_all_uses_with(new)
                erase_dead_chain(None, old)
            else:  # after the division it falls back on
                chosen = OpBuilder(InsertPoint.after(old), old.location).select(divides, new, old.result)
                old.result.replace_uses_with_if(chosen, lambda use: use.operation is not chosen.owner)
    tile.anchor.attributes[TILE_ORDER_MARK] = IntegerAttr(group, i32)


def regroup_grid(grid: GridTiles, group: int) -> None:
    """Step 4 for a grid: t = y * X + x, and the ids' readers read the grouped row and column
    (the later id moved up to the earlier, so that the new values come before every reader)."""
    earlier, later = sorted((grid.column_id, grid.row_id), key=lambda op: op.parent_block().get_operation_index(op))
    later.detach()
    Rewriter.insert_op(later, InsertPoint.after(earlier))
    b = OpBuilder(InsertPoint.after(later), later.location)
    x, y = grid.column_id.result, grid.row_id.result
    readers = {pid: list(pid.uses) for pid in (x, y)}
    columns = b.insert(tt.GetNumProgramsOp(grid.column_id.axis)).result
    rows = b.insert(tt.GetNumProgramsOp(grid.row_id.axis)).result
    t = b.addi(b.muli(y, columns), x)
    row, column = grouped_coordinates(b, t, columns, rows, group)
    for pid, new in ((y, row), (x, column)):
        for use in readers[pid]:
            use.operation.operands[use.index] = new
    grid.anchor.attributes[TILE_ORDER_MARK] = IntegerAttr(group, i32)


def grouped_coordinates(b: OpBuilder, t: SSAValue, n: SSAValue, rows: SSAValue, group: int) -> tuple[SSAValue, SSAValue]:
    """The row and column of tile t of a `rows` x n grid in the grouped order, at `b`."""
    group_size = b.constant(group, t.type)
    width = b.muli(group_size, n)
    first = b.muli(b.divsi(t, width), group_size)
    size = b.maxsi(b.minsi(b.subi(rows, first), group_size), b.constant(1, t.type))
    within = b.remsi(t, width)
    return b.addi(first, b.remsi(within, size)), b.divsi(within, size)


def _total_and_rows(b: OpBuilder, tile: TileIndex) -> tuple[SSAValue, SSAValue | None]:
    """T (the values t takes), and the rows of tiles where T is written `rows * n`."""
    if tile.loop is None:
        total = b.insert(tt.GetNumProgramsOp(tile.program_id.axis)).result
    else:
        total = tile.loop.upperBound
    product = total.owner
    if isinstance(product, arith.MulIOp):
        if product.rhs is tile.tiles_per_row:
            return total, product.lhs
        if product.lhs is tile.tiles_per_row:
            return total, product.rhs
    return total, None


def _at_least_one(value: int) -> str | None:
    return None if value >= 1 else "must be at least 1"


@dataclass(frozen=True)
class TileOrder(ModulePass):
    """Walk a GEMM kernel's row-major output tiles in groups of rows, so that tiles running together share A and B in L2.

    Before (a program a tile, or a persistent loop over tiles):

        %t = tt.get_program_id x          // or scf.for %t = %pid to %T step %P
        %m = arith.divsi %t, %n           // row of tiles
        %c = arith.remsi %t, %n           // column

    After (`group` rows of tiles walked column by column):

        %w = arith.muli %group, %n
        %first = arith.muli (arith.divsi %t, %w), %group
        %size = max(min(%rows - %first, %group), 1)
        %m = arith.addi %first, (arith.remsi (arith.remsi %t, %w), %size)
        %c = arith.divsi (arith.remsi %t, %w), %size

    See `ttpipe.passes.tile_order` for the algorithm, its legality and its cost model.
    """

    name = "ttpipe-tile-order"

    group: int = field(default=8, metadata={"help": "rows of tiles a group spans (1: the order as written)",
                                            "check": _at_least_one})

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if self.group <= 1:
            return
        for func in [f for f in op.walk() if isinstance(f, tt.FuncOp)]:
            for found in tile_indices(func):
                if isinstance(found, tuple):
                    anchor, why = found
                    emit_remark(anchor, REMARK + str(why))
                    continue
                try:
                    check_legal(found)
                    check_profitable(found)
                except Declined as why:
                    emit_remark(found.anchor, REMARK + str(why))
                    continue
                if isinstance(found, TileIndex):
                    regroup(found, self.group)
                else:
                    regroup_grid(found, self.group)
