"""``parlour games``, ``parlour replay``, ``parlour arena`` and ``parlour schema``."""

from __future__ import annotations

import argparse
import json
import os
import textwrap
from pathlib import Path

from rich.console import Console
from rich.table import Table as RichTable

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
    read_json,
    workers_arg,
)
from parlour.core.files import shown_name, write_text_atomic
from parlour.core.game import JSON
from parlour.core.inputs import parse_int, quote
from parlour.core.options import parse_option_pairs
from parlour.core.schema import schema, schema_name, schema_names
from parlour.errors import ParlourError
from parlour.games import GAMES, find_game, replay_json

# -- parlour games ----------------------------------------------------------------------------


def _cmd_games(args: argparse.Namespace) -> int:
    listing = [
        {
            "name": g.name,
            "title": g.title,
            "aliases": list(g.info.aliases),
            "min_players": g.info.min_players,
            "max_players": g.info.max_players,
            "options": [
                {
                    "name": s.name,
                    "kind": s.kind,
                    "default": s.default,
                    "choices": list(s.choices),
                    "ruling": s.ruling,
                    "help": s.help,
                }
                for s in g.info.options
            ],
        }
        for g in GAMES.values()
    ]
    if args.json:
        print_json(listing)
        return 0
    table = RichTable(title="Parlour games")
    for column in ("game", "name", "players", "options"):
        table.add_column(column, overflow="fold")
    for g in GAMES.values():
        options = "\n".join(
            s.describe() + (f" [{s.ruling}]" if s.ruling else "") for s in g.info.options
        )
        table.add_row(g.title, g.name, f"{g.info.min_players}-{g.info.max_players}", options)
    console = Console()
    console.print(table)
    aliases = [f"{g.name}: {', '.join(g.info.aliases)}" for g in GAMES.values() if g.info.aliases]
    if aliases:
        console.print(f"Other names the commands take: {'; '.join(aliases)}")
    return 0


# -- parlour replay ---------------------------------------------------------------------------


def _cmd_replay(args: argparse.Namespace) -> int:
    record, states = replay_json(read_json(args.record))
    final = states[-1]
    out: dict[str, JSON] = {
        "game": record.game,
        "players": record.players,
        "over": final.is_over,
        "to_move": final.to_move,
        "legal": [str(a) for a in final.legal_actions()],
        "outcome": None if final.outcome is None else final.outcome.to_json(),
    }
    if args.view is None:
        out["state"] = final.to_json()
    else:
        seat = _seat_arg(args.view, record.players)
        if seat != final.to_move:
            # Another seat's legal actions could reveal its hand in games with hidden hands.
            out["legal"] = []
        out["view"] = final.view(seat).to_json()
    print_json(out, compact=args.json)
    return 0


def _seat_arg(text: str, players: int) -> int | None:
    if text.strip().lower() == "spectator":
        return None
    try:
        return parse_int(text, field="--view", minimum=0, maximum=players - 1, max_digits=4)
    except ParlourError:
        raise CommandError(
            f"--view: a seat is 0 to {players - 1} (seat 0 is Player 1) or 'spectator', "
            f"got {quote(text)}"
        ) from None


# -- parlour arena ----------------------------------------------------------------------------


def _cmd_arena(args: argparse.Namespace) -> int:
    from parlour.bots.arena import run_arena

    specs = [s.strip() for s in args.agents.split(",") if s.strip()]
    if not specs:
        raise CommandError("--agents needs at least one agent, e.g. heuristic,random")
    seed = fresh_seed() if args.seed is None else args.seed
    options = parse_option_pairs(args.options)
    workers = args.workers or os.cpu_count() or 1
    with progress_bar("games") as bar:
        task = bar.add_task("games", total=args.games)
        report = run_arena(
            args.game,
            args.players,
            specs,
            args.games,
            seed,
            workers=workers,
            options=options,
            progress=lambda done: bar.update(task, completed=done),
        )
    figures = report.to_json()
    if args.save:
        _save_arena(args.save, report, figures)
    if args.json:
        print_json(figures, compact=True)
        return 0
    console = people_console()
    title = find_game(args.game).title
    console.print(
        f"{figures['games']} games of {title} for {args.players} players (seed {seed}); "
        f"parity {100 * figures['parity']:.1f}% a seat; mean length {figures['mean_length']:.1f} "
        f"actions; {figures['draws']} without a winner"
    )
    table = RichTable("agent", "seat-games", "win rate", "95% CI", "s/decision", title="Results")
    for name in report.figures:
        table.add_column(name.replace("_", " "))
    for agent in figures["agents"]:
        lo, hi = agent["ci95"]
        row = [
            agent["name"],
            str(agent["games"]),
            f"{100 * agent['win_rate']:.1f}%",
            f"{100 * lo:.1f}-{100 * hi:.1f}%",
            f"{agent['seconds_per_decision']:.4f}",
        ]
        row += [f"{agent[f'mean_{name}']:.1f}" for name in report.figures]
        table.add_row(*row)
    console.print(table)
    if figures["ratings"]:
        ratings = ", ".join(
            f"{k} {v:.0f}" if v is not None else f"{k} not rated (no game against another agent)"
            for k, v in figures["ratings"].items()
        )
        console.print(f"Ratings (Elo scale, mean 1500): {ratings}")
    return 0


