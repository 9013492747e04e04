"""`python -m ttpipe.bench --dry-run`: every case compiles for sm_90a, stock and through the
plug-in, with no GPU; without a GPU a real run says so in one line."""

import dataclasses
import importlib.util
import json
import math
import types

import pytest

from ttpipe.bench import harness
from ttpipe.bench.cases import CASES, Launch


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


class _Values:
    """A tensor's `fill_`, on a list."""

    def __init__(self, values: list[float]):
        self.values = values

    def fill_(self, value: float) -> None:
        self.values = [value] * len(self.values)


def test_a_kernel_writing_its_inputs_is_checked_on_them_as_made_not_poisoned():
    torch = types.SimpleNamespace(cuda=types.SimpleNamespace(synchronize=lambda: None))
    seen = []
    x = _Values([9.0, 9.0])  # what the timed launches left in it

    def restore() -> None:
        x.values = [1.0, 2.0]

    in_place = Launch((), (1, ), x, lambda: None, lambda: None, 8, restore)
    harness.poisoned_launch(torch, lambda launch: seen.append(list(launch.output.values)), in_place)
    plain = Launch((), (1, ), _Values([1.0, 2.0]), lambda: None, lambda: None, 8)
    harness.poisoned_launch(torch, lambda launch: seen.append(list(launch.output.values)), plain)
    assert seen[0] == [1.0, 2.0] and all(math.isnan(v) for v in seen[1])
    assert "y_ptr" not in CASES["fused-add-rmsnorm-bf16-8192x32768"].signature


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


# ---------------------------------------------------------------------------- warp-specialized GEMMs

WS_CASE = "gemm-ws-bf16-4096-128x128w4"


def test_dry_run_ws_case_differs_from_every_stock_version(tmp_path, capsys):
    """ttpipe compiles the case with its own pipeline (warp-specialize=true): a
    ttg.warp_specialize, a cubin unlike stock's; stock's flag-on version fails in Triton 3.6
    and is recorded, the flag-off one is taken."""
    out = tmp_path / "bench.json"
    assert harness.main(["--dry-run", "--cases", f"{WS_CASE},softmax-bf16-16384x4096", "--json", str(out)]) == 0
    table = capsys.readouterr().out
    assert "stock versions" in table.splitlines()[0]
    ws_row, softmax_row = json.loads(out.read_text())["compile"]
    assert ws_row["pipeline"] == "ttgir-sm90{warp-specialize=true}" and ws_row["warp_specialized"]
    assert not ws_row["same_cubin"] and ws_row["stock_variants"]["ws=0"] == "ok"
    assert ws_row["stock_variants"]["ws=1"] != "ok"  # Triton 3.6: nvgpu-warp-specialization fails here
    assert softmax_row["pipeline"] == "default" and softmax_row["same_cubin"] and not softmax_row["warp_specialized"]


def test_case_patterns():
    names, unknown = harness.select_cases("gemm-ws-*-8192-*,gemm-bf16-4096")
    assert unknown is None and names[-1] == "gemm-bf16-4096"
    # 3 dtypes x (2 configs x (non-persistent, persistent) + the epilogue-partition variant),
    # the pointer-load GEMMs: 3 dtypes x 3 kernels, tutorial 09's: 2 dtypes x 2 configs x
    # (subtiled or not), and the row-major ones at 8192: 4 numbered, 2 on a grid, and three
    # without ttpipe-tile-order, and the four of a program a tile (bf16: 128x128 at 8 warps, and
    # each configuration kept at one tile a program)
    assert len(names) == 1 + 3 * 5 + 3 * 3 + 2 * 2 * 2 + 9 + 4 and all("-8192-" in name for name in names[:-1])
    assert harness.select_cases("gemm-ws-nothing-*") == ([], "gemm-ws-nothing-*")
    assert harness.select_cases(None)[0] == list(CASES)


