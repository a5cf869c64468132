"""A table page on its own: the invite link's token leaves the address bar for the tab's
sessionStorage and a reload resumes the same seat; a forged link is refused with a clear
message; the hand is one tab stop that the arrow keys move in and Enter plays from; the
languages change the words but not the notation; at 360 px nothing scrolls sideways and every
button is at least 44x44; with ``prefers-reduced-motion`` nothing moves; a refusal of the
rules is said in the chosen language."""

from __future__ import annotations

import random
import re
import secrets
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext

from tests.browser.browser import (
    Table,
    axe_problems,
    choose_language,
    layout_problems,
    new_context,
    report,
    wait_js,
)
from tests.server.client import ServerProcess, create_room

ROOMS: dict[str, dict[str, Any]] = {
    "beor": {"game": "beor", "players": 2, "options": {"max_turns": 150},
             "seats": ["person", "heuristic"], "names": ["Ann", "Bob"]},
    "death": {"game": "death", "players": 2, "options": {},
              "seats": ["person", "heuristic"], "names": ["Ann", "Bob"]},
    "beggar": {"game": "beggar", "players": 2, "options": {"card_limit": 400},
               "seats": ["person", "bot"], "names": ["Ann", "Bob"]},
}  # fmt: skip
"""One person (seat 0) against a bot in each game."""

_MY_TURN = "() => document.querySelector('[data-action]') !== null"
_ACTIONS = "() => Array.from(document.querySelectorAll('[data-action]'), (e) => e.dataset.action)"
_HAND = "() => Array.from(document.querySelectorAll('#hand [data-card]'), (e) => e.dataset.card)"


@pytest.fixture
def context(browser: Browser) -> Iterator[BrowserContext]:
    ctx = new_context(browser)
    try:
        yield ctx
    finally:
        ctx.close()


def seat_page(
    context: BrowserContext, server: ServerProcess, game: str, *, touch: bool = False
) -> tuple[Table, dict[str, Any]]:
    """A new room of ``game`` (seat 0 a person) and seat 0's page, waiting for its turn."""
    answer = create_room(server.url, ROOMS[game])
    table = Table(context, f"{game} P1", 0, touch=touch).open(answer["seats"][0]["link"])
    my_turn(table)
    return table, answer


def my_turn(table: Table) -> None:
    wait_js(table.page, _MY_TURN, None, f"{table.name} to be offered a move ([data-action])")


def move(table: Table, rng: random.Random) -> None:
    """One legal move of the seat, waiting for the page to show the next version."""
    my_turn(table)
    v = table.v()
    assert v is not None
    action = rng.choice(sorted(table.page.evaluate(_ACTIONS)))
    table.play(action)
    table.wait_v_above(v, f"after {action!r}")


def test_the_token_moves_to_session_storage_and_a_reload_resumes_the_seat(
    context: BrowserContext, server: ServerProcess
) -> None:
    table, answer = seat_page(context, server, "beor")
    page, token = table.page, answer["seats"][0]["token"]
    assert "#t=" not in page.url and token not in page.url, page.url
    assert token in page.evaluate("() => Object.values(sessionStorage)")
    rng = random.Random(5)
    for _ in range(3):
        move(table, rng)
    my_turn(table)
    before = page.evaluate(
        f"""() => ({{v: document.querySelector('#table').dataset.v,
                    seat: document.querySelector('#table').dataset.seat,
                    hand: ({_HAND})(), actions: ({_ACTIONS})()}})"""
    )
    assert before["seat"] == "0" and before["hand"], before
    page.reload()
    table.wait_ready()
    my_turn(table)
    after = page.evaluate(
        f"""() => ({{v: document.querySelector('#table').dataset.v,
                    seat: document.querySelector('#table').dataset.seat,
                    hand: ({_HAND})(), actions: ({_ACTIONS})()}})"""
    )
    assert after["v"] == before["v"], (before["v"], after["v"])
    assert after["seat"] == before["seat"], (before["seat"], after["seat"])
    assert sorted(after["hand"]) == sorted(before["hand"]), (before["hand"], after["hand"])
    assert sorted(after["actions"]) == sorted(before["actions"])
    assert "#t=" not in page.url and token not in page.url, page.url
    assert token in page.evaluate("() => Object.values(sessionStorage)")
    move(table, rng)


