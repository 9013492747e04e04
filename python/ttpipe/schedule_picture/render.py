"""Draws a `Picture` as one SVG with drawsvg (the optional extra `ttpipe[picture]`).

Top to bottom: the title and notes with a legend of op kinds; the shared-memory bar (each
buffer a segment, the target's limit a red line); one stage × cluster grid per captured
schedule (columns are stages, rows clusters, so reading down a column and then across
gives the steady state's issue order); the lanes side by side, with an arrow from each op
that arrives on an mbarrier to each op of another lane that waits on it; the buffers and
mbarrier arrays, each with the async edges that guard it. Every op, buffer and lane has a
`<title>` tooltip with its source location, and `data-*` attributes for tools and tests
(`data-stage`, `data-cluster`, `data-op`, `data-bytes`, `data-registers`, ...).
"""

from __future__ import annotations

from collections.abc import Sequence

from ttpipe.schedule_picture.cells import KINDS
from ttpipe.schedule_picture.lanes import Lane, Row, fold
from ttpipe.schedule_picture.memory import Allocation, SharedMemory
from ttpipe.schedule_picture.model import Arrow, Buffer, Picture
from ttpipe.schedule_picture.schedules import LoopSchedule

try:
    import drawsvg
except ImportError:  # the optional extra is not installed: `render` says how to get it
    drawsvg = None

INSTALL_HINT = "the schedule picture needs drawsvg: pip install 'ttpipe[picture]'"

FONT = 12
CHAR = 7.3
"""Width of one character of the 12 px monospace font, a little over DejaVu Sans Mono's."""
LINE = 17
PAD = 8
TEXT_INSET = 4
"""Room between a box's edge and its text."""
MARGIN = 20
INDENT = 14
LANE_GAP = 110
"""Room between two lanes for the arrows and their labels."""
MAX_CHARS = 60
"""Longer texts are cut (the tooltip has all of it)."""
BAR_WIDTH = 720
MIN_FLOW_WIDTH = 1100
"""The buffers flow in rows at least this wide."""
COLOURS = {"copy": ("#dbeafe", "#1d4ed8"), "mma": ("#ffedd5", "#c2410c"), "sync": ("#fee2e2", "#b91c1c"),
           "memory": ("#dcfce7", "#15803d"), "other": ("#f3f4f6", "#6b7280")}
"""(fill, stroke) of each op kind."""
ARROW = "#b91c1c"
SEGMENTS = ("#93c5fd", "#fdba74", "#86efac", "#c4b5fd", "#f9a8d4", "#fcd34d")


class PictureError(Exception):
    """A picture cannot be drawn (drawsvg is missing): one line for the user."""


class Canvas:
    """The drawing, grown downwards as sections are added; `width` is the widest so far."""

    def __init__(self) -> None:
        self.items: list = []
        self.y = MARGIN
        self.width = 0.0

    def add(self, item, right: float = 0.0) -> None:
        self.items.append(item)
        self.width = max(self.width, right)

    def text(self, x: float, text: str, size: int = FONT, **attrs) -> None:
        self.add(drawsvg.Text(text, size, x, self.y + size, font_family="monospace", **attrs),
                 x + len(text) * CHAR * size / FONT)
        self.y += size + 6

    def svg(self, title: str, **attrs) -> str:
        width, height = self.width + MARGIN, self.y + MARGIN
        drawing = drawsvg.Drawing(width, height, **attrs)
        drawing.append_title(title)
        drawing.append(drawsvg.Rectangle(0, 0, width, height, fill="white"))
        for item in self.items:
            drawing.append(item)
        return drawing.as_svg()


def require_drawsvg() -> None:
    """A PictureError saying how to install drawsvg, when it is not."""
    if drawsvg is None:
        raise PictureError(INSTALL_HINT)


def render(picture: Picture) -> str:
    """The SVG text of `picture`; a PictureError when drawsvg is not installed."""
    require_drawsvg()
    canvas = Canvas()
    title = f"{picture.function} · {picture.kind} at {picture.location}"
    canvas.text(MARGIN, title, 16, font_weight="bold")
    for note in picture.notes:
        canvas.text(MARGIN, note, fill="#374151")
    _legend(canvas)
    if picture.shared is not None:
        _shared_bar(canvas, picture.shared, picture.buffers)
    for schedule in picture.schedules:
        _grid(canvas, schedule)
    if picture.lanes:
        _lanes(canvas, picture.lanes, picture.arrows)
    if picture.buffers:
        _buffers(canvas, picture.buffers)
    return canvas.svg(title, data_function=picture.function, data_location=picture.location, data_kind=picture.kind)


