"""An installed package adds a pass and a scheduler to ttpipe, with no change to ttpipe.

`examples/ttpipe-example-pass` is pip-installed (no network, no build isolation) into a
temporary folder that the commands below get as their PYTHONPATH: `ttpipe-opt` lists its
pass, runs it as a flag, by `-p` and inside a pipeline string (with its scheduler chosen
through a named pipeline's `scheduler` option), and the Triton plug-in runs it while
Triton compiles a kernel (no GPU needed). Entry points that are broken are one-line errors.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from importlib.util import find_spec
from pathlib import Path

import pytest
import setuptools

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "ttpipe-example-pass"
MATMUL = ROOT / "examples" / "matmul_ptr.sm90a.ttir"
TTPIPE_OPT = shutil.which("ttpipe-opt", path=f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}")

BROKEN_ENTRY_POINTS = """\
[ttpipe.passes]
broken-missing = no_such_module:Pass
broken-not-a-pass = json:dumps
broken-misnamed = ttpipe_example_pass.count_dots:CountDots
example-count-dots = ttpipe_example_pass.count_dots:CountDots

[ttpipe.schedulers]
broken-scheduler = json:JSONDecoder
"""
"""A package declaring entry points that cannot work, and one that the example declares too."""


def _builds_wheels_offline() -> bool:
    """setuptools before 70.1 needs the `wheel` package to build one without isolation."""
    version = tuple(int(part) for part in re.findall(r"\d+", setuptools.__version__)[:2])
    return version >= (70, 1) or find_spec("wheel") is not None


pytestmark = [
    pytest.mark.skipif(TTPIPE_OPT is None, reason="ttpipe-opt is not installed (pip install -e .)"),
    pytest.mark.skipif(not _builds_wheels_offline(), reason="building the example offline needs `pip install wheel` "
                                                            "(setuptools < 70.1)"),
]


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    """A folder holding the installed example package."""
    work = tmp_path_factory.mktemp("example")
    source = work / "ttpipe-example-pass"
    shutil.copytree(EXAMPLE, source, ignore=shutil.ignore_patterns("build", "*.egg-info", "__pycache__"))
    target = work / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-build-isolation",
                    "--no-index", "--target", str(target), str(source)], check=True, capture_output=True)
    return target


@pytest.fixture(scope="module")
def broken(tmp_path_factory) -> Path:
    """A folder holding only the metadata of a package with broken entry points."""
    folder = tmp_path_factory.mktemp("broken")
    info = folder / "broken_pkg-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: broken-pkg\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(BROKEN_ENTRY_POINTS)
    return folder


def run(path: list[Path], *argv: str | Path) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(map(str, path)))
    return subprocess.run([TTPIPE_OPT, *map(str, argv)], capture_output=True, text=True, env=env, cwd=path[0])


def test_the_installed_pass_is_listed(site):
    listing = run([site], "--list-passes")
    assert listing.returncode == 0, listing.stderr
    assert ("  example-count-dots - Count the MMA ops of each tt.func into `example.dots`.\n"
            "      remark: bool = false  also report each count as a remark at its function\n") in listing.stdout
    assert "example-count-dots" not in run([ROOT], "--list-passes").stdout  # not installed: not there


def test_the_pass_runs_by_p_and_as_a_flag(site):
    by_p = run([site], MATMUL, "-p", "example-count-dots")
    assert by_p.returncode == 0, by_p.stderr
    assert re.search(r"tt\.func public @matmul_ptr\(.*\) attributes \{example\.dots = 1 : i32", by_p.stdout)
    as_flag = run([site], MATMUL, "--example-count-dots=remark=true", "--remarks")
    assert as_flag.returncode == 0 and as_flag.stdout == by_p.stdout
    assert as_flag.stderr.endswith("kernels.py:84:0: remark: 1 dot(s), 0 on the tensor cores\n")


def test_pass_and_scheduler_in_a_pipeline_string(site):
    """After `ttgir-sm90` the dot is a wgmma; the example's scheduler gives the loop one
    stage more than ttpipe's default scheduler does (the kernel kept at a program a tile: made
    persistent, it is warp-specialized, and no scheduler runs on it)."""
    ours = run([site], MATMUL, "-p", "ttgir-sm90{scheduler=example-loads-ahead warp-specialize-persistent=false},"
               "example-count-dots{remark=true}",
               "--remarks", "--print-ir-after=ttpipe-schedule-loops")
    assert ours.returncode == 0, ours.stderr
    assert "example.dots = 1 : i32" in ours.stdout and "ttng.warp_group_dot" in ours.stdout
    assert "tt.scheduled_max_stage = 3 : i32" in ours.stderr
    assert ours.stderr.endswith("remark: 1 dot(s), 1 on the tensor cores\n")
    default = run([site], MATMUL, "-p", "ttgir-sm90{warp-specialize-persistent=false}",
                  "--print-ir-after=ttpipe-schedule-loops")
    assert "tt.scheduled_max_stage = 2 : i32" in default.stderr


def test_the_plugin_runs_the_pass_while_triton_compiles(site, tmp_path):
    code = """
