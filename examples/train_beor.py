"""Train a small masked policy for 2-player BEOR against Parlour's random bot, then measure it.

    .venv/bin/python examples/train_beor.py                    # the full run (under 10 minutes)
    .venv/bin/python examples/train_beor.py --timesteps 20000 --games 100   # a short one

The learner is sb3-contrib's MaskablePPO (a small MLP, CPU only) on ``parlour/BEOR-v0``: two
environments, one with the learner as Player 1 and one as Player 2, each against the random
bot; the reward is the learner's win share when the game ends. Then it plays ``--games`` new
deals (seeds never used in training) against the random bot, half in each seat, choosing its
most likely legal action, and prints its score (a win 1, a draw 1/2, a loss 0) with a 95%
interval: the policy beats the random bot when the whole interval lies above 1/2.
``--json`` prints the result as JSON.
"""

from __future__ import annotations

import argparse
import json
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from typing import Any

import gymnasium
import numpy as np
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.vec_env import DummyVecEnv

from parlour.adapters.gymnasium import ParlourEnv

EVAL_SEED = 10**12
"""Evaluation deals are seeds from here on; training draws its seeds from ``--seed``."""


@dataclass(frozen=True)
class Result:
    timesteps: int
    train_seconds: float
    games: int
    wins: int
    draws: int
    losses: int
    score: float
    low: float
    high: float
    beats_random: bool


def make_env(seat: int) -> ParlourEnv:
    return ParlourEnv("beor", players=2, opponents="random", seat=seat)


def train(
    timesteps: int, seed: int, makers: Sequence[Callable[[], gymnasium.Env[Any, Any]]] = ()
) -> MaskablePPO:
    """MaskablePPO trained for ``timesteps`` steps in the environments ``makers`` make (by
    default BEOR against the random bot as Player 1 and as Player 2)."""
    envs = DummyVecEnv(list(makers) or [lambda: make_env(0), lambda: make_env(1)])
    envs.seed(seed)
    model = MaskablePPO(
        "MlpPolicy",
        envs,
        learning_rate=3e-4,
        n_steps=1024,
        batch_size=256,
        n_epochs=4,
        gamma=0.995,
        ent_coef=0.01,
        policy_kwargs={"net_arch": [128, 128]},
        seed=seed,
        device="cpu",
        verbose=0,
    )
    model.learn(total_timesteps=timesteps)
    return model


def evaluate(
    model: MaskablePPO,
    games: int,
    make: Callable[[int], ParlourEnv] = make_env,
    first_seed: int = EVAL_SEED,
) -> tuple[int, int, int]:
    """Wins, draws and losses of the policy over ``games`` deals, seeds ``first_seed`` on, the
    policy in seat ``number % 2`` of ``make(seat)`` (by default against the random bot).

    The deals are played side by side: at each step the policy chooses for every deal still
    running in one batched call (the network's cost is per call, not per deal), and each deal
    goes on alone from its own seed, as it would played by itself."""
    envs = [make(number % 2) for number in range(games)]
    observations = [env.reset(seed=first_seed + number)[0] for number, env in enumerate(envs)]
    running = list(range(games))
    infos: list[dict[str, Any]] = [{} for _ in envs]
    while running:
        batch = np.stack([observations[i] for i in running])
        masks = np.stack([envs[i].action_masks() for i in running])
        actions, _ = model.predict(batch, action_masks=masks, deterministic=True)
        still = []
        for i, action in zip(running, actions, strict=True):
            observations[i], _, done, _, infos[i] = envs[i].step(int(action))
            if not done:
                still.append(i)
        running = still
    wins = draws = losses = 0
    for env, info in zip(envs, infos, strict=True):
        if "illegal" in info:
            raise AssertionError(info["illegal"])
        winners = info["outcome"]["winners"]
        if env.seat in winners:
            wins += 1
        elif winners:
            losses += 1
        else:
            draws += 1
    return wins, draws, losses


def interval(scores: list[float]) -> tuple[float, float, float]:
    """The mean score and its 95% interval (normal approximation; 500 games make it fine)."""
    n = len(scores)
    mean = sum(scores) / n
    sd = math.sqrt(sum((s - mean) ** 2 for s in scores) / (n - 1)) if n > 1 else 0.0
    half = 1.96 * sd / math.sqrt(n)
    return mean, mean - half, mean + half


def run(timesteps: int, games: int, seed: int) -> Result:
    torch.set_num_threads(1)
    started = time.perf_counter()
    model = train(timesteps, seed)
    seconds = time.perf_counter() - started
    wins, draws, losses = evaluate(model, games)
    mean, low, high = interval([1.0] * wins + [0.5] * draws + [0.0] * losses)
    return Result(timesteps, round(seconds, 1), games, wins, draws, losses, mean, low, high,
                  low > 0.5)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--timesteps", type=int, default=200_000)
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    np.random.seed(args.seed)
    result = run(args.timesteps, args.games, args.seed)
    if args.json:
        print(json.dumps(asdict(result)))
    else:
        print(
            f"trained {result.timesteps} steps in {result.train_seconds:.0f} s; against the "
            f"random bot over {result.games} games: {result.wins} wins, {result.draws} draws, "
            f"{result.losses} losses; score {result.score:.3f} "
            f"(95% interval {result.low:.3f} to {result.high:.3f}): "
            + ("beats the random bot" if result.beats_random else "not shown to beat it")
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