def _legend(canvas: Canvas) -> None:
    x = MARGIN
    for kind in KINDS:
        fill, stroke = COLOURS[kind]
        canvas.add(drawsvg.Rectangle(x, canvas.y, 14, 14, fill=fill, stroke=stroke))
        canvas.add(drawsvg.Text(kind, FONT, x + 20, canvas.y + 11, font_family="monospace"), x + 20 + 8 * CHAR)
        x += 20 + (len(kind) + 3) * CHAR
    canvas.y += 14 + 2 * PAD


def _shared_bar(canvas: Canvas, shared: SharedMemory, buffers: Sequence[Buffer]) -> None:
    limit = (f"{shared.limit:,} B, the limit of {shared.target}" if shared.limit
             else f"no limit known for {shared.target}")
    share = f" ({100 * shared.total / shared.limit:.1f}%)" if shared.limit else ""
    canvas.text(MARGIN, f"shared memory: {shared.total:,} B{share} of {limit} — {shared.source}", 13,
                font_weight="bold")
    scale = BAR_WIDTH / max(shared.limit or 0, shared.total, 1)
    top, x = canvas.y, MARGIN
    canvas.add(drawsvg.Rectangle(MARGIN, top, BAR_WIDTH, 22, fill="#f9fafb", stroke="#9ca3af"), MARGIN + BAR_WIDTH)
    allocations = [b.allocation for b in buffers if b.allocation.memory == "shared"]
    for index, allocation in enumerate(allocations):
        width = allocation.bytes * scale
        segment = drawsvg.Rectangle(x, top, width, 22, fill=SEGMENTS[index % len(SEGMENTS)], stroke="white",
                                    class_="segment", data_name=allocation.name, data_bytes=allocation.bytes)
        segment.append_title(f"{allocation.name}: {allocation.bytes:,} B ({allocation.location})")
        canvas.add(segment)
        if width > len(allocation.name) * CHAR + 6:
            canvas.add(drawsvg.Text(allocation.name, FONT, x + 3, top + 16, font_family="monospace"))
        x += width
    others = shared.total - sum(a.bytes for a in allocations)
    if others > 0:
        rest = drawsvg.Rectangle(x, top, others * scale, 22, fill="#d1d5db", stroke="white", class_="segment",
                                 data_name="", data_bytes=others)
        rest.append_title(f"the function's other shared memory: {others:,} B")
        canvas.add(rest)
    if shared.limit:
        canvas.add(drawsvg.Line(MARGIN + shared.limit * scale, top - 4, MARGIN + shared.limit * scale, top + 26,
                                stroke="#dc2626", stroke_width=2))
    canvas.y += 22 + 3 * PAD


def _cell_box(x: float, y: float, width: float, row: Row, **attrs):
    """One op (or a folded run of ops) as a coloured box with its text and tooltip."""
    fill, stroke = COLOURS[row.cell.kind]
    members = row.members or (row.cell,)
    group = drawsvg.Group(class_="op", data_op=" ".join(c.name for c in members), **attrs)
    indent = row.depth * INDENT
    group.append(drawsvg.Rectangle(x + indent, y, width - indent, LINE - 2, fill=fill, stroke=stroke, rx=3))
    group.append(drawsvg.Text(_cut(row.cell.text), FONT, x + indent + TEXT_INSET, y + FONT, font_family="monospace"))
    group.append_title("\n".join(f"{c.text}  at {c.location}" for c in members))
    return group


