"""The replay of a finished deal in Chromium (``/r/ROOM/replay/DEAL``): reached from the end
screen ("My rooms" leads there too: test_my_rooms.py), stepped with its buttons, the arrow keys,
Home and End and the slider; each seat's view shows that seat's cards only (checked against the
rules' hidden cards and the server's view at every step), every card once asked; a running deal
is refused; the review beside it (progress, the win-chance line, the decisive moments, the
decision at a step); axe-core and 360 px."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, Route

from parlour.core.game import State
from parlour.core.record import Record, replay
from parlour.games import find_game
from tests.browser.browser import (
    WAIT,
    axe_problems,
    choose_language,
    get_json,
    layout_problems,
    new_context,
    report,
)
from tests.conformance.cardscan import cards_named
from tests.server.client import ServerProcess, create_room, http_get

CARD = re.compile(r"^(?:[A2-9TJQK][SHDC]|JK\d)$")


@pytest.fixture
def context(browser: Browser) -> Iterator[BrowserContext]:
    ctx = new_context(browser)
    try:
        yield ctx
    finally:
        ctx.close()


def wait_over(page: Page, url: str, room: str) -> None:
    """Watch the room as a spectator until its end screen shows (the bots play at once)."""
    page.goto(f"{url}/r/{room}")
    page.locator("[data-outcome]").wait_for()


class Finished:
    """A finished 2-player BEOR deal of two bots, its record's states and the server's replay
    of it for each seat, the spectator and every card."""

    def __init__(self, url: str, room: str) -> None:
        self.url = url
        self.room = room
        record = Record.from_json(get_json(f"{url}/api/rooms/{room}/record?deal=0"))
        self.states: tuple[State, ...] = replay(record, find_game(record.game))
        self.replays = {
            key: get_json(f"{url}/api/rooms/{room}/replay?deal=0{query}")
            for key, query in (("0", "&seat=0"), ("1", "&seat=1"), ("spectator", ""))
        }
        self.replays["all"] = get_json(f"{url}/api/rooms/{room}/replay?deal=0&seat=all")
        self.final = get_json(f"{url}/api/rooms/{room}/final?deal=0")
        self.steps = len(self.states)


@pytest.fixture(scope="module")
def finished(browser: Browser, server: ServerProcess) -> Finished:
    room = create_room(server.url, {"game": "beor", "players": 2, "seats": ["medium", "medium"]})
    ctx = new_context(browser)
    try:
        wait_over(ctx.new_page(), server.url, room["room"])
    finally:
        ctx.close()
    return Finished(server.url, room["room"])


def at_step(page: Page, k: int) -> None:
    page.locator(f'#replay[data-step="{k}"]').wait_for(state="attached")


def seat_shown(page: Page, key: str) -> None:
    page.locator(f'#replay[data-seat="{key}"][data-step]').wait_for(state="attached")


def choose_seat(page: Page, key: str) -> None:
    page.locator("select#replay-seat").select_option(key)
    seat_shown(page, key)
    page.locator("#replay-title").click()  # the keys step the replay, not the list


def hand(page: Page) -> list[str]:
    cards: list[str] = page.locator("#replay-board #hand [data-card]").evaluate_all(
        "(cards) => cards.map((c) => c.dataset.card)"
    )
    return sorted(cards)


def tops(page: Page) -> dict[str, str | None]:
    found: dict[str, str | None] = page.evaluate(
        """() => Object.fromEntries(Array.from(document.querySelectorAll(
             '#replay-board [data-base]'), (b) => [b.dataset.base,
             b.querySelector('.pile [data-card]')?.dataset.card ?? null]))"""
    )
    return found


def expect_board(page: Page, finished: Finished, key: str, k: int) -> None:
    """The board at step ``k`` is the server's view of that step for ``key``: the seat's hand
    (none for the spectator) and each base's top card."""
    view = finished.replays[key]["steps"][k]["view"]
    if key.isdigit() and int(key) in (view.get("out") or []):
        # A seat that is out (BEOR: it may still hold cards) is told so in place of a hand.
        assert hand(page) == [], (key, k)
        assert page.locator("#replay-board section.you").count() == 1, (key, k)
    else:
        assert hand(page) == sorted(view["hand"] or []), (key, k)
    bases = {name: (pile[0] if pile else None) for name, pile in view["bases"].items()}
    assert tops(page) == bases, (key, k)


