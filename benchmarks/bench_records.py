"""States and views written as JSON (records, rooms, replays): microseconds a position on one
core, against the reference of ``json.dumps`` writing the same dictionary as text.

.venv/bin/python benchmarks/bench_records.py                 # every built-in game, 3 players
.venv/bin/python benchmarks/bench_records.py --game beor --players 5

The positions are those of random playouts (seeds 1 on); the processor time of the fastest of
``--repeat`` runs counts. The ratio says how many times dearer building the dictionary is than
writing it out, so it holds from one machine to another.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections.abc import Callable

from parlour.core.game import State
from parlour.games import find_game


def positions(name: str, players: int, games: int, seed: int) -> list[State]:
    """Every position of ``games`` random playouts, the last included."""
    game = find_game(name)
    out: list[State] = []
    for i in range(games):
        state = game.new(players, seed + i)
        rng = random.Random(seed + i)
        out.append(state)
        while not state.is_over:
            state = state.apply(rng.choice(state.legal_actions()))
            out.append(state)
    return out


def fastest(work: Callable[[], object], repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        began = time.process_time()
        work()
        best = min(best, time.process_time() - began)
    return best


def measure(found: list[State], repeat: int) -> tuple[float, float, float, float]:
    """Seconds for every position's state and seat 0's view as JSON, and for ``json.dumps`` of
    each."""
    states = [s.to_json() for s in found]
    views = [s.view(0).to_json() for s in found]
    return (
        fastest(lambda: [s.to_json() for s in found], repeat),
        fastest(lambda: [json.dumps(d) for d in states], repeat),
        fastest(lambda: [s.view(0).to_json() for s in found], repeat),
        fastest(lambda: [json.dumps(d) for d in views], repeat),
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", nargs="+", default=["beor", "death", "beggar"])
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3, help="runs; the fastest counts")
    args = parser.parse_args()
    print("game     positions  state us  x dumps  view us  x dumps")
    for name in args.game:
        info = find_game(name).info
        players = min(max(args.players, info.min_players), info.max_players)
        found = positions(name, players, args.games, args.seed)
        state, state_text, view, view_text = measure(found, args.repeat)
        per = 1e6 / len(found)
        print(
            f"{name:8} {len(found):9d} {state * per:9.1f} {state / state_text:8.2f} "
            f"{view * per:8.1f} {view / view_text:8.2f}"
        )


if __name__ == "__main__":
    main()
