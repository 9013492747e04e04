"""`register_prefetch`: which masks a run of unrolled iterations drops (`bounds_the_chunk`, and
with the tile-access analysis `holds_in_runs`: a block pointer's carried offset),
what `unroll` leaves masked, where `prefetch` issues its first loads (`earliest`), what its
queue carries (the widened value, where the load's only reader widens it), and loads whose
address an iteration argument advancing by a loop-invariant amount makes (a block pointer's
offset), and the remaining iterations as a run of copies each guarded by its iteration
existing (`guarded_run`)."""

from __future__ import annotations

import pytest

from ttpipe.dialects import arith, scf, tt
from ttpipe.passes.analysis.axis_info import ModuleAxisInfo
from ttpipe.passes.analysis.tile_access import TileAccessAnalysis
from ttpipe.passes.pipeline.register_prefetch import (bounds_the_chunk, carried_type, guarded_run, holds_in_runs,
                                                      prefetch, prefetchable, unroll)
from ttpipe.textio import parse_module

BLOCKED = "#ttg.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>"
MODULE = """
#blocked = {blocked}
module attributes {{"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32}} {{
  tt.func @k(%x: !tt.ptr<f16>, %y: !tt.ptr<f16>, %w: !tt.ptr<f16>, %n: i32, %m: i32) {{
    %c0 = arith.constant 0 : i32
    %step = arith.constant {step} : i32
    %other = arith.constant dense<0.000000e+00> : tensor<1024xf16, #blocked>
    %cols = tt.make_range {{end = {end} : i32, start = 0 : i32}} : tensor<{end}xi32, #blocked>
    %ns = tt.splat %n : i32 -> tensor<1024xi32, #blocked>
    %ms = tt.splat %m : i32 -> tensor<1024xi32, #blocked>
    %xs = tt.splat %x : !tt.ptr<f16> -> tensor<1024x!tt.ptr<f16>, #blocked>
{between}
    scf.for %off = %c0 to %n step %step : i32 {{
      %offs = tt.splat %off : i32 -> tensor<1024xi32, #blocked>
      %idx = arith.addi %offs, %cols : tensor<1024xi32, #blocked>
      %in = arith.cmpi {predicate}, {compared} : tensor<1024xi32, #blocked>
      %p = tt.addptr %xs, %idx : tensor<1024x!tt.ptr<f16>, #blocked>, tensor<1024xi32, #blocked>
      %v = tt.load %p, %in, %other : tensor<1024x!tt.ptr<f16>, #blocked>
      %q = tt.addptr %ys, %idx : tensor<1024x!tt.ptr<f16>, #blocked>, tensor<1024xi32, #blocked>
      %z = arith.select %in, %v, %other : tensor<1024xi1, #blocked>, tensor<1024xf16, #blocked>
      %r = tt.addptr %ws, %idx : tensor<1024x!tt.ptr<f16>, #blocked>, tensor<1024xi32, #blocked>
      %u = tt.load %r, %in : tensor<1024x!tt.ptr<f16>, #blocked>
      %s = arith.addf %z, %u : tensor<1024xf16, #blocked>
      {store} : tensor<1024x!tt.ptr<f16>, #blocked>
    }}
    tt.return
  }}
}}
"""
SPLATS_OF_Y_AND_W = """    %ys = tt.splat %y : !tt.ptr<f16> -> tensor<1024x!tt.ptr<f16>, #blocked>
    %ws = tt.splat %w : !tt.ptr<f16> -> tensor<1024x!tt.ptr<f16>, #blocked>"""


def kernel(step: int = 1024, end: int = 1024, predicate: str = "slt", compared: str = "%idx, %ns",
           between: str = SPLATS_OF_Y_AND_W, store: str = "tt.store %q, %s, %in"):
    """The module and its one `scf.for`: a chunk loop of `step` loading x and w, storing y."""
    text = MODULE.format(blocked=BLOCKED, step=step, end=end, predicate=predicate, compared=compared,
                         between=between, store=store)
    module = parse_module(text, "k.mlir").module
    return module, next(op for op in module.walk() if isinstance(op, scf.ForOp))


def mask(loop: scf.ForOp):
    return next(op for op in loop.body.ops if isinstance(op, arith.CmpIOp)).result