def line(page: Page) -> str:
    return page.locator("#replay-line").inner_text()


def test_the_end_screen_opens_the_replay_and_it_steps_by_buttons_keys_and_slider(
    context: BrowserContext, finished: Finished
) -> None:
    # The end's every hand comes from the deal's last position alone: the replay's.
    assert finished.final["full"] == finished.replays["all"]["full"]
    assert finished.final["outcome"] == finished.replays["all"]["outcome"]
    page = context.new_page()
    page.goto(f"{finished.url}/r/{finished.room}")
    page.locator("[data-outcome]").wait_for()
    page.locator("a#replay-link").click()
    seat_shown(page, "all")  # a spectator's end screen: every card, the deal being over
    assert page.url.startswith(f"{finished.url}/r/{finished.room}/replay/0")
    last = finished.steps - 1
    assert page.locator("#replay").get_attribute("data-steps") == str(finished.steps)
    at_step(page, last)  # it opens on the end
    choose_seat(page, "0")
    at_step(page, last)
    expect_board(page, finished, "0", last)
    page.keyboard.press("Home")
    at_step(page, 0)
    expect_board(page, finished, "0", 0)
    assert page.locator("#replay-back").is_disabled()
    page.locator("#replay-forward").click()
    at_step(page, 1)
    expect_board(page, finished, "0", 1)
    first_move = line(page)
    assert first_move and first_move != "The cards are dealt."
    page.keyboard.press("ArrowRight")
    at_step(page, 2)
    expect_board(page, finished, "0", 2)
    assert line(page) != first_move
    page.keyboard.press("ArrowLeft")
    at_step(page, 1)
    assert line(page) == first_move
    page.locator("#replay-back").click()
    at_step(page, 0)
    middle = finished.steps // 2
    page.locator("#replay-slider").fill(str(middle))
    at_step(page, middle)
    expect_board(page, finished, "0", middle)
    page.locator("#replay-slider").focus()
    page.keyboard.press("ArrowRight")  # the slider's own key steps once, not twice
    at_step(page, middle + 1)
    page.locator("#replay-last").click()
    at_step(page, last)
    assert page.locator("#replay-forward").is_disabled()
    page.locator("#replay-first").click()
    at_step(page, 0)
    page.keyboard.press("End")
    at_step(page, last)
    assert page.locator("#replay #status").inner_text() != ""  # who won, in words


def board_cards(page: Page) -> set[str]:
    """Every card the replay's board, hand, step line and log show or name (the review panel
    beside them names the moves of every player, the deal being over)."""
    found: dict[str, Any] = page.evaluate(
        """() => {
          const parts = ['#replay-board', '#replay-line', '#log']
            .map((s) => document.querySelector(s)).filter(Boolean);
          const cards = [], texts = [];
          for (const p of parts) {
            for (const e of p.querySelectorAll('[data-card]')) cards.push(e.dataset.card);
            for (const e of p.querySelectorAll('[aria-label]')) {
              texts.push(e.getAttribute('aria-label'));
            }
            texts.push(p.innerText);
          }
          return {cards, texts};
        }"""
    )
    named: set[str] = set(found["cards"])
    for text in found["texts"]:
        named |= cards_named(text)
    return named


def json_cards(obj: object) -> set[str]:
    """The cards a JSON value holds as notation (a move "7C>black" holds 7C)."""
    out: set[str] = set()
    stack = [obj]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            out |= {p for p in re.split(r"[^0-9A-Z]+", item) if CARD.match(p)}
        elif isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return out


