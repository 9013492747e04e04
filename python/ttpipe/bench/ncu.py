"""`python -m ttpipe.bench.ncu`: one Nsight Compute reading of tensor-pipe utilisation per side of
a bench case (ttpipe through the plug-in, each stock Triton version, cuBLAS).

    python -m ttpipe.bench.ncu [--cases gemm-ws-bf16-8192-128x128w4,...] [--sides ttpipe,triton,torch]
        [--ncu PATH] [--timeout 180] [--json OUT]

Each side is one process, `ncu --clock-control none --metrics M,... -k regex:R --launch-count 1
--csv python -m ttpipe.bench.launch CASE --side SIDE --no-check`: the first launch of the
case's kernel (R: the Triton kernel's name; for torch, cuBLAS's GEMM kernels) is profiled.
`--clock-control none` leaves the GPU's clocks as they are (METHOD.md).

Metrics: on Hopper, wgmma runs on the tensor pipe's GMMA path, counted by
`sm__pipe_tensor_op_gmma_cycles_active`; `sm__pipe_tensor_op_hmma_cycles_active` counts the
mma.sync (HMMA) path only, so it reads near 0 for a wgmma kernel. Both are read (as
`.avg.pct_of_peak_sustained_active`), with the kernel's duration, among those this ncu knows
(`ncu --query-metrics`); a metric ncu refuses is dropped and the run repeated.
"""

from __future__ import annotations

import argparse
import csv
import json
import re
import subprocess
import sys
from typing import Any

from ttpipe.bench.cases import CASES
from ttpipe.bench.tools import find_tool, launch_result, text_table

DEFAULT_CASES = ("gemm-ws-bf16-8192-128x128w4", )
NCU_PATHS = ("/usr/local/cuda/bin/ncu", "/opt/nvidia/nsight-compute/ncu")
PCT = ".avg.pct_of_peak_sustained_active"
METRICS = (
    ("gmma %", "sm__pipe_tensor_op_gmma_cycles_active" + PCT),
    ("hmma %", "sm__pipe_tensor_op_hmma_cycles_active" + PCT),
    ("tensor %", "sm__pipe_tensor_cycles_active" + PCT),
    ("duration", "gpu__time_duration.sum"),
)
"""(column, metric); the base name (up to the first '.') is what `--query-metrics` lists."""
TORCH_KERNELS = "gemm|nvjet|xmma|cutlass"


def known_metrics(ncu: str) -> list[tuple[str, str]]:
    """The METRICS this ncu lists for the GPU here (all of them when the query says nothing)."""
    try:
        listed = subprocess.run([ncu, "--query-metrics"], capture_output=True, text=True, timeout=60).stdout
    except (OSError, subprocess.SubprocessError):
        listed = ""
    names = set(re.findall(r"^\s*([a-z0-9_]+__[a-z0-9_]+)", listed, re.M))
    if not names:
        return list(METRICS)
    present = [(column, metric) for column, metric in METRICS if metric.split(".")[0] in names]
    return present or list(METRICS)


def profile(ncu: str, case: str, side: str, metrics: list[tuple[str, str]], timeout: float) -> dict[str, Any]:
    regex = TORCH_KERNELS if side == "torch" else CASES[case].kernel.__name__
    result: dict[str, Any] = {"case": case, "side": side, "values": {}}
    metrics = list(metrics)
    for _ in range(len(METRICS)):
        command = [ncu, "--clock-control", "none", "--metrics", ",".join(m for _, m in metrics), "-k",
                   f"regex:{regex}", "--launch-count", "1", "--csv", sys.executable, "-m", "ttpipe.bench.launch",
                   case, "--side", side, "--no-check"]
        try:
            done = subprocess.run(command, capture_output=True, text=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            result["error"] = f"timeout after {timeout:.0f} s"
            return result
        out = done.stdout + "\n" + done.stderr
        refused = [m for _, m in metrics if m.split(".")[0] in out and re.search(
            rf"(Failed to find|not found|invalid|unknown)[^\n]*{re.escape(m.split('.')[0])}", out, re.I)]
        if refused and len(refused) < len(metrics):
            metrics = [(c, m) for c, m in metrics if m not in refused]
            result.setdefault("refused", []).extend(refused)
            continue
        break
    launched = launch_result(out)
    result["launch"] = launched
    rows = list(csv.reader(line for line in done.stdout.splitlines() if line.startswith('"')))
    if not rows or "Metric Name" not in rows[0]:
        result["error"] = launched.get("error") or "no ncu table: " + " | ".join(
            line for line in out.splitlines() if "==ERROR==" in line or "==WARNING==" in line)[:300] or f"rc {done.returncode}"
        return result
    header = rows[0]
    name_at, unit_at, value_at = header.index("Metric Name"), header.index("Metric Unit"), header.index("Metric Value")
    kernel_at = header.index("Kernel Name") if "Kernel Name" in header else None
    for row in rows[1:]:
        for column, metric in metrics:
            if row[name_at] == metric:
                result["values"][column] = f"{row[value_at]} {row[unit_at]}".strip()
        if kernel_at is not None:
            result["kernel"] = row[kernel_at][:60]
    return result


def build_arg_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m ttpipe.bench.ncu", description=__doc__.split("\n\n")[0])
    p.add_argument("--cases", default=",".join(DEFAULT_CASES), help="comma-separated bench cases")
    p.add_argument("--sides", default=None, help="comma-separated: ttpipe, triton:LABEL, torch (default: ttpipe, "
                   "every stock version, torch)")
    p.add_argument("--ncu", default=None, help="ncu's path (default: on PATH, else " + ", ".join(NCU_PATHS) + ")")
    p.add_argument("--timeout", type=float, default=180.0, help="seconds per side")
    p.add_argument("--json", default=None)
    return p


def run(argv: list[str]) -> int:
    args = build_arg_parser().parse_args(argv)
    ncu = find_tool("ncu", args.ncu, NCU_PATHS)
    if ncu is None:
        sys.stderr.write("ttpipe.bench.ncu: error: no ncu (not on PATH, not at " + ", ".join(NCU_PATHS) + ")\n")
        return 2
    unknown = [name for name in args.cases.split(",") if name not in CASES]
    if unknown:
        sys.stderr.write(f"ttpipe.bench.ncu: error: unknown case '{unknown[0]}'\n")
        return 2
    metrics = known_metrics(ncu)
    results = []
    for case in args.cases.split(","):
        sides = args.sides.split(",") if args.sides else (
            ["ttpipe"] + [f"triton:{label}" if label else "triton" for label, _ in CASES[case].stock_runs()] + ["torch"])
        for side in sides:
            results.append(profile(ncu, case, side, metrics, args.timeout))
            sys.stderr.write(f"ttpipe.bench.ncu: {case} {side} done\n")
    columns = [column for column, _ in metrics]
    header = ["case", "side", "ws", *columns, "kernel / error"]
    body = []
    for r in results:
        ws = r.get("launch", {}).get("warp_specialized")
        body.append([r["case"], r["side"], "-" if ws is None else "yes" if ws else "no",
                     *(r["values"].get(column, "-") for column in columns), r.get("error") or r.get("kernel", "")])
    print(f"ncu: {ncu}; --clock-control none, first launch of each side's kernel")
    print(text_table(header, body))
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"metrics": metrics, "results": results}, f, indent=1)
    return 1 if any("error" in r and not r["side"].startswith("triton") for r in results) else 0


def main(argv: list[str] | None = None) -> int:
    return run(sys.argv[1:] if argv is None else argv)


if __name__ == "__main__":
    sys.exit(main())
