"""On an sm_90a GPU (H100): seed 002's memory-bound kernels (`ttpipe.bench.kernels`), each
compiled through the plug-in with the default pipeline (`ttpipe.triton.installed()`) and, as
a control, by stock Triton, checked against float64 torch.

Row kernels (`layernorm_looped`, `layernorm_three_pass`, `rmsnorm_looped`,
`rmsnorm_block_pointers`, `softmax_online`, `softmax_three_pass`, `row_sum`,
`l2_normalize_counted`, `rmsnorm_residual_looped`, `fused_add_rmsnorm`; one program per row, a plain `for`
loop over the row's chunks of BLOCK, the block pointer kernel's loops carrying their offsets,
the L2 normalisation's loops counting chunks, `range(tl.cdiv(N, BLOCK))`, the last two
kernels reading two inputs, x and a residual, the last storing x + r over r in its first loop,
which its second reads again, and the norm over x):
N not a multiple of BLOCK (1000 in chunks of 256, 33000 in chunks of 1024: a ragged last
chunk), N smaller than one block (100 in 256), N = 1, one row, several rows, N a multiple of
BLOCK, the bench's chunk (2048 elements at 8 warps); bf16 inputs, float32 on two of the
sizes. `pointwise_persistent` (a grid-stride loop): n not a multiple of BLOCK on a grid
smaller than the number of blocks (4 blocks on 2 programs, 33 on 5, 513 on 7), n smaller
than one block, n a multiple of BLOCK; `pointwise` (a block a program) on the same sizes. Rows
at a stride that is a multiple of 64 elements, of a length that is no multiple of 16
(`_padded`: the row sum, the layer norm, the online softmax), whose full chunks
`ttpipe-full-tile-versions` reads unmasked. `test_row_ring_kernels` runs the norms (the layer
norm in two loops and in three, the RMS norm with pointers and with block pointers), online
softmax, the softmax in three loops (two consumers: exponents in its loops), the
chunk-counting L2 normalisation and the in-place residual RMS norm (the ring
forwarding what its first loop stores) on RING_SIZES (the residual RMS norm on
RESIDUAL_SIZES), whose rows `ttpipe-row-ring`
(persistent programs, a producer warp, a ring of chunk slots; on by default) takes or leaves
to the compile without it (chosen at launch), and checks the choice: more rows than SMs
(programs take several rows, the ring wraps, a ragged last chunk reads into the next row),
rows too long and too short for the ring, a row updated in place; and `rmsnorm_constexpr`
(the row's length a `tl.constexpr`, no masks) on the sizes BLOCK divides. Outputs start as
NaN so that an element the kernel never writes fails. Tolerance: relative error ||out - ref||
/ ||ref|| under 1e-2 for bf16 outputs (bf16's rounding is 2**-9), 1e-4 for float32 ones (the
row sum's, float32 inputs'). All cases run in one child process under a watchdog
(`sm90a.run_cases`): a kernel that hangs the GPU is reported as a hang naming the case, not
a stalled test run. Each group of cases is a test and a child of its own (`-k norm_rows`,
`-k softmax_rows`, `-k residual_rows`, `-k padded`, `-k pointwise`, `-k ring`), each well
within one call to the GPU machine.

    pytest -q -m gpu test/gpu/test_memory_bound.py
"""

import json
import sys

import pytest
from sm90a import run_cases, why_not

from ttpipe.bench.harness import warp_specialized

ROW_SIZES = ((3, 1000, 256, 4), (5, 33000, 1024, 8), (4, 100, 256, 4), (2, 1, 256, 4), (1, 5000, 1024, 4),
             (7, 4096, 1024, 4), (2, 20000, 2048, 8))
"""(rows, N, BLOCK, num_warps) of the row kernels."""
FLOAT32_SIZES = ((3, 1000, 256, 4), (5, 33000, 1024, 8))
POINTWISE_SIZES = ((1000, 2, 256, 4), (33000, 5, 1024, 4), (100, 1, 256, 4), ((1 << 20) + 3, 7, 2048, 8),
                   (8192, 3, 1024, 4))
