"""`ttpipe-triton-lit` on a small Triton-like source tree: RUN lines rewritten and nothing
else, AMD RUN lines dropped, chunks as tests of their own, both FileChecks."""

from __future__ import annotations

import textwrap

import pytest

from ttpipe.tools import run_triton_lit as runner

MODULE = """\
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @NAME(%a: i64) -> i64 {
    %c = arith.constant 1 : i64
    %s = arith.addi %a, %c : i64
    tt.return %s : i64
  }
}
"""

TRITON_OPT = "triton-opt"
"""The tool a Triton lit test's RUN lines name, which the runner replaces by ttpipe-opt."""

TEST = textwrap.dedent("""\
    // RUN: TOOL %s -split-input-file -allow-unregistered-dialect -tritongpu-pipeline=num-stages=3 \\
    // RUN:   -canonicalize | FileCheck %s --dump-input-context=50
    // RUN: TOOL %s -split-input-file -tritonamdgpu-pipeline="use_async_copy=1" | FileCheck %s --check-prefix=AMD

    // CHECK-LABEL: tt.func @first
    // CHECK: arith.constant 1 : i64{{$}}
    """) + MODULE.replace("NAME", "first") + textwrap.dedent("""\

    // -----

    // CHECK-LABEL: tt.func @second
    // CHECK-NOT: loc(
    """) + MODULE.replace("NAME", "second") + textwrap.dedent("""\

    // -----

    // CHECK-LABEL: tt.func @third
    // CHECK: this is not printed
    """) + MODULE.replace("NAME", "third")
TEST = TEST.replace("RUN: TOOL", f"RUN: {TRITON_OPT}")


def test_swap_passes_renames_whole_pass_names_only():
    command = ("triton-opt %s -tritongpu-pipeline=num-stages=3 --tritongpu-assign-latencies "
               "-pass-pipeline='builtin.module(tritongpu-schedule-loops,x-tritongpu-pipeline)'")
    assert runner.swap_passes(command) == (
        "triton-opt %s -ttpipe-pipeline=num-stages=3 --ttpipe-assign-latencies "
        "-pass-pipeline='builtin.module(ttpipe-schedule-loops,x-tritongpu-pipeline)'")
    assert runner.swap_passes("-tritongpu-test-pipeline-lower-loop") == "-ttpipe-lower-loops"


@pytest.mark.parametrize("swap", [True, False])
def test_only_run_lines_change(swap):
    text, dropped = runner.rewrite_run_lines(TEST, swap)
    old, new = TEST.split("\n"), text.split("\n")
    assert len(old) == len(new)
    changed = [i for i, (a, b) in enumerate(zip(old, new)) if a != b]
    assert changed == [0, 2]
    assert new[0].startswith("// RUN: ttpipe-opt %s -split-input-file")
    assert ("-ttpipe-pipeline=num-stages=3" in new[0]) == swap
    assert new[1] == old[1]  # the continuation holds no name to change
    assert "RUN:" not in new[2] and "tritonamdgpu-pipeline" in new[2]
    assert len(dropped) == 1 and dropped[0].startswith("line 3: unknown flag or pass '-tritonamdgpu-pipeline")


def test_chunks_keep_line_numbers_and_run_lines():
    found = runner.chunks(TEST)
    assert [(c.index, c.label) for c in found] == [(0, "@first"), (1, "@second"), (2, "@third")]
    for chunk in found:
        lines = chunk.text.split("\n")
        assert len(lines) == len(TEST.split("\n")) and lines[0].startswith("// RUN:")
        assert "// -----" not in chunk.text
    assert "@first" not in found[1].text and "@third" not in found[1].text


def test_filecheck_shim_drops_what_python_filecheck_lacks(tmp_path, monkeypatch, capsys):
    check = tmp_path / "t.mlir"
    check.write_text("// CHECK: hello\n// OTHER: bye\n")
    monkeypatch.delenv(runner.FILECHECK_ENV, raising=False)
    monkeypatch.delenv(runner.NO_CHECKS_ENV, raising=False)
    monkeypatch.setattr("sys.stdin", __import__("io").StringIO("hello\n"))
    assert runner.filecheck_main(["FileCheck", "--dump-input-context", "20", str(check),
                                  "--allow-unused-prefixes", "--dump-input-context=5"]) == 0
    monkeypatch.setattr("sys.stdin", __import__("io").StringIO("nothing\n"))
    assert runner.filecheck_main(["FileCheck", str(check), "--check-prefix=MISSING"]) != 0
    monkeypatch.setenv(runner.NO_CHECKS_ENV, "1")  # a chunk without checks of its prefixes
    monkeypatch.setattr("sys.stdin", __import__("io").StringIO("nothing\n"))
    assert runner.filecheck_main(["FileCheck", str(check), "--check-prefix=MISSING"]) == 0
    monkeypatch.setattr("sys.stdin", __import__("io").StringIO("nothing\n"))
    assert runner.filecheck_main(["FileCheck", str(check), "--check-prefixes=MISSING,OTHER"]) != 0


@pytest.fixture
def triton_src(tmp_path):
    tests = tmp_path / "triton" / "test" / "TritonGPU"
    tests.mkdir(parents=True)
    (tests / "mini.mlir").write_text(TEST)
    return tmp_path / "triton"


@pytest.mark.parametrize("filecheck", ["python", "llvm"])
def test_runs_files_as_written_and_chunks(triton_src, capfd, filecheck):
    if filecheck == "llvm":
        filecheck = runner.llvm_filecheck()
        if filecheck is None:
            pytest.skip("no LLVM FileCheck on this machine")
    argv = ["--triton-src", str(triton_src), "--filecheck", filecheck, "test/TritonGPU/mini.mlir"]
    assert runner.main(argv) == 1  # chunk 2 checks what is not printed
    out = capfd.readouterr().out
    assert "RUN line 3: unknown flag or pass '-tritonamdgpu-pipeline" in out
    assert runner.main([*argv, "--compare"]) == 0  # it fails with Triton's passes too
    out = capfd.readouterr().out
    assert "test/TritonGPU/mini.mlir       3       2       2" in out


def test_unknown_test_is_an_error(triton_src, capsys):
    assert runner.main(["--triton-src", str(triton_src), "test/nope.mlir"]) == 2
    assert "no such test" in capsys.readouterr().err