def test_ws_pointer_cases_are_the_tutorial_kernels():
    """Pointer-load GEMMs: stock's versions are the unflagged ones (with the flag, stock Triton
    3.6 aborts the process), the unit strides are compiled as the JIT specializes them."""
    ptr = {name: case for name, case in CASES.items() if name.startswith("gemm-ws-ptr-") and "-row-major-" not in name}
    assert len(ptr) == 12
    for name, case in ptr.items():
        assert case.kernel.__name__.startswith("matmul_pointers_ws") and case.pipeline == harness.WS_PIPELINE, name
        assert all(overrides["WARP_SPECIALIZE"] is False for _, overrides in case.stock_variants), name
        assert set(case.ones) == {"stride_ak", "stride_bk", "stride_cn"}, name
        signature = case.full_signature()
        assert all(signature[n] == "constexpr" for n in case.ones) and signature["stride_am"] == "i32", name
        assert case.specialized({})["stride_bk"] == 1, name


def test_ws_cases_are_issue_10s_gemms():
    ws = {name: case for name, case in CASES.items()
          if name.startswith("gemm-ws-") and "-ptr-" not in name and "-tutorial09-" not in name
          and "-row-major-" not in name and "-grid-" not in name}
    # persistent or not, two configs, three dtypes, two sizes; the persistent 128x128w4 kernel
    # with its epilogue in its own warp, three dtypes, two sizes; bf16 of a program a tile at
    # 128x128w8, and each of the three configurations kept at one tile a program, two sizes
    assert len(ws) == 2 * 2 * 3 * 2 + 3 * 2 + 2 + 3 * 2
    for name, case in ws.items():
        pipeline = "ttgir-sm90{warp-specialize=true" + (" warp-specialize-epilogue=partition" if
                                                         name.endswith("-epilogue-partition") else "") + (
            " warp-specialize-persistent=false" if name.endswith("-tile-a-program") else "") + "}"
        assert case.pipeline == pipeline and case.capabilities == (90, ), name
        assert case.constexprs["WARP_SPECIALIZE"] is True and case.sized_setup is not None, name
        labels = [label for label, _ in case.stock_variants]
        assert labels[0] == "ws=1" and labels[1].startswith("ws=0"), name
        assert all(set(overrides) <= set(case.constexprs) for _, overrides in case.stock_variants), name
    assert {case.options["num_warps"] for case in ws.values()} == {4, 8}
    # the cases that were there keep their kernels, their pipeline (the run's) and one stock version
    for name in ("gemm-bf16-4096", "gemm-bf16-8192", "gemm-fp8-4096", "softmax-bf16-16384x4096"):
        assert CASES[name].pipeline is None and CASES[name].stock_runs() == [("", CASES[name].constexprs)]


def test_row_major_cases_number_their_tiles_row_by_row():
    """ttpipe-tile-order's cases: the GEMM kernels with GROUP_M = 1 (tiles numbered row by row,
    the same source for stock) and the TMA kernel on a 2-D grid, one of each through the
    pipeline without the pass."""
    row_major = {name: case for name, case in CASES.items() if "-row-major-" in name or "-grid-" in name}
    assert len(row_major) == 10
    for name, case in row_major.items():
        assert case.constexprs.get("GROUP_M", 1) == 1, name
        without = name.endswith("-no-tile-order")
        assert case.pipeline == ("ttgir-sm90{warp-specialize=true tile-order=false}" if without
                                 else harness.WS_PIPELINE), name
    assert {case.kernel.__name__ for case in row_major.values()} == {
        "matmul_tma_ws_persistent", "matmul_pointers_ws", "matmul_pointers_ws_persistent", "matmul_tma_grid"}


def test_tutorial_cases_are_the_tutorial_kernel_subtiled_or_not():
    """Tutorial 09's persistent matmul: two dtypes, two sizes, two configs, subtiled or not;
    the flag on (stock's versions: on and off), C's descriptor block half as wide where the
    epilogue is subtiled."""
    tutorial = {name: case for name, case in CASES.items() if name.startswith("gemm-ws-tutorial09-")}
    assert len(tutorial) == 2 * 2 * 2 * 2
    for name, case in tutorial.items():
        subtile = name.endswith("-subtile")
        assert case.kernel.__name__ == "matmul_tutorial_persistent" and case.pipeline == harness.WS_PIPELINE, name
        assert case.constexprs["WARP_SPECIALIZE"] is True and case.constexprs["EPILOGUE_SUBTILE"] is subtile, name
        assert [overrides for _, overrides in case.stock_variants] == [{"WARP_SPECIALIZE": True},
                                                                        {"WARP_SPECIALIZE": False}], name
        block_n = case.constexprs["BLOCK_N"]
        assert case.full_signature()["c_desc"].endswith(f",{block_n // 2 if subtile else block_n}]>"), name


