"""`ttpipe-warp-specialize` through the whole `ttgir-sm90{warp-specialize=true}` pipeline and
Triton's backend to an sm_90a cubin (no GPU needed): the loop is split into a TMA producer
and a wgmma consumer with register budgets, and the rest of the pipeline leaves both alone.

Input: `test/lit/warp-specialize/Inputs/matmul_tma_ws.ttir`, the TTIR Triton 3.6 makes of a
non-persistent TMA matmul (128x128x64 fp16 tiles) with `tl.range(..., warp_specialize=True)`
(stock Triton fails on it in nvgpu-warp-specialization, on the TMA store epilogue), at
num_warps=4; and `matmul_tma_ws_coop.ttir`, the same kernel with 128x256x64 tiles at
num_warps=8: two cooperative consumer warpgroups and the producer, 12 warps (both kept at a
program a tile, `warp-specialize-persistent=false`, where a test is about that loop); and
`matmul_tma_ws_persistent.ttir`, `python/ttpipe/bench/kernels.py`'s persistent kernel
(grid-stride tile loop marked, K loop inside, TMA store epilogue; 128x128x64 fp16, num_warps=4):
with one consumer warpgroup (`warp-specialize-consumers=cooperative`): the producer's tile
loop around its K loop, the consumer's with the epilogue between; by default (ping-pong):
two consumer warpgroups, each its own tiles, both storing; the same at num_warps=8: two
cooperative consumer warpgroups, each with its own tile loop; `matmul_pointers_f32_out.ttir`,
the bench's pointer matmul (`matmul_pointers_ws`) storing an fp32 C, 128x256x64, num_warps=8;
`matmul_tma_ws_persistent_bias_relu.ttir`, the GPU test's persistent kernel with its bias +
ReLU epilogue (128x128x64 fp16).
"""

import pathlib
import re

import pytest
from sass_partitions import producer_spans

from ttpipe import compile as ttpipe_compile
from ttpipe.passes.common.hardware import SM90_MAX_SHARED_MEMORY_PER_BLOCK
from ttpipe.pipeline.driver import remarks

TTIR = pathlib.Path(__file__).parents[1] / "lit" / "warp-specialize" / "Inputs" / "matmul_tma_ws.ttir"
COOPERATIVE_TTIR = TTIR.with_name("matmul_tma_ws_coop.ttir")
PERSISTENT_TTIR = TTIR.with_name("matmul_tma_ws_persistent.ttir")
PIPELINE = "ttgir-sm90{warp-specialize=true}"
ONE_TILE_A_PROGRAM = "ttgir-sm90{warp-specialize=true warp-specialize-persistent=false}"
"""The pipeline for the kernels of a program a tile kept so: phase 1's lone K loop."""


@pytest.fixture(scope="module")
def compiled():
    return ttpipe_compile.compile_file(str(TTIR), "sm_90a", pipeline=ONE_TILE_A_PROGRAM)


def test_final_ttgir_keeps_the_partitions(compiled):
    ttgir = compiled.asm["ttgir"]
    assert ttgir.count("ttg.warp_specialize(") == 1
    assert "requestedRegisters = array<i32: 40>" in ttgir
    assert "num_warps(1)" in ttgir
    # The pipeliner left both loops alone: no schedule, no extra waits or rings of its own.
    assert ttgir.count("tt.num_stages = 0") == 2
    assert "loop.stage" not in ttgir and "ttg.async_copy_global_to_local" not in ttgir
    assert re.findall(r"warp_group_dot_wait .*pendings = (\d)", ttgir) == ["1", "0"]


def test_ptx_moves_registers_from_producer_to_consumer(compiled):
    ptx = compiled.asm["ptx"]
    assert "setmaxnreg.dec.sync.aligned.u32 \t40" in ptx
    assert "setmaxnreg.inc.sync.aligned.u32 \t256" in ptx


