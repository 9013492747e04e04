"""The benchmark's cases: kernel, compile-time signature, inputs, float32 reference, torch baseline.

A case's `signature` and `constexprs` are what the JIT sees at launch, so the dry run
compiles the same kernel without a GPU. `setup(torch, device, seed)` builds the inputs of
one launch (torch is imported only there).
"""

from __future__ import annotations

import contextlib
import math
from dataclasses import dataclass, field
from typing import Any, Callable, NamedTuple

from ttpipe.bench import kernels

TARGET_SIDES = ("triton", "torch", "copy")
"""The sides a case's rate is compared with: stock Triton's best version, the torch baseline,
and (TB/s cases) the device's copy bandwidth."""

NUM_SMS_H100 = 132
"""SMs of an H100 SXM: the persistent GEMM's grid in the dry run (on a GPU, the device's count)."""


@dataclass
class Launch:
    """One set of inputs, ready to run."""

    args: tuple
    """Runtime arguments in signature order (constexprs come from the case)."""
    grid: tuple
    output: Any
    """The tensor the kernel writes: poisoned with NaN before the checked launch."""
    reference: Callable[[], Any]
    """The exact result in float32."""
    baseline: Callable[[], Any]
    """The same operation in torch (cuBLAS, cuDNN, ATen)."""
    inputs_bytes: int
    """Bytes of the inputs: small ones are rotated between timed launches."""
    restore: Callable[[], None] | None = None
    """For a kernel that writes its inputs (in place): puts them back as the setup made them,
    in place of poisoning the output (an input) before a checked launch; the reference reads
    copies made by the setup."""


@dataclass(frozen=True)
class Case:
    name: str
    kernel: Any
    signature: dict[str, str]
    constexprs: dict[str, Any]
    options: dict[str, int]
    aligned: tuple[str, ...]
    """Arguments the JIT sees as multiples of 16 (pointers, sizes): the dry run's `tt.divisibility`."""
    unit: str
    """'TFLOP/s' (compute-bound) or 'TB/s' (memory-bound)."""
    work: float
    """FLOPs or bytes moved by one launch."""
    tolerance: float
    """Largest relative error ||out - ref|| / ||ref|| that passes."""
    setup: Callable[[Any, Any, int, dict[str, Any]], Launch] = field(repr=False)
    """(torch, device, seed, constexprs) -> Launch."""
    capabilities: tuple[int, ...] = (90, 100)
    pipeline: str | None = None
    """The plug-in's pipeline for this case; None: the run's `--pipeline` (by default the
    GPU's named pipeline, impl=ttpipe)."""
    stock_variants: tuple[tuple[str, dict[str, Any]], ...] = ()
    """Stock Triton's versions of the same source: (label, constexpr overrides). Stock's figure
    is the fastest that compiles and passes the check; one that fails to compile is recorded
    as failed. Empty: stock compiles the case's own constexprs (label "")."""
    baseline_name: str = "cuBLAS"
    """What the torch side runs, as the goals column names it."""
    inputs_per_version: bool = False
    """The setup's inputs depend on the constexprs (host TMA descriptors whose block is
    BLOCK_N): each stock version with other constexprs gets inputs of its own (the same
    seeds, so the same values)."""
    targets: tuple[tuple[str, float], ...] = (("triton", 0.98), )
    """Goals ttpipe's rate should meet: (side, ratio), side 'triton' (stock's best), 'torch' or,
    for a TB/s case, 'copy' (a device-to-device copy of as many bytes, timed in the same
    run); reported, not checked (the exit status is about correctness)."""
    sized_setup: Callable[[Any, Any, int, dict[str, Any], tuple[int, ...]], Launch] | None = field(default=None,
                                                                                                repr=False)
    """(torch, device, seed, constexprs, sizes) -> Launch at other sizes (the sanitizer's small
    instances): (M, N, K) for a GEMM, (rows, N) for a row kernel, (n, programs) for the
    grid-stride kernel; None where the case has one size."""
    small_sizes: tuple[tuple[int, ...], ...] = ()
    """The sizes `sized_setup` is run at by default (`python -m ttpipe.bench.sanitize`)."""
    ones: tuple[str, ...] = ()
    """Arguments the launch passes as 1 (unit strides), which Triton's JIT specializes as
    constexprs: the dry run compiles them so too."""

    def __post_init__(self):
        if (self.sized_setup is None) != (not self.small_sizes):
            raise ValueError(f"case '{self.name}': a sized_setup needs small_sizes, and small_sizes a sized_setup")
        for side, _ in self.targets:
            if side not in TARGET_SIDES or (side == "copy" and self.unit != "TB/s"):
                raise ValueError(f"case '{self.name}': target side '{side}'; expected 'triton', 'torch' or, "
                                 f"for a TB/s case, 'copy' (this one is {self.unit})")

    def attrs(self) -> dict:
        names = self.kernel.arg_names
        return {(names.index(name), ): [["tt.divisibility", 16]] for name in self.aligned}

    def full_signature(self, constexprs: dict[str, Any] | None = None) -> dict[str, str]:
        """Every argument's type; a `{NAME}` in a type is the constexpr NAME's value (of
        `constexprs`, by default the case's): a descriptor's block that is a constexpr."""
        values = self.constexprs if constexprs is None else constexprs
        return {name: "constexpr" if name in self.constexprs or name in self.ones
                else self.signature[name].format(**values) for name in self.kernel.arg_names}

    def specialized(self, constexprs: dict[str, Any]) -> dict[str, Any]:
        """`constexprs` and the `ones`: what the JIT compiles the kernel with."""
        return {**constexprs, **{name: 1 for name in self.ones}}

    def stock_runs(self) -> list[tuple[str, dict[str, Any]]]:
        """(label, constexprs) of each version stock Triton compiles."""
        if not self.stock_variants:
            return [("", dict(self.constexprs))]
        return [(label, {**self.constexprs, **overrides}) for label, overrides in self.stock_variants]

    def accepts(self, error: float) -> bool:
        """A relative error within the case's tolerance (NaN fails)."""
        return not math.isnan(error) and error <= self.tolerance


def _descriptor(tensor, block):
    from triton.tools.tensor_descriptor import TensorDescriptor

    return TensorDescriptor.from_tensor(tensor, list(block))


@contextlib.contextmanager
def _tf32(torch, allowed: bool):
    """torch's float32 matmuls on tf32 tensor cores (`allowed`) or in true float32, inside."""
    before = torch.backends.cuda.matmul.allow_tf32
    torch.backends.cuda.matmul.allow_tf32 = allowed
    try:
        yield
    finally:
        torch.backends.cuda.matmul.allow_tf32 = before


def _float32_matmul(torch, a, b_t):
    """a @ b_t.T in true float32 (no TF32)."""
    with _tf32(torch, False):
        return a.float() @ b_t.float().transpose(-1, -2)