import triton
from triton.backends.compiler import GPUTarget
from triton.compiler import ASTSource

import ttpipe.triton
from ttpipe.corpus.kernels import KERNELS

spec = KERNELS["matmul_ptr"]
with ttpipe.triton.installed("ttgir-sm90{impl=triton},example-count-dots"):
    compiled = triton.compile(ASTSource(spec.fn, spec.full_signature, spec.constexprs, spec.attrs()),
                              target=GPUTarget("cuda", 90, 32), options=spec.options)
print(compiled.asm["ttgir"])
"""
    env = dict(os.environ, PYTHONPATH=str(site), TRITON_CACHE_DIR=str(tmp_path / "cache"))
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=site)
    assert result.returncode == 0, result.stderr
    assert re.search(r"tt\.func public @matmul_ptr\(.*\) attributes \{example\.dots = 1 : i32", result.stdout)


@pytest.mark.parametrize("pipeline, error", [
    ("broken-missing", "entry point 'broken-missing = no_such_module:Pass' of package 'broken-pkg' "
                       "(ttpipe.passes) cannot be loaded: ModuleNotFoundError: No module named 'no_such_module'"),
    ("broken-not-a-pass", "entry point 'broken-not-a-pass = json:dumps' of package 'broken-pkg' (ttpipe.passes): "
                          "json:dumps is not an xDSL ModulePass class"),
    ("broken-misnamed", "entry point 'broken-misnamed = ttpipe_example_pass.count_dots:CountDots' of package "
                        "'broken-pkg' (ttpipe.passes): the pass ttpipe_example_pass.count_dots:CountDots is named "
                        "'example-count-dots'; the entry point must have the pass's name"),
    ("example-count-dots", "pass 'example-count-dots' is declared more than once: entry point 'example-count-dots = "
                           "ttpipe_example_pass.count_dots:CountDots' of package 'ttpipe-example-pass'"),
    ("ttpipe-schedule-loops{scheduler=broken-scheduler}",
     "option 'scheduler' of pass 'ttpipe-schedule-loops' names entry point 'broken-scheduler = json:JSONDecoder' "
     "of package 'broken-pkg' (ttpipe.schedulers), which is a class"),
])
def test_a_broken_entry_point_is_a_one_line_error(site, broken, pipeline, error):
    result = run([site, broken], MATMUL, "-p", pipeline)
    assert result.returncode == 1 and result.stdout == ""
    assert result.stderr.startswith("ttpipe-opt: -p: error: ") and error in result.stderr
    assert result.stderr.count("\n") == 1


def test_listing_a_broken_entry_point_names_it(site, broken):
    result = run([site, broken], "--list-passes")
    assert result.returncode != 0 and "Traceback" not in result.stderr and result.stderr.count("\n") == 1
    assert "of package 'broken-pkg' (ttpipe.passes)" in result.stderr
