"""`row_cache.find` on chains of loops over one row: the loads each later loop reads again, the
stores that write a cached row in place (in the last loop; before it, the ring forwards what
they store to the later loops, which would otherwise read the shared copy where the kernel
reads the new values), and the chains that do not hold."""

from __future__ import annotations

import pytest

from ttpipe.dialects import scf, tt
from ttpipe.passes.analysis.axis_info import ModuleAxisInfo
from ttpipe.passes.analysis.tile_access import TileAccessAnalysis
from ttpipe.passes.pipeline.row_cache import CachedRow, find
from ttpipe.passes.warp_specialize.row_ring import row_program
from ttpipe.textio import parse_module

HEADER = """
#blocked = #ttg.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [8], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @k(%x: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %y: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %stride: i32 {tt.divisibility = 16 : i32}, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c2048 = arith.constant 2048 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<2048xf16, #blocked>
    %row = tt.get_program_id x : i32
    %row_off = arith.muli %row, %stride : i32
    %x_row = tt.addptr %x, %row_off : !tt.ptr<f16>, i32
    %y_row = tt.addptr %y, %row_off : !tt.ptr<f16>, i32
    %cols = tt.make_range {end = 2048 : i32, start = 0 : i32} : tensor<2048xi32, #blocked>
    %ns = tt.splat %n : i32 -> tensor<2048xi32, #blocked>
    %xs = tt.splat %x_row : !tt.ptr<f16> -> tensor<2048x!tt.ptr<f16>, #blocked>
    %ys = tt.splat %y_row : !tt.ptr<f16> -> tensor<2048x!tt.ptr<f16>, #blocked>
"""
FOOTER = """    tt.return
  }
}
"""


def loop(reads: str = "%xs", store: str | None = None) -> str:
    """A chunk loop loading `reads`' row (or nothing) and storing the chunk to `store`'s row."""
    load = f"""      %p = tt.addptr {reads}, %idx : tensor<2048x!tt.ptr<f16>, #blocked>, tensor<2048xi32, #blocked>
      %v = tt.load %p, %in, %zero : tensor<2048x!tt.ptr<f16>, #blocked>
""" if reads else "      %v = arith.addf %zero, %zero : tensor<2048xf16, #blocked>\n"
    stored = f"""      %q = tt.addptr {store}, %idx : tensor<2048x!tt.ptr<f16>, #blocked>, tensor<2048xi32, #blocked>
      tt.store %q, %v, %in : tensor<2048x!tt.ptr<f16>, #blocked>
""" if store else ""
    return f"""    scf.for %off = %c0 to %n step %c2048 : i32 {{
      %offs = tt.splat %off : i32 -> tensor<2048xi32, #blocked>
      %idx = arith.addi %offs, %cols : tensor<2048xi32, #blocked>
      %in = arith.cmpi slt, %idx, %ns : tensor<2048xi32, #blocked>
{load}{stored}    }}
"""


def analysed(*loops: str):
    module = parse_module(HEADER + "".join(loops) + FOOTER).module
    func = next(op for op in module.walk() if isinstance(op, tt.FuncOp))
    return func, [op for op in func.walk() if isinstance(op, scf.ForOp)], TileAccessAnalysis(ModuleAxisInfo(module),
                                                                                           aligned_bases=False)


def test_each_later_loop_reads_the_first_loops_tiles():
    func, loops, analysis = analysed(loop(), loop(), loop(store="%ys"))
    row = find(loops, analysis)
    assert isinstance(row, CachedRow) and row.loops == loops and len(row.loads) == 1
    assert [len(readers) for readers in row.loads[0].readers] == [1, 1]
    assert [access.op.parent_op() for index in range(3) for access, _ in row.reads(index)] == loops


@pytest.mark.parametrize("writer, forwarded", [(0, 0), (1, 0), (2, None)])
def test_a_store_over_the_row_is_in_place_in_the_last_loop_and_forwarded_before(writer, forwarded):
    stores = [None, None, None]
    stores[writer] = "%xs"
    func, loops, analysis = analysed(*(loop(store=store) for store in stores))
    program = row_program(func, analysis)
    assert [(store.in_place, store.forwarded) for store in program.stores] == [((0, ), forwarded)]
    assert find(loops, analysis).loads == program.row.loads


@pytest.mark.parametrize("writer, in_place", [(0, ()), (1, (0, ))])
def test_a_store_through_another_pointer_is_in_place_only_in_the_last_loop(writer, in_place):
    """Its row is the cached one only where the pointers meet at run time: the last loop's
    store may be in place (the run-time condition compares the rows' addresses), an earlier
    one is never forwarded (the later loops would read what it stored where they do not meet)."""
    stores = [None, None]
    stores[writer] = "%ys"
    func, loops, analysis = analysed(*(loop(store=store) for store in stores))
    assert [(store.in_place, store.forwarded) for store in row_program(func, analysis).stores] == [(in_place, None)]


def test_a_load_read_ahead_is_rewritten_by_a_later_loops_store_of_its_box():
    """x cached (the second loop reads it), y only read by the first loop (loaded ahead into
    registers): the second loop's store over y's row is in place for y (and for x, where the
    pointers meet at run time)."""
    first = loop().replace("      %v = tt.load", """      %py = tt.addptr %ys, %idx : tensor<2048x!tt.ptr<f16>, #blocked>, tensor<2048xi32, #blocked>
      %vy = tt.load %py, %in, %zero : tensor<2048x!tt.ptr<f16>, #blocked>
      %v = tt.load""")
    func, loops, analysis = analysed(first, loop(store="%ys"))
    program = row_program(func, analysis)
    assert [(load.op.parent_op(), load.rewritten_by) for load in program.prefetched] == [(loops[0], (0, ))]


def test_a_loop_that_reads_none_of_the_row_breaks_the_chain():
    func, loops, analysis = analysed(loop(), loop(reads="%ys"), loop(store="%ys"))
    assert find(loops, analysis) == "loop 2 of 3 reads none of the first's tiles"
    assert row_program(func, analysis) is None
