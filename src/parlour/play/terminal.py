"""Playing at the terminal: the flow of one game, bots, hot seat, watching and the end.

:class:`TerminalGame` runs one game at a :class:`~parlour.play.table.Table`: it lets bots
move, gives each person his turn (:mod:`parlour.play.turn`: moves, commands, table entries),
makes a person's forced moves for him (:mod:`parlour.play.forced`), hides one person's hand
from the next on a shared keyboard (keys typed ahead are thrown away, :mod:`parlour.play.keys`),
lets people watch at their own pace (:mod:`parlour.play.watching`), asks before leaving,
saves (:mod:`parlour.play.saving`), keeps a game's agreed time (:mod:`parlour.play.clock`:
the time left above the table, the game stopped when it runs out) and shows the result.
Every screen is drawn from a view and the seat's log, never a state (:mod:`parlour.play.screen`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rich.console import Console, RenderableType
from rich.panel import Panel
from rich.text import Text

from parlour.bots.ismcts import SearchBudget
from parlour.core.game import Outcome, View
from parlour.play.clock import TimedReader, TimeUp, alarm_reader, clock_text
from parlour.play.draw import grid
from parlour.play.forced import forced_moves
from parlour.play.keys import Keyboard
from parlour.play.review import can_review, offer_review
from parlour.play.saving import Reader, Saver
from parlour.play.screen import Screen
from parlour.play.speech import (
    agrees,
    answer_word,
    answers,
    command_words,
    presenter_of,
    say,
    seat_called,
)
from parlour.play.table import Table
from parlour.play.turn import PersonTurn
from parlour.play.watching import TableWatch

__all__ = ["Reader", "TerminalGame", "play_on"]


class _Quit(Exception):
    """The person left the table."""


class TerminalGame:
    """One game at the terminal. :meth:`run` returns ``"over"`` or ``"quit"``.

    ``keys`` is the terminal's keyboard (:func:`~parlour.play.keys.keyboard_of`), ``None``
    when input is not a terminal: then nothing typed is thrown away and watching goes at
    ``delay`` with no keys. ``end_table`` draws what is shown under the result (by default
    the presenter's :meth:`~parlour.core.present.Presenter.end_table`) and ``result`` says the
    result from the outcome and the spectator's view (by default the presenter's
    ``result_text``; a match's board says a deal's, :class:`~parlour.core.present.MatchBoard`).
    The screen (:mod:`parlour.play.screen`) and the watching pace
    (:class:`~parlour.play.watching.TableWatch`) are its parts. A table with an agreed time
    (``table.clock``) reads a person's line with ``timed_read`` (by default ``read`` given
    up at the deadline by an alarm), so play stops when the time runs out."""

    def __init__(
        self,
        table: Table,
        console: Console,
        read: Reader = input,
        *,
        save_path: str | None = None,
        delay: float = 0.0,
        keys: Keyboard | None = None,
        end_table: Callable[[], RenderableType | None] | None = None,
        result: Callable[[Outcome, View, Sequence[str], int], str] | None = None,
        timed_read: TimedReader | None = None,
    ) -> None:
        self.table = table
        self.console = console
        self.read = read
        self.keys = keys
        self.presenter = presenter_of(table.game)
        self.labels = [table.seat_label(s) for s in range(table.players)]
        self.screen = Screen(table, console, self.labels)
        self.saver = Saver(
            table,
            console,
            self.ask,
            save_path,
            lambda text, style: self.screen.say(text, style=style),
        )
        self.clock = table.clock
        self.timed_read = alarm_reader(read) if timed_read is None else timed_read
        self.timed_out = False  # the agreed time ran out and ended the game
        if self.clock is not None:
            self.screen.status = self._clock_line
        self.watch = TableWatch(self.screen, keys, delay, self.clock)
        self.auto: set[int] = set()  # people who asked to have their only move made for them
        self.turn = PersonTurn(
            self.screen,
            self.saver,
            self.ask,
            self._quit_if_leaving,
            self._hand_over,
            self.auto,
            watch_keys=keys is not None,
        )
        self.end_table = end_table
        self.result = result
        self._stale = False  # the game moved on since the last question: keys typed are old

    @property
    def delay(self) -> float:
        """The watching pace, in seconds a move (people change it with the watching keys)."""
        return self.watch.delay

    # -- the keyboard -----------------------------------------------------------------------

    def ask(self, prompt: str, *, fresh: bool = False) -> str:
        """Read a line after ``prompt``; keys typed before it was shown are thrown away when
        the game moved on since the last question (bots moved) or when ``fresh``."""
        if self.keys is not None and (fresh or self._stale):
            self.keys.discard()
        self._stale = False
        clock = self.clock
        if clock is None or not clock.running:
            return self.read(prompt)
        while True:  # the agreed time runs: the wait ends at the deadline (TimeUp)
            if clock.is_up:
                raise TimeUp
            try:
                return self.timed_read(prompt, clock.left)
            except TimeUp:
                if clock.is_up:
                    raise
                prompt = ""  # woken a moment early: wait on, the prompt is on screen

    def _clock_line(self) -> Text | None:
        """The agreed time above the table: before the first move, left, or up."""
        clock = self.clock
        if clock is None:
            return None
        if self.timed_out:
            return Text(say("clock.up_short"), style="bold red")
        if not clock.running and not self.table.actions:
            return Text(say("clock.agreed", time=clock_text(clock.left)), style="cyan")
        left = clock.left
        style = "bold red" if left < 60 else "cyan"
        return Text(say("clock.left", time=clock_text(left)), style=style)

    def _time_up(self) -> None:
        """The agreed time ran out: the table makes the game's entry (not a player), play
        stops at once and the game is saved where it is kept after every move."""
        clock, entry = self.clock, self.table.game.time_up_entry
        assert clock is not None and entry is not None
        clock.stop()
        if not self.table.state.is_over:
            self.table.enter(entry, by=None)
        self.timed_out = True
        self.console.print()
        self.saver.autosave()

    # -- the loop ---------------------------------------------------------------------------

    @property
    def _hot_seat(self) -> bool:
        """Several people share the keyboard in a game with hidden hands."""
        return len(self.table.people) > 1 and self.table.has_decisions

    def run(self) -> str:
        while True:
            try:
                self._loop()
                break
            except TimeUp:
                self._time_up()
                break
            except _Quit:
                return "quit"
            except KeyboardInterrupt:
                # Ctrl-C while the bots think or the screen is drawn: as `quit` does.
                self.console.print()
                try:
                    if self._leave():
                        return "quit"
                except _Quit:
                    return "quit"
                except TimeUp:
                    self._time_up()
                    break
                except EOFError:
                    self.saver.keep()
                    return "quit"
            except EOFError:
                self.saver.keep()
                return "quit"
            except Exception:
                # A fault of Parlour's own: the game is saved first, then the error goes on
                # to `main`, which says so in one line.
                self.saver.keep("error")
                raise
        if self.clock is not None:
            self.clock.stop()
        self._show_end()
        return "over"

    def _loop(self) -> None:
        table = self.table
        shown: int | None = self.screen.drawn  # the person whose hand may be on screen
        while not table.state.is_over:
            if self.clock is not None and table.actions:
                self.clock.start()  # with the first move, or as a resumed game goes on
                if self.clock.is_up:
                    raise TimeUp
            seat = table.state.to_move
            assert seat is not None
            if table.seats[seat].is_person and seat not in self.auto:
                forced = forced_moves(table, seat)
                if forced is not None:
                    self._make_forced(seat, *forced)
                    shown = None if self._hot_seat else shown
                else:
                    if self._hot_seat and shown != seat:
                        self._hand_over(seat)
                    shown = seat
                    self.turn.play(seat)
                    self.screen.notes.clear()
                    if self._hot_seat and table.state.to_move != seat:
                        self.screen.clear()  # the hand leaves the screen at once
                        shown = None
            else:
                if seat in self.auto:
                    table.apply(table.state.legal_actions()[0])  # the only move there is
                elif table.people and self.console.is_terminal and table.has_decisions:
                    with self.console.status(say("thinking", label=self.labels[seat])):
                        table.bot_move()
                else:
                    table.bot_move()
                self._stale = True
                if self._watching():
                    self.watch.step(self.auto, self._quit_if_leaving)
            self.saver.autosave()

    def _watching(self) -> bool:
        """No person has a move left to make: every one is a bot, asked for ``auto`` or is
        out of the game, so each bot move is shown as it is played."""
        state = self.table.state
        return all(
            seat in self.auto or self.presenter.is_out(state.view(seat))
            for seat in self.table.people
        )

    def _leave(self) -> bool:
        """``quit`` or Ctrl-C: leave (saving or not) or go back to the game; True to leave."""
        save, leave, back = (answer_word(f"leave.{a}") for a in ("save", "leave", "back"))
        while True:
            try:
                answer = (
                    self.ask(say("leave_question", save=save, leave=leave, back=back))
                    .strip()
                    .lower()
                )
            except KeyboardInterrupt:
                self.console.print()
                answer = "back"
            if not answer or answer in answers("leave.back"):
                return False
            if answer in answers("leave.save"):
                return self.saver.offer()
            if answer in answers("leave.leave"):
                self.saver.leave_unsaved()
                return True
            self.screen.say(say("leave_again", save=save, leave=leave, back=back))

    def _quit_if_leaving(self) -> None:
        """``q`` while watching: leave the game when the person says so."""
        if self._leave():
            raise _Quit

    # -- forced moves -----------------------------------------------------------------------

    def _make_forced(self, seat: int, actions: tuple[str, ...], said: str) -> None:
        """Make a forced move and say so; at a shared keyboard it is shown on the public
        table and the game goes on at Enter (no hand-over: there is nothing to hide)."""
        for text in actions:
            self.table.apply(text, forced=True)
        self.screen.keep_note(Text(said, style="cyan"))
        if self._hot_seat:
            self.screen.draw(None, keep_notes=True)
            self.ask(say("go_on"), fresh=True)
            self.screen.notes.clear()
            self.screen.clear()

    # -- the keyboard passed on, and the end ------------------------------------------------

    def complete(self, text: str, index: int) -> str | None:
        """readline's completer: the legal moves and commands that start with ``text``."""
        return self.turn.complete(text, index)

    def _hand_over(self, seat: int) -> None:
        """Hot seat: the screen shows no hand until the next person is at the keyboard, who
        presses Enter after the hand-over is shown (keys typed before it are thrown away)."""
        self.screen.notes.clear()
        panel = Panel(
            say("hand_over", name=seat_called(seat)),
            style="bold magenta",
        )
        self.screen.draw(None, footer=panel)
        while True:
            try:
                answer = self.ask(say("ready", name=seat_called(seat)), fresh=True)
            except KeyboardInterrupt:
                self.console.print()
                answer = "quit"
            if answer.strip().lower() in command_words("quit"):
                if self._leave():
                    raise _Quit
                self.screen.draw(None, footer=panel)
                continue
            if not answer.strip():
                self.screen.notes.clear()
                return
            only = say("only_you", name=seat_called(seat))
            self.screen.notes[:] = [Text(only, style="yellow")]
            self.screen.draw(None, keep_notes=True, footer=panel)

    def _show_end(self) -> None:
        state = self.table.state
        outcome = state.outcome
        assert outcome is not None
        viewer = self.table.people[0] if len(self.table.people) == 1 else None
        self.screen.notes.clear()
        self.screen.draw(viewer)
        if self.timed_out:
            self.console.print(Text(say("clock.up"), style="bold red"))
        self.console.print(Panel(self.result_text(), title=say("game_over"), style="bold green"))
        if self.end_table is not None:
            extra = self.end_table()
        else:
            found = self.presenter.end_table(outcome, state.view(None), self.labels)
            extra = None if found is None else grid(found)
        if extra is not None:
            self.console.print(extra)
        if self.reviewable:
            self.console.print(Text(say("review.offer"), style="cyan"))

    @property
    def reviewable(self) -> bool:
        """The game is over, people played it and it has decisions: its review is offered."""
        return self.table.state.is_over and can_review(self.table.game, self.table.people)

    review_budget: SearchBudget | None = None
    """The search budget a decision of the review (None: the expert bot's)."""

    def review(self) -> None:
        """The review of the people's decisions (asked for at the end: ``r``)."""
        table = self.table
        offer_review(
            table.record(),
            table.game,
            self.console,
            table.people,
            self.labels,
            budget=self.review_budget,
        )

    def result_text(self) -> str:
        """The result in plain words: who won, how, and how long the game was."""
        outcome = self.table.state.outcome
        assert outcome is not None
        moves = len(self.table.actions)
        if self.result is not None:
            text = self.result(outcome, self.table.state.view(None), self.labels, moves)
        else:
            text = self.presenter.result_text(outcome, self.labels, moves)
        undone = self.table.undone
        if undone:
            return say("taken_back", count=undone, text=text)
        return f"{text}."


def play_on(
    read: Reader = input,
    question: str | None = None,
    review: Callable[[], None] | None = None,
) -> bool:
    """Ask whether to play another game; True for yes. With ``review``, the answer ``r`` (the
    end screen's offer) shows the game's review, then asks again."""
    while True:
        try:
            answer = read(question or say("play_another")).strip().lower()
        except (EOFError, KeyboardInterrupt):
            return False
        if review is not None and answer in answers("review.answer"):
            review()
            continue
        return agrees(answer)
