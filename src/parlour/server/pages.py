"""The browser pages' files: the HTML shell, ``static/`` and the service worker.

- ``/``, ``/r/ROOM``, ``/r/ROOM/replay/DEAL``: one HTML shell (``static/index.html``) over the ES
  modules, styles and texts in ``static/`` (served under ``/static``; no build step, nothing from
  another site: the Content-Security-Policy allows this origin only, which covers the service
  worker and the web app manifest, ``static/manifest.webmanifest``).
- ``/sw.js``: the service worker (scope ``/``), ``static/sw.js`` preceded by the version of the
  pages' files and their addresses (:func:`kept`): it keeps those files in a cache named
  after that version, fetches every page from the network (the offline page when that fails)
  and leaves the API and the sockets to the network.

Every answer carries :data:`HEADERS` and ``Cache-Control: no-cache`` (a page revalidates its
files: an ``ETag`` and ``Last-Modified`` with each, ``304 Not Modified`` when nothing changed).
The shell says the version of the files it goes with (``X-Parlour-Static``): a service worker
whose cache is of another version drops it and fetches the files until the new worker (which the
browser fetches at each page, ``/sw.js`` having changed) takes over.

The shell is written for its page (:func:`hints`): ``<link rel="modulepreload">`` for every
module the page will import (the modules' own imports, read from their files, and the modules
``app.js`` imports for that kind of page, :data:`ENTRIES`) and ``<link rel="preload">`` for the
words and the games' list, so the browser fetches them all at once instead of discovering them
one import after another; at a room's address also its game's board, style sheet and words, and
the game's name in ``#app[data-game]`` (the table loads the board without waiting for the
room's welcome).
"""

from __future__ import annotations

import hashlib
import html
import json
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any
from urllib.parse import urljoin

from starlette.datastructures import Headers
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import NotModifiedResponse, StaticFiles

from parlour.core.words import DEFAULT_LANGUAGE, LANGUAGES
from parlour.games import GAMES

__all__ = [
    "CSP", "ENTRIES", "HEADERS", "STATIC", "Kept", "hints", "kept", "languages", "page_routes",
]  # fmt: skip

STATIC = Path(__file__).with_name("static")
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; "
    "form-action 'self'"
)
HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}
WORKER = "sw.js"
"""The service worker's own code in ``static/`` (served whole at ``/sw.js`` only)."""
NOT_KEPT = frozenset({"index.html", WORKER})
"""Files of ``static/`` the worker does not keep: the shell is always fetched (so a page and its
files are of one version), the worker is the browser's own business."""
VERSION_HEADER = "X-Parlour-Static"
APP = "/static/js/app.js"
"""The shell's one script; it imports the rest."""
ENTRIES: Mapping[str, tuple[str, ...]] = {
    "lobby": ("/static/js/lobby.js",),
    "table": ("/static/js/table.js", "/static/js/myrooms.js"),
    "replay": ("/static/js/replay.js",),
}
"""The modules ``app.js`` imports (``import()``) for each kind of page, besides its own imports."""
_IMPORT = re.compile(
    r"""^[ \t]*(?:import|export)\b(?![ \t]*\()[^;"'`]*?["']([^"'\n]+\.js)["']""", re.M
)
"""A module's static ``import ... from "X.js"`` (and ``export ... from``)."""
_ROOM_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")
"""A room's id as the pages read it from the address (``app.js``)."""


@dataclass(frozen=True)
class Kept:
    """What the service worker keeps: the files' addresses and their version; and each kept
    module's own static imports (addresses), for the shell's preload hints."""

    urls: tuple[str, ...]
    version: str
    imports: Mapping[str, tuple[str, ...]]


def _sources() -> list[tuple[str, Traversable]]:
    """Each kept file's address and where it is read: every file of ``static/`` but
    :data:`NOT_KEPT`, and each registered game's board (``board.js``, ``board.css``) and
    catalogs, at the addresses ``GET /api/games`` lists; last, the worker's own code (part of the
    version, not kept)."""
    out: list[tuple[str, Traversable]] = []
    for path in sorted(STATIC.rglob("*")):
        rel = path.relative_to(STATIC).as_posix()
        if path.is_file() and rel not in NOT_KEPT and not path.name.startswith("."):
            out.append((f"/static/{rel}", path))
    for name, game in sorted(GAMES.items()):
        parts = [(game.parts.words, f"words/{lang}.json", f"{lang}.json") for lang in LANGUAGES]
        if game.parts.board is not None:
            parts += [(game.parts.board, file, file) for file in ("board.js", "board.css")]
        for package, url, file in sorted(parts, key=lambda p: p[1]):
            found = resources.files(package).joinpath(file)
            if found.is_file():
                out.append((f"/games/{name}/{url}", found))
    out.append(("", STATIC / WORKER))
    return out


