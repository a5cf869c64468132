"""How strong the bots are: the budget curve, the oracle's bound and the difficulty ladder.

Every game is dealt and seated as the arena deals and seats it (``parlour.bots.oracle.
play_measured``: game ``i`` from ``derive_seed(seed, "game", i)``, seats rotated one a game),
so the same ``--seed`` replays the same games. Win rates come with 95% Wilson intervals; times
are medians of single decisions (and means) in seconds, on this machine.

Sections (``--only`` picks some; all by default):

- ``curve``: the expert's search at 100, 400, 1,600 and 6,400 iterations against the
  heuristic (``expert:N`` specs), 2 and 4 players;
- ``oracle``: the ``hard`` level's search on views and the same search on the true state
  (``oracle:hard``) against the heuristic, on the same deals: the share of the oracle's edge
  over parity that the view-only bot keeps; where the game hides more than the hands (BEOR's
  stocks), also the search shown every hand (``oracle-hands:hard``), the most any reading of
  the opponents' past moves could give;
- ``ladder``: easy against medium, medium against hard, hard against expert;
- ``target``: expert against the heuristic (the issue's targets; with 4 players one expert and
  three heuristics), with the Game of Death's drinks;
- ``agents``: each spec of ``--agents`` against the heuristic (e.g. the old default
  ``ismcts:400`` against ``hard`` on the same deals);
- ``match``: one step of the ladder alone, ``--match A B`` (A against B; with 4 players one A
  against three B).

With 4 players the measured agent holds one seat and the heuristic the other three (parity
1/4); with 2 players the two agents alternate seats.

.venv/bin/python benchmarks/bench_strength.py --games 200 --workers 2 --out strength.json
.venv/bin/python benchmarks/bench_strength.py --only target --games 1000 --seed 2
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

from parlour.bots.arena import wilson
from parlour.bots.oracle import Measured, play_measured
from parlour.cli.common import progress_bar
from parlour.games import find_game

SECTIONS = ("curve", "oracle", "ladder", "target", "agents", "match")
CURVE = (100, 400, 1600, 6400)


@dataclass(frozen=True, slots=True)
class Row:
    """One match: ``specs[0]`` is measured against the others."""

    section: str
    game: str
    players: int
    specs: tuple[str, ...]


def _table(players: int, measured: str, other: str) -> tuple[str, ...]:
    """The agents of a match: alternate seats with 2 players, one against the rest with more."""
    return (measured, other) if players == 2 else (measured, *[other] * (players - 1))


def rows(
    sections: Sequence[str],
    games: Sequence[str],
    counts: Sequence[int],
    agents: Sequence[str] = (),
    curve: Sequence[int] = CURVE,
    match: Sequence[str] = (),
) -> list[Row]:
    out: list[Row] = []
    for game in games:
        for players in counts:
            if "curve" in sections:
                for n in curve:
                    out.append(
                        Row("curve", game, players, _table(players, f"expert:{n}", "heuristic"))
                    )
            if "oracle" in sections:
                strategy = find_game(game).strategy
                hands = ("oracle-hands:hard",) if strategy and strategy.show_hands else ()
                for spec in ("hard", "oracle:hard", *hands):
                    out.append(Row("oracle", game, players, _table(players, spec, "heuristic")))
            if "ladder" in sections:
                for low, high in (("medium", "easy"), ("hard", "medium"), ("expert", "hard")):
                    out.append(Row("ladder", game, players, _table(players, low, high)))
            if "target" in sections:
                out.append(Row("target", game, players, _table(players, "expert", "heuristic")))
            if "agents" in sections:
                for spec in agents:
                    out.append(Row("agents", game, players, _table(players, spec, "heuristic")))
            if "match" in sections and match:
                out.append(Row("match", game, players, _table(players, match[0], match[1])))
    return out


def _play(args: tuple[str, int, tuple[str, ...], int, int]) -> Measured:
    return play_measured(*args)


def measure(row: Row, games: int, seed: int, workers: int) -> dict[str, Any]:
    """Play ``games`` games of a row; the first agent's figures."""
    began = time.perf_counter()
    jobs = [(row.game, row.players, row.specs, seed, i) for i in range(games)]
    label = f"{row.game} {row.players}p {' vs '.join(row.specs[:2])}"
    with progress_bar(label) as bar:
        task = bar.add_task(label, total=games)
        played = []
        if workers > 1:
            with ProcessPoolExecutor(workers) as pool:
                for measured in pool.map(_play, jobs, chunksize=1):
                    played.append(measured)
                    bar.advance(task)
        else:
            for job in jobs:
                played.append(_play(job))
                bar.advance(task)
    mine = [(m, seat) for m in played for seat, who in enumerate(m.plan) if who == 0]
    theirs = [(m, seat) for m in played for seat, who in enumerate(m.plan) if who != 0]
    wins = sum(m.returns[seat] for m, seat in mine)
    lo, hi = wilson(wins, len(mine))
    times = [t for m in played for t in m.times[0]]
    out: dict[str, Any] = {
        "section": row.section,
        "game": row.game,
        "players": row.players,
        "agents": list(row.specs),
        "seed": seed,
        "games": games,
        "seat_games": len(mine),
        "parity": 1 / row.players,
        "win_rate": wins / len(mine),
        "ci95": [lo, hi],
        "median_seconds": statistics.median(times) if times else 0.0,
        "mean_seconds": statistics.fmean(times) if times else 0.0,
        "wall_seconds": time.perf_counter() - began,
    }
    if played and "drinks_taken" in played[0].figures:
        out["mean_drinks"] = statistics.fmean(m.figures["drinks_taken"][s] for m, s in mine)
        out["others_mean_drinks"] = statistics.fmean(
            m.figures["drinks_taken"][s] for m, s in theirs
        )
    return out


