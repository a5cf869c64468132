"""BEOR's board in Chromium (issue 26: defect 4, deliverables 3, 6 and 7 for BEOR): a card is
played by tapping it and then one of the bases that light up for it (only those, and exactly
the bases of its legal moves); a 4 or 7 lights the stocks next and a tap on one completes the
move; a card dragged onto a base (by a mouse or a finger) is played; the keyboard takes the
same path; a setting plays a card with one legal move at once; known cards are at least 40 CSS
px wide on a phone; at the end of a deal every hand is shown, the winner's as its two groups.

The deals are fixed: the rooms are made in the database before ``parlour serve`` starts, from
seeds found with the engine (``parlour.games``) and, for some, moves played in the room then,
so each test starts from a known position (the server's own rooms are dealt from secret seeds).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page

from parlour.core.fairness import commitment
from parlour.core.game import State
from parlour.games import GAMES
from parlour.server.hub import Hub, Settings
from parlour.server.protocol import hash_token, new_token
from parlour.server.store import EventRow, RoomRow, SeatRow, open_store
from tests.browser.browser import (
    SCREENSHOTS,
    Table,
    axe_problems,
    new_context,
    report,
    wait_js,
)
from tests.server.client import ServerProcess, running_server


@dataclass(frozen=True)
class Deal:
    seed: int
    names: tuple[str, ...]
    options: dict[str, Any]
    line: tuple[str, ...] = ()
    """Moves played in the room before the test opens it."""


START = Deal(5, ("Ann", "Bob"), {"natural_win": False})
"""Seat 0 (Ann) to play first, holding AD 4S 7S 8H JS QC: every card fits two bases, the 4 and
the 7 may then draw from any of the four stocks (B7)."""

LATER = Deal(
    5,
    ("Ann", "Bob"),
    {"natural_win": False},
    (
        "4S>even/red", "8D>even", "5D>red", "KD>red", "7S>odd/red", "TD>red", "5H>red",
        "2C>black", "QC>black", "QD>red", "4D>red/odd", "JD>red", "2H>red", "8S>even",
    ),
)  # fmt: skip
"""Fourteen moves on: the red stock is empty, so Ann's AD (odd only) and 8H (even only) have
one legal move each; Bob holds JC, drawn from a face-up stock; the even stock, turned face up
and down again, has 3D known at its bottom (B6)."""

WON = Deal(400400, ("Ann", "Bob", "Cy"), {"natural_win": True})
"""Three players; Bob's dealt hand is two sets, 4H 4D 4C and QS QH QC: he wins at once (B5).
Cy's hand (3H 8D 7S JK1 TH KC) is hidden from Ann's view, shown after the end."""

ROOMS = {
    "tap": START,
    "four": START,
    "drag": START,
    "finger": START,
    "keys": START,
    "onetap": LATER,
    "known": LATER,
    "won": WON,
}


def state_of(deal: Deal) -> State:
    state = GAMES["beor"].new(len(deal.names), deal.seed, deal.options)
    for action in deal.line:
        state = state.apply(action)
    return state


def moves_of(deal: Deal, card: str) -> list[str]:
    return sorted(str(a) for a in state_of(deal).legal_actions() if str(a).startswith(card + ">"))


def bases_of(moves: list[str]) -> set[str]:
    return {m.split(">")[1].split("/")[0] for m in moves}


async def _prepare(db: str) -> dict[str, list[str]]:
    """The rooms of :data:`ROOMS` made in ``db``; each room's seat tokens."""
    store = open_store(db)
    hub = Hub(store, Settings(takeover=3600.0, bot_delay=0.0, bot_workers=0))
    await hub.start()
    tokens: dict[str, list[str]] = {}
    try:
        game = GAMES["beor"]
        for name, deal in ROOMS.items():
            tokens[name] = [new_token() for _ in deal.names]
            seats = tuple(
                SeatRow(i, "person", who, hash_token(tokens[name][i]))
                for i, who in enumerate(deal.names)
            )
            options = dict(game.options(deal.options).items())
            row = RoomRow(name, "beor", len(seats), options, seats, "test", time.time())
            data = {"seed": deal.seed, "number": 0, "commitment": commitment(deal.seed)}
            await store.create_room(row, EventRow(0, "deal", None, data))
            room = await hub.room(name)
            assert room is not None
            for action in deal.line:
                seat = room.state.to_move
                assert seat is not None
                async with hub.lock(room.id):
                    assert await hub.submit(room, room.prepare_act(seat, room.v, action, None))
    finally:
        await hub.stop()
    return tokens


