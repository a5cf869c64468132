"""Beggar-My-Neighbour deal notation (ruling M9) and the card classes that play sees.

One string per hand, top card first, hands separated by ``/``, the first hand leads: ``A K Q J``
for court cards and ``-`` for any number card (rank-only), or full cards separated by spaces
(``AS TH 7C ...``). A deal uses the cards of one deck exactly once: rank-only, 4 of each court
rank and 36 numbers. Hands are as even as possible (seed text "Setup"; M7 deals from seat 0).

>>> text = "--Q-K--K-AQ-------J--A-J--/------Q-----JA---AKQ---K-J"
>>> deal = parse_deal(text)
>>> [len(h) for h in deal], format_deal(deal) == text
([26, 26], True)
"""

from __future__ import annotations

import random
from collections import Counter
from enum import Enum
from typing import TypeAlias

from parlour.cards import Card, Rank, deck52, parse_card
from parlour.core.inputs import quote
from parlour.errors import InvalidNotation

__all__ = [
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "Deal",
    "RankClass",
    "Token",
    "check_one_deck",
    "deal_sizes",
    "format_deal",
    "format_deal_ranks",
    "format_token",
    "honour",
    "is_full_card_deal",
    "parse_deal",
    "parse_token",
    "random_deal",
]

MIN_PLAYERS = 2
MAX_PLAYERS = 4


class RankClass(Enum):
    """A card known only by its class, as rank-only deals give it (M9)."""

    ACE = "A"
    KING = "K"
    QUEEN = "Q"
    JACK = "J"
    NUMBER = "-"

    __hash__ = object.__hash__  # identity, at C speed, as Suit's (parlour.cards)

    def __str__(self) -> str:
        return self.value


Token: TypeAlias = Card | RankClass
"""A card in play: a full card, or its class when the deal was given rank-only."""

Deal: TypeAlias = tuple[tuple[Token, ...], ...]
"""Hands by seat, each top card first."""

_HONOUR_BY_RANK = {Rank.JACK: 1, Rank.QUEEN: 2, Rank.KING: 3, Rank.ACE: 4}
_CLASS_BY_HONOUR = {
    0: RankClass.NUMBER,
    1: RankClass.JACK,
    2: RankClass.QUEEN,
    3: RankClass.KING,
    4: RankClass.ACE,
}
# Ruling M1: J, Q, K, A demand 1, 2, 3, 4 cards; number cards demand none.
HONOUR: dict[Token, int] = {c: _HONOUR_BY_RANK.get(c.rank, 0) for c in deck52()}
HONOUR.update({cls: h for h, cls in _CLASS_BY_HONOUR.items()})
_CLASS: dict[Token, RankClass] = {t: _CLASS_BY_HONOUR[h] for t, h in HONOUR.items()}
_RANK_ONLY_CHARS = frozenset("AKQJ-")
_DECK_CLASSES = Counter({"A": 4, "K": 4, "Q": 4, "J": 4, "-": 36})
_CLASS_NAMES = {"A": "aces", "K": "kings", "Q": "queens", "J": "jacks", "-": "number cards"}


def honour(token: Token) -> int:
    """How many cards the next player must pay for ``token`` (M1); 0 for a number card."""
    return HONOUR[token]


def format_token(token: Token, *, pretty: bool = False) -> str:
    """``KS`` (or ``K♠`` when pretty) for a full card, ``K`` or ``-`` for a class."""
    if isinstance(token, Card):
        return token.pretty() if pretty else str(token)
    return token.value


def parse_token(text: str) -> Token:
    """A card as :func:`format_token` writes it: ``A K Q J -`` for a class, ``KS`` (or any
    card notation :func:`parlour.cards.parse_card` reads) for a full card.

    Raises:
        InvalidNotation: neither a class nor a card of the 52-card deck.
    """
    if text in _RANK_ONLY_CHARS:
        return RankClass(text)
    card = parse_card(text)
    if card.is_joker:
        raise InvalidNotation(f"{text}: Beggar-My-Neighbour uses 52 cards, no Jokers")
    return card


