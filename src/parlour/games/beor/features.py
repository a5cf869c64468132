"""BEOR's observation features and its chance deal, for the adapters (``parlour[rl]``).

Observation (float32, every entry in 0..1; ``n`` players; card blocks have 54 slots in
``deck54()`` order, the two Jokers last; seats are absolute, Player 1 first), made from a
:class:`~parlour.games.beor.view.BeorView`::

    block                              size      what
    me                                 n         one-hot: the observing seat
    to_move                            n         one-hot: whose turn (all 0 once over)
    hand                               54        multi-hot: the seat's own hand
    base_tops                          4 x 54    one-hot per base (black, even, odd, red): top
    base_cards                         54        multi-hot: every card on the four bases
    stock_sizes                        4         each stock's size / 14
    stock_face_up                      4         1 where the stock lies face up (B6)
    stock_tops                         4 x 54    one-hot: a face-up stock's visible top card
    stock_known                        4 x 54    multi-hot: cards publicly known in each stock
    hand_sizes                         n         each hand's size / 6
    known_in_hands                     n x 54    multi-hot: cards publicly known in each hand
    scrap_size                         1         scrap pile size / 54
    known_scrap                        54        multi-hot: cards publicly known in the scrap
    out                                n         1 for each seat that has lost (B8)
    turn                               1         turns so far / the max_turns option (B10)

Size: ``820 + 58 n`` (2 players: 936; 5 players: 1110).

Chance deal (B1-B3): cards are turned one at a time from the shuffled deck, each equally likely
among those not yet turned, Jokers set aside, until four can be the bases (B2: the earliest set
of four, then the earliest card for each base in the order Black, Even, Odd, Red); then every
card that is not a base is dealt one at a time, each equally likely among those not yet dealt:
6 to each hand from Player 1 round-robin, then the stocks round-robin Black, Even, Odd, Red.
That is the distribution of ``BeorGame.new`` from a seed (turn, shuffle back, deal).

Chance restock (B9): after an action whose events include ``restocked``, the cards of the four
new face-down stocks are dealt again one at a time, each equally likely among those not yet
dealt, position by position, Black's stock first: the distribution of the seeded shuffle that
the rules made, which they replace.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from parlour.adapters.features import Blocks, Sparse, SparseEncoded
from parlour.cards import Card, parse_card
from parlour.core.game import JSON, State, View
from parlour.core.options import OptionValue
from parlour.games.beor.deal import HAND_SIZE, _choose_bases, deck_for
from parlour.games.beor.notation import BASES
from parlour.games.beor.view import BeorView

__all__ = ["FEATURES", "BeorFeatures"]


@lru_cache(maxsize=4096)
def _bases_of(turned: tuple[Card, ...]) -> tuple[int, int, int, int] | None:
    """``_choose_bases`` (B2), kept: OpenSpiel asks for the chance outcomes at every card of
    the deal, and each asks again about every card turned before it, while the choice tries
    every order of four of them."""
    return _choose_bases(list(turned))


class BeorFeatures(SparseEncoded):
    """The observation and chance deal in the module docstring."""

    env_id = "parlour/BEOR-v0"

    def size(self, players: int) -> int:
        return 820 + 58 * players

    def encode_sparse(self, view: View, players: int) -> Sparse:
        if not isinstance(view, BeorView):
            raise TypeError(f"BEOR features encode a BeorView, not {type(view).__name__}")
        f = Blocks(self.size(players))
        f.seat(view.seat, players)
        f.seat(view.to_move, players)
        f.cards(view.hand or ())
        for pile in view.bases:
            f.card(pile[0] if pile else None)
        f.cards(c for pile in view.bases for c in pile)
        f.scaled((s.size for s in view.stocks), 14)
        f.flags(s.face_up for s in view.stocks)
        for s in view.stocks:
            f.card(s.top)
        for s in view.stocks:
            f.cards(c for _, c in s.known)
        f.scaled(view.hand_sizes, HAND_SIZE)
        for known in view.known_in_hands:
            f.cards(known)
        f.scaled([view.scrap_size], 54)
        f.cards(view.known_scrap)
        f.flags(seat in view.out for seat in range(players))
        f.scaled([view.turn], view.options.max_turns)
        return f.sparse()

    def deck(self, players: int) -> tuple[str, ...]:
        """B11: two Jokers with an odd number of players."""
        return tuple(str(c) for c in deck_for(players))

    def _split(self, players: int, drawn: Sequence[str]) -> tuple[list[Card], list[str]] | None:
        """The base cards and the cards dealt after them, or None while the bases are still
        turned."""
        turned: list[Card] = []
        for i, text in enumerate(drawn):
            card = parse_card(text)
            if card.is_joker:
                continue
            turned.append(card)
            pick = _bases_of(tuple(turned))
            if pick is not None:
                return [turned[j] for j in pick], list(drawn[i + 1 :])
        return None

    def deal_outcomes(self, players: int, drawn: Sequence[str]) -> tuple[str, ...]:
        deck = self.deck(players)
        split = self._split(players, drawn)
        if split is None:
            seen = set(drawn)
            return tuple(c for c in deck if c not in seen)
        bases, dealt = split
        gone = {str(c) for c in bases} | set(dealt)
        return tuple(c for c in deck if c not in gone)

    def deal(self, players: int, drawn: Sequence[str]) -> JSON:
        split = self._split(players, drawn)
        if split is None or self.deal_outcomes(players, drawn):
            raise ValueError("the deal is not complete")
        bases, rest = split
        hands_size = HAND_SIZE * players
        hands = [rest[seat:hands_size:players] for seat in range(players)]
        stocks = rest[hands_size:]
        return {
            "bases": {name: str(card) for name, card in zip(BASES, bases, strict=True)},
            "hands": [list(h) for h in hands],
            "stocks": {name: list(stocks[i::4]) for i, name in enumerate(BASES)},
        }

    def reshuffle(self, state: State) -> tuple[str, ...]:
        """The cards of the stocks a restock just made, position by position, Black's first."""
        if not any(e.kind == "restocked" for e in state.events):
            return ()
        stocks: dict[str, Any] = state.to_json()["stocks"]
        return tuple(c for name in BASES for c in stocks[name]["cards"])

    def redeal(self, state: State, cards: Sequence[str]) -> State:
        doc = state.to_json()
        old: dict[str, Any] = doc["stocks"]
        stocks: dict[str, Any] = {}
        at = 0
        for name in BASES:
            size = len(old[name]["cards"])
            stocks[name] = {**old[name], "cards": list(cards[at : at + size])}
            at += size
        return state.game.state_from_json({**doc, "stocks": stocks})

    def length_bound(self, options: Mapping[str, OptionValue]) -> int | None:
        """B10: one action a turn, and a draw after ``max_turns`` turns."""
        turns = options.get("max_turns")
        return turns if isinstance(turns, int) and not isinstance(turns, bool) else None


FEATURES = BeorFeatures()
