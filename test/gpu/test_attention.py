"""On an sm_90a GPU (H100): attention forward kernels written as users write them, compiled
through the plug-in with `ttgir-sm90{warp-specialize=auto}` (ttpipe-warp-specialize's
attention path: a TMA producer for K and V and Q once, consumer warpgroups each on its rows,
the softmax under the next wgmmas), checked against torch in float32.

Kernels: `attention_pointers` (`ttpipe.bench.kernels`), pointer loads with masks (Q once before the loop, K and V per
key block; the pass turns them into TMA loads of tensormaps made on the device), a masked
pointer store of O and of the log-sum-exp, sequence lengths not a multiple of the blocks
(200, 1000) and one block (64); the bench's `attention_fwd` on host TMA descriptors (sequence
384, a multiple of both blocks, as it requires), and `attention_fwd_constant_scale`, the same
with the scale a `tl.constexpr` (its row max taken before the scale with no version); the bench's `attention_fwd_two_loops`, causal attention as
Triton's tutorial writes it, the blocks below the diagonal in one loop and the diagonal
block in a second (sequences 128, where the first loop never runs, and 512). Key blocks of
128 at D = 64 and of 64 at D = 128 (`mode=auto` declines 64 x 64), and of 128 at D = 128 with
pointer stores of O (converted to their layout through the Q buffer; in fp32, `pointers_f32_out`,
through Triton's scratch beside a ring of 2 stages). fp16 and bf16, D = 64 and 128, causal and
not; `num_warps=8` (two consumer warpgroups of 64 rows each, 12 warps launched), with
ping-pong turns (`warp-specialize-consumers=pingpong`), and `num_warps=4` with a 64-row
block (one consumer warpgroup, the loop marked `warp_specialize=True`). O and the
log-sum-exp start as NaN, so a row the kernel never writes fails. All cases run in one
child process under a watchdog (`sm90a.run_cases`): a protocol bug that hangs the GPU is
reported as a hang naming the case.

    pytest -q -m gpu test/gpu/test_attention.py
"""

import json
import math
import sys

import pytest
from sm90a import run_cases, why_not

AUTO = "ttgir-sm90{warp-specialize=auto}"
PINGPONG = "ttgir-sm90{warp-specialize=auto warp-specialize-consumers=pingpong}"
MARKED = "ttgir-sm90{warp-specialize=true}"
HEADS = 3

KEY_BLOCK = {64: 128, 128: 64}
"""BLOCK_N by HEAD_DIM: what `mode=auto` warp-specializes (BLOCK_N x HEAD_DIM >= 8192)."""
CASES = [("pointers", AUTO, 8, 128, KEY_BLOCK[d], dtype, d, causal, seq) for dtype in ("float16", "bfloat16")
         for d in (64, 128) for causal in (False, True) for seq in (200, 1000)]
CASES += [("pointers", AUTO, 8, 128, 128, dtype, 64, causal, 64) for dtype in ("float16", "bfloat16")
          for causal in (False, True)]
CASES += [(kernel, AUTO, 8, 128, 128, "float16", 128, causal, 1000) for kernel in ("pointers", "pointers_f32_out")
          for causal in (False, True)]
CASES += [("descriptors", AUTO, 8, 128, KEY_BLOCK[d], dtype, d, causal, 384) for dtype in ("float16", "bfloat16")
          for d in (64, 128) for causal in (False, True)]
CASES += [("constant_scale", AUTO, 8, 128, KEY_BLOCK[d], "bfloat16", d, causal, 384) for d in (64, 128)
          for causal in (False, True)]
CASES += [("two_loops", AUTO, 8, 128, KEY_BLOCK[d], dtype, d, True, seq) for dtype in ("float16", "bfloat16")
          for d in (64, 128) for seq in (128, 512)]
CASES += [("pointers", PINGPONG, 8, 128, KEY_BLOCK[d], "bfloat16", d, causal, 1000) for d in (64, 128)
          for causal in (False, True)]
CASES += [("pointers_marked", MARKED, 4, 64, 64, dtype, 64, causal, 1000) for dtype in ("float16", "bfloat16")
          for causal in (False, True)]
"""(kernel, pipeline, num_warps, BLOCK_M, BLOCK_N, dtype, HEAD_DIM, causal, sequence)."""

