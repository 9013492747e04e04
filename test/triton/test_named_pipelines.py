"""The named pipelines `ttgir-sm80/90/100` are Triton 3.6's `make_ttgir`: the same passes
with the same arguments in the same order, and (with `impl=triton`) the same TTGIR from
the same TTIR."""

import json
import pathlib

import pytest
from pipeline_parity import ADDITIONS_OFF
from triton._C.libtriton import ir
from triton.backends.compiler import GPUTarget
from triton.backends.nvidia.compiler import CUDABackend

from ttpipe.pipeline import driver, spec
from ttpipe.pipeline import registry
from ttpipe.pipeline.registry import PassInfo, PassOption, all_passes
from ttpipe.textio import parse_module, print_module
from ttpipe.triton import pipelines
from ttpipe.triton.mlir import parse_file, reprint_text, triton_context

CORPUS = pathlib.Path(__file__).parent.parent / "corpus"
CAPABILITIES = pipelines.CAPABILITIES


def make_ttgir(path: pathlib.Path, capability: int, options: dict) -> str:
    """What Triton's own backend makes of the TTIR in `path`."""
    module = parse_file(str(path))
    module.context = triton_context()
    backend = CUDABackend(GPUTarget("cuda", capability, 32))
    CUDABackend.make_ttgir(module, {}, backend.parse_options(options), capability)
    return module.str()


def _pipeline_text(name: str, options: dict) -> str:
    given = " ".join(f"{key.replace('_', '-')}={value}" for key, value in options.items())
    return f"{name}{{{given}}}"


def _pass_manager_pipeline(invocations) -> str:
    pm = ir.pass_manager(triton_context())
    for invocation in invocations:
        invocation.info.create(invocation.options)(pm)
    return pm.get_pipeline_str()


@pytest.mark.parametrize("name", CAPABILITIES)
@pytest.mark.parametrize("options", [{}, {"num_warps": 8, "num_stages": 5, "num_ctas": 2}], ids=["defaults", "given"])
def test_pipeline_is_make_ttgirs(monkeypatch, tmp_path, name, options):
    capability = CAPABILITIES[name]
    if capability < 90:
        options = {**options, "num_ctas": 1}  # Triton's options refuse clusters before sm_90
    built = []

    class Recording(ir.pass_manager):
        def run(self, module, tag):
            built.append(self.get_pipeline_str())

    source = tmp_path / "kernel.mlir"
    source.write_text("module {\n  tt.func public @kernel() {\n    tt.return\n  }\n}\n")
    monkeypatch.setattr(ir, "pass_manager", Recording)
    make_ttgir(source, capability, options)
    monkeypatch.undo()
    ours = spec.parse(_pipeline_text(name, {"impl": "triton", "verify-async": "false", **options}))
    assert [_pass_manager_pipeline(ours)] == built


@pytest.mark.parametrize("name", CAPABILITIES)
def test_every_named_pipeline_ends_with_the_async_check(name):
    for impl in ("triton", "ttpipe"):
        assert spec.parse(f"{name}{{impl={impl}}}")[-1].info.name == "ttpipe-verify-async"
        assert all(i.info.name != "ttpipe-verify-async"
                   for i in spec.parse(f"{name}{{impl={impl} verify-async=false}}"))


EQUALITY_CASES = [
    ("ttgir-sm80", "sm90a", "matmul_ptr"),
    ("ttgir-sm80", "sm90a", "softmax"),
    ("ttgir-sm90", "sm90a", "matmul_ptr"),
    ("ttgir-sm90", "sm90a", "flash_attention_fwd"),
    ("ttgir-sm90", "sm90a", "matmul_tma_persistent"),
    ("ttgir-sm100", "sm100a", "matmul_ptr"),
    ("ttgir-sm100", "sm100a", "flash_attention_fwd"),
    ("ttgir-sm100", "sm100a", "matmul_tma_persistent"),
]


