"""The lab's throughput on this machine: games a second of ``parlour lab run`` for each backend
(a local process pool, a Dask LocalCluster) with 1 and 2 workers, the same games each time.

.venv/bin/python benchmarks/bench_lab.py                         # BEOR, 4 players, heuristic
.venv/bin/python benchmarks/bench_lab.py --game death --players 6 --games 200
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from parlour.lab.run import RunSpec, run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="beor")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--agents", default="heuristic")
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    agents = tuple(a for a in args.agents.split(",") if a)
    spec = RunSpec(args.game, args.players, agents, args.games, args.seed)
    rows = None
    base = 0.0
    print(f"{args.games} games of {args.game}, {args.players} players, agents {args.agents}")
    with tempfile.TemporaryDirectory() as folder:
        for backend, workers in (("local", 1), ("local", 2), ("dask", 1), ("dask", 2)):
            began = time.perf_counter()
            found = run(spec, Path(folder) / f"{backend}-{workers}.db", backend=backend,
                        workers=workers)  # fmt: skip
            seconds = time.perf_counter() - began
            rate = args.games / seconds
            if rows is None:
                rows, base = found, rate
            same = "same games" if found == rows else "DIFFERENT GAMES"
            print(
                f"{backend:5} {workers} worker(s): {rate:7.1f} games/s, "
                f"{rate / workers:7.1f} a worker, x{rate / base:.2f} of local with 1 ({same}; "
                f"{seconds:.1f} s, a Dask cluster's start included)"
            )


if __name__ == "__main__":
    main()