WHY_NOT = why_not()
pytestmark = [pytest.mark.gpu, pytest.mark.skipif(WHY_NOT is not None, reason=WHY_NOT or "")]


def child() -> None:
    """Run every case; print one JSON line per case started and finished."""
    import torch
    import triton
    from triton.tools.tensor_descriptor import TensorDescriptor

    import ttpipe.triton
    from ttpipe.bench.kernels import (
        attention_fwd,
        attention_fwd_constant_scale,
        attention_fwd_two_loops,
        attention_pointers,
    )

    def reference(q, k, v, causal):
        scores = q.float() @ k.float().transpose(-1, -2) * q.shape[-1]**-0.5
        if causal:
            scores.masked_fill_(torch.ones_like(scores, dtype=torch.bool).triu(1), float("-inf"))
        lse = torch.logsumexp(scores, -1) / math.log(2)
        return torch.softmax(scores, -1) @ v.float(), lse

    for case in CASES:
        kernel, pipeline, warps, block_m, block_n, dtype, d, causal, seq = case
        print(json.dumps({"started": list(case)}), flush=True)
        torch.manual_seed(0)
        q, k, v = (torch.randn(HEADS, seq, d, device="cuda").to(getattr(torch, dtype)) for _ in range(3))
        o = torch.full_like(q, float("nan"), dtype=torch.float32 if kernel == "pointers_f32_out" else q.dtype)
        lse = torch.full((HEADS, seq), float("nan"), device="cuda")
        grid = (triton.cdiv(seq, block_m), HEADS)
        with ttpipe.triton.installed(pipeline):
            if kernel in ("descriptors", "two_loops", "constant_scale"):
                descs = [TensorDescriptor.from_tensor(t.view(HEADS * seq, d), [block, d])
                         for t, block in ((q, block_m), (k, block_n), (v, block_n), (o, block_m))]
            if kernel == "constant_scale":
                compiled = attention_fwd_constant_scale[grid](*descs, seq, QK_SCALE=d**-0.5 * math.log2(math.e),
                                                              BLOCK_M=block_m, BLOCK_N=block_n, HEAD_DIM=d,
                                                              CAUSAL=causal, num_warps=warps, num_stages=3)
            elif kernel in ("descriptors", "two_loops"):
                fn, extra = (attention_fwd, {"CAUSAL": causal}) if kernel == "descriptors" else (
                    attention_fwd_two_loops, {})
                compiled = fn[grid](*descs, d**-0.5 * math.log2(math.e), seq, BLOCK_M=block_m, BLOCK_N=block_n,
                                    HEAD_DIM=d, num_warps=warps, num_stages=3, **extra)
            else:
                compiled = attention_pointers[grid](q, k, v, o, lse, d**-0.5, seq, q.stride(0), q.stride(1),
                                                    HEAD_DIM=d, BLOCK_M=block_m, BLOCK_N=block_n, CAUSAL=causal,
                                                    MARK=kernel == "pointers_marked", num_warps=warps, num_stages=3)
            torch.cuda.synchronize()
        want_o, want_lse = reference(q, k, v, causal)
        error = ((o.float() - want_o).norm() / want_o.norm()).item()
        if kernel.startswith("pointers"):
            error = max(error, ((lse - want_lse).norm() / want_lse.norm()).item())
        ttgir = compiled.asm["ttgir"]
        print(json.dumps({"case": list(case), "nan": bool(o.isnan().any()) or bool(lse.isnan().any()
                                                                                  and kernel.startswith("pointers")),
                          "error": error, "warp_specialized": "ttg.warp_specialize" in ttgir,
                          "versioned_on_the_scale": "arith.cmpf ogt" in ttgir,
                          "launch_warps": compiled.metadata.num_warps}), flush=True)


def test_warp_specialized_attention():
    results = run_cases([sys.executable, __file__, "--child"])
    assert [r["case"] for r in results] == [list(case) for case in CASES]
    # num_warps=8: two consumer warpgroups and the producer's (12 warps); num_warps=4: 8.
    bad = [r for r in results if r["nan"] or not r["warp_specialized"] or not r["error"] < 2e-2
           or r["launch_warps"] != (12 if r["case"][2] == 8 else 8)
           or r["case"][0] == "constant_scale" and r["versioned_on_the_scale"]]
    assert not bad, "\n".join(json.dumps(r) for r in bad)


if __name__ == "__main__" and sys.argv[1:] == ["--child"]:
    child()
