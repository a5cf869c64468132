"""Game of Death playouts: the Python rules engine, the compiled kernel (games/death/playout.py)
and a reference on the same machine, OpenSpiel's C++ ``crazy_eights`` driven from Python.

Steps are actions applied (throws, passes, gives; the reference's chance outcomes too), per
second of one core, the best of ``--repeat`` runs; the kernel's compile time is left out (it
is compiled, or loaded from numba's cache, before the clock starts). Rows:

- rules engine: ``state.apply(rng.choice(state.legal_actions()))`` from the deal to the end;
- kernel, random / heuristic: whole playouts from the deal in one compiled call
  (``play_many``; the deals converted before the clock starts), so the kernel alone;
- crazy_eights (reference): ``state.apply_action(rng.choice(state.legal_actions()))``, chance
  nodes drawn by their outcome probabilities.

Then what a search pays per iteration: microseconds per ``playout(...)`` call from mid-game
states (Python conversion included), random and heuristic, to the end.

    .venv/bin/python benchmarks/bench_death_kernel.py
    .venv/bin/python benchmarks/bench_death_kernel.py --games 2000 --players 2 4 6
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

import numpy as np
import pyspiel

from parlour.games.death.game import DeathGame
from parlour.games.death.playout import encode, play_many, playout
from parlour.games.death.rules import DeathState

GAME = DeathGame()


def deals(players: int, games: int, seed: int) -> list[DeathState]:
    states = []
    for i in range(games):
        state = GAME.new(players, seed + i)
        assert isinstance(state, DeathState)
        states.append(state)
    return states


def rules_engine(players: int, games: int, seed: int) -> tuple[int, float]:
    """Steps and seconds of random playouts in the rules engine."""
    states = deals(players, games, seed)
    steps = 0
    began = time.perf_counter()
    for i, state in enumerate(states):
        rng = random.Random(seed + i)
        while not state.is_over:
            state = state.apply(rng.choice(state.legal_actions()))
            steps += 1
    return steps, time.perf_counter() - began


def kernel(players: int, games: int, seed: int, heuristic: bool) -> tuple[int, float]:
    """Steps and seconds of whole playouts in the kernel, one compiled call for all."""
    positions = np.stack([encode(state) for state in deals(players, games, seed)])
    play_many(positions[:2].copy(), seed, 10_000, heuristic)  # compiled before the clock
    began = time.perf_counter()
    steps = play_many(positions, seed, 10_000, heuristic)
    return steps, time.perf_counter() - began


def crazy_eights(players: int, games: int, seed: int) -> tuple[int, float]:
    """Steps and seconds of random playouts of OpenSpiel's C++ crazy_eights."""
    game = pyspiel.load_game("crazy_eights", {"players": players})
    rng = random.Random(seed)
    steps = 0
    began = time.perf_counter()
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes(), strict=True)
                action = rng.choices(actions, probs)[0]
            else:
                action = rng.choice(state.legal_actions())
            state.apply_action(action)
            steps += 1
    return steps, time.perf_counter() - began


def best(repeat: int, run: Callable[..., tuple[int, float]], *args: object) -> tuple[int, float]:
    """The fastest of ``repeat`` runs of ``run(*args)`` (steps, seconds)."""
    return min((run(*args) for _ in range(repeat)), key=lambda r: r[1] / max(r[0], 1))


def midgame(players: int, count: int, seed: int) -> list[DeathState]:
    """States drawn from random games before their end, as a search samples them."""
    found = []
    for i in range(count):
        rng = random.Random(seed + i)
        state = GAME.new(players, seed + i)
        assert isinstance(state, DeathState)
        line = [state]
        while not state.is_over:
            state = state.apply(rng.choice(state.legal_actions()))
            line.append(state)
        found.append(rng.choice(line[: len(line) // 2 + 1]))
    return found


def per_call(players: int, count: int, seed: int, heuristic: bool, repeat: int) -> float:
    """Microseconds per ``playout`` call to the end from mid-game states."""
    states = midgame(players, count, seed)
    playout(states[0], 0, 10_000, heuristic)
    took = []
    for _ in range(repeat):
        began = time.perf_counter()
        for i, state in enumerate(states):
            playout(state, i, 10_000, heuristic)
        took.append(time.perf_counter() - began)
    return min(took) / count * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300, help="games per row (kernel: x20)")
    parser.add_argument("--players", type=int, nargs="+", default=[2, 4])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3, help="runs; the fastest counts")
    args = parser.parse_args()
    g, seed, repeat = args.games, args.seed, args.repeat
    print(f"{'players':>7}  {'engine':<34} {'steps/s':>13} {'vs reference':>13}")
    for players in args.players:
        rows = [
            ("crazy_eights C++ (reference)", best(repeat, crazy_eights, players, g, seed)),
            ("rules engine, random", best(repeat, rules_engine, players, g, seed)),
            ("kernel, random", best(repeat, kernel, players, 20 * g, seed, False)),
            ("kernel, heuristic", best(repeat, kernel, players, 20 * g, seed, True)),
        ]
        reference = rows[0][1][0] / rows[0][1][1]
        for label, (steps, took) in rows:
            rate = steps / took
            print(f"{players:>7}  {label:<34} {rate:>13,.0f} {rate / reference:>12.2f}x")
    print(f"\n{'players':>7}  {'playout() to the end, mid-game':<34} {'us/call':>13}")
    for players in args.players:
        for heuristic in (False, True):
            us = per_call(players, 2000, seed, heuristic, repeat)
            label = "heuristic" if heuristic else "random"
            print(f"{players:>7}  {label:<34} {us:>13.1f}")


if __name__ == "__main__":
    main()
