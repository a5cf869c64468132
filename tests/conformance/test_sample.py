"""``sample`` keeps its contract (ARCHITECTURE.md, "The contract"): ``sample(v, rng).view(v.seat)
== v`` for every seat at every point, with legal actions unless the game is over; and seeds
reproduce, for deals and for samples."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from parlour.bots import make_agent
from parlour.core import State, make_rng
from parlour.games import GAMES
from tests.conformance.playouts import (
    CASES,
    Case,
    case_id,
    other_options,
    playouts,
    seats,
    spread,
)


@pytest.mark.parametrize("case", CASES, ids=case_id)
class TestSample:
    def test_a_sample_shows_its_seat_the_same_view(self, case: Case) -> None:
        for p in playouts(case):
            for i, state in enumerate(p.states):
                for seat in seats(state):
                    view = state.view(seat)
                    sampled = p.game.sample(view, make_rng(1000 * i + (seat or 0)))
                    where = f"{p.where(i)}, seat {seat}"
                    assert sampled.view(seat) == view, where
                    assert sampled.view(seat).to_json() == view.to_json(), where
                    assert sampled.is_over == state.is_over, where
                    assert sampled.to_move == state.to_move, where
                    if not state.is_over:
                        assert sampled.legal_actions(), where
                    if seat is not None and seat == state.to_move:
                        # The mover knows his own choices, whatever the others hold.
                        assert sampled.legal_actions() == state.legal_actions(), where

    def test_a_sampled_world_plays_on(self, case: Case) -> None:
        """A sample is a real position: every one of its legal actions applies."""
        for p in playouts(case):
            for i in spread(len(p.states) - 1):
                state = p.states[i]
                for seat in seats(state):
                    sampled = p.game.sample(state.view(seat), make_rng(i))
                    for action in sampled.legal_actions():
                        sampled.apply(action)

    def test_the_same_seed_samples_the_same_world(self, case: Case) -> None:
        for p in playouts(case):
            for i in spread(len(p.states)):
                state = p.states[i]
                for seat in seats(state):
                    view = state.view(seat)
                    one = p.game.sample(view, make_rng(7))
                    two = p.game.sample(view, make_rng(7))
                    for _ in range(6):
                        assert one.to_json() == two.to_json(), f"{p.where(i)}, seat {seat}"
                        if one.is_over:
                            break
                        action = one.legal_actions()[-1]
                        one, two = one.apply(action), two.apply(action)


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_the_same_seed_deals_the_same_game(case: Case) -> None:
    name, players = case
    game = GAMES[name]
    assert game.new(players, 5).to_json() == game.new(players, 5).to_json()
    assert game.new(players, 5).to_json() != game.new(players, 6).to_json()
    p = playouts(case)[0]
    again = game.new(players, p.seed, dict(p.options))
    for i, action in enumerate(p.actions[:50]):
        assert again.to_json() == p.states[i].to_json(), p.where(i)
        again = again.apply(action)


# -- a property over random positions ----------------------------------------------------------


@st.composite
def _positions(draw: st.DrawFn) -> tuple[State, str]:
    """A random position of a random game and player count, with the default options or every
    switch turned, reached by seeded play (heuristic or random moves, table entries of the Game
    of Death among them), and a description to replay it."""
    name = draw(st.sampled_from(sorted(GAMES)))
    game = GAMES[name]
    players = draw(st.integers(game.info.min_players, game.info.max_players))
    seed = draw(st.integers(0, 2**32))
    options = other_options(game) if draw(st.booleans()) else {}
    steps = draw(st.integers(0, 300))
    rng = random.Random(seed)
    agent = make_agent("heuristic", game) if game.info.decisions else None
    state = game.new(players, seed, dict(options))
    for _ in range(steps):
        if state.is_over:
            break
        mover = state.to_move
        legal = state.legal_actions()
        if agent is not None and mover is not None and rng.random() < 0.5:
            state = state.apply(agent.choose(state.view(mover), legal, rng))
        else:
            state = state.apply(rng.choice(legal))
    where = f"{name} {players}p seed {seed} options {options} after {steps} steps"
    return state, where


@given(_positions(), st.integers(0, 2**32), st.data())
def test_sample_keeps_its_contract_at_random_positions(
    position: tuple[State, str], sample_seed: int, data: st.DataObject
) -> None:
    """ARCHITECTURE.md, "The contract": for every seat (and the spectator) at any point of any
    game, ``sample(v, rng).view(v.seat) == v``; the sampled game is over exactly when the real
    one is, the same seat moves, it offers legal actions unless over (the mover's own are his
    real ones), and each of them applies."""
    state, where = position
    seat = data.draw(st.sampled_from(seats(state)))
    view = state.view(seat)
    sampled = state.game.sample(view, make_rng(sample_seed))
    where = f"{where}, seat {seat}, sample seed {sample_seed}"
    assert sampled.view(seat) == view, where
    assert sampled.view(seat).to_json() == view.to_json(), where
    assert (sampled.is_over, sampled.to_move) == (state.is_over, state.to_move), where
    if not state.is_over:
        assert sampled.legal_actions(), where
    if seat is not None and seat == state.to_move:
        assert sampled.legal_actions() == state.legal_actions(), where
    for action in sampled.legal_actions():
        sampled.apply(action)
