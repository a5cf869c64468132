"""Determinization for the Game of Death: full states that agree with a view.

The unseen cards (not in the seat's own hand, on the pile, or swept) go to the other hands with
the viewed sizes, and never to a player whose pass showed he holds no card of that suit or rank.
"""

from __future__ import annotations

import random

from parlour.cards import Card, deck52
from parlour.games.death.rules import DeathState
from parlour.games.death.view import DeathView

__all__ = ["sample_state"]

_TRIES = 200


def _deal_unseen(view: DeathView, rng: random.Random) -> list[list[Card]]:
    """Random hands for the other seats that respect sizes and voids; most constrained cards
    first, each to a random seat that may hold it, weighted by the room it has left."""
    seen = set(view.hand or ()) | set(view.pile) | set(view.swept)
    unseen = [c for c in deck52() if c not in seen]
    others = [s for s in range(view.players) if s != view.seat]

    def allowed(card: Card, seat: int) -> bool:
        return (
            card.suit not in view.void_suits[seat] and int(card.rank) not in view.void_ranks[seat]
        )

    for _ in range(_TRIES):
        rng.shuffle(unseen)
        order = sorted(unseen, key=lambda c: sum(allowed(c, s) for s in others))
        room = {s: view.hand_sizes[s] for s in others}
        hands: dict[int, list[Card]] = {s: [] for s in others}
        for card in order:
            seats = [s for s in others if room[s] and allowed(card, s)]
            if not seats:
                break
            seat = rng.choices(seats, weights=[room[s] for s in seats])[0]
            hands[seat].append(card)
            room[seat] -= 1
        else:
            return [hands.get(s, []) for s in range(view.players)]
    raise ValueError("no deal of the unseen cards agrees with this view")


def sample_state(view: DeathView, rng: random.Random) -> DeathState:
    """A full state with ``sample_state(v, rng).view(v.seat) == v``."""
    dealt = _deal_unseen(view, rng)
    hands = tuple(
        view.hand if seat == view.seat and view.hand is not None else tuple(dealt[seat])
        for seat in range(view.players)
    )
    state = DeathState.__new__(DeathState)
    state._options = view.options
    state._hands = hands
    state._pile = view.pile
    state._pile_seats = view.pile_seats
    state._swept = view.swept
    state._taken = view.drinks_taken
    state._given = view.drinks_given
    state._pending = None
    if view.pending_give is not None:
        giver, left = view.pending_give
        state._pending = (giver, left, bool(view.pile) and view.pile[-1].rank.letter == "A")
    state._to_move = view.to_move if view.to_move is not None else 0
    state._last_thrower = view.last_thrower
    state._passed = view.passed
    state._first_out = view.first_out
    state._void_suits = view.void_suits
    state._void_ranks = view.void_ranks
    state._over = view.over
    state._log = ()
    return state
