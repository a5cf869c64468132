"""Environment steps a second of Parlour's adapters, beside each library's own card games, in
one run on this machine.

.venv/bin/python benchmarks/bench_adapters.py               # 5 s of play for each row
.venv/bin/python benchmarks/bench_adapters.py --seconds 10

Every row plays whole games with uniformly random legal actions (the action mask, or the
chance outcomes' probabilities) for ``--seconds`` and counts steps:

- PettingZoo AEC: one ``step`` per action, with ``last()`` read before it (the observation and
  mask every agent loop reads). References: PettingZoo's classic ``leduc_holdem_v4`` and
  ``texas_holdem_v4`` (RLCard's games).
- Gymnasium: one ``step`` of the learning seat, the other seats played by the random bot
  inside it (so one step holds one or more game moves); no reference of Gymnasium's own.
- OpenSpiel: one ``apply_action`` per node, chance nodes included, with the mover's
  observation tensor read at each decision. Reference: OpenSpiel's Python ``liars_poker``
  (``python_liars_poker``), a Python game like ours.

The ratio column is the row's rate over its library's first reference (none for Gymnasium).
The figures move with whatever else the machine is doing: run it on a quiet machine and compare
rows of one run only.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from functools import partial
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.games import liars_poker  # noqa: F401 (registers python_liars_poker)
from pettingzoo.classic import leduc_holdem_v4, texas_holdem_v4

import parlour.adapters.openspiel  # noqa: F401 (registers parlour_*)
from parlour.adapters import pettingzoo as pz
from parlour.adapters.gymnasium import ParlourEnv

CASES = (("beor", 2), ("beor", 4), ("death", 4), ("beggar", 2))


def timed(play_one: Callable[[int], int], seconds: float) -> tuple[float, int, int]:
    """Steps a second of whole games played one after another (seeds 0, 1, ...) until
    ``seconds`` have passed: the rate, the steps and the games."""
    steps = games = 0
    began = time.perf_counter()
    while time.perf_counter() - began < seconds:
        steps += play_one(games)
        games += 1
    return steps / (time.perf_counter() - began), steps, games


def aec_game(make: Callable[[], Any]) -> Callable[[int], int]:
    env = make()

    def play(seed: int) -> int:
        rng = np.random.default_rng(seed)
        env.reset(seed=seed)
        steps = 0
        for _ in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
            else:
                env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            steps += 1
        return steps

    return play


def gym_game(name: str, players: int) -> Callable[[int], int]:
    env = ParlourEnv(name, players=players, opponents="random")

    def play(seed: int) -> int:
        rng = np.random.default_rng(seed)
        env.reset(seed=seed)
        steps, done = 0, False
        while not done:
            action = int(rng.choice(np.flatnonzero(env.action_masks())))
            _, _, done, _, _ = env.step(action)
            steps += 1
        return steps

    return play


def spiel_game(name: str, params: dict[str, Any]) -> Callable[[int], int]:
    game = pyspiel.load_game(name, params)

    def play(seed: int) -> int:
        rng = np.random.default_rng(seed)
        state = game.new_initial_state()
        steps = 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probabilities = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(int(rng.choice(outcomes, p=probabilities)))
            else:
                state.observation_tensor(state.current_player())
                state.apply_action(int(rng.choice(state.legal_actions())))
            steps += 1
        return steps

    return play


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0)
    args = parser.parse_args()
    rows: list[tuple[str, str, Callable[[int], int]]] = [
        ("PettingZoo", "leduc_holdem_v4 (reference)", aec_game(leduc_holdem_v4.env)),
        ("PettingZoo", "texas_holdem_v4 (reference)", aec_game(texas_holdem_v4.env)),
        *[
            ("PettingZoo", f"parlour {name} {n}p", aec_game(partial(pz.env, name, n)))
            for name, n in CASES
        ],
        *[("Gymnasium", f"parlour {name} {n}p", gym_game(name, n)) for name, n in CASES],
        ("OpenSpiel", "python_liars_poker (reference)", spiel_game("python_liars_poker", {})),
        *[
            ("OpenSpiel", f"parlour_{name} {n}p", spiel_game(f"parlour_{name}", {"players": n}))
            for name, n in CASES
        ],
    ]
    print(f"{'library':10}  {'environment':31}  {'steps/s':>9}  {'x ref':>6}  steps / games")
    reference: dict[str, float] = {}
    for library, label, play in rows:
        rate, steps, games = timed(play, args.seconds)
        if label.endswith("(reference)"):
            reference.setdefault(library, rate)
        base = reference.get(library)
        ratio = "" if base is None else f"{rate / base:.2f}"
        print(f"{library:10}  {label:31}  {rate:9.0f}  {ratio:>6}  {steps} / {games}")


if __name__ == "__main__":
    main()