def _scaled_mm(torch, a, b_column_major, one):
    """cuBLASLt's e4m3 GEMM (`torch._scaled_mm`, unit scales `one`, bf16 out) of B given
    column-major, the layout it takes."""
    result = torch._scaled_mm(a, b_column_major, scale_a=one, scale_b=one, out_dtype=torch.bfloat16)
    return result[0] if isinstance(result, tuple) else result


def _gemm(name: str, size: int, dtype: str, block_k: int, tolerance: float,
          capabilities: tuple[int, ...] = (90, 100)) -> Case:
    block_m, block_n = 128, 256
    constexprs = {"BLOCK_M": block_m, "BLOCK_N": block_n, "BLOCK_K": block_k, "GROUP_M": 8, "NUM_SMS": NUM_SMS_H100}
    signature = {"a_desc": f"tensordesc<{dtype}[{block_m},{block_k}]>",
                 "b_desc": f"tensordesc<{dtype}[{block_n},{block_k}]>",
                 "c_desc": f"tensordesc<bf16[{block_m},{block_n}]>", "M": "i32", "N": "i32", "K": "i32"}

    def setup(torch, device, seed, constexprs) -> Launch:
        return _gemm_launch(torch, device, seed, constexprs, (size, size, size), dtype, "bf16", persistent=True)

    return Case(name, kernels.matmul_persistent, signature, constexprs, {"num_warps": 8, "num_stages": 3},
                ("M", "N", "K"), "TFLOP/s", 2.0 * size**3, tolerance, setup, capabilities)


BMM_SMALL_SIZES = ((2, 256), (3, 512))
"""(batches, size) of the batched GEMM's small instances (the sanitizer's): whole 128x256
tiles, as the kernel's grid assumes; K of 4 and 8 blocks."""


