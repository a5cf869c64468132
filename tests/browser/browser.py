"""Helpers of the browser tests: Debian's Chromium under Playwright's sync API, table pages
recorded at every change, whole games driven through the pages' ``data-action`` buttons, and
the checks run on what the pages showed once the game's record (seed revealed) is known.

Every wait is bounded by :data:`WAIT` and a failed wait says what it waited for.

The page contract these helpers rely on (the hooks the pages promise):

- ``#table`` with ``data-v`` (the room version shown), ``data-seat`` (a seat number or
  ``spectator``) and ``data-game``;
- face-up cards carry ``data-card`` (canonical notation) and an English ``aria-label``; face-down
  cards carry none (``data-back``);
- every legal move of the seat is a ``[data-action="NOTATION"]`` in the DOM (BEOR: shown on the
  board once its card is chosen: the lit bases, and for a 4 or 7 the stocks once its base,
  ``[data-leads~=NOTATION]``, is chosen); ``#notation`` in ``form#notation-form`` plays a move
  typed in notation;
- ``[data-outcome]`` (the outcome's ``result``), ``[data-seed]``, ``button#rematch`` at the end;
  ``#error`` (role=alert), ``#status``, ``#log``, ``#announce``.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import random
import re
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe  # type: ignore[import-untyped]
from playwright.sync_api import Browser, BrowserContext, Locator, Page, sync_playwright
from playwright.sync_api import TimeoutError as PlaywrightTimeout

import parlour
from parlour.cards import parse_card
from parlour.core.game import State
from parlour.core.parts import part_file
from parlour.core.words import LANGUAGES
from parlour.games import GAMES, replay_json
from tests.conformance.cardscan import cards_named
from tests.server.client import WAIT, ServerProcess, create_room, http_get

__all__ = [
    "CHROMIUM",
    "DESKTOP",
    "PHONE",
    "SCREENSHOTS",
    "WAIT",
    "WAIT_MS",
    "Played",
    "Replayed",
    "Setup",
    "Snap",
    "Table",
    "action_problems",
    "axe_problems",
    "card_leaks",
    "chromium",
    "english_name",
    "example_texts",
    "get_json",
    "hand_problems",
    "hook_problems",
    "label_problems",
    "layout_problems",
    "leak_canary",
    "leak_problems",
    "new_context",
    "play_room",
    "report",
    "status_problems",
    "version_problems",
    "wait_js",
]

CHROMIUM = Path("/usr/bin/chromium-headless-shell")
"""Debian's Chromium as its headless shell (the package ``chromium-headless-shell``): the same
Blink, V8 and compositor as ``/usr/bin/chromium`` without the desktop browser around them, which
headless Chromium keeps running unseen in every context (its windows, the address bar's popups,
each in a renderer of its own). The browser tests and their pages with ``-n auto``: 377 busy
processor-seconds with ``/usr/bin/chromium``, 285 with the shell (its browser process 70 -> 28,
its renderers 218 -> 114 processes). Playwright drives the same shell when it brings its own."""
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
WAIT_MS = WAIT * 1000
GAME_SECONDS = 150.0
"""The longest a whole game through the pages may take."""
SCREENSHOTS = Path(__file__).with_name("screenshots")

PHONE: dict[str, Any] = {
    "viewport": {"width": 390, "height": 844},
    "has_touch": True,
    "is_mobile": True,
}
DESKTOP: dict[str, Any] = {"viewport": {"width": 1280, "height": 800}}
SIZES: dict[str, dict[str, Any]] = {"phone": PHONE, "desktop": DESKTOP}


@contextmanager
def chromium() -> Iterator[Browser]:
    """Playwright and Debian's Chromium (:data:`CHROMIUM`), headless, closed on leaving (the
    browser tests' fixture); the test fails (never skips) when it is missing."""
    if not CHROMIUM.exists():
        pytest.fail(
            f"{CHROMIUM} is missing: the browser tests drive Debian's chromium-headless-shell "
            "package; `make chromium` (part of `make test`) installs it",
            pytrace=False,
        )
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


def new_context(
    browser: Browser, size: str = "desktop", *, record: bool = False, **extra: Any
) -> BrowserContext:
    """A fresh context (its own storage: one person's device) of ``size`` (``phone``: 390x844
    with touch; ``desktop``: 1280x800), English; ``record``: with the change recorder
    (:data:`RECORDER_JS`) in every page, for a test that reads what the pages showed at every
    change (:meth:`Table.drain`). The recorder snapshots the whole page at each change, the
    clock's every second included: three browser files that never read it (test_table,
    test_end_motion, test_phone, ``-n 0``) ran in 55 s without it against 83 s with it. Its
    pages get no service worker unless ``service_workers="allow"`` (tests/browser/test_pwa.py):
    one installed in every context would fetch all the pages' files again behind every test."""
    settings: dict[str, Any] = {"locale": "en-US", "service_workers": "block"}
    settings |= {**SIZES[size], **extra}
    context = browser.new_context(**settings)
    context.set_default_timeout(WAIT_MS)
    if record:
        context.add_init_script(RECORDER_JS)
    return context


def get_json(url: str) -> Any:
    response = http_get(url, timeout=WAIT)
    assert response.status_code == 200, f"GET {url}: {response.status_code} {response.text}"
    return response.json()


# -- what a page shows -------------------------------------------------------------------------

