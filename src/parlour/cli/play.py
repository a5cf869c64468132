"""``parlour play``: people and bots at one table in the terminal."""

from __future__ import annotations

import argparse
import os
import sys
import textwrap
from collections.abc import Callable

from rich.console import Console, Group, RenderableType

from parlour.cli.common import (
    RULINGS_LINE,
    CommandError,
    Parser,
    add_beggar_options,
    fresh_seed,
    nonneg_int,
    options_epilog,
    options_of,
    people_console,
    print_json,
    read_json,
)
from parlour.core.game import Game, State
from parlour.core.inputs import parse_int
from parlour.core.record import Record
from parlour.core.rng import derive_seed
from parlour.errors import ParlourError
from parlour.games import GAMES, find_game
from parlour.play.keys import Keyboard, keyboard_of
from parlour.play.match import MatchBoard, has_match
from parlour.play.menu import ask_menu, menu_games
from parlour.play.saving import (
    default_save_path,
    free_path,
    resume_hint,
    save_target,
    write_json_record,
    write_record,
)
from parlour.play.table import (
    PERSON,
    Seat,
    Table,
    check_seat_specs,
    default_bot,
    options_json,
    parse_seat_flags,
)
from parlour.play.terminal import TerminalGame, play_on
from parlour.play.watching import watch_lines

# -- parlour play -----------------------------------------------------------------------------


def _games_with(has: Callable[[Game], object]) -> str:
    """The names of the games for which ``has`` is true, for a message (``beggar``)."""
    return " or ".join(g.name for g in GAMES.values() if has(g))


def _cmd_play(args: argparse.Namespace) -> int:
    try:
        return _play(args)
    except KeyboardInterrupt:
        # The terminal echoed ^C: the one line saying so starts on a line of its own.
        sys.stderr.write("\n")
        raise


def _play(args: argparse.Namespace) -> int:
    console = people_console()
    options = options_of(args)
    if args.resume is not None:
        table = _resumed_table(args)
        save_path: str | None = args.resume
        if args.save is not None:
            save_path = _claim(args.save, default_save_path(table), keep=args.resume)
    else:
        if args.game is None:
            if args.players is not None or args.seat or args.watch or args.json:
                raise CommandError("name the game, e.g. parlour play beor --players 3")
            try:
                choice = ask_menu(input, console)
            except EOFError:
                console.print("\nInput ended before a game was chosen: nothing to play.")
                return 0
            except KeyboardInterrupt:
                console.print("\nNo game was started.")
                return 0
            game, specs = choice.game, choice.seats
        else:
            game = find_game(args.game)
            presenter = game.presenter
            if args.deal is not None and presenter.deal_usage is None:
                raise CommandError(
                    f"--deal is for {_games_with(lambda g: g.presenter.deal_usage)}; "
                    "other games are dealt from --seed"
                )
            if args.fast and presenter.watcher is None:
                raise CommandError(
                    f"--fast is for watching {_games_with(lambda g: g.presenter.watcher)}; "
                    "--delay 0 watches any game"
                )
            players = args.players
            if args.deal is not None:
                hands = presenter.deal_players(args.deal)
                if players is not None and hands is not None and players != hands:
                    raise CommandError(f"the deal has {hands} hands but --players is {players}")
                players = hands if players is None else players
            players = game.check_players(players or game.info.default_players)
            bot = default_bot(game)
            watch = args.watch or args.json
            default = [bot] * players if watch else [PERSON] + [bot] * (players - 1)
            specs = parse_seat_flags(args.seat or (), players, default)
            if watch and PERSON in specs:
                raise CommandError("--watch and --json are for bots only: drop --seat N=person")
        seats = check_seat_specs(game, specs)
        if args.delay is not None and args.delay < 0:
            raise CommandError(f"--delay must be 0 seconds or more, got {args.delay:g}")
        seed = fresh_seed() if args.seed is None else args.seed
        if args.deals is not None and game.match_deal(len(seats), seed, 0) is None:
            raise CommandError(
                f"--deals is for {_games_with(lambda g: g.name == 'death')}, whose matches "
                "move the dealer each deal (G12)"
            )
        if args.deals is not None and args.deal is not None:
            raise CommandError("--deals deals each game of the match itself: drop --deal")
        if game.presenter.watcher is not None and not any(s.is_person for s in seats):
            return _watch_own_way(args, game, seats, seed, options)
        number = 0 if args.deals is not None else None
        table = Table(game, seats, seed, options, args.deal, deal_number=number)
        save_path = None if args.save is None else _claim(args.save, default_save_path(table))
    if args.json:
        if table.people:
            raise CommandError("--json plays bots only; this record seats people")
        while not table.state.is_over:
            table.bot_move()
        _save_table(table, save_path)
        outcome = table.state.outcome
        assert outcome is not None
        print_json({"record": table.record().to_json(), "result": outcome.to_json()}, compact=True)
        return 0
    if save_path is not None:
        _save_table(table, save_path)  # a file that cannot be written is said now, not later
    if not table.people:
        console.print("No person at the table: watching the bots play.", style="dim")
    if save_path is not None:
        console.print(f"The game is saved in {save_path} after every move.", highlight=False)
    return _play_tables(table, console, save_path, args.delay, getattr(args, "deals", None))


