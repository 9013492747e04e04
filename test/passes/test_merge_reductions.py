"""`ttpipe-merge-reductions`: which reductions cross warps (`crosses_warps`: the barrier pair
the merge saves exists only there), and the bench's attention kernel, whose row reductions
stay within warps, left as it was."""

from __future__ import annotations

import pytest

from ttpipe.dialects import tt
from ttpipe.passes.merge_reductions import MergeReductions, crosses_warps
from ttpipe.textio import parse_module, print_module

LAYOUTS = {
    "blocked": "#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [2, 4], order = [1, 0]}>",
    "rows": "#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerCTA = [8, 1], order = [1, 0]}>",
    "mma": "#ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [8, 1], instrShape = [16, 64, 16]}>",
}


def reduction(layout: str, axis: int) -> str:
    return f"""
#l = {LAYOUTS[layout]}
module attributes {{"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32}} {{
  tt.func @k(%a: tensor<128x128xf32, #l>) -> tensor<128xf32, #ttg.slice<{{dim = {axis}, parent = #l}}>> {{
    %r = "tt.reduce"(%a) <{{axis = {axis} : i32}}> ({{
    ^bb0(%x: f32, %y: f32):
      %s = arith.addf %x, %y : f32
      tt.reduce.return %s : f32
    }}) : (tensor<128x128xf32, #l>) -> tensor<128xf32, #ttg.slice<{{dim = {axis}, parent = #l}}>>
    tt.return %r : tensor<128xf32, #ttg.slice<{{dim = {axis}, parent = #l}}>>
  }}
}}
"""


@pytest.mark.parametrize("layout, axis, crosses", [
    ("blocked", 0, True), ("blocked", 1, True),  # warps along both axes
    ("rows", 0, True), ("rows", 1, False),  # each warp holds whole rows
    ("mma", 0, True), ("mma", 1, False),  # wgmma's warps split the rows only
])
def test_crosses_warps(layout: str, axis: int, crosses: bool) -> None:
    module = parse_module(reduction(layout, axis)).module
    reduce = next(op for op in module.walk() if isinstance(op, tt.ReduceOp))
    assert crosses_warps(reduce) is crosses


def test_attention_rows_left_alone() -> None:
    """Two independent row reductions of a wgmma accumulator (an attention step's maximum and
    a second, unrelated sum): within warps, so not merged."""
    text = f"""
#mma = {LAYOUTS["mma"]}
module attributes {{"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32}} {{
  tt.func @k(%s: tensor<128x128xf32, #mma>, %t: tensor<128x128xf32, #mma>) -> (tensor<128xf32, #ttg.slice<{{dim = 1, parent = #mma}}>>, tensor<128xf32, #ttg.slice<{{dim = 1, parent = #mma}}>>) {{
    %m = "tt.reduce"(%s) <{{axis = 1 : i32}}> ({{
    ^bb0(%x: f32, %y: f32):
      %r = arith.maxnumf %x, %y : f32
      tt.reduce.return %r : f32
    }}) : (tensor<128x128xf32, #mma>) -> tensor<128xf32, #ttg.slice<{{dim = 1, parent = #mma}}>>
    %l = "tt.reduce"(%t) <{{axis = 1 : i32}}> ({{
    ^bb0(%x: f32, %y: f32):
      %r = arith.addf %x, %y : f32
      tt.reduce.return %r : f32
    }}) : (tensor<128x128xf32, #mma>) -> tensor<128xf32, #ttg.slice<{{dim = 1, parent = #mma}}>>
    tt.return %m, %l : tensor<128xf32, #ttg.slice<{{dim = 1, parent = #mma}}>>, tensor<128xf32, #ttg.slice<{{dim = 1, parent = #mma}}>>
  }}
}}
"""
    module = parse_module(text).module
    before = print_module(module)
    MergeReductions().apply(None, module)
    assert print_module(module) == before
    swapped = parse_module(text.replace("axis = 1 : i32", "axis = 0 : i32").replace("dim = 1,", "dim = 0,")).module
    MergeReductions().apply(None, swapped)
    assert sum(isinstance(op, tt.ReduceOp) for op in swapped.walk()) == 1