"""(n, programs, BLOCK, num_warps) of the grid-stride pointwise kernel."""
SIDES = ("ttpipe", "triton")
PADDED_SIZES = ((5, 33001, 1024, 8), (3, 1001, 256, 4), (2, 7, 256, 4))
"""(rows, N, BLOCK, num_warps) of the rows at a padded stride: N no multiple of 16 (the row
of 33001 through the ring)."""
ROW_GROUPS = {"norm_rows": ("layernorm_looped", "layernorm_three_pass", "rmsnorm_looped", "rmsnorm_block_pointers"),
              "softmax_rows": ("softmax_online", "softmax_three_pass", "row_sum", "l2_normalize_counted"),
              "residual_rows": ("rmsnorm_residual_looped", "fused_add_rmsnorm")}
"""The row kernels in groups whose compiles (5-15 s each through the plug-in) fit one call."""
CASE_GROUPS = {
    **{group: [(kernel, side, dtype, *size) for kernel in kernels
               for dtype, sizes in (("bfloat16", ROW_SIZES), ("float32", FLOAT32_SIZES))
               for size in sizes for side in SIDES] for group, kernels in ROW_GROUPS.items()},
    "pointwise": [(kernel, side, "bfloat16", programs, n, block, warps)
                  for kernel in ("pointwise_persistent", "pointwise")
                  for n, programs, block, warps in POINTWISE_SIZES for side in SIDES],
    "padded": [(kernel + "_padded", side, "bfloat16", *size) for kernel in ("row_sum", "layernorm_looped", "softmax_online")
               for size in PADDED_SIZES for side in SIDES],
}
"""Name -> cases (kernel, side, input dtype, rows (the grid-stride pointwise kernel: programs;
`pointwise` runs a block a program), N, BLOCK, num_warps), each group a test and a child
process of its own; side 'ttpipe' compiles through the plug-in, 'triton' is stock Triton."""
RING_PIPELINE = "ttgir-sm90"
RING_KERNELS = ("layernorm_looped", "layernorm_three_pass", "rmsnorm_looped", "rmsnorm_block_pointers",
                "softmax_online", "softmax_three_pass", "l2_normalize_counted", "fused_add_rmsnorm")
RING_SIZES = {(300, 26000, 1024, 4): 1, (700, 30000, 2048, 8): 1, (200, 32768, 2048, 8): 1,
              (5, 33000, 1024, 8): 1, (150, 40000, 2048, 8): 1, (140, 70000, 2048, 8): 2,
              (3, 90000, 2048, 8): 0, (700, 20000, 2048, 8): 0}
"""Sizes -> the ring's consumers in the version the launch runs, for the kernels whose loops ask
for one (0: the compile without the ring; the softmaxes run two wherever they run the ring).
The ring takes rows of 48 KB up to the ring less its two stream slots, 10 of its 12 slots of
16 KB, with one consumer up to 5 slots and two (a second compile) beyond: more rows than SMs
(the ring wraps), ragged (the last chunk reads into the next row) and not; rows whose last
chunks, past the runs of whole slots, fill part of a slot, one slot (32768: the layer norm's
runs of 12 chunks, then 4) and more (40000: 8 of 20, ragged, 5 slots; 33000); rows of 35
chunks (9 slots: more than half the ring, the next row streaming into the other 3; two
consumers); rows too long (44 chunks, 11 slots) and too short (10) for it, which run the
compile without it."""
RESIDUAL_SIZES = {(300, 13000, 1024, 4): 1, (300, 26000, 1024, 4): 2, (200, 32768, 2048, 8): 2,
                  (150, 40000, 2048, 8): 2, (3, 45000, 2048, 8): 0, (700, 10000, 2048, 8): 0}
