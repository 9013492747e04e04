"""The benchmark's cases: kernel, compile-time signature, inputs, float32 reference, torch baseline.

A case's `signature` and `constexprs` are what the JIT sees at launch, so the dry run
compiles the same kernel without a GPU. `setup(torch, device, seed)` builds the inputs of
one launch (torch is imported only there).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Callable

from ttpipe.bench import kernels

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

    def attrs(self) -> dict:
        names = self.kernel.arg_names
        return {(names.index(name), ): [["tt.divisibility", 16]] for name in self.aligned}

    def full_signature(self) -> dict[str, str]:
        return {name: "constexpr" if name in self.constexprs else self.signature[name]
                for name in self.kernel.arg_names}


def _descriptor(tensor, block):
    from triton.tools.tensor_descriptor import TensorDescriptor

    return TensorDescriptor.from_tensor(tensor, list(block))


def _float32_matmul(torch, a, b_t):
    """a @ b_t.T in true float32 (no TF32)."""
    allowed = torch.backends.cuda.matmul.allow_tf32
    torch.backends.cuda.matmul.allow_tf32 = False
    try:
        return a.float() @ b_t.float().transpose(-1, -2)
    finally:
        torch.backends.cuda.matmul.allow_tf32 = allowed


def _gemm(name: str, size: int, dtype: str, block_k: int, tolerance: float,
          capabilities: tuple[int, ...] = (90, 100)) -> Case:
    block_m, block_n = 128, 256
    constexprs = {"BLOCK_M": block_m, "BLOCK_N": block_n, "BLOCK_K": block_k, "GROUP_M": 8, "NUM_SMS": NUM_SMS_H100}
    signature = {"a_desc": f"tensordesc<{dtype}[{block_m},{block_k}]>",
                 "b_desc": f"tensordesc<{dtype}[{block_n},{block_k}]>",
                 "c_desc": f"tensordesc<bf16[{block_m},{block_n}]>", "M": "i32", "N": "i32", "K": "i32"}

    def setup(torch, device, seed, constexprs) -> Launch:
        generator = torch.Generator(device=device).manual_seed(seed)
        a = torch.randn(size, size, device=device, generator=generator)
        b = torch.randn(size, size, device=device, generator=generator)
        if dtype == "fp8e4nv":
            a, b = a.to(torch.float8_e4m3fn), b.to(torch.float8_e4m3fn)
            one = torch.ones((), device=device)

            def baseline():
                result = torch._scaled_mm(a, b.T, scale_a=one, scale_b=one, out_dtype=torch.bfloat16)
                return result[0] if isinstance(result, tuple) else result
        else:
            a, b = a.to(torch.bfloat16), b.to(torch.bfloat16)

            def baseline():
                return torch.matmul(a, b.T)
        c = torch.empty(size, size, device=device, dtype=torch.bfloat16)
        tiles = math.ceil(size / block_m) * math.ceil(size / block_n)
        args = (_descriptor(a, (block_m, block_k)), _descriptor(b, (block_n, block_k)),
                _descriptor(c, (block_m, block_n)), size, size, size)
        return Launch(args, (min(constexprs["NUM_SMS"], tiles), ), c, lambda: _float32_matmul(torch, a, b), baseline,
                      a.nbytes + b.nbytes)

    return Case(name, kernels.matmul_persistent, signature, constexprs, {"num_warps": 8, "num_stages": 3},
                ("M", "N", "K"), "TFLOP/s", 2.0 * size**3, tolerance, setup, capabilities)


def _batched_gemm(name: str, batch: int, size: int, tolerance: float) -> Case:
    block_m, block_n, block_k = 128, 256, 64
    constexprs = {"BLOCK_M": block_m, "BLOCK_N": block_n, "BLOCK_K": block_k, "GROUP_M": 8}
    signature = {"a_desc": f"tensordesc<bf16[{block_m},{block_k}]>", "b_desc": f"tensordesc<bf16[{block_n},{block_k}]>",
                 "c_desc": f"tensordesc<bf16[{block_m},{block_n}]>", "M": "i32", "N": "i32", "K": "i32"}

    def setup(torch, device, seed, constexprs) -> Launch:
        generator = torch.Generator(device=device).manual_seed(seed)
        a = torch.randn(batch, size, size, device=device, generator=generator).to(torch.bfloat16)
        b = torch.randn(batch, size, size, device=device, generator=generator).to(torch.bfloat16)
        c = torch.empty(batch, size, size, device=device, dtype=torch.bfloat16)
        rows = batch * size
        args = (_descriptor(a.view(rows, size), (block_m, block_k)), _descriptor(b.view(rows, size), (block_n, block_k)),
                _descriptor(c.view(rows, size), (block_m, block_n)), size, size, size)
        grid = ((size // block_m) * (size // block_n), batch)
        return Launch(args, grid, c, lambda: _float32_matmul(torch, a, b), lambda: torch.bmm(a, b.transpose(1, 2)),
                      a.nbytes + b.nbytes)

    return Case(name, kernels.matmul_batched, signature, constexprs, {"num_warps": 8, "num_stages": 3},
                ("M", "N", "K"), "TFLOP/s", 2.0 * batch * size**3, tolerance, setup)


def _attention(name: str, batch: int, heads: int, seq_len: int, head_dim: int, tolerance: float) -> Case:
    block_m, block_n = 128, 64
    constexprs = {"BLOCK_M": block_m, "BLOCK_N": block_n, "HEAD_DIM": head_dim}
    signature = {"q_desc": f"tensordesc<bf16[{block_m},{head_dim}]>", "k_desc": f"tensordesc<bf16[{block_n},{head_dim}]>",
                 "v_desc": f"tensordesc<bf16[{block_n},{head_dim}]>", "o_desc": f"tensordesc<bf16[{block_m},{head_dim}]>",
                 "qk_scale": "fp32", "seq_len": "i32"}
    sm_scale = head_dim**-0.5

    def setup(torch, device, seed, constexprs) -> Launch:
        generator = torch.Generator(device=device).manual_seed(seed)
        shape = (batch, heads, seq_len, head_dim)
        q, k, v = (torch.randn(shape, device=device, generator=generator).to(torch.bfloat16) for _ in range(3))
        o = torch.empty(shape, device=device, dtype=torch.bfloat16)
        rows = batch * heads * seq_len

        def reference():
            out = torch.empty(shape, device=device, dtype=torch.float32)
            for b in range(batch):
                for h in range(heads):
                    scores = _float32_matmul(torch, q[b, h], k[b, h]) * sm_scale
                    out[b, h] = torch.softmax(scores, dim=-1) @ v[b, h].float()
            return out

        args = tuple(_descriptor(t.view(rows, head_dim), (blk, head_dim))
                     for t, blk in ((q, block_m), (k, block_n), (v, block_n), (o, block_m)))
        args += (sm_scale * math.log2(math.e), seq_len)
        return Launch(args, (seq_len // block_m, batch * heads), o, reference,
                      lambda: torch.nn.functional.scaled_dot_product_attention(q, k, v), 3 * q.nbytes)

    return Case(name, kernels.attention_fwd, signature, constexprs, {"num_warps": 8, "num_stages": 3}, ("seq_len", ),
                "TFLOP/s", 4.0 * batch * heads * seq_len**2 * head_dim, tolerance, setup)


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


CASES: dict[str, Case] = {case.name: case for case in (
    _gemm("gemm-bf16-4096", 4096, "bf16", 64, 1e-2),
    _gemm("gemm-bf16-8192", 8192, "bf16", 64, 1e-2),
    _gemm("gemm-fp8-4096", 4096, "fp8e4nv", 128, 2e-2, capabilities=(90, )),
    _batched_gemm("bmm-bf16-16x2048", 16, 2048, 1e-2),
    _attention("attn-fwd-bf16-d128", 4, 16, 4096, 128, 2e-2),
    _layernorm("layernorm-bf16-16384x8192", 16384, 8192, 1e-2),
    _softmax("softmax-bf16-16384x4096", 16384, 4096, 1e-2),
)}