def _stamp(source: Traversable) -> tuple[int, int] | bytes:
    if isinstance(source, Path):
        info = source.stat()
        return info.st_mtime_ns, info.st_size
    return source.read_bytes()  # not a file of its own (a zipped package): its bytes


_known: list[tuple[object, Kept]] = []


def kept() -> Kept:
    """The files the service worker keeps and their version: a hash of every kept file's
    address and bytes and of the worker's code, computed again when a file changed (a file
    changed under a running server gives a new version)."""
    sources = _sources()
    stamp = tuple((url, _stamp(source)) for url, source in sources)
    if _known and _known[0][0] == stamp:
        return _known[0][1]
    digest = hashlib.sha256()
    imports: dict[str, tuple[str, ...]] = {}
    for url, source in sources:
        raw = source.read_bytes()
        digest.update(f"{url}\0{len(raw)}\0".encode())
        digest.update(raw)
        if url.endswith(".js"):
            text = raw.decode("utf-8", errors="replace")
            imports[url] = tuple(urljoin(url, m) for m in _IMPORT.findall(text))
    found = Kept(tuple(url for url, _ in sources if url), digest.hexdigest()[:16], imports)
    _known[:] = [(stamp, found)]
    return found


def _modules(entries: list[str], imports: Mapping[str, tuple[str, ...]]) -> list[str]:
    """``entries`` and every module they import, each once, the kept ones only."""
    out: list[str] = []
    todo = list(entries)
    while todo:
        url = todo.pop(0)
        if url in imports and url not in out:
            out.append(url)
            todo.extend(imports[url])
    return out


def languages(accept: str) -> tuple[str, ...]:
    """The languages whose words a page will fetch: English (every catalog's fallback) and the
    first of ``accept`` (an ``Accept-Language`` header) the pages speak, as ``i18n.js`` picks it
    from the browser's languages (a choice kept in the browser's storage is not known here)."""
    for part in accept.split(","):
        base = part.split(";")[0].strip().lower().split("-")[0]
        if base in LANGUAGES:
            return tuple(dict.fromkeys((DEFAULT_LANGUAGE, base)))
    return (DEFAULT_LANGUAGE,)


_hinted: dict[tuple[str, str, str | None, tuple[str, ...]], str] = {}


def hints(kind: str, game: str | None = None, langs: tuple[str, ...] = (DEFAULT_LANGUAGE,)) -> str:
    """The shell's preload hints for a page of ``kind`` (a key of :data:`ENTRIES`), at a room of
    ``game`` where it is known: every module it imports, its words in ``langs`` (the pages' and
    the games', every game's in the lobby), the list of games and the game's style sheet; in
    the order the page needs them (the browser fetches a few at a time): the shell's script and
    its imports, the words, the page's modules, the game's."""
    files = kept()
    key = (files.version, kind, game, langs)
    if key in _hinted:
        return _hinted[key]
    known = set(files.urls)
    board = f"/games/{game}/board.js" if game in GAMES else ""
    games = sorted(GAMES) if kind == "lobby" else [game] if game in GAMES else []
    app = _modules([APP], files.imports)
    page = [u for u in _modules([*ENTRIES[kind], board], files.imports) if u not in app]
    modules = [f'<link rel="modulepreload" href="{url}">' for url in (*app, *page)]
    fetched = [f"/static/i18n/{lang}.json" for lang in langs] + ["/api/games"]
    fetched += [f"/games/{g}/words/{lang}.json" for g in games for lang in langs]
    fetches = [
        f'<link rel="preload" href="{html.escape(url)}" as="fetch" crossorigin>'
        for url in fetched
        if url in known or url.startswith("/api/")
    ]
    lines = modules[: len(app)] + fetches + modules[len(app) :]
    if game in GAMES and f"/games/{game}/board.css" in known:
        lines.append(f'<link rel="preload" href="/games/{game}/board.css" as="style">')
    if len(_hinted) > 256:  # a bound on the pages' kinds, games and languages seen
        _hinted.clear()
    _hinted[key] = "\n".join(lines)
    return _hinted[key]


