"""Round-trip checks: ttpipe reads a file and prints it; Triton must read back the same module.

`check(path)` compares Triton's reprint of the original file with Triton's reprint of
ttpipe's output (see `ttpipe.triton.mlir`). Run as a module over files to see which fail:

    python -m ttpipe.roundtrip [--split-input-file] FILE...
"""

from __future__ import annotations

import argparse
import difflib
import os
import sys
from dataclasses import dataclass

from ttpipe.ir.diagnostics import split_chunks
from ttpipe.textio import DiagnosticError, ParseOptions, SourceFile, parse_module, print_module
from ttpipe.triton import mlir


@dataclass
class Outcome:
    name: str
    ok: bool
    detail: str = ""


def check_text(text: str, path: str) -> Outcome:
    """`path` must hold `text` (Triton reads the original from there)."""
    try:
        expected = mlir.reprint(path)
    except RuntimeError:
        return Outcome(path, True, "skipped: Triton does not parse it")
    try:
        ours = print_module(parse_module(text, path, options=ParseOptions()).module)
    except DiagnosticError as exc:
        return Outcome(path, False, exc.render())
    except Exception as exc:  # a ttpipe bug: report it with the file and go on with the others
        return Outcome(path, False, f"ttpipe failed: {type(exc).__name__}: {exc}")
    try:
        got = mlir.reprint_text(ours, path)
    except RuntimeError:
        return Outcome(path, False, "Triton cannot parse ttpipe's output:\n" + ours[:2000])
    if got == expected:
        return Outcome(path, True)
    diff = difflib.unified_diff(expected.splitlines(), got.splitlines(), "triton", "ttpipe", lineterm="", n=1)
    return Outcome(path, False, "\n".join(list(diff)[:20]))


def check(path: str) -> Outcome:
    with open(path) as f:
        return check_text(f.read(), path)


def check_split(path: str) -> list[Outcome]:
    """`check_text` on each chunk between `// -----` lines (line numbers kept, as ttpipe-opt
    splits them)."""
    with open(path) as f:
        chunks = [c.text for c in split_chunks(SourceFile(path, f.read())) if c.text.strip()]
    outcomes = []
    for index, chunk in enumerate(chunks):
        with mlir.text_as_file(chunk, f"{os.path.basename(path)}.{index}.mlir") as chunk_path:
            outcome = check_text(chunk, chunk_path)
        outcome.name = f"{path}#{index}"
        outcomes.append(outcome)
    return outcomes


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="+")
    parser.add_argument("--split-input-file", action="store_true")
    parser.add_argument("-q", "--quiet", action="store_true", help="print failures only")
    args = parser.parse_args(argv)
    failed = 0
    total = 0
    for path in args.files:
        outcomes = check_split(path) if args.split_input_file else [check(path)]
        for outcome in outcomes:
            total += 1
            if not outcome.ok:
                failed += 1
                print(f"FAIL {outcome.name}\n{outcome.detail}\n")
            elif not args.quiet:
                print(f"ok   {outcome.name} {outcome.detail}")
    print(f"{total - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
