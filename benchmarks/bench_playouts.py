"""Random BEOR playouts: actions per second of the rules engine on one core.

.venv/bin/python benchmarks/bench_beor.py                  # 2 and 4 players
.venv/bin/python benchmarks/bench_beor.py --profile        # where the time goes
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import time

from parlour.games import find_game


def playouts(name: str, players: int, games: int, seed: int) -> tuple[int, float]:
    """Actions played and seconds taken by ``games`` random playouts."""
    game = find_game(name)
    actions = 0
    began = time.perf_counter()
    for i in range(games):
        state = game.new(players, seed + i)
        rng = random.Random(seed + i)
        while not state.is_over:
            state = state.apply(rng.choice(state.legal_actions()))
            actions += 1
    return actions, time.perf_counter() - began


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", nargs="+", default=["beor", "death"])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--players", type=int, nargs="+", default=[2, 4])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3, help="runs; the fastest counts")
    parser.add_argument("--profile", action="store_true", help="print the top of a profile")
    args = parser.parse_args()
    for name in args.game:
        for players in args.players:
            if args.profile:
                profiler = cProfile.Profile()
                profiler.enable()
            runs = [playouts(name, players, args.games, args.seed) for _ in range(args.repeat)]
            actions, took = min(runs, key=lambda run: run[1])
            if args.profile:
                profiler.disable()
                pstats.Stats(profiler).sort_stats("tottime").print_stats(12)
            title = find_game(name).title
            print(
                f"{title}, {players} players: {actions / took:,.0f} actions/s ({actions} actions)"
            )


if __name__ == "__main__":
    main()
