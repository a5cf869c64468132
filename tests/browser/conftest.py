"""Fixtures of the browser tests: Playwright and Debian's Chromium per package, a real ``parlour
serve`` per test module (a file runs on one xdist worker, ``--dist loadfile``).

Playwright and Chromium are package-scoped: the browser test files start before all others
(tests/_order.py), so a worker plays its share of them in one streak under one Chromium, each
test in contexts of its own, and closes it when its next file is outside this folder. They must
close then: Playwright's sync API keeps an event loop running, and the server tests that follow
call ``asyncio.run``."""

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
