"""The registered games, listed explicitly (no registration as an import side effect)."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from types import MappingProxyType

from parlour.core.game import Game, State
from parlour.core.inputs import quote
from parlour.core.record import Record, replay
from parlour.errors import InvalidOption, InvalidRecord
from parlour.games.beggar import BeggarGame
from parlour.games.beor.game import BeorGame
from parlour.games.death.game import DeathGame

__all__ = ["GAMES", "find_game", "replay_json"]

GAMES: Mapping[str, Game] = MappingProxyType(
    {g.name: g for g in (BeggarGame(), BeorGame(), DeathGame())}
)
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
