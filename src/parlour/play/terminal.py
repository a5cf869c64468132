"""Playing at the terminal: the table redrawn each turn, a person's input, bots, hot seat.

:class:`TerminalGame` runs one game at a :class:`~parlour.play.table.Table`: it draws each
person's view and log (never a state), fitted to the terminal (:mod:`parlour.play.render`),
reads moves as numbers or notation, answers ``help``, ``moves``, ``hint``, ``undo``, ``save``
and ``quit``, hands a game's own input to its presenter (a give's split, turning a card), asks
before charging what the rules charge for a forbidden move, makes table entries with the
table's votes, makes a person's forced moves for him, hides one person's hand from the next on
a shared keyboard (keys typed ahead are thrown away, :mod:`parlour.play.keys`), lets people
watch at their own pace, saves (:mod:`parlour.play.saving`) and shows the result.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence

from rich.console import Console, RenderableType
from rich.panel import Panel
from rich.text import Text

from parlour.bots import make_agent
from parlour.core.game import Action, State, seat_name
from parlour.core.present import Reply
from parlour.core.rng import derive_seed
from parlour.errors import IllegalAction, InvalidNotation, ParlourError
from parlour.play.entries import make_entry
from parlour.play.help import commands_text, rules_text, watch_keys_text
from parlour.play.keys import Keyboard
from parlour.play.render import fitted_screen, last_events, screen
from parlour.play.saving import Reader, Saver
from parlour.play.table import Table
from parlour.play.watching import faster, slower

__all__ = ["LEAVE_QUESTION", "Reader", "TerminalGame", "play_on"]

_LOG_LINES = 10
_QUIT = ("quit", "exit", "q")
_COMMANDS = ("help", "moves", "hint", "undo", "save", "quit")
_NOTES = 3  # what was said last, kept on screen under the table
LEAVE_QUESTION = "Leave the game? (save / leave without saving / back to the game) [back]> "


class _Quit(Exception):
    """The person left the table."""


def _plural(count: int, one: str, many: str | None = None) -> str:
    """``1 drink``, ``2 drinks``."""
    return f"{count} {one if count == 1 else (many or one + 's')}"


class TerminalGame:
    """One game at the terminal. :meth:`run` returns ``"over"`` or ``"quit"``.

    ``keys`` is the terminal's keyboard (:func:`~parlour.play.keys.keyboard_of`), ``None``
    when input is not a terminal: then nothing typed is thrown away and watching goes at
    ``delay`` with no keys. ``end_table`` draws what is shown under the result (by default
    the presenter's :meth:`~parlour.core.present.Presenter.end_table`) and ``result`` says the
    result (by default the presenter's ``result_text``)."""

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
        result: Callable[[State, Sequence[str], int], str] | None = None,
    ) -> None:
        self.table = table
        self.console = console
        self.read = read
        self.keys = keys
        self.saver = Saver(
            table, console, self.ask, save_path, lambda text, style: self._say(text, style=style)
        )
        self.delay = delay
        self.presenter = table.game.presenter
        self.labels = [table.seat_label(s) for s in range(table.players)]
        self.auto: set[int] = set()  # people who asked to have their only move made for them
        self.end_table = end_table
        self.result = result
        self._completions: list[str] = []
        self._stale = False  # the game moved on since the last question: keys typed are old
        self._notes: list[Text] = []
        self._drawn: int | None = None  # whose screen is up (None: the public table)
        self._paused = False
        self._skip = False  # watching: play on to the end without drawing each move

    # -- the keyboard -----------------------------------------------------------------------

    def ask(self, prompt: str, *, fresh: bool = False) -> str:
        """Read a line after ``prompt``; keys typed before it was shown are thrown away when
        the game moved on since the last question (bots moved) or when ``fresh``."""
        if self.keys is not None and (fresh or self._stale):
            self.keys.discard()
        self._stale = False
        return self.read(prompt)

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
                except EOFError:
                    self.saver.keep()
                    return "quit"
            except EOFError:
                self.saver.keep()
                return "quit"
            except Exception:
                # A fault of Parlour's own: the game is saved first, then the error goes on
                # to `main`, which says so in one line.
                self.saver.keep("Parlour met an internal error")
                raise
        self._show_end()
        return "over"

    def _loop(self) -> None:
        table = self.table
        shown: int | None = self._drawn  # the person whose hand may be on screen
        while not table.state.is_over:
            seat = table.state.to_move
            assert seat is not None
            if table.seats[seat].is_person and seat not in self.auto:
                forced = self._forced(seat)
                if forced is not None:
                    self._make_forced(seat, *forced)
                    shown = None if self._hot_seat else shown
                else:
                    if self._hot_seat and shown != seat:
                        self._hand_over(seat)
                    shown = seat
                    self._person_turn(seat)
                    self._notes.clear()
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
                self._stale = True
                if self._watching():
                    self._watch_step()
            self.saver.autosave()

    def _watching(self) -> bool:
        """No person has a move left to make: every one is a bot, asked for ``auto`` or is
        out of the game (BEOR, B8), so each bot move is shown as it is played."""
        state = self.table.state
        return all(
            seat in self.auto or self.presenter.is_out(state.view(seat))
            for seat in self.table.people
        )

    def _watch_step(self) -> None:
        """Show the move just made and wait the watching pace, reading the watching keys:
        faster, slower, pause, skip to the end, and back to turning by hand."""
        table = self.table
        if self._skip and not table.state.is_over:
            return
        viewer = self.table.people[0] if len(table.people) == 1 else None
        self._draw(viewer, keep_notes=True, footer=self._watch_footer())
        if table.state.is_over:
            return
        if self.keys is None or not self.console.is_terminal:
            if self.delay > 0:
                time.sleep(self.delay)
            return
        deadline = time.monotonic() + self.delay
        while True:  # keys are read at every pace, 0 s a move included
            wait = 0.5 if self._paused else max(0.0, deadline - time.monotonic())
            key = self.keys.key(wait)
            if key is not None:
                if self._watch_key(key.lower()):
                    return
                self._draw(viewer, keep_notes=True, footer=self._watch_footer())
                deadline = time.monotonic() + (0 if self._paused else self.delay)
            if not self._paused and time.monotonic() >= deadline:
                return

    def _watch_footer(self) -> Text:
        pace = "paused" if self._paused else f"{self.delay:g} s a move"
        by_hand = bool(self.auto)
        return Text(f"Watching ({pace}). {watch_keys_text(by_hand)}", style="dim")

    def _watch_key(self, key: str) -> bool:
        """One watching key; True when watching stops waiting (skip to the end, by hand)."""
        if key in ("f", "+", "="):
            self.delay = faster(self.delay)
            self._paused = False
        elif key in ("s", "-"):
            self.delay = slower(self.delay)
        elif key in (" ", "p"):
            self._paused = not self._paused
        elif key in ("e", "\n"):
            self._skip = True
            self._paused = False
            self._say("Playing on to the end of the game...", style="dim")
            return True
        elif key == "t" and self.auto:
            self.auto.clear()
            self._paused = False
            self._say("Back to turning your cards by hand.", style="green")
            return True
        elif key == "q" and self._leave():
            raise _Quit
        return False

    def _person_turn(self, seat: int) -> None:
        """Read until this person has acted (an action, or several from one line)."""
        self._draw(seat, keep_notes=True)
        while True:
            state = self.table.state
            prompt = self.presenter.prompt(state.view(seat))
            self._completions = self._candidates(state)
            try:
                line = self.ask(prompt).strip()
            except KeyboardInterrupt:
                self.console.print()
                line = "quit"
            if self._command(seat, line):
                return

    def _command(self, seat: int, line: str) -> bool:
        """Handle one line; True once the person has acted."""
        word = line.lower()
        if word in ("help", "?", "h"):
            self._help(seat)
            return False
        if word in ("moves", "m", "board", "table"):
            self._draw(seat)
            return False
        if word in _QUIT:
            if self._leave():
                raise _Quit
            self._draw(seat)
            return False
        if word == "undo":
            self._undo(seat)
            return False
        if word == "save" or word.startswith("save "):
            self.saver.save(line[4:].strip() or None)
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

    def _help(self, seat: int) -> None:
        """The rules and commands; on a terminal, Enter then goes back to the table."""
        table = self.table
        self._clear()
        self.console.print(rules_text(table.game, table.state_options()), highlight=False)
        self.console.print(
            commands_text(table.game, undo=len(table.people) == 1), style="dim", highlight=False
        )
        if self._fitted:
            self.ask("Press Enter to go back to the table> ")
            self._draw(seat, keep_notes=True)

    def _leave(self) -> bool:
        """``quit`` or Ctrl-C: leave (saving or not) or go back to the game; True to leave."""
        while True:
            try:
                answer = self.ask(LEAVE_QUESTION).strip().lower()
            except KeyboardInterrupt:
                self.console.print()
                answer = "back"
            if answer in ("", "b", "back", "back to the game", "n", "no"):
                return False
            if answer in ("s", "save", "y", "yes"):
                return self.saver.offer()
            if answer in ("l", "leave", "leave without saving", "quit", "q"):
                self.saver.leave_unsaved()
                return True
            self._say("Please answer save, leave or back (Enter goes back to the game).")

    # -- forced moves -----------------------------------------------------------------------

    def _forced(self, seat: int) -> tuple[tuple[str, ...], str] | None:
        """The moves ``seat`` must make, with no choice (a pass that is the only legal move, or
        a give that can go to one player only), and what to say; ``None`` when the person
        chooses. (A lone card to throw is still the person's to throw: he may first make a
        table entry.)"""
        if not self.table.has_decisions:
            return None
        state = self.table.state
        legal = state.legal_actions()
        if len(legal) == 1 and str(legal[0]).lower() == "pass":
            return ("pass",), f"{seat_name(seat)} cannot play and passes: made for you."
        if self.presenter.numbered(legal):
            return None
        # The game asks in its own way (a give, G5): forced when one answer only is legal.
        view = state.view(seat)
        found: list[tuple[str, ...]] = []
        for number in range(1, self.table.players + 1):
            reply = self.presenter.read(view, str(number))
            if reply is None or not reply.actions:
                continue
            trial = state
            try:
                for text in reply.actions:
                    trial = trial.apply(text)
            except ParlourError:
                continue
            found.append(reply.actions)
        if len(found) != 1:
            return None
        said = ", ".join(found[0])
        return found[0], f"{seat_name(seat)} has one choice only ({said}): made for you."

    def _make_forced(self, seat: int, actions: tuple[str, ...], said: str) -> None:
        """Make a forced move and say so; at a shared keyboard it is shown on the public
        table and the game goes on at Enter (no hand-over: there is nothing to hide)."""
        for text in actions:
            self.table.apply(text, forced=True)
        self._notes.append(Text(said, style="cyan"))
        del self._notes[:-_NOTES]
        if self._hot_seat:
            self._draw(None, keep_notes=True)
            self.ask("Press Enter to go on> ", fresh=True)
            self._notes.clear()
            self._clear()

    # -- moves ------------------------------------------------------------------------------

    def _play(self, seat: int, line: str) -> bool:
        state = self.table.state
        numbered = self.presenter.numbered(state.legal_actions())
        if line.isascii() and line.isdigit():
            k = int(line) if len(line) < 6 else 0
            if not 1 <= k <= len(numbered):
                self._say(f"There is no move {line[:8]}: the moves are 1 to {len(numbered)}.")
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
        """The forbidden move ``line`` (the Game of Death's illegal throw, G13): when the rules
        charge for it, ask first, so that a typo costs nothing; False when it costs nothing
        here (the refusal alone is said)."""
        forfeit = self.presenter.forfeit(self.table.state.view(seat), line)
        if forfeit is None:
            return False
        try:
            trial = self.table.state.apply_table(forfeit.entry, by=seat)
        except ParlourError:
            return False  # the rules charge nothing here
        step = trial.step
        assert step is not None
        cost = 0
        for event in trial.events:
            drinks = event.data.get("drinks") if event.data else None
            cost += drinks if isinstance(drinks, int) else 0
        thing = step.text.split(" ", 1)[-1]
        self._say(f"{refusal}.")
        question = f"Throw {thing} illegally? It costs {_plural(cost, 'drink')} (G13) [y/N]> "
        try:
            answer = self.ask(question).strip().lower()
        except KeyboardInterrupt:
            answer = "n"
        if answer not in ("y", "yes"):
            self._notes.clear()
            self._say("Not thrown; nothing was charged. Throw a card that follows, or pass.")
            return True
        self.table.enter(forfeit.entry, by=seat)
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
            if self.keys is not None:
                self._say(f"Watching keys: {watch_keys_text(True)}", style="dim")
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
            lambda prompt: self.ask(prompt, fresh=True),
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
        self._note(line)

    def _undo(self, seat: int) -> None:
        reason = self.table.undo_refusal(seat)
        if reason is not None:
            self._say(f"Cannot undo: {reason}.")
            return
        taken = self.table.undo(seat)
        self.saver.autosave()
        self._draw(seat)
        bots = taken - 1
        after = "" if not bots else f" and the {_plural(bots, 'bot move')} after it"
        self._say(f"Took back your last move{after}.", style="green")

    # -- drawing ----------------------------------------------------------------------------

    @property
    def _fitted(self) -> bool:
        """A terminal: each screen is drawn whole, fitted to its size."""
        return self.console.is_terminal

    def _clear(self) -> None:
        if self.console.is_terminal:
            self.console.clear()
            # Also the scrollback, so the next person cannot scroll up to another's hand.
            self.console.file.write("\x1b[3J")
            self.console.file.flush()

    def _note(self, text: Text) -> None:
        """Say ``text`` under the table: on a terminal it stays on screen (redrawn with the
        table) until the person acts; elsewhere it is printed."""
        if not self._fitted:
            self.console.print(text)
            return
        self._notes.append(text)
        del self._notes[:-_NOTES]
        self._draw(self._drawn, keep_notes=True)

    def _say(self, message: str, *, style: str = "yellow") -> None:
        self._note(Text(message, style=style))

    def _draw(
        self, seat: int | None, *, keep_notes: bool = False, footer: RenderableType | None = None
    ) -> None:
        """The table as ``seat`` (``None``: anyone) sees it, with the last events of its own
        log (core redacts it: a seat sees its own draws, others that a card was drawn)."""
        if not keep_notes:
            self._notes.clear()
        self._drawn = seat
        state = self.table.state
        legal: Sequence[Action] = ()
        if seat is not None and state.to_move == seat:
            legal = state.legal_actions()
        events = last_events(state.tail(seat, _LOG_LINES), _LOG_LINES)
        view = state.view(seat)
        self._clear()
        notes: list[RenderableType] = [*self._notes, *([footer] if footer is not None else [])]
        if self._fitted:
            below = 1
            if legal:
                width = max(self.console.size.width, 1)
                below = len(self.presenter.prompt(view)) // width + 1
            self.console.print(
                fitted_screen(
                    self.console,
                    self.presenter,
                    view,
                    self.labels,
                    events,
                    legal,
                    notes,
                    below=below,
                )
            )
            return
        self.console.print(
            screen(self.presenter, view, self.labels, events, legal, width=self.console.width)
        )
        for note in notes:
            self.console.print(note)

    def _hand_over(self, seat: int) -> None:
        """Hot seat: the screen shows no hand until the next person is at the keyboard, who
        presses Enter after the hand-over is shown (keys typed before it are thrown away)."""
        self._notes.clear()
        panel = Panel(
            f"{seat_name(seat)}'s turn. Pass the keyboard to {seat_name(seat)}; everyone "
            "else, look away.",
            style="bold magenta",
        )
        self._draw(None, footer=panel)
        while True:
            try:
                answer = self.ask(
                    f"{seat_name(seat)}, press Enter when you are ready> ", fresh=True
                )
            except KeyboardInterrupt:
                self.console.print()
                answer = "quit"
            if answer.strip().lower() in _QUIT:
                if self._leave():
                    raise _Quit
                self._draw(None, footer=panel)
                continue
            if not answer.strip():
                self._notes.clear()
                return
            only = f"Only {seat_name(seat)} should answer: press Enter (or type quit)."
            self._notes[:] = [Text(only, style="yellow")]
            self._draw(None, keep_notes=True, footer=panel)

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
        self._notes.clear()
        self._draw(viewer)
        self.console.print(Panel(self.result_text(), title="Game over", style="bold green"))
        if self.end_table is not None:
            extra = self.end_table()
        else:
            extra = self.presenter.end_table(outcome, state.view(None), self.labels)
        if extra is not None:
            self.console.print(extra)

    def result_text(self) -> str:
        """The result in plain words: who won, how, and how long the game was."""
        outcome = self.table.state.outcome
        assert outcome is not None
        moves = len(self.table.actions)
        if self.result is not None:
            text = self.result(self.table.state, self.labels, moves)
        else:
            text = self.presenter.result_text(outcome, self.labels, moves)
        undone = self.table.undone
        if undone:
            return f"{text}; {_plural(undone, 'move')} taken back."
        return f"{text}."


def play_on(read: Reader = input, question: str = "Play another game? [y/N]> ") -> bool:
    """Ask whether to play another game; True for yes."""
    try:
        answer = read(question).strip().lower()
    except (EOFError, KeyboardInterrupt):
        return False
    return answer in ("y", "yes")
