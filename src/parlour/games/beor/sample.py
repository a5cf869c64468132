"""Determinization: a full BEOR state consistent with what one seat knows (its view).

Bots see only views; search plays on states sampled from them, so it cannot cheat.
"""

from __future__ import annotations

import random

from parlour.cards import Card
from parlour.core.rng import MAX_SEED
from parlour.games.beor.deal import deck_for
from parlour.games.beor.rules import BeorState
from parlour.games.beor.view import BeorView

__all__ = ["sample_state"]


def sample_state(view: BeorView, rng: random.Random) -> BeorState:
    """A full state with ``sample_state(v, rng).view(v.seat) == v``: every publicly known card
    where it is known to be (bases; cards known in hands, B5/B6; known stock cards, B6; known
    scrap cards and the seat's own surrendered hand, B8), the seat's own hand, and the rest of
    the unseen cards shuffled into the places nobody at the table can see. Later restocks
    shuffle with a fresh seed from ``rng`` (B9)."""
    known_scrap = list(view.known_scrap)
    known_scrap += [c for c in view.surrendered if c not in view.known_scrap]
    seen = {c for pile in view.bases for c in pile}
    seen.update(view.hand or ())
    seen.update(c for known in view.known_in_hands for c in known)
    seen.update(known_scrap)
    seen.update(c for st in view.stocks for _, c in st.known)
    # The deck's fixed order first, so the same rng state gives the same sample on any machine.
    unseen = [c for c in deck_for(view.players) if c not in seen]
    rng.shuffle(unseen)

    def take(k: int) -> list[Card]:
        out = unseen[:k]
        del unseen[:k]
        return out

    hands: list[tuple[Card, ...]] = []
    for seat, size in enumerate(view.hand_sizes):
        if seat == view.seat and view.hand is not None:
            hands.append(view.hand)
        else:
            known = list(view.known_in_hands[seat])
            hands.append(tuple(known + take(size - len(known))))
    stocks: list[tuple[Card, ...]] = []
    for st in view.stocks:
        by_offset = dict(st.known)
        bottom_up = [by_offset[k] if k in by_offset else take(1)[0] for k in range(st.size)]
        stocks.append(tuple(reversed(bottom_up)))
    scrap = known_scrap + take(view.scrap_size - len(known_scrap))
    surrendered = [frozenset[Card]() for _ in range(view.players)]
    if view.seat is not None:
        surrendered[view.seat] = frozenset(view.surrendered)
    return BeorState._make(
        options=view.options,
        seed=rng.randint(0, MAX_SEED),
        restocks=0,
        hands=tuple(hands),
        bases=view.bases,
        stocks=tuple(stocks),
        face_up=tuple(st.face_up for st in view.stocks),
        known=tuple(frozenset(st.known) for st in view.stocks),
        known_hands=tuple(frozenset(k) for k in view.known_in_hands),
        scrap=tuple(scrap),
        known_scrap=frozenset(view.known_scrap),
        surrendered=tuple(surrendered),
        out=view.out,
        to_move=0 if view.to_move is None else view.to_move,
        turn=view.turn,
        winner=view.winner,
        result=view.result,
    )
