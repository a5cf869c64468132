"""Game records and replay.

A record is ``{"format", "game", "players", "seed", "options", "deal"?, "actions", "table"?,
"seats"?, "commitment"?, "deal_number"?, "time_used"?}`` as JSON: how games are saved, shared
and used as test fixtures.

- ``actions`` are the players' actions in order, in the game's notation.
- ``table`` (optional) lists table entries, things the table decides outside the turn order
  (a game's penalties): ``{"at", "entry", "by", "votes"}`` with ``at`` the
  number of actions played before it, ``by`` the seat that made it (``null``: a referee) and
  ``votes`` the seats that voted for it.
- ``seats`` (optional) says who sat where when the game was played at the terminal (``person``
  or a bot's spec), so ``parlour play --resume`` can seat everyone again; the rules never read it.
- ``commitment`` (optional) is the commitment to ``seed`` published before the game began
  (:mod:`parlour.core.fairness`): 64 lowercase hexadecimal digits.
- ``deal_number`` (optional) is the number of the deal in a match, from 0 (G12). When it is
  present (0 included) and there is no ``deal``, the deal is
  ``game.match_deal(players, seed, deal_number)`` (a game may move the dealer one seat
  each deal; the other games deal from the seed alone). It is written exactly when it was
  given, so a record without it, every record from before it existed, deals as it always did;
  a record may not give both ``deal`` and ``deal_number``.
- ``time_used`` (optional) is how many seconds of an agreed time (``Game.time_limit``) the
  table's clock had run when a game played at the terminal was saved, so that a resumed game
  goes on with the time it had; the rules never read it (the stop is a table entry).

:func:`replay` rebuilds every state; the same record gives the same states and events on any
machine. Records written before ``format`` existed are read as format 1.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from itertools import pairwise
from typing import Any

from parlour.core.game import FORMAT, JSON, Game, State
from parlour.core.inputs import quote
from parlour.core.jsontext import check_json
from parlour.core.rng import check_seed
from parlour.errors import InvalidRecord, ParlourError

MAX_PLAYERS = 64
"""The most players a record may name; each game then checks its own range."""

__all__ = ["MAX_ACTIONS", "MAX_TEXT", "Record", "TableEntry", "check_format", "replay"]

MAX_ACTIONS = 1_000_000
"""The most actions (and, apart, table entries) a record may hold; the longest games Parlour
plays have some tens of thousands."""

MAX_TEXT = 200
"""The longest action, table entry or seat text a record may hold (the longest notation is a
few dozen characters)."""

_FIELDS = (
    "format",
    "game",
    "players",
    "seed",
    "options",
    "deal",
    "actions",
    "table",
    "seats",
    "commitment",
    "deal_number",
    "time_used",
)

MAX_TIME_USED = 1e9
"""The most seconds of an agreed time a record may say were used (some thirty years)."""


def check_format(obj: object, what: str) -> dict[str, Any]:
    """``obj`` as a JSON object whose ``"format"`` (when present) is one Parlour reads.

    Raises:
        InvalidRecord: ``obj`` is not an object, or has a format this version cannot read.
    """
    if not isinstance(obj, dict):
        raise InvalidRecord(f"a {what} is a JSON object, got {type(obj).__name__}")
    version = obj.get("format", FORMAT)
    if isinstance(version, bool) or version != FORMAT:
        raise InvalidRecord(f"{what} field 'format' must be {FORMAT}, got {quote(version)}")
    return obj


def _seat_or_none(value: object, players: int, where: str) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < players:
        raise InvalidRecord(
            f"{where} must be a seat from 0 to {players - 1} or null, got {quote(value)}"
        )
    return value


@dataclass(frozen=True, slots=True)
class TableEntry:
    """A table entry in a record: made after ``at`` actions by seat ``by`` (``None``: a
    referee), with the seats in ``votes`` voting for it."""

    at: int
    entry: str
    by: int | None = None
    votes: tuple[int, ...] = ()

    @classmethod
    def from_json(cls, obj: object, index: int, players: int, actions: int) -> TableEntry:
        where = f"record field 'table' entry {index}"
        if not isinstance(obj, dict) or not isinstance(obj.get("entry"), str):
            raise InvalidRecord(f"{where} must be an object with 'at' and 'entry'")
        if len(obj["entry"]) > MAX_TEXT:
            raise InvalidRecord(f"{where} field 'entry' is longer than {MAX_TEXT} characters")
        unknown = sorted(set(obj) - {"at", "entry", "by", "votes"})
        if unknown:
            raise InvalidRecord(f"{where} has unknown field {quote(unknown[0])}")
        at = obj.get("at")
        if isinstance(at, bool) or not isinstance(at, int) or not 0 <= at <= actions:
            raise InvalidRecord(f"{where} field 'at' must be 0 to {actions}, got {quote(at)}")
        by = _seat_or_none(obj.get("by"), players, f"{where} field 'by'")
        votes = obj.get("votes", [])
        if not isinstance(votes, list) or len(votes) > players:
            raise InvalidRecord(f"{where} field 'votes' must be a list of seats, each once")
        seats: set[int] = set()
        for vote in votes:
            seat = _seat_or_none(vote, players, f"{where} vote")
            if seat is None or seat in seats:
                raise InvalidRecord(f"{where} field 'votes' must list seats, each once")
            seats.add(seat)
        return cls(at, obj["entry"], by, tuple(sorted(seats)))

    def to_json(self) -> dict[str, JSON]:
        return {"at": self.at, "entry": self.entry, "by": self.by, "votes": list(self.votes)}


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
    table: tuple[TableEntry, ...] = ()
    commitment: str | None = None
    deal_number: int | None = None
    time_used: float | None = None

    @classmethod
    def from_json(cls, obj: object) -> Record:
        """Check the fields' shapes (not yet the rules) and build a record.

        Raises:
            InvalidRecord: naming the field that is missing or of the wrong kind.
        """
        if not isinstance(obj, dict):
            raise InvalidRecord("a record is a JSON object with game, players, seed and actions")
        check_format(obj, "record")
        unknown = sorted(set(obj) - set(_FIELDS))
        if unknown:
            raise InvalidRecord(
                f"record has unknown field {quote(unknown[0])}; fields: {', '.join(_FIELDS)}"
            )
        for name in ("game", "players", "seed", "actions"):
            if name not in obj:
                raise InvalidRecord(f"record has no {quote(name)} field")
        game, players, options, actions = (
            obj["game"],
            obj["players"],
            obj.get("options") or {},
            obj["actions"],
        )
        if not isinstance(game, str) or len(game) > MAX_TEXT:
            raise InvalidRecord(f"record field 'game' must be a game's name, got {quote(game)}")
        if (
            isinstance(players, bool)
            or not isinstance(players, int)
            or not 1 <= players <= MAX_PLAYERS
        ):
            raise InvalidRecord(
                f"record field 'players' must be a whole number from 1 to {MAX_PLAYERS}, "
                f"got {quote(players)}"
            )
        try:
            seed = check_seed(obj["seed"])
        except ParlourError as err:
            raise InvalidRecord(f"record field {err}") from None
        if not isinstance(options, dict):
            raise InvalidRecord(f"record field 'options' must be an object, got {quote(options)}")
        check_json(options, field="record field 'options'", max_depth=4, error=InvalidRecord)
        check_json(obj.get("deal"), field="record field 'deal'", max_depth=8, error=InvalidRecord)
        if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
            raise InvalidRecord("record field 'actions' must be a list of action strings")
        if len(actions) > MAX_ACTIONS:
            raise InvalidRecord(f"record field 'actions' holds more than {MAX_ACTIONS} actions")
        for index, text in enumerate(actions):
            if len(text) > MAX_TEXT:
                raise InvalidRecord(f"record action {index} is longer than {MAX_TEXT} characters")
        table = obj.get("table") or []
        if not isinstance(table, list) or len(table) > MAX_ACTIONS:
            raise InvalidRecord("record field 'table' must be a list of table entries")
        entries = tuple(
            TableEntry.from_json(t, k, players, len(actions)) for k, t in enumerate(table)
        )
        if any(a.at > b.at for a, b in pairwise(entries)):
            raise InvalidRecord("record field 'table' must list entries in the order made")
        seats = obj.get("seats")
        if seats is not None and (
            not isinstance(seats, list)
            or not all(isinstance(s, str) and len(s) <= MAX_TEXT for s in seats)
            or len(seats) != players
        ):
            raise InvalidRecord(
                "record field 'seats' must be a list of one string per player "
                "('person' or a bot such as 'ismcts')"
            )
        commit = obj.get("commitment")
        if commit is not None and (
            not isinstance(commit, str)
            or len(commit) != 64
            or any(c not in "0123456789abcdef" for c in commit)
        ):
            raise InvalidRecord(
                "record field 'commitment' must be 64 lowercase hexadecimal digits (SHA-256)"
            )
        number = obj.get("deal_number")
        if number is not None and (
            isinstance(number, bool) or not isinstance(number, int) or not 0 <= number < 2**31
        ):
            raise InvalidRecord(
                "record field 'deal_number' must be a whole number from 0 to 2147483647, "
                f"got {quote(number)}"
            )
        if number is not None and obj.get("deal") is not None:
            raise InvalidRecord("a record gives either 'deal' or 'deal_number', not both")
        used = obj.get("time_used")
        if used is not None and (
            isinstance(used, bool)
            or not isinstance(used, int | float)
            or not 0 <= used <= MAX_TIME_USED  # NaN fails too
        ):
            raise InvalidRecord(
                f"record field 'time_used' must be a number of seconds from 0 to "
                f"{MAX_TIME_USED:.0f}, got {quote(used)}"
            )
        return cls(
            game,
            players,
            seed,
            dict(options),
            obj.get("deal"),
            tuple(actions),
            None if seats is None else tuple(seats),
            entries,
            commit,
            number,
            None if used is None else float(used),
        )

    def to_json(self) -> dict[str, JSON]:
        out: dict[str, Any] = {
            "format": FORMAT,
            "game": self.game,
            "players": self.players,
            "seed": self.seed,
            "options": dict(self.options),
        }
        if self.deal is not None:
            out["deal"] = self.deal
        out["actions"] = list(self.actions)
        if self.table:
            out["table"] = [t.to_json() for t in self.table]
        if self.seats is not None:
            out["seats"] = list(self.seats)
        if self.commitment is not None:
            out["commitment"] = self.commitment
        if self.deal_number is not None:
            out["deal_number"] = self.deal_number
        if self.time_used is not None:
            out["time_used"] = self.time_used
        return out

    def upgraded(self, game: Game) -> Record:
        """This record with table entries that an older record kept among its actions moved
        to ``table`` (:meth:`Game.upgrade_record_actions`)."""
        actions, moved = game.upgrade_record_actions(self.actions)
        if not moved:
            return self
        entries = sorted(
            [*self.table, *(TableEntry(at, text, by) for at, text, by in moved)],
            key=lambda t: t.at,
        )
        return dataclasses.replace(self, actions=actions, table=tuple(entries))


def replay(record: Record, game: Game) -> tuple[State, ...]:
    """Every state of the recorded game: the new game, then one per step (each action, and
    each table entry where it was made). Records of the old form are upgraded first
    (:meth:`Record.upgraded`).

    Raises:
        InvalidRecord: the players, options or deal are refused by the game, or an action or
            table entry is refused; the message names the field, or the index, text and reason.
    """
    if record.game != game.name:
        raise InvalidRecord(f"record is for {quote(record.game)}, not {quote(game.name)}")
    record = record.upgraded(game)
    try:
        deal = record.deal
        if record.deal_number is not None:
            deal = game.match_deal(record.players, record.seed, record.deal_number)
        state = game.new(record.players, record.seed, record.options, deal)
    except ParlourError as err:
        raise InvalidRecord(f"record cannot start: {err}") from None
    states = [state]
    pending = list(record.table)

    def table_until(played: int) -> None:
        nonlocal state
        while pending and pending[0].at == played:
            entry = pending.pop(0)
            index = len(record.table) - len(pending) - 1
            try:
                state = state.apply_table(entry.entry, by=entry.by, votes=entry.votes)
            except ParlourError as err:
                raise InvalidRecord(
                    f"table entry {index} {quote(entry.entry)} is refused: {err}"
                ) from None
            states.append(state)

    for index, text in enumerate(record.actions):
        table_until(index)
        try:
            state = state.apply(text)
        except ParlourError as err:
            raise InvalidRecord(f"action {index} {quote(text)} is illegal: {err}") from None
        states.append(state)
    table_until(len(record.actions))
    return tuple(states)