def test_performance_table_without_gpu():
    """The table of a run, from rows as bench_case writes them: stock's best version named,
    a version that failed to compile listed, goals met or missed."""
    row = {"case": WS_CASE, "unit": "TFLOP/s", "ok": True, "ttpipe_rel_error": 1.7e-3, "warp_specialized": True,
           "stock_variants": {"ws=1": {"error": "CompileFailure: ..."}, "ws=0": {"rel_error": 1.7e-3, "ok": True,
                                                                                 "ms": 0.2}},
           "stock_best": "ws=0", "rate": {"ttpipe": 770.0, "triton": 700.0, "torch": 750.0}}
    row["targets"] = {"triton": {"goal": 1.10, "met": True}, "torch": {"goal": 1.05, "met": False}}
    failed = {"case": "gemm-ws-persistent-bf16-4096-128x128w4", "error": "DiagnosticError: k.py:1:2: error: boom"}
    table = harness.performance_table([row, failed]).splitlines()
    assert table[2].split()[2:9] == ["770.0", "700.0", "750.0", "-", "1.10", "1.03", "-"]  # no copy: TFLOP/s
    assert "ws=0; ws=1 failed" in table[2] and ">=1.10x stock, MISS >=1.05x cuBLAS" in table[2]
    assert "ERROR DiagnosticError: boom" in table[3]
    assert harness._failed(failed) and not harness._failed(row)


def test_performance_table_has_the_copy_side():
    """A TB/s case is timed against a device-to-device copy of as many bytes: its row shows
    the copy's rate, ttpipe/copy and the goal against it (seed 002's 0.90x copy)."""
    case = CASES["layernorm-looped-bf16-8192x32768"]
    assert case.targets == (("copy", 0.90), ("triton", 1.5))
    row = {"case": case.name, "unit": "TB/s", "ok": True, "ttpipe_rel_error": 2e-3, "warp_specialized": False,
           "stock_variants": {"": {"rel_error": 2e-3, "ok": True, "ms": 0.76}}, "stock_best": "",
           "rate": {"ttpipe": 2.70, "triton": 1.42, "torch": 1.77, "copy": 3.00}}
    row["targets"] = {"copy": {"goal": 0.90, "met": True}, "triton": {"goal": 1.5, "met": True}}
    header, _, line = harness.performance_table([row]).splitlines()
    assert header.split()[2:9] == ["ttpipe", "triton", "torch", "copy", "ttpipe/triton", "ttpipe/torch",
                                   "ttpipe/copy"]
    assert line.split()[2:9] == ["2.70", "1.42", "1.77", "3.00", "1.90", "1.53", "0.90"]
    assert line.endswith(">=0.90x copy, >=1.50x stock")
    assert harness._summary(row) == ": ttpipe 2.70, triton 1.42, torch 1.77, copy 3.00 TB/s"


def test_copy_is_a_side_of_tb_s_cases_only():
    assert {side for case in CASES.values() for side, _ in case.targets} == {"triton", "torch", "copy"}
    with pytest.raises(ValueError, match="target side 'copy'.*TFLOP/s"):
        dataclasses.replace(CASES["gemm-bf16-4096"], targets=(("copy", 0.90), ))
    with pytest.raises(ValueError, match="target side 'cublas'"):
        dataclasses.replace(CASES["softmax-bf16-16384x4096"], targets=(("cublas", 1.0), ))


# ---------------------------------------------------------------------------- sanitizer and ncu wrappers


def _fake_tool(tmp_path, name: str, body: str) -> str:
    path = tmp_path / name
    path.write_text("#!/bin/sh\n" + body)
    path.chmod(0o755)
    return str(path)


