"""`ttpipe-warp-specialize`'s attention path through `ttgir-sm90` (`warp-specialize=auto`, its
default) and, where a test reads the SASS or Triton's shared-memory total, Triton's backend
to sm_90a cubins (no GPU needed; `ws_inputs` runs each input once per session).

Inputs (`test/lit/warp-specialize/Inputs/`, the TTIR Triton 3.6 makes of kernels of ours):
`attention_causal.ttir`, the bench's `attention_fwd` (host TMA descriptors, causal, D = 128,
128x64 blocks) at num_warps=8; `attention.ttir`, the same kernel not causal (D = 64, 128x128
blocks); `attention_two_loops.ttir`, the causal kernel in two loops as Triton's tutorial
writes it (`attention_fwd_two_loops`, D = 128, 128x128 blocks); `attention_pointers.ttir`, attention as users write it
(pointer loads with masks, a masked store of O and of the log-sum-exp, causal, D = 128,
128x64 blocks, fp16) at num_warps=8, `attention_pointers_d64.ttir`, the same at D = 64
(64-key blocks: too little wgmma work per block for `mode=auto`), and
`attention_pointers_n128.ttir`, the same not causal at 128x128 blocks and D = 128, and
`attention_pointers_n128_f32_out.ttir` storing O in fp32; `matmul_pointers.ttir`, the bench's non-persistent pointer GEMM (its K loop
only yields its wgmma: not attention-shaped, so it keeps the GEMM path).
"""

import re

import pytest
from sass_partitions import producer_spans
from ws_inputs import compiled, specialized

from ttpipe.passes.common.hardware import SM90_MAX_SHARED_MEMORY_PER_BLOCK

EIGHT_WARPS = "num-warps=8"
"""The pipeline's defaults (`warp-specialize=auto`) at num_warps=8: two consumer warpgroups."""


@pytest.fixture(scope="module")
def causal():
    return compiled("attention_causal.ttir", EIGHT_WARPS)


def test_attention_has_a_producer_and_two_consumer_warpgroups(causal):
    ttgir = causal.asm["ttgir"]
    assert ttgir.count("ttg.warp_specialize(") == 1
    assert "requestedRegisters = array<i32: 232, 40>" in ttgir
    assert '"ttg.num-warps" = 4' in ttgir and causal.metadata["num_warps"] == 12
    # Q once and K, V per key block: TMA copies, all in the producer (the last partition).
    producer = ttgir[ttgir.rindex("partition1("):]
    assert producer.count("ttng.async_tma_copy_global_to_local") == 3
    assert "ttng.warp_group_dot " not in producer


def test_attention_consumers_overlap_the_softmax_with_the_next_wgmmas(causal):
    """Each consumer's rotated loop issues S = Q K^T and O += P V back to back, waits for
    S only (pendings = 1), runs the softmax, then waits for O (pendings = 0) and releases
    the stage; the prologue and the last update wait at once (in each version of the
    consumer: the row max before the scale, and as written)."""
    ttgir = causal.asm["ttgir"]
    consumers = [ttgir[ttgir.index("default {"):ttgir.index("partition0(")],
                 ttgir[ttgir.index("partition0("):ttgir.index("partition1(")]]
    for consumer in consumers:
        loop = rotated_loop(consumer)
        waits = re.findall(r"warp_group_dot_wait .*pendings = (\d)", loop)
        assert waits == ["1", "0"]
        assert loop.count("ttng.warp_group_dot ") == 2
        first_wait = loop.index("warp_group_dot_wait")
        assert loop.rindex("ttng.warp_group_dot ", 0, first_wait) > loop.index("ttng.warp_group_dot ")
        assert "ttng.arrive_barrier" in loop[loop.rindex("warp_group_dot_wait"):]
        assert re.findall(r"warp_group_dot_wait .*pendings = (\d)", consumer) == ["0", "1", "0", "0"] * 2


def test_causal_mask_only_where_it_is_not_all_true(causal):
    """The softmax runs under `scf.if (the mask is all true)`: without the causal select below
    the diagonal (the then-branch), with it on the diagonal blocks (else)."""
    ttgir = causal.asm["ttgir"]
    loop = rotated_loop(ttgir[ttgir.index("default {"):ttgir.index("partition0(")])
    branches = loop[loop.index("scf.if"):]
    then, otherwise = branches[:branches.index("} else {")], branches[branches.index("} else {"):]
    tile_select = re.compile(r"arith\.select .*tensor<64x64xi1")
    assert not tile_select.search(then) and tile_select.search(otherwise)
    assert "tt.reduce" in then and "tt.reduce" in otherwise


