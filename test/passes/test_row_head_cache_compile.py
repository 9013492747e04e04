"""`ttpipe-row-head-cache` through `ttgir-sm90` and Triton's backend to an sm_90a cubin (no GPU
needed), on the bench's looped layer norm (`test/lit/reverse-rereads/Inputs/layernorm_looped.ttir`,
8 warps, chunks of 2048 bf16)."""

import pathlib
import re

from ptx_accesses import global_accesses

from ttpipe import compile as ttpipe_compile
from ttpipe.passes.common.hardware import (
    SM90_MAX_WARPS_PER_SM,
    SM90_SHARED_MEMORY_PER_SM,
    SM90_SHARED_MEMORY_RESERVED_PER_CTA,
)

INPUT = pathlib.Path(__file__).parents[1] / "lit" / "reverse-rereads" / "Inputs" / "layernorm_looped.ttir"
WARPS = 8


def test_the_head_keeps_the_occupancy_and_moves_16_bytes_a_thread():
    compiled = ttpipe_compile.compile_file(str(INPUT), "sm_90a", pipeline="ttgir-sm90{row-ring=false row-head-cache=true}",
                                          num_warps=WARPS)
    assert "ttg.local_alloc : () -> !ttg.memdesc<6x2048xbf16" in compiled.asm["ttgir"]
    ctas = SM90_MAX_WARPS_PER_SM // WARPS
    assert compiled.metadata["shared"] + SM90_SHARED_MEMORY_RESERVED_PER_CTA <= SM90_SHARED_MEMORY_PER_SM // ctas
    shared = sorted(set(re.findall(r"(?:ld|st)\.shared[\w:.]*", compiled.asm["ptx"])))
    assert "st.shared.v4.b32" in shared and "ld.shared.v4.b32" in shared
    without = ttpipe_compile.compile_file(str(INPUT), "sm_90a", pipeline="ttgir-sm90{row-ring=false reverse-rereads=false}",
                                          num_warps=WARPS)
    assert global_accesses(compiled.asm["ptx"]) == global_accesses(without.asm["ptx"])

