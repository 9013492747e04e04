"""`python -m ttpipe.bench.mutants`: planted protocol bugs on the GPU — what the checker says
of each, and what the kernel does.

    python -m ttpipe.bench.mutants [--cases 'gemm-ws-persistent-bf16-4096-128x128w4'] [--size 256x256x512]
        [--operators shift-phase,...] [--max-sites 8] [--timeout 90] [--jobs 8] [--sanitize] [--json OUT]

For each case (a bench case with small instances) and each operator of
`ttpipe.passes.verify_async.mutants`, sites 0, 1, ... until the kernel has no more (at most
`--max-sites`), two launches of `ttpipe.bench.launch` in subprocesses under the timeout
(persistent kernels on `sanitize.PERSISTENT_CTAS` CTAs, so that each runs several tiles):

1. the verdict: `--then 'ttpipe-plant-async-mutant{...},ttpipe-verify-async'`: the compile
   fails with the checker's error (caught, its rule) or goes on (passed);
2. the behaviour: `--then 'ttpipe-plant-async-mutant{...}'` into a NaN-poisoned output:
   ok, wrong (a wrong result or NaN left), hang (past the timeout), a crash (the device
   aborts the launch: `CUDA error: ...`), failed.

With `--sanitize`, a mutant whose kernel ran ok is run again under `compute-sanitizer
--tool racecheck` and `--tool synccheck`, against the same unmutated kernel's counts
(warp-specialized kernels carry one known false positive of racecheck, docs/measurements.md).
The table comes last; the GPU shows a mutant when it computes a wrong result, hangs,
crashes, or the sanitizer finds more errors than in the unmutated kernel.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

from ttpipe.bench.cases import CASES
from ttpipe.bench.launch import problem_size
from ttpipe.bench.sanitize import SANITIZER_PATHS, Kernel, Run, kernel_name, plain, sanitized
from ttpipe.bench.tools import find_tool, text_table
from ttpipe.passes.verify_async.mutants import OPERATORS

DEFAULT_CASES = ("gemm-ws-persistent-bf16-4096-128x128w4", "gemm-ws-bf16-4096-128x256w8",
                 "gemm-ws-ptr-persistent-bf16-4096-128x128w4")
RULE = re.compile(r"\[([a-z-]+)\]")
NO_SITE = "no site "


@dataclass
class Mutant:
    case: str
    operator: str
    site: int
    verdict: str = ""
    """caught (rule), passed, no-site (the kernel has fewer sites), or the compile's error."""
    behaviour: Run | None = None
    sanitizer: dict[str, Run] | None = None


def _plant(operator: str, site: int) -> str:
    return f"ttpipe-plant-async-mutant{{operator={operator} site={site}}}"


def verdict(kernel: Kernel, size, operator: str, site: int, timeout: float) -> str:
    run = plain(Run(kernel, size, None, then=f"{_plant(operator, site)},ttpipe-verify-async"), timeout)
    error = run.result.get("error", "") if run.status == "compile-error" else ""
    if NO_SITE in error or "does not fit" in error:
        return "no-site"
    if error.startswith("DiagnosticError"):  # the checker's (the plant's own errors are above)
        rule = RULE.search(error)
        return f"caught ({rule.group(1)})" if rule else "caught"
    if error:
        return f"error: {error[:80]}"
    return "passed" if run.status in ("ok", "wrong", "hang") else f"{run.status}: {run.detail[:80]}"


def crashed(run: Run) -> bool:
    """A launch the device aborted (an illegal instruction or address, a launch failure)."""
    return run.status == "compile-error" and "CUDA error" in run.detail


def confirmed(mutant: Mutant, baseline: dict[str, int]) -> bool:
    behaviour = mutant.behaviour
    if behaviour is not None and (behaviour.status in ("wrong", "hang") or crashed(behaviour)):
        return True
    return any(run.errors > baseline.get(tool, 0) or run.status == "hang"
               for tool, run in (mutant.sanitizer or {}).items())


