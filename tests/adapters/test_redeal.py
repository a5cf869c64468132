"""Never over at reset (issue 29.1): a deal that ends before the learner's first decision is
dealt again, from the next seed of a fixed chain, in Gymnasium and PettingZoo.

The seeds below were found by dealing seeds from 0 up (a search script, not kept): BEOR deals
that are won at once (ruling B5, natural win: over at ``game.new``), and deals a bot ends on its
first draw before a later learning seat moves (the bots' moves are seeded from the deal's seed,
so these stay fixed while the environment seeds its bots the same way).
"""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest
from hypothesis import example, given
from hypothesis import strategies as st

import parlour.adapters.gymnasium as pg
from parlour.adapters import pettingzoo as pz
from parlour.adapters.redeal import MAX_REDEALS, deal_with_decision, next_deal_seed
from parlour.core.rng import MAX_SEED
from parlour.errors import InvalidOption
from parlour.games import GAMES
from tests.adapters.cases import CASES

NATURAL = {2: 106450, 3: 991, 4: 3906, 5: 4184}
"""A BEOR seed of each player count whose deal is won at once (106450: the issue's seed)."""
BOT_ENDED = [(3, 2, 1095), (4, 3, 2488), (5, 2, 447), (5, 4, 447)]
"""BEOR (players, learning seat, seed): a random bot moving before the seat wins at once."""
SEATS = [(name, players, seat) for name, players in CASES for seat in range(players)]
"""Every registered game (the Crazy Eights example too), player count and learning seat."""


def chain(seed: int, redeals: int) -> int:
    for _ in range(redeals):
        seed = next_deal_seed(seed)
    return seed


def test_the_issues_seed_gives_a_playable_first_observation() -> None:
    assert GAMES["beor"].new(2, 106450).is_over  # what the learner used to get: nothing to do
    env = gymnasium.make("parlour/BEOR-v0", players=2)
    obs, info = env.reset(seed=106450)
    assert (info["redeals"], info["deal_seed"]) == (1, next_deal_seed(106450))
    assert info["action_mask"].any() and obs.shape == env.observation_space.shape
    # the README's loop: a step with the first legal action
    obs, reward, terminated, _, info = env.step(int(info["action_mask"].argmax()))
    rng = np.random.default_rng(0)
    while not terminated:
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        obs, reward, terminated, _, info = env.step(action)
    assert "illegal" not in info and reward == info["outcome"]["returns"][0]


@pytest.mark.parametrize("players", sorted(NATURAL))
def test_a_natural_win_is_dealt_again_for_every_seat(players: int) -> None:
    seed = NATURAL[players]
    outcome = GAMES["beor"].new(players, seed).outcome
    assert outcome is not None and outcome.to_json()["turns"] == 0
    for seat in range(players):
        env = pg.ParlourEnv("beor", players=players, seat=seat)
        _, info = env.reset(seed=seed)
        assert info["redeals"] >= 1 and info["action_mask"].any()
        assert env.game_state.to_move == seat and not env.game_state.is_over


@pytest.mark.parametrize(("players", "seat", "seed"), BOT_ENDED)
def test_a_deal_a_bot_ends_before_the_learner_moves_is_dealt_again(
    players: int, seat: int, seed: int
) -> None:
    assert not GAMES["beor"].new(players, seed).is_over
    _, info = pg.ParlourEnv("beor", players=players, seat=0).reset(seed=seed)
    assert info["redeals"] == 0  # Player 1 moves first: the same deal is playable for it
    env = pg.ParlourEnv("beor", players=players, seat=seat)
    obs, info = env.reset(seed=seed)
    assert (info["redeals"], info["deal_seed"]) == (1, next_deal_seed(seed))
    assert np.flatnonzero(info["action_mask"]).tolist() == list(env.game_state.legal_action_ids())
    # the deal played is the one its seed deals: reproducible on its own
    again, same = pg.ParlourEnv("beor", players=players, seat=seat).reset(seed=info["deal_seed"])
    assert same["redeals"] == 0 and np.array_equal(again, obs)