def _claim(given: str, default: str, *, keep: str | None = None) -> str:
    """The file ``--save`` names (a folder holds ``default``; ``~`` expanded), asking before
    replacing a file that is there (``keep``: the resumed game's own file, replaced freely).
    Without a terminal to ask, an existing file is refused."""
    try:
        path = save_target(given, default)
    except ParlourError as err:
        raise CommandError(f"--save: {err}") from None
    if keep is not None and path == save_target(keep, default):
        return path
    if os.path.lexists(path):
        if not sys.stdin.isatty():
            raise CommandError(
                f"--save {path}: a file of that name is there; name another or remove it"
            )
        try:
            answer = input(f"{path} exists. Replace it? [y/N]> ").strip().lower()
        except (EOFError, KeyboardInterrupt):
            answer = "n"
        if answer not in ("y", "yes"):
            raise CommandError(f"--save {path}: left as it was; name another file")
    return path


def _resumed_table(args: argparse.Namespace) -> Table:
    for flag, value in (
        ("--players", args.players),
        ("--deal", args.deal),
        ("--seed", args.seed),
        ("--options", args.options),
    ):
        if value is not None:
            raise CommandError(f"{flag} cannot change a resumed game: it is in the record")
    record = Record.from_json(read_json(args.resume))
    if args.game is not None and find_game(args.game).name != find_game(record.game).name:
        raise CommandError(f"{args.resume} is a game of {record.game}, not {args.game}")
    return Table.from_record(record, args.seat or ())


def _save_table(table: Table, path: str | None) -> None:
    if path is None:
        return
    try:
        write_record(table, path)
    except OSError as err:
        raise CommandError(f"cannot write {path}: {err.strerror}") from None


def _play_tables(
    table: Table,
    console: Console,
    save_path: str | None,
    delay: float | None,
    deals: int | None = None,
) -> int:
    """Play ``table`` at the terminal, then more games with the same seats while asked: the
    Game of Death as a match (``deals`` of them, or one more at a time), running totals and
    places after each deal and the dealer moving (G12)."""
    if delay is None:
        # Bot moves are shown at this pace when nobody at the keyboard has a move to make.
        delay = 0.6 if console.is_terminal else 0.0
    keys = keyboard_of() if console.is_terminal else None
    match = MatchBoard(table.players, deals) if has_match(table.state) else None
    labels = [table.seat_label(s) for s in range(table.players)]
    number = 1
    first_path = save_path
    while True:
        board = match
        terminal = TerminalGame(
            table,
            console,
            input,
            save_path=save_path,
            delay=delay,
            keys=keys,
            end_table=None if board is None else _end_of_deal(board, table, labels),
            result=None if board is None else board.deal_result,
        )
        _use_readline(terminal.complete)
        if terminal.run() == "quit":
            return 0
        delay = terminal.delay  # the watching pace chosen stays
        if save_path is not None:
            console.print(f"This game is saved in {save_path}.", highlight=False)
        if not _another(console, keys, match, table):
            return 0
        number += 1
        if match is not None:
            table = Table(
                table.game, table.seats, table.seed, table.options, deal_number=match.deals
            )
        else:
            seed = derive_seed(table.seed, "next game")
            table = Table(table.game, table.seats, seed, table.options)
        if save_path is not None:
            save_path = _numbered(first_path or save_path, number)
            what = "Deal" if match is not None else "Game"
            console.print(f"{what} {number} is saved in {save_path}.", highlight=False)


