"""The lobby at ``/``, used as a person would: choose each game, its players, the seats' kinds
and names and its options, create the room, find the invite links, their copy buttons and QR
codes and the spectator's link, and open an invite; the languages; axe-core; 360 px."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page

from tests.browser.browser import (
    Table,
    axe_problems,
    choose_language,
    get_json,
    layout_problems,
    new_context,
    report,
    wait_js,
)
from tests.server.client import ServerProcess

CASES: dict[str, dict[str, Any]] = {
    "beor": {
        "players": 3,
        "kinds": ["person", "person", "medium"],
        "names": ["Ana-Maria", "Zoë", "<u>Cy</u>"],
        "options": {"max_turns": 150, "natural_win": False},
    },
    "death": {
        "players": 3,
        "kinds": ["person", "easy", "person"],
        "names": ["Ann", "Bot Bob", "Cy"],
        "options": {"difference_against_faces": True, "illegal_throw_penalty": False},
    },
    "beggar": {
        "players": 4,
        "kinds": ["person", "person", "bot", "person"],
        "names": ["Ann", "Bob", "Cy", "Di"],
        "options": {"card_limit": 300, "unpaid_penalty": "next_player", "time_limit": 5},
    },
}
"""What the lobby is asked for in each game; the bot seat's name in BEOR is markup, which
every page must show as text; an agreed time (M12) shows on the table as its clock."""


@pytest.fixture(scope="module")
def games(server: ServerProcess) -> dict[str, dict[str, Any]]:
    return {g["game"]: g for g in get_json(f"{server.url}/api/games")["games"]}


@pytest.fixture
def context(browser: Browser) -> Iterator[BrowserContext]:
    ctx = new_context(browser, permissions=["clipboard-read", "clipboard-write"])
    try:
        yield ctx
    finally:
        ctx.close()


def open_lobby(page: Page, url: str) -> None:
    page.goto(f"{url}/")
    page.locator("select#game").wait_for(state="visible")
    page.locator("button#create").wait_for(state="visible")


def values(page: Page, selector: str) -> list[str]:
    found: list[str] = page.locator(f"{selector} option").evaluate_all(
        "(options) => options.map((o) => o.value)"
    )
    return found


def fill_lobby(page: Page, game: str, info: dict[str, Any], case: dict[str, Any]) -> None:
    """Choose ``game`` and set everything in ``case`` through the lobby's controls, checking
    that they offer what ``GET /api/games`` lists."""
    page.locator("select#game").select_option(game)
    counts = [str(n) for n in range(info["min_players"], info["max_players"] + 1)]
    wait_js(
        page,
        "(n) => Array.from(document.querySelectorAll('select#players option'),"
        " (o) => o.value).join(',') === n",
        ",".join(counts),
        f"select#players to offer {counts} for {game}",
    )
    players = case["players"]
    page.locator("select#players").select_option(str(players))
    wait_js(
        page,
        '(n) => document.querySelector(`select[data-seat-kind="${n - 1}"]`) !== null'
        ' && document.querySelector(`select[data-seat-kind="${n}"]`) === null',
        players,
        f"one select[data-seat-kind] per seat of {players}",
    )
    for seat in range(players):
        kind = page.locator(f'select[data-seat-kind="{seat}"]')
        offered = values(page, f'select[data-seat-kind="{seat}"]')
        assert sorted(offered) == sorted(info["seat_kinds"]), (game, seat, offered)
        kind.select_option(case["kinds"][seat])
        page.locator(f'input[data-seat-name="{seat}"]').fill(case["names"][seat])
    for spec in info["options"]:
        name = spec["name"]
        element = page.locator(f'[data-option="{name}"]')
        assert element.count() == 1, f"{game}: no single [data-option={name!r}]"
        tag = element.evaluate("(e) => [e.tagName.toLowerCase(), e.type || '']")
        expected = {"bool": ["input", "checkbox"], "choice": ["select", "select-one"]}
        expected["int"] = ["input", "number"]
        if spec["kind"] in expected:
            assert tag == expected[spec["kind"]], (game, name, tag)
        if spec["kind"] == "choice":
            assert values(page, f'[data-option="{name}"]') == spec["choices"], (game, name)
        if spec["kind"] == "int":
            bounds = [element.get_attribute("min"), element.get_attribute("max")]
            assert bounds == [str(spec["minimum"] or 0), str(spec["maximum"])], (game, name)
        if name not in case["options"]:
            continue
        value = case["options"][name]
        if spec["kind"] == "bool":
            element.set_checked(bool(value))
        elif spec["kind"] == "choice":
            element.select_option(str(value))
        else:
            element.fill(str(value))


_SPECTATE = "() => document.querySelector('#invites a[data-spectate]')?.href ?? null"


def create(page: Page) -> None:
    """Press #create and wait for the new room's invites (the lobby may still show those of
    the room made before)."""
    before = page.evaluate(_SPECTATE)
    page.locator("button#create").click()
    wait_js(
        page,
        f"(before) => {{ const now = ({_SPECTATE})(); return now !== null && now !== before; }}",
        before,
        "the new room's invites (#invites a[data-spectate] with a new link)",
    )


def test_the_lobby_makes_a_room_of_each_game(
    browser: Browser,
    context: BrowserContext,
    server: ServerProcess,
    games: dict[str, dict[str, Any]],
) -> None:
    page = context.new_page()
    for game, case in CASES.items():
        open_lobby(page, server.url)
        fill_lobby(page, game, games[game], case)
        create(page)
        spectate = page.locator("#invites a[data-spectate]")
        persons = [i for i, k in enumerate(case["kinds"]) if k == "person"]
        links: dict[int, str] = {}
        room = ""
        for seat in range(case["players"]):
            invite = page.locator(f'#invites a[data-invite="{seat}"]')
            if seat not in persons:
                assert invite.count() == 0, f"{game}: the bot seat {seat} has an invite link"
                continue
            href = invite.get_attribute("href") or ""
            found = re.fullmatch(
                re.escape(server.url) + r"/r/([A-Za-z0-9_-]+)#t=([A-Za-z0-9_-]{16,})", href
            )
            assert found, f"{game}: a[data-invite={seat}] links to {href!r}"
            assert room in ("", found[1]), "the invites name different rooms"
            room, links[seat] = found[1], href
            assert page.locator(f'#invites button[data-copy="{seat}"]').count() == 1
            qr = page.locator(f'#invites svg[data-qr="{seat}"]')
            assert qr.count() == 1, f"{game}: no svg[data-qr={seat}]"
            shapes = qr.evaluate("(s) => s.querySelectorAll('rect, path, use').length")
            assert shapes > 0, f"{game}: svg[data-qr={seat}] draws nothing"
        assert spectate.get_attribute("href") == f"{server.url}/r/{room}"
        facts = get_json(f"{server.url}/api/rooms/{room}")
        assert facts["game"] == game and facts["players"] == case["players"], facts
        for name, value in case["options"].items():
            assert facts["options"][name] == value, (game, name, facts["options"])
        assert [s["kind"] for s in facts["seats"]] == case["kinds"], facts["seats"]
        assert [s["name"] for s in facts["seats"]] == case["names"], facts["seats"]
        first = persons[0]
        page.locator(f'#invites button[data-copy="{first}"]').click()
        wait_js(
            page,
            "async (want) => (await navigator.clipboard.readText()) === want",
            links[first],
            f"button[data-copy={first}] to put the invite link on the clipboard",
        )
        guest = new_context(browser)
        try:
            seat = persons[-1]
            table = Table(guest, f"{game} P{seat + 1}", seat).open(links[seat])
            table.page.locator(f'#table[data-seat="{seat}"]').wait_for()
            assert table.page.locator("#table").get_attribute("data-game") == game
            if "time_limit" in case["options"]:
                clock = table.page.locator("#clock")
                minutes = case["options"]["time_limit"]
                assert clock.inner_text().startswith(f"Agreed time {minutes}:00"), game
                assert clock.get_attribute("data-running") == "false"
            assert "#t=" not in table.page.url
            watcher = Table(guest, f"{game} spectator", None).open(f"{server.url}/r/{room}")
            assert watcher.page.locator("#table").get_attribute("data-seat") == "spectator"
            if "<u>Cy</u>" in case["names"]:
                for t in (table, watcher):
                    assert t.page.locator("#app u").count() == 0, "a name was read as markup"
                    assert "<u>Cy</u>" in t.page.locator("body").inner_text()
        finally:
            guest.close()


def test_languages(context: BrowserContext, server: ServerProcess) -> None:
    page = context.new_page()
    open_lobby(page, server.url)
    read = """() => ({lang: document.documentElement.lang,
                     create: document.querySelector('#create').innerText.trim(),
                     games: Array.from(document.querySelectorAll('#game option'),
                                       (o) => o.value)})"""
    english = page.evaluate(read)
    assert english["lang"] == "en", english
    seen = {english["create"]}
    before = english["create"]
    for lang in ("ro", "nl"):
        # Wait for the words of the language before to go (from Romanian, English's are gone).
        choose_language(page, lang, "#create", before)
        now = page.evaluate(read)
        before = now["create"]
        assert now["create"] not in seen, (lang, now["create"], seen)
        seen.add(now["create"])
        assert now["games"] == english["games"], now["games"]
        page.reload()
        page.locator("button#create").wait_for(state="visible")
        assert page.evaluate(read) == now, f"{lang} is not kept over a reload"
        assert lang in page.evaluate("() => Object.values(localStorage)"), "not in localStorage"
    page.locator("select#lang").select_option("en")
    wait_js(page, "(l) => document.documentElement.lang === l", "en", "<html lang=en>")
    assert page.evaluate(read) == english


def _created(page: Page, server: ServerProcess, games: dict[str, dict[str, Any]]) -> None:
    fill_lobby(page, "beor", games["beor"], CASES["beor"])
    create(page)


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_axe_on_the_lobby(
    browser: Browser, server: ServerProcess, games: dict[str, dict[str, Any]], size: str
) -> None:
    ctx = new_context(browser, size)
    try:
        page = ctx.new_page()
        open_lobby(page, server.url)
        problems = [f"lobby ({size}): {p}" for p in axe_problems(page)]
        _created(page, server, games)
        problems += [f"lobby with invites ({size}): {p}" for p in axe_problems(page)]
        report(problems, "axe-core")
    finally:
        ctx.close()


def test_the_lobby_at_360_px(
    browser: Browser, server: ServerProcess, games: dict[str, dict[str, Any]]
) -> None:
    ctx = new_context(browser, "phone", viewport={"width": 360, "height": 740})
    try:
        page = ctx.new_page()
        open_lobby(page, server.url)
        problems = layout_problems(page, "the lobby at 360 px")
        _created(page, server, games)
        problems += layout_problems(page, "the lobby with invites at 360 px")
        report(problems, "the lobby at 360 px")
    finally:
        ctx.close()


def test_a_fresh_lobby_shows_no_null(context: BrowserContext, server: ServerProcess) -> None:
    """Defect 8: a fresh lobby (no room made in this tab, no room kept in this browser) showed
    a stray "null" under "Create the room"."""
    page = context.new_page()
    open_lobby(page, server.url)
    found = page.evaluate(
        """() => {
          const out = [];
          const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
          for (let n = walk.nextNode(); n; n = walk.nextNode()) {
            if (/\\b(null|undefined)\\b/.test(n.nodeValue)) out.push(n.nodeValue);
          }
          return {nodes: out, text: document.body.innerText};
        }"""
    )
    assert found["nodes"] == [], found["nodes"]
    assert not re.search(r"\b(null|undefined)\b", found["text"]), found["text"]
