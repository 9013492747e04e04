"""The plug-in: with a pipeline of Triton's passes only, kernels compiled through ttpipe get
stock Triton's cubin under their own cache key, and `uninstall()` restores stock Triton."""

import pytest
import triton
from triton import knobs
from triton.backends.compiler import GPUTarget
from triton.backends.nvidia.compiler import CUDABackend
from triton.compiler import ASTSource

import ttpipe.triton
from ttpipe.corpus.kernels import KERNELS
from ttpipe.pipeline import driver
from ttpipe.pipeline.spec import PipelineError
from ttpipe.triton.plugin import current_marker

HOPPER = GPUTarget("cuda", 90, 32)
CXX_ONLY = "ttgir-sm90{impl=triton}"


@pytest.fixture(autouse=True)
def fresh_cache(tmp_path):
    """A cache of this test's own, so that every compile runs its stages; no plug-in left behind."""
    with knobs.cache.scope():
        knobs.cache.dir = str(tmp_path / "cache")
        yield
    ttpipe.triton.uninstall()


def compile_kernel(name: str):
    spec = KERNELS[name]
    source = ASTSource(spec.fn, spec.full_signature, spec.constexprs, spec.attrs())
    return triton.compile(source, target=HOPPER, options=spec.options)


@pytest.mark.parametrize("kernel", ["pointwise", "matmul_tma_persistent"])
def test_cxx_only_pipeline_gives_stock_cubin_under_another_key(monkeypatch, kernel):
    runs = []
    run = driver.run

    def logged_run(module, invocations, **hooks):
        runs.append([invocation.info.name for invocation in invocations])
        return run(module, invocations, **hooks)

    monkeypatch.setattr(driver, "run", logged_run)
    stock = compile_kernel(kernel)
    with ttpipe.triton.installed(CXX_ONLY):
        marker = current_marker()
        ours = compile_kernel(kernel)
    again = compile_kernel(kernel)

    assert len(runs) == 1 and runs[0][0] == "convert-triton-to-tritongpu" and "tritongpu-pipeline" in runs[0]
    assert ours.asm["cubin"] == stock.asm["cubin"]
    assert ours.hash != stock.hash and again.hash == stock.hash
    assert ours.metadata.instrumentation_mode == marker and CXX_ONLY in marker
    assert ours.metadata.tensordesc_meta == stock.metadata.tensordesc_meta


def test_uninstall_restores_stock_triton():
    hook, parse_options = knobs.runtime.add_stages_inspection_hook, CUDABackend.parse_options
    ttpipe.triton.install(CXX_ONLY)
    assert knobs.runtime.add_stages_inspection_hook is not hook
    assert knobs.compilation.instrumentation_mode == current_marker()
    ttpipe.triton.install()  # installing again replaces the pipeline
    assert current_marker().endswith(":auto")
    ttpipe.triton.uninstall()
    assert knobs.runtime.add_stages_inspection_hook is hook and CUDABackend.parse_options is parse_options
    assert knobs.compilation.instrumentation_mode == "" and current_marker() is None


def test_installed_restores_the_outer_installation():
    with ttpipe.triton.installed():
        outer = current_marker()
        with ttpipe.triton.installed(CXX_ONLY):
            assert current_marker() != outer
        assert current_marker() == outer
    assert current_marker() is None


def test_bad_pipeline_is_refused_before_anything_changes():
    with pytest.raises(PipelineError):
        ttpipe.triton.install("no-such-pass")
    assert current_marker() is None and knobs.runtime.add_stages_inspection_hook is None
