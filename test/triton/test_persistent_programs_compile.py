"""GEMMs of a program a tile made persistent by ttpipe-warp-specialize, compiled for sm_90a
through the plug-in (no GPU needed): over the SMs of the plug-in's device (an H100's where
none answers), on a 3-D grid, and kept at one tile a program, with a remark, where programs
update memory atomically."""

import re

import triton
import triton.language as tl
from plugin_compile import compile_sm90a

import ttpipe.triton.plugin


@triton.jit
def batched_tiles(a, b, c, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, COUNTED: tl.constexpr):
    """C[z] = A[z] @ B[z] on a 3-D grid: x the column of tiles, y the row, z the batch; with
    `COUNTED`, each program adds one to a counter once its tile is stored."""
    pn = tl.program_id(0)
    pm = tl.program_id(1)
    z = tl.program_id(2).to(tl.int64)
    rm = pm * BM + tl.arange(0, BM)
    rn = pn * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), tl.float32)
    for k in range(0, K, BK):
        x = tl.load(a + z * M * K + rm[:, None] * K + (k + rk)[None, :], mask=(k + rk)[None, :] < K, other=0.0)
        y = tl.load(b + z * K * N + (k + rk)[:, None] * N + rn[None, :], mask=(k + rk)[:, None] < K, other=0.0)
        acc = tl.dot(x, y, acc)
    tl.store(c + z * M * N + rm[:, None] * N + rn[None, :], acc.to(tl.float16), mask=(rm[:, None] < M) & (rn[None, :] < N))
    if COUNTED:
        tl.atomic_add(c + z * M * N, 0.0)


SIGNATURE = {"a": "*fp16", "b": "*fp16", "c": "*fp16", "M": "i32", "N": "i32", "K": "i32"}
OPTIONS = {"num_warps": 8, "num_stages": 3}


def compiled(counted: bool = False):
    return compile_sm90a(batched_tiles, SIGNATURE, {"BM": 128, "BN": 128, "BK": 64, "COUNTED": counted}, OPTIONS)


def walks_tiles_by(ttgir: str, programs: int) -> bool:
    """Whether the consumers walk the tiles of the grid `programs` apart: a loop stepping by
    that constant (the K loop steps by BK = 64)."""
    return re.search(rf"scf\.for %\S+ = %\S+ to %\S+ step %c{programs}_i32 ", ttgir) is not None


def test_programs_walk_a_3d_grid_over_the_device_sms(monkeypatch):
    monkeypatch.setattr(ttpipe.triton.plugin, "device_sms", lambda: 3)
    kernel = compiled()
    ttgir = kernel.asm["ttgir"]
    assert "-sms3:" in kernel.metadata.instrumentation_mode
    assert "ttg.warp_specialize" in ttgir and "tt.get_num_programs z" in ttgir
    assert walks_tiles_by(ttgir, 3)
    # the batch, row and column of tile t: t / (X Y), (t / X) mod Y, t mod X
    assert len(re.findall(r"arith\.remsi %arg\d+, %", ttgir)) >= 2


def test_without_a_device_the_programs_are_an_h100s():
    ttgir = compiled().asm["ttgir"]
    assert walks_tiles_by(ttgir, 132)


def test_programs_that_update_memory_atomically_keep_a_tile_each(triton_cache, monkeypatch, capfd):
    monkeypatch.setenv("MLIR_ENABLE_DIAGNOSTICS", "remarks")
    ttgir = compiled(counted=True).asm["ttgir"]
    assert not walks_tiles_by(ttgir, 132)
    assert "remark: tiles kept one a program: 'tt.atomic_rmw'" in capfd.readouterr().err
