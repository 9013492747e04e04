"""Differential test: `ttpipe-schedule-loops` against Triton's own pass.

For every corpus kernel and target, Triton's reprint of what ttpipe's pass makes of the IR
before `tritongpu-schedule-loops` (latencies already assigned) must equal Triton's reprint
of what its C++ pass makes of it.
"""

import pytest

pytest.importorskip("triton")

from corpus_diff import assert_matches_triton  # noqa: E402

from ttpipe.passes.pipeline.schedule_loops import ScheduleLoops  # noqa: E402


def test_matches_triton_on_corpus():
    from triton._C.libtriton import passes

    assert_matches_triton("tritongpu-schedule-loops", lambda case: ScheduleLoops(),
                          lambda case: passes.ttgpuir.add_schedule_loops)
