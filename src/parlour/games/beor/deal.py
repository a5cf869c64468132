"""BEOR setup: the deck with its Jokers (B11), choosing the bases (B2), the deal (B1, B3), and
the deal of a record, validated.

A record's deal is ``{"bases": {"black": "2S", ...}, "hands": [[6 cards], ...], "stocks":
{"black": [top first], ...}}``; all stocks start face down.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from itertools import combinations, permutations
from typing import Any

from parlour.cards import Card, deck52, deck54, parse_card
from parlour.core.game import JSON
from parlour.errors import InvalidNotation
from parlour.games.beor.notation import BASES, FITS_AT_SETUP, fits_at_setup

__all__ = ["HAND_SIZE", "BeorDeal", "deal_from_seed", "deck_for", "parse_deal", "stock_sizes"]

HAND_SIZE = 6


def deck_for(players: int) -> tuple[Card, ...]:
    """B11 and the text: 'For games with an odd number of players, add 2 Joker cards'."""
    return deck54() if players % 2 else deck52()


def stock_sizes(players: int) -> tuple[int, ...]:
    """B1: all cards left after the bases and hands, round-robin into the four stocks
    (2 players 9 each, 3 players 8, 4 players 6, 5 players 5)."""
    left = len(deck_for(players)) - 4 - HAND_SIZE * players
    return tuple(left // 4 + (1 if i < left % 4 else 0) for i in range(4))


@dataclass(frozen=True, slots=True)
class BeorDeal:
    """The cards as the game starts: base cards, hands, stocks (top first, face down)."""

    bases: tuple[Card, Card, Card, Card]
    hands: tuple[tuple[Card, ...], ...]
    stocks: tuple[tuple[Card, ...], ...]

    def to_json(self) -> dict[str, JSON]:
        return {
            "bases": {name: str(card) for name, card in zip(BASES, self.bases, strict=True)},
            "hands": [[str(c) for c in hand] for hand in self.hands],
            "stocks": {
                name: [str(c) for c in stock]
                for name, stock in zip(BASES, self.stocks, strict=True)
            },
        }


def _choose_bases(turned: list[Card]) -> tuple[int, int, int, int] | None:
    """B2: indices into ``turned`` of cards for Black, Even, Odd, Red, preferring the
    earliest-turned cards (the earliest set of four, then the earliest card for each base in
    the order Black, Even, Odd, Red); None if no four can be matched yet.

    The sets of four come in that order (``combinations``: sorted index tuples, the earliest
    first), and so do the ways of giving one set's cards to the bases (``permutations`` of a
    sorted tuple): the first way that fits is the choice."""
    fit = [FITS_AT_SETUP[card] for card in turned]
    for four in combinations(range(len(turned)), 4):
        for pick in permutations(four):
            if fit[pick[0]][0] and fit[pick[1]][1] and fit[pick[2]][2] and fit[pick[3]][3]:
                return pick[0], pick[1], pick[2], pick[3]
    return None


def deal_from_seed(players: int, rng: random.Random) -> BeorDeal:
    """B2-B3: shuffle, turn cards until four can be the bases (Jokers set aside), shuffle the
    rest back, deal 6 cards to each player from seat 0, then the stocks round-robin Black, Even,
    Odd, Red (B1: all remaining cards)."""
    deck = list(deck_for(players))
    rng.shuffle(deck)
    turned: list[Card] = []
    aside: list[Card] = []
    pick: tuple[int, int, int, int] | None = None
    while pick is None:
        card = deck.pop(0)
        if card.is_joker:
            aside.append(card)
            continue
        turned.append(card)
        pick = _choose_bases(turned)
    bases = (turned[pick[0]], turned[pick[1]], turned[pick[2]], turned[pick[3]])
    deck += [c for i, c in enumerate(turned) if i not in pick] + aside
    rng.shuffle(deck)
    dealt = players * HAND_SIZE
    hands = tuple(tuple(deck[seat:dealt:players]) for seat in range(players))
    rest = deck[dealt:]
    stocks = tuple(tuple(rest[i::4]) for i in range(4))
    return BeorDeal(bases, hands, stocks)


def _cards(value: object, where: str) -> list[Card]:
    if not isinstance(value, list) or not all(isinstance(c, str) for c in value):
        raise InvalidNotation(f'deal {where} must be a list of cards like ["AS", "TH"]')
    try:
        return [parse_card(c) for c in value]
    except InvalidNotation as err:
        raise InvalidNotation(f"deal {where}: {err}") from None


def parse_deal(obj: object, players: int) -> BeorDeal:
    """Check a record's deal: each card of the deck exactly once (Jokers by B11), 6 cards a
    hand, stock sizes by B1, base cards that fit their themes at setup (B2).

    Raises:
        InvalidNotation: naming the field and the problem.
    """
    if not isinstance(obj, dict) or set(obj) != {"bases", "hands", "stocks"}:
        raise InvalidNotation("a BEOR deal is an object with exactly bases, hands and stocks")
    raw: dict[str, Any] = obj
    bases_obj, hands_obj, stocks_obj = raw["bases"], raw["hands"], raw["stocks"]
    if not isinstance(bases_obj, dict) or set(bases_obj) != set(BASES):
        raise InvalidNotation("deal bases must name one card for each of black, even, odd, red")
    bases: list[Card] = []
    for i, name in enumerate(BASES):
        (card,) = _cards([bases_obj[name]], f"base {name}")
        if not fits_at_setup(card, i):
            raise InvalidNotation(
                f"deal base {name} is {card}, which does not show the {name} theme at setup (B2)"
            )
        bases.append(card)
    if not isinstance(hands_obj, list) or len(hands_obj) != players:
        raise InvalidNotation(f"deal hands must be a list of {players} hands, one per player")
    hands = [_cards(h, f"hand {seat + 1}") for seat, h in enumerate(hands_obj)]
    for seat, hand in enumerate(hands):
        if len(hand) != HAND_SIZE:
            raise InvalidNotation(f"deal hand {seat + 1} has {len(hand)} cards, not {HAND_SIZE}")
    if not isinstance(stocks_obj, dict) or set(stocks_obj) != set(BASES):
        raise InvalidNotation("deal stocks must list the cards of black, even, odd and red")
    stocks = [_cards(stocks_obj[name], f"stock {name}") for name in BASES]
    sizes = stock_sizes(players)
    for name, stock, size in zip(BASES, stocks, sizes, strict=True):
        if len(stock) != size:
            raise InvalidNotation(
                f"deal stock {name} has {len(stock)} cards; with {players} players every "
                f"remaining card is dealt, {'/'.join(map(str, sizes))} (B1)"
            )
    every = bases + [c for h in hands for c in h] + [c for s in stocks for c in s]
    counts = Counter(every)
    twice = [c for c, k in counts.items() if k > 1]
    if twice:
        raise InvalidNotation(f"deal has {twice[0]} {counts[twice[0]]} times")
    deck = set(deck_for(players))
    extra = [c for c in every if c not in deck]
    if extra:
        raise InvalidNotation(
            f"deal has {extra[0]}, which a {players}-player deck does not hold (Jokers only "
            "with an odd number of players, B11)"
        )
    missing = sorted(deck - set(every))
    if missing:
        raise InvalidNotation(f"deal is missing {missing[0]}")
    return BeorDeal(
        (bases[0], bases[1], bases[2], bases[3]),
        tuple(tuple(h) for h in hands),
        tuple(tuple(s) for s in stocks),
    )
