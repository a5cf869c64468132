"""Determinization: a full BEOR state consistent with what one seat knows (its view).

Bots see only views; search plays on states sampled from them, so it cannot cheat.
"""

from __future__ import annotations

import random

from parlour.cards import Card
from parlour.core.rng import MAX_SEED
from parlour.core.state import seat_name
from parlour.errors import InvalidRecord
from parlour.games.beor.deal import deck_for
from parlour.games.beor.rules import BeorState
from parlour.games.beor.turn import held_mask, legal_of, mask_of
from parlour.games.beor.view import BeorView, StockView

__all__ = ["sample_state"]

_TRIES = 50_000
"""Shuffles tried for a world where the seat to move has a legal play (B8). A view of a real
game finds one within a few (the mover held a legal play); a view edited by hand may allow
none, and is refused after these."""


def _hands(view: BeorView, unseen: list[Card]) -> list[tuple[Card, ...]]:
    """Each hand: the seat's own as it sees it, else its known cards and more from ``unseen``
    (taken from its front)."""
    hands: list[tuple[Card, ...]] = []
    for seat, size in enumerate(view.hand_sizes):
        if seat == view.seat and view.hand is not None:
            hands.append(view.hand)
        else:
            known = list(view.known_in_hands[seat])
            more = size - len(known)
            hands.append(tuple(known + unseen[:more]))
            del unseen[:more]
    return hands


def _stock(stock: StockView, unseen: list[Card]) -> tuple[Card, ...]:
    """A stock, top card first: its known cards where they are known to lie, the others taken
    from the front of ``unseen``."""
    by_offset = dict(stock.known)
    bottom_up = [by_offset[k] if k in by_offset else unseen.pop(0) for k in range(stock.size)]
    return tuple(reversed(bottom_up))


def sample_state(view: BeorView, rng: random.Random) -> BeorState:
    """A full state with ``sample_state(v, rng).view(v.seat) == v``: every publicly known card
    where it is known to be (bases; cards known in hands, B5/B6; known stock cards, B6; known
    scrap cards, B8), the seat's own hand, and the rest of the unseen cards shuffled into the
    places nobody at the table can see. The cards in sight count as shown to the table, and
    each hand as held by its seat; later restocks shuffle with a fresh seed from ``rng``
    (B9)."""
    known_scrap = list(view.known_scrap)
    public = [c for pile in view.bases for c in pile]
    public += [c for known in view.known_in_hands for c in known]
    public += known_scrap
    public += [c for st in view.stocks for _, c in st.known]
    seen = {*public, *(view.hand or ())}
    # The deck's fixed order first, so the same rng state gives the same sample on any machine.
    pool = [c for c in deck_for(view.players) if c not in seen]
    mover = view.to_move
    for _ in range(_TRIES):
        unseen = list(pool)
        rng.shuffle(unseen)
        hands = _hands(view, unseen)
        stocks = [_stock(st, unseen) for st in view.stocks]
        # B8: the seat to move has a legal play (else he would have lost), so a world where he
        # has none is not one the table may be in; another shuffle is tried.
        if mover is None or mover == view.seat or legal_of(hands[mover], stocks):
            break
    else:
        raise InvalidRecord(
            f"no deal of the unseen cards gives {seat_name(mover or 0)} a legal play (B8) in "
            f"{_TRIES} tries: the view's hand sizes or known cards cannot be"
        )
    scrap = known_scrap + unseen[: view.scrap_size - len(known_scrap)]
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
        shown=mask_of(public),
        held=held_mask(hands),
        out=view.out,
        to_move=0 if view.to_move is None else view.to_move,
        turn=view.turn,
        winner=view.winner,
        result=view.result,
    )
