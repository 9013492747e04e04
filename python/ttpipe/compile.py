"""`ttpipe-compile`: a TTIR or TTGIR file to a cubin and its launch metadata, with no GPU.

    ttpipe-compile FILE --arch sm_90a|sm_100a [-o K.cubin] [--emit llir,ptx,sass,ttgir]
                   [--pipeline 'ttgir-sm90{...}'] [--num-warps N] [--num-stages N] [--num-ctas N]
                   [--maxnreg N]

ttpipe reads the file. TTIR (a module without `ttg.num-warps`) first goes through a
pipeline: `--pipeline`, or by default the named pipeline of the arch (`ttgir-sm90`,
`ttgir-sm100`); named pipelines that the string leaves without `num-warps`, `num-stages`
or `num-ctas` get the flags' values. TTGIR is compiled as it is (or through `--pipeline`
when one is given). From TTGIR on, Triton's own backend stages (`make_llir`, `make_ptx`,
`make_cubin` of its CUDA backend) do the work, so a TTGIR file gives the cubin that
`triton.compile(FILE)` gives.

Next to the cubin goes `K.json`: Triton's metadata (kernel name, `shared`, `num_warps`,
`num_ctas`, `global_scratch_size`/`_align`, `profile_scratch_size`/`_align`, `tmem_size`,
the options) plus what a launcher needs that Triton keeps elsewhere: `signature` (the
kernel's arguments as Triton spells them, constexprs already folded in), `tensordesc_meta`
(how to encode each descriptor argument's CUtensorMap), `cluster_dims`, and, where a pass
built a version that pays only for some arguments (`ttpipe-row-ring`: rows of some lengths),
`ttpipe_launch_when`: the range of a loop's trips it pays for and the pass (`without`); the
Triton plug-in launches a compile without that pass outside the range, a launcher of this
cubin may do the same with `--pipeline` leaving it out. `ttpipe.runtime` launches from these
two files.

Errors are one line, `FILE:LINE:COL: error: ...` (with the source line and a caret when
ttpipe's parser reports it) or `ttpipe-compile: error: ...`; the exit code is then 1 and
no output file is written. An exception that is not a diagnostic is a ttpipe bug: one
`ttpipe-compile: internal error: ...` line (the traceback with `--debug` or
`TTPIPE_DEBUG=1`), exit code 2, and no output file either.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import io
import json
import os
import re
import subprocess
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from xdsl.dialects.builtin import IntegerAttr, i32

from ttpipe import __version__
from ttpipe.outputs import DEBUG_ENV, debugging, internal_error, write_atomically
from ttpipe.pipeline import driver, spec
from ttpipe.textio import DiagnosticError, SourceFile, parse_module, print_module
from ttpipe.triton import mlir
from ttpipe.passes.common.hardware import SM90_MAX_SHARED_MEMORY_PER_BLOCK
from ttpipe.triton.mlir import triton_context
from ttpipe.triton.pipelines import default_pipeline
from ttpipe.triton.versions import METADATA_KEY, take_launch_versions

ARCHS = {"sm_90a": 90, "sm_100a": 100}
"""`--arch` -> compute capability (Triton targets sm_90a/sm_100a for capabilities 90/100)."""

MAX_SHARED_BYTES = SM90_MAX_SHARED_MEMORY_PER_BLOCK
"""227 KB: the opt-in shared memory per block of sm_90a and sm_100a, which Triton checks
a kernel's `shared` against before loading it."""

MAX_TMEM_COLUMNS = 512
"""Tensor memory columns per CTA on sm_100a, Triton's check of `tmem_size`."""

EMIT_KINDS = ("ttgir", "llir", "ptx", "sass")

WARP_SIZE = 32


class CompileError(DiagnosticError):
    """A compile that cannot go on: bad flags, a stage that fails, a kernel over a limit."""


@dataclass
class Compiled:
    """One kernel: its cubin, launch metadata (JSON-ready) and intermediate text."""

    name: str
    cubin: bytes
    metadata: dict
    asm: dict[str, str] = field(default_factory=dict)
    """'ttgir', 'llir', 'ptx' text of the stages that ran."""

    def sass(self) -> str:
        return disassemble(self.cubin)


