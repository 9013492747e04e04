"""Kernel versions chosen at launch: a kernel whose ttpipe compile carries a launch condition
(`passes/common/launch_condition.py`: a pass built a version that pays only for some
argument values, `ttpipe-row-ring` for rows of some lengths) runs, at each launch where the
condition fails, a second compile of the same source made without that pass.

The plug-in keeps the condition in the kernel's metadata (`METADATA_KEY`, JSON, so Triton's
on-disk cache keeps it too, with the warps the compile was asked for) and, while installed, wraps `CompiledKernel.run`, the property
every launch reads (`JITFunction.run` and `CompiledKernel.__getitem__` alike): for a kernel
with a condition it returns a `VersionedLaunch`, which evaluates the condition on the
launch's arguments and calls the launcher of the compile it picks, with that compile's own
function and metadata (shared memory, warps). The second compile is made at the first
launch that needs it, through `triton.compile` with the kernel's source, target and
options, its `instrumentation_mode` marked `<marker>|without=<pass>` (its own cache entries;
the plug-in's stage runs the pipeline without that pass), or, where the condition names an
invocation to run `instead` of the pass, `<marker>|instead=<pass>{<options>}` (the stage runs
that invocation in the pass's place). That compile may carry a condition of its own: its
launcher is read through the same wrapped property, so a launch outside both ranges goes on
to the compile that leaves the pass out (`launched_version` follows the chain).
"""

from __future__ import annotations

import dataclasses
from typing import Any, Callable

from xdsl.dialects.builtin import ModuleOp

from ttpipe.dialects import tt
from ttpipe.passes.common.launch_condition import TripsBetween, pop_launch_condition
from ttpipe.pipeline import spec
from ttpipe.pipeline.registry import PassInvocation

METADATA_KEY = "ttpipe_launch_when"
WITHOUT = "|without="


def take_launch_versions(module: ModuleOp, num_warps: int, entry: str | None = None) -> dict | None:
    """The metadata entry of a kernel whose function (`entry`, or the first that has one)
    carries a launch condition, which is taken off it: the condition, and the warps the
    compile was asked for (the metadata's `num_warps` counts the warp-specialized
    partitions' too). None where no function carries one."""
    for func in module.walk():
        if isinstance(func, tt.FuncOp) and entry in (None, func.sym_name.data):
            condition = pop_launch_condition(func)
            if condition is not None:
                return {"condition": condition.to_json(), "num_warps": num_warps}
    return None


INSTEAD = "|instead="


@dataclasses.dataclass(frozen=True)
class PipelineEdit:
    """How a kernel's other version changes the plug-in's pipeline: the pass `left_out`, or
    the invocation (`name{options}`) run `instead` of the pass of the same name."""

    left_out: str | None = None
    instead: str | None = None

    @staticmethod
    def of(condition: TripsBetween) -> PipelineEdit:
        """The edit that makes the compile `condition` sends its other launches to."""
        return PipelineEdit(instead=condition.instead) if condition.instead else PipelineEdit(left_out=condition.without)

    def marker(self, marker: str) -> str:
        """The `instrumentation_mode` of the compile with this edit."""
        return f"{marker}{INSTEAD}{self.instead}" if self.instead else f"{marker}{WITHOUT}{self.left_out}"

    def applied(self, invocations: list[PassInvocation]) -> list[PassInvocation]:
        """`invocations` (an expanded pipeline) with the pass left out, or with `instead`
        in the place of each invocation of its pass."""
        if self.instead is None:
            return [invocation for invocation in invocations if invocation.info.name != self.left_out]
        replacement, = spec.parse(self.instead)
        return [replacement if invocation.info.name == replacement.info.name else invocation
                for invocation in invocations]


def split_marker(mode: str) -> tuple[str, PipelineEdit | None]:
    """`mode` as (the plug-in's marker, the edit of a kernel's other version or None)."""
    marker, found, left_out = mode.partition(WITHOUT)
    if found:
        return marker, PipelineEdit(left_out=left_out)
    marker, found, instead = mode.partition(INSTEAD)
    if found:
        return marker, PipelineEdit(instead=instead)
    return mode, None


