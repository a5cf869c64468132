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
- updates that come close together (moves made by the test over the websocket within
  milliseconds) wait in a queue: each version is drawn and its cards travel in turn, the next
  version (turn line, counts, log) only once they have landed; a burst is caught up (at most
  three wait, the waiting ones drawn together) so a page is never much more than a second
  behind; the seat's own move is drawn at once, never behind another player's card; with
  reduced motion each update is drawn as it comes, nothing waits;
- a card going from the hand (in the dock) to a base (in the middle) is seen whole while it
  travels, not cut off at the edge of the part of the page that scrolls;
- the end of a tied deal on a phone: every hand revealed with cards at least 40 CSS px wide
  inside the screen's width, the win said to be shared (English, Romanian, Dutch), Play again;
- the sound for your turn is off by default and sounds once when the turn comes to you, not
  at every update while it is yours.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import ExitStack
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page
from websockets.sync.client import ClientConnection, connect

from tests.browser.browser import SCREENSHOTS, STATIC, new_context, wait_js
from tests.server.client import WAIT, ServerProcess, create_room

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


def record_starts(page: Page, look: str) -> None:
    """From now on, the JavaScript function ``look(animation, element)`` is read in ``page``
    as each animation starts (its ``ready``) and its answers other than null are kept in
    ``window.parlourStarts``. A travel is then seen however soon it ends: a poll begun after
    the click could miss a travel of 250 ms on a loaded machine, and wait for one forever."""
    page.evaluate("() => {\n  const look = " + look + ";\n" + _RECORD_STARTS + "}")


_RECORD_STARTS = """
  window.parlourStarts = [];
  const animate = Element.prototype.animate;
  Element.prototype.animate = function (...args) {
    const animation = animate.apply(this, args);
    const element = this;
    animation.ready.then(() => {
      const seen = look(animation, element);
      if (seen !== null) window.parlourStarts.push(seen);
    }).catch(() => {});  // cancelled before it started: nothing was seen
    return animation;
  };
"""
_STARTED = "() => window.parlourStarts.length > 0"
_TRAVEL = """(a, el) => ({moving: Number(document.documentElement.dataset.moving),
                          duration: Number(a.effect.getComputedTiming().duration),
                          card: el.dataset?.card ?? null})"""


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
        record_starts(page, _TRAVEL)
        page.locator(_PLAY).click()
        wait_js(page, _STARTED, None, "a card to start travelling")
        wait_js(page, "() => document.documentElement.dataset.moving === '0'", None, "rest")
        seen = page.evaluate("() => window.parlourStarts")
        assert all(s["moving"] > 0 for s in seen), seen
        assert max(s["duration"] for s in seen) <= 250, seen
        assert "TH" in [s["card"] for s in seen], seen  # the card turned is the one that travels
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
    """Beggar-My-Neighbour's words in ``lang`` (a tie at the card limit is said in them)."""
    path = STATIC.parent.parent / "games" / "beggar" / "words" / f"{lang}.json"
    found: dict[str, str] = json.loads(path.read_text("utf-8"))
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
        shared = en["ui.end.limit_share_you"].format(cards=2, names="Bo")
        assert shared in end.inner_text(), end.inner_text()
        assert page.locator("button#rematch").is_visible()
        SCREENSHOTS.mkdir(exist_ok=True)
        page.locator("#end [data-hand-of]").last.scroll_into_view_if_needed()
        page.screenshot(path=str(SCREENSHOTS / "end-tie-390x844.png"), animations="disabled")
        for lang in ("ro", "nl"):
            said = words(lang)
            want = said["ui.end.limit_share_you"].format(cards=2, names="Bo")
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


# -- the queue of updates (issue 26.5: "queued so the state is never ahead of the picture") ----

