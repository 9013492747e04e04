"""The plug-in: every `@triton.jit` kernel (and every `triton.compile` of Triton source) gets
its TTGIR from a ttpipe pipeline instead of `make_ttgir`, with no rebuild of Triton.

    import ttpipe.triton
    ttpipe.triton.install()                       # the named pipeline of the GPU, impl=ttpipe
    with ttpipe.triton.installed("ttgir-sm90{impl=triton}"):
        kernel[grid](...)

Four hooks, all undone by `uninstall()`:

* `knobs.runtime.add_stages_inspection_hook` (Triton's hook for changing the stages of a
  compile) replaces `stages["ttgir"]`: Triton prints the TTIR module, ttpipe parses it,
  runs the pipeline and prints it, and Triton parses the result into a module of the
  incoming module's context, which the later stages (`make_llir`, ...) go on from.
* Cache keys: the compile option `instrumentation_mode` carries the plug-in's marker
  (`ttpipe-<version>-<digest of ttpipe's sources>:<pipeline>`), as Proton marks the
  kernels it instruments. The option is part of both of Triton's keys: the JIT's
  in-memory key (built from `knobs.compilation.instrumentation_mode`, which the plug-in
  sets) and the on-disk key (`options.hash()`). `CUDABackend.parse_options` is wrapped to
  add the marker where a caller leaves the option empty, so a direct `triton.compile`
  gets its own entries too. The stage is only replaced for options carrying the marker,
  so a kernel's key always says how it was compiled.
* Named pipelines that the string leaves without `num-warps`, `num-stages` or `num-ctas`
  take the kernel's compile options.
* Versions chosen at launch (`ttpipe.triton.versions`): `CompiledKernel.run` is wrapped so
  that a kernel whose compile carries a launch condition (metadata `ttpipe_launch_when`,
  from a pass that built a version paying only for some arguments) runs, where the
  condition fails, a second compile without that pass (`instrumentation_mode`
  `<marker>|without=<pass>`, which the stage hook also serves), or with the pass run with
  the options the condition names (`<marker>|instead=<pass>{<options>}`: the ring with two
  consumers for longer rows), which may carry a condition of its own.
* Diagnostics: Triton's `MLIR_ENABLE_DIAGNOSTICS` (read at each compile, as Triton reads
  it) also governs ttpipe's passes: `remarks` prints their remarks and warnings (why a loop
  was not warp-specialized, pipelined or streamed) to stderr as `ttpipe-opt --remarks`
  does, `warnings` their warnings; by default neither, as Triton shows only errors.
* Global scratch: a kernel whose pointer loads ttpipe turned into TMA loads makes its
  tensormaps on the device, in Triton's global scratch memory, which Triton's launcher
  takes from the allocator of `triton.set_allocator`. Where none is set (Triton's
  `NullAllocator`, which raises at launch) and torch is importable, `install()` sets
  `torch_scratch`, which `uninstall()` takes back; an allocator the user set is left alone.

Every pass the registry knows can be in the pipeline, those of installed packages
(entry points `ttpipe.passes`) included. Triton itself is imported by the functions that
use it, so that importing the bridge (every `ttpipe-opt` does) stays quick.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import importlib.util
import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

import ttpipe
import ttpipe.dialects
import ttpipe.passes
from ttpipe.ir.diagnostics import Diagnostic, diagnostic_handler
from ttpipe.pipeline import driver, spec
from ttpipe.textio import parse_module, print_module
from ttpipe.triton.mlir import parse_text
from ttpipe.triton.pipelines import default_pipeline
from ttpipe.triton.versions import METADATA_KEY, PipelineEdit, split_marker, take_launch_versions, versioned_run

MARKER_PREFIX = "ttpipe-"


@dataclass
class _Installation:
    pipeline: str | None
    marker: str
    hook: Callable
    previous_hook: Callable | None
    parse_options: Callable
    run: property
    """`CompiledKernel.run` before the plug-in wrapped it."""
    scratch_set: bool
    """Whether `install()` set `torch_scratch` as Triton's allocator."""


