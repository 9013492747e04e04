"""On an sm_90a GPU (H100): a TMA matmul `@triton.jit` kernel whose K loop is
`tl.range(..., warp_specialize=True)`, compiled through the plug-in with
`ttgir-sm90{warp-specialize=true}` (ttpipe-warp-specialize: TMA producer warp, wgmma consumer
warpgroups, full/empty mbarrier ring), checked against torch in float32.

`num_warps=4` (one consumer warpgroup), 128x128x64 tiles: fp16 and bf16; M and N not
multiples of the tile; K tiles (BLOCK_K = 64, 3 stages) 0 (K = 0 passed to the kernel: the
loops never run, C must be 0), 1, 2 (= stages - 1), 3 (= stages), 4 and 16, the last tile
ragged where K is not a multiple of 64 (K and N stay multiples of 8: TMA needs 16-byte row
strides). Persistent (`num_warps=4`, 128x128x64): a grid-stride tile loop marked
`warp_specialize=True` around the K loop with a TMA store epilogue, on a grid of
`PERSISTENT_SMS` = 3 CTAs: 7 tiles (not a multiple of the grid; ragged M and N), K tiles 0, 1,
2, 3, 16, one tile (128 x 128) with 16 K tiles, and 25 tiles of 4 K tiles (the ring's state
runs on across tiles; a stage released late or never shows as a hang or a wrong tile); each
with ping-pong consumers (3, 2 and 2 tiles per CTA: warpgroup 1 gets one tile, or none
with a single tile; a wrong skip of the other's K iterations shows as a wrong tile or a
hang), with one consumer warpgroup (`warp-specialize-consumers=cooperative`), and ping-pong
with a masked pointer-store epilogue (offsets the second consumer re-creates); a bias
(masked `tl.load` along N) + ReLU epilogue before the TMA store, ping-pong at `num_warps=4`
and cooperative at `num_warps=8` (each warpgroup loads the bias for its rows' columns); the
masked pointer-store epilogue at `num_warps=8` too (its offsets hoisted before the tile
loop, rebuilt per warpgroup); batched GEMMs through 3-D descriptors (`[1, BLOCK_M,
BLOCK_K]` boxes reshaped to the tile, 3 batches, ragged M and N within each batch: TMA
clips at the batch's bounds), ping-pong 128x128 and cooperative 128x256; the persistent
kernel with its epilogue handed to a one-warp partition (`warp-specialize-epilogue=partition`),
ping-pong and one consumer, K tiles 0-16, 1 to 3 tiles per CTA; the persistent kernel with
its TMA descriptors made on the device (`tl.make_tensor_descriptor`, tensormaps in Triton's
global scratch, from an allocator the child sets), ping-pong and cooperative;
persistent at `num_warps=8` (two cooperative consumer warpgroups, each its own tile loop),
128x256x64 (808 x 200) and 256x128x64 (200 x 840) tiles, 7 tiles on the 3-CTA grid, ragged M
and N, K tiles 0, 1, 2 and 16, fp16 and bf16, the TMA store epilogue (the staging tile's
full/empty mbarrier pair, its phase per tile). `num_warps=8` (two cooperative consumer warpgroups splitting M, 12 warps in all):
128x256x64 and 256x128x64 tiles, fp16 and bf16, ragged M and N, K tiles 0, 1, 2, 3 and 16;
with the TMA store epilogue (staged through shared memory, one TMA store) and with a
pointer-store epilogue (`tl.store` with masks: each warpgroup stores its rows). C starts as
NaN so that an element the kernel never writes fails. Pointer-load kernels as Triton's
tutorials write them (03: grouped tiles, rows and columns kept in bounds with `%` or masked,
pointers advanced along K; B row-major and K-major; 09: persistent, `tl.where` keeping
indices in bounds), whose loads ttpipe turns into TMA loads of tensormaps made on the
device, in global scratch from the plug-in's allocator (no case before them sets one): one
consumer, ping-pong and cooperative, K 0, 176 and 1008 (not multiples of 64), ragged M and N.
Triton's tutorial 09 persistent kernel as users copy it (`ttpipe.bench.kernels.matmul_tutorial_persistent`:
`flatten=True` with the flag, a carried epilogue tile counter, the epilogue stored whole or
subtiled in two halves), ping-pong and cooperative, ragged M and N, K 0, 120 and 1000. Tiles
numbered row by row (the persistent kernel above, tutorial 03's with `GROUP_M = 1`, and the
2-D grids of the first kernels), which ttpipe-tile-order walks in groups of 8 rows of tiles: 11
rows (M = 1300, or N = 1304 on a grid), a group of 8 and one of 3. All cases run in one child process
under a watchdog (`sm90a.run_cases`): a protocol bug that hangs the GPU is reported as a hang
naming the case, not a stalled test run.

    pytest -q -m gpu test/gpu/test_warp_specialize.py
"""

