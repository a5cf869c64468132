"""``parlour beggar play`` and ``parlour beggar stats`` (their parsers are in
:mod:`parlour.games.beggar.cli`; ``parlour beggar search`` runs in
:mod:`parlour.games.beggar.cli.search`)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from rich.table import Table as RichTable

from parlour.cli.common import (
    CommandError,
    fresh_seed,
    options_of,
    people_console,
    print_json,
    progress_bar,
    read_text,
)
from parlour.core.game import JSON, seat_name
from parlour.errors import InvalidNotation, ParlourError
from parlour.games.beggar.game import GAME
from parlour.games.beggar.notation import parse_deal
from parlour.games.beggar.options import without_clock
from parlour.games.beggar.play import play_to_end
from parlour.games.beggar.rules import BeggarState

if TYPE_CHECKING:
    from parlour.games.beggar.lab.stats import BeggarStats, FastStats

__all__ = ["beggar_start", "cmd_beggar_play", "cmd_beggar_stats"]

# -- parlour beggar play ----------------------------------------------------------------------


def beggar_start(
    deal: str | None, players: int | None, seed: int | None, options: dict[str, str]
) -> BeggarState:
    game = GAME
    if deal is None:
        return game.new(players or 2, fresh_seed() if seed is None else seed, options)
    hands = parse_deal(deal)
    if players is not None and players != len(hands):
        raise InvalidNotation(f"the deal has {len(hands)} hands but --players is {players}")
    return game.new(len(hands), 0 if seed is None else seed, options, deal)


def cmd_beggar_play(args: argparse.Namespace) -> int:
    if args.deal_option is not None:
        if args.deal is not None:
            raise CommandError("give the deal once, as DEAL or --deal DEAL")
        args.deal = args.deal_option
    sources = sum(x is not None and x is not False for x in (args.deal, args.random, args.deals))
    if sources != 1:
        raise CommandError("give exactly one of DEAL, --random or --deals FILE")
    options = options_of(args)
    without_clock(GAME.typed_options(options))  # M12: playing a deal through has no clock
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
    console.print(f"{GAME.presenter.result_text(outcome, labels, end.cards)}.")
    return 0


def _play_deal_file(path: str, players: int | None, options: dict[str, str]) -> int:
    """One JSON result per deal line; every line is checked before any game is played."""
    GAME.typed_options(options)
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


def cmd_beggar_stats(args: argparse.Namespace) -> int:
    # Imported here: numpy and the statistics are not needed by every other command (a
    # server restarting after a crash starts faster without them).
    from parlour.games.beggar.lab.stats import run_fast_stats, run_stats

    seed = fresh_seed() if args.seed is None else args.seed
    if args.games < 1:
        raise CommandError(f"--games must be at least 1, got {args.games}")
    options = options_of(args)
    GAME.check_players(args.players)
    without_clock(GAME.typed_options(options))  # M12: statistics have no clock
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
    from parlour.games.beggar.lab.plot import length_histogram

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
    from parlour.games.beggar.lab.stats import PERCENTILES

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
