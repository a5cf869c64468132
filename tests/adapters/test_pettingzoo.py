"""The PettingZoo environments: PettingZoo's own api_test and seed_test on every game and
player count, whole games whose rewards are the outcome's returns, and the ansi table; the
parallel API through PettingZoo's turn-based wrapper (its parallel_api_test), and why
aec_to_parallel does not apply."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test, parallel_api_test, seed_test
from pettingzoo.utils.conversions import aec_to_parallel

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


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_the_parallel_env_passes_pettingzoos_parallel_api_test(case: tuple[str, int]) -> None:
    name, players = case
    options = {"max_turns": 100} if name == "beor" else None
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="Observation space for each agent")
        warnings.filterwarnings("ignore", message="Observation is not a NumPy array")
        parallel_api_test(pz.parallel_env(name, players, options), num_cycles=300)


def parallel_game(name: str, players: int, seed: int) -> list[tuple[str, int]]:
    """A masked random game through the parallel API: each step gives every agent an action,
    the one to move a legal one and the others 0, which is ignored. Returns who played what."""
    par = pz.parallel_env(name, players)
    observations, _ = par.reset(seed=seed)
    rng = np.random.default_rng(seed)
    played: list[tuple[str, int]] = []
    totals = dict.fromkeys(par.possible_agents, 0.0)
    while par.agents:
        movers = [a for a in par.agents if observations[a]["action_mask"].any()]
        assert len(movers) == 1  # a game of turns: one agent to move at a time
        mover = movers[0]
        action = int(rng.choice(np.flatnonzero(observations[mover]["action_mask"])))
        actions = dict.fromkeys(par.agents, 0) | {mover: action}
        observations, rewards, _, _, infos = par.step(actions)
        played.append((mover, action))
        for agent, reward in rewards.items():
            totals[agent] += float(reward)
        if par.agents:
            assert all(infos[a]["active_agent"] in par.agents for a in par.agents)
    state = par.unwrapped.game_state
    assert state.outcome is not None and len(played) == state.log_length() - 1
    assert [totals[a] for a in par.possible_agents] == list(state.outcome.returns)
    return played


@pytest.mark.parametrize("case", [("death", 3), ("crazy-eights", 4), ("beggar", 2)], ids=case_id)
def test_the_parallel_env_plays_one_mover_a_step_and_repeats(case: tuple[str, int]) -> None:
    """PettingZoo's parallel_seed_test samples actions without the mask, which these games
    refuse; the same check with legal actions: a seed plays the same game twice."""
    first = parallel_game(*case, seed=8)
    assert parallel_game(*case, seed=8) == first
    assert parallel_game(*case, seed=9) != first


def test_aec_to_parallel_does_not_apply_to_games_of_turns() -> None:
    """The AEC environment says it is not parallelizable, and PettingZoo's aec_to_parallel,
    made to take it anyway, breaks where a seat moves twice in a row (a Beggar-My-Neighbour
    payment), as docs/researchers.md says."""
    with pytest.raises(AssertionError, match="is_parallelizable"):
        aec_to_parallel(pz.env("death", 3))
    aec = pz.env("beggar", 2)
    aec.metadata = {**aec.metadata, "is_parallelizable": True}
    par = aec_to_parallel(aec)
    par.reset(seed=1)

    def play_cycles() -> None:
        for _ in range(200):
            par.step(dict.fromkeys(par.agents, 0))

    with pytest.raises(AssertionError, match="expects agents to step in a cycle"):
        play_cycles()