@pytest.mark.parametrize("step, end, predicate, compared, holds", [
    (1024, 1024, "slt", "%idx, %ns", True),  # off + arange(0, BLOCK) < n, BLOCK = step
    (2048, 1024, "slt", "%idx, %ns", True),  # a chunk shorter than the step
    (1024, 1024, "sgt", "%ns, %idx", True),  # n > off + arange
    (1024, 1024, "slt", "%idx, %ms", False),  # bounded by m, not by the loop's upper bound
    (1024, 1024, "sle", "%idx, %ns", False),  # <= n lets one lane past the bound
    (1024, 1024, "sgt", "%idx, %ns", False),  # the lanes past n
])
def test_bounds_the_chunk(step, end, predicate, compared, holds):
    _, loop = kernel(step, end, predicate, compared)
    assert bounds_the_chunk(mask(loop), loop) is holds


def test_a_chunk_longer_than_the_step_is_not_bounded():
    # end = 1024 > step = 512: the last lanes of a run's last chunk lie past the run
    module, loop = kernel(step=512, end=1024)
    assert not bounds_the_chunk(mask(loop), loop)
    runs, copies = unroll(loop, 2)
    assert all(op.mask is not None for copy in copies for op in copy.ops if isinstance(op, (tt.LoadOp, tt.StoreOp)))


def test_unroll_drops_the_chunk_mask_in_runs_only():
    module, loop = kernel()
    runs, copies = unroll(loop, 4)
    assert len(copies) == 4 and runs.step.owner.value.value.data == 4096
    for copy in copies:
        memory = [op for op in copy.ops if isinstance(op, (tt.LoadOp, tt.StoreOp))]
        assert len(memory) == 3 and all(op.mask is None for op in memory)
        assert all(op.other is None for op in memory if isinstance(op, tt.LoadOp))
        selects = [op for op in copy.ops if isinstance(op, arith.SelectOp)]
        assert len(selects) == 1 and selects[0].condition.owner.value.is_splat
        assert selects[0].condition.owner.value.splat_value() == 1
        assert not any(isinstance(op, arith.CmpIOp) for op in copy.ops)
    remainder = [op for op in loop.body.ops if isinstance(op, (tt.LoadOp, tt.StoreOp))]
    assert all(op.mask is mask(loop) for op in remainder)  # the last, partial chunk keeps its mask
    assert loop.lowerBound.owner.parent_block() is loop.parent_block() and loop.lowerBound is not runs.lowerBound


def test_unroll_keeps_a_mask_that_another_bound_joins():
    # the store's mask is (idx < n) and (idx < m): the run drops the first bound, not the second
    module, loop = kernel(store="%inm = arith.cmpi slt, %idx, %ms : tensor<1024xi32, #blocked>\n"
                          "      %both = arith.andi %in, %inm : tensor<1024xi1, #blocked>\n"
                          "      tt.store %q, %s, %both")
    runs, copies = unroll(loop, 2)
    for copy in copies:
        store = next(op for op in copy.ops if isinstance(op, tt.StoreOp))
        both = store.mask.owner
        assert isinstance(both, arith.AndIOp) and isinstance(both.lhs.owner, arith.ConstantOp)
        assert isinstance(both.rhs.owner, arith.CmpIOp)


def prologue_loads(loop: scf.ForOp) -> list[tt.LoadOp]:
    """The loads before `loop` in its block."""
    return [op for op in loop.parent_block().ops if isinstance(op, tt.LoadOp)]


def test_prefetch_issues_its_first_loads_at_the_earliest_point():
    # w's splat comes after the marker op: it moves up with the prologue
    between = """    %ys = tt.splat %y : !tt.ptr<f16> -> tensor<1024x!tt.ptr<f16>, #blocked>
    %marker = tt.get_program_id x : i32
    %ws = tt.splat %w : !tt.ptr<f16> -> tensor<1024x!tt.ptr<f16>, #blocked>"""
    module, loop = kernel(between=between)
    marker = next(op for op in module.walk() if isinstance(op, tt.GetProgramIdOp))
    w_load = [op for op in loop.body.ops if isinstance(op, tt.LoadOp)][1]
    loop = prefetch(loop, [w_load], 2, earliest=marker)
    block = loop.parent_block()
    order = list(block.ops)
    first = prologue_loads(loop)
    assert len(first) == 2 and all(order.index(op) < order.index(marker) for op in first)
    ws = next(op for op in block.ops if isinstance(op, tt.SplatOp) and op.src is block.parent_op().body.block.args[2])
    assert order.index(ws) < order.index(first[0])