SNAPSHOT_JS = r"""() => {
  const all = (sel) => Array.from(document.querySelectorAll(sel));
  const shown = (e) => {
    if (!e.isConnected || !e.getClientRects().length) return false;
    const s = getComputedStyle(e);
    return s.visibility !== 'hidden' && s.display !== 'none';
  };
  const table = document.querySelector('#table');
  const outcome = document.querySelector('[data-outcome]');
  const skip = new Set(['style', 'd', 'points', 'viewbox', 'transform', 'data-card',
                        'aria-label']);
  const attrs = [];
  for (const e of all('*')) {
    for (const a of e.attributes) {
      if (!skip.has(a.name.toLowerCase())) attrs.push(a.name + '=' + a.value);
    }
  }
  const text = (sel) => ((document.querySelector(sel) || {}).innerText || '').trim();
  const body = document.body;
  // Every text node on its own line: textContent would run "Bob" and "QH" together.
  const nodes = [];
  if (body) {
    const walk = document.createTreeWalker(body, NodeFilter.SHOW_TEXT);
    for (let n = walk.nextNode(); n; n = walk.nextNode()) {
      const tag = n.parentElement ? n.parentElement.tagName : '';
      if (tag !== 'SCRIPT' && tag !== 'STYLE' && n.nodeValue.trim()) nodes.push(n.nodeValue);
    }
  }
  return {
    origin: performance.timeOrigin,
    at: performance.now(),
    url: location.href,
    lang: document.documentElement.lang,
    v: table ? table.getAttribute('data-v') : null,
    seat: table ? table.getAttribute('data-seat') : null,
    game: table ? table.getAttribute('data-game') : null,
    cards: all('[data-card]').map((e) => [e.getAttribute('data-card'),
      e.getAttribute('aria-label'), e.tagName.toLowerCase(), e.getAttribute('role'),
      e.getAttribute('data-action'), e.closest('#hand') !== null]),
    backs: all('[data-back]').map((e) => e.hasAttribute('data-card')),
    labels: all('[aria-label]').map((e) => e.getAttribute('aria-label')),
    attrs,
    actions: all('[data-action]').map((e) => e.getAttribute('data-action')),
    visible: all('[data-action]').filter(shown).map((e) => e.getAttribute('data-action')),
    outcome: outcome ? outcome.getAttribute('data-outcome') : null,
    error: text('#error'),
    status: text('#status'),
    title: document.title,
    text: body ? body.innerText : '',
    content: nodes.join('\n'),
  };
}"""
"""One atomic snapshot of a page (one ``page.evaluate``, so one moment of the page)."""

RECORDER_JS = (
    r"""(() => {
  if (window.__parlourSnaps) return;
  const snap = """
    + SNAPSHOT_JS
    + r""";
  const snaps = window.__parlourSnaps = [];
  let last = '';
  const record = () => {
    if (!document.querySelector('#table')) return;
    let s;
    try { s = snap(); } catch (e) { return; }
    const key = JSON.stringify([s.v, s.seat, s.cards, s.labels, s.attrs, s.actions, s.visible,
                                s.outcome, s.title, s.text, s.content]);
    if (key === last) return;
    last = key;
    if (snaps.length < 20000) snaps.push(s);
  };
  new MutationObserver(record).observe(document, {
    subtree: true, childList: true, attributes: true, characterData: true });
})();"""
)
"""An init script of every context: a snapshot of the table page at every change of its DOM
(each batch of mutations), kept in ``window.__parlourSnaps`` until :meth:`Table.drain` takes
them, so the moves of bots and of the ``#auto`` seat are seen too."""


def _int(value: object) -> int | None:
    return int(value) if isinstance(value, str) and re.fullmatch(r"\d+", value) else None


@dataclass(frozen=True)
class Snap:
    """What one page showed at one moment."""

    where: str
    source: str
    origin: float
    at: float
    url: str
    lang: str
    raw_v: str | None
    seat: str | None
    game: str | None
    cards: tuple[tuple[str, str | None, str, str | None, str | None, bool], ...]
    """Each ``[data-card]``: its card, ``aria-label``, tag, role, ``data-action`` and
    whether it is in ``#hand``."""
    backs: tuple[bool, ...]
    """Each face-down card (``[data-back]``): whether it has a ``data-card`` (it must not)."""
    labels: tuple[str, ...]
    attrs: tuple[str, ...]
    actions: tuple[str, ...]
    visible: tuple[str, ...]
    outcome: str | None
    error: str
    status: str
    title: str
    text: str
    content: str

    @property
    def v(self) -> int | None:
        return _int(self.raw_v)

    @classmethod
    def from_js(cls, where: str, source: str, obj: dict[str, Any]) -> Snap:
        return cls(
            where=where,
            source=source,
            origin=float(obj["origin"]),
            at=float(obj["at"]),
            url=str(obj["url"]),
            lang=str(obj["lang"] or ""),
            raw_v=obj["v"],
            seat=obj["seat"],
            game=obj["game"],
            cards=tuple((str(c[0]), c[1], str(c[2]), c[3], c[4], bool(c[5])) for c in obj["cards"]),
            backs=tuple(bool(x) for x in obj["backs"]),
            labels=tuple(str(x) for x in obj["labels"]),
            attrs=tuple(str(x) for x in obj["attrs"]),
            actions=tuple(str(x) for x in obj["actions"]),
            visible=tuple(str(x) for x in obj["visible"]),
            outcome=obj["outcome"],
            error=str(obj["error"]),
            status=str(obj["status"]),
            title=str(obj["title"]),
            text=str(obj["text"]),
            content=str(obj["content"]),
        )

    def key(self) -> tuple[object, ...]:
        return (
            self.origin, self.raw_v, self.seat, self.cards, self.labels, self.attrs, self.actions,
            self.visible, self.outcome, self.title, self.text, self.content,
        )  # fmt: skip

    def brief(self) -> str:
        return (
            f"{self.where}: data-v={self.raw_v!r} data-seat={self.seat!r} "
            f"actions={list(self.actions)[:8]} outcome={self.outcome!r} "
            f"status={self.status[:80]!r} error={self.error[:120]!r} url={self.url}"
        )


def choose_language(page: Page, lang: str, selector: str, english: str) -> None:
    """Pick ``lang`` in the page's ``select#lang``; wait for ``<html lang>`` and for the text
    of ``selector`` to differ from ``english`` (its words before: English's, or those of the
    language chosen before)."""
    page.locator("select#lang").select_option(lang)
    wait_js(page, "(l) => document.documentElement.lang === l", lang, f"<html lang={lang}>")
    wait_js(
        page,
        "([sel, s]) => (document.querySelector(sel)?.innerText.trim() ?? '') !== s",
        [selector, english.strip()],
        f"{selector}'s text in {lang} to differ from English {english!r}",
    )


def wait_js(page: Page, js: str, arg: Any, what: str, timeout: float = WAIT) -> None:
    """Wait (at most ``timeout`` seconds) until ``js(arg)`` is truthy in ``page``."""
    try:
        page.wait_for_function(js, arg=arg, timeout=timeout * 1000, polling=25)
    except PlaywrightTimeout:
        raise AssertionError(f"waited {timeout:g} s for {what}; {_describe(page)}") from None


