"""The PettingZoo AEC environments: PettingZoo's own api_test and seed_test on every game and
player count, whole games whose rewards are the outcome's returns, and the ansi table."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from parlour.adapters import pettingzoo as pz
from parlour.adapters.encoding import layout_for
from parlour.errors import InvalidOption
from parlour.games import GAMES
from tests.adapters.cases import CASES, case_id


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_pettingzoo_api_and_seed_tests(case: tuple[str, int]) -> None:
    name, players = case
    with warnings.catch_warnings():
        # api_test asks for a Box observation space; dict observations with an action mask
        # are what PettingZoo's own classic card games use too.
        warnings.filterwarnings("ignore", message="Observation space for each agent")
        warnings.filterwarnings("ignore", message="Observation is not a NumPy array")
        api_test(pz.env(name, players), num_cycles=300)
    seed_test(lambda: pz.env(name, players), num_cycles=300)


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_a_whole_game_pays_the_outcome(case: tuple[str, int]) -> None:
    """Masked random play to the end: each observation is the layout of that seat's view, the
    mask holds exactly the legal ids, and the rewards are the outcome's returns."""
    name, players = case
    env = pz.env(name, players, options={"max_turns": 300} if name == "beor" else None)
    env.reset(seed=3)
    layout = layout_for(GAMES[name], players)
    rng = np.random.default_rng(3)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    steps = 0
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        totals[agent] += float(reward)
        state = env.game_state
        seat = env.possible_agents.index(agent)
        assert np.array_equal(obs["observation"], layout.observe(state.view(seat)))
        if terminated or truncated:
            env.step(None)
            continue
        assert state.to_move == seat
        legal = np.flatnonzero(obs["action_mask"])
        assert tuple(legal) == state.legal_action_ids()
        env.step(int(rng.choice(legal)))
        steps += 1
    outcome = env.game_state.outcome
    assert outcome is not None and steps == env.game_state.log_length() - 1
    assert [totals[a] for a in env.possible_agents] == list(outcome.returns)


def test_render_ansi_shows_the_seat_to_move_only_its_hand() -> None:
    env = pz.env("beor", 2, render_mode="ansi")
    env.reset(seed=1)
    text = env.render()
    assert text is not None and "Player 1 to move" in text
    hand = env.game_state.to_json()["hands"]
    assert isinstance(hand, list) and isinstance(hand[1], list)
    shown = [c for c in hand[1] if isinstance(c, str) and c in text]
    assert "Your hand" in text and not shown
    assert pz.env("beor", 2).render() is None


def test_same_seed_same_game_and_reset_without_seed_moves_on() -> None:
    a, b = pz.env("death", 4), pz.env("death", 4)
    a.reset(seed=9)
    b.reset(seed=9)
    assert a.game_state.to_json() == b.game_state.to_json()
    a.reset()
    b.reset()
    assert a.game_state.to_json() == b.game_state.to_json()
    first = a.game_state.to_json()
    a.reset(seed=9)
    assert a.game_state.to_json() != first


def test_bad_arguments_name_the_problem() -> None:
    with pytest.raises(InvalidOption, match="unknown game"):
        pz.env("chess")
    with pytest.raises(InvalidOption, match="2 to 5 players"):
        pz.env("beor", 6)
    with pytest.raises(InvalidOption, match="max_turns"):
        pz.env("beor", 2, options={"max_turns": 0})
