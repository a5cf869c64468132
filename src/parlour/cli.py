"""The ``parlour`` command: parse arguments, call the library, print.

Every command has ``--json`` for machines. Bad input ends with one line on standard error naming
the problem and exit status 2, never a traceback.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, NoReturn

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TextColumn,
    TimeRemainingColumn,
)
from rich.table import Table as RichTable
from rich.text import Text

from parlour.core.game import JSON, Game
from parlour.core.options import parse_option_pairs
from parlour.core.record import Record
from parlour.core.rng import MAX_SEED, derive_seed
from parlour.errors import InvalidNotation, ParlourError
from parlour.games import GAMES, find_game, replay_json
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
from parlour.play.beggar import describe_result, show_game
from parlour.play.menu import ask_menu
from parlour.play.table import PERSON, Table, check_seat_specs, parse_seat_flags
from parlour.play.terminal import TerminalGame, play_on, write_record

if TYPE_CHECKING:
    from parlour.lab.beggar_search import SearchState

__all__ = ["main"]


class _Parser(argparse.ArgumentParser):
    """argparse with a one-line error (``parlour beggar play: error: ...``) and exit status 2."""

    def error(self, message: str) -> NoReturn:
        sys.stderr.write(f"{self.prog}: error: {message} (see {self.prog} --help)\n")
        raise SystemExit(2)


class _CommandError(Exception):
    """A command-line problem found after parsing (a file that cannot be read, ...)."""


def _print_json(obj: JSON, *, compact: bool = False) -> None:
    """One line for machines, or indented for people with lists of plain values on one line."""
    if compact:
        print(json.dumps(obj, ensure_ascii=False, separators=(",", ":")))
    else:
        print(_pretty_json(obj, ""))


def _pretty_json(obj: JSON, indent: str) -> str:
    inner = indent + "  "
    if isinstance(obj, dict) and obj:
        items = [f"{inner}{json.dumps(k)}: {_pretty_json(v, inner)}" for k, v in obj.items()]
        return "{\n" + ",\n".join(items) + "\n" + indent + "}"
    if isinstance(obj, list) and any(isinstance(v, dict | list) for v in obj):
        items = [inner + _pretty_json(v, inner) for v in obj]
        return "[\n" + ",\n".join(items) + "\n" + indent + "]"
    return json.dumps(obj, ensure_ascii=False, separators=(", ", ": "))


def _console() -> Console:
    """Standard output for people: wrapped on a terminal, whole lines in pipes and files."""
    return Console(highlight=False, soft_wrap=not sys.stdout.isatty())


def _fresh_seed() -> int:
    """A new seed for a game the user did not seed; it is printed so the game can be replayed."""
    return int.from_bytes(os.urandom(8), "big") & MAX_SEED


def _read_text(path: str) -> str:
    if path == "-":
        return sys.stdin.read()
    try:
        return Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        reason = err.strerror if isinstance(err, OSError) and err.strerror else str(err)
        raise _CommandError(f"cannot read {path}: {reason}") from None


class _RateColumn(ProgressColumn):
    """Items per second, e.g. ``812 deals/s``."""

    def render(self, task: Task) -> Text:
        speed = task.finished_speed or task.speed
        return Text("" if speed is None else f"{speed:,.0f} {task.description}/s", style="cyan")


def _progress(label: str) -> Progress:
    """A progress bar on standard error, shown only on a terminal (never in pipes or --json)."""
    return Progress(
        TextColumn(label),
        BarColumn(),
        MofNCompleteColumn(),
        _RateColumn(),
        TimeRemainingColumn(),
        console=Console(stderr=True),
        disable=not sys.stderr.isatty(),
        transient=True,
    )


def _options_of(args: argparse.Namespace) -> dict[str, str]:
    """Game options from ``--options K=V ...`` and the dedicated flags (which win)."""
    given = parse_option_pairs(args.options)
    for name in ("unpaid_penalty", "card_limit"):
        value = getattr(args, name, None)
        if value is not None:
            given[name] = str(value)
    return given


def _options_epilog(game: Game) -> str:
    lines = [f"options of {game.title} (--options NAME=VALUE):"]
    for spec in game.option_specs:
        ruling = f" [{spec.ruling}]" if spec.ruling else ""
        lines.append(f"  {spec.describe()}{ruling}: {spec.help}")
    lines.append("rulings: see the README section 'Rulings and options'")
    return "\n".join(lines)


# -- parlour games ----------------------------------------------------------------------------


def _cmd_games(args: argparse.Namespace) -> int:
    listing = [
        {
            "name": g.name,
            "title": g.title,
            "min_players": g.min_players,
            "max_players": g.max_players,
            "options": [
                {
                    "name": s.name,
                    "kind": s.kind,
                    "default": s.default,
                    "choices": list(s.choices),
                    "ruling": s.ruling,
                    "help": s.help,
                }
                for s in g.option_specs
            ],
        }
        for g in GAMES.values()
    ]
    if args.json:
        _print_json(listing)
        return 0
    table = RichTable(title="Parlour games")
    for column in ("game", "name", "players", "options"):
        table.add_column(column, overflow="fold")
    for g in GAMES.values():
        options = "\n".join(f"{s.describe()} [{s.ruling}]" for s in g.option_specs)
        table.add_row(g.title, g.name, f"{g.min_players}-{g.max_players}", options)
    Console().print(table)
    return 0


# -- parlour replay ---------------------------------------------------------------------------


def _read_json(path: str) -> object:
    """A JSON file's content, or a one-line error naming the file and where it breaks."""
    text = _read_text(path)
    try:
        return json.loads(text)
    except json.JSONDecodeError as err:
        raise _CommandError(
            f"{path} is not JSON: {err.msg} at line {err.lineno} column {err.colno}"
        ) from None


