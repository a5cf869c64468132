"""Becker's Game of Death: face-card values (G5), actions and their notation, the deal.

Actions: a card (``7C``) throws it; ``pass``; ``give N>Pk`` gives N of the drinks owed to Player k
(k counts from 1 as people do; the seat is k-1); table penalties ``doh N>Pk`` and ``delay N>Pk``
and the illegal-throw penalty ``illegal 7H`` (G13).

>>> str(parse_action("give 3>p2")), str(parse_action("10c")), str(parse_action("DOH 1>P3"))
('give 3>P2', 'TC', 'doh 1>P3')
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from typing import Any

from parlour.cards import Card, Rank, Suit, deck52, parse_card
from parlour.core.game import Action
from parlour.errors import InvalidNotation

__all__ = [
    "FACE",
    "TABLE_REASONS",
    "Give",
    "IllegalThrow",
    "Pass",
    "Penalty",
    "Throw",
    "is_black_face",
    "parse_action",
    "parse_deal",
]

# G5 and the text's table: black face cards give, red face cards take.
FACE: dict[Card, int] = {
    parse_card(text): value
    for text, value in (
        ("AS", 20), ("KS", 8), ("QS", 6), ("JS", 4),
        ("AH", 5), ("KH", 4), ("QH", 3), ("JH", 2),
        ("AC", 5), ("KC", 4), ("QC", 3), ("JC", 2),
        ("AD", 10), ("KD", 8), ("QD", 6), ("JD", 4),
    )
}  # fmt: skip


def is_black_face(card: Card) -> bool:
    """A black J, Q, K or A: it gives (G5) and costs its holder at the end (G11)."""
    return card in FACE and card.suit in (Suit.SPADES, Suit.CLUBS)


TABLE_REASONS = {"doh": "D'oh!", "delay": "delay of game"}


@dataclass(frozen=True, slots=True)
class Throw(Action):
    """Throw ``card`` on the pile."""

    card: Card

    def __str__(self) -> str:
        return str(self.card)


@dataclass(frozen=True, slots=True)
class Pass(Action):
    """Pass (only with no legal card, G2); the passer drinks 1."""

    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True, slots=True)
class Give(Action):
    """Give ``drinks`` of a black face card's drinks to ``seat`` (G5)."""

    drinks: int
    seat: int

    def __str__(self) -> str:
        return f"give {self.drinks}>P{self.seat + 1}"


@dataclass(frozen=True, slots=True)
class Penalty(Action):
    """A table penalty (G13): ``seat`` drinks ``drinks`` for ``reason`` (``doh`` or ``delay``)."""

    reason: str
    drinks: int
    seat: int

    def __str__(self) -> str:
        return f"{self.reason} {self.drinks}>P{self.seat + 1}"


@dataclass(frozen=True, slots=True)
class IllegalThrow(Action):
    """G13: the player to move threw ``card``, which he may not; he drinks 2 and takes it back."""

    card: Card

    def __str__(self) -> str:
        return f"illegal {self.card}"


PASS = Pass()
_ASSIGN = re.compile(r"^(give|doh|delay)\s+(\d+)\s*>\s*p?(\d+)$", re.IGNORECASE)


def parse_action(text: str) -> Action:
    """Parse an action in the notation above.

    Raises:
        InvalidNotation: naming the text and the forms it may take.
    """
    t = text.strip()
    low = t.lower()
    if low == "pass":
        return PASS
    if low.startswith("illegal "):
        return IllegalThrow(parse_card(t[8:]))
    found = _ASSIGN.match(t)
    if found:
        kind, drinks, player = found.group(1).lower(), int(found.group(2)), int(found.group(3))
        if drinks < 1 or player < 1:
            raise InvalidNotation(f"{t!r}: drinks and player numbers count from 1")
        if kind == "give":
            return Give(drinks, player - 1)
        return Penalty(kind, drinks, player - 1)
    try:
        return Throw(parse_card(t))
    except InvalidNotation:
        raise InvalidNotation(
            f"{t!r} is not an action of the Game of Death: write a card (7C), pass, "
            "give N>Pk, doh N>Pk, delay N>Pk or illegal CARD"
        ) from None


def parse_deal(obj: object, players: int) -> tuple[tuple[Card, ...], ...]:
    """A record's deal ``{"hands": [[cards], ...]}``: one hand a player, the 52 cards exactly
    once (G1: no Jokers).

    Raises:
        InvalidNotation: naming the hand or card at fault.
    """
    if not isinstance(obj, dict) or set(obj) != {"hands"}:
        raise InvalidNotation('a Game of Death deal is {"hands": [[cards], ...]}')
    raw: Any = obj["hands"]
    if not isinstance(raw, list) or len(raw) != players:
        raise InvalidNotation(f"deal hands must be a list of {players} hands, one per player")
    hands: list[tuple[Card, ...]] = []
    for seat, hand in enumerate(raw):
        if not isinstance(hand, list) or not all(isinstance(c, str) for c in hand):
            raise InvalidNotation(f'deal hand {seat + 1} must be a list of cards like ["AS"]')
        try:
            hands.append(tuple(parse_card(c) for c in hand))
        except InvalidNotation as err:
            raise InvalidNotation(f"deal hand {seat + 1}: {err}") from None
    cards = [c for h in hands for c in h]
    counts = Counter(cards)
    twice = [c for c, k in counts.items() if k > 1]
    if twice:
        raise InvalidNotation(f"deal has {twice[0]} {counts[twice[0]]} times")
    jokers = [c for c in cards if c.rank == Rank.JOKER]
    if jokers:
        raise InvalidNotation(f"deal has {jokers[0]}: the Game of Death uses 52 cards (G1)")
    missing = [c for c in deck52() if c not in counts]
    if missing:
        raise InvalidNotation(f"deal is missing {missing[0]}: all 52 cards are dealt (G1)")
    return tuple(hands)
