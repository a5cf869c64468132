"""Fixtures of the browser tests: Playwright, Debian's Chromium and a real ``parlour serve``
per test module (module scope: a file runs on one xdist worker, ``--dist loadfile``)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Playwright, sync_playwright

from tests.browser.browser import launch
from tests.server.client import ServerProcess, running_server


@pytest.fixture(scope="module")
def pw() -> Iterator[Playwright]:
    # Module scope: the sync API runs an event loop of its own, which is stopped before the
    # next module (the server tests use asyncio.run in the same worker).
    with sync_playwright() as playwright:
        yield playwright


@pytest.fixture(scope="module")
def browser(pw: Playwright) -> Iterator[Browser]:
    chromium = launch(pw)
    try:
        yield chromium
    finally:
        chromium.close()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    with running_server(tmp_path_factory.mktemp("browser") / "rooms.db") as process:
        yield process
