"""The deal, as OpenSpiel's chance nodes make it, and the penalty points of the end.

OpenSpiel's deal: chance picks the dealer, one seat in ``n`` alike; the cards are dealt one at
a time, starting with the seat after the dealer and going round, 7 each with two players and 5
with three to five; then the dealer turns up cards from the stock until one is not an 8: that
card starts the discard pile, and each 8 turned up goes back into the stock, anywhere in it
(OpenSpiel puts it back among the cards chance draws from). The seat after the dealer plays
first.

Here the whole deal comes from the seed at once: the dealer, then one shuffle of the deck whose
cards are dealt from the top; an 8 turned up goes back into the stock at a place the seed's
generator picks (any place alike, so the stock stays in random order), and the stock is drawn
from the top for the rest of the game.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass

from parlour.cards import Card, Rank
from parlour_crazy_eights.notation import CARDS, card_id

__all__ = ["Deal", "deal_from_seed", "hand_size", "penalty", "penalty_of", "sort_hand"]


def hand_size(players: int) -> int:
    """Cards dealt to each player: 7 with two players, 5 with more (OpenSpiel)."""
    return 7 if players == 2 else 5


def sort_hand(cards: Iterable[Card]) -> tuple[Card, ...]:
    """A hand in the order of the card ids (by rank, 2 to Ace, then suit C D H S)."""
    return tuple(sorted(cards, key=card_id))


def penalty(card: Card) -> int:
    """The penalty points of a card left in hand at the end, as OpenSpiel scores it: 50 for an
    8, 10 for a J, Q, K or A, and otherwise the card's id plus 2. OpenSpiel's comments say "the
    face value" for these, but its code adds 2 to the card's id (``rank * 4 + suit``), so a 2C
    costs 2, a 2S 5 and a TS 37; this game scores as the code does, so that its results are
    OpenSpiel's."""
    if card.rank is Rank.EIGHT:
        return 50
    if card.rank in (Rank.JACK, Rank.QUEEN, Rank.KING, Rank.ACE):
        return 10
    return card_id(card) + 2


def penalty_of(hand: Iterable[Card]) -> int:
    """The penalty points of a hand (:func:`penalty`)."""
    return sum(penalty(c) for c in hand)


@dataclass(frozen=True, slots=True)
class Deal:
    """A dealt game: the dealer, each seat's hand (sorted), the 8s turned up and put back, in
    the order they were turned, the starter (the first card of the discard pile) and the
    stock, top card first."""

    dealer: int
    hands: tuple[tuple[Card, ...], ...]
    turned: tuple[Card, ...]
    starter: Card
    stock: tuple[Card, ...]


def deal_from_seed(players: int, rng: random.Random) -> Deal:
    """The deal the generator gives (see the module docstring)."""
    dealer = rng.randrange(players)
    deck = list(CARDS)
    rng.shuffle(deck)
    size = hand_size(players)
    hands: list[list[Card]] = [[] for _ in range(players)]
    for k in range(players * size):
        hands[(dealer + 1 + k) % players].append(deck[k])
    stock = deck[players * size :]
    turned: list[Card] = []
    while stock[0].rank is Rank.EIGHT:
        eight = stock.pop(0)
        turned.append(eight)
        stock.insert(rng.randrange(len(stock) + 1), eight)
    starter = stock.pop(0)
    return Deal(dealer, tuple(sort_hand(h) for h in hands), tuple(turned), starter, tuple(stock))