import json
import sys

import pytest
from sm90a import run_cases, why_not

CASES = [("tma_store", 4, 128, 128, dtype, m, n, k) for dtype in ("float16", "bfloat16")
         for m, n, k in ((300, 200, 0), (300, 200, 64), (300, 200, 120), (300, 200, 192), (300, 200, 248),
                         (256, 384, 1000))]
CASES += [(store, 8, bm, bn, dtype, m, n, k) for store in ("tma_store", "pointer_store")
          for bm, bn in ((128, 256), (256, 128)) for dtype in ("float16", "bfloat16")
          for m, n, k in ((300, 328, 0), (300, 328, 64), (520, 328, 120), (300, 600, 192), (520, 600, 1000))]
PERSISTENT_SMS = 3
"""The persistent cases' grid: 3 CTAs, so 7 tiles (300 x 328 in 128 x 128) leave them 3, 2 and 2."""
CASES += [  # before any case sets an allocator: the plug-in's is used
          (kernel, warps, 128, bn, dtype, m, n, k)
          for kernel in ("pointers_tutorial", "pointers_tutorial_b_kmajor", "pointers_masked", "pointers_persistent")
          for warps, bn in ((4, 128), (8, 256)) for dtype in ("float16", "bfloat16")
          for m, n, k in ((300, 336, 0), (300, 336, 176), (520, 608, 1008))]
CASES += [(epilogue, 4, 128, 128, dtype, m, n, k)
          for epilogue in ("persistent", "persistent_one_consumer", "persistent_pointer_store")
          for dtype in ("float16", "bfloat16")
          for m, n, k in ((300, 328, 0), (300, 328, 64), (300, 328, 120), (300, 328, 192), (300, 328, 1000),
                          (128, 128, 1000), (520, 600, 248))]
CASES += [(epilogue, warps, bm, bn, dtype, m, n, k)
          for epilogue, warps, bm, bn in (("persistent_bias_relu", 4, 128, 128), ("persistent_bias_relu", 8, 128, 256))
          for dtype in ("float16", "bfloat16") for m, n, k in ((300, 328, 64), (520, 600, 1000))]
CASES += [("persistent", 8, bm, bn, dtype, m, n, k) for bm, bn, m, n in ((128, 256, 808, 200), (256, 128, 200, 840))
          for dtype in ("float16", "bfloat16") for k in (0, 64, 120, 1000)]
CASES += [(epilogue, 4, 128, 128, dtype, m, n, k)
          for epilogue in ("persistent_epilogue_partition", "persistent_one_consumer_epilogue_partition")
          for dtype in ("float16", "bfloat16")
          for m, n, k in ((300, 328, 0), (300, 328, 64), (300, 328, 1000), (128, 128, 1000), (520, 600, 248))]
CASES += [("device_descriptors", warps, 128, bn, dtype, m, n, k) for warps, bn in ((4, 128), (8, 256))
          for dtype in ("float16", "bfloat16") for m, n, k in ((300, 328, 120), (520, 600, 1000))]
CASES += [("persistent_pointer_store", 8, 128, 256, dtype, m, n, k) for dtype in ("float16", "bfloat16")
          for m, n, k in ((300, 328, 64), (520, 600, 1000))]
CASES += [("batched", warps, 128, bn, dtype, m, n, k) for warps, bn in ((4, 128), (8, 256))
          for dtype in ("float16", "bfloat16") for m, n, k in ((300, 328, 120), (256, 256, 1000))]
CASES += [(kernel, warps, 128, bn, dtype, m, n, k) for kernel in ("tutorial09", "tutorial09_subtile")
          for warps, bn in ((4, 128), (8, 256)) for dtype in ("float16", "bfloat16")
          for m, n, k in ((300, 328, 0), (300, 328, 120), (520, 600, 1000))]