"""The same for the residual RMS norm, whose chunks are twice as long (x's and r's): rows of 13
chunks of 4 KB (4 slots), 26 (7 slots, more than half the ring: two consumers; the in-place
runs' size), 16 and 20 chunks of 8 KB (8 and 10 slots, two consumers), and rows too long (11
slots) and too short (5 chunks, 40 KB)."""
TWO_CONSUMER_KERNELS = ("softmax_online", "softmax_three_pass")
"""The kernels whose loops ask for two consumers (a reduction across warps, exponents)."""
RING_CASES = [(kernel, "ttpipe", "bfloat16", *size) for kernel in RING_KERNELS for size in RING_SIZES]
RING_CASES += [("rmsnorm_residual_looped", "ttpipe", "bfloat16", *size) for size in RESIDUAL_SIZES]
RING_CASES += [(kernel + "_in_place", "ttpipe", "bfloat16", 300, 26000, 1024, 4)
               for kernel in (*RING_KERNELS, "rmsnorm_residual_looped") if kernel != "fused_add_rmsnorm"]
RING_CASES += [("rmsnorm_constexpr", "ttpipe", "bfloat16", *size) for size in RING_SIZES if size[1] % size[2] == 0]
"""The row-ring run's cases (`_in_place`: y is x)."""
GROUPS = {**CASE_GROUPS, "ring": RING_CASES}
"""Every child's cases by name: `test_memory_bound_kernels`' groups and the ring's."""
EPS = 1e-5
SCALE, BIAS = 0.5, -1.0

WHY_NOT = why_not()
pytestmark = [pytest.mark.gpu, pytest.mark.skipif(WHY_NOT is not None, reason=WHY_NOT or "")]


