"""Beggar-My-Neighbour's observation layout and its chance deal.

Nobody sees a card of any hand, the owner included (the view's docstring), so the observation
is the table: what every seat sees alike, and which seat observes. ``n`` players, card blocks
of 52 slots in ``deck52()`` order::

    block                  size      what
    me                     n         one-hot: the observing seat
    to_move                n         one-hot: whose turn (all 0 once over)
    hand_sizes             n         each hand's size / 52
    pile_top               52        one-hot: the top card of the face-up pile
    pile                   52        multi-hot: every card on the pile
    pile_size              1         pile size / 52
    owed                   1         cards still owed to a court card / 4 (M3)
    court_player           n         one-hot: who turned the court card being paid for
    out                    n         1 for each seat out of cards
    cards, tricks          2         cards turned / 10000 and tricks / 1000 (at most 1)

Size: ``108 + 5 n`` (2 players: 118). Rank-only deals (M9) have no full cards: their pile
blocks stay 0.

Chance deal (M7): the 52 cards one at a time, each equally likely among those not yet dealt,
round-robin from Player 1: the distribution of ``BeggarGame.new`` from a seed.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from parlour.adapters.encoding import CARD_INDEX, DealtOnce, Features, Observation
from parlour.core.game import JSON

__all__ = ["ENCODER"]


class BeggarEncoder(DealtOnce):
    """The layout and chance deal in the module docstring."""

    def size(self, players: int) -> int:
        return 108 + 5 * players

    def encode(self, view: dict[str, Any], players: int) -> Observation:
        f = Features(self.size(players))
        f.seat(view["seat"], players)
        f.seat(view["to_move"], players)
        f.scaled(view["hand_sizes"], 52)
        pile = view["pile"]
        full = [c for c in pile if c in CARD_INDEX]
        f.card(full[0] if full and full[0] == pile[0] else None, 52)
        f.cards(full, 52)
        f.scaled([len(pile)], 52)
        f.scaled([view["owed"]], 4)
        f.seat(view["court_player"], players)
        f.flags([seat in view["out"] for seat in range(players)])
        f.scaled([view["cards"]], 10000)
        f.scaled([view["tricks"]], 1000)
        return f.done()

    def deal(self, players: int, drawn: Sequence[str]) -> JSON:
        return "/".join(" ".join(hand) for hand in self.hands(players, drawn))


ENCODER = BeggarEncoder()
