"""Triton kernels of the IR corpus and their registry.

Every kernel is compiled ahead of time (no GPU needed) with fixed constexprs,
a fixed signature and fixed compile options, so each entry of ``KERNELS`` pins
down one exact compilation.  Tile sizes are the ones a tuned kernel would use,
so that Triton selects tensor cores, TMA, pipelining and warp specialization.
"""

from dataclasses import dataclass, field

import triton
import triton.language as tl
from triton.language.extra.cuda import libdevice

ALL_TARGETS = ("sm90a", "sm100a")


@dataclass(frozen=True)
class KernelSpec:
    """One compilation of one kernel.

    ``signature`` gives the type of every runtime argument; arguments named in
    ``constexprs`` are filled in as constexprs; arguments listed in
    ``divisible_by_16`` are specialised as multiples of 16, like the JIT does
    for aligned pointers and strides at launch.
    """

    fn: triton.JITFunction
    signature: dict
    constexprs: dict
    options: dict
    divisible_by_16: tuple = ()
    targets: tuple = ALL_TARGETS
    note: str = ""
    full_signature: dict = field(init=False, repr=False)

    def __post_init__(self):
        names = self.fn.arg_names
        unknown = set(self.signature) | set(self.constexprs) | set(self.divisible_by_16)
        unknown -= set(names)
        if unknown:
            raise ValueError(f"{self.fn.__name__}: unknown arguments {sorted(unknown)}")
        full = {name: "constexpr" if name in self.constexprs else self.signature[name] for name in names}
        object.__setattr__(self, "full_signature", full)

    def attrs(self):
        """The ``attrs`` argument of ``ASTSource``: divisibility hints by argument index."""
        names = self.fn.arg_names
        return {(names.index(name), ): [["tt.divisibility", 16]] for name in self.divisible_by_16}


# --------------------------------------------------------------------------
# Shared helpers (inlined by the ``inline`` pass of make_ttir).
# --------------------------------------------------------------------------