_RECORD = """(() => {
  // What the table drew and moved, in the page: every animation started (the version drawn
  // then, its card, whether it travels), every version drawn (with the animations of earlier
  // versions not finished at that moment) and every frame received (when, and the version
  // drawn once the table had it).
  const rec = window.__motion = { anims: [], drawn: [], frames: [] };
  const list = [];
  const v = () => {
    const t = document.querySelector('#table');
    return t && t.dataset.v !== '' ? Number(t.dataset.v) : null;
  };
  const animate = Element.prototype.animate;
  Element.prototype.animate = function (keyframes, options) {
    const a = animate.call(this, keyframes, options);
    const item = { v: v(), card: (this.dataset && this.dataset.card) || null,
                   travels: JSON.stringify(keyframes).includes('translate'),
                   start: performance.now() };
    rec.anims.push(item);
    list.push({ item, a });
    return a;
  };
  let last = null;
  new MutationObserver(() => {
    const now = v();
    if (now === null || now === last) return;
    last = now;
    const behind = list.filter((x) => x.item.v !== null && x.item.v < now
      && x.a.playState !== 'finished').map((x) => [x.item.v, x.item.card, x.a.playState]);
    rec.drawn.push({ v: now, at: performance.now(), behind,
                     status: (document.querySelector('#status') || {}).textContent || '',
                     waiting: window.parlourMotion ? window.parlourMotion.waiting : null });
  }).observe(document, { subtree: true, attributes: true, attributeFilter: ['data-v'],
                         childList: true });
  const add = WebSocket.prototype.addEventListener;
  WebSocket.prototype.addEventListener = function (type, fn, ...rest) {
    if (type !== 'message') return add.call(this, type, fn, ...rest);
    return add.call(this, type, (event) => {
      let msg = null;
      try { msg = JSON.parse(event.data); } catch (e) { msg = null; }
      const at = performance.now();
      fn(event);
      if (msg && (msg.type === 'update' || msg.type === 'welcome')) {
        rec.frames.push({ v: msg.v, at, shown: v(),
                          waiting: window.parlourMotion ? window.parlourMotion.waiting : null });
      }
    }, ...rest);
  };
})();"""


class Seats:
    """Both seats of a two-person room, played by the test over the websocket (each move
    answered before the next is sent: the moves follow each other within milliseconds)."""

    def __init__(self, server: ServerProcess, room: dict[str, Any]) -> None:
        self.room = str(room["room"])
        self.stack = ExitStack()
        self.ws = [
            self.stack.enter_context(connect(f"{server.ws}/ws/{self.room}", open_timeout=WAIT))
            for _ in room["seats"]
        ]
        self.v = 0
        for seat, ws in enumerate(self.ws):
            token = str(room["seats"][seat]["link"]).split("#t=", 1)[1]
            ws.send(json.dumps({"type": "hello", "token": token, "v": 0}))
            self.v = self.answer(ws, "welcome")["v"]

    @staticmethod
    def answer(ws: ClientConnection, kind: str, cid: str | None = None) -> dict[str, Any]:
        while True:
            frame: dict[str, Any] = json.loads(ws.recv(timeout=WAIT))
            if frame["type"] in kind.split("|") and (cid is None or frame.get("id") == cid):
                return frame

    def play(self, seats: list[int]) -> None:
        """``play`` for each of ``seats`` in turn (Beggar-My-Neighbour's one move)."""
        for n, seat in enumerate(seats):
            cid = f"m{self.v}x{n}"
            self.ws[seat].send(
                json.dumps({"type": "act", "id": cid, "v": self.v, "action": "play"})
            )
            answer = self.answer(self.ws[seat], "ack|reject", cid)
            assert answer["type"] == "ack", answer
            self.v = int(answer["v"])

    def close(self) -> None:
        self.stack.close()


def movers(count: int) -> list[int]:
    """The seats that move in the first ``count`` moves of the fixed two-player deal."""
    from parlour.games import GAMES

    game = GAMES["beggar"]
    state = game.new(2, SEED, {}, game.match_deal(2, SEED, 0))
    seats = []
    for _ in range(count):
        assert state.to_move is not None
        seats.append(state.to_move)
        state = state.apply(state.legal_actions()[0])
    return seats


