"""`python -m ttpipe.bench`: ttpipe against stock Triton and torch (cuBLAS, cuDNN) on one GPU.

    python -m ttpipe.bench [--cases a,b,'gemm-ws-*'] [--pipeline P] [--json out.json] [--dry-run] [--rounds N]

For each case (`ttpipe.bench.cases`):

1. Compile time, cold cache (`always_compile`, a fresh cache directory): Triton's whole
   compile of the kernel, its `make_ttgir`, and ttpipe's pipeline in its place (the ttgir
   stage under the plug-in), from Triton's compilation listener. The dry run also says
   whether ttpipe's cubin is the same as stock's, and whether ttpipe's TTGIR holds a
   `ttg.warp_specialize`.
2. Check: the kernel compiled through the plug-in (`ttpipe.triton.installed(pipeline)`, the
   case's own pipeline where it has one, else `--pipeline`; launches go through Triton's own
   launcher) writes into a NaN-filled output; the relative error ||out - ref|| / ||ref||
   against a float32 torch reference must be under the case's tolerance (NaN fails). Each
   stock version is checked the same way.
3. Time: `triton.testing.do_bench` (median of one call; it flushes L2 before every timed
   launch) of ttpipe, each stock version, the torch baseline and, for a TB/s case, `copy`:
   a device-to-device copy (`copy_` of a uint8 tensor of half the case's bytes, so that it
   reads and writes as many bytes as the case's work counts), the device's copy bandwidth
   in the same run. The sides are interleaved: `--rounds` rounds, each timing every side
   once (the order rotates between rounds); a side's figure is the median over the rounds.
   Cases whose inputs would fit in L2 twice over rotate between several input sets.

Stock Triton's figure is its best version of the same source: a case with `stock_variants`
(the warp-specialized GEMMs: the flag on and off) is compiled in each; a version that fails
to compile is recorded as failed and the others are taken.

The performance table comes last (TFLOP/s, TB/s for memory-bound cases, the ratios
ttpipe/Triton, ttpipe/torch and, for TB/s cases, ttpipe/copy, and whether the case's goals
are met). `--dry-run` compiles every case for sm_90a with no GPU.
"""

from __future__ import annotations

import argparse
import contextlib
import fnmatch
import itertools
import json
import math
import os
import shutil
import statistics
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
from ttpipe.bench.cases import CASES, TARGET_SIDES, WS_PIPELINE, Case, Launch
from ttpipe.pipeline.spec import PipelineError, parse
from ttpipe.triton.plugin import current_marker
from ttpipe.triton.versions import launched_version

DRY_RUN_CAPABILITY = 90


def _one_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0] if text else ''}"[:200]


def case_pipeline(case: Case, pipeline: str | None) -> str | None:
    """The plug-in's pipeline for `case`: its own, else the run's."""
    return case.pipeline if case.pipeline is not None else pipeline


def warp_specialized(compiled) -> bool:
    """Whether a compiled kernel's TTGIR holds a `ttg.warp_specialize`."""
    return "ttg.warp_specialize" in compiled.asm.get("ttgir", "")


def asynchronous(compiled) -> bool:
    """Whether a compiled kernel's TTGIR orders asynchronous work through shared memory, with
    mbarriers (TMA, warp specialization) or cp.async groups: a protocol for compute-sanitizer."""
    ttgir = compiled.asm.get("ttgir", "")
    return "ttng.init_barrier" in ttgir or "ttg.async_copy_global_to_local" in ttgir


class CompileFailure(Exception):
    """A compile that failed, with the first `error:` line it printed."""


@contextlib.contextmanager
def quiet_stderr():
    """File descriptor 2 goes to a scratch file for the block: a compile that fails prints
    its MLIR reproducer there (pages of IR). An exception leaving the block whose message
    is only "PassManager::run failed" comes out as `CompileFailure` with the first
    `error:` line of what was printed."""
    sys.stderr.flush()
    saved = os.dup(2)
    with tempfile.TemporaryFile() as scratch:
        os.dup2(scratch.fileno(), 2)
        try:
            yield
        except Exception as exc:
            sys.stderr.flush()
            if "PassManager::run failed" not in str(exc):
                raise
            scratch.seek(0)
            printed = scratch.read().decode(errors="replace").splitlines()
            first = next((line for line in printed if " error: " in line), "")
            raise CompileFailure(f"{_one_line(exc)}: {first.split(' error: ', 1)[-1]}" if first else _one_line(exc))
        finally:
            sys.stderr.flush()
            os.dup2(saved, 2)
            os.close(saved)