def _end_of_deal(
    match: MatchBoard, table: Table, labels: list[str]
) -> Callable[[], RenderableType]:
    """What is shown under a deal's result: the match table and who leads (G12)."""

    def shown() -> RenderableType:
        match.add(table.state)
        return Group(match.table(labels), match.standing(labels))

    return shown


def _another(
    console: Console, keys: Keyboard | None, match: MatchBoard | None, table: Table
) -> bool:
    """Whether to play on: the next deal of a match asked for (Enter), or another game (or
    deal, totals kept) when asked; keys typed while the game ended are thrown away."""
    if keys is not None:
        keys.discard()
    if match is not None and match.planned is not None and match.deals < match.planned:
        if not table.people:
            console.print(f"Next: deal {match.deals + 1}; {match.next_dealer()} (G12).")
            return True
        try:
            input(
                f"Press Enter for deal {match.deals + 1} of {match.planned}: "
                f"{match.next_dealer()} (G12)> "
            )
        except (EOFError, KeyboardInterrupt):
            console.print()
            return False
        return True
    if match is not None:
        question = f"Play another deal? The totals are kept; {match.next_dealer()} (G12) [y/N]> "
        return play_on(input, question)
    return play_on(input)


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


def _watch_own_way(
    args: argparse.Namespace,
    game: Game,
    seats: tuple[Seat, ...],
    seed: int,
    options: dict[str, str],
) -> int:
    """A bots-only game shown the game's own way (Beggar-My-Neighbour: trick by trick), with
    the watching keys; saved after every trick with ``--save``; then another game when asked."""
    watcher = game.presenter.watcher
    assert watcher is not None
    console = None if args.json else people_console()
    keys = keyboard_of() if console is not None and console.is_terminal else None
    delay = args.delay if args.delay is not None else 0.0
    if console is not None and args.delay is None and console.is_terminal:
        delay = 0.8
    deal = args.deal
    number = 1
    save_path: str | None = None
    first_path: str | None = None
    while True:
        start = game.new(len(seats), seed, options, deal)
        if save_path is None and args.save is not None:
            save_path = first_path = _claim(args.save, f"parlour-{game.name}-{seed}.json")
        if console is not None:
            if deal is None:
                console.print(f"Random deal, seed {seed}")
            if save_path is not None:
                console.print(f"The game is saved in {save_path} after every trick.")

        def record_of(state: State, seed: int = seed, deal: object = deal) -> Record:
            # A random deal is rebuilt from the seed, full cards and all; a given deal is kept.
            done = watcher.watched(state).actions if state.is_over else _turned(state)
            return Record(
                game.name,
                len(seats),
                seed,
                {k: v for k, v in options_json(game, options).items() if v is not None},
                deal,
                done,
                tuple(seat.spec for seat in seats),
            )

        def save(state: State, path: str | None = save_path) -> None:
            if path is not None:
                write_json_record(record_of(state), path)

        end, whole = watch_lines(
            console, keys, watcher.lines(start, fast=args.fast or args.json), delay, save
        )
        assert end is not None
        if args.json:
            print_json(
                {"record": record_of(end).to_json(), "result": watcher.watched(end).result},
                compact=True,
            )
            return 0
        assert console is not None
        if not whole:
            where = "."
            if save_path is not None:
                where = f"; the game so far is in {save_path}: {resume_hint(save_path)}"
            console.print(f"Stopped watching{where}", highlight=False)
            return 0
        if save_path is not None:
            console.print(f"The game is saved in {save_path}.")
        if keys is not None:
            keys.discard()
        if not sys.stdin.isatty() or not play_on(input):
            return 0
        number += 1
        seed, deal = derive_seed(seed, "next game"), None
        if save_path is not None:
            save_path = _numbered(first_path or save_path, number)


def _numbered(path: str, number: int) -> str:
    """The file of game ``number`` of a session saved to ``path``: ``game-2.json``, or the
    next free name when that one is taken (another game's file is never replaced)."""
    stem, dot, ext = path.rpartition(".")
    wanted = f"{stem}-{number}.{ext}" if dot and "/" not in ext else f"{path}-{number}"
    return free_path(wanted)