def deal_sizes(players: int) -> tuple[int, ...]:
    """Hand sizes when 52 cards are dealt one at a time from seat 0 (M7): 3 players 18/17/17."""
    return tuple(52 // players + (1 if seat < 52 % players else 0) for seat in range(players))


def is_full_card_deal(deal: Deal) -> bool:
    return any(isinstance(t, Card) for hand in deal for t in hand)


def _parse_hand(text: str, seat: int) -> tuple[Token, ...]:
    body = "".join(text.split()).upper()
    if body and set(body) <= _RANK_ONLY_CHARS:
        return tuple(RankClass(ch) for ch in body)
    tokens = text.replace(",", " ").split()
    if len(tokens) == 1 and len(body) > 3:
        # One long word is a rank-only hand with a stray character; say which.
        index, char = next((i, ch) for i, ch in enumerate(body) if ch not in _RANK_ONLY_CHARS)
        raise InvalidNotation(
            f"hand {seat + 1} of the deal: unknown character {quote(char)} "
            f"at position {index + 1}; "
            "rank-only hands use A K Q J for court cards and - for number cards (M9)"
        )
    hand: list[Token] = []
    for tok in tokens:
        try:
            hand.append(parse_card(tok))
        except InvalidNotation:
            raise InvalidNotation(
                f"hand {seat + 1} of the deal: {quote(tok)} is neither a card (AS, TH, 7C) nor a "
                "rank-only hand of A K Q J and - (M9)"
            ) from None
    return tuple(hand)


def parse_deal(text: str, players: int | None = None) -> Deal:
    """Parse and check a deal in M9 notation.

    Raises:
        InvalidNotation: wrong number of hands, unknown characters, mixed notations, cards not
            of one deck exactly once, or hand sizes other than dealing gives (M7); the message
            names the hand and the problem.
    """
    if not isinstance(text, str) or not text.strip():
        raise InvalidNotation("a deal is one string per hand separated by '/' (M9), got nothing")
    parts = text.strip().split("/")
    if not MIN_PLAYERS <= len(parts) <= MAX_PLAYERS:
        raise InvalidNotation(
            f"a deal has {MIN_PLAYERS} to {MAX_PLAYERS} hands separated by '/' (M9), "
            f"got {len(parts)}"
        )
    if players is not None and len(parts) != players:
        raise InvalidNotation(f"the deal has {len(parts)} hands but the game has {players} players")
    deal = tuple(_parse_hand(part, seat) for seat, part in enumerate(parts))
    full = [is_full_card_deal((hand,)) for hand in deal if hand]
    if any(full) and not all(full):
        raise InvalidNotation(
            "a deal is all rank-only hands or all full-card hands, not a mix (M9)"
        )
    check_one_deck(deal, full_cards=bool(full) and full[0])
    sizes = tuple(len(hand) for hand in deal)
    if max(sizes) - min(sizes) > 1:
        # Seed text: "deal the cards as evenly as possible"; M7 deals the extra cards from
        # seat 0, but any as-even split (17/18/17) is a deal a table could have made.
        expected = deal_sizes(len(deal))
        raise InvalidNotation(
            f"the hands hold {'/'.join(map(str, sizes))} cards; the cards are dealt as evenly "
            f"as possible, e.g. {'/'.join(map(str, expected))} (M7)"
        )
    return deal


def check_one_deck(deal: Deal, *, full_cards: bool) -> None:
    """M9: a deal (or the hands and pile of any position) uses the cards of one deck exactly
    once: 52 full cards, or 4 of each court class and 36 numbers.

    Raises:
        InvalidNotation: naming a card twice, a Joker, the cards missing or the classes held.
    """
    cards = [t for hand in deal for t in hand]
    if full_cards:
        counts = Counter(cards)
        twice = [str(c) for c, k in counts.items() if k > 1]
        if twice:
            raise InvalidNotation(f"{twice[0]} appears {counts[parse_card(twice[0])]} times (M9)")
        jokers = [str(c) for c in cards if isinstance(c, Card) and c.is_joker]
        if jokers:
            raise InvalidNotation(f"{jokers[0]}: Beggar-My-Neighbour uses 52 cards, no Jokers")
        missing = [str(c) for c in deck52() if c not in counts]
        if missing:
            shown = " ".join(missing[:6]) + (" ..." if len(missing) > 6 else "")
            raise InvalidNotation(f"the deal has {len(cards)} cards, not 52: missing {shown} (M9)")
        return
    classes = Counter(format_token(t) for t in cards)
    if classes != _DECK_CLASSES:
        wrong = [
            f"{classes[ch]} {_CLASS_NAMES[ch]}"
            for ch in "AKQJ-"
            if classes[ch] != _DECK_CLASSES[ch]
        ]
        raise InvalidNotation(
            f"a deal holds 4 aces, 4 kings, 4 queens, 4 jacks and 36 number cards (M9); "
            f"this one has {', '.join(wrong)} ({len(cards)} cards)"
        )


def format_deal(deal: Deal) -> str:
    """The deal in the notation it was given: rank-only, or full cards separated by spaces."""
    if is_full_card_deal(deal):
        return "/".join(" ".join(format_token(t) for t in hand) for hand in deal)
    return format_deal_ranks(deal)


def format_deal_ranks(deal: Deal) -> str:
    """The rank-only M9 form of any deal, e.g. ``--A-K.../-Q--...``."""
    return "/".join("".join(_CLASS[t].value for t in hand) for hand in deal)


def random_deal(players: int, rng: random.Random) -> Deal:
    """Shuffle 52 cards with ``rng`` and deal one at a time from seat 0 (M7), top card first."""
    deck = list(deck52())
    rng.shuffle(deck)
    return tuple(tuple(deck[seat::players]) for seat in range(players))
