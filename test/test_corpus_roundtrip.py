"""Every corpus file round-trips: Triton reads ttpipe's output back as the same module, and
a final TTGIR printed by ttpipe compiles to the same cubin as the original."""

import pathlib
import shutil

import pytest

from corpus_kernels import CORPUS, CORPUS_KERNELS, KERNEL_DIRS

from ttpipe.roundtrip import check
from ttpipe.textio import parse_module, print_module



def test_the_whole_corpus_is_checked():
    assert len(KERNEL_DIRS) == CORPUS_KERNELS


@pytest.mark.parametrize("kernel_dir", KERNEL_DIRS, ids=lambda p: f"{p.parent.name}-{p.name}")
def test_kernel_snapshots_roundtrip(kernel_dir: pathlib.Path):
    failures = []
    for path in sorted(kernel_dir.glob("*.mlir")):
        outcome = check(str(path))
        if not outcome.ok:
            failures.append(f"{path.name}:\n{outcome.detail}")
    assert not failures, "\n\n".join(failures[:3]) + f"\n({len(failures)} files failed)"


def _final_ttgir(target: str, kernel: str) -> pathlib.Path:
    return CORPUS / target / kernel / "final-ttgir.mlir"


@pytest.mark.parametrize("target,kernel,arch", [
    ("sm90a", "matmul_tma_persistent", 90),
    ("sm100a", "matmul_tma_persistent_ws", 100),  # ptxas-blackwell 12.9 is not deterministic on most tcgen05 kernels
])
def test_final_ttgir_gives_the_same_cubin(tmp_path, target, kernel, arch):
    import triton
    from triton.backends.compiler import GPUTarget

    source = _final_ttgir(target, kernel)
    assert source.exists(), f"{source} is not in the corpus"
    original = tmp_path / "original.ttgir"
    shutil.copy(source, original)
    ours = tmp_path / "ttpipe.ttgir"
    ours.write_text(print_module(parse_module(original.read_text(), str(original)).module))
    gpu = GPUTarget("cuda", arch, 32)
    expected = triton.compile(str(original), target=gpu).asm["cubin"]
    got = triton.compile(str(ours), target=gpu).asm["cubin"]
    assert got == expected