CASES += [("pointers_row_major", warps, 128, bn, "bfloat16", m, n, k) for warps, bn in ((4, 128), (8, 256))
          for m, n, k in ((300, 336, 176), (1300, 608, 1008))]
CASES += [("persistent", 4, 128, 128, dtype, 1300, 600, 120) for dtype in ("float16", "bfloat16")]
CASES += [(store, 4, 128, 128, "bfloat16", 300, 1304, 120) for store in ("tma_store", "pointer_store")]
CASES += [(kernel + variant, warps, 128, bn, dtype, m, n, k) for variant in ("_programs", "_tile_a_program")
          for kernel in ("tma_store", "pointers_tutorial") for warps, bn in ((4, 128), (8, 256))
          for dtype in ("float16", "bfloat16") for m, n, k in ((300, 336, 0), (300, 608, 176), (520, 608, 1008))]
VARIANTS = ("_programs", "_tile_a_program")
"""Kernels of a program a tile compiled with `sms=PERSISTENT_SMS` (made
persistent over 3 programs: 9 to 25 tiles, 3 to 9 a program, the other programs running none;
N and K multiples of 16 elements, as the pointer kernels' row strides must be for TMA),
and with `warp-specialize-persistent=false` (kept at one tile a program). The plug-in's default makes
every other such case persistent over 132 programs, one tile each at these sizes."""
ROW_MAJOR_KERNELS = ("tma_store", "pointer_store", "pointers_row_major", "persistent", "persistent_one_consumer", "persistent_pointer_store",
                     "persistent_bias_relu", "persistent_epilogue_partition",
                     "persistent_one_consumer_epilogue_partition")
"""The cases whose kernel numbers its tiles row by row (`tile // tiles_n`, `tile % tiles_n`, or a
2-D grid of `program_id(0)`, `program_id(1)`), which ttpipe-tile-order regroups (a min of the
group's rows in the TTGIR): 1300 rows (or, on the grid, 1304 columns) are 11 rows of tiles, a group
of 8 and a shorter one of 3."""
BATCH = 3
"""The batched cases' batch: 3-D descriptors [BATCH, rows, K], a tile loop over all batches' tiles."""
"""(epilogue, num_warps, BLOCK_M, BLOCK_N, dtype, M, N, K); BLOCK_K = 64, 3 stages. At
`num_warps=4` the persistent kernels get ping-pong consumers (the default `consumers=auto`),
but `persistent_one_consumer`, compiled with `warp-specialize-consumers=cooperative`."""
PERSISTENT_EPILOGUES = {"persistent_pointer_store": 1, "persistent_bias_relu": 2}
"""The persistent kernel's EPILOGUE constexpr (0: TMA store)."""
PIPELINES = {
    **{kernel + "_programs": f"ttgir-sm90{{warp-specialize=true sms={PERSISTENT_SMS}}}"
       for kernel in ("tma_store", "pointers_tutorial")},
    **{kernel + "_tile_a_program": "ttgir-sm90{warp-specialize=true warp-specialize-persistent=false}"
       for kernel in ("tma_store", "pointers_tutorial")},
    "persistent_one_consumer": "ttgir-sm90{warp-specialize=true warp-specialize-consumers=cooperative}",
    "persistent_epilogue_partition": "ttgir-sm90{warp-specialize=true warp-specialize-epilogue=partition}",
    "persistent_one_consumer_epilogue_partition":
        "ttgir-sm90{warp-specialize=true warp-specialize-consumers=cooperative warp-specialize-epilogue=partition}",
}
DEFAULT_PIPELINE = "ttgir-sm90{warp-specialize=true}"


WHY_NOT = why_not()
pytestmark = [pytest.mark.gpu, pytest.mark.skipif(WHY_NOT is not None, reason=WHY_NOT or "")]