def _describe(page: Page) -> str:
    try:
        info = page.evaluate(
            """() => ({url: location.href,
              v: document.querySelector('#table')?.getAttribute('data-v'),
              error: (document.querySelector('#error')?.innerText || '').trim(),
              status: (document.querySelector('#status')?.innerText || '').trim(),
              text: (document.body?.innerText || '').trim().slice(0, 300),
              actions: Array.from(document.querySelectorAll('[data-action]'),
                                  (e) => e.getAttribute('data-action')).slice(0, 10)})"""
        )
    except Exception as err:  # the page may be gone
        return f"the page could not be read: {err}"
    return f"page state: {info}"


_PROBE = """() => ({
  v: document.querySelector('#table')?.getAttribute('data-v') ?? null,
  actions: document.querySelectorAll('[data-action]').length,
  outcome: document.querySelector('[data-outcome]')?.getAttribute('data-outcome') ?? null,
})"""
_READY = """() => /^\\d+$/.test(
  document.querySelector('#table')?.getAttribute('data-v') ?? '')"""
_V_ABOVE = """(v) => {
  const t = document.querySelector('#table');
  return t !== null && Number(t.getAttribute('data-v')) > v;
}"""


class Table:
    """One table page (``seat`` None: a spectator) in a context of its own, with every
    snapshot taken of it."""

    def __init__(
        self, context: BrowserContext, name: str, seat: int | None, *, touch: bool = False
    ) -> None:
        self.context = context
        self.page = context.new_page()
        self.name = name
        self.seat = seat
        self.touch = touch
        self.snaps: list[Snap] = []
        self.size = ""

    def open(self, url: str) -> Table:
        self.page.goto(url)
        self.wait_ready()
        return self

    def wait_ready(self) -> None:
        wait_js(self.page, _READY, None, f"{self.name}'s table to show a version (#table[data-v])")

    def snapshot(self, source: str = "step") -> Snap:
        # As JSON text: Playwright checks every value of a returned object on its way, which
        # cost whole games several seconds of CPU; one string is checked once.
        found = json.loads(self.page.evaluate(f"() => JSON.stringify(({SNAPSHOT_JS})())"))
        snap = Snap.from_js(self.name, source, found)
        self._keep(snap)
        return snap

    def probe(self) -> dict[str, Any]:
        """The page's version, moves and outcome (cheap, for waiting)."""
        found: dict[str, Any] = self.page.evaluate(_PROBE)
        return found

    def drain(self) -> None:
        """Take the snapshots the page's recorder made since the last drain (its context made
        with ``record=True``: a page without the recorder fails here, never passes with none)."""
        taken = self.page.evaluate(
            "() => window.__parlourSnaps ? JSON.stringify(window.__parlourSnaps.splice(0)) : null"
        )
        if taken is None:
            raise AssertionError(
                f"{self.name}'s page has no change recorder: new_context(..., record=True)"
            )
        for obj in json.loads(taken):
            self._keep(Snap.from_js(self.name, "observer", obj))

    def _keep(self, snap: Snap) -> None:
        if not self.snaps or self.snaps[-1].key() != snap.key():
            self.snaps.append(snap)

    def v(self) -> int | None:
        return _int(self.page.locator("#table").get_attribute("data-v"))

    def wait_v_above(self, v: int, why: str) -> None:
        wait_js(self.page, _V_ABOVE, v, f"{self.name}'s data-v to pass {v} {why}")

    def press(self, target: Locator) -> None:
        """A tap on a touch screen, a click elsewhere; a target in a closed ``<details>`` is
        shown first by pressing its summary, as a person would."""
        if not target.is_visible():
            for summary in target.locator("xpath=ancestor::details[not(@open)]/summary").all():
                self.press(summary)
        if self.touch:
            target.tap()
        else:
            target.click()

    def play(self, action: str, *, notation: bool = False) -> None:
        """Play ``action`` as a person would: its button (BEOR: its card first, then the lit
        base, and for a 4 or 7 the base that leads to it, ``[data-leads~=ACTION]``, then the
        stock), or typed into ``#notation``."""
        page = self.page
        if notation:
            box = page.locator("form#notation-form #notation")
            if self.touch:
                box.tap()
            box.fill(action)
            box.press("Enter")
            return
        selector = f'[data-action="{action}"]:visible'
        leads = page.locator(f'[data-leads~="{action}"]:visible')
        if page.locator(selector).count() == 0 and leads.count() == 0:
            card = action.split(">", 1)[0]
            opener = page.locator(f'#hand [data-card="{card}"]:visible')
            hidden = page.locator(f'[data-action="{action}"]')
            if opener.count() == 0 and hidden.count():
                # A move a person makes through a dialog of several steps (the Game of Death's
                # give rows make a whole split): its hidden button, as a tool would press it.
                hidden.first.dispatch_event("click")
                return
            if opener.count() == 0:
                raise AssertionError(
                    f"{self.name}: {action!r} is neither a visible [data-action] nor a visible "
                    f"card #hand [data-card={card!r}] to choose; {_describe(page)}"
                )
            self.press(opener.first)
            try:
                page.locator(selector).or_(leads).first.wait_for(state="visible", timeout=WAIT_MS)
            except PlaywrightTimeout:
                raise AssertionError(
                    f"{self.name}: clicking #hand [data-card={card!r}] showed no visible "
                    f"[data-action={action!r}] within {WAIT:g} s; {_describe(page)}"
                ) from None
        if page.locator(selector).count() == 0:
            self.press(leads.first)
            try:
                page.locator(selector).first.wait_for(state="visible", timeout=WAIT_MS)
            except PlaywrightTimeout:
                raise AssertionError(
                    f"{self.name}: the base that leads to {action!r} showed no visible "
                    f"[data-action] for it within {WAIT:g} s; {_describe(page)}"
                ) from None
        self.press(page.locator(selector).first)


# -- whole games --------------------------------------------------------------------------------