def test_sass_has_tma_mbarriers_and_wgmma_only_in_the_consumer(compiled):
    lines = compiled.sass().splitlines()
    assert any("USETMAXREG" in line for line in lines)
    assert any("SYNCS.ARRIVE.TRANS64" in line for line in lines)  # expect-tx and the empty arrivals
    assert any("SYNCS.PHASECHK.TRANS64.TRYWAIT" in line for line in lines)  # mbarrier waits
    spans = producer_spans(lines)
    assert spans

    def in_producer(number: int) -> bool:
        return any(start < number < end for start, end in spans)

    hgmma = [n for n, line in enumerate(lines) if "HGMMA" in line]
    tma_loads = [n for n, line in enumerate(lines) if "UTMALDG" in line]
    assert hgmma and tma_loads
    assert not any(in_producer(n) for n in hgmma), "wgmma in the producer partition"
    assert all(in_producer(n) for n in tma_loads), "a TMA load outside the producer partition"


def _unmarked(ttir: pathlib.Path) -> ttpipe_compile.SourceFile:
    text = ttir.read_text().replace("{tt.warp_specialize}", "")
    assert "tt.warp_specialize" not in text
    return ttpipe_compile.SourceFile(str(ttir.parent / f"unmarked_{ttir.name}"), text)


def test_auto_mode_specializes_unmarked_loops_where_it_pays():
    """`warp-specialize=auto`: two consumer warpgroups (num_warps=8) are specialized with no
    marker; one (num_warps=4) of a program a tile kept so is left to the software pipeliner
    (the cost model), and made persistent (the default) takes two ping-pong warpgroups."""
    auto = "ttgir-sm90{warp-specialize=auto}"
    cooperative = ttpipe_compile.compile_source(_unmarked(COOPERATIVE_TTIR), "sm_90a", pipeline=auto, num_warps=8)
    assert "requestedRegisters = array<i32: 232, 40>" in cooperative.asm["ttgir"]
    single = ttpipe_compile.compile_source(_unmarked(TTIR), "sm_90a",
                                          pipeline="ttgir-sm90{warp-specialize=auto warp-specialize-persistent=false}")
    assert "ttg.warp_specialize" not in single.asm["ttgir"]
    assert "ttng.warp_group_dot_wait" in single.asm["ttgir"]  # pipelined instead
    persistent = ttpipe_compile.compile_source(_unmarked(TTIR), "sm_90a", pipeline=auto)
    assert "requestedRegisters = array<i32: 232, 40>" in persistent.asm["ttgir"]


@pytest.fixture(scope="module")
def cooperative():
    return ttpipe_compile.compile_file(str(COOPERATIVE_TTIR), "sm_90a", pipeline=ONE_TILE_A_PROGRAM, num_warps=8)


def test_cooperative_ttgir_has_two_consumer_warpgroups(cooperative):
    ttgir = cooperative.asm["ttgir"]
    assert '"ttg.num-warps" = 4' in ttgir  # the default region: consumer warpgroup 0
    assert "requestedRegisters = array<i32: 232, 40>" in ttgir
    assert "num_warps(4)" in ttgir and "num_warps(1)" in ttgir
    assert ttgir.count("tt.num_stages = 0") == 3
    assert cooperative.metadata["num_warps"] == 12  # 4 + 4 + the producer's warp padded to 4


def test_cooperative_ptx_gives_both_consumers_232_and_the_producer_40(cooperative):
    ptx = cooperative.asm["ptx"]
    assert ".maxnreg 168" in ptx and ".reqntid 384" in ptx  # floor8(65536 / 384)
    # partition0 (consumer warpgroup 1) rises to 232 from the workers' 120; the default
    # region (consumer warpgroup 0) comes down to 232 from the 256 it holds outside.
    assert "setmaxnreg.inc.sync.aligned.u32 \t232" in ptx
    assert "setmaxnreg.dec.sync.aligned.u32 \t232" in ptx
    assert "setmaxnreg.dec.sync.aligned.u32 \t40" in ptx


