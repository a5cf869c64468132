"""Agents see only views: the same view, legal actions and seed give the same choice, and the
hidden parts of the true state cannot change it (issue: 'No cheating, proven')."""

from __future__ import annotations

import random

import pytest

from parlour.bots import make_agent
from parlour.bots.ismcts import Ismcts
from parlour.core import InvalidOption, State, make_rng
from parlour.games import GAMES as REGISTERED
from parlour.games import find_game

SPECS = ["random", "heuristic", "ismcts:30", "ismcts:30:heuristic"]
# Every game with decisions has agents (a new game is tested here without a change).
GAMES = [g.name for g in REGISTERED.values() if g.info.decisions]


def seats(name: str, wanted: int) -> int:
    """``wanted`` players, or the nearest count the game allows."""
    info = find_game(name).info
    return min(max(wanted, info.min_players), info.max_players)


def positions(name: str, players: int, seed: int, count: int) -> list[State]:
    """Positions spread over a game played by random agents."""
    game = find_game(name)
    players = seats(name, players)
    rng = random.Random(seed)
    state = game.new(players, seed)
    seen: list[State] = []
    while not state.is_over and len(seen) < count:
        if rng.random() < 0.3:
            seen.append(state)
        state = state.apply(rng.choice(state.legal_actions()))
    return seen


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("spec", SPECS)
class TestNoCheating:
    def test_choice_ignores_what_the_view_hides(self, name: str, spec: str) -> None:
        """Two full states with the same view but different hidden cards get the same choice
        as the true state: the agent is only ever given the view."""
        game = find_game(name)
        agent = make_agent(spec, game)
        differed = 0
        for state in positions(name, 3, 5, 4):
            seat = state.to_move
            assert seat is not None
            view = state.view(seat)
            worlds = [state, game.sample(view, make_rng(1)), game.sample(view, make_rng(2))]
            assert all(w.view(seat) == view for w in worlds)
            differed += worlds[1].to_json() != worlds[2].to_json()
            choices = [
                str(agent.choose(w.view(seat), w.legal_actions(), random.Random(9))) for w in worlds
            ]
            assert len(set(choices)) == 1, choices
            assert choices[0] in {str(a) for a in state.legal_actions()}
        assert differed, "the hidden parts did differ between the worlds"

    def test_same_seed_same_choice(self, name: str, spec: str) -> None:
        agent = make_agent(spec, find_game(name))
        for state in positions(name, 2, 8, 3):
            seat = state.to_move
            assert seat is not None
            view, legal = state.view(seat), state.legal_actions()
            one = agent.choose(view, legal, random.Random(3))
            two = agent.choose(view, legal, random.Random(3))
            assert one == two


@pytest.mark.parametrize("name", GAMES)
def test_agents_finish_games_with_legal_actions(name: str) -> None:
    game = find_game(name)
    agents = [
        make_agent("heuristic", game),
        make_agent("random", game),
        make_agent("ismcts:10", game),
    ]
    state = game.new(seats(name, 3), 4)
    rngs = [random.Random(s) for s in range(state.players)]
    moves = 0
    while not state.is_over and moves < 400:
        seat = state.to_move
        assert seat is not None
        legal = state.legal_actions()
        action = agents[seat % 3].choose(state.view(seat), legal, rngs[seat])
        assert action in legal
        state = state.apply(action)
        moves += 1
    assert state.is_over


class TestSpecs:
    def test_default_budget_and_forms(self) -> None:
        game = find_game("beor")
        agent = make_agent("ismcts", game)
        assert isinstance(agent, Ismcts) and agent.budget.iterations == 400  # README
        timed = make_agent("ismcts:0.5s", game)
        assert isinstance(timed, Ismcts) and timed.budget.seconds == 0.5
        assert isinstance(make_agent("ISMCTS:25:heuristic", game), Ismcts)

    @pytest.mark.parametrize(
        ("spec", "needle"),
        [
            ("minimax", "unknown agent 'minimax'"),
            ("ismcts:0", "the budget is a number of iterations"),
            ("ismcts:fast", "the budget is a number of iterations"),
            ("ismcts:10:greedy", "the rollout policy is heuristic or random"),
        ],
    )
    def test_bad_specs_name_the_problem(self, spec: str, needle: str) -> None:
        with pytest.raises(InvalidOption, match=needle):
            make_agent(spec, find_game("death"))

    def test_beggar_has_no_decisions(self) -> None:
        with pytest.raises(InvalidOption, match="no decisions"):
            make_agent("random", find_game("beggar"))

    def test_a_time_budget_is_kept(self) -> None:
        import time

        game = find_game("death")
        state = positions("death", 4, 2, 1)[0]
        seat = state.to_move
        assert seat is not None
        agent = make_agent("ismcts:0.05s", game)
        began = time.perf_counter()
        agent.choose(state.view(seat), state.legal_actions(), random.Random(1))
        assert time.perf_counter() - began < 1.0