def torch_scratch(size: int, alignment: int, stream: int | None):
    """Triton's global scratch for one launch, from torch's caching allocator on the current
    stream (its blocks are 512-byte aligned, more than the 128 a tensormap needs)."""
    import torch

    return torch.empty(size, dtype=torch.int8, device="cuda")


def _set_scratch_allocator() -> bool:
    """Set `torch_scratch` where no allocator is set and torch is importable."""
    from triton.runtime import _allocation

    if _allocation._allocator.get() is not _allocation._NULL_ALLOCATOR or importlib.util.find_spec("torch") is None:
        return False
    _allocation._allocator.set(torch_scratch)
    return True


def _unset_scratch_allocator() -> None:
    from triton.runtime import _allocation

    if _allocation._allocator.get() is torch_scratch:
        _allocation._allocator.set(_allocation._NULL_ALLOCATOR)


_installed: _Installation | None = None


def device_sms() -> int | None:
    """The SMs of the GPU Triton compiles for (its current device), None where Triton has no
    active driver (no GPU here: kernels compiled for a target only)."""
    from triton.runtime import driver

    try:
        active = driver.active
    except RuntimeError:
        return None
    return active.utils.get_device_properties(active.get_current_device())["multiprocessor_count"]


@functools.cache
def source_key() -> str:
    """ttpipe's version and a digest of the Python sources of ttpipe, its dialects and passes."""
    digest = hashlib.sha256()
    for package in (ttpipe, ttpipe.dialects, ttpipe.passes):
        root = Path(package.__file__).parent
        for path in sorted(root.rglob("*.py")):
            digest.update(f"{package.__name__}/{path.relative_to(root).as_posix()}\0".encode())
            digest.update(path.read_bytes())
    return f"{ttpipe.__version__}-{digest.hexdigest()[:16]}"


def install(pipeline: str | None = None) -> None:
    """Compile every Triton kernel's TTGIR through `pipeline` (default: `ttgir-sm90` or
    `ttgir-sm100` by the target, impl=ttpipe) until `uninstall()`.

    Raises `ttpipe.pipeline.spec.PipelineError` for a bad pipeline string, RuntimeError if
    Triton's `instrumentation_mode` is taken (Proton's instrumentation, ConSan).
    """
    from triton import knobs
    from triton.backends.compiler import Language
    from triton.backends.nvidia.compiler import CUDABackend
    from triton.compiler.compiler import CompiledKernel

    global _installed
    if pipeline is not None:
        spec.parse(pipeline)
    if _installed is not None:
        uninstall()
    if knobs.compilation.instrumentation_mode:
        raise RuntimeError(f"ttpipe.triton.install: Triton's instrumentation_mode is already "
                           f"'{knobs.compilation.instrumentation_mode}' (Proton or ConSan); the plug-in keys "
                           f"its kernels with that option")
    sms = device_sms()
    marker = f"{MARKER_PREFIX}{source_key()}{'' if sms is None else f'-sms{sms}'}:{pipeline or 'auto'}"
    previous_hook = knobs.runtime.add_stages_inspection_hook
    parse_options = CUDABackend.parse_options

    def marked_parse_options(backend, opts: dict) -> Any:
        if not opts.get("instrumentation_mode"):
            opts = dict(opts, instrumentation_mode=marker)
        return parse_options(backend, opts)

    def hook(backend, stages: dict, options, language, capability) -> None:
        if previous_hook is not None:
            previous_hook(backend, stages, options, language, capability)
        kernel_marker, edit = split_marker(options.instrumentation_mode)
        if language == Language.TRITON and kernel_marker == marker:
            stages["ttgir"] = functools.partial(make_ttgir, pipeline, options, capability, edit=edit, sms=sms)

    run = CompiledKernel.run
    CUDABackend.parse_options = marked_parse_options
    CompiledKernel.run = versioned_run(run)
    knobs.runtime.add_stages_inspection_hook = hook
    knobs.compilation.instrumentation_mode = marker
    _installed = _Installation(pipeline, marker, hook, previous_hook, parse_options, run, _set_scratch_allocator())