@dataclass(frozen=True)
class Rooms:
    server: ServerProcess
    tokens: dict[str, list[str]]

    def link(self, room: str, seat: int = 0) -> str:
        return f"{self.server.url}/r/{room}#t={self.tokens[room][seat]}"


@pytest.fixture(scope="module")
def rooms(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Rooms]:
    db = str(tmp_path_factory.mktemp("beor-direct") / "rooms.db")
    with ThreadPoolExecutor(1) as pool:  # away from Playwright's own event loop
        tokens = pool.submit(asyncio.run, _prepare(db)).result()
    with running_server(db, "--takeover", "3600") as server:  # nobody plays for the away
        yield Rooms(server, tokens)


@pytest.fixture
def phone(browser: Browser) -> Iterator[BrowserContext]:
    context = new_context(browser, "phone")
    try:
        yield context
    finally:
        context.close()


_LIT = """() => ({
  bases: [...document.querySelectorAll('[data-target-base]')].map((e) => e.dataset.targetBase),
  stocks: [...document.querySelectorAll('[data-target-stock]')].map((e) => e.dataset.targetStock),
})"""
_HAND = "() => [...document.querySelectorAll('#hand [data-card]')].map((e) => e.dataset.card)"
_SEEN = """(sel) => { const e = document.querySelector(sel);
  if (!e || !e.getClientRects().length) return null;
  const r = e.getBoundingClientRect(); const s = getComputedStyle(e);
  return {width: r.width, shadow: s.boxShadow, outline: s.outlineStyle,
          pressed: e.getAttribute('aria-pressed'), label: e.getAttribute('aria-label') || '',
          action: e.dataset.action ?? null, leads: e.dataset.leads ?? null}; }"""


def seat_page(context: BrowserContext, rooms: Rooms, room: str) -> Table:
    table = Table(context, f"{room} Ann", 0, touch=True).open(rooms.link(room))
    wait_js(
        table.page, "() => document.querySelector('#hand [data-card]') !== null", None, "the hand"
    )
    return table


def lit(page: Page) -> dict[str, list[str]]:
    found: dict[str, list[str]] = page.evaluate(_LIT)
    return found


def seen(page: Page, selector: str) -> dict[str, Any]:
    found: dict[str, Any] | None = page.evaluate(_SEEN, selector)
    assert found is not None, f"{selector} is not shown"
    return found


def card(page: Page, name: str) -> str:
    return f'#hand [data-card="{name}"]'


def wait_lit(page: Page, bases: set[str], what: str) -> None:
    wait_js(
        page,
        "(want) => JSON.stringify([...document.querySelectorAll('[data-target-base]')]"
        ".map((e) => e.dataset.targetBase).sort()) === JSON.stringify(want)",
        sorted(bases),
        what,
    )


def played(table: Table, v: int, gone: str, why: str) -> None:
    table.wait_v_above(v, why)
    wait_js(
        table.page,
        '(c) => !document.querySelector(`#hand [data-card="${c}"]`)',
        gone,
        f"{gone} to leave the hand {why}",
    )


def test_a_tapped_card_lights_the_bases_it_may_go_on_and_a_tapped_base_plays_it(
    phone: BrowserContext, rooms: Rooms
) -> None:
    table = seat_page(phone, rooms, "tap")
    page = table.page
    assert lit(page) == {"bases": [], "stocks": []}, "bases lit before a card is chosen"
    moves = moves_of(START, "JS")
    assert bases_of(moves) == {"black", "odd"}, moves
    table.press(page.locator(card(page, "JS")))
    wait_lit(page, bases_of(moves), "JS's bases (black, odd) to light up")
    assert seen(page, card(page, "JS"))["pressed"] == "true"
    unlit = seen(page, '.beor-column[data-base="even"] .pile')
    for base in ("black", "odd"):
        target = seen(page, f'[data-target-base="{base}"]')
        assert target["action"] == f"JS>{base}", target
        assert "Play" in target["label"] and "Jack of spades" in target["label"], target
        assert target["shadow"] != unlit["shadow"] or target["outline"] != unlit["outline"]
    page.screenshot(path=str(SCREENSHOTS / "beor-chosen-390x844.png"), animations="disabled")
    v = table.v()
    assert v is not None
    table.press(page.locator('[data-target-base="odd"]'))
    played(table, v, "JS", "after a tap on JS, then on the odd base")
    assert lit(page) == {"bases": [], "stocks": []}, "bases still lit after the move"


