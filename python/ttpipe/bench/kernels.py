"""The benchmark's Triton kernels: GEMMs on TMA descriptors, attention, row-wise norms and
softmax (one block per row, or a plain `for` loop over a long row's chunks, as users write
them: no `num_stages`), a grid-stride pointwise kernel and a row sum.

Matrix operands are K-major: C = A @ B.T with A [M, K] and B [N, K], which is what the
tensor cores (wgmma, tcgen05) read without a transpose for every element type, fp8 included.
"""

import triton
import triton.language as tl


@triton.jit
def _grouped_tile(tile, tiles_m, tiles_n, GROUP_M: tl.constexpr):
    """Tile index -> (row tile, column tile), walking GROUP_M row tiles per column sweep (L2 reuse);
    GROUP_M = 1: row by row, as kernels written without grouping number their tiles."""
    if GROUP_M == 1:
        return tile // tiles_n, tile % tiles_n
    per_group = GROUP_M * tiles_n
    first_m = (tile // per_group) * GROUP_M
    rows = tl.minimum(tiles_m - first_m, GROUP_M)
    return first_m + (tile % per_group) % rows, (tile % per_group) // rows


@triton.jit
def matmul_persistent(a_desc, b_desc, c_desc, M, N, K,  #
                      BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,  #
                      GROUP_M: tl.constexpr, NUM_SMS: tl.constexpr):
    """C = A @ B.T, one CTA per SM looping over output tiles (K loop flattened into the tile
    loop so that the pipeliner overlaps one tile's epilogue with the next tile's loads)."""
    tiles_m = tl.cdiv(M, BLOCK_M)
    tiles_n = tl.cdiv(N, BLOCK_N)
    k_tiles = tl.cdiv(K, BLOCK_K)
    for tile in tl.range(tl.program_id(0), tiles_m * tiles_n, NUM_SMS, flatten=True):
        pid_m, pid_n = _grouped_tile(tile, tiles_m, tiles_n, GROUP_M)
        off_m = pid_m * BLOCK_M
        off_n = pid_n * BLOCK_N
        acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
        for k in range(k_tiles):
            a = a_desc.load([off_m, k * BLOCK_K])
            b = b_desc.load([off_n, k * BLOCK_K])
            acc = tl.dot(a, b.T, acc)
        c_desc.store([off_m, off_n], acc.to(c_desc.dtype))


@triton.jit
def matmul_tma_ws(a_desc, b_desc, c_desc, M, N, K,  #
                  BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,  #
                  GROUP_M: tl.constexpr, WARP_SPECIALIZE: tl.constexpr):
    """C = A @ B.T, one program per output tile (grouped order), the K loop marked
    `warp_specialize=WARP_SPECIALIZE`: TMA descriptor loads feeding `tl.dot`, and a
    descriptor-store epilogue. The same source is compiled with the flag on and off."""
    pid_m, pid_n = _grouped_tile(tl.program_id(0), tl.cdiv(M, BLOCK_M), tl.cdiv(N, BLOCK_N), GROUP_M)
    off_m = pid_m * BLOCK_M
    off_n = pid_n * BLOCK_N
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in tl.range(0, tl.cdiv(K, BLOCK_K), warp_specialize=WARP_SPECIALIZE):
        a = a_desc.load([off_m, k * BLOCK_K])
        b = b_desc.load([off_n, k * BLOCK_K])
        acc = tl.dot(a, b.T, acc)
    c_desc.store([off_m, off_n], acc.to(c_desc.dtype))


@triton.jit
def matmul_b_row_major(a_desc, b_desc, c_desc, M, N, K,  #
                       BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, GROUP_M: tl.constexpr):
    """C = A @ B with B stored row-major as [K, N] (`torch.matmul`'s layout), one program per
    output tile (grouped order), TMA descriptor loads and store. On fp32 inputs `tl.dot` runs
    tf32 wgmmas, on fp8 inputs e4m3 ones, which read B K-major only: each K step copies B's tile
    through registers."""
    pid_m, pid_n = _grouped_tile(tl.program_id(0), tl.cdiv(M, BLOCK_M), tl.cdiv(N, BLOCK_N), GROUP_M)
    off_m = pid_m * BLOCK_M
    off_n = pid_n * BLOCK_N
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        acc = tl.dot(a_desc.load([off_m, k * BLOCK_K]), b_desc.load([k * BLOCK_K, off_n]), acc)
    c_desc.store([off_m, off_n], acc.to(c_desc.dtype))


@triton.jit
def matmul_tma_grid(a_desc, b_desc, c_desc, M, N, K,  #
                    BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,  #
                    WARP_SPECIALIZE: tl.constexpr):
    """`matmul_tma_ws` on a 2-D grid, `program_id(0)` the row of tiles and `program_id(1)` the
    column, as kernels written without a tile order launch it (the GPU starts x fastest)."""
    off_m = tl.program_id(0) * BLOCK_M
    off_n = tl.program_id(1) * BLOCK_N
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in tl.range(0, tl.cdiv(K, BLOCK_K), warp_specialize=WARP_SPECIALIZE):
        a = a_desc.load([off_m, k * BLOCK_K])
        b = b_desc.load([off_n, k * BLOCK_K])
        acc = tl.dot(a, b.T, acc)
    c_desc.store([off_m, off_n], acc.to(c_desc.dtype))


@triton.jit
def matmul_tma_ws_persistent(a_desc, b_desc, c_desc, M, N, K,  #
                             BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,  #
                             GROUP_M: tl.constexpr, NUM_SMS: tl.constexpr, WARP_SPECIALIZE: tl.constexpr,
                             FLATTEN: tl.constexpr):
    """`matmul_tma_ws` as a persistent kernel: a grid-stride loop over output tiles, marked
    `warp_specialize=WARP_SPECIALIZE` (Triton's convention: the tile loop carries the flag),
    around the K loop, with the descriptor-store epilogue between tiles. `FLATTEN` flattens
    the tile loop with the K loop (stock Triton's fast form without warp specialization)."""
    tiles_m = tl.cdiv(M, BLOCK_M)
    tiles_n = tl.cdiv(N, BLOCK_N)
    k_tiles = tl.cdiv(K, BLOCK_K)
    for tile in tl.range(tl.program_id(0), tiles_m * tiles_n, NUM_SMS, flatten=FLATTEN,
                         warp_specialize=WARP_SPECIALIZE):
        pid_m, pid_n = _grouped_tile(tile, tiles_m, tiles_n, GROUP_M)
        off_m = pid_m * BLOCK_M
        off_n = pid_n * BLOCK_N
        acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
        for k in tl.range(0, k_tiles):
            a = a_desc.load([off_m, k * BLOCK_K])
            b = b_desc.load([off_n, k * BLOCK_K])
            acc = tl.dot(a, b.T, acc)
        c_desc.store([off_m, off_n], acc.to(c_desc.dtype))


@triton.jit
def matmul_tutorial_persistent(a_desc, b_desc, c_desc, M, N, K,  #
                               BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,  #
                               GROUP_M: tl.constexpr, NUM_SMS: tl.constexpr, WARP_SPECIALIZE: tl.constexpr,
                               EPILOGUE_SUBTILE: tl.constexpr):
    """The persistent TMA matmul as Triton's tutorial 09 writes it: the tile loop marked
    `flatten=True, warp_specialize=WARP_SPECIALIZE`, the epilogue's tile found from a counter
    of its own (`tile_id_c`, carried by the tile loop), and with `EPILOGUE_SUBTILE` the
    accumulator stored in two halves of BLOCK_N / 2 columns (reshape, permute, split; C's
    descriptor block is the half)."""
    tiles_m = tl.cdiv(M, BLOCK_M)
    tiles_n = tl.cdiv(N, BLOCK_N)
    k_tiles = tl.cdiv(K, BLOCK_K)
    start = tl.program_id(0)
    tile_c = start - NUM_SMS
    for tile in tl.range(start, tiles_m * tiles_n, NUM_SMS, flatten=True, warp_specialize=WARP_SPECIALIZE):
        pid_m, pid_n = _grouped_tile(tile, tiles_m, tiles_n, GROUP_M)
        acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
        for k in range(k_tiles):
            a = a_desc.load([pid_m * BLOCK_M, k * BLOCK_K])
            b = b_desc.load([pid_n * BLOCK_N, k * BLOCK_K])
            acc = tl.dot(a, b.T, acc)
        tile_c += NUM_SMS
        pid_m, pid_n = _grouped_tile(tile_c, tiles_m, tiles_n, GROUP_M)
        off_m = pid_m * BLOCK_M
        off_n = pid_n * BLOCK_N
        if EPILOGUE_SUBTILE:
            halves = tl.permute(tl.reshape(acc, (BLOCK_M, 2, BLOCK_N // 2)), (0, 2, 1))
            left, right = tl.split(halves)
            c_desc.store([off_m, off_n], left.to(c_desc.dtype))
            c_desc.store([off_m, off_n + BLOCK_N // 2], right.to(c_desc.dtype))
        else:
            c_desc.store([off_m, off_n], acc.to(c_desc.dtype))


@triton.jit
def matmul_pointers_ws(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_bn, stride_cm,  #
                       stride_cn, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,  #
                       GROUP_M: tl.constexpr, WARP_SPECIALIZE: tl.constexpr):
    """C = A @ B with plain pointers, as Triton's tutorial (03) writes it: grouped tiles, rows
    and columns kept in bounds with `%`, pointers advanced along K with a masked K tail, a
    masked store; the K loop marked `warp_specialize=WARP_SPECIALIZE`."""
    pid_m, pid_n = _grouped_tile(tl.program_id(0), tl.cdiv(M, BLOCK_M), tl.cdiv(N, BLOCK_N), GROUP_M)
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + (offs_m % M)[:, None] * stride_am + offs_k[None, :] * stride_ak
    b_ptrs = b_ptr + offs_k[:, None] * stride_bk + (offs_n % N)[None, :] * stride_bn
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in tl.range(0, tl.cdiv(K, BLOCK_K), warp_specialize=WARP_SPECIALIZE):
        a = tl.load(a_ptrs, mask=offs_k[None, :] < K - k * BLOCK_K, other=0.0)
        b = tl.load(b_ptrs, mask=offs_k[:, None] < K - k * BLOCK_K, other=0.0)
        acc = tl.dot(a, b, acc)
        a_ptrs += BLOCK_K * stride_ak
        b_ptrs += BLOCK_K * stride_bk
    c_ptrs = c_ptr + offs_m[:, None] * stride_cm + offs_n[None, :] * stride_cn
    tl.store(c_ptrs, acc.to(c_ptr.dtype.element_ty), mask=(offs_m[:, None] < M) & (offs_n[None, :] < N))


@triton.jit
def matmul_pointers_ws_persistent(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_bn,  #
                                  stride_cm, stride_cn, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,  #
                                  BLOCK_K: tl.constexpr, GROUP_M: tl.constexpr, NUM_SMS: tl.constexpr,  #
                                  WARP_SPECIALIZE: tl.constexpr, FLATTEN: tl.constexpr):
    """`matmul_pointers_ws` as Triton's persistent tutorial (09) writes it: a grid-stride tile
    loop (marked `warp_specialize=WARP_SPECIALIZE`, `flatten=FLATTEN`), rows and columns kept
    in bounds with `tl.where`, the K pointers recomputed from the K index."""
    tiles_m = tl.cdiv(M, BLOCK_M)
    tiles_n = tl.cdiv(N, BLOCK_N)
    k_tiles = tl.cdiv(K, BLOCK_K)
    ks = tl.arange(0, BLOCK_K)
    for tile in tl.range(tl.program_id(0), tiles_m * tiles_n, NUM_SMS, flatten=FLATTEN,
                         warp_specialize=WARP_SPECIALIZE):
        pid_m, pid_n = _grouped_tile(tile, tiles_m, tiles_n, GROUP_M)
        offs_am = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
        offs_bn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
        offs_am = tl.where(offs_am < M, offs_am, 0)
        offs_bn = tl.where(offs_bn < N, offs_bn, 0)
        acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
        for k in range(k_tiles):
            offs_k = k * BLOCK_K + ks
            a = tl.load(a_ptr + offs_am[:, None] * stride_am + offs_k[None, :] * stride_ak,
                        mask=ks[None, :] < K - k * BLOCK_K, other=0.0)
            b = tl.load(b_ptr + offs_k[:, None] * stride_bk + offs_bn[None, :] * stride_bn,
                        mask=ks[:, None] < K - k * BLOCK_K, other=0.0)
            acc = tl.dot(a, b, acc)
        offs_cm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
        offs_cn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
        tl.store(c_ptr + offs_cm[:, None] * stride_cm + offs_cn[None, :] * stride_cn, acc.to(c_ptr.dtype.element_ty),
                 mask=(offs_cm[:, None] < M) & (offs_cn[None, :] < N))


@triton.jit
def matmul_batched(a_desc, b_desc, c_desc, M, N, K,  #
                   BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, GROUP_M: tl.constexpr):
    """C[i] = A[i] @ B[i].T for i = program_id(1); the batch is stacked along rows
    (A [batch*M, K], B [batch*N, K], C [batch*M, N]), so M and N must be tile multiples."""
    batch = tl.program_id(1)
    pid_m, pid_n = _grouped_tile(tl.program_id(0), tl.cdiv(M, BLOCK_M), tl.cdiv(N, BLOCK_N), GROUP_M)
    row_a = batch * M + pid_m * BLOCK_M
    row_b = batch * N + pid_n * BLOCK_N
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(tl.cdiv(K, BLOCK_K)):
        a = a_desc.load([row_a, k * BLOCK_K])
        b = b_desc.load([row_b, k * BLOCK_K])
        acc = tl.dot(a, b.T, acc)
    c_desc.store([row_a, pid_n * BLOCK_N], acc.to(c_desc.dtype))


@triton.jit
def attention_fwd(q_desc, k_desc, v_desc, o_desc, qk_scale, seq_len,  #
                  BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, HEAD_DIM: tl.constexpr, CAUSAL: tl.constexpr):
    """O = softmax(Q K^T * sm_scale) V for BLOCK_M queries of one head (program_id(1)), with
    the online softmax in base 2 (`qk_scale` = sm_scale * log2(e)); with CAUSAL, query i
    sees keys j <= i only (one loop, masked in every iteration). Q, K, V and O are
    [heads * seq_len, HEAD_DIM]; seq_len must be a multiple of both blocks."""
    _attention_fwd_rows(q_desc, k_desc, v_desc, o_desc, qk_scale, seq_len, BLOCK_M, BLOCK_N, HEAD_DIM, CAUSAL)


@triton.jit
def attention_fwd_constant_scale(q_desc, k_desc, v_desc, o_desc, seq_len, QK_SCALE: tl.constexpr,  #
                                 BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, HEAD_DIM: tl.constexpr,
                                 CAUSAL: tl.constexpr):
    """`attention_fwd` with the scale a `tl.constexpr` (the scores multiplied by a constant)."""
    _attention_fwd_rows(q_desc, k_desc, v_desc, o_desc, QK_SCALE, seq_len, BLOCK_M, BLOCK_N, HEAD_DIM, CAUSAL)


@triton.jit
def _attention_fwd_rows(q_desc, k_desc, v_desc, o_desc, qk_scale, seq_len,  #
                        BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, HEAD_DIM: tl.constexpr, CAUSAL: tl.constexpr):
    row0 = tl.program_id(1) * seq_len
    start_m = tl.program_id(0) * BLOCK_M
    q = q_desc.load([row0 + start_m, 0])
    m_i = tl.full([BLOCK_M], float("-inf"), dtype=tl.float32)
    l_i = tl.zeros([BLOCK_M], dtype=tl.float32)
    acc = tl.zeros([BLOCK_M, HEAD_DIM], dtype=tl.float32)
    end = tl.minimum(seq_len, start_m + BLOCK_M) if CAUSAL else seq_len
    for start_n in range(0, end, BLOCK_N):
        k = k_desc.load([row0 + start_n, 0])
        qk = tl.dot(q, k.T) * qk_scale
        if CAUSAL:
            rows = start_m + tl.arange(0, BLOCK_M)
            cols = start_n + tl.arange(0, BLOCK_N)
            qk = tl.where(rows[:, None] >= cols[None, :], qk, float("-inf"))
        m_new = tl.maximum(m_i, tl.max(qk, 1))
        p = tl.math.exp2(qk - m_new[:, None])
        alpha = tl.math.exp2(m_i - m_new)
        l_i = l_i * alpha + tl.sum(p, 1)
        v = v_desc.load([row0 + start_n, 0])
        acc = tl.dot(p.to(v.dtype), v, acc * alpha[:, None])
        m_i = m_new
    o_desc.store([row0 + start_m, 0], (acc / l_i[:, None]).to(o_desc.dtype))


@triton.jit
def attention_fwd_two_loops(q_desc, k_desc, v_desc, o_desc, qk_scale, seq_len,  #
                            BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, HEAD_DIM: tl.constexpr):
    """Causal `attention_fwd` as Triton's tutorial writes it, in two loops: the key blocks
    below the query block's diagonal unmasked, then the diagonal block masked (the second
    taking the first's running max, sum and output)."""
    start_m = tl.program_id(0) * BLOCK_M
    row0 = tl.program_id(1) * seq_len
    q = q_desc.load([row0 + start_m, 0])
    m_i = tl.full([BLOCK_M], float("-inf"), dtype=tl.float32)
    l_i = tl.zeros([BLOCK_M], dtype=tl.float32)
    acc = tl.zeros([BLOCK_M, HEAD_DIM], dtype=tl.float32)
    rows = start_m + tl.arange(0, BLOCK_M)
    for start_n in range(0, start_m, BLOCK_N):
        qk = tl.dot(q, k_desc.load([row0 + start_n, 0]).T) * qk_scale
        m_new = tl.maximum(m_i, tl.max(qk, 1))
        p = tl.math.exp2(qk - m_new[:, None])
        alpha = tl.math.exp2(m_i - m_new)
        l_i = l_i * alpha + tl.sum(p, 1)
        acc = tl.dot(p.to(q.dtype), v_desc.load([row0 + start_n, 0]), acc * alpha[:, None])
        m_i = m_new
    for start_n in range(start_m, start_m + BLOCK_M, BLOCK_N):
        qk = tl.dot(q, k_desc.load([row0 + start_n, 0]).T) * qk_scale
        qk = tl.where(rows[:, None] >= start_n + tl.arange(0, BLOCK_N)[None, :], qk, float("-inf"))
        m_new = tl.maximum(m_i, tl.max(qk, 1))
        p = tl.math.exp2(qk - m_new[:, None])
        alpha = tl.math.exp2(m_i - m_new)
        l_i = l_i * alpha + tl.sum(p, 1)
        acc = tl.dot(p.to(q.dtype), v_desc.load([row0 + start_n, 0]), acc * alpha[:, None])
        m_i = m_new
    o_desc.store([row0 + start_m, 0], (acc / l_i[:, None]).to(o_desc.dtype))


@triton.jit
def attention_pointers(q_ptr, k_ptr, v_ptr, o_ptr, lse_ptr, sm_scale, seq_len, stride_h, stride_s,  #
                       HEAD_DIM: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                       CAUSAL: tl.constexpr, MARK: tl.constexpr):
    """Attention forward as users write it with pointers: Q, K, V and O of shape [heads,
    seq_len, HEAD_DIM] (head stride `stride_h`, row stride `stride_s`), masked loads (any
    `seq_len`), the online softmax in base 2, O and the log-sum-exp stored with masks; with
    CAUSAL each query block ends its keys at its diagonal; MARK marks the loop
    `warp_specialize=True`."""
    start_m = tl.program_id(0)
    base = tl.program_id(1).to(tl.int64) * stride_h
    rows = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    dims = tl.arange(0, HEAD_DIM)
    q = tl.load(q_ptr + base + rows[:, None] * stride_s + dims[None, :], mask=rows[:, None] < seq_len, other=0.0)
    m_i = tl.full((BLOCK_M, ), float("-inf"), dtype=tl.float32)
    l_i = tl.zeros((BLOCK_M, ), dtype=tl.float32)
    acc = tl.zeros((BLOCK_M, HEAD_DIM), dtype=tl.float32)
    qk_scale = sm_scale * 1.4426950408889634
    end = tl.minimum((start_m + 1) * BLOCK_M, seq_len) if CAUSAL else seq_len
    for start_n in tl.range(0, end, BLOCK_N, warp_specialize=MARK):
        cols = start_n + tl.arange(0, BLOCK_N)
        k = tl.load(k_ptr + base + cols[:, None] * stride_s + dims[None, :], mask=cols[:, None] < seq_len, other=0.0)
        qk = tl.dot(q, tl.trans(k)) * qk_scale
        keep = cols[None, :] < seq_len
        if CAUSAL:
            keep = keep & (rows[:, None] >= cols[None, :])
        qk = tl.where(keep, qk, float("-inf"))
        m_new = tl.maximum(m_i, tl.max(qk, 1))
        p = tl.math.exp2(qk - m_new[:, None])
        alpha = tl.math.exp2(m_i - m_new)
        l_i = l_i * alpha + tl.sum(p, 1)
        v = tl.load(v_ptr + base + cols[:, None] * stride_s + dims[None, :], mask=cols[:, None] < seq_len, other=0.0)
        acc = tl.dot(p.to(v.dtype), v, acc * alpha[:, None])
        m_i = m_new
    tl.store(lse_ptr + tl.program_id(1) * seq_len + rows, m_i + tl.math.log2(l_i), mask=rows < seq_len)
    tl.store(o_ptr + base + rows[:, None] * stride_s + dims[None, :], (acc / l_i[:, None]).to(o_ptr.dtype.element_ty),
             mask=rows[:, None] < seq_len)


@triton.jit
def layernorm(x_ptr, y_ptr, w_ptr, b_ptr, stride, N, eps, BLOCK_N: tl.constexpr):
    """y = (x - mean) / sqrt(var + eps) * w + b over each row (one row per program)."""
    row = tl.program_id(0).to(tl.int64)
    cols = tl.arange(0, BLOCK_N)
    inside = cols < N
    x = tl.load(x_ptr + row * stride + cols, mask=inside, other=0.0).to(tl.float32)
    mean = tl.sum(x, 0) / N
    centered = tl.where(inside, x - mean, 0.0)
    rstd = 1.0 / tl.sqrt(tl.sum(centered * centered, 0) / N + eps)
    w = tl.load(w_ptr + cols, mask=inside).to(tl.float32)
    b = tl.load(b_ptr + cols, mask=inside).to(tl.float32)
    tl.store(y_ptr + row * stride + cols, (centered * rstd * w + b).to(y_ptr.dtype.element_ty), mask=inside)


@triton.jit
def softmax(x_ptr, y_ptr, stride, N, BLOCK_N: tl.constexpr):
    """y = softmax(x) over each row (one row per program)."""
    row = tl.program_id(0).to(tl.int64)
    cols = tl.arange(0, BLOCK_N)
    inside = cols < N
    x = tl.load(x_ptr + row * stride + cols, mask=inside, other=float("-inf")).to(tl.float32)
    e = tl.exp(x - tl.max(x, 0))
    tl.store(y_ptr + row * stride + cols, (e / tl.sum(e, 0)).to(y_ptr.dtype.element_ty), mask=inside)


@triton.jit
def _layernorm_output(x_ptr, y_ptr, w_ptr, b_ptr, row, stride, N, mean, rstd, BLOCK: tl.constexpr):
    """A layer norm's last pass over its row (inlined into the kernels that call it): each
    chunk normalised, scaled by w, shifted by b and stored."""
    for off in range(0, N, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        inside = cols < N
        x = tl.load(x_ptr + row * stride + cols, mask=inside, other=0.0).to(tl.float32)
        w = tl.load(w_ptr + cols, mask=inside).to(tl.float32)
        b = tl.load(b_ptr + cols, mask=inside).to(tl.float32)
        tl.store(y_ptr + row * stride + cols, ((x - mean) * rstd * w + b).to(y_ptr.dtype.element_ty), mask=inside)


@triton.jit
def layernorm_looped(x_ptr, y_ptr, w_ptr, b_ptr, stride, N, eps, BLOCK: tl.constexpr):
    """`layernorm` over rows longer than a block, in chunks of BLOCK (one row per program):
    pass 1 sums x and x * x in float32 (mean, variance), pass 2 normalises each chunk,
    scales it by w, adds b and stores it."""
    row = tl.program_id(0).to(tl.int64)
    total = tl.zeros([BLOCK], dtype=tl.float32)
    total_sq = tl.zeros([BLOCK], dtype=tl.float32)
    for off in range(0, N, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + row * stride + cols, mask=cols < N, other=0.0).to(tl.float32)
        total += x
        total_sq += x * x
    mean = tl.sum(total, 0) / N
    rstd = 1.0 / tl.sqrt(tl.sum(total_sq, 0) / N - mean * mean + eps)
    _layernorm_output(x_ptr, y_ptr, w_ptr, b_ptr, row, stride, N, mean, rstd, BLOCK)


@triton.jit
def layernorm_three_pass(x_ptr, y_ptr, w_ptr, b_ptr, stride, N, eps, BLOCK: tl.constexpr):
    """`layernorm_looped` in three passes over the row, as Triton's tutorial writes it: the
    mean, then the variance around it (masked lanes zeroed), then the output."""
    row = tl.program_id(0).to(tl.int64)
    total = tl.zeros([BLOCK], dtype=tl.float32)
    for off in range(0, N, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        total += tl.load(x_ptr + row * stride + cols, mask=cols < N, other=0.0).to(tl.float32)
    mean = tl.sum(total, 0) / N
    total_sq = tl.zeros([BLOCK], dtype=tl.float32)
    for off in range(0, N, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + row * stride + cols, mask=cols < N, other=0.0).to(tl.float32)
        centred = tl.where(cols < N, x - mean, 0.0)
        total_sq += centred * centred
    rstd = 1.0 / tl.sqrt(tl.sum(total_sq, 0) / N + eps)
    _layernorm_output(x_ptr, y_ptr, w_ptr, b_ptr, row, stride, N, mean, rstd, BLOCK)


@triton.jit
def rmsnorm_looped(x_ptr, y_ptr, w_ptr, stride, N, eps, BLOCK: tl.constexpr):
    """y = x / sqrt(mean(x * x) + eps) * w over each row, in chunks of BLOCK (one row per
    program): pass 1 sums x * x in float32, pass 2 scales and stores each chunk."""
    row = tl.program_id(0).to(tl.int64)
    total_sq = tl.zeros([BLOCK], dtype=tl.float32)
    for off in range(0, N, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + row * stride + cols, mask=cols < N, other=0.0).to(tl.float32)
        total_sq += x * x
    rstd = 1.0 / tl.sqrt(tl.sum(total_sq, 0) / N + eps)
    for off in range(0, N, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        inside = cols < N
        x = tl.load(x_ptr + row * stride + cols, mask=inside, other=0.0).to(tl.float32)
        w = tl.load(w_ptr + cols, mask=inside).to(tl.float32)
        tl.store(y_ptr + row * stride + cols, (x * rstd * w).to(y_ptr.dtype.element_ty), mask=inside)


@triton.jit
def rmsnorm_residual_looped(x_ptr, r_ptr, y_ptr, w_ptr, stride, N, eps, BLOCK: tl.constexpr):
    """y = h / sqrt(mean(h * h) + eps) * w with h = x + r, the residual add fused into the
    norm (a transformer block's pre-norm), in chunks of BLOCK (one row per program): pass 1
    sums h * h in float32, pass 2 reads x and r again, scales and stores each chunk."""
    row = tl.program_id(0).to(tl.int64)
    total_sq = tl.zeros([BLOCK], dtype=tl.float32)
    for off in range(0, N, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        inside = cols < N
        h = tl.load(x_ptr + row * stride + cols, mask=inside, other=0.0).to(tl.float32) + \
            tl.load(r_ptr + row * stride + cols, mask=inside, other=0.0).to(tl.float32)
        total_sq += h * h
    rstd = 1.0 / tl.sqrt(tl.sum(total_sq, 0) / N + eps)
    for off in range(0, N, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        inside = cols < N
        h = tl.load(x_ptr + row * stride + cols, mask=inside, other=0.0).to(tl.float32) + \
            tl.load(r_ptr + row * stride + cols, mask=inside, other=0.0).to(tl.float32)
        w = tl.load(w_ptr + cols, mask=inside).to(tl.float32)
        tl.store(y_ptr + row * stride + cols, (h * rstd * w).to(y_ptr.dtype.element_ty), mask=inside)


@triton.jit
def fused_add_rmsnorm(x_ptr, r_ptr, w_ptr, stride, N, eps, BLOCK: tl.constexpr):
    """`rmsnorm_residual_looped` in place, as vLLM's fused_add_rms_norm updates its inputs: pass
    1 stores the sum h = x + r over r (in r's type) and sums h * h; pass 2 reads r again (now
    h) and writes the norm over x."""
    row = tl.program_id(0).to(tl.int64)
    total_sq = tl.zeros([BLOCK], dtype=tl.float32)
    for off in range(0, N, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        inside = cols < N
        h = (tl.load(x_ptr + row * stride + cols, mask=inside, other=0.0).to(tl.float32) +
             tl.load(r_ptr + row * stride + cols, mask=inside, other=0.0).to(tl.float32)).to(r_ptr.dtype.element_ty)
        tl.store(r_ptr + row * stride + cols, h, mask=inside)
        total_sq += h.to(tl.float32) * h.to(tl.float32)
    rstd = 1.0 / tl.sqrt(tl.sum(total_sq, 0) / N + eps)
    for off in range(0, N, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        inside = cols < N
        h = tl.load(r_ptr + row * stride + cols, mask=inside, other=0.0).to(tl.float32)
        w = tl.load(w_ptr + cols, mask=inside).to(tl.float32)
        tl.store(x_ptr + row * stride + cols, (h * rstd * w).to(x_ptr.dtype.element_ty), mask=inside)


@triton.jit
def rmsnorm_block_pointers(x_ptr, y_ptr, w_ptr, stride, N, eps, rows, BLOCK: tl.constexpr):
    """`rmsnorm_looped` written with block pointers (`tl.make_block_ptr`, advanced a chunk per
    iteration; Triton makes the advances offsets its loops carry)."""
    row = tl.program_id(0)
    x_block = tl.make_block_ptr(x_ptr, (rows, N), (stride, 1), (row, 0), (1, BLOCK), (1, 0))
    total_sq = tl.zeros([1, BLOCK], dtype=tl.float32)
    for _ in range(0, N, BLOCK):
        x = tl.load(x_block, boundary_check=(1, ), padding_option="zero").to(tl.float32)
        total_sq += x * x
        x_block = tl.advance(x_block, (0, BLOCK))
    rstd = 1.0 / tl.sqrt(tl.sum(total_sq) / N + eps)
    x_block = tl.make_block_ptr(x_ptr, (rows, N), (stride, 1), (row, 0), (1, BLOCK), (1, 0))
    y_block = tl.make_block_ptr(y_ptr, (rows, N), (stride, 1), (row, 0), (1, BLOCK), (1, 0))
    w_block = tl.make_block_ptr(w_ptr, (1, N), (N, 1), (0, 0), (1, BLOCK), (1, 0))
    for _ in range(0, N, BLOCK):
        x = tl.load(x_block, boundary_check=(1, ), padding_option="zero").to(tl.float32)
        w = tl.load(w_block, boundary_check=(1, ), padding_option="zero").to(tl.float32)
        tl.store(y_block, (x * rstd * w).to(y_ptr.dtype.element_ty), boundary_check=(1, ))
        x_block = tl.advance(x_block, (0, BLOCK))
        y_block = tl.advance(y_block, (0, BLOCK))
        w_block = tl.advance(w_block, (0, BLOCK))


@triton.jit
def rmsnorm_constexpr(x_ptr, y_ptr, w_ptr, stride, eps, N: tl.constexpr, BLOCK: tl.constexpr):
    """`rmsnorm_looped` with the row's length a compile-time constant that BLOCK divides, and
    so no masks."""
    row = tl.program_id(0).to(tl.int64)
    total_sq = tl.zeros([BLOCK], dtype=tl.float32)
    for off in range(0, N, BLOCK):
        x = tl.load(x_ptr + row * stride + off + tl.arange(0, BLOCK)).to(tl.float32)
        total_sq += x * x
    rstd = tl.rsqrt(tl.sum(total_sq, 0) / N + eps)
    for off in range(0, N, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + row * stride + cols).to(tl.float32)
        w = tl.load(w_ptr + cols).to(tl.float32)
        tl.store(y_ptr + row * stride + cols, (x * rstd * w).to(y_ptr.dtype.element_ty))


@triton.jit
def l2_normalize_counted(x_ptr, y_ptr, stride, N, BLOCK: tl.constexpr):
    """y = x / max(||x||, 1e-12) over each row, its loops counting chunks
    (`range(tl.cdiv(N, BLOCK))`) rather than walking offsets."""
    row = tl.program_id(0).to(tl.int64)
    total_sq = tl.zeros([BLOCK], dtype=tl.float32)
    for i in range(tl.cdiv(N, BLOCK)):
        cols = i * BLOCK + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + row * stride + cols, mask=cols < N, other=0.0).to(tl.float32)
        total_sq += x * x
    scale = 1.0 / tl.maximum(tl.sqrt(tl.sum(total_sq, 0)), 1e-12)
    for i in range(tl.cdiv(N, BLOCK)):
        cols = i * BLOCK + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + row * stride + cols, mask=cols < N, other=0.0).to(tl.float32)
        tl.store(y_ptr + row * stride + cols, (x * scale).to(y_ptr.dtype.element_ty), mask=cols < N)


@triton.jit
def softmax_online(x_ptr, y_ptr, stride, N, BLOCK: tl.constexpr):
    """`softmax` over rows longer than a block, in chunks of BLOCK (one row per program):
    pass 1 keeps a running max and a running sum of exp(x - max), rescaling the sum when
    the max grows; pass 2 writes exp(x - max) / sum."""
    row = tl.program_id(0).to(tl.int64)
    row_max = float("-inf")
    row_sum = 0.0
    for off in range(0, N, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + row * stride + cols, mask=cols < N, other=float("-inf")).to(tl.float32)
        new_max = tl.maximum(row_max, tl.max(x, 0))
        row_sum = row_sum * tl.exp(row_max - new_max) + tl.sum(tl.exp(x - new_max), 0)
        row_max = new_max
    for off in range(0, N, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        inside = cols < N
        x = tl.load(x_ptr + row * stride + cols, mask=inside, other=float("-inf")).to(tl.float32)
        tl.store(y_ptr + row * stride + cols, (tl.exp(x - row_max) / row_sum).to(y_ptr.dtype.element_ty), mask=inside)


@triton.jit
def softmax_three_pass(x_ptr, y_ptr, stride, N, BLOCK: tl.constexpr):
    """`softmax` over rows longer than a block in three loops, as it is written without the
    online rescaling (one row per program): the row's max, the sum of exp(x - max), then
    exp(x - max) / sum; no reduction inside a loop, an exponent in the last two."""
    row = tl.program_id(0).to(tl.int64)
    run_max = tl.full([BLOCK], float("-inf"), tl.float32)
    for off in range(0, N, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + row * stride + cols, mask=cols < N, other=float("-inf")).to(tl.float32)
        run_max = tl.maximum(run_max, x)
    row_max = tl.max(run_max, 0)
    run_sum = tl.zeros([BLOCK], tl.float32)
    for off in range(0, N, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + row * stride + cols, mask=cols < N, other=float("-inf")).to(tl.float32)
        run_sum += tl.exp(x - row_max)
    row_sum = tl.sum(run_sum, 0)
    for off in range(0, N, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        inside = cols < N
        x = tl.load(x_ptr + row * stride + cols, mask=inside, other=float("-inf")).to(tl.float32)
        tl.store(y_ptr + row * stride + cols, (tl.exp(x - row_max) / row_sum).to(y_ptr.dtype.element_ty), mask=inside)


@triton.jit
def pointwise_persistent(x_ptr, y_ptr, scale, bias, n, BLOCK: tl.constexpr):
    """y = x * scale + bias over a flat tensor of n elements (scale and bias scalars), a
    grid-stride loop: program p takes the blocks p, p + programs, p + 2 * programs, ..."""
    for start in range(tl.program_id(0) * BLOCK, n, tl.num_programs(0) * BLOCK):
        offs = start + tl.arange(0, BLOCK)
        inside = offs < n
        x = tl.load(x_ptr + offs, mask=inside, other=0.0).to(tl.float32)
        tl.store(y_ptr + offs, (x * scale + bias).to(y_ptr.dtype.element_ty), mask=inside)


@triton.jit
def pointwise(x_ptr, y_ptr, scale, bias, n, BLOCK: tl.constexpr):
    """y = x * scale + bias over a flat tensor of n elements, a block a program: the form
    most elementwise kernels take."""
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    inside = offs < n
    x = tl.load(x_ptr + offs, mask=inside, other=0.0).to(tl.float32)
    tl.store(y_ptr + offs, (x * scale + bias).to(y_ptr.dtype.element_ty), mask=inside)


@triton.jit
def row_sum(x_ptr, y_ptr, stride, N, BLOCK: tl.constexpr):
    """y[row] = sum of x's row, in chunks of BLOCK accumulated in float32 (one row per program)."""
    row = tl.program_id(0).to(tl.int64)
    total = tl.zeros([BLOCK], dtype=tl.float32)
    for off in range(0, N, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        total += tl.load(x_ptr + row * stride + cols, mask=cols < N, other=0.0).to(tl.float32)
    tl.store(y_ptr + row, tl.sum(total, 0).to(y_ptr.dtype.element_ty))
