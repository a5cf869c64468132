"""Cards, ranks, suits, decks and the card notation of RULINGS "Common".

Rank ``A 2 3 4 5 6 7 8 9 T J Q K`` followed by suit ``S H D C``: ``AS``, ``TH``, ``7C``.
Parsing also accepts ``10H``, lower case and the suit symbols ♠♥♦♣; Jokers are ``JK1`` and
``JK2``. ``str()`` of a card is the canonical ASCII form and ``parse_card(str(c)) == c``.

>>> parse_card("10♥")
Card(Rank.TEN, Suit.HEARTS)
>>> str(parse_card("10♥")), parse_card("qs").pretty()
('TH', 'Q♠')
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from enum import Enum, IntEnum

from parlour.errors import InvalidNotation

__all__ = [
    "JOKERS",
    "Card",
    "Rank",
    "Suit",
    "deck52",
    "deck54",
    "format_cards",
    "parse_card",
    "parse_cards",
    "shuffled",
]


class Suit(Enum):
    """The four suits; the value is the canonical letter."""

    SPADES = "S"
    HEARTS = "H"
    DIAMONDS = "D"
    CLUBS = "C"

    # A member is its one object and equals only itself: hashing it by identity (at C speed)
    # agrees with that, where Enum's own hash calls Python to hash the member's name.
    __hash__ = object.__hash__

    @property
    def symbol(self) -> str:
        return _SUIT_SYMBOLS[self]

    @property
    def is_red(self) -> bool:
        return self in (Suit.HEARTS, Suit.DIAMONDS)

    @property
    def is_black(self) -> bool:
        return not self.is_red


_CARDS: dict[tuple[Rank, Suit | None, int], Card] = {}
_SUIT_ORDER = {Suit.SPADES: 0, Suit.HEARTS: 1, Suit.DIAMONDS: 2, Suit.CLUBS: 3}
_SUIT_SYMBOLS = {Suit.SPADES: "♠", Suit.HEARTS: "♥", Suit.DIAMONDS: "♦", Suit.CLUBS: "♣"}


class Rank(IntEnum):
    """Ranks valued A=1 .. K=13; the Joker ranks 0 and has no suit."""

    JOKER = 0
    ACE = 1
    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13

    @property
    def letter(self) -> str:
        return _RANK_LETTERS[self]

    @property
    def is_court(self) -> bool:
        """J, Q, K and A: the court or face cards."""
        return self in (Rank.JACK, Rank.QUEEN, Rank.KING, Rank.ACE)


_RANK_LETTERS = {
    Rank.JOKER: "JK",
    Rank.ACE: "A",
    Rank.TWO: "2",
    Rank.THREE: "3",
    Rank.FOUR: "4",
    Rank.FIVE: "5",
    Rank.SIX: "6",
    Rank.SEVEN: "7",
    Rank.EIGHT: "8",
    Rank.NINE: "9",
    Rank.TEN: "T",
    Rank.JACK: "J",
    Rank.QUEEN: "Q",
    Rank.KING: "K",
}
_RANK_BY_TEXT = {letter: rank for rank, letter in _RANK_LETTERS.items() if rank != Rank.JOKER}
_RANK_BY_TEXT["10"] = Rank.TEN
_SUIT_BY_TEXT = {s.value: s for s in Suit} | {s.symbol: s for s in Suit}


@dataclass(frozen=True, slots=True, eq=False)
class Card:
    """One card. Jokers have ``rank == Rank.JOKER``, no suit and a number (1 or 2).

    There is one object per card: ``Card(Rank.ACE, Suit.SPADES)`` always returns the same
    object, so cards compare and hash by identity, at C speed, on the engines' hot paths.
    """

    rank: Rank
    suit: Suit | None = None
    joker: int = 0
    # A small int naming the card, in sort order.
    code: int = field(init=False, repr=False, compare=False)
    # The canonical text (``str()``), made once: records and views write cards by the
    # thousand.
    text: str = field(init=False, repr=False, compare=False)

    def __new__(cls, rank: Rank, suit: Suit | None = None, joker: int = 0) -> Card:
        cached = _CARDS.get((rank, suit, joker))
        return cached if cached is not None else object.__new__(cls)

    def __post_init__(self) -> None:
        if self.rank == Rank.JOKER:
            if self.suit is not None or self.joker not in (1, 2):
                raise ValueError("a Joker has no suit and is JK1 or JK2")
        elif self.suit is None or self.joker:
            raise ValueError("a card other than a Joker needs a suit")
        suit = 0 if self.suit is None else _SUIT_ORDER[self.suit] + 1
        object.__setattr__(self, "code", int(self.rank) * 16 + suit * 4 + self.joker)
        text = f"JK{self.joker}" if self.suit is None else self.rank.letter + self.suit.value
        object.__setattr__(self, "text", text)
        _CARDS.setdefault((self.rank, self.suit, self.joker), self)

    def __reduce__(self) -> tuple[type[Card], tuple[Rank, Suit | None, int]]:
        # Unpickling and copying go through __new__, so they give the one object too.
        return (Card, (self.rank, self.suit, self.joker))

    @property
    def is_joker(self) -> bool:
        return self.rank == Rank.JOKER

    def __lt__(self, other: Card) -> bool:
        """Sort order: by rank (A low, Jokers first), then suit S H D C."""
        return self.code < other.code

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        if self.suit is None:
            return f"Card(Rank.JOKER, joker={self.joker})"
        return f"Card(Rank.{self.rank.name}, Suit.{self.suit.name})"

    def pretty(self) -> str:
        """People's form with a suit symbol: ``10♥``, ``Q♠``, ``JK1``."""
        if self.suit is None:
            return str(self)
        rank = "10" if self.rank == Rank.TEN else self.rank.letter
        return rank + self.suit.symbol


