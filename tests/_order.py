"""The order in which the test files start: the longest first, so that the run does not end
on one worker still playing a whole browser game while the others wait (longest processing
time first, the classic rule for spreading jobs over machines).

xdist hands out whole files (``--dist loadfile``) in collection order (the ``addopts`` in
pyproject.toml turn off its own reordering, which starts the files with the most tests first and
so left the few-test, long files, a whole game in Chromium or a training run, for the end).
:data:`SECONDS` holds what each long file took in a full run on a 2-core machine (the sum of its
tests' times); a file not listed counts a tenth of a second a test. Refresh the table after a
run with ``--junitxml=FILE``: ``python -m tests._order FILE``.
"""

from __future__ import annotations

import sys
import xml.etree.ElementTree as ET
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

SECONDS: dict[str, float] = {
    "tests/adapters/test_training.py": 64,
    "tests/lab/test_failures.py": 49,
    "tests/browser/test_death.py": 48,
    "tests/lab/test_run.py": 46,
    "tests/fuzz/test_hostile_commands.py": 45,
    "tests/server/test_leaks.py": 38,
    "tests/games/beor/test_kernel.py": 38,
    "tests/browser/test_beggar.py": 37,
    "examples/crazy_eights/tests/test_c8_browser.py": 36,
    "tests/server/test_bot_fairness.py": 35,
    "tests/adapters/test_openspiel.py": 34,
    "tests/games/beggar/test_search_dask.py": 32,
    "tests/server/test_data_safety.py": 32,
    "tests/games/beggar/test_fast.py": 31,
    "tests/fuzz/test_library_fuzz.py": 29,
    "tests/browser/test_lab_report.py": 29,
    "tests/lab/test_compare.py": 27,
    "tests/games/beor/test_properties.py": 27,
    "tests/browser/test_piles.py": 27,
    "tests/server/test_reviews.py": 26,
    "tests/fuzz/test_cli_fuzz.py": 26,
    "tests/play/test_pty.py": 25,
    "tests/browser/test_beor.py": 25,
    "tests/lab/test_engines.py": 25,
    "tests/server/test_kill.py": 25,
    "tests/games/death/test_death_properties.py": 25,
    "tests/browser/test_replay.py": 24,
    "tests/play/test_languages.py": 24,
    "tests/adapters/test_selfplay.py": 24,
    "tests/play/test_screens.py": 23,
    "tests/games/beggar/test_differential.py": 22,
    "tests/lab/test_plan.py": 22,
    "tests/play/test_layout.py": 22,
    "tests/browser/test_lobby.py": 22,
    "tests/browser/test_death_phone.py": 21,
    "tests/server/test_protocol.py": 20,
    "tests/browser/test_phone.py": 20,
    "tests/play/test_pty_table.py": 20,
    "tests/conformance/test_serialisation.py": 19,
    "tests/browser/test_replay_review.py": 18,
    "tests/games/beor/test_kernel_rows.py": 18,
    "tests/browser/test_give.py": 18,
    "tests/test_schemas.py": 18,
    "tests/browser/test_table.py": 18,
    "tests/server/test_fuzz.py": 17,
    "tests/conformance/test_leaks.py": 17,
    "tests/games/death/test_playout.py": 16,
    "tests/test_architecture.py": 16,
    "tests/browser/test_match.py": 16,
    "tests/browser/test_end_motion.py": 15,
    "tests/server/test_workers.py": 15,
    "tests/browser/test_beor_direct.py": 14,
    "tests/adapters/test_pettingzoo.py": 13,
    "tests/fuzz/test_files_fuzz.py": 13,
    "tests/server/test_sockets_caps.py": 12,
    "tests/browser/test_plain.py": 12,
    "tests/conformance/test_legality.py": 12,
    "tests/server/test_play.py": 11,
    "tests/browser/test_clock.py": 11,
    "tests/games/death/test_codec_and_json.py": 10,
    "tests/lab/test_positions.py": 10,
    "tests/test_cli.py": 10,
    "tests/browser/test_my_rooms.py": 10,
    "tests/server/test_stopping.py": 10,
    "tests/adapters/test_info_state.py": 9,
    "tests/core/test_fairness.py": 9,
    "tests/server/test_limits.py": 9,
    "tests/conformance/test_sample.py": 9,
    "tests/server/test_memory.py": 9,
    "tests/server/test_pages.py": 9,
    "tests/server/test_takeover.py": 9,
    "tests/browser/test_pwa.py": 8,
    "tests/cli/test_review.py": 8,
    "tests/play/test_languages_table.py": 8,
    "examples/crazy_eights/tests/test_c8_faces.py": 8,
}
"""Seconds a full run spent in each long test file (``python -m tests._order`` on its JUnit XML)."""

PER_TEST = 0.1
"""Seconds counted for each test of a file :data:`SECONDS` does not list."""


def file_of(nodeid: str) -> str:
    return nodeid.split("::", 1)[0]


def longest_first(items: Sequence[pytest.Item]) -> list[pytest.Item]:
    """``items`` with their files in decreasing expected time, each file's tests in the order
    collected (a file stays together, as ``--dist loadfile`` runs it)."""
    count = Counter(file_of(item.nodeid) for item in items)
    first_seen: dict[str, int] = {}
    for index, item in enumerate(items):
        first_seen.setdefault(file_of(item.nodeid), index)

    def key(item: pytest.Item) -> tuple[float, int]:
        name = file_of(item.nodeid)
        return (-SECONDS.get(name, PER_TEST * count[name]), first_seen[name])

    return sorted(items, key=key)


def measured(junit: Path, at_least: float = 8.0) -> dict[str, float]:
    """Seconds per test file in a JUnit XML report, files of ``at_least`` seconds."""
    seconds: dict[str, float] = {}
    for case in ET.parse(junit).iter("testcase"):
        parts = (case.get("classname") or "").split(".")
        for end in range(len(parts), 0, -1):
            path = "/".join(parts[:end]) + ".py"
            if (ROOT / path).is_file():
                seconds[path] = seconds.get(path, 0.0) + float(case.get("time") or 0.0)
                break
    ranked = sorted(seconds.items(), key=lambda pair: -pair[1])
    return {name: round(s) for name, s in ranked if s >= at_least}


if __name__ == "__main__":
    for name, s in measured(Path(sys.argv[1])).items():
        print(f'    "{name}": {s:g},')
