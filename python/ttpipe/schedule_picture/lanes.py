"""Lanes: the warps that run a loop, each with its loops' ops in order.

A warp-specialized loop has one lane per region of its `ttg.warp_specialize`: the default
region (the kernel's warps; its register budget is `actualRegisters[0]` when set) and each
`partitionN` (`partitionNumWarps[N]` warps, `requestedRegisters[N]` registers per thread).
A pipelined loop has one lane, all the CTA's warps. A lane lists the ops of its loops, the
ops of nested regions indented under theirs; a run of `RUN` or more consecutive plain ops
(address and index arithmetic, layout changes, buffer views) is one row, whose tooltip
lists them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from xdsl.dialects.builtin import DenseArrayBase
from xdsl.ir import Operation
from xdsl.traits import IsTerminator

from ttpipe.dialects import scf, ttg
from ttpipe.passes.common.target import NUM_WARPS_ATTR, lookup_int
from ttpipe.schedule_picture.cells import OpCell

RUN = 3
"""Consecutive plain ops folded into one row."""

LaneSpec = tuple[str, int | None, int | None, list[Operation]]
"""(name, warps, registers per thread, root ops) of a lane."""


@dataclass(frozen=True)
class Row:
    """One line of a lane: an op, a region's header, or a folded run of plain ops (`members`)."""

    cell: OpCell
    depth: int
    members: tuple[OpCell, ...] = ()


@dataclass(frozen=True)
class Lane:
    name: str
    warps: int | None
    registers: int | None
    rows: tuple[Row, ...]

    @property
    def title(self) -> str:
        warps = "? warps" if self.warps is None else f"{self.warps} warp{'s' if self.warps != 1 else ''}"
        registers = "registers unknown" if self.registers is None else f"{self.registers} registers"
        return f"{self.name} · {warps} · {registers}"


Describe = Callable[[Operation], OpCell]


def lane_rows(roots: Sequence[Operation], describe: Describe) -> tuple[list[Row], dict[Operation, int]]:
    """The rows of the ops under `roots`, and each op's row (a folded op's is its run's)."""
    rows: list[Row] = []
    where: dict[Operation, int] = {}
    _add_block(list(roots), 0, describe, rows, where)
    return rows, where


def _add_block(ops: list[Operation], depth: int, describe: Describe, rows: list[Row],
               where: dict[Operation, int]) -> None:
    run: list[tuple[Operation, OpCell]] = []
    for op in ops:
        if op.has_trait(IsTerminator):
            continue
        cell = describe(op)
        if cell.kind == "other" and not op.regions:
            run.append((op, cell))
            continue
        _add_run(run, depth, rows, where)
        run = []
        where[op] = len(rows)
        rows.append(Row(cell, depth))
        for index, region in enumerate(op.regions):
            body = [nested for block in region.blocks for nested in block.ops if not nested.has_trait(IsTerminator)]
            if index and isinstance(op, scf.IfOp) and body:
                rows.append(Row(OpCell("else", "else", cell.location, "other"), depth))
            _add_block(body, depth + 1, describe, rows, where)
    _add_run(run, depth, rows, where)


def _add_run(run: list[tuple[Operation, OpCell]], depth: int, rows: list[Row], where: dict[Operation, int]) -> None:
    folded = len(run) >= RUN
    for index, (op, _) in enumerate(run):
        where[op] = len(rows) + (0 if folded else index)
    rows += fold([cell for _, cell in run], depth)


def fold(cells: Sequence[OpCell], depth: int = 0) -> list[Row]:
    """One row per cell, but each run of `RUN` or more plain cells (kind 'other') is one row."""
    rows: list[Row] = []
    run: list[OpCell] = []
    for cell in cells:
        if cell.kind == "other":
            run.append(cell)
            continue
        rows += _run_rows(run, depth)
        run = []
        rows.append(Row(cell, depth))
    return rows + _run_rows(run, depth)


def _run_rows(run: list[OpCell], depth: int) -> list[Row]:
    if len(run) < RUN:
        return [Row(cell, depth) for cell in run]
    counts = Counter(cell.name for cell in run)
    text = f"{len(run)} ops: " + ", ".join(f"{name} ×{n}" if n > 1 else name for name, n in counts.items())
    return [Row(OpCell("", text, run[0].location, "other"), depth, tuple(run))]


def _loops_of(region_ops: Sequence[Operation]) -> list[Operation]:
    """The loops among a region's ops, or all its ops when it has none."""
    return [op for op in region_ops if isinstance(op, scf.ForOp)] or list(region_ops)


def warp_specialize_lanes(op: ttg.WarpSpecializeOp) -> list[LaneSpec]:
    """(name, warps, registers, root ops) of the default region and of each partition."""
    requested = _ints(op.requestedRegisters)
    actual = _ints(op.actualRegisters)
    lanes = [("default", lookup_int(op, NUM_WARPS_ATTR), actual[0] if actual else None, _loops_of(list(op.defaultRegion.block.ops)))]
    for index, (region, warps) in enumerate(zip(op.partition_regions, op.partitionNumWarps.get_values())):
        registers = requested[index] if index < len(requested) else (
            actual[index + 1] if index + 1 < len(actual) else None)
        lanes.append((f"partition{index}", warps, registers, _loops_of(list(region.block.ops))))
    return lanes


def _ints(attr: DenseArrayBase | None) -> list[int]:
    return list(attr.get_values()) if attr is not None else []
