"""Kernels in shapes the bench does not write, compiled for sm_90a through the plug-in's default
pipeline (no GPU needed): each compiled as stock Triton compiles it, where ttpipe once stopped
with a traceback, a Triton parse error or a ptxas error, or where its async check found a race.

- An early `return` (programs past the last tile): the function's body branches between
  blocks, which `ttpipe-tile-order` and `ttpipe-row-ring` leave alone.
- Row loops at 1 and 2 warps, and over a length typed i64: `ttpipe-row-ring` warp-specializes
  whole warpgroups only, and counts chunks in i32. At 16 and 32 warps: its CTA, the kernel's
  warps for each consumer and the producer's warpgroup, stays within 1024 threads (Triton and
  ptxas compile 1152 and 2176 threads, which do not launch).
- Rows from an offset (`row = program_id + first_row`): `ttpipe-row-ring` builds the
  offset's value after moving the body into its version. Rows in chunks of 256 bytes: the
  ring would unroll each loop 64 times (a compile of minutes), and leaves them.
- Loads and stores with a cache modifier: `ttpipe-l2-eviction` adds no eviction priority
  beside one (ptxas rejects `.evict_first` with `.cg`).
- A GEMM whose A tile is also read in registers (an RMS norm's sum of squares): its ring gets
  the slot the wgmma in flight still reads (Triton 3.6's pipeliner leaves it one short)."""

import re

import pytest
import triton
import triton.language as tl
from plugin_compile import compile_sm90a


@triton.jit
def gemm_with_early_exit(a, b, c, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    pid = tl.program_id(0)
    tiles_n = tl.cdiv(N, BN)
    if pid >= tl.cdiv(M, BM) * tiles_n:
        return
    rm = (pid // tiles_n) * BM + tl.arange(0, BM)
    rn = (pid % tiles_n) * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), tl.float32)
    for k in range(0, K, BK):
        x = tl.load(a + rm[:, None] * K + (k + rk)[None, :], mask=rm[:, None] < M, other=0.0)
        y = tl.load(b + (k + rk)[:, None] * N + rn[None, :], mask=rn[None, :] < N, other=0.0)
        acc = tl.dot(x, y, acc)
    tl.store(c + rm[:, None] * N + rn[None, :], acc.to(tl.float16), mask=(rm[:, None] < M) & (rn[None, :] < N))


