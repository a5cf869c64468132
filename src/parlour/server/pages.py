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
files). The shell says the version of the files it goes with (``X-Parlour-Static``): a service
worker whose cache is of another version drops it and fetches the files until the new worker
(which the browser fetches at each page, ``/sw.js`` having changed) takes over.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any

from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles

from parlour.core.words import LANGUAGES
from parlour.games import GAMES

__all__ = ["CSP", "HEADERS", "STATIC", "Kept", "kept", "page_routes"]

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


@dataclass(frozen=True)
class Kept:
    """What the service worker keeps: the files' addresses and their version."""

    urls: tuple[str, ...]
    version: str


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
    for url, source in sources:
        raw = source.read_bytes()
        digest.update(f"{url}\0{len(raw)}\0".encode())
        digest.update(raw)
    found = Kept(tuple(url for url, _ in sources if url), digest.hexdigest()[:16])
    _known[:] = [(stamp, found)]
    return found


class _Static(StaticFiles):
    """The pages' files, with the same security headers as the pages and a short cache."""

    async def get_response(self, path: str, scope: Any) -> Response:
        response = await super().get_response(path, scope)
        response.headers.update(HEADERS)
        response.headers["Cache-Control"] = "no-cache"
        if path.endswith(".webmanifest") and response.status_code == 200:
            response.headers["Content-Type"] = "application/manifest+json"
        return response


async def _index(request: Request) -> Response:
    """The one HTML shell of the lobby and the tables: ``static/app.js`` reads the path."""
    html = (STATIC / "index.html").read_text(encoding="utf-8")
    headers = {**HEADERS, "Cache-Control": "no-cache", VERSION_HEADER: kept().version}
    return HTMLResponse(html, headers=headers)


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
        Mount("/static", app=_Static(directory=STATIC), name="static"),
    ]