def _cmd_replay(args: argparse.Namespace) -> int:
    record, states = replay_json(_read_json(args.record))
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
    _print_json(out, compact=args.json)
    return 0


def _seat_arg(text: str, players: int) -> int | None:
    if text.strip().lower() == "spectator":
        return None
    if not text.strip().isdigit() or not 0 <= int(text) < players:
        raise _CommandError(
            f"--view: a seat is 0 to {players - 1} (seat 0 is Player 1) or 'spectator', "
            f"got {text!r}"
        )
    return int(text)


# -- parlour beggar play ----------------------------------------------------------------------


def _beggar_start(
    deal: str | None, players: int | None, seed: int | None, options: dict[str, str]
) -> BeggarState:
    game = BeggarGame()
    if deal is None:
        return game.new(players or 2, _fresh_seed() if seed is None else seed, options)
    hands = parse_deal(deal)
    if players is not None and players != len(hands):
        raise InvalidNotation(f"the deal has {len(hands)} hands but --players is {players}")
    return game.new(len(hands), 0 if seed is None else seed, options, deal)


def _cmd_beggar_play(args: argparse.Namespace) -> int:
    if args.deal_option is not None:
        if args.deal is not None:
            raise _CommandError("give the deal once, as DEAL or --deal DEAL")
        args.deal = args.deal_option
    sources = sum(x is not None and x is not False for x in (args.deal, args.random, args.deals))
    if sources != 1:
        raise _CommandError("give exactly one of DEAL, --random or --deals FILE")
    options = _options_of(args)
    if args.deals is not None:
        return _play_deal_file(args.deals, args.players, options)
    if args.random:
        seed = _fresh_seed() if args.seed is None else args.seed
        start = _beggar_start(None, args.players, seed, options)
    else:
        seed = None
        start = _beggar_start(args.deal, args.players, args.seed, options)
    end = play_to_end(start)
    summary = end.summary()
    if args.json:
        _print_json(summary, compact=True)
        return 0
    console = _console()
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
    for number, line in enumerate(_read_text(path).splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        try:
            starts.append(_beggar_start(line.strip(), players, 0, options))
        except ParlourError as err:
            raise _CommandError(f"line {number} of {path}: {err}") from None
    with _progress("deals") as bar:
        task = bar.add_task("deals", total=len(starts))
        for start in starts:
            _print_json(play_to_end(start).summary(), compact=True)
            bar.advance(task)
    return 0


# -- parlour beggar stats ---------------------------------------------------------------------


def _cmd_beggar_stats(args: argparse.Namespace) -> int:
    seed = _fresh_seed() if args.seed is None else args.seed
    if args.games < 1:
        raise _CommandError(f"--games must be at least 1, got {args.games}")
    options = _options_of(args)
    BeggarGame().check_players(args.players)
    BeggarGame().typed_options(options)
    if args.plot is not None and not Path(args.plot).resolve().parent.is_dir():
        raise _CommandError(f"cannot write {args.plot}: no such folder")
    with _progress(f"{args.players}-player deals") as bar:
        task = bar.add_task("deals", total=args.games)

        def report_progress(done: int) -> None:
            bar.update(task, completed=done)

        if args.engine == "python":
            stats: BeggarStats | FastStats = run_stats(
                args.players, args.games, seed, options, report_progress
            )
        else:
            stats = run_fast_stats(
                args.players, args.games, seed, options, workers=args.workers,
                progress=report_progress,
            )
    report = stats.to_json()
    if args.plot is not None:
        _save_plot(args.plot, stats.cards_histogram, report)
    if args.json:
        _print_json(report, compact=True)
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
        raise _CommandError(f"cannot write {path}: {err.strerror or err}") from None


def _print_stats(report: dict[str, JSON]) -> None:
    console = _console()
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
        raise _CommandError("give exactly one budget: --minutes M or --deals D")
    if args.minutes is not None and not args.minutes > 0:
        raise _CommandError(f"--minutes must be above 0, got {args.minutes:g}")
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
        report["run"] = {"deals": played, "seconds": round(seconds, 3),
                         "deals_per_second": round(played / max(seconds, 1e-9))}
        _print_json(report, compact=True)
        return 0
    console = _console()
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
    options = _options_of(args)
    if args.out is None or not Path(args.out).exists():
        seed = _fresh_seed() if args.seed is None else args.seed
        fresh: SearchState = search.new_search(
            args.players or 2, seed, args.strategy or "random", options, args.top or 10
        )
        return fresh
    saved: SearchState = search.SearchState.from_json(_read_json(args.out))
    given = {
        "players": args.players,
        "seed": args.seed,
        "strategy": args.strategy,
        "options": BeggarGame().typed_options(options).to_json() if options else None,
    }
    for name, value in given.items():
        if value is not None and value != getattr(saved, name):
            raise _CommandError(
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
        raise _CommandError(f"cannot write {path}: {err.strerror or err}") from None


# -- parlour play -----------------------------------------------------------------------------

_DEFAULT_PLAYERS = {"beor": 2, "death": 4, "beggar": 2}


def _cmd_play(args: argparse.Namespace) -> int:
    console = _console()
    options = _options_of(args)
    if args.resume is not None:
        table = _resumed_table(args)
        save_path: str | None = args.save or args.resume
    else:
        if args.game is None:
            if args.players is not None or args.seat or args.watch or args.json:
                raise _CommandError("name the game, e.g. parlour play beor --players 3")
            choice = ask_menu(input, console)
            game, specs = choice.game, choice.seats
        else:
            game = find_game(args.game)
            if args.deal is not None and game.name != "beggar":
                raise _CommandError("--deal is for beggar; other games are dealt from --seed")
            if args.fast and game.name != "beggar":
                raise _CommandError("--fast is for watching beggar; --delay 0 watches any game")
            players = args.players
            if args.deal is not None:
                players = len(parse_deal(args.deal)) if players is None else players
            players = game.check_players(players or _DEFAULT_PLAYERS[game.name])
            bot = "ismcts" if game.name != "beggar" else "bot"
            watch = args.watch or args.json
            default = [bot] * players if watch else [PERSON] + [bot] * (players - 1)
            specs = parse_seat_flags(args.seat or (), players, default)
            if watch and PERSON in specs:
                raise _CommandError("--watch and --json are for bots only: drop --seat N=person")
        seats = check_seat_specs(game, specs)
        if args.delay is not None and args.delay < 0:
            raise _CommandError(f"--delay must be 0 seconds or more, got {args.delay:g}")
        seed = _fresh_seed() if args.seed is None else args.seed
        if game.name == "beggar" and not any(s.is_person for s in seats):
            return _watch_beggar(args, seed, options)
        table = Table(game, seats, seed, options, args.deal)
        save_path = args.save
    if args.json:
        if table.people:
            raise _CommandError("--json plays bots only; this record seats people")
        while not table.state.is_over:
            table.bot_move()
        _save_table(table, save_path)
        outcome = table.state.outcome
        assert outcome is not None
        _print_json({"record": table.record().to_json(), "result": outcome.to_json()}, compact=True)
        return 0
    if save_path is not None:
        _save_table(table, save_path)  # a file that cannot be written is said now, not later
    if not table.people:
        console.print("No person at the table: watching the bots play.", style="dim")
    return _play_tables(table, console, save_path, args.delay)


def _resumed_table(args: argparse.Namespace) -> Table:
    for flag, value in (
        ("--players", args.players),
        ("--deal", args.deal),
        ("--seed", args.seed),
        ("--options", args.options),
    ):
        if value is not None:
            raise _CommandError(f"{flag} cannot change a resumed game: it is in the record")
    record = Record.from_json(_read_json(args.resume))
    if args.game is not None and find_game(args.game).name != find_game(record.game).name:
        raise _CommandError(f"{args.resume} is a game of {record.game}, not {args.game}")
    return Table.from_record(record, args.seat or ())


def _save_table(table: Table, path: str | None) -> None:
    if path is None:
        return
    try:
        write_record(table, path)
    except OSError as err:
        raise _CommandError(f"cannot write {path}: {err.strerror}") from None


def _play_tables(table: Table, console: Console, save_path: str | None, delay: float | None) -> int:
    """Play ``table`` at the terminal, then more games with the same seats while asked."""
    if delay is None:
        delay = 0.6 if console.is_terminal and not table.people else 0.0
    number = 1
    while True:
        terminal = TerminalGame(table, console, input, save_path=save_path, delay=delay)
        _use_readline(terminal.complete)
        if terminal.run() == "quit":
            return 0
        if table.seats and not play_on(table, console):
            return 0
        number += 1
        seed = derive_seed(table.seed, "next game")
        table = Table(table.game, table.seats, seed, table.options)
        if save_path is not None:
            stem, dot, ext = save_path.rpartition(".")
            save_path = f"{stem}-{number}.{ext}" if dot else f"{save_path}-{number}"
            console.print(f"This game is saved in {save_path}.", highlight=False)


def _use_readline(complete: Callable[[str, int], str | None]) -> None:
    """Tab completion of moves where the terminal allows it (readline on a terminal)."""
    if not sys.stdin.isatty():
        return
    try:
        import readline
    except ImportError:  # pragma: no cover - platforms without readline
        return
    readline.set_completer(complete)
    readline.set_completer_delims(" ")
    readline.parse_and_bind("tab: complete")


def _watch_beggar(args: argparse.Namespace, seed: int, options: dict[str, str]) -> int:
    """A Beggar-My-Neighbour game between bots, shown trick by trick."""
    start = _beggar_start(args.deal, args.players, seed, options)
    if args.json:
        end = play_to_end(start)
    else:
        console = _console()
        delay = args.delay if args.delay is not None else (0.8 if console.is_terminal else 0.0)
        if args.deal is None:
            console.print(f"Random deal, seed {seed}")
        end = show_game(start, console, delay=delay, fast=args.fast)
    record = Record(
        "beggar",
        start.players,
        seed,
        {k: v for k, v in start.options.to_json().items() if v is not None},
        # A random deal is rebuilt from the seed, full cards and all; a given deal is kept.
        args.deal,
        tuple("play" for _ in range(end.cards)),
        ("bot",) * start.players,
    )
    if args.save:
        try:
            Path(args.save).write_text(json.dumps(record.to_json()) + "\n", encoding="utf-8")
        except OSError as err:
            raise _CommandError(f"cannot write {args.save}: {err.strerror}") from None
    if args.json:
        _print_json({"record": record.to_json(), "result": end.summary()}, compact=True)
    return 0


# -- parlour arena ----------------------------------------------------------------------------


def _cmd_arena(args: argparse.Namespace) -> int:
    from parlour.bots.arena import run_arena

    specs = [s.strip() for s in args.agents.split(",") if s.strip()]
    if not specs:
        raise _CommandError("--agents needs at least one agent, e.g. heuristic,random")
    seed = _fresh_seed() if args.seed is None else args.seed
    options = parse_option_pairs(args.options)
    workers = args.workers or os.cpu_count() or 1
    with _progress("games") as bar:
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
        _print_json(figures, compact=True)
        return 0
    console = _console()
    title = find_game(args.game).title
    console.print(
        f"{figures['games']} games of {title} for {args.players} players (seed {seed}); "
        f"parity {100 * figures['parity']:.1f}% a seat; mean length {figures['mean_length']:.1f} "
        f"actions; {figures['draws']} without a winner"
    )
    table = RichTable("agent", "seat-games", "win rate", "95% CI", "s/decision", title="Results")
    death = args.game.strip().lower() == "death"
    if death:
        table.add_column("drinks taken")
        table.add_column("drinks given")
    for agent in figures["agents"]:
        lo, hi = agent["ci95"]
        row = [
            agent["name"],
            str(agent["games"]),
            f"{100 * agent['win_rate']:.1f}%",
            f"{100 * lo:.1f}-{100 * hi:.1f}%",
            f"{agent['seconds_per_decision']:.4f}",
        ]
        if death:
            row += [f"{agent['mean_drinks_taken']:.1f}", f"{agent['mean_drinks_given']:.1f}"]
        table.add_row(*row)
    console.print(table)
    if figures["ratings"]:
        ratings = ", ".join(f"{k} {v:.0f}" for k, v in figures["ratings"].items())
        console.print(f"Ratings (Elo scale, mean 1500): {ratings}")
    return 0


def _save_arena(folder: str, report: object, figures: dict[str, JSON]) -> None:
    """One record a game (replayable with ``parlour replay``) and ``arena.json``."""
    from parlour.bots.arena import ArenaReport

    assert isinstance(report, ArenaReport)
    path = Path(folder)
    try:
        path.mkdir(parents=True, exist_ok=True)
        for result in report.results:
            (path / f"game-{result.index:05d}.json").write_text(
                json.dumps(result.record) + "\n", encoding="utf-8"
            )
        index = {
            **figures,
            "seating": [
                {"game": r.index, "seats": [report.specs[a] for a in r.plan]}
                for r in report.results
            ],
        }
        (path / "arena.json").write_text(json.dumps(index, indent=1) + "\n", encoding="utf-8")
    except OSError as err:
        raise _CommandError(f"cannot write {folder}: {err.strerror}") from None


# -- the parser -------------------------------------------------------------------------------


def _nonneg_int(text: str) -> int:
    if not text.strip().isdigit() or int(text) > MAX_SEED:
        raise argparse.ArgumentTypeError(f"must be a whole number from 0 to {MAX_SEED}: {text!r}")
    return int(text)


def _pos_int(text: str) -> int:
    if not text.strip().isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"must be a whole number of at least 1: {text!r}")
    return int(text)


def _play_epilog() -> str:
    lines = [
        "examples:",
        "  parlour play                          the menu",
        "  parlour play beor --seat 2=heuristic  you against the heuristic bot",
        "  parlour play death --players 4 --seat 2=person   two people, two bots",
        "  parlour play death --watch --players 5 --delay 0.3",
        "  parlour play beor --save game.json    then: parlour play --resume game.json",
        "",
    ]
    for game in GAMES.values():
        lines.append(_options_epilog(game))
    return "\n".join(lines)


def _add_beggar_options(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--unpaid-penalty",
        dest="unpaid_penalty",
        choices=("capture", "next_player"),
        help="M4: when a payer runs out mid-payment (default capture)",
    )
    p.add_argument(
        "--card-limit",
        dest="card_limit",
        type=_pos_int,
        metavar="N",
        help="M11: stop after N cards; most cards held wins",
    )
    p.add_argument("--options", nargs="+", metavar="NAME=VALUE", help="game options")


def _build_parser() -> argparse.ArgumentParser:
    beggar = BeggarGame()
    formatter = argparse.RawDescriptionHelpFormatter
    parser = _Parser(
        prog="parlour",
        description="Play, simulate and analyse BEOR, Beggar-My-Neighbour and Becker's Game of "
        "Death.",
        formatter_class=formatter,
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    p = sub.add_parser("games", help="list the games, their player counts and options")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(func=_cmd_games)

    p = sub.add_parser(
        "play",
        help="play a game at the terminal: people and bots at one table",
        description="Play BEOR, Becker's Game of Death or Beggar-My-Neighbour at the terminal. "
        "With no GAME a short menu asks for the game, the players and the bots. Player 1 is "
        "you and the other seats are strong bots unless --seat says otherwise; several people "
        "share one keyboard (hot seat) with --seat 2=person. At the table type a move's number "
        "or its notation; help shows the rules, undo takes back a move, quit offers to save.",
        epilog=_play_epilog(),
        formatter_class=formatter,
    )
    p.add_argument("game", nargs="?", metavar="GAME", help="beor, death or beggar")
    p.add_argument("--players", type=int, help="players at the table (default 2; death 4)")
    p.add_argument(
        "--seat",
        action="append",
        metavar="N=WHO",
        help="who sits at Player N: person, ismcts, ismcts:500, ismcts:1s, heuristic or random "
        "(beggar: person or bot); repeat for more seats",
    )
    p.add_argument("--seed", type=_nonneg_int, help="seed of the deal and bots (default: fresh)")
    p.add_argument("--save", metavar="FILE", help="save the game record after every move")
    p.add_argument("--resume", metavar="FILE", help="go on with a saved game")
    p.add_argument("--watch", action="store_true", help="bots only: watch a whole game")
    p.add_argument("--delay", type=float, help="seconds between moves when watching")
    p.add_argument("--deal", help="beggar: a deal in M9 notation instead of a random one")
    p.add_argument("--fast", action="store_true", help="beggar, watching: jump to the result")
    p.add_argument("--json", action="store_true", help="bots only: print the record and result")
    _add_beggar_options(p)
    p.set_defaults(func=_cmd_play)

    p = sub.add_parser("replay", help="replay a game record and print the position")
    p.add_argument("record", metavar="RECORD.json", help="a record file ('-' reads stdin)")
    p.add_argument("--view", metavar="SEAT", help="print seat SEAT's view (0 is Player 1)")
    p.add_argument("--json", action="store_true", help="print compact JSON on one line")
    p.set_defaults(func=_cmd_replay)

    p = sub.add_parser(
        "arena",
        help="agents play many games; win rates with confidence intervals",
        description="Agents play seeded games with rotating seats on all cores. Agents: random, "
        "heuristic, ismcts (default budget), ismcts:N (iterations), ismcts:Ns (seconds), "
        "ismcts:N:heuristic|random (rollout policy).",
    )
    p.add_argument("game", metavar="GAME", help="beor or death")
    p.add_argument("--players", type=int, default=2, help="players at the table (default 2)")
    p.add_argument("--agents", required=True, help="comma-separated agents, e.g. heuristic,random")
    p.add_argument("--games", type=_pos_int, default=100, help="games to play (default 100)")
    p.add_argument("--seed", type=_nonneg_int, help="seed of the run (default: fresh)")
    p.add_argument("--workers", type=_pos_int, help="processes (default: all cores)")
    p.add_argument("--options", nargs="+", metavar="NAME=VALUE", help="game options")
    p.add_argument("--save", metavar="DIR", help="save every game's record and arena.json")
    p.add_argument("--json", action="store_true", help="print the figures as JSON")
    p.set_defaults(func=_cmd_arena)

    b = sub.add_parser("beggar", help="Beggar-My-Neighbour: play deals, statistics")
    bsub = b.add_subparsers(dest="beggar_command", required=True, metavar="COMMAND")
    p = bsub.add_parser(
        "play",
        help="play a deal to its result",
        description="Play one deal (DEAL), a random one (--random) or one per line of FILE "
        "(--deals, one JSON result per line). Deals use M9 notation: one string per hand, "
        "top card first, hands separated by '/', A K Q J for court cards and - for number "
        "cards, e.g. --Q-K--K-AQ-------J--A-J--/------Q-----JA---AKQ---K-J",
        epilog=_options_epilog(beggar),
        formatter_class=formatter,
    )
    p.add_argument("deal", nargs="?", metavar="DEAL", help="a deal in M9 notation")
    p.add_argument("--deal", dest="deal_option", metavar="DEAL", help="the same as DEAL")
    p.add_argument("--random", action="store_true", help="play a random deal and print it")
    p.add_argument("--players", type=int, help="players for --random (default 2)")
    p.add_argument("--seed", type=_nonneg_int, help="seed for --random (default: fresh)")
    p.add_argument("--deals", metavar="FILE", help="one deal per line ('-' reads stdin)")
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    _add_beggar_options(p)
    p.set_defaults(func=_cmd_beggar_play)

    p = bsub.add_parser(
        "stats",
        help="statistics of random deals",
        epilog=_options_epilog(beggar),
        formatter_class=formatter,
    )
    p.add_argument("--players", type=int, default=2, help="2 to 4 (default 2)")
    p.add_argument("--games", type=_pos_int, default=1000, help="deals to play (default 1000)")
    p.add_argument("--seed", type=_nonneg_int, help="seed of the batch (default: fresh)")
    p.add_argument(
        "--engine",
        choices=("fast", "python"),
        default="fast",
        help="fast: the compiled kernel (default); python: the rules engine, slower, with a "
        "seed per game",
    )
    p.add_argument("--workers", type=_pos_int, help="fast engine threads (default: all cores)")
    p.add_argument("--plot", metavar="FILE", help="save a histogram of game lengths (PNG)")
    p.add_argument("--json", action="store_true", help="print the figures as JSON")
    _add_beggar_options(p)
    p.set_defaults(func=_cmd_beggar_stats)

    p = bsub.add_parser(
        "search",
        help="search for long games",
        description="Search for the longest games with the compiled kernel: random sampling "
        "(random), hill climbing by swapping two cards (climb) or random sampling with backward "
        "play from the longest deals (backward, 2 players, no card limit). Shows deals per "
        "second and the best game so far; --out FILE keeps the top games after every step, "
        "and the same command with that file goes on where it stopped.",
        epilog=_options_epilog(beggar),
        formatter_class=formatter,
    )
    p.add_argument("--players", type=int, help="2 to 4 (default 2)")
    p.add_argument("--minutes", type=float, metavar="M", help="search for M minutes")
    p.add_argument("--deals", type=_pos_int, metavar="D", help="search over D deals")
    p.add_argument("--seed", type=_nonneg_int, help="seed of the search (default: fresh)")
    p.add_argument("--top", type=_pos_int, metavar="K", help="games to keep (default 10)")
    p.add_argument("--workers", type=_pos_int, help="threads (default: all cores)")
    p.add_argument("--strategy", choices=("random", "climb", "backward"),
                   help="how to search (default random)")
    p.add_argument("--out", metavar="FILE", help="save the search (JSON) and resume from it")
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    _add_beggar_options(p)
    p.set_defaults(func=_cmd_beggar_search)
    return parser


_DEAL_CHARS = frozenset("AKQJakqj-/ ")


def _protect_deals(argv: Sequence[str]) -> list[str]:
    """Rank-only deals often start with ``-`` (``--Q-K.../...``), which argparse would take for
    an option: pass each such word as ``--deal=WORD`` (after ``--deal`` too)."""
    out: list[str] = []
    for word in argv:
        if word.startswith("-") and (
            ("/" in word and "=" not in word) or (len(word) > 2 and set(word) <= _DEAL_CHARS)
        ):
            if out and out[-1] == "--deal":
                out.pop()
            out.append(f"--deal={word}")
        else:
            out.append(word)
    return out


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``parlour`` command; returns the exit status."""
    parser = _build_parser()
    args = parser.parse_args(_protect_deals(sys.argv[1:] if argv is None else argv))
    func: Callable[[argparse.Namespace], int] = args.func
    prog = f"parlour {args.command}"
    if args.command == "beggar":
        prog += f" {args.beggar_command}"
    try:
        return func(args)
    except (ParlourError, _CommandError) as err:
        sys.stderr.write(f"{prog}: error: {err}\n")
        return 2
    except KeyboardInterrupt:
        sys.stderr.write(f"{prog}: interrupted\n")
        return 130
    except BrokenPipeError:
        # The reader went away (e.g. `| head`); say nothing more.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0
