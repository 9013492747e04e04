"""`python -m ttpipe.bench.sanitize`: `compute-sanitizer --tool racecheck` and `--tool synccheck`
on small instances of the bench kernels that have them (the warp-specialized GEMMs, seed
002's memory-bound kernels), compiled through the plug-in.

    python -m ttpipe.bench.sanitize [--cases 'gemm-ws-*'] [--sizes 256x256x512,300x264x528]
        [--tools racecheck,synccheck] [--timeout 120] [--jobs 4] [--sanitizer PATH] [--all] [--json OUT]

Kernels: the bench cases with a `sized_setup`, one per distinct compiled kernel (the 4096
and 8192 cases of a configuration are one kernel), each at its case's `small_sizes` (the
GEMMs' `GEMM_SMALL_SIZES`, the row kernels' `ROW_SMALL_SIZES`, ...) or at `--sizes`. For
each kernel and size:

1. a plain run, `python -m ttpipe.bench.launch CASE --size S` (persistent kernels on a grid
   of `PERSISTENT_CTAS`, `--num-sms 2`, so that each CTA runs several tiles) in a subprocess under a
   timeout (it compiles through the plug-in, which also fills Triton's cache for the runs
   below, launches once into a NaN-filled output and checks against float32): ok, wrong,
   compile error, or hang; it says whether the kernel came out warp-specialized, and
   whether it orders asynchronous copies through shared memory (mbarriers, cp.async);
2. for a kernel that does (every warp-specialized one; all compiled kernels with `--all`),
   each tool:
   `compute-sanitizer --tool T --kernel-name kns=KERNEL ... python -m ttpipe.bench.launch
   CASE --size S`, one subprocess each under the timeout, at most `--jobs` at a time.

The table (kernel x size x tool -> clean / N errors / hang / ...) comes last; the exit status
is 1 if any run found an error, hung, failed or computed a wrong result, else 0 (2: no
compute-sanitizer, bad arguments).
"""

from __future__ import annotations

import argparse
import fnmatch
import json
import os
import re
import signal
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from ttpipe.bench.cases import CASES, Case
from ttpipe.bench.launch import problem_size
from ttpipe.bench.tools import find_tool, launch_result, text_table

PERSISTENT_CTAS = 2
"""The grid of persistent kernels: 2 CTAs, so each runs several tiles of these sizes (the
ring's state across tiles, both ping-pong warpgroups, the staging pair's phases)."""

TOOLS = ("racecheck", "synccheck")

SANITIZER_PATHS = ("/usr/local/cuda/bin/compute-sanitizer", )


@dataclass
class Kernel:
    """One compiled kernel to check: a representative case, named without its size."""

    name: str
    case: Case


@dataclass
class Run:
    kernel: Kernel
    size: tuple[int, ...]
    tool: str | None
    """None: the plain run."""
    then: str | None = None
    """Passes the plug-in runs after the case's pipeline (`launch --then`)."""
    status: str = ""
    """ok, clean, errors, wrong, compile-error, hang, failed, skipped."""
    errors: int = 0
    warnings: int = 0
    detail: str = ""
    seconds: float = 0.0
    result: dict[str, Any] = field(default_factory=dict)

    def cell(self) -> str:
        if self.status == "clean":
            return "clean" + (f" ({self.warnings} warnings)" if self.warnings else "")
        if self.status == "errors":
            return f"{self.errors} errors" + (f", {self.warnings} warnings" if self.warnings else "")
        if self.status == "ok":
            error = self.result.get("rel_error")
            return "ok" + (f" {error:.1e}" if isinstance(error, float) else "")
        if self.status == "hang":
            return f"HANG (> {self.detail})"
        if self.status == "skipped":
            return self.status
        return f"{self.status.upper()}: {self.detail[:70]}"

    def bad(self) -> bool:
        return self.status not in ("ok", "clean", "skipped")


def kernel_name(case: Case) -> str:
    """The case name without its problem size: 'gemm-ws-bf16-4096-128x128w4' -> 'gemm-ws-bf16-128x128w4',
    'layernorm-looped-bf16-8192x32768' -> 'layernorm-looped-bf16'."""
    return re.sub(r"-\d+(x\d+)?(?=-|$)", "", case.name, count=1)