def uninstall() -> None:
    """Restore stock Triton (a no-op when the plug-in is not installed)."""
    from triton import knobs
    from triton.backends.nvidia.compiler import CUDABackend
    from triton.compiler.compiler import CompiledKernel

    global _installed
    if _installed is None:
        return
    if knobs.runtime.add_stages_inspection_hook is not _installed.hook:
        raise RuntimeError("ttpipe.triton.uninstall: another add_stages_inspection_hook was set after ttpipe's; "
                           "remove it first")
    knobs.runtime.add_stages_inspection_hook = _installed.previous_hook
    if _installed.scratch_set:
        _unset_scratch_allocator()
    knobs.compilation.instrumentation_mode = ""
    CUDABackend.parse_options = _installed.parse_options
    CompiledKernel.run = _installed.run
    _installed = None


@contextlib.contextmanager
def installed(pipeline: str | None = None):
    """The plug-in installed for the `with` block; what was installed before comes back after."""
    before = _installed
    install(pipeline)
    try:
        yield
    finally:
        uninstall()
        if before is not None:
            install(before.pipeline)


def current_marker() -> str | None:
    """The `instrumentation_mode` of kernels compiled by the installed plug-in, or None."""
    return None if _installed is None else _installed.marker


def _printed_diagnostics() -> Callable[[Diagnostic], None]:
    """The handler of one compile's remarks and warnings: to stderr where
    `MLIR_ENABLE_DIAGNOSTICS` (comma-separated) asks for them, else dropped; each once (the
    versions a pass makes of a loop repeat its remarks)."""
    asked = {word.strip() for word in os.environ.get("MLIR_ENABLE_DIAGNOSTICS", "").split(",")}
    shown = {"remark", "warning"} if "remarks" in asked else {"warning"} if "warnings" in asked else set()
    printed: set[str] = set()

    def handler(diagnostic: Diagnostic) -> None:
        text = diagnostic.render()
        if diagnostic.severity in shown and text not in printed:
            printed.add(text)
            sys.stderr.write(text + "\n")
    return handler


def make_ttgir(pipeline: str | None, options, capability: int, mod, metadata: dict, edit: PipelineEdit | None = None,
               sms: int | None = None):
    """The TTGIR stage: Triton's TTIR module `mod` through the ttpipe pipeline (changed by
    `edit`, for a kernel's other version), back as a Triton module in `mod`'s context
    (what `CUDABackend.make_ttgir` returns). The named pipeline's options the pipeline does not
    give come from the compile options and `sms`, the device's SMs where known (the persistent
    programs' count). A launch condition on the kernel's function goes to `metadata`
    (`ttpipe.triton.versions`)."""
    from triton._C.libtriton import ir

    if options.maxnreg is not None:
        mod.set_attr("ttg.maxnreg", ir.builder(mod.context).get_int32_attr(options.maxnreg))
    entry = mod.get_entry_func_name()
    name = f"{entry}.ttir"
    invocations = spec.parse(pipeline or default_pipeline(capability), {
        "num-warps": options.num_warps, "num-stages": options.num_stages, "num-ctas": options.num_ctas,
        **({} if sms is None else {"sms": sms})})
    with diagnostic_handler(_printed_diagnostics()):
        module = driver.run(parse_module(mod.str(), name).module, edit.applied(invocations) if edit else invocations)
    versions = take_launch_versions(module, options.num_warps, entry)
    if versions is not None:
        metadata[METADATA_KEY] = versions
    result = parse_text(print_module(module), name, mod.context)
    metadata["tensordesc_meta"] = result.get_tensordesc_metadata()
    return result
