"""A room's agreed time in Chromium (issue 30, ruling M12): the table shows a countdown in its
status line, which ticks down between frames, in English, Romanian and Dutch; when the server
says the time is up the game ends by M12, and "Turn automatically" turns no card after the end.

The countdown's ticking is driven with Playwright's clock (``page.clock``), not by waiting. The
end comes from a real ``parlour serve`` whose time source runs sixty times faster than the
wall clock (a one-minute room ends after about a second), with both players turning
automatically until then."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page

from tests.browser.browser import Table, choose_language, new_context, wait_js
from tests.server.client import ServerProcess, create_room

ROOM: dict[str, Any] = {
    "game": "beggar",
    "players": 2,
    "seats": ["person", "person"],
    "names": ["Ann", "Bob"],
    "options": {"time_limit": 1},
}

FAST = """
import asyncio, time
from parlour.server import clock
_began = time.time()
clock.WallTime.now = lambda self: _began + (time.time() - _began) * 60
async def _sleep(self, seconds):
    await asyncio.sleep(seconds / 60)
clock.WallTime.sleep = _sleep
"""
"""The server's time source, sixty times faster than the wall clock."""

_CLOCK = """() => {
  const e = document.querySelector('#clock');
  return e && {text: e.innerText.trim(), left: Number(e.dataset.left),
               running: e.dataset.running, visible: e.getClientRects().length > 0};
}"""

# Counts the moves a page sends once it shows the end of the game.
_SENT_AFTER_END = """
window.__actsAfterEnd = 0;
const send = WebSocket.prototype.send;
WebSocket.prototype.send = function (data) {
  try {
    const frame = JSON.parse(data);
    if (frame.type === 'act' && document.querySelector('[data-outcome]')) window.__actsAfterEnd++;
  } catch (err) { /* not JSON: not ours */ }
  return send.call(this, data);
};
"""


@pytest.fixture
def context(browser: Browser) -> Iterator[BrowserContext]:
    ctx = new_context(browser)
    try:
        yield ctx
    finally:
        ctx.close()


def clock_of(page: Page) -> dict[str, Any]:
    found: dict[str, Any] | None = page.evaluate(_CLOCK)
    assert found is not None, "the table shows no #clock"
    return found


def test_the_countdown_is_shown_and_ticks_down_between_frames(
    context: BrowserContext, server: ServerProcess
) -> None:
    room = create_room(server.url, ROOM)
    table = Table(context, "Ann", 0)
    page = table.page
    page.clock.install()
    table.open(room["seats"][0]["link"])
    before = clock_of(page)
    assert before["visible"] and before["running"] == "false" and before["left"] == 60, before
    assert before["text"] == "Agreed time 1:00: the clock starts with the first move", before
    # A minute of the page's time passes before the first card: the clock waits for it.
    page.clock.run_for(60_000)
    assert clock_of(page)["left"] == 60
    table.play("play")
    table.wait_v_above(0, "after the first card")
    wait_js(page, "() => document.querySelector('#clock')?.dataset.running === 'true'", None,
            "the clock to run once the first card is turned")  # fmt: skip
    started = clock_of(page)
    assert started["left"] in (59, 60), started
    # Five seconds of the page's time, and no frame from the server meanwhile (Bob is to
    # turn): the page counts down by itself.
    page.clock.run_for(5_000)
    later = clock_of(page)
    assert later["visible"] and later["running"] == "true"
    assert started["left"] - 6 <= later["left"] <= started["left"] - 4, (started, later)
    assert re.fullmatch(r"Time left 0:5\d", later["text"]), later
    choose_language(page, "ro", "#clock", later["text"])
    assert re.fullmatch(r"Timp rămas 0:5\d", clock_of(page)["text"])
    choose_language(page, "nl", "#clock", clock_of(page)["text"])
    assert re.fullmatch(r"Nog 0:5\d", clock_of(page)["text"])
    # The page's own count reaches nothing: it says so, and turns no card (the server ends
    # the deal by its own clock, still running here).
    page.clock.run_for(70_000)
    assert clock_of(page) == {"text": "De tijd is om", "left": 0, "running": "false",
                              "visible": True}  # fmt: skip


def test_the_time_up_ends_the_game_and_automatic_turning_stops(
    browser: Browser, tmp_path: Path
) -> None:
    server = ServerProcess(tmp_path / "rooms.db", prelude=FAST).start()
    contexts: list[BrowserContext] = []
    try:
        room = create_room(server.url, ROOM)
        tables = []
        for seat, name in enumerate(ROOM["names"]):
            ctx = new_context(browser)
            contexts.append(ctx)
            ctx.add_init_script(_SENT_AFTER_END)
            table = Table(ctx, name, seat)
            table.page.clock.install()
            table.open(room["seats"][seat]["link"])
            tables.append(table)
        # The seat not to move turns automatically first: no card is turned (and the clock,
        # which runs a second of real time per agreed minute, does not start) until both do,
        # however slowly a loaded machine opens the pages.
        to_move = "() => document.querySelector('[data-action]') !== null"
        movers = [t for t in tables if t.page.evaluate(to_move)]
        assert len(movers) == 1, [t.name for t in movers]
        for table in sorted(tables, key=lambda t: t in movers):
            table.press(table.page.locator("#auto"))
        for table in tables:
            page = table.page
            # Turning goes on, a card every 0.6 s of the page's time, until the server says
            # the time is up (about a second of real time after the first card).
            for _ in range(400):
                if page.locator("[data-outcome]").count():
                    break
                page.clock.run_for(600)
            wait_js(page, "() => document.querySelector('[data-outcome]') !== null", None,
                    f"{table.name}'s page to show the end")  # fmt: skip
            assert page.locator("[data-outcome]").get_attribute("data-outcome") == "time"
            assert "(M12)" in page.locator("[data-outcome]").inner_text()
            assert clock_of(page) == {"text": "Time is up", "left": 0, "running": "false",
                                      "visible": True}  # fmt: skip
        for table in tables:
            page = table.page
            v = table.v()
            page.clock.run_for(10_000)  # every timer the page had set fires
            assert table.v() == v
            assert page.evaluate("() => window.__actsAfterEnd") == 0, "a card after the end"
            assert page.locator("#error").inner_text().strip() == ""
            assert page.locator("#auto").count() == 0
    finally:
        for ctx in contexts:
            ctx.close()
        server.stop()