def kernels(patterns: str | None) -> list[Kernel]:
    """The cases with a sized set-up, one per kernel."""
    chosen: dict[tuple, Kernel] = {}
    for name, case in CASES.items():
        if patterns and not any(fnmatch.fnmatchcase(name, p) for p in patterns.split(",")):
            continue
        if case.sized_setup is None:
            continue
        key = (case.kernel.__name__, tuple(sorted(case.signature.items())),
               tuple(sorted(case.constexprs.items())), tuple(sorted(case.options.items())), case.pipeline)
        chosen.setdefault(key, Kernel(kernel_name(case), case))
    return list(chosen.values())


def _run_process(command: list[str], timeout: float) -> tuple[int | None, str, float]:
    """(exit status or None on timeout, stdout + stderr, seconds); a process that outlives the
    timeout is killed with its process group (the sanitizer and the Python under it)."""
    start = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                               start_new_session=True)
    try:
        out, _ = process.communicate(timeout=timeout)
        return process.returncode, out, time.perf_counter() - start
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        out, _ = process.communicate()
        return None, out, time.perf_counter() - start


def launch_command(run: Run) -> list[str]:
    grid = ["--num-sms", str(PERSISTENT_CTAS)] if "NUM_SMS" in run.kernel.case.constexprs else []
    then = ["--then", run.then] if run.then else []
    return [sys.executable, "-m", "ttpipe.bench.launch", run.kernel.case.name, "--size",
            "x".join(map(str, run.size)), *grid, *then]


def _last_lines(out: str, n: int = 3) -> str:
    lines = [line.strip() for line in out.splitlines() if line.strip()]
    return " | ".join(lines[-n:])


def plain(run: Run, timeout: float) -> Run:
    rc, out, run.seconds = _run_process(launch_command(run), timeout)
    run.result = launch_result(out)
    if rc is None:
        run.status, run.detail = "hang", f"{timeout:.0f} s"
    elif run.result.get("error"):
        run.status, run.detail = "compile-error", run.result["error"]
    elif rc == 0 and run.result.get("ok"):
        run.status = "ok"
    elif run.result:
        run.status = "wrong"
        run.detail = "NaN left in the output" if run.result.get("nan") else f"rel. error {run.result.get('rel_error')}"
    else:
        run.status, run.detail = "failed", f"rc {rc}: {_last_lines(out)}"
    return run


RACECHECK_SUMMARY = re.compile(r"RACECHECK SUMMARY: (\d+) hazards? displayed \((\d+) errors?, (\d+) warnings?\)")
ERROR_SUMMARY = re.compile(r"ERROR SUMMARY: (\d+) errors?")
ERROR_EXIT = 86
"""compute-sanitizer's `--error-exitcode`: the program's exit status when the tool found errors."""


def sanitized(run: Run, sanitizer: str, timeout: float) -> Run:
    only = ["--kernel-name", f"kns={run.kernel.case.kernel.__name__}"]  # not torch's kernels (inputs, reference)
    command = [sanitizer, "--tool", run.tool, *only, "--error-exitcode", str(ERROR_EXIT), "--print-limit", "20",
               *launch_command(run)]
    rc, out, run.seconds = _run_process(command, timeout)
    if rc not in (0, ERROR_EXIT) and "kernel-name" in out and "SUMMARY" not in out:  # an older option syntax
        command = [part for part in command if part not in only]
        rc, out, seconds = _run_process(command, timeout)
        run.seconds += seconds
    run.result = launch_result(out)
    race = RACECHECK_SUMMARY.search(out)
    summary = ERROR_SUMMARY.search(out)
    if race:
        run.errors, run.warnings = int(race.group(2)), int(race.group(3))
    elif summary:
        run.errors = int(summary.group(1))
    first = next((line.strip("= ").strip() for line in out.splitlines()
                  if line.startswith("=========") and ("Error" in line or "Hazard" in line or "hazard" in line)), "")
    if rc is None:
        run.status, run.detail = "hang", f"{timeout:.0f} s"
    elif run.errors or rc == ERROR_EXIT:
        run.status, run.detail = "errors", first
        run.errors = max(run.errors, 1)
    elif not (race or summary):
        run.status, run.detail = "failed", f"rc {rc}, no summary from compute-sanitizer: {_last_lines(out)}"
    elif rc != 0 or not run.result.get("ok"):
        run.status, run.detail = "failed", f"rc {rc}: " + (run.result.get("error") or _last_lines(out))
    else:
        run.status = "clean"
    return run


