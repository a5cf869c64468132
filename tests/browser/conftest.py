"""Fixtures of the browser tests: Playwright and Debian's Chromium per package, a real ``parlour
serve`` per test module (a file runs on one xdist worker, ``--dist loadfile``).

Chromium is package-scoped: a worker that runs browser files one after another keeps one
Chromium for them (each test still in contexts of its own) and closes it when its next file is
outside this folder. It must close then: Playwright's sync API keeps an event loop running, and
the server tests call ``asyncio.run``. (Starting every browser file first, so that each worker
runs them in one streak, was tried: three Chromiums side by side cost more processor time than
the launches they saved.)"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser

from tests.browser.browser import chromium
from tests.server.client import ServerProcess, running_server


@pytest.fixture(scope="package")
def browser() -> Iterator[Browser]:
    with chromium() as launched:
        yield launched


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    with running_server(tmp_path_factory.mktemp("browser") / "rooms.db") as process:
        yield process