def test_a_four_or_seven_lights_the_stocks_after_its_base(
    phone: BrowserContext, rooms: Rooms
) -> None:
    table = seat_page(phone, rooms, "four")
    page = table.page
    moves = moves_of(START, "7S")
    table.press(page.locator(card(page, "7S")))
    wait_lit(page, bases_of(moves), "7S's bases (black, odd) to light up")
    assert lit(page)["stocks"] == [], "stocks lit before the base is chosen"
    odd = seen(page, '[data-target-base="odd"]')
    assert odd["action"] is None and odd["pressed"] == "false", odd
    assert set((odd["leads"] or "").split()) == {m for m in moves if ">odd" in m}, odd
    table.press(page.locator('[data-target-base="odd"]'))
    wait_js(
        page,
        "() => document.querySelectorAll('[data-target-stock]').length === 4",
        None,
        "the four stocks to light up after the odd base",
    )
    assert seen(page, '[data-target-base="odd"]')["pressed"] == "true"
    stocks = {
        s: seen(page, f'[data-target-stock="{s}"]')["action"]
        for s in ("black", "even", "odd", "red")
    }
    assert stocks == {s: "7S>odd" if s == "odd" else f"7S>odd/{s}" for s in stocks}, stocks
    report(axe_problems(page), "axe-core on BEOR's stocks lit for a 7")
    page.screenshot(path=str(SCREENSHOTS / "beor-stocks-390x844.png"), animations="disabled")
    v = table.v()
    assert v is not None
    table.press(page.locator('[data-target-stock="red"]'))
    played(table, v, "7S", "after 7S, the odd base and the red stock")
    assert "from Red" in (page.locator("#log").text_content() or "")


def test_a_card_dragged_onto_a_base_is_played(phone: BrowserContext, rooms: Rooms) -> None:
    table = seat_page(phone, rooms, "drag")
    page = table.page
    source = page.locator(card(page, "QC")).bounding_box()
    assert source is not None
    page.mouse.move(source["x"] + source["width"] / 2, source["y"] + source["height"] / 2)
    page.mouse.down()
    page.mouse.move(source["x"] + source["width"] / 2, source["y"] - 30, steps=4)
    wait_lit(page, bases_of(moves_of(START, "QC")), "QC's bases (black, even) while it is dragged")
    target = page.locator('[data-target-base="even"]').bounding_box()
    assert target is not None
    v = table.v()
    assert v is not None
    page.mouse.move(target["x"] + target["width"] / 2, target["y"] + target["height"] / 2, steps=6)
    page.mouse.up()
    played(table, v, "QC", "after QC was dragged onto the even base")


def test_the_keyboard_plays_a_seven_through_its_base_and_stock(
    browser: Browser, rooms: Rooms
) -> None:
    context = new_context(browser)
    try:
        table = Table(context, "keys Ann", 0).open(rooms.link("keys"))
        page, keys = table.page, table.page.keyboard
        page.locator(card(page, "7S")).focus()
        keys.press("Space")
        wait_js(
            page,
            "() => document.activeElement?.dataset.targetBase !== undefined",
            None,
            "the focus on a lit base after Space on 7S",
        )
        keys.press("Escape")
        wait_js(
            page,
            "() => document.activeElement?.dataset.card === '7S'"
            " && !document.querySelector('[data-target-base]')",
            None,
            "Escape to put 7S back, the focus on it",
        )
        keys.press("Enter")
        wait_js(
            page,
            "() => document.activeElement?.dataset.targetBase === 'black'",
            None,
            "the focus on the black base after Enter on 7S",
        )
        keys.press("Enter")
        wait_js(
            page,
            "() => document.activeElement?.dataset.targetStock !== undefined",
            None,
            "the focus on a lit stock after Enter on the black base",
        )
        action = page.evaluate("() => document.activeElement.dataset.action")
        assert action in moves_of(START, "7S") and action.startswith("7S>black"), action
        v = table.v()
        assert v is not None
        keys.press("Enter")
        played(table, v, "7S", f"after Enter on {action}")
    finally:
        context.close()


