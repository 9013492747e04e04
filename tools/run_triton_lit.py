"""`ttpipe-triton-lit`: Triton's own lit tests, run as written, through `ttpipe-opt`.

    ttpipe-triton-lit --triton-src DIR [--triton | --compare] [--chunks]
                      [--filecheck auto|python|PATH] [-j N] [-v] [TEST ...]

Each TEST (a path under DIR; by default `DEFAULT_TESTS`, the tests of the passes ttpipe
re-implements) is copied to a temporary directory with only its RUN lines changed:
`triton-opt` becomes `ttpipe-opt`, and each Triton pass that ttpipe re-implements becomes
ttpipe's (`PASS_NAMES`); every other pass (`canonicalize`, `tritongpu-hoist-tmem-alloc`)
is Triton's own C++ pass, which ttpipe-opt runs by the same name. A RUN line ttpipe-opt
cannot run (it names an AMD pass, or a test pass of triton-opt's) is dropped, with a note.
lit runs the copies; `FileCheck` there is LLVM's when one is found (the one Triton's wheel
ships, else on PATH or in /usr/lib/llvm-N/bin), else Python's filecheck less the options it lacks that change only
what a failure prints (`--dump-input-context`) or accept more (`--allow-unused-prefixes`).
Python's filecheck 1.0.6 looks for a CHECK-NOT up to the end of the next match, LLVM's up
to its start, so a few of Triton's cases fail with it alone. Nothing of Triton's is kept.
The exit status is 0 when every test passes.

`--triton` keeps Triton's pass names: the same files through Triton's own passes, to tell
a ttpipe failure from a case that fails with Triton's passes too (under ttpipe-opt).
`--chunks` makes each `// -----` chunk a test of its own (the RUN lines and the chunk, at
its own line numbers). `--compare` runs the chunks both ways and prints, per file, how
many chunks pass with ttpipe's passes and with Triton's, and the chunks that pass only
with Triton's; its exit status is 1 if there is any.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import io
import itertools
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from ttpipe.ir.diagnostics import SourceFile, split_chunks
from ttpipe.opt import CommandLineError, parse_command_line
from ttpipe.outputs import DEBUG_ENV
from ttpipe.triton.pipelines import PYTHON_REPLACEMENTS

PASS_NAMES = {**PYTHON_REPLACEMENTS, "tritongpu-test-pipeline-lower-loop": "ttpipe-lower-loops"}
"""Triton's pass -> ttpipe's re-implementation (the same options)."""

DEFAULT_TESTS = tuple(f"test/TritonGPU/{name}.mlir" for name in (
    "accelerate-matmul", "dot-operands",
    "pipeline-assign-latencies", "pipeline-schedule-loop", "loop-schedule", "pipeline-lower-loop",
    "loop-pipeline", "loop-pipeline-async-latencies", "loop-pipeline-blackwell", "loop-pipeline-cuda",
    "loop-pipeline-expand", "loop-pipeline-hopper", "loop-pipeline-hopper-remove-wait",
    "loop-pipeline-indirect-load", "matmul-loop-pipeline", "pipeline-loop-nest",
))
"""Triton 3.6's tests of AccelerateMatmul, OptimizeDotOperands and the pipeliner (NVIDIA)."""

FILECHECK_DROPPED = ("dump-input-context", "allow-unused-prefixes")
"""FileCheck options Python's filecheck lacks that change only what a failure prints, or
accept more (a prefix no line uses): dropped, with their values."""

FILECHECK_ENV = "TTPIPE_LIT_FILECHECK"
"""The LLVM FileCheck the `FileCheck` of the lit directory runs, if any."""

NO_CHECKS_ENV = "TTPIPE_LIT_CHUNK"
"""Set in --chunks runs: a chunk with no line for FileCheck's prefixes passes if the
command before the pipe does (LLVM's FileCheck would fail it for having no checks), and
one that uses only some of them is not failed for the others."""

