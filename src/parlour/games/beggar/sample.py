"""Determinization for Beggar-My-Neighbour: a full state consistent with what a seat sees.

Views show no card of any hand (:mod:`.view`), so every arrangement of the cards not on the pile
into hands of the viewed sizes is equally possible; :func:`sample` deals one at random.
"""

from __future__ import annotations

import random

from parlour.cards import deck52
from parlour.core.game import View
from parlour.games.beggar.notation import RankClass, Token
from parlour.games.beggar.rules import BeggarState
from parlour.games.beggar.view import BeggarView

__all__ = ["sample"]

# M9: a rank-only deck holds 4 of each court class and 36 number cards.
_CLASS_DECK = {RankClass.NUMBER: 36} | {c: 4 for c in RankClass if c is not RankClass.NUMBER}


def sample(view: View, rng: random.Random) -> BeggarState:
    """A full state with ``sample(view, rng).view(view.seat) == view``: the cards not on the
    pile shuffled with ``rng`` into hands of the viewed sizes.

    It starts a line of its own: nobody has seen its hand cards, and its loop history (M10)
    holds only the position on the table when that is a trick boundary, since the earlier
    hands are not in the view.

    Raises:
        TypeError: ``view`` is not a :class:`BeggarView`.
    """
    if not isinstance(view, BeggarView):
        raise TypeError("BeggarGame.sample needs a BeggarView")
    unseen: list[Token]
    if view.full_cards:
        on_pile = set(view.pile)
        unseen = [c for c in deck52() if c not in on_pile]
    else:
        counts = dict.fromkeys(RankClass, 0)
        for token in view.pile:
            if isinstance(token, RankClass):
                counts[token] += 1
        unseen = [cls for cls in RankClass for _ in range(_CLASS_DECK[cls] - counts[cls])]
    rng.shuffle(unseen)
    hands: list[tuple[Token, ...]] = []
    start = 0
    for size in view.hand_sizes:
        hands.append(tuple(unseen[start : start + size]))
        start += size
    dealt = tuple(hands)
    return BeggarState._start(
        dealt,
        view.options,
        dealt,
        pile=view.pile,
        to_move=view.to_move if view.to_move is not None else 0,
        owed=view.owed,
        court=view.court_player,
        out=view.out,
        cards=view.cards,
        tricks=view.tricks,
        winners=view.winners,
        cycle=view.cycle,
    )
