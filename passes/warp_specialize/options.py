"""The choices of `ttpipe-warp-specialize`'s options and their checks, apart from the phases
that act on them (so that a pipeline can check an option without loading the passes)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

MODES = ("marked", "auto")
MODE_HELP = ("marked: loops with tt.warp_specialize; auto: those, and every other loop holding a wgmma where the "
             "cost model says it pays")

CONSUMERS = ("auto", "pingpong", "cooperative")
CONSUMERS_HELP = ("persistent kernels' consumer warpgroups: auto (ping-pong where pingpong.py's cost model "
                  "says so), pingpong (forced), cooperative (num_warps/4 warpgroups on each tile)")

EPILOGUES = ("inline", "partition")
EPILOGUE_HELP = ("persistent kernels' TMA-store epilogue: inline (in the consumer warpgroups) or partition "
                 "(handed tile by tile to a one-warp partition, epilogue_partition.py)")

PROGRAMS_HELP = ("a program-per-tile GEMM made persistent, its tiles walked by this many programs (the GPU's SMs; "
                 "persistent_programs.py); 0 keeps one program a tile")


def not_negative(value: int) -> str | None:
    """An option check: None for a count of zero or more, else what is wrong."""
    return None if value >= 0 else "must not be negative"


def one_of(choices: Sequence[str]) -> Callable[[str], str | None]:
    """An option check: None for one of `choices`, else what is wrong."""
    return lambda value: None if value in choices else f"must be one of {', '.join(choices)}"


check_mode = one_of(MODES)
check_consumers = one_of(CONSUMERS)
check_epilogue = one_of(EPILOGUES)


@dataclass(frozen=True)
class WarpSpecializeOptions:
    """The options of `ttpipe-warp-specialize`, which its phases 0 and 1 take as well."""

    mode: str = field(default="marked", metadata={"help": MODE_HELP, "check": check_mode})
    num_stages: int = field(default=3, metadata={"help": "ring stages where the loop has no tt.num_stages"})
    consumers: str = field(default="auto", metadata={"help": CONSUMERS_HELP, "check": check_consumers})
    epilogue: str = field(default="inline", metadata={"help": EPILOGUE_HELP, "check": check_epilogue})
    programs: int = field(default=0, metadata={"help": PROGRAMS_HELP, "check": not_negative})
