"""Shared test settings: hypothesis without deadlines (CI machines are slow and noisy), and
the number of xdist workers (``-n auto``)."""

import os

import pytest
from hypothesis import HealthCheck, settings

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
