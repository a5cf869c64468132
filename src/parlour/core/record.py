"""Game records and replay.

A record is ``{"game", "players", "seed", "options", "deal"?, "actions", "seats"?}`` as JSON: how
games are saved, shared and used as test fixtures. ``seats`` (optional) says who sat where when the
game was played at the terminal (``person`` or a bot's spec), so ``parlour play --resume`` can
seat everyone again; the rules never read it. :func:`replay` rebuilds every state; the same record
gives the same states and events on any machine.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from parlour.core.game import JSON, Game, State
from parlour.core.rng import check_seed
from parlour.errors import InvalidRecord, ParlourError

__all__ = ["Record", "replay"]

_FIELDS = ("game", "players", "seed", "options", "deal", "actions", "seats")


@dataclass(frozen=True, slots=True)
class Record:
    """One game: enough to rebuild every state of it."""

    game: str
    players: int
    seed: int
    options: Mapping[str, JSON] = field(default_factory=dict)
    deal: JSON = None
    actions: tuple[str, ...] = ()
    seats: tuple[str, ...] | None = None

    @classmethod
    def from_json(cls, obj: object) -> Record:
        """Check the fields' shapes (not yet the rules) and build a record.

        Raises:
            InvalidRecord: naming the field that is missing or of the wrong kind.
        """
        if not isinstance(obj, dict):
            raise InvalidRecord("a record is a JSON object with game, players, seed and actions")
        unknown = sorted(set(obj) - set(_FIELDS))
        if unknown:
            raise InvalidRecord(f"record has unknown field {unknown[0]!r}; fields: {_FIELDS}")
        for name in ("game", "players", "seed", "actions"):
            if name not in obj:
                raise InvalidRecord(f"record has no {name!r} field")
        game, players, options, actions = (
            obj["game"],
            obj["players"],
            obj.get("options") or {},
            obj["actions"],
        )
        if not isinstance(game, str):
            raise InvalidRecord(f"record field 'game' must be a string, got {game!r}")
        if isinstance(players, bool) or not isinstance(players, int):
            raise InvalidRecord(f"record field 'players' must be a whole number, got {players!r}")
        try:
            seed = check_seed(obj["seed"])
        except ParlourError as err:
            raise InvalidRecord(f"record field {err}") from None
        if not isinstance(options, dict):
            raise InvalidRecord(f"record field 'options' must be an object, got {options!r}")
        if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
            raise InvalidRecord("record field 'actions' must be a list of action strings")
        seats = obj.get("seats")
        if seats is not None and (
            not isinstance(seats, list)
            or not all(isinstance(s, str) for s in seats)
            or len(seats) != players
        ):
            raise InvalidRecord(
                "record field 'seats' must be a list of one string per player "
                "('person' or a bot such as 'ismcts')"
            )
        return cls(
            game,
            players,
            seed,
            dict(options),
            obj.get("deal"),
            tuple(actions),
            None if seats is None else tuple(seats),
        )

    def to_json(self) -> dict[str, JSON]:
        out: dict[str, Any] = {
            "game": self.game,
            "players": self.players,
            "seed": self.seed,
            "options": dict(self.options),
        }
        if self.deal is not None:
            out["deal"] = self.deal
        out["actions"] = list(self.actions)
        if self.seats is not None:
            out["seats"] = list(self.seats)
        return out


def replay(record: Record, game: Game) -> tuple[State, ...]:
    """Every state of the recorded game: the new game, then one per action.

    Raises:
        InvalidRecord: the players, options or deal are refused by the game, or an action is
            illegal; the message names the field, or the action's index, text and reason.
    """
    if record.game != game.name:
        raise InvalidRecord(f"record is for {record.game!r}, not {game.name!r}")
    try:
        state = game.new(record.players, record.seed, record.options, record.deal)
    except ParlourError as err:
        raise InvalidRecord(f"record cannot start: {err}") from None
    states = [state]
    for index, text in enumerate(record.actions):
        try:
            state = state.apply(text)
        except ParlourError as err:
            raise InvalidRecord(f"action {index} {text!r} is illegal: {err}") from None
        states.append(state)
    return tuple(states)
