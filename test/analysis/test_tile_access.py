"""The polynomial algebra and the tile-access analysis behind pointer loads as TMA loads:
what each reads off small kernels, and the facts (signs, divisibility) it relies on."""

from __future__ import annotations

import pytest

from ttpipe.dialects import arith, tt
from ttpipe.passes.analysis.axis_info import ModuleAxisInfo
from ttpipe.passes.analysis.polynomial import Iteration, Poly, TileCoord
from ttpipe.passes.analysis.tile_access import NotATile, TileAccessAnalysis, bounded_by_loop
from ttpipe.textio import parse_module

BLOCKED = "#ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>"


def x() -> Poly:
    return Poly.atom(TileCoord(0))


def y() -> Poly:
    return Poly.atom(TileCoord(1))


def test_arithmetic_cancels_and_collects():
    p = (x() + Poly.constant(3)) * (y() - Poly.constant(1))
    assert p - x() * y() + x() == Poly.constant(3) * y() - Poly.constant(3)
    assert (x() - x()).is_zero
    assert (p * Poly.constant(0)).is_zero
    assert Poly.constant(7).constant_value() == 7 and x().constant_value() is None


def test_substitute_divide_and_rename():
    p = Poly.constant(6) * x() * y() + Poly.constant(4) * x()
    assert p.substitute(TileCoord(0), Poly.constant(2)) == Poly.constant(12) * y() + Poly.constant(8)
    assert p.divided(Poly.constant(2) * x()) == Poly.constant(3) * y() + Poly.constant(2)
    assert p.divided(Poly.constant(4) * x()) is None  # 6 is no multiple of 4
    assert p.divided(y()) is None  # 4x has no y
    assert p.map_atoms(lambda a: None if a == TileCoord(1) else TileCoord(5)) == Poly.constant(4) * Poly.atom(
        TileCoord(5))
    assert p.degree_in(lambda a: isinstance(a, TileCoord)) == 2


def test_divisibility():
    assert (Poly.constant(64) * x() + Poly.constant(128) * y()).divisibility(lambda a: 2) == 128
    assert Poly().divisibility(lambda a: 1) == 0


def test_iteration_atoms_are_one_per_loop():
    loop = object()
    assert Poly.atom(Iteration(loop)) - Poly.atom(Iteration(loop)) == Poly()
    assert Poly.atom(Iteration(loop)) != Poly.atom(Iteration(object()))


def kernel(body: str, args: str = "", upper: str = "%kk") -> tuple[object, list[tt.LoadOp], TileAccessAnalysis]:
    """A 64x64 fp16 tile loop (to `upper`) around `body` (which loads `%v`), its loads and an
    analysis."""
    text = f"""
#blocked = {BLOCKED}
module attributes {{"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32}} {{
  tt.func @k(%a: !tt.ptr<f16> {{tt.divisibility = 16 : i32}}, %m: i32, %kk: i32, %s: i32 {{tt.divisibility = 16 : i32}}{args}) {{
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c10 = arith.constant 10 : i32
    %c64 = arith.constant 64 : i32
    %pid = tt.get_program_id x : i32
    %rows = tt.make_range {{end = 64 : i32, start = 0 : i32}} : tensor<64xi32, #ttg.slice<{{dim = 1, parent = #blocked}}>>
    %cols = tt.make_range {{end = 64 : i32, start = 0 : i32}} : tensor<64xi32, #ttg.slice<{{dim = 0, parent = #blocked}}>>
    scf.for %k = %c0 to {upper} step %c1 : i32 {{
{body}
    }}
    tt.return
  }}
}}"""
    module = parse_module(text, "k.mlir").module
    loads = [op for op in module.walk() if isinstance(op, tt.LoadOp)]
    return module, loads, TileAccessAnalysis(ModuleAxisInfo(module))


ROW_TILE = """
      %row0 = arith.muli %pid, %c64 : i32
      %r0 = tt.splat %row0 : i32 -> tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
      %r = arith.addi %r0, %rows : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
      %re = tt.expand_dims %r {axis = 1 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<64x1xi32, #blocked>
      %ss = tt.splat %s : i32 -> tensor<64x1xi32, #blocked>
      %ro = arith.muli %re, %ss : tensor<64x1xi32, #blocked>
      %rb = tt.broadcast %ro : tensor<64x1xi32, #blocked> -> tensor<64x64xi32, #blocked>
      %k0 = arith.muli %k, %c64 : i32
      %c0s = tt.splat %k0 : i32 -> tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
      %c = arith.addi %c0s, %cols : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
      %ce = tt.expand_dims %c {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x64xi32, #blocked>
      %cb = tt.broadcast %ce : tensor<1x64xi32, #blocked> -> tensor<64x64xi32, #blocked>
      %off = arith.addi %rb, %cb : tensor<64x64xi32, #blocked>
      %base = tt.splat %a : !tt.ptr<f16> -> tensor<64x64x!tt.ptr<f16>, #blocked>
      %p = tt.addptr %base, %off : tensor<64x64x!tt.ptr<f16>, #blocked>, tensor<64x64xi32, #blocked>
"""


