"""An abandoned room in Chromium (issue 27.4): a room nobody came back to for longer than
``--abandon-days`` is ended by the server when it starts; whoever opens it later, a seat or a
spectator, reads that it was abandoned (no end screen of a finished deal, no moves), and "My
rooms" says so too."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext

from tests.browser.browser import new_context, wait_js
from tests.server.client import ServerProcess, running_server
from tests.server.test_retention import _aged, server


@pytest.fixture
def context(browser: Browser) -> Iterator[BrowserContext]:
    ctx = new_context(browser)
    try:
        yield ctx
    finally:
        ctx.close()


@pytest.fixture(scope="module")
def old(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """A server started on a database whose room ``idle`` (two persons, three moves) was last
    played ten days ago."""
    db = str(tmp_path_factory.mktemp("abandoned") / "rooms.db")

    async def prepare() -> None:
        async with server(db) as s:
            await s.play(await s.make("idle"), moves=3)
        await _aged(db, {"idle": 10})

    with ThreadPoolExecutor(1) as pool:  # away from Playwright's own event loop
        pool.submit(asyncio.run, prepare()).result()
    assert Path(db).exists()
    with running_server(db, "--abandon-days", "7") as process:
        yield process


def test_whoever_opens_an_abandoned_room_reads_that_it_was_abandoned(
    context: BrowserContext, old: ServerProcess
) -> None:
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    page.goto(f"{old.url}/r/idle")
    shown = "() => !!document.querySelector('#end[data-outcome=\"abandoned\"]')?.offsetParent"
    try:
        wait_js(page, shown, None, "the abandoned room's note")
    except AssertionError as err:  # what the page said it failed on, if anything
        raise AssertionError(f"{err}; page errors: {errors}") from None
    assert "nobody came back for days" in page.locator("#status").inner_text()
    assert "Create a new room" in page.locator("#end").inner_text()
    assert page.locator("#rematch").count() == 0 and page.locator("#end .seed").count() == 0
    assert page.locator("button[data-action]").count() == 0
    # "My rooms" in the lobby asks the server what became of a room this device played in.
    page.evaluate(
        """() => localStorage.setItem("parlour.rooms", JSON.stringify([{room: "idle",
        game: "beor", players: 2, link: "/r/idle", seat: 0, name: "Player 1",
        names: ["Player 1", "Player 2"], at: 1}]))"""
    )
    page.goto(f"{old.url}/")
    status = page.locator('#my-rooms li[data-room="idle"]')
    status.wait_for()
    page.wait_for_function(
        "() => document.querySelector('#my-rooms li[data-room=\"idle\"]')"
        ".textContent.includes('Abandoned')"
    )
