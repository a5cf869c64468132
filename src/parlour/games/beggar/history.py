"""Ruling M10: never-ending games, found by remembering every trick-boundary position of a line
of play.

M10: "Detect a repeated position (all hands in order + whose lead, at a trick boundary, cards
compared by class J/Q/K/A/number since suits and pips never matter) and end the game with the
result 'loop', reporting the cards and tricks played when the repeat was seen, where the cycle
starts, and its length in cards and tricks."

A :class:`History` belongs to one line of play. States are immutable and share it: each state
knows how many of its positions are its own past (``known``). The state at the tip of the line
appends in place, so a straight line of play costs O(1) a trick; any other state (a branch,
played on from an earlier state, as search, undo or a second look do) first copies the positions
that are its own past, so two lines never see each other's positions. A lock makes looking up
and appending one step, for servers that play many games in threads.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from parlour.core.log import JSON
from parlour.games.beggar.notation import HONOUR, RankClass, Token

__all__ = ["Cycle", "History", "Position", "position_key"]


@dataclass(frozen=True, slots=True)
class Cycle:
    """Ruling M10: where a never-ending game repeats, in cards and tricks."""

    found_at_cards: int
    found_at_tricks: int
    start_cards: int
    start_tricks: int

    @property
    def length_cards(self) -> int:
        return self.found_at_cards - self.start_cards

    @property
    def length_tricks(self) -> int:
        return self.found_at_tricks - self.start_tricks

    def to_json(self) -> dict[str, int]:
        return {
            "found_at_cards": self.found_at_cards,
            "found_at_tricks": self.found_at_tricks,
            "start_cards": self.start_cards,
            "start_tricks": self.start_tricks,
            "length_cards": self.length_cards,
            "length_tricks": self.length_tricks,
        }


_CLASS_CHAR = {t: (t.value if isinstance(t, RankClass) else "-JQKA"[h]) for t, h in HONOUR.items()}


def position_key(hands: Sequence[Sequence[Token]], lead: int) -> str:
    """M10: a trick-boundary position with cards compared by class J/Q/K/A/number, as
    ``LEAD|HAND/HAND...`` with each hand in the rank-only notation of M9, top card first."""
    char = _CLASS_CHAR
    return f"{lead}|" + "/".join("".join([char[t] for t in hand]) for hand in hands)


@dataclass(frozen=True, slots=True)
class Position:
    """One remembered position: its key (:func:`position_key`) and the cards and tricks
    played when it was first seen (M8 counts)."""

    key: str
    cards: int
    tricks: int

    def to_json(self) -> dict[str, JSON]:
        lead, _, hands = self.key.partition("|")
        return {"lead": int(lead), "hands": hands, "cards": self.cards, "tricks": self.tricks}


class History:
    """The trick-boundary positions of one line of play, in order (see the module docstring).

    Only :meth:`record` adds to it, under its lock, and only for the state that owns the tip;
    a state reads no position past its own ``known``."""

    __slots__ = ("_first", "_lock", "_positions")

    def __init__(self, positions: Iterable[Position] = ()) -> None:
        """A line whose past is ``positions``, oldest first.

        Raises:
            ValueError: a position repeats an earlier one (the game would have ended, M10).
        """
        self._lock = threading.Lock()
        self._positions: list[Position] = []
        self._first: dict[str, int] = {}
        for position in positions:
            if position.key in self._first:
                raise ValueError(
                    f"position {len(self._positions)} repeats position "
                    f"{self._first[position.key]}, which ends the game (M10)"
                )
            self._append(position)

    def _append(self, position: Position) -> None:
        self._first[position.key] = len(self._positions)
        self._positions.append(position)

    def record(self, known: int, key: str, cards: int, tricks: int) -> tuple[History, Cycle | None]:
        """A state whose past is this line's first ``known`` positions reaches the position
        ``key`` at a trick boundary after ``cards`` cards and ``tricks`` tricks.

        Returns the history the new state holds (its past now ``known + 1`` positions long,
        or ``known`` when the position repeats) and the cycle found (M10), else ``None``.
        """
        with self._lock:
            first = self._first.get(key)
            if first is not None and first < known:
                seen = self._positions[first]
                return self, Cycle(cards, tricks, seen.cards, seen.tricks)
            # A branch (another line went on from here) takes only its own past.
            line = self if len(self._positions) == known else History(self._positions[:known])
            line._append(Position(key, cards, tricks))
            return line, None

    def past(self, known: int) -> tuple[Position, ...]:
        """The first ``known`` positions, oldest first: the past of a state that knows them."""
        with self._lock:
            return tuple(self._positions[:known])