def register_spans(lines: list[str]) -> list[tuple[int, int, int]]:
    """(start, end, registers): the SASS between one `USETMAXREG` and the next, with the
    register count the first sets."""
    marks = [(n, int(line.split("0x")[1].split()[0].rstrip(";"), 16))
             for n, line in enumerate(lines) if "USETMAXREG" in line]
    return [(start, end, registers) for (start, registers), (end, _) in zip(marks, marks[1:] + [(len(lines), 0)])]


class SassSites:
    """Where a cubin's wgmmas, TMA loads and TMA stores sit among its `setmaxnreg` spans."""

    def __init__(self, compiled):
        self.lines = compiled.sass().splitlines()
        self.spans = register_spans(self.lines)
        self.hgmma = [n for n, line in enumerate(self.lines) if "HGMMA" in line]
        self.tma_loads = [n for n, line in enumerate(self.lines) if "UTMALDG" in line]
        self.tma_stores = [n for n, line in enumerate(self.lines) if "UTMASTG" in line]
        assert self.hgmma and self.tma_loads and self.tma_stores

    def span(self, number: int) -> tuple[int, int]:
        """(start, registers) of the span holding SASS line `number`."""
        return next((start, registers) for start, end, registers in self.spans if start < number < end)

    def registers(self, numbers: list[int]) -> set[int]:
        return {self.span(n)[1] for n in numbers}

    def spans_of(self, numbers: list[int]) -> set[tuple[int, int]]:
        return {self.span(n) for n in numbers}


def test_cooperative_sass_wgmma_in_both_consumers_tma_loads_in_the_producer(cooperative):
    sites = SassSites(cooperative)
    assert sites.registers(sites.hgmma) == {232}, "wgmma outside the 232-register consumers"
    assert len(sites.spans_of(sites.hgmma)) == 2, "wgmma not in both consumer warpgroups"
    assert sites.registers(sites.tma_loads) == {40}, "a TMA load outside the 40-register producer"
    assert [sites.span(n)[1] for n in sites.tma_stores] == [232]  # one TMA store, by consumer warpgroup 0


@pytest.fixture(scope="module")
def persistent():
    """The persistent kernel with one consumer warpgroup (`consumers=cooperative` at num_warps=4)."""
    return ttpipe_compile.compile_file(
        str(PERSISTENT_TTIR), "sm_90a",
        pipeline="ttgir-sm90{warp-specialize=true warp-specialize-consumers=cooperative}")


def test_persistent_ttgir_nests_both_loops_in_each_partition(persistent):
    ttgir = persistent.asm["ttgir"]
    assert ttgir.count("ttg.warp_specialize(") == 1
    assert "requestedRegisters = array<i32: 40>" in ttgir
    assert ttgir.count("tt.num_stages = 0") == 4  # each partition's tile loop and K loop
    # In each K loop one wgmma group in flight; after it one flush per tile, in the tile loop.
    assert re.findall(r"warp_group_dot_wait .*pendings = (\d)", ttgir) == ["1", "0"]
    assert "loop.stage" not in ttgir and "ttg.async_copy_global_to_local" not in ttgir


def test_flattened_persistent_nest_is_specialized_as_a_nest():
    """The persistent kernel's tile loop marked `flatten=True` as well (Triton's tutorial 09
    marks it so): `ttpipe-ws-keep-nest` keeps the nest from `tritongpu-fuse-nested-loops`,
    so it is specialized as the unflattened one is; with the flag alone the nest is fused
    as stock Triton fuses it (one pipelined loop, its K iterations merged with the tiles')."""
    flattened = PERSISTENT_TTIR.read_text().replace("} {tt.warp_specialize}", "} {tt.flatten, tt.warp_specialize}")
    assert "tt.flatten" in flattened
    source = ttpipe_compile.SourceFile(str(PERSISTENT_TTIR.with_name("flattened.ttir")), flattened)
    marked = ttpipe_compile.compile_source(source, "sm_90a", pipeline=PIPELINE)
    assert marked.asm["ttgir"].count("ttg.warp_specialize(") == 1
    unmarked = flattened.replace("{tt.flatten, tt.warp_specialize}", "{tt.flatten}")
    stock_like = ttpipe_compile.compile_source(ttpipe_compile.SourceFile(source.name, unmarked), "sm_90a",
                                               pipeline=PIPELINE)
    ttgir = stock_like.asm["ttgir"]
    assert "ttg.warp_specialize" not in ttgir and ttgir.count("scf.for") == 2  # fused, and its zero-trip nest


