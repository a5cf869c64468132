"""Shared test settings: hypothesis without deadlines (CI machines are slow and noisy), the
number of xdist workers (``-n auto``), the longest test files first (tests/_order.py), and the
games' numba kernels compiled once by the controller while the workers collect
(tests/_precompile.py)."""

import contextlib
import gc
import os
import shutil
import signal
import subprocess
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from tests import _order, _precompile

settings.register_profile(
    "parlour",
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile("parlour")


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """One worker more than the cores this process may run on: many tests wait on another
    process (a server, Chromium, a pseudo-terminal), so two workers left a 2-core machine a
    third idle; a test file still stays on one worker (``--dist loadfile``)."""
    return len(os.sched_getaffinity(0)) + 1


_compiling: subprocess.Popen[bytes] | None = None
_lock_dir: Path | None = None


@pytest.hookimpl(trylast=True)
def pytest_configure(config: pytest.Config) -> None:
    """On the controller of a run with xdist workers (after xdist's own configure, which
    registers its ``dsession`` only then): start compiling every game's kernels before the
    workers start; they inherit the lock's path and wait for it once they have collected
    (:func:`pytest_collection_finish`). Nothing happens with ``-n 0``: a test that needs a
    kernel compiles it, or loads it from numba's cache, as it always did."""
    global _compiling, _lock_dir
    if hasattr(config, "workerinput") or not config.pluginmanager.has_plugin("dsession"):
        return
    lock_dir = Path(tempfile.mkdtemp(prefix="parlour-precompile-"))
    lock = lock_dir / "lock"
    _compiling = _precompile.start(lock)
    if _compiling is None:  # compiled by an earlier run of the same sources
        shutil.rmtree(lock_dir, ignore_errors=True)
        return
    _lock_dir = lock_dir
    os.environ[_precompile.LOCK_ENV] = str(lock)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The longest test files first (tests/_order.py), so the run does not end on one."""
    items[:] = _order.longest_first(items)


def pytest_collection_finish(session: pytest.Session) -> None:
    """In a worker: run no test before the controller's compilation is over. Then what the
    collection left in memory (every test module, torch, numba, playwright: about 500,000
    objects) is set aside from the garbage collector (``gc.freeze``): it stays for the whole
    run, and each full collection in the tests would otherwise walk all of it again."""
    if hasattr(session.config, "workerinput"):
        _precompile.wait()
    gc.collect()
    gc.freeze()


def pytest_unconfigure(config: pytest.Config) -> None:
    """On the controller: stop a compilation still running (a run interrupted early) with the
    processes it started (its own process group), and remove the lock."""
    global _compiling, _lock_dir
    if _compiling is not None:
        if _compiling.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(_compiling.pid, signal.SIGKILL)
        _compiling.wait()
        _compiling = None
    os.environ.pop(_precompile.LOCK_ENV, None)
    if _lock_dir is not None:
        shutil.rmtree(_lock_dir, ignore_errors=True)
        _lock_dir = None
