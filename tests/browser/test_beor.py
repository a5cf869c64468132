"""BEOR played to its end through the pages: two people (one on a phone, by touch) and the
heuristic bot, and a spectator, each in a browser context of its own; the person seats are
driven by clicking (tapping on the phone) the moves the pages offer, now and then typing them
into the notation box; the page of a seat to move is reloaded mid-game and must come back as the
same seat with the same moves. What every page showed at every change is checked against the
game's record once it is over (seed revealed)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser

from tests.browser.browser import Played, Setup, play_room

# The checks made on every whole game, collected here for this one.
from tests.browser.whole_game import *  # noqa: F403
from tests.server.client import ServerProcess

pytestmark = pytest.mark.slow

SETUP = Setup(
    game="beor",
    seats=["person", "person", "heuristic"],
    names=["Ann", "Bob", "Cy"],
    options={"max_turns": 36, "natural_win": False},
    mid_step=1,
    sizes={0: "desktop", 1: "phone"},
    reload_step=2,
    langs={1: "nl"},
    driver_seed=1,
)


@pytest.fixture(scope="module")
def played(browser: Browser, server: ServerProcess) -> Played:
    return play_room(browser, server, SETUP)