def test_persistent_sass_wgmma_in_the_consumer_tma_loads_in_the_producer(persistent):
    assert "setmaxnreg.dec.sync.aligned.u32 \t40" in persistent.asm["ptx"]
    lines = persistent.sass().splitlines()
    spans = producer_spans(lines)
    assert spans

    def in_producer(number: int) -> bool:
        return any(start < number < end for start, end in spans)

    hgmma = [n for n, line in enumerate(lines) if "HGMMA" in line]
    tma_loads = [n for n, line in enumerate(lines) if "UTMALDG" in line]
    tma_stores = [n for n, line in enumerate(lines) if "UTMASTG" in line]
    assert hgmma and tma_loads and tma_stores
    assert not any(in_producer(n) for n in hgmma), "wgmma in the producer partition"
    assert all(in_producer(n) for n in tma_loads), "a TMA load outside the producer partition"
    assert not any(in_producer(n) for n in tma_stores), "the epilogue's TMA store in the producer partition"


@pytest.fixture(scope="module")
def cooperative_persistent():
    """The persistent kernel at num_warps=8: two cooperative consumer warpgroups, each its own
    tile loop, the TMA-store epilogue through the staging tile's full/empty mbarrier pair."""
    return ttpipe_compile.compile_file(str(PERSISTENT_TTIR), "sm_90a", pipeline=PIPELINE, num_warps=8)


def test_cooperative_persistent_ttgir_has_three_tile_loops(cooperative_persistent):
    ttgir = cooperative_persistent.asm["ttgir"]
    assert ttgir.count("ttg.warp_specialize(") == 1
    assert "requestedRegisters = array<i32: 232, 40>" in ttgir
    assert "num_warps(4)" in ttgir and "num_warps(1)" in ttgir
    assert ttgir.count("tt.num_stages = 0") == 6  # each partition's tile loop and K loop
    assert re.findall(r"warp_group_dot_wait .*pendings = (\d)", ttgir) == ["1", "0", "1", "0"]
    assert ttgir.count("ttng.async_tma_store_wait") == 2  # warpgroup 0: before each rewrite, after its loop
    assert cooperative_persistent.metadata["num_warps"] == 12


def test_cooperative_persistent_sass_wgmma_in_both_consumers_tma_in_its_warpgroups(cooperative_persistent):
    ptx = cooperative_persistent.asm["ptx"]
    assert "setmaxnreg.inc.sync.aligned.u32 \t232" in ptx and "setmaxnreg.dec.sync.aligned.u32 \t40" in ptx
    sites = SassSites(cooperative_persistent)
    assert sites.registers(sites.hgmma) == {232}, "wgmma outside the 232-register consumers"
    assert len(sites.spans_of(sites.hgmma)) == 2, "wgmma not in both consumer warpgroups"
    assert sites.registers(sites.tma_loads) == {40}, "a TMA load outside the 40-register producer"
    # One TMA store, by consumer warpgroup 0: the default region comes down to 232 from 256
    # (`setmaxnreg.dec`, USETMAXREG.DEALLOC); warpgroup 1 rises to it from 120 (TRY_ALLOC).
    ((store_span, registers), ) = sites.spans_of(sites.tma_stores)
    assert registers == 232 and len(sites.tma_stores) == 1
    assert "USETMAXREG.DEALLOC" in sites.lines[store_span], "the TMA store outside consumer warpgroup 0"


@pytest.fixture(scope="module")
def pingpong():
    """The persistent kernel at num_warps=4 with the default `consumers=auto`: two ping-pong
    consumer warpgroups (128x128 fp32 accumulators fit), each its own tiles."""
    return ttpipe_compile.compile_file(str(PERSISTENT_TTIR), "sm_90a", pipeline=PIPELINE)