@pytest.mark.parametrize("players", sorted(NATURAL))
def test_pettingzoo_deals_a_natural_win_again_and_the_docs_loop_plays(players: int) -> None:
    e = pz.env("beor", players)
    e.reset(seed=NATURAL[players])
    assert e.infos["player_0"] == {"redeals": 1, "deal_seed": next_deal_seed(NATURAL[players])}
    assert not any(e.terminations.values())
    assert e.observe(e.agent_selection)["action_mask"].any()
    rewards = dict.fromkeys(e.possible_agents, 0.0)
    for agent in e.agent_iter():  # the loop of docs/researchers.md
        obs, reward, terminated, _, _ = e.last()
        rewards[agent] += float(reward)
        e.step(None if terminated else int(obs["action_mask"].nonzero()[0][0]))
    outcome = e.game_state.outcome
    assert outcome is not None and list(rewards.values()) == list(outcome.returns)


def test_pettingzoo_keeps_a_deal_that_someone_decides_in() -> None:
    """Only a deal over before anyone's decision is dealt again: every agent is a learner."""
    e = pz.env("beor", 4)
    e.reset(seed=2488)
    assert e.infos["player_3"]["redeals"] == 0
    assert e.game_state.to_json() == GAMES["beor"].new(4, 2488).to_json()


def test_the_parallel_api_starts_with_an_agent_to_move() -> None:
    par = pz.parallel_env("beor", 2)
    observations, infos = par.reset(seed=106450)
    assert infos["player_0"]["redeals"] == 1
    assert observations["player_0"]["action_mask"].any()


@given(case=st.sampled_from(SEATS), seed=st.integers(0, MAX_SEED))
@example(case=("beor", 2, 0), seed=NATURAL[2])
@example(case=("beor", 3, 1), seed=NATURAL[3])
@example(case=("beor", 4, 2), seed=NATURAL[4])
@example(case=("beor", 5, 3), seed=NATURAL[5])
@example(case=("beor", 3, 2), seed=1095)
@example(case=("beor", 4, 3), seed=2488)
@example(case=("beor", 5, 4), seed=447)
def test_gymnasium_reset_always_leaves_the_learner_a_decision(
    case: tuple[str, int, int], seed: int
) -> None:
    name, players, seat = case
    env = pg.ParlourEnv(name, players=players, seat=seat)
    obs, info = env.reset(seed=seed)
    assert info["action_mask"].any() and env.action_masks().any()
    assert env.game_state.to_move == seat and not env.game_state.is_over
    assert info["deal_seed"] == chain(seed, info["redeals"])
    twin_obs, twin = pg.ParlourEnv(name, players=players, seat=seat).reset(seed=seed)
    assert (twin["redeals"], twin["deal_seed"]) == (info["redeals"], info["deal_seed"])
    assert np.array_equal(twin_obs, obs)
    _, _, terminated, _, after = env.step(int(np.flatnonzero(info["action_mask"])[0]))
    assert "illegal" not in after and (terminated or after["action_mask"].any())


@given(case=st.sampled_from(CASES), seed=st.integers(0, MAX_SEED))
@example(case=("beor", 2), seed=NATURAL[2])
@example(case=("beor", 5), seed=NATURAL[5])
def test_pettingzoo_reset_always_leaves_an_agent_a_decision(
    case: tuple[str, int], seed: int
) -> None:
    name, players = case
    e = pz.env(name, players)
    e.reset(seed=seed)
    info = e.infos[e.agent_selection]
    assert not any(e.terminations.values()) and not any(e.truncations.values())
    assert e.observe(e.agent_selection)["action_mask"].any()
    assert info["deal_seed"] == chain(seed, info["redeals"])
    twin = pz.env(name, players)
    twin.reset(seed=seed)
    assert twin.game_state.to_json() == e.game_state.to_json()


def test_a_game_whose_deals_all_end_at_once_is_refused_by_name() -> None:
    over = GAMES["beor"].new(2, NATURAL[2])
    with pytest.raises(InvalidOption, match=f"{MAX_REDEALS + 1} deals in a row .* Player 2"):
        deal_with_decision(5, lambda seed: over, "Player 2")
