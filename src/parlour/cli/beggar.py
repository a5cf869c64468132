"""``parlour beggar play``, ``parlour beggar stats`` and ``parlour beggar search``."""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING

from rich.console import Console
from rich.progress import (
    BarColumn,
    Progress,
    TextColumn,
)
from rich.table import Table as RichTable

from parlour.core.game import JSON
from parlour.errors import InvalidNotation, ParlourError
from parlour.games.beggar.notation import parse_deal
from parlour.games.beggar.play import play_to_end
from parlour.games.beggar.rules import BeggarGame, BeggarState
from parlour.lab.beggar_stats import (
    PERCENTILES,
    BeggarStats,
    FastStats,
    run_fast_stats,
    run_stats,
)
from parlour.play.beggar import describe_result

if TYPE_CHECKING:
    from parlour.lab.beggar_search import SearchState

from parlour.cli.common import (
    CommandError,
    Parser,
    add_beggar_options,
    fresh_seed,
    nonneg_int,
    options_epilog,
    options_of,
    people_console,
    pos_int,
    print_json,
    progress_bar,
    read_json,
    read_text,
)

# -- parlour beggar play ----------------------------------------------------------------------


def beggar_start(
    deal: str | None, players: int | None, seed: int | None, options: dict[str, str]
) -> BeggarState:
    game = BeggarGame()
    if deal is None:
        return game.new(players or 2, fresh_seed() if seed is None else seed, options)
    hands = parse_deal(deal)
    if players is not None and players != len(hands):
        raise InvalidNotation(f"the deal has {len(hands)} hands but --players is {players}")
    return game.new(len(hands), 0 if seed is None else seed, options, deal)


def _cmd_beggar_play(args: argparse.Namespace) -> int:
    if args.deal_option is not None:
        if args.deal is not None:
            raise CommandError("give the deal once, as DEAL or --deal DEAL")
        args.deal = args.deal_option
    sources = sum(x is not None and x is not False for x in (args.deal, args.random, args.deals))
    if sources != 1:
        raise CommandError("give exactly one of DEAL, --random or --deals FILE")
    options = options_of(args)
    if args.deals is not None:
        return _play_deal_file(args.deals, args.players, options)
    if args.random:
        seed = fresh_seed() if args.seed is None else args.seed
        start = beggar_start(None, args.players, seed, options)
    else:
        seed = None
        start = beggar_start(args.deal, args.players, args.seed, options)
    end = play_to_end(start)
    summary = end.summary()
    if args.json:
        print_json(summary, compact=True)
        return 0
    console = people_console()
    if seed is not None:
        console.print(f"Random deal for {start.players} players (seed {seed}):")
    console.print(f"Deal: {summary['deal']}")
    console.print(describe_result(end))
    return 0