@dataclass
class Setup:
    """A room to play through the pages: ``sizes[i]`` is ``phone`` or ``desktop`` for each
    person seat; the seats in ``auto`` turn with ``#auto`` (Beggar-My-Neighbour)."""

    game: str
    seats: list[str]
    names: list[str]
    options: dict[str, Any]
    sizes: dict[int, str]
    driver_seed: int
    auto: frozenset[int] = frozenset()
    notation_rate: float = 0.1
    mid_step: int = 4
    """The person move before which screenshots and axe are taken."""
    reload_step: int | None = None
    """Before this person move the page of the seat to move is reloaded (same tab: the token
    is in its sessionStorage) and must come back as the same seat, at the same version, with
    the same moves."""
    penalty_step: int | None = None
    """The Game of Death: before this person move a seat not to move takes ``doh`` on
    itself (a table entry, G13)."""
    langs: dict[int, str] = field(default_factory=dict)
    """The browser language of each person seat's device (``ro``, ``nl``; English if not
    given): the page follows it, and its leaks are looked for in its own words too."""
    stored: dict[str, str] = field(default_factory=dict)
    """Settings every page finds in its browser's storage (localStorage) when it opens, as a
    player's earlier choices would leave them."""

    @property
    def players(self) -> int:
        return len(self.seats)


@dataclass
class Played:
    """A finished room: every page's snapshots, the record and what was checked on the way."""

    setup: Setup
    room: str
    url: str
    tables: list[Table]
    record: dict[str, Any]
    replayed: Replayed
    steps: int
    seconds: float
    axe: dict[str, list[str]] = field(default_factory=dict)
    shots: list[Path] = field(default_factory=list)
    final: dict[str, Snap] = field(default_factory=dict)
    seeds: dict[str, str] = field(default_factory=dict)
    rematch: dict[str, bool] = field(default_factory=dict)
    penalties: list[str] = field(default_factory=list)
    reloads: list[str] = field(default_factory=list)
    via_notation: int = 0
    hooks: dict[str, dict[str, Any]] = field(default_factory=dict)

    def summary(self) -> str:
        counts = ", ".join(f"{t.name}: {len(t.snaps)}" for t in self.tables)
        return (
            f"{self.setup.game} room {self.room}: {self.steps} moves through the pages "
            f"({self.via_notation} typed), {len(self.replayed.states) - 1} versions, "
            f"{self.seconds:.1f} s; snapshots {counts}; {self.reloads} {self.penalties}"
        )

    def snaps(self) -> list[Snap]:
        return [s for t in self.tables for s in t.snaps]


class Replayed:
    """The states of a finished deal's record; the state at room version ``v`` is
    ``states[v]`` (v0 is the deal; each action and table entry one more)."""

    def __init__(self, record: dict[str, Any]) -> None:
        body = {k: v for k, v in record.items() if k != "outcome"}
        self.record, self.states = replay_json(body)
        self._hidden: dict[tuple[int, int | None], frozenset[str]] = {}
        start = json.dumps(self.states[0].to_json(), ensure_ascii=False)
        self.jokers = frozenset(c for c in cards_named(start) if c.startswith("JK"))

    def state(self, v: int) -> State | None:
        return self.states[v] if 0 <= v < len(self.states) else None

    def hidden(self, v: int, seat: int | None) -> frozenset[str]:
        key = (v, seat)
        if key not in self._hidden:
            self._hidden[key] = self.states[v].hidden_from(seat)
        return self._hidden[key]


def play_room(browser: Browser, server: ServerProcess, setup: Setup) -> Played:
    """Create the room over HTTP, open every person seat's invite link in a context of its
    own and the spectator link in another, and play the game to its end through the pages."""
    body = {
        "game": setup.game,
        "players": setup.players,
        "options": setup.options,
        "seats": setup.seats,
        "names": setup.names,
    }
    answer = create_room(server.url, body)
    room = str(answer["room"])
    tables: list[Table] = []
    contexts: list[BrowserContext] = []
    try:
        for seat, kind in enumerate(setup.seats):
            if kind != "person":
                continue
            size = setup.sizes.get(seat, "desktop")
            lang = setup.langs.get(seat)
            # Cards move (issue 26) on the phones' pages only: a click waits until its target
            # stops moving, and the motion has tests of its own (test_end_motion.py).
            motion = "no-preference" if size == "phone" else "reduce"
            extra = {"reduced_motion": motion} | ({"locale": LOCALES[lang]} if lang else {})
            context = new_context(browser, size, record=True, **extra)
            contexts.append(context)
            _store(context, setup.stored)
            table = Table(context, f"P{seat + 1} ({size})", seat, touch=size == "phone")
            table.size = size
            tables.append(table.open(answer["seats"][seat]["link"]))
        context = new_context(browser, "desktop", record=True, reduced_motion="reduce")
        contexts.append(context)
        spectator = Table(context, "spectator (desktop)", None)
        spectator.size = "desktop"
        tables.append(spectator.open(answer["spectate"]))
        return _play(server, setup, room, answer, tables)
    finally:
        for context in contexts:
            context.close()


def _store(context: BrowserContext, stored: dict[str, str]) -> None:
    """Every page of ``context`` opens with ``stored`` in its localStorage."""
    if stored:
        entries = json.dumps(stored)
        context.add_init_script(
            f"for (const [k, v] of Object.entries({entries})) localStorage.setItem(k, v);"
        )


