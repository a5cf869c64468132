"""The review beside a replay, made by the server's review worker (a small budget: the test is
of the page, not of the search): once ready, the page's win-chance lines, decisive moments and
the decision at a step are those of ``GET /api/rooms/ROOM/review``; a game without decisions
shows its story, each moment a step of the replay."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page

from tests.browser.browser import axe_problems, get_json, new_context, report
from tests.server.client import ServerProcess, create_room, running_server


@pytest.fixture(scope="module")
def reviewing(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    db = tmp_path_factory.mktemp("review") / "rooms.db"
    with running_server(db, "--review-budget", "40") as process:
        yield process


@pytest.fixture
def context(browser: Browser) -> Iterator[BrowserContext]:
    ctx = new_context(browser)
    try:
        yield ctx
    finally:
        ctx.close()


def finished_replay(page: Page, url: str, game: str, players: int, kind: str) -> str:
    """A deal of bots played to its end (watched from its end screen), its replay opened from
    Player 1's view and its review ready; the room."""
    room = create_room(url, {"game": game, "players": players, "seats": [kind] * players})["room"]
    page.goto(f"{url}/r/{room}")
    # Bots play only while someone watches (the page is the spectator), and a deal of
    # Beggar-My-Neighbour may run to a thousand cards, each drawn on the page.
    page.locator("[data-outcome]").wait_for(timeout=120_000)
    page.goto(f"{url}/r/{room}/replay/0?seat=0")
    # The review worker runs at nice 19: beside a full test run it may take a while.
    page.locator('#review[data-status="ready"]').wait_for(timeout=120_000)
    return str(room)


def frame_of(replay: dict[str, Any], action: int) -> int:
    """The replay's step at which action ``action`` (the record's index) is played."""
    return next(
        int(s["step"])
        for s in replay["steps"]
        if s["kind"] == "action" and s["actions"] == action + 1
    )


def test_the_servers_review_is_drawn_beside_the_replay(
    context: BrowserContext, reviewing: ServerProcess
) -> None:
    page = context.new_page()
    room = finished_replay(page, reviewing.url, "beor", 2, "medium")
    answer = get_json(f"{reviewing.url}/api/rooms/{room}/review?deal=0")
    assert answer["status"] == "ready"
    review = answer["review"]
    replay = get_json(f"{reviewing.url}/api/rooms/{room}/replay?deal=0&seat=0")
    movers = {d["seat"] for d in review["decisions"]}
    assert page.locator("#review-chart polyline.review-line").count() == len(movers)
    marks = page.locator("#review-chart circle.review-mark")
    assert marks.count() == len(review["decisions"])
    decisive = review["decisive"]
    assert decisive, "a deal of medium bots reviewed by the expert has a costly move"
    assert page.locator("#review-chart circle.decisive").count() == len(decisive)
    assert page.locator("#review [data-moment]").count() == len(decisive)
    top = decisive[0]
    page.locator(f'#review [data-moment="{top["step"]}"]').click()
    at = frame_of(replay, top["step"]) - 1  # the step before the move: the decision
    page.locator(f'#replay[data-step="{at}"]').wait_for(state="attached")
    box = page.locator(f'#review-decision[data-step="{top["step"]}"]')
    box.wait_for()
    decision = next(d for d in review["decisions"] if d["step"] == top["step"])
    played = box.locator("[data-played]").inner_text()
    shown = re.fullmatch(rf"Played: {re.escape(top['played'])} \((\d+)%\)", played)
    assert shown, played
    assert abs(int(shown[1]) - 100 * decision["chances"][top["played"]]) <= 0.5 + 1e-9, played
    assert top["best"] in box.locator("[data-best]").inner_text()
    assert box.locator("table.review-moves tbody tr").count() == len(decision["chances"])
    report(axe_problems(page), "axe on the replay with the server's review")


def test_a_game_without_decisions_shows_its_story(
    context: BrowserContext, reviewing: ServerProcess
) -> None:
    page = context.new_page()
    room = finished_replay(page, reviewing.url, "beggar", 2, "bot")
    review = get_json(f"{reviewing.url}/api/rooms/{room}/review?deal=0")["review"]
    moments = review["story"]["moments"]
    assert moments and not review["decisions"]
    assert page.locator("#review-chart").count() == 0
    buttons = page.locator("#review [data-moment]")
    assert buttons.count() == len(moments)
    last = moments[-1]
    buttons.nth(len(moments) - 1).click()
    replay = get_json(f"{reviewing.url}/api/rooms/{room}/replay?deal=0&seat=0")
    at = frame_of(replay, last["step"])
    page.locator(f'#replay[data-step="{at}"]').wait_for(state="attached")
    assert last["text"] in buttons.nth(len(moments) - 1).inner_text()
