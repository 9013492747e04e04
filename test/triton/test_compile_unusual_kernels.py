"""Kernels in shapes the bench does not write, compiled for sm_90a (and sm_100a, where said)
through the plug-in's default pipeline (no GPU needed): each compiled as stock Triton compiles
it, where ttpipe once stopped with a traceback, a Triton parse error or a ptxas error, or where
its async check found a race.

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
  the slot the wgmma in flight still reads (Triton 3.6's pipeliner leaves it one short).
- A batched GEMM on a 3-D grid whose C descriptor is made in the kernel from the batch's base,
  after the K loop, at 8 warps: the cooperative epilogue's TMA store goes through the
  descriptor rebuilt in warpgroup 0's region (it pointed at the erased original).
- A persistent GEMM at 8 warps with tensor code after its tile loop: cooperative warpgroups
  would leave that code laid out for 8 warps in a module of one warpgroup's; the loop keeps
  Triton's pipelining, with a remark.
- On sm_100a, a GEMM whose B rows lie at a stride not known to be a multiple of 16: B's load
  is not pipelined, and the expander predicates the immutable `ttg.local_alloc` of its tile
  as Triton does (not at all: Triton gives it no memory effects).
- On sm_100a, a GEMM whose K loop is unrolled by two (`loop_unroll_factor=2`): two chained
  MMAs, the second's accumulator read by the next iteration a stage before that MMA.
  Triton's TTGIR reads it with no wait after the MMA (`ttpipe-verify-async` stops it);
  ttpipe's waits before the read."""

import re

import pytest
import triton
import triton.language as tl
from pipeline_parity import ADDITIONS_OFF
from plugin_compile import compile_sm90a, compile_sm100a

from ttpipe.ir.diagnostics import DiagnosticError


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


@triton.jit
def gemm_b_rows(a, b, c, M, N, K, stride_bk, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr,
                UNROLL: tl.constexpr):
    """C = A B with B's rows `stride_bk` apart, the K loop unrolled `UNROLL` times."""
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), tl.float32)
    for k in tl.range(0, K, BK, loop_unroll_factor=UNROLL):
        x = tl.load(a + rm[:, None] * K + (k + rk)[None, :], mask=rm[:, None] < M, other=0.0)
        y = tl.load(b + (k + rk)[:, None] * stride_bk + rn[None, :], mask=rn[None, :] < N, other=0.0)
        acc = tl.dot(x, y, acc)
    tl.store(c + rm[:, None] * N + rn[None, :], acc.to(tl.float16), mask=(rm[:, None] < M) & (rn[None, :] < N))