def _play(
    server: ServerProcess, setup: Setup, room: str, answer: dict[str, Any], tables: list[Table]
) -> Played:
    rng = random.Random(setup.driver_seed)
    game = setup.game
    axe: dict[str, list[str]] = {}
    shots: list[Path] = []
    penalties: list[str] = []
    for table in tables:
        if table.seat in setup.auto:
            box = table.page.locator("input#auto")
            table.press(box)
            assert box.is_checked(), f"{table.name}: tapping input#auto did not check it"
    driven = [t for t in tables if t.seat is not None and t.seat not in setup.auto]
    start = time.monotonic()
    last_change, last_vs = start, None
    steps = notation = 0
    mid_done = penalty_done = reload_done = False
    reloads: list[str] = []
    while True:
        now = time.monotonic()
        if now - start > GAME_SECONDS:
            raise AssertionError(
                f"{game}: the game did not end within {GAME_SECONDS:g} s ({steps} moves made "
                "through the pages): " + "; ".join(t.snapshot().brief() for t in tables)
            )
        probes = {t.name: t.probe() for t in tables}
        vs = tuple(p["v"] for p in probes.values())
        if vs != last_vs:
            last_vs, last_change = vs, now
        if all(p["outcome"] is not None for p in probes.values()):
            break
        movers = [
            t for t in driven if probes[t.name]["actions"] and probes[t.name]["outcome"] is None
        ]
        if not movers:
            if now - last_change > WAIT:
                raise AssertionError(
                    f"{game}: waited {WAIT:g} s for a page to change or a seat to be offered a "
                    "move ([data-action]) or the end ([data-outcome]): "
                    + "; ".join(t.snapshot().brief() for t in tables)
                )
            time.sleep(0.02)
            continue
        # A seat to move: the room waits for it, every page is taken as it is now.
        snaps = {t.name: t.snapshot() for t in tables}
        for t in tables:
            t.drain()
        movers = [t for t in driven if snaps[t.name].actions and snaps[t.name].outcome is None]
        if len(movers) != 1:
            raise AssertionError(
                f"{len(movers)} seats' pages offer moves at once: "
                + "; ".join(s.brief() for s in snaps.values())
            )
        mover = movers[0]
        snap = snaps[mover.name]
        v = snap.v
        assert v is not None, snap.brief()
        if steps >= setup.mid_step and not mid_done:
            mid_done = True
            shots += _screenshots(tables, game, "")
            for t in tables:
                axe[f"{t.name} mid-game at v{v}"] = axe_problems(t.page)
        if setup.reload_step is not None and steps >= setup.reload_step and not reload_done:
            reload_done = True
            reloads.append(_reload(mover, snap))
            last_change = time.monotonic()
            continue
        if setup.penalty_step is not None and steps >= setup.penalty_step and not penalty_done:
            penalty_done = True
            penalties.append(_penalty(tables, mover, v))
            last_change = time.monotonic()
            continue
        action = rng.choice(sorted(snap.actions))
        typed = rng.random() < setup.notation_rate or steps == 1  # at least once
        notation += typed
        mover.play(action, notation=typed)
        how = "typed into #notation" if typed else "clicked"
        mover.wait_v_above(v, f"after {action!r} was {how}")
        steps += 1
        last_change = time.monotonic()
    seconds = time.monotonic() - start
    final = {t.name: t.snapshot("final") for t in tables}
    for t in tables:
        t.drain()
    shots += _screenshots(tables, game, "-end")
    for t in tables:
        axe[f"{t.name} end screen"] = axe_problems(t.page)
    seeds = {t.name: _seed_text(t.page) for t in tables}
    rematch = {t.name: t.page.locator("button#rematch").count() > 0 for t in tables}
    hooks = {t.name: t.page.evaluate(HOOKS_JS) for t in tables}
    record = get_json(f"{server.url}/api/rooms/{room}/record")
    played = Played(
        setup, room, server.url, tables, record, Replayed(record), steps, seconds,
        axe, shots, final, seeds, rematch, penalties, reloads, notation, hooks,
    )  # fmt: skip
    return played


HOOKS_JS = """() => ({
  log: (document.querySelector('#log')?.textContent || '').trim().length,
  announce: document.querySelector('#announce')?.getAttribute('aria-live') ?? null,
  status: document.querySelector('#status') !== null,
  error: document.querySelector('#error')?.getAttribute('role') ?? null,
  notation: document.querySelector('form#notation-form #notation') !== null,
})"""
"""The table's other hooks: ``#log`` (its text's length, shown or in a closed sheet: a phone's
log opens from the toolbar), ``#announce``'s ``aria-live``,
``#status``, ``#error``'s role, the notation box."""


def _seed_text(page: Page) -> str:
    seed = page.locator("[data-seed]")
    if seed.count() == 0:
        return ""
    first = seed.first
    return f"{first.get_attribute('data-seed') or ''} {first.inner_text()}"


def _screenshots(tables: list[Table], game: str, suffix: str) -> list[Path]:
    """One screenshot of the table at each size (the first page of that size)."""
    SCREENSHOTS.mkdir(exist_ok=True)
    done: dict[str, Path] = {}
    for t in tables:
        viewport = t.page.viewport_size
        assert viewport is not None
        size = f"{viewport['width']}x{viewport['height']}"
        if size in done:
            continue
        path = SCREENSHOTS / f"{game}{suffix}-{size}.png"
        t.page.evaluate("() => window.scrollTo(0, 0)")
        t.page.screenshot(path=str(path), animations="disabled")  # cards at rest
        done[size] = path
    return list(done.values())


def _reload(table: Table, before: Snap) -> str:
    """Reload ``table``'s page; it must come back as the same seat, at the same version,
    showing the same cards and offering the same moves, with no token in the address bar."""
    table.drain()
    table.page.reload()
    table.wait_ready()
    wait_js(
        table.page,
        "(n) => document.querySelectorAll('[data-action]').length === n",
        len(before.actions),
        f"{table.name}'s {len(before.actions)} moves to come back after a reload",
    )
    after = table.snapshot("reloaded")
    same = (after.raw_v, after.seat, sorted(after.actions), sorted(c[0] for c in after.cards))
    was = (before.raw_v, before.seat, sorted(before.actions), sorted(c[0] for c in before.cards))
    assert same == was, f"{table.name} after a reload: {same} instead of {was}"
    assert "#t=" not in table.page.url, table.page.url
    return f"{table.name} reloaded at v{before.raw_v}"


def _penalty(tables: list[Table], mover: Table, v: int) -> str:
    """A person whose turn it is not enters ``doh`` on himself (G13: no vote needed); every
    page then shows version ``v + 1``."""
    other = next(t for t in tables if t.seat is not None and t is not mover)
    assert other.seat is not None
    entry = f"doh P{other.seat + 1}"
    button = other.page.locator(f'button[data-table="{entry}"]')
    if button.count() == 0:
        raise AssertionError(
            f"{other.name}: no button[data-table={entry!r}]; {_describe(other.page)}"
        )
    other.press(button.first)
    for t in tables:
        t.wait_v_above(v, f"after {other.name} entered {entry!r}")
    return f"{other.name}: {entry} at v{v}"


def axe_problems(page: Page) -> list[str]:
    """axe-core's violations of impact ``serious`` or ``critical`` on the page, in words."""
    results = Axe().run(page)
    out = []
    for violation in results.response.get("violations", []):
        if violation.get("impact") not in ("serious", "critical"):
            continue
        nodes = violation.get("nodes", [])
        where = [" ".join(str(x) for x in n.get("target", [])) for n in nodes[:6]]
        summary = nodes[0].get("failureSummary", "") if nodes else ""
        out.append(
            f"{violation['id']} ({violation['impact']}): {violation.get('help')}; "
            f"{len(nodes)} nodes, e.g. {where}; {summary}".replace("\n", " ")
        )
    return out


