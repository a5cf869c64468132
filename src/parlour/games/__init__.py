"""The registered games, found through the entry-point group ``parlour.games``.

Every game registers the same way, the built-in ones included (their entry points are listed in
Parlour's ``pyproject.toml``): an entry point names the game's one ``Game`` instance, the one its
states carry (``module:GAME``), so a game from another distribution is found, listed and played
like the built-in ones. Nothing is registered as an import side effect.
"""

from __future__ import annotations

import dataclasses
import sys
from collections.abc import Mapping
from importlib.metadata import EntryPoint, entry_points
from types import MappingProxyType

from parlour.core.game import Game, State
from parlour.core.inputs import quote
from parlour.core.record import Record, replay
from parlour.errors import InvalidOption, InvalidRecord

__all__ = ["ENTRY_POINT_GROUP", "GAMES", "find_game", "load_games", "replay_json"]

ENTRY_POINT_GROUP = "parlour.games"


def _load(point: EntryPoint) -> Game | None:
    """The game an entry point names, or ``None`` (and one line on stderr) when it cannot be
    loaded or is not a game: one broken plug-in does not take Parlour down with it."""
    try:
        game = point.load()
    except Exception as err:  # a plug-in's import may raise anything
        print(
            f"parlour: the game {point.name!r} ({point.value}) did not load: {err}", file=sys.stderr
        )
        return None
    if isinstance(game, type) and issubclass(game, Game):
        game = game()
    if not isinstance(game, Game):
        print(
            f"parlour: the entry point {point.name!r} ({point.value}) is not a parlour Game",
            file=sys.stderr,
        )
        return None
    return game


def load_games(points: tuple[EntryPoint, ...] | None = None) -> dict[str, Game]:
    """The games the entry points name (all of the group ``parlour.games`` when ``points`` is
    ``None``), keyed by name and sorted by it; of two games with one name, the first loaded."""
    if points is None:
        points = tuple(entry_points(group=ENTRY_POINT_GROUP))
    found: dict[str, Game] = {}
    for point in sorted(points, key=lambda p: (p.name, p.value)):
        game = _load(point)
        if game is not None and game.name not in found:
            found[game.name] = game
    return dict(sorted(found.items()))


GAMES: Mapping[str, Game] = MappingProxyType(load_games())
_BY_NAME: Mapping[str, Game] = MappingProxyType(
    {name: g for g in GAMES.values() for name in g.info.names}
)


def find_game(name: str) -> Game:
    """The game called ``name`` or one of its aliases (``game-of-death``), in any case.

    Raises:
        InvalidOption: no game has that name; the message lists the games.
    """
    game = _BY_NAME.get(name.strip().lower()) if isinstance(name, str) else None
    if game is None:
        raise InvalidOption(f"unknown game {quote(name)}: the games are {', '.join(GAMES)}")
    return game


def replay_json(obj: object) -> tuple[Record, tuple[State, ...]]:
    """Check a record given as JSON, find its game and rebuild every state."""
    record = Record.from_json(obj)
    try:
        game = find_game(record.game)
    except InvalidOption as err:
        raise InvalidRecord(f"record field 'game': {err}") from None
    if record.game != game.name:
        record = dataclasses.replace(record, game=game.name)
    return record, replay(record, game)