# ---------------------------------------------------------------------------- Triton's side


class _CapturedStderr:
    text = ""


@contextlib.contextmanager
def captured_stderr():
    """Collect what C++ code writes to file descriptor 2 (MLIR diagnostics, pass dumps)."""
    captured = _CapturedStderr()
    sys.stderr.flush()
    saved = os.dup(2)
    with tempfile.TemporaryFile(mode="w+b") as sink:
        os.dup2(sink.fileno(), 2)
        try:
            yield captured
        finally:
            sys.stderr.flush()
            os.dup2(saved, 2)
            os.close(saved)
            sink.seek(0)
            captured.text = sink.read().decode("utf-8", "replace")


def first_error(text: str) -> str | None:
    """The first `error:` line of MLIR's, LLVM's or ptxas's diagnostics, without its prefix."""
    for line in text.splitlines():
        if (m := re.search(r"\berror\s*:\s*(.*)", line)) is not None:
            return m.group(1).strip()
    return None


def _parsed_by_triton(parse: Callable[[], Any], name: str):
    """`parse()` (one of `ttpipe.triton.mlir`'s parses), its diagnostics a CompileError about `name`."""
    with captured_stderr() as err:
        try:
            return parse()
        except RuntimeError:
            pass
    raise CompileError(f"Triton cannot read the module: {first_error(err.text) or 'parse failed'}", where=name)


def parse_triton_file(path: str, context, name: str):
    """Triton's parse of the file at `path`; its diagnostics become a CompileError about `name`."""
    return _parsed_by_triton(lambda: mlir.parse_file(path, context), name)


def parse_triton_text(text: str, context, name: str):
    """Triton's parse of `text`, as if it were a file called `name`."""
    return _parsed_by_triton(lambda: mlir.parse_text(text, name, context), name)


def kernel_signature(module) -> list[str]:
    """The kernel's arguments as Triton's launcher spells them (`*bf16`, `i32`, `fp32`,
    `tensordesc<fp16[128,64]>`), from a TTGIR module (Triton's `ir.module`).

    In TTGIR a descriptor argument is followed by its shape (i32) and strides (i64): those
    are the launcher's expansion of one `tensordesc` argument, so they are folded into it.
    """
    name = module.get_entry_func_name()
    types = module.get_function_signature(module.get_function(name))
    signature: list[str] = []
    index = 0
    while index < len(types):
        text = types[index]
        index += 1
        if text.startswith("!tt.tensordesc"):
            m = re.match(r"!tt\.tensordesc<tensor<((?:\d+x)+)([^,>]+)", text)
            shape = [int(d) for d in m.group(1).rstrip("x").split("x")]
            rank = len(shape)
            trailing = types[index:index + 2 * rank]
            if trailing != ["i32"] * rank + ["i64"] * rank:
                raise CompileError(f"descriptor argument {len(signature)} of @{name} is not followed by its "
                                   f"{rank} i32 sizes and {rank} i64 strides", where=name)
            index += 2 * rank
            signature.append(f"tensordesc<{_scalar_type(m.group(2))}[{','.join(map(str, shape))}]>")
        elif text == "nvTmaDesc":
            signature.append("nvTmaDesc")
        elif text.startswith("*"):
            signature.append("*" + _scalar_type(text[1:]))
        else:
            signature.append(_scalar_type(text))
    return signature


_MLIR_TO_TRITON = {
    "f16": "fp16", "bf16": "bf16", "f32": "fp32", "f64": "fp64",
    "f8E4M3FN": "fp8e4nv", "f8E5M2": "fp8e5", "f8E4M3FNUZ": "fp8e4b8", "f8E5M2FNUZ": "fp8e5b16",
}


def _scalar_type(mlir: str) -> str:
    if mlir in _MLIR_TO_TRITON:
        return _MLIR_TO_TRITON[mlir]
    if (m := re.fullmatch(r"ui(\d+)", mlir)) is not None:
        return f"u{m.group(1)}"
    return mlir


# ---------------------------------------------------------------------------- compiling