def test_pingpong_ttgir_has_two_consumer_tile_loops_and_turns(pingpong):
    ttgir = pingpong.asm["ttgir"]
    assert ttgir.count("ttg.warp_specialize(") == 1
    assert "requestedRegisters = array<i32: 232, 40>" in ttgir
    assert "num_warps(4)" in ttgir and "num_warps(1)" in ttgir
    assert ttgir.count("tt.num_stages = 0") == 6  # each partition's tile loop and K loop
    assert re.findall(r"warp_group_dot_wait .*pendings = (\d)", ttgir) == ["1", "0", "1", "0"]
    assert ttgir.count("!ttg.memdesc<2x1xi64") >= 3  # the turn mbarriers: allocated, captured twice
    assert pingpong.metadata["num_warps"] == 12


def test_pingpong_sass_wgmma_and_tma_stores_in_both_consumers(pingpong):
    ptx = pingpong.asm["ptx"]
    assert "setmaxnreg.inc.sync.aligned.u32 \t232" in ptx and "setmaxnreg.dec.sync.aligned.u32 \t40" in ptx
    sites = SassSites(pingpong)
    assert sites.registers(sites.hgmma) == {232}, "wgmma outside the 232-register consumers"
    assert len(sites.spans_of(sites.hgmma)) == 2, "wgmma not in both consumer warpgroups"
    assert sites.registers(sites.tma_loads) == {40}, "a TMA load outside the 40-register producer"
    assert len(sites.spans_of(sites.tma_stores)) == 2, "each consumer warpgroup stores its own tiles"


@pytest.fixture(scope="module")
def epilogue_partition():
    """Ping-pong with the epilogue handed to a one-warp partition (`epilogue=partition`)."""
    return ttpipe_compile.compile_file(
        str(PERSISTENT_TTIR), "sm_90a", pipeline="ttgir-sm90{warp-specialize=true warp-specialize-epilogue=partition}")


def test_epilogue_partition_sass_tma_stores_only_in_a_40_register_warp(epilogue_partition):
    ttgir = epilogue_partition.asm["ttgir"]
    assert "requestedRegisters = array<i32: 232, 40, 40>" in ttgir
    assert ttgir.count("num_warps(1)") == 2 and epilogue_partition.metadata["num_warps"] == 12
    sites = SassSites(epilogue_partition)
    assert sites.registers(sites.hgmma) == {232} and len(sites.spans_of(sites.hgmma)) == 2
    assert sites.registers(sites.tma_stores) == {40}, "a TMA store outside the epilogue warp"
    assert sites.spans_of(sites.tma_stores).isdisjoint(sites.spans_of(sites.tma_loads)), \
        "the TMA stores in the producer's code"


POINTERS_TTIR = TTIR.with_name("matmul_pointers_persistent.ttir")
"""Triton's persistent tutorial matmul (09) with pointer loads, 64x64x64 fp16, num_warps=4,
the tile loop marked (`test/gpu/test_warp_specialize.py`'s `matmul_pointers_persistent`)."""


@pytest.fixture(scope="module")
def pointers():
    return ttpipe_compile.compile_file(str(POINTERS_TTIR), "sm_90a", pipeline=PIPELINE)


def test_pointer_loads_become_tma_and_the_wgmmas_stay_asynchronous(pointers):
    """The loads are TMA copies from tensormaps the kernel makes, in the producer; the
    kernel holds no call (ptxas would serialize every wgmma: C7510), so each wgmma group is
    waited for once per K step, not after every instruction."""
    assert "ttng.tensormap_create" in pointers.asm["ttgir"] and "tt.load " not in pointers.asm["ttgir"]
    assert "call.uni" not in pointers.asm["ptx"] and "__assertfail" not in pointers.asm["ptx"]
    lines = pointers.sass().splitlines()
    spans = producer_spans(lines)
    tma_loads = [n for n, line in enumerate(lines) if "UTMALDG" in line]
    hgmma = [n for n, line in enumerate(lines) if "HGMMA" in line]
    assert tma_loads and all(any(start < n < end for start, end in spans) for n in tma_loads)
    drained = [line for line in lines if "WARPGROUP.DEPBAR.LE gsb0, 0x0" in line]
    assert hgmma and len(drained) < len(hgmma) // 2