def _grid(canvas: Canvas, schedule: LoopSchedule) -> None:
    canvas.y += PAD
    canvas.text(MARGIN, f"schedule of the loop at {schedule.location} after {schedule.captured_after}: "
                        f"{schedule.num_stages} stages × {schedule.num_clusters} clusters", 14, font_weight="bold")
    canvas.text(MARGIN, "steady state: a kernel iteration issues the clusters top to bottom; stage s works on the "
                        f"iteration {schedule.num_stages - 1} - s ahead of the last stage", fill="#374151")
    cells = {(stage, cluster): fold([o.cell for o in schedule.ops if (o.stage, o.cluster) == (stage, cluster)])
             for stage in range(schedule.num_stages) for cluster in range(schedule.num_clusters)}
    label_width = len("cluster 00") * CHAR + PAD
    widths = [max([len(f"stage {s} · iteration i+{schedule.num_stages - 1 - s}")]
                  + [min(len(row.cell.text), MAX_CHARS) for c in range(schedule.num_clusters) for row in cells[s, c]])
              * CHAR + 2 * (PAD + TEXT_INSET) for s in range(schedule.num_stages)]
    x0 = MARGIN + label_width
    xs = [x0 + sum(widths[:s]) for s in range(schedule.num_stages)]
    for stage, x in enumerate(xs):
        canvas.add(drawsvg.Text(f"stage {stage} · iteration i+{schedule.num_stages - 1 - stage}", FONT, x + PAD,
                                canvas.y + FONT, font_family="monospace", font_weight="bold", class_="stage",
                                data_stage=stage))
    canvas.y += LINE + 4
    for cluster in range(schedule.num_clusters):
        height = max(1, *(len(cells[s, cluster]) for s in range(schedule.num_stages))) * LINE + 2 * PAD
        canvas.add(drawsvg.Text(f"cluster {cluster}", FONT, MARGIN, canvas.y + PAD + FONT, font_family="monospace",
                                font_weight="bold"))
        for stage, x in enumerate(xs):
            canvas.add(drawsvg.Rectangle(x, canvas.y, widths[stage], height, fill="white", stroke="#d1d5db"),
                       x + widths[stage])
            for index, row in enumerate(cells[stage, cluster]):
                canvas.add(_cell_box(x + PAD, canvas.y + PAD + index * LINE, widths[stage] - 2 * PAD, row,
                                     data_stage=stage, data_cluster=cluster))
        canvas.y += height
    canvas.y += 2 * PAD


def _lanes(canvas: Canvas, lanes: Sequence[Lane], arrows: Sequence[Arrow]) -> None:
    canvas.y += PAD
    canvas.text(MARGIN, "lanes (final IR): the loops each warp group runs, in order", 14, font_weight="bold")
    if arrows:
        canvas.text(MARGIN, "arrows: an op arrives on an mbarrier → the ops of another lane that wait on it",
                    fill="#374151")
    widths = [max([len(lane.title)] + [min(len(r.cell.text), MAX_CHARS) + r.depth * INDENT / CHAR for r in lane.rows])
              * CHAR + 2 * (PAD + TEXT_INSET) for lane in lanes]
    xs = [MARGIN + sum(widths[:i]) + i * LANE_GAP for i in range(len(lanes))]
    top = canvas.y
    labelled: set[tuple] = set()
    for arrow in arrows:  # first, so that they pass under the lanes they cross
        canvas.add(_arrow(arrow, xs, widths, top, (arrow.target, arrow.barrier) not in labelled))
        labelled.add((arrow.target, arrow.barrier))
    for lane, x, width in zip(lanes, xs, widths):
        group = drawsvg.Group(class_="lane", data_lane=lane.name, data_warps=lane.warps or "",
                              data_registers=lane.registers or "unknown")
        group.append(drawsvg.Rectangle(x, top, width, LINE + 2 * PAD + len(lane.rows) * LINE + PAD,
                                       fill="#fafafa", stroke="#9ca3af"))
        group.append(drawsvg.Text(lane.title, FONT, x + PAD, top + PAD + FONT, font_family="monospace",
                                  font_weight="bold"))
        group.append_title(lane.title)
        canvas.add(group, x + width)
        for index, row in enumerate(lane.rows):
            canvas.add(_cell_box(x + PAD, _row_y(top, index), width - 2 * PAD, row, data_lane=lane.name))
    canvas.y = top + LINE + 3 * PAD + max(len(lane.rows) for lane in lanes) * LINE + 2 * PAD


def _row_y(top: float, index: int) -> float:
    return top + LINE + 2 * PAD + index * LINE


