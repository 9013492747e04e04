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
the plug-in's stage runs the pipeline without that pass).
"""

from __future__ import annotations

import dataclasses
from typing import Any, Callable

from xdsl.dialects.builtin import ModuleOp

from ttpipe.dialects import tt
from ttpipe.passes.common.launch_condition import TripsBetween, pop_launch_condition

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


def without_marker(marker: str, pass_name: str) -> str:
    """The `instrumentation_mode` of the compile of a kernel without `pass_name`."""
    return f"{marker}{WITHOUT}{pass_name}"


def split_marker(mode: str) -> tuple[str, str | None]:
    """`mode` as (the plug-in's marker, the pass left out or None)."""
    marker, _, left_out = mode.partition(WITHOUT)
    return marker, left_out or None


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
    compile itself rather than the one without its condition's pass: always for a kernel
    without a condition, or compiled from IR text."""
    choice = _Choice.of(kernel)
    return choice is None or choice.runs_itself(args)


@dataclasses.dataclass
class VersionedLaunch:
    """The launcher of a kernel with a launch condition (see the module docstring)."""

    kernel: Any
    """The `CompiledKernel` whose compile carries the condition."""
    launch: Callable
    """Its own launcher."""
    choice: _Choice
    other: Any = None
    """The compile without the condition's pass, made at its first use."""

    def __call__(self, grid_0, grid_1, grid_2, stream, function, packed_metadata, launch_metadata, enter_hook,
                 exit_hook, *args):
        if self.choice.runs_itself(args):
            return self.launch(grid_0, grid_1, grid_2, stream, function, packed_metadata, launch_metadata,
                               enter_hook, exit_hook, *args)
        other = self.other_version()
        return other.run(grid_0, grid_1, grid_2, stream, other.function, other.packed_metadata, launch_metadata,
                         enter_hook, exit_hook, *args)

    def other_version(self):
        """The second compile; `other.run`, read before `other.function`, loads it."""
        if self.other is None:
            from triton import compile as triton_compile
            from triton.backends.nvidia.compiler import CUDAOptions

            metadata = self.kernel.metadata
            options = {field.name: _from_json(getattr(metadata, field.name)) for field in dataclasses.fields(CUDAOptions)
                       if hasattr(metadata, field.name)}
            marker, _ = split_marker(metadata.instrumentation_mode)
            options["num_warps"] = getattr(metadata, METADATA_KEY)["num_warps"]
            options["instrumentation_mode"] = without_marker(marker, self.choice.condition.without)
            self.other = triton_compile(self.kernel.src, target=metadata.target, options=options)
        return self.other


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