def build_arg_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m ttpipe.bench.mutants", description=__doc__.split("\n\n")[0])
    p.add_argument("--cases", default=",".join(DEFAULT_CASES))
    p.add_argument("--size", type=problem_size, default=(256, 256, 512))
    p.add_argument("--operators", default=",".join(OPERATORS))
    p.add_argument("--max-sites", type=int, default=8)
    p.add_argument("--timeout", type=float, default=90.0)
    p.add_argument("--jobs", type=int, default=8)
    p.add_argument("--sanitize", action="store_true")
    p.add_argument("--sanitizer", default=None)
    p.add_argument("--json", default=None)
    return p


def run(argv: list[str]) -> int:
    args = build_arg_parser().parse_args(argv)
    kernels = [Kernel(kernel_name(CASES[name]), CASES[name]) for name in args.cases.split(",")]
    operators = args.operators.split(",")
    start = time.perf_counter()
    mutants = [Mutant(kernel.case.name, operator, site)
               for kernel in kernels for operator in operators for site in range(args.max_sites)]
    by_case = {kernel.case.name: kernel for kernel in kernels}
    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        verdicts = pool.map(lambda m: verdict(by_case[m.case], args.size, m.operator, m.site, args.timeout), mutants)
        for mutant, said in zip(mutants, verdicts):
            mutant.verdict = said
        mutants = [m for m in mutants if m.verdict != "no-site"]
        behaviours = pool.map(lambda m: plain(Run(by_case[m.case], args.size, None, then=_plant(m.operator, m.site)),
                                              args.timeout), mutants)
        for mutant, behaviour in zip(mutants, behaviours):
            mutant.behaviour = behaviour
        baseline: dict[str, dict[str, int]] = {}
        sanitizer = find_tool("compute-sanitizer", args.sanitizer, SANITIZER_PATHS) if args.sanitize else None
        if sanitizer is not None:
            for kernel in kernels:
                baseline[kernel.case.name] = {tool: sanitized(Run(kernel, args.size, tool), sanitizer,
                                                              args.timeout).errors
                                              for tool in ("racecheck", "synccheck")}
            pairs = [(m, tool) for m in mutants if m.behaviour.status == "ok" for tool in ("racecheck", "synccheck")]
            checks = pool.map(lambda pair: sanitized(Run(by_case[pair[0].case], args.size, pair[1],
                                                         then=_plant(pair[0].operator, pair[0].site)),
                                                     sanitizer, args.timeout), pairs)
            for (mutant, tool), check in zip(pairs, checks):
                mutant.sanitizer = {**(mutant.sanitizer or {}), tool: check}
    rows = [[m.case, m.operator, m.site, m.verdict, m.behaviour.cell(),
             " ".join(f"{tool}: {r.cell()}" for tool, r in (m.sanitizer or {}).items()) or "-",
             "yes" if confirmed(m, baseline.get(m.case, {})) else "no"] for m in mutants]
    print(f"{len(mutants)} mutants in {time.perf_counter() - start:.0f} s; size {'x'.join(map(str, args.size))}; "
          f"unmutated sanitizer errors: {baseline or 'not run'}")
    print(text_table(["case", "operator", "site", "checker", "GPU", "sanitizer", "GPU shows it"], rows))
    caught = [m for m in mutants if m.verdict.startswith("caught")]
    shown = [m for m in caught if confirmed(m, baseline.get(m.case, {}))]
    missed = [m for m in mutants if m.verdict == "passed" and confirmed(m, baseline.get(m.case, {}))]
    print(f"caught {len(caught)} of {len(mutants)}; the GPU shows {len(shown)} of the caught; "
          f"{len(missed)} passed the checker and the GPU shows them")
    if args.json:
        with open(args.json, "w") as out:
            json.dump([{"case": m.case, "operator": m.operator, "site": m.site, "verdict": m.verdict,
                        "gpu": m.behaviour.status, "gpu_detail": m.behaviour.detail,
                        "sanitizer": {t: {"status": r.status, "errors": r.errors, "detail": r.detail}
                                      for t, r in (m.sanitizer or {}).items()}} for m in mutants], out, indent=1)
    return 0


def main(argv: list[str] | None = None) -> int:
    return run(sys.argv[1:] if argv is None else argv)


if __name__ == "__main__":
    sys.exit(main())
