"""The lab's throughput on this machine: games a second of ``parlour lab run`` for each game,
engine (``fast``: the game's compiled kernel, where it plays the run's agents; ``python``: the
rules engine) and backend (a local process pool, a Dask LocalCluster), side by side in one run,
each rate over the whole run (workers' start, a Dask cluster's start and the rows read back
included), and whether every backend and engine gave the same games.

.venv/bin/python benchmarks/bench_lab.py                    # the issue's cases
.venv/bin/python benchmarks/bench_lab.py --case death:6:heuristic --games 100000 \\
    --backends local:2

A case is GAME:PLAYERS[:AGENTS] (agents comma-separated; none for a game without decisions).
The issue's target: a million games in under 10 minutes, 1,700 games a second on 2 workers, for
4-player BEOR and 6-player Game of Death with heuristic bots.
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

from parlour.errors import InvalidOption
from parlour.lab.engines import same_rows
from parlour.lab.run import RunSpec, run

CASES = ("death:6:heuristic", "beor:4:heuristic", "beggar:2")
TARGET = 1_700.0
"""Games a second for a million games in under 10 minutes (the issue's target on 2 workers)."""


def parse_case(text: str) -> tuple[str, int, tuple[str, ...]]:
    game, players, *rest = text.split(":")
    agents = tuple(a for a in (rest[0] if rest else "").split(",") if a)
    return game, int(players), agents


def parse_backend(text: str) -> tuple[str, int]:
    backend, _, workers = text.partition(":")
    return backend, int(workers or 1)


class Timed:
    """One run timed: its seconds in all, when its first batch was stored (the workers' and a
    cluster's start), and its rate from then on (the steady rate a long run keeps)."""

    def __init__(self, spec: RunSpec, out: Path, backend: str, workers: int) -> None:
        marks: list[tuple[float, int]] = []
        began = time.perf_counter()
        self.rows = run(
            spec,
            out,
            backend=backend,
            workers=workers,
            progress=lambda done: marks.append((time.perf_counter() - began, done)),
        )
        self.seconds = time.perf_counter() - began
        self.games = spec.games
        played = [(t, done) for t, done in marks if done > 0]
        self.start = played[0][0]
        span = played[-1][0] - self.start
        self.steady = (played[-1][1] - played[0][1]) / span if span > 0 else self.rate

    @property
    def rate(self) -> float:
        return self.games / self.seconds

    def million(self) -> float:
        """Minutes a million games would take: the start, then the steady rate."""
        return (self.start + 1_000_000 / self.steady) / 60


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--case", action="append", help=f"GAME:PLAYERS[:AGENTS] (default {CASES})")
    parser.add_argument("--games", type=int, default=20_000, help="games on a kernel")
    parser.add_argument("--python-games", type=int, default=100, help="games on the rules engine")
    parser.add_argument("--backends", default="local:1,local:2,dask:2", help="BACKEND:WORKERS,...")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    backends = [parse_backend(b) for b in args.backends.split(",") if b]
    cores = len(os.sched_getaffinity(0))
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(
        f"{cores} cores, load average {load}. Games a second over each whole run (the steady "
        "rate after the first batch, the seconds to it: workers' start, a cluster's start)"
    )
    head = "".join(f"{f'{b}×{w}':>30}" for b, w in backends)
    print(f"{'case':20}{'engine':7}{'games':>7}{head}  same games")
    verdicts = []
    with tempfile.TemporaryDirectory() as folder:
        for number, case in enumerate(args.case or CASES):
            game, players, agents = parse_case(case)
            base = RunSpec(game, players, agents, 1, args.seed)
            engines: dict[str, list[Any]] = {}
            for engine in ("fast", "python"):
                games = args.games if engine == "fast" else args.python_games
                try:
                    spec = replace(base, games=games, engine=engine).checked()
                except InvalidOption as err:  # no kernel for these agents
                    print(f"{case:20}{engine:7}{'':>7}  ({err})")
                    continue
                cells, first, same = "", None, True
                for backend, workers in backends:
                    out = Path(folder) / f"{number}-{engine}-{backend}-{workers}.db"
                    found = Timed(spec, out, backend, workers)
                    cells += f"{found.rate:9.0f} ({found.steady:6.0f}, {found.start:4.1f} s)"
                    first = found.rows if first is None else first
                    same = same and found.rows == first
                    if workers == 2 and engine == "fast" and game in ("beor", "death"):
                        verdicts.append((case, backend, found))
                assert first is not None
                engines[engine] = first
                said = "yes" if same else "NO: the backends differ"
                print(f"{case:20}{engine:7}{games:7}{cells}  {said}", flush=True)
            if len(engines) == 2:
                fast, python = engines["fast"], engines["python"]
                spec = replace(base, games=args.python_games).checked()
                if same_rows(spec):
                    equal = fast[: len(python)] == python
                    said = "the same rows" if equal else "DIFFERENT ROWS"
                    print(f"{'':20}fast and python: {said} over {len(python)} games")
                else:
                    print(f"{'':20}fast and python: other games by design (see the docs)")
    for case, backend, found in verdicts:
        met = "met" if found.rate >= TARGET else "NOT met"
        print(
            f"{case} on {backend} with 2 workers: {found.rate:,.0f} games/s over "
            f"{found.games:,} games (target {TARGET:,.0f}: {met}); a million games in about "
            f"{found.million():.1f} minutes ({found.start:.1f} s to start, then "
            f"{found.steady:,.0f} games/s)"
        )


if __name__ == "__main__":
    main()
