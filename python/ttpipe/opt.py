"""`ttpipe-opt`: read Triton IR, run passes, print it — with mlir-opt's and triton-opt's flags.

    ttpipe-opt FILE|- [-o OUT] [-p 'pass-a,pass-b{opt=v other=w}'] [--pass-name[=opt=v,...]]

As in mlir-opt, every option is spelled with one dash or two (`-split-input-file`,
`--split-input-file`, `-o OUT`, `--o=OUT`), and locations are printed only with
`--mlir-print-debuginfo`. With no pass it round-trips the input.

Errors are one line, `FILE:LINE:COL: error: ...`, with the source line and a caret under
it; the exit code is then 1 and `-o` is not written. Warnings are always printed; remarks
(e.g. `loop not pipelined: ...`) only with `--remarks`; `--verify-diagnostics` checks all
of them. An exception that is not a diagnostic is a ttpipe bug: it ends the run with one
`ttpipe-opt: internal error: ...` line and exit code 2 (the traceback with `--debug` or
`TTPIPE_DEBUG=1`), and nothing is written.

With `--schedule-picture=DIR` it also writes one SVG per pipelined or warp-specialized loop
into DIR (`ttpipe.schedule_picture`): the module is seen after every batch of passes, and
Triton's pipeliner starts a batch of its own, so that the schedule a pass stamps on a loop
is seen before the pipeliner expands the loop.
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import dataclass, field

from ttpipe import __version__
from ttpipe import expected_diagnostics
from ttpipe.outputs import DEBUG_ENV, debugging, internal_error, write_atomically
from ttpipe.pipeline import driver, spec
from ttpipe.pipeline.registry import all_passes
from ttpipe.schedule_picture import (Picture, PictureError, ScheduleRecorder, picture_files, pictures, require_drawsvg,
                                     write_files)
from ttpipe.textio import DiagnosticError, ParseOptions, PrintOptions, SourceFile, parse_module, print_module
from ttpipe.ir.diagnostics import SPLIT_MARKER, Diagnostic, diagnostic_handler, split_chunks
from ttpipe.textio.parser import ParseResult
from ttpipe.textio.verify import verify
import ttpipe.triton  # noqa: F401  registers Triton's passes, named pipelines and hand-off runner

VERIFY_DIAGNOSTICS_FLAG = "verify-diagnostics"
VERIFY_DIAGNOSTICS_MODES = ("all", "only-expected")


@dataclass
class Timings:
    phases: dict[str, float] = field(default_factory=dict)

    def add(self, name: str, seconds: float) -> None:
        self.phases[name] = self.phases.get(name, 0.0) + seconds

    def report(self) -> str:
        total = sum(self.phases.values()) or 1e-9
        lines = ["===-------------------------------------------------------------------------===",
                 "                         ... Execution time report ...",
                 "===-------------------------------------------------------------------------===",
                 "  Wall Time  (%)  Name"]
        lines += [f"  {t:9.4f} ({100 * t / total:5.1f}%)  {name}" for name, t in self.phases.items()]
        lines.append(f"  {total:9.4f} (100.0%)  Total")
        return "\n".join(lines)


def build_arg_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="ttpipe-opt", description="Run ttpipe's and Triton's passes over Triton IR (.mlir/.ttir/.ttgir).",
        epilog="Each registered pass is also a flag: --PASS or --PASS=opt=v,opt2=w (as triton-opt accepts them). "
               "Every option may be given with one dash or two, as mlir-opt's.", allow_abbrev=False)
    p.add_argument("input", nargs="?", default="-", help="input file, or - for standard input")
    p.add_argument("-o", dest="output", default="-", help="output file (default: standard output)")
    p.add_argument("-p", "--passes", "--pass-pipeline", dest="pipeline", default=None,
                   help="pass pipeline, e.g. 'pass-a,pass-b{opt=v other=w}' (may be wrapped in builtin.module(...))")
    p.add_argument("--split-input-file", action="store_true",
                   help=f"process each chunk between '{SPLIT_MARKER}' lines separately")
    p.add_argument("--verify-diagnostics", action="store_const", const="all",
                   help="check diagnostics against 'expected-*' comments instead of reporting them; "
                        "--verify-diagnostics=only-expected ignores diagnostics no comment expects")
    p.add_argument("--remarks", action="store_true",
                   help="print the remarks passes emit (e.g. why a loop is not pipelined); warnings and "
                        "errors are always printed, and --verify-diagnostics checks remarks regardless")
    p.add_argument("--print-ir-after-all", action="store_true", help="print the IR after every pass (stderr)")
    p.add_argument("--print-ir-before-all", action="store_true", help="print the IR before every pass (stderr)")
    p.add_argument("--print-ir-after", action="append", default=[], metavar="PASS",
                   help="print the IR after this pass (repeatable, or comma-separated)")
    p.add_argument("--print-ir-before", action="append", default=[], metavar="PASS",
                   help="print the IR before this pass (repeatable, or comma-separated)")
    p.add_argument("--print-op-generic", "--mlir-print-op-generic", action="store_true",
                   help="print every op in generic form")
    p.add_argument("--mlir-print-debuginfo", action="store_true",
                   help="print locations (loc(...)); without it none are printed, as in mlir-opt")
    p.add_argument("--strip-debuginfo", "--no-locations", action="store_true",
                   help="print no locations, even with --mlir-print-debuginfo")
    p.add_argument("--allow-unregistered-dialect", action="store_true",
                   help="pass ops of unknown dialects through in generic form")
    p.add_argument("--verify-each", default="true", choices=("true", "false"),
                   help="verify the IR after parsing and after each pass (default: true)")
    p.add_argument("--mlir-timing", action="store_true", help="report the time of each phase (stderr)")
    p.add_argument("--schedule-picture", metavar="DIR", default=None,
                   help="write one SVG per pipelined or warp-specialized loop into DIR: its stage x cluster "
                        "schedule, lanes, buffer rings, mbarriers and shared memory (needs ttpipe[picture])")
    p.add_argument("--list-passes", action="store_true", help="list passes with their options and exit")
    p.add_argument("--debug", action="store_true",
                   help=f"show the traceback of an internal error (a ttpipe bug); also environment {DEBUG_ENV}=1")
    p.add_argument("--version", action="version", version=f"ttpipe-opt {__version__}")
    return p


def list_passes() -> str:
    """Every pass with its options; a pipeline also with the passes it runs by default."""
    lines = []
    for info in sorted(all_passes().values(), key=lambda i: i.name):
        lines.append(f"  {info.name} - {info.summary}")
        for option in info.options:
            default = _option_text(option.default)
            lines.append(f"      {option.name}: {option.type.__name__} = {default}"
                         + (f"  {option.help}" if option.help else ""))
        if info.kind == "pipeline":
            lines.append("      expands to:")
            lines += [f"        {step.describe()}" for step in spec.expand(info.create({}))]
    if not lines:
        return "No passes registered.\n"
    return "Available passes:\n" + "\n".join(lines) + "\n"


def _option_text(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value) if value != "" else '""'


def pass_flags(extra: list[str]) -> list[spec.PassInvocation]:
    """`--pass-name` / `-pass-name=opt=v,opt2=w` flags, in order."""
    invocations = []
    for flag in extra:
        if not flag.startswith("-"):
            raise spec.PipelineError(f"unexpected argument '{flag}'")
        name, _, options = flag.lstrip("-").partition("=")
        if name not in all_passes():
            raise spec.PipelineError(f"unknown flag or pass '{flag}' (ttpipe-opt --help, --list-passes)")
        raw: dict[str, tuple] = {}
        for item in options.replace(",", " ").split():
            key, eq, value = item.partition("=")
            if not eq:
                raise spec.PipelineError(f"option '{item}' of '{flag}' needs a value (opt=value)")
            raw[key] = (_literal(value),)
        invocations.append(spec.invocation(name, raw))
    return spec.expand(invocations)


def _literal(text: str):
    if text in ("true", "false"):
        return text == "true"
    try:
        return int(text)
    except ValueError:
        pass
    try:
        return float(text)
    except ValueError:
        return text


@dataclass
class Job:
    args: argparse.Namespace
    invocations: list[spec.PassInvocation]
    timings: Timings
    print_after: set[str]
    print_before: set[str]
    pictures: list[Picture] = field(default_factory=list)

    def print_options(self) -> PrintOptions:
        return PrintOptions(debug_info=self.args.mlir_print_debuginfo and not self.args.strip_debuginfo,
                            generic=self.args.print_op_generic)

    def process(self, source: SourceFile) -> str:
        """One buffer through parse, verify, passes and print; raises DiagnosticError."""
        start = time.perf_counter()
        parsed = parse_module(source.text, source.name,
                              options=ParseOptions(allow_unregistered=self.args.allow_unregistered_dialect))
        self.timings.add("Parser", time.perf_counter() - start)
        verify_each = self.args.verify_each == "true"
        if verify_each:
            start = time.perf_counter()
            verify(parsed.module, parsed.source, parsed.op_offsets)
            self.timings.add("Verifier", time.perf_counter() - start)
        recorder = ScheduleRecorder()
        if self.args.schedule_picture:
            recorder.record(parsed.module, "the input")
        module = self.run_passes(parsed, verify_each, recorder)
        if self.args.schedule_picture:
            self.pictures += pictures(module, recorder.loops)
        start = time.perf_counter()
        text = print_module(module, self.print_options())
        self.timings.add("Output", time.perf_counter() - start)
        return text

    def run_passes(self, parsed: ParseResult, verify_each: bool, recorder: ScheduleRecorder):
        """The passes over the parsed module; with --schedule-picture, `recorder` sees the
        module after each batch (`ScheduleRecorder.watches` ends one before Triton's pipeliner)."""
        if not self.invocations:
            return parsed.module

        def dump(kind: str, invocation: spec.PassInvocation, module) -> None:
            header = f"// -----// IR Dump {kind} {invocation.info.name} ({invocation.describe()}) //----- //"
            sys.stderr.write(header + "\n" + print_module(module, self.print_options()))

        def before(invocation, module) -> None:
            if self.args.print_ir_before_all or invocation.info.name in self.print_before:
                dump("Before", invocation, module)

        def after(invocation, module) -> None:
            if self.args.print_ir_after_all or invocation.info.name in self.print_after:
                dump("After", invocation, module)
            if self.args.schedule_picture:
                recorder.after(invocation, module)

        def check(module, invocation) -> None:
            verify(module, parsed.source, parsed.op_offsets, context=f"after pass '{invocation.info.name}'")

        def watched(invocation) -> bool:
            return bool(self.args.print_ir_after_all or self.args.print_ir_before_all
                        or (self.args.schedule_picture and recorder.watches(invocation))
                        or invocation.info.name in self.print_after or invocation.info.name in self.print_before)

        start = time.perf_counter()
        module = driver.run(parsed.module, self.invocations, before=before, after=after,
                            verify=check if verify_each else None, watched=watched)
        self.timings.add("Passes", time.perf_counter() - start)
        return module


def is_remark(problem: DiagnosticError | Diagnostic) -> bool:
    return isinstance(problem, Diagnostic) and problem.severity == "remark"


def read_input(path: str) -> SourceFile:
    if path == "-":
        return SourceFile("<stdin>", sys.stdin.read())
    return SourceFile.read(path)


def write_output(path: str, text: str) -> None:
    if path == "-":
        sys.stdout.write(text)
        return
    write_atomically({path: text.encode()}, where=path)


def normalise_argv(argv: list[str]) -> list[str]:
    """mlir-opt's spellings made argparse's: an option takes one dash or two, so a
    one-letter one becomes `-o`/`-p` and a longer one `--name` (`-split-input-file`,
    `--o=OUT`); `-` (standard input) and everything after `--` stay as they are."""
    normal = []
    for index, arg in enumerate(argv):
        if arg == "--":
            return normal + argv[index:]
        if arg.startswith("-") and arg != "-":
            body = arg.lstrip("-")
            arg = ("-" if len(body.partition("=")[0]) == 1 else "--") + body
        normal.append(arg)
    return normal


def split_verify_mode(argv: list[str]) -> tuple[list[str], str | None]:
    """`--verify-diagnostics=MODE` taken out of `argv` (argparse cannot give a flag an
    optional `=value` without also taking a following input file as its value)."""
    rest, mode = [], None
    for arg in argv:
        name, eq, value = arg.lstrip("-").partition("=")
        if arg.startswith("-") and name == VERIFY_DIAGNOSTICS_FLAG and eq:
            if value not in VERIFY_DIAGNOSTICS_MODES:
                raise spec.PipelineError(f"--{VERIFY_DIAGNOSTICS_FLAG}={value}: expected one of "
                                         + ", ".join(VERIFY_DIAGNOSTICS_MODES))
            mode = value
        else:
            rest.append(arg)
    return rest, mode


def split_pass_flags(argv: list[str]) -> tuple[list[str], list[str]]:
    """`-PASS[=options]` and `--PASS[=options]` flags taken out of `argv`, in order (argparse
    would take one whose options hold a space for the input file:
    `--tritongpu-pipeline="num-stages=3 dump-intermediate-steps=true"`)."""
    rest, flags = [], []
    passes = all_passes()
    for index, arg in enumerate(argv):
        if arg == "--":
            return rest + argv[index:], flags
        if arg.startswith("-") and arg.lstrip("-").partition("=")[0] in passes:
            flags.append(arg)
        else:
            rest.append(arg)
    return rest, flags


class CommandLineError(Exception):
    """A command line ttpipe-opt cannot run: `where` is `-p` or `command line`."""

    def __init__(self, where: str, message: str):
        super().__init__(message)
        self.where = where
        self.message = message


def parse_command_line(argv: list[str]) -> tuple[argparse.Namespace, list[spec.PassInvocation]]:
    """The options and the passes (named pipelines expanded) of a command line, checked
    but not run; raises CommandLineError (argparse's own errors exit, as argparse does)."""
    try:
        argv, verify_mode = split_verify_mode(argv)
    except spec.PipelineError as exc:
        raise CommandLineError("command line", str(exc)) from None
    argv, flags = split_pass_flags(argv)
    normal = normalise_argv(argv)
    args, extra = build_arg_parser().parse_known_args(normal)
    as_given = dict(zip(normal, argv))
    extra = flags + [as_given.get(arg, arg) for arg in extra]
    args.verify_diagnostics = verify_mode or args.verify_diagnostics
    if args.list_passes:
        return args, []
    try:
        invocations = spec.parse(args.pipeline) if args.pipeline else []
        flagged = pass_flags(extra)
    except spec.PipelineError as exc:
        raise CommandLineError("-p" if args.pipeline and not extra else "command line", str(exc)) from None
    if invocations and flagged:
        raise CommandLineError("command line", "give passes either with -p or as flags, not both")
    return args, invocations or flagged


def run(argv: list[str]) -> int:
    """The command; a ttpipe bug escapes as its exception (see `main`)."""
    try:
        args, invocations = parse_command_line(argv)
    except CommandLineError as exc:
        sys.stderr.write(f"ttpipe-opt: {exc.where}: error: {exc.message}\n")
        return 1
    if args.list_passes:
        sys.stdout.write(list_passes())
        return 0
    if args.schedule_picture:
        try:
            require_drawsvg()
        except PictureError as exc:
            sys.stderr.write(f"ttpipe-opt: --schedule-picture: error: {exc}\n")
            return 1
    job = Job(args, invocations, Timings(),
              {n for item in args.print_ir_after for n in item.split(",")},
              {n for item in args.print_ir_before for n in item.split(",")})
    try:
        source = read_input(args.input)
    except DiagnosticError as exc:
        sys.stderr.write(exc.render() + "\n")
        return 1
    chunks = split_chunks(source) if args.split_input_file else [source]
    outputs: list[str] = []
    failed = False
    for chunk in chunks:
        produced: list[DiagnosticError | Diagnostic] = []
        try:
            with diagnostic_handler(produced.append):
                outputs.append(job.process(chunk))
        except DiagnosticError as exc:
            produced.append(exc)
        if args.verify_diagnostics:
            problems = expected_diagnostics.check(chunk, produced, args.verify_diagnostics == "only-expected")
            failed = failed or bool(problems)
        else:
            problems = [p for p in produced if args.remarks or not is_remark(p)]
            failed = failed or any(isinstance(p, DiagnosticError) for p in problems)
        for problem in problems:
            sys.stderr.write(problem.render() + "\n")
    if args.mlir_timing:
        sys.stderr.write(job.timings.report() + "\n")
    if failed:
        return 1
    try:
        write_output(args.output, (SPLIT_MARKER + "\n").join(outputs))
        if args.schedule_picture:
            write_files(args.schedule_picture, picture_files(job.pictures))
    except DiagnosticError as exc:
        sys.stderr.write(exc.render() + "\n")
        return 1
    return 0


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    try:
        return run(argv)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0
    except Exception as exc:  # a ttpipe bug: one line, or the traceback with --debug
        return internal_error("ttpipe-opt", exc, debugging("--debug" in normalise_argv(argv)))
