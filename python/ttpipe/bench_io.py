"""Parse + print speed of ttpipe's text I/O against Triton's own, file by file.

    ttpipe-bench-io [PATH...]      (files, or folders searched for *.mlir; default test/corpus)

For each file: the best of N runs of ttpipe's parse and of its print, and the best of N
runs of Triton's parse + print of the same file in the same process, then a table with
the ratio ttpipe/Triton. A benchmark, not a test: it asserts nothing.
"""

from __future__ import annotations

import argparse
import os
import time

from ttpipe.textio import DiagnosticError, parse_module, print_module
from ttpipe.triton import mlir


def _best(fn, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def measure(path: str, repeat: int) -> dict:
    with open(path) as f:
        text = f.read()
    parsed = parse_module(text, path)
    parse_s = _best(lambda: parse_module(text, path), repeat)
    print_s = _best(lambda: print_module(parsed.module), repeat)
    triton_s = _best(lambda: mlir.parse_file(path).str(), repeat)
    return {"file": path, "lines": text.count("\n"), "ops": sum(1 for _ in parsed.module.walk()),
            "parse_ms": 1e3 * parse_s, "print_ms": 1e3 * print_s, "triton_ms": 1e3 * triton_s}


def files_under(paths: list[str]) -> list[str]:
    found = []
    for path in paths:
        if os.path.isdir(path):
            for root, _, names in os.walk(path):
                found += [os.path.join(root, n) for n in sorted(names) if n.endswith((".mlir", ".ttir", ".ttgir"))]
        else:
            found.append(path)
    return sorted(found)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="*", default=["test/corpus"])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--largest", type=int, default=0, help="only the N largest files")
    args = parser.parse_args(argv)
    files = files_under(args.paths)
    if args.largest:
        files = sorted(files, key=os.path.getsize)[-args.largest:]
    rows = []
    for path in files:
        try:
            rows.append(measure(path, args.repeat))
        except (DiagnosticError, RuntimeError) as exc:  # ttpipe or Triton cannot read it
            print(f"skipped {path}: {(str(exc).splitlines() or [type(exc).__name__])[0]}")
    print(f"{'file':60} {'lines':>6} {'ops':>6} {'parse ms':>9} {'print ms':>9} {'total ms':>9} {'triton ms':>9} {'ratio':>6}")
    for r in rows:
        total = r["parse_ms"] + r["print_ms"]
        name = r["file"][-60:]
        print(f"{name:60} {r['lines']:6d} {r['ops']:6d} {r['parse_ms']:9.1f} {r['print_ms']:9.1f} "
              f"{total:9.1f} {r['triton_ms']:9.2f} {total / r['triton_ms']:6.0f}")
    if rows:
        lines = sum(r["lines"] for r in rows)
        total = sum(r["parse_ms"] + r["print_ms"] for r in rows)
        print(f"{len(rows)} files, {lines} lines: {1e3 * total / lines:.1f} us per line (ttpipe parse+print)")
    return 0
