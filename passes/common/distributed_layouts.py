"""Linear layouts of distributed (register) encodings, and the orders read off them.

Follows Triton 3.6 `BlockedEncodingAttr::toLinearLayout` and `combineCtaCgaWithShape`
(`LinearLayoutConversions.cpp`), `orderPerDimImpl`, `LinearEncodingAttr::getOrder`/
`getThreadOrder`/`getElemsPerThread` and `getOrderForMemory` (`Dialect.cpp`). Only
single-CTA blocked encodings are handled; other encodings give None.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.ir import Attribute

from ttpipe.dialects.ttg_attrs import BlockedEncodingAttr, bases_per_dim, order_per_dim


def blocked_layout_bases(enc: BlockedEncodingAttr, shape: Sequence[int]) -> dict[str, list[list[int]]]:
    """The register/lane/warp bases of a single-CTA blocked layout over `shape`: each in-dim
    row-major over `order`, registers added until the layout covers `shape`, and values past
    `shape` zeroed (broadcast)."""
    rank = len(shape)
    bases: dict[str, list[list[int]]] = {}
    size = [1] * rank
    for in_dim, counts in (("register", enc.size_per_thread), ("lane", enc.threads_per_warp),
                           ("warp", enc.warps_per_cta)):
        bases[in_dim] = []
        for d in enc.order:
            value = size[d]
            while value < size[d] * counts[d]:
                bases[in_dim].append([value if i == d else 0 for i in range(rank)])
                value *= 2
            size[d] *= counts[d]
    for d in enc.order:
        while size[d] < shape[d]:
            bases["register"].append([size[d] if i == d else 0 for i in range(rank)])
            size[d] *= 2
    for in_bases in bases.values():
        for basis in in_bases:
            for d in range(rank):
                if basis[d] >= shape[d]:
                    basis[d] = 0
    return bases


def memory_order(enc: Attribute, shape: Sequence[int]) -> list[int] | None:
    """`getOrderForMemory`: the register order, unless the thread order differs and each
    thread holds one element along the thread order's fastest dim; None where not handled."""
    if not isinstance(enc, BlockedEncodingAttr) or not enc.cta_layout.is_default:
        return None
    rank = len(shape)
    bases = blocked_layout_bases(enc, shape)
    order = order_per_dim(bases["register"], range(rank - 1, -1, -1))
    thread_order = order_per_dim(bases["lane"], order)
    if order == thread_order:
        return list(order)
    elems_per_thread = bases_per_dim(bases["register"], rank, skip_broadcast=False)
    return list(thread_order if elems_per_thread[thread_order[0]] == 1 else order)
