"""`python -m ttpipe.bench.power`: the SM clock and the board's power while each side of a bench
case runs back to back (ttpipe through the plug-in, each stock Triton version, torch).

    python -m ttpipe.bench.power [--cases attn-fwd-bf16-d128-s4096,...] [--sides ttpipe,triton,torch]
        [--seconds 4] [--timeout 300] [--json OUT]

Each side is one process, `python -m ttpipe.bench.launch CASE --side SIDE --no-check
--power-seconds S`: after its checked launch it launches the kernel back to back for S
seconds while `nvidia-smi` samples the SM clock and the board's power draw every 100 ms
(`sample_while`), and reports their medians (the first half second left out: the clock is
still settling) with the rate the launches reached.

Why: a kernel that keeps the tensor cores busy draws the board's power limit (700 W on the
H100 SXM) and the clock falls until it fits; past that point its speed is its work per joule,
not its schedule (docs/measurements.md, 2026-11-26 ninth session: attention and GEMMs of
ttpipe, stock Triton, cuBLAS and cuDNN all at 689-700 W, at 1245-1875 MHz). This table says
which regime a case is in.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from typing import Any

from ttpipe.bench.cases import CASES
from ttpipe.bench.tools import launch_result, text_table

DEFAULT_CASES = ("attn-fwd-bf16-d128-s4096", )
SMI_QUERY = ("nvidia-smi", "--query-gpu=clocks.sm,power.draw,power.limit", "--format=csv,noheader,nounits",
             "-lms", "100")
SETTLE_SAMPLES = 5
"""Samples (of 100 ms) left out at the start of a run, while the clock settles."""


def parse_samples(text: str) -> list[tuple[float, float, float]]:
    """(SM clock MHz, power W, power limit W) of each line `SMI_QUERY` printed; lines that are
    not three numbers (a '[N/A]', a partial last line) are skipped."""
    samples = []
    for line in text.splitlines():
        fields = [field.strip() for field in line.split(",")]
        try:
            clock, power, limit = (float(field) for field in fields)
        except ValueError:
            continue
        samples.append((clock, power, limit))
    return samples


def summary(samples: list[tuple[float, float, float]]) -> dict[str, float]:
    """Medians of the samples after the first `SETTLE_SAMPLES` (all where there are no more)."""
    kept = samples[SETTLE_SAMPLES:] or samples
    if not kept:
        return {}
    return {"sm_clock_mhz": statistics.median(s[0] for s in kept),
            "power_w": statistics.median(s[1] for s in kept),
            "power_limit_w": statistics.median(s[2] for s in kept)}


def sample_while(launch: Callable[[], object], synchronize: Callable[[], None], seconds: float) -> dict[str, float]:
    """Launch `launch` back to back for `seconds` (20 launches between synchronizations) while
    `nvidia-smi` samples; the samples' `summary`, the launches and their mean time."""
    sampler = subprocess.Popen(SMI_QUERY, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    launches = 0
    start = time.perf_counter()
    try:
        while time.perf_counter() - start < seconds:
            for _ in range(20):
                launch()
            synchronize()
            launches += 20
    finally:
        elapsed = time.perf_counter() - start
        sampler.terminate()
        out, _ = sampler.communicate()
    return {**summary(parse_samples(out)), "launches": launches, "ms_per_launch": 1e3 * elapsed / max(launches, 1)}


def measure(case: str, side: str, seconds: float, timeout: float) -> dict[str, Any]:
    """One side of `case` in its own process (`ttpipe.bench.launch --power-seconds`)."""
    command = [sys.executable, "-m", "ttpipe.bench.launch", case, "--side", side, "--no-check",
               "--power-seconds", str(seconds)]
    result: dict[str, Any] = {"case": case, "side": side}
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        result["error"] = f"timeout after {timeout:.0f} s"
        return result
    launched = launch_result(done.stdout)
    result.update(launched.get("power", {}))
    if "error" in launched or "sm_clock_mhz" not in result:
        result["error"] = launched.get("error") or (done.stderr.strip().splitlines() or [f"rc {done.returncode}"])[-1]
    result["warp_specialized"] = launched.get("warp_specialized")
    return result


def rate(case: str, ms_per_launch: float) -> str:
    """The case's work per second at `ms_per_launch`, in its unit (TFLOP/s or TB/s: tera)."""
    spec = CASES[case]
    return f"{spec.work / (ms_per_launch * 1e-3) / 1e12:.1f} {spec.unit}"


def build_arg_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m ttpipe.bench.power", description=__doc__.split("\n\n")[0])
    p.add_argument("--cases", default=",".join(DEFAULT_CASES), help="comma-separated bench cases")
    p.add_argument("--sides", default=None, help="comma-separated: ttpipe, triton:LABEL, torch (default: ttpipe, "
                   "every stock version, torch)")
    p.add_argument("--seconds", type=float, default=4.0, help="back-to-back launches per side, seconds")
    p.add_argument("--timeout", type=float, default=300.0, help="seconds per side")
    p.add_argument("--json", default=None)
    return p


def run(argv: list[str]) -> int:
    args = build_arg_parser().parse_args(argv)
    unknown = [name for name in args.cases.split(",") if name not in CASES]
    if unknown:
        sys.stderr.write(f"ttpipe.bench.power: error: unknown case '{unknown[0]}'\n")
        return 2
    results = []
    for case in args.cases.split(","):
        sides = args.sides.split(",") if args.sides else (
            ["ttpipe"] + [f"triton:{label}" if label else "triton" for label, _ in CASES[case].stock_runs()] + ["torch"])
        for side in sides:
            results.append(measure(case, side, args.seconds, args.timeout))
            sys.stderr.write(f"ttpipe.bench.power: {case} {side} done\n")
    header = ["case", "side", "ws", "rate", "SM clock", "power", "limit", "error"]
    body = []
    for r in results:
        ws = r.get("warp_specialized")
        body.append([r["case"], r["side"], "-" if ws is None else "yes" if ws else "no",
                     rate(r["case"], r["ms_per_launch"]) if "ms_per_launch" in r else "-",
                     f"{r['sm_clock_mhz']:.0f} MHz" if "sm_clock_mhz" in r else "-",
                     f"{r['power_w']:.0f} W" if "power_w" in r else "-",
                     f"{r['power_limit_w']:.0f} W" if "power_limit_w" in r else "-", r.get("error", "")])
    print(f"nvidia-smi every 100 ms while each side launches back to back for {args.seconds:g} s; medians")
    print(text_table(header, body))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)
    return 1 if any("error" in r and not r["side"].startswith("triton") for r in results) else 0


def main(argv: list[str] | None = None) -> int:
    return run(sys.argv[1:] if argv is None else argv)


if __name__ == "__main__":
    sys.exit(main())