def test_a_setting_plays_a_card_with_one_legal_move_at_once(
    phone: BrowserContext, rooms: Rooms
) -> None:
    table = seat_page(phone, rooms, "onetap")
    page = table.page
    assert moves_of(LATER, "AD") == ["AD>odd"]
    v = table.v()
    assert v is not None
    # Off (the default): a tap chooses the card and lights its one base.
    table.press(page.locator(card(page, "AD")))
    wait_lit(page, {"odd"}, "AD's one base to light up")
    assert table.v() == v
    table.press(page.locator(card(page, "AD")))
    wait_lit(page, set(), "a second tap on AD to put it back")
    box = page.locator("#beor-one-tap")
    table.press(box)
    assert box.is_checked()
    assert page.evaluate("() => localStorage.getItem('parlour.beorOneTap')") == "1"
    table.press(page.locator("details[open]:has(#beor-one-tap) > summary"))  # settings closed
    wait_js(
        page,
        "() => document.querySelector('#hand [data-card=\"AD\"]')?.dataset.action === 'AD>odd'",
        None,
        "AD to carry its one move",
    )
    table.press(page.locator(card(page, "AD")))
    played(table, v, "AD", "after one tap on AD with the setting on")


def test_known_cards_are_at_least_40_px_wide_on_a_phone(
    phone: BrowserContext, rooms: Rooms
) -> None:
    table = seat_page(phone, rooms, "known")
    page = table.page
    holds = seen(page, '[data-player="1"] [data-card="JC"]')  # Bob holds JC (drawn face up)
    in_stock = seen(page, '.beor-column[data-base="even"] [data-card="3D"]')
    assert holds["width"] >= 40, f"JC in Bob's seat is {holds['width']:.1f} px wide"
    assert in_stock["width"] >= 40, f"3D known in the even stock is {in_stock['width']:.1f} px wide"


def test_the_end_of_a_deal_shows_every_hand_and_the_winners_groups(
    phone: BrowserContext, rooms: Rooms
) -> None:
    table = Table(phone, "won Ann", 0, touch=True)
    asked: list[str] = []
    table.page.on("request", lambda request: asked.append(request.url))
    table.open(rooms.link("won"))
    page = table.page
    page.locator("[data-outcome]").wait_for()
    final = state_of(WON).to_json()
    hands: list[list[str]] = final["hands"]
    wait_js(
        page,
        "(n) => [...Array(n).keys()].every((s) => document.querySelectorAll("
        '`[data-hand-of="${s}"] [data-card]`).length === 6)',
        len(hands),
        "every hand at the end",
    )
    for seat, hand in enumerate(hands):
        shown = page.evaluate(
            '(s) => [...document.querySelectorAll(`[data-hand-of="${s}"] [data-card]`)]'
            ".map((e) => [e.dataset.card, e.getBoundingClientRect().width])",
            seat,
        )
        assert sorted(c for c, _ in shown) == sorted(hand), (seat, shown, hand)
        assert all(w >= 44 for _, w in shown), (seat, shown)
    groups = page.evaluate(
        "() => [...document.querySelectorAll('[data-hand-of=\"1\"] .beor-group')]"
        ".map((g) => [...g.querySelectorAll('[data-card]')].map((e) => e.dataset.card).sort())"
    )
    assert sorted(groups) == [["4C", "4D", "4H"], ["QC", "QH", "QS"]], groups
    # The hands come from the last position alone, never from the whole replay.
    api = [url.split("/api/rooms/won/", 1)[1] for url in asked if "/api/rooms/won/" in url]
    assert "final?deal=0" in api and not [u for u in api if u.startswith("replay")], api
    page.locator('[data-hand-of="1"]').scroll_into_view_if_needed()
    page.screenshot(path=str(SCREENSHOTS / "beor-end-hands-390x844.png"), animations="disabled")


def test_a_card_dragged_by_a_finger_is_played(phone: BrowserContext, rooms: Rooms) -> None:
    # Touch events as a phone's screen sends them (Chromium's DevTools protocol): the pointer
    # events of a finger, which the page follows as it does a mouse's.
    table = seat_page(phone, rooms, "finger")
    page = table.page
    source = page.locator(card(page, "8H")).bounding_box()
    assert source is not None
    x, y = source["x"] + source["width"] / 2, source["y"] + source["height"] / 2
    cdp = phone.new_cdp_session(page)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
    for step in range(1, 5):
        point = {"x": x, "y": y - 10 * step}
        cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [point]})
    wait_lit(page, bases_of(moves_of(START, "8H")), "8H's bases (even, red) under the finger")
    target = page.locator('[data-target-base="red"]').bounding_box()
    assert target is not None
    tx, ty = target["x"] + target["width"] / 2, target["y"] + target["height"] / 2
    v = table.v()
    assert v is not None
    for step in range(1, 7):
        point = {"x": x + (tx - x) * step / 6, "y": y - 40 + (ty - y + 40) * step / 6}
        cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [point]})
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    played(table, v, "8H", "after 8H was dragged by a finger onto the red base")