def _format(runs: list[Run], tools: tuple[str, ...]) -> str:
    header = ["kernel", "size", "ws", "plain", *tools]
    rows = []
    for (name, size), group in _grouped(runs).items():
        base = group[None]
        ws = base.result.get("warp_specialized")
        cells = [name, "x".join(map(str, size)), "-" if ws is None else "yes" if ws else "no", base.cell()]
        cells += [group[tool].cell() if tool in group else "skipped" for tool in tools]
        rows.append(cells)
    return text_table(header, rows)


def _grouped(runs: list[Run]) -> dict[tuple[str, tuple[int, ...]], dict[str | None, Run]]:
    """(kernel name, size) -> tool (None: the plain run) -> its run."""
    grouped: dict[tuple[str, tuple[int, ...]], dict[str | None, Run]] = {}
    for run in runs:
        grouped.setdefault((run.kernel.name, run.size), {})[run.tool] = run
    return grouped


def build_arg_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m ttpipe.bench.sanitize", description=__doc__.split("\n\n")[0])
    p.add_argument("--cases", default=None, help="comma-separated case names or patterns (default: every "
                   "case with small instances)")
    p.add_argument("--sizes", default=None, help="MxNxK,... or ROWSxN,... for every kernel chosen (default: each "
                   "case's own small sizes)")
    p.add_argument("--tools", default=",".join(TOOLS), help="compute-sanitizer tools")
    p.add_argument("--timeout", type=float, default=120.0, help="seconds per subprocess (a hang past it is reported)")
    p.add_argument("--jobs", type=int, default=4, help="subprocesses at a time")
    p.add_argument("--sanitizer", default=None, help="compute-sanitizer's path (default: on PATH, else "
                   + ", ".join(SANITIZER_PATHS) + ")")
    p.add_argument("--all", action="store_true",
                   help="sanitize every compiled kernel, with asynchronous copies through shared memory or not")
    p.add_argument("--json", default=None, help="write every run here")
    return p


def run(argv: list[str]) -> int:
    args = build_arg_parser().parse_args(argv)
    try:
        sizes = [problem_size(text) for text in args.sizes.split(",")] if args.sizes else None
    except argparse.ArgumentTypeError as exc:
        sys.stderr.write(f"ttpipe.bench.sanitize: --sizes: error: {exc}\n")
        return 2
    tools = tuple(args.tools.split(","))
    sanitizer = find_tool("compute-sanitizer", args.sanitizer, SANITIZER_PATHS)
    if sanitizer is None:
        sys.stderr.write("ttpipe.bench.sanitize: error: no compute-sanitizer (not on PATH, not at "
                         f"{', '.join(SANITIZER_PATHS)}; --sanitizer PATH)\n")
        return 2
    chosen = kernels(args.cases)
    if not chosen:
        sys.stderr.write("ttpipe.bench.sanitize: error: no case with small instances matches --cases\n")
        return 2
    start = time.perf_counter()
    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        plain_runs = list(pool.map(lambda r: plain(r, args.timeout), [
            Run(kernel, size, None) for kernel in chosen for size in (sizes or kernel.case.small_sizes)]))
        wanted = [base for base in plain_runs
                  if base.status not in ("hang", "compile-error", "failed")
                  and (args.all or base.result.get("asynchronous"))]
        tool_runs = list(pool.map(lambda r: sanitized(r, sanitizer, args.timeout),
                                  [Run(base.kernel, base.size, tool) for base in wanted for tool in tools]))
    runs = plain_runs + tool_runs
    print(f"compute-sanitizer: {sanitizer}; {len(chosen)} kernels, {len(plain_runs)} instances, "
          f"{len(tool_runs)} sanitizer runs in {time.perf_counter() - start:.0f} s; timeout {args.timeout:.0f} s each")
    for bad in (r for r in runs if r.bad() and r.detail):
        print(f"  {bad.kernel.name} {'x'.join(map(str, bad.size))} {bad.tool or 'plain'}: {bad.detail[:300]}")
    print(_format(runs, tools))
    if args.json:
        with open(args.json, "w") as f:
            json.dump([{"kernel": r.kernel.name, "case": r.kernel.case.name, "size": list(r.size), "tool": r.tool,
                        "status": r.status, "errors": r.errors, "warnings": r.warnings, "detail": r.detail,
                        "seconds": round(r.seconds, 1), "result": r.result} for r in runs], f, indent=1)
    return 1 if any(r.bad() for r in runs) else 0


def main(argv: list[str] | None = None) -> int:
    return run(sys.argv[1:] if argv is None else argv)


if __name__ == "__main__":
    sys.exit(main())