def compile_file(path: str, arch: str, *, pipeline: str | None = None, num_warps: int | None = None,
                 num_stages: int | None = None, num_ctas: int | None = None,
                 maxnreg: int | None = None) -> Compiled:
    """Compile a TTIR or TTGIR file for `arch` ('sm_90a' or 'sm_100a'); raises DiagnosticError."""
    source = SourceFile.read(path)
    return compile_source(source, arch, pipeline=pipeline, num_warps=num_warps, num_stages=num_stages,
                          num_ctas=num_ctas, maxnreg=maxnreg, path=path)


def compile_source(source: SourceFile, arch: str, *, pipeline: str | None = None, num_warps: int | None = None,
                   num_stages: int | None = None, num_ctas: int | None = None, maxnreg: int | None = None,
                   path: str | None = None) -> Compiled:
    """Compile TTIR/TTGIR text. `path`, when it names a file holding exactly this text, lets
    Triton read TTGIR straight from it (as `triton.compile(path)` does)."""
    from triton._C.libtriton import ir

    capability = arch_capability(arch)
    for flag, value in (("--num-warps", num_warps), ("--num-stages", num_stages), ("--num-ctas", num_ctas),
                        ("--maxnreg", maxnreg)):
        if value is not None and value < 1:
            raise CompileError(f"{flag} must be positive, not {value}", where="ttpipe-compile")
    parsed = parse_module(source.text, source.name)
    module_attrs = parsed.module.attributes
    is_ttgir = "ttg.num-warps" in module_attrs
    if is_ttgir:
        _check_against_module(parsed.module, source.name, num_warps=num_warps, num_ctas=num_ctas)
    run_pipeline = pipeline is not None or not is_ttgir
    pipeline_text = None
    asm: dict[str, str] = {}
    if run_pipeline:
        defaults = {"num-warps": num_warps or 4, "num-stages": num_stages or 3, "num-ctas": num_ctas or 1}
        try:
            pipeline_text = pipeline if pipeline is not None else default_pipeline(capability)
            invocations = spec.parse(pipeline_text, defaults)
        except spec.PipelineError as exc:
            raise CompileError(str(exc), where="ttpipe-compile: --pipeline") from None
        if maxnreg is not None and not is_ttgir:
            module_attrs["ttg.maxnreg"] = IntegerAttr(maxnreg, i32)
        module = _run_pipeline(parsed.module, invocations)
        if "ttg.num-warps" not in module.attributes:
            raise CompileError(f"pipeline '{pipeline_text}' did not produce TTGIR (no ttg.num-warps)",
                               where=source.name)
        versions = take_launch_versions(module, defaults["num-warps"])
        asm["ttgir"] = print_module(module)
    else:
        versions = take_launch_versions(parsed.module, parsed.module.attributes["ttg.num-warps"].value.data)

    context = triton_context()  # Triton's parse of a file and the stages below share it
    if run_pipeline:
        triton_module = parse_triton_text(asm["ttgir"], context, source.name)
    elif path is not None:
        triton_module = parse_triton_file(path, context, source.name)
    else:
        triton_module = parse_triton_text(source.text, context, source.name)
    if not run_pipeline:
        asm["ttgir"] = source.text
    if maxnreg is not None and is_ttgir:
        triton_module.set_attr("ttg.maxnreg", ir.builder(context).get_int32_attr(maxnreg))

    options = {"num_warps": triton_module.get_int_attr("ttg.num-warps")}
    if (ctas := triton_module.get_int_attr("ttg.num-ctas")) is not None:
        options["num_ctas"] = ctas
    if num_stages is not None:
        options["num_stages"] = num_stages
    if maxnreg is not None:
        options["maxnreg"] = maxnreg
    extra = {"pipeline": pipeline_text, **({METADATA_KEY: versions} if versions is not None else {})}
    return compile_triton_module(triton_module, capability, options, asm=asm, name=source.name, extra_metadata=extra)


