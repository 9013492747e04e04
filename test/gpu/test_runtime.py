"""On an sm_90a (H100) or sm_100a GPU: kernels compiled by `ttpipe.compile` from the corpus
(its final TTGIR, and its TTIR through the arch's default ttpipe pipeline) run through
`ttpipe.runtime` (cuda-python, no Triton launcher) and match torch; outputs start as NaN
so that an element the kernel never writes fails. Covered: pointer and scalar arguments,
host-side TMA descriptors (CUtensorMap), global scratch (device-side descriptors), and a
cluster launch (num_ctas=2)."""

import importlib.util
import pathlib

import pytest

from ttpipe import compile as ttpipe_compile

CORPUS = pathlib.Path(__file__).parent.parent / "corpus"
ARCHS = {90: ("sm_90a", "sm90a"), 100: ("sm_100a", "sm100a")}


def _gpu_arch():
    """(arch, corpus target) of the GPU here, or the reason the tests cannot run."""
    if importlib.util.find_spec("torch") is None or importlib.util.find_spec("cuda") is None:
        return None, "needs torch, cuda-python and an NVIDIA sm_90a (H100) GPU"
    import torch

    if not torch.cuda.is_available():
        return None, "needs an NVIDIA sm_90a (H100) GPU: torch.cuda.is_available() is false"
    major, minor = torch.cuda.get_device_capability()
    if major * 10 + minor not in ARCHS:
        return None, f"needs an sm_90a (H100) or sm_100a GPU, not sm_{major}{minor}"
    return ARCHS[major * 10 + minor], None


ARCH, WHY_NOT = _gpu_arch()
pytestmark = [pytest.mark.gpu, pytest.mark.skipif(ARCH is None, reason=WHY_NOT or "")]
SOURCES = ["final-ttgir.mlir", "final-ttir.mlir"]


def compiled_kernel(kernel: str, source: str, tmp_path, **options):
    from ttpipe.runtime import Kernel

    arch, target = ARCH
    path = CORPUS / target / kernel / source
    compiled = ttpipe_compile.compile_file(str(path), arch, **options)
    if source.endswith("ttir.mlir"):
        return Kernel.from_compiled(compiled)
    written = ttpipe_compile.write_outputs(compiled, str(tmp_path / f"{kernel}.cubin"))
    return Kernel.from_files(written["cubin"])


def relative_error(torch, out, reference) -> float:
    out, reference = out.float(), reference.float()
    return float(torch.linalg.vector_norm(out - reference) / torch.linalg.vector_norm(reference))


@pytest.mark.parametrize("source,num_ctas", [(source, 1) for source in SOURCES] + [("final-ttir.mlir", 2)])
def test_pointwise(tmp_path, source, num_ctas):
    import torch

    kernel = compiled_kernel("pointwise", source, tmp_path, **({"num_ctas": num_ctas} if num_ctas > 1 else {}))
    assert kernel.num_ctas == num_ctas
    assert kernel.signature == ["*bf16", "*bf16", "*bf16", "fp32", "i32"]
    n, scale = (1 << 20) + 48, 0.75  # n: a multiple of 16 (the kernel assumes it), not of the block
    x = torch.randn(n, device="cuda").to(torch.bfloat16)
    y = torch.randn(n, device="cuda").to(torch.bfloat16)
    out = torch.full((n, ), float("nan"), device="cuda", dtype=torch.bfloat16)
    kernel[(cdiv(n, 1024), )](x, y, out, scale, n)
    torch.cuda.synchronize()
    h = (x.float() + y.float()) * scale
    reference = 0.5 * h * (1 + torch.tanh(0.7978845608028654 * (h + 0.044715 * h**3)))
    assert not out.isnan().any()
    assert relative_error(torch, out, reference) < 1e-2
    kernel.close()


@pytest.mark.parametrize("source", SOURCES)
def test_tma_descriptor_matmul(tmp_path, source):
    import torch

    from ttpipe.runtime import TensorDescriptor

    kernel = compiled_kernel("matmul_tma_persistent", source, tmp_path)
    assert kernel.signature[:3] == ["tensordesc<fp16[128,64]>"] * 2 + ["tensordesc<fp16[128,128]>"]
    m, n, k = 2000, 2048, 520  # edges in M and K: TMA fills out-of-bounds loads with zeros, clips stores
    a = torch.randn(m, k, device="cuda").to(torch.float16)
    b = torch.randn(n, k, device="cuda").to(torch.float16)
    c = torch.full((m, n), float("nan"), device="cuda", dtype=torch.float16)
    tiles = cdiv(m, 128) * cdiv(n, 128)
    num_sms = 132  # the NUM_SMS constexpr the corpus kernel was compiled with
    kernel[(min(num_sms, tiles), )](TensorDescriptor.from_tensor(a, [128, 64]), TensorDescriptor.from_tensor(b, [128, 64]),
                                    TensorDescriptor.from_tensor(c, [128, 128]), m, n, k)
    torch.cuda.synchronize()
    assert not c.isnan().any()
    assert relative_error(torch, c, a.float() @ b.float().T) < 1e-2


@pytest.mark.parametrize("source", SOURCES)
def test_device_side_descriptors_use_global_scratch(tmp_path, source):
    import torch

    kernel = compiled_kernel("batched_matmul_desc3d", source, tmp_path)
    assert kernel.metadata["global_scratch_size"] > 0 and kernel.metadata["tensordesc_meta"] == []
    batch, m, n, k = 3, 384, 256, 192  # multiples of 16 (the kernel assumes it) and of the 128x128 tile
    a = torch.randn(batch, m, k, device="cuda").to(torch.bfloat16)
    b = torch.randn(batch, k, n, device="cuda").to(torch.bfloat16)
    c = torch.full((batch, m, n), float("nan"), device="cuda", dtype=torch.bfloat16)
    kernel[(m // 128, n // 128, batch)](a, b, c, batch, m, n, k)
    torch.cuda.synchronize()
    assert not c.isnan().any()
    assert relative_error(torch, c, a.float() @ b.float()) < 1e-2


def cdiv(a: int, b: int) -> int:
    return -(-a // b)
