"""What the Hopper GPU tests need: torch, Triton and an sm_90a (H100) GPU."""

import importlib.util


def why_not() -> str | None:
    """None where the tests can run, else why they skip (naming the sm they need)."""
    if importlib.util.find_spec("torch") is None or importlib.util.find_spec("triton") is None:
        return "needs torch, triton and an NVIDIA sm_90a (H100) GPU"
    import torch

    if not torch.cuda.is_available():
        return "needs an NVIDIA sm_90a (H100) GPU: torch.cuda.is_available() is false"
    if torch.cuda.get_device_capability() != (9, 0):
        major, minor = torch.cuda.get_device_capability()
        return f"needs an sm_90a (H100) GPU, not sm_{major}{minor}"
    return None
