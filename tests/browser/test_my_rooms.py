""" "My rooms" in the lobby, in Chromium: a room made in the lobby and a seat taken through its
link are listed (game, players, the seat held, whose turn it is or the last result, from the
server), with the link back and, once a deal is over, its replay (seen from the seat held); a
room can be forgotten."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page

from tests.browser.browser import get_json, new_context, wait_js
from tests.server.client import ServerProcess, create_room, running_server


@pytest.fixture(scope="module")
def quick(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """A server on which an absent person is played for at once (--takeover 0): a room made in
    the lobby with a person seat ends without anyone playing it."""
    db = tmp_path_factory.mktemp("replay") / "quick.db"
    with running_server(db, "--takeover", "0") as process:
        yield process


@pytest.fixture
def context(browser: Browser) -> Iterator[BrowserContext]:
    ctx = new_context(browser)
    try:
        yield ctx
    finally:
        ctx.close()


def wait_over(page: Page, url: str, room: str) -> None:
    """Watch the room as a spectator until its end screen shows."""
    page.goto(f"{url}/r/{room}")
    page.locator("[data-outcome]").wait_for()


def my_room(page: Page, room: str) -> Any:
    return page.locator(f'#my-rooms li[data-room="{room}"]')


def test_my_rooms_lists_a_room_made_here_links_its_replay_and_forgets_it(
    context: BrowserContext, quick: ServerProcess
) -> None:
    page = context.new_page()
    page.goto(f"{quick.url}/")
    page.locator("select#game").select_option("beor")
    page.locator('select[data-seat-kind="1"]').select_option("medium")
    page.locator('input[data-seat-name="0"]').fill("Ann")
    page.locator("button#create").click()
    spectate = page.locator("#invites a[data-spectate]")
    spectate.wait_for()
    room = str(spectate.get_attribute("href")).rsplit("/", 1)[1]
    invite = str(page.locator('#invites a[data-invite="0"]').get_attribute("href"))
    item = my_room(page, room)
    item.wait_for()
    text = item.inner_text()
    assert "BEOR" in text and "Ann" in text and "Player 1" in text, text
    assert item.locator(f'a[data-room-link="{room}"]').get_attribute("href") == invite
    # Nobody sits at seat 1 (a person): the server plays it at once; once over, the replay.
    watcher = context.new_page()
    wait_over(watcher, quick.url, room)
    watcher.close()
    page.reload()
    replay_link = page.locator(f'a[data-room-replay="{room}"]')
    replay_link.wait_for()
    facts = get_json(f"{quick.url}/api/rooms/{room}")
    winners = [facts["seats"][s]["name"] for s in facts["match"]["deals"][-1]["winners"]]
    status = my_room(page, room).locator(f'[data-room-status="{room}"]').inner_text()
    if len(winners) == 1:  # the result, a tie as a shared win
        assert status == f"Deal 1 won by {winners[0]}", status
    else:
        assert status.startswith("Deal 1: a win shared by ") and all(w in status for w in winners)
    assert my_room(page, room).get_attribute("data-turn") == "none"
    replay_link.click()
    page.locator('#replay[data-seat="0"][data-step]').wait_for(state="attached")  # its seat
    assert page.locator("select#replay-seat").input_value() == "0"
    page.go_back()
    item = my_room(page, room)
    item.wait_for()
    item.locator(f'button[data-forget="{room}"]').click()
    item.wait_for(state="detached")
    page.reload()
    page.locator("button#create").wait_for()
    assert my_room(page, room).count() == 0
    kept = page.evaluate("() => localStorage.getItem('parlour.rooms')")
    assert room not in (kept or "")


def test_a_seat_taken_through_its_link_joins_my_rooms(
    context: BrowserContext, server: ServerProcess
) -> None:
    made = create_room(
        server.url,
        {"game": "death", "players": 3, "seats": ["person", "person", "easy"],
         "names": ["Ann", "Bob", "Cy"]},
    )  # fmt: skip
    page = context.new_page()
    page.goto(made["seats"][1]["link"])
    page.locator('#table[data-seat="1"]').wait_for(state="attached")
    page.goto(f"{server.url}/")
    item = my_room(page, made["room"])
    item.wait_for()
    text = item.inner_text()
    assert "Bob" in text and "Player 2" in text and "Ann, Bob, Cy" in text, text
    # Whose turn it is, from the server: "your turn" for Bob's seat, another player by name.
    mover = get_json(f"{server.url}/api/rooms/{made['room']}")["to_move"]
    assert mover in (0, 1, 2)
    want = "Deal 1: your turn" if mover == 1 else f"Deal 1: {['Ann', 'Bob', 'Cy'][mover]}'s turn"
    status = item.locator(f'[data-room-status="{made["room"]}"]')
    wait_js(
        page,
        '([room, want]) => document.querySelector(`[data-room-status="${room}"]`)'
        ".textContent === want",
        [made["room"], want],
        f"the room's status {want!r}",
    )
    assert item.get_attribute("data-turn") == ("yours" if mover == 1 else "theirs")
    assert status.is_visible()
    link = item.locator(f'a[data-room-link="{made["room"]}"]').get_attribute("href")
    assert link == made["seats"][1]["link"]
