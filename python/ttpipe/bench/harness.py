"""`python -m ttpipe.bench`: ttpipe against stock Triton and torch (cuBLAS, cuDNN) on one GPU.

    python -m ttpipe.bench [--cases a,b] [--pipeline P] [--json out.json] [--dry-run]

For each case (`ttpipe.bench.cases`):

1. Compile time, cold cache (`always_compile`, a fresh cache directory): Triton's whole
   compile of the kernel, its `make_ttgir`, and ttpipe's pipeline in its place (the ttgir
   stage under the plug-in), from Triton's compilation listener. The dry run also says
   whether the two cubins are the same.
2. Check: the kernel compiled through the plug-in (`ttpipe.triton.installed(pipeline)`;
   launches go through Triton's own launcher) writes into a NaN-filled output; the
   relative error ||out - ref|| / ||ref|| against a float32 torch reference must be under
   the case's tolerance (NaN fails).
3. Time: `triton.testing.do_bench` (median; it flushes L2 before every timed launch) of
   ttpipe, stock Triton and the torch baseline, in this process. Cases whose inputs would
   fit in L2 twice over rotate between several input sets.

The performance table comes last (TFLOP/s, TB/s for memory-bound cases, and the ratios
ttpipe/Triton, ttpipe/torch). `--dry-run` compiles every case for sm_90a with no GPU.
"""

from __future__ import annotations

import argparse
import contextlib
import itertools
import json
import math
import shutil
import sys
import tempfile
import time
from typing import Any

import triton
from triton import knobs
from triton.backends.compiler import GPUTarget
from triton.compiler import ASTSource
from triton.testing import do_bench

import ttpipe.triton
from ttpipe import __version__
from ttpipe.bench.cases import CASES, Case
from ttpipe.pipeline.spec import PipelineError, parse
from ttpipe.triton.plugin import current_marker

DRY_RUN_CAPABILITY = 90


def _one_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0] if text else ''}"[:200]


# ---------------------------------------------------------------------------- compile time


@contextlib.contextmanager
def _cold_compiles():
    """Every compile in the block misses the cache (a fresh cache directory, always_compile)."""
    directory = tempfile.mkdtemp(prefix="ttpipe-bench-cache-")
    try:
        with knobs.cache.scope(), knobs.compilation.scope():
            knobs.cache.dir = directory
            knobs.compilation.always_compile = True
            yield
    finally:
        shutil.rmtree(directory, ignore_errors=True)


def _timed_compile(case: Case, capability: int, constexprs: dict) -> tuple[Any, float, float]:
    """(compiled kernel, whole compile ms, ttgir stage ms) of one cold `triton.compile`."""
    times = []
    knobs.compilation.listener = lambda **event: times.append(event["times"])
    try:
        source = ASTSource(case.kernel, case.full_signature(), constexprs, case.attrs())
        start = time.perf_counter()
        compiled = triton.compile(source, target=GPUTarget("cuda", capability, 32), options=case.options)
        total_ms = (time.perf_counter() - start) * 1e3
    finally:
        knobs.compilation.listener = None
    stages = dict(times[-1].lowering_stages)
    return compiled, total_ms, stages["ttgir"] / 1e3


def compile_times(cases: list[Case], capability: int, pipeline: str | None) -> list[dict]:
    """Cold compiles of every case, stock and through the plug-in (warmed up on the first case)."""
    rows = []
    with _cold_compiles():
        if cases:  # first-use costs (imports, pass registry) are not compile time
            with contextlib.suppress(Exception):
                _timed_compile(cases[0], capability, cases[0].constexprs)
                with ttpipe.triton.installed(pipeline):
                    _timed_compile(cases[0], capability, cases[0].constexprs)
        for case in cases:
            row: dict[str, Any] = {"case": case.name}
            try:
                stock, row["triton_ms"], row["triton_ttgir_ms"] = _timed_compile(case, capability, case.constexprs)
                with ttpipe.triton.installed(pipeline):
                    marker = current_marker()
                    ours, row["ttpipe_compile_ms"], row["ttpipe_pipeline_ms"] = _timed_compile(
                        case, capability, case.constexprs)
                if ours.metadata.instrumentation_mode != marker:
                    raise RuntimeError("the plug-in did not compile the kernel")
                row["same_cubin"] = stock.asm["cubin"] == ours.asm["cubin"]
                row["shared"] = {"triton": stock.metadata.shared, "ttpipe": ours.metadata.shared}
            except Exception as exc:  # one failing case must not hide the others
                row["error"] = _one_line(exc)
            rows.append(row)
    return rows