def _failed(row: dict) -> bool:
    """A row that counts against the exit status: an error or a failed check."""
    return "error" in row or ("ok" in row and not row["ok"])


def select_cases(patterns: str | None) -> tuple[list[str], str | None]:
    """(case names, error) for `--cases`: comma-separated names or shell-style patterns, in
    the order given; every item must match a case."""
    if not patterns:
        return list(CASES), None
    names: list[str] = []
    for item in patterns.split(","):
        matched = [name for name in CASES if fnmatch.fnmatchcase(name, item)] if any(
            ch in item for ch in "*?[") else [item] if item in CASES else []
        if not matched:
            return [], item
        names += [name for name in matched if name not in names]
    return names, None


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
        source = ASTSource(case.kernel, case.full_signature(constexprs), case.specialized(constexprs), case.attrs())
        start = time.perf_counter()
        compiled = triton.compile(source, target=GPUTarget("cuda", capability, 32), options=case.options)
        total_ms = (time.perf_counter() - start) * 1e3
    finally:
        knobs.compilation.listener = None
    stages = dict(times[-1].lowering_stages)
    return compiled, total_ms, stages["ttgir"] / 1e3


def compile_times(cases: list[Case], capability: int, pipeline: str | None) -> list[dict]:
    """Cold compiles of every case, stock (each of its versions) and through the plug-in
    with the case's pipeline (warmed up on the first case).

    The compile time shown for stock is that of the version with ttpipe's constexprs where
    it compiles, else the first that does; `same_cubin` compares ttpipe's cubin with every
    stock version that compiled (`same_cubin_as` names the one it equals)."""
    rows = []
    with _cold_compiles():
        if cases:  # first-use costs (imports, pass registry) are not compile time
            with contextlib.suppress(Exception), quiet_stderr():
                _timed_compile(cases[0], capability, cases[0].stock_runs()[-1][1])
                with ttpipe.triton.installed(case_pipeline(cases[0], pipeline)):
                    _timed_compile(cases[0], capability, cases[0].constexprs)
        for case in cases:
            row: dict[str, Any] = {"case": case.name, "pipeline": case_pipeline(case, pipeline) or "default"}
            try:
                stock: dict[str, Any] = {}
                row["stock_variants"] = {}
                for label, constexprs in case.stock_runs():
                    try:
                        with quiet_stderr():
                            stock[label] = (*_timed_compile(case, capability, constexprs), constexprs)
                        row["stock_variants"][label] = "ok"
                    except Exception as exc:
                        row["stock_variants"][label] = _one_line(exc)
                if not stock:
                    raise RuntimeError("no stock version compiled: " + "; ".join(
                        f"{label or 'stock'}: {why}" for label, why in row["stock_variants"].items()))
                shown = next((label for label, run in stock.items() if run[3] == case.constexprs), next(iter(stock)))
                _, row["triton_ms"], row["triton_ttgir_ms"], _ = stock[shown]
                row["triton_shown"] = shown
                with ttpipe.triton.installed(case_pipeline(case, pipeline)), quiet_stderr():
                    marker = current_marker()
                    ours, row["ttpipe_compile_ms"], row["ttpipe_pipeline_ms"] = _timed_compile(
                        case, capability, case.constexprs)
                if ours.metadata.instrumentation_mode != marker:
                    raise RuntimeError("the plug-in did not compile the kernel")
                same = [label for label, run in stock.items() if run[0].asm["cubin"] == ours.asm["cubin"]]
                row["same_cubin"] = bool(same)
                row["same_cubin_as"] = same[0] if same else None
                row["warp_specialized"] = warp_specialized(ours)
                row["shared"] = {"triton": stock[shown][0].metadata.shared, "ttpipe": ours.metadata.shared}
            except Exception as exc:  # one failing case must not hide the others
                row["error"] = _one_line(exc)
            rows.append(row)
    return rows


# ---------------------------------------------------------------------------- GPU runs


def _relative_error(torch, out, reference) -> float:
    out, reference = out.float(), reference.float()
    error = torch.linalg.vector_norm(out - reference) / torch.linalg.vector_norm(reference)
    return float(error)


def poisoned_launch(torch, launch_once, launch) -> Any:
    """`launch_once(launch)` into an output that starts as NaN (a kernel writing its inputs:
    on its inputs as the setup made them), finished; what it returned (a Triton launch: the
    compiled kernel)."""
    if launch.restore is not None:
        launch.restore()
    else:
        launch.output.fill_(float("nan"))
    compiled = launch_once(launch)
    torch.cuda.synchronize()
    return compiled