def _batched_gemm(name: str, batch: int, size: int, tolerance: float) -> Case:
    block_m, block_n, block_k = 128, 256, 64
    constexprs = {"BLOCK_M": block_m, "BLOCK_N": block_n, "BLOCK_K": block_k, "GROUP_M": 8}
    signature = {"a_desc": f"tensordesc<bf16[{block_m},{block_k}]>", "b_desc": f"tensordesc<bf16[{block_n},{block_k}]>",
                 "c_desc": f"tensordesc<bf16[{block_m},{block_n}]>", "M": "i32", "N": "i32", "K": "i32"}

    def sized_setup(torch, device, seed, constexprs, sizes) -> Launch:
        batches, size = sizes
        generator = torch.Generator(device=device).manual_seed(seed)
        a = torch.randn(batches, size, size, device=device, generator=generator).to(torch.bfloat16)
        b = torch.randn(batches, size, size, device=device, generator=generator).to(torch.bfloat16)
        c = torch.empty(batches, size, size, device=device, dtype=torch.bfloat16)
        rows = batches * size
        args = (_descriptor(a.view(rows, size), (block_m, block_k)), _descriptor(b.view(rows, size), (block_n, block_k)),
                _descriptor(c.view(rows, size), (block_m, block_n)), size, size, size)
        grid = ((size // block_m) * (size // block_n), batches)
        return Launch(args, grid, c, lambda: _float32_matmul(torch, a, b), lambda: torch.bmm(a, b.transpose(1, 2)),
                      a.nbytes + b.nbytes)

    def setup(torch, device, seed, constexprs) -> Launch:
        return sized_setup(torch, device, seed, constexprs, (batch, size))

    return Case(name, kernels.matmul_batched, signature, constexprs, {"num_warps": 8, "num_stages": 3},
                ("M", "N", "K"), "TFLOP/s", 2.0 * batch * size**3, tolerance, setup, sized_setup=sized_setup,
                small_sizes=BMM_SMALL_SIZES)


ATTENTION_SMALL_SIZES = ((1, 2, 256), (2, 1, 384))
"""(batch, heads, sequence) of the sanitizer's instances: two and three key blocks of 128,
so the ring wraps and the causal diagonal falls inside and at the end."""

ATTENTION_BLOCK_N = (64, 128)
"""Stock Triton's versions of the attention cases: both key blocks (its best is 128 at
D = 128 and 64 at D = 64; ttpipe's cases run 128 at both)."""

ATTENTION_PIPELINE = "ttgir-sm90{warp-specialize=auto}"
"""Attention kernels are written without `warp_specialize=True`: the cost model decides."""


def _attention_inputs(torch, device, seed: int, sizes: tuple[int, int, int], head_dim: int):
    """Q, K, V (random, bf16) and O (empty) of shape [batch, heads, seq, head_dim]."""
    generator = torch.Generator(device=device).manual_seed(seed)
    shape = (*sizes, head_dim)
    q, k, v = (torch.randn(shape, device=device, generator=generator).to(torch.bfloat16) for _ in range(3))
    return q, k, v, torch.empty(shape, device=device, dtype=torch.bfloat16)


def _attention(batch: int, heads: int, seq_len: int, head_dim: int, causal: bool, block_n: int,
               two_loops: bool = False) -> Case:
    """Issue 13's attention forward (bf16), against cuDNN's SDPA
    (`torch.nn.functional.scaled_dot_product_attention` under the cuDNN backend); with
    `two_loops`, the causal kernel written as Triton's tutorial writes it."""
    block_m = 128
    name = f"attn-fwd-bf16-d{head_dim}-s{seq_len}{'-causal' if causal else ''}{'-two-loops' if two_loops else ''}"
    constexprs = {"BLOCK_M": block_m, "BLOCK_N": block_n, "HEAD_DIM": head_dim}
    if not two_loops:
        constexprs["CAUSAL"] = causal
    signature = {"q_desc": f"tensordesc<bf16[{block_m},{head_dim}]>", "k_desc": f"tensordesc<bf16[{{BLOCK_N}},{head_dim}]>",
                 "v_desc": f"tensordesc<bf16[{{BLOCK_N}},{head_dim}]>", "o_desc": f"tensordesc<bf16[{block_m},{head_dim}]>",
                 "qk_scale": "fp32", "seq_len": "i32"}
    sm_scale = head_dim**-0.5

    def sized_setup(torch, device, seed, constexprs, sizes) -> Launch:
        batch, heads, seq_len = sizes
        q, k, v, o = _attention_inputs(torch, device, seed, sizes, head_dim)
        rows = batch * heads * seq_len
        blocks = (constexprs["BLOCK_M"], constexprs["BLOCK_N"], constexprs["BLOCK_N"], constexprs["BLOCK_M"])
        args = tuple(_descriptor(t.view(rows, head_dim), (block, head_dim)) for t, block in zip((q, k, v, o), blocks))
        args += (sm_scale * math.log2(math.e), seq_len)
        return Launch(args, (seq_len // constexprs["BLOCK_M"], batch * heads), o,
                      lambda: _attention_reference(torch, q, k, v, causal), lambda: _cudnn_attention(q, k, v, causal),
                      3 * q.nbytes)

    kernel = kernels.attention_fwd_two_loops if two_loops else kernels.attention_fwd
    return _attention_case(name, kernel, signature, constexprs, ("seq_len", ), (batch, heads, seq_len), head_dim,
                           causal, sized_setup, inputs_per_version=True)


def _attention_case(name: str, kernel, signature: dict[str, str], constexprs: dict[str, Any],
                    aligned: tuple[str, ...], sizes: tuple[int, int, int], head_dim: int, causal: bool,
                    sized_setup: Callable, inputs_per_version: bool = False) -> Case:
    """An attention case at (batch, heads, seq) `sizes`: 8 warps, 3 stages, `mode=auto`,
    against cuDNN and stock Triton's best of BLOCK_N 64 and 128, with the goals of issue 13."""
    batch, heads, seq_len = sizes

    def setup(torch, device, seed, constexprs) -> Launch:
        return sized_setup(torch, device, seed, constexprs, sizes)

    flops = 4.0 * batch * heads * seq_len**2 * head_dim / (2 if causal else 1)
    return Case(name, kernel, signature, constexprs, {"num_warps": 8, "num_stages": 3}, aligned, "TFLOP/s", flops,
                2e-2, setup, capabilities=(90, ), pipeline=ATTENTION_PIPELINE, targets=(("triton", 1.3), ("torch", 1.0)),
                sized_setup=sized_setup, small_sizes=ATTENTION_SMALL_SIZES,
                stock_variants=tuple((f"n{n}", {"BLOCK_N": n}) for n in ATTENTION_BLOCK_N),
                inputs_per_version=inputs_per_version, baseline_name="cuDNN")


def _attention_reference(torch, q, k, v, causal: bool):
    """softmax(Q K^T / sqrt(D)) V of [batch, heads, seq, D] tensors in true float32."""
    batch, heads, seq_len, head_dim = q.shape
    out = torch.empty(q.shape, device=q.device, dtype=torch.float32)
    hidden = torch.ones(seq_len, seq_len, device=q.device, dtype=torch.bool).triu(1) if causal else None
    for b in range(batch):
        for h in range(heads):
            scores = _float32_matmul(torch, q[b, h], k[b, h]) * head_dim**-0.5
            if causal:
                scores.masked_fill_(hidden, float("-inf"))
            out[b, h] = torch.softmax(scores, dim=-1) @ v[b, h].float()
    return out


def _cudnn_attention(q, k, v, causal: bool):
    """torch's SDPA on the cuDNN backend."""
    import torch
    from torch.nn.attention import SDPBackend, sdpa_kernel

    with sdpa_kernel(SDPBackend.CUDNN_ATTENTION):
        return torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=causal)


def _attention_pointers(batch: int, heads: int, seq_len: int, head_dim: int, causal: bool) -> Case:
    """Issue 13's attention forward written with pointer loads and masked stores
    (`kernels.attention_pointers`, bf16, O and the log-sum-exp stored), against cuDNN's SDPA;
    128x128 blocks, stock Triton's figure its best of BLOCK_N 64 and 128."""
    name = f"attn-ptr-fwd-bf16-d{head_dim}-s{seq_len}{'-causal' if causal else ''}"
    constexprs = {"HEAD_DIM": head_dim, "BLOCK_M": 128, "BLOCK_N": 128, "CAUSAL": causal, "MARK": False}
    signature = {"q_ptr": "*bf16", "k_ptr": "*bf16", "v_ptr": "*bf16", "o_ptr": "*bf16", "lse_ptr": "*fp32",
                 "sm_scale": "fp32", "seq_len": "i32", "stride_h": "i32", "stride_s": "i32"}

    def sized_setup(torch, device, seed, constexprs, sizes) -> Launch:
        batch, heads, seq_len = sizes
        q, k, v, o = _attention_inputs(torch, device, seed, sizes, head_dim)
        lse = torch.empty(batch * heads, seq_len, device=device, dtype=torch.float32)
        args = (q, k, v, o, lse, head_dim**-0.5, seq_len, seq_len * head_dim, head_dim)
        return Launch(args, (-(-seq_len // constexprs["BLOCK_M"]), batch * heads), o,
                      lambda: _attention_reference(torch, q, k, v, causal), lambda: _cudnn_attention(q, k, v, causal),
                      3 * q.nbytes)

    return _attention_case(name, kernels.attention_pointers, signature, constexprs,
                           ("q_ptr", "k_ptr", "v_ptr", "o_ptr", "lse_ptr", "seq_len", "stride_h", "stride_s"),
                           (batch, heads, seq_len), head_dim, causal, sized_setup)


ATTENTION_CASES = tuple(
    _attention(batch, 32, seq_len, head_dim, causal, block_n)
    for batch, seq_len, head_dim, block_n in ((4, 4096, 128, 128), (1, 16384, 64, 128)) for causal in (False, True)
) + (_attention(4, 32, 4096, 128, True, 128, two_loops=True), ) + tuple(
    _attention_pointers(4, 32, 4096, 128, causal) for causal in (False, True))
"""Issue 13's attention forward: bf16, 32 heads, D = 128 at sequence 4096 (batch 4) and
D = 64 at 16384 (batch 1), causal and not; the causal D = 128 kernel in two loops; and the
D = 128 kernel written with pointers, causal and not."""


def _layernorm(name: str, rows: int, cols: int, tolerance: float) -> Case:
    constexprs = {"BLOCK_N": 1 << (cols - 1).bit_length()}
    signature = {"x_ptr": "*bf16", "y_ptr": "*bf16", "w_ptr": "*bf16", "b_ptr": "*bf16", "stride": "i32", "N": "i32",
                 "eps": "fp32"}

    def setup(torch, device, seed, constexprs) -> Launch:
        generator = torch.Generator(device=device).manual_seed(seed)
        x = torch.randn(rows, cols, device=device, generator=generator).to(torch.bfloat16)
        w = torch.randn(cols, device=device, generator=generator).to(torch.bfloat16)
        b = torch.randn(cols, device=device, generator=generator).to(torch.bfloat16)
        y = torch.empty_like(x)
        eps = 1e-5

        def reference():
            return torch.nn.functional.layer_norm(x.float(), (cols, ), w.float(), b.float(), eps)

        return Launch((x, y, w, b, x.stride(0), cols, eps), (rows, ), y, reference,
                      lambda: torch.nn.functional.layer_norm(x, (cols, ), w, b, eps), x.nbytes + w.nbytes + b.nbytes)

    return Case(name, kernels.layernorm, signature, constexprs, {"num_warps": 8, "num_stages": 1},
                ("x_ptr", "y_ptr", "w_ptr", "b_ptr", "stride", "N"), "TB/s", 2.0 * rows * cols * 2 + 2 * cols * 2,
                tolerance, setup)


def _softmax(name: str, rows: int, cols: int, tolerance: float) -> Case:
    constexprs = {"BLOCK_N": 1 << (cols - 1).bit_length()}
    signature = {"x_ptr": "*bf16", "y_ptr": "*bf16", "stride": "i32", "N": "i32"}

    def setup(torch, device, seed, constexprs) -> Launch:
        generator = torch.Generator(device=device).manual_seed(seed)
        x = torch.randn(rows, cols, device=device, generator=generator).to(torch.bfloat16)
        y = torch.empty_like(x)
        return Launch((x, y, x.stride(0), cols), (rows, ), y, lambda: torch.softmax(x.float(), dim=-1),
                      lambda: torch.softmax(x, dim=-1), x.nbytes)

    return Case(name, kernels.softmax, signature, constexprs, {"num_warps": 8, "num_stages": 1},
                ("x_ptr", "y_ptr", "stride", "N"), "TB/s", 2.0 * rows * cols * 2, tolerance, setup)


LOOPED_BYTES = 1 << 30
"""Bytes a memory-bound case's launch moves, counted as one read of its input and one write of
its output (weights aside), far past the 50 MB L2: rows = 2**28 / N for the norms and
softmax (32768 x 8192, 8192 x 32768, 2048 x 131072 bf16), 2**29 / N for the row sum, which
only reads, and 2**28 elements for the pointwise kernel."""

LOOPED_BLOCK = 2048
LOOPED_WARPS = 8
"""The memory-bound kernels' chunk (BLOCK elements a loop iteration) and warps: 256 threads x
8 bf16 elements, so that each thread's share of a chunk is one 16-byte load (the widest one
thread issues) and each float32 accumulator 8 registers a thread; 8 warps, as the
one-block-per-row cases."""

ROW_SMALL_SIZES = ((3, 1000), (2, 5000), (134, 25000))
"""The row kernels' small instances (rows, N): 3 rows shorter than a chunk (LOOPED_BLOCK), 2
rows of 3 chunks, the last ragged, and 134 rows of 13 chunks, the last ragged, which
`ttpipe-row-ring` takes (rows of 48 KB or more: the ring wraps, two SMs take two rows)."""

POINTWISE_SMALL_SIZES = ((1000, 1), (5000, 2))
"""The grid-stride kernel's small instances (n, programs): one program, less than a block;
2 programs over 3 blocks, the last ragged (program 0 takes two)."""

class LoopedKernel(NamedTuple):
    """A looped row op's case name prefix, kernel, bf16 weight vectors of N, the [rows, N]
    inputs it reads beside x (a residual r added to x: `r_ptr`, after `x_ptr`), and whether
    it writes its results over its inputs (no `y_ptr`)."""

    prefix: str
    kernel: Any
    weights: tuple[str, ...]
    residuals: tuple[str, ...] = ()
    in_place: bool = False


LOOPED_KERNELS = {
    "layernorm": LoopedKernel("layernorm-looped", kernels.layernorm_looped, ("w_ptr", "b_ptr")),
    "layernorm-three-pass": LoopedKernel("layernorm-three-pass", kernels.layernorm_three_pass, ("w_ptr", "b_ptr")),
    "rmsnorm": LoopedKernel("rmsnorm-looped", kernels.rmsnorm_looped, ("w_ptr", )),
    "rmsnorm-block-pointers": LoopedKernel("rmsnorm-block-pointers", kernels.rmsnorm_block_pointers, ("w_ptr", )),
    "rmsnorm-residual": LoopedKernel("rmsnorm-residual-looped", kernels.rmsnorm_residual_looped, ("w_ptr", ),
                                     ("r_ptr", )),
    "fused-add-rmsnorm": LoopedKernel("fused-add-rmsnorm", kernels.fused_add_rmsnorm, ("w_ptr", ), ("r_ptr", ),
                                      in_place=True),
    "softmax": LoopedKernel("softmax-online", kernels.softmax_online, ()),
    "softmax-three-pass": LoopedKernel("softmax-three-pass", kernels.softmax_three_pass, ()),
    "row-sum": LoopedKernel("row-sum", kernels.row_sum, ()),
}
"""Looped row op -> its kernel."""


def _row_launch(torch, device, seed, op: str, rows: int, cols: int) -> Launch:
    """Inputs of a looped row kernel (`op` of LOOPED_KERNELS) over a [rows, cols] bf16 tensor:
    bf16 weights, a bf16 output of the same shape (row-sum: a float32 vector of rows), the
    float32 reference and the same op in torch; a kernel writing in place has x as its output."""
    generator = torch.Generator(device=device).manual_seed(seed)
    x = torch.randn(rows, cols, device=device, generator=generator).to(torch.bfloat16)
    eps = 1e-5
    functional = torch.nn.functional
    if op == "row-sum":
        y = torch.empty(rows, device=device, dtype=torch.float32)
        return Launch((x, y, x.stride(0), cols), (rows, ), y, lambda: x.float().sum(dim=-1),
                      lambda: x.sum(dim=-1, dtype=torch.float32), x.nbytes)
    kernel = LOOPED_KERNELS[op]
    y = x if kernel.in_place else torch.empty_like(x)
    if op.startswith("softmax"):
        return Launch((x, y, x.stride(0), cols), (rows, ), y, lambda: torch.softmax(x.float(), dim=-1),
                      lambda: torch.softmax(x, dim=-1), x.nbytes)
    w = torch.randn(cols, device=device, generator=generator).to(torch.bfloat16)
    if kernel.residuals:
        r = torch.randn(rows, cols, device=device, generator=generator).to(torch.bfloat16)
        if kernel.in_place:  # r := x + r, x := rms_norm(r) * w
            x0, r0 = x.clone(), r.clone()

            def restore() -> None:
                x.copy_(x0)
                r.copy_(r0)

            def baseline() -> None:
                r.add_(x)
                x.copy_(functional.rms_norm(r, (cols, ), w, eps))

            return Launch((x, r, w, x.stride(0), cols, eps), (rows, ), y,
                          lambda: functional.rms_norm((x0.float() + r0.float()).to(torch.bfloat16).float(), (cols, ),
                                                      w.float(), eps),
                          baseline, x.nbytes + r.nbytes + w.nbytes, restore)
        return Launch((x, r, y, w, x.stride(0), cols, eps), (rows, ), y,
                      lambda: functional.rms_norm(x.float() + r.float(), (cols, ), w.float(), eps),
                      lambda: functional.rms_norm(x + r, (cols, ), w, eps), x.nbytes + r.nbytes + w.nbytes)
    if op.startswith("rmsnorm"):
        rows_argument = (rows, ) if op == "rmsnorm-block-pointers" else ()
        return Launch((x, y, w, x.stride(0), cols, eps, *rows_argument), (rows, ), y,
                      lambda: functional.rms_norm(x.float(), (cols, ), w.float(), eps),
                      lambda: functional.rms_norm(x, (cols, ), w, eps), x.nbytes + w.nbytes)
    b = torch.randn(cols, device=device, generator=generator).to(torch.bfloat16)
    return Launch((x, y, w, b, x.stride(0), cols, eps), (rows, ), y,
                  lambda: functional.layer_norm(x.float(), (cols, ), w.float(), b.float(), eps),
                  lambda: functional.layer_norm(x, (cols, ), w, b, eps), x.nbytes + w.nbytes + b.nbytes)


NO_ROW_RING_PIPELINE = "ttgir-sm90{row-ring=false}"
"""The pipeline of the `-no-row-ring` cases: the default without `ttpipe-row-ring`."""


def _looped(op: str, cols: int, ring: bool = True) -> Case:
    """A looped row kernel over rows of cols bf16 elements (LOOPED_BYTES); without `ring`,
    through NO_ROW_RING_PIPELINE (the name ends in `-no-row-ring`). Work: one read of
    the input and one write of the output, plus the norms' weight vectors read once:
    2 * rows * cols * 2 (+ 2 * cols * 2 for layernorm's w and b, + cols * 2 for rmsnorm's w;
    + rows * cols * 2 for a residual, twice that for one the kernel also writes); the row sum
    rows * cols * 2 + rows * 4 (a float32 a row)."""
    prefix, kernel, weights, residuals, in_place = LOOPED_KERNELS[op]
    reduces = op == "row-sum"
    rows = LOOPED_BYTES // (cols * 2 * (1 if reduces else 2))
    output = {} if in_place else {"y_ptr": "*fp32" if reduces else "*bf16"}
    signature = {"x_ptr": "*bf16", **dict.fromkeys(residuals, "*bf16"), **output,
                 **dict.fromkeys(weights, "*bf16"), "stride": "i32", "N": "i32"}
    if weights:
        signature["eps"] = "fp32"
    if op == "rmsnorm-block-pointers":
        signature["rows"] = "i32"
    work = ((1 + len(residuals) * (2 if in_place else 1)) * rows * cols * 2 + (rows * 4 if reduces else rows * cols * 2)
            + len(weights) * cols * 2)
    # the norms and softmax: seed 002's goals; the row sum, which it only checks: no regression
    targets = (("triton", 0.98), ) if reduces else (("copy", 0.90), ("triton", 1.5))

    def sized_setup(torch, device, seed, constexprs, sizes) -> Launch:
        return _row_launch(torch, device, seed, op, *sizes)

    def setup(torch, device, seed, constexprs) -> Launch:
        return sized_setup(torch, device, seed, constexprs, (rows, cols))

    return Case(f"{prefix}-bf16-{rows}x{cols}{'' if ring else '-no-row-ring'}", kernel, signature,
                {"BLOCK": LOOPED_BLOCK}, {"num_warps": LOOPED_WARPS},
                ("x_ptr", *residuals, *output, *weights, "stride", "N"),
                "TB/s", work, 1e-4 if reduces else 1e-2, setup, targets=targets, sized_setup=sized_setup,
                small_sizes=ROW_SMALL_SIZES, pipeline=None if ring else NO_ROW_RING_PIPELINE)


def _pointwise_launch(torch, device, seed, n: int, programs: int) -> Launch:
    """y = x * 0.5 - 1.0 over n bf16 elements on a grid of `programs`; torch's baseline is the
    same expression (a multiply and an add: two ATen kernels)."""
    scale, bias = 0.5, -1.0
    generator = torch.Generator(device=device).manual_seed(seed)
    x = torch.randn(n, device=device, generator=generator).to(torch.bfloat16)
    y = torch.empty_like(x)
    return Launch((x, y, scale, bias, n), (programs, ), y, lambda: x.float() * scale + bias,
                  lambda: x * scale + bias, x.nbytes)


POINTWISE_ODD = 77
"""What the `-odd` pointwise cases add to their 2**28 elements: a size no multiple of 16, as
the JIT then sees it (its masks' runs one element long)."""


def _pointwise(persistent: bool = True, odd: bool = False) -> Case:
    """`pointwise_persistent` over LOOPED_BYTES / 4 bf16 elements on a persistent grid, one
    program per SM of the device (as `matmul_persistent`'s NUM_SMS), each walking about 1000
    blocks: the bytes an SM has in flight are those its one program's loop keeps in flight;
    or (not `persistent`) `pointwise`, a block a program. `odd` adds POINTWISE_ODD elements.
    Work: one read and one write, n * 2 + n * 2 bytes."""
    n = LOOPED_BYTES // 4 + (POINTWISE_ODD if odd else 0)
    signature = {"x_ptr": "*bf16", "y_ptr": "*bf16", "scale": "fp32", "bias": "fp32", "n": "i32"}

    def sized_setup(torch, device, seed, constexprs, sizes) -> Launch:
        return _pointwise_launch(torch, device, seed, *sizes)

    def setup(torch, device, seed, constexprs) -> Launch:
        blocks = math.ceil(n / constexprs["BLOCK"])
        sms = torch.cuda.get_device_properties(device).multi_processor_count
        return sized_setup(torch, device, seed, constexprs, (n, min(sms, blocks) if persistent else blocks))

    name = f"pointwise-{'persistent-' if persistent else ''}bf16-{n}{'-odd' if odd else ''}"
    small_sizes = POINTWISE_SMALL_SIZES if persistent else tuple((size, math.ceil(size / LOOPED_BLOCK))
                                                                 for size, _ in POINTWISE_SMALL_SIZES)
    return Case(name, kernels.pointwise_persistent if persistent else kernels.pointwise, signature,
                {"BLOCK": LOOPED_BLOCK}, {"num_warps": LOOPED_WARPS}, ("x_ptr", "y_ptr") if odd else ("x_ptr", "y_ptr", "n"),
                "TB/s", 2.0 * n * 2, 1e-2, setup, targets=(("copy", 0.95), ), sized_setup=sized_setup,
                small_sizes=small_sizes)


MEMORY_BOUND_CASES = tuple(_looped(op, cols) for op in ("layernorm", "rmsnorm", "softmax")
                           for cols in (8192, 32768, 131072)) + (
    _looped("layernorm-three-pass", 32768), _looped("softmax-three-pass", 32768),
    _looped("rmsnorm-block-pointers", 32768), _looped("row-sum", 32768),
    _looped("rmsnorm-residual", 8192), _looped("rmsnorm-residual", 32768), _looped("fused-add-rmsnorm", 8192),
    _looped("fused-add-rmsnorm", 32768), _pointwise(), _pointwise(odd=True), _pointwise(persistent=False),
    _pointwise(persistent=False, odd=True)) + tuple(
    _looped(op, 32768, ring=False) for op in ("layernorm", "rmsnorm", "softmax", "layernorm-three-pass"))
"""Seed 002's memory-bound kernels, written without `num_stages` (stock Triton 3.6 pipelines
none of their loops), through the run's pipeline: the looped norms and online softmax at
N = 8192, 32768 and 131072, the layer norm and the softmax in three passes (the softmax's
exponents without a reduction in a loop), the RMS norm written with block
pointers and the looped row sum at 32768, the RMS norm of x plus a residual (two inputs
read twice; at 32768 a row of 128 KB, more than half the ring) at 8192 and 32768, the same
written in place as vLLM's fused_add_rms_norm (r := x + r, read again; x := the norm) at
8192 and 32768, and the pointwise kernel, grid-stride and a block a program, over 2**28
elements and over 2**28 + 77 (`-odd`: its masks allow one element an access unless
`ttpipe-full-tile-versions` versions the full blocks); then the norms and softmax at 32768
(the layer norm in two loops and in three), whose rows `ttpipe-row-ring` takes, without it
(`-no-row-ring`)."""


def ws_pipeline(*options: str) -> str:
    """`ttgir-sm90` with the loops users mark warp-specialized, and `options`."""
    return f"ttgir-sm90{{{' '.join(('warp-specialize=true', *options))}}}"


WS_PIPELINE = ws_pipeline()
"""The plug-in's pipeline of the warp-specialized GEMM cases."""

WS_CONFIGS = {
    "128x128w4": (128, 128, 64, 4, 4),
    "128x256w8": (128, 256, 64, 8, 3),
    "128x128w8": (128, 128, 64, 8, 3),
}
"""(BLOCK_M, BLOCK_N, BLOCK_K, num_warps, num_stages) of the warp-specialized GEMM cases:
one consumer warpgroup (ttpipe-warp-specialize's first phase; two taking turns where the
kernel is persistent), and two cooperative ones; the third, 128x128 tiles split over two
cooperative warpgroups at Triton's default 3 stages, only where a program computes one tile
(`PER_TILE_GEMM_CASES`). fp8 doubles BLOCK_K (128-byte K rows, as 64 16-bit elements)."""

MAIN_WS_CONFIGS = ("128x128w4", "128x256w8")

GEMM_SMALL_SIZES = ((256, 256, 512), (300, 264, 528))
"""The GEMMs' small instances: an aligned one, and a ragged one (M, N, K not multiples of the
tiles; K and N stay multiples of 16 bytes' worth of elements, as TMA's row strides need)."""

WS_DTYPES = {"bf16": ("bf16", "bf16"), "fp16": ("fp16", "fp16"), "fp8": ("fp8e4nv", "bf16")}
"""Case dtype -> (operand type, output type) as Triton spells them; fp8 is e4m3."""


def _gemm_launch(torch, device, seed, constexprs, dims, dtype: str, out_dtype: str, persistent: bool,
                 pointers: bool = False, grid_2d: bool = False) -> Launch:
    """A [M, K] @ B [N, K].T -> C [M, N] for a TMA GEMM kernel (`matmul_tma_ws(_persistent)`,
    the persistent `matmul_tma`, `matmul_tutorial_persistent`: C's descriptor block half as
    wide under `EPILOGUE_SUBTILE`), or with `pointers` for a pointer kernel
    (`matmul_pointers_ws(_persistent)`: A, B.T as [K, N] (K-major) and C with their
    strides), at any size; `grid_2d`: a program a tile on a (row, column) grid."""
    m, n, k = dims
    block_m, block_n, block_k = constexprs["BLOCK_M"], constexprs["BLOCK_N"], constexprs["BLOCK_K"]
    generator = torch.Generator(device=device).manual_seed(seed)
    a = torch.randn(m, k, device=device, generator=generator)
    b = torch.randn(n, k, device=device, generator=generator)
    if dtype == "fp8e4nv":
        a, b = a.to(torch.float8_e4m3fn), b.to(torch.float8_e4m3fn)
        one = torch.ones((), device=device)

        def baseline():  # B.T of a K-major B is the column-major operand cuBLASLt takes
            return _scaled_mm(torch, a, b.T, one)
    else:
        torch_dtype = {"bf16": torch.bfloat16, "fp16": torch.float16}[dtype]
        a, b = a.to(torch_dtype), b.to(torch_dtype)

        def baseline():
            return torch.matmul(a, b.T)
    c = torch.empty(m, n, device=device, dtype={"bf16": torch.bfloat16, "fp16": torch.float16}[out_dtype])
    tiles_m, tiles_n = math.ceil(m / block_m), math.ceil(n / block_n)
    if grid_2d:
        grid = (tiles_m, tiles_n)
    else:
        grid = (min(constexprs["NUM_SMS"], tiles_m * tiles_n), ) if persistent else (tiles_m * tiles_n, )
    if pointers:
        args = (a, b.T, c, m, n, k, *a.stride(), *b.T.stride(), *c.stride())
    else:
        store_n = block_n // 2 if constexprs.get("EPILOGUE_SUBTILE") else block_n
        args = (_descriptor(a, (block_m, block_k)), _descriptor(b, (block_n, block_k)),
                _descriptor(c, (block_m, store_n)), m, n, k)
    return Launch(args, grid, c, lambda: _float32_matmul(torch, a, b), baseline, a.nbytes + b.nbytes)


def _ws_gemm(dtype_name: str, size: int, config: str, persistent: bool = False, epilogue: str = "inline",
             pointers: bool = False, group_m: int = 8, tile_order: bool = True, grid_2d: bool = False,
             tile_a_program: bool = False) -> Case:
    """A warp-specialized GEMM case: ttpipe through `WS_PIPELINE` (flag on; with
    `epilogue=partition`, the epilogue handed to its own warp) against cuBLAS(Lt) and stock
    Triton's best of the same source: the TMA kernel with the flag on and off; with
    `pointers`, the kernel written with pointer loads (Triton's tutorials 03 and 09, B
    K-major), which ttpipe turns into TMA loads of device-made descriptors, stock Triton's
    without the flag (with it, stock Triton 3.6 aborts: an assertion in its WSLowerToken.cpp).
    Persistent kernels also race stock's flattened loop. `group_m=1`: the tiles numbered row by
    row (`tile // tiles_n`, `tile % tiles_n`), as kernels written without grouping number them
    (ttpipe-tile-order's case; `tile_order=False` runs the pipeline without it); `grid_2d`: the
    non-persistent TMA kernel on a 2-D grid (`matmul_tma_grid`), row-major too.
    `tile_a_program`: the pipeline keeps a non-persistent kernel's programs at one tile each
    (`warp-specialize-persistent=false`), the effect of making them persistent in the same run."""
    block_m, block_n, block_k, warps, stages = WS_CONFIGS[config]
    dtype, out_dtype = WS_DTYPES[dtype_name]
    if dtype_name == "fp8":
        block_k *= 2
    constexprs: dict[str, Any] = {"BLOCK_M": block_m, "BLOCK_N": block_n, "BLOCK_K": block_k,
                                  **({} if grid_2d else {"GROUP_M": group_m}), "WARP_SPECIALIZE": True}
    unflattened: dict[str, Any] = {}
    if persistent:
        unflattened = {"FLATTEN": False}
        constexprs.update(NUM_SMS=NUM_SMS_H100, **unflattened)
    flag_off = ("ws=0+flatten", {"WARP_SPECIALIZE": False, "FLATTEN": True}) if persistent \
        else ("ws=0", {"WARP_SPECIALIZE": False})
    if pointers:
        variants = ((("ws=0", {"WARP_SPECIALIZE": False, **unflattened}), flag_off) if persistent
                    else (flag_off, ))
        signature = {"a_ptr": f"*{dtype}", "b_ptr": f"*{dtype}", "c_ptr": f"*{out_dtype}", "M": "i32", "N": "i32",
                     "K": "i32", "stride_am": "i32", "stride_ak": "i32", "stride_bk": "i32", "stride_bn": "i32",
                     "stride_cm": "i32", "stride_cn": "i32"}
        aligned = ("a_ptr", "b_ptr", "c_ptr", "M", "N", "K", "stride_am", "stride_bn", "stride_cm")
        ones = ("stride_ak", "stride_bk", "stride_cn")
        kernel = kernels.matmul_pointers_ws_persistent if persistent else kernels.matmul_pointers_ws
    else:
        variants = (("ws=1", {"WARP_SPECIALIZE": True, **unflattened}), flag_off)
        signature = {"a_desc": f"tensordesc<{dtype}[{block_m},{block_k}]>",
                     "b_desc": f"tensordesc<{dtype}[{block_n},{block_k}]>",
                     "c_desc": f"tensordesc<{out_dtype}[{block_m},{block_n}]>", "M": "i32", "N": "i32", "K": "i32"}
        aligned, ones = ("M", "N", "K"), ()
        kernel = (kernels.matmul_tma_grid if grid_2d else kernels.matmul_tma_ws_persistent if persistent
                  else kernels.matmul_tma_ws)
    targets = (("torch", 1.05), ) if dtype_name == "fp8" else (("triton", 1.10), ("torch", 1.05))

    def sized_setup(torch, device, seed, constexprs, dims) -> Launch:
        return _gemm_launch(torch, device, seed, constexprs, dims, dtype, out_dtype, persistent, pointers, grid_2d)

    def setup(torch, device, seed, constexprs) -> Launch:
        return sized_setup(torch, device, seed, constexprs, (size, size, size))

    name = (f"gemm-ws{'-ptr' if pointers else ''}{'-persistent' if persistent else ''}"
            f"{'-row-major' if group_m == 1 else ''}{'-grid' if grid_2d else ''}-{dtype_name}-{size}-{config}")
    options = []
    if epilogue != "inline":
        name += f"-epilogue-{epilogue}"
        options.append(f"warp-specialize-epilogue={epilogue}")
    if not tile_order:
        name += "-no-tile-order"
        options.append("tile-order=false")
    if tile_a_program:
        name += "-tile-a-program"
        options.append("warp-specialize-persistent=false")
    pipeline = ws_pipeline(*options)
    return Case(name, kernel, signature, constexprs, {"num_warps": warps, "num_stages": stages}, aligned,
                "TFLOP/s", 2.0 * size**3, 2e-2 if dtype_name == "fp8" else 1e-2, setup, capabilities=(90, ),
                pipeline=pipeline, stock_variants=variants, targets=targets, sized_setup=sized_setup,
                small_sizes=GEMM_SMALL_SIZES, ones=ones)


WS_GEMM_CASES = tuple(
    _ws_gemm(dtype_name, size, config, persistent) for persistent in (False, True) for config in MAIN_WS_CONFIGS
    for dtype_name in WS_DTYPES for size in (4096, 8192)) + tuple(
    _ws_gemm(dtype_name, size, "128x128w4", persistent=True, epilogue="partition")
    for dtype_name in WS_DTYPES for size in (4096, 8192))
"""Issue 10's GEMMs: bf16, fp16 and fp8 (e4m3, B K-major) at 4096^3 and 8192^3, in both
configurations, non-persistent (a program a tile, which ttpipe makes persistent) and
persistent (later phases); and the persistent ping-pong kernel with its epilogue in its own warp."""

PER_TILE_GEMM_CASES = tuple(_ws_gemm("bf16", size, "128x128w8") for size in (4096, 8192)) + tuple(
    _ws_gemm("bf16", size, config, tile_a_program=True) for config in WS_CONFIGS for size in (4096, 8192))
"""Issue 10's GEMMs of a program a tile, bf16: 128x128 tiles at 8 warps (where one tile a
program, warp-specialized, ran below stock's two CTAs an SM, docs/measurements.md,
twenty-fifth session), and each configuration kept at one tile a program: what making the
programs persistent gains, in the same run."""

WS_POINTER_GEMM_CASES = tuple(
    _ws_gemm(dtype_name, size, config, persistent, pointers=True)
    for persistent, config in ((False, "128x256w8"), (True, "128x128w4"), (True, "128x256w8"))
    for dtype_name, size in (("bf16", 4096), ("bf16", 8192), ("fp16", 8192), ("fp8", 8192)))
"""Issue 10's GEMMs written with pointer loads, as users write them: non-persistent
cooperative, persistent ping-pong and persistent cooperative."""

ROW_MAJOR_GEMM_CASES = tuple(
    _ws_gemm("bf16", size, config, persistent, pointers=pointers, group_m=1)
    for persistent, pointers, config, size in ((True, False, "128x128w4", 8192), (True, False, "128x256w8", 8192),
                                               (True, False, "128x256w8", 4096), (False, True, "128x256w8", 8192),
                                               (True, True, "128x256w8", 8192))) + (
    _ws_gemm("bf16", 8192, "128x256w8", persistent=True, group_m=1, tile_order=False),
    _ws_gemm("bf16", 8192, "128x256w8", grid_2d=True), _ws_gemm("bf16", 8192, "128x128w4", grid_2d=True),
    _ws_gemm("bf16", 8192, "128x256w8", grid_2d=True, tile_order=False),
    _ws_gemm("bf16", 8192, "128x128w4", grid_2d=True, tile_order=False))
"""Issue 10's GEMMs with their tiles numbered row by row, as kernels written without grouping
number them (`GROUP_M=1`): TMA persistent, pointer loads per tile and persistent; the TMA
kernel on a 2-D grid; and three through the pipeline without ttpipe-tile-order, its own
effect in the same run."""


def _tutorial_gemm(dtype_name: str, size: int, config: str, subtile: bool) -> Case:
    """Triton's tutorial 09 persistent matmul as users copy it (`matmul_tutorial_persistent`:
    `flatten=True, warp_specialize=True`, an epilogue tile counter of its own, subtiled or
    not), through `WS_PIPELINE`, against cuBLAS and stock Triton's best of the same source
    with the flag on and off (stock flattens both and specializes neither on Hopper)."""
    block_m, block_n, block_k, warps, stages = WS_CONFIGS[config]
    dtype, out_dtype = WS_DTYPES[dtype_name]
    constexprs = {"BLOCK_M": block_m, "BLOCK_N": block_n, "BLOCK_K": block_k, "GROUP_M": 8,
                  "NUM_SMS": NUM_SMS_H100, "WARP_SPECIALIZE": True, "EPILOGUE_SUBTILE": subtile}
    signature = {"a_desc": f"tensordesc<{dtype}[{block_m},{block_k}]>",
                 "b_desc": f"tensordesc<{dtype}[{block_n},{block_k}]>",
                 "c_desc": f"tensordesc<{out_dtype}[{block_m},{block_n // 2 if subtile else block_n}]>",
                 "M": "i32", "N": "i32", "K": "i32"}

    def sized_setup(torch, device, seed, constexprs, dims) -> Launch:
        return _gemm_launch(torch, device, seed, constexprs, dims, dtype, out_dtype, persistent=True)

    def setup(torch, device, seed, constexprs) -> Launch:
        return sized_setup(torch, device, seed, constexprs, (size, size, size))

    name = f"gemm-ws-tutorial09-{dtype_name}-{size}-{config}{'-subtile' if subtile else ''}"
    return Case(name, kernels.matmul_tutorial_persistent, signature, constexprs,
                {"num_warps": warps, "num_stages": stages}, ("M", "N", "K"), "TFLOP/s", 2.0 * size**3, 1e-2, setup,
                capabilities=(90, ), pipeline=WS_PIPELINE,
                stock_variants=(("ws=1", {"WARP_SPECIALIZE": True}), ("ws=0", {"WARP_SPECIALIZE": False})),
                targets=(("triton", 1.10), ("torch", 1.05)), sized_setup=sized_setup, small_sizes=GEMM_SMALL_SIZES)


TUTORIAL_GEMM_CASES = tuple(
    _tutorial_gemm(dtype_name, size, config, subtile) for config in MAIN_WS_CONFIGS for subtile in (False, True)
    for dtype_name in ("bf16", "fp16") for size in (4096, 8192))
"""Issue 10's persistent GEMM in the form of Triton's tutorial 09 (`flatten=True` with the
flag, a carried epilogue tile counter, epilogue subtiling): bf16 and fp16, both configurations."""

FP8_B_ROW_MAJOR_SMALL_SIZES = ((256, 256, 512), (300, 272, 528))
"""The e4m3 GEMM's small instances: B's rows of N bytes must be 16-byte aligned for TMA."""

B_ROW_MAJOR_DTYPES = {"tf32": ("fp32", 32), "fp8": ("fp8e4nv", 128)}
"""Case dtype -> (operand type as Triton spells it, BLOCK_K) of the GEMMs of a row-major B."""


def _b_row_major_gemm(dtype_name: str, size: int) -> Case:
    """A [M, K] @ B [K, N], B row-major as `torch.matmul` takes it (`matmul_b_row_major`), on
    tf32 (fp32 operands) or e4m3 tensor cores, whose wgmmas read B K-major only: each K step
    copies B's tile (ttpipe-transposing-copies' case). Against cuBLAS's tf32 GEMM, and for e4m3
    cuBLASLt (`torch._scaled_mm`) given B column-major, the layout it takes (made before timing)."""
    dtype, block_k = B_ROW_MAJOR_DTYPES[dtype_name]
    out_dtype = "fp32" if dtype_name == "tf32" else "bf16"
    block_m, block_n = 128, 128
    constexprs = {"BLOCK_M": block_m, "BLOCK_N": block_n, "BLOCK_K": block_k, "GROUP_M": 8}
    signature = {"a_desc": f"tensordesc<{dtype}[{block_m},{block_k}]>", "b_desc": f"tensordesc<{dtype}[{block_k},{block_n}]>",
                 "c_desc": f"tensordesc<{out_dtype}[{block_m},{block_n}]>", "M": "i32", "N": "i32", "K": "i32"}

    def sized_setup(torch, device, seed, constexprs, dims) -> Launch:
        m, n, k = dims
        generator = torch.Generator(device=device).manual_seed(seed)
        a = torch.randn(m, k, device=device, generator=generator)
        b = torch.randn(k, n, device=device, generator=generator)
        if dtype_name == "fp8":
            a, b = a.to(torch.float8_e4m3fn), b.to(torch.float8_e4m3fn)
            b_column_major, one = b.T.contiguous().T, torch.ones((), device=device)
            c = torch.empty(m, n, device=device, dtype=torch.bfloat16)

            def baseline():
                return _scaled_mm(torch, a, b_column_major, one)
        else:
            c = torch.empty(m, n, device=device)

            def baseline():
                with _tf32(torch, True):
                    return torch.matmul(a, b)

        args = (_descriptor(a, (block_m, block_k)), _descriptor(b, (block_k, block_n)), _descriptor(c, (block_m, block_n)),
                m, n, k)
        grid = (math.ceil(m / block_m) * math.ceil(n / block_n), )
        return Launch(args, grid, c, lambda: _float32_matmul(torch, a, b.T), baseline, a.nbytes + b.nbytes)

    def setup(torch, device, seed, constexprs) -> Launch:
        return sized_setup(torch, device, seed, constexprs, (size, size, size))

    return Case(f"gemm-{dtype_name}-b-kn-{size}", kernels.matmul_b_row_major, signature, constexprs,
                {"num_warps": 8, "num_stages": 3}, ("M", "N", "K"), "TFLOP/s", 2.0 * size**3,
                2e-2 if dtype_name == "fp8" else 1e-2, setup, capabilities=(90, ), sized_setup=sized_setup,
                small_sizes=GEMM_SMALL_SIZES if dtype_name == "tf32" else FP8_B_ROW_MAJOR_SMALL_SIZES)


B_ROW_MAJOR_GEMM_CASES = tuple(_b_row_major_gemm(dtype_name, size) for dtype_name in B_ROW_MAJOR_DTYPES
                               for size in (4096, 8192))
"""GEMMs of a row-major B on tensor cores that read it K-major only: tf32 and e4m3."""

CASES: dict[str, Case] = {case.name: case for case in (
    _gemm("gemm-bf16-4096", 4096, "bf16", 64, 1e-2),
    _gemm("gemm-bf16-8192", 8192, "bf16", 64, 1e-2),
    _gemm("gemm-fp8-4096", 4096, "fp8e4nv", 128, 2e-2, capabilities=(90, )),
    _batched_gemm("bmm-bf16-16x2048", 16, 2048, 1e-2),
    *ATTENTION_CASES,
    _layernorm("layernorm-bf16-16384x8192", 16384, 8192, 1e-2),
    _softmax("softmax-bf16-16384x4096", 16384, 4096, 1e-2),
    *WS_GEMM_CASES,
    *PER_TILE_GEMM_CASES,
    *WS_POINTER_GEMM_CASES,
    *ROW_MAJOR_GEMM_CASES,
    *TUTORIAL_GEMM_CASES,
    *B_ROW_MAJOR_GEMM_CASES,
    *MEMORY_BOUND_CASES,
)}
