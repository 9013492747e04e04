"""`ttpipe-reverse-rereads` through `ttgir-sm90` and Triton's backend to an sm_90a cubin (no
GPU needed). Input: `test/lit/reverse-rereads/Inputs/layernorm_looped.ttir`, the TTIR
Triton 3.6 makes of the bench's `layernorm_looped` (N specialized as a multiple of 16,
chunks of 2048 bf16)."""

import pathlib
import re

from ptx_accesses import global_accesses

from ttpipe import compile as ttpipe_compile

INPUT = pathlib.Path(__file__).parents[1] / "lit" / "reverse-rereads" / "Inputs" / "layernorm_looped.ttir"


def test_the_output_loop_runs_backwards_at_the_same_vector_width():
    # the reversal alone (ttpipe-row-head-cache, which reverses the loops it caches, left out)
    backwards = ttpipe_compile.compile_file(str(INPUT), "sm_90a", pipeline="ttgir-sm90{row-ring=false row-head-cache=false}",
                                            num_warps=8)
    forwards = ttpipe_compile.compile_file(str(INPUT), "sm_90a",
                                           pipeline="ttgir-sm90{row-ring=false row-head-cache=false reverse-rereads=false}",
                                           num_warps=8)
    # the statistics loop, then the output loop three times: with ttpipe-l2-eviction's hints
    # where the rows of an SM outgrow L1 (2 chunks of 4 KB a row at 8 CTAs per SM), within
    # that backwards where the rows in flight outgrow L2 (more than 12 chunks), and as written
    # (no hints) where L1 holds the rows
    loops = backwards.asm["ttgir"].split("scf.for")
    assert len(loops) == 5 and "scf.if" in loops[1]
    assert re.search(r"arith\.cmpi sge, %\w+, %c1_i32 : i32", loops[1])
    assert re.search(r"arith\.cmpi sge, %\w+, %c12_i32 : i32", loops[1])
    # the long rows' loop starts from the last chunk: last - (iv - 0), last = (N - 1) / 2048 * 2048
    assert re.search(r"arith\.subi %\w+, %arg7 : i32", loops[2])
    assert not any(re.search(r"arith\.subi %\w+, %arg7 : i32", loop) for loop in loops[3:])
    assert "evict_first" in loops[2] and "evict_first" in loops[3] and "evict_first" not in loops[4]
    assert "scf.if" not in forwards.asm["ttgir"]
    # the addresses keep the divisibility axis info gives them: 16-byte accesses, as forwards
    # (the output loop's three loads and its store twice more, in the other versions)
    accesses, written = global_accesses(backwards.asm["ptx"]), global_accesses(forwards.asm["ptx"])
    assert len(written) == 5 and set(written) <= set(accesses) and len(accesses) == 13
    assert all(".v4." in access for access in accesses)
