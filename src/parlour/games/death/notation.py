"""Becker's Game of Death: face-card values (G5), actions and table entries and their
notation, the integer action codec, the deal.

Actions: a card (``7C``) throws it; ``pass``; ``give N>Pk`` gives N of the drinks owed to Player
k (k counts from 1 as people do; the seat is k-1). Table entries (G13), which are no player
actions: ``doh Pk`` and ``delay Pk`` (one drink for Player k; the old ``doh 1>Pk`` is read too)
and ``illegal 7H`` (the player to move showed 7H, which does not follow).

>>> str(parse_action("give 3>p2")), str(parse_action("10c")), str(parse_table_entry("DOH 1>P3"))
('give 3>P2', 'TC', 'doh P3')
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from parlour.cards import Card, Rank, Suit, deck52, parse_card
from parlour.core.game import Action
from parlour.core.inputs import quote
from parlour.errors import IllegalAction, InvalidNotation
from parlour.games.death.sentences import said

__all__ = [
    "FACE",
    "GIVES",
    "MAX_GIVE",
    "NUM_DISTINCT_ACTIONS",
    "PASS",
    "TABLE_REASONS",
    "THROWS",
    "Give",
    "IllegalShow",
    "Pass",
    "TablePenalty",
    "Throw",
    "action_from_id",
    "action_id",
    "card_texts",
    "check_deck",
    "is_black_face",
    "is_table_text",
    "parse_action",
    "parse_deal",
    "parse_table_entry",
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


_TEXT: dict[Card, str] = {c: str(c) for c in deck52()}


def card_texts(cards: Iterable[Card]) -> list[str]:
    """The cards' canonical notation (``str``), looked up: JSON and leak checks write many."""
    return [_TEXT[c] for c in cards]


def is_black_face(card: Card) -> bool:
    """A black J, Q, K or A: it gives (G5) and costs its holder at the end (G11)."""
    return card in FACE and card.suit in (Suit.SPADES, Suit.CLUBS)


TABLE_REASONS = {"doh": "D'oh!", "delay": "delay of game"}
"""The table penalties of G13, by their notation."""


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
class TablePenalty:
    """A table entry (G13): ``seat`` drinks one for ``reason`` (``doh`` or ``delay``)."""

    reason: str
    seat: int

    def __str__(self) -> str:
        return f"{self.reason} P{self.seat + 1}"


@dataclass(frozen=True, slots=True)
class IllegalShow:
    """A table entry (G13): the player to move threw ``card``, which does not follow; he
    drinks 2 and the card goes back to his hand."""

    card: Card

    def __str__(self) -> str:
        return f"illegal {self.card}"


PASS = Pass()
MAX_GIVE = 20  # G5: the Ace of Spades gives 20, the most one card gives
# Actions are made once: building frozen dataclasses is the slowest part of listing actions.
THROWS: dict[Card, Throw] = {c: Throw(c) for c in deck52()}
GIVES: dict[int, dict[int, Give]] = {
    k: {s: Give(k, s) for s in range(10)} for k in range(1, MAX_GIVE + 1)
}

# The integer codec: the 52 throws in deck52() order, the pass, then give K>Pn for K = 1..20
# and the seats 0..9 (G1: at most 10 players).
_SEATS = 10
_PASS_ID = 52
_GIVE_BASE = 53
NUM_DISTINCT_ACTIONS = 52 + 1 + MAX_GIVE * _SEATS
_CARD_ID = {c: i for i, c in enumerate(deck52())}
_BY_ID: tuple[Action, ...] = (
    *THROWS.values(),
    PASS,
    *(GIVES[k][s] for k in range(1, MAX_GIVE + 1) for s in range(_SEATS)),
)


