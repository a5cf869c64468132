"""Parlour installable and quick on a phone, in Chromium: the web app manifest (linked, served as
``application/manifest+json``, valid for Chromium with icons of 192 and 512 px, nothing in the
way of installing it), the service worker (in control of the page after a reload; the pages'
files and every game's board and words in its cache, named after their version, and answered
from it; never the API nor the socket), the offline page for a page opened without a network (in
the browser's language, with "Try again"), and the files fetched from the server again once the
shell says the server has other files (a page never runs files older than the server's)."""

from __future__ import annotations

import re
import struct
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, Response, Route

from parlour.server.pages import STATIC
from tests.browser.browser import (
    SCREENSHOTS,
    WAIT,
    axe_problems,
    new_context,
    report,
    wait_js,
)
from tests.server.client import ServerProcess, create_room, http_get

CACHES_JS = """async () => {
  const out = {};
  for (const name of await caches.keys()) {
    const cache = await caches.open(name);
    out[name] = (await cache.keys()).map((r) => new URL(r.url).pathname + new URL(r.url).search);
  }
  return out;
}"""
CONTROLLED_JS = "() => navigator.serviceWorker.controller !== null"


@pytest.fixture(scope="module")
def phone(browser: Browser, server: ServerProcess) -> Iterator[tuple[BrowserContext, Page]]:
    """A phone whose browser asks for Dutch, that opened the lobby once: its service worker is
    installed and controls the lobby."""
    context = new_context(browser, "phone", locale="nl-NL", service_workers="allow")
    try:
        page = context.new_page()
        page.goto(f"{server.url}/")
        page.locator("button#create").wait_for()
        wait_js(page, CONTROLLED_JS, None, "the service worker to control the lobby")
        yield context, page
    finally:
        context.close()


def png_size(raw: bytes) -> tuple[int, int]:
    assert raw[:8] == b"\x89PNG\r\n\x1a\n" and raw[12:16] == b"IHDR", "not a PNG"
    width, height = struct.unpack(">II", raw[16:24])
    return width, height


def css_colour(name: str) -> str:
    """The light theme's value of ``--NAME`` in app.css (its first definition)."""
    found = re.search(rf"--{name}:\s*(#[0-9a-fA-F]{{6}})", (STATIC / "app.css").read_text())
    assert found, name
    return found[1].lower()


def test_the_manifest_is_linked_valid_and_installable(
    phone: tuple[BrowserContext, Page], server: ServerProcess
) -> None:
    context, page = phone
    href = page.locator('link[rel="manifest"]').get_attribute("href")
    assert href == "/static/manifest.webmanifest", href
    response = http_get(server.url + href, timeout=WAIT)
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("application/manifest+json")
    manifest: dict[str, Any] = response.json()
    assert manifest["name"] == "Parlour" and manifest["short_name"]
    assert manifest["start_url"] == "/" and manifest["scope"] == "/"
    assert manifest["display"] == "standalone"
    assert manifest["theme_color"].lower() == css_colour("felt")  # the header bar
    assert manifest["background_color"].lower() == css_colour("bg")
    theme = page.locator('meta[name="theme-color"]').get_attribute("content")
    assert theme == manifest["theme_color"]
    sizes = set()
    for icon in manifest["icons"]:
        got = http_get(server.url + icon["src"], timeout=WAIT)
        assert got.status_code == 200, icon
        assert got.headers["content-type"].startswith(icon["type"]), icon
        if icon["type"] == "image/png":
            width, height = png_size(got.content)
            assert icon["sizes"] == f"{width}x{height}", (icon, width, height)
            if icon.get("purpose", "any") == "any":
                sizes.add(width)
    assert {192, 512} <= sizes, sizes
    touch = page.locator('link[rel="apple-touch-icon"]').get_attribute("href")
    assert touch and png_size(http_get(server.url + touch, timeout=WAIT).content)[0] >= 180
    # Chromium's own reading: no errors, and nothing but the test's private window in the way
    # of installing it.
    cdp = context.new_cdp_session(page)
    try:
        read = cdp.send("Page.getAppManifest")
        assert read["errors"] == [] and read["url"].endswith(href), read["errors"]
        errors = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
        assert [e["errorId"] for e in errors if e["errorId"] != "in-incognito"] == [], errors
    finally:
        cdp.detach()


