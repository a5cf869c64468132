"""Events, and the per-seat log of a game line.

An :class:`Event` is what an action did, in words and data. A private event (``audience`` set)
may carry its public telling (``redacted``): a game's "Player 1 draws 9♥" is seen by
the drawer, and everyone else sees "Player 1 draws from black". :meth:`Event.for_seat` is the one
place that decides what a seat sees of an event; the terminal and the server both show
:meth:`parlour.core.game.State.log`, built from it.

A :class:`LogEntry` is one step of the game (the deal, a player action or a table entry) with the
events a seat may see of it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, TypeAlias

__all__ = ["JSON", "Event", "LogEntry", "Step"]

JSON: TypeAlias = Any
"""A JSON-serialisable value (dict, list, str, int, float, bool or None)."""


@dataclass(frozen=True, slots=True)
class Event:
    """What an action did, for people (``text``, plain words) and machines (``kind``, ``data``).

    ``audience`` is ``None`` for a public event, otherwise the seats allowed to see it.
    ``redacted`` is what the other seats see of a private event (``None``: they see nothing).
    """

    kind: str
    text: str
    data: Mapping[str, JSON] = field(default_factory=dict)
    audience: frozenset[int] | None = None
    redacted: Event | None = None

    def is_visible_to(self, seat: int | None) -> bool:
        return self.audience is None or (seat is not None and seat in self.audience)

    def for_seat(self, seat: int | None) -> Event | None:
        """What ``seat`` (``None``: a spectator) sees of this event: the event itself, its
        public telling, or nothing."""
        if self.audience is None or (seat is not None and seat in self.audience):
            return self
        return None if self.redacted is None else self.redacted.for_seat(seat)

    def to_json(self) -> dict[str, JSON]:
        return {"kind": self.kind, "text": self.text, **self.data}


@dataclass(frozen=True, slots=True)
class Step:
    """How a state was reached from the one before it: a player ``action`` by ``seat``, or a
    ``table`` entry made by ``seat`` (``None``: a referee). Its ``text`` is the notation, public
    at the table in every game Parlour plays."""

    kind: str
    seat: int | None
    text: str
    index: int
    """The entry number of this step in the log (the deal is entry 0)."""


@dataclass(frozen=True, slots=True)
class LogEntry:
    """One step of a game as one seat may see it.

    ``index`` counts steps from the deal (entry 0, ``kind == "deal"``, holds what the deal did,
    such as a natural win); ``kind`` is ``deal``, ``action`` or ``table``; ``seat`` who made the
    step; ``text`` its notation; ``events`` what the seat may see of what it did, in order.
    """

    index: int
    kind: str
    seat: int | None
    text: str | None
    events: tuple[Event, ...]

    def to_json(self) -> dict[str, JSON]:
        return {
            "index": self.index,
            "kind": self.kind,
            "seat": self.seat,
            "text": self.text,
            "events": [e.to_json() for e in self.events],
        }
