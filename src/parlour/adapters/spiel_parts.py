"""What the OpenSpiel states of :mod:`parlour.adapters.openspiel` hold and how they copy.

OpenSpiel clones a Python state with ``copy.deepcopy`` and serialises it with ``pickle``. A
Parlour state is immutable and remembers the states before it (for its log), so clones share
it, and a pickle carries its JSON (``Game.state_from_json``) and each seat's log lines.
"""

from __future__ import annotations

import json
from typing import Any, cast

from parlour.adapters.encoding import Layout, layout_for
from parlour.core.game import Game, State
from parlour.core.options import OptionValue
from parlour.games import find_game

__all__ = ["Shared", "Trail"]


class Shared:
    """What clones share: OpenSpiel clones a Python state with ``copy.deepcopy``, and a Parlour
    state is immutable (and remembers the states before it, for its log), so copying it would
    only cost time."""

    __slots__ = ("game", "layout", "options", "state")

    def __init__(
        self, game: Game, layout: Layout, options: dict[str, OptionValue], state: State | None
    ) -> None:
        self.game = game
        self.layout = layout
        self.options = options
        self.state = state

    def __deepcopy__(self, memo: dict[int, object]) -> Shared:
        return Shared(self.game, self.layout, self.options, self.state)

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled (OpenSpiel's serialisation of Python states) as the game's name, the
        player count, the options and the state's JSON (``Game.state_from_json``)."""
        state = None if self.state is None else self.state.to_json()
        return (_shared_from, (self.game.name, self.layout.players, self.options, state))


class Trail:
    """The Parlour states entered so far, oldest first, and each seat's log lines made from
    them so far (one JSON line per step, made once): a clone copies the lists, never the
    states or the lines. After a resample for seat ``seat``, the states before ``cut`` belong
    to that seat's history only."""

    __slots__ = ("cut", "made", "seat", "states")

    def __init__(
        self,
        states: list[State],
        made: list[list[str]],
        seat: int | None = None,
        cut: int = 0,
    ) -> None:
        self.states = states
        self.made = made
        self.seat = seat
        self.cut = cut

    def __deepcopy__(self, memo: dict[int, object]) -> Trail:
        return Trail(list(self.states), [list(m) for m in self.made], self.seat, self.cut)

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as every seat's lines, made now: the states need not travel."""
        made = [self.lines(seat) for seat in range(len(self.made))]
        return (_trail_from, (made, len(self.states), self.seat, self.cut))

    def resampled(self, seat: int) -> Trail:
        """The trail of a state resampled for ``seat``."""
        made = [list(m) if s == seat else [] for s, m in enumerate(self.made)]
        return Trail(list(self.states), made, seat, len(self.states))

    def lines(self, seat: int) -> list[str]:
        """The seat's log, one JSON line per step."""
        made = self.made[seat]
        if not made and self.seat is not None and seat != self.seat:
            made.append("(resampled: the history before is unknown)")
        start = self.cut if self.seat is not None and seat != self.seat else 0
        done = len(made) - (1 if start else 0)
        for state in self.states[start + done :]:
            (entry,) = state.tail(seat, 1)
            # Without the entry's index: a state read from JSON (a restock dealt again, a
            # resample, an unpickled state) starts a new log, and its steps read the same.
            line = {k: v for k, v in entry.to_json().items() if k != "index"}
            made.append(json.dumps(line, sort_keys=True, ensure_ascii=False))
        return made


def _shared_from(name: str, players: int, options: dict[str, OptionValue], state: Any) -> Shared:
    game = find_game(name)
    made = None if state is None else game.state_from_json(state)
    return Shared(game, layout_for(game, players), options, made)


def _trail_from(made: list[list[str]], count: int, seat: int | None, cut: int) -> Trail:
    """A trail whose lines are all made: its states are never read again."""
    return Trail(cast("list[State]", [None] * count), made, seat, cut)