def test_the_service_worker_keeps_the_files_and_never_the_api_or_the_socket(
    phone: tuple[BrowserContext, Page], server: ServerProcess
) -> None:
    _, page = phone
    answered: list[Response] = []

    def keep(response: Response) -> None:
        answered.append(response)

    page.on("response", keep)
    page.reload()
    page.locator("button#create").wait_for()
    assert page.evaluate(CONTROLLED_JS), "no service worker controls the page after a reload"
    script = page.evaluate("() => navigator.serviceWorker.controller.scriptURL")
    assert script == f"{server.url}/sw.js"
    # A table too: its board, its words, the API and the socket.
    made = create_room(
        server.url,
        {"game": "death", "players": 2, "seats": ["person", "easy"], "names": ["Ann", "Cy"]},
    )
    page.goto(made["seats"][0]["link"])
    wait_js(page, "() => /^\\d+$/.test(document.querySelector('#table')?.dataset.v ?? '')",
            None, "the table to show a version")  # fmt: skip
    page.remove_listener("response", keep)
    by_path = {re.sub(r"^https?://[^/]+", "", r.url): r for r in answered}
    for path in ("/static/app.css", "/static/js/app.js", "/static/js/table.js",
                 "/games/death/board.js", "/static/i18n/nl.json"):  # fmt: skip
        assert path in by_path, f"{path} was not fetched: {sorted(by_path)}"
        assert by_path[path].from_service_worker, f"{path} did not come from the worker"
    api = [p for p in by_path if p.startswith("/api/")]
    assert api and not any(by_path[p].from_service_worker for p in api), api

    version = http_get(f"{server.url}/", timeout=WAIT).headers["x-parlour-static"]
    assert f'const VERSION = "{version}";' in http_get(f"{server.url}/sw.js", timeout=WAIT).text
    kept = page.evaluate(CACHES_JS)
    assert list(kept) == [f"parlour-{version}"], list(kept)
    cached = set(kept[f"parlour-{version}"])
    wanted = {
        f"/static/{p.relative_to(STATIC).as_posix()}"
        for p in STATIC.rglob("*")
        if p.is_file() and p.name not in ("index.html", "sw.js")
    }
    for game in http_get(f"{server.url}/api/games", timeout=WAIT).json()["games"]:
        wanted |= set(game["words"].values())
        if game["board"]:
            wanted |= {u for u in game["board"].values() if u}
    assert sorted(wanted - cached) == [], "files the worker does not keep"
    assert [p for p in cached if p.startswith(("/api/", "/ws/")) or p == "/"] == []


def test_a_page_opened_offline_shows_the_offline_page(
    phone: tuple[BrowserContext, Page], server: ServerProcess
) -> None:
    context, page = phone
    room = create_room(server.url, {"game": "death", "players": 2, "seats": ["person", "easy"]})
    url = f"{server.url}/r/{room['room']}"
    context.set_offline(True)
    try:
        page.goto(url)
        title = page.locator("#offline-title")
        # In the language the browser asks for (Dutch), from the texts the worker keeps.
        wait_js(page, "() => document.documentElement.lang === 'nl'", None, "the page in Dutch")
        assert title.inner_text() == "Geen verbinding"
        assert "server" in page.locator("#offline-text").inner_text()
        retry = page.locator("button#retry")
        assert retry.inner_text() == "Opnieuw proberen" and retry.is_visible()
        assert page.url == url and page.title() == "Parlour: geen verbinding"
        report([f"offline page: {p}" for p in axe_problems(page)], "axe-core")
        SCREENSHOTS.mkdir(exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / "offline-390x844.png"))
        page.evaluate("() => { window.beforeRetry = true; }")
        retry.click()
        wait_js(
            page,
            "() => window.beforeRetry === undefined && document.querySelector('#retry')",
            None,
            "'Try again' to load the page again (still offline: the offline page again)",
        )
    finally:
        context.set_offline(False)
    # Back online, "Try again" opens the table.
    page.locator("button#retry").click()
    page.locator("#table").wait_for(state="attached")
    assert page.locator("#offline-title").count() == 0


def test_files_come_from_the_cache_until_the_server_has_others(
    phone: tuple[BrowserContext, Page], server: ServerProcess
) -> None:
    """The files are answered from the cache, without the network; once the shell says another
    version (the server was upgraded), they come from the server before the page uses them, so a
    page never runs files older than the server's."""
    context, page = phone
    lobby = f"{server.url}/static/js/lobby.js"
    fetched: list[str] = []

    def network(route: Route) -> None:  # what the worker asks the server for
        fetched.append(route.request.url)
        route.continue_()

    def upgraded(route: Route) -> None:
        answer = route.fetch()
        route.fulfill(response=answer, headers={**answer.headers, "x-parlour-static": "newer"})

    context.route(lobby, network)
    try:
        page.goto(f"{server.url}/")
        page.locator("button#create").wait_for()
        assert fetched == [], "the worker fetched lobby.js though its cache holds it"
        context.route(f"{server.url}/", upgraded)
        page.reload()
        page.locator("button#create").wait_for()
        assert fetched == [lobby], "lobby.js did not come from the server after an upgrade"
    finally:
        context.unroute_all()
