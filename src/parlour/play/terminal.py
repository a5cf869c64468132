"""Playing at the terminal: the table redrawn each turn, a person's input, bots, hot seat.

:class:`TerminalGame` runs one game at a :class:`~parlour.play.table.Table`: it draws each
person's view and log (never a state), reads moves as numbers or notation, answers ``help``,
``moves``, ``hint``, ``undo``, ``save`` and ``quit``, hands a game's own input to its presenter
(a give's split, turning a card), charges what the rules charge for a forbidden move, makes
table entries with the table's votes, hides one person's hand from the next on a shared
keyboard, saves (:mod:`parlour.play.saving`) and shows the result. It knows no game by name.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence

from rich.console import Console
from rich.panel import Panel
from rich.text import Text

from parlour.bots import make_agent
from parlour.core.game import Action, State, seat_name
from parlour.core.present import Reply
from parlour.core.rng import derive_seed
from parlour.errors import IllegalAction, InvalidNotation, ParlourError
from parlour.play.entries import make_entry
from parlour.play.help import commands_text, rules_text
from parlour.play.render import last_events, screen
from parlour.play.saving import Reader, Saver, default_save_path
from parlour.play.table import Table

__all__ = ["Reader", "TerminalGame", "play_on"]

_LOG_LINES = 10
_QUIT = ("quit", "exit", "q")
_COMMANDS = ("help", "moves", "hint", "undo", "save", "quit")


class _Quit(Exception):
    """The person left the table."""


class TerminalGame:
    """One game at the terminal. :meth:`run` returns ``"over"`` or ``"quit"``."""

    def __init__(
        self,
        table: Table,
        console: Console,
        read: Reader = input,
        *,
        save_path: str | None = None,
        delay: float = 0.0,
    ) -> None:
        self.table = table
        self.console = console
        self.read = read
        self.saver = Saver(table, console, read, save_path)
        self.delay = delay
        self.presenter = table.game.presenter
        self.labels = [table.seat_label(s) for s in range(table.players)]
        self.auto: set[int] = set()  # people who asked to have their only move made for them
        self._completions: list[str] = []

    # -- the loop ---------------------------------------------------------------------------

    @property
    def _hot_seat(self) -> bool:
        """Several people share the keyboard in a game with hidden hands."""
        return len(self.table.people) > 1 and self.table.has_decisions

    def run(self) -> str:
        table = self.table
        shown: int | None = None  # the person whose hand may be on screen
        try:
            while not table.state.is_over:
                seat = table.state.to_move
                assert seat is not None
                if table.seats[seat].is_person and seat not in self.auto:
                    if self._hot_seat and shown != seat:
                        self._hand_over(seat)
                    shown = seat
                    self._person_turn(seat)
                    if self._hot_seat and table.state.to_move != seat:
                        self._clear()  # the hand leaves the screen at once
                        shown = None
                else:
                    if seat in self.auto:
                        table.apply(table.state.legal_actions()[0])  # the only move there is
                    elif table.people and self.console.is_terminal and table.has_decisions:
                        with self.console.status(f"{self.labels[seat]} is thinking..."):
                            table.bot_move()
                    else:
                        table.bot_move()
                    if self._watching():
                        self._draw(self.table.people[0] if len(table.people) == 1 else None)
                        if self.delay > 0 and not table.state.is_over:
                            time.sleep(self.delay)
                self.saver.autosave()
        except _Quit:
            return "quit"
        except KeyboardInterrupt:
            # Ctrl-C while the bots think or the screen is drawn: leave as `quit` does.
            self.console.print()
            self.saver.offer()
            return "quit"
        except EOFError:
            self.saver.keep()
            return "quit"
        self._show_end()
        return "over"

    def _watching(self) -> bool:
        """No person has a move left to make: every one is a bot, asked for ``auto`` or is
        out of the game (BEOR, B8), so each bot move is shown as it is played."""
        state = self.table.state
        return all(
            seat in self.auto or self.presenter.is_out(state.view(seat))
            for seat in self.table.people
        )

    def _person_turn(self, seat: int) -> None:
        """Read until this person has acted (an action, or several from one line)."""
        self._draw(seat)
        while True:
            state = self.table.state
            prompt = self.presenter.prompt(state.view(seat))
            self._completions = self._candidates(state)
            try:
                line = self.read(prompt).strip()
            except KeyboardInterrupt:
                line = "quit"
            if self._command(seat, line):
                return

    def _command(self, seat: int, line: str) -> bool:
        """Handle one line; True once the person has acted."""
        word = line.lower()
        if word in ("help", "?", "h"):
            self.console.print(rules_text(self.table.game), highlight=False)
            self.console.print(commands_text(self.table.game), style="dim", highlight=False)
            return False
        if word in ("moves", "m", "board", "table"):
            self._draw(seat)
            return False
        if word in _QUIT:
            self.saver.offer()
            raise _Quit
        if word == "undo":
            self._undo(seat)
            return False
        if word == "save" or word.startswith("save "):
            path = line[4:].strip() or self.saver.path or default_save_path(self.table)
            self.saver.save(path)
            return False
        if word == "hint":
            self._hint(seat)
            return False
        if word.split(" ", 1)[0] in (c.word for c in self.presenter.table_commands):
            self._table_entry(seat, line)
            return False
        reply = self.presenter.read(self.table.state.view(seat), line)
        if reply is not None:
            return self._reply(seat, reply)
        if not line:
            self._say("Type a move's number or the move itself; help shows the rules.")
            return False
        return self._play(seat, line)

    # -- moves ------------------------------------------------------------------------------

    def _play(self, seat: int, line: str) -> bool:
        state = self.table.state
        numbered = self.presenter.numbered(state.legal_actions())
        if line.isascii() and line.isdigit():
            k = int(line)
            if not 1 <= k <= len(numbered):
                self._say(f"There is no move {k}: the moves are 1 to {len(numbered)}.")
                return False
            self.table.apply(numbered[k - 1])
            return True
        try:
            action = state.parse_action(line)
        except InvalidNotation as err:
            self._say(f"{err}. Try again (help shows the rules and notation).")
            return False
        except IllegalAction as err:
            if not self._forfeit(seat, line, err):
                self._say(f"{err}. Try again (help shows the rules and notation).")
            return False
        self.table.apply(action)
        return True

    def _forfeit(self, seat: int, line: str, refusal: IllegalAction) -> bool:
        """Charge what the rules charge for the forbidden move ``line`` (the Game of Death's
        illegal throw, G13); False when it costs nothing."""
        forfeit = self.presenter.forfeit(self.table.state.view(seat), line)
        if forfeit is None:
            return False
        try:
            self.table.enter(forfeit.entry, by=seat)
        except ParlourError:
            return False  # the rules charge nothing here: the refusal alone is said
        self.saver.autosave()
        self._draw(seat)
        self._say(f"{refusal}: {forfeit.note}", style="bold red")
        return True

    def _reply(self, seat: int, reply: Reply) -> bool:
        """A game's own reading of a line: its actions are played all or none."""
        if reply.message:
            self._say(reply.message)
        if reply.auto:
            self.auto.add(seat)
            return True
        if not reply.actions:
            return False
        trial = self.table.state
        try:
            for text in reply.actions:
                trial = trial.apply(text)
        except ParlourError as err:
            self._say(f"{err}. Nothing was played; try again.")
            return False
        for text in reply.actions:
            self.table.apply(text)
        return True

    def _table_entry(self, seat: int, line: str) -> None:
        """A table entry typed by ``seat``; while the others vote the screen shows only the
        public table, and the keyboard comes back to ``seat`` after."""
        made, message = make_entry(
            self.table,
            seat,
            line,
            self.read,
            before_votes=lambda: self._draw(None),
            after_votes=lambda: self._hand_over(seat),
        )
        if made:
            self.saver.autosave()
        self._draw(seat)
        self._say(message, style="green" if made else "yellow")

    def _hint(self, seat: int) -> None:
        if not self.table.has_decisions:
            self._say(f"There is nothing to decide in {self.table.game.title}.")
            return
        state = self.table.state
        agent = make_agent("heuristic", self.table.game)
        rng_seed = derive_seed(self.table.seed, "hint", len(self.table.actions))
        action = agent.choose(state.view(seat), state.legal_actions(), random.Random(rng_seed))
        numbered = self.presenter.numbered(state.legal_actions())
        number = f" (move {numbered.index(action) + 1})" if action in numbered else ""
        line = Text("The heuristic bot would play ", style="yellow")
        line.append_text(self.presenter.pretty_action(action))
        line.append(f"{number}.", style="yellow")
        self.console.print(line)

    def _undo(self, seat: int) -> None:
        reason = self.table.undo_refusal(seat)
        if reason is not None:
            self._say(f"Cannot undo: {reason}.")
            return
        taken = self.table.undo(seat)
        self.saver.autosave()
        self._draw(seat)
        self._say(
            f"Took back your last move and the {taken - 1} bot move{'s' if taken != 2 else ''}"
            " after it.",
            style="green",
        )

    # -- drawing ----------------------------------------------------------------------------

    def _clear(self) -> None:
        if self.console.is_terminal:
            self.console.clear()
            # Also the scrollback, so the next person cannot scroll up to another's hand.
            self.console.file.write("\x1b[3J")
            self.console.file.flush()

    def _say(self, message: str, *, style: str = "yellow") -> None:
        self.console.print(Text(message, style=style))

    def _draw(self, seat: int | None) -> None:
        """The table as ``seat`` (``None``: anyone) sees it, with the last events of its own
        log (core redacts it: a seat sees its own draws, others that a card was drawn)."""
        state = self.table.state
        legal: Sequence[Action] = ()
        if seat is not None and state.to_move == seat:
            legal = state.legal_actions()
        events = last_events(state.tail(seat, _LOG_LINES), _LOG_LINES)
        self._clear()
        self.console.print(screen(self.presenter, state.view(seat), self.labels, events, legal))

    def _hand_over(self, seat: int) -> None:
        """Hot seat: the screen shows no hand until the next person is at the keyboard."""
        self._draw(None)
        self.console.print(
            Panel(
                f"{seat_name(seat)}'s turn. Pass the keyboard to {seat_name(seat)}; everyone "
                "else, look away.",
                style="bold magenta",
            )
        )
        while True:
            try:
                answer = self.read(f"{seat_name(seat)}, press Enter when you are ready> ")
            except KeyboardInterrupt:
                answer = "quit"
            if answer.strip().lower() in _QUIT:
                self.saver.offer()
                raise _Quit
            if not answer.strip():
                return
            self._say(f"Only {seat_name(seat)} should answer: press Enter (or type quit).")

    def _candidates(self, state: State) -> list[str]:
        words = [*_COMMANDS, *(c.word for c in self.presenter.table_commands)]
        return [str(a).lower() for a in state.legal_actions()] + words

    def complete(self, text: str, index: int) -> str | None:
        """readline's completer: the legal moves and commands that start with ``text``."""
        matches = [w for w in self._completions if w.startswith(text.lower())]
        return matches[index] if index < len(matches) else None

    def _show_end(self) -> None:
        state = self.table.state
        outcome = state.outcome
        assert outcome is not None
        viewer = self.table.people[0] if len(self.table.people) == 1 else None
        self._draw(viewer)
        self.console.print(Panel(self.result_text(), title="Game over", style="bold green"))
        extra = self.presenter.end_table(outcome, state.view(None), self.labels)
        if extra is not None:
            self.console.print(extra)

    def result_text(self) -> str:
        """The result in plain words: who won, how, and how long the game was."""
        outcome = self.table.state.outcome
        assert outcome is not None
        text = self.presenter.result_text(outcome, self.labels, len(self.table.actions))
        undone = self.table.undone
        return f"{text}; {undone} move(s) taken back." if undone else f"{text}."


def play_on(read: Reader = input) -> bool:
    """Ask whether to play another game; True for yes."""
    try:
        answer = read("Play another game? [y/N]> ").strip().lower()
    except (EOFError, KeyboardInterrupt):
        return False
    return answer in ("y", "yes")
