"""``parlour play``: people and bots at one table in the terminal."""

from __future__ import annotations

import argparse
import signal
import sys
import textwrap
import threading
from collections.abc import Callable

from parlour.cli.common import (
    RULINGS_LINE,
    CommandError,
    Parser,
    add_option_flags,
    fresh_seed,
    nonneg_int,
    options_epilog,
    options_of,
    people_console,
    print_json,
    read_json,
)
from parlour.cli.play_session import (
    claim_save,
    json_match,
    play_tables,
    save_table,
    watch_own_way,
)
from parlour.core.game import Game
from parlour.core.inputs import parse_int
from parlour.core.record import Record
from parlour.core.words import LANGUAGES
from parlour.errors import ParlourError
from parlour.games import GAMES, find_game
from parlour.play.menu import ask_menu, menu_games
from parlour.play.saving import (
    default_save_path,
)
from parlour.play.speech import language_from_locale, say, spoken
from parlour.play.table import (
    PERSON,
    Table,
    check_seat_specs,
    default_bot,
    parse_seat_flags,
)

# -- parlour play -----------------------------------------------------------------------------


def _games_with(has: Callable[[Game], object]) -> str:
    """The names of the games for which ``has`` is true, for a message (``NAME``)."""
    return " or ".join(g.name for g in GAMES.values() if has(g))


def _matches() -> str:
    """The games played as matches of deals and what a match is (``--deals``): ``NAME: a
    match of N deals with running totals, the dealer moving each deal (G12)``."""
    return "; ".join(
        f"{g.name}: {g.presenter.match.about}"
        for g in GAMES.values()
        if g.presenter.match is not None
    )


def _cmd_play(args: argparse.Namespace) -> int:
    _ctrl_c_reaches_the_table()
    try:
        with spoken(args.lang or language_from_locale()):
            return _play(args)
    except KeyboardInterrupt:
        # The terminal echoed ^C: the one line saying so starts on a line of its own.
        sys.stderr.write("\n")
        raise


def _ctrl_c_reaches_the_table() -> None:
    """Ctrl-C asks "Leave the game?" at the table, even when ``parlour play`` was started with
    SIGINT blocked or ignored (a process inherits both: from a script's background job, or
    a long-lived parent such as a test runner): it is unblocked and raises KeyboardInterrupt
    again, as in a fresh Python."""
    if threading.current_thread() is not threading.main_thread():
        return  # only the main thread may set a signal handler
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    signal.signal(signal.SIGINT, signal.default_int_handler)


def _play(args: argparse.Namespace) -> int:
    console = people_console()
    options = options_of(args)
    if args.resume is not None:
        table = _resumed_table(args)
        save_path: str | None = args.resume
        if args.save is not None:
            save_path = claim_save(args.save, default_save_path(table), keep=args.resume)
    else:
        if args.game is None:
            if args.players is not None or args.seat or args.watch or args.json:
                example = menu_games()[0].name
                raise CommandError(f"name the game, e.g. parlour play {example} --players 3")
            try:
                choice = ask_menu(input, console)
            except EOFError:
                console.print("\n" + say("menu.input_ended"))
                return 0
            except KeyboardInterrupt:
                console.print("\n" + say("menu.not_started"))
                return 0
            game, specs = choice.game, choice.seats
            options.update({name: str(value) for name, value in choice.options.items()})
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
        if game.time_limit(options) is not None and not any(s.is_person for s in seats):
            raise CommandError(
                "an agreed time is kept at a table with a person (--seat N=person); "
                "bots alone play without a clock"
            )
        if args.delay is not None and args.delay < 0:
            raise CommandError(f"--delay must be 0 seconds or more, got {args.delay:g}")
        seed = fresh_seed() if args.seed is None else args.seed
        if args.deals is not None and game.presenter.match is None:
            raise CommandError(f"--deals is for {_matches()}")
        if args.deals is not None and args.deal is not None:
            raise CommandError("--deals deals each game of the match itself: drop --deal")
        if game.presenter.watcher is not None and not any(s.is_person for s in seats):
            return watch_own_way(args, game, seats, seed, options)
        number = 0 if args.deals is not None else None
        table = Table(game, seats, seed, options, args.deal, deal_number=number)
        save_path = None if args.save is None else claim_save(args.save, default_save_path(table))
    if args.json:
        if table.people:
            raise CommandError("--json plays bots only; this record seats people")
        if args.deals is not None and table.game.presenter.match is not None:
            print_json(json_match(table, args.deals, save_path), compact=True)
            return 0
        while not table.state.is_over:
            table.bot_move()
        save_table(table, save_path)
        outcome = table.state.outcome
        assert outcome is not None
        print_json({"record": table.record().to_json(), "result": outcome.to_json()}, compact=True)
        return 0
    if save_path is not None:
        save_table(table, save_path)  # a file that cannot be written is said now, not later
    if not table.people:
        console.print(say("bots_only"), style="dim")
    if save_path is not None:
        console.print(say("save.every_move", path=save_path), highlight=False)
    return play_tables(table, console, save_path, args.delay, getattr(args, "deals", None))


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


def _lang(text: str) -> str:
    """``--lang LANG``: one of the languages Parlour speaks."""
    if text not in LANGUAGES:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a language of Parlour: {', '.join(LANGUAGES)}"
        )
    return text


def _deals(text: str) -> int:
    """``--deals N``: a match of 1 to 1000 deals."""
    try:
        return parse_int(text, field="--deals", minimum=1, maximum=1000)
    except ParlourError as err:
        raise argparse.ArgumentTypeError(str(err)) from None


def _play_epilog() -> str:
    games = menu_games()
    first = games[0].name
    four = next((g.name for g in games if g.info.max_players >= 4), first)
    lines = [
        "examples:",
        "  parlour play                          the menu",
        f"  parlour play {first} --seat 2=heuristic  you against the heuristic bot",
        f"  parlour play {four} --players 4 --seat 2=person   two people, two bots",
        f"  parlour play {four} --watch --players 4 --delay 0.3",
    ]
    lines += [
        f"  parlour play {g.name} --deals 3          a match of three deals"
        for g in games
        if g.presenter.match is not None
    ]
    lines += [
        f"  parlour play {first} --save game.json    then: parlour play --resume game.json",
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
            "the other seats are hard bots unless --seat says otherwise; several people share "
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
        help="who sits at Player N: person, or a bot by level (easy, medium, hard, expert) or "
        "by kind (random, heuristic, ismcts, ismcts:500, ismcts:1s)"
        f" ({_games_with(lambda g: not g.info.decisions)}: person or bot); repeat for more seats",
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
        help=_matches(),
    )
    p.add_argument(
        "--lang",
        type=_lang,
        metavar="LANG",
        help=f"the language of the table: {', '.join(LANGUAGES)} (default: from the locale, "
        "LANGUAGE, LC_ALL, LC_MESSAGES or LANG; else en)",
    )
    add_option_flags(p)
    p.set_defaults(func=_cmd_play)
