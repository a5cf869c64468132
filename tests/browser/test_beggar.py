"""Beggar-My-Neighbour played to its end through the pages: two people (one on a phone, by touch,
the other turning by itself with #auto) and the bot, and a spectator, each in a browser context
of its own; the person seats are driven by clicking (tapping on the phone) the moves the pages
offer, now and then typing them into the notation box; the page of a seat to move is reloaded
mid-game and must come back as the same seat with the same moves. What every page showed at
every change is checked against the game's record once it is over (seed revealed)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser

from tests.browser.browser import Played, Setup, play_room

# The checks made on every whole game, collected here for this one.
from tests.browser.whole_game import *  # noqa: F403
from tests.server.client import ServerProcess

pytestmark = pytest.mark.slow

SETUP = Setup(
    game="beggar",
    seats=["person", "person", "bot"],
    names=["Ann", "Bob", "Cy"],
    options={"card_limit": 60},
    sizes={0: "desktop", 1: "phone"},
    auto=frozenset({0}),
    mid_step=2,
    reload_step=4,
    langs={1: "ro"},
    driver_seed=3,
    stored={"parlour.beggarSpeed": "fast"},  # the auto seat turns a card every 150 ms
)


@pytest.fixture(scope="module")
def played(browser: Browser, server: ServerProcess) -> Played:
    return play_room(browser, server, SETUP)