def test_prefetch_stays_before_the_loop_when_a_load_reads_what_an_effect_makes():
    # w's pointer comes from a load after the marker: the prologue cannot go above it
    between = """    %ys = tt.splat %y : !tt.ptr<f16> -> tensor<1024x!tt.ptr<f16>, #blocked>
    %marker = tt.get_program_id x : i32
    %pp = tt.splat %w : !tt.ptr<f16> -> tensor<1024x!tt.ptr<f16>, #blocked>
    %wv = tt.load %pp : tensor<1024x!tt.ptr<f16>, #blocked>
    %wi = tt.bitcast %wv : tensor<1024xf16, #blocked> -> tensor<1024xi16, #blocked>
    %wx = arith.extsi %wi : tensor<1024xi16, #blocked> to tensor<1024xi32, #blocked>
    %ws = tt.addptr %pp, %wx : tensor<1024x!tt.ptr<f16>, #blocked>, tensor<1024xi32, #blocked>"""
    module, loop = kernel(between=between)
    marker = next(op for op in module.walk() if isinstance(op, tt.GetProgramIdOp))
    w_load = [op for op in loop.body.ops if isinstance(op, tt.LoadOp)][1]
    loop = prefetch(loop, [w_load], 2, earliest=marker)
    order = list(loop.parent_block().ops)
    first = prologue_loads(loop)[1:]  # the table load %wv comes first
    assert len(first) == 2 and all(order.index(marker) < order.index(op) < order.index(loop) for op in first)


CARRIED = """
#blocked = #ttg.blocked<{{sizePerThread = [1, 8], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [1, 0]}}>
module attributes {{"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32}} {{
  tt.func @k(%x: !tt.ptr<f16>, %n: i32) {{
    %c0 = arith.constant 0 : i32
    %c1024 = arith.constant 1024 : i32
    %init = arith.constant {init} : i64
    %advance = arith.constant {advance} : i64
    %zeros = arith.constant dense<0> : tensor<1x1024xi64, #blocked>
    %n64 = arith.extsi %n : i32 to i64
    %ns = tt.splat %n64 : i64 -> tensor<1x1024xi64, #blocked>
    %xs = tt.splat %x : !tt.ptr<f16> -> tensor<1x1024x!tt.ptr<f16>, #blocked>
    %cols32 = tt.make_range {{end = 1024 : i32, start = 0 : i32}} : tensor<1024xi32, #ttg.slice<{{dim = 0, parent = #blocked}}>>
    %cols = arith.extsi %cols32 : tensor<1024xi32, #ttg.slice<{{dim = 0, parent = #blocked}}>> to tensor<1024xi64, #ttg.slice<{{dim = 0, parent = #blocked}}>>
    %last = scf.for %i = %c0 to %n step %c1024 iter_args(%col = %init) -> (i64) : i32 {{
      %cs = tt.splat %col : i64 -> tensor<1024xi64, #ttg.slice<{{dim = 0, parent = #blocked}}>>
      %c1d = arith.addi %cs, %cols : tensor<1024xi64, #ttg.slice<{{dim = 0, parent = #blocked}}>>
      %c2d = tt.expand_dims %c1d {{axis = 0 : i32}} : tensor<1024xi64, #ttg.slice<{{dim = 0, parent = #blocked}}>> -> tensor<1x1024xi64, #blocked>
      %lo = arith.cmpi sge, %c2d, %zeros : tensor<1x1024xi64, #blocked>
      %hi = arith.cmpi slt, %c2d, %ns : tensor<1x1024xi64, #blocked>
      %in = arith.andi %lo, %hi : tensor<1x1024xi1, #blocked>
      %p = tt.addptr %xs, %c2d : tensor<1x1024x!tt.ptr<f16>, #blocked>, tensor<1x1024xi64, #blocked>
      %v = tt.load %p, %in : tensor<1x1024x!tt.ptr<f16>, #blocked>
      tt.store %p, %v, %in : tensor<1x1024x!tt.ptr<f16>, #blocked>
      %next = arith.addi %col, %advance : i64
      scf.yield %next : i64
    }}
    tt.return
  }}
}}
"""