def rotated_loop(region: str) -> str:
    """The text of the first `scf.for` of a region, up to its closing attributes."""
    loop = region[region.index("scf.for"):]
    return loop[:loop.index("{tt.num_stages = 0 : i32}")]


def test_attention_sass_wgmma_only_in_the_consumers(causal):
    lines = causal.sass().splitlines()
    assert sum("USETMAXREG.DEALLOC.CTAPOOL 0x28" in line for line in lines) >= 1  # the producer's 40
    assert any(re.search(r"USETMAXREG\.TRY_ALLOC\.CTAPOOL UP\d, 0xe8", line) for line in lines)  # a consumer's 232
    tma = [n for n, line in enumerate(lines) if "UTMALDG" in line]
    hgmma = [n for n, line in enumerate(lines) if "HGMMA" in line]
    assert tma and hgmma and not any("LDL" in line or "STL" in line for line in lines)  # no spills
    producer = [(start, end) for start, end in producer_spans(lines) if "0x28" in lines[start]]  # 40 registers
    assert producer and all(any(s < n < e for s, e in producer) for n in tma)
    assert not any(s < n < e for s, e in producer for n in hgmma)


def test_pointer_attention_loads_become_tma_loads_of_device_descriptors():
    ttgir = specialized("attention_pointers.ttir", EIGHT_WARPS).ttgir
    assert ttgir.count("ttg.warp_specialize(") == 1
    assert "ttng.tensormap_create" in ttgir and "tt.load " not in ttgir
    # The masked stores of O and of the log-sum-exp: each warpgroup stores its 64 rows, in
    # each version of its program (the row max before the scale, and as written).
    assert len(re.findall(r"tt\.store .*tensor<64x128x!tt\.ptr<f16>", ttgir)) == 2 * 2
    assert len(re.findall(r"tt\.store .*tensor<64x!tt\.ptr<f32>", ttgir)) == 2 * 2


def test_pointer_store_conversion_goes_through_the_q_buffer():
    """Pointer stores of O take a `ttg.convert_layout` to a coalesced layout, whose shared
    scratch Triton would allocate beside the ring (at 128x128 blocks and D = 128 the 3-stage
    ring, Q and that scratch need 245840 bytes, over sm_90a's 227 KB): each warpgroup
    converts its rows through its rows of the Q buffer instead, and the ring stays 3 deep."""
    kernel = compiled("attention_pointers_n128.ttir", EIGHT_WARPS)
    ttgir = kernel.asm["ttgir"]
    assert ttgir.count("ttg.warp_specialize(") == 1
    assert "ttg.local_alloc : () -> !ttg.memdesc<3x128x128xf16" in ttgir
    assert kernel.metadata["shared"] <= SM90_MAX_SHARED_MEMORY_PER_BLOCK
    assert not re.search(r"convert_layout .*tensor<64x128xf16, #mma> -> tensor<64x128xf16, #blocked", ttgir)
    assert len(re.findall(r"ttg\.local_load .* -> tensor<64x128xf16, #blocked", ttgir)) == 2 * 2  # two versions


def test_layout_conversion_scratch_counts_in_the_ring_depth():
    """The same kernel storing O in fp32: its conversion (64 KB) cannot go through the fp16
    Q buffer, so Triton's scratch for it counts beside the ring, which is 2 stages deep (3
    would need 294992 bytes)."""
    kernel = compiled("attention_pointers_n128_f32_out.ttir", EIGHT_WARPS)
    assert "ttg.local_alloc : () -> !ttg.memdesc<2x128x128xf16" in kernel.asm["ttgir"]
    assert kernel.metadata["shared"] <= SM90_MAX_SHARED_MEMORY_PER_BLOCK
    found = specialized("attention_pointers_n128_f32_out.ttir", EIGHT_WARPS).remarks
    assert any(d.message.startswith("ring of 2 stages, not 3: 3 stages of 65536 bytes") and "295496 bytes" in d.message
               for d in found)


