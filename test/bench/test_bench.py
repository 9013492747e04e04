"""`python -m ttpipe.bench --dry-run`: every case compiles for sm_90a, stock and through the
plug-in, with no GPU; without a GPU a real run says so in one line."""

import importlib.util
import json

import pytest

from ttpipe.bench import harness
from ttpipe.bench.cases import CASES


def test_dry_run_compiles_cases(tmp_path, capsys):
    names = ["softmax-bf16-16384x4096", "gemm-bf16-4096"]
    out = tmp_path / "bench.json"
    assert harness.main(["--dry-run", "--cases", ",".join(names), "--json", str(out)]) == 0
    table = capsys.readouterr().out.splitlines()
    assert table[0].split()[:2] == ["case", "triton"] and [line.split()[0] for line in table[2:]] == names
    rows = json.loads(out.read_text())["compile"]
    assert [row["case"] for row in rows] == names
    for row in rows:
        assert "error" not in row, row
        assert row["ttpipe_pipeline_ms"] > 0 and row["triton_ms"] > row["triton_ttgir_ms"] > 0


def test_every_case_has_a_consistent_signature():
    for case in CASES.values():
        runtime = [name for name in case.kernel.arg_names if name not in case.constexprs]
        assert list(case.signature) == runtime, case.name
        assert set(case.aligned) <= set(case.signature), case.name


def test_unknown_case_is_one_line(capsys):
    assert harness.main(["--dry-run", "--cases", "nope"]) == 2
    assert capsys.readouterr().err.startswith("ttpipe.bench: --cases: error: unknown case 'nope'")


def _has_gpu() -> bool:
    if importlib.util.find_spec("torch") is None:
        return False
    import torch

    return torch.cuda.is_available()


@pytest.mark.skipif(_has_gpu(), reason="a GPU is here: a real run would benchmark")
def test_without_gpu_a_run_says_so(capsys):
    assert harness.main(["--cases", "softmax-bf16-16384x4096"]) == 2
    assert "no CUDA GPU" in capsys.readouterr().err