def watch(
    context: BrowserContext, server: ServerProcess, moves: int, seat: int | None = None
) -> tuple[Page, dict[str, Any]]:
    """A room of two people played by the test: its spectator's page (or ``seat``'s) records
    what it draws; the test makes ``moves`` moves in a burst once the page is drawn, and waits
    until the page has drawn the last and nothing moves."""
    context.add_init_script(_RECORD)
    room = create_room(
        server.url,
        {"game": "beggar", "players": 2, "seats": ["person", "person"], "names": ["Ana", "Bo"]},
    )
    seats = Seats(server, room)
    try:
        page = context.new_page()
        page.goto(str(room["spectate"] if seat is None else room["seats"][seat]["link"]))
        wait_js(page, "() => window.__motion.drawn.some((d) => d.v === 0)", None, "v0 drawn")
        wait_js(page, "() => document.documentElement.dataset.moving === '0'", None, "rest")
        seats.play(movers(moves))
        wait_js(
            page,
            "(n) => Number(document.querySelector('#table').dataset.v) === n"
            " && document.documentElement.dataset.moving === '0'",
            moves,
            f"v{moves} drawn and at rest",
        )
    finally:
        seats.close()
    rec: dict[str, Any] = page.evaluate("() => window.__motion")
    return page, rec


def test_updates_close_together_are_drawn_and_moved_in_turn(
    browser: Browser, seeded: ServerProcess
) -> None:
    """Four moves within milliseconds (Ana turns QD, Bo pays TH, then 9H and Ana takes the
    pile: its two cards fly to her as backs; Ana leads AC): each version is drawn in turn, its
    cards travel, and the next version (its turn line, counts, log) is drawn only once they
    have landed."""
    context = new_context(browser, "phone")
    try:
        _, rec = watch(context, seeded, 4)
        drawn = [d["v"] for d in rec["drawn"]]
        assert drawn == [0, 1, 2, 3, 4], rec["drawn"]
        for d in rec["drawn"]:
            assert d["behind"] == [], f"v{d['v']} drawn while a card of before still moved: {d}"
        for v in (1, 2, 3, 4):
            moved = [a for a in rec["anims"] if a["v"] == v and a["travels"]]
            assert moved, f"nothing travelled at v{v}: {rec['anims']}"
        # A card's copy travels over the page while the card itself waits unseen in its place.
        cards = [
            {a["card"] for a in rec["anims"] if a["v"] == v and a["card"]} for v in (1, 2, 3, 4)
        ]
        assert cards == [{"QD"}, {"TH"}, set(), {"AC"}], rec["anims"]
        assert len([a for a in rec["anims"] if a["v"] == 3 and a["travels"]]) == 2, rec["anims"]
        statuses = [d["status"] for d in rec["drawn"]]
        assert "Bo" in statuses[1] and "Ana" in statuses[3], statuses
    finally:
        context.close()


CATCH_UP = 3
"""At most this many updates wait while a card travels (motion.js)."""


def test_a_burst_of_updates_is_caught_up(browser: Browser, seeded: ServerProcess) -> None:
    """Twelve moves within milliseconds: the page never lets more than three wait (without the
    catch-up eleven would wait behind 250 ms moves), draws in order and ends on the last
    version. No bound in milliseconds here: how fast frames come is the machine's."""
    context = new_context(browser, "phone")
    try:
        _, rec = watch(context, seeded, 12)
        frames = [f for f in rec["frames"] if f["v"] > 0]
        assert [f["v"] for f in frames] == list(range(1, 13)), frames
        most = max(int(f["waiting"]) for f in frames)
        assert most <= CATCH_UP, frames
        drawn = rec["drawn"]
        assert [d["v"] for d in drawn] == sorted({d["v"] for d in drawn}), drawn
        assert drawn[-1]["v"] == 12, drawn
    finally:
        context.close()


