"""The plug-in: with a pipeline of Triton's passes only, kernels compiled through ttpipe get
stock Triton's cubin under their own cache key, `uninstall()` restores stock Triton, and a
pass registered from Python runs in the plug-in's pipeline."""

import importlib.util
from dataclasses import dataclass
from typing import ClassVar

import pytest
import triton
from triton import knobs
from triton.backends.compiler import GPUTarget
from triton.backends.nvidia.compiler import CUDABackend
from triton.compiler import ASTSource
from xdsl.dialects.builtin import StringAttr
from xdsl.passes import ModulePass

import ttpipe.triton
from ttpipe.corpus.kernels import KERNELS
from ttpipe.pipeline import driver, registry
from ttpipe.pipeline.spec import PipelineError
from ttpipe.triton.plugin import current_marker, torch_scratch

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


def test_scratch_allocator_only_where_none_is_set(monkeypatch):
    """Kernels whose pointer loads became TMA loads make tensormaps in global scratch: the
    plug-in supplies torch's memory where no allocator is set, and leaves a user's alone."""
    from triton.runtime import _allocation

    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *args: object() if name == "torch" else None)
    assert _allocation._allocator.get() is _allocation._NULL_ALLOCATOR
    with ttpipe.triton.installed():
        assert _allocation._allocator.get() is torch_scratch
    assert _allocation._allocator.get() is _allocation._NULL_ALLOCATOR

    def users_own(size, alignment, stream):
        raise AssertionError("not called here")

    triton.set_allocator(users_own)
    try:
        with ttpipe.triton.installed():
            assert _allocation._allocator.get() is users_own
        assert _allocation._allocator.get() is users_own
    finally:
        triton.set_allocator(_allocation._NULL_ALLOCATOR)


def test_no_scratch_allocator_without_torch(monkeypatch):
    from triton.runtime import _allocation

    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *args: None)
    with ttpipe.triton.installed():
        assert _allocation._allocator.get() is _allocation._NULL_ALLOCATOR


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


@dataclass(frozen=True)
class NameKernels(ModulePass):
    """Test pass: `test.kernel = "<name>"` on every function, which Triton's later stages keep."""

    name: ClassVar[str] = "test-name-kernels"

    def apply(self, ctx, op) -> None:
        for func in op.ops:
            func.attributes["test.kernel"] = StringAttr(func.sym_name.data)


def test_a_registered_pass_runs_in_the_plugins_pipeline():
    with registry.scoped():
        registry.register_pass(NameKernels)
        with ttpipe.triton.installed(f"{CXX_ONLY},test-name-kernels"):
            compiled = compile_kernel("pointwise")
    name = compiled.metadata.name
    assert f'test.kernel = "{name}"' in compiled.asm["ttgir"]
    with pytest.raises(PipelineError, match="unknown pass 'test-name-kernels'"):
        ttpipe.triton.install(f"{CXX_ONLY},test-name-kernels")


def compile_row_kernel():
    """The bench's looped layer norm (rows of N in chunks of 2048, 8 warps) for sm_90."""
    from ttpipe.bench import kernels

    signature = {"x_ptr": "*bf16", "y_ptr": "*bf16", "w_ptr": "*bf16", "b_ptr": "*bf16", "stride": "i32", "N": "i32",
                 "eps": "fp32", "BLOCK": "constexpr"}
    attrs = {(index, ): [["tt.divisibility", 16]] for index in range(6)}
    source = ASTSource(kernels.layernorm_looped, signature, {"BLOCK": 2048}, attrs)
    return triton.compile(source, target=HOPPER, options={"num_warps": 8})


