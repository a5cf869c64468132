"""Motion, the end of a deal and the sound for your turn at the browser table (issue 26.5-7).

Every room here is a two-player Beggar-My-Neighbour deal from one fixed seed (the server's seed
is fixed in its own process), so each test knows the cards to come: the bot in seat 0 (or the
person, where the tie needs it) turns the Queen of diamonds first, then the person pays the Ten
and the Nine of hearts, the bot takes the pile and leads the Ace of clubs. With ``card_limit`` 2
the deal ends after two cards with 25 cards in each hand: a tie, a shared win.

- with ``prefers-reduced-motion: reduce`` a move is drawn at once: no animation runs and the
  page's motion hook (``window.parlourMotion``, ``<html data-moving>``) stays at 0;
- without it the card turned travels (the hook goes above 0 and back to 0), each animation of
  at most 250 ms, and at rest no card is left displaced;
- the end of a tied deal on a phone: every hand revealed with cards at least 40 CSS px wide
  inside the screen's width, the win said to be shared (English, Romanian, Dutch), Play again;
- the sound for your turn is off by default and sounds once when the turn comes to you, not
  at every update while it is yours.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page

from tests.browser.browser import SCREENSHOTS, STATIC, new_context, wait_js
from tests.server.client import ServerProcess, create_room

SEED = 4
"""A seed (checked in test_the_seed_deals_what_the_tests_expect) whose two-player deal starts
QD (seat 0), TH, 9H (seat 1), then seat 0 takes the pile and leads AC."""
FIXED_SEED = f"import parlour.server.room as _room\n_room.draw_seed = lambda: {SEED}\n"

_HOOK = "() => window.parlourMotion ?? null"
_MOVING = "() => document.documentElement.dataset.moving"
_PLAY = 'button[data-action="play"]'
_V = "() => Number(document.querySelector('#table')?.dataset.v)"


@pytest.fixture(scope="module")
def seeded(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    server = ServerProcess(tmp_path_factory.mktemp("motion") / "rooms.db", prelude=FIXED_SEED)
    server.start()
    try:
        yield server
    finally:
        server.stop()


def test_the_seed_deals_what_the_tests_expect() -> None:
    from parlour.games import GAMES

    game = GAMES["beggar"]
    state = game.new(2, SEED, {}, game.match_deal(2, SEED, 0))
    movers = [state.to_move]
    for _ in range(4):
        state = state.apply(state.legal_actions()[0])
        movers.append(state.to_move)
    assert movers == [0, 1, 1, 0, 1]
    assert state.view(None).to_json()["pile"] == ["AC"]
    tie = game.new(2, SEED, {"card_limit": 2}, game.match_deal(2, SEED, 0))
    while not tie.is_over:
        tie = tie.apply(tie.legal_actions()[0])
    assert tie.outcome is not None and list(tie.outcome.winners) == [0, 1]


def seat_page(
    context: BrowserContext, server: ServerProcess, *, person: int, options: dict[str, Any]
) -> Page:
    """A Beggar-My-Neighbour room of Ana and Bo, one of them the bot; the person's page, open
    at the person's turn."""
    seats = ["bot", "bot"]
    seats[person] = "person"
    body = {
        "game": "beggar",
        "players": 2,
        "seats": seats,
        "names": ["Ana", "Bo"],
        "options": options,
    }
    room = create_room(server.url, body)
    page = context.new_page()
    page.goto(room["seats"][person]["link"])
    page.locator(_PLAY).wait_for()
    return page


def play_once(page: Page) -> int:
    """Turn a card; the version the page showed before."""
    v = int(page.evaluate(_V))
    page.locator(_PLAY).click()
    wait_js(page, "(v) => Number(document.querySelector('#table')?.dataset.v) > v", v, "a move")
    return v


def test_with_reduced_motion_a_move_is_drawn_at_once(
    browser: Browser, seeded: ServerProcess
) -> None:
    context = new_context(browser, reduced_motion="reduce")
    try:
        page = seat_page(context, seeded, person=1, options={})
        hook = page.evaluate(_HOOK)
        assert hook is not None, "no motion hook (window.parlourMotion) on the table page"
        v = int(page.evaluate(_V))
        page.locator(_PLAY).click()
        # Read in the same turn of the page's loop as the new version is seen.
        seen = page.wait_for_function(
            """(v) => {
              if (Number(document.querySelector('#table')?.dataset.v) <= v) return null;
              return {moving: document.documentElement.dataset.moving,
                      started: window.parlourMotion.started,
                      animations: document.getAnimations().length,
                      pile: Array.from(document.querySelectorAll('.beggar-pile [data-card]'),
                                       (e) => e.dataset.card)};
            }""",
            arg=v,
            polling="raf",
        ).json_value()
        assert seen["moving"] == "0", seen
        assert seen["started"] == 0, seen
        assert seen["animations"] == 0, seen
        assert "TH" in seen["pile"], seen  # the card turned is on the pile at once
    finally:
        context.close()


