"""The Game of Death's table penalties at the browser table (G13): a D'oh! on another player is
put to the others' vote, shown on every page; it counts once most of the players other than the
one penalised are for it (the proposer counts as yes), and the penalised player cannot vote."""

from __future__ import annotations

import json

from playwright.sync_api import Browser, WebSocketRoute

from tests.browser.browser import new_context, wait_js
from tests.server.client import ServerProcess, create_room

V_ABOVE = "(v) => Number(document.querySelector('#table').dataset.v) > v"
# Three people at a Game of Death.
ROOM = {
    "game": "death",
    "players": 3,
    "seats": ["person", "person", "person"],
    "names": ["Ann", "Bob", "Cy"],
}
TAKEN = """() => [...document.querySelectorAll('table.drinks tbody tr')]
  .map((row) => Number(row.cells[1].innerText))"""


def test_a_doh_on_another_player_counts_once_the_others_vote_for_it(
    browser: Browser, server: ServerProcess
) -> None:
    room = create_room(server.url, ROOM)
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


def test_a_penalty_tapped_on_a_page_a_frame_behind_counts_once(
    browser: Browser, server: ServerProcess
) -> None:
    """A D'oh! on oneself (G13) tapped on a page that has not yet drawn the room's newest frame
    (it waits behind the cards still travelling there, or on a slow network): the room refuses
    it as stale, and the page sends it again at the version it then draws, so the penalty is
    not lost without a word, and counts once. Ann's page gets the room's frames only when the
    test lets them through."""
    room = create_room(server.url, ROOM)
    held: list[str | bytes] = []
    holding = [False]
    to_ann: list[WebSocketRoute] = []
    from_room: list[str | bytes] = []  # every message of the room to Ann's page, in order

    def route(ws: WebSocketRoute) -> None:
        to_server = ws.connect_to_server()

        def to_page(message: str | bytes) -> None:
            from_room.append(message)
            if holding[0]:
                held.append(message)
            else:
                ws.send(message)

        to_server.on_message(to_page)
        to_ann.append(ws)

    contexts = [new_context(browser) for _ in range(3)]
    try:
        pages = []
        for k, (context, seat) in enumerate(zip(contexts, room["seats"], strict=True)):
            page = context.new_page()
            if k == 0:
                page.route_web_socket("**/ws/**", route)
            page.goto(seat["link"])
            page.locator("#table[data-v]:not([data-v=''])").wait_for()
            pages.append(page)
        ann, bob, _ = pages
        v = int(ann.locator("#table").get_attribute("data-v") or "")
        before = ann.evaluate(TAKEN)
        holding[0] = True
        bob.locator("details.penalties summary").click()
        bob.locator('button[data-table="doh P2"]').click()
        wait_js(bob, V_ABOVE, v, "Bob's D'oh! on himself")
        ann.locator("details.penalties summary").click()
        ann.locator('button[data-table="doh P1"]').click()
        # Ann's page sent her D'oh! at version v, while the room is at v + 1.
        assert ann.locator("#table").get_attribute("data-v") == str(v), "a frame came through"
        # Let the frames through, in order: what was held (Bob's D'oh!, and the room's answer
        # to Ann's if it came already), then the rest as it comes.
        while held:
            to_ann[-1].send(held.pop(0))
        holding[0] = False
        for page in pages:
            wait_js(page, V_ABOVE, v + 1, "Ann's D'oh! sent again")
        after = pages[2].evaluate(TAKEN)
        assert after == [before[0] + 1, before[1] + 1, before[2]]
        log = pages[2].locator("#log").inner_text()
        assert log.count("Ann drinks 1: D'oh! (G13)") == 1, log
        assert all(e.inner_text() == "" for e in ann.locator("#error").all())
        # The room refused her first sending as stale, after the frame of Bob's D'oh!.
        said = [json.loads(m) for m in from_room]
        kinds = [(m["type"], m.get("v"), m.get("code")) for m in said]
        bobs = next(i for i, m in enumerate(said) if m["type"] == "update" and m["v"] == v + 1)
        assert ("reject", v + 1, "stale") in kinds[bobs + 1 :], kinds
    finally:
        for context in contexts:
            context.close()
