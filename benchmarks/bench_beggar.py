"""Random Beggar-My-Neighbour deals per second of the Python rules engine (issue: foundation).

Plays seeded random deals to the end with ``parlour.games.beggar`` (the immutable-state engine,
loop detection on) and prints deals/s and cards/s per player count. When a C compiler and the
shared reference simulator (``shared/bench/bmn_reference.c``) are at hand, it is built and run
in the same process run, so the figures come with their ratio to C on the same machine.

    .venv/bin/python benchmarks/bench_beggar.py                 # 2, 3 and 4 players
    .venv/bin/python benchmarks/bench_beggar.py --deals 5000 --players 2
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

from parlour.core.rng import derive_seed
from parlour.games.beggar import BeggarGame, play_to_end

REFERENCE = Path(__file__).resolve().parents[2] / "shared" / "bench" / "bmn_reference.c"


def python_rate(players: int, deals: int, seed: int) -> tuple[float, float]:
    """Deals per second and cards per second of the rules engine on one core."""
    game = BeggarGame()
    starts = [game.new(players, derive_seed(seed, i)) for i in range(deals)]
    began = time.perf_counter()
    cards = sum(play_to_end(start).cards for start in starts)
    took = time.perf_counter() - began
    return deals / took, cards / took


def reference_rate(deals: int) -> tuple[float, float] | None:
    """Deals and cards per second of the C reference, or None if it cannot be built here."""
    cc = shutil.which("cc") or shutil.which("gcc")
    if cc is None or not REFERENCE.exists():
        return None
    with tempfile.TemporaryDirectory() as tmp:
        exe = Path(tmp) / "bmn_reference"
        subprocess.run(
            [cc, "-O3", "-march=native", "-o", str(exe), str(REFERENCE), "-lm"], check=True
        )
        out = subprocess.run(
            [str(exe), str(deals), "7", "1"], capture_output=True, text=True, check=True
        ).stdout
    found = re.search(r"deals/s=(\d+) cards/s=([\d.e+]+)", out)
    return (float(found.group(1)), float(found.group(2))) if found else None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=2000, help="deals per player count")
    parser.add_argument("--players", type=int, nargs="+", default=[2, 3, 4])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-reference", action="store_true", help="skip the C reference")
    args = parser.parse_args()
    rates = {}
    for players in args.players:
        deals_s, cards_s = python_rate(players, args.deals, args.seed)
        rates[players] = deals_s
        print(f"python engine, {players} players: {deals_s:,.0f} deals/s, {cards_s:,.0f} cards/s")
    if not args.no_reference and 2 in rates:
        ref = reference_rate(2_000_000)
        if ref is None:
            print("C reference: not built (no compiler or shared/bench/bmn_reference.c)")
        else:
            print(f"C reference, 2 players: {ref[0]:,.0f} deals/s, {ref[1]:,.3g} cards/s")
            print(f"python engine / C reference (2 players): 1/{ref[0] / rates[2]:,.0f}")


if __name__ == "__main__":
    main()