# ---------------------------------------------------------------------------- GPU runs


def _relative_error(torch, out, reference) -> float:
    out, reference = out.float(), reference.float()
    error = torch.linalg.vector_norm(out - reference) / torch.linalg.vector_norm(reference)
    return float(error)


def _check(torch, launch_once, launch, reference) -> float:
    """The relative error of one launch whose output starts as NaN."""
    launch.output.fill_(float("nan"))
    launch_once(launch)
    torch.cuda.synchronize()
    return _relative_error(torch, launch.output, reference)


def bench_case(torch, case: Case, device, pipeline: str | None, warmup: int, rep: int, seed: int) -> dict:
    """Check and time one case on the current GPU."""
    properties = torch.cuda.get_device_properties(device)
    constexprs = dict(case.constexprs)
    if "NUM_SMS" in constexprs:
        constexprs["NUM_SMS"] = properties.multi_processor_count
    first = case.setup(torch, device, seed, constexprs)
    l2_bytes = getattr(properties, "L2_cache_size", 50 * 2**20)
    sets = 1 if first.inputs_bytes >= 2 * l2_bytes else min(8, math.ceil(2 * l2_bytes / first.inputs_bytes))
    launches = [first] + [case.setup(torch, device, seed + i, constexprs) for i in range(1, sets)]

    def launch_once(launch):
        return case.kernel[launch.grid](*launch.args, **constexprs, **case.options)

    def rotating(run):
        cycle = itertools.cycle(launches)
        return lambda: run(next(cycle))

    reference = first.reference()
    row: dict[str, Any] = {"case": case.name, "unit": case.unit, "input_sets": sets}
    row["triton_rel_error"] = _check(torch, launch_once, first, reference)
    triton_ms = do_bench(rotating(launch_once), warmup=warmup, rep=rep, return_mode="median")
    with ttpipe.triton.installed(pipeline):
        row["ttpipe_rel_error"] = _check(torch, launch_once, first, reference)
        compiled = launch_once(first)
        row["ttpipe_compiled"] = compiled.metadata.instrumentation_mode == current_marker()
        ttpipe_ms = do_bench(rotating(launch_once), warmup=warmup, rep=rep, return_mode="median")
    torch_ms = do_bench(rotating(lambda launch: launch.baseline()), warmup=warmup, rep=rep, return_mode="median")
    error = row["ttpipe_rel_error"]
    row["ok"] = bool(row["ttpipe_compiled"] and not math.isnan(error) and error <= case.tolerance)
    row["ms"] = {"ttpipe": ttpipe_ms, "triton": triton_ms, "torch": torch_ms}
    scale = 1e-12 * 1e3  # per ms -> per s, then tera
    row["rate"] = {name: case.work / ms * scale for name, ms in row["ms"].items()}
    row["triton_version"] = triton.__version__
    return row


# ---------------------------------------------------------------------------- output


def _format_table(header: list[str], rows: list[list[str]]) -> str:
    widths = [max(len(str(cell)) for cell in column) for column in zip(header, *rows)]
    lines = ["  ".join(str(cell).rjust(width) if i else str(cell).ljust(width)
                       for i, (cell, width) in enumerate(zip(line, widths))) for line in [header, *rows]]
    return "\n".join([lines[0], "-" * len(lines[0]), *lines[1:]])


def compile_table(rows: list[dict], dry_run: bool) -> str:
    header = ["case", "triton compile ms", "triton make_ttgir ms", "ttpipe pipeline ms", "pipeline/compile"]
    if dry_run:
        header.append("same cubin")
    body = []
    for row in rows:
        if "error" in row:
            body.append([row["case"], "ERROR", row["error"], "", ""] + ([""] if dry_run else []))
            continue
        line = [row["case"], f"{row['triton_ms']:.0f}", f"{row['triton_ttgir_ms']:.0f}",
                f"{row['ttpipe_pipeline_ms']:.0f}", f"{row['ttpipe_pipeline_ms'] / row['triton_ms']:.2f}"]
        if dry_run:
            line.append("yes" if row["same_cubin"] else "no")
        body.append(line)
    return _format_table(header, body)


