"""Crazy Eights played to its end in Chromium: two people (one on a phone, by touch, reading
Romanian) and a spectator, each in a browser context of its own, driven by clicking the moves
the game's own board offers (its ``web`` part), now and then typing them; the page of the seat
to move is reloaded mid-game. What every page showed is checked against the game's record
once it is over: no card hidden from a seat, exactly its legal moves, labels, axe-core.

The checks are Parlour's browser suite's (``tests/browser``), run from the repository's root."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser
from tests.browser.browser import Played, Setup, chromium, play_room
from tests.browser.conftest import server  # noqa: F401
from tests.browser.whole_game import *  # noqa: F403
from tests.server.client import ServerProcess

pytestmark = pytest.mark.slow

SETUP = Setup(
    game="crazy-eights",
    seats=["person", "person"],
    names=["Ann", "Bob"],
    options={"max_turns": 36},
    mid_step=3,
    sizes={0: "desktop", 1: "phone"},
    reload_step=4,
    langs={1: "ro"},
    driver_seed=2,
)


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """Chromium for this file alone: the browser suite's own is kept for its folder."""
    with chromium() as launched:
        yield launched


@pytest.fixture(scope="module")
def played(browser: Browser, server: ServerProcess) -> Played:  # noqa: F811
    return play_room(browser, server, SETUP)