class _Static(StaticFiles):
    """The pages' files, with the same security headers as the pages and a short cache. The
    files the service worker keeps are answered from memory (read again when one changes on
    disk): a page asks for some thirty at once, and a thread to look each one up and another to
    read it made the server the slowest part of opening a table."""

    def __init__(self, directory: Path) -> None:
        super().__init__(directory=directory)
        self._held: dict[str, tuple[tuple[int, int], bytes]] = {}
        self._names: frozenset[str] | None = None

    def _from_memory(self, path: str, scope: Any) -> Response | None:
        if self._names is None:
            self._names = frozenset(u.removeprefix("/static/") for u in kept().urls)
        if scope["method"] != "GET" or path not in self._names:
            return None  # HEAD, the shell, the worker, a file new since: StaticFiles answers
        full = STATIC / path
        try:
            info = os.stat(full)
        except OSError:
            return None
        stamp = (info.st_mtime_ns, info.st_size)
        held = self._held.get(path)
        if held is None or held[0] != stamp:
            held = (stamp, full.read_bytes())
            self._held[path] = held
        headers = FileResponse(full, stat_result=info).headers  # its type, length, dates, ETag
        if self.is_not_modified(headers, Headers(scope=scope)):
            return NotModifiedResponse(headers)
        if len(held[1]) != info.st_size:  # changed between the stat and the read: read again
            return None
        return Response(held[1], headers=dict(headers))

    async def get_response(self, path: str, scope: Any) -> Response:
        response = self._from_memory(path, scope) or await super().get_response(path, scope)
        response.headers.update(HEADERS)
        response.headers["Cache-Control"] = "no-cache"
        if path.endswith(".webmanifest") and response.status_code == 200:
            response.headers["Content-Type"] = "application/manifest+json"
        return response


async def _game_of(request: Request) -> str | None:
    """The game of the room at the page's address, None where there is no such room (or it
    cannot be read now: the page's socket says why)."""
    room_id = request.path_params.get("room")
    hub = getattr(request.app.state, "hub", None)
    if room_id is None or hub is None or not _ROOM_ID.fullmatch(room_id):
        return None
    room = hub.rooms.get(room_id)
    if room is None:
        try:
            room = await hub.room(room_id)  # the page's socket asks for it a moment later
        except Exception:  # a broken room, the database down: the hints only are left out
            return None
    return None if room is None else str(room.game.name)


async def _index(request: Request) -> Response:
    """The one HTML shell of the lobby and the tables: ``static/app.js`` reads the path; the
    page's preload hints (:func:`hints`) and, at a room, its game (``#app[data-game]``)."""
    shell = (STATIC / "index.html").read_text(encoding="utf-8")
    params = request.path_params
    kind = "replay" if "deal" in params else "table" if "room" in params else "lobby"
    game = await _game_of(request)
    langs = languages(request.headers.get("accept-language", ""))
    script = '<script type="module" src="/static/js/app.js"></script>'
    shell = shell.replace(script, f"{hints(kind, game, langs)}\n{script}", 1)
    if game is not None:
        named = f'<main id="app" data-game="{html.escape(game)}"'
        shell = shell.replace('<main id="app"', named, 1)
    headers = {**HEADERS, "Cache-Control": "no-cache", VERSION_HEADER: kept().version}
    return HTMLResponse(shell, headers=headers)


async def _worker(request: Request) -> Response:
    """``/sw.js``: the version and the addresses of the files to keep, then the worker."""
    files = kept()
    head = f"const VERSION = {json.dumps(files.version)};\n"
    head += f"const FILES = {json.dumps(files.urls)};\n"
    code = head + (STATIC / WORKER).read_text(encoding="utf-8")
    headers = {**HEADERS, "Cache-Control": "no-cache"}
    return Response(code, media_type="text/javascript; charset=utf-8", headers=headers)


def page_routes() -> list[BaseRoute]:
    """The shell's addresses, ``/sw.js`` and ``/static``."""
    return [
        Route("/", _index, methods=["GET"]),
        Route("/r/{room}", _index, methods=["GET"]),
        Route("/r/{room}/replay/{deal}", _index, methods=["GET"]),
        Route(f"/{WORKER}", _worker, methods=["GET"]),
        Mount("/static", app=_Static(STATIC), name="static"),
    ]
