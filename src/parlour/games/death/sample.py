"""Determinization for the Game of Death: full states that agree with a view.

The cards known to be in a hand (2♦ before it is thrown, G1; a card shown in an illegal
throw, G13; every hand at the end, G11) stay there. The unseen cards (not in the seat's own
hand, on the pile, swept or known) go to the other hands with the viewed sizes, and never to a
player whose pass showed he holds no card of that suit or rank (G2).
"""

from __future__ import annotations

import random
from collections.abc import Callable

from parlour.cards import Card, deck52
from parlour.errors import InvalidRecord
from parlour.games.death.position import Position
from parlour.games.death.rules import DeathState
from parlour.games.death.view import DeathView

__all__ = ["sample_state"]

_TRIES = 12
"""Quick randomized deals tried before the exact one (:func:`_matched`): a quick deal almost
always succeeds, but with many players and many voids it may fail where a deal exists."""

Allowed = Callable[[Card, int], bool]


def _deal_unseen(view: DeathView, rng: random.Random) -> list[list[Card]]:
    """Random hands for the other seats that hold their known cards and respect sizes and
    voids; the most constrained cards first, each to a random seat that may hold it, weighted
    by the room it has left. When that keeps failing, an exact assignment (:func:`_matched`)
    finds a deal whenever one exists."""
    others = [s for s in range(view.players) if s != view.seat]
    known = {s: list(view.known_in_hands[s]) for s in others}
    seen = {*(view.hand or ()), *view.pile, *view.swept, *(c for s in others for c in known[s])}
    unseen = [c for c in deck52() if c not in seen]

    def allowed(card: Card, seat: int) -> bool:
        return (
            card.suit not in view.void_suits[seat] and int(card.rank) not in view.void_ranks[seat]
        )

    for _ in range(_TRIES):
        rng.shuffle(unseen)
        order = sorted(unseen, key=lambda c: sum(allowed(c, s) for s in others))
        room = {s: view.hand_sizes[s] - len(known[s]) for s in others}
        hands: dict[int, list[Card]] = {s: list(known[s]) for s in others}
        for card in order:
            seats = [s for s in others if room[s] and allowed(card, s)]
            if not seats:
                break
            seat = rng.choices(seats, weights=[room[s] for s in seats])[0]
            hands[seat].append(card)
            room[seat] -= 1
        else:
            return _shuffled(view, hands, rng)
    room = {s: view.hand_sizes[s] - len(known[s]) for s in others}
    matched = _matched(unseen, room, allowed, rng)
    if matched is None:
        raise InvalidRecord(
            "no deal of the unseen cards agrees with this view (its hand sizes, voids and "
            "known cards, G1-G7)"
        )
    hands = {s: known[s] + matched.get(s, []) for s in others}
    return _shuffled(view, hands, rng)


def _shuffled(
    view: DeathView, hands: dict[int, list[Card]], rng: random.Random
) -> list[list[Card]]:
    for cards in hands.values():
        rng.shuffle(cards)  # the order of a hand is never seen
    return [hands.get(s, []) for s in range(view.players)]


def _matched(
    unseen: list[Card], room: dict[int, int], allowed: Allowed, rng: random.Random
) -> dict[int, list[Card]] | None:
    """An assignment of every unseen card to a seat that may hold it, each seat getting its
    room exactly (bipartite matching of cards to the seats' free places by augmenting paths,
    in random order), then mixed by random swaps that keep every void; ``None`` if no deal
    exists."""
    places = [s for s, n in room.items() for _ in range(max(0, n))]
    if len(places) != len(unseen):
        return None
    rng.shuffle(places)
    cards = list(unseen)
    rng.shuffle(cards)
    fits = [[k for k, s in enumerate(places) if allowed(card, s)] for card in cards]
    holder: list[int] = [-1] * len(places)  # place -> card index

    def augment(i: int, visited: set[int]) -> bool:
        for k in fits[i]:
            if k in visited:
                continue
            visited.add(k)
            if holder[k] < 0 or augment(holder[k], visited):
                holder[k] = i
                return True
        return False

    for i in range(len(cards)):
        if not augment(i, set()):
            return None
    seat_of = {cards[i]: places[k] for k, i in enumerate(holder)}
    # Random swaps between two hands where both cards may go, so that the deal does not keep
    # the order in which the matching happened to place the cards.
    for _ in range(4 * len(cards)):
        a, b = rng.choice(cards), rng.choice(cards)
        sa, sb = seat_of[a], seat_of[b]
        if sa != sb and allowed(a, sb) and allowed(b, sa):
            seat_of[a], seat_of[b] = sb, sa
    out: dict[int, list[Card]] = {}
    for card in unseen:
        out.setdefault(seat_of[card], []).append(card)
    return out


def sample_state(view: DeathView, rng: random.Random) -> DeathState:
    """A full state with ``sample_state(v, rng).view(v.seat) == v``."""
    dealt = _deal_unseen(view, rng)
    hands = tuple(
        view.hand if seat == view.seat and view.hand is not None else tuple(dealt[seat])
        for seat in range(view.players)
    )
    # At the end every hand is shown (G11): the known cards are then the whole hands.
    known = tuple(frozenset() if view.over else frozenset(cards) for cards in view.known_in_hands)
    position = Position(
        options=view.options,
        hands=hands,
        pile=view.pile,
        pile_seats=view.pile_seats,
        swept=view.swept,
        taken=view.drinks_taken,
        given=view.drinks_given,
        pending=view.pending_give,
        to_move=view.to_move,
        last_thrower=view.last_thrower,
        passed=view.passed,
        first_out=view.first_out,
        void_suits=view.void_suits,
        void_ranks=view.void_ranks,
        known=known,
        over=view.over,
    )
    return DeathState._make(position)
