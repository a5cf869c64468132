"""The table on one screen, phone first (issue 26): at 390x844, 360x740 and 1280x800, for every
game (BEOR with five players, the Game of Death with ten, Beggar-My-Neighbour, Crazy Eights),
in a room of two people and bots, the turn line, every card of the hand and every control that
starts a move are inside the window without scrolling; a sheet (the rules, the settings, the
table penalties) opened before the bots move is still open after they did, scrolled where it
was; a refused typed move is said next to the hand, naming the player; a seat played by the
stand-in bot says so; the seats say "you" in words.

One room per game, shared by the tests: seat 0 is the person at the page; seat 1 is a person
who never comes, played by the stand-in bot at once (``--takeover 0``); the others are bots.
Screenshots of each game at each size go to tests/browser/screenshots/."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page

from tests.browser.browser import SCREENSHOTS, Table, axe_problems, new_context, report, wait_js
from tests.server.client import ServerProcess, create_room, running_server

NAMES = ["Ann", "Bo", "Cy", "Di", "Ed", "Fay", "Gus", "Hal", "Ivy", "Jo"]


def _room(game: str, players: int, bot: str, **options: Any) -> dict[str, Any]:
    return {
        "game": game, "players": players, "options": options,
        "seats": ["person", "person"] + [bot] * (players - 2), "names": NAMES[:players],
    }  # fmt: skip


ROOMS: dict[str, dict[str, Any]] = {
    "beor": _room("beor", 5, "heuristic", max_turns=150),
    "death": _room("death", 10, "heuristic"),
    "beggar": _room("beggar", 3, "bot", card_limit=400),
    "crazy-eights": _room("crazy-eights", 3, "heuristic"),
}
SIZES: dict[str, tuple[str, int, int]] = {
    "390x844": ("phone", 390, 844),
    "360x740": ("phone", 360, 740),
    "1280x800": ("desktop", 1280, 800),
}
CASES = [(game, "390x844") for game in ROOMS] + [
    ("beor", "360x740"), ("death", "360x740"),
] + [(game, "1280x800") for game in ROOMS]  # fmt: skip

_MY_TURN = """() => document.querySelector('#table.my-turn') !== null
  && document.querySelector('#table[data-game="beggar"], #hand [data-card]') !== null"""

# What a person must see to play, each checked where it is drawn: inside the window, and the
# element found at its middle is itself (not hidden under a sheet, nor scrolled out of a box).
_NEEDED = """() => {
  const out = [];
  const seen = (e) => e.getClientRects().length > 0 && getComputedStyle(e).visibility !== 'hidden';
  const check = (e, what) => {
    const r = e.getBoundingClientRect();
    const where = `${what} at ${Math.round(r.left)},${Math.round(r.top)}-` +
                  `${Math.round(r.right)},${Math.round(r.bottom)}`;
    const out_ = r.top < -0.5 || r.left < -0.5;
    if (out_ || r.bottom > innerHeight + 0.5 || r.right > innerWidth + 0.5) {
      out.push(`${where}: outside the ${innerWidth}x${innerHeight} window`);
      return;
    }
    const hit = document.elementFromPoint((r.left + r.right) / 2, (r.top + r.bottom) / 2);
    if (!hit || !(e === hit || e.contains(hit)))
      out.push(`${where}: covered or scrolled away (its middle shows ` +
               `${hit ? hit.tagName + '.' + hit.className : 'nothing'})`);
  };
  const status = document.querySelector('#status');
  if (status) check(status, `#status "${status.innerText.trim()}"`); else out.push('no #status');
  for (const c of document.querySelectorAll('#hand [data-card]'))
    check(c, `hand card ${c.dataset.card}`);
  const moves = Array.from(document.querySelectorAll('[data-action]')).filter(seen);
  for (const b of moves) check(b, `move ${b.dataset.action}`);
  const wide = document.scrollingElement.scrollWidth;
  if (wide > innerWidth) out.push(`the page is ${wide} px wide in a ${innerWidth} px window`);
  return {problems: out, moves: moves.length, scrollY: window.scrollY, width: innerWidth,
          height: document.scrollingElement.scrollHeight, window: innerHeight};
}"""
_ACTIONS = "() => Array.from(document.querySelectorAll('[data-action]'), (e) => e.dataset.action)"
_HAND = "() => Array.from(document.querySelectorAll('#hand [data-card]'), (e) => e.dataset.card)"
_STILL_MINE = """(v) => {
  const t = document.querySelector('#table');
  return Number(t.getAttribute('data-v')) === v && t.classList.contains('my-turn');
}"""
_AT_REST = "() => (document.documentElement.dataset.moving ?? '0') === '0'"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """A server on which an absent person is played for at once (``--takeover 0``)."""
    with running_server(tmp_path_factory.mktemp("phone") / "rooms.db", "--takeover", "0") as srv:
        yield srv


@pytest.fixture(scope="module")
def rooms(server: ServerProcess) -> dict[str, dict[str, Any]]:
    return {game: create_room(server.url, body) for game, body in ROOMS.items()}


@pytest.fixture(scope="module")
def contexts(browser: Browser) -> Iterator[dict[str, BrowserContext]]:
    made = {
        size: new_context(browser, kind, viewport={"width": w, "height": h})
        for size, (kind, w, h) in SIZES.items()
    }
    try:
        yield made
    finally:
        for context in made.values():
            context.close()


def seat_page(
    contexts: dict[str, BrowserContext], size: str, room: dict[str, Any], game: str
) -> Table:
    """Seat 0's page of ``room`` at ``size``, once it is seat 0's turn."""
    touch = SIZES[size][0] == "phone"
    table = Table(contexts[size], f"{game} Ann at {size}", 0, touch=touch)
    table.open(room["seats"][0]["link"])
    wait_js(table.page, _MY_TURN, None, f"Ann's turn at the {game} table")
    return table


def at_rest(page: Page) -> None:
    """Wait until no card is travelling (motion.js: <html data-moving="0">)."""
    wait_js(page, _AT_REST, None, "the cards to come to rest")


def needed(page: Page, where: str) -> dict[str, Any]:
    at_rest(page)
    found: dict[str, Any] = page.evaluate(_NEEDED)
    assert found["scrollY"] == 0, f"{where}: the page scrolled to {found['scrollY']}"
    size = page.viewport_size
    assert size is not None and found["width"] == size["width"], (
        f"{where}: the phone zoomed out to {found['width']} px (something is wider than the page)"
    )
    assert not found["problems"], (
        f"{where}: not in sight without scrolling (the page is {found['height']} px tall in a "
        f"{found['window']} px window):\n" + "\n".join(found["problems"])
    )
    return found


@pytest.mark.parametrize(("game", "size"), CASES)
def test_the_turn_the_hand_and_the_moves_are_on_one_screen(
    contexts: dict[str, BrowserContext], rooms: dict[str, dict[str, Any]], game: str, size: str
) -> None:
    table = seat_page(contexts, size, rooms[game], game)
    page = table.page
    try:
        found = needed(page, f"{game} at {size}")
        if (game, size) == ("death", "360x740"):  # ten seats: the strip and the board scroll
            report(axe_problems(page), f"axe-core on {game} at {size}")
        if game != "beor":  # BEOR: a card with several moves offers them once it is chosen
            assert found["moves"] > 0, f"{game} at {size}: no move shown"
        SCREENSHOTS.mkdir(exist_ok=True)
        kind = SIZES[size][0]
        page.screenshot(path=str(SCREENSHOTS / f"{kind}-{game}-{size}.png"), animations="disabled")
        # BEOR: a card chosen (one that does not play at once), the moves it offers are in
        # sight too.
        choose = page.locator("#hand [data-card].playable:not([data-action])")
        if game == "beor" and choose.count():
            table.press(choose.first)
            wait_js(  # a 4 or 7 lights its bases ([data-leads]), then the stocks
                page,
                "() => Array.from(document.querySelectorAll('[data-action], [data-leads]'))"
                ".some((e) => e.getClientRects().length > 0)",
                None,
                "the chosen card's moves",
            )
            needed(page, f"{game} at {size}, a card chosen")
    finally:
        page.close()


_SCROLLER = """(name) => {
  const d = document.querySelector(`details.${name}`);
  return d ? (d.querySelector('.sheet-body') || d) : null;
}"""
_SHEET = """(name) => {
  const d = document.querySelector(`details.${name}`);
  const box = d ? (d.querySelector('.sheet-body') || d) : null;
  return d ? {open: d.open, top: box.scrollTop} : null;
}"""


def open_sheet(table: Table, name: str) -> None:
    table.press(table.page.locator(f"details.{name} > summary"))
    wait_js(table.page, f"() => document.querySelector('details.{name}')?.open", None, name)


def test_sheets_stay_open_and_scrolled_while_the_bots_move(
    contexts: dict[str, BrowserContext], rooms: dict[str, dict[str, Any]]
) -> None:
    phone = seat_page(contexts, "390x844", rooms["death"], "death")
    desk = seat_page(contexts, "1280x800", rooms["death"], "death")
    try:
        open_sheet(phone, "rules")
        top = phone.page.evaluate(
            f"(n) => {{ const b = ({_SCROLLER})(n); b.scrollTop = 160; return b.scrollTop; }}",
            "rules",
        )
        open_sheet(desk, "settings")
        open_sheet(desk, "penalties")
        v = phone.v()
        assert v is not None
        # Ann plays from her other device until the turn leaves her; then a bot moves. Not
        # every card passes the turn: a black face card has her give its drinks first, and
        # after an Ace the pile is swept and she leads again (ruling G8), so she keeps to other
        # cards when she can, and plays on while it is still her turn.
        chooser = random.Random(1)
        for _ in range(6):
            actions = desk.page.evaluate(_ACTIONS)
            quiet = [a for a in actions if a[0] != "A" and not (a[0] in "JQK" and a[1:] in "CS")]
            desk.play(chooser.choice(sorted(quiet or actions)))
            desk.wait_v_above(v, "after Ann's move")
            v += 1
            gives = [a for a in desk.page.evaluate(_ACTIONS) if a.startswith("give ")]
            if gives:
                desk.play(gives[0])
                desk.wait_v_above(v, f"after Ann's {gives[0]!r}")
                v += 1
            if not desk.page.evaluate(_STILL_MINE, v):
                break
        # v: the version of Ann's last move; what follows it is a bot's.
        phone.wait_v_above(v, "after Ann's move and a bot's")
        desk.wait_v_above(v, "after Ann's move and a bot's")
        rules = phone.page.evaluate(_SHEET, "rules")
        assert rules == {"open": True, "top": top}, f"the phone's rules after the bots: {rules}"
        for name in ("settings", "penalties"):
            sheet = desk.page.evaluate(_SHEET, name)
            assert sheet is not None and sheet["open"], f"the desktop's {name}: {sheet}"
        button = desk.page.locator('button[data-table="doh P1"]')
        assert button.is_visible(), "the penalty button is hidden"
        # The phone's open sheet leaves the turn line and the hand in reach.
        needed(phone.page, "death at 390x844 with the rules open")
    finally:
        phone.page.close()
        desk.page.close()


def test_a_refused_typed_move_is_said_next_to_the_hand_with_names(
    contexts: dict[str, BrowserContext], rooms: dict[str, dict[str, Any]]
) -> None:
    table = seat_page(contexts, "390x844", rooms["beor"], "beor")
    page = table.page
    try:
        hand = set(page.evaluate(_HAND))
        card = next(f"{r}{s}" for s in "SHDC" for r in "A23456789TJQK" if f"{r}{s}" not in hand)
        table.play(f"{card}>red", notation=True)
        wait_js(
            page,
            "() => (document.querySelector('#error')?.innerText ?? '').trim() !== ''",
            None,
            "the refusal in #error",
        )
        error = page.locator("#error")
        text = error.inner_text()
        assert error.get_attribute("role") == "alert"
        assert "Ann" in text and "Player 1" not in text, f"#error says {text!r}"
        box = error.bounding_box()
        assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 844, (
            f"#error ({text!r}) is drawn at {box}, outside the 390x844 window"
        )
        hit = page.evaluate(
            """() => { const e = document.querySelector('#error');
                 const r = e.getBoundingClientRect();
                 const hit = document.elementFromPoint(r.left + 4, (r.top + r.bottom) / 2);
                 return hit !== null && (hit === e || e.contains(hit)); }"""
        )
        assert hit, "#error is covered"
        needed(page, "beor at 390x844 with a refusal shown")
    finally:
        page.close()


def test_the_seats_say_who_is_you_and_who_a_bot_plays_for(
    contexts: dict[str, BrowserContext], rooms: dict[str, dict[str, Any]]
) -> None:
    table = seat_page(contexts, "390x844", rooms["crazy-eights"], "crazy-eights")
    page = table.page
    try:
        bo = page.locator('#seat-list [data-player="1"]').inner_text()
        assert "Bo is away: a bot plays for them" in bo, f"Bo's seat says {bo!r}"
        me = page.evaluate(
            """() => { const s = document.querySelector('#seat-list .seat.me');
                 const name = s.querySelector('.seat-name');
                 return {text: s.innerText, after: getComputedStyle(name, '::after').content,
                         stars: document.querySelector('#seat-list').innerText.includes('★')}; }"""
        )
        assert "you" in me["text"].lower(), me
        assert me["after"] in ("none", "normal") and not me["stars"], f"a star in the seats: {me}"
    finally:
        page.close()