def kept_share(results: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per game and player count: how much of the oracle's edge over parity the view-only
    search keeps, ``(view - parity) / (oracle - parity)``."""
    out = []
    by_key = {(r["game"], r["players"], r["agents"][0]): r for r in results}
    for (game, players, spec), view in by_key.items():
        oracle = by_key.get((game, players, f"oracle:{spec}"))
        if oracle is None or spec.startswith("oracle"):
            continue
        parity = view["parity"]
        edge = oracle["win_rate"] - parity
        share: dict[str, Any] = {
            "game": game,
            "players": players,
            "view": view["win_rate"],
            "oracle": oracle["win_rate"],
            "kept": (view["win_rate"] - parity) / edge if edge > 0 else None,
        }
        hands = by_key.get((game, players, f"oracle-hands:{spec}"))
        if hands is not None:
            share["hands"] = hands["win_rate"]
            share["hands_share"] = (hands["win_rate"] - parity) / edge if edge > 0 else None
        out.append(share)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="+", choices=SECTIONS, default=list(SECTIONS))
    parser.add_argument("--game", nargs="+", default=["beor", "death"])
    parser.add_argument("--players", type=int, nargs="+", default=[2, 4])
    parser.add_argument("--games", type=int, default=200, help="games a row")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--agents", nargs="+", default=[], help="specs for --only agents")
    parser.add_argument(
        "--curve", type=int, nargs="+", default=list(CURVE), help="iterations of the curve"
    )
    parser.add_argument(
        "--match", nargs=2, default=[], metavar=("A", "B"), help="for --only match: A against B"
    )
    parser.add_argument("--out", help="write every row's figures here as JSON lines")
    args = parser.parse_args()
    results = []
    if "match" in args.only and not args.match:
        parser.error("--only match needs --match A B")
    for row in rows(args.only, args.game, args.players, args.agents, args.curve, args.match):
        result = measure(row, args.games, args.seed, args.workers)
        results.append(result)
        lo, hi = result["ci95"]
        drinks = (
            f"  drinks {result['mean_drinks']:.1f} vs {result['others_mean_drinks']:.1f}"
            if "mean_drinks" in result
            else ""
        )
        print(
            f"{row.section:6} {row.game:5} {row.players}p {' vs '.join(row.specs[:2]):24} "
            f"{result['win_rate']:6.1%} [{lo:.1%}, {hi:.1%}] of {result['seat_games']}"
            f"  {result['median_seconds']:.3f} s/decision (median){drinks}",
            flush=True,
        )
        if args.out:
            with open(args.out, "a", encoding="utf-8") as out:
                out.write(json.dumps(result) + "\n")
    for share in kept_share(results):
        kept = "n/a" if share["kept"] is None else f"{share['kept']:.0%}"
        hands = (
            f"; shown the hands {share['hands']:.1%}, {share['hands_share']:.0%} of the edge"
            if share.get("hands_share") is not None
            else ""
        )
        print(
            f"oracle {share['game']:5} {share['players']}p: view {share['view']:.1%}, "
            f"oracle {share['oracle']:.1%}, kept {kept} of the oracle's edge{hands}"
        )


if __name__ == "__main__":
    main()