def test_a_forged_link_is_refused_with_a_clear_message(
    context: BrowserContext, server: ServerProcess
) -> None:
    answer = create_room(server.url, ROOMS["death"])
    page = context.new_page()
    page.goto(f"{server.url}/r/{answer['room']}#t={secrets.token_urlsafe(32)}")
    wait_js(
        page,
        "() => { const e = document.querySelector('#error');"
        " return e !== null && e.getClientRects().length > 0 && e.innerText.trim() !== ''; }",
        None,
        "the forged link's message in #error",
    )
    error = page.locator("#error")
    text = error.inner_text()
    assert re.search(r"\blink\b", text, re.IGNORECASE), f"#error says {text!r}"
    assert error.get_attribute("role") == "alert"
    assert "#t=" not in page.url, page.url
    page.wait_for_timeout(300)  # anything the page would draw after the refusal
    assert page.locator("[data-action]").count() == 0
    assert page.locator("[data-card]").count() == 0
    seat = page.evaluate("() => document.querySelector('#table')?.dataset.seat ?? null")
    assert seat is None or not seat.isdigit(), f"the forged link got seat {seat!r}"


_FOCUS = """() => {
  const a = document.activeElement;
  const hand = document.querySelector('#hand');
  const cards = hand ? Array.from(hand.querySelectorAll('[data-card]')) : [];
  return {inHand: !!(hand && a && hand.contains(a)), index: cards.indexOf(a),
          card: a?.dataset?.card ?? null, action: a?.dataset?.action ?? null,
          leads: a?.dataset?.leads ?? null,
          disabled: a?.getAttribute('aria-disabled') === 'true',
          stops: hand ? Array.from(hand.querySelectorAll('*')).filter(
                   (e) => e.tabIndex >= 0 && !e.disabled).length : -1,
          tag: a?.tagName ?? null};
}"""


def test_the_hand_is_one_tab_stop_moved_in_by_arrows_and_played_by_enter(
    context: BrowserContext, server: ServerProcess
) -> None:
    table, _ = seat_page(context, server, "beor")
    page, keys = table.page, table.page.keyboard
    page.evaluate("() => document.activeElement?.blur()")
    focus: dict[str, Any] = {}
    for _ in range(80):
        keys.press("Tab")
        focus = page.evaluate(_FOCUS)
        if focus["inHand"]:
            break
    assert focus["inHand"], f"80 presses of Tab never reached #hand (at a {focus['tag']})"
    assert focus["stops"] == 1, f"#hand has {focus['stops']} tab stops, not one"
    first = focus["index"]
    keys.press("Tab")
    assert not page.evaluate(_FOCUS)["inHand"], "a second Tab stays in #hand"
    keys.press("Shift+Tab")
    assert page.evaluate(_FOCUS)["index"] == first, "Shift+Tab does not come back to the card"
    keys.press("ArrowRight")
    right = page.evaluate(_FOCUS)
    assert right["inHand"] and right["index"] != first, f"ArrowRight: {right}"
    keys.press("ArrowLeft")
    assert page.evaluate(_FOCUS)["index"] == first, "ArrowLeft does not go back"
    cards = len(page.evaluate(_HAND))
    for _ in range(cards):
        if not page.evaluate(_FOCUS)["disabled"]:
            break
        keys.press("ArrowRight")
    focus = page.evaluate(_FOCUS)
    assert not focus["disabled"], "no card of the hand can be played"
    v = table.v()
    assert v is not None
    keys.press("Enter")
    wait_js(
        page,
        """(v) => Number(document.querySelector('#table').dataset.v) > v
           || Array.from(document.querySelectorAll('[data-action], [data-leads]')).some(
                (e) => e.getClientRects().length > 0 && !e.closest('#hand'))""",
        v,
        f"Enter on {focus['card']} to play it or light up its bases",
    )
    if table.v() == v:
        menu = page.evaluate(_FOCUS)
        if menu["leads"] is not None:  # BEOR: a 4 or 7's base, then the stock to draw from
            keys.press("Enter")
            wait_js(
                page,
                "() => document.activeElement?.dataset.action !== undefined",
                None,
                f"Enter on a base of {focus['card']} to light up its stocks",
            )
            menu = page.evaluate(_FOCUS)
        assert menu["action"] is not None, f"the bases lit up, focus is on {menu}"
        keys.press("Enter")
    table.wait_v_above(v, f"after Enter on {focus['card']} (and its menu)")