def _play_deal_file(path: str, players: int | None, options: dict[str, str]) -> int:
    """One JSON result per deal line; every line is checked before any game is played."""
    game = BeggarGame()
    game.typed_options(options)
    starts: list[BeggarState] = []
    for number, line in enumerate(read_text(path).splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        try:
            starts.append(beggar_start(line.strip(), players, 0, options))
        except ParlourError as err:
            raise CommandError(f"line {number} of {path}: {err}") from None
    with progress_bar("deals") as bar:
        task = bar.add_task("deals", total=len(starts))
        for start in starts:
            print_json(play_to_end(start).summary(), compact=True)
            bar.advance(task)
    return 0


# -- parlour beggar stats ---------------------------------------------------------------------


def _cmd_beggar_stats(args: argparse.Namespace) -> int:
    seed = fresh_seed() if args.seed is None else args.seed
    if args.games < 1:
        raise CommandError(f"--games must be at least 1, got {args.games}")
    options = options_of(args)
    BeggarGame().check_players(args.players)
    BeggarGame().typed_options(options)
    if args.plot is not None and not Path(args.plot).resolve().parent.is_dir():
        raise CommandError(f"cannot write {args.plot}: no such folder")
    with progress_bar(f"{args.players}-player deals") as bar:
        task = bar.add_task("deals", total=args.games)

        def report_progress(done: int) -> None:
            bar.update(task, completed=done)

        if args.engine == "python":
            stats: BeggarStats | FastStats = run_stats(
                args.players, args.games, seed, options, report_progress
            )
        else:
            stats = run_fast_stats(
                args.players,
                args.games,
                seed,
                options,
                workers=args.workers,
                progress=report_progress,
            )
    report = stats.to_json()
    if args.plot is not None:
        _save_plot(args.plot, stats.cards_histogram, report)
    if args.json:
        print_json(report, compact=True)
        return 0
    _print_stats(report)
    return 0


def _save_plot(path: str, cards: object, report: dict[str, JSON]) -> None:
    """``--plot FILE``: the histogram of game lengths (matplotlib loads only here)."""
    from parlour.lab.beggar_plot import length_histogram

    title = (
        f"Beggar-My-Neighbour, {report['players']} players: {report['games']:,} random deals "
        f"(seed {report['seed']})"
    )
    figure = length_histogram(cards, title)  # type: ignore[arg-type]
    try:
        figure.savefig(path, format="png")
    except OSError as err:
        raise CommandError(f"cannot write {path}: {err.strerror or err}") from None


def _print_stats(report: dict[str, JSON]) -> None:
    console = people_console()
    results = report["results"]
    console.print(
        f"{report['games']} random deals for {report['players']} players (seed {report['seed']}):"
        f" {results['win']} won, {results['loop']} never-ending (M10), {results['limit']} stopped"
        " at the card limit (M11)"
    )
    console.print(
        f"mean {report['mean_cards']:.2f} cards and {report['mean_tricks']:.2f} tricks; median "
        f"{report['median_cards']:g} cards, {report['median_tricks']:g} tricks"
    )
    table = RichTable("percentile", "cards", "tricks", title="Game length (M8 counts)")
    for q in PERCENTILES:
        row = report["percentiles"][f"{q:g}"]
        table.add_row(f"{q:g}%", str(row["cards"]), str(row["tricks"]))
    console.print(table)
    tails = ", ".join(f"{n} over {t}" for t, n in report["tails"].items())
    console.print(f"Long games (more cards than): {tails}")
    console.print(f"Player 1 (who leads first) wins {100 * report['first_player_win_rate']:.2f}%")
    longest = report["longest"]
    where = (
        f"seed {longest['seed']}"
        if longest["seed"] is not None
        else f"game {longest['index']} of the batch"
    )
    console.print(
        f"Longest game: {longest['cards']} cards, {longest['tricks']} tricks ({longest['result']})"
        f", {where}\n  deal {longest['deal']}"
    )


# -- parlour beggar search --------------------------------------------------------------------


def _cmd_beggar_search(args: argparse.Namespace) -> int:
    from parlour.lab import beggar_search as search

    if (args.minutes is None) == (args.deals is None):
        raise CommandError("give exactly one budget: --minutes M or --deals D")
    if args.minutes is not None and not args.minutes > 0:
        raise CommandError(f"--minutes must be above 0, got {args.minutes:g}")
    state = _search_state(args, search)
    budget = args.deals if args.deals is not None else args.minutes * 60
    unit = "deals" if args.deals is not None else "s"
    step = search.STEP_DEALS[state.strategy]
    start_deals = state.deals
    began = time.monotonic()
    progress = Progress(
        TextColumn(f"{state.strategy} search, {state.players} players"),
        BarColumn(),
        TextColumn("{task.completed:,.0f}/{task.total:,.0f} " + unit),
        TextColumn("{task.fields[rate]}", style="cyan"),
        TextColumn("{task.fields[best]}", style="green"),
        console=Console(stderr=True),
        disable=not sys.stderr.isatty(),
        transient=True,
    )
    with progress as bar:
        task = bar.add_task("search", total=budget, rate="", best="")

        def show(played: int) -> None:
            elapsed = max(time.monotonic() - began, 1e-9)
            best = state.best
            bar.update(
                task,
                completed=played if unit == "deals" else elapsed,
                rate=f"{played / elapsed:,.0f} deals/s",
                best="" if best is None else f"best {best.cards} cards ({best.result})",
            )

        while True:
            played = state.deals - start_deals
            if unit == "deals":
                size = min(step, budget - played)
            else:
                size = step if time.monotonic() - began < budget else 0
            if size <= 0:
                break
            state = search.search_step(
                state, size, workers=args.workers, progress=partial(_shifted, show, played)
            )
            show(state.deals - start_deals)
            if args.out is not None:
                _write_search(args.out, state.to_json())
    seconds = time.monotonic() - began
    played = state.deals - start_deals
    if args.json:
        report = state.to_json()
        report["run"] = {
            "deals": played,
            "seconds": round(seconds, 3),
            "deals_per_second": round(played / max(seconds, 1e-9)),
        }
        print_json(report, compact=True)
        return 0
    console = people_console()
    console.print(
        f"{state.strategy} search for {state.players} players (seed {state.seed}): {played:,} "
        f"deals in {seconds:.1f}s ({played / max(seconds, 1e-9):,.0f} deals/s), "
        f"{state.deals:,} in all"
    )
    console.print("Longest games found (M9 deals, seat 0 first):")
    for rank, found in enumerate(state.top, 1):
        console.print(
            f"{rank:>3}. {found.cards} cards, {found.tricks} tricks ({found.result}): {found.deal}"
        )
    if args.out is not None:
        console.print(f"Saved to {args.out}; run the same command again to go on.")
    return 0


def _shifted(report: Callable[[int], None], base: int, done: int) -> None:
    report(base + done)


def _search_state(args: argparse.Namespace, search: ModuleType) -> SearchState:
    """A new search, or the one saved in ``--out`` (its settings must match those given)."""
    options = options_of(args)
    if args.out is None or not Path(args.out).exists():
        seed = fresh_seed() if args.seed is None else args.seed
        fresh: SearchState = search.new_search(
            args.players or 2, seed, args.strategy or "random", options, args.top or 10
        )
        return fresh
    saved: SearchState = search.SearchState.from_json(read_json(args.out))
    given = {
        "players": args.players,
        "seed": args.seed,
        "strategy": args.strategy,
        "options": BeggarGame().typed_options(options).to_json() if options else None,
    }
    for name, value in given.items():
        if value is not None and value != getattr(saved, name):
            raise CommandError(
                f"{args.out} holds a search with {name} {getattr(saved, name)!r}, not "
                f"{value!r}: give another --out FILE or the same {name}"
            )
    if args.top is not None and args.top != saved.top_k:
        saved = search.SearchState.from_json({**saved.to_json(), "top_k": args.top})
    return saved


def _write_search(path: str, data: dict[str, JSON]) -> None:
    """Save a search atomically, so that an interrupted run leaves the last whole state."""
    target = Path(path)
    temporary = target.with_name(target.name + ".tmp")
    try:
        temporary.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
        os.replace(temporary, target)
    except OSError as err:
        raise CommandError(f"cannot write {path}: {err.strerror or err}") from None


def register(
    sub: argparse._SubParsersAction[Parser],
    formatter: type[argparse.HelpFormatter],
) -> None:
    """Add the ``beggar`` command and its subcommands' parsers."""
    beggar = BeggarGame()
    b = sub.add_parser("beggar", help="Beggar-My-Neighbour: play deals, statistics")
    bsub = b.add_subparsers(dest="subcommand", required=True, metavar="COMMAND")
    p = bsub.add_parser(
        "play",
        help="play a deal to its result",
        description="Play one deal (DEAL), a random one (--random) or one per line of FILE "
        "(--deals, one JSON result per line). Deals use M9 notation: one string per hand, "
        "top card first, hands separated by '/', A K Q J for court cards and - for number "
        "cards, e.g. --Q-K--K-AQ-------J--A-J--/------Q-----JA---AKQ---K-J",
        epilog=options_epilog(beggar),
        formatter_class=formatter,
    )
    p.add_argument("deal", nargs="?", metavar="DEAL", help="a deal in M9 notation")
    p.add_argument("--deal", dest="deal_option", metavar="DEAL", help="the same as DEAL")
    p.add_argument("--random", action="store_true", help="play a random deal and print it")
    p.add_argument("--players", type=int, help="players for --random (default 2)")
    p.add_argument("--seed", type=nonneg_int, help="seed for --random (default: fresh)")
    p.add_argument("--deals", metavar="FILE", help="one deal per line ('-' reads stdin)")
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    add_beggar_options(p)
    p.set_defaults(func=_cmd_beggar_play)

    p = bsub.add_parser(
        "stats",
        help="statistics of random deals",
        epilog=options_epilog(beggar),
        formatter_class=formatter,
    )
    p.add_argument("--players", type=int, default=2, help="2 to 4 (default 2)")
    p.add_argument("--games", type=pos_int, default=1000, help="deals to play (default 1000)")
    p.add_argument("--seed", type=nonneg_int, help="seed of the batch (default: fresh)")
    p.add_argument(
        "--engine",
        choices=("fast", "python"),
        default="fast",
        help="fast: the compiled kernel (default); python: the rules engine, slower, with a "
        "seed per game",
    )
    p.add_argument("--workers", type=pos_int, help="fast engine threads (default: all cores)")
    p.add_argument("--plot", metavar="FILE", help="save a histogram of game lengths (PNG)")
    p.add_argument("--json", action="store_true", help="print the figures as JSON")
    add_beggar_options(p)
    p.set_defaults(func=_cmd_beggar_stats)

    p = bsub.add_parser(
        "search",
        help="search for long games",
        description="Search for the longest games with the compiled kernel: random sampling "
        "(random), hill climbing by swapping two cards (climb) or random sampling with backward "
        "play from the longest deals (backward, 2 players, no card limit). Shows deals per "
        "second and the best game so far; --out FILE keeps the top games after every step, "
        "and the same command with that file goes on where it stopped.",
        epilog=options_epilog(beggar),
        formatter_class=formatter,
    )
    p.add_argument("--players", type=int, help="2 to 4 (default 2)")
    p.add_argument("--minutes", type=float, metavar="M", help="search for M minutes")
    p.add_argument("--deals", type=pos_int, metavar="D", help="search over D deals")
    p.add_argument("--seed", type=nonneg_int, help="seed of the search (default: fresh)")
    p.add_argument("--top", type=pos_int, metavar="K", help="games to keep (default 10)")
    p.add_argument("--workers", type=pos_int, help="threads (default: all cores)")
    p.add_argument(
        "--strategy", choices=("random", "climb", "backward"), help="how to search (default random)"
    )
    p.add_argument("--out", metavar="FILE", help="save the search (JSON) and resume from it")
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    add_beggar_options(p)
    p.set_defaults(func=_cmd_beggar_search)
