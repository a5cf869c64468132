"""``parlour lab run``, ``parlour lab compare`` and ``parlour lab report``."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

from rich.table import Table as RichTable

from parlour.cli import lab_compare
from parlour.cli.common import (
    CommandError,
    Parser,
    fresh_seed,
    games_arg,
    nonneg_int,
    path_arg,
    people_console,
    players_arg,
    print_json,
    progress_bar,
    seconds_arg,
    workers_arg,
)
from parlour.core.files import write_text_atomic
from parlour.core.options import parse_option_pairs
from parlour.games import GAMES, find_game

__all__ = ["register"]

T = TypeVar("T")


def _spec(
    args: argparse.Namespace, options: dict[str, Any] | None = None, seed: int | None = None
) -> Any:
    """The run the command line asks for (``options``: instead of ``--options``; ``seed``:
    instead of ``--seed`` or a fresh one)."""
    from parlour.lab.run import RunSpec

    game = find_game(args.game)
    agents = tuple(a.strip() for a in (args.agents or "").split(",") if a.strip())
    if game.info.decisions and not agents:
        raise CommandError("--agents: name at least one agent, e.g. heuristic or heuristic,random")
    if not game.info.decisions and agents:
        # Nothing to decide: every agent plays the same game, so the run is the kernel's deals.
        sys.stderr.write(f"{game.title} has no decisions: --agents is not needed and not used\n")
        agents = ()
    if seed is None:
        seed = fresh_seed() if args.seed is None else args.seed
    given = parse_option_pairs(args.options) if options is None else options
    engine = args.engine or ""
    return RunSpec(
        game.name, args.players, agents, args.games, seed, given, engine, args.dealer
    ).checked()


def _play(
    args: argparse.Namespace, spec: Any, out: Path, variant: str, label: str, notes: list[str]
) -> list[Any]:
    """The run's rows; its notes (a Dask worker that left) said on standard error as they come
    and kept in ``notes``."""
    from parlour.lab.run import run

    with progress_bar(label) as bar:
        task = bar.add_task("games", total=spec.games)

        def note(text: str) -> None:
            bar.console.print(f"note: {text}", markup=False, highlight=False, soft_wrap=True)
            notes.append(text)

        return run(
            spec,
            out,
            variant=variant,
            backend=args.backend,
            workers=args.workers or os.cpu_count() or 1,
            scheduler=args.scheduler,
            progress=lambda done: bar.update(task, completed=done),
            idle_timeout=args.idle_timeout,
            note=note,
        )


def _summary(spec: Any, backend: str, rows: list[Any]) -> dict[str, Any]:
    from parlour.lab.metrics import aggregate

    return {
        "game": spec.game,
        "players": spec.players,
        "games": len(rows),
        "seed": spec.seed,
        "backend": backend,
        "engine": spec.engine,
        "dealer": spec.dealer,
        "agents": list(spec.agents),
        "options": spec.options,
        "metrics": _from_file(lambda: aggregate(spec.game, spec.players, figures_of(rows))),
    }


def figures_of(rows: list[Any]) -> list[Any]:
    return [r["figures"] for r in rows]


def _from_file(call: Callable[[], T]) -> T:
    """``call()`` over rows read from a run file: the metrics' refusal of a row that is not as
    ``parlour lab`` writes it (a ValueError naming the row and figure) becomes one line."""
    try:
        return call()
    except ValueError as err:
        raise CommandError(
            f"the run file holds a game that is not as parlour lab wrote it: {err}"
        ) from None


def _cmd_run(args: argparse.Namespace) -> int:
    spec = _spec(args)
    out = Path(args.out or f"lab-{spec.game}-{spec.seed}.db")
    notes: list[str] = []
    rows = _play(args, spec, out, "", "games", notes)
    summary = {**_summary(spec, args.backend, rows), "notes": notes}
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


def _entries(metric: str, entry: Any) -> list[tuple[str, Any]]:
    if isinstance(entry, list):
        return [(f"{metric} ({_who(metric, seat)})", item) for seat, item in enumerate(entry)]
    return [(metric, entry)]


def _who(metric: str, index: int) -> str:  # Player N, or position N (1 moved first)
    return f"position {index + 1}" if metric.startswith("position_") else f"Player {index + 1}"


def _cmd_report(args: argparse.Namespace) -> int:
    from contextlib import closing

    from parlour.lab.compare import compare
    from parlour.lab.metrics import aggregate
    from parlour.lab.report import ReportRun, report_html
    from parlour.lab.run import RunStore

    runs: list[Any] = []
    everything: dict[str, Any] = {}
    for path in args.runs:
        with closing(RunStore.reading(path)) as store:
            for variant, spec in store.variants():
                rows = store.rows(spec.games, variant)
                if not rows:
                    continue
                name = variant or Path(path).stem
                if len(args.runs) > 1 and variant:
                    name = f"{Path(path).stem}: {variant}"
                metrics = _from_file(partial(aggregate, spec.game, spec.players, figures_of(rows)))
                lengths = [float(r["figures"]["length"]) for r in rows]
                ended = [bool(r["figures"]["ended"]) for r in rows]
                length: Any = metrics["length"]
                curve = [(float(x), float(y)) for x, y in length.get("survival", [])]
                runs.append(
                    (
                        name,
                        spec,
                        rows,
                        ReportRun(name, spec.to_json(), metrics, lengths, ended, curve),
                    )
                )
                everything[name] = {"spec": spec.to_json(), "games": len(rows), "metrics": metrics}
    if not runs:
        raise CommandError("the run files hold no finished game")
    games = {(spec.game, spec.players) for _, spec, _, _ in runs}
    if len(games) > 1:
        raise CommandError("a report covers one game and player count; these runs mix them")
    comparison = ""
    diffs: dict[str, Any] = {}
    if len(runs) > 1:
        # Paired differences only between runs of the same deals: the same seed and agents.
        _, base_spec, base_rows, _ = runs[0]
        diffs = _from_file(
            lambda: {
                name: compare(base_spec.game, base_spec.players, base_rows, rows)
                for name, spec, rows, _ in runs[1:]
                if (spec.seed, spec.agents) == (base_spec.seed, base_spec.agents)
            }
        )
        for name, found in diffs.items():
            everything[name]["differences_from"] = runs[0][0]
            everything[name]["differences"] = found
        comparison = _comparison_html(runs[0][0], diffs) if diffs else ""
    title = f"{find_game(runs[0][1].game).title}, {runs[0][1].players} players"
    if args.html:
        write_text_atomic(args.html, report_html(title, [r for *_, r in runs], comparison, diffs))
    if args.json:
        print_json(everything, compact=True)
    elif args.html:
        people_console().print(f"Report of {len(runs)} run(s) saved in {args.html}")
    else:
        for name, entry in everything.items():
            people_console().print(_metrics_table(entry["metrics"], title=name))
    return 0


def _comparison_html(base: str, diffs: dict[str, Any]) -> str:
    import html

    rows = []
    for name, found in diffs.items():
        for metric, entry in found.items():
            for label, item in _entries(metric, entry):
                lo, hi = item["difference"]["ci95"]
                rows.append(
                    f"<tr><td>{html.escape(name)}</td><td>{html.escape(label)}</td>"
                    f"<td>{item['baseline']:.4g}</td><td>{item['variant']:.4g}</td>"
                    f"<td>{item['difference']['value']:+.3g} [{_num(lo)}, {_num(hi)}]</td>"
                    f"<td>{html.escape(item['verdict'])}</td></tr>"
                )
    return (
        f"<h2>Paired differences from {html.escape(base)} (the same deals)</h2><table><thead><tr>"
        "<th>variant</th><th>metric</th><th>baseline</th><th>variant</th>"
        "<th>difference [95% interval]</th><th>verdict</th></tr></thead><tbody>"
        + "".join(rows)
        + "</tbody></table>"
    )


def _num(x: float | None) -> str:
    return "∞" if x is None else f"{x:+.3g}"


def _metrics_table(metrics: dict[str, Any], title: str = "Metrics") -> RichTable:
    table = RichTable("metric", "value", "95% interval", "unit", title=title)
    for name, entry in metrics.items():
        if isinstance(entry, list):
            for seat, item in enumerate(entry):
                table.add_row(f"{name} ({_who(name, seat)})", *_cells(item))
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
    # Every lab command needs the lab extra: main() says so before the command reads anything.
    lab.set_defaults(extra="lab")
    lsub = lab.add_subparsers(dest="subcommand", required=True, metavar="SUBCOMMAND")

    def common(p: Parser) -> None:
        p.add_argument("game", metavar="GAME", help=" or ".join(GAMES) + " (or an alias)")
        p.add_argument(
            "--players", type=players_arg, default=2, help="players at the table (default 2)"
        )
        p.add_argument("--agents", help="comma-separated agents, seats rotating over them")
        p.add_argument("--games", type=games_arg, default=200, help="games to play (default 200)")
        p.add_argument("--seed", type=nonneg_int, help="seed of the run (default: fresh)")
        p.add_argument("--options", nargs="+", metavar="NAME=VALUE", help="game options")
        p.add_argument("--backend", choices=("local", "dask"), default="local", help="where")
        p.add_argument("--scheduler", metavar="ADDRESS", help="a Dask scheduler, tcp://HOST:PORT")
        p.add_argument("--workers", type=workers_arg, help="processes (default: all cores)")
        p.add_argument(
            "--idle-timeout",
            type=seconds_arg,
            default=30.0,  # parlour.lab.backends.IDLE_TIMEOUT, not loaded before a lab command
            metavar="SECONDS",
            help="stop a Dask run with no live worker this long, keeping its games (default 30)",
        )
        p.add_argument(
            "--dealer",
            choices=("fixed", "rotate"),
            default="fixed",
            help="fixed: every game dealt from seat 0; rotate: a match, the dealer moving one "
            "seat each game (for games whose matches move the dealer)",
        )
        p.add_argument(
            "--engine",
            choices=("fast", "python"),
            help="fast: the game's compiled kernel, python: its rules engine (default: fast "
            "where the kernel plays every seat's agent)",
        )
        p.add_argument("--json", action="store_true", help="print the figures as JSON")

    p = lsub.add_parser("run", help="play a run and print its metrics", formatter_class=formatter)
    common(p)
    p.add_argument(
        "--out", type=path_arg, metavar="RUN.db", help="the run's file (default lab-GAME-SEED.db)"
    )
    p.set_defaults(func=_cmd_run)

    lab_compare.register(lsub, formatter, common)

    p = lsub.add_parser(
        "report",
        help="one HTML file of runs: metrics, plots, comparisons",
        description="Write one self-contained HTML report of run files (plots inline), or print "
        "their metrics; several runs (or a compare file) are drawn side by side with their "
        "paired differences.",
        formatter_class=formatter,
    )
    p.add_argument(
        "runs",
        nargs="+",
        type=path_arg,
        metavar="RUN.db",
        help="run files of lab run or lab compare",
    )
    p.add_argument("--html", type=path_arg, metavar="FILE", help="write the report here")
    p.add_argument("--json", action="store_true", help="print the same numbers as JSON")
    p.set_defaults(func=_cmd_report)