def test_languages_change_the_words_not_the_notation(
    context: BrowserContext, server: ServerProcess
) -> None:
    table, _ = seat_page(context, server, "beor")
    page = table.page
    read = f"""() => ({{lang: document.documentElement.lang,
                       status: document.querySelector('#status')?.innerText ?? '',
                       actions: ({_ACTIONS})().sort(), hand: ({_HAND})().sort()}})"""
    english = page.evaluate(read)
    assert english["lang"] == "en", english["lang"]
    for lang in ("ro", "nl"):
        choose_language(page, lang, "#status", english["status"])
        now = page.evaluate(read)
        assert now["actions"] == english["actions"], (lang, now["actions"], english["actions"])
        assert now["hand"] == english["hand"], (lang, now["hand"], english["hand"])
    page.locator("select#lang").select_option("en")
    wait_js(page, "(l) => document.documentElement.lang === l", "en", "<html lang=en>")
    assert page.evaluate(read) == english
    page.locator("select#lang").select_option("nl")
    wait_js(page, "(l) => document.documentElement.lang === l", "nl", "<html lang=nl>")
    page.reload()
    table.wait_ready()
    assert page.evaluate("() => document.documentElement.lang") == "nl", "nl not kept"
    assert page.locator("select#lang").input_value() == "nl"


@pytest.mark.parametrize("game", ["beor", "death", "beggar"])
def test_at_360_px_nothing_scrolls_sideways_and_buttons_are_44_px(
    browser: Browser, server: ServerProcess, game: str
) -> None:
    narrow = new_context(
        browser,
        "phone",
        viewport={"width": 360, "height": 740},
    )
    try:
        table, _ = seat_page(narrow, server, game, touch=True)
        problems = layout_problems(table.page, f"{game} table at 360 px")
        menu = table.page.locator("#hand [data-card][aria-pressed]:visible")
        if game == "beor" and menu.count():
            table.press(menu.first)
            wait_js(
                table.page,
                "() => Array.from(document.querySelectorAll('[data-action], [data-leads]')).some("
                "(e) => e.getClientRects().length > 0)",
                None,
                "a BEOR card's bases lit up",
            )
            problems += layout_problems(table.page, f"{game} table at 360 px, a card chosen")
        report(problems, f"{game} at 360 px")
    finally:
        narrow.close()


_MOVING = """() => {
  const ms = (list) => Math.max(0, ...list.split(',').map((x) => {
    const v = parseFloat(x); return x.trim().endsWith('ms') ? v : v * 1000; }));
  const out = [];
  for (const e of document.querySelectorAll('*')) {
    for (const pseudo of [null, '::before', '::after']) {
      const s = getComputedStyle(e, pseudo);
      const id = e.id ? '#' + e.id : '';
      const what = `${e.tagName.toLowerCase()}${id}.${e.className}${pseudo || ''}`;
      if (s.animationName !== 'none' && ms(s.animationDuration) > 1)
        out.push(`${what}: animation ${s.animationName} ${s.animationDuration}`);
      if (s.transitionProperty !== 'none' && ms(s.transitionDuration) > 1)
        out.push(`${what}: transition ${s.transitionProperty} ${s.transitionDuration}`);
    }
  }
  for (const a of document.getAnimations()) {
    const d = Number(a.effect?.getComputedTiming().duration) || 0;
    if (a.playState === 'running' && d > 1) out.push(`running animation of ${d} ms`);
  }
  return out;
}"""