def action_id(action: Action) -> int:
    """The integer of ``action`` (see the codec above).

    Raises:
        InvalidNotation: not an action of the Game of Death, or a give the codec cannot hold.
    """
    if isinstance(action, Throw) and action.card in _CARD_ID:
        return _CARD_ID[action.card]
    if isinstance(action, Pass):
        return _PASS_ID
    if isinstance(action, Give) and 1 <= action.drinks <= MAX_GIVE and 0 <= action.seat < _SEATS:
        return _GIVE_BASE + (action.drinks - 1) * _SEATS + action.seat
    raise InvalidNotation(f"{quote(action)} is not an action of the Game of Death with an id")


def action_from_id(number: int) -> Action:
    """The action with id ``number``, already checked to be in range."""
    return _BY_ID[number]


# Numbers in ASCII digits, at most 6 of them: ``\d`` would take other scripts' digits, and a
# number of thousands of digits cannot even be converted (int() refuses past 4,300).
_GIVE = re.compile(r"^give\s+([0-9]{1,6})\s*>\s*p?([0-9]{1,6})$", re.IGNORECASE)
_PENALTY = re.compile(r"^(doh|delay)\s+(?:([0-9]{1,6})\s*>\s*)?p?([0-9]{1,6})$", re.IGNORECASE)


def parse_action(text: str) -> Action:
    """Parse a player action in the notation above.

    Raises:
        InvalidNotation: naming the text and the forms it may take.
    """
    t = text.strip()
    if t.lower() == "pass":
        return PASS
    found = _GIVE.match(t)
    if found:
        drinks, player = int(found.group(1)), int(found.group(2))
        if drinks < 1 or player < 1:
            raise InvalidNotation(said("refusal.count_from_1", text=quote(t)))
        return Give(drinks, player - 1)
    try:
        return Throw(parse_card(t))
    except InvalidNotation:
        key = "refusal.notation.table" if is_table_text(t) else "refusal.notation"
        raise InvalidNotation(said(key, text=quote(t))) from None


def is_table_text(text: str) -> bool:
    """Whether ``text`` is written as a table entry (``doh``, ``delay`` or ``illegal``)."""
    return text.strip().split(" ", 1)[0].lower() in ("doh", "delay", "illegal")


def parse_table_entry(text: str) -> TablePenalty | IllegalShow:
    """Parse a table entry: ``doh Pk``, ``delay Pk`` (also the old ``doh 1>Pk``) or
    ``illegal CARD`` (G13).

    Raises:
        InvalidNotation: naming the text and the forms it may take.
        IllegalAction: a penalty of more than one drink (G13: one drink each).
    """
    t = text.strip()
    word, _, rest = t.partition(" ")
    if word.lower() == "illegal" and rest.strip():
        return IllegalShow(parse_card(rest))
    found = _PENALTY.match(t)
    if found is None:
        raise InvalidNotation(said("refusal.entry.notation", text=quote(t)))
    reason, drinks, player = found.group(1).lower(), found.group(2), int(found.group(3))
    if player < 1 or (drinks is not None and int(drinks) < 1):
        raise InvalidNotation(said("refusal.count_from_1", text=quote(t)))
    if drinks is not None and int(drinks) > 1:
        key = f"refusal.penalty.one_drink.{reason}"
        raise IllegalAction(said(key, text=quote(t), drinks=int(drinks)))
    return TablePenalty(reason, player - 1)


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
    check_deck(tuple(c for h in hands for c in h), "deal")
    return tuple(hands)


def check_deck(cards: tuple[Card, ...], what: str) -> None:
    """G1: the 52 cards, each once, no Jokers.

    Raises:
        InvalidNotation: naming ``what`` and the card at fault.
    """
    counts = Counter(cards)
    twice = [c for c, k in counts.items() if k > 1]
    if twice:
        raise InvalidNotation(f"{what} has {twice[0]} {counts[twice[0]]} times")
    jokers = [c for c in cards if c.rank == Rank.JOKER]
    if jokers:
        raise InvalidNotation(f"{what} has {jokers[0]}: the Game of Death uses 52 cards (G1)")
    missing = [c for c in deck52() if c not in counts]
    if missing:
        raise InvalidNotation(f"{what} is missing {missing[0]}: all 52 cards are dealt (G1)")
