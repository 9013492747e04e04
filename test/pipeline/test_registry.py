"""The pass registry and the driver: registering passes and runners, what registering
refuses, running them, the registry without the Triton bridge, and `driver.remarks()`."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import dataclass
from typing import ClassVar

import pytest
from xdsl.context import Context
from xdsl.dialects.builtin import IntegerAttr, ModuleOp, StringAttr, i32
from xdsl.passes import ModulePass

from ttpipe.pipeline import driver, registry, spec
from ttpipe.pipeline.registry import PassInfo, PassOption, PipelineError, all_passes, register_pass, register_runner
from ttpipe.textio import parse_module, print_module

KERNEL = """
module attributes {"ttg.target" = "cuda:90", "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32} {
  tt.func @kernel(%src: !tt.ptr<f32>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    scf.for %i = %c0 to %n step %c1 : i32 {
      %p = tt.addptr %src, %i : !tt.ptr<f32>, i32
      %v = tt.load %p : !tt.ptr<f32>
      gpu.barrier
      tt.store %p, %v : !tt.ptr<f32>
    } {tt.num_stages = 3 : i32}
    tt.return
  }
}
"""


@dataclass(frozen=True)
class Stamp(ModulePass):
    """Stamp the module with `test.stamp = <value>`."""

    name: ClassVar[str] = "test-stamp"

    value: int = 1

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        op.attributes["test.stamp"] = IntegerAttr(self.value, i32)


def kernel() -> ModuleOp:
    return parse_module(KERNEL, "kernel.mlir").module


@pytest.fixture(autouse=True)
def scoped():
    """Every registration a test makes is undone after it."""
    with registry.scoped():
        yield


def test_a_registered_pass_runs_by_name_with_its_options():
    assert "test-stamp" not in all_passes()
    assert register_pass(Stamp) is Stamp
    info = all_passes()["test-stamp"]
    assert (info.kind, info.summary, [o.name for o in info.options]) == ("python", Stamp.__doc__, ["value"])
    module = driver.run(kernel(), spec.parse("test-stamp{value=7}"))
    assert module.attributes["test.stamp"] == IntegerAttr(7, i32)


def test_register_pass_decorates_a_class():
    @register_pass
    @dataclass(frozen=True)
    class Decorated(ModulePass):
        name: ClassVar[str] = "test-decorated"

        def apply(self, ctx: Context, op: ModuleOp) -> None:
            op.attributes["test.decorated"] = StringAttr("yes")

    @register_pass(replace=True)
    @dataclass(frozen=True)
    class Again(Decorated):
        """Replaces the pass of the same name."""

    assert all_passes()["test-decorated"].summary == "Replaces the pass of the same name."
    assert "test.decorated" in driver.run(kernel(), spec.parse("test-decorated")).attributes


def test_scoped_undoes_registrations():
    before = registry.snapshot()
    with registry.scoped():
        register_pass(Stamp)
        registry.unregister_pass("ttpipe-pipeline")
        register_runner("test-kind", lambda module, batch: module)
        assert registry.snapshot() != before
    assert registry.snapshot() == before
    assert "test-stamp" not in all_passes() and "ttpipe-pipeline" in all_passes()
    with pytest.raises(PipelineError, match="no runner for passes of kind 'test-kind'"):
        registry.runner("test-kind")


def test_a_taken_name_needs_replace():
    register_pass(Stamp)
    with pytest.raises(ValueError, match=r"pass 'test-stamp' is already registered \(a python pass\); replace=True"):
        register_pass(Stamp)
    register_pass(Stamp, replace=True)

    @dataclass(frozen=True)
    class Impostor(Stamp):
        name: ClassVar[str] = "ttpipe-pipeline"

    with pytest.raises(ValueError, match="'ttpipe-pipeline' is already registered .entry point 'ttpipe-pipeline = "
                                         "ttpipe.passes.pipeline.pipeline:Pipeline' of package 'ttpipe'"):
        register_pass(Impostor)
    register_pass(Impostor, replace=True)
    assert isinstance(all_passes()["ttpipe-pipeline"].create({}), Impostor)


def test_what_is_not_a_pass_is_refused():
    with pytest.raises(TypeError, match="neither an xDSL ModulePass class with a `name` nor a PassInfo"):
        register_pass(lambda ctx, op: None)
    with pytest.raises(ValueError, match="pass 'test-odd' is of kind 'odd', which nothing runs"):
        register_pass(PassInfo("test-odd", "", (), "odd", lambda values: None))
    with pytest.raises(ValueError, match="run by the driver itself"):
        register_runner("python", lambda module, batch: module)


def test_passes_of_a_kind_with_a_runner_run_in_batches():
    """Consecutive passes of one kind reach its runner together; a Python pass, or a pass
    whose IR is watched, ends the batch."""
    batches: list[list[str]] = []

    def run_batch(module, batch):
        batches.append([invocation.describe() for invocation in batch])
        return module

    register_runner("test-kind", run_batch)
    with pytest.raises(ValueError, match="kind 'test-kind' already has a runner"):
        register_runner("test-kind", run_batch)
    for name in ("test-a", "test-b", "test-c"):
        register_pass(PassInfo(name, "", (PassOption("n", int, 0),), "test-kind", lambda values: None))
    register_pass(Stamp)
    driver.run(kernel(), spec.parse("test-a{n=1},test-b,test-stamp,test-c,test-a,test-b"),
               watched=lambda invocation: invocation.info.name == "test-b" and invocation.options == {})
    assert batches == [["test-a{n=1}"], ["test-b"], ["test-c", "test-a"], ["test-b"]]


def test_without_the_triton_bridge_triton_passes_are_unknown():
    """`ttpipe.pipeline` alone knows ttpipe's passes (by name, none imported) and no Triton
    pass; importing `ttpipe.triton` adds them."""
    code = """
import sys
from ttpipe.pipeline import all_passes, spec
assert "ttpipe-pipeline" in all_passes() and "ttpipe.passes.pipeline.pipeline" not in sys.modules
try:
    spec.parse("cse")
except spec.PipelineError as exc:
    print(exc)
import ttpipe.triton
print(spec.parse("cse")[0].info.kind, "triton._C.libtriton" in sys.modules)
"""
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.splitlines() == ["unknown pass 'cse' (ttpipe-opt --list-passes lists them)", "triton False"]


def test_spec_and_registry_share_their_types():
    assert spec.PipelineError is PipelineError and spec.PassInvocation is registry.PassInvocation


def test_remarks_say_why_a_loop_is_not_pipelined():
    found = driver.remarks(KERNEL, "ttpipe-assign-latencies,ttpipe-schedule-loops")
    assert [(d.severity, d.message, d.where) for d in found] == [
        ("remark", "loop not pipelined: it contains a gpu.barrier", "<input>:6:5")]


def test_remarks_of_a_module_and_the_default_passes():
    """A module keeps its own file name in the remarks; the default passes end with
    ttpipe-pipeline, which leaves the loop as it is."""
    module = kernel()
    found = driver.remarks(module)
    assert [(d.message, d.where) for d in found] == [
        ("loop not pipelined: it contains a gpu.barrier", "kernel.mlir:6:5")]
    assert "scf.for" in print_module(module) and driver.DEFAULT_REMARK_PASSES.endswith("ttpipe-pipeline")
