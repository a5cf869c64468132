"""A match at the browser table (G12): after a game every person asks for the rematch, the next
deal starts with a new committed seed, versions go on, and the match table adds up the deals.

Two people play Beggar-My-Neighbour (short games: ``card_limit``), each turning automatically."""

from __future__ import annotations

from playwright.sync_api import Browser, Page

from tests.browser.browser import new_context, wait_js
from tests.server.client import ServerProcess, create_room

FAST = "localStorage.setItem('parlour.beggarSpeed', 'fast')"
DEALS = "() => document.querySelectorAll('table.match tbody tr:not(.total)').length"
# The page's recorder (browser.py) keeps a snapshot of every change: while the second deal was
# played, the match so far was a sheet of the table's toolbar holding the first deal's row.
MATCH_SHEET = """() => window.__parlourSnaps.some((s) => s.outcome === null
  && s.attrs.includes('data-sheet=match') && s.content.includes('The match so far'))"""


def seed_of(page: Page) -> str:
    page.locator("[data-seed]").wait_for()
    seed = page.locator("[data-seed]").get_attribute("data-seed")
    assert seed and seed.isdigit(), seed
    return seed


def test_a_rematch_deals_again_and_the_match_table_adds_up(
    browser: Browser, server: ServerProcess
) -> None:
    body = {
        "game": "beggar",
        "players": 2,
        "seats": ["person", "person"],
        "names": ["Ann", "Bob"],
        "options": {"card_limit": 12},
    }
    room = create_room(server.url, body)
    contexts = [new_context(browser, record=True), new_context(browser, "phone", record=True)]
    try:
        pages = []
        for context, seat in zip(contexts, room["seats"], strict=True):
            context.add_init_script(FAST)
            page = context.new_page()
            page.goto(seat["link"])
            page.locator("#table[data-v]:not([data-v=''])").wait_for()
            page.locator("#auto").check()
            pages.append(page)
        for page in pages:
            page.locator("[data-outcome]").wait_for()
        first = [seed_of(page) for page in pages]
        assert first[0] == first[1]
        assert all(page.evaluate(DEALS) == 1 for page in pages)
        v_end = int(pages[0].locator("#table").get_attribute("data-v") or "0")

        pages[0].locator("button#rematch").click()
        wait_js(pages[0], "() => document.querySelector('#rematch').disabled", None, "a wait")
        assert "1" in pages[0].locator("button#rematch").inner_text()  # waiting for 1 more
        assert pages[1].locator("[data-outcome]").count() == 1  # nothing dealt yet
        pages[1].locator("button#rematch").tap()

        for page in pages:  # the second deal plays itself out (both turn automatically)
            wait_js(page, DEALS.replace("length", "length === 2"), None, "two deals in the table")
        second = [seed_of(page) for page in pages]
        assert second[0] == second[1] != first[0], (first, second)
        v_now = int(pages[0].locator("#table").get_attribute("data-v") or "0")
        assert v_now > v_end + 1, (v_end, v_now)
        totals = pages[0].locator("table.match tr.total").inner_text()
        assert totals.count("won") == 2, totals
        won = pages[0].locator("table.match td.won").count()
        assert won >= 2, "each deal marks its winner"
        assert pages[0].locator("#log li").count() >= 1
        assert pages[0].evaluate(MATCH_SHEET), "no match sheet while the second deal was played"
        assert pages[0].locator("[data-sheet=match]").count() == 0  # over: the end shows it
    finally:
        for context in contexts:
            context.close()