# -- checks on what the pages showed ----------------------------------------------------------

_RANKS = {
    "A": "Ace", "2": "Two", "3": "Three", "4": "Four", "5": "Five", "6": "Six", "7": "Seven",
    "8": "Eight", "9": "Nine", "T": "Ten", "J": "Jack", "Q": "Queen", "K": "King",
}  # fmt: skip
_SUITS = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}


LOCALES = {"ro": "ro-RO", "nl": "nl-NL"}
_STATIC = Path(parlour.__file__).parent / "server" / "static"


@functools.cache
def card_names(lang: str) -> dict[str, str]:
    """Every card's name in ``lang`` as the pages word it (``static/i18n/LANG.json``:
    ``card.name`` from ``rank.*`` and ``suit.*``), lower case, by canonical notation."""
    words = json.loads((_STATIC / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))
    out = {}
    for rank in "A23456789TJQK":
        for suit in "SHDC":
            name = words["card.name"].format(rank=words[f"rank.{rank}"], suit=words[f"suit.{suit}"])
            out[rank + suit] = name.lower()
    return out


def local_name(card: str, lang: str) -> str:
    """A card's name in ``lang`` as the pages word it (a Joker: ``card.joker``)."""
    if card.startswith("JK"):
        words = json.loads((_STATIC / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))
        return str(words["card.joker"])
    return card_names(lang)[card]


def english_name(card: str) -> str:
    """A card's name in English words: ``Queen of hearts``, ``Ten of clubs``, ``Joker``."""
    if card.startswith("JK"):
        return "Joker"
    return f"{_RANKS[card[0]]} of {_SUITS[card[1]]}"


def _excerpt(text: str, card: str) -> str:
    forms = [english_name(card), parse_card(card).pretty(), card]
    low = text.lower()
    for form in forms:
        at = low.find(form.lower())
        if at >= 0:
            return repr(text[max(0, at - 40) : at + len(form) + 40])
    return repr(text[:80])


STATIC = Path(parlour.__file__).with_name("server") / "static"
"""The pages' files: their fixed texts name example cards (so do the games' catalogs)."""


def _strings(obj: object) -> Iterable[str]:
    if isinstance(obj, str):
        yield obj
    elif isinstance(obj, dict):
        for value in obj.values():
            yield from _strings(value)
    elif isinstance(obj, list):
        for value in obj:
            yield from _strings(value)


@functools.cache
def example_texts() -> tuple[str, ...]:
    """The sentences of the pages' fixed texts (``static/**/*.json`` and every game's catalogs:
    the rules and the notation help, in every language) that name a card, as a page may show
    them (with and without their backticks, spaces collapsed), longest first. They are the
    same whatever the deal, so they are taken out of a page's text before it is searched, as
    whole sentences only: the same card anywhere else is still found."""
    found: set[str] = set()
    files = [path.read_bytes() for path in sorted(STATIC.glob("**/*.json"))]
    for game in GAMES.values():
        files += [part_file(game.parts.words, f"{lang}.json") or b"{}" for lang in LANGUAGES]
    for raw in files:
        for text in _strings(json.loads(raw)):
            if cards_named(text):
                found.add(" ".join(text.split()))
                found.add(" ".join(text.replace("`", "").split()))
    return tuple(sorted(found, key=len, reverse=True))


def _without(text: str, ignore: Iterable[str]) -> str:
    text = " ".join(text.split())
    for fixed in (*ignore, *example_texts()):
        text = text.replace(fixed, " ")
    return text


@functools.lru_cache(maxsize=16384)
def _named(raw: str, ignore: tuple[str, ...]) -> tuple[str, frozenset[str]]:
    """``raw`` with ``ignore`` and the fixed texts taken out (:func:`_without`), and the cards
    it then names. A page's attributes and labels come back the same in snapshot after
    snapshot (a BEOR or Game of Death game through the pages: about 1,100 texts a snapshot,
    a few hundred snapshots), so each text is searched once."""
    text = _without(raw, ignore)
    return text, frozenset(cards_named(text))


@functools.lru_cache(maxsize=16384)
def _named_in(lang: str, raw: str) -> frozenset[str]:
    """The cards whose name in ``lang`` (:func:`card_names`) ``raw`` holds, in any case."""
    low = raw.lower()
    return frozenset(card for card, name in card_names(lang).items() if name in low)


def card_leaks(
    snap: Snap,
    hidden: frozenset[str],
    jokers: frozenset[str] = frozenset(),
    ignore: Iterable[str] = (),
) -> list[str]:
    """Every way ``snap`` shows a card of ``hidden``: a ``data-card``, a card named in an
    ``aria-label``, another attribute, the title, ``innerText`` or any text node (as
    ``QH``, ``10H``, ``Q♥``, ``10♣``, ``queen of hearts`` ...: :func:`cards_named`), or a
    label saying ``Joker`` while every Joker of the deal (``jokers``) is hidden. ``ignore``:
    texts that name no card although they may look like one (the room's id); the fixed
    example sentences (:func:`example_texts`) are taken out too."""
    out = [f"data-card={c!r}" for c, *_ in snap.cards if c in hidden]
    if any(snap.backs):
        out.append(f"{sum(snap.backs)} face-down cards ([data-back]) carry a data-card")
    fields: list[tuple[str, Iterable[str]]] = [
        ("aria-label", snap.labels),
        ("attribute", snap.attrs),
        ("title", [snap.title]),
        ("innerText", [snap.text]),
        ("textContent", [snap.content]),
    ]
    skip = tuple(ignore)
    for kind, texts in fields:
        for raw in texts:
            text, named = _named(raw, skip)
            for card in sorted(named & hidden) if named else ():
                out.append(f"{kind} names {card}: {_excerpt(text, card)}")
    lang = snap.lang.split("-")[0]
    if lang in LOCALES:  # a card named in the page's own language ("Damă de cupă")
        names = card_names(lang)
        for kind, texts in fields:
            for raw in texts:
                named = _named_in(lang, raw)
                for card in sorted(named & hidden) if named else ():
                    out.append(f"{kind} names {card} in {lang}: {names[card]!r}")
    if jokers and jokers <= hidden:
        for label in snap.labels:
            if re.search(r"\bjoker\b", label, re.IGNORECASE):
                out.append(f"aria-label {label!r} names a Joker, and every Joker is hidden")
    return out