def child() -> None:
    """Run every case; print one JSON line per case started and finished."""
    import torch
    import triton
    import triton.language as tl
    from triton.tools.tensor_descriptor import TensorDescriptor

    import ttpipe.triton
    from ttpipe.bench.kernels import matmul_tutorial_persistent

    @triton.jit
    def matmul_tma_ws(a_desc, b_desc, c_desc, K, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                      BLOCK_K: tl.constexpr):
        off_m = tl.program_id(0) * BLOCK_M
        off_n = tl.program_id(1) * BLOCK_N
        acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
        for kk in tl.range(0, tl.cdiv(K, BLOCK_K), warp_specialize=True):
            a = a_desc.load([off_m, kk * BLOCK_K])
            b = b_desc.load([off_n, kk * BLOCK_K])
            acc = tl.dot(a, b.T, acc)
        c_desc.store([off_m, off_n], acc.to(c_desc.dtype))

    @triton.jit
    def matmul_tma_ws_pointer_store(a_desc, b_desc, c_ptr, M, N, K, stride_cm, BLOCK_M: tl.constexpr,
                                    BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
        off_m = tl.program_id(0) * BLOCK_M
        off_n = tl.program_id(1) * BLOCK_N
        acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
        for kk in tl.range(0, tl.cdiv(K, BLOCK_K), warp_specialize=True):
            a = a_desc.load([off_m, kk * BLOCK_K])
            b = b_desc.load([off_n, kk * BLOCK_K])
            acc = tl.dot(a, b.T, acc)
        offs_m = off_m + tl.arange(0, BLOCK_M)
        offs_n = off_n + tl.arange(0, BLOCK_N)
        mask = (offs_m[:, None] < M) & (offs_n[None, :] < N)
        tl.store(c_ptr + offs_m[:, None] * stride_cm + offs_n[None, :], acc.to(c_ptr.dtype.element_ty), mask=mask)

    @triton.jit
    def matmul_tma_ws_persistent(a_desc, b_desc, c_desc, c_ptr, bias_ptr, M, N, K, stride_cm, BLOCK_M: tl.constexpr,
                                 BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, NUM_SMS: tl.constexpr,
                                 EPILOGUE: tl.constexpr):
        """EPILOGUE: 0 a TMA store, 1 a masked pointer store, 2 bias along N + ReLU, then a TMA store."""
        tiles_n = tl.cdiv(N, BLOCK_N)
        for tile in tl.range(tl.program_id(0), tl.cdiv(M, BLOCK_M) * tiles_n, NUM_SMS, warp_specialize=True):
            off_m = (tile // tiles_n) * BLOCK_M
            off_n = (tile % tiles_n) * BLOCK_N
            acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
            for kk in tl.range(0, tl.cdiv(K, BLOCK_K)):
                a = a_desc.load([off_m, kk * BLOCK_K])
                b = b_desc.load([off_n, kk * BLOCK_K])
                acc = tl.dot(a, b.T, acc)
            offs_n = off_n + tl.arange(0, BLOCK_N)
            if EPILOGUE == 1:
                offs_m = off_m + tl.arange(0, BLOCK_M)
                mask = (offs_m[:, None] < M) & (offs_n[None, :] < N)
                tl.store(c_ptr + offs_m[:, None] * stride_cm + offs_n[None, :], acc.to(c_ptr.dtype.element_ty),
                         mask=mask)
            else:
                if EPILOGUE == 2:
                    bias = tl.load(bias_ptr + offs_n, mask=offs_n < N, other=0.0)
                    acc = tl.maximum(acc + bias[None, :], 0.0)
                c_desc.store([off_m, off_n], acc.to(c_desc.dtype))

    @triton.jit
    def matmul_tma_ws_batched(a_desc, b_desc, c_desc, M, N, K, BATCH, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                              BLOCK_K: tl.constexpr, NUM_SMS: tl.constexpr):
        tiles_n = tl.cdiv(N, BLOCK_N)
        per_batch = tl.cdiv(M, BLOCK_M) * tiles_n
        for tile in tl.range(tl.program_id(0), per_batch * BATCH, NUM_SMS, warp_specialize=True):
            batch = tile // per_batch
            in_batch = tile % per_batch
            off_m = (in_batch // tiles_n) * BLOCK_M
            off_n = (in_batch % tiles_n) * BLOCK_N
            acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
            for kk in tl.range(0, tl.cdiv(K, BLOCK_K)):
                a = a_desc.load([batch, off_m, kk * BLOCK_K]).reshape(BLOCK_M, BLOCK_K)
                b = b_desc.load([batch, off_n, kk * BLOCK_K]).reshape(BLOCK_N, BLOCK_K)
                acc = tl.dot(a, b.T, acc)
            c_desc.store([batch, off_m, off_n], acc.to(c_desc.dtype).reshape(1, BLOCK_M, BLOCK_N))

    @triton.jit
    def matmul_device_descriptors(a_ptr, b_ptr, c_ptr, M, N, K, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                                  BLOCK_K: tl.constexpr, NUM_SMS: tl.constexpr):
        """The persistent kernel with its TMA descriptors made on the device (tensormaps in
        Triton's global scratch) from row-major A [M, K], B [N, K], C [M, N]."""
        a_desc = tl.make_tensor_descriptor(a_ptr, [M, K], [K, 1], [BLOCK_M, BLOCK_K])
        b_desc = tl.make_tensor_descriptor(b_ptr, [N, K], [K, 1], [BLOCK_N, BLOCK_K])
        c_desc = tl.make_tensor_descriptor(c_ptr, [M, N], [N, 1], [BLOCK_M, BLOCK_N])
        tiles_n = tl.cdiv(N, BLOCK_N)
        for tile in tl.range(tl.program_id(0), tl.cdiv(M, BLOCK_M) * tiles_n, NUM_SMS, warp_specialize=True):
            off_m = (tile // tiles_n) * BLOCK_M
            off_n = (tile % tiles_n) * BLOCK_N
            acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
            for kk in tl.range(0, tl.cdiv(K, BLOCK_K)):
                a = a_desc.load([off_m, kk * BLOCK_K])
                b = b_desc.load([off_n, kk * BLOCK_K])
                acc = tl.dot(a, b.T, acc)
            c_desc.store([off_m, off_n], acc.to(c_desc.dtype))

    @triton.jit
    def matmul_pointers(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_bn, stride_cm,
                        stride_cn, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
                        GROUP_M: tl.constexpr, MASKED: tl.constexpr):
        """Triton's tutorial matmul (03): grouped tiles (GROUP_M = 1: row by row), rows and
        columns kept in bounds with `%` (MASKED=0) or masked (MASKED=1), pointers advanced
        along K, a masked store."""
        pid = tl.program_id(axis=0)
        num_pid_m = tl.cdiv(M, BLOCK_M)
        num_pid_n = tl.cdiv(N, BLOCK_N)
        if GROUP_M == 1:
            pid_m = pid // num_pid_n
            pid_n = pid % num_pid_n
        else:
            num_pid_in_group = GROUP_M * num_pid_n
            first_pid_m = (pid // num_pid_in_group) * GROUP_M
            group_size_m = min(num_pid_m - first_pid_m, GROUP_M)
            pid_m = first_pid_m + ((pid % num_pid_in_group) % group_size_m)
            pid_n = (pid % num_pid_in_group) // group_size_m
        offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
        offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
        offs_am = offs_m if MASKED else offs_m % M
        offs_bn = offs_n if MASKED else offs_n % N
        offs_k = tl.arange(0, BLOCK_K)
        a_ptrs = a_ptr + (offs_am[:, None] * stride_am + offs_k[None, :] * stride_ak)
        b_ptrs = b_ptr + (offs_k[:, None] * stride_bk + offs_bn[None, :] * stride_bn)
        acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
        for k in tl.range(0, tl.cdiv(K, BLOCK_K), warp_specialize=True):
            if MASKED:
                a = tl.load(a_ptrs, mask=(offs_am[:, None] < M) & (offs_k[None, :] < K - k * BLOCK_K), other=0.0)
                b = tl.load(b_ptrs, mask=(offs_k[:, None] < K - k * BLOCK_K) & (offs_bn[None, :] < N), other=0.0)
            else:
                a = tl.load(a_ptrs, mask=offs_k[None, :] < K - k * BLOCK_K, other=0.0)
                b = tl.load(b_ptrs, mask=offs_k[:, None] < K - k * BLOCK_K, other=0.0)
            acc = tl.dot(a, b, acc)
            a_ptrs += BLOCK_K * stride_ak
            b_ptrs += BLOCK_K * stride_bk
        c_ptrs = c_ptr + stride_cm * offs_m[:, None] + stride_cn * offs_n[None, :]
        tl.store(c_ptrs, acc.to(c_ptr.dtype.element_ty), mask=(offs_m[:, None] < M) & (offs_n[None, :] < N))

    @triton.jit
    def matmul_pointers_persistent(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_bn,
                                   stride_cm, stride_cn, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                                   BLOCK_K: tl.constexpr, GROUP_M: tl.constexpr, NUM_SMS: tl.constexpr):
        """Triton's persistent tutorial matmul (09): a grid-stride tile loop, rows and columns
        kept in bounds with `tl.where`, the K pointers recomputed each iteration."""
        num_pid_m = tl.cdiv(M, BLOCK_M)
        num_pid_n = tl.cdiv(N, BLOCK_N)
        k_tiles = tl.cdiv(K, BLOCK_K)
        offs_k_for_mask = tl.arange(0, BLOCK_K)
        num_pid_in_group = GROUP_M * num_pid_n
        for tile_id in tl.range(tl.program_id(0), num_pid_m * num_pid_n, NUM_SMS, warp_specialize=True):
            first_pid_m = (tile_id // num_pid_in_group) * GROUP_M
            group_size_m = min(num_pid_m - first_pid_m, GROUP_M)
            pid_m = first_pid_m + (tile_id % group_size_m)
            pid_n = (tile_id % num_pid_in_group) // group_size_m
            offs_am = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
            offs_bn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
            offs_am = tl.where(offs_am < M, offs_am, 0)
            offs_bn = tl.where(offs_bn < N, offs_bn, 0)
            acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
            for ki in range(k_tiles):
                offs_k = ki * BLOCK_K + tl.arange(0, BLOCK_K)
                a_ptrs = a_ptr + (offs_am[:, None] * stride_am + offs_k[None, :] * stride_ak)
                b_ptrs = b_ptr + (offs_k[:, None] * stride_bk + offs_bn[None, :] * stride_bn)
                a = tl.load(a_ptrs, mask=offs_k_for_mask[None, :] < K - ki * BLOCK_K, other=0.0)
                b = tl.load(b_ptrs, mask=offs_k_for_mask[:, None] < K - ki * BLOCK_K, other=0.0)
                acc = tl.dot(a, b, acc)
            offs_cm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
            offs_cn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
            c_ptrs = c_ptr + stride_cm * offs_cm[:, None] + stride_cn * offs_cn[None, :]
            tl.store(c_ptrs, acc.to(c_ptr.dtype.element_ty), mask=(offs_cm[:, None] < M) & (offs_cn[None, :] < N))

    def scratch(size: int, alignment: int, stream):
        return torch.empty(size, dtype=torch.int8, device="cuda")

    bk = 64
    for case in CASES:
        variant, warps, bm, bn, dtype_name, m, n, k = case
        store = kernel_of(variant)
        with ttpipe.triton.installed(PIPELINES.get(variant, DEFAULT_PIPELINE)):
            print(json.dumps({"started": case}), flush=True)
            dtype = getattr(torch, dtype_name)
            k_alloc = max(k, bk)  # K = 0: descriptors over one tile, the kernel told K = 0
            batch = (BATCH, ) if store == "batched" else ()
            a = torch.randn(*batch, m, k_alloc, device="cuda").to(dtype)
            b = torch.randn(*batch, n, k_alloc, device="cuda").to(dtype)
            c = torch.full((*batch, m, n), float("nan"), device="cuda", dtype=dtype)
            grid = (triton.cdiv(m, bm), triton.cdiv(n, bn))
            box = [1] * len(batch)
            a_desc = TensorDescriptor.from_tensor(a, [*box, bm, bk])
            b_desc = TensorDescriptor.from_tensor(b, [*box, bn, bk])
            bias = torch.randn(n, device="cuda", dtype=torch.float32)
            if store.startswith("pointers"):
                b_rows = b.T if store == "pointers_tutorial_b_kmajor" else b.T.contiguous()  # [K, N]
                strides = (*a.stride(), *b_rows.stride(), *c.stride())
                if store == "pointers_persistent":
                    grid = (min(PERSISTENT_SMS, grid[0] * grid[1]), )
                    compiled = matmul_pointers_persistent[grid](a, b_rows, c, m, n, k, *strides, bm, bn, bk, 8,
                                                                PERSISTENT_SMS, num_warps=warps, num_stages=3)
                else:
                    grid = (grid[0] * grid[1], )
                    group = 1 if store == "pointers_row_major" else 8
                    compiled = matmul_pointers[grid](a, b_rows, c, m, n, k, *strides, bm, bn, bk, group,
                                                     int(store == "pointers_masked"), num_warps=warps, num_stages=3)
            elif store == "device_descriptors":
                triton.set_allocator(scratch)  # the kernel's own tensormaps live in Triton's global scratch
                grid = (min(PERSISTENT_SMS, grid[0] * grid[1]), )
                compiled = matmul_device_descriptors[grid](a, b, c, m, n, k, bm, bn, bk, PERSISTENT_SMS,
                                                           num_warps=warps, num_stages=3)
            elif store == "batched":
                grid = (min(PERSISTENT_SMS, BATCH * grid[0] * grid[1]), )
                compiled = matmul_tma_ws_batched[grid](
                    a_desc, b_desc, TensorDescriptor.from_tensor(c, [1, bm, bn]), m, n, k, BATCH, bm, bn, bk,
                    PERSISTENT_SMS, num_warps=warps, num_stages=3)
            elif store.startswith("tutorial09"):
                subtile = store.endswith("subtile")
                grid = (min(PERSISTENT_SMS, grid[0] * grid[1]), )
                compiled = matmul_tutorial_persistent[grid](
                    a_desc, b_desc, TensorDescriptor.from_tensor(c, [bm, bn // 2 if subtile else bn]), m, n, k, bm,
                    bn, bk, 8, PERSISTENT_SMS, True, subtile, num_warps=warps, num_stages=3)
            elif store.startswith("persistent"):
                grid = (min(PERSISTENT_SMS, grid[0] * grid[1]), )
                compiled = matmul_tma_ws_persistent[grid](
                    a_desc, b_desc, TensorDescriptor.from_tensor(c, [bm, bn]), c, bias, m, n, k, c.stride(0), bm, bn,
                    bk, PERSISTENT_SMS, PERSISTENT_EPILOGUES.get(store, 0), num_warps=warps, num_stages=3)
            elif store == "tma_store":
                compiled = matmul_tma_ws[grid](a_desc, b_desc, TensorDescriptor.from_tensor(c, [bm, bn]), k, bm, bn,
                                               bk, num_warps=warps, num_stages=3)
            else:
                compiled = matmul_tma_ws_pointer_store[grid](a_desc, b_desc, c, m, n, k, c.stride(0), bm, bn, bk,
                                                             num_warps=warps, num_stages=3)
            torch.cuda.synchronize()
            reference = a[..., :k].float() @ b[..., :k].float().transpose(-1, -2)
            if store == "persistent_bias_relu":
                reference = torch.relu(reference + bias)
            if k == 0:
                error = float(c.float().abs().max()) if not c.isnan().any() else float("nan")
            else:
                error = float(torch.linalg.vector_norm(c.float() - reference) / torch.linalg.vector_norm(reference))
            ttgir = compiled.asm["ttgir"]
            print(json.dumps({"case": case, "nan": bool(c.isnan().any()), "error": error,
                              "warp_specialized": "ttg.warp_specialize" in ttgir,
                              "consumer_partitions": ttgir.count("num_warps(4)"),
                              "one_warp_partitions": ttgir.count("num_warps(1)"),
                              "launch_warps": compiled.metadata.num_warps,
                              "regrouped": "arith.minsi" in ttgir}), flush=True)


def kernel_of(case_kernel: str) -> str:
    """The kernel a case runs: its name without a `VARIANTS` suffix."""
    for variant in VARIANTS:
        case_kernel = case_kernel.removesuffix(variant)
    return case_kernel


def test_warp_specialized_tma_matmul():
    results = run_cases([sys.executable, __file__, "--child"])
    assert [r["case"] for r in results] == [list(case) for case in CASES]
    # num_warps=8 (cooperative) and persistent num_warps=4 (ping-pong; a program a tile is made
    # persistent unless kept at one tile): consumer warpgroup 1 in a 4-warp partition, 4 + 4 + 4
    # (the producer's warpgroup) warps launched.
    def two_consumers(case: list) -> bool:
        return case[1] == 8 or not (case[0].startswith("persistent_one_consumer") or case[0].endswith("_tile_a_program"))

    # With an epilogue partition, its warp and the producer's share the third warpgroup.
    bad = [r for r in results if r["nan"] or not r["warp_specialized"] or not r["error"] < 1e-2
           or two_consumers(r["case"]) != (r["consumer_partitions"] == 1)
           or r["launch_warps"] != (12 if two_consumers(r["case"]) else 8)
           or r["one_warp_partitions"] != (2 if r["case"][0].endswith("epilogue_partition") else 1)
           or (kernel_of(r["case"][0]) in ROW_MAJOR_KERNELS and not r["regrouped"])]
    assert not bad, "\n".join(json.dumps(r) for r in bad)


if __name__ == "__main__" and sys.argv[1:] == ["--child"]:
    child()