@pytest.mark.parametrize("key", ["0", "1", "spectator"])
def test_a_seat_view_never_shows_a_card_hidden_from_that_seat(
    context: BrowserContext, finished: Finished, key: str
) -> None:
    seat = None if key == "spectator" else int(key)
    answer = finished.replays[key]
    assert len(answer["steps"]) == finished.steps
    problems = []
    for k, (state, step) in enumerate(zip(finished.states, answer["steps"], strict=True)):
        hidden = state.hidden_from(seat)
        sent = json_cards({n: v for n, v in step.items() if n != "text"}) & hidden
        if sent:
            problems.append(f"the server's step {k} for {key} holds hidden {sorted(sent)}")
    page = context.new_page()
    page.goto(f"{finished.url}/r/{finished.room}/replay/0?seat={key}")
    seat_shown(page, key)
    for k, state in enumerate(finished.states):
        page.locator("#replay-slider").fill(str(k))
        at_step(page, k)
        shown = board_cards(page) & state.hidden_from(seat)
        if shown:
            problems.append(f"step {k} seen by {key} shows hidden {sorted(shown)}")
        if k in (0, finished.steps // 2):
            expect_board(page, finished, key, k)
    report(problems, f"the replay seen by {key}")
    # Every card shows what the seat could not see: the check above can fail.
    choose_seat(page, "all")
    page.keyboard.press("Home")
    at_step(page, 0)
    assert board_cards(page) & finished.states[0].hidden_from(seat)
    other = 1 - (seat or 0)
    other_hand = page.locator(f'[data-hand-of="{other}"] [data-card]').evaluate_all(
        "(cards) => cards.map((c) => c.dataset.card)"
    )
    full = finished.replays["all"]["steps"][0]["full"]
    assert sorted(other_hand) == sorted(full["hands"][other])


def test_a_running_deal_is_not_replayed(context: BrowserContext, server: ServerProcess) -> None:
    room = create_room(server.url, {"game": "beor", "players": 2, "seats": ["person", "person"]})
    for query in ("", "?deal=0", "?seat=0", "?deal=0&seat=1", "?seat=all"):
        response = http_get(f"{server.url}/api/rooms/{room['room']}/replay{query}", timeout=WAIT)
        assert response.status_code == 409, (query, response.text)
        assert response.json() == {
            "error": {"code": "not_over", "message": "a deal is replayed once it is over"}
        }
        assert response.headers["cache-control"] == "no-store"
        assert not json_cards(response.json()), response.text
    bad = http_get(f"{server.url}/api/rooms/{room['room']}/replay?deal=1", timeout=WAIT)
    assert bad.status_code == 400 and set(bad.json()) == {"error"}
    # Nor is its last position (what the end of a deal shows every hand from).
    for query in ("", "?deal=0"):
        response = http_get(f"{server.url}/api/rooms/{room['room']}/final{query}", timeout=WAIT)
        assert response.status_code == 409, (query, response.text)
        assert response.json()["error"]["code"] == "not_over", response.text
        assert response.headers["cache-control"] == "no-store"
        assert not json_cards(response.json()), response.text
    for query, status in (("?deal=1", 400), ("?deal=x", 400)):
        response = http_get(f"{server.url}/api/rooms/{room['room']}/final{query}", timeout=WAIT)
        assert response.status_code == status and set(response.json()) == {"error"}, query
    assert http_get(f"{server.url}/api/rooms/nope/final", timeout=WAIT).status_code == 404
    page = context.new_page()
    page.goto(f"{server.url}/r/{room['room']}/replay/0?seat=0")
    page.locator("#error").wait_for()
    assert "not over yet" in page.locator("#error").inner_text()
    assert page.locator("#replay [data-card]").count() == 0


# -- the review beside the replay ---------------------------------------------------------------


def planted_review(finished: Finished) -> dict[str, Any]:
    """A review of the deal in the shape the server gives (parlour schema review): each decision
    with two or more moves, the played move given 0.4 and another 0.7 at the first two."""
    decisions: list[dict[str, Any]] = []
    for s, step in enumerate(a for a in finished.replays["all"]["steps"] if a["kind"] == "action"):
        seat = step["by"]
        before = next(
            x
            for x in finished.replays[str(seat)]["steps"]
            if x["kind"] == "action" and x["actions"] == s + 1
        )["step"] - 1  # fmt: skip
        legal = finished.replays[str(seat)]["steps"][before]["legal"]
        if len(legal) < 2:
            continue
        other = next(m for m in legal if m != step["text"])
        costly = len(decisions) < 2
        played, best = (0.4, 0.7) if costly else (0.55, 0.5)
        decisions.append({
            "step": s, "seat": seat, "played": step["text"],
            "best": other if costly else step["text"],
            "chances": {step["text"]: played, other: best},
            "intervals": {step["text"]: 0.05, other: 0.06},
            "visits": {step["text"]: 300, other: 300},
            "cost": round(best - played, 2) if costly else 0.0, "cost_interval": 0.08,
        })  # fmt: skip
    decisive = sorted(
        ({k: d[k] for k in ("step", "seat", "played", "best", "cost")} for d in decisions[:2]),
        key=lambda d: (-d["cost"], d["step"]),
    )
    return {
        "format": 1, "kind": "review", "game": "beor", "players": 2, "seats": [0, 1],
        "seed": 0, "budget": "100", "threshold": 0.1, "decisions": decisions,
        "decisive": decisive, "summary": [], "story": None,
    }  # fmt: skip


def test_the_review_shows_its_progress_then_the_win_chance_line_and_decisive_moments(
    context: BrowserContext, finished: Finished, tmp_path: Path
) -> None:
    """The review endpoint answered by the test (pending, then ready with a review of this
    deal), so that the panel is checked whatever the server's search would find."""
    review = planted_review(finished)
    asked = []

    def answer(route: Route) -> None:
        asked.append(route.request.url)
        pending = {"status": "pending", "done": 1, "total": 3, "review": None}
        ready = {"status": "ready", "done": 3, "total": 3, "review": review}
        body = pending if len(asked) == 1 else ready
        route.fulfill(status=200, content_type="application/json", body=json.dumps(body))

    page = context.new_page()
    page.route("**/api/rooms/*/review*", answer)
    page.goto(f"{finished.url}/r/{finished.room}/replay/0?seat=0")
    page.locator("#review-progress", has_text="Review in progress (1 of 3)").wait_for()
    page.locator('#review[data-status="ready"]').wait_for()
    assert "deal=0" in asked[0]
    assert page.locator("#review-chart polyline.review-line").count() == 2
    assert page.locator("#review-chart circle.decisive").count() == 2
    moments = page.locator("#review [data-moment]")
    assert moments.count() == 2
    top = review["decisive"][0]
    first = page.locator(f'#review [data-moment="{top["step"]}"]')
    assert top["played"] in first.inner_text() and top["best"] in first.inner_text()
    first.click()
    decision_step = next(
        x["step"] - 1
        for x in finished.replays["0"]["steps"]
        if x["kind"] == "action" and x["actions"] == top["step"] + 1
    )
    at_step(page, decision_step)
    box = page.locator(f'#review-decision[data-step="{top["step"]}"]')
    box.wait_for()
    assert box.locator("[data-played]").inner_text() == f"Played: {top['played']} (40%)"
    assert box.locator("[data-best]").inner_text() == f"The expert's choice: {top['best']} (70%)"
    page.keyboard.press("ArrowRight")  # the focus is on the moment's button: the keys still step
    at_step(page, decision_step + 1)
    page.locator(f'#review-decision:not([data-step="{top["step"]}"])').wait_for()
    report(axe_problems(page), "axe on the replay with its review")
    page.screenshot(path=str(tmp_path / "replay-review.png"), full_page=True)


def test_the_replay_passes_axe_fits_360_px_and_speaks_each_language(
    browser: Browser, finished: Finished
) -> None:
    ctx = new_context(browser, "phone", viewport={"width": 360, "height": 740})
    try:
        page = ctx.new_page()
        problems = []
        for key in ("0", "spectator", "all"):
            page.goto(f"{finished.url}/r/{finished.room}/replay/0?seat={key}")
            seat_shown(page, key)
            page.locator("#review[data-status]:not([data-status='asking'])").wait_for(
                state="attached"
            )
            problems += [f"{key}: {p}" for p in axe_problems(page)]
            problems += layout_problems(page, f"the replay seen by {key} at 360 px")
        english = page.locator("#replay-where").inner_text()
        for lang, words in (("ro", "Pasul"), ("nl", "Stap")):
            choose_language(page, lang, "#replay-where", english)
            english = page.locator("#replay-where").inner_text()
            assert english.startswith(words), (lang, english)
            problems += layout_problems(page, f"the replay in {lang} at 360 px")
        report(problems, "the replay at 360 px")
    finally:
        ctx.close()
