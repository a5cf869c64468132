"""The Game of Death's observation features and its chance deal, for the adapters
(``parlour[rl]``).

Observation (float32, every entry in 0..1; ``n`` players; card blocks have 52 slots in
``deck52()`` order; seats are absolute, Player 1 first, since ``give K>Pn`` names seats), made
from a :class:`~parlour.games.death.view.DeathView`::

    block                  size      what
    me                     n         one-hot: the observing seat
    to_move                n         one-hot: whose turn (all 0 once over)
    hand                   52        multi-hot: the seat's own hand
    pile_top               52        one-hot: the top card of the pile
    pile                   52        multi-hot: every card on the pile
    pile_top_seat          n         one-hot: who threw the top card
    swept                  52        multi-hot: every card swept so far
    hand_sizes             n         each hand's size / 26
    drinks_taken           n         drinks taken / 100 (at most 1)
    drinks_given           n         drinks given / 100 (at most 1)
    pending_give           1 + 1     1 while a give is due; its drinks / 20 (G5)
    passed                 n         1 for each seat that passed since the last throw
    last_thrower           n         one-hot
    first_out              n         one-hot
    void_suits             n x 4     1 where a pass showed the seat lacks the suit (S H D C)
    void_ranks             n x 13    1 where a pass showed the seat lacks the rank (A..K)
    known_in_hands         n x 52    multi-hot: cards publicly known in each hand (G1, G11, G13)
    started, over          2

Size: ``212 + 78 n`` (4 players: 524).

Chance deal (G1): the 52 cards one at a time, each equally likely among those not yet dealt,
round-robin from Player 1: the distribution of ``DeathGame.new`` from a seed.
"""

from __future__ import annotations

from collections.abc import Sequence

from parlour.adapters.features import Blocks, DealtOnce, Sparse, SparseEncoded
from parlour.cards import Suit
from parlour.core.game import JSON, View
from parlour.games.death.view import DeathView

__all__ = ["FEATURES", "DeathFeatures"]

_SUITS = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)
_SUIT_POSITIONS: dict[frozenset[Suit], tuple[int, ...]] = {
    frozenset(s for i, s in enumerate(_SUITS) if bits >> i & 1): tuple(
        i for i in range(4) if bits >> i & 1
    )
    for bits in range(16)
}
"""Each set of suits as its positions in a void-suit block (the position keeps a seat's set
from step to step, so its hash is made once)."""


class _RankPositions(dict[frozenset[int], tuple[int, ...]]):
    """Each set of ranks (1 for A to 13 for K) as its positions in a void-rank block, made
    once per set."""

    def __missing__(self, ranks: frozenset[int]) -> tuple[int, ...]:
        made = self[ranks] = tuple(sorted(r - 1 for r in ranks))
        return made


_RANK_POSITIONS = _RankPositions()


class DeathFeatures(SparseEncoded, DealtOnce):
    """The observation and chance deal in the module docstring."""

    env_id = "parlour/Death-v0"

    def size(self, players: int) -> int:
        return 212 + 78 * players

    def encode_sparse(self, view: View, players: int) -> Sparse:
        if not isinstance(view, DeathView):
            raise TypeError(f"Game of Death features encode a DeathView, not {type(view).__name__}")
        f = Blocks(self.size(players))
        f.seat(view.seat, players)
        f.seat(view.to_move, players)
        f.cards(view.hand or (), 52)
        pile = view.pile  # bottom first: the top card is the last
        f.card(pile[-1] if pile else None, 52)
        f.cards(pile, 52)
        f.seat(view.pile_seats[-1] if pile else None, players)
        f.cards(view.swept, 52)
        f.scaled(view.hand_sizes, 26)
        f.scaled(view.drinks_taken, 100)
        f.scaled(view.drinks_given, 100)
        give = view.pending_give
        f.flags([give is not None])
        f.scaled([0 if give is None else give[1]], 20)
        f.positions(view.passed, players)
        f.seat(view.last_thrower, players)
        f.seat(view.first_out, players)
        f.position_rows(map(_SUIT_POSITIONS.__getitem__, view.void_suits), 4)
        f.position_rows(map(_RANK_POSITIONS.__getitem__, view.void_ranks), 13)
        f.card_rows(view.known_in_hands, 52)
        f.flags([bool(pile or view.swept), view.over])
        return f.sparse()

    def deal(self, players: int, drawn: Sequence[str]) -> JSON:
        return {"hands": self.hands(players, drawn)}


FEATURES = DeathFeatures()
