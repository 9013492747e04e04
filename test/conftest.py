"""Checks over the whole test session: the registries of passes, runners and schedulers end
the session as they began it (a test registers inside `ttpipe.pipeline.registry.scoped()`
or `ttpipe.passes.pipeline.schedulers.scoped_schedulers()`). Fixtures several test files
share: `triton_cache`."""

from __future__ import annotations

import pytest

import ttpipe.triton  # noqa: F401  registers Triton's passes, pipelines and runner before the snapshot
from ttpipe.pipeline import registry

try:
    from ttpipe.passes.pipeline import schedule_loops, schedulers  # noqa: F401  registers `default` and `loads-first`
except ImportError:  # a pass module that does not import fails its own tests, not every test
    schedulers = None


def _registered():
    return registry.snapshot(), schedulers.scheduler_snapshot() if schedulers is not None else None


@pytest.fixture(scope="session", autouse=True)
def registries_as_found():
    before = _registered()
    yield
    assert _registered() == before, ("a test left a pass, runner or scheduler registered: register inside "
                                     "registry.scoped() or schedulers.scoped_schedulers()")


@pytest.fixture(scope="module")
def triton_cache(tmp_path_factory):
    """`triton.compile` in a fresh cache for the module's tests, so that it compiles rather
    than finds a cubin."""
    from triton import knobs

    with knobs.cache.scope():
        knobs.cache.dir = str(tmp_path_factory.mktemp("triton-cache"))
        yield


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist reads the groups
def pytest_collection_modifyitems(items):
    """The tests that need the GPU form one xdist group: run in parallel (`pytest -n auto
    --dist loadgroup`), one worker runs them one after another (one GPU, and their watchdogs
    time each kernel as if it had the device alone)."""
    for item in items:
        if item.get_closest_marker("gpu") is not None:
            item.add_marker(pytest.mark.xdist_group("gpu"))
