"""Self-play in Gymnasium (issue 29.3): other seats played by policies (the learner's own, past
copies, any callable) beside Parlour's bots; MaskablePPO training one policy in both seats of a
2-player game, and learning on a seed whose first deal is over at once (issue 29.1).

The MaskablePPO runs live in this one file and import torch in the tests themselves: every
xdist worker collects every file, and only the worker that runs these should pay the 2.6 s of
processor time that importing torch and sb3-contrib takes."""

from __future__ import annotations

import random
import warnings
from typing import TYPE_CHECKING, Any

import gymnasium
import numpy as np
import numpy.typing as npt
import pytest

from parlour.adapters.gymnasium import ParlourEnv
from parlour.adapters.redeal import next_deal_seed
from parlour.adapters.selfplay import ModelPolicy, snapshot
from parlour.bots import make_agent
from parlour.core.game import Action, View
from parlour.errors import IllegalAction, InvalidInput, InvalidOption

if TYPE_CHECKING:
    import torch
    from sb3_contrib import MaskablePPO

Mask = npt.NDArray[np.bool_]


class Episodes(gymnasium.Wrapper[Any, Any, Any, Any]):
    """Records the learning seat's resets and finished episodes (its reward and outcome), and
    counts the moves the other seats made in the games it played."""

    def __init__(self, env: ParlourEnv) -> None:
        super().__init__(env)
        self.parlour = env
        self.resets: list[dict[str, Any]] = []
        self.done: list[tuple[float, Any]] = []
        self.steps = 0
        self.others = 0
        self._counted = 0

    def _count_others(self) -> None:
        state = self.parlour.game_state
        moves = sum(
            1 for e in state.log(None, self._counted) if e.kind == "action"
            and e.seat != self.parlour.seat
        )
        self.others += moves
        self._counted = state.log_length()

    def reset(self, **kwargs: Any) -> tuple[Any, dict[str, Any]]:
        obs, info = self.env.reset(**kwargs)
        self.resets.append({k: info[k] for k in ("redeals", "deal_seed")})
        self._counted = 0
        self._count_others()
        return obs, info

    def step(self, action: Any) -> tuple[Any, Any, bool, bool, dict[str, Any]]:
        obs, reward, terminated, truncated, info = self.env.step(action)
        self.steps += 1
        self._count_others()
        if terminated:
            self.done.append((float(reward), info["outcome"]))
        return obs, reward, terminated, truncated, info

    def action_masks(self) -> Mask:
        return self.parlour.action_masks()


def self_play(steps: int, seed: int) -> tuple[MaskablePPO, ModelPolicy, list[Episodes]]:
    """MaskablePPO with one policy in both seats of the 2-player Game of Death (games of about
    75 moves, always won by one seat): one environment per learning seat, the other seat
    played by the same model (bound once the model exists)."""
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import DummyVecEnv

    torch.set_num_threads(1)
    me = ModelPolicy()
    envs = [Episodes(ParlourEnv("death", players=2, seat=s, opponents=me)) for s in (0, 1)]
    vec = DummyVecEnv([lambda e=e: e for e in envs])  # type: ignore[misc]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model = MaskablePPO(
            "MlpPolicy", vec, n_steps=256, batch_size=128, n_epochs=2, seed=seed,
            policy_kwargs={"net_arch": [64, 64]}, device="cpu",
        )
    me.bind(model)
    model.learn(total_timesteps=steps)
    return model, me, envs


def weights(policy: Any) -> torch.Tensor:
    import torch

    return torch.nn.utils.parameters_to_vector(policy.parameters()).detach().clone()