JOKERS = (Card(Rank.JOKER, joker=1), Card(Rank.JOKER, joker=2))


def parse_card(text: str) -> Card:
    """Parse one card in RULINGS "Common" notation.

    Raises:
        InvalidNotation: naming the text when it is not a card.
    """
    card = _BY_TEXT.get(text)  # the canonical form, as records and views write it
    if card is not None:
        return card
    t = text.strip().upper()
    if t in ("JK1", "JK2"):
        return JOKERS[int(t[2]) - 1]
    if len(t) >= 2:
        rank = _RANK_BY_TEXT.get(t[:-1])
        suit = _SUIT_BY_TEXT.get(t[-1])
        if rank is not None and suit is not None:
            return _DECK52[_INDEX[(rank, suit)]]
    shown = text.strip()
    if len(shown) > 24:  # a message stays one short line, whatever was typed
        shown = shown[:21] + "..."
    raise InvalidNotation(
        f"{shown!r} is not a card: write rank A 2-9 T J Q K then suit S H D C, "
        "e.g. AS, TH, 7C (or JK1, JK2)",
        key="refusal.card",  # a game that reads cards at its table says it in its words
        values={"text": repr(shown)},
    )


def parse_cards(text: str) -> tuple[Card, ...]:
    """Parse cards separated by spaces or commas, e.g. ``"AS TH 7C"``."""
    return tuple(parse_card(tok) for tok in text.replace(",", " ").split())


def format_cards(cards: tuple[Card, ...] | list[Card], *, pretty: bool = False) -> str:
    """Cards joined by spaces; ``parse_cards(format_cards(cs)) == cs``."""
    return " ".join(c.pretty() if pretty else str(c) for c in cards)


# One object per card, shared by every deck and parse: dict and set look-ups on the engines' hot
# paths then match by identity before they ever compare.
_DECK52 = tuple(Card(r, s) for s in Suit for r in Rank if r != Rank.JOKER)
_INDEX = {(c.rank, c.suit): i for i, c in enumerate(_DECK52)}
_BY_TEXT = {c.text: c for c in _DECK52 + JOKERS}


def deck52() -> tuple[Card, ...]:
    """The 52-card deck in a fixed order (suits S H D C, ranks A..K)."""
    return _DECK52


def deck54() -> tuple[Card, ...]:
    """The 52-card deck followed by the two Jokers."""
    return deck52() + JOKERS


def shuffled(cards: tuple[Card, ...], rng: random.Random) -> tuple[Card, ...]:
    """A shuffled copy, driven only by the caller's generator (no global random state)."""
    out = list(cards)
    rng.shuffle(out)
    return tuple(out)
