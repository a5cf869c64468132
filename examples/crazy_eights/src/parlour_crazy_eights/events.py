"""What a Crazy Eights step did, as typed records, each telling itself as a core
:class:`~parlour.core.log.Event` in the words of the game's English catalog (``words/en.json``:
one source for every sentence; the ``data`` carry what another language needs).

Only a draw is private: the card drawn is named to its drawer, and the others see that he drew.
At the end every hand is shown and scored, as players count their cards at a table.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass

from parlour.cards import Card, Suit
from parlour.core.game import JSON, seat_name
from parlour.core.log import Event
from parlour.core.words import catalog
from parlour_crazy_eights.notation import SUIT_NAMES
from parlour_crazy_eights.sentences import WORDS

__all__ = [
    "Blocked",
    "C8Event",
    "Dealt",
    "Drew",
    "Nominated",
    "Passed",
    "Played",
    "Showed",
    "Started",
    "TurnLimit",
    "TurnedBack",
    "WentOut",
]


def say(key: str, /, count: int | None = None, **values: object) -> str:
    """The English sentence ``key`` of the game's catalog."""
    return catalog(WORDS, "en")(key, count=count, **values)


class C8Event(ABC):
    """One thing a step (or the deal) did."""

    __slots__ = ()

    @abstractmethod
    def to_event(self) -> Event:
        """The event in words and data, with its audience."""


@dataclass(frozen=True, slots=True)
class Dealt(C8Event):
    """The dealer dealt ``cards`` to each player."""

    dealer: int
    cards: int

    def to_event(self) -> Event:
        text = say("event.dealt", count=self.cards, name=seat_name(self.dealer))
        return Event("dealt", text, {"seat": self.dealer, "cards": self.cards})


@dataclass(frozen=True, slots=True)
class TurnedBack(C8Event):
    """An 8 turned up for the starter goes back into the stock."""

    card: Card

    def to_event(self) -> Event:
        text = say("event.turned_back", card=self.card.pretty())
        return Event("turned_back", text, {"card": str(self.card)})


@dataclass(frozen=True, slots=True)
class Started(C8Event):
    """The starter turned up: the first card of the discard pile; ``first`` plays first."""

    card: Card
    first: int

    def to_event(self) -> Event:
        text = say("event.started", card=self.card.pretty(), name=seat_name(self.first))
        return Event("started", text, {"card": str(self.card), "seat": self.first})


@dataclass(frozen=True, slots=True)
class Played(C8Event):
    seat: int
    card: Card

    def to_event(self) -> Event:
        text = say("event.played", name=seat_name(self.seat), card=self.card.pretty())
        return Event("played", text, {"seat": self.seat, "card": str(self.card)})


@dataclass(frozen=True, slots=True)
class Nominated(C8Event):
    seat: int
    suit: Suit

    def to_event(self) -> Event:
        suit = SUIT_NAMES[self.suit]
        text = say(
            "event.nominated",
            name=seat_name(self.seat),
            suit=say(f"ui.suit.{suit}"),
            symbol=self.suit.symbol,
        )
        return Event("nominated", text, {"seat": self.seat, "suit": suit})


@dataclass(frozen=True, slots=True)
class Drew(C8Event):
    """A card drawn from the stock: named to the drawer only."""

    seat: int
    card: Card

    def to_event(self) -> Event:
        who = seat_name(self.seat)
        unseen = Event("drew", say("event.drew.unseen", name=who), {"seat": self.seat})
        return Event(
            "drew",
            say("event.drew", name=who, card=self.card.pretty()),
            {"seat": self.seat, "card": str(self.card)},
            audience=frozenset({self.seat}),
            redacted=unseen,
        )


@dataclass(frozen=True, slots=True)
class Passed(C8Event):
    seat: int

    def to_event(self) -> Event:
        return Event("passed", say("event.passed", name=seat_name(self.seat)), {"seat": self.seat})


@dataclass(frozen=True, slots=True)
class WentOut(C8Event):
    """The seat played its last card: the game is over."""

    seat: int

    def to_event(self) -> Event:
        return Event("won", say("event.went_out", name=seat_name(self.seat)), {"seat": self.seat})


@dataclass(frozen=True, slots=True)
class Blocked(C8Event):
    """The stock is empty and every player passed in turn, the first twice: the game is over."""

    def to_event(self) -> Event:
        return Event("blocked", say("event.blocked"), {})


@dataclass(frozen=True, slots=True)
class TurnLimit(C8Event):
    """``plays`` cards have been played (option ``max_turns``): the game is over."""

    plays: int

    def to_event(self) -> Event:
        return Event("limit", say("event.limit", count=self.plays), {"plays": self.plays})


@dataclass(frozen=True, slots=True)
class Showed(C8Event):
    """At the end a seat shows its hand and scores its penalty points."""

    seat: int
    cards: tuple[Card, ...]
    points: int

    def to_event(self) -> Event:
        cards: JSON = [str(c) for c in self.cards]
        if self.cards:
            shown = " ".join(c.pretty() for c in self.cards)
            text = say("event.showed", count=self.points, name=seat_name(self.seat), cards=shown)
        else:
            text = say("event.showed.empty", name=seat_name(self.seat))
        return Event("showed", text, {"seat": self.seat, "cards": cards, "points": self.points})
