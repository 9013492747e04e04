"""The options that leave a named pipeline `make_ttgir` with ttpipe's ports, pass for pass:
every addition of ttpipe's own on its target turned off (`GENERATIONS`, and on sm_90 the
warp specialization that takes the place of Triton's)."""

from ttpipe.triton.pipelines import CAPABILITIES, GENERATIONS


def _additions_off(name: str) -> str:
    generation = CAPABILITIES[name] // 10
    off = ["warp-specialize"] * (generation == 9) + [option for option, generations in GENERATIONS.items()
                                                       if generation in generations]
    return "".join(f"{option}=false " for option in off)


ADDITIONS_OFF = {name: _additions_off(name) for name in CAPABILITIES}
"""Named pipeline -> its additions turned off, each option followed by a space."""