def on_device(constexprs: dict, sms: int) -> dict:
    """`constexprs` with a persistent kernel's `NUM_SMS` set to the device's `sms`."""
    constexprs = dict(constexprs)
    if "NUM_SMS" in constexprs:
        constexprs["NUM_SMS"] = sms
    return constexprs


def _check(torch, launch_once, launch, reference) -> tuple[float, Any]:
    """The relative error of one launch whose output starts as NaN, and the compiled kernel."""
    compiled = poisoned_launch(torch, launch_once, launch)
    return _relative_error(torch, launch.output, reference), compiled


def bench_case(torch, case: Case, device, pipeline: str | None, warmup: int, rep: int, seed: int,
               rounds: int = 5) -> dict:
    """Check and time one case on the current GPU: ttpipe (the case's pipeline, else
    `pipeline`), every stock version, torch and (TB/s cases) a copy of as many bytes, timed
    in `rounds` interleaved rounds."""
    pipeline = case_pipeline(case, pipeline)
    properties = torch.cuda.get_device_properties(device)
    sms = properties.multi_processor_count
    constexprs = on_device(case.constexprs, sms)
    first = case.setup(torch, device, seed, constexprs)
    l2_bytes = getattr(properties, "L2_cache_size", 50 * 2**20)
    sets = 1 if first.inputs_bytes >= 2 * l2_bytes else min(8, math.ceil(2 * l2_bytes / first.inputs_bytes))
    launches = [first] + [case.setup(torch, device, seed + i, constexprs) for i in range(1, sets)]

    def launcher(constexprs: dict):
        return lambda launch: case.kernel[launch.grid](*launch.args, **constexprs, **case.options)

    def rotating(run, inputs: list[Launch] = launches):
        cycle = itertools.cycle(inputs)
        return lambda: run(next(cycle))

    def timed(run, plugged: bool = False, inputs: list[Launch] = launches):
        def one() -> float:
            with ttpipe.triton.installed(pipeline) if plugged else contextlib.nullcontext():
                return do_bench(rotating(run, inputs), warmup=warmup, rep=rep, return_mode="median")

        return one

    reference = first.reference()
    row: dict[str, Any] = {"case": case.name, "unit": case.unit, "input_sets": sets, "pipeline": pipeline or "default"}
    sides: list[tuple[str, Any]] = []
    variants: dict[str, dict] = {}
    for label, stock_constexprs in case.stock_runs():
        stock_constexprs = on_device(stock_constexprs, sms)
        launch_stock = launcher(stock_constexprs)
        inputs = launches
        if case.inputs_per_version and stock_constexprs != constexprs:
            inputs = [case.setup(torch, device, seed + i, stock_constexprs) for i in range(sets)]
        try:
            with quiet_stderr():
                error, _ = _check(torch, launch_stock, inputs[0], reference)
        except Exception as exc:  # a version stock Triton cannot compile: recorded, the others taken
            variants[label] = {"error": _one_line(exc)}
            continue
        variants[label] = {"rel_error": error, "ok": case.accepts(error)}
        sides.append((f"triton:{label}", timed(launch_stock, inputs=inputs)))
    row["stock_variants"] = variants
    launch_ours = launcher(constexprs)
    with ttpipe.triton.installed(pipeline):
        with quiet_stderr():  # a failing compile's reproducer; the exception says what failed
            row["ttpipe_rel_error"], compiled = _check(torch, launch_ours, first, reference)
        row["ttpipe_compiled"] = compiled.metadata.instrumentation_mode == current_marker()
        row["warp_specialized"] = warp_specialized(launched_version(compiled, first.args))
    sides.insert(0, ("ttpipe", timed(launch_ours, plugged=True)))
    sides.append(("torch", timed(lambda launch: launch.baseline())))
    if case.unit == "TB/s":  # reads and writes work / 2 bytes each: the work's bytes
        source = torch.empty(int(case.work) // 2, dtype=torch.uint8, device=device)
        target = torch.empty_like(source)
        sides.append(("copy", timed(lambda launch: target.copy_(source))))
    samples: dict[str, list[float]] = {name: [] for name, _ in sides}
    for round_ in range(rounds):  # interleaved: every side once a round, the order rotating
        shift = round_ % len(sides)
        for name, time_it in sides[shift:] + sides[:shift]:
            samples[name].append(time_it())
    torch.cuda.synchronize()
    medians = {name: statistics.median(values) for name, values in samples.items()}
    for label, variant in variants.items():
        if f"triton:{label}" in medians:
            variant["ms"] = medians[f"triton:{label}"]
    compiled_ok = [label for label, v in variants.items() if "ms" in v]
    passing = [label for label in compiled_ok if variants[label]["ok"]] or compiled_ok
    best = min(passing, key=lambda label: variants[label]["ms"]) if passing else None
    row["stock_best"] = best
    row["triton_rel_error"] = variants[best]["rel_error"] if best is not None else None
    error = row["ttpipe_rel_error"]
    row["ok"] = bool(row["ttpipe_compiled"] and case.accepts(error))
    row["ms"] = {"ttpipe": medians["ttpipe"], "triton": variants[best]["ms"] if best is not None else None,
                 "torch": medians["torch"], "copy": medians.get("copy")}
    row["samples_ms"] = samples
    row["rounds"] = rounds
    scale = 1e-12 * 1e3  # per ms -> per s, then tera
    row["rate"] = {name: (case.work / ms * scale if ms else None) for name, ms in row["ms"].items()}
    row["ratio"] = {side: _ratio(row["rate"], side) for side in TARGET_SIDES}
    row["targets"] = {side: {"goal": goal, "ratio": row["ratio"][side], "met": (row["ratio"][side] or 0.0) >= goal}
                      for side, goal in case.targets}
    row["baseline"] = case.baseline_name
    row["triton_version"] = triton.__version__
    return row


def _ratio(rate: dict, side: str) -> float | None:
    return rate["ttpipe"] / rate[side] if rate.get("ttpipe") and rate.get(side) else None


# ---------------------------------------------------------------------------- output


def _format_table(header: list[str], rows: list[list[str]]) -> str:
    """Columns aligned; a row of two cells (case, message) is written as is after the case."""
    full = [row for row in rows if len(row) == len(header)]
    widths = [max(len(str(cell)) for cell in column) for column in zip(header, *full)]

    def line(row: list[str]) -> str:
        if len(row) != len(header):
            return f"{str(row[0]).ljust(widths[0])}  {'  '.join(map(str, row[1:]))}"
        return "  ".join(str(cell).rjust(width) if i else str(cell).ljust(width)
                         for i, (cell, width) in enumerate(zip(row, widths)))

    lines = [line(row) for row in [header, *rows]]
    return "\n".join([lines[0], "-" * len(lines[0]), *lines[1:]])


def _error_row(row: dict) -> list[str]:
    error = row["error"]
    if " error: " in error:  # a diagnostic: its message, not the path of the kernel's source
        error = f"{error.split(':', 1)[0]}: {error.split(' error: ', 1)[1]}"
    return [row["case"], f"ERROR {error[:160]}"]


def _stock_cell(variants: dict[str, str]) -> str:
    """'ws=0 ok, ws=1 FAIL' (stock's versions: compiled or not); '-' for a case with one version."""
    if list(variants) == [""]:
        return "-" if variants[""] == "ok" else "FAIL"
    return ", ".join(f"{label} {'ok' if why == 'ok' else 'FAIL'}" for label, why in variants.items())


def compile_table(rows: list[dict], dry_run: bool) -> str:
    header = ["case", "triton compile ms", "triton make_ttgir ms", "ttpipe pipeline ms", "pipeline/compile"]
    if dry_run:
        header.append("same cubin")
    header += ["stock versions", "ws"]
    body = []
    for row in rows:
        if "error" in row:
            body.append(_error_row(row))
            continue
        line = [row["case"], f"{row['triton_ms']:.0f}", f"{row['triton_ttgir_ms']:.0f}",
                f"{row['ttpipe_pipeline_ms']:.0f}", f"{row['ttpipe_pipeline_ms'] / row['triton_ms']:.2f}"]
        if dry_run:
            same = row["same_cubin_as"]
            line.append("no" if not row["same_cubin"] else f"yes ({same})" if same else "yes")
        line += [_stock_cell(row["stock_variants"]), "yes" if row["warp_specialized"] else "no"]
        body.append(line)
    return _format_table(header, body)


def _goal_cell(row: dict) -> str:
    cells = []
    for side, target in row["targets"].items():
        name = "stock" if side == "triton" else row.get("baseline", "cuBLAS") if side == "torch" else side
        cells.append(f"{'' if target['met'] else 'MISS '}>={target['goal']:.2f}x {name}")
    return ", ".join(cells)


def performance_table(rows: list[dict]) -> str:
    header = ["case", "unit", "ttpipe", "triton", "torch", "copy", "ttpipe/triton", "ttpipe/torch", "ttpipe/copy",
              "rel.err", "check", "stock best", "ws", "goals"]
    body = []
    for row in rows:
        if "error" in row:
            body.append(_error_row(row))
            continue
        rate = row["rate"]
        digits = 1 if row["unit"] == "TFLOP/s" else 2
        failed = [label for label, v in row["stock_variants"].items() if "error" in v]
        best = row["stock_best"]
        stock = "none compiled" if best is None else (best or "-") + "".join(f"; {label} failed" for label in failed)
        body.append([row["case"], row["unit"],
                     *(f"{rate[name]:.{digits}f}" if rate.get(name) else "-" for name in ("ttpipe", *TARGET_SIDES)),
                     *(f"{ratio:.2f}" if (ratio := _ratio(rate, side)) else "-" for side in TARGET_SIDES),
                     f"{row['ttpipe_rel_error']:.1e}", "ok" if row["ok"] else "FAIL", stock,
                     "yes" if row["warp_specialized"] else "no", _goal_cell(row)])
    return _format_table(header, body)


# ---------------------------------------------------------------------------- command line


def build_arg_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m ttpipe.bench", description=__doc__.split("\n\n")[0])
    p.add_argument("--cases", default=None,
                   help=f"comma-separated cases or shell patterns ('gemm-ws-*') (default: all): {','.join(CASES)}")
    p.add_argument("--pipeline", default=None,
                   help="the plug-in's pipeline for cases without their own (default: ttgir-sm90/ttgir-sm100 by the "
                   "GPU, impl=ttpipe); the warp-specialized GEMMs use " + WS_PIPELINE)
    p.add_argument("--json", default=None, help="write the results here")
    p.add_argument("--dry-run", action="store_true", help="compile every case for sm_90a, launch nothing (no GPU)")
    p.add_argument("--warmup", type=int, default=25, help="do_bench warmup, ms")
    p.add_argument("--rep", type=int, default=100, help="do_bench repetitions, ms (each round)")
    p.add_argument("--rounds", type=int, default=5,
                   help="interleaved rounds of timing (ttpipe, stock, torch, copy each once a round); medians over "
                   "rounds")
    p.add_argument("--seed", type=int, default=0)
    return p


def run(argv: list[str]) -> int:
    args = build_arg_parser().parse_args(argv)
    names, unknown = select_cases(args.cases)
    if unknown is not None:
        sys.stderr.write(f"ttpipe.bench: --cases: error: unknown case '{unknown}' (known: {','.join(CASES)})\n")
        return 2
    if args.rounds < 1:
        sys.stderr.write("ttpipe.bench: --rounds: error: at least 1\n")
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
        failed = any(_failed(row) for row in report["compile"])
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
                row = bench_case(torch, case, device, args.pipeline, args.warmup, args.rep, args.seed, args.rounds)
            except Exception as exc:  # report it and go on with the other cases
                row = {"case": case.name, "error": _one_line(exc)}
            report["cases"].append(row)
            if args.json:  # after every case: a run cut short keeps what it measured
                with open(args.json, "w") as f:
                    json.dump(report, f, indent=1, default=str)
            sys.stderr.write(f"ttpipe.bench: {case.name} done{_summary(row)}\n")
        print(compile_table(report["compile"], dry_run=False))
        print()
        own = sorted({case.pipeline for case in cases if case.pipeline is not None})
        print(f"{report['device']}, Triton {triton.__version__}, ttpipe {__version__}, "
              f"pipeline {report['pipeline']}" + "".join(f" (cases with their own: {p})" for p in own) +
              f"; median of {args.rounds} interleaved rounds of do_bench (median; warmup {args.warmup} ms, "
              f"rep {args.rep} ms); triton = stock's best version; copy = a device-to-device copy of as many bytes "
              "(TB/s cases)")
        print(performance_table(report["cases"]))
        failed = any(_failed(row) for row in report["cases"])
    if args.json:
        with open(args.json, "w") as f:
            json.dump(report, f, indent=1, default=str)
    return 1 if failed else 0


def _summary(row: dict) -> str:
    """': ttpipe 700.1, triton 690.0, torch 720.3 TFLOP/s' (TB/s cases: and copy) or the error, for
    the progress line."""
    if "error" in row:
        return f": ERROR {row['error'][:100]}"
    rate = row["rate"]
    names = ("ttpipe", *TARGET_SIDES) if row["unit"] == "TB/s" else ("ttpipe", "triton", "torch")
    return ": " + ", ".join(f"{name} {rate[name]:.2f}" if rate[name] else f"{name} -" for name in names) + \
        f" {row['unit']}"


def main(argv: list[str] | None = None) -> int:
    return run(sys.argv[1:] if argv is None else argv)
