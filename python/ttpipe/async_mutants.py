"""Mutants of pipelined and warp-specialized TTGIR, each a protocol bug planted on purpose,
and the campaign that measures how many of them `ttpipe-verify-async` catches.

    python -m ttpipe.async_mutants FILE... [--json OUT] [--deep]
    ttpipe-opt K.mlir -p 'ttpipe-plant-async-mutant{operator=shift-phase site=2}'

`python -m ttpipe.bench.mutants` runs them on the GPU (through the plug-in, with the pass).

Every operator of `ttpipe.passes.verify_async.mutants` is applied at every site it fits,
one site per mutant.

The campaign first checks each file unmutated (an error there is a false positive), then
every mutant with the checker as the pipelines run it. With `--deep`, a mutant the checker
passes is run again on many more instances (every integer argument 2..40, 64, 128, 257,
1000, 4096) and schedules; one that the deep run also passes is reported as *not shown
to be a bug* (the planted change can be harmless: a wait already covered by a later one, an
arrive on a barrier nobody waits for), one that it catches counts as missed.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import asdict, dataclass

from xdsl.dialects.builtin import ModuleOp

from ttpipe.ir.diagnostics import DiagnosticError, SourceFile
from ttpipe.passes.verify_async import INSTANCE_VALUES, SCHEDULES, check_module
from ttpipe.passes.verify_async.cta import Schedule
from ttpipe.passes.verify_async.mutants import OPERATORS, mutants
from ttpipe.textio import parse_module


@dataclass
class Mutant:
    file: str
    operator: str
    number: int
    site: str
    caught: bool
    rules: list[str]
    deep_caught: bool | None = None


DEEP_VALUES = tuple(range(2, 41)) + (64, 128, 257, 1000, 4096)
DEEP_SCHEDULES = SCHEDULES + (Schedule(lazy=False, reverse=True),)


def violations_of(module: ModuleOp, values=INSTANCE_VALUES, schedules=SCHEDULES) -> list:
    return [v for _, result in check_module(module, values=values, schedules=schedules) for v in result.violations]


def campaign(paths: list[str], deep: bool) -> tuple[list[Mutant], list[str]]:
    """The mutants of every file, and the false positives (errors on unmutated files)."""
    results, false_positives = [], []
    for path in paths:
        module = parse_module(SourceFile.read(path).text, path).module
        clean = violations_of(module)
        false_positives += [f"{path}: {v.diagnostic().render()}" for v in clean]
        for operator, number, site, mutant in mutants(module):
            found = violations_of(mutant)
            result = Mutant(path, operator, number, site, bool(found), sorted({v.rule for v in found}))
            if deep and not found:
                result.deep_caught = bool(violations_of(mutant, DEEP_VALUES, DEEP_SCHEDULES))
            results.append(result)
    return results, false_positives


def summary(results: list[Mutant]) -> str:
    lines = ["| operator | mutants | caught | not caught, deep run catches | not shown to be a bug |",
             "|---|---|---|---|---|"]
    for operator in [*OPERATORS, "all"]:
        group = [r for r in results if operator in ("all", r.operator)]
        if not group:
            continue
        caught = sum(r.caught for r in group)
        missed = sum(r.deep_caught is True for r in group)
        unknown = sum(r.deep_caught is False for r in group)
        lines.append(f"| {operator} | {len(group)} | {caught} ({100 * caught / len(group):.1f} %) | {missed} | "
                     f"{unknown} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m ttpipe.async_mutants", description=__doc__.split("\n")[0])
    parser.add_argument("files", nargs="+")
    parser.add_argument("--json", help="write every mutant's outcome here")
    parser.add_argument("--deep", action="store_true", help="run the mutants the checker passes on more instances")
    args = parser.parse_args(argv)
    try:
        results, false_positives = campaign(args.files, args.deep)
    except DiagnosticError as exc:
        sys.stderr.write(exc.render() + "\n")
        return 1
    for line in false_positives:
        sys.stdout.write(f"false positive: {line}\n")
    sys.stdout.write(summary(results) + "\n")
    if args.json:
        with open(args.json, "w") as out:
            json.dump({"false_positives": false_positives, "mutants": [asdict(r) for r in results]}, out, indent=1)
    return 1 if false_positives else 0


if __name__ == "__main__":
    sys.exit(main())
