"""What the Hopper GPU tests need: torch, Triton and an sm_90a (H100) GPU."""

import importlib.util
import json
import queue
import subprocess
import threading

import pytest


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


CASE_TIMEOUT_S = 180
"""The watchdog: seconds a child may go without starting or finishing a case (a compile
through the plug-in and a launch take a few; a protocol bug that hangs the GPU, forever)."""


def run_cases(command: list[str], quiet_seconds: float = CASE_TIMEOUT_S) -> list[dict]:
    """Run a GPU test's child (`command`), which prints one JSON line `{"started": case}` before
    each case and one with `"case"` after it; a child silent for `quiet_seconds` is killed and
    the test fails as a hang naming the case it started last. Returns the finished cases'
    results, in order, after asserting the child exited cleanly."""
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    lines: queue.Queue = queue.Queue()
    errors: list[str] = []
    threading.Thread(target=lambda: [*map(lines.put, process.stdout), lines.put(None)], daemon=True).start()
    reader = threading.Thread(target=lambda: errors.append(process.stderr.read()), daemon=True)
    reader.start()
    out: list[str] = []
    hung = False
    while True:
        try:
            line = lines.get(timeout=quiet_seconds)
        except queue.Empty:
            hung = True
            process.kill()
            break
        if line is None:
            break
        out.append(line)
    process.wait()
    reader.join()
    err = "".join(errors)
    started = [json.loads(line)["started"] for line in out if '"started"' in line]
    last = started[-1] if started else "none"
    if hung:
        pytest.fail(f"hang: nothing for {quiet_seconds} s (watchdog); last case started: {last}\n{err[-2000:]}")
    assert process.returncode == 0, f"last case started: {last}\n{err[-4000:]}"
    return [json.loads(line) for line in out if '"case"' in line]