def test_self_play_trains_two_seats_of_one_policy() -> None:
    import torch

    model, me, envs = self_play(2048, seed=0)
    for seat, env in enumerate(envs):
        assert env.parlour.seat == seat and env.steps >= 1024
        # both seats' experience: whole games played as Player 1 and as Player 2, won and lost
        assert len(env.done) >= 10
        assert {reward for reward, _ in env.done} >= {0.0, 1.0}
    # every move of the other seats was the policy's own
    assert me.calls == envs[0].others + envs[1].others > 1000
    # a past copy: frozen while the learner trains on, and it plays a seat of its own
    past = snapshot(model, deterministic=True)
    trained = weights(model.policy)
    assert torch.equal(weights(past.model), trained)
    model.learn(total_timesteps=512, reset_num_timesteps=False)
    assert torch.equal(weights(past.model), trained)
    assert not torch.equal(weights(model.policy), trained)
    table = ParlourEnv("death", players=2, seat=1, opponents=past)
    table.reset(seed=6)  # Player 1 leads: the past copy moves first
    assert past.calls == 1


def test_self_play_repeats_with_its_seed() -> None:
    import torch

    first, _, envs1 = self_play(512, seed=3)
    again, _, envs2 = self_play(512, seed=3)
    assert torch.equal(weights(first.policy), weights(again.policy))
    assert [e.done for e in envs1] == [e.done for e in envs2]
    assert [e.resets for e in envs1] == [e.resets for e in envs2]
    other, _, envs3 = self_play(512, seed=4)
    assert [e.resets for e in envs3] != [e.resets for e in envs1]
    assert not torch.equal(weights(first.policy), weights(other.policy))


def test_maskable_ppo_learns_on_a_seed_that_is_dealt_again() -> None:
    """The issue's seed (2-player BEOR, 106450: a natural win) used to crash MaskablePPO in
    ``learn``, its first observation's mask all false. SB3 resets environment 0 with the
    model's seed."""
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import DummyVecEnv

    torch.set_num_threads(1)
    env = Episodes(ParlourEnv("beor", players=2))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # a batch over a short rollout
        model = MaskablePPO("MlpPolicy", DummyVecEnv([lambda: env]), n_steps=64, seed=106450)
    model.learn(total_timesteps=128)
    assert env.resets[0] == {"redeals": 1, "deal_seed": next_deal_seed(106450)}
    assert model.num_timesteps == 128


def test_other_seats_may_be_bots_agents_and_policies() -> None:
    seen: list[tuple[int, list[int]]] = []

    def first_legal(observation: npt.NDArray[np.float32], mask: Mask) -> int:
        seen.append((int(observation.size), np.flatnonzero(mask).tolist()))
        return int(np.flatnonzero(mask)[0])

    class Agent:
        calls = 0

        def choose(self, view: View, legal: tuple[Action, ...], rng: random.Random) -> Action:
            Agent.calls += 1
            return legal[0]

    env = ParlourEnv("death", players=4, seat=3, opponents=["heuristic", Agent(), first_legal])
    _, info = env.reset(seed=2)  # Player 2 leads, then Player 3, then the learner
    assert env.game_state.to_move == 3 and info["action_mask"].any()
    assert Agent.calls >= 1 and len(seen) >= 1
    # the policy got Player 3's own observation and legal ids, the size of the learner's
    assert seen[0][0] == env.layout.size
    assert all(legal for _, legal in seen)
    both = ParlourEnv("death", players=2, opponents=make_agent("random", env.game))
    assert both.reset(seed=1)[1]["action_mask"].any()


def test_a_policy_that_plays_an_illegal_action_is_named() -> None:
    env = ParlourEnv("beor", players=2, seat=1, opponents=lambda obs, mask: 0)  # JK1
    with pytest.raises(IllegalAction, match="the policy playing Player 1 chose action 0"):
        env.reset(seed=2)


def test_bad_opponents_and_unbound_models_are_refused() -> None:
    with pytest.raises(InvalidOption, match="an opponent is an agent spec"):
        ParlourEnv("beor", players=2, opponents=[42])  # type: ignore[list-item]
    with pytest.raises(InvalidOption, match="one opponent or 2"):
        ParlourEnv("beor", players=3, opponents=["random"])
    env = ParlourEnv("beor", players=2, seat=1, opponents=ModelPolicy())
    with pytest.raises(InvalidInput, match="call bind"):
        env.reset(seed=1)
