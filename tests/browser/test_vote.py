"""The Game of Death's table penalties at the browser table (G13): a D'oh! on another player is
put to the others' vote, shown on every page; it counts once most of the players other than the
one penalised are for it (the proposer counts as yes), and the penalised player cannot vote."""

from __future__ import annotations

from playwright.sync_api import Browser

from tests.browser.browser import new_context, wait_js
from tests.server.client import ServerProcess, create_room

TAKEN = """() => [...document.querySelectorAll('table.drinks tbody tr')]
  .map((row) => Number(row.cells[1].innerText))"""


def test_a_doh_on_another_player_counts_once_the_others_vote_for_it(
    browser: Browser, server: ServerProcess
) -> None:
    body = {
        "game": "death",
        "players": 3,
        "seats": ["person", "person", "person"],
        "names": ["Ann", "Bob", "Cy"],
    }
    room = create_room(server.url, body)
    contexts = [new_context(browser) for _ in range(3)]
    try:
        pages = []
        for context, seat in zip(contexts, room["seats"], strict=True):
            page = context.new_page()
            page.goto(seat["link"])
            page.locator("#table[data-v]:not([data-v=''])").wait_for()
            pages.append(page)
        ann, bob, cy = pages
        before = ann.evaluate(TAKEN)
        ann.locator("details.penalties summary").click()
        ann.locator('button[data-table="doh P2"]').click()
        for page in pages:
            page.locator("[data-proposal]").wait_for()
        assert "Ann" in cy.locator("[data-proposal]").inner_text()
        assert bob.locator("[data-vote]").count() == 0, "the penalised player votes"
        assert ann.locator("[data-vote]").count() == 0, "the proposer votes again"
        assert ann.evaluate(TAKEN) == before, "the penalty counted before the vote"
        cy.locator('[data-vote="yes"]').click()
        for page in pages:
            wait_js(page, "() => !document.querySelector('[data-proposal]')", None, "the vote")
        assert ann.evaluate(TAKEN) == [before[0], before[1] + 1, before[2]]
        assert "Bob drinks 1: D'oh! (G13)" in cy.locator("#log").inner_text()
    finally:
        for context in contexts:
            context.close()
