"""The schedule picture (`ttpipe-opt --schedule-picture=DIR`, `ttpipe.schedule_picture`):
every scheduled loop of the corpus drawn with its ops in the right stage and cluster, its
buffers with their bytes; the two README commands end to end; the errors."""

from __future__ import annotations

import json
import math
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from ttpipe import opt
from ttpipe.dialects import ttg, ttng
from ttpipe.schedule_picture import loop_schedules, picture_files, pictures, render, write_pictures
from ttpipe.schedule_picture.memory import value_names
from ttpipe.textio import parse_module

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "test" / "corpus"
WS_INPUT = ROOT / "test" / "lit" / "warp-specialize" / "Inputs" / "matmul_tma_ws_persistent.ttir"
PTR_INPUT = ROOT / "examples" / "matmul_ptr.sm90a.ttir"
PIPELINED = "ttgir-sm90{warp-specialize-persistent=false}"
"""The example kept at a program a tile: a software-pipelined loop (made persistent, it is
warp-specialized)."""
SVG = "{http://www.w3.org/2000/svg}"
ELEMENT_BITS = {"f16": 16, "bf16": 16, "f32": 32, "i64": 64, "i8": 8, "i32": 32, "f8E4M3FN": 8, "f8E5M2": 8}
"""Bits of the element types the corpus allocates, written out here to check the picture's bytes."""


def scheduled_kernels() -> list[Path]:
    """The corpus folders whose `tritongpu-schedule-loops` stamped a schedule."""
    return [folder for folder in sorted(CORPUS.glob("*/*/")) if _after_schedule(folder) is not None]


def _after_schedule(folder: Path) -> str | None:
    """The file holding the IR right after `tritongpu-schedule-loops` (with loop.stage)."""
    manifest = json.loads((folder / "manifest.json").read_text())
    return next((p["after"] for stage in manifest["stages"] for p in stage["passes"]
                 if p["pass"] == "tritongpu-schedule-loops" and p["changed"]), None)


def parse(path: Path):
    return parse_module(path.read_text(), str(path)).module


def svg(text: str) -> ET.Element:
    return ET.fromstring(text)


def groups(root: ET.Element, kind: str) -> list[ET.Element]:
    return [g for g in root.iter(f"{SVG}g") if g.get("class") == kind]


def texts(element: ET.Element) -> str:
    return "\n".join(t.text or "" for t in element.iter() if t.tag in (f"{SVG}text", f"{SVG}title"))


@pytest.mark.parametrize("folder", scheduled_kernels(), ids=lambda f: f"{f.parent.name}-{f.name}")
def test_every_scheduled_corpus_loop_is_drawn_with_its_stages_ops_and_bytes(folder):
    scheduled = loop_schedules(parse(folder / _after_schedule(folder)), "tritongpu-schedule-loops")
    final = parse(folder / "final-ttgir.mlir")
    drawn = pictures(final, scheduled)
    assert scheduled and {(s.function, s.location) for p in drawn for s in p.schedules} == set(scheduled)
    files = picture_files(drawn)
    assert list(files) == [f"{p.function}-loop{i}.svg" for i, p in enumerate(drawn)]
    names = value_names(final)
    expected_bytes = {names[op.result]: math.prod(op.result.type.get_shape())
                      * ELEMENT_BITS[str(op.result.type.element_type)] // 8
                      for op in final.walk() if isinstance(op, (ttg.LocalAllocOp, ttng.TMEMAllocOp))}
    shared = sum(math.prod(op.result.type.get_shape()) * ELEMENT_BITS[str(op.result.type.element_type)] // 8
                 for op in final.walk() if isinstance(op, ttg.LocalAllocOp))
    for picture, text in zip(drawn, files.values()):
        root = svg(text)
        assert root.get("data-location") == picture.location
        for schedule in picture.schedules:
            stages = {int(t.get("data-stage")) for t in root.iter(f"{SVG}text") if t.get("class") == "stage"}
            assert stages == set(range(schedule.num_stages))
            cells: dict[tuple[int, int], list[str]] = {}
            for g in groups(root, "op"):
                if g.get("data-stage") is not None:
                    cells.setdefault((int(g.get("data-stage")), int(g.get("data-cluster"))), []).extend(
                        g.get("data-op").split())
            for op in schedule.ops:
                assert op.cell.name in cells[op.stage, op.cluster], (op, schedule.location)
            assert sum(map(len, cells.values())) == len(schedule.ops)
        buffers = groups(root, "buffer")
        assert buffers, picture.location
        for g in buffers:
            name, total = g.get("data-name"), int(g.get("data-bytes"))
            assert total == expected_bytes[name]
            assert total == int(g.get("data-depth")) * int(g.get("data-stage-bytes"))
            assert f"{total:,} B" in texts(g) or g.get("data-barrier") == "true"
        assert f"shared memory: {shared:,} B" in texts(root)


