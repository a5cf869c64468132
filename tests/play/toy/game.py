"""Race to Seven, a toy game: in turn each player adds 1 or 2 to a shared count, and whoever
makes it 7 wins (rule T1). Nothing is hidden."""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import ClassVar, Self

from parlour.core.game import (
    FORMAT,
    JSON,
    Action,
    Event,
    Game,
    GameInfo,
    GameParts,
    Outcome,
    State,
    View,
    seat_name,
)
from parlour.core.record import check_format
from parlour.errors import InvalidNotation, InvalidRecord

GOAL = 7


@dataclass(frozen=True, slots=True)
class Add(Action):
    amount: int

    def __str__(self) -> str:
        return f"+{self.amount}"


ADDS = (Add(1), Add(2))


@dataclass(frozen=True, slots=True)
class RaceView(View):
    seat: int | None
    players: int
    count: int
    to_move: int | None

    def to_json(self) -> dict[str, JSON]:
        return {
            "format": FORMAT,
            "seat": self.seat,
            "players": self.players,
            "count": self.count,
            "to_move": self.to_move,
        }


class RaceState(State):
    __slots__ = ("_count", "_events", "_mover", "_players", "_winner")

    def __init__(self, players: int, count: int, mover: int, winner: int | None) -> None:
        self._players, self._count, self._mover, self._winner = players, count, mover, winner
        self._events: tuple[Event, ...] = ()

    @property
    def players(self) -> int:
        return self._players

    @property
    def to_move(self) -> int | None:
        return None if self._winner is not None else self._mover

    @property
    def outcome(self) -> Outcome | None:
        if self._winner is None:
            return None
        n, w = self._players, self._winner
        return Outcome(
            "win",
            (w,),
            tuple(1 if s == w else 2 for s in range(n)),
            tuple(1.0 if s == w else 0.0 for s in range(n)),
            tuple(1 if s == w else 0 for s in range(n)),
        )

    @property
    def events(self) -> tuple[Event, ...]:
        return self._events

    def _legal_actions(self) -> tuple[Action, ...]:
        return tuple(a for a in ADDS if self._count + a.amount <= GOAL)

    def _parse(self, text: str) -> Action | None:
        for action in ADDS:
            if text.strip() == str(action):
                return action
        raise InvalidNotation(f"{text.strip()!r} is not a move of Race to Seven: +1 or +2")

    def _refusal(self, text: str) -> str:
        return f"{text} would pass {GOAL} (T1)"

    def _apply(self, action: Action) -> Self:
        assert isinstance(action, Add)
        count = self._count + action.amount
        winner = self._mover if count == GOAL else None
        nxt = type(self)(self._players, count, (self._mover + 1) % self._players, winner)
        nxt._events = (
            Event("added", f"{seat_name(self._mover)} adds {action.amount}: count {count}"),
        )
        return nxt

    def view(self, seat: int | None) -> RaceView:
        self._check_seat(seat)
        return RaceView(seat, self._players, self._count, self.to_move)

    def to_json(self) -> dict[str, JSON]:
        return {
            "format": FORMAT,
            "players": self._players,
            "count": self._count,
            "mover": self._mover,
            "winner": self._winner,
        }

    def hidden_from(self, seat: int | None) -> frozenset[str]:
        return frozenset()


class RaceGame(Game):
    info: ClassVar[GameInfo] = GameInfo(
        name="race",
        title="Race to Seven",
        aliases=("race-to-seven",),
        min_players=2,
        max_players=3,
        default_players=2,
        decisions=True,
        options=(),
        num_distinct_actions=2,
        max_game_length=GOAL,
    )
    parts: ClassVar[GameParts] = GameParts(
        presenter="tests.play.toy.present",
        words="tests.play.toy",
        strategy="tests.play.toy.strategy",
    )

    def new(
        self,
        players: int,
        seed: int,
        options: Mapping[str, object] | None = None,
        deal: JSON = None,
    ) -> RaceState:
        self.options(options)
        return RaceState(self.check_players(players), 0, 0, None)

    def sample(self, view: View, rng: random.Random) -> RaceState:
        assert isinstance(view, RaceView)
        assert view.to_move is not None
        return RaceState(view.players, view.count, view.to_move, None)

    def action_id(self, action: Action) -> int:
        if not isinstance(action, Add) or action not in ADDS:
            raise InvalidNotation(f"{action!r} is not a move of Race to Seven")
        return action.amount - 1

    def action_from_id(self, action_id: int) -> Action:
        return ADDS[self._check_action_id(action_id)]

    def state_from_json(self, obj: object) -> RaceState:
        data = check_format(obj, "Race to Seven state")
        fields = [data.get(k) for k in ("players", "count", "mover")]
        winner = data.get("winner")
        if not all(isinstance(v, int) for v in fields) or not (
            winner is None or isinstance(winner, int)
        ):
            raise InvalidRecord("a Race to Seven state has whole numbers players, count, mover")
        players, count, mover = (int(v) for v in fields if isinstance(v, int))
        return RaceState(self.check_players(players), count, mover, winner)

    def view_from_json(self, obj: object) -> RaceView:
        data = check_format(obj, "Race to Seven view")
        seat, players, count, to_move = (
            data.get(k) for k in ("seat", "players", "count", "to_move")
        )
        if not (isinstance(players, int) and isinstance(count, int)):
            raise InvalidRecord("a Race to Seven view has whole numbers players and count")
        if not (seat is None or isinstance(seat, int)) or not (
            to_move is None or isinstance(to_move, int)
        ):
            raise InvalidRecord("a Race to Seven view's seat and to_move are seats or null")
        return RaceView(seat, players, count, to_move)


RaceState.game = RaceGame()