@pytest.mark.parametrize("init, advance, holds", [
    (0, 1024, True),    # a block pointer's column offset: 0, 1024, ... while iv + 1024 <= n
    (-8, 1024, False),  # below 0 in the first iteration: the lower bound fails
    (8, 1024, False),   # 8 past the chunk the run's bound covers: the last chunk of a run may cross n
    (0, 1032, False),   # outruns the induction variable
])
def test_a_carried_offsets_mask_holds_in_runs_only_where_it_keeps_to_the_loops_bound(init, advance, holds):
    module = parse_module(CARRIED.format(init=init, advance=advance)).module
    loop = next(op for op in module.walk() if isinstance(op, scf.ForOp))
    mask = next(op for op in loop.body.ops if isinstance(op, arith.AndIOp)).result
    assert holds_in_runs(mask, loop, TileAccessAnalysis(ModuleAxisInfo(module), unit_dims=True)) is holds
    runs, copies = unroll(loop, 2, TileAccessAnalysis(ModuleAxisInfo(module), unit_dims=True))
    masked = [op for copy in copies for op in copy.ops if isinstance(op, (tt.LoadOp, tt.StoreOp)) and op.mask]
    assert not masked if holds else len(masked) == 4


@pytest.mark.parametrize("widened", [True, False])
def test_the_queue_carries_a_load_widened_where_its_only_reader_widens_it(widened: bool) -> None:
    # w's load read only through an extf (a norm's bf16 weight), or also as it is
    store = ("tt.store %q, %s, %in" if not widened else
             "%uf = arith.extf %u : tensor<1024xf16, #blocked> to tensor<1024xf32, #blocked>\n"
             "      %sf = arith.truncf %uf : tensor<1024xf32, #blocked> to tensor<1024xf16, #blocked>\n"
             "      tt.store %q, %sf, %in")
    module, loop = kernel(store=store)
    w_load = [op for op in loop.body.ops if isinstance(op, tt.LoadOp)][1]
    if widened:  # the addf reading w as it is goes: its only reader is the extf
        addf = next(op for op in loop.body.ops if isinstance(op, arith.AddFOp))
        addf.detach()
        addf.erase()
    expected = "f32" if widened else "f16"
    assert str(carried_type(w_load).element_type) == expected
    loop = prefetch(loop, [w_load], 2)
    queue = loop.body.args[1:]
    assert len(queue) == 2 and all(str(arg.type.element_type) == expected for arg in queue)
    assert not any(isinstance(op, arith.ExtFOp) and op.operands[0] in queue for op in loop.body.ops)
    assert sum(isinstance(op, arith.ExtFOp) for op in loop.body.ops) == (1 if widened else 0)


def test_a_load_at_an_offset_the_loop_advances_is_issued_at_the_offset_ahead() -> None:
    # a block pointer's offset: 0, 1024, ...: iteration i + 2 reads at offset + 2 * 1024
    module = parse_module(CARRIED.format(init=0, advance=1024)).module
    loop = next(op for op in module.walk() if isinstance(op, scf.ForOp))
    load = next(op for op in loop.body.ops if isinstance(op, tt.LoadOp))
    assert prefetchable(load, loop)
    loop = prefetch(loop, [load], 2)
    ahead = next(op for op in loop.body.ops if isinstance(op, arith.AddIOp) and op.lhs is loop.body.args[1])
    assert isinstance(ahead.rhs.owner, arith.MulIOp)
    factors = {constant_value(ahead.rhs.owner.lhs), constant_value(ahead.rhs.owner.rhs)}
    assert factors == {1024, 2}
    assert len(prologue_loads(loop)) == 2  # iterations 0 and 1, at the initial offset and one advance on


def test_a_load_at_an_offset_the_loop_doubles_is_not_prefetchable() -> None:
    text = CARRIED.format(init=1, advance=1024).replace("%next = arith.addi %col, %advance : i64",
                                                        "%next = arith.muli %col, %advance : i64")
    module = parse_module(text).module
    loop = next(op for op in module.walk() if isinstance(op, scf.ForOp))
    load = next(op for op in loop.body.ops if isinstance(op, tt.LoadOp))
    assert not prefetchable(load, loop)


def constant_value(value) -> int | None:
    owner = value.owner
    return owner.value.value.data if isinstance(owner, arith.ConstantOp) else None


