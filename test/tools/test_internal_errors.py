"""A ttpipe bug (an exception that is not a diagnostic) ends ttpipe-opt and ttpipe-compile
with one `internal error` line and exit code 2, the traceback only with --debug or
TTPIPE_DEBUG=1, and no output file."""

from __future__ import annotations

import re

import pytest

from ttpipe import compile as ttpipe_compile
from ttpipe import opt
from ttpipe.outputs import DEBUG_ENV, INTERNAL_ERROR_STATUS
from ttpipe.passes.accelerate_matmul import AccelerateMatmul

MODULE = """\
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @f() {
    tt.return
  }
}
"""

ONE_LINE = re.compile(r"^ttpipe-(opt|compile): internal error: ZeroDivisionError: a ttpipe bug "
                      r"\(run with --debug or TTPIPE_DEBUG=1 for the traceback\)$")


@pytest.fixture
def buggy_pass(monkeypatch):
    """ttpipe-accelerate-matmul raising what a bug in it would raise."""
    monkeypatch.delenv(DEBUG_ENV, raising=False)

    def apply(self, ctx, module):
        raise ZeroDivisionError("a ttpipe bug\nsecond line")

    monkeypatch.setattr(AccelerateMatmul, "apply", apply)


@pytest.fixture
def source(tmp_path):
    path = tmp_path / "in.mlir"
    path.write_text(MODULE)
    return path


def test_opt_reports_one_line(buggy_pass, source, tmp_path, capsys):
    out = tmp_path / "out.mlir"
    status = opt.main([str(source), "-ttpipe-accelerate-matmul", "-o", str(out)])
    captured = capsys.readouterr()
    assert status == INTERNAL_ERROR_STATUS
    assert ONE_LINE.match(captured.err.strip()), captured.err
    assert captured.out == "" and not out.exists()


@pytest.mark.parametrize("debug", [["--debug"], ["-debug"], "env"])
def test_opt_shows_the_traceback_when_debugging(buggy_pass, source, monkeypatch, capsys, debug):
    if debug == "env":
        monkeypatch.setenv(DEBUG_ENV, "1")
        debug = []
    status = opt.main([str(source), "--split-input-file", "-p", "ttpipe-accelerate-matmul", *debug])
    err = capsys.readouterr().err
    assert status == INTERNAL_ERROR_STATUS
    assert "Traceback (most recent call last)" in err and "in apply" in err
    assert err.rstrip().splitlines()[-1] == "ttpipe-opt: internal error: ZeroDivisionError: a ttpipe bug"


def test_opt_verify_diagnostics_does_not_take_a_bug_for_a_diagnostic(buggy_pass, source, capsys):
    status = opt.main([str(source), "--verify-diagnostics", "-p", "ttpipe-accelerate-matmul"])
    assert status == INTERNAL_ERROR_STATUS
    assert ONE_LINE.match(capsys.readouterr().err.strip())


def test_compile_reports_one_line(buggy_pass, tmp_path, capfd):
    ttir = tmp_path / "k.ttir"
    ttir.write_text(MODULE.replace('"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ', "")
                    .replace(', "ttg.threads-per-warp" = 32 : i32', ""))
    out = tmp_path / "out"
    out.mkdir()
    argv = [str(ttir), "--arch", "sm_90a", "-o", str(out / "k.cubin"), "--emit", "ttgir",
            "--pipeline", "convert-triton-to-tritongpu{target=cuda:90},ttpipe-accelerate-matmul"]
    assert ttpipe_compile.main(argv) == INTERNAL_ERROR_STATUS
    err = capfd.readouterr().err
    assert ONE_LINE.match(err.strip()), err
    assert list(out.iterdir()) == []
    assert ttpipe_compile.main([*argv, "--debug"]) == INTERNAL_ERROR_STATUS
    err = capfd.readouterr().err
    assert "Traceback (most recent call last)" in err
    assert err.rstrip().splitlines()[-1] == "ttpipe-compile: internal error: ZeroDivisionError: a ttpipe bug"
    assert list(out.iterdir()) == []