def compile_triton_module(module, capability: int, options: dict, *, asm: dict[str, str] | None = None,
                          name: str = "<module>", extra_metadata: dict | None = None) -> Compiled:
    """Run Triton's CUDA backend stages after TTGIR (llir, ptx, cubin) on Triton's `module`."""
    from triton import __version__ as triton_version
    from triton._C.libtriton import get_cache_invalidating_env_vars
    from triton.backends.compiler import GPUTarget, Language
    from triton.compiler.compiler import make_backend

    target = GPUTarget("cuda", capability, WARP_SIZE)
    backend = make_backend(target)
    backend_options = backend.parse_options(options)
    stages: dict = {}
    backend.add_stages(stages, backend_options, Language.TRITON)
    metadata = {
        "target": {"backend": target.backend, "arch": target.arch, "warp_size": target.warp_size},
        **backend_options.__dict__,
        **get_cache_invalidating_env_vars(),
        "triton_version": triton_version,
        "ttpipe_version": __version__,
        **(extra_metadata or {}),
        "name": module.get_entry_func_name(),
        "signature": kernel_signature(module),
        "tensordesc_meta": module.get_tensordesc_metadata(),
    }
    asm = dict(asm or {})
    with captured_stderr() as err:
        try:
            llir = stages["llir"](module, metadata)
        except RuntimeError:
            llir = None
    if llir is None:
        raise CompileError(f"Triton's make_llir failed: {first_error(err.text) or 'no diagnostic'}", where=name)
    sys.stderr.write(err.text)
    _check_limits(metadata, name)
    asm["llir"] = llir
    asm["ptx"] = stages["ptx"](llir, metadata)
    cubin = _ptxas(stages["cubin"], asm["ptx"], metadata, name)
    metadata["cluster_dims"] = [metadata["num_ctas"], 1, 1]
    metadata["hash"] = hashlib.sha256(cubin).hexdigest()
    return Compiled(metadata["name"], cubin, metadata, asm)


def _run_pipeline(module, invocations):
    """`driver.run`, with what the passes print shown only when they succeed: a failing pass
    (Triton's or ttpipe's) is its one-line DiagnosticError; any other exception is a ttpipe
    bug and goes on up."""
    with captured_stderr() as err:
        module = driver.run(module, invocations)
    sys.stderr.write(err.text)
    return module


def _ptxas(make_cubin, ptx: str, metadata: dict, name: str) -> bytes:
    """Triton's make_cubin, with its failure (a PTXASError, and the PTX it prints) made one line."""
    from triton.runtime.errors import PTXASError

    with contextlib.redirect_stdout(io.StringIO()):
        try:
            return make_cubin(ptx, metadata)
        except PTXASError as exc:
            message = str(exc)
    log = message.split("`ptxas` stderr:", 1)[-1]
    located = re.search(r", line (\d+); error\s*:\s*(.*)", log)
    detail = f"PTX line {located.group(1)}: {located.group(2).strip()}" if located else message.splitlines()[0]
    raise CompileError(f"ptxas failed: {detail}", where=name)


def _check_limits(metadata: dict, name: str) -> None:
    shared = metadata.get("shared") or 0
    if shared > MAX_SHARED_BYTES:
        raise CompileError(f"kernel @{metadata['name']} needs {shared} bytes of shared memory, over "
                           f"the {MAX_SHARED_BYTES} (227 KB) of sm_{metadata['target']['arch']}a", where=name)
    tmem = metadata.get("tmem_size") or 0
    if tmem > MAX_TMEM_COLUMNS:
        raise CompileError(f"kernel needs {tmem} tensor memory columns, over the {MAX_TMEM_COLUMNS} of a CTA",
                           where=name)


def _check_against_module(module, name: str, *, num_warps: int | None, num_ctas: int | None) -> None:
    """TTGIR has its warps and CTAs built into its layouts: flags may only repeat them."""
    for flag, key, value in (("--num-warps", "ttg.num-warps", num_warps), ("--num-ctas", "ttg.num-ctas", num_ctas)):
        attr = module.attributes.get(key)
        if value is not None and attr is not None and attr.value.data != value:
            raise CompileError(f"{flag} {value} conflicts with the module's {key} = {attr.value.data}", where=name)


def arch_capability(arch: str) -> int:
    try:
        return ARCHS[arch]
    except KeyError:
        raise CompileError(f"unknown arch '{arch}' (known: {', '.join(ARCHS)})", where="ttpipe-compile") from None


