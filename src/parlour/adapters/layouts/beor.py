"""BEOR's observation layout and its chance deal.

Observation (float32, every entry in 0..1; ``n`` players; card blocks have 54 slots in
``deck54()`` order, the two Jokers last; seats are absolute, Player 1 first)::

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

from collections.abc import Callable, Sequence
from itertools import permutations
from typing import Any

from parlour.adapters.encoding import Features, Observation
from parlour.cards import Card, Rank, deck52, deck54, parse_card
from parlour.core.game import JSON

__all__ = ["ENCODER"]

_BASES = ("black", "even", "odd", "red")
_HAND = 6


def _fits_at_setup(card: Card, base: int) -> bool:
    """B2 (and B4): Black ♠♣, Even/Odd by value (A 1, J 11, Q 12), Red ♥♦; at setup a King
    counts only for its colour and Jokers are set aside."""
    if card.suit is None:
        return False
    if base == 0:
        return card.suit.is_black
    if base == 3:
        return card.suit.is_red
    if card.rank == Rank.KING:
        return False
    return (int(card.rank) % 2 == 0) == (base == 1)


def _choose_bases(turned: Sequence[Card]) -> tuple[int, int, int, int] | None:
    """B2: indices of the turned cards for Black, Even, Odd, Red: the earliest set of four,
    then the earliest card for each base in order; None while no four fit."""
    best: tuple[tuple[int, ...], tuple[int, int, int, int]] | None = None
    for pick in permutations(range(len(turned)), 4):
        if all(_fits_at_setup(turned[i], base) for base, i in enumerate(pick)):
            key = (tuple(sorted(pick)), (pick[0], pick[1], pick[2], pick[3]))
            if best is None or key < best:
                best = key
    return None if best is None else best[1]


class BeorEncoder:
    """The layout and chance deal in the module docstring."""

    def size(self, players: int) -> int:
        return 820 + 58 * players

    def encode(self, view: dict[str, Any], players: int) -> Observation:
        f = Features(self.size(players))
        f.seat(view["seat"], players)
        f.seat(view["to_move"], players)
        f.cards(view["hand"] or ())
        bases = [view["bases"][name] for name in _BASES]
        for pile in bases:
            f.card(pile[0] if pile else None)
        f.cards([c for pile in bases for c in pile])
        stocks = [view["stocks"][name] for name in _BASES]
        f.scaled([s["size"] for s in stocks], 14)
        f.flags([s["face_up"] for s in stocks])
        for s in stocks:
            f.card(s["top"])
        for s in stocks:
            f.cards([k["card"] for k in s["known"]])
        f.scaled(view["hand_sizes"], _HAND)
        for known in view["known_in_hands"]:
            f.cards(known)
        f.scaled([view["scrap_size"]], 54)
        f.cards(view["known_scrap"])
        f.flags([seat in view["out"] for seat in range(players)])
        f.scaled([view["turn"]], view["options"]["max_turns"])
        return f.done()

    def deck(self, players: int) -> tuple[str, ...]:
        """B11: two Jokers with an odd number of players."""
        return tuple(str(c) for c in (deck54() if players % 2 else deck52()))

    def _split(self, players: int, drawn: Sequence[str]) -> tuple[list[Card], list[str]] | None:
        """The turned cards and the dealt ones, or None while the bases are still turned."""
        turned: list[Card] = []
        for i, text in enumerate(drawn):
            card = parse_card(text)
            if card.is_joker:
                continue
            turned.append(card)
            pick = _choose_bases(turned)
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
        hands_size = _HAND * players
        hands = [rest[seat:hands_size:players] for seat in range(players)]
        stocks = rest[hands_size:]
        return {
            "bases": {name: str(card) for name, card in zip(_BASES, bases, strict=True)},
            "hands": [list(h) for h in hands],
            "stocks": {name: list(stocks[i::4]) for i, name in enumerate(_BASES)},
        }

    def reshuffle(
        self, events: Sequence[str], state: Callable[[], dict[str, Any]]
    ) -> tuple[str, ...]:
        """The cards of the stocks a restock just made (``state()`` is the state's JSON),
        position by position, or () when the last action (its ``events``' kinds) made none."""
        if "restocked" not in events:
            return ()
        stocks = state()["stocks"]
        return tuple(c for name in _BASES for c in stocks[name]["cards"])

    def redeal(self, state: dict[str, Any], cards: Sequence[str]) -> dict[str, Any]:
        """``state`` with its stocks holding ``cards`` position by position (see
        :meth:`reshuffle`)."""
        out = dict(state)
        stocks: dict[str, Any] = {}
        at = 0
        for name in _BASES:
            old = state["stocks"][name]
            size = len(old["cards"])
            stocks[name] = {**old, "cards": list(cards[at : at + size])}
            at += size
        out["stocks"] = stocks
        return out


ENCODER = BeorEncoder()
