"""Pointer loads of a warp-specialized K loop as TMA loads: which loads qualify, and why
those whose indices are kept in bounds may still be read as TMA boxes.

The producer partition issues TMA copies; a K loop whose operands come from `tt.load`s of
pointer tensors is warp-specialized once every such load is a TMA box
(`TileAccessAnalysis`, `passes/analysis/tile_access.py`) read only as a wgmma operand
(`tma_plan`). `ttpipe-ws-partition` rewrites them (`pointer_loads_to_tma.convert`) on a copy
of the function and keeps the copy only when the loop is then specialized.

Layouts. TMA writes a box into shared memory with its innermost (contiguous) dimension
contiguous; where the kernel staged the tile the other way (AccelerateMatmul's choice when
the loads' contiguity is hidden, e.g. behind `tl.where`), the allocation takes the box's
layout instead (`convert(..., restage=True)`): wgmma reads 16-bit operands either way, and
8-bit ones only K-major, so such a load of 8-bit elements refuses the loop.

Guards. Triton's tutorials keep a tile's rows in bounds with `(off + arange) % M` or
`where(off + arange < M, off + arange, 0)`: past row M they load other, real rows, where a
TMA box reads zeros. The two differ only in rows (of A; columns of B) past the bound, and
row i of `A @ B` reads only row i of A: so only output rows past the bound differ, and the
rewrite is exact when the kernel throws those away. `discarded` proves it: from the loop's
result (the accumulator) through ops that keep each element's position (elementwise
arithmetic, conversions, layout changes) to every use, each a store that leaves out those
rows: a `tt.store` whose mask bounds that dimension at the same absolute limit (its
`limit - start` equals the guard's `extent - start`; both read with no loop's induction
variable expanded, so that the load's and the store's atoms are the same values), or a
`tt.descriptor_store` of a descriptor made in the kernel whose extent and coordinate along
it say the same. A guard
along K (which every output element reads) is never discarded.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import TensorType
from xdsl.ir import Attribute, Operation, SSAValue

from ttpipe.dialects import scf, tt, ttg, ttng
from ttpipe.passes.accelerate_matmul import ELEMENTWISE_TT_OPS, is_arith_or_math_elementwise
from ttpipe.passes.analysis.polynomial import Poly
from ttpipe.passes.analysis.tile_access import Guard, NotATile, TileAccess, TileAccessAnalysis
from ttpipe.passes.pipeline.lower_loops import MEMDESC_VIEWS
from ttpipe.passes.common.mma_layouts import element_bit_width
from ttpipe.passes.pointer_loads_to_tma import descriptor_encoding, staged_encoding
from ttpipe.passes.warp_specialize.cooperative import Refused

A_OPERAND, B_OPERAND = 0, 1

MN_MAJOR_BITS = (16, )
"""wgmma reads an operand from shared memory transposed (MN-major) only for 16-bit elements
(PTX ISA, "wgmma.mma_async": `imm-trans-a/b` for .f16/.bf16)."""


def tma_plan(k_loop: scf.ForOp, analysis: TileAccessAnalysis) -> list[tuple[TileAccess, Attribute]]:
    """The TMA box and descriptor encoding of each `tt.load` of the K loop's body, or
    `Refused` with the first load's reason."""
    plan = []
    for op in k_loop.body.ops:
        if not isinstance(op, tt.LoadOp):
            continue
        try:
            access = analysis.load(op)
        except NotATile as exc:
            raise Refused(f"a pointer load TMA cannot perform: {exc}") from None
        uses = list(op.result.uses)
        if len(uses) != 1 or not isinstance(uses[0].operation, ttg.LocalAllocOp):
            raise Refused("a pointer load whose value is used other than by one ttg.local_alloc")
        encoding = descriptor_encoding(op, access)
        bits = element_bit_width(op.result.type.element_type)
        if uses[0].operation.result.type.encoding != staged_encoding(access, encoding) and bits not in MN_MAJOR_BITS:
            raise Refused(f"a pointer load of {bits}-bit elements whose tile the kernel stages transposed: TMA writes "
                          f"it as it lies in memory, and wgmma reads {bits}-bit operands K-major only")
        for guard in access.guards:
            why = undiscarded(k_loop, uses[0].operation, guard, analysis)
            if why is not None:
                raise Refused(f"a pointer load whose indices are kept in bounds by remsi/select: {why}")
        plan.append((access, encoding))
    return plan


