"""What a Game of Death step did, as typed records: one frozen dataclass per kind, each making
the core :class:`~parlour.core.log.Event` people and machines read.

Every event of the Game of Death is public: each throw, pass, give and drink is made at the
table in plain view (RULINGS "Public information"), and the card of an illegal throw is shown
(G13). A sober player's drinks are said as points (G14).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from enum import Enum

from parlour.cards import Card
from parlour.core.game import JSON, seat_name
from parlour.core.log import Event
from parlour.games.death.options import DeathOptions

__all__ = [
    "DeathEvent",
    "Drank",
    "EndWhy",
    "Ended",
    "Gave",
    "LastCard",
    "OwesGive",
    "Passed",
    "Social",
    "SweepWhy",
    "Swept",
    "Threw",
    "Why",
    "drink_words",
]


def drink_words(seat: int, drinks: int, options: DeathOptions) -> str:
    """``Player 2 drinks 6``, or ``Player 2 takes 6 points`` for a sober player (G14)."""
    if seat in options.sober:
        return f"{seat_name(seat)} takes {drinks} point{'s' if drinks != 1 else ''}"
    return f"{seat_name(seat)} drinks {drinks}"


class Why(Enum):
    """Why a player drinks: the event kind and the words naming the ruling (``{card}`` and
    ``{other}`` name the cards, ``{value}`` the drinks)."""

    PASS = ("drank", "pass (G2)")
    BROKEN = ("drank", "suit broken (G4)")
    DOWN = ("drank", "{card} under {other} (G3)")
    TAKE = ("drank", "{card} takes {value} (G5)")
    HAND = ("hand_penalty", "still holding {card} (G11)")
    ILLEGAL = ("penalty", "illegal throw of {card}; it goes back (G13)")
    DOH = ("penalty", "D'oh! (G13)")
    DELAY = ("penalty", "delay of game (G13)")

    def __init__(self, kind: str, words: str) -> None:
        self.kind = kind
        self.words = words


class SweepWhy(Enum):
    """Why the pile is swept (G8, G9)."""

    ACE = "an Ace (G8)"
    ALL_PASS = "everyone else passed (G9)"


class EndWhy(Enum):
    """Why the game ends (G8, G10)."""

    ACE = "ace"
    FIRST_OUT = "first_out"


class DeathEvent(ABC):
    """One thing a step did; :meth:`event` tells it."""

    __slots__ = ()

    @abstractmethod
    def event(self, options: DeathOptions) -> Event:
        """The event in words and data (``options.sober`` decides drinks or points, G14)."""


def _pretty(card: Card | None) -> str:
    return "" if card is None else card.pretty()


@dataclass(frozen=True, slots=True)
class Drank(DeathEvent):
    """``seat`` drinks ``drinks`` for ``why``; ``card`` and ``other`` are the cards it names."""

    seat: int
    drinks: int
    why: Why
    card: Card | None = None
    other: Card | None = None

    def event(self, options: DeathOptions) -> Event:
        reason = self.why.words.format(
            card=_pretty(self.card), other=_pretty(self.other), value=self.drinks
        )
        data: dict[str, JSON] = {
            "seat": self.seat,
            "drinks": self.drinks,
            "reason": reason,
            "why": self.why.name.lower(),
        }
        # The cards are named in the words already (thrown, or shown at the end: public).
        if self.card is not None:
            data["card"] = str(self.card)
        if self.other is not None:
            data["other"] = str(self.other)
        return Event(
            self.why.kind, f"{drink_words(self.seat, self.drinks, options)}: {reason}", data
        )


@dataclass(frozen=True, slots=True)
class Threw(DeathEvent):
    """``seat`` throws ``card`` on the pile (G2)."""

    seat: int
    card: Card

    def event(self, options: DeathOptions) -> Event:
        return Event(
            "threw",
            f"{seat_name(self.seat)} throws {self.card.pretty()}",
            {"seat": self.seat, "card": str(self.card)},
        )


@dataclass(frozen=True, slots=True)
class LastCard(DeathEvent):
    """``seat`` has thrown his last card, the first to do so (G10)."""

    seat: int

    def event(self, options: DeathOptions) -> Event:
        return Event(
            "last_card", f"{seat_name(self.seat)} has thrown his last card", {"seat": self.seat}
        )


@dataclass(frozen=True, slots=True)
class OwesGive(DeathEvent):
    """``seat`` threw ``card``, a black face card, and gives ``drinks`` (G5)."""

    seat: int
    drinks: int
    card: Card

    def event(self, options: DeathOptions) -> Event:
        return Event(
            "owes_give",
            f"{seat_name(self.seat)} gives {self.drinks} for {self.card.pretty()} (G5)",
            {"seat": self.seat, "drinks": self.drinks, "card": str(self.card)},
        )


@dataclass(frozen=True, slots=True)
class Social(DeathEvent):
    """The four cards of ``card``'s rank came in a row: everyone drinks 1 (G7)."""

    card: Card

    def event(self, options: DeathOptions) -> Event:
        return Event("social", "Social! everyone drinks 1 (G7)", {"rank": self.card.rank.letter})


@dataclass(frozen=True, slots=True)
class Gave(DeathEvent):
    """``seat`` gives ``drinks`` to ``target`` (G5)."""

    seat: int
    target: int
    drinks: int

    def event(self, options: DeathOptions) -> Event:
        return Event(
            "gave",
            f"{seat_name(self.seat)} gives {self.drinks} to {seat_name(self.target)}",
            {"seat": self.seat, "to": self.target, "drinks": self.drinks},
        )


@dataclass(frozen=True, slots=True)
class Swept(DeathEvent):
    """The pile is swept and ``leader`` leads (G8, G9)."""

    leader: int
    why: SweepWhy

    def event(self, options: DeathOptions) -> Event:
        return Event(
            "swept",
            f"The pile is swept after {self.why.value}; {seat_name(self.leader)} leads",
            {"leader": self.leader, "why": self.why.name.lower()},
        )


@dataclass(frozen=True, slots=True)
class Passed(DeathEvent):
    """``seat`` passes (G2)."""

    seat: int

    def event(self, options: DeathOptions) -> Event:
        return Event("passed", f"{seat_name(self.seat)} passes", {"seat": self.seat})


@dataclass(frozen=True, slots=True)
class Ended(DeathEvent):
    """The game ends: an Ace's thrower has no card to lead (G8), or the turn comes back to
    ``seat``, the first out (G10)."""

    why: EndWhy
    seat: int

    def event(self, options: DeathOptions) -> Event:
        who = seat_name(self.seat)
        text = (
            f"{who} threw an Ace and has no card to lead (G8)"
            if self.why is EndWhy.ACE
            else f"the turn comes back to {who}, the first out (G10)"
        )
        return Event("ended", f"The game ends: {text}", {"why": self.why.value, "seat": self.seat})
