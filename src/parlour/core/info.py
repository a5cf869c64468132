"""Static facts about a game, declared once (in the spirit of OpenSpiel's GameType/GameInfo).

Front ends, bots, the lab and adapters look a game's facts up here instead of branching on its
name: ``parlour games`` lists them, the menu offers them, adapters size their action spaces
from ``num_distinct_actions`` and their episode limits from ``max_game_length``.
"""

from __future__ import annotations

from dataclasses import dataclass

from parlour.core.options import OptionSpec

__all__ = ["GameInfo"]


@dataclass(frozen=True, slots=True)
class GameInfo:
    """What never changes about a game.

    Attributes:
        name: the canonical short name (``chess``), used in records and on the command line.
        title: the name people read (``Chess``).
        aliases: other names accepted wherever a game is named (``western-chess``).
        min_players, max_players: the player range.
        default_players: what the menu and commands take when no count is given.
        decisions: whether players choose anything (a game of chance alone: no).
        options: the option specs, validated by :func:`parlour.core.options.validate_options`.
        num_distinct_actions: the size of the integer action space (ids ``0 .. n-1``).
        max_game_length: an upper bound on the number of player actions in one game with the
            default options (table entries not counted), or ``None`` when the rules set none
            (a game the rules cut short only by detecting a repeat).
        summary: one line saying what the game is, for lists and help.
    """

    name: str
    title: str
    aliases: tuple[str, ...]
    min_players: int
    max_players: int
    default_players: int
    decisions: bool
    options: tuple[OptionSpec, ...]
    num_distinct_actions: int
    max_game_length: int | None
    summary: str = ""

    def __post_init__(self) -> None:
        if not self.min_players <= self.default_players <= self.max_players:
            raise ValueError(f"{self.name}: default_players outside the player range")
        if self.num_distinct_actions < 1:
            raise ValueError(f"{self.name}: num_distinct_actions must be at least 1")

    @property
    def names(self) -> tuple[str, ...]:
        """The name and every alias, lower case."""
        return (self.name, *self.aliases)