_RUN = re.compile(r"^(\s*//\s*RUN:)(.*)$")
_FUNC = re.compile(r"tt\.func\s+(?:public\s+|private\s+)?@([\w$.-]+)")
_SEPARATORS = {"|", "||", "&&", ";"}
_TRITON_OPT = re.compile(r"(?<![\w-])triton-opt(?![\w-])")


# ---------------------------------------------------------------------------- RUN lines


def swap_passes(command: str) -> str:
    """Triton's names of the passes ttpipe re-implements replaced by ttpipe's."""
    for triton_name, ttpipe_name in PASS_NAMES.items():
        command = re.sub(rf"(?<![\w-])(-*){re.escape(triton_name)}(?![\w-])", rf"\g<1>{ttpipe_name}", command)
    return command


def why_not_runnable(command: str) -> str | None:
    """Why ttpipe-opt cannot run a (rewritten) RUN command, e.g. "unknown flag or pass
    '-tritonamdgpu-pipeline'"; None when it can."""
    try:
        tokens = shlex.split(command)
    except ValueError as exc:
        return f"cannot split the RUN line: {exc}"
    for index, token in enumerate(tokens):
        if token != "ttpipe-opt":
            continue
        argv = []
        for arg in tokens[index + 1:]:
            if arg in _SEPARATORS or arg.startswith(("2>", ">", "<")):
                break
            argv.append(arg)
        try:
            with contextlib.redirect_stderr(io.StringIO()):
                parse_command_line(argv)
        except CommandLineError as exc:
            return exc.message
        except SystemExit:
            return f"ttpipe-opt rejects its arguments: {shlex.join(argv)}"
    return None


def _command(line: str) -> str:
    """The command of a RUN line, without a trailing `\\` (continued on the next RUN line)."""
    return _RUN.match(line).group(2).rstrip().removesuffix("\\")


def rewrite_run_lines(text: str, swap: bool) -> tuple[str, list[str]]:
    """The test with `triton-opt` RUN lines made `ttpipe-opt` ones (pass names swapped when
    `swap`), and the reasons of the RUN lines dropped; other lines stay as they are."""
    lines = text.split("\n")
    dropped = []
    index = 0
    while index < len(lines):
        if _RUN.match(lines[index]) is None:
            index += 1
            continue
        group = [index]
        while (_RUN.match(lines[group[-1]]).group(2).rstrip().endswith("\\") and group[-1] + 1 < len(lines)
               and _RUN.match(lines[group[-1] + 1]) is not None):
            group.append(group[-1] + 1)
        index = group[-1] + 1
        if not _TRITON_OPT.search(" ".join(_command(lines[i]) for i in group)):
            continue
        for i in group:
            prefix, body = _RUN.match(lines[i]).groups()
            body = _TRITON_OPT.sub("ttpipe-opt", body)
            lines[i] = prefix + (swap_passes(body) if swap else body)
        reason = why_not_runnable(" ".join(_command(lines[i]) for i in group))
        if reason is not None:
            dropped.append(f"line {group[0] + 1}: {reason}")
            for i in group:
                lines[i] = f"// (RUN line dropped by ttpipe-triton-lit: {reason})"
    return "\n".join(lines), dropped


@dataclass
class Chunk:
    index: int
    text: str
    """The whole file with every line outside this chunk blank, except the RUN lines."""
    label: str
    """The chunk's first `tt.func`, e.g. `@matmul_loop`."""


def chunks(text: str) -> list[Chunk]:
    """Each `// -----` chunk with code in it, as a test of its own at the same line numbers."""
    runs = [line if _RUN.match(line) else "" for line in text.split("\n")]
    found = []
    for number, piece in enumerate(split_chunks(SourceFile("", text))):
        body = piece.text.split("\n")  # the chunk's lines, after blank ones for the lines before it
        if not any(line.strip() and not line.lstrip().startswith("//") for line in body):
            continue
        kept = [line or run for line, run in itertools.zip_longest(body, runs, fillvalue="")]
        label = next((f"@{m.group(1)}" for line in body if (m := _FUNC.search(line))), "")
        found.append(Chunk(number, "\n".join(kept), label))
    return found