def test_box_of_a_masked_tile():
    masks = """
      %ms = tt.splat %m : i32 -> tensor<64x1xi32, #blocked>
      %in_m = arith.cmpi slt, %re, %ms : tensor<64x1xi32, #blocked>
      %kks = tt.splat %kk : i32 -> tensor<1x64xi32, #blocked>
      %in_k = arith.cmpi sgt, %kks, %ce : tensor<1x64xi32, #blocked>
      %bm = tt.broadcast %in_m : tensor<64x1xi1, #blocked> -> tensor<64x64xi1, #blocked>
      %bk = tt.broadcast %in_k : tensor<1x64xi1, #blocked> -> tensor<64x64xi1, #blocked>
      %mask = arith.andi %bm, %bk : tensor<64x64xi1, #blocked>
      %v = tt.load %p, %mask : tensor<64x64x!tt.ptr<f16>, #blocked>
"""
    module, (load, ), analysis = kernel(ROW_TILE + masks)
    access = analysis.load(load)
    func = next(op for op in module.walk() if isinstance(op, tt.FuncOp))
    a, m, kk, s = func.body.block.args[:4]
    loop = load.parent_op()
    assert access.base is a and access.base_offset.is_zero and not access.guards and not access.transposed
    rows, cols = access.dims
    assert rows.stride == Poly.atom(s) and rows.extent == Poly.atom(m)
    pid = next(op for op in module.walk() if isinstance(op, tt.GetProgramIdOp)).result
    assert rows.start == Poly.constant(64) * Poly.atom(pid)
    assert cols.stride == Poly.constant(1) and cols.extent == Poly.atom(kk)
    assert cols.start == Poly.constant(64) * Poly.atom(Iteration(loop))


def test_unmasked_rows_move_the_base_and_a_guard_is_reported():
    guarded = ROW_TILE.replace("%re = tt.expand_dims %r ", "%ms1 = tt.splat %m : i32 -> tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>>\n"
                               "      %rw = arith.remsi %r, %ms1 : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>>\n"
                               "      %re = tt.expand_dims %rw ")
    module, (load, ), analysis = kernel(guarded + "      %v = tt.load %p : tensor<64x64x!tt.ptr<f16>, #blocked>\n")
    access = analysis.load(load)
    (guard, ) = access.guards
    assert guard.dim == 0 and guard.start == access.dims[0].start
    assert access.dims[1].extent is None  # nothing bounds K: the descriptor's widest extent


def test_an_unmasked_box_is_bounded_by_what_a_loop_of_known_trips_reaches():
    unmasked = ROW_TILE + "      %v = tt.load %p : tensor<64x64x!tt.ptr<f16>, #blocked>\n"
    module, (load, ), analysis = kernel(unmasked, upper="%c10")
    rows, cols = bounded_by_loop(analysis.load(load), load.parent_op()).dims
    assert cols.extent == Poly.constant(64 * 9 + 64)  # the tenth iteration's columns end the hull
    assert rows.start.is_zero and rows.extent == Poly.constant(64)  # the program's rows, moved into the base
    module, (load, ), analysis = kernel(unmasked)
    assert all(dim.extent is None for dim in bounded_by_loop(analysis.load(load), load.parent_op()).dims)


@pytest.mark.parametrize("change, reason", [
    ("%v = tt.load %p, %mask, %other", "other"),
    ("%v = tt.load %p {isVolatile = true}", "volatile"),
])
def test_loads_tma_cannot_perform(change, reason):
    masks = """
      %mask = arith.constant dense<true> : tensor<64x64xi1, #blocked>
      %other = arith.constant dense<1.000000e+00> : tensor<64x64xf16, #blocked>
"""
    load_line = f"      {change} : tensor<64x64x!tt.ptr<f16>, #blocked>\n"
    module, (load, ), analysis = kernel(ROW_TILE + masks + load_line)
    with pytest.raises(NotATile, match=reason):
        analysis.load(load)


def test_a_base_pointer_made_in_the_loop_is_no_descriptor_base():
    """The descriptor is made before the loop nest: a base pointer the loop itself picks
    (here through `arith.select`, which the address arithmetic does not look through)
    cannot be its base."""
    pick = ROW_TILE.replace("%base = tt.splat %a :", "%odd = arith.cmpi slt, %k, %c1 : i32\n"
                            "      %which = arith.select %odd, %a, %a : !tt.ptr<f16>\n"
                            "      %base = tt.splat %which :")
    module, (load, ), analysis = kernel(pick + "      %v = tt.load %p : tensor<64x64x!tt.ptr<f16>, #blocked>\n")
    with pytest.raises(NotATile, match="base pointer computed inside the loop nest"):
        analysis.load(load)