def disassemble(cubin: bytes) -> str:
    """`cuobjdump -sass` of a cubin, with the cuobjdump shipped in Triton's wheel."""
    from triton import knobs

    with tempfile.TemporaryDirectory(prefix="ttpipe-") as directory:
        path = os.path.join(directory, "kernel.cubin")
        Path(path).write_bytes(cubin)
        result = subprocess.run([knobs.nvidia.cuobjdump.path, "-sass", path], capture_output=True, text=True)
    if result.returncode != 0:
        raise CompileError(f"cuobjdump failed: {result.stderr.strip() or result.returncode}", where="ttpipe-compile")
    return result.stdout


# ---------------------------------------------------------------------------- files


def output_paths(output: str, emit: tuple[str, ...]) -> dict[str, str]:
    """'cubin', 'json' and each emitted kind -> its path: `K.cubin` gives `K.json`, `K.ptx`, ..."""
    stem = output[:-len(".cubin")] if output.endswith(".cubin") else output
    paths = {"cubin": output, "json": stem + ".json"}
    paths.update({kind: f"{stem}.{kind}" for kind in emit})
    return paths


def write_outputs(compiled: Compiled, output: str, emit: tuple[str, ...] = ()) -> dict[str, str]:
    """Write the cubin, its JSON and the emitted files; all of them or (on an error) none."""
    paths = output_paths(output, emit)
    contents: dict[str, bytes] = {
        "cubin": compiled.cubin,
        "json": (json.dumps(compiled.metadata, indent=1, default=list) + "\n").encode(),
    }
    for kind in emit:
        text = compiled.sass() if kind == "sass" else compiled.asm[kind]
        contents[kind] = text.encode()
    write_atomically({paths[kind]: data for kind, data in contents.items()}, where=output)
    return paths


# ---------------------------------------------------------------------------- command line


def build_arg_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="ttpipe-compile",
                                description="Compile a TTIR/TTGIR file to a cubin and its launch metadata (no GPU).")
    p.add_argument("input", help="a .ttir or .ttgir file (or .mlir holding either)")
    p.add_argument("--arch", required=True, help=f"target: {', '.join(ARCHS)}")
    p.add_argument("-o", dest="output", default=None,
                   help="the cubin to write (default: the input's name with .cubin); K.cubin also gives K.json")
    p.add_argument("--emit", default="", help=f"also write these next to the cubin: {','.join(EMIT_KINDS)}")
    p.add_argument("--pipeline", default=None,
                   help="the TTGIR pipeline, e.g. 'ttgir-sm90{num-stages=4 impl=ttpipe}' (default for TTIR: "
                   "ttgir-sm90 or ttgir-sm100 by --arch; TTGIR runs none)")
    p.add_argument("--num-warps", type=int, default=None, help="warps per CTA (TTIR; default 4)")
    p.add_argument("--num-stages", type=int, default=None, help="software pipelining stages (TTIR; default 3)")
    p.add_argument("--num-ctas", type=int, default=None, help="CTAs per cluster (TTIR; default 1)")
    p.add_argument("--maxnreg", type=int, default=None, help="register limit per thread (ptxas .maxnreg)")
    p.add_argument("--debug", action="store_true",
                   help=f"show the traceback of an internal error (a ttpipe bug); also environment {DEBUG_ENV}=1")
    p.add_argument("--version", action="version", version=f"ttpipe-compile {__version__}")
    return p


def run(argv: list[str]) -> int:
    args = build_arg_parser().parse_args(argv)
    emit = tuple(kind for kind in args.emit.split(",") if kind)
    unknown = [kind for kind in emit if kind not in EMIT_KINDS]
    if unknown:
        sys.stderr.write(f"ttpipe-compile: --emit: error: unknown kind '{unknown[0]}' "
                         f"(known: {','.join(EMIT_KINDS)})\n")
        return 1
    output = args.output or Path(args.input).with_suffix(".cubin").name
    try:
        compiled = compile_file(args.input, args.arch, pipeline=args.pipeline, num_warps=args.num_warps,
                                num_stages=args.num_stages, num_ctas=args.num_ctas, maxnreg=args.maxnreg)
        write_outputs(compiled, output, emit)
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
    except Exception as exc:  # a ttpipe bug: one line, or the traceback with --debug
        return internal_error("ttpipe-compile", exc, debugging("--debug" in argv))
