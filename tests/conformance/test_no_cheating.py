"""Agents cannot cheat (ARCHITECTURE.md, "The contract": bots get Views and use ``sample``; a view
"holds no reference to the state").

Two worlds that differ in cards hidden from a seat but not in what the seat knows give that
seat the same view, and every agent given that view, the legal actions and equal generators
makes the same choice in both. Nothing reachable from a view is a State, a hidden card object or
a string naming a hidden card.
"""

from __future__ import annotations

import random

import pytest

from parlour.bots import make_agent
from parlour.core import State, View, make_rng
from parlour.games import GAMES
from tests.conformance.cardscan import cards_named, reachable, strings_and_cards
from tests.conformance.playouts import CASES, Case, Playout, case_id, playouts, seats, spread

AGENTS = ("random", "heuristic", "ismcts:20")
DECIDING = [c for c in CASES if GAMES[c[0]].info.decisions]


def _two_worlds(p: Playout, index: int, seat: int) -> tuple[State, State] | None:
    """Two samples of ``seat``'s view in which another seat holds different cards, if the
    view leaves anything to chance."""
    view = p.states[index].view(seat)
    first = p.game.sample(view, make_rng(0))
    others = [s for s in range(first.players) if s != seat]
    for seed in range(1, 20):
        other = p.game.sample(view, make_rng(seed))
        if any(other.view(s) != first.view(s) for s in others):
            return first, other
    return None


@pytest.mark.parametrize("case", DECIDING, ids=case_id)
def test_agents_choose_alike_in_worlds_the_seat_cannot_tell_apart(case: Case) -> None:
    for p in playouts(case):
        for i in spread(len(p.states) - 1, 4):
            mover = p.states[i].to_move
            assert mover is not None
            worlds = _two_worlds(p, i, mover)
            if worlds is None:
                # Then the view settles every hand (the Game of Death for two: each holds
                # what the other does not), and a sample is the real world.
                sampled = p.game.sample(p.states[i].view(mover), make_rng(0))
                assert all(sampled.view(s) == p.states[i].view(s) for s in range(p.players)), (
                    f"{p.where(i)}: every sample is the same world, and not the real one"
                )
                continue
            one, two = worlds
            view = p.states[i].view(mover)
            assert one.view(mover) == two.view(mover) == view, p.where(i)
            legal = p.states[i].legal_actions()
            assert one.legal_actions() == two.legal_actions() == legal, p.where(i)
            for spec in AGENTS:
                choices = [
                    make_agent(spec, p.game).choose(world.view(mover), legal, random.Random(3))
                    for world in (one, two)
                ]
                assert choices[0] == choices[1], f"{p.where(i)}: {spec} told the worlds apart"
                assert choices[0] in legal


def _check_holds_nothing_hidden(view: View, hidden: frozenset[str], where: str) -> None:
    objects = list(reachable(view))
    states = [type(o).__name__ for o in objects if isinstance(o, State)]
    assert not states, f"{where}: the view reaches a {states[0]}"
    strings, cards = strings_and_cards(objects)
    held = {str(c) for c in cards} & hidden
    assert not held, f"{where}: the view holds hidden card objects {sorted(held)}"
    named = set().union(*(cards_named(s) for s in strings)) & hidden
    assert not named, f"{where}: the view holds strings naming hidden cards {sorted(named)}"


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_a_view_holds_no_state_and_no_hidden_card(case: Case) -> None:
    for p in playouts(case):
        for i in spread(len(p.states)):
            state = p.states[i]
            for seat in seats(state):
                _check_holds_nothing_hidden(
                    state.view(seat), state.hidden_from(seat), f"{p.where(i)}, seat {seat}"
                )


def test_the_object_walk_finds_a_state_and_its_cards() -> None:
    """The walk above would see a view that kept its state, even behind a closure."""
    state = next(s for case in CASES for s in playouts(case)[0].states[:1] if s.hidden_from(None))
    hidden = state.hidden_from(None)

    class Sneaky:
        def __init__(self) -> None:
            self.peek = lambda: state

    objects = list(reachable(Sneaky()))
    assert any(o is state for o in objects)
    assert {str(c) for c in strings_and_cards(objects)[1]} & hidden