@pytest.mark.parametrize("name,target,kernel", EQUALITY_CASES, ids=lambda x: x)
def test_output_is_make_ttgirs(name, target, kernel):
    path = CORPUS / target / kernel / "final-ttir.mlir"
    options = json.loads((path.parent / "manifest.json").read_text())["options"]
    parsed = parse_module(path.read_text(), str(path))
    module = driver.run(parsed.module, spec.parse(_pipeline_text(name, {"impl": "triton", **options})))
    ours = reprint_text(print_module(module), str(path))
    assert ours == reprint_text(make_ttgir(path, CAPABILITIES[name], options), str(path))


def _steps(pipeline: str) -> list[str]:
    return [invocation.describe() for invocation in spec.parse(pipeline)]


@pytest.mark.parametrize("name", CAPABILITIES)
def test_impl_ttpipe_replaces_exactly_the_registered_passes(name):
    registered = {cpp: python for cpp, python in pipelines.PYTHON_REPLACEMENTS.items() if python in all_passes()}
    default, triton = spec.parse(f"{name}{{{ADDITIONS_OFF[name]}}}"), spec.parse(f"{name}{{impl=triton}}")
    assert len(default) == len(triton)
    for ours, theirs in zip(default, triton):
        assert ours.info.name == registered.get(theirs.info.name, theirs.info.name)


def test_sm90_adds_warp_specialization_and_streams_by_default():
    """With impl=ttpipe, sm_90's pipeline warp-specializes the loops users mark (ttpipe's pass
    in place of nvgpu-warp-specialization) and streams memory-bound loops before the
    pipeliner; impl=triton keeps Triton's pass, and asking it to stream is an error."""
    default = [step.info.name for step in spec.parse("ttgir-sm90")]
    assert "ttpipe-warp-specialize" in default and "nvgpu-warp-specialization" not in default
    assert default.index("ttpipe-stream-loops") == default.index("ttpipe-assign-latencies") - 1
    assert "ttpipe-row-cache" not in default
    # tiles regrouped while the persistent loop's index is still its own (before the nest is kept or fused)
    assert default.index("ttpipe-tile-order") + 1 == default.index("ttpipe-ws-keep-nest")
    assert default.index("ttpipe-ws-keep-nest") + 1 == default.index("tritongpu-fuse-nested-loops")
    unspecialized = [step.info.name for step in spec.parse("ttgir-sm90{warp-specialize=false}")]
    assert unspecialized.index("ttpipe-tile-order") + 1 == unspecialized.index("tritongpu-fuse-nested-loops")
    assert "ttpipe-tile-order" not in [step.info.name for step in spec.parse("ttgir-sm90{tile-order=false}")]
    # the row ring first (its rows' loops as the user wrote them), then the L2 hints
    assert default.index("ttpipe-row-ring") + 1 == default.index("ttpipe-l2-eviction")
    assert "ttpipe-row-ring" not in [step.info.name for step in spec.parse("ttgir-sm90{row-ring=false}")]
    # the L2 hints, the row caches and the reversal of re-reads, which changes the pointers they match
    assert default.index("ttpipe-l2-eviction") + 1 == default.index("ttpipe-reverse-rereads")
    assert "ttpipe-row-head-cache" not in default
    cached = [step.info.name for step in spec.parse("ttgir-sm90{row-cache=true row-head-cache=true}")]
    assert cached.index("ttpipe-row-cache") + 1 == cached.index("ttpipe-row-head-cache")
    assert cached.index("ttpipe-row-head-cache") + 1 == cached.index("ttpipe-reverse-rereads")
    triton = [step.info.name for step in spec.parse("ttgir-sm90{impl=triton}")]
    assert "nvgpu-warp-specialization" in triton and "ttpipe-stream-loops" not in triton
    assert "ttpipe-reverse-rereads" not in triton
    assert "ttpipe-row-cache" not in triton and "ttpipe-tile-order" not in triton
    with pytest.raises(spec.PipelineError, match="option 'tile-order' is for ttgir-sm90 and ttgir-sm100 with impl=ttpipe"):
        spec.parse("ttgir-sm80{tile-order=true}")
    with pytest.raises(spec.PipelineError, match="option 'stream-loops' is for ttgir-sm90 with impl=ttpipe"):
        spec.parse("ttgir-sm90{impl=triton stream-loops=true}")
    with pytest.raises(spec.PipelineError, match="option 'stream-loops' is for ttgir-sm90"):
        spec.parse("ttgir-sm100{stream-loops=true}")