def child(cases: list[tuple], pipeline: str | None) -> None:
    """Run `cases` (the plug-in with `pipeline`); print one JSON line per case started and finished."""
    import contextlib

    import torch

    import ttpipe.triton
    from ttpipe.bench import kernels
    from ttpipe.triton.plugin import current_marker
    from ttpipe.triton.versions import launched_version

    functional = torch.nn.functional
    for case in cases:
        kernel, side, dtype_name, rows, n, block, warps = case
        in_place, padded = kernel.endswith("_in_place"), kernel.endswith("_padded")
        kernel = kernel.removesuffix("_in_place").removesuffix("_padded")
        print(json.dumps({"started": case}), flush=True)
        dtype = getattr(torch, dtype_name)
        with ttpipe.triton.installed(pipeline) if side == "ttpipe" else contextlib.nullcontext():
            marker = current_marker()
            if kernel in ("pointwise_persistent", "pointwise"):
                x = torch.randn(n, device="cuda").to(dtype)
                y = torch.full_like(x, float("nan"))
                programs = rows if kernel == "pointwise_persistent" else -(-n // block)
                args = (x, y, SCALE, BIAS, n)
                compiled = getattr(kernels, kernel)[(programs, )](*args, BLOCK=block, num_warps=warps)
                reference = x.double() * SCALE + BIAS
            else:
                stride = (n // 64 + 2) * 64 if padded else n
                x = torch.randn(rows, stride, device="cuda").to(dtype)[:, :n]
                w = torch.randn(n, device="cuda").to(dtype)
                b = torch.randn(n, device="cuda").to(dtype)
                x64, w64, b64 = x.double(), w.double(), b.double()
                # the kernels read x and write y at one stride
                fresh_output = (lambda: x) if in_place else (
                    lambda: torch.full((rows, stride), float("nan"), device="cuda", dtype=dtype)[:, :n])
                if kernel == "row_sum":
                    y = torch.full((rows, ), float("nan"), device="cuda", dtype=torch.float32)
                    args, reference = (x, y, x.stride(0), n), x64.sum(dim=-1)
                elif kernel in ("softmax_online", "softmax_three_pass"):
                    y = fresh_output()
                    args, reference = (x, y, x.stride(0), n), torch.softmax(x64, dim=-1)
                elif kernel == "l2_normalize_counted":
                    y = fresh_output()
                    args, reference = (x, y, x.stride(0), n), functional.normalize(x64, dim=-1)
                elif kernel == "fused_add_rmsnorm":
                    r = torch.randn(rows, n, device="cuda").to(dtype)
                    residual = (x.float() + r.float()).to(dtype)  # what the first loop stores over r
                    y, args = x, (x, r, w, x.stride(0), n, EPS)
                    reference = functional.rms_norm(residual.double(), (n, ), w64, EPS)
                elif kernel == "rmsnorm_residual_looped":
                    y = fresh_output()
                    r = torch.randn(rows, n, device="cuda").to(dtype)
                    args = (x, r, y, w, x.stride(0), n, EPS)
                    reference = functional.rms_norm(x64 + r.double(), (n, ), w64, EPS)
                elif kernel in ("rmsnorm_looped", "rmsnorm_block_pointers", "rmsnorm_constexpr"):
                    y = fresh_output()
                    args, reference = (x, y, w, x.stride(0), n, EPS), functional.rms_norm(x64, (n, ), w64, EPS)
                    args += (rows, ) if kernel == "rmsnorm_block_pointers" else ()
                    args = (x, y, w, x.stride(0), EPS, n) if kernel == "rmsnorm_constexpr" else args
                else:
                    y = fresh_output()
                    args = (x, y, w, b, x.stride(0), n, EPS)
                    reference = functional.layer_norm(x64, (n, ), w64, b64, EPS)
                compiled = getattr(kernels, kernel)[(rows, )](*args, BLOCK=block, num_warps=warps)
            torch.cuda.synchronize()
        error = float(torch.linalg.vector_norm(y.double() - reference) / torch.linalg.vector_norm(reference))
        if kernel == "fused_add_rmsnorm":  # r must hold x + r, bit for bit
            error = max(error, 0.0 if torch.equal(r, residual) else float("inf"))
        print(json.dumps({"case": case, "nan": bool(y.isnan().any()), "error": error,
                          "tolerance": 1e-4 if y.dtype == torch.float32 else 1e-2,
                          "plugged": marker is not None and compiled.metadata.instrumentation_mode == marker,
                          "consumers": ring_consumers(launched_version(compiled, args))}), flush=True)


def ring_consumers(compiled) -> int:
    """The ring's consumers in a compile (0: no ring): the default region, and with two a
    partition of the kernel's warps before the producer's."""
    return 0 if not warp_specialized(compiled) else 2 if "partition1(" in compiled.asm["ttgir"] else 1


def run_child(group: str, pipeline: str | None) -> list[dict]:
    """`child` on the cases of `group` (of GROUPS) in a subprocess under the watchdog; every
    case correct and compiled as asked."""
    results = run_cases([sys.executable, __file__, "--child", group, *([pipeline] if pipeline else [])])
    assert [r["case"] for r in results] == [list(case) for case in GROUPS[group]]
    bad = [r for r in results
           if r["nan"] or not r["error"] < r["tolerance"] or r["plugged"] != (r["case"][1] == "ttpipe")]
    assert not bad, "\n".join(json.dumps(r) for r in bad)
    return results


@pytest.mark.parametrize("group", CASE_GROUPS)
def test_memory_bound_kernels(group):
    run_child(group, None)


def test_row_ring_kernels():
    results = run_child("ring", RING_PIPELINE)
    def expected(case: list) -> int:
        consumers = (RESIDUAL_SIZES if "residual" in case[0] else RING_SIZES).get(tuple(case[3:]), 1)
        return 2 if consumers and case[0].removesuffix("_in_place") in TWO_CONSUMER_KERNELS else consumers

    wrong = [r for r in results if r["consumers"] != expected(r["case"])]
    assert not wrong, "launched another version:\n" + "\n".join(json.dumps(r) for r in wrong)


if __name__ == "__main__" and sys.argv[1:2] == ["--child"]:
    child(GROUPS[sys.argv[2]], sys.argv[3] if sys.argv[3:] else None)