def leak_problems(played: Played) -> list[str]:
    """Every snapshot of every page against ``hidden_from`` of its seat at its version; the
    same finding on one page is told once, with the versions it was seen at. Once the end
    screen shows the deal's seed (``[data-seed]``), the whole deal is public (anyone can replay
    it from its record): the hands revealed then hide nothing."""
    seen: dict[tuple[str, str], list[int]] = {}
    out: list[str] = []
    rep = played.replayed
    ignore = [played.room, played.url]
    for table in played.tables:
        for snap in table.snaps:
            v = snap.v
            if v is None:
                if snap.cards:
                    out.append(f"{snap.where}: cards shown with no version: {snap.brief()}")
                continue
            if rep.state(v) is None:
                out.append(f"{snap.where}: data-v={v} is beyond the record ({len(rep.states)})")
                continue
            if v == len(rep.states) - 1 and any(a.startswith("data-seed=") for a in snap.attrs):
                continue  # over, seed revealed: nothing is hidden any more
            for found in card_leaks(snap, rep.hidden(v, table.seat), rep.jokers, ignore):
                seen.setdefault((table.name, found), []).append(v)
    for (name, found), versions in seen.items():
        out.append(
            f"{name} at data-v {min(versions)}..{max(versions)} "
            f"({len(versions)} snapshots): {found}"
        )
    return out


def action_problems(played: Played) -> list[str]:
    """``[data-action]`` holds only the legal moves of the seat at the version shown (none on
    the spectator's page, none when it is another seat's turn), and every one of them when
    the page offers moves."""
    out: list[str] = []
    rep = played.replayed
    for table in played.tables:
        for snap in table.snaps:
            v = snap.v
            state = None if v is None else rep.state(v)
            if state is None:
                if snap.actions:
                    out.append(f"{snap.brief()}: moves offered at no known version")
                continue
            mine = table.seat is not None and state.to_move == table.seat and not state.is_over
            legal = {str(a) for a in state.legal_actions()} if mine else set()
            shown = set(snap.actions)
            extra = sorted(shown - legal)
            if extra:
                out.append(f"{snap.where} at v{v} ({snap.source}): not legal there: {extra[:6]}")
            missing = sorted(legal - shown)
            if shown and missing:
                out.append(
                    f"{snap.where} at v{v} ({snap.source}): legal, not offered: {missing[:6]}"
                )
    return out


def label_problems(played: Played) -> list[str]:
    """Every face-up card is a button (or role img) whose ``aria-label`` names it in the
    page's language (English, Romanian or Dutch)."""
    out: set[str] = set()
    for snap in played.snaps():
        lang = snap.lang.split("-")[0]
        if lang != "en" and lang not in LOCALES:
            continue
        for card, label, tag, role, *_ in snap.cards:
            name = None
            if re.fullmatch(r"[A2-9TJQK][SHDC]|JK[12]", card):
                name = english_name(card) if lang == "en" else local_name(card, lang)
            if name is None:
                out.add(f"{snap.where}: data-card={card!r} is not canonical notation")
                continue
            if tag != "button" and role != "img":
                out.add(f"{snap.where}: data-card={card!r} is a <{tag}> with role {role!r}")
            if label is None or name.lower() not in label.lower():
                out.add(f"{snap.where}: data-card={card!r} has aria-label {label!r}, not {name!r}")
    return sorted(out)


def version_problems(played: Played) -> list[str]:
    """``data-seat`` and ``data-game`` are right, ``data-v`` never goes back within a page's
    load and every page ends at the record's last version."""
    out: list[str] = []
    last_v = len(played.replayed.states) - 1
    for table in played.tables:
        want_seat = "spectator" if table.seat is None else str(table.seat)
        seen: dict[float, int] = {}
        for snap in sorted(table.snaps, key=lambda s: (s.origin, s.at)):
            if not snap.raw_v and not snap.cards and not snap.actions:
                continue  # connecting: no version yet, nothing of the game shown
            if snap.seat != want_seat:
                out.append(f"{snap.where}: data-seat={snap.seat!r}, not {want_seat!r}")
            if snap.game != played.setup.game:
                out.append(f"{snap.where}: data-game={snap.game!r}, not {played.setup.game!r}")
            v = snap.v
            if v is None:
                out.append(f"{snap.where}: data-v={snap.raw_v!r} is not a whole number")
                continue
            before = seen.get(snap.origin, -1)
            if v < before:
                out.append(f"{snap.where}: data-v went back from {before} to {v}")
            seen[snap.origin] = max(before, v)
        final = played.final[table.name]
        if final.v != last_v:
            out.append(f"{table.name}: ends at data-v={final.raw_v!r}, the record at {last_v}")
    return sorted(set(out))


def hook_problems(played: Played) -> list[str]:
    """The end screen on every page: the same ``[data-outcome]`` everywhere, the result of
    the replayed record (and of the record's own ``outcome`` when it has one), the revealed
    seed in ``[data-seed]``, ``button#rematch`` on the seats' pages; ``#log``, ``#announce``
    (aria-live), ``#status``, ``#error`` (role=alert). (The notation box is checked by the
    moves typed into it during the game.)"""
    out: list[str] = []
    rep = played.replayed
    outcome = rep.states[-1].outcome
    assert outcome is not None, "the record's last state is not over"
    want = outcome.result
    if "outcome" in played.record:
        shown = played.record["outcome"].get("result")
        if shown != want:
            out.append(f"the record's outcome.result {shown!r} is not its replay's {want!r}")
    seed = rep.record.seed
    for table in played.tables:
        name = table.name
        final = played.final[name]
        if final.outcome != want:
            out.append(f"{name}: [data-outcome]={final.outcome!r}, the record's result {want!r}")
        seen = played.seeds[name]
        if str(seed) not in seen and f"{seed:x}" not in seen.lower():
            out.append(f"{name}: [data-seed] shows {seen[:80]!r}, not the seed {seed}")
        if table.seat is not None and not played.rematch[name]:
            out.append(f"{name}: no button#rematch on the end screen")
        hooks = played.hooks[name]
        if not hooks["log"]:
            out.append(f"{name}: #log is missing or empty after a whole game")
        if hooks["announce"] not in ("polite", "assertive"):
            out.append(f"{name}: #announce has aria-live={hooks['announce']!r}")
        if not hooks["status"]:
            out.append(f"{name}: no #status")
        if hooks["error"] != "alert":
            out.append(f"{name}: #error has role={hooks['error']!r}, not alert")
    return out


