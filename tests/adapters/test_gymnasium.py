"""The Gymnasium environments: Gymnasium's own check_env on every game and player count,
seeded episodes that repeat, masks, rewards and illegal actions."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import parlour.adapters.gymnasium as pg
from parlour.errors import InvalidOption
from parlour.games import GAMES
from tests.adapters.cases import CASES, case_id

IDS = {game: env_id for env_id, game in pg.ENV_IDS}


def test_every_game_is_registered() -> None:
    assert sorted(IDS) == sorted(n for n, g in GAMES.items() if g.parts.features is not None)
    assert {"parlour/BEOR-v0", "parlour/Death-v0", "parlour/Beggar-v0"} <= set(IDS.values())


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_gymnasium_check_env(case: tuple[str, int]) -> None:
    name, players = case
    env = gymnasium.make(IDS[name], players=players, opponents="random")
    check_env(env.unwrapped, skip_render_check=True)
    env.close()


def episode(env: pg.ParlourEnv, seed: int) -> tuple[list[int], float, dict[str, object]]:
    """A seeded episode of masked random choices: the actions, the reward, the last info."""
    rng = np.random.default_rng(seed)
    obs, info = env.reset(seed=seed)
    actions: list[int] = []
    total = 0.0
    done = False
    while not done:
        mask = env.action_masks()
        assert np.array_equal(mask, info["action_mask"])
        assert tuple(np.flatnonzero(mask)) == env.game_state.legal_action_ids()
        action = int(rng.choice(np.flatnonzero(mask)))
        obs, reward, done, truncated, info = env.step(action)
        assert obs.shape == env.observation_space.shape and not truncated
        total += float(reward)
        actions.append(action)
    return actions, total, info


def test_seeded_episodes_repeat_and_pay_the_learning_seat() -> None:
    env = pg.ParlourEnv("beor", players=3, opponents="heuristic", seat=1)
    first = episode(env, 21)
    again = episode(env, 21)
    assert first[:2] == again[:2]
    outcome = env.game_state.outcome
    assert outcome is not None and first[1] == outcome.returns[1]
    assert first[2]["outcome"] == outcome.to_json()
    assert episode(env, 22)[0] != first[0]


def test_the_bots_play_the_other_seats() -> None:
    env = pg.ParlourEnv("death", players=4, opponents=["heuristic", "random", "ismcts:20"])
    env.reset(seed=4)
    assert env.game_state.to_move == 0
    with pytest.raises(InvalidOption, match="one opponent or 3"):
        pg.ParlourEnv("death", players=4, opponents=["random"])
    with pytest.raises(InvalidOption, match="unknown agent"):
        pg.ParlourEnv("death", players=4, opponents="chess-engine")


def test_beggar_needs_no_bots() -> None:
    env = gymnasium.make("parlour/Beggar-v0", players=2, opponents="heuristic")
    _, info = env.reset(seed=1)
    assert list(np.flatnonzero(info["action_mask"])) == [0]
    done, reward = False, 0.0
    while not done:
        _, r, done, _, info = env.step(0)
        reward += float(r)
    assert reward == info["outcome"]["returns"][0]


def test_an_illegal_action_ends_the_episode_and_leaves_the_game() -> None:
    env = pg.ParlourEnv("beor", players=2)
    env.reset(seed=2)
    before = env.game_state.to_json()
    illegal = int(np.flatnonzero(~env.action_masks())[0])
    _, reward, terminated, _, info = env.step(illegal)
    assert (reward, terminated) == (-1.0, True)
    assert info["illegal"] == "action 0: JK1 is not in Player 1's hand"
    assert env.game_state.to_json() == before
    with pytest.raises(gymnasium.error.ResetNeeded):
        env.step(0)
