"""Becker's Game of Death played to its end through the pages: three people (one on a phone, by
touch) and the heuristic bot, and a spectator, each in a browser context of its own; the person
seats are driven by clicking (tapping on the phone) the moves the pages offer, now and then
typing them into the notation box; the page of a seat to move is reloaded mid-game and must come
back as the same seat with the same moves, and one of them takes a D'oh! on himself (a table
entry, G13). What every page showed at every change is checked against the game's record once it
is over (seed revealed)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser

from tests.browser.browser import Played, Setup, play_room

# The checks made on every whole game, collected here for this one.
from tests.browser.whole_game import *  # noqa: F403
from tests.server.client import ServerProcess

pytestmark = pytest.mark.slow

SETUP = Setup(
    game="death",
    seats=["person", "person", "person", "heuristic"],
    names=["Ann", "Bob", "Cy", "Di"],
    options={},
    sizes={0: "desktop", 1: "phone", 2: "desktop"},
    reload_step=5,
    langs={1: "ro", 2: "nl"},
    driver_seed=2,
    penalty_step=3,
)


@pytest.fixture(scope="module")
def played(browser: Browser, server: ServerProcess) -> Played:
    return play_room(browser, server, SETUP)
