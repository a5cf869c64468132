"""The JSON Schema files (draft 2020-12) that ship with Parlour, found by name.

Core documents live in ``parlour/core/schemas/``: ``record`` (a game record), ``log`` (a seat's
log entries), ``replay`` (what ``parlour replay`` prints), ``play`` (what ``parlour play
--json`` prints: a game, or a match of deals) and ``review`` (what ``parlour review --json``
prints: :mod:`parlour.bots.review`). Each game ships the schemas of its own documents in
``parlour/games/<name>/schemas/``, named ``<game>-<document>``: ``state``, ``view``, ``action``
(the notation; ``$defs/id`` the integer form) and any others it has (``chess-table-entry``).
A game's aliases name its schemas too: ``western-chess-view`` is ``chess-view``.
``parlour schema NAME`` prints one.
"""

from __future__ import annotations

import json
from importlib import resources
from importlib.resources.abc import Traversable

from parlour.core.game import JSON, Game
from parlour.core.inputs import quote
from parlour.errors import InvalidOption

__all__ = ["schema", "schema_name", "schema_names"]

_CORE = ("record", "log", "replay", "play", "review")


def _folder(game: Game) -> Traversable | None:
    package = game.parts.schemas
    return None if package is None else resources.files(package)


def _files(games: tuple[Game, ...]) -> dict[str, Traversable]:
    core = resources.files("parlour.core").joinpath("schemas")
    found = {name: core.joinpath(f"{name}.json") for name in _CORE}
    for game in games:
        folder = _folder(game)
        if folder is None or not folder.is_dir():
            continue
        for item in sorted(folder.iterdir(), key=lambda t: t.name):
            if item.name.endswith(".json"):
                found[f"{game.info.name}-{item.name.removesuffix('.json')}"] = item
    return found


def schema_names(games: tuple[Game, ...]) -> tuple[str, ...]:
    """Every schema name, core documents first, then each game's."""
    return tuple(_files(games))


def _resolve(key: str, files: dict[str, Traversable], games: tuple[Game, ...]) -> str | None:
    """The schema name ``key`` stands for: itself, or a game's alias followed by a document
    (``western-chess-view``, ``wc-state``)."""
    if key in files:
        return key
    for game in games:
        for alias in game.info.names:
            if key.startswith(f"{alias}-"):
                name = f"{game.info.name}-{key.removeprefix(f'{alias}-')}"
                if name in files:
                    return name
    return None


def schema_name(name: str, games: tuple[Game, ...]) -> str:
    """The schema name that ``name`` (any case, a game alias allowed) stands for.

    Raises:
        InvalidOption: no schema has that name; the message lists them.
    """
    files = _files(games)
    found = _resolve(name.strip().lower(), files, games) if isinstance(name, str) else None
    if found is None:
        raise InvalidOption(f"unknown schema {quote(name)}; the schemas are: {', '.join(files)}")
    return found


def schema(name: str, games: tuple[Game, ...]) -> JSON:
    """The schema called ``name`` (as :func:`schema_name` reads it) as parsed JSON.

    Raises:
        InvalidOption: no schema has that name; the message lists them.
    """
    files = _files(games)
    return json.loads(files[schema_name(name, games)].read_text(encoding="utf-8"))