def _arrow(arrow: Arrow, xs: Sequence[float], widths: Sequence[float], top: float, label: bool):
    """A curve from the arriving op's row to the waiting op's, its mbarrier named in the gap
    next to the waiting lane."""
    (source_lane, source_row), (target_lane, target_row) = arrow.source, arrow.target
    rightward = source_lane < target_lane
    sx = xs[source_lane] + (widths[source_lane] if rightward else 0)
    tx = xs[target_lane] + (0 if rightward else widths[target_lane])
    sy, ty = _row_y(top, source_row) + LINE / 2, _row_y(top, target_row) + LINE / 2
    bend = (LANE_GAP / 2) * (1 if rightward else -1)
    marker = drawsvg.Marker(-1, -0.5, 0, 0.5, scale=6, orient="auto")
    marker.append(drawsvg.Lines(-1, -0.5, -1, 0.5, 0, 0, close=True, fill=ARROW))
    group = drawsvg.Group(class_="arrow", data_barrier=arrow.barrier)
    path = drawsvg.Path(stroke=ARROW, fill="none", stroke_width=1.2, marker_end=marker)
    group.append(path.M(sx, sy).C(sx + bend, sy, tx - bend, ty, tx, ty))
    if label:
        width = len(arrow.barrier) * CHAR
        label_x = tx - width - 10 if rightward else tx + 10
        group.append(drawsvg.Text(arrow.barrier, FONT - 1, label_x, ty - 4, font_family="monospace", fill=ARROW))
    group.append_title(f"mbarrier {arrow.barrier}")
    return group


def _buffers(canvas: Canvas, buffers: Sequence[Buffer]) -> None:
    """The buffers and mbarrier arrays, as boxes flowing left to right."""
    canvas.y += PAD
    canvas.text(MARGIN, "buffers and mbarriers, with the async edges that guard them", 14, font_weight="bold")
    right = max(canvas.width, MIN_FLOW_WIDTH)
    x, row_height = MARGIN, 0.0
    for buffer in buffers:
        lines = [_buffer_head(buffer.allocation)] + [f"← {edge}" for edge in buffer.edges]
        width = max(len(line) for line in lines) * CHAR + 2 * PAD
        height = len(lines) * LINE + PAD
        if x > MARGIN and x + width > right:
            x, canvas.y, row_height = MARGIN, canvas.y + row_height + PAD, 0.0
        canvas.add(_buffer_box(buffer, lines, x, canvas.y, width, height), x + width)
        x, row_height = x + width + PAD, max(row_height, height)
    canvas.y += row_height + 2 * PAD


def _buffer_head(a: Allocation) -> str:
    where = a.location.rpartition("/")[2]
    if a.barrier:
        return f"{a.name} · {a.depth} mbarrier{'s' if a.depth > 1 else ''} · {where}"
    if a.depth > 1:
        return (f"{a.name} · {a.memory} ring of {a.depth} × {a.stage_text} = {a.depth} × {a.stage_bytes:,} B"
                f" = {a.bytes:,} B · {where}")
    return f"{a.name} · {a.memory} buffer {a.stage_text} = {a.bytes:,} B · {where}"


def _buffer_box(buffer: Buffer, lines: list[str], x: float, y: float, width: float, height: float):
    a = buffer.allocation
    group = drawsvg.Group(class_="buffer", data_name=a.name, data_depth=a.depth, data_bytes=a.bytes,
                          data_stage_bytes=a.stage_bytes, data_memory=a.memory, data_barrier=str(a.barrier).lower())
    fill, stroke = COLOURS["sync" if a.barrier else "memory"]
    group.append(drawsvg.Rectangle(x, y, width, height, fill=fill, stroke=stroke, rx=4))
    for index, line in enumerate(lines):
        group.append(drawsvg.Text(line, FONT, x + PAD, y + PAD / 2 + FONT + index * LINE, font_family="monospace",
                                  font_weight="bold" if index == 0 else "normal"))
    group.append_title(f"{a.name}: !ttg.memdesc<{a.type.get_shape()}> at {a.location}")
    return group


def _cut(text: str) -> str:
    return text if len(text) <= MAX_CHARS else text[:MAX_CHARS - 1] + "…"

