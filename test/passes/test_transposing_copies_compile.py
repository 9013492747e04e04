"""`ttpipe-transposing-copies` through the plug-in and Triton's backend to sm_90a PTX (no GPU
needed): the bench's tf32 GEMM of a row-major B copies B's tile K-major for the wgmma each K
step, and with the pass writes it in 16-byte vectors (`st.shared.v4.b32`, 4 a thread) where the
registers as the load left them store each element alone (`st.shared.b32`, 16 a thread); its
copy has two slots, so the loop waits for all wgmma groups but the last
(`wgmma.wait_group 1`) where it waited for all (`wgmma.wait_group 0`)."""

import re
from collections import Counter

from plugin_compile import compile_sm90a

from ttpipe.bench.cases import CASES


def ptx(pipeline: str) -> str:
    """The tf32 GEMM's PTX through `pipeline`."""
    case = CASES["gemm-tf32-b-kn-4096"]
    return compile_sm90a(case.kernel, case.full_signature(), case.constexprs, case.options, pipeline,
                         case.aligned).asm["ptx"]


def shared_stores(text: str) -> Counter:
    return Counter(re.findall(r"st\.shared[\w.]*", text))


def test_the_k_major_copy_of_a_tf32_b_stores_16_bytes_a_thread_and_its_wgmma_stays_in_flight(triton_cache):
    with_pass, without = ptx("ttgir-sm90"), ptx("ttgir-sm90{transposing-copies=false}")
    assert "wgmma.wait_group.sync.aligned 1;" in with_pass and "wgmma.wait_group.sync.aligned 1;" not in without
    with_pass, without = shared_stores(with_pass), shared_stores(without)
    assert without["st.shared.b32"] == 16 and without["st.shared.v4.b32"] == 0
    assert with_pass["st.shared.b32"] == 0 and with_pass["st.shared.v4.b32"] == 4
    # the epilogue's staging of C for its TMA store is the same in both
    assert with_pass["st.shared.v2.b32"] == without["st.shared.v2.b32"] > 0