def test_a_card_turned_travels_to_the_pile_within_250_ms(
    browser: Browser, seeded: ServerProcess
) -> None:
    context = new_context(browser)
    try:
        page = seat_page(context, seeded, person=1, options={})
        hook = page.evaluate(_HOOK)
        assert hook is not None, "no motion hook (window.parlourMotion) on the table page"
        before = int(hook["started"])
        page.locator(_PLAY).click()
        seen = page.wait_for_function(
            """() => {
              const all = document.getAnimations();
              if (!all.length) return null;
              return {moving: Number(document.documentElement.dataset.moving),
                      durations: all.map((a) => Number(a.effect.getComputedTiming().duration)),
                      cards: all.map((a) => a.effect.target?.dataset?.card ?? null)};
            }""",
            polling="raf",
        ).json_value()
        assert seen["moving"] > 0, seen
        assert max(seen["durations"]) <= 250, seen
        assert "TH" in seen["cards"], seen  # the card turned is the one that travels
        wait_js(page, "() => document.documentElement.dataset.moving === '0'", None, "rest")
        rest = page.evaluate(
            """() => ({animations: document.getAnimations().length,
                      started: window.parlourMotion.started,
                      moved: Array.from(document.querySelectorAll('[data-card]')).filter(
                        (e) => !['none', ''].includes(getComputedStyle(e).transform)).length})"""
        )
        assert rest["animations"] == 0 and rest["moved"] == 0, rest
        assert rest["started"] > before, rest
    finally:
        context.close()


def words(lang: str) -> dict[str, str]:
    found: dict[str, str] = json.loads((STATIC / "i18n" / f"{lang}.json").read_text("utf-8"))
    return found


def test_a_tied_deal_ends_shared_with_every_hand_legible_on_a_phone(
    browser: Browser, seeded: ServerProcess
) -> None:
    context = new_context(browser, "phone")
    try:
        page = seat_page(context, seeded, person=0, options={"card_limit": 2})
        page.locator(_PLAY).tap()
        page.locator("[data-outcome]").wait_for()
        wait_js(
            page,
            "() => document.querySelectorAll('#end [data-hand-of] [data-card]').length === 50",
            None,
            "both hands of 25 cards on the end screen",
        )
        hands = page.evaluate(
            """() => Array.from(document.querySelectorAll('#end [data-hand-of]'), (h) => ({
              seat: h.dataset.handOf, text: h.innerText,
              cards: Array.from(h.querySelectorAll('[data-card]'), (c) => {
                const r = c.getBoundingClientRect();
                return {card: c.dataset.card, label: c.getAttribute('aria-label'),
                        width: r.width, left: r.left, right: r.right};
              })}))"""
        )
        assert [h["seat"] for h in hands] == ["0", "1"], hands
        assert "Ana" in hands[0]["text"] and "Bo" in hands[1]["text"], hands
        width = page.evaluate("() => document.documentElement.clientWidth")
        for hand in hands:
            assert len(hand["cards"]) == 25, hand
            for card in hand["cards"]:
                assert card["width"] >= 40, f"{card} is under 40 CSS px wide"
                assert card["left"] >= 0 and card["right"] <= width, f"{card} is off the screen"
                assert card["label"], card
        end = page.locator("#end")
        en = words("en")
        shared = en["end.share_you"].format(names=f"{en['end.you_name']} {en['and']} Bo")
        assert shared in end.inner_text(), end.inner_text()
        assert page.locator("button#rematch").is_visible()
        SCREENSHOTS.mkdir(exist_ok=True)
        page.locator("#end [data-hand-of]").last.scroll_into_view_if_needed()
        page.screenshot(path=str(SCREENSHOTS / "end-tie-390x844.png"), animations="disabled")
        for lang in ("ro", "nl"):
            said = words(lang)
            want = said["end.share_you"].format(names=f"{said['end.you_name']} {said['and']} Bo")
            page.locator("select#lang").select_option(lang)
            wait_js(
                page,
                "(s) => (document.querySelector('#end')?.innerText ?? '').includes(s)",
                want,
                f"the shared win in {lang}: {want!r}",
            )
    finally:
        context.close()


_FAKE_AUDIO = """(() => {
  window.__beeps = 0;
  class FakeAudio {
    constructor() { this.currentTime = 0; this.destination = {}; }
    createOscillator() {
      return { frequency: { value: 0 }, connect: (x) => x, start: () => { window.__beeps++; },
               stop: () => {} };
    }
    createGain() {
      return { gain: { setValueAtTime: () => {}, exponentialRampToValueAtTime: () => {} },
               connect: (x) => x };
    }
  }
  window.AudioContext = FakeAudio;
  window.webkitAudioContext = FakeAudio;
})();"""


def test_the_turn_sound_is_off_by_default_and_sounds_once_a_turn(
    browser: Browser, seeded: ServerProcess
) -> None:
    context = new_context(browser)
    context.add_init_script(_FAKE_AUDIO)
    try:
        page = seat_page(context, seeded, person=1, options={})  # the bot turned QD: my turn
        assert page.evaluate("() => localStorage.getItem('parlour.sound')") is None
        assert not page.locator("#sound").is_checked()
        assert page.evaluate("() => window.__beeps") == 0, "a sound while it is off"
        page.locator("#sound").evaluate("(box) => box.click()")  # wherever the settings sit
        assert page.evaluate("() => window.__beeps") == 1  # the sample on switching it on
        play_once(page)  # TH: I still owe a card, still my turn
        page.locator(_PLAY).wait_for()
        assert page.evaluate("() => window.__beeps") == 1, "a sound while the turn stayed mine"
        play_once(page)  # 9H: Bo takes the pile and leads AC: my turn again (version 4)
        wait_js(page, "() => Number(document.querySelector('#table')?.dataset.v) >= 4", None, "v4")
        page.locator(_PLAY).wait_for()
        assert page.evaluate("() => window.__beeps") == 2, "not one sound for the turn back"
    finally:
        context.close()
