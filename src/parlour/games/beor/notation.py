"""BEOR themes (B4), the goal (B5), action notation and the deal of a record.

Actions: ``CARD>BASE`` plays CARD on BASE and draws from that base's stock; ``CARD>BASE/STOCK``
(4s and 7s only, B7) draws from STOCK instead. Bases and stocks are ``black even odd red``;
input also takes ``b e o r`` in any case.

Every move some position may allow is listed once, in a fixed order, in :data:`ACTIONS`: its
index there is its integer id (164 in all: each card on the bases its theme fits, B4, and a 4
or 7 drawing from any other stock, B7), and :data:`MOVES_BY_MASK` gives each card's legal moves
for every set of non-empty stocks.

>>> parse_action("7h>R/b")
Move(card=Card(Rank.SEVEN, Suit.HEARTS), base=3, stock=0)
>>> str(parse_action("7h>R/b")), str(parse_action("jk1>o"))
('7H>red/black', 'JK1>odd')
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import combinations

from parlour.cards import JOKERS, Card, Rank, deck52, deck54, parse_card
from parlour.core.game import Action
from parlour.core.inputs import quote
from parlour.errors import InvalidNotation
from parlour.games.beor.sentences import said

__all__ = [
    "ACTIONS",
    "ACTION_IDS",
    "BASES",
    "BLACK",
    "EVEN",
    "FITS",
    "FITS_AT_SETUP",
    "MOVES_BY_MASK",
    "ODD",
    "RED",
    "Move",
    "base_index",
    "fits",
    "fits_at_setup",
    "goal_groups",
    "is_goal",
    "parse_action",
    "shows_theme",
    "why_not_fits",
]

BASES = ("black", "even", "odd", "red")
BLACK, EVEN, ODD, RED = range(4)
_BASE_BY_TEXT = {name: i for i, name in enumerate(BASES)} | {
    name[0]: i for i, name in enumerate(BASES)
}


def base_index(text: str) -> int:
    """``black``/``b`` ... ``red``/``r`` (any case) as 0..3; InvalidNotation otherwise."""
    key = text.strip().lower()
    if key not in _BASE_BY_TEXT:
        raise InvalidNotation(said("refusal.not_a_base", text=quote(text.strip())))
    return _BASE_BY_TEXT[key]


def fits(card: Card, base: int) -> bool:
    """B4: Black ♠♣, Red ♥♦, Even/Odd by value (A=1, J=11, Q=12); a King fits its colour, Even
    and Odd; a Joker fits all four. Legality never depends on the base's top card."""
    if card.suit is None:
        return True
    if base == BLACK:
        return card.suit.is_black
    if base == RED:
        return card.suit.is_red
    if card.rank == Rank.KING:
        return True
    return (int(card.rank) % 2 == 0) == (base == EVEN)


def fits_at_setup(card: Card, base: int) -> bool:
    """B2: at setup a King counts only for its colour; Jokers are set aside."""
    if card.suit is None:
        return False
    if card.rank == Rank.KING and base in (EVEN, ODD):
        return False
    return fits(card, base)


def shows_theme(card: Card, base: int, *, skip_jokers: bool) -> bool:
    """B9: a card that shows its base's theme (Kings never on Even/Odd; Jokers only when the
    option ``restock_skip_jokers`` is off)."""
    if card.suit is None:
        return not skip_jokers
    return fits_at_setup(card, base)


def why_not_fits(card: Card, base: int) -> str:
    """The B4 refusal for a card that does not fit ``base``."""
    key = f"refusal.fits.{BASES[base]}"  # black takes no red card, even no odd rank ...
    if base in (BLACK, RED):
        return said(key, card=str(card))
    return said(key, card=str(card), rank=card.rank.letter)


@dataclass(frozen=True, slots=True)
class Move(Action):
    """Play ``card`` on base ``base`` and draw from ``stock`` (``None``: the base's own)."""

    card: Card
    base: int
    stock: int | None = None
    # The notation, made once: every move played is written into the log's step.
    _text: str = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        text = f"{self.card}>{BASES[self.base]}"
        text = text if self.stock is None else f"{text}/{BASES[self.stock]}"
        object.__setattr__(self, "_text", text)

    def __str__(self) -> str:
        return self._text

    @property
    def draw_from(self) -> int:
        return self.base if self.stock is None else self.stock


FITS: dict[Card, tuple[bool, bool, bool, bool]] = {
    c: (fits(c, 0), fits(c, 1), fits(c, 2), fits(c, 3)) for c in deck54()
}
"""B4 for every card and base, looked up on the hot path."""