@triton.jit
def _swizzled_tile(tile, tiles_m, tiles_n, GROUP_M: tl.constexpr):
    """Map a linear tile index to (row tile, column tile), GROUP_M row tiles at a time."""
    per_group = GROUP_M * tiles_n
    first_m = (tile // per_group) * GROUP_M
    group_rows = tl.minimum(tiles_m - first_m, GROUP_M)
    in_group = tile % per_group
    return first_m + in_group % group_rows, in_group // group_rows


@triton.jit
def _unpack_scales(packed, ROWS: tl.constexpr, COLS: tl.constexpr):
    """Undo the 128x4 scale swizzle: [1, ROWS/128, COLS/4, 2, 256] u8 -> [ROWS, COLS].

    This reshape/transpose/reshape chain is what lets sm_100 keep the scales in
    shared memory and copy them to tensor memory (``ttng.tmem_copy``).
    """
    tiles = packed.reshape(ROWS // 128, COLS // 4, 32, 4, 4)
    return tiles.trans(0, 3, 2, 1, 4).reshape(ROWS, COLS)


# --------------------------------------------------------------------------
# Matrix multiplications.
# --------------------------------------------------------------------------


@triton.jit
def matmul_ptr(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_bk, stride_cm,  #
               BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, GROUP_M: tl.constexpr):
    """C[M, N] = A[M, K] @ B[K, N] with plain pointers and masked K tails."""
    pid_m, pid_n = _swizzled_tile(tl.program_id(0), tl.cdiv(M, BLOCK_M), tl.cdiv(N, BLOCK_N), GROUP_M)
    rows = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    ks = tl.arange(0, BLOCK_K)
    a_tile = a_ptr + (rows % M)[:, None] * stride_am + ks[None, :]
    b_tile = b_ptr + ks[:, None] * stride_bk + (cols % N)[None, :]
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k0 in range(0, K, BLOCK_K):
        in_k = ks < K - k0
        a = tl.load(a_tile, mask=in_k[None, :], other=0.0)
        b = tl.load(b_tile, mask=in_k[:, None], other=0.0)
        acc = tl.dot(a, b, acc)
        a_tile += BLOCK_K
        b_tile += BLOCK_K * stride_bk
    c_tile = c_ptr + rows[:, None] * stride_cm + cols[None, :]
    tl.store(c_tile, acc.to(c_ptr.dtype.element_ty), mask=(rows[:, None] < M) & (cols[None, :] < N))


@triton.jit
def _tma_tile_product(a_desc, b_desc, off_m, off_n, k_steps, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                      BLOCK_K: tl.constexpr):
    """A[off_m:, :] @ B[off_n:, :].T for one output tile; A is [M, K] and B is [N, K] (K-major)."""
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for kk in range(k_steps):
        a = a_desc.load([off_m, kk * BLOCK_K])
        b = b_desc.load([off_n, kk * BLOCK_K])
        acc = tl.dot(a, b.T, acc)
    return acc


@triton.jit
def _persistent_tma_matmul(a_desc, b_desc, c_desc, M, N, K, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                           BLOCK_K: tl.constexpr, GROUP_M: tl.constexpr, NUM_SMS: tl.constexpr,
                           WARP_SPECIALIZE: tl.constexpr):
    """Grid-stride loop over output tiles, flattened with the K loop, with a TMA store epilogue."""
    tiles_m = tl.cdiv(M, BLOCK_M)
    tiles_n = tl.cdiv(N, BLOCK_N)
    for tile in tl.range(tl.program_id(0), tiles_m * tiles_n, NUM_SMS, flatten=True,
                         warp_specialize=WARP_SPECIALIZE):
        pid_m, pid_n = _swizzled_tile(tile, tiles_m, tiles_n, GROUP_M)
        acc = _tma_tile_product(a_desc, b_desc, pid_m * BLOCK_M, pid_n * BLOCK_N, tl.cdiv(K, BLOCK_K), BLOCK_M,
                                BLOCK_N, BLOCK_K)
        c_desc.store([pid_m * BLOCK_M, pid_n * BLOCK_N], acc.to(c_desc.dtype))


@triton.jit
def matmul_tma_persistent(a_desc, b_desc, c_desc, M, N, K,  #
                          BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
                          GROUP_M: tl.constexpr, NUM_SMS: tl.constexpr):
    """Persistent TMA matmul with host-side tensor descriptors."""
    _persistent_tma_matmul(a_desc, b_desc, c_desc, M, N, K, BLOCK_M, BLOCK_N, BLOCK_K, GROUP_M, NUM_SMS, False)


@triton.jit
def matmul_tma_persistent_ws(a_desc, b_desc, c_desc, M, N, K,  #
                             BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
                             GROUP_M: tl.constexpr, NUM_SMS: tl.constexpr):
    """The persistent TMA matmul with the (flattened) tile loop warp specialized."""
    _persistent_tma_matmul(a_desc, b_desc, c_desc, M, N, K, BLOCK_M, BLOCK_N, BLOCK_K, GROUP_M, NUM_SMS, True)


@triton.jit
def matmul_tma_persistent_ws_hopper(a_desc, b_desc, c_ptr, M, N, K, stride_cm,  #
                                    BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
                                    GROUP_M: tl.constexpr, NUM_SMS: tl.constexpr):
    """Warp-specialized persistent matmul in the form Hopper's warp specializer accepts:
    tile loop not flattened, pointer-store epilogue, num_warps=4."""
    tiles_m = tl.cdiv(M, BLOCK_M)
    tiles_n = tl.cdiv(N, BLOCK_N)
    for tile in tl.range(tl.program_id(0), tiles_m * tiles_n, NUM_SMS, warp_specialize=True):
        pid_m, pid_n = _swizzled_tile(tile, tiles_m, tiles_n, GROUP_M)
        acc = _tma_tile_product(a_desc, b_desc, pid_m * BLOCK_M, pid_n * BLOCK_N, tl.cdiv(K, BLOCK_K), BLOCK_M,
                                BLOCK_N, BLOCK_K)
        rows = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
        cols = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
        tl.store(c_ptr + rows[:, None] * stride_cm + cols[None, :], acc.to(c_ptr.dtype.element_ty),
                 mask=(rows[:, None] < M) & (cols[None, :] < N))


@triton.jit
def matmul_tma_2cta(a_desc, b_desc, c_desc, K,  #
                    BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    """Plain TMA matmul compiled with num_ctas=2 (CTA-split layouts); B is [K, N] (N-major)."""
    off_m = tl.program_id(0) * BLOCK_M
    off_n = tl.program_id(1) * BLOCK_N
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k0 in range(0, K, BLOCK_K):
        acc = tl.dot(a_desc.load([off_m, k0]), b_desc.load([k0, off_n]), acc)
    c_desc.store([off_m, off_n], acc.to(c_desc.dtype))


@triton.jit
def matmul_fp8(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_bn, stride_cm,  #
               BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, GROUP_M: tl.constexpr):
    """e4m3 x e4m3 -> fp16 through block pointers; B is stored [N, K] (K contiguous)."""
    pid_m, pid_n = _swizzled_tile(tl.program_id(0), tl.cdiv(M, BLOCK_M), tl.cdiv(N, BLOCK_N), GROUP_M)
    a_blk = tl.make_block_ptr(a_ptr, shape=(M, K), strides=(stride_am, 1), offsets=(pid_m * BLOCK_M, 0),
                              block_shape=(BLOCK_M, BLOCK_K), order=(1, 0))
    b_blk = tl.make_block_ptr(b_ptr, shape=(K, N), strides=(1, stride_bn), offsets=(0, pid_n * BLOCK_N),
                              block_shape=(BLOCK_K, BLOCK_N), order=(0, 1))
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for _ in range(0, tl.cdiv(K, BLOCK_K)):
        a = tl.load(a_blk, boundary_check=(0, 1), padding_option="zero")
        b = tl.load(b_blk, boundary_check=(0, 1), padding_option="zero")
        acc = tl.dot(a, b, acc)
        a_blk = tl.advance(a_blk, (0, BLOCK_K))
        b_blk = tl.advance(b_blk, (BLOCK_K, 0))
    c_blk = tl.make_block_ptr(c_ptr, shape=(M, N), strides=(stride_cm, 1), offsets=(pid_m * BLOCK_M, pid_n * BLOCK_N),
                              block_shape=(BLOCK_M, BLOCK_N), order=(1, 0))
    tl.store(c_blk, acc.to(tl.float16), boundary_check=(0, 1))


@triton.jit
def _block_scaled_matmul(a_desc, a_scale_desc, b_desc, b_scale_desc, c_desc, K, FORMAT: tl.constexpr,
                         ELEMS_PER_BYTE: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                         BLOCK_K: tl.constexpr, NUM_STAGES: tl.constexpr):
    """One [BLOCK_M, BLOCK_N] tile of an MX matmul: 32-element groups share one e8m0 scale."""
    SCALES_K: tl.constexpr = BLOCK_K // 32
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for kk in tl.range(0, tl.cdiv(K, BLOCK_K), num_stages=NUM_STAGES):
        a = a_desc.load([pid_m * BLOCK_M, kk * (BLOCK_K // ELEMS_PER_BYTE)])
        b = b_desc.load([pid_n * BLOCK_N, kk * (BLOCK_K // ELEMS_PER_BYTE)])
        a_scale = a_scale_desc.load([0, pid_m * (BLOCK_M // 128), kk * (SCALES_K // 4), 0, 0])
        b_scale = b_scale_desc.load([0, pid_n * (BLOCK_N // 128), kk * (SCALES_K // 4), 0, 0])
        a_scale = _unpack_scales(a_scale, BLOCK_M, SCALES_K)
        b_scale = _unpack_scales(b_scale, BLOCK_N, SCALES_K)
        acc = tl.dot_scaled(a, a_scale, FORMAT, b.T, b_scale, FORMAT, acc)
    c_desc.store([pid_m * BLOCK_M, pid_n * BLOCK_N], acc.to(c_desc.dtype))


@triton.jit
def matmul_mxfp8(a_desc, a_scale_desc, b_desc, b_scale_desc, c_desc, K,  #
                 BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, NUM_STAGES: tl.constexpr):
    """MXFP8 (e4m3 values, e8m0 scales) block-scaled matmul."""
    _block_scaled_matmul(a_desc, a_scale_desc, b_desc, b_scale_desc, c_desc, K, "e4m3", 1, BLOCK_M, BLOCK_N, BLOCK_K,
                         NUM_STAGES)


@triton.jit
def matmul_mxfp4(a_desc, a_scale_desc, b_desc, b_scale_desc, c_desc, K,  #
                 BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, NUM_STAGES: tl.constexpr):
    """MXFP4 (e2m1 values packed two per byte along K, e8m0 scales) block-scaled matmul."""
    _block_scaled_matmul(a_desc, a_scale_desc, b_desc, b_scale_desc, c_desc, K, "e2m1", 2, BLOCK_M, BLOCK_N, BLOCK_K,
                         NUM_STAGES)


@triton.jit
def matmul_splitk_atomic(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_bk, stride_cm,  #
                         BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, SPLIT_K: tl.constexpr):
    """Split-K matmul: program (tile, split) adds its partial product into fp32 C atomically."""
    tiles_n = tl.cdiv(N, BLOCK_N)
    pid_m = tl.program_id(0) // tiles_n
    pid_n = tl.program_id(0) % tiles_n
    k_chunk = tl.cdiv(K, SPLIT_K * BLOCK_K) * BLOCK_K
    k_begin = tl.program_id(1) * k_chunk
    k_end = tl.minimum(k_begin + k_chunk, K)
    rows = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k0 in range(k_begin, k_end, BLOCK_K):
        ks = k0 + tl.arange(0, BLOCK_K)
        a = tl.load(a_ptr + rows[:, None] * stride_am + ks[None, :], mask=(rows[:, None] < M) & (ks[None, :] < k_end),
                    other=0.0)
        b = tl.load(b_ptr + ks[:, None] * stride_bk + cols[None, :], mask=(ks[:, None] < k_end) & (cols[None, :] < N),
                    other=0.0)
        acc = tl.dot(a, b, acc)
    c_tile = c_ptr + rows[:, None] * stride_cm + cols[None, :]
    tl.atomic_add(c_tile, acc, mask=(rows[:, None] < M) & (cols[None, :] < N), sem="relaxed")


@triton.jit
def batched_matmul_desc3d(a_ptr, b_ptr, c_ptr, B, M, N, K,  #
                          BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    """Batched C[b] = A[b] @ B[b] through device-side 3-D tensor descriptors."""
    a_desc = tl.make_tensor_descriptor(a_ptr, shape=[B, M, K], strides=[M * K, K, 1], block_shape=[1, BLOCK_M, BLOCK_K])
    b_desc = tl.make_tensor_descriptor(b_ptr, shape=[B, K, N], strides=[K * N, N, 1], block_shape=[1, BLOCK_K, BLOCK_N])
    c_desc = tl.make_tensor_descriptor(c_ptr, shape=[B, M, N], strides=[M * N, N, 1], block_shape=[1, BLOCK_M, BLOCK_N])
    batch = tl.program_id(2)
    off_m = tl.program_id(0) * BLOCK_M
    off_n = tl.program_id(1) * BLOCK_N
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k0 in range(0, K, BLOCK_K):
        a = a_desc.load([batch, off_m, k0]).reshape(BLOCK_M, BLOCK_K)
        b = b_desc.load([batch, k0, off_n]).reshape(BLOCK_K, BLOCK_N)
        acc = tl.dot(a, b, acc)
    c_desc.store([batch, off_m, off_n], acc.to(tl.bfloat16).reshape(1, BLOCK_M, BLOCK_N))


@triton.jit
def matmul_tf32x3(a_ptr, b_ptr, c_ptr, stride_am, stride_bk, stride_cm,  #
                  BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, K: tl.constexpr):
    """fp32 matmul with 3xTF32 emulated precision (rewritten by ``tritongpu-F32DotTC``)."""
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    ks = tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k0 in tl.static_range(0, K, BLOCK_K):
        a = tl.load(a_ptr + rows[:, None] * stride_am + (k0 + ks)[None, :])
        b = tl.load(b_ptr + (k0 + ks)[:, None] * stride_bk + cols[None, :])
        acc = tl.dot(a, b, acc, input_precision="tf32x3")
    tl.store(c_ptr + rows[:, None] * stride_cm + cols[None, :], acc)


# --------------------------------------------------------------------------
# Attention and normalisation.
# --------------------------------------------------------------------------


@triton.jit
def attention_scores_bias(q_ptr, k_ptr, bias_ptr, out_ptr, n_keys, stride_q, stride_k, stride_bias,  #
                          BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, HEAD_DIM: tl.constexpr):
    """Each program's BLOCK_M query rows against every key block (a loop marked with its
    stages, so that loads feeding no dot are pipelined too): scores q k^T plus a bias tile
    loaded for each block and added in the MMA's registers; the rows' running maxima are
    stored."""
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    dims = tl.arange(0, HEAD_DIM)
    q = tl.load(q_ptr + rows[:, None] * stride_q + dims[None, :])
    row_max = tl.full([BLOCK_M], float("-inf"), tl.float32)
    for start in tl.range(0, n_keys, BLOCK_N, num_stages=3):
        keys = start + tl.arange(0, BLOCK_N)
        k = tl.load(k_ptr + keys[:, None] * stride_k + dims[None, :])
        bias = tl.load(bias_ptr + rows[:, None] * stride_bias + keys[None, :])
        scores = tl.dot(q, tl.trans(k)) + bias.to(tl.float32)
        row_max = tl.maximum(row_max, tl.max(scores, 1))
    tl.store(out_ptr + rows, row_max)


@triton.jit
def flash_attention_fwd(q_ptr, k_ptr, v_ptr, o_ptr, lse_ptr, sm_scale, seq_len, stride_h, stride_s,  #
                        HEAD_DIM: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, CAUSAL: tl.constexpr):
    """Online-softmax attention forward for one (query block, batch*head); writes O and log2-sum-exp."""
    start_m = tl.program_id(0)
    head = tl.program_id(1).to(tl.int64)
    q_rows = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    dims = tl.arange(0, HEAD_DIM)
    kv_cols = tl.arange(0, BLOCK_N)
    base = head * stride_h
    q = tl.load(q_ptr + base + q_rows[:, None] * stride_s + dims[None, :], mask=q_rows[:, None] < seq_len, other=0.0)
    row_max = tl.full((BLOCK_M, ), float("-inf"), dtype=tl.float32)
    row_sum = tl.zeros((BLOCK_M, ), dtype=tl.float32)
    acc = tl.zeros((BLOCK_M, HEAD_DIM), dtype=tl.float32)
    qk_scale = sm_scale * 1.4426950408889634
    if CAUSAL:
        kv_end = tl.minimum((start_m + 1) * BLOCK_M, seq_len)
    else:
        kv_end = seq_len
    for start_n in tl.range(0, kv_end, BLOCK_N):
        cols = start_n + kv_cols
        k_t = tl.load(k_ptr + base + cols[None, :] * stride_s + dims[:, None], mask=cols[None, :] < seq_len, other=0.0)
        qk = tl.dot(q, k_t) * qk_scale
        keep = cols[None, :] < seq_len
        if CAUSAL:
            keep = keep & (q_rows[:, None] >= cols[None, :])
        qk = tl.where(keep, qk, float("-inf"))
        new_max = tl.maximum(row_max, tl.max(qk, 1))
        p = tl.math.exp2(qk - new_max[:, None])
        alpha = tl.math.exp2(row_max - new_max)
        row_sum = row_sum * alpha + tl.sum(p, 1)
        v = tl.load(v_ptr + base + cols[:, None] * stride_s + dims[None, :], mask=cols[:, None] < seq_len, other=0.0)
        acc = tl.dot(p.to(v.dtype), v, acc * alpha[:, None])
        row_max = new_max
    acc = acc / row_sum[:, None]
    tl.store(lse_ptr + head * seq_len + q_rows, row_max + tl.math.log2(row_sum), mask=q_rows < seq_len)
    tl.store(o_ptr + base + q_rows[:, None] * stride_s + dims[None, :], acc.to(o_ptr.dtype.element_ty),
             mask=q_rows[:, None] < seq_len)


@triton.jit
def layernorm_looped(x_ptr, y_ptr, w_ptr, b_ptr, mean_ptr, rstd_ptr, stride, n_cols, eps,  #
                     BLOCK: tl.constexpr):
    """LayerNorm of one row, streamed in BLOCK chunks: pass 1 gathers mean/variance, pass 2 normalises."""
    row = tl.program_id(0)
    x_row = x_ptr + row * stride
    y_row = y_ptr + row * stride
    total = tl.zeros((BLOCK, ), dtype=tl.float32)
    total_sq = tl.zeros((BLOCK, ), dtype=tl.float32)
    for off in range(0, n_cols, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        x = tl.load(x_row + cols, mask=cols < n_cols, other=0.0).to(tl.float32)
        total += x
        total_sq += x * x
    mean = tl.sum(total, axis=0) / n_cols
    rstd = tl.rsqrt(tl.sum(total_sq, axis=0) / n_cols - mean * mean + eps)
    tl.store(mean_ptr + row, mean)
    tl.store(rstd_ptr + row, rstd)
    for off in range(0, n_cols, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        inside = cols < n_cols
        x = tl.load(x_row + cols, mask=inside, other=0.0, eviction_policy="evict_first").to(tl.float32)
        w = tl.load(w_ptr + cols, mask=inside)
        b = tl.load(b_ptr + cols, mask=inside)
        tl.store(y_row + cols, ((x - mean) * rstd * w + b).to(y_ptr.dtype.element_ty), mask=inside)


@triton.jit
def softmax(out_ptr, in_ptr, in_stride, out_stride, n_rows, n_cols, BLOCK: tl.constexpr):
    """Row softmax; programs stride over rows so the row loads are software pipelined."""
    cols = tl.arange(0, BLOCK)
    for row in tl.range(tl.program_id(0), n_rows, tl.num_programs(0), num_stages=2):
        x = tl.load(in_ptr + row * in_stride + cols, mask=cols < n_cols, other=float("-inf")).to(tl.float32)
        shifted = x - tl.max(x, axis=0)
        num = tl.exp(shifted)
        tl.store(out_ptr + row * out_stride + cols, (num / tl.sum(num, axis=0)).to(out_ptr.dtype.element_ty),
                 mask=cols < n_cols)


# --------------------------------------------------------------------------
# Elementwise, reductions, scans and miscellaneous ops.
# --------------------------------------------------------------------------


@triton.jit
def pointwise(x_ptr, y_ptr, out_ptr, scale, n, BLOCK: tl.constexpr):
    """out = gelu_tanh((x + y) * scale) on 1-D blocks (tanh from libdevice)."""
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    inside = offs < n
    x = tl.load(x_ptr + offs, mask=inside).to(tl.float32)
    y = tl.load(y_ptr + offs, mask=inside).to(tl.float32)
    h = (x + y) * scale
    inner = 0.7978845608028654 * (h + 0.044715 * h * h * h)
    tl.store(out_ptr + offs, (0.5 * h * (1.0 + libdevice.tanh(inner))).to(out_ptr.dtype.element_ty), mask=inside)


@triton.jit
def _elu_scalar(x, alpha):
    """ELU of one element, with real control flow instead of a select."""
    if x > 0:
        return x
    else:
        return alpha * (tl.exp(x) - 1)


@triton.jit
def map_elementwise(x_ptr, y_ptr, alpha, n, BLOCK: tl.constexpr):
    """Per-element control flow with ``tl.map_elementwise``, plus ``tl.assume`` and IEEE-rounded sqrt/div."""
    tl.assume(alpha > 0)
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=1.0)
    y = tl.map_elementwise(_elu_scalar, x, alpha)
    tl.store(y_ptr + offs, tl.sqrt_rn(tl.abs(y)) + tl.div_rn(y, x), mask=offs < n)


@triton.jit
def _argmax_step(value_a, index_a, value_b, index_b):
    """Combine function of a (value, index) argmax; ties keep the smaller index."""
    take_b = (value_b > value_a) | ((value_b == value_a) & (index_b < index_a))
    return tl.where(take_b, value_b, value_a), tl.where(take_b, index_b, index_a)


@triton.jit
def row_argmax(x_ptr, max_ptr, idx_ptr, n_rows, n_cols, BLOCK_R: tl.constexpr, BLOCK_C: tl.constexpr):
    """Row-wise (max, argmax) via a two-operand ``tl.reduce`` with a custom combine function."""
    rows = tl.program_id(0) * BLOCK_R + tl.arange(0, BLOCK_R)
    cols = tl.arange(0, BLOCK_C)
    inside = (rows[:, None] < n_rows) & (cols[None, :] < n_cols)
    x = tl.load(x_ptr + rows[:, None] * n_cols + cols[None, :], mask=inside, other=float("-inf"))
    index = tl.broadcast_to(cols[None, :], (BLOCK_R, BLOCK_C))
    best, where = tl.reduce((x, index), axis=1, combine_fn=_argmax_step)
    tl.store(max_ptr + rows, best, mask=rows < n_rows)
    tl.store(idx_ptr + rows, where, mask=rows < n_rows)


@triton.jit
def _linear_recurrence_step(decay_a, value_a, decay_b, value_b):
    """Compose h -> decay*h + value maps (associative)."""
    return decay_a * decay_b, value_a * decay_b + value_b


@triton.jit
def scan_ops(decay_ptr, x_ptr, h_ptr, csum_ptr, n, BLOCK: tl.constexpr):
    """Linear recurrence h[t] = decay[t]*h[t-1] + x[t] via ``tl.associative_scan``, plus a reverse cumsum."""
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    inside = offs < n
    decay = tl.load(decay_ptr + offs, mask=inside, other=1.0)
    x = tl.load(x_ptr + offs, mask=inside, other=0.0)
    _, h = tl.associative_scan((decay, x), axis=0, combine_fn=_linear_recurrence_step)
    tl.store(h_ptr + offs, h, mask=inside)
    tl.store(csum_ptr + offs, tl.cumsum(tl.where(x > 0, 1, 0), axis=0, reverse=True), mask=inside)


@triton.jit
def inline_asm(x_ptr, y_ptr, out_ptr, bits_ptr, n, BLOCK: tl.constexpr):
    """Elementwise inline PTX: packed f16x2 multiply-add and a 32-bit funnel shift."""
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    y = tl.load(y_ptr + offs)
    fma = tl.inline_asm_elementwise("fma.rn.f16x2 $0, $1, $2, $1;", "=r,r,r", [x, y], dtype=tl.float16, is_pure=True,
                                    pack=2)
    tl.store(out_ptr + offs, fma, mask=offs < n)
    bits = tl.load(bits_ptr + offs).to(tl.uint32, bitcast=True)
    rotated = tl.inline_asm_elementwise("shf.l.wrap.b32 $0, $1, $1, 7;", "=r,r", [bits], dtype=tl.uint32,
                                        is_pure=True, pack=1)
    tl.store(bits_ptr + offs, rotated.to(tl.int32, bitcast=True), mask=offs < n)


@triton.jit
def tensor_ops(x_ptr, idx_ptr, out_ptr, hist_ptr, seed, n, BLOCK: tl.constexpr, BINS: tl.constexpr):
    """A grab bag of tensor ops: gather, sort, join/split, cat, permute, histogram, rand, clamp, fma, umulhi."""
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    offs = tl.max_contiguous(tl.multiple_of(offs, BLOCK), BLOCK)
    x = tl.load(x_ptr + offs)
    idx = tl.load(idx_ptr + offs)
    picked = tl.gather(x, idx % BLOCK, axis=0)
    lo, hi = tl.split(tl.join(x, picked).permute(1, 0).permute(1, 0))
    mixed = tl.fma(lo, hi, tl.clamp(tl.sort(x, descending=True), -1.0, 1.0))
    noise = tl.rand(seed, offs)
    hashed = tl.umulhi(idx.to(tl.uint32, bitcast=True), 2654435761)
    both = tl.cat(mixed, noise, can_reorder=True)
    tl.store(out_ptr + offs, mixed + noise + tl.flip(x, 0) + tl.sum(both, 0) + (hashed >> 16).to(tl.float32))
    tl.atomic_add(hist_ptr + tl.arange(0, BINS), tl.histogram(idx % BINS, BINS), sem="relaxed")


@triton.jit
def tma_gather_scatter(src_desc, dst_desc, sum_desc, row_idx_ptr, BLOCK_R: tl.constexpr, BLOCK_C: tl.constexpr):
    """Row gather and scatter through TMA (gather4/scatter4) and a TMA reduce-add."""
    rows = tl.load(row_idx_ptr + tl.program_id(0) * BLOCK_R + tl.arange(0, BLOCK_R))
    col = tl.program_id(1) * BLOCK_C
    tile = src_desc.gather(rows, col)
    dst_desc.scatter(tile * 2, rows, col)
    sum_desc.atomic_add([tl.program_id(0) * BLOCK_R, col], tile.to(tl.float32))


@triton.jit
def sync_debug_ops(lock_ptr, counter_ptr, value_ptr, n, BLOCK: tl.constexpr):
    """Spin lock with ``atomic_cas``/``atomic_xchg`` (an scf.while loop), device assert/print and barriers."""
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    tl.device_assert(n > 0, "n must be positive")
    value = tl.load(value_ptr + offs, mask=offs < n, other=0)
    while tl.atomic_cas(lock_ptr, 0, 1, sem="acquire") == 1:
        pass
    total = tl.load(counter_ptr, volatile=True) + tl.sum(value, 0)
    tl.store(counter_ptr, total)
    tl.debug_barrier()
    tl.atomic_xchg(lock_ptr, 0, sem="release")
    tl.atomic_max(value_ptr + offs, value * 2, mask=offs < n)
    if pid == 0:
        tl.device_print("total", total)


# --------------------------------------------------------------------------
# Registry.
# --------------------------------------------------------------------------

_MMA_OPTS = {"num_warps": 4, "num_stages": 4}
_PTR_MATMUL_SIG = {
    "a_ptr": "*bf16", "b_ptr": "*bf16", "c_ptr": "*bf16", "M": "i32", "N": "i32", "K": "i32", "stride_am": "i32",
    "stride_bk": "i32", "stride_cm": "i32"
}
_PTR_MATMUL_ALIGNED = ("a_ptr", "b_ptr", "c_ptr", "M", "N", "K", "stride_am", "stride_bk", "stride_cm")
_PERSISTENT_SIG = {
    "a_desc": "tensordesc<fp16[128,64]>", "b_desc": "tensordesc<fp16[128,64]>", "c_desc": "tensordesc<fp16[128,128]>",
    "M": "i32", "N": "i32", "K": "i32"
}
_PERSISTENT_CONSTS = {"BLOCK_M": 128, "BLOCK_N": 128, "BLOCK_K": 64, "GROUP_M": 8, "NUM_SMS": 132}


def _block_scaled(fn, value_type, elems_per_byte, block_k):
    """Registry entry of an MX matmul: 128x256 output tiles, scales as 5-D u8 tiles [1, rep_mn, rep_k, 2, 256]."""
    k_bytes = block_k // elems_per_byte
    rep_k = block_k // 32 // 4
    signature = {
        "a_desc": f"tensordesc<{value_type}[128,{k_bytes}]>",
        "a_scale_desc": f"tensordesc<u8[1,1,{rep_k},2,256]>",
        "b_desc": f"tensordesc<{value_type}[256,{k_bytes}]>",
        "b_scale_desc": f"tensordesc<u8[1,2,{rep_k},2,256]>",
        "c_desc": "tensordesc<bf16[128,256]>",
        "K": "i32",
    }
    constexprs = {"BLOCK_M": 128, "BLOCK_N": 256, "BLOCK_K": block_k, "NUM_STAGES": 3}
    return KernelSpec(fn, signature, constexprs, {"num_warps": 4, "num_stages": 3},
                      note="On sm_100a the scales go shared -> tensor memory (ttng.tmem_copy) for "
                      "tc_gen5_mma_scaled; on sm_90a tt.dot_scaled is decomposed into upcasts and a warp_group_dot.")


KERNELS = {
    "matmul_ptr":
    KernelSpec(matmul_ptr, _PTR_MATMUL_SIG, {"BLOCK_M": 128, "BLOCK_N": 128, "BLOCK_K": 64, "GROUP_M": 8}, _MMA_OPTS,
               _PTR_MATMUL_ALIGNED),
    "matmul_tma_persistent":
    KernelSpec(matmul_tma_persistent, _PERSISTENT_SIG, _PERSISTENT_CONSTS, {"num_warps": 4, "num_stages": 3}),
    "matmul_tma_persistent_ws":
    KernelSpec(matmul_tma_persistent_ws, _PERSISTENT_SIG, _PERSISTENT_CONSTS, {"num_warps": 4, "num_stages": 3},
               note="On sm_90a nvgpu-warp-specialization leaves the flattened loop alone (it skips functions with "
               "scf.if else blocks), so only the tt.warp_specialize attribute differs from matmul_tma_persistent; "
               "see matmul_tma_persistent_ws_hopper. Unflattened, Triton 3.6 fails on both targets here."),
    "matmul_tma_persistent_ws_hopper":
    KernelSpec(
        matmul_tma_persistent_ws_hopper, {
            "a_desc": "tensordesc<fp16[128,64]>", "b_desc": "tensordesc<fp16[128,64]>", "c_ptr": "*fp16", "M": "i32",
            "N": "i32", "K": "i32", "stride_cm": "i32"
        }, _PERSISTENT_CONSTS, {"num_warps": 4, "num_stages": 3}, ("c_ptr", "M", "N", "K", "stride_cm"),
        targets=("sm90a", ),
        note="Hopper-only warp specialization (nvgpu-warp-specialization). On sm_100a the automatic warp "
        "specializer rejects the unflattened tile loop (nvws-insert-aref fails)."),
    "matmul_ptr_2cta":
    KernelSpec(matmul_ptr, _PTR_MATMUL_SIG, {"BLOCK_M": 128, "BLOCK_N": 256, "BLOCK_K": 64, "GROUP_M": 8},
               {"num_warps": 8, "num_stages": 3, "num_ctas": 2}, _PTR_MATMUL_ALIGNED,
               note="matmul_ptr at num_ctas=2: the loads' register and shared layouts are split over the "
               "CTAs (A broadcast, B split along N), and cp.async takes them only where the copy's "
               "vector width is read through the CTA split."),
    "matmul_tma_2cta":
    KernelSpec(
        matmul_tma_2cta, {
            "a_desc": "tensordesc<fp16[128,64]>", "b_desc": "tensordesc<fp16[64,128]>",
            "c_desc": "tensordesc<fp16[128,128]>", "K": "i32"
        }, {"BLOCK_M": 128, "BLOCK_N": 128, "BLOCK_K": 64}, {"num_warps": 4, "num_stages": 3, "num_ctas": 2}),
    "matmul_fp8":
    KernelSpec(
        matmul_fp8, {
            "a_ptr": "*fp8e4nv", "b_ptr": "*fp8e4nv", "c_ptr": "*fp16", "M": "i32", "N": "i32", "K": "i32",
            "stride_am": "i32", "stride_bn": "i32", "stride_cm": "i32"
        }, {"BLOCK_M": 128, "BLOCK_N": 128, "BLOCK_K": 128, "GROUP_M": 8}, {"num_warps": 8, "num_stages": 3},
        ("a_ptr", "b_ptr", "c_ptr", "M", "N", "K", "stride_am", "stride_bn", "stride_cm")),
    "matmul_mxfp8": _block_scaled(matmul_mxfp8, "fp8e4nv", 1, 128),
    "matmul_mxfp4": _block_scaled(matmul_mxfp4, "u8", 2, 256),
    "matmul_splitk_atomic":
    KernelSpec(
        matmul_splitk_atomic, {
            "a_ptr": "*fp16", "b_ptr": "*fp16", "c_ptr": "*fp32", "M": "i32", "N": "i32", "K": "i32",
            "stride_am": "i32", "stride_bk": "i32", "stride_cm": "i32"
        }, {"BLOCK_M": 128, "BLOCK_N": 128, "BLOCK_K": 64, "SPLIT_K": 4}, _MMA_OPTS, _PTR_MATMUL_ALIGNED),
    "batched_matmul_desc3d":
    KernelSpec(batched_matmul_desc3d, {
        "a_ptr": "*bf16", "b_ptr": "*bf16", "c_ptr": "*bf16", "B": "i32", "M": "i32", "N": "i32", "K": "i32"
    }, {"BLOCK_M": 128, "BLOCK_N": 128, "BLOCK_K": 64}, _MMA_OPTS, ("a_ptr", "b_ptr", "c_ptr", "M", "N", "K")),
    "matmul_tf32x3":
    KernelSpec(matmul_tf32x3, {
        "a_ptr": "*fp32", "b_ptr": "*fp32", "c_ptr": "*fp32", "stride_am": "i32", "stride_bk": "i32",
        "stride_cm": "i32"
    }, {"BLOCK_M": 64, "BLOCK_N": 64, "BLOCK_K": 32, "K": 128}, {"num_warps": 4, "num_stages": 2},
               ("a_ptr", "b_ptr", "c_ptr", "stride_am", "stride_bk", "stride_cm")),
    "attention_scores_bias":
    KernelSpec(
        attention_scores_bias, {
            "q_ptr": "*fp16", "k_ptr": "*fp16", "bias_ptr": "*fp16", "out_ptr": "*fp32", "n_keys": "i32",
            "stride_q": "i32", "stride_k": "i32", "stride_bias": "i32"
        }, {"BLOCK_M": 128, "BLOCK_N": 64, "HEAD_DIM": 64}, {"num_warps": 4, "num_stages": 3},
        ("q_ptr", "k_ptr", "bias_ptr", "out_ptr", "n_keys", "stride_q", "stride_k", "stride_bias"), targets=("sm90a", ),
        note="The pipelined bias tile is read in the wgmma accumulator's layout, whose registers hold MMA operand "
        "microtiles, so the pipeliner swizzles its buffer as for an operand (swizzleDotOperandLike)."),
    "flash_attention_fwd":
    KernelSpec(
        flash_attention_fwd, {
            "q_ptr": "*fp16", "k_ptr": "*fp16", "v_ptr": "*fp16", "o_ptr": "*fp16", "lse_ptr": "*fp32",
            "sm_scale": "fp32", "seq_len": "i32", "stride_h": "i32", "stride_s": "i32"
        }, {"HEAD_DIM": 64, "BLOCK_M": 128, "BLOCK_N": 64, "CAUSAL": True}, {"num_warps": 4, "num_stages": 3},
        ("q_ptr", "k_ptr", "v_ptr", "o_ptr", "lse_ptr", "seq_len", "stride_h", "stride_s")),
    "layernorm_looped":
    KernelSpec(
        layernorm_looped, {
            "x_ptr": "*fp16", "y_ptr": "*fp16", "w_ptr": "*fp32", "b_ptr": "*fp32", "mean_ptr": "*fp32",
            "rstd_ptr": "*fp32", "stride": "i32", "n_cols": "i32", "eps": "fp32"
        }, {"BLOCK": 1024}, {"num_warps": 8, "num_stages": 3}, ("x_ptr", "y_ptr", "w_ptr", "b_ptr", "stride")),
    "softmax":
    KernelSpec(softmax, {
        "out_ptr": "*fp16", "in_ptr": "*fp16", "in_stride": "i32", "out_stride": "i32", "n_rows": "i32",
        "n_cols": "i32"
    }, {"BLOCK": 2048}, {"num_warps": 8, "num_stages": 2}, ("out_ptr", "in_ptr", "in_stride", "out_stride")),
    "pointwise":
    KernelSpec(pointwise, {
        "x_ptr": "*bf16", "y_ptr": "*bf16", "out_ptr": "*bf16", "scale": "fp32", "n": "i32"
    }, {"BLOCK": 1024}, {"num_warps": 4}, ("x_ptr", "y_ptr", "out_ptr", "n")),
    "row_argmax":
    KernelSpec(row_argmax, {
        "x_ptr": "*fp32", "max_ptr": "*fp32", "idx_ptr": "*i32", "n_rows": "i32", "n_cols": "i32"
    }, {"BLOCK_R": 16, "BLOCK_C": 256}, {"num_warps": 4}, ("x_ptr", "max_ptr", "idx_ptr")),
    "scan_ops":
    KernelSpec(scan_ops, {
        "decay_ptr": "*fp32", "x_ptr": "*fp32", "h_ptr": "*fp32", "csum_ptr": "*i32", "n": "i32"
    }, {"BLOCK": 1024}, {"num_warps": 4}, ("decay_ptr", "x_ptr", "h_ptr", "csum_ptr")),
    "inline_asm":
    KernelSpec(inline_asm, {
        "x_ptr": "*fp16", "y_ptr": "*fp16", "out_ptr": "*fp16", "bits_ptr": "*i32", "n": "i32"
    }, {"BLOCK": 1024}, {"num_warps": 4}, ("x_ptr", "y_ptr", "out_ptr", "bits_ptr")),
    "tensor_ops":
    KernelSpec(tensor_ops, {
        "x_ptr": "*fp32", "idx_ptr": "*i32", "out_ptr": "*fp32", "hist_ptr": "*i32", "seed": "i32", "n": "i32"
    }, {"BLOCK": 256, "BINS": 64}, {"num_warps": 4}, ("x_ptr", "idx_ptr", "out_ptr", "hist_ptr")),
    "map_elementwise":
    KernelSpec(map_elementwise, {"x_ptr": "*fp32", "y_ptr": "*fp32", "alpha": "fp32", "n": "i32"}, {"BLOCK": 512},
               {"num_warps": 4}, ("x_ptr", "y_ptr")),
    "tma_gather_scatter":
    KernelSpec(
        tma_gather_scatter, {
            "src_desc": "tensordesc<bf16[1,64]>", "dst_desc": "tensordesc<bf16[1,64]>",
            "sum_desc": "tensordesc<fp32[32,64]>", "row_idx_ptr": "*i32"
        }, {"BLOCK_R": 32, "BLOCK_C": 64}, {"num_warps": 4}, ("row_idx_ptr", ), targets=("sm100a", ),
        note="sm_100a only: on sm_90a TTGIR is produced but ptxas rejects .tile::gather4/.tile::scatter4."),
    "sync_debug_ops":
    KernelSpec(sync_debug_ops, {
        "lock_ptr": "*i32", "counter_ptr": "*i32", "value_ptr": "*i32", "n": "i32"
    }, {"BLOCK": 128}, {"num_warps": 4, "debug": True}, ("value_ptr", )),
}
