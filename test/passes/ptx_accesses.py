"""What the compile tests read in PTX: its global memory accesses."""

import re


def global_accesses(ptx: str, kinds: str = "ld|st") -> list[str]:
    """The PTX's global loads and stores (`kinds`: `ld`, `st` or `ld|st`), sorted, each as
    its instruction with its qualifiers (`ld.global.v4.b32`, `st.global.b16`)."""
    return sorted(re.findall(rf"(?:{kinds})\.global[\w:.]*", ptx))