@triton.jit
def scaled_rows(x, y, first_row, rows, N, BLOCK: tl.constexpr, EARLY_EXIT: tl.constexpr, CACHE_HINTS: tl.constexpr,
                EXP: tl.constexpr = False):
    """y = x * sum(x) (or exp(x) * sum(x)) row by row from `first_row`, in two loops over the row."""
    row = tl.program_id(0) + first_row
    if EARLY_EXIT:
        if row >= rows:
            return
    acc = tl.zeros([BLOCK], tl.float32)
    for off in range(0, N, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        acc += tl.load(x + row * N + cols, mask=cols < N, other=0.0).to(tl.float32)
    total = tl.sum(acc, 0)
    for off in range(0, N, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        if CACHE_HINTS:
            v = tl.load(x + row * N + cols, mask=cols < N, other=0.0, cache_modifier=".cg").to(tl.float32)
            tl.store(y + row * N + cols, (v * total).to(tl.bfloat16), mask=cols < N, cache_modifier=".cs")
        else:
            v = tl.load(x + row * N + cols, mask=cols < N, other=0.0).to(tl.float32)
            if EXP:
                v = tl.exp(v)
            tl.store(y + row * N + cols, (v * total).to(tl.bfloat16), mask=cols < N)


@triton.jit
def rms_norm_gemm(x, w, y, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    """y = rms_norm(x) @ w, the norm's sum of squares taken from the A tiles the dot reads."""
    pid = tl.program_id(0)
    tiles_n = tl.cdiv(N, BN)
    rm = (pid // tiles_n) * BM + tl.arange(0, BM)
    rn = (pid % tiles_n) * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), tl.float32)
    squares = tl.zeros((BM, ), tl.float32)
    for k in range(0, K, BK):
        a = tl.load(x + rm[:, None] * K + (k + rk)[None, :], mask=rm[:, None] < M, other=0.0)
        b = tl.load(w + (k + rk)[:, None] * N + rn[None, :], mask=rn[None, :] < N, other=0.0)
        squares += tl.sum(a.to(tl.float32) * a.to(tl.float32), axis=1)
        acc = tl.dot(a, b, acc)
    acc = acc / tl.sqrt(squares / K + 1e-6)[:, None]
    tl.store(y + rm[:, None] * N + rn[None, :], acc.to(tl.bfloat16), mask=(rm[:, None] < M) & (rn[None, :] < N))


GEMM = {"a": "*fp16", "b": "*fp16", "c": "*fp16", "M": "i32", "N": "i32", "K": "i32",
        "BM": "constexpr", "BN": "constexpr", "BK": "constexpr"}
ROWS = {"x": "*bf16", "y": "*bf16", "first_row": "i32", "rows": "i32", "N": "i32", "BLOCK": "constexpr", "EARLY_EXIT": "constexpr",
        "CACHE_HINTS": "constexpr", "EXP": "constexpr"}
NORM_GEMM = {"x": "*bf16", "w": "*bf16", "y": "*bf16", "M": "i32", "N": "i32", "K": "i32",
             "BM": "constexpr", "BN": "constexpr", "BK": "constexpr"}


@pytest.mark.parametrize("num_warps", [4, 8])
def test_a_gemm_returning_early_compiles(triton_cache, num_warps):
    compiled = compile_sm90a(gemm_with_early_exit, GEMM, {"BM": 128, "BN": 128, "BK": 64}, {"num_warps": num_warps})
    assert "warp_group_dot" in compiled.asm["ttgir"]


@pytest.mark.parametrize("num_warps,early_exit,cache_hints", [(1, False, False), (2, False, False), (4, True, False),
                                                              (8, False, True)])
def test_row_loops_compile(triton_cache, num_warps, early_exit, cache_hints):
    compiled = compile_sm90a(scaled_rows, ROWS, {"BLOCK": 1024, "EARLY_EXIT": early_exit, "CACHE_HINTS": cache_hints},
                             {"num_warps": num_warps})
    if cache_hints:  # the user's cache operators stand, with no eviction priority beside them
        assert "ld.global.cg" in compiled.asm["ptx"] and "evict_first" not in compiled.asm["ptx"]


@pytest.mark.parametrize("num_warps,threads", [(16, 640), (32, None)])
def test_the_row_ring_keeps_within_1024_threads(triton_cache, num_warps, threads):
    # an exponent in a loop: the cost model asks for two consumers, which do not fit at 16 warps
    compiled = compile_sm90a(scaled_rows, ROWS, {"BLOCK": 4096, "EARLY_EXIT": False, "CACHE_HINTS": False,
                                                        "EXP": True}, {"num_warps": num_warps})
    ring = "ttg.warp_specialize" in compiled.asm["ttgir"]
    assert ring == (threads is not None)
    if ring:  # one consumer of 16 warps and the producer's warpgroup
        assert re.search(r"\.reqntid (\d+)", compiled.asm["ptx"]).group(1) == str(threads)


def test_row_loops_over_an_i64_length_compile(triton_cache):
    compile_sm90a(scaled_rows, {**ROWS, "N": "i64"}, {"BLOCK": 1024, "EARLY_EXIT": False, "CACHE_HINTS": False},
                  {"num_warps": 8})


@pytest.mark.parametrize("block,ring", [(2048, True), (128, False)])
def test_rows_from_an_offset_take_the_ring_in_chunks_of_1_kb_or_more(triton_cache, block, ring):
    compiled = compile_sm90a(scaled_rows, ROWS, {"BLOCK": block, "EARLY_EXIT": False, "CACHE_HINTS": False},
                             {"num_warps": 8})
    assert ("ttg.warp_specialize" in compiled.asm["ttgir"]) == ring


def test_a_ring_read_by_a_wgmma_in_flight_and_in_registers_has_a_slot_for_each(triton_cache):
    constexprs = {"BM": 128, "BN": 128, "BK": 64}
    ttgir = compile_sm90a(rms_norm_gemm, NORM_GEMM, constexprs, {"num_warps": 8}).asm["ttgir"]
    as_triton = compile_sm90a(rms_norm_gemm, NORM_GEMM, constexprs, {"num_warps": 8},
                              "ttgir-sm90{impl=triton verify-async=false}").asm["ttgir"]

    def a_ring(text: str) -> str:
        return re.search(r"ttg\.local_alloc : \(\) -> !ttg\.memdesc<(\d+)x128x64xbf16", text).group(1)

    # loads two iterations ahead and one wgmma in flight: three slots, where Triton's has two
    assert a_ring(ttgir) == "3" and a_ring(as_triton) == "2"
    assert "pendings = 1" in ttgir