# ---------------------------------------------------------------------------- FileCheck


def filecheck_main(argv: list[str] | None = None) -> int:
    """`FileCheck` in the lit directory: the LLVM FileCheck of `FILECHECK_ENV` when set,
    else Python's filecheck without the options of `FILECHECK_DROPPED`."""
    argv = list(sys.argv if argv is None else argv)
    kept = [argv[0]]
    rest = iter(argv[1:])
    for arg in rest:
        name, eq, _ = arg.lstrip("-").partition("=")
        if arg.startswith("-") and name in FILECHECK_DROPPED:
            if not eq and name == "dump-input-context":
                next(rest, None)
            continue
        kept.append(arg)
    chunk = bool(os.environ.get(NO_CHECKS_ENV))
    if chunk and not _has_checks(kept):
        sys.stdin.read()
        return 0
    if llvm := os.environ.get(FILECHECK_ENV):
        # a chunk may use only some of the file's prefixes
        return subprocess.run([llvm, *argv[1:], *(["--allow-unused-prefixes"] if chunk else [])]).returncode
    from filecheck.main import main as filecheck

    try:
        filecheck(kept)
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else 1
    return 0


def llvm_filecheck() -> str | None:
    """An LLVM FileCheck: the one Triton's wheel ships (`triton/FileCheck`), else one on PATH,
    else the newest `/usr/lib/llvm-N/bin/FileCheck`."""
    triton_spec = importlib.util.find_spec("triton")
    if triton_spec is not None and triton_spec.origin is not None:
        shipped = Path(triton_spec.origin).parent / "FileCheck"
        if os.access(shipped, os.X_OK):
            return str(shipped)
    if found := shutil.which("FileCheck"):
        return found
    versions = sorted(Path("/usr/lib").glob("llvm-*/bin/FileCheck"),
                      key=lambda p: int(re.sub(r"\D", "", p.parts[-3]) or 0), reverse=True)
    return str(versions[0]) if versions else None


def _has_checks(argv: list[str]) -> bool:
    """Whether the check file has a directive of one of FileCheck's prefixes."""
    prefixes, files = [], []
    args = iter(argv[1:])
    for arg in args:
        name, eq, value = arg.lstrip("-").partition("=")
        if arg.startswith("-") and name in ("check-prefix", "check-prefixes"):
            prefixes += (value if eq else next(args, "")).split(",")
        elif arg.startswith("-") and name in ("input-file", "comment-prefixes") and not eq:
            next(args, None)
        elif not arg.startswith("-"):
            files.append(arg)
    if not files:
        return True
    text = Path(files[-1]).read_text()
    words = "|".join(re.escape(p) for p in (prefixes or ["CHECK"]))
    return re.search(rf"(?<![\w-])({words})(-(NEXT|SAME|NOT|DAG|LABEL|EMPTY|COUNT-\d+))?:", text) is not None


# ---------------------------------------------------------------------------- lit


_LIT_CONFIG = '''\
import os
import lit.formats

config.name = "triton"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir"]
config.test_source_root = os.path.dirname(__file__)
config.environment.update({environment!r})
'''

_SCRIPT = '''\
#!{python}
import sys
from {module} import {function}
sys.exit({function}())
'''


@dataclass
class Prepared:
    """A test file as lit runs it: its name in the lit directory, per chunk when chunked."""

    source: str
    dropped: list[str] = field(default_factory=list)
    tests: dict[str, str] = field(default_factory=dict)
    """lit's test name -> chunk label (`#3 @matmul_loop`; `` for a whole file)."""