def test_a_load_through_pointers_the_loop_advances_is_not_prefetchable() -> None:
    # `w_ptrs += BLOCK` as users write it: a tensor of pointers carried, not an integer offset
    text = f"""
#blocked = {BLOCKED}
module attributes {{"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32}} {{
  tt.func @k(%w: !tt.ptr<f16>, %n: i32) {{
    %c0 = arith.constant 0 : i32
    %c1024 = arith.constant 1024 : i32
    %chunk = arith.constant dense<1024> : tensor<1024xi32, #blocked>
    %cols = tt.make_range {{end = 1024 : i32, start = 0 : i32}} : tensor<1024xi32, #blocked>
    %ws = tt.splat %w : !tt.ptr<f16> -> tensor<1024x!tt.ptr<f16>, #blocked>
    %first = tt.addptr %ws, %cols : tensor<1024x!tt.ptr<f16>, #blocked>, tensor<1024xi32, #blocked>
    %last = scf.for %i = %c0 to %n step %c1024 iter_args(%p = %first) -> (tensor<1024x!tt.ptr<f16>, #blocked>) : i32 {{
      %v = tt.load %p : tensor<1024x!tt.ptr<f16>, #blocked>
      tt.store %p, %v : tensor<1024x!tt.ptr<f16>, #blocked>
      %next = tt.addptr %p, %chunk : tensor<1024x!tt.ptr<f16>, #blocked>, tensor<1024xi32, #blocked>
      scf.yield %next : tensor<1024x!tt.ptr<f16>, #blocked>
    }}
    tt.return
  }}
}}
"""
    module = parse_module(text).module
    loop = next(op for op in module.walk() if isinstance(op, scf.ForOp))
    load = next(op for op in loop.body.ops if isinstance(op, tt.LoadOp))
    assert not prefetchable(load, loop)


def test_the_remaining_iterations_run_as_nested_guarded_copies_reading_the_queue_in_place() -> None:
    module, loop = kernel()
    w_load = [op for op in loop.body.ops if isinstance(op, tt.LoadOp)][1]
    loop = prefetch(loop, [w_load], 2)
    runs, _ = unroll(loop, 2)
    n = loop.upperBound
    copies = guarded_run(loop, 2)
    assert [op for op in module.walk() if isinstance(op, scf.ForOp)] == [runs]
    outer, inner = (copy.ops[0].parent_op() for copy in copies)
    assert isinstance(outer, scf.IfOp) and isinstance(inner, scf.IfOp) and inner.parent_op() is outer
    assert not outer.results and not inner.results  # nothing of the loop is read after it
    for guard, ahead in ((outer, 0), (inner, 1024)):  # the runs' end, then one step on, below n (in i64)
        compare = guard.condition.owner
        assert isinstance(compare, arith.CmpIOp) and compare.rhs.owner.operands[0] is n
        at = compare.lhs.owner
        first = at if not ahead else at.lhs.owner
        assert isinstance(first, arith.ExtSIOp) and first.operands[0] is runs.upperBound
        assert not ahead or constant_value(at.rhs) == ahead
    for place, copy in enumerate(copies):  # each copy reads its place of the runs' queue: no shift
        addf = next(op for op in copy.ops if isinstance(op, arith.AddFOp))
        assert addf.rhs is runs.res[place]
        memory = [op for op in copy.ops if isinstance(op, (tt.LoadOp, tt.StoreOp))]
        assert len(memory) == 3 and all(op.mask is not None for op in memory)  # the last chunk may be ragged


def test_a_guarded_run_yields_the_loop_results_read_after_it() -> None:
    text = CARRIED.format(init=0, advance=1024).replace("    tt.return", "    %twice = arith.addi %last, %last : i64\n"
                                                        "    tt.return")
    module = parse_module(text).module
    loop = next(op for op in module.walk() if isinstance(op, scf.ForOp))
    runs, _ = unroll(loop, 2)
    copies = guarded_run(loop, 2)
    outer, inner = (copy.ops[0].parent_op() for copy in copies)
    twice = next(op for op in runs.parent_block().ops if isinstance(op, arith.AddIOp) and op.lhs is op.rhs)
    assert len(outer.results) == 1 and twice.lhs is outer.results[0]
    assert outer.elseRegion.block.last_op.operands[0] is runs.res[0]  # no iteration left: the runs' offset
    assert outer.thenRegion.block.last_op.operands[0] is inner.results[0]
    advanced = copies[1].mapping[next(op for op in loop.body.ops if isinstance(op, arith.AddIOp) and
                                      op.lhs is loop.body.args[1]).result]
    assert inner.thenRegion.block.last_op.operands[0] is advanced

