"""Crazy Eights' observation features and its chance deal, for the adapters (``parlour[rl]``).

Observation (float32, every entry in 0..1; ``n`` players; card blocks have 52 slots in
``deck52()`` order; seats are absolute, Player 1 first), made from a
:class:`~parlour_crazy_eights.view.C8View`::

    block          size      what
    me             n         one-hot: the observing seat
    to_move        n         one-hot: whose turn (all 0 once over)
    hand           52        multi-hot: the seat's own hand
    top            52        one-hot: the top card of the discard pile
    suit           4         one-hot: the suit to follow, clubs, diamonds, hearts, spades
    nominate       1         1 while the player to move names a suit after an 8
    discard        52        multi-hot: every card in the discard pile
    turned         52        multi-hot: the 8s turned up at the deal and put back
    hand_sizes     n         each hand's size / 20
    stock_size     1         the stock's size / 52
    draws          1         cards drawn this turn / max_draw_cards
    passes         1         passes in a row since the stock ran out / (n + 1)
    plays          1         cards played / max_turns
    hands          n x 52    multi-hot: every hand, shown at the end (0 while the game is on)

Size: ``217 + 55 n`` (2 players: 327; 5 players: 492).

Chance deal, as OpenSpiel's chance nodes deal: the first outcome picks the dealer among the
first ``n`` cards of ``deck52()`` (AS for Player 1, 2S for Player 2 ...); then cards are dealt
one at a time, each equally likely among those not yet dealt, to the seat after the dealer and
round (7 each with two players, 5 with more); then the starter is turned, each card not yet
dealt equally likely, an 8 going back among them, until one is not an 8; then the stock is
laid card by card, top first. That is the distribution of ``Game.new`` from a seed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from parlour.adapters.features import Blocks, Sparse, SparseEncoded
from parlour.cards import deck52
from parlour.core.game import JSON, State, View
from parlour.core.options import OptionValue
from parlour_crazy_eights.deal import hand_size
from parlour_crazy_eights.notation import SUITS
from parlour_crazy_eights.view import C8View

__all__ = ["FEATURES", "CrazyEightsFeatures"]

_DECK = tuple(str(c) for c in deck52())


class CrazyEightsFeatures(SparseEncoded):
    """The observation and chance deal in the module docstring."""

    env_id = "parlour/CrazyEights-v0"

    def size(self, players: int) -> int:
        return 217 + 55 * players

    def encode_sparse(self, view: View, players: int) -> Sparse:
        if not isinstance(view, C8View):
            raise TypeError(f"Crazy Eights features encode a C8View, not {type(view).__name__}")
        f = Blocks(self.size(players))
        f.seat(view.seat, players)
        f.seat(view.to_move, players)
        f.cards(view.hand or (), 52)
        f.card(view.top, 52)
        f.flags(view.suit is s for s in SUITS)
        f.flags([view.phase == "nominate" and view.to_move is not None])
        f.cards(view.discard, 52)
        f.cards(view.turned, 52)
        f.scaled(view.hand_sizes, 20)
        f.scaled([view.stock_size], 52)
        f.scaled([view.draws], view.options.max_draw_cards)
        f.scaled([view.passes], players + 1)
        f.scaled([view.plays], view.options.max_turns)
        for seat in range(players):
            f.cards(() if view.hands is None else view.hands[seat], 52)
        return f.sparse()

    def deck(self, players: int) -> tuple[str, ...]:
        return _DECK

    @staticmethod
    def _starter_at(players: int, drawn: Sequence[str]) -> int | None:
        """Where the starter lies in ``drawn`` (the first card after the hands that is not an
        8), or ``None`` while it is still to be turned."""
        for k in range(1 + players * hand_size(players), len(drawn)):
            if not drawn[k].startswith("8"):
                return k
        return None

    def deal_outcomes(self, players: int, drawn: Sequence[str]) -> tuple[str, ...]:
        if not drawn:
            return _DECK[:players]
        dealt = 1 + players * hand_size(players)
        starter = self._starter_at(players, drawn)
        # The 8s turned up for the starter go back: they stay among the outcomes.
        gone = set(drawn[1:dealt]) | set(drawn[(dealt if starter is None else starter) :])
        return tuple(c for c in _DECK if c not in gone)

    def deal(self, players: int, drawn: Sequence[str]) -> JSON:
        starter = self._starter_at(players, drawn)
        if not drawn or starter is None or self.deal_outcomes(players, drawn):
            raise ValueError("the deal is not complete")
        dealer = _DECK.index(drawn[0])
        dealt = 1 + players * hand_size(players)
        hands: list[list[str]] = [[] for _ in range(players)]
        for k in range(1, dealt):
            hands[(dealer + k) % players].append(drawn[k])
        return {
            "dealer": dealer,
            "hands": hands,
            "turned": list(drawn[dealt:starter]),
            "starter": drawn[starter],
            "stock": list(drawn[starter + 1 :]),
        }

    def reshuffle(self, state: State) -> tuple[str, ...]:
        """The stock is never shuffled again (OpenSpiel's ``reshuffle`` is off)."""
        return ()

    def redeal(self, state: State, cards: Sequence[str]) -> State:
        raise ValueError("nothing is dealt again after the deal")

    def length_bound(self, options: Mapping[str, OptionValue]) -> int | None:
        """At most ``max_turns`` cards played and as many suits named, 52 draws and as many
        passes after them, and 5 passes between two plays once the stock is empty."""
        turns = options.get("max_turns")
        if isinstance(turns, bool) or not isinstance(turns, int):
            return None
        return 2 * turns + 104 + 5 * (turns + 1)


FEATURES = CrazyEightsFeatures()
