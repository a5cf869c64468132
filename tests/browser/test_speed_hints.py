"""A page is quick to open and to update (issue 26.11): the shell the server writes for a page
names every module it will import (``<link rel="modulepreload">``) and the words, the games' list
and, at a room, its game's board, style sheet and words (``<link rel="preload">``), so the
browser fetches them together instead of discovering them one import at a time; each is fetched
once (the preloads are used, not fetched again); the room's page names its game
(``#app[data-game]``) so the table loads the board before the room's welcome; the static files
revalidate with an ETag. An update draws only what changed: the log, the sheets that did not
change and the toolbar stay the same elements (the log only grows). No timing here:
``benchmarks/bench_pages.py`` measures the times."""

from __future__ import annotations

from collections import Counter

from playwright.sync_api import Browser, Request

from tests.browser.browser import new_context
from tests.server.client import ServerProcess, create_room, http_get

READY = "#table[data-v]:not([data-v=''])"
HINTS = """() => Array.from(document.querySelectorAll('link[rel=modulepreload], link[rel=preload]'))
  .map((l) => [l.rel, new URL(l.href).pathname, l.getAttribute('as') || ''])"""


def _open(browser: Browser, url: str, ready: str) -> tuple[list[list[str]], Counter[str], str]:
    """The page's hints, how many times each of this server's files was asked for, and the
    game its #app names, once ``ready`` is shown."""
    context = new_context(browser, "phone")
    asked: Counter[str] = Counter()
    origin = url.split("/", 3)[:3]

    def seen(request: Request) -> None:
        if request.url.split("/", 3)[:3] == origin and request.resource_type != "document":
            asked[request.url.split("/", 3)[3].split("?")[0]] += 1

    try:
        page = context.new_page()
        page.on("request", seen)
        page.goto(url)
        page.wait_for_selector(ready)
        hints: list[list[str]] = page.evaluate(HINTS)
        game = page.evaluate("() => document.querySelector('#app').dataset.game || ''")
    finally:
        context.close()
    return hints, asked, game


def _check(hints: list[list[str]], asked: Counter[str]) -> None:
    modules = {path for rel, path, _ in hints if rel == "modulepreload"}
    preloaded = {path for rel, path, _ in hints if rel == "preload"}
    scripts = {f"/{p}" for p in asked if p.endswith(".js")}
    assert scripts - modules == set(), "modules the page imported without a hint"
    assert modules - scripts == set(), "hinted modules the page never imported"
    assert {"/static/i18n/en.json", "/api/games"} <= preloaded
    fetched = {f"/{p}" for p in asked}
    assert preloaded - fetched == set(), "preloads the page never used"
    twice = {p: n for p, n in asked.items() if n > 1}
    assert twice == {}, "fetched again: a preload was not used"


def test_a_table_page_hints_its_modules_words_and_board(
    browser: Browser, server: ServerProcess
) -> None:
    body = {"game": "death", "players": 3, "seats": ["person", "heuristic", "heuristic"]}
    room = create_room(server.url, body)
    hints, asked, game = _open(browser, room["seats"][0]["link"], READY)
    assert game == "death"
    _check(hints, asked)
    preloaded = {(rel, path, kind) for rel, path, kind in hints}
    assert ("modulepreload", "/games/death/board.js", "") in preloaded
    assert ("preload", "/games/death/board.css", "style") in preloaded
    assert ("preload", "/games/death/words/en.json", "fetch") in preloaded
    assert ("modulepreload", "/static/js/table.js", "") in preloaded


def test_the_lobby_hints_its_modules_and_every_games_words(
    browser: Browser, server: ServerProcess
) -> None:
    hints, asked, game = _open(browser, server.url + "/", "#create")
    assert game == ""
    _check(hints, asked)
    paths = {path for _, path, _ in hints}
    assert "/static/js/lobby.js" in paths and "/static/js/table.js" not in paths
    assert {"/games/beor/words/en.json", "/games/death/words/en.json"} <= paths


def test_a_page_of_no_room_names_no_game_and_a_romanian_browser_gets_romanian_words(
    server: ServerProcess,
) -> None:
    shell = http_get(f"{server.url}/r/noroomhere", headers={"accept-language": "ro-RO,ro;q=0.9"})
    assert shell.status_code == 200
    assert "data-game" not in shell.text and "/games/" not in shell.text
    assert 'href="/static/i18n/ro.json" as="fetch"' in shell.text
    assert 'href="/static/i18n/en.json" as="fetch"' in shell.text  # English is the fallback


def test_static_files_revalidate_with_an_etag(server: ServerProcess) -> None:
    first = http_get(f"{server.url}/static/js/table.js")
    assert first.status_code == 200
    assert first.headers["cache-control"] == "no-cache"
    tag = first.headers["etag"]
    again = http_get(f"{server.url}/static/js/table.js", headers={"if-none-match": tag})
    assert again.status_code == 304 and again.content == b""


KEEP = """() => { window.__kept = {
  log: document.querySelector('#log'), entry: document.querySelector('#log li'),
  rules: document.querySelector('details.sheet-rules'),
  settings: document.querySelector('details.sheet-settings'),
  toolbar: document.querySelector('nav.sheets') };
  return Object.entries(window.__kept).filter(([, e]) => !e).map(([k]) => k); }"""
GONE = """() => Object.entries(window.__kept).filter(([, e]) => !e.isConnected).map(([k]) => k)"""
ENTRIES = "() => document.querySelectorAll('#log li').length"


def test_an_update_keeps_the_log_and_the_sheets_it_did_not_change(
    browser: Browser, server: ServerProcess
) -> None:
    body = {"game": "beggar", "players": 2, "seats": ["person", "bot"]}
    room = create_room(server.url, body)
    context = new_context(browser, "desktop", reduced_motion="reduce")
    try:
        page = context.new_page()
        page.goto(room["seats"][0]["link"])
        play = page.locator('button[data-action="play"]')
        for turn in range(2):
            play.wait_for()
            if turn == 1:  # the log has entries now: these elements must survive the update
                assert page.evaluate(KEEP) == []
            v = page.get_attribute("#table", "data-v")
            entries = page.evaluate(ENTRIES)
            play.click()
            page.wait_for_selector(f"#table:not([data-v='{v}'])")
            page.wait_for_function(f"() => ({ENTRIES})() > {entries}")
        assert page.evaluate(GONE) == [], "drawn again although unchanged"
        assert page.locator("#log li").last.inner_text() != ""
    finally:
        context.close()