@dataclass
class Settings:
    triton_src: Path
    tests: list[str]
    filecheck: str | None
    """LLVM's FileCheck, or None for Python's filecheck."""
    jobs: int | None = None
    verbose: bool = False

    def path(self, test: str) -> Path:
        return Path(test) if Path(test).is_absolute() else self.triton_src / test


def prepare(directory: Path, settings: Settings, swap: bool, chunked: bool) -> list[Prepared]:
    """The lit directory: lit.cfg.py, `bin/` (FileCheck, ttpipe-opt) and the tests."""
    bin_dir = directory / "bin"
    bin_dir.mkdir()
    for name, module, function in (("FileCheck", "ttpipe.tools.run_triton_lit", "filecheck_main"),
                                   ("ttpipe-opt", "ttpipe.opt", "main")):
        script = bin_dir / name
        script.write_text(_SCRIPT.format(python=sys.executable, module=module, function=function))
        script.chmod(0o755)
    environment = {"PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}", "PYTHONUNBUFFERED": "1"}
    environment.update({k: v for k, v in os.environ.items() if k in ("PYTHONPATH", DEBUG_ENV, "HOME")})
    if settings.filecheck:
        environment[FILECHECK_ENV] = settings.filecheck
    if chunked:
        environment[NO_CHECKS_ENV] = "1"
    (directory / "lit.cfg.py").write_text(_LIT_CONFIG.format(environment=environment))
    prepared = []
    for test in settings.tests:
        path = settings.path(test)
        text, dropped = rewrite_run_lines(path.read_text(), swap)
        entry = Prepared(test, dropped)
        prepared.append(entry)
        if not any(_RUN.match(line) for line in text.split("\n")):
            continue  # no RUN line left: nothing to run
        if chunked:
            for chunk in chunks(text):
                name = f"{path.stem}.{chunk.index:02d}.mlir"
                (directory / name).write_text(chunk.text)
                entry.tests[name] = f"#{chunk.index} {chunk.label}".rstrip()
        else:
            (directory / path.name).write_text(text)
            entry.tests[path.name] = ""
    return prepared


def run_lit(directory: Path, settings: Settings, echo: bool) -> dict[str, str]:
    """lit over `directory` (its output shown when `echo`): test name -> result (PASS, FAIL, ...)."""
    results = directory / "results.json"
    command = [sys.executable, "-c", "import sys; from lit.main import main; sys.exit(main())",
               str(directory), "-o", str(results), "-v" if settings.verbose else "-s"]
    if settings.jobs:
        command += ["-j", str(settings.jobs)]
    completed = subprocess.run(command, capture_output=not echo, text=True)
    if not results.exists():
        sys.stderr.write((completed.stdout or "") + (completed.stderr or ""))
        raise SystemExit(f"ttpipe-triton-lit: lit failed (exit status {completed.returncode})")
    return {test["name"].split(" :: ", 1)[1]: test["code"] for test in json.loads(results.read_text())["tests"]}


def run_tests(settings: Settings, *, swap: bool, chunked: bool, echo: bool) -> tuple[list[Prepared], dict[str, str]]:
    """Prepare and run the tests one way (ttpipe's passes when `swap`), after a note on
    each RUN line dropped."""
    with tempfile.TemporaryDirectory(prefix="ttpipe-triton-lit-") as tmp:
        directory = Path(tmp)
        prepared = prepare(directory, settings, swap, chunked)
        mode = "ttpipe's passes" if swap else "Triton's passes"
        for entry in prepared:
            for reason in entry.dropped:
                print(f"note: {entry.source}: {mode}: RUN {reason}")
            if not entry.tests:
                print(f"note: {entry.source}: {mode}: no RUN line left, not run")
        sys.stdout.flush()
        if not any(entry.tests for entry in prepared):
            return prepared, {}
        return prepared, run_lit(directory, settings, echo)


