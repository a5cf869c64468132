"""A game's own browser files, served from the game's package through the registry.

Each game declares its parts (:class:`~parlour.core.parts.GameParts`): its ``words`` package
holds one message catalog a language, its ``board`` package (when it has one) the web board,
``board.js`` (an ES module) and ``board.css``. The server knows no game: it serves, for any
registered game ``NAME``,

- ``GET /games/NAME/board.js`` and ``GET /games/NAME/board.css``: the board module and styles;
- ``GET /games/NAME/words/LANG.json``: the catalog in ``LANG`` (``en``, ``ro``, ``nl``);

with the pages' security headers, ``Cache-Control: no-cache`` and an ``ETag`` (a page revalidates
and gets ``304 Not Modified`` when nothing changed), as the files under ``/static``.
:func:`game_urls` gives the addresses ``GET /api/games`` lists for each game, so that the
browser table loads a board with ``import()`` from the address the registry gives.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from parlour.core.game import Game
from parlour.core.parts import part_file
from parlour.core.words import LANGUAGES
from parlour.games import GAMES

__all__ = ["BOARD_FILES", "board_routes", "game_urls"]

BOARD_FILES: Mapping[str, str] = {
    "board.js": "text/javascript; charset=utf-8",
    "board.css": "text/css; charset=utf-8",
}
"""The files of a board package, with their content types."""
JSON_TYPE = "application/json; charset=utf-8"


def game_urls(game: Game) -> dict[str, object]:
    """Where the browser finds ``game``'s board (``None``: the game has none, and the table draws
    a plain board) and its catalog in each language."""
    name = game.info.name
    board = None
    if game.parts.board is not None:
        board = {
            "js": f"/games/{name}/board.js",
            "css": f"/games/{name}/board.css"
            if part_file(game.parts.board, "board.css") is not None
            else None,
        }
    return {
        "board": board,
        "words": {lang: f"/games/{name}/words/{lang}.json" for lang in LANGUAGES},
    }


def _file(
    request: Request, raw: bytes | None, media_type: str, headers: Mapping[str, str]
) -> Response:
    if raw is None:
        return Response("not found", status_code=404, media_type="text/plain")
    tag = '"' + hashlib.sha256(raw).hexdigest()[:32] + '"'
    common = {**headers, "Cache-Control": "no-cache", "ETag": tag}
    if tag in request.headers.get("if-none-match", ""):
        return Response(status_code=304, headers=common)
    return Response(raw, media_type=media_type, headers=common)


def board_routes(headers: Mapping[str, str]) -> list[Route]:
    """The routes serving every registered game's board and catalogs, with ``headers`` (the
    pages' security headers) on each answer."""

    async def board(request: Request) -> Response:
        game = GAMES.get(request.path_params["name"])
        file = request.path_params["file"]
        if game is None or game.parts.board is None or file not in BOARD_FILES:
            return _file(request, None, "", headers)
        return _file(request, part_file(game.parts.board, file), BOARD_FILES[file], headers)

    async def words(request: Request) -> Response:
        game = GAMES.get(request.path_params["name"])
        lang = request.path_params["lang"]
        if game is None or lang not in LANGUAGES:
            return _file(request, None, "", headers)
        return _file(request, part_file(game.parts.words, f"{lang}.json"), JSON_TYPE, headers)

    return [
        Route("/games/{name}/words/{lang}.json", words, methods=["GET", "HEAD"]),
        Route("/games/{name}/{file}", board, methods=["GET", "HEAD"]),
    ]
