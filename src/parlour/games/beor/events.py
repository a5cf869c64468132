"""What a BEOR action did, as typed records: one frozen dataclass per kind of event, each
telling itself as a core :class:`~parlour.core.log.Event` (plain words for people, data for
machines, and who may see it).

Only one event is private: a card drawn from a face-down stock is named to its drawer alone,
and carries the public telling the other seats see ("Player 1 draws from black"; Common,
"Public information", and B6).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass

from parlour.cards import Card
from parlour.core.game import JSON, seat_name
from parlour.core.log import Event
from parlour.games.beor.notation import BASES

__all__ = [
    "BeorEvent",
    "Drew",
    "Flipped",
    "Lost",
    "Played",
    "Restocked",
    "TurnLimit",
    "Won",
]

Groups = tuple[tuple[Card, ...], tuple[Card, ...]]


class BeorEvent(ABC):
    """One thing an action (or the deal) did."""

    __slots__ = ()

    @abstractmethod
    def to_event(self) -> Event:
        """The event in words and data, with its audience."""


@dataclass(frozen=True, slots=True)
class Played(BeorEvent):
    """Text: 'First, play a card from your hand onto one of the bases'; face up, so public."""

    seat: int
    card: Card
    base: int

    def to_event(self) -> Event:
        return Event(
            "played",
            f"{seat_name(self.seat)} plays {self.card.pretty()} on {BASES[self.base]}",
            {"seat": self.seat, "card": str(self.card), "base": BASES[self.base]},
        )


@dataclass(frozen=True, slots=True)
class Flipped(BeorEvent):
    """B6: a 3 or 8 turned the base's stock over; ``face_up`` is its new face."""

    stock: int
    face_up: bool

    def to_event(self) -> Event:
        side = "face up" if self.face_up else "face down"
        return Event(
            "flipped",
            f"The {BASES[self.stock]} stock is turned {side} (B6)",
            {"stock": BASES[self.stock], "face_up": self.face_up},
        )


@dataclass(frozen=True, slots=True)
class Drew(BeorEvent):
    """Text: 'Then, draw a card from that base's associated stock' (or another, B7). A card
    drawn from a face-up stock is public (B6, ``public``); one drawn face down is named to the
    drawer only, and the others see that he drew from that stock."""

    seat: int
    stock: int
    card: Card
    public: bool

    def to_event(self) -> Event:
        who, name = seat_name(self.seat), BASES[self.stock]
        named = f"{who} draws {self.card.pretty()} from {name}"
        data = {"seat": self.seat, "stock": name, "card": str(self.card)}
        if self.public:
            return Event("drew", named, data)
        unseen = Event("drew", f"{who} draws from {name}", {"seat": self.seat, "stock": name})
        return Event("drew", named, data, audience=frozenset({self.seat}), redacted=unseen)


@dataclass(frozen=True, slots=True)
class Restocked(BeorEvent):
    """B9: the cards the bases keep (Black, Even, Odd, Red) and how many went into the new
    face-down stocks."""

    kept: tuple[Card, ...]
    cards: int

    def to_event(self) -> Event:
        names = ", ".join(f"{BASES[i]} {c.pretty()}" for i, c in enumerate(self.kept))
        return Event(
            "restocked",
            f"Restock: the bases keep {names}; {self.cards} cards go into four face-down "
            "stocks (B9)",
            {"kept": [str(c) for c in self.kept], "cards": self.cards},
        )


@dataclass(frozen=True, slots=True)
class Lost(BeorEvent):
    """B8: the seat had no legal play at the start of its turn."""

    seat: int

    def to_event(self) -> Event:
        return Event(
            "lost", f"{seat_name(self.seat)} cannot play and loses (B8)", {"seat": self.seat}
        )


@dataclass(frozen=True, slots=True)
class Won(BeorEvent):
    """B5: the seat's hand is two groups (``groups``, shown to the table); or B8: it is the last
    player left (``groups`` is None)."""

    seat: int
    groups: Groups | None

    def to_event(self) -> Event:
        who = seat_name(self.seat)
        if self.groups is None:
            text = f"{who} is the last player left and wins (B8)"
        else:
            shown = ", ".join(" ".join(c.pretty() for c in sorted(g)) for g in self.groups)
            text = f"{who} wins with two groups: {shown} (B5)"
        groups: JSON = (
            None if self.groups is None else [[str(c) for c in sorted(g)] for g in self.groups]
        )
        return Event("won", text, {"seat": self.seat, "groups": groups})


@dataclass(frozen=True, slots=True)
class TurnLimit(BeorEvent):
    """B10: the turn limit (option ``max_turns``) was reached; the game is a draw."""

    turns: int

    def to_event(self) -> Event:
        return Event(
            "draw",
            f"Turn limit of {self.turns} reached: the game is a draw (B10)",
            {"turns": self.turns},
        )
