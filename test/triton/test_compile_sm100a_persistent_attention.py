"""A persistent attention forward for sm_100a, device-made descriptors, its key loop marked
`warp_specialize` (Triton's automatic warp specialization on Blackwell), compiled through the
plug-in's default pipeline (no GPU needed). Triton leaves its `ttg.warp_specialize` inside the
persistent tile loop, one fork and join a tile; `ttpipe-verify-async` stopped this compile with
a write-write race across tiles that the join orders (`CTA.spawn`)."""

import triton
import triton.language as tl
from plugin_compile import compile_sm100a


@triton.jit
def persistent_attention(q_ptr, k_ptr, v_ptr, o_ptr, lse_ptr, scale, heads, seq,
                         D: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr):
    rows = heads * seq
    q_desc = tl.make_tensor_descriptor(q_ptr, [rows, D], [D, 1], [BM, D])
    k_desc = tl.make_tensor_descriptor(k_ptr, [rows, D], [D, 1], [BN, D])
    v_desc = tl.make_tensor_descriptor(v_ptr, [rows, D], [D, 1], [BN, D])
    o_desc = tl.make_tensor_descriptor(o_ptr, [rows, D], [D, 1], [BM, D])
    blocks_per_head = tl.cdiv(seq, BM)
    log2_scale = scale * 1.4426950408889634
    for tile in tl.range(tl.program_id(0), heads * blocks_per_head, tl.num_programs(0)):
        first = (tile // blocks_per_head) * seq
        block = tile % blocks_per_head
        q = q_desc.load([first + block * BM, 0])
        running_max = tl.full([BM], float("-inf"), tl.float32)
        denom = tl.full([BM], 1.0, tl.float32)
        acc = tl.zeros([BM, D], tl.float32)
        for start in tl.range(0, seq, BN, warp_specialize=True):
            s = tl.dot(q, k_desc.load([first + start, 0]).T)
            block_max = tl.maximum(running_max, tl.max(s, 1) * log2_scale)
            p = tl.math.exp2(s * log2_scale - block_max[:, None])
            alpha = tl.math.exp2(running_max - block_max)
            acc = tl.dot(p.to(tl.float16), v_desc.load([first + start, 0]), acc * alpha[:, None])
            denom = denom * alpha + tl.sum(p, 1)
            running_max = block_max
        tl.store(lse_ptr + first + block * BM + tl.arange(0, BM), running_max + tl.math.log2(denom))
        o_desc.store([first + block * BM, 0], (acc / denom[:, None]).to(tl.float16))


SIGNATURE = {"q_ptr": "*fp16", "k_ptr": "*fp16", "v_ptr": "*fp16", "o_ptr": "*fp16", "lse_ptr": "*fp32",
             "scale": "fp32", "heads": "i32", "seq": "i32"}


def test_blackwell_persistent_attention_passes_the_async_check():
    kernel = compile_sm100a(persistent_attention, SIGNATURE, {"D": 128, "BM": 128, "BN": 128},
                            {"num_warps": 4, "num_stages": 2})
    ttgir = kernel.asm["ttgir"]
    assert "ttg.warp_specialize" in ttgir and "ttng.tc_gen5_mma" in ttgir
    assert kernel.asm["cubin"]