def performance_table(rows: list[dict]) -> str:
    header = ["case", "unit", "ttpipe", "triton", "torch", "ttpipe/triton", "ttpipe/torch", "rel.err", "check"]
    body = []
    for row in rows:
        if "error" in row:
            body.append([row["case"], "", "", "", "", "", "", "", "ERROR " + row["error"][:60]])
            continue
        rate = row["rate"]
        digits = 1 if row["unit"] == "TFLOP/s" else 2
        body.append([row["case"], row["unit"], *(f"{rate[name]:.{digits}f}" for name in ("ttpipe", "triton", "torch")),
                     f"{rate['ttpipe'] / rate['triton']:.2f}", f"{rate['ttpipe'] / rate['torch']:.2f}",
                     f"{row['ttpipe_rel_error']:.1e}", "ok" if row["ok"] else "FAIL"])
    return _format_table(header, body)


# ---------------------------------------------------------------------------- command line


def build_arg_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m ttpipe.bench", description=__doc__.split("\n\n")[0])
    p.add_argument("--cases", default=None, help=f"comma-separated cases (default: all): {','.join(CASES)}")
    p.add_argument("--pipeline", default=None,
                   help="the plug-in's pipeline (default: ttgir-sm90/ttgir-sm100 by the GPU, impl=ttpipe)")
    p.add_argument("--json", default=None, help="write the results here")
    p.add_argument("--dry-run", action="store_true", help="compile every case for sm_90a, launch nothing (no GPU)")
    p.add_argument("--warmup", type=int, default=25, help="do_bench warmup, ms")
    p.add_argument("--rep", type=int, default=100, help="do_bench repetitions, ms")
    p.add_argument("--seed", type=int, default=0)
    return p


def run(argv: list[str]) -> int:
    args = build_arg_parser().parse_args(argv)
    names = args.cases.split(",") if args.cases else list(CASES)
    unknown = [name for name in names if name not in CASES]
    if unknown:
        sys.stderr.write(f"ttpipe.bench: --cases: error: unknown case '{unknown[0]}' (known: {','.join(CASES)})\n")
        return 2
    if args.pipeline is not None:
        try:
            parse(args.pipeline)
        except PipelineError as exc:
            sys.stderr.write(f"ttpipe.bench: --pipeline: error: {exc}\n")
            return 2
    report: dict[str, Any] = {"ttpipe_version": __version__, "pipeline": args.pipeline or "default",
                              "dry_run": args.dry_run}
    if args.dry_run:
        capability = DRY_RUN_CAPABILITY
        cases = [CASES[name] for name in names if capability in CASES[name].capabilities]
        report["device"] = f"none (dry run, sm_{capability}a)"
        report["compile"] = compile_times(cases, capability, args.pipeline)
        print(compile_table(report["compile"], dry_run=True))
        failed = any("error" in row for row in report["compile"])
    else:
        try:
            import torch
        except ImportError:
            torch = None
        if torch is None or not torch.cuda.is_available():
            why = "torch is not installed" if torch is None else "torch.cuda.is_available() is false"
            sys.stderr.write(f"ttpipe.bench: error: no CUDA GPU ({why}); --dry-run compiles the cases without one\n")
            return 2
        device = torch.device("cuda", torch.cuda.current_device())
        major, minor = torch.cuda.get_device_capability(device)
        capability = major * 10 + minor
        cases = [CASES[name] for name in names if capability in CASES[name].capabilities]
        report["device"] = torch.cuda.get_device_name(device)
        report["compile"] = compile_times(cases, capability, args.pipeline)
        report["cases"] = []
        for case in cases:
            try:
                row = bench_case(torch, case, device, args.pipeline, args.warmup, args.rep, args.seed)
            except Exception as exc:  # report it and go on with the other cases
                row = {"case": case.name, "error": _one_line(exc)}
            report["cases"].append(row)
            sys.stderr.write(f"ttpipe.bench: {case.name} done\n")
        print(compile_table(report["compile"], dry_run=False))
        print()
        print(f"{report['device']}, Triton {_triton_version()}, ttpipe {__version__}, "
              f"pipeline {report['pipeline']}; do_bench median, warmup {args.warmup} ms, rep {args.rep} ms")
        print(performance_table(report["cases"]))
        failed = any("error" in row or not row["ok"] for row in report["cases"])
    if args.json:
        with open(args.json, "w") as f:
            json.dump(report, f, indent=1, default=str)
    return 1 if failed else 0


def _triton_version() -> str:
    return triton.__version__


def main(argv: list[str] | None = None) -> int:
    return run(sys.argv[1:] if argv is None else argv)
