"""Where the partitions of a warp-specialized kernel lie in its SASS."""


def producer_spans(lines: list[str]) -> list[tuple[int, int]]:
    """(start, end) line ranges of the producer partition in the SASS: from its
    `USETMAXREG.DEALLOC` (setmaxnreg.dec to the producer's budget) to the next
    `USETMAXREG.TRY_ALLOC` (the worker warps going back to the switch loop)."""
    spans, start = [], None
    for number, line in enumerate(lines):
        if "USETMAXREG.DEALLOC" in line:
            start = number
        elif "USETMAXREG.TRY_ALLOC" in line and start is not None:
            spans.append((start, number))
            start = None
    return spans