def _turned(state: State) -> tuple[str, ...]:
    """The player actions of a Beggar-My-Neighbour game under way: one ``play`` a card turned
    (M8)."""
    cards = getattr(state, "cards", 0)
    return ("play",) * (cards if isinstance(cards, int) else 0)


def _deals(text: str) -> int:
    """``--deals N``: a match of 1 to 1000 deals."""
    try:
        return parse_int(text, field="--deals", minimum=1, maximum=1000)
    except ParlourError as err:
        raise argparse.ArgumentTypeError(str(err)) from None


def _play_epilog() -> str:
    lines = [
        "examples:",
        "  parlour play                          the menu",
        "  parlour play beor --seat 2=heuristic  you against the heuristic bot",
        "  parlour play death --players 4 --seat 2=person   two people, two bots",
        "  parlour play death --watch --players 5 --delay 0.3",
        "  parlour play death --deals 3          a match of three deals (G12)",
        "  parlour play beor --save game.json    then: parlour play --resume game.json",
        "",
    ]
    for game in GAMES.values():
        for line in options_epilog(game, rulings=False).split("\n"):
            # Wrapped at 79 columns, each option's lines after the first indented under it.
            indent = " " * (len(line) - len(line.lstrip()) + 4)
            lines += textwrap.wrap(line, 79, subsequent_indent=indent, break_on_hyphens=False)
    lines.append(RULINGS_LINE)
    return "\n".join(lines)


def register(
    sub: argparse._SubParsersAction[Parser],
    formatter: type[argparse.HelpFormatter],
) -> None:
    """Add the ``play`` command's parser."""
    from parlour.cli import common  # the argument types and checks (parlour.core.inputs)

    titles = [g.title for g in menu_games()]
    p = sub.add_parser(
        "play",
        help="play a game at the terminal: people and bots at one table",
        description=textwrap.fill(
            f"Play {', '.join(titles[:-1])} or {titles[-1]} at the terminal. With no "
            "GAME a short menu asks for the game, the players and the bots. Player 1 is you and "
            "the other seats are strong bots unless --seat says otherwise; several people share "
            "one keyboard (hot seat) with --seat 2=person. At the table type a move's number or "
            "its notation; help shows the rules, undo takes back a move, quit asks whether to "
            "save, leave or go back to the game.",
            78,
        ),
        epilog=_play_epilog(),
        formatter_class=formatter,
    )
    names = [g.name for g in menu_games()]
    defaults = "; ".join(f"{g.name} {g.info.default_players}" for g in menu_games())
    p.add_argument(
        "game", nargs="?", metavar="GAME", help=f"{', '.join(names[:-1])} or {names[-1]}"
    )
    p.add_argument(
        "--players", type=common.players_arg, help=f"players at the table (default: {defaults})"
    )
    p.add_argument(
        "--seat",
        action="append",
        type=common.seat_flag,
        metavar="N=WHO",
        help="who sits at Player N: person, ismcts, ismcts:500, ismcts:1s, heuristic or random "
        f"({_games_with(lambda g: not g.info.decisions)}: person or bot); repeat for more seats",
    )
    p.add_argument("--seed", type=nonneg_int, help="seed of the deal and bots (default: fresh)")
    p.add_argument(
        "--save", type=common.path_arg, metavar="FILE", help="save the game record after every move"
    )
    p.add_argument("--resume", type=common.path_arg, metavar="FILE", help="go on with a saved game")
    p.add_argument("--watch", action="store_true", help="bots only: watch a whole game")
    p.add_argument("--delay", type=common.seconds_arg, help="seconds between moves when watching")
    deals = "; ".join(
        f"{g.name}: {g.presenter.deal_usage}" for g in GAMES.values() if g.presenter.deal_usage
    )
    p.add_argument("--deal", action=common.StoreOnce, help=f"{deals}, instead of a random one")
    p.add_argument(
        "--fast",
        action="store_true",
        help=f"{_games_with(lambda g: g.presenter.watcher)}, watching: jump to the result",
    )
    p.add_argument("--json", action="store_true", help="bots only: print the record and result")
    p.add_argument(
        "--deals",
        type=_deals,
        metavar="N",
        help="death: a match of N deals with running totals, the dealer moving each deal (G12)",
    )
    add_beggar_options(p, which="beggar, ")
    p.set_defaults(func=_cmd_play)