def test_signs_the_analysis_proves():
    module = parse_module("""
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @signs(%n: i32) {
    %c8 = arith.constant 8 : i32
    %pid = tt.get_program_id x : i32
    %q = arith.divsi %pid, %c8 : i32
    %r = arith.remsi %pid, %n : i32
    %d = arith.divsi %pid, %n : i32
    %diff = arith.subi %n, %q : i32
    %low = arith.minsi %diff, %c8 : i32
    tt.return
  }
}""", "signs.mlir").module
    analysis = TileAccessAnalysis(ModuleAxisInfo(module))
    values = [op.results[0] for op in module.walk() if isinstance(op, (arith.DivSIOp, arith.RemSIOp, arith.SubIOp,
                                                                        arith.MinSIOp))]
    # q = pid / 8 and r = pid % n (C's remainder takes the dividend's sign): proven; a
    # quotient by an argument, a difference and a minimum of it: not.
    assert [analysis.nonnegative(v) for v in values] == [True, True, False, False, False]


def test_an_unaligned_row_start_is_a_box_only_where_the_caller_checks_it():
    """A row at `a + pid * n` (n not known a multiple of 8 elements) cannot be a descriptor's
    base; a caller with one descriptor over every row (`ttpipe-row-ring`), which checks the
    alignment at run time, asks for the box with `aligned_bases=False`."""
    text = """
#blocked = #ttg.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @k(%a: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %n: i32) {
    %pid = tt.get_program_id x : i32
    %off = arith.muli %pid, %n : i32
    %row = tt.addptr %a, %off : !tt.ptr<f16>, i32
    %cols = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32, #blocked>
    %rows = tt.splat %row : !tt.ptr<f16> -> tensor<256x!tt.ptr<f16>, #blocked>
    %p = tt.addptr %rows, %cols : tensor<256x!tt.ptr<f16>, #blocked>, tensor<256xi32, #blocked>
    %v = tt.load %p : tensor<256x!tt.ptr<f16>, #blocked>
    tt.return
  }
}"""
    module = parse_module(text, "k.mlir").module
    (load, ) = [op for op in module.walk() if isinstance(op, tt.LoadOp)]
    with pytest.raises(NotATile, match="known aligned to 2 bytes"):
        TileAccessAnalysis(ModuleAxisInfo(module)).load(load)
    access = TileAccessAnalysis(ModuleAxisInfo(module), aligned_bases=False).load(load)
    func = next(op for op in module.walk() if isinstance(op, tt.FuncOp))
    pid = next(op for op in module.walk() if isinstance(op, tt.GetProgramIdOp)).result
    assert access.base is func.body.block.args[0]
    assert access.base_offset == Poly.atom(pid) * Poly.atom(func.body.block.args[1])



def test_a_tile_of_one_row_is_a_box_without_its_unit_dimension_where_asked():
    """A block pointer's `(1, 256)` tile: refused by default; with `unit_dims`, the box is the
    256 columns (the tile's dimension 1), the row in the base offset, and the box's type is
    the tile's without dimension 0, its layout sliced."""
    text = """
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [1, 32], warpsPerCTA = [1, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @k(%a: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %n: i32 {tt.divisibility = 16 : i32}) {
    %pid = tt.get_program_id x : i32
    %off = arith.muli %pid, %n : i32
    %offs = tt.splat %off : i32 -> tensor<1x256xi32, #blocked>
    %cols = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %c2d = tt.expand_dims %cols {axis = 0 : i32} : tensor<256xi32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x256xi32, #blocked>
    %idx = arith.addi %offs, %c2d : tensor<1x256xi32, #blocked>
    %base = tt.splat %a : !tt.ptr<f16> -> tensor<1x256x!tt.ptr<f16>, #blocked>
    %p = tt.addptr %base, %idx : tensor<1x256x!tt.ptr<f16>, #blocked>, tensor<1x256xi32, #blocked>
    %ns = tt.splat %n : i32 -> tensor<1x256xi32, #blocked>
    %in = arith.cmpi slt, %c2d, %ns : tensor<1x256xi32, #blocked>
    %v = tt.load %p, %in : tensor<1x256x!tt.ptr<f16>, #blocked>
    tt.return
  }
}"""
    module = parse_module(text, "k.mlir").module
    (load, ) = [op for op in module.walk() if isinstance(op, tt.LoadOp)]
    with pytest.raises(NotATile, match="a tile dimension of size 1"):
        TileAccessAnalysis(ModuleAxisInfo(module)).load(load)
    access = TileAccessAnalysis(ModuleAxisInfo(module), unit_dims=True).load(load)
    func = next(op for op in module.walk() if isinstance(op, tt.FuncOp))
    pid = next(op for op in module.walk() if isinstance(op, tt.GetProgramIdOp)).result
    assert access.unit_dims == (0, ) and [(d.tile_dim, d.size) for d in access.dims] == [(1, 256)]
    assert access.dims[0].extent == Poly.atom(func.body.block.args[1]) and not access.transposed
    assert access.base_offset == Poly.atom(pid) * Poly.atom(func.body.block.args[1])
    assert access.box_type.get_shape() == (256, ) and access.box_type.encoding.dim == 0
