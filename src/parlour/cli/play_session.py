"""``parlour play``'s games one after another: a table played at the terminal, then the next
deal of a match (running totals, the game's :attr:`~parlour.core.present.Presenter.match`) or
another game while asked; a bots-only game watched the game's own way (its presenter's
``watcher``); each game saved to a file of its own, never replacing one without asking.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable

from rich.console import Console, Group, RenderableType

from parlour.cli.common import CommandError, people_console, print_json
from parlour.core.game import JSON, Game, State
from parlour.core.present import MatchBoard
from parlour.core.record import Record
from parlour.core.rng import derive_seed
from parlour.errors import ParlourError
from parlour.play.draw import grid, text
from parlour.play.keys import Keyboard, keyboard_of
from parlour.play.saving import (
    free_path,
    resume_hint,
    save_target,
    write_json_record,
    write_record,
)
from parlour.play.speech import agrees, answers, presenter_of, say
from parlour.play.table import Seat, Table, options_json
from parlour.play.terminal import TerminalGame, play_on
from parlour.play.watching import watch_lines

__all__ = ["claim_save", "json_match", "play_tables", "save_table", "watch_own_way"]


def claim_save(given: str, default: str, *, keep: str | None = None) -> str:
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
            answer = input(say("save.replace", path=path))
        except (EOFError, KeyboardInterrupt):
            answer = "n"
        if not agrees(answer):
            raise CommandError(f"--save {path}: left as it was; name another file")
    return path


def save_table(table: Table, path: str | None) -> None:
    if path is None:
        return
    try:
        write_record(table, path)
    except OSError as err:
        raise CommandError(f"cannot write {path}: {err.strerror}") from None


def play_tables(
    table: Table,
    console: Console,
    save_path: str | None,
    delay: float | None,
    deals: int | None = None,
) -> int:
    """Play ``table`` at the terminal, then more games with the same seats while asked: the
    a game played as a match (``deals`` of them, or one more at a time), running totals and
    places after each deal and the dealer moving."""
    if delay is None:
        # Bot moves are shown at this pace when nobody at the keyboard has a move to make.
        delay = 0.6 if console.is_terminal else 0.0
    keys = keyboard_of() if console.is_terminal else None
    presenter = presenter_of(table.game)
    matches = presenter.match
    match = None if matches is None else matches.board(table.players, deals, presenter.words)
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
            console.print(say("save.this_game", path=save_path), highlight=False)
        review = terminal.review if terminal.reviewable else None
        if not _another(console, keys, match, table, review):
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
            said = "save.deal_number" if match is not None else "save.game_number"
            console.print(say(said, number=number, path=save_path), highlight=False)


def json_match(table: Table, deals: int, save_path: str | None) -> dict[str, JSON]:
    """A bots-only match of ``deals`` deals played to its end for ``--json`` (the ``play``
    schema): every deal's number, record and result, each seat's deals won and scores summed
    (as a room's match), and the game's own running totals with the match's winners. With
    ``save_path`` each deal is saved as the terminal saves it: the first there, the next ones
    numbered (``game-2.json``)."""
    matches = presenter_of(table.game).match
    assert matches is not None
    board = matches.board(table.players, deals, presenter_of(table.game).words)
    n = table.players
    played: list[JSON] = []
    wins, scores = [0] * n, [0] * n
    first_path = save_path
    while True:
        while not table.state.is_over:
            table.bot_move()
        save_table(table, save_path)
        outcome = table.state.outcome
        assert outcome is not None
        board.add(outcome, table.state.view(None))
        for seat in outcome.winners:
            wins[seat] += 1
        for seat in range(n):
            scores[seat] += outcome.scores[seat]
        record = table.record()
        played.append(
            {"deal": record.deal_number, "record": record.to_json(), "result": outcome.to_json()}
        )
        if board.deals >= deals:
            break
        table = Table(table.game, table.seats, table.seed, table.options, deal_number=board.deals)
        if first_path is not None:
            save_path = _numbered(first_path, board.deals + 1)
    return {
        "deals": played,
        "wins": list(wins),
        "scores": list(scores),
        "totals": board.totals(),
    }


def _end_of_deal(
    match: MatchBoard, table: Table, labels: list[str]
) -> Callable[[], RenderableType]:
    """What is shown under a deal's result: the match table and who leads."""

    def shown() -> RenderableType:
        outcome = table.state.outcome
        assert outcome is not None
        match.add(outcome, table.state.view(None))
        return Group(grid(match.table(labels)), text(match.standing(labels)))

    return shown


def _another(
    console: Console,
    keys: Keyboard | None,
    match: MatchBoard | None,
    table: Table,
    review: Callable[[], None] | None = None,
) -> bool:
    """Whether to play on: the next deal of a match asked for (Enter), or another game (or
    deal, totals kept) when asked; keys typed while the game ended are thrown away. With
    ``review``, ``r`` shows the game's review first (the end screen offers it)."""
    if keys is not None:
        keys.discard()
    if match is not None and match.planned is not None and match.deals < match.planned:
        if not table.people:
            console.print(say("match.next", deal=match.deals + 1, dealer=match.next_dealer()))
            return True
        dealer = match.next_dealer()
        while True:
            try:
                answer = input(
                    say(
                        "match.press_enter",
                        deal=match.deals + 1,
                        planned=match.planned,
                        dealer=dealer,
                    )
                )
            except (EOFError, KeyboardInterrupt):
                console.print()
                return False
            if review is None or answer.strip().lower() not in answers("review.answer"):
                return True
            review()
    if match is not None:
        question = say("match.another", dealer=match.next_dealer())
        return play_on(input, question, review)
    return play_on(input, None, review)


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


def watch_own_way(
    args: argparse.Namespace,
    game: Game,
    seats: tuple[Seat, ...],
    seed: int,
    options: dict[str, str],
) -> int:
    """A bots-only game shown the game's own way (say, trick by trick), with
    the watching keys; saved after every trick with ``--save``; then another game when asked."""
    watcher = presenter_of(game).watcher
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
            save_path = first_path = claim_save(args.save, f"parlour-{game.name}-{seed}.json")
        if console is not None:
            if deal is None:
                console.print(say("random_deal", seed=seed))
            if save_path is not None:
                console.print(say("save.every_trick", path=save_path), highlight=False)

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
            stopped = say("watch.stopped")
            if save_path is not None:
                stopped = say("watch.stopped_saved", path=save_path, hint=resume_hint(save_path))
            console.print(stopped, highlight=False)
            return 0
        if save_path is not None:
            console.print(say("save.game_in", path=save_path), highlight=False)
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
    """The player actions of a game watched its own way under way: one ``play`` a card turned
    (M8)."""
    cards = getattr(state, "cards", 0)
    return ("play",) * (cards if isinstance(cards, int) else 0)