def test_a_pipelined_loop_from_the_command_line(tmp_path):
    assert opt.main([str(PTR_INPUT), "-p", PIPELINED, f"--schedule-picture={tmp_path}", "-o", "/dev/null"]) == 0
    assert [p.name for p in tmp_path.iterdir()] == ["matmul_ptr-loop0.svg"]
    root = svg((tmp_path / "matmul_ptr-loop0.svg").read_text())
    placed = {(g.get("data-op"), g.get("data-stage")) for g in groups(root, "op") if g.get("data-stage")}
    assert {("tt.load", "0"), ("ttng.warp_group_dot", "2"), ("ttg.local_alloc", "2")} <= placed
    assert "after ttpipe-schedule-loops: 3 stages" in texts(root)
    rings = {g.get("data-name"): (g.get("data-depth"), g.get("data-bytes")) for g in groups(root, "buffer")}
    assert rings == {"%a": ("3", "49152"), "%b": ("3", "49152")}
    assert "cp.async wait num=2" in texts(root) and "wgmma wait pendings=1" in texts(root)
    assert "shared memory: 98,304 B (42.3%) of 232,448 B, the limit of cuda:90" in texts(root)
    assert all(g.find(f"{SVG}title") is not None for g in groups(root, "op"))


def test_a_warp_specialized_loop_from_the_command_line(tmp_path):
    argv = [str(WS_INPUT), "-p", "ttgir-sm90{num-warps=4}", "-schedule-picture", str(tmp_path), "-o", "/dev/null"]
    assert opt.main(argv) == 0
    root = svg((tmp_path / "matmul_tma_ws_persistent-loop0.svg").read_text())
    assert root.get("data-kind") == "warp-specialized loop"
    lanes = {g.get("data-lane"): (g.get("data-warps"), g.get("data-registers")) for g in groups(root, "lane")}
    assert lanes == {"default": ("4", "unknown"), "partition0": ("4", "232"), "partition1": ("1", "40")}
    assert "without a stage grid" in texts(root)
    rings = [g for g in groups(root, "buffer") if g.get("data-depth") == "4" and g.get("data-barrier") == "false"]
    assert [(g.get("data-stage-bytes"), g.get("data-bytes")) for g in rings] == [("16384", "65536")] * 2
    full = next(g for g in groups(root, "buffer") if "expects 32768 B (partition1)" in texts(g))
    assert re.search(r"waits, then reads %\d+, %\d+ \(default, partition0\)", texts(full))
    arrows = groups(root, "arrow")
    assert {a.get("data-barrier") for a in arrows} >= {full.get("data-name") + "[i]"}


def test_an_already_pipelined_input_is_drawn_without_a_stage_grid(tmp_path):
    pipelined = tmp_path / "pipelined.mlir"
    assert opt.main([str(PTR_INPUT), "-p", PIPELINED, "-o", str(pipelined), "--mlir-print-debuginfo"]) == 0
    paths = write_pictures(parse(pipelined), str(tmp_path / "pictures"))
    root = svg(Path(paths[0]).read_text())
    assert not [t for t in root.iter(f"{SVG}text") if t.get("class") == "stage"]
    assert "an input already pipelined" in texts(root) and "without a stage grid" in texts(root)
    assert {g.get("data-name") for g in groups(root, "buffer")} == {"%a", "%b"}


def test_without_drawsvg_the_option_says_what_to_install(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(render, "drawsvg", None)
    assert opt.main([str(PTR_INPUT), "-p", "ttgir-sm90", f"--schedule-picture={tmp_path / 'p'}"]) == 1
    err = capsys.readouterr().err
    assert err == ("ttpipe-opt: --schedule-picture: error: the schedule picture needs drawsvg: "
                   "pip install 'ttpipe[picture]'\n")
    assert not (tmp_path / "p").exists()


def test_a_directory_that_cannot_be_made_is_a_one_line_error(tmp_path, capsys):
    blocker = tmp_path / "file"
    blocker.write_text("")
    assert opt.main([str(PTR_INPUT), "-p", "ttgir-sm90", f"--schedule-picture={blocker}", "-o", "/dev/null"]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"{blocker}: error: could not make the picture directory") and err.count("\n") == 1