def test_my_own_move_is_drawn_at_once_while_another_card_travels(
    browser: Browser, seeded: ServerProcess
) -> None:
    """Bo's page: Ana turns QD and Bo's TH (made from Bo's other device) comes while QD still
    travels: QD lands at once and Bo's move is drawn as it comes, never waiting behind Ana's."""
    context = new_context(browser, "phone")
    try:
        _, rec = watch(context, seeded, 2, seat=1)
        frames = [(f["v"], f["shown"]) for f in rec["frames"] if f["v"] > 0]
        assert frames[-1] == (2, 2), rec["frames"]
        assert [d["v"] for d in rec["drawn"]] == [0, 1, 2], rec["drawn"]
        mine = {a["card"] for a in rec["anims"] if a["v"] == 2 and a["card"]}
        assert mine == {"TH"}, rec["anims"]
    finally:
        context.close()


def test_with_reduced_motion_updates_close_together_are_drawn_at_once(
    browser: Browser, seeded: ServerProcess
) -> None:
    context = new_context(browser, "phone", reduced_motion="reduce")
    try:
        _, rec = watch(context, seeded, 6)
        frames = [f for f in rec["frames"] if f["v"] > 0]
        assert [(f["v"], f["shown"]) for f in frames] == [(v, v) for v in range(1, 7)], frames
        assert [d["v"] for d in rec["drawn"]] == list(range(7)), rec["drawn"]
        assert rec["anims"] == [], rec["anims"]
    finally:
        context.close()


_CLIPPED = """() => {
  // The cards travelling now: how much of each is seen (not cut off by a part of the page
  // that scrolls, such as the dock or the middle).
  const moving = document.getAnimations().filter((a) => a.playState === 'running'
    && a.effect && a.effect.target && !a.effect.target.closest('#hand, [data-hand]')
    && JSON.stringify(a.effect.getKeyframes()).includes('translate'));
  if (!moving.length) return null;
  return moving.map((a) => {
    const el = a.effect.target;
    const r = el.getBoundingClientRect();
    let box = [0, 0, window.innerWidth, window.innerHeight];
    if (getComputedStyle(el).position !== 'fixed') {
      for (let p = el.parentElement; p; p = p.parentElement) {
        const s = getComputedStyle(p);
        if (s.overflowX === 'visible' && s.overflowY === 'visible') continue;
        const q = p.getBoundingClientRect();
        box = [Math.max(box[0], q.left), Math.max(box[1], q.top),
               Math.min(box[2], q.right), Math.min(box[3], q.bottom)];
      }
    }
    const w = Math.max(0, Math.min(box[2], r.right) - Math.max(box[0], r.left));
    const h = Math.max(0, Math.min(box[3], r.bottom) - Math.max(box[1], r.top));
    return { card: el.dataset.card || el.className, seen: (w * h) / (r.width * r.height || 1),
             top: r.top };
  });
}"""


def test_a_card_played_from_the_hand_is_seen_all_the_way_to_the_base(
    browser: Browser, seeded: ServerProcess
) -> None:
    """BEOR on a phone: AD typed from the hand (in the dock) goes to the odd base (in the
    middle); at the start of its move it is seen whole, not cut off at the middle's edge."""
    context = new_context(browser, "phone")
    try:
        room = create_room(
            seeded.url,
            {"game": "beor", "players": 2, "seats": ["person", "random"], "names": ["Ana", "Bo"]},
        )
        page = context.new_page()
        page.goto(room["seats"][0]["link"])
        page.locator("#hand [data-card='AD']").wait_for()
        wait_js(page, "() => document.documentElement.dataset.moving === '0'", None, "rest")
        record_starts(page, f"() => ({_CLIPPED})()")
        page.locator("#notation").fill("AD>odd")
        page.locator("#notation").press("Enter")
        wait_js(page, _STARTED, None, "a card to start travelling")
        seen = page.evaluate("() => window.parlourStarts[0]")  # as the first travel starts
        assert min(s["seen"] for s in seen) >= 0.95, seen
    finally:
        context.close()