def _save_arena(folder: str, report: object, figures: dict[str, JSON]) -> None:
    """One record a game (replayable with ``parlour replay``) and ``arena.json``."""
    from parlour.bots.arena import ArenaReport

    assert isinstance(report, ArenaReport)
    path = Path(folder)
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise CommandError(f"cannot write {shown_name(folder)}: {err.strerror}") from None
    for result in report.results:
        write_text_atomic(path / f"game-{result.index:05d}.json", json.dumps(result.record) + "\n")
    index = {
        **figures,
        "seating": [
            {"game": r.index, "seats": [report.specs[a] for a in r.plan]} for r in report.results
        ],
    }
    write_text_atomic(path / "arena.json", json.dumps(index, indent=1) + "\n")


# -- parlour schema ---------------------------------------------------------------------------


def _cmd_schema(args: argparse.Namespace) -> int:
    games = tuple(GAMES.values())
    if args.name is not None and args.list:
        raise CommandError("give a schema NAME or --list, not both")
    if args.name is None:
        listing = [
            {"name": n, "title": schema(n, games).get("title", "")} for n in schema_names(games)
        ]
        if args.json:
            print_json(listing, compact=True)
            return 0
        width = max(len(item["name"]) for item in listing)
        for item in listing:
            print(f"{item['name']:<{width}}  {item['title']}")
        return 0
    print_json(schema(schema_name(args.name, games), games), compact=args.json)
    return 0


def register(
    sub: argparse._SubParsersAction[Parser],
    formatter: type[argparse.HelpFormatter],
) -> None:
    """Add the commands' parsers."""
    p = sub.add_parser("games", help="list the games, their player counts and options")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(func=_cmd_games)

    p = sub.add_parser("replay", help="replay a game record and print the position")
    p.add_argument(
        "record", type=path_arg, metavar="RECORD.json", help="a record file ('-' reads stdin)"
    )
    p.add_argument("--view", metavar="SEAT", help="print seat SEAT's view (0 is Player 1)")
    p.add_argument("--json", action="store_true", help="print compact JSON on one line")
    p.set_defaults(func=_cmd_replay)

    names = schema_names(tuple(GAMES.values()))
    aliased = next((g for g in GAMES.values() if g.info.aliases), None)
    example = (
        f": {aliased.info.aliases[0]}-view is {aliased.name}-view" if aliased is not None else ""
    )
    p = sub.add_parser(
        "schema",
        help="print the JSON Schema of a document Parlour reads or writes",
        description=textwrap.fill(
            "Print one of the JSON Schemas (draft 2020-12) that ship with Parlour: records, "
            "replay output and log entries, and each game's state, view and action "
            "(<game>-state, <game>-view, <game>-action; an action's integer form is its "
            f"$defs/id). A game's other names work too{example}. With no NAME, list the "
            "schemas.",
            78,
        ),
        formatter_class=formatter,
    )
    p.add_argument("name", nargs="?", metavar="NAME", help=f"one of {', '.join(names)}")
    p.add_argument("--list", action="store_true", help="list the schemas' names and titles")
    p.add_argument("--json", action="store_true", help="print compact JSON on one line")
    p.set_defaults(func=_cmd_schema)

    p = sub.add_parser(
        "arena",
        help="agents play many games; win rates with confidence intervals",
        description="Agents play seeded games with rotating seats on all cores. Agents: random, "
        "heuristic, ismcts (default budget), ismcts:N (iterations), ismcts:Ns (seconds), "
        "ismcts:N:heuristic|random (rollout policy).",
    )
    deciders = [g.name for g in GAMES.values() if g.info.decisions]
    p.add_argument("game", metavar="GAME", help=" or ".join(deciders) + " (or an alias)")
    p.add_argument(
        "--players", type=players_arg, default=2, help="players at the table (default 2)"
    )
    p.add_argument(
        "--agents",
        required=True,
        help="comma-separated agents, e.g. expert,heuristic (levels easy, medium, hard, "
        "expert; kinds random, heuristic, ismcts, ismcts:N, ismcts:Ns)",
    )
    p.add_argument("--games", type=games_arg, default=100, help="games to play (default 100)")
    p.add_argument("--seed", type=nonneg_int, help="seed of the run (default: fresh)")
    p.add_argument("--workers", type=workers_arg, help="processes (default: all cores)")
    p.add_argument("--options", nargs="+", metavar="NAME=VALUE", help="game options")
    p.add_argument(
        "--save", type=path_arg, metavar="DIR", help="save every game's record and arena.json"
    )
    p.add_argument("--json", action="store_true", help="print the figures as JSON")
    p.set_defaults(func=_cmd_arena)