@pytest.mark.parametrize("output,exit_code,status,errors", [
    ("========= RACECHECK SUMMARY: 0 hazards displayed (0 errors, 0 warnings)", 0, "clean", 0),
    ("========= Error: Race reported between Write access at k+0x10\\n"
     "========= RACECHECK SUMMARY: 3 hazards displayed (2 errors, 1 warning)", 86, "errors", 2),
    ("========= ERROR SUMMARY: 0 errors", 0, "clean", 0),
    ("========= Barrier error detected. Divergent thread(s) in warp\\n========= ERROR SUMMARY: 4 errors", 86,
     "errors", 4),
    ("", 0, "failed", 0),
])
def test_sanitizer_output_is_read(tmp_path, output, exit_code, status, errors):
    from ttpipe.bench import sanitize

    line = json.dumps({"case": WS_CASE, "ok": True, "warp_specialized": True})
    tool = _fake_tool(tmp_path, "compute-sanitizer", f"printf '{line}\\n{output}\\n'\nexit {exit_code}\n")
    kernel = sanitize.kernels(WS_CASE)[0]
    run = sanitize.sanitized(sanitize.Run(kernel, (256, 256, 512), "racecheck"), tool, timeout=30)
    assert (run.status, run.errors) == (status, errors), run
    assert run.bad() == (status != "clean")


def test_a_launch_runs_the_passes_it_is_given_after_the_pipeline():
    from ttpipe.bench import sanitize

    kernel = sanitize.kernels(WS_CASE)[0]
    command = sanitize.launch_command(sanitize.Run(kernel, (256, 256, 512), None, then="ttpipe-verify-async"))
    assert command[-2:] == ["--then", "ttpipe-verify-async"]


def test_sanitizer_hang_is_reported(tmp_path):
    from ttpipe.bench import sanitize

    tool = _fake_tool(tmp_path, "compute-sanitizer", "sleep 30\n")
    run = sanitize.sanitized(sanitize.Run(sanitize.kernels(WS_CASE)[0], (256, 256, 512), "synccheck"), tool,
                             timeout=1)
    assert run.status == "hang" and run.cell().startswith("HANG") and run.seconds < 10


def test_sanitizer_table_has_a_row_per_kernel_and_size():
    from ttpipe.bench import sanitize

    kernel = sanitize.kernels(WS_CASE)[0]
    runs = [sanitize.Run(kernel, (256, 256, 512), None, status="ok", result={"warp_specialized": True}),
            sanitize.Run(kernel, (256, 256, 512), "racecheck", status="clean"),
            sanitize.Run(kernel, (256, 256, 512), "synccheck", status="errors", errors=2, detail="Barrier error")]
    table = sanitize._format(runs, ("racecheck", "synccheck")).splitlines()
    assert len(table) == 3 and table[2].split()[:5] == [kernel.name, "256x256x512", "yes", "ok", "clean"]
    assert table[2].endswith("2 errors")


def test_sanitizer_runs_memory_bound_kernels_small():
    """Seed 002's kernels, one per compiled kernel whatever its row length, each at its small
    sizes (rows x N, n x programs); a size of another shape is refused before any launch."""
    from ttpipe.bench import launch, sanitize

    chosen = sanitize.kernels("layernorm-looped-*,pointwise-persistent-*")
    assert [kernel.name for kernel in chosen] == ["layernorm-looped-bf16", "pointwise-persistent-bf16",
                                                  "layernorm-looped-bf16-no-row-ring"]
    rows = ((3, 1000), (2, 5000), (134, 25000))
    assert [kernel.case.small_sizes for kernel in chosen] == [rows, ((1000, 1), (5000, 2)), rows]
    command = sanitize.launch_command(sanitize.Run(chosen[0], (3, 1000), None))
    assert command[-3:] == [chosen[0].case.name, "--size", "3x1000"]
    assert launch.run([chosen[0].case.name, "--size", "256x256x512"]) == 3


def test_ncu_table_is_read(tmp_path):
    from ttpipe.bench import ncu

    csv_rows = ['"ID","Kernel Name","Metric Name","Metric Unit","Metric Value"',
                '"0","matmul_tma_ws","sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_active","%","81.5"',
                '"0","matmul_tma_ws","gpu__time_duration.sum","msecond","1.52"']
    body = "printf '%s\\n' " + " ".join(f"'{row}'" for row in csv_rows) + "\n"
    tool = _fake_tool(tmp_path, "ncu", body)
    result = ncu.profile(tool, WS_CASE, "ttpipe", [ncu.METRICS[0], ncu.METRICS[-1]], timeout=30)
    assert result["values"] == {"gmma %": "81.5 %", "duration": "1.52 msecond"} and result["kernel"] == "matmul_tma_ws"


