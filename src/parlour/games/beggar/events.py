"""What an action of Beggar-My-Neighbour does, as typed records: one frozen dataclass per kind,
each telling itself as a core :class:`~parlour.core.log.Event` (``kind``, words, data).

Every event is public: the cards are turned face up on the table, and the rest is what everyone
at the table sees happen (M1-M6, M10, M11, M12).
"""

from __future__ import annotations

from abc import abstractmethod
from dataclasses import dataclass

from parlour.cards import Card
from parlour.core.game import Event, seat_name
from parlour.games.beggar.history import Cycle
from parlour.games.beggar.notation import RankClass, Token, format_token

__all__ = [
    "BeggarEvent",
    "Captured",
    "LimitReached",
    "Looped",
    "Owes",
    "TimeUp",
    "TurnedCard",
    "WentOut",
    "Won",
]


# A card of a rank-only deal (M9) as people say it: its class, since its rank is not known.
_CLASS_SAID = {
    RankClass.ACE: "an ace",
    RankClass.KING: "a king",
    RankClass.QUEEN: "a queen",
    RankClass.JACK: "a jack",
    RankClass.NUMBER: "a number card",
}


def _token_said(token: Token) -> str:
    """``7♥`` for a full card, ``a number card`` or ``a king`` for a rank-only one (M9)."""
    return token.pretty() if isinstance(token, Card) else _CLASS_SAID[token]


def _cards(count: int) -> str:
    return f"{count} card{'s' if count != 1 else ''}"


class BeggarEvent:
    """Base of the typed events; :meth:`event` is how the log tells it."""

    __slots__ = ()

    @abstractmethod
    def event(self) -> Event:
        """The event as the log shows it to every seat."""


@dataclass(frozen=True, slots=True)
class TurnedCard(BeggarEvent):
    """Seed text: the player turns his top card face up onto the pile."""

    seat: int
    card: Token

    def event(self) -> Event:
        return Event(
            "turned",
            f"{seat_name(self.seat)} turns {_token_said(self.card)}",
            {"seat": self.seat, "card": format_token(self.card)},
        )


@dataclass(frozen=True, slots=True)
class Owes(BeggarEvent):
    """M1: a court card demands ``cards`` cards from the next player still in (M5)."""

    seat: int
    cards: int

    def event(self) -> Event:
        return Event(
            "owes",
            f"{seat_name(self.seat)} must pay {_cards(self.cards)}",
            {"seat": self.seat, "cards": self.cards},
        )


@dataclass(frozen=True, slots=True)
class WentOut(BeggarEvent):
    """M3, M5: a player with no card is out."""

    seat: int

    def event(self) -> Event:
        return Event("out", f"{seat_name(self.seat)} is out", {"seat": self.seat})


@dataclass(frozen=True, slots=True)
class Captured(BeggarEvent):
    """M2, M4, M6: a player takes the pile of ``cards`` cards."""

    seat: int
    cards: int

    def event(self) -> Event:
        return Event(
            "captured",
            f"{seat_name(self.seat)} takes the pile ({_cards(self.cards)})",
            {"seat": self.seat, "cards": self.cards},
        )


@dataclass(frozen=True, slots=True)
class Won(BeggarEvent):
    """M6: the last player holding cards wins."""

    seat: int

    def event(self) -> Event:
        return Event("won", f"{seat_name(self.seat)} wins with all 52 cards", {"seat": self.seat})


@dataclass(frozen=True, slots=True)
class Looped(BeggarEvent):
    """M10: a trick-boundary position repeats, so the game never ends."""

    cycle: Cycle

    def event(self) -> Event:
        cycle = self.cycle
        return Event(
            "loop",
            f"The game never ends: the position repeats every {cycle.length_cards} cards "
            f"({cycle.length_tricks} tricks) (M10)",
            cycle.to_json(),
        )


@dataclass(frozen=True, slots=True)
class LimitReached(BeggarEvent):
    """M11: after ``cards`` cards the players holding most cards (``winners``) win."""

    cards: int
    winners: tuple[int, ...]

    def event(self) -> Event:
        names = " and ".join(seat_name(s) for s in self.winners)
        verb = "hold" if len(self.winners) > 1 else "holds"
        return Event(
            "limit",
            f"Card limit of {self.cards} reached: {names} {verb} the most cards (M11)",
            {"cards": self.cards, "winners": list(self.winners)},
        )


@dataclass(frozen=True, slots=True)
class TimeUp(BeggarEvent):
    """M12: the agreed time ran out after ``cards`` cards; the players holding most cards
    (``winners``) win, the pile counting for nobody."""

    cards: int
    winners: tuple[int, ...]

    def event(self) -> Event:
        names = " and ".join(seat_name(s) for s in self.winners)
        return Event(
            "time_up",
            f"Time is up after {_cards(self.cards)}: the most cards are held by {names} (M12)",
            {"cards": self.cards, "winners": list(self.winners)},
        )