def _from_json(value):
    """A compile option as the metadata's JSON gave it back: its tuples (lists there) restored."""
    return tuple(_from_json(item) for item in value) if isinstance(value, list) else value


@dataclasses.dataclass(frozen=True)
class _Choice:
    """A kernel's launch condition and where its `tt.func` arguments sit among a launch's
    arguments (the source's parameters that are not constexprs, in order; None for a
    kernel compiled from IR text), read from the kernel once."""

    condition: TripsBetween
    positions: tuple[int, ...] | None

    @staticmethod
    def of(kernel) -> _Choice | None:
        """`kernel`'s choice, None where its compile carries no launch condition."""
        versions = getattr(kernel.metadata, METADATA_KEY, None)
        if versions is None:
            return None
        signature, fn = getattr(kernel.src, "signature", None), getattr(kernel.src, "fn", None)
        positions = None if signature is None or fn is None else tuple(
            position for position, name in enumerate(fn.arg_names) if signature.get(name) != "constexpr")
        return _Choice(TripsBetween.from_json(versions["condition"]), positions)

    def runs_itself(self, args) -> bool:
        return self.positions is None or self.condition.holds([args[p] for p in self.positions])


def runs_itself(kernel, args) -> bool:
    """Whether a launch of `kernel` with `args` (the source's parameters, in order) runs the
    compile itself rather than its condition's other version: always for a kernel without a
    condition, or compiled from IR text."""
    choice = _Choice.of(kernel)
    return choice is None or choice.runs_itself(args)


def launched_version(kernel, args):
    """The compile a launch of `kernel` with `args` runs: `kernel`, or down the chain of its
    other versions (each made if it is not yet), the first whose condition holds or that has
    none."""
    while not runs_itself(kernel, args):
        kernel = other_version(kernel)
    return kernel


def other_version(kernel):
    """The compile that launches of `kernel` (which carries a launch condition) outside its
    condition run, made at the first call, once a kernel: the same source, target and
    options, marked with the condition's `PipelineEdit` (whose `run`, read before its
    `function`, loads it)."""
    other = kernel.__dict__.get("_ttpipe_other")
    if other is None:
        from triton import compile as triton_compile
        from triton.backends.nvidia.compiler import CUDAOptions

        metadata = kernel.metadata
        options = {field.name: _from_json(getattr(metadata, field.name)) for field in dataclasses.fields(CUDAOptions)
                   if hasattr(metadata, field.name)}
        marker, _ = split_marker(metadata.instrumentation_mode)
        options["num_warps"] = getattr(metadata, METADATA_KEY)["num_warps"]
        options["instrumentation_mode"] = PipelineEdit.of(_Choice.of(kernel).condition).marker(marker)
        other = kernel.__dict__["_ttpipe_other"] = triton_compile(kernel.src, target=metadata.target, options=options)
    return other


@dataclasses.dataclass
class VersionedLaunch:
    """The launcher of a kernel with a launch condition (see the module docstring)."""

    kernel: Any
    """The `CompiledKernel` whose compile carries the condition."""
    launch: Callable
    """Its own launcher."""
    choice: _Choice

    def __call__(self, grid_0, grid_1, grid_2, stream, function, packed_metadata, launch_metadata, enter_hook,
                 exit_hook, *args):
        if self.choice.runs_itself(args):
            return self.launch(grid_0, grid_1, grid_2, stream, function, packed_metadata, launch_metadata,
                               enter_hook, exit_hook, *args)
        other = other_version(self.kernel)
        return other.run(grid_0, grid_1, grid_2, stream, other.function, other.packed_metadata, launch_metadata,
                         enter_hook, exit_hook, *args)


def versioned_run(original: property) -> property:
    """`CompiledKernel.run` for the installed plug-in: `original`'s launcher, or for a kernel
    with a launch condition its `VersionedLaunch` (one per kernel)."""

    def run(kernel):
        launch = original.fget(kernel)
        if not hasattr(kernel.metadata, METADATA_KEY):
            return launch
        versioned = kernel.__dict__.get("_ttpipe_versioned")
        if versioned is None or versioned.launch is not launch:
            versioned = kernel.__dict__["_ttpipe_versioned"] = VersionedLaunch(kernel, launch, _Choice.of(kernel))
        return versioned

    return property(run, doc=original.__doc__)
