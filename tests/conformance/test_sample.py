"""``sample`` keeps its contract (ARCHITECTURE.md, "The contract"): ``sample(v, rng).view(v.seat)
== v`` for every seat at every point, with legal actions unless the game is over; and seeds
reproduce, for deals and for samples."""

from __future__ import annotations

import pytest

from parlour.core import make_rng
from parlour.games import GAMES
from tests.conformance.playouts import CASES, Case, case_id, playouts, seats, spread


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
