"""Differential test: `ttpipe-optimize-dot-operands` against Triton's own pass.

For every corpus kernel and both runs of `tritongpu-optimize-dot-operands` in make_ttgir
(after accelerate-matmul, and late), Triton's reprint of ttpipe's output must equal
Triton's reprint of what its C++ pass makes of the same input.
"""

import pytest

pytest.importorskip("triton")

from corpus_diff import assert_matches_triton  # noqa: E402

from ttpipe.passes.optimize_dot_operands import OptimizeDotOperands  # noqa: E402


def test_matches_triton_on_corpus():
    from triton._C.libtriton import passes

    assert_matches_triton("tritongpu-optimize-dot-operands", lambda case: OptimizeDotOperands(),
                          lambda case: lambda manager: passes.ttgpuir.add_optimize_dot_operands(manager, True))