def test_epilogue_conversion_scratch_counts_against_the_ring():
    """An fp32 C stored through pointers takes a 128 KB layout conversion at 128x256 tiles;
    with two cooperative consumer warpgroups each converts its rows inside
    `ttg.warp_specialize`, beside the ring: the 3-stage ring and it need 278576 bytes, so
    the loop is left to the software pipeliner (whose ring is dead by the epilogue) with a
    remark, and the kernel fits sm_90a."""
    source = (TTIR.with_name("matmul_pointers_f32_out.ttir")).read_text()
    found = remarks(source, "ttgir-sm90{num-warps=8 warp-specialize=true}")
    assert any("131072 bytes of the epilogue's layout conversions needs 278576 bytes" in d.message for d in found)
    compiled = ttpipe_compile.compile_file(str(TTIR.with_name("matmul_pointers_f32_out.ttir")), "sm_90a",
                                           pipeline=PIPELINE, num_warps=8)
    assert "ttg.warp_specialize" not in compiled.asm["ttgir"]
    assert compiled.metadata["shared"] <= SM90_MAX_SHARED_MEMORY_PER_BLOCK
    # One consumer warpgroup stores C after `ttg.warp_specialize`, once the ring is freed:
    # the conversion's scratch reuses the ring's space, and the loop is specialized.
    single = ttpipe_compile.compile_file(str(TTIR.with_name("matmul_pointers_f32_out.ttir")), "sm_90a",
                                         pipeline=PIPELINE, num_warps=4)
    assert "ttg.warp_specialize" in single.asm["ttgir"]
    assert single.metadata["shared"] <= SM90_MAX_SHARED_MEMORY_PER_BLOCK


def test_a_ring_that_does_not_fit_is_made_shallower():
    """128x256x64 tiles (48 KB a stage) with `num_stages=4` and a 64 KB TMA-store staging
    tile beside the ring (two cooperative warpgroups) need 262216 bytes at 4 stages: the
    loop is specialized with 3 (96 KB ahead of the wgmmas, `RING_BYTES_IN_FLIGHT`) and a
    remark says why, where it used to be left to the pipeliner."""
    path = TTIR.with_name("matmul_tma_ws_b_kn_4stages.ttir")
    found = remarks(path.read_text(), "ttgir-sm90{num-warps=8 num-stages=4 warp-specialize-persistent=false}")
    assert any(d.message.startswith("ring of 3 stages, not 4: 4 stages of 49152 bytes and 65536 bytes of TMA store "
                                    "staging would need 262216 bytes") for d in found)
    compiled = ttpipe_compile.compile_file(str(path), "sm_90a", pipeline=ONE_TILE_A_PROGRAM, num_warps=8,
                                           num_stages=4)
    assert "ttg.warp_specialize" in compiled.asm["ttgir"]
    assert re.search(r"!ttg.memdesc<3x128x64xbf16", compiled.asm["ttgir"])
    assert compiled.metadata["shared"] <= SM90_MAX_SHARED_MEMORY_PER_BLOCK


@pytest.mark.parametrize("num_warps", [4, 8])
def test_bias_broadcast_conversion_is_not_counted(num_warps):
    """A bias along N added before the TMA store reaches the epilogue as a broadcast
    converted to the accumulator's layout; Triton rebuilds the broadcast in that layout
    (converting the 1-D bias), so no 64 KB scratch sits beside the ring and the persistent
    kernel stays specialized (ping-pong at 4 warps, cooperative at 8)."""
    compiled = ttpipe_compile.compile_file(str(TTIR.with_name("matmul_tma_ws_persistent_bias_relu.ttir")), "sm_90a",
                                           pipeline=PIPELINE, num_warps=num_warps)
    assert "ttg.warp_specialize" in compiled.asm["ttgir"]
    assert compiled.metadata["shared"] <= SM90_MAX_SHARED_MEMORY_PER_BLOCK
