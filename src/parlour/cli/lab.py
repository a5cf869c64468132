"""``parlour lab run``, ``parlour lab compare`` and ``parlour lab report``."""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import Any

from rich.table import Table as RichTable

from parlour.cli.common import (
    CommandError,
    Parser,
    fresh_seed,
    nonneg_int,
    people_console,
    pos_int,
    print_json,
    progress_bar,
)
from parlour.core.options import parse_option_pairs
from parlour.games import GAMES, find_game

__all__ = ["register"]


def _spec(args: argparse.Namespace, options: dict[str, Any] | None = None) -> Any:
    from parlour.lab.run import RunSpec

    game = find_game(args.game)
    agents = tuple(a.strip() for a in (args.agents or "").split(",") if a.strip())
    if game.info.decisions and not agents:
        raise CommandError("--agents: name at least one agent, e.g. heuristic or heuristic,random")
    seed = fresh_seed() if args.seed is None else args.seed
    given = parse_option_pairs(args.options) if options is None else options
    return RunSpec(game.name, args.players, agents, args.games, seed, given).checked()


def _play(args: argparse.Namespace, spec: Any, out: Path, variant: str, label: str) -> list[Any]:
    from parlour.lab.run import run

    with progress_bar(label) as bar:
        task = bar.add_task("games", total=spec.games)
        return run(
            spec,
            out,
            variant=variant,
            backend=args.backend,
            workers=args.workers or os.cpu_count() or 1,
            scheduler=args.scheduler,
            progress=lambda done: bar.update(task, completed=done),
        )


def _summary(spec: Any, backend: str, rows: list[Any]) -> dict[str, Any]:
    from parlour.lab.metrics import aggregate

    return {
        "game": spec.game,
        "players": spec.players,
        "games": len(rows),
        "seed": spec.seed,
        "backend": backend,
        "agents": list(spec.agents),
        "options": spec.options,
        "metrics": aggregate(spec.game, spec.players, [r["figures"] for r in rows]),
    }


def _cmd_run(args: argparse.Namespace) -> int:
    spec = _spec(args)
    out = Path(args.out or f"lab-{spec.game}-{spec.seed}.db")
    rows = _play(args, spec, out, "", "games")
    summary = _summary(spec, args.backend, rows)
    if args.json:
        print_json(summary, compact=True)
        return 0
    console = people_console()
    console.print(
        f"{len(rows)} games of {find_game(spec.game).title} for {spec.players} players, agents "
        f"{', '.join(spec.agents) or 'none'}, seed {spec.seed}; saved in {out}"
    )
    console.print(_metrics_table(summary["metrics"]))
    return 0


def _metrics_table(metrics: dict[str, Any]) -> RichTable:
    table = RichTable("metric", "value", "95% interval", "unit", title="Metrics")
    for name, entry in metrics.items():
        if isinstance(entry, list):
            for seat, item in enumerate(entry):
                table.add_row(f"{name} (Player {seat + 1})", *_cells(item))
        elif isinstance(entry, dict) and "value" in entry:
            table.add_row(name, *_cells(entry))
        elif isinstance(entry, dict) and "p_value" in entry:
            table.add_row(
                name, f"chi² {entry['statistic']:.3g}", f"p = {entry['p_value']:.3g}", "test"
            )
    return table


def _cells(entry: dict[str, Any]) -> tuple[str, str, str]:
    lo, hi = entry["ci95"]
    shown = "" if lo is None or hi is None else f"{lo:.4g} – {hi:.4g}"
    return f"{entry['value']:.4g}", shown, str(entry.get("unit", ""))


def register(sub: Any, formatter: type[argparse.HelpFormatter]) -> None:
    lab = sub.add_parser(
        "lab",
        help="simulate many games: balance, game length, rule variants",
        description="Simulate many seeded games and measure them with 95% intervals.",
        formatter_class=formatter,
    )
    lsub = lab.add_subparsers(dest="subcommand", required=True, metavar="SUBCOMMAND")

    def common(p: Parser) -> None:
        p.add_argument("game", metavar="GAME", help=" or ".join(GAMES) + " (or an alias)")
        p.add_argument("--players", type=int, default=2, help="players at the table (default 2)")
        p.add_argument("--agents", help="comma-separated agents, seats rotating over them")
        p.add_argument("--games", type=pos_int, default=200, help="games to play (default 200)")
        p.add_argument("--seed", type=nonneg_int, help="seed of the run (default: fresh)")
        p.add_argument("--options", nargs="+", metavar="NAME=VALUE", help="game options")
        p.add_argument("--backend", choices=("local", "dask"), default="local", help="where")
        p.add_argument("--scheduler", metavar="ADDRESS", help="a Dask scheduler, tcp://HOST:PORT")
        p.add_argument("--workers", type=pos_int, help="processes (default: all cores)")
        p.add_argument("--json", action="store_true", help="print the figures as JSON")

    p = lsub.add_parser("run", help="play a run and print its metrics", formatter_class=formatter)
    common(p)
    p.add_argument("--out", metavar="RUN.db", help="the run's file (default lab-GAME-SEED.db)")
    p.set_defaults(func=_cmd_run)