def compare(settings: Settings) -> int:
    """Chunks of each file through ttpipe's passes and through Triton's; a table per file."""
    ours, our_codes = run_tests(settings, swap=True, chunked=True, echo=settings.verbose)
    theirs, their_codes = run_tests(settings, swap=False, chunked=True, echo=settings.verbose)
    width = max(len(t) for t in settings.tests)
    print(f"{'file':<{width}}  chunks  ttpipe  triton")
    only_triton, untested = [], []
    totals = [0, 0, 0]
    for mine, other in zip(ours, theirs):
        names = list(mine.tests) or list(other.tests)
        passed_ours = [n for n in names if our_codes.get(n) == "PASS"]
        passed_theirs = [n for n in names if their_codes.get(n) == "PASS"]
        print(f"{mine.source:<{width}}  {len(names):>6}  {len(passed_ours) if mine.tests else 'n/a':>6}  "
              f"{len(passed_theirs) if other.tests else 'n/a':>6}")
        totals = [totals[0] + len(names), totals[1] + len(passed_ours), totals[2] + len(passed_theirs)]
        only_triton += [f"{mine.source} {mine.tests[n]}" for n in passed_theirs if n not in passed_ours]
        if not other.tests:
            untested += [f"{mine.source} {mine.tests[n]}" for n in names if n not in passed_ours]
    runnable = sum(len(entry.tests) for entry in theirs)
    print(f"{'total':<{width}}  {totals[0]:>6}  {totals[1]:>6}  {totals[2]:>6}  "
          f"(of {runnable} that Triton's passes can run)")
    for title, cases in (("Pass with Triton's passes, fail with ttpipe's:", only_triton),
                         ("Fail with ttpipe's passes (Triton's cannot run them):", untested)):
        if cases:
            print("\n" + title + "\n" + "\n".join(f"  {case}" for case in cases))
    return 1 if only_triton else 0


def build_arg_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="ttpipe-triton-lit", description=__doc__.splitlines()[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter,
                                epilog=__doc__.split("\n\n", 2)[2])
    p.add_argument("tests", nargs="*", metavar="TEST",
                   help="lit tests, as paths under --triton-src (default: " + ", ".join(
                       Path(t).name for t in DEFAULT_TESTS) + ")")
    p.add_argument("--triton-src", required=True, type=Path, help="a Triton source checkout (its test/ is used)")
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--triton", action="store_true", help="run Triton's passes (pass names not swapped)")
    mode.add_argument("--compare", action="store_true",
                      help="per file: chunks that pass with ttpipe's passes and with Triton's")
    p.add_argument("--chunks", action="store_true", help="each '// -----' chunk is a test of its own")
    p.add_argument("--filecheck", default="auto", metavar="auto|python|PATH",
                   help="the FileCheck: LLVM's at PATH, Python's filecheck, or (auto) LLVM's if one is "
                        "found (Triton's wheel, PATH or /usr/lib/llvm-*/bin), else Python's")
    p.add_argument("-j", "--jobs", type=int, default=None, help="lit's parallel jobs")
    p.add_argument("-v", "--verbose", action="store_true", help="lit -v: the output of each failing test")
    return p


def main(argv: list[str] | None = None) -> int:
    args = build_arg_parser().parse_args(argv)
    filecheck = {"auto": llvm_filecheck(), "python": None}.get(args.filecheck, args.filecheck)
    settings = Settings(args.triton_src, args.tests or list(DEFAULT_TESTS), filecheck, args.jobs, args.verbose)
    missing = [t for t in settings.tests if not settings.path(t).is_file()]
    if missing:
        sys.stderr.write(f"ttpipe-triton-lit: error: no such test under {args.triton_src}: {', '.join(missing)}\n")
        return 2
    print(f"FileCheck: {filecheck or 'Python filecheck'}")
    if args.compare:
        return compare(settings)
    _, codes = run_tests(settings, swap=not args.triton, chunked=args.chunks, echo=True)
    return 0 if codes and all(code in ("PASS", "XFAIL", "UNSUPPORTED") for code in codes.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
