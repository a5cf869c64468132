"""``parlour beggar play`` and ``parlour beggar stats``, and the parsers of the ``beggar``
group (``parlour beggar search`` runs in :mod:`parlour.cli.beggar_search`)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from rich.table import Table as RichTable

from parlour.cli.beggar_search import cmd_beggar_search
from parlour.cli.common import (
    CommandError,
    Parser,
    StoreOnce,
    add_beggar_options,
    fresh_seed,
    minutes_arg,
    nonneg_int,
    options_epilog,
    options_of,
    path_arg,
    people_console,
    players_arg,
    pos_int,
    print_json,
    progress_bar,
    read_text,
    workers_arg,
)
from parlour.core.game import JSON, seat_name
from parlour.errors import InvalidNotation, ParlourError
from parlour.games.beggar import BeggarGame, BeggarState, parse_deal, play_to_end

if TYPE_CHECKING:
    from parlour.lab.beggar_stats import BeggarStats, FastStats

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
    outcome = end.outcome
    assert outcome is not None  # play_to_end plays to the end
    labels = [seat_name(s) for s in range(end.players)]
    console.print(f"{BeggarGame().presenter.result_text(outcome, labels, end.cards)}.")
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
    # Imported here: numpy and the statistics are not needed by every other command (a
    # server restarting after a crash starts faster without them).
    from parlour.lab.beggar_stats import run_fast_stats, run_stats

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
    if args.plot is not None:
        print(f"The histogram of game lengths is saved in {args.plot}.")
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
    from parlour.lab.beggar_stats import PERCENTILES

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
    p.add_argument(
        "--deal", dest="deal_option", action=StoreOnce, metavar="DEAL", help="the same as DEAL"
    )
    p.add_argument("--random", action="store_true", help="play a random deal and print it")
    p.add_argument("--players", type=players_arg, help="players for --random (default 2)")
    p.add_argument("--seed", type=nonneg_int, help="seed for --random (default: fresh)")
    p.add_argument(
        "--deals", type=path_arg, metavar="FILE", help="one deal per line ('-' reads stdin)"
    )
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    add_beggar_options(p)
    p.set_defaults(func=_cmd_beggar_play)

    p = bsub.add_parser(
        "stats",
        help="statistics of random deals",
        epilog=options_epilog(beggar),
        formatter_class=formatter,
    )
    p.add_argument("--players", type=players_arg, default=2, help="2 to 4 (default 2)")
    p.add_argument("--games", type=pos_int, default=1000, help="deals to play (default 1000)")
    p.add_argument("--seed", type=nonneg_int, help="seed of the batch (default: fresh)")
    p.add_argument(
        "--engine",
        choices=("fast", "python"),
        default="fast",
        help="fast: the compiled kernel (default); python: the rules engine, slower, with a "
        "seed per game",
    )
    p.add_argument("--workers", type=workers_arg, help="fast engine threads (default: all cores)")
    p.add_argument(
        "--plot", type=path_arg, metavar="FILE", help="save a histogram of game lengths (PNG)"
    )
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
        "and the same command with that file goes on where it stopped, on either backend. "
        "--backend dask spreads each step over Dask workers and finds the same games as local "
        "for the same seed and --deals: random and backward split the step's deals into "
        "ranges of the seed's stream (backward then plays backward from each long game on a "
        "worker), climb runs separate climbs on the workers and reads them in order.",
        epilog=options_epilog(beggar),
        formatter_class=formatter,
    )
    p.add_argument("--players", type=players_arg, help="2 to 4 (default 2)")
    p.add_argument("--minutes", type=minutes_arg, metavar="M", help="search for M minutes")
    p.add_argument("--deals", type=pos_int, metavar="D", help="search over D deals")
    p.add_argument("--seed", type=nonneg_int, help="seed of the search (default: fresh)")
    p.add_argument("--top", type=pos_int, metavar="K", help="games to keep (default 10)")
    p.add_argument(
        "--workers",
        type=workers_arg,
        help="threads, or with --backend dask the processes of a local Dask cluster "
        "(default: all cores)",
    )
    p.add_argument(
        "--strategy", choices=("random", "climb", "backward"), help="how to search (default random)"
    )
    p.add_argument(
        "--backend",
        choices=("local", "dask"),
        default="local",
        help="local: threads of this process (default); dask: Dask workers, every strategy",
    )
    p.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="with --backend dask: the cluster's scheduler, e.g. tcp://10.0.0.5:8786 "
        "(default: a local cluster of --workers processes)",
    )
    p.add_argument(
        "--out", type=path_arg, metavar="FILE", help="save the search (JSON) and resume from it"
    )
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    add_beggar_options(p)
    p.set_defaults(func=cmd_beggar_search)
