"""Pipelines mixing Triton's C++ passes: consecutive ones run in ONE Triton pass manager
(one hand-off of the IR), and every way they can fail is one clean line on stderr."""

from dataclasses import dataclass
from typing import ClassVar

import pytest
from triton._C.libtriton import ir
from xdsl.dialects.builtin import UnitAttr
from xdsl.passes import ModulePass

import ttpipe.triton.handoff as handoff
from ttpipe import opt
from ttpipe.pipeline import registry, spec

ADD = """\
module {
  tt.func public @add(%x: !tt.ptr<f32>, %y: !tt.ptr<f32>) {
    %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
    %px = tt.splat %x : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>>
    %p = tt.addptr %px, %r : tensor<128x!tt.ptr<f32>>, tensor<128xi32>
    %v = tt.load %p : tensor<128x!tt.ptr<f32>>
    %w = arith.addf %v, %v : tensor<128xf32>
    %py = tt.splat %y : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>>
    %q = tt.addptr %py, %r : tensor<128x!tt.ptr<f32>>, tensor<128xi32>
    tt.store %q, %w : tensor<128x!tt.ptr<f32>>
    tt.return
  }
}
"""
LOAD_LINE, LOAD_COLUMN = 6, 10

TO_TTGIR = "convert-triton-to-tritongpu{target=cuda:90 num-warps=8}"


@dataclass(frozen=True)
class MarkModule(ModulePass):
    """Test pass: sets the unit attribute `test.marked` on the module."""

    name: ClassVar[str] = "test-mark-module"

    def apply(self, ctx, op) -> None:
        op.attributes["test.marked"] = UnitAttr()


@pytest.fixture
def source(tmp_path):
    path = tmp_path / "add.mlir"
    path.write_text(ADD)
    return path


@pytest.fixture
def handoffs(monkeypatch):
    """The passes of each hand-off to Triton, and the number of Triton pass managers built."""
    batches: list[list[str]] = []
    managers = []
    run_triton_passes = handoff.run_triton_passes

    def counting(module, batch):
        batches.append([invocation.info.name for invocation in batch])
        return run_triton_passes(module, batch)

    class Counted(ir.pass_manager):
        def __init__(self, context):
            super().__init__(context)
            managers.append(self)

    monkeypatch.setattr(ir, "pass_manager", Counted)
    with registry.scoped():
        registry.register_runner("triton", counting, replace=True)
        yield batches, managers


def run_opt(capsys, *argv) -> tuple[int, str, str]:
    status = opt.run([str(a) for a in argv])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_consecutive_triton_passes_run_in_one_pass_manager(capsys, source, handoffs):
    batches, managers = handoffs
    status, out, err = run_opt(capsys, source, "-p", f"{TO_TTGIR},tritongpu-coalesce,cse,canonicalize")
    assert (status, err) == (0, "")
    assert batches == [["convert-triton-to-tritongpu", "tritongpu-coalesce", "cse", "canonicalize"]]
    assert len(managers) == 1
    assert 'ttg.target = "cuda:90"' in out and "#ttg.blocked" in out


def test_a_named_pipeline_is_one_hand_off(capsys, source, handoffs):
    batches, managers = handoffs
    pipeline = "ttgir-sm90{impl=triton verify-async=false}"
    status, out, err = run_opt(capsys, source, "-p", pipeline)
    assert (status, err) == (0, "")
    assert len(batches) == len(managers) == 1
    assert batches[0] == [invocation.info.name for invocation in spec.parse(pipeline)]


def test_a_python_pass_splits_the_triton_passes(capsys, source, handoffs):
    batches, managers = handoffs
    registry.register_pass(MarkModule)  # undone with the runner (`handoffs`)
    pipeline = f"{TO_TTGIR},cse,{MarkModule.name},tritongpu-coalesce,canonicalize"
    status, out, err = run_opt(capsys, source, "-p", pipeline)
    assert (status, err) == (0, "")
    assert batches == [["convert-triton-to-tritongpu", "cse"], ["tritongpu-coalesce", "canonicalize"]]
    assert len(managers) == 2
    assert "test.marked" in out  # set in Python, kept by Triton's passes after it


def test_printing_the_ir_after_a_pass_splits_its_batch(capsys, source, handoffs):
    batches, _ = handoffs
    status, _, err = run_opt(capsys, source, "-p", f"{TO_TTGIR},tritongpu-coalesce,cse,canonicalize",
                             "--print-ir-after=tritongpu-coalesce")
    assert status == 0 and err.startswith("// -----// IR Dump After tritongpu-coalesce")
    assert batches == [["convert-triton-to-tritongpu"], ["tritongpu-coalesce"], ["cse", "canonicalize"]]


def test_what_triton_passes_print_goes_to_stderr(capsys, source):
    status, out, err = run_opt(capsys, source, "-p", "print-ir,cse")
    assert status == 0 and out.startswith("module {")
    assert err.startswith("// -----// IR Dump //----- //\nmodule {")


@pytest.mark.parametrize("argv,message", [
    (["-p", "cse,tritongpu-pipelining"],
     "ttpipe-opt: -p: error: unknown pass 'tritongpu-pipelining' (ttpipe-opt --list-passes lists them)"),
    (["-p", "tritongpu-pipeline{stages=2}"],
     "ttpipe-opt: -p: error: pass 'tritongpu-pipeline' has no option 'stages' "
     "(options: num-stages, dump-intermediate-steps)"),
    (["-p", "ttgir-sm90{num-warps=3}"],
     "ttpipe-opt: -p: error: option 'num-warps' of pass 'ttgir-sm90' must be a power of two, not '3'"),
    (["-p", "ttgir-sm100{impl=fast}"],
     "ttpipe-opt: -p: error: option 'impl' of pass 'ttgir-sm100' must be one of triton, ttpipe, not 'fast'"),
    (["-p", "ttgir-sm80{num-stages=many}"],
     "ttpipe-opt: -p: error: option 'num-stages' of pass 'ttgir-sm80' takes an integer, not 'many'"),
    (["-p", "tritongpu-pipeline{num-stages=4294967296}"],
     "ttpipe-opt: -p: error: option 'num-stages' of pass 'tritongpu-pipeline' must fit in 32 bits, "
     "not '4294967296'"),
    (["--convert-triton-to-tritongpu=target=sm90"],
     "ttpipe-opt: command line: error: option 'target' of pass 'convert-triton-to-tritongpu' "
     "must look like cuda:90 or hip:gfx942, not 'sm90'"),
    (["-p", "tritongpu-coalesce"],
     f"{{file}}:{LOAD_LINE}:{LOAD_COLUMN}: error: "
     "'tt.load' op is not contained within a context that specifies the number of warps"),
    (["-p", "convert-triton-to-tritongpu"],
     "{file}:1:1: error: 'convert-triton-to-tritongpu' requires 'target' option to be set"),
    (["-p", "tritongpu-accelerate-matmul"],
     "{file}:1:1: error: Triton crashed in 'tritongpu-accelerate-matmul': assertion failed: "
     "targetAttr && \"Expected a target attribute on the module operation\" (Utility.cpp:1051)"),
], ids=["unknown-pass", "unknown-option", "power-of-two", "impl", "not-an-integer", "int32", "target",
        "op-error", "module-error", "crash"])
def test_errors_are_one_line(capsys, tmp_path, source, argv, message):
    output = tmp_path / "out.mlir"
    status, out, err = run_opt(capsys, source, *argv, "-o", output)
    assert (status, out) == (1, "")
    assert err == message.format(file=source) + "\n"
    assert not output.exists()
