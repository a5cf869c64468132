"""Each terminal test runs in its own folder: a game whose input ends is saved to the working
directory (never lost), and those files must not land in the checkout."""

from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def _own_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
