"""Beggar-My-Neighbour's observation features and its chance deal, for the adapters
(``parlour[rl]``).

Nobody sees a card of any hand, the owner included (the view's docstring), so the observation
is the table: what every seat sees alike, and which seat observes. Made from a
:class:`~parlour.games.beggar.view.BeggarView`; ``n`` players, card blocks of 52 slots in
``deck52()`` order::

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

from collections.abc import Mapping, Sequence

from parlour.adapters.features import Blocks, DealtOnce, Sparse, SparseEncoded
from parlour.cards import Card
from parlour.core.game import JSON, View
from parlour.core.options import OptionValue
from parlour.games.beggar.view import BeggarView

__all__ = ["FEATURES", "BeggarFeatures"]


class BeggarFeatures(SparseEncoded, DealtOnce):
    """The observation and chance deal in the module docstring."""

    env_id = "parlour/Beggar-v0"

    def size(self, players: int) -> int:
        return 108 + 5 * players

    def encode_sparse(self, view: View, players: int) -> Sparse:
        if not isinstance(view, BeggarView):
            raise TypeError(f"Beggar features encode a BeggarView, not {type(view).__name__}")
        f = Blocks(self.size(players))
        f.seat(view.seat, players)
        f.seat(view.to_move, players)
        f.scaled(view.hand_sizes, 52)
        pile = view.pile  # in play order: the top card is the last
        top = pile[-1] if pile else None
        f.card(top if isinstance(top, Card) else None, 52)
        f.cards((c for c in pile if isinstance(c, Card)), 52)
        f.scaled([len(pile)], 52)
        f.scaled([view.owed], 4)
        f.seat(view.court_player, players)
        f.flags(seat in view.out for seat in range(players))
        f.scaled([view.cards], 10000)
        f.scaled([view.tricks], 1000)
        return f.sparse()

    def deal(self, players: int, drawn: Sequence[str]) -> JSON:
        return "/".join(" ".join(hand) for hand in self.hands(players, drawn))

    def length_bound(self, options: Mapping[str, OptionValue]) -> int | None:
        """M11: the ``card_limit`` option, where set, ends the game (one action a card)."""
        limit = options.get("card_limit")
        return limit if isinstance(limit, int) and not isinstance(limit, bool) else None


FEATURES = BeggarFeatures()
