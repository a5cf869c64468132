"""The Game of Death (and Beggar-My-Neighbour's counts) on a phone, issue 26: every table penalty
gets a visible outcome (proposed with its votes, voted down by the bots, passed and logged); a
tie's end says the win is shared; counts of one are singular; the give dialog is one row per
player with - and + and the drinks left to give; ten players keep the seats strip small; known
cards are at least 40 CSS px wide.

The server of this module deals from the seed the test asks for (a prelude replaces the secret
draw), so each test reaches the position it needs in a few moves. The seeds were found with the
engines and the server's own bot decisions (:func:`simulate` replays them the same way), and the
tests check that the position is the one expected before using it."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe  # type: ignore[import-untyped]
from playwright.sync_api import Browser, Page

from parlour.core.game import State
from parlour.core.rng import derive_seed
from parlour.games import GAMES
from parlour.server.bots import decide
from tests.browser.browser import (
    PHONE,
    SCREENSHOTS,
    Table,
    get_json,
    new_context,
    report,
    wait_js,
)
from tests.server.client import ServerProcess, create_room

SEATS_STRIP_MAX = 150
"""The tallest the seats strip of ten players may be at 390x844, in CSS px (under a fifth of
the window's height)."""
CARD_MIN = 40
"""The narrowest a face-up card may be on a phone, in CSS px (issue 26, deliverable 7)."""


@pytest.fixture(scope="module")
def seed_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("death_phone") / "seed"


@pytest.fixture(scope="module")
def server(seed_file: Path) -> Iterator[ServerProcess]:
    """``parlour serve`` whose new deals take their seed from ``seed_file`` while it exists
    (the secret draw otherwise)."""
    prelude = (
        "import pathlib\n"
        "import parlour.server.room as _room\n"
        f"_file = pathlib.Path({str(seed_file)!r})\n"
        "_draw = _room.draw_seed\n"
        "_room.draw_seed = lambda: int(_file.read_text()) if _file.exists() else _draw()\n"
    )
    process = ServerProcess(seed_file.with_name("rooms.db"), prelude=prelude).start()
    try:
        yield process
    finally:
        process.stop()


def room_with_seed(
    server: ServerProcess, seed_file: Path, seed: int, body: dict[str, Any]
) -> dict[str, Any]:
    seed_file.write_text(str(seed))
    try:
        return create_room(server.url, body)
    finally:
        seed_file.unlink()


def simulate(
    game: str, seed: int, kinds: list[str], plan: list[str] | None = None
) -> tuple[State, list[str]]:
    """The first deal of a room of ``game`` dealt from ``seed``, its bots deciding as the
    server's do (their seed from the deal's and the room's version) and its person seats
    playing ``plan`` in turn (or, with no plan, the Game of Death's: all drinks to one player,
    else the first legal move in notation order, a plan then returned): the last state."""
    rules = GAMES[game]
    n = len(kinds)
    state = rules.new(n, seed, {}, rules.match_deal(n, seed, 0))
    made: list[str] = []
    v = 0
    while not state.is_over:
        seat = state.to_move
        assert seat is not None
        if kinds[seat] == "person":
            if plan is not None:
                if len(made) == len(plan):
                    break
                action = plan[len(made)]
            else:
                action = first_move(state)
            made.append(action)
        else:
            legal = list(state.legal_action_ids())
            view = state.view(seat).to_json()
            chosen = decide(game, kinds[seat], view, legal, derive_seed(seed, "bot", v))
            action = str(rules.action_from_id(chosen))
        state = state.apply(action, seat=seat)
        v += 1
    return state, made


def first_move(state: State) -> str:
    legal = [str(a) for a in state.legal_actions()]
    gives = [a for a in legal if a.startswith("give ")]
    if gives:
        most = max(int(a.split()[1].split(">")[0]) for a in gives)
        return next(a for a in gives if a.startswith(f"give {most}>"))
    return sorted(legal)[0]


def my_turn(page: Page) -> None:
    page.locator("#table.my-turn, [data-outcome]").first.wait_for()


def axe_in(page: Page, selector: str) -> list[str]:
    """axe-core's serious and critical findings inside ``selector`` (what this board draws)."""
    results = Axe().run(page, context=selector)
    return [
        f"{v['id']} ({v['impact']}): {v.get('help')}; "
        f"{[' '.join(map(str, n.get('target', []))) for n in v.get('nodes', [])[:4]]}"
        for v in results.response.get("violations", [])
        if v.get("impact") in ("serious", "critical")
    ]


def widths(page: Page, selector: str) -> list[float]:
    found: list[float] = page.evaluate(
        "(sel) => [...document.querySelectorAll(sel)].filter((e) => e.getClientRects().length)"
        ".map((e) => e.getBoundingClientRect().width)",
        selector,
    )
    return found


def said_once(page: Page, words: str) -> None:
    """The end of the deal says ``words`` (its shared win) once, not twice."""
    end = page.locator("#end").inner_text()
    assert end.count(words) == 1, f"{words!r} said {end.count(words)} times at the end: {end}"


ON_TOP = """(sel) => {
  const e = document.querySelector(sel);
  const r = e.getBoundingClientRect();
  return e.contains(document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2));
}"""
"""Whether the middle of ``sel`` is itself (not under a sheet) in the window."""


# -- table penalties (defect 2, deliverable 4) ------------------------------------------------


def test_every_table_penalty_gets_a_visible_outcome(
    browser: Browser, server: ServerProcess
) -> None:
    """Ann and Bob, and Cy a bot. A D'oh! on Cy is proposed with its votes for all to see
    (the bot does not vote on its own penalty); a D'oh! on Bob is voted down by the bot at once
    and both pages say so; Bob's yes passes the first, and the log says Cy drinks."""
    body = {
        "game": "death",
        "players": 3,
        "seats": ["person", "person", "random"],
        "names": ["Ann", "Bob", "Cy"],
    }
    room = create_room(server.url, body)
    contexts = [new_context(browser, "phone"), new_context(browser)]
    try:
        ann, bob = (
            Table(context, name, seat, touch=seat == 0).open(room["seats"][seat]["link"])
            for context, name, seat in zip(contexts, ("Ann", "Bob"), (0, 1), strict=True)
        )
        ann.press(ann.page.locator('button[data-table="doh P3"]'))
        for table in (ann, bob):
            open_one = table.page.locator("[data-proposal]")
            open_one.wait_for()
            text = open_one.inner_text()
            assert "Ann proposes a D'oh! on Cy" in text, text
            assert "For: Ann. Against: nobody." in text, text
        assert bob.page.locator("[data-proposal] [data-vote]").count() == 2
        assert ann.page.locator("[data-proposal] [data-vote]").count() == 0
        # The bot votes no on a penalty on Bob: decided at once, never open.
        ann.press(ann.page.locator('button[data-table="doh P2"]'))
        for table in (ann, bob):
            down = table.page.locator("[data-decided][data-result='bots']")
            down.wait_for()
            text = down.inner_text()
            assert "Voted down by the bots: Ann proposed a D'oh! on Bob" in text, text
            assert "For: Ann. Against: Cy (bot)." in text, text
        box = ann.page.locator("[data-decided]").bounding_box()
        assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 844, box
        # On the phone the penalties' sheet closed: nothing covers the outcome.
        assert ann.page.evaluate(ON_TOP, "[data-decided]"), "the outcome is covered"
        bob.press(bob.page.locator("[data-proposal] [data-vote='yes']"))
        for table in (ann, bob):
            passed = table.page.locator("[data-decided][data-result='passed']")
            passed.wait_for()
            assert "Passed: Ann proposed a D'oh! on Cy" in passed.inner_text()
            assert "For: Ann and Bob." in passed.inner_text()
            wait_js(
                table.page,
                "() => document.querySelector('#log').textContent.includes('Cy drinks 1: D\\'oh!')",
                None,
                f"{table.name}'s log line of Cy's D'oh!",
            )
            assert table.page.locator("[data-proposal]").count() == 0
        ann.page.screenshot(path=str(SCREENSHOTS / "death-penalties-390x844.png"))
        report(axe_in(ann.page, ".proposals"), "axe-core on the votes")
    finally:
        for context in contexts:
            context.close()


# -- a tie (defect 7) and known cards at the end ----------------------------------------------

TIE_SEED = 230
"""Ten players, Ann a person (who throws the first card in notation order and gives all to one
player) and nine random bots: after three of Ann's moves Ann and Di have drunk 2 each, the
others more."""


def test_a_tie_is_a_shared_win(browser: Browser, server: ServerProcess, seed_file: Path) -> None:
    kinds = ["person"] + ["random"] * 9
    end, plan = simulate("death", TIE_SEED, kinds)
    outcome = end.outcome
    assert outcome is not None and tuple(outcome.winners) == (0, 3), outcome
    drank = outcome.scores[0]
    names = ["Ann", "Bo", "Cy", "Di", "Ed", "Fay", "Gus", "Hal", "Ivy", "Jo"]
    body = {"game": "death", "players": 10, "seats": kinds, "names": names}
    room = room_with_seed(server, seed_file, TIE_SEED, body)
    context = new_context(browser, "phone")
    try:
        table = Table(context, "Ann", 0, touch=True).open(room["seats"][0]["link"])
        page = table.page
        for action in plan:
            my_turn(page)
            v = table.v()
            assert v is not None
            table.play(action)
            table.wait_v_above(v, f"after {action}")
        page.locator("[data-outcome]").wait_for()
        result = page.locator("#end .result").inner_text()
        assert f"You and Di drank least ({drank}): you share the win" in result, result
        assert "you win!" not in result
        said_once(page, "share the win")
        # No face-up card is a thumbnail (the seats say the hands' sizes, not their cards).
        narrow = [w for w in widths(page, "#table [data-card]") if w < CARD_MIN]
        assert not narrow, f"face-up cards under {CARD_MIN} px at the end: {narrow}"
        page.screenshot(path=str(SCREENSHOTS / "death-tie-390x844.png"), full_page=True)
        # The same end in Romanian and Dutch, the shared win said once.
        want = {
            "ro": ("Tu și Di ați băut cel mai puțin", "împărțiți victoria"),
            "nl": ("Jij en Di dronken het minst", "delen de"),
        }
        for lang, (words, shared) in want.items():
            page.locator("select#lang").select_option(lang)
            wait_js(
                page,
                "(s) => (document.querySelector('#end .result')?.innerText ?? '').includes(s)",
                words,
                f"the shared win in {lang}: {words!r}",
            )
            said_once(page, shared)
    finally:
        context.close()


def test_a_tie_at_beggar_my_neighbours_card_limit_is_shared(
    browser: Browser, server: ServerProcess, seed_file: Path
) -> None:
    """Seed 4 with a card limit of two: Ann turns Q♦, Bo pays the first card and the deal
    stops with 25 cards in each hand (M11)."""
    kinds = ["person", "bot"]
    body = {"game": "beggar", "players": 2, "seats": kinds, "names": ["Ann", "Bo"],
            "options": {"card_limit": 2}}  # fmt: skip
    rules = GAMES["beggar"]
    end = rules.new(2, 4, {"card_limit": 2}, rules.match_deal(2, 4, 0))
    while not end.is_over:
        end = end.apply("play", seat=end.to_move)
    assert end.outcome is not None and tuple(end.outcome.winners) == (0, 1), end.outcome
    room = room_with_seed(server, seed_file, 4, body)
    context = new_context(browser, "phone")
    try:
        table = Table(context, "Ann", 0, touch=True).open(room["seats"][0]["link"])
        wait_js(table.page, "() => document.querySelector('[data-action=\"play\"]')", None, "")
        table.play("play")
        table.page.locator("[data-outcome='limit']").wait_for()
        result = table.page.locator("#end .result").inner_text()
        want = "The card limit (2) was reached: you and Bo held the most cards and share the win"
        assert want in result, result
        said_once(table.page, "share the win")
        # The deal is over: nobody owes a payment any more.
        payment = table.page.locator(".beggar-board .payment")
        assert payment.count() == 0, f"a payment line after the end: {payment.all_inner_texts()}"
    finally:
        context.close()


# -- the log sheet before the first move ----------------------------------------------------------

EMPTY_LOG = """() => {
  const log = document.querySelector('#log');
  const before = getComputedStyle(log, '::before');
  const r = log.getBoundingClientRect();
  return {entries: log.children.length, content: before.content, shown: before.display !== 'none',
          said: log.dataset.empty ?? null, top: r.top, bottom: r.bottom};
}"""
"""What the log sheet's list shows: its entries and the line drawn when it has none."""


def test_an_empty_log_says_nothing_has_happened_yet(
    browser: Browser, server: ServerProcess
) -> None:
    """A fresh room of two people: the log sheet says "Nothing has happened yet." (in each
    language) until the first move, then shows that move alone."""
    body = {"game": "death", "players": 2, "seats": ["person", "person"], "names": ["Ann", "Bo"]}
    room = create_room(server.url, body)
    context = new_context(browser, "phone")
    try:
        table = Table(context, "Ann", 0, touch=True).open(room["seats"][0]["link"])
        page = table.page
        page.locator("#sheet-log").click()
        page.locator("details.sheet-log[open] #log").wait_for()
        for lang, words in (
            ("ro", "Nu s-a întâmplat nimic încă."),
            ("nl", "Er is nog niets gebeurd."),
            ("en", "Nothing has happened yet."),
        ):
            page.locator("select#lang").select_option(lang)
            wait_js(
                page,
                "(w) => document.querySelector('#log')?.dataset.empty === w",
                words,
                f"the empty log's line in {lang}",
            )
            seen = page.evaluate(EMPTY_LOG)
            assert seen["entries"] == 0 and seen["shown"], seen
            assert seen["content"] == f'"{words}"', seen
            assert seen["top"] >= 0 and seen["bottom"] <= 844, seen
            assert seen["bottom"] - seen["top"] >= 20, f"the empty log has no line: {seen}"
        page.screenshot(path=str(SCREENSHOTS / "death-empty-log-390x844.png"))
        # The first throw (Bo's page makes it when he leads) fills the log.
        mover = get_json(f"{server.url}/api/rooms/{room['room']}")["to_move"]
        if mover != 0:
            table = Table(context, "Bo", 1, touch=True).open(room["seats"][1]["link"])
        my_turn(table.page)
        throw = table.page.locator("[data-action]").first.get_attribute("data-action")
        assert throw, "no move to make"
        table.play(throw)
        wait_js(page, "() => document.querySelector('#log').children.length > 0", None, "a move")
        assert page.evaluate(EMPTY_LOG)["content"] in ("none", "normal"), "still said empty"
    finally:
        context.close()


# -- counts of one (defect 9) -------------------------------------------------------------------


def test_one_trick_taken_is_singular(
    browser: Browser, server: ServerProcess, seed_file: Path
) -> None:
    """Beggar-My-Neighbour, seed 1: Ann's first card wins the first trick."""
    kinds = ["person", "bot"]
    state, _ = simulate("beggar", 1, kinds, ["play"])
    view = state.view(None).to_json()
    assert (view["tricks"], view["cards"]) == (1, 2), view
    body = {"game": "beggar", "players": 2, "seats": kinds, "names": ["Ann", "Bob"]}
    room = room_with_seed(server, seed_file, 1, body)
    context = new_context(browser, "phone")
    try:
        table = Table(context, "Ann", 0, touch=True).open(room["seats"][0]["link"])
        wait_js(table.page, "() => document.querySelector('[data-action=\"play\"]')", None, "")
        table.play("play")
        counts = table.page.locator(".beggar-board .counts")
        wait_js(
            table.page,
            "() => /1 trick taken/.test(document.querySelector('.beggar-board .counts')"
            "?.innerText || '')",
            None,
            "the counts after the first trick",
        )
        assert counts.inner_text() == "2 cards turned, 1 trick taken", counts.inner_text()
    finally:
        context.close()


# -- the give dialog (deliverable 8) ----------------------------------------------------------

GIVE_SEED = 2
"""Ann's first turn (after the two bots' throws) may throw Q♠: six drinks to give."""

LEFT = "() => document.querySelector('#give-left')?.innerText ?? ''"
FACTS = """() => [...document.querySelectorAll('#seat-list .seat')].map((seat) => {
  const facts = seat.querySelector('.death-facts');
  return facts ? {said: facts.querySelector('.sr-only')?.textContent ?? '',
                  height: facts.getBoundingClientRect().height} : {said: '', height: 0};
})"""


def test_the_give_dialog_is_a_row_per_player_with_minus_and_plus(
    browser: Browser, server: ServerProcess, seed_file: Path
) -> None:
    kinds = ["person", "random", "random"]
    state, _ = simulate("death", GIVE_SEED, kinds, [])
    assert state.to_move == 0 and "QS" in {str(a) for a in state.legal_actions()}
    body = {"game": "death", "players": 3, "seats": kinds, "names": ["Ann", "Bob", "Cy"]}
    room = room_with_seed(server, seed_file, GIVE_SEED, body)
    context = new_context(browser, "phone")
    try:
        table = Table(context, "Ann", 0, touch=True).open(room["seats"][0]["link"])
        page = table.page
        my_turn(page)
        table.play("QS")
        dialog = page.locator("#give")
        dialog.wait_for()
        rows = dialog.locator(".give-row")
        assert rows.count() == 2
        assert dialog.locator("button:visible").count() <= 2 * 3 + 1, "a grid of buttons"
        assert page.evaluate(LEFT) == "6 drinks left to give"
        bob = dialog.locator(".give-row[data-player='1']")
        cy = dialog.locator(".give-row[data-player='2']")
        plus_bob = bob.get_by_role("button", name="One more drink for Bob")
        minus_bob = bob.get_by_role("button", name="One drink fewer for Bob")
        plus_cy = cy.get_by_role("button", name="One more drink for Cy")
        assert minus_bob.get_attribute("aria-disabled") == "true"
        for _ in range(4):
            table.press(plus_bob)
        table.press(minus_bob)
        assert bob.get_by_label("Drinks for Bob").input_value() == "3"
        assert page.evaluate(LEFT) == "3 drinks left to give"
        confirm = page.locator("#give-split")
        assert confirm.get_attribute("data-action") is None, "a give before the split is whole"
        for _ in range(3):
            table.press(plus_cy)
        assert page.evaluate(LEFT) == "No drinks left to give"
        assert plus_cy.get_attribute("aria-disabled") == "true"
        assert plus_bob.get_attribute("aria-disabled") == "true"
        assert confirm.get_attribute("data-action") == "give 3>P2"
        for button in (plus_bob, minus_bob, confirm):
            box = button.bounding_box()
            assert box is not None and box["width"] >= 44 and box["height"] >= 44, box
            assert box["y"] >= 0 and box["y"] + box["height"] <= 844, ("off screen", box)
        page.screenshot(path=str(SCREENSHOTS / "death-give-390x844.png"))
        report(axe_in(page, "#give"), "axe-core on the give dialog")
        table.press(confirm)
        wait_js(page, "() => !document.querySelector('#give')", None, "both gives")
        log = page.locator("#log").text_content() or ""
        assert "Ann gives 3 to Bob" in log and "Ann gives 3 to Cy" in log, log
    finally:
        context.close()


# -- ten players on a phone (deliverable 2, 7) ------------------------------------------------


def test_ten_players_keep_the_seats_strip_small_and_the_cards_legible(
    browser: Browser, server: ServerProcess
) -> None:
    names = [
        "Ann", "Bartholomew", "Cy", "Dimitra", "Ed", "Florentina", "Gus", "Hal", "Ioana", "Jo",
    ]  # fmt: skip
    body = {"game": "death", "players": 10, "seats": ["person"] + ["random"] * 9, "names": names}
    room = create_room(server.url, body)
    context = new_context(browser, "phone")
    try:
        table = Table(context, "Ann", 0, touch=True).open(room["seats"][0]["link"])
        page = table.page
        my_turn(page)
        strip = page.locator("#seat-list").bounding_box()
        assert strip is not None
        assert strip["height"] <= SEATS_STRIP_MAX, f"the seats strip is {strip['height']} px tall"
        assert strip["x"] >= 0 and strip["x"] + strip["width"] <= PHONE["viewport"]["width"] + 0.5
        seats = page.locator("#seat-list .seat")
        assert seats.count() == 10
        for i in range(10):
            text = seats.nth(i).text_content() or ""
            assert names[i] in text, text
        # Each seat says its cards and its drinks taken, on one short line.
        facts = page.evaluate(FACTS)
        assert len(facts) == 10, facts
        for fact in facts:
            assert re.fullmatch(r"\d+ cards?, \d+ drinks? taken.*", fact["said"]), fact
            assert fact["height"] <= 24, f"the facts take more than a line: {fact}"
        narrow = [w for w in widths(page, "#table [data-card]") if w < CARD_MIN]
        assert not narrow, f"face-up cards under {CARD_MIN} px: {narrow}"
        page.screenshot(path=str(SCREENSHOTS / "death-10-players-390x844.png"))
    finally:
        context.close()


GIVE_TEN_SEED = 166
"""Ten players: Ann's first turn (after six bots' throws) may throw A♠, twenty drinks to give."""


def test_twenty_drinks_for_nine_players_fit_a_small_phone(
    browser: Browser, server: ServerProcess, seed_file: Path
) -> None:
    kinds = ["person"] + ["random"] * 9
    state, _ = simulate("death", GIVE_TEN_SEED, kinds, [])
    assert state.to_move == 0 and "AS" in {str(a) for a in state.legal_actions()}
    names = ["Ann", "Bo", "Cy", "Di", "Ed", "Fay", "Gus", "Hal", "Ivy", "Jo"]
    body = {"game": "death", "players": 10, "seats": kinds, "names": names}
    room = room_with_seed(server, seed_file, GIVE_TEN_SEED, body)
    context = new_context(browser, "phone", viewport={"width": 360, "height": 740})
    try:
        table = Table(context, "Ann", 0, touch=True).open(room["seats"][0]["link"])
        page = table.page
        my_turn(page)
        table.play("AS")
        page.locator("#give").wait_for()
        assert page.evaluate(LEFT) == "20 drinks left to give"
        boxes = page.evaluate(
            """() => [...document.querySelectorAll('#give-split, #give-left, #give .give-row')]
              .map((e) => { const r = e.getBoundingClientRect();
                            return [e.id || e.dataset.player, r.top, r.bottom]; })"""
        )
        assert len(boxes) == 11, boxes
        page.screenshot(path=str(SCREENSHOTS / "death-give-ten-360x740.png"))
        outside = [b for b in boxes if b[1] < 0 or b[2] > 740]
        assert not outside, f"not inside the 360x740 window: {outside}"
        table.press(page.locator(".give-row[data-player='9'] [data-action='give 20>P10']"))
        wait_js(page, "() => !document.querySelector('#give')", None, "the give")
        assert "Ann gives 20 to Jo" in (page.locator("#log").text_content() or "")
    finally:
        context.close()
