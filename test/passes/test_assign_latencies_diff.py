"""Differential test: `ttpipe-assign-latencies` against Triton's own pass.

For every corpus kernel and target, Triton's reprint of what ttpipe's pass makes of the IR
before `tritongpu-assign-latencies` must equal Triton's reprint of what its C++ pass makes
of it, with the `num-stages` the kernel was compiled with.
"""

import pytest

pytest.importorskip("triton")

from corpus_diff import assert_matches_triton  # noqa: E402

from ttpipe.passes.pipeline.assign_latencies import AssignLatencies  # noqa: E402


def test_matches_triton_on_corpus():
    from triton._C.libtriton import passes

    assert_matches_triton(
        "tritongpu-assign-latencies",
        lambda case: AssignLatencies(num_stages=case.option("num-stages")),
        lambda case: lambda manager: passes.ttgpuir.add_assign_latencies(manager, case.option("num-stages")))
