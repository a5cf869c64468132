"""The JSON Schema files that ship with Parlour, found by name.

Core documents (``record``, ``log``) live in ``parlour/core/schemas/``; each game ships the
schemas of its own documents in ``parlour/games/<name>/schemas/`` (``state``, ``view``,
``action``), named ``<game>-<document>`` (``beor-view``). ``parlour schema NAME`` prints one.
"""

from __future__ import annotations

import json
from importlib import resources
from importlib.resources.abc import Traversable

from parlour.core.game import JSON, Game
from parlour.errors import InvalidOption

__all__ = ["schema", "schema_names"]

_CORE = ("record", "log")


def _folder(game: Game) -> Traversable:
    package = type(game).__module__.rpartition(".")[0]
    return resources.files(package).joinpath("schemas")


def _files(games: tuple[Game, ...]) -> dict[str, Traversable]:
    core = resources.files("parlour.core").joinpath("schemas")
    found = {name: core.joinpath(f"{name}.json") for name in _CORE}
    for game in games:
        folder = _folder(game)
        if not folder.is_dir():
            continue
        for item in sorted(folder.iterdir(), key=lambda t: t.name):
            if item.name.endswith(".json"):
                found[f"{game.info.name}-{item.name.removesuffix('.json')}"] = item
    return found


def schema_names(games: tuple[Game, ...]) -> tuple[str, ...]:
    """Every schema name, core documents first, then each game's."""
    return tuple(_files(games))


def schema(name: str, games: tuple[Game, ...]) -> JSON:
    """The schema called ``name`` as parsed JSON.

    Raises:
        InvalidOption: no schema has that name; the message lists them.
    """
    files = _files(games)
    key = name.strip().lower()
    if key not in files:
        raise InvalidOption(f"unknown schema {name!r}; the schemas are: {', '.join(files)}")
    return json.loads(files[key].read_text(encoding="utf-8"))