def test_a_launch_condition_picks_the_version_at_each_launch(monkeypatch):
    """`ttpipe-row-ring` leaves its rows' range in the kernel's metadata (not in its TTGIR); the
    wrapped `CompiledKernel.run` launches the ring (one consumer: a layer norm) where the
    row's chunks fall in it, longer rows the ring with two consumers (a second compile,
    `instead`), and rows outside both ranges a third compile without the pass; each made
    once, at the first launch that needs it."""
    from triton.compiler.compiler import CompiledKernel

    from ttpipe.triton.versions import METADATA_KEY, VersionedLaunch, launched_version, other_version, runs_itself

    original = CompiledKernel.run
    with ttpipe.triton.installed():
        marker = current_marker()
        ring = compile_row_kernel()
        versions = getattr(ring.metadata, METADATA_KEY)
        condition = versions["condition"]
        assert versions["num_warps"] == 8 and ring.metadata.num_warps > 8
        assert condition["upper"] == {"constant": None, "argument": 5, "add": 0, "divisor": 1}
        assert condition["without"] == "ttpipe-row-ring"
        assert condition["instead"] == "ttpipe-row-ring{sms=132 consumers=2}"
        assert (condition["at_least"], condition["at_most"]) == (12, 20)  # 5 of the 10 slots a row may fill
        assert "ttg.warp_specialize" in ring.asm["ttgir"] and "ttpipe.launch_when" not in ring.asm["ttgir"]

        launched = []
        monkeypatch.setattr(CompiledKernel, "_init_handles", lambda kernel: setattr(
            kernel, "_run", lambda *args: launched.append((kernel, args[4]))))
        launch = ring.run
        assert isinstance(launch, VersionedLaunch) and ring.run is launch
        row = lambda n: (None, None, None, None, n, n, 1e-5, 2048)  # noqa: E731
        for n in (32768, 40960):  # 16 chunks, 20
            launch(1, 1, 1, 0, "ring", None, None, None, None, *row(n))
            assert runs_itself(ring, row(n)) and launched_version(ring, row(n)) is ring
        assert launched == [(ring, "ring")] * 2
        launch(1, 1, 1, 0, "ring", None, None, None, None, *row(81920))  # 40 chunks: two consumers
        two = other_version(ring)
        assert launched[2:] == [(two, two.function)] and launched_version(ring, row(81920)) is two
        assert two.metadata.instrumentation_mode == f"{marker}|instead=ttpipe-row-ring{{sms=132 consumers=2}}"
        assert two.metadata.num_warps > ring.metadata.num_warps and getattr(two.metadata, METADATA_KEY)["condition"]["at_most"] == 40
        for n in (8192, 81921, 0):  # 4 chunks, 41, none: the compile without the ring
            launch(1, 1, 1, 0, "ring", None, None, None, None, *row(n))
            assert not runs_itself(ring, row(n)) and not runs_itself(two, row(n))
        plain = other_version(two)
        assert [kernel for kernel, _ in launched[3:]] == [plain] * 3 and launched_version(ring, row(0)) is plain
        assert plain.metadata.instrumentation_mode == f"{marker}|without=ttpipe-row-ring"
        assert "ttg.warp_specialize" not in plain.asm["ttgir"] and not hasattr(plain.metadata, METADATA_KEY)
    assert CompiledKernel.run is original  # uninstall unwraps it


def test_an_other_version_is_marked_with_its_pipeline_edit():
    """The other compile's `instrumentation_mode`: the pass left out, or run with other options
    `instead`; the stage hook reads the edit back from it."""
    from ttpipe.passes.common.launch_condition import Bound, TripsBetween
    from ttpipe.triton.versions import PipelineEdit, split_marker

    rows = TripsBetween(Bound(constant=0), Bound(argument=1), 2048, 13, 20, "ttpipe-row-ring")
    longer = TripsBetween(Bound(constant=0), Bound(argument=1), 2048, 13, 20, "ttpipe-row-ring",
                          "ttpipe-row-ring{sms=132 consumers=2}")
    marker = PipelineEdit.of(longer).marker("m")
    assert marker == "m|instead=ttpipe-row-ring{sms=132 consumers=2}"
    assert split_marker(marker) == ("m", PipelineEdit(instead="ttpipe-row-ring{sms=132 consumers=2}"))
    assert split_marker(PipelineEdit.of(rows).marker("m")) == ("m", PipelineEdit(left_out="ttpipe-row-ring"))
    assert split_marker("m") == ("m", None)


@pytest.mark.parametrize("asked, shown", [("remarks", True), ("warnings", False)])
def test_remarks_are_printed_where_triton_is_asked_for_them(monkeypatch, capfd, asked, shown):
    """Triton's `MLIR_ENABLE_DIAGNOSTICS=remarks` also prints why ttpipe's passes left a loop,
    at the kernel's source line; by default the compile is as quiet as Triton's. (Without the
    row ring, whose two compiles of the kernel would print nothing more, in a ninth of the time.)"""
    monkeypatch.setenv("MLIR_ENABLE_DIAGNOSTICS", asked)
    with ttpipe.triton.installed("ttgir-sm90{row-ring=false}"):
        compile_kernel("layernorm_looped")
    remarks = [line for line in capfd.readouterr().err.splitlines() if ": remark: loop not streamed: " in line]
    source = KERNELS["layernorm_looped"].fn.fn.__code__.co_filename
    assert bool(remarks) is shown and all(line.startswith(f"{source}:") for line in remarks)
    assert len(set(remarks)) == len(remarks)  # once each, though the loops are versioned
