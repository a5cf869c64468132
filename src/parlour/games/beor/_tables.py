"""The BEOR card tables the compiled kernel reads (:mod:`._kernel`, :mod:`._policy`), made from
the rules engine's own tables (:mod:`parlour.games.beor.notation`), so the two engines share
their themes (B4), setup themes (B2, B9), groups (B5) and action ids.

A card is a number 0-53 in the order of ``Card.code``: the Jokers 0 and 1, then rank A..K and
suit S H D C, card ``2 + (rank - 1) * 4 + suit``. A set of cards is an int64 bit mask, so a
hand's cards taken lowest bit first come in the order ``legal_of`` lists their moves.
"""

from __future__ import annotations

from itertools import permutations

import numpy as np

from parlour.cards import Card, Rank, deck54
from parlour.games.beor.notation import ACTION_IDS, FITS, GROUPS, Move, fits_at_setup

__all__ = [
    "ACTION_ID",
    "CARDS",
    "CARD_GROUPS",
    "DECK",
    "FIT",
    "FIT_MASK",
    "GROUP_MASK",
    "JOKERS",
    "OWN",
    "PARTNERS",
    "PERMS",
    "RANK",
    "SETUP",
    "card_number",
]

CARDS: tuple[Card, ...] = tuple(sorted(deck54(), key=lambda c: c.code))
"""Card number -> Card."""
_NUMBER = {c: k for k, c in enumerate(CARDS)}


def card_number(card: Card) -> int:
    """The kernel's number of ``card``."""
    return _NUMBER[card]


DECK = np.array([_NUMBER[c] for c in deck54()], np.int64)
"""The deck in ``deck_for``'s order (the 52 cards, then the two Jokers): the order the deal
shuffles and the heuristic lists unseen cards in."""
RANK = np.array([int(c.rank) for c in CARDS], np.int64)
JOKERS = np.int64(sum(1 << k for k, c in enumerate(CARDS) if c.is_joker))
FIT = np.array([FITS[c] for c in CARDS], np.bool_)
"""B4: ``FIT[card, base]``."""
FIT_MASK = np.array([sum(1 << k for k, c in enumerate(CARDS) if FITS[c][b]) for b in range(4)])
SETUP = np.array([[fits_at_setup(c, b) for b in range(4)] for c in CARDS], np.bool_)
"""B2 (and B9's themes, Jokers apart): ``SETUP[card, base]``."""
_GROUPS = sorted(sorted(_NUMBER[c] for c in g) for g in GROUPS)
GROUP_MASK = np.array([sum(1 << k for k in g) for g in _GROUPS], np.int64)
"""B5: the 92 groups of three as masks."""
CARD_GROUPS = np.full((54, 7), -1, np.int64)
"""The groups of each card (``GROUP_MASK`` indices), then -1."""
for _g, _members in enumerate(_GROUPS):
    for _k in _members:
        _row = CARD_GROUPS[_k]
        _row[int(np.argmax(_row < 0))] = _g
PARTNERS = np.array(
    [int(np.bitwise_or.reduce(GROUP_MASK[[g for g in row if g >= 0]])) & ~(1 << k) if row[0] >= 0
     else 0 for k, row in enumerate(CARD_GROUPS)],
    np.int64,
)  # fmt: skip
"""The cards that share a group with each card (none for a Joker)."""
OWN = 4
"""``ACTION_ID``'s stock for a move drawing from its own base's stock."""
ACTION_ID = np.full((54, 4, 5), -1, np.int64)
"""``ACTION_ID[card, base, stock]`` (``OWN`` for the base's own stock): the move's integer id
(:data:`~parlour.games.beor.notation.ACTIONS`)."""
for _move, _id in ACTION_IDS.items():
    ACTION_ID[_NUMBER[_move.card], _move.base, OWN if _move.stock is None else _move.stock] = _id
PERMS = np.array(list(permutations(range(4))), np.int64)
"""The orders of four things, in ``itertools.permutations`` order (B2's choice of bases)."""

assert int(Rank.ACE) == 1 and int(Rank.KING) == 13
assert all(CARDS[2 + (int(c.rank) - 1) * 4 + "SHDC".index(c.suit.value)] is c for c in CARDS[2:]
           if c.suit is not None)  # fmt: skip
assert all(isinstance(m, Move) for m in ACTION_IDS)