def test_power_samples_are_read_after_the_clock_settles():
    from ttpipe.bench import power

    lines = ["1980, 120.5, 700.00"] * power.SETTLE_SAMPLES + ["1635, 690.1, 700.00", "1650, 691.0, 700.00",
                                                              "[N/A], [N/A], 700.00", "1640, 68"]
    samples = power.parse_samples("\n".join(lines))
    assert len(samples) == power.SETTLE_SAMPLES + 2
    assert power.summary(samples) == {"sm_clock_mhz": 1642.5, "power_w": 690.55, "power_limit_w": 700.0}
    assert power.summary([]) == {}


def test_power_table_names_each_side(monkeypatch, capsys):
    from ttpipe.bench import power

    def measured(case, side, seconds, timeout):
        if side == "torch":
            return {"case": case, "side": side, "error": "no nvidia-smi"}
        return {"case": case, "side": side, "warp_specialized": side == "ttpipe", "sm_clock_mhz": 1635.0,
                "power_w": 691.0, "power_limit_w": 700.0, "launches": 100, "ms_per_launch": 1.0}

    monkeypatch.setattr(power, "measure", measured)
    assert power.run(["--cases", "attn-fwd-bf16-d128-s4096", "--sides", "ttpipe,torch"]) == 1  # torch failed
    table = capsys.readouterr().out
    work = CASES["attn-fwd-bf16-d128-s4096"].work
    assert f"{work / 1e-3 / 1e12:.1f} TFLOP/s" in table and "1635 MHz" in table and "691 W" in table
    assert "no nvidia-smi" in table
    assert power.run(["--cases", "no-such-case"]) == 2


# ---------------------------------------------------------------------------- planted protocol bugs on the GPU


@pytest.mark.parametrize("status,error,said", [
    ("compile-error", "DiagnosticError: k.py:79:29: error: barrier_expect announces 16384 bytes ... [expect-bytes]",
     "caught (expect-bytes)"),
    ("compile-error", "DiagnosticError: k.py:79:29: error: this wait on mbarrier [0] of the 3x1xi64 array for a", "caught"),
    ("compile-error", "DiagnosticError: k.py:1:1: error: no site 3 for 'shift-phase': the module has 3", "no-site"),
    ("ok", "", "passed"),
    ("hang", "", "passed"),
])
def test_a_mutants_verdict_is_read_from_its_compile(monkeypatch, status, error, said):
    from ttpipe.bench import mutants, sanitize

    launched = []

    def fake_plain(run, timeout):
        launched.append(run.then)
        run.status, run.result = status, ({"error": error} if error else {"ok": status == "ok"})
        return run

    monkeypatch.setattr(mutants, "plain", fake_plain)
    kernel = sanitize.kernels(WS_CASE)[0]
    assert mutants.verdict(kernel, (256, 256, 512), "shift-phase", 3, timeout=1) == said
    assert launched == ["ttpipe-plant-async-mutant{operator=shift-phase site=3},ttpipe-verify-async"]


def test_the_gpu_shows_a_mutant_by_a_hang_a_crash_a_wrong_result_or_more_sanitizer_errors():
    from ttpipe.bench import mutants, sanitize

    kernel = sanitize.kernels(WS_CASE)[0]

    def mutant(status, detail="", racecheck=None):
        m = mutants.Mutant(WS_CASE, "loosen-wait", 0, "caught",
                           sanitize.Run(kernel, (256, 256, 512), None, status=status, detail=detail))
        if racecheck is not None:
            m.sanitizer = {"racecheck": sanitize.Run(kernel, (256, 256, 512), "racecheck", errors=racecheck)}
        return m

    baseline = {"racecheck": 1}
    assert mutants.confirmed(mutant("hang"), baseline) and mutants.confirmed(mutant("wrong"), baseline)
    assert mutants.confirmed(mutant("compile-error", "AcceleratorError: CUDA error: unspecified launch failure"),
                             baseline)
    assert not mutants.confirmed(mutant("compile-error", "DiagnosticError: ..."), baseline)
    assert not mutants.confirmed(mutant("ok", racecheck=1), baseline)
    assert mutants.confirmed(mutant("ok", racecheck=2), baseline)
