"""The table with any registered game: a game without a board of its own is drawn by the plain
board (its view's public fields, its legal actions as buttons) and played to its end, not a
crash; a game's words come from its own catalog and follow the language chosen."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page

from parlour.core.parts import part_file
from parlour.games import GAMES
from tests.browser.browser import new_context, wait_js
from tests.server.client import ServerProcess, create_room, http_get

BOARDED = sorted(name for name, game in GAMES.items() if game.parts.board is not None)
# The plain board is checked on a short game served as if it brought no board of its own (every
# game here has one): the server's registry is changed in its own process before it starts.
PLAIN = [name for name in ("crazy-eights",) if name in GAMES]
BOARDLESS = (
    "import dataclasses\n"
    "from parlour.games import GAMES\n"
    "for game in GAMES.values():\n"
    "    type(game).parts = dataclasses.replace(game.parts, board=None)\n"
)


@pytest.fixture(scope="module")
def plain_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    server = ServerProcess(tmp_path_factory.mktemp("plain") / "rooms.db", prelude=BOARDLESS)
    server.start()
    try:
        yield server
    finally:
        server.stop()


def words(name: str, lang: str) -> dict[str, object]:
    raw = part_file(GAMES[name].parts.words, f"{lang}.json")
    assert raw is not None
    found = json.loads(raw)
    assert isinstance(found, dict)
    return found


def room_for(server: ServerProcess, name: str) -> dict[str, object]:
    game = GAMES[name]
    bot = "bot" if game.strategy is None else "random"
    body = {
        "game": name,
        "players": game.info.min_players,
        "seats": ["person"] + [bot] * (game.info.min_players - 1),
    }
    return create_room(server.url, body)


def play_to_the_end(page: Page, moves: int = 2000) -> None:
    for _ in range(moves):
        page.locator("#table.my-turn, [data-outcome]").first.wait_for()
        if page.locator("[data-outcome]").count():
            return
        v = page.locator("#table").get_attribute("data-v")
        page.locator("[data-action]").first.click()
        page.locator(f"#table:not([data-v='{v}'])").wait_for()
    raise AssertionError(f"no end within {moves} moves")


def test_the_plain_server_serves_no_board() -> None:
    assert PLAIN, "the plain board needs a short game to be checked on (the example's)"


@pytest.mark.parametrize("name", PLAIN)
def test_a_game_without_a_board_is_played_on_the_plain_board(
    browser: Browser, plain_server: ServerProcess, name: str
) -> None:
    games = {g["game"]: g for g in http_get(f"{plain_server.url}/api/games").json()["games"]}
    assert games[name]["board"] is None
    room = room_for(plain_server, name)
    context = new_context(browser)
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda err: errors.append(str(err)))
        page.goto(room["seats"][0]["link"])  # type: ignore[index]
        page.locator(".plain-board").wait_for()
        assert page.locator("h1").inner_text().startswith(str(words(name, "en")["game.title"]))
        play_to_the_end(page)
        # The end says the result once: its sentence, or for a shared win (the deal's seed is
        # the server's, so some deals end in one) the shared-win line in its place (end.js).
        said = page.locator("#end .result, #end .shared-win")
        assert said.first.inner_text().strip()
        assert said.count() == 1, [said.nth(i).inner_text() for i in range(said.count())]
        log = page.locator("#log").inner_text()
        assert log.strip() and "event." not in log, log
        assert errors == []
    finally:
        context.close()


@pytest.mark.parametrize("name", BOARDED[:1])
def test_a_board_speaks_the_language_chosen_from_its_catalog(
    browser: Browser, server: ServerProcess, name: str
) -> None:
    room = room_for(server, name)
    context = new_context(browser)
    try:
        page = context.new_page()
        page.goto(room["seats"][0]["link"])  # type: ignore[index]
        page.locator("#table[data-game] #notation-help").wait_for()
        english = words(name, "en")
        assert page.locator("#notation-help").inner_text() == english["ui.notation"]
        for lang in ("ro", "nl"):
            page.select_option("#lang", lang)
            wanted = words(name, lang)
            wait_js(
                page,
                "(text) => document.querySelector('#notation-help')?.innerText === text",
                wanted["ui.notation"],
                f"the notation help in {lang}",
            )
            title = page.locator("h1").inner_text()
            assert title.startswith(str(wanted["game.title"])), title
            summary = page.locator("details.rules summary").inner_text()
            assert str(wanted["rules.title"]) in summary, summary
    finally:
        context.close()
