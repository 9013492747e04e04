"""On an sm_90a GPU (H100): a TMA matmul `@triton.jit` kernel whose K loop is
`tl.range(..., warp_specialize=True)`, compiled through the plug-in with
`ttgir-sm90{warp-specialize=true}` (ttpipe-warp-specialize: TMA producer warp, wgmma consumer
warpgroup, full/empty mbarrier ring), checked against torch in float32.

fp16 and bf16; M and N not multiples of the 128x128 tile; K tiles (BLOCK_K = 64, 3 stages)
0 (K = 0 passed to the kernel: the loops never run, C must be 0), 1, 2 (= stages - 1),
3 (= stages), 4 and 16, the last tile ragged where K is not a multiple of 64 (K and N stay
multiples of 8: TMA needs 16-byte row strides); C starts
as NaN so that an element the kernel never writes fails. All cases run in one child
process under a watchdog (`TIMEOUT_S`): a protocol bug that hangs the GPU is reported as a
hang naming the case, not a stalled test run.

    pytest -q -m gpu test/gpu/test_warp_specialize.py
"""

import importlib.util
import json
import subprocess
import sys

import pytest

TIMEOUT_S = 50
CASES = [(dtype, m, n, k) for dtype in ("float16", "bfloat16")
         for m, n, k in ((300, 200, 0), (300, 200, 64), (300, 200, 120), (300, 200, 192), (300, 200, 248),
                         (256, 384, 1000))]


def _why_not() -> str | None:
    if importlib.util.find_spec("torch") is None or importlib.util.find_spec("triton") is None:
        return "needs torch, triton and an NVIDIA sm_90a (H100) GPU"
    import torch

    if not torch.cuda.is_available():
        return "needs an NVIDIA sm_90a (H100) GPU: torch.cuda.is_available() is false"
    if torch.cuda.get_device_capability() != (9, 0):
        major, minor = torch.cuda.get_device_capability()
        return f"needs an sm_90a (H100) GPU, not sm_{major}{minor}"
    return None


WHY_NOT = _why_not()
pytestmark = [pytest.mark.gpu, pytest.mark.skipif(WHY_NOT is not None, reason=WHY_NOT or "")]


def child() -> None:
    """Run every case; print one JSON line per case started and finished."""
    import torch
    import triton
    import triton.language as tl
    from triton.tools.tensor_descriptor import TensorDescriptor

    import ttpipe.triton

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

    bm, bn, bk = 128, 128, 64
    with ttpipe.triton.installed("ttgir-sm90{warp-specialize=true}"):
        for dtype_name, m, n, k in CASES:
            print(json.dumps({"started": [dtype_name, m, n, k]}), flush=True)
            dtype = getattr(torch, dtype_name)
            k_alloc = max(k, bk)  # K = 0: descriptors over one tile, the kernel told K = 0
            a = torch.randn(m, k_alloc, device="cuda").to(dtype)
            b = torch.randn(n, k_alloc, device="cuda").to(dtype)
            c = torch.full((m, n), float("nan"), device="cuda", dtype=dtype)
            compiled = matmul_tma_ws[(triton.cdiv(m, bm), triton.cdiv(n, bn))](
                TensorDescriptor.from_tensor(a, [bm, bk]), TensorDescriptor.from_tensor(b, [bn, bk]),
                TensorDescriptor.from_tensor(c, [bm, bn]), k, bm, bn, bk, num_warps=4, num_stages=3)
            torch.cuda.synchronize()
            reference = a[:, :k].float() @ b[:, :k].float().T
            if k == 0:
                error = float(c.float().abs().max()) if not c.isnan().any() else float("nan")
            else:
                error = float(torch.linalg.vector_norm(c.float() - reference) / torch.linalg.vector_norm(reference))
            print(json.dumps({"case": [dtype_name, m, n, k], "nan": bool(c.isnan().any()), "error": error,
                              "warp_specialized": "ttg.warp_specialize" in compiled.asm["ttgir"]}), flush=True)


def test_warp_specialized_tma_matmul():
    process = subprocess.Popen([sys.executable, __file__, "--child"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True)
    try:
        out, err = process.communicate(timeout=TIMEOUT_S)
    except subprocess.TimeoutExpired:
        process.kill()
        out, err = process.communicate()
        started = [json.loads(line)["started"] for line in out.splitlines() if '"started"' in line]
        pytest.fail(f"hang: no result after {TIMEOUT_S} s (watchdog); last case started: "
                    f"{started[-1] if started else 'none'}\n{err[-2000:]}")
    assert process.returncode == 0, err[-4000:]
    results = [json.loads(line) for line in out.splitlines() if '"case"' in line]
    assert [r["case"] for r in results] == [list(case) for case in CASES]
    bad = [r for r in results if r["nan"] or not r["warp_specialized"] or not r["error"] < 1e-2]
    assert not bad, "\n".join(json.dumps(r) for r in bad)


if __name__ == "__main__" and sys.argv[1:] == ["--child"]:
    child()