def query_plan(loops: Sequence[scf.ForOp], analysis: TileAccessAnalysis) -> list[tuple[TileAccess, Attribute]]:
    """The TMA box and descriptor encoding of each tile attention loops' wgmmas read as A
    from a `tt.load` before the loops (Q, loaded once), or `Refused`: the load at the
    function's top level, its only use one `ttg.local_alloc`, its mask a bound per
    dimension (TMA's zero fill past it is the load's `other = 0`) and no index guard."""
    plan = []
    for op in (op for loop in loops for op in loop.body.ops):
        if not isinstance(op, ttng.WarpGroupDotOp) or not isinstance(op.a.owner, ttg.LocalAllocOp):
            continue
        alloc = op.a.owner
        load = alloc.src.owner if alloc.src is not None else None
        if not isinstance(load, tt.LoadOp) or any(access.op is load for access, _ in plan):
            continue
        if load.parent_block() is not loops[0].parent_block():
            raise Refused("a pointer load of a wgmma A operand that is neither in the loop nor before it")
        try:
            access = analysis.load(load)
        except NotATile as exc:
            raise Refused(f"a pointer load of Q that TMA cannot perform: {exc}") from None
        if len(list(load.result.uses)) != 1:
            raise Refused("a pointer load of Q whose value is used other than by one ttg.local_alloc")
        if access.guards:
            raise Refused("a pointer load of Q whose indices are kept in bounds by remsi/select")
        encoding = descriptor_encoding(load, access)
        bits = element_bit_width(load.result.type.element_type)
        if alloc.result.type.encoding != staged_encoding(access, encoding) and bits not in MN_MAJOR_BITS:
            raise Refused(f"a pointer load of Q of {bits}-bit elements whose tile the kernel stages transposed")
        plan.append((access, encoding))
    return plan


def _operand_dims(alloc: ttg.LocalAllocOp) -> list[tuple[ttng.WarpGroupDotOp, int, list[int]]]:
    """(wgmma, operand index, the operand's dimension of each tile dimension) for each wgmma
    reading the tile through memdesc views (transposes followed)."""
    found = []
    pending: list[tuple[SSAValue, list[int]]] = [(alloc.result, list(range(len(alloc.result.type.shape))))]
    while pending:
        value, dims = pending.pop()
        for use in value.uses:
            user = use.operation
            if isinstance(user, ttg.MemDescTransOp):
                order = list(user.order.get_values())
                pending.append((user.result, [order.index(d) for d in dims]))
            elif isinstance(user, MEMDESC_VIEWS):
                pending.append((user.result, dims))
            elif isinstance(user, ttng.WarpGroupDotOp):
                found.append((user, A_OPERAND if use.index == 0 else B_OPERAND, dims))
    return found


def undiscarded(k_loop: scf.ForOp, alloc: ttg.LocalAllocOp, guard: Guard, analysis: TileAccessAnalysis) -> str | None:
    """Why the output positions past `guard` are not shown to be thrown away, or None."""
    readers = _operand_dims(alloc)
    if not readers:
        return "the tile is read by no wgmma"
    for dot, operand, dims in readers:
        dim = dims[guard.dim]
        k_dim = 1 if operand == A_OPERAND else 0
        if dim == k_dim:
            return "the guard is along K, which every output element reads"
        result_dim = 0 if operand == A_OPERAND else 1
        accumulators = [i for i, value in enumerate(k_loop.body.last_op.operands) if value is dot.d]
        if len(accumulators) != 1:
            return "the wgmma's result is not one accumulator of the loop"
        why = _stores_leave_out(k_loop.results[accumulators[0]], result_dim, guard, analysis)
        if why is not None:
            return why
    return None


def _keeps_positions(op: Operation) -> bool:
    """Each result element is computed from the operands' elements at its own position."""
    return isinstance(op, (*ELEMENTWISE_TT_OPS, ttg.ConvertLayoutOp)) or is_arith_or_math_elementwise(op)


def _stores_leave_out(value: SSAValue, dim: int, guard: Guard, analysis: TileAccessAnalysis) -> str | None:
    """Every use of `value` (transitively, through position-keeping ops) is a store leaving
    out the positions along `dim` where `guard.start + t >= guard.limit`; else why not."""
    pending = [value]
    seen: set[SSAValue] = set()
    while pending:
        current = pending.pop()
        if current in seen:
            continue
        seen.add(current)
        for use in current.uses:
            user = use.operation
            if isinstance(user, tt.StoreOp) and user.value is current:
                why = _masked_store(user, dim, guard, analysis)
            elif isinstance(user, tt.DescriptorStoreOp) and user.src is current:
                why = _clipped_store(user, dim, guard, analysis)
            elif _keeps_positions(user) and all(isinstance(r.type, TensorType) for r in user.results):
                pending.extend(user.results)
                why = None
            else:
                why = f"the accumulator reaches '{user.name}', which does not keep each element's position"
            if why is not None:
                return why
    return None


def _limit_matches(start: Poly, limit: Poly, guard: Guard) -> bool:
    return limit - start == guard.limit - guard.start


def _masked_store(store: tt.StoreOp, dim: int, guard: Guard, analysis: TileAccessAnalysis) -> str | None:
    try:
        bounds = analysis.mask(store.mask, None)
    except NotATile as exc:
        return f"a store's mask is not a box ({exc})"
    if any(b.upper and b.dim == dim and _limit_matches(b.start, b.limit, guard) for b in bounds):
        return None
    return "a store of the result does not mask the rows or columns past the guard's bound"


def _clipped_store(store: tt.DescriptorStoreOp, dim: int, guard: Guard, analysis: TileAccessAnalysis) -> str | None:
    made = store.desc.owner
    if not isinstance(made, tt.MakeTensorDescOp):
        return "the result is stored through a descriptor whose extents the kernel does not show"
    indices, shape = list(store.indices), list(made.shape)
    offset = len(indices) - len(store.src.type.get_shape())
    start = analysis.scalar(indices[offset + dim], None)
    limit = analysis.scalar(shape[offset + dim], None)
    if _limit_matches(start, limit, guard):
        return None
    return "a descriptor store of the result is not clipped at the guard's bound"