def test_pingpong_turns_around_the_wgmmas_each_consumer_issues():
    ttgir = specialized("attention_causal.ttir", f"{EIGHT_WARPS} warp-specialize-consumers=pingpong").ttgir
    default = ttgir[ttgir.index("default {"):ttgir.index("partition0(")]
    loop = rotated_loop(default)
    # The turn is waited before S = Q K^T and passed after O += P V is issued.
    turn_wait = loop.index("ttng.wait_barrier", loop.index("ttng.wait_barrier") + 1)
    dots = [m.start() for m in re.finditer(r"ttng\.warp_group_dot ", loop)]
    turn_pass = loop.index("ttng.arrive_barrier")
    assert turn_wait < dots[0] < dots[1] < turn_pass < loop.index("warp_group_dot_wait")


def test_one_consumer_warpgroup_is_not_specialized_in_auto_mode():
    found = specialized("attention_causal.ttir", "num-warps=4").remarks
    assert any("one consumer warpgroup (num_warps=4) does not pay" in d.message for d in found)


def test_auto_mode_declines_small_key_blocks():
    found = specialized("attention_pointers_d64.ttir", EIGHT_WARPS).remarks
    assert any("64-key block at head dimension 64 gives each warpgroup too little wgmma work" in d.message
               for d in found)


def test_pointer_gemm_keeps_the_gemm_path():
    """Its K loop computes addresses on tensors but reads its wgmma only as an accumulator:
    warp-specialized as a GEMM (one wait per K step), not refused as a malformed attention."""
    ttgir = specialized("matmul_pointers.ttir", EIGHT_WARPS).ttgir
    assert ttgir.count("ttg.warp_specialize(") == 1
    assert "scf.if" not in ttgir


def test_causal_programs_launch_heaviest_first(causal):
    """The causal key loop ends at the query block's diagonal, so the query blocks run in
    reverse order (the longest first); a kernel whose trip count does not grow with the
    program keeps its order."""
    assert "tt.get_num_programs x" in causal.asm["ttgir"]
    plain = specialized("attention.ttir", EIGHT_WARPS).ttgir
    assert "ttg.warp_specialize(" in plain and "tt.get_num_programs" not in plain


def test_two_key_loops_share_one_ring():
    """The loop below the diagonal and the diagonal loop: the producer runs both copies in
    turn, then each consumer, its ring state carried from one to the next; the first loop's
    last stage is released after its last update, for the second."""
    ttgir = specialized("attention_two_loops.ttir", EIGHT_WARPS).ttgir
    assert ttgir.count("ttg.warp_specialize(") == 1 and ttgir.count("ttg.local_alloc : () -> !ttg.memdesc<3x128x128") == 2
    producer = ttgir[ttgir.rindex("partition1("):]
    assert producer.count("scf.for") == 2 and producer.count("ttng.async_tma_copy_global_to_local") == 5
    default = ttgir[ttgir.index("default {"):ttgir.index("partition0(")]
    # One rotated loop per key loop under its own scf.if, in each of the two versions (the
    # first loop's row max of scaled scores taken before the scale, and as written); the
    # diagonal loop's (one 128-key block: its prologue and last update only) folds away.
    assert default.count("scf.for") == 2 and len(re.findall(r"= scf\.if %\S+ -> \(tensor<64xf32", default)) >= 4
    first_epilogue = default[default.index("} {tt.num_stages = 0 : i32}"):]
    first_epilogue = first_epilogue[:first_epilogue.index("scf.yield")]
    assert "ttng.arrive_barrier" in first_epilogue  # the first loop's last stage released
    assert "tt.get_num_programs x" in ttgir  # the diagonal's position grows with the program: heaviest first