def test_with_reduced_motion_nothing_moves(browser: Browser, server: ServerProcess) -> None:
    calm = new_context(browser, reduced_motion="reduce")
    try:
        for game in ("beor", "death", "beggar"):
            table, _ = seat_page(calm, server, game)
            page = table.page
            assert page.evaluate("() => matchMedia('(prefers-reduced-motion: reduce)').matches")
            problems = [f"{game}, waiting: {p}" for p in page.evaluate(_MOVING)]
            v = table.v()
            assert v is not None
            action = sorted(page.evaluate(_ACTIONS))[0]
            table.play(action)
            table.wait_v_above(v, f"after {action!r}")
            problems += [f"{game}, just after {action}: {p}" for p in page.evaluate(_MOVING)]
            report(sorted(set(problems)), f"{game} with prefers-reduced-motion: reduce")
            page.close()
    finally:
        calm.close()


def test_axe_on_a_table_at_360_px_with_a_menu_open(browser: Browser, server: ServerProcess) -> None:
    narrow = new_context(browser, "phone", viewport={"width": 360, "height": 740})
    try:
        table, _ = seat_page(narrow, server, "beor", touch=True)
        menu = table.page.locator("#hand [data-card][aria-pressed]:visible")
        if menu.count():
            table.press(menu.first)
            wait_js(
                table.page,
                "() => document.querySelector('[data-target-base]') !== null",
                None,
                "a BEOR card's bases lit up",
            )
        report(axe_problems(table.page), "axe-core on a BEOR table at 360 px, a card chosen")
    finally:
        narrow.close()


def test_a_refusal_is_said_in_the_chosen_language(
    context: BrowserContext, server: ServerProcess
) -> None:
    # The rules refuse in English (the reject frame's message) and name their sentence (its
    # key): the page says the game's sentence in the chosen language, here typed notation
    # that is no move of the Game of Death.
    table, _ = seat_page(context, server, "death")
    page = table.page
    choose_language(page, "ro", "#status", page.locator("#status").inner_text())
    table.play("zz", notation=True)
    wait_js(
        page,
        "(s) => (document.querySelector('#error')?.innerText ?? '').includes(s)",
        "'zz' nu e o mutare din Jocul morții: scrie o carte (7C)",
        "the refusal in Romanian in #error",
    )
    assert "is not an action" not in page.locator("#error").inner_text()


_REFUSAL = """async (msg) => {
  const m = await import('/static/js/words.js');
  return m.refusalWords(msg, null);
}"""


def test_a_refusal_of_the_room_has_no_english_detail_in_another_language(
    context: BrowserContext, server: ServerProcess
) -> None:
    # "It is not your turn." and "The game is over." are whole sentences of the page's own
    # words; the server's English detail after them ("it is Player 2's turn, not Player 1's")
    # has no words in Romanian, so a Romanian page says the sentence alone. Refusals whose kind
    # needs its detail ("Not a move here:") keep it; English says both, as before.
    table, _ = seat_page(context, server, "death")
    page = table.page
    turn = {"code": "not_your_turn", "message": "it is Player 2's turn, not Player 1's"}
    over = {"code": "game_over", "message": "the game is over: '7C' cannot be played"}
    notation = {"code": "bad_notation", "message": "'zz' is not an action"}
    english = "It is not your turn. it is Player 2's turn, not Player 1's"
    assert page.evaluate(_REFUSAL, turn) == english
    choose_language(page, "ro", "#status", page.locator("#status").inner_text())
    assert page.evaluate(_REFUSAL, turn) == "Nu este rândul tău."
    assert page.evaluate(_REFUSAL, over) == "Jocul s-a terminat."
    assert page.evaluate(_REFUSAL, notation) == "Nu este o mutare aici: 'zz' is not an action"
