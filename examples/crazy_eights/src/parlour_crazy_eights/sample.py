"""Determinization: a full Crazy Eights state consistent with one seat's view.

Nothing a player does tells the table what he holds (he may draw holding a card he could
play), so every card the seat has not seen may lie in any other hand or anywhere in the stock:
they are shuffled and dealt into the other hands, the rest making the stock.
"""

from __future__ import annotations

import random

from parlour.cards import Card
from parlour.errors import InvalidRecord
from parlour_crazy_eights.deal import sort_hand
from parlour_crazy_eights.notation import CARDS
from parlour_crazy_eights.rules import C8State
from parlour_crazy_eights.view import C8View

__all__ = ["sample_state"]


def sample_state(view: C8View, rng: random.Random) -> C8State:
    """A state with ``sample_state(v, rng).view(v.seat) == v``.

    Raises:
        InvalidRecord: the view's hand sizes and stock do not add up to the unseen cards.
    """
    if view.hands is not None:
        hands = view.hands
        placed: set[Card] = {*view.discard, *(c for h in hands for c in h)}
    else:
        own = set(view.hand or ())
        placed = {*view.discard, *own}
    # The deck's fixed order first, so the same generator gives the same sample anywhere.
    unseen = [c for c in CARDS if c not in placed]
    rng.shuffle(unseen)
    if view.hands is None:
        dealt: list[tuple[Card, ...]] = []
        for seat, size in enumerate(view.hand_sizes):
            if seat == view.seat and view.hand is not None:
                dealt.append(view.hand)
            else:
                dealt.append(sort_hand(unseen[:size]))
                del unseen[:size]
        hands = tuple(dealt)
    sizes = tuple(len(h) for h in hands)
    if len(unseen) != view.stock_size or sizes != view.hand_sizes:
        raise InvalidRecord(
            "the view's hand sizes, stock and discard pile do not hold the 52 cards once each"
        )
    return C8State._make(
        view.options, view.dealer, hands, tuple(unseen), view.discard, view.suit, view.turned,
        0 if view.to_move is None else view.to_move, view.phase, view.draws, view.passes,
        view.plays, view.result,
    )  # fmt: skip
