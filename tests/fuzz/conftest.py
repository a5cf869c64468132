"""The fuzzing suite's settings and its count of inputs tried.

``make test`` runs it under the shared profile "parlour" (tests/conftest.py): hypothesis's usual
100 examples a property, bounded so the whole suite stays well under a minute. ``make fuzz``
sets ``HYPOTHESIS_PROFILE=fuzz``: the profile registered here, with many more examples a
property, loaded over "parlour". Every input tried is counted by kind (:func:`count`) and the
counts are printed at the end of the run and written to ``.pytest_cache/fuzz-counts.json`` (or
the file named by ``FUZZ_COUNTS``), so the note can report how many inputs of each kind were
tried.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from tests.fuzz.harness import COUNTS

settings.register_profile(
    "fuzz",
    max_examples=int(os.environ.get("FUZZ_EXAMPLES", "2000")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
if os.environ.get("HYPOTHESIS_PROFILE") == "fuzz":
    settings.load_profile("fuzz")


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if not COUNTS:
        return
    total = sum(COUNTS.values())
    terminalreporter.write_sep("=", f"fuzzing: {total} inputs tried")
    for kind, n in sorted(COUNTS.items()):
        terminalreporter.write_line(f"{n:>9}  {kind}")
    target = Path(os.environ.get("FUZZ_COUNTS", ".pytest_cache/fuzz-counts.json"))
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(json.dumps(dict(sorted(COUNTS.items())), indent=1) + "\n")
    except OSError as err:
        terminalreporter.write_line(f"cannot write {target}: {err.strerror}")
