"""The Game of Death's give dialog: a black face card's drinks split between two players in one
go (G5: "You may split up the drinks that you give out"), sent as one give per player; and the
widest table, ten players, on a 360 px phone."""

from __future__ import annotations

from playwright.sync_api import Browser, Page

from tests.browser.browser import (
    axe_problems,
    layout_problems,
    new_context,
    report,
    wait_js,
)
from tests.server.client import ServerProcess, create_room

BLACK_FACES = {f"{r}{s}" for r in "JQKA" for s in "SC"}
MOVES = "() => [...document.querySelectorAll('[data-action]')].map((e) => e.dataset.action)"
GIVEN = """() => [...document.querySelectorAll('table.drinks tbody tr')]
  .map((row) => Number(row.cells[2].innerText))"""


def throw_until_a_give(page: Page) -> int:
    """Play Player 1's turns, a black face card whenever one may be thrown, until the give
    dialog opens; the drinks owed. The server deals from a fresh secret seed, so a deal may
    end before Player 1 can throw a black face card (it holds none, or never may follow with
    one): then the rematch deals again, up to five deals (each deal fails so with a chance of
    about one in ten)."""
    deals = 1
    for _ in range(1000):
        page.locator("#table.my-turn, [data-outcome]").first.wait_for()
        if page.locator("[data-outcome]").count():
            assert deals < 5, "no black face card was thrown in five deals"
            v = page.locator("#table").get_attribute("data-v")
            page.locator("button#rematch").click()
            wait_js(page, "() => !document.querySelector('[data-outcome]')", None, "a new deal")
            deals += 1
            continue
        if page.locator("#give").count():
            return int(page.locator("#split-1").get_attribute("max") or "0")
        moves = page.evaluate(MOVES)
        v = page.locator("#table").get_attribute("data-v")
        pick = next((m for m in moves if m in BLACK_FACES), moves[0])
        page.locator(f'[data-action="{pick}"]').first.click()
        page.locator(f"#table:not([data-v='{v}'])").wait_for()
    raise AssertionError("no give dialog within 1000 turns")


def test_the_give_dialog_splits_drinks_between_players(
    browser: Browser, server: ServerProcess
) -> None:
    body = {
        "game": "death",
        "players": 3,
        "seats": ["person", "random", "random"],
        "names": ["Ann", "Bob", "Cy"],
    }
    room = create_room(server.url, body)
    context = new_context(browser)
    try:
        page = context.new_page()
        page.goto(room["seats"][0]["link"])
        owed = throw_until_a_give(page)
        assert owed >= 2, owed
        before = page.evaluate(GIVEN)
        to_bob, to_cy = owed - owed // 2, owed // 2
        page.locator("#split-1").fill(str(to_bob))
        page.locator("#split-2").fill(str(to_cy))
        page.locator("#give-split").click()
        wait_js(page, "() => document.querySelector('#give') === null", None, "the gives to end")
        after = page.evaluate(GIVEN)
        assert after[0] == before[0] + owed, (before, after)
        log = page.locator("#log").inner_text()
        assert f"Ann gives {to_bob} to Bob" in log and f"Ann gives {to_cy} to Cy" in log, log
    finally:
        context.close()


def test_shares_that_do_not_add_up_are_not_sent(browser: Browser, server: ServerProcess) -> None:
    """The dialog says what is wrong and sends nothing."""
    body = {"game": "death", "players": 3, "seats": ["person", "random", "random"]}
    room = create_room(server.url, body)
    context = new_context(browser)
    try:
        page = context.new_page()
        page.goto(room["seats"][0]["link"])
        throw_until_a_give(page)
        v = page.locator("#table").get_attribute("data-v")
        page.locator("#split-1").fill("1")
        page.locator("#split-2").fill("0")
        page.locator("#give-split").click()
        note = page.locator("#give-note")
        wait_js(page, "() => document.querySelector('#give-note').innerText !== ''", None, "a note")
        assert "must add up" in note.inner_text()
        assert page.locator("#table").get_attribute("data-v") == v
    finally:
        context.close()


def test_ten_players_fit_a_360_px_phone_to_the_end(browser: Browser, server: ServerProcess) -> None:
    """The widest table Parlour has: ten players, with the drinks table, the pile and, at the
    end, the match table (which scrolls in its own box, never the page)."""
    body = {"game": "death", "players": 10, "seats": ["person"] + ["heuristic"] * 9}
    room = create_room(server.url, body)
    context = new_context(browser, viewport={"width": 360, "height": 740})
    try:
        page = context.new_page()
        page.goto(room["seats"][0]["link"])
        for _ in range(60):
            page.locator("#table.my-turn, [data-outcome]").first.wait_for()
            report(layout_problems(page, "10 players at 360 px"), "the layout")
            if page.locator("[data-outcome]").count():
                break
            v = page.locator("#table").get_attribute("data-v")
            target = page.locator("[data-action]:visible").first
            target.click()
            page.locator(f"#table:not([data-v='{v}'])").wait_for()
        else:
            raise AssertionError("the game did not end within 60 of Player 1's turns")
        page.locator("table.match").wait_for()
        report(layout_problems(page, "the end screen of 10 players at 360 px"), "the layout")
        report(axe_problems(page), "axe-core on the end screen of 10 players")
    finally:
        context.close()