def test_sm100_walks_tiles_in_groups_before_loops_are_fused():
    """Tile order is no matter of the MMA unit: sm_100's pipeline regroups tiles as sm_90's
    does (its other additions stay Hopper's), and impl=triton leaves it out."""
    default = [step.info.name for step in spec.parse("ttgir-sm100")]
    assert default.index("ttpipe-tile-order") + 1 == default.index("tritongpu-fuse-nested-loops")
    assert not {"ttpipe-warp-specialize", "ttpipe-row-ring", "ttpipe-stream-loops"} & set(default)
    assert "ttpipe-tile-order" not in [step.info.name for step in spec.parse("ttgir-sm100{tile-order=false}")]
    assert "ttpipe-tile-order" not in [step.info.name for step in spec.parse("ttgir-sm100{impl=triton}")]


@pytest.mark.parametrize("name", CAPABILITIES)
@pytest.mark.parametrize("option", ["full-tile-versions", "transposing-copies"])
def test_every_target_ends_with_full_tile_versions_and_transposing_copies(name, option):
    """ttpipe-full-tile-versions, then ttpipe-transposing-copies, run on every target's final
    TTGIR, after the other additions and before the async check; `<option>=false` and
    impl=triton leave each out."""
    default = [step.info.name for step in spec.parse(name)]
    assert default[-3:] == ["ttpipe-full-tile-versions", "ttpipe-transposing-copies", "ttpipe-verify-async"]
    assert f"ttpipe-{option}" not in [step.info.name for step in spec.parse(f"{name}{{{option}=false}}")]
    assert f"ttpipe-{option}" not in [step.info.name for step in spec.parse(f"{name}{{impl=triton}}")]
    with pytest.raises(spec.PipelineError, match=f"option '{option}' is for ttgir-sm80 and ttgir-sm90 and "
                                                 "ttgir-sm100 with impl=ttpipe"):
        spec.parse(f"{name}{{impl=triton {option}=true}}")


@pytest.fixture
def no_python_passes():
    """The registry without any of the Python passes that replace C++ ones (for the test)."""
    with registry.scoped():
        for name in pipelines.PYTHON_REPLACEMENTS.values():
            if name in all_passes():
                registry.unregister_pass(name)
        yield


def _python_pass(name: str, *options: PassOption) -> None:
    registry.register_pass(PassInfo(name, "stand-in", options, "python", lambda values: None))


def test_impl_ttpipe_runs_the_registered_python_passes(no_python_passes):
    parity = ADDITIONS_OFF["ttgir-sm90"]
    assert _steps(f"ttgir-sm90{{{parity}}}") == _steps("ttgir-sm90{impl=triton}")
    _python_pass("ttpipe-accelerate-matmul")
    _python_pass("ttpipe-pipeline", PassOption("num-stages", int, 3))
    assert _steps(f"ttgir-sm90{{{parity}num-stages=4}}") == [
        {"tritongpu-accelerate-matmul": "ttpipe-accelerate-matmul",
         "tritongpu-pipeline{num-stages=4 dump-intermediate-steps=false}": "ttpipe-pipeline{num-stages=4}",
         }.get(step, step) for step in _steps("ttgir-sm90{num-stages=4 impl=triton}")]


def test_a_python_pass_lacking_a_needed_option_is_an_error(no_python_passes):
    _python_pass("ttpipe-assign-latencies")
    spec.parse(f"ttgir-sm90{{{ADDITIONS_OFF['ttgir-sm90']}}}")  # num-stages=3 is the C++ pass's default: nothing lost
    with pytest.raises(spec.PipelineError, match="pass 'ttpipe-assign-latencies' has no option 'num-stages'"):
        spec.parse(f"ttgir-sm90{{{ADDITIONS_OFF['ttgir-sm90']}num-stages=4}}")