def status_problems(played: Played) -> list[str]:
    """While the game runs, the spectator's ``#status`` and the document's title name the
    player to move (by name, or as Player k)."""
    out: set[str] = set()
    rep = played.replayed
    for table in played.tables:
        if table.seat is not None:
            continue
        for snap in table.snaps:
            state = None if snap.v is None else rep.state(snap.v)
            if state is None or state.is_over or state.to_move is None:
                continue
            mover = state.to_move
            names = (played.setup.names[mover], f"Player {mover + 1}")
            if not any(n in snap.status for n in names):
                out.add(f"{snap.where} at v{snap.v}: #status {snap.status!r} names no {names}")
            if not any(n in snap.title for n in names):
                out.add(f"{snap.where} at v{snap.v}: the title {snap.title!r} names no {names}")
    return sorted(out)[:20]


def report(problems: list[str], what: str) -> None:
    """Fail listing ``problems`` (the first 40) when there are any."""
    if problems:
        listed = "\n".join(problems[:40])
        more = f"\n... and {len(problems) - 40} more" if len(problems) > 40 else ""
        pytest.fail(f"{what}: {len(problems)} problems\n{listed}{more}", pytrace=False)


def leak_canary(played: Played) -> list[str]:
    """The checker on this game's own snapshots: a hidden card planted in a copy of a real
    snapshot, in each form a page could show it, must be found every time."""
    out: list[str] = []
    rep = played.replayed
    ignore = [played.room, played.url]
    planted = 0
    for table in played.tables:
        snap = next(
            (s for s in table.snaps if s.v is not None and rep.state(s.v) is not None
             and rep.hidden(s.v, table.seat)
             and not card_leaks(s, rep.hidden(s.v, table.seat), rep.jokers, ignore)),
            None,
        )  # fmt: skip
        if snap is None or snap.v is None:
            continue  # every snapshot shows a hidden card: the leak test says which
        hidden = rep.hidden(snap.v, table.seat)
        card = sorted(hidden)[0]
        forms = {
            "data-card": dataclasses.replace(
                snap, cards=(*snap.cards, (card, None, "button", None, None, False))
            ),
            "aria-label": dataclasses.replace(snap, labels=(*snap.labels, english_name(card))),
            "innerText pretty": dataclasses.replace(
                snap, text=f"{snap.text} {parse_card(card).pretty()}"
            ),
            "innerText canonical": dataclasses.replace(snap, text=f"{snap.text}\n{card}"),
            "textContent": dataclasses.replace(
                snap, content=f"{snap.content}\n{english_name(card)}."
            ),
        }
        for form, bad in forms.items():
            planted += 1
            if not card_leaks(bad, hidden, rep.jokers, ignore):
                out.append(f"{table.name}: {card} planted as {form} was not found")
    if not planted:
        out.append("no snapshot with a hidden card to plant one in")
    return out


_OVERFLOW = """() => {
  const width = document.documentElement.clientWidth;
  const small = [];
  for (const e of document.querySelectorAll(
      'button, [role="button"], input[type="button"], input[type="submit"]')) {
    if (!e.getClientRects().length || getComputedStyle(e).visibility === 'hidden') continue;
    const r = e.getBoundingClientRect();
    if (r.width < 44 - 0.01 || r.height < 44 - 0.01) {
      const what = e.dataset.action || e.dataset.card || e.id || e.getAttribute('aria-label')
                   || e.innerText.trim().slice(0, 30);
      const size = `${r.width.toFixed(1)}x${r.height.toFixed(1)}`;
      small.push(`${e.tagName.toLowerCase()} "${what}" ${size}`);
    }
  }
  const wide = Array.from(document.querySelectorAll('body *')).filter((e) => {
    const r = e.getBoundingClientRect();
    return r.right > width + 0.5 && !Array.from(e.children).some(
      (c) => c.getBoundingClientRect().right > width + 0.5);
  }).slice(0, 5).map((e) => `${e.tagName.toLowerCase()}.${e.className} to ` +
                            `${e.getBoundingClientRect().right.toFixed(0)} px`);
  return {scroll: document.documentElement.scrollWidth, width, small, wide};
}"""


def layout_problems(page: Page, where: str) -> list[str]:
    """At 360 px: no horizontal scroll, and every visible button at least 44x44 CSS px."""
    found = page.evaluate(_OVERFLOW)
    out = [f"{where}: {b} is under 44x44 CSS px" for b in found["small"]]
    if found["scroll"] > 360:
        out.append(
            f"{where}: scrollWidth {found['scroll']} > 360 (a horizontal scroll); "
            f"reaching past the edge: {found['wide']}"
        )
    return out


def hand_problems(played: Played) -> list[str]:
    """How the moves sit on the cards. BEOR: in ``#hand``, a card carries no ``data-action``
    (it is chosen, then its base), or, with the setting that plays a card with one legal move
    at once, that one move. The Game of Death: each legal throw is the card itself,
    ``[data-card=X]`` with ``data-action=X``."""
    out: set[str] = set()
    rep = played.replayed
    game = played.setup.game
    for table in played.tables:
        for snap in table.snaps:
            state = None if snap.v is None else rep.state(snap.v)
            if state is None or table.seat is None or state.to_move != table.seat:
                continue
            if state.is_over or not snap.actions:
                continue
            legal = [str(a) for a in state.legal_actions()]
            where = f"{snap.where} at v{snap.v}"
            if game == "beor":
                moves: dict[str, list[str]] = {}
                for action in legal:
                    moves.setdefault(action.split(">", 1)[0], []).append(action)
                for card, _, _, _, carries, in_hand in snap.cards:
                    if not in_hand:
                        continue
                    mine = moves.get(card, [])
                    want = mine[0] if len(mine) == 1 else None
                    if carries is not None and carries != want:
                        out.add(f"{where}: #hand card {card} with moves {mine[:4]} has "
                                f"data-action={carries!r}, not {want!r}")  # fmt: skip
            elif game == "death":
                carried = {card for card, _, _, _, carries, _ in snap.cards if card == carries}
                for throw in legal:
                    if re.fullmatch(r"[A2-9TJQK][SHDC]", throw) and throw not in carried:
                        out.add(f"{where}: the throw {throw} is not its card's data-action")
    return sorted(out)[:30]