def test_query_rows_in_registers_where_they_fit(causal):
    """At D = 64 (`attention.ttir`) each consumer loads its 64 rows of Q into registers once
    per version of its program (the row max before the scale or as written), before its loop
    (16 registers a thread), and every S = Q K^T wgmma takes them from there; at D = 128 (32
    registers a thread) the wgmmas read Q from shared memory."""
    ttgir = specialized("attention.ttir", EIGHT_WARPS).ttgir
    consumers = [ttgir[ttgir.index("default {"):ttgir.index("partition0(")],
                 ttgir[ttgir.index("partition0("):ttgir.index("partition1(")]]
    for consumer in consumers:
        loads = re.findall(r"ttg\.local_load .*-> tensor<64x64xbf16, #ttg\.dot_op<\{opIdx = 0", consumer)
        assert len(loads) == 2 and consumer.index(loads[0]) < consumer.index("scf.for")
        scores = [line for line in consumer.splitlines() if "ttng.warp_group_dot " in line and "x64xbf16, #ttg" in line
                  and "-> tensor<64x128xf32" in line]
        assert scores and all(": tensor<64x64xbf16, #ttg.dot_op" in line for line in scores)
    d128 = causal.asm["ttgir"]
    assert not re.search(r"ttg\.local_load .*-> tensor<64x128xbf16, #ttg\.dot_op<\{opIdx = 0, parent = #mma,", d128)
    assert re.search(r"ttng\.warp_group_dot %\S+, %\S+, %\S+ \{[^}]*\} : !ttg\.memdesc<64x128xbf16", d128)


def test_row_max_before_the_scale_in_a_version_of_its_own(causal):
    """`attention.ttir` takes the row max of `S * qk_scale` (a run-time float): each consumer
    runs in two versions under `scf.if (qk_scale > 0 and qk_scale < inf)`; in the first the
    max reduces S itself and the row vector is scaled after it, in the second the scaled
    tile, as written. The causal kernel's max reads the causal select of the scaled scores
    against -inf: two versions as well, the first reducing a select of S itself on the same
    mask (`test_causal_row_max_through_the_mask`)."""
    ttgir = specialized("attention.ttir", EIGHT_WARPS).ttgir
    consumers = [ttgir[ttgir.index("default {"):ttgir.index("partition0(")],
                 ttgir[ttgir.index("partition0("):ttgir.index("partition1(")]]
    for consumer in consumers:
        assert re.search(r"arith\.cmpf ogt, %\S+, %\S+ : f32", consumer)
        assert re.search(r"arith\.cmpf olt, %\S+, %\S+ : f32", consumer)
        first, second = consumer.split("} else {", 1)[0], consumer.split("} else {", 1)[1]
        waits = re.findall(r"(%\S+) = ttng\.warp_group_dot_wait %\S+ \{pendings = 0 : i32\} : tensor<64x128xf32", first)
        reduced = re.findall(r'= "tt\.reduce"\((%\S+)\) <\{axis = 1 : i32\}>', first)
        assert waits and reduced[0] in waits  # the max of S itself
        assert re.search(r"tt\.splat %\S+ : f32 -> tensor<64xf32", first)
        scaled = re.findall(r"(%\S+) = arith\.mulf %\S+, %\S+ : tensor<64x128xf32", second)
        assert re.findall(r'= "tt\.reduce"\((%\S+)\) <\{axis = 1 : i32\}>', second)[0] in scaled
    assert "arith.cmpf ogt" in causal.asm["ttgir"]


def test_causal_row_max_through_the_mask(causal):
    """A causal max, `max(where(causal, S * qk_scale, -inf))`: in the version for qk_scale in
    (0, inf), the diagonal blocks reduce `select(causal, S, -inf)` and the blocks below it S
    itself, each row max scaled after (another fill than -inf keeps the max as written: the
    lit test `warp-specialize/attention.mlir`)."""
    ttgir = causal.asm["ttgir"]
    consumer = ttgir[ttgir.index("default {"):ttgir.index("partition0(")]
    first = consumer.split("\n      } else {", 1)[0]  # the version's else, not the mask's
    assert re.search(r"arith\.cmpf ogt, %\S+, %\S+ : f32", consumer)
    waits = set(re.findall(r"(%\S+) = ttng\.warp_group_dot_wait %\S+ \{pendings = [01] : i32\} : tensor<64x64xf32", first))
    selects = dict(re.findall(r"(%\S+) = arith\.select %\S+, (%\S+), %\S+ : tensor<64x64xi1", first))
    reduced = re.findall(r'= "tt\.reduce"\((%\S+)\) <\{axis = 1 : i32\}>', first)
    maxes = [value for value in reduced if value in waits or value in selects]
    assert any(value in waits for value in maxes)  # below the diagonal: S
    assert any(selects.get(value) in waits for value in maxes)  # on the diagonal: select(causal, S, -inf)