FITS_AT_SETUP: dict[Card, tuple[bool, bool, bool, bool]] = {
    c: (fits_at_setup(c, 0), fits_at_setup(c, 1), fits_at_setup(c, 2), fits_at_setup(c, 3))
    for c in deck54()
}
"""B2 for every card and base (the deal's choice of bases looks it up)."""


def _moves_of(card: Card, open_stocks: int) -> tuple[Move, ...]:
    """Every legal move of ``card`` while the stocks in the bit mask ``open_stocks`` (bit i:
    stock i not empty) have cards: B4 themes on bases with stock, and B7 draws for a 4 or 7."""
    out: list[Move] = []
    for base in range(4):
        if FITS[card][base] and open_stocks >> base & 1:
            out.append(Move(card, base))
            if card.rank in (Rank.FOUR, Rank.SEVEN):
                out += [Move(card, base, s) for s in range(4) if s != base and open_stocks >> s & 1]
    return tuple(out)


# Moves are made once, for every card and every set of non-empty stocks: building frozen
# dataclasses is the slowest part of listing actions. MOVES_BY_MASK[mask][card] reuses the
# objects of ACTIONS, so a legal move is found in ACTION_IDS at identity speed.
_EVERY = {c: _moves_of(c, 0b1111) for c in sorted(deck54())}
ACTIONS: tuple[Move, ...] = tuple(m for moves in _EVERY.values() for m in moves)
"""Every move that some position may allow, in id order: cards in sort order, then bases, the
base's own stock first (B4, B7)."""
ACTION_IDS: dict[Move, int] = {m: i for i, m in enumerate(ACTIONS)}
MOVES_BY_MASK: tuple[dict[Card, tuple[Move, ...]], ...] = tuple(
    {
        c: tuple(m for m in every if open_stocks >> m.base & 1 and open_stocks >> m.draw_from & 1)
        for c, every in _EVERY.items()
    }
    for open_stocks in range(16)
)


def parse_action(text: str) -> Move:
    """Parse ``CARD>BASE`` or ``CARD>BASE/STOCK`` (a stock equal to the base is dropped).

    Raises:
        InvalidNotation: naming the part that is not a card or a base.
    """
    card_text, sep, rest = text.strip().partition(">")
    if not sep:
        raise InvalidNotation(said("refusal.notation", text=quote(text.strip())))
    base_text, slash, stock_text = rest.partition("/")
    card = parse_card(card_text)
    base = base_index(base_text)
    stock = base_index(stock_text) if slash else None
    return Move(card, base, None if stock == base else stock)


def _is_group(a: Card, b: Card, c: Card) -> bool:
    """B5: a set (three of one rank, K-K-K too, no Jokers) or a run (three consecutive ranks of
    one suit, A low, A..Q, no wrap, no King, no Joker)."""
    if a.suit is None or b.suit is None or c.suit is None:
        return False
    if a.rank == b.rank == c.rank:
        return True
    if not a.suit == b.suit == c.suit:
        return False
    ranks = sorted((int(a.rank), int(b.rank), int(c.rank)))
    return ranks[2] <= int(Rank.QUEEN) and ranks[1] == ranks[0] + 1 and ranks[2] == ranks[1] + 1


def _all_groups() -> frozenset[frozenset[Card]]:
    """Every B5 group of three cards: 52 sets and 40 runs."""
    return frozenset(frozenset(trio) for trio in combinations(deck52(), 3) if _is_group(*trio))


GROUPS = _all_groups()


def goal_groups(hand: Sequence[Card]) -> tuple[tuple[Card, ...], tuple[Card, ...]] | None:
    """B5: the two groups of three that make ``hand`` (6 cards) a winning hand, or None."""
    if len(hand) != 6:
        return None
    first, rest = hand[0], hand[1:]
    # Most hands fail here: the first card needs two partners to be in any group at all.
    if len(PARTNERS[first].intersection(rest)) < 2:
        return None
    groups = GROUPS
    for x, y in _PAIRS:
        if frozenset((first, rest[x], rest[y])) in groups:
            other = tuple(rest[i] for i in range(5) if i != x and i != y)
            if frozenset(other) in groups:
                return (first, rest[x], rest[y]), other
    return None


_PAIRS = tuple(combinations(range(5), 2))
PARTNERS: dict[Card, frozenset[Card]] = {
    card: frozenset(other for g in GROUPS if card in g for other in g if other != card)
    for card in deck52()
}
PARTNERS.update({joker: frozenset() for joker in JOKERS})


def is_goal(hand: Sequence[Card]) -> bool:
    """B5: six cards forming two groups of three."""
    return goal_groups(hand) is not None