@triton.jit
def batched_gemm_device_descriptors(a, b, c, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    batch = tl.program_id(2)
    a_desc = tl.make_tensor_descriptor(a + batch * M * K, shape=[M, K], strides=[K, 1], block_shape=[BM, BK])
    b_desc = tl.make_tensor_descriptor(b + batch * K * N, shape=[K, N], strides=[N, 1], block_shape=[BK, BN])
    acc = tl.zeros((BM, BN), tl.float32)
    for k in range(0, K, BK):
        acc = tl.dot(a_desc.load([tl.program_id(0) * BM, k]), b_desc.load([k, tl.program_id(1) * BN]), acc)
    c_desc = tl.make_tensor_descriptor(c + batch * M * N, shape=[M, N], strides=[N, 1], block_shape=[BM, BN])
    c_desc.store([tl.program_id(0) * BM, tl.program_id(1) * BN], acc.to(tl.float16))


@triton.jit
def persistent_gemm_then_rows(a, b, c, rows, M, N, K, PROGRAMS: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr,
                              BK: tl.constexpr):
    pid = tl.program_id(0)
    tiles_n = tl.cdiv(N, BN)
    rk = tl.arange(0, BK)
    for tile in range(pid, tl.cdiv(M, BM) * tiles_n, PROGRAMS):
        rm = (tile // tiles_n) * BM + tl.arange(0, BM)
        rn = (tile % tiles_n) * BN + tl.arange(0, BN)
        acc = tl.zeros((BM, BN), tl.float32)
        for k in range(0, K, BK):
            acc = tl.dot(tl.load(a + rm[:, None] * K + (k + rk)[None, :]),
                         tl.load(b + (k + rk)[:, None] * N + rn[None, :]), acc)
        tl.store(c + rm[:, None] * N + rn[None, :], acc.to(tl.float16))
    mine = pid * 64 + tl.arange(0, 64)
    tl.store(rows + mine, tl.load(rows + mine) * 2)


GEMM = {"a": "*fp16", "b": "*fp16", "c": "*fp16", "M": "i32", "N": "i32", "K": "i32",
        "BM": "constexpr", "BN": "constexpr", "BK": "constexpr"}
ROWS = {"x": "*bf16", "y": "*bf16", "first_row": "i32", "rows": "i32", "N": "i32", "BLOCK": "constexpr", "EARLY_EXIT": "constexpr",
        "CACHE_HINTS": "constexpr", "EXP": "constexpr"}
B_ROWS_GEMM = {"a": "*fp16", "b": "*fp16", "c": "*fp16", "M": "i32", "N": "i32", "K": "i32", "stride_bk": "i32",
               "BM": "constexpr", "BN": "constexpr", "BK": "constexpr", "UNROLL": "constexpr"}
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


def test_a_blackwell_gemm_with_b_at_an_unaligned_stride_compiles_as_triton_does(triton_cache):
    constexprs, aligned = {"BM": 128, "BN": 128, "BK": 64, "UNROLL": 1}, ("a", "b", "c", "M", "N", "K")

    def final_ttgir(impl: str) -> str:
        pipeline = f"ttgir-sm100{{{ADDITIONS_OFF['ttgir-sm100']}impl={impl} verify-async=false}}"
        compiled = compile_sm100a(gemm_b_rows, B_ROWS_GEMM, constexprs, {"num_warps": 4}, pipeline, aligned)
        return re.sub(r"loc\(.*?\)", "", compiled.asm["ttgir"])

    compile_sm100a(gemm_b_rows, B_ROWS_GEMM, constexprs, {"num_warps": 4}, aligned=aligned)
    assert final_ttgir("ttpipe") == final_ttgir("triton")


def test_a_cooperative_store_through_a_descriptor_made_after_the_loop_compiles(triton_cache):
    signature = {"a": "*fp16", "b": "*fp16", "c": "*fp16", "M": "i32", "N": "i32", "K": "i32"}
    ttgir = compile_sm90a(batched_gemm_device_descriptors, signature, {"BM": 128, "BN": 128, "BK": 64},
                          {"num_warps": 8}).asm["ttgir"]
    # warpgroup 0 (the default region) makes C's tensormap and stores through it
    default = ttgir[ttgir.index("ttg.warp_specialize"):ttgir.index("partition0(")]
    assert default.index("ttng.tensormap_create") < default.index("ttng.async_tma_copy_local_to_global")


def test_a_blackwell_gemm_unrolled_by_two_waits_for_its_mma_before_the_next_iteration_reads(triton_cache):
    constexprs = {"BM": 128, "BN": 128, "BK": 64, "UNROLL": 2}
    ttgir = compile_sm100a(gemm_b_rows, B_ROWS_GEMM, constexprs, {"num_warps": 4}).asm["ttgir"]
    assert ttgir.count("ttng.tc_gen5_mma") >= 2
    with pytest.raises(DiagnosticError, match=r"read-before-wait"):
        compile_sm100a(gemm_b_rows, B_ROWS_GEMM, constexprs, {"num_warps": 4}, "ttgir-sm100{impl=triton}")


def test_a_persistent_gemm_with_tensors_after_its_tile_loop_keeps_its_warps(triton_cache, monkeypatch, capfd):
    monkeypatch.setenv("MLIR_ENABLE_DIAGNOSTICS", "remarks")
    signature = {"a": "*fp16", "b": "*fp16", "c": "*fp16", "rows": "*fp16", "M": "i32", "N": "i32", "K": "i32"}
    compiled = compile_sm90a(persistent_gemm_then_rows, signature, {"PROGRAMS": 132, "BM": 128, "BN": 128, "BK": 64},
                             {"num_warps": 8})
    assert compiled.metadata.num_warps == 8 and "ttg.warp_specialize" not in compiled.asm["ttgir"]
    assert "with a tensor after the persistent tile loop" in capfd.readouterr().err
