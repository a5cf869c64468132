"""A person's turn at the terminal: reading his lines until he has acted.

:class:`PersonTurn` reads moves as numbers or notation, answers ``help``, ``moves``, ``hint``,
``undo``, ``save`` and ``quit``, hands a game's own input to its presenter (a give's split,
turning a card), asks before charging what the rules charge for a forbidden move
(:func:`~parlour.play.forced.forfeit_cost`), makes table entries with the table's votes
(:mod:`parlour.play.entries`) and completes moves and commands with Tab. The game's flow
(bots, hot seat, watching, the end) is :class:`~parlour.play.terminal.TerminalGame`'s.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Protocol

from rich.text import Text

from parlour.bots import make_agent
from parlour.core.game import State, seat_name
from parlour.core.present import Reply
from parlour.core.rng import derive_seed
from parlour.errors import IllegalAction, InvalidNotation, ParlourError
from parlour.play.draw import text
from parlour.play.entries import make_entry
from parlour.play.forced import forfeit_cost
from parlour.play.help import commands_text, rules_text, watch_keys_text
from parlour.play.saving import Saver
from parlour.play.screen import Screen
from parlour.play.speech import (
    agrees,
    command_names,
    command_words,
    say,
    seat_called,
    title_of,
)

__all__ = ["Ask", "PersonTurn"]


class Ask(Protocol):
    """Reads a line after ``prompt``; ``fresh``: keys typed before it was shown are thrown
    away (:meth:`~parlour.play.terminal.TerminalGame.ask`)."""

    def __call__(self, prompt: str, *, fresh: bool = False) -> str: ...


class PersonTurn:
    """The turns of the people at one table. ``ask`` reads a line (keys typed ahead thrown
    away, ``fresh=True``); ``leave`` asks whether to leave the game (and raises to leave it);
    ``hand_over`` gives the keyboard back to a seat after the others voted; ``auto`` holds
    the people who asked to have their only move made for them; ``watch_keys`` says whether
    the watching keys can be read."""

    def __init__(
        self,
        screen: Screen,
        saver: Saver,
        ask: Ask,
        leave: Callable[[], None],
        hand_over: Callable[[int], None],
        auto: set[int],
        *,
        watch_keys: bool,
    ) -> None:
        self.screen = screen
        self.table = screen.table
        self.presenter = screen.presenter
        self.saver = saver
        self.ask = ask
        self.leave = leave
        self.hand_over = hand_over
        self.auto = auto
        self.watch_keys = watch_keys
        self._completions: list[str] = []

    def play(self, seat: int) -> None:
        """Read until this person has acted (an action, or several from one line)."""
        self.screen.draw(seat, keep_notes=True)
        while True:
            state = self.table.state
            prompt = self.presenter.prompt(state.view(seat))
            prompt = prompt.replace(seat_name(seat), seat_called(seat), 1)
            self._completions = self._candidates(state)
            try:
                line = self.ask(prompt).strip()
            except KeyboardInterrupt:
                self.screen.console.print()
                line = "quit"
            if self._command(seat, line):
                return

    def _command(self, seat: int, line: str) -> bool:
        """Handle one line; True once the person has acted. The commands are read in the
        language spoken and in English (``ajutor`` or ``help``)."""
        word = line.lower()
        first, _, rest = line.partition(" ")
        if word in command_words("help"):
            self._help(seat)
            return False
        if word in command_words("moves"):
            self.screen.draw(seat)
            return False
        if word in command_words("quit"):
            self.leave()
            self.screen.draw(seat)
            return False
        if word in command_words("undo"):
            self._undo(seat)
            return False
        if first.lower() in command_words("save"):
            self.saver.save(rest.strip() or None)
            return False
        if word in command_words("hint"):
            self._hint(seat)
            return False
        if word.split(" ", 1)[0] in (c.word for c in self.presenter.table_commands):
            self._table_entry(seat, line)
            return False
        reply = self.presenter.read(self.table.state.view(seat), line)
        if reply is not None:
            return self._reply(seat, reply)
        if not line:
            self.screen.say(say("type_move"))
            return False
        return self._play(seat, line)

    def _help(self, seat: int) -> None:
        """The rules and commands; on a terminal, Enter then goes back to the table."""
        table = self.table
        self.screen.clear()
        self.screen.console.print(rules_text(table.game, table.state_options()), highlight=False)
        self.screen.console.print(
            commands_text(table.game, undo=len(table.people) == 1), style="dim", highlight=False
        )
        if self.screen.fitted:
            self.ask(say("help_back"))
            self.screen.draw(seat, keep_notes=True)

    def _play(self, seat: int, line: str) -> bool:
        state = self.table.state
        numbered = self.presenter.numbered(state.legal_actions())
        if line.isascii() and line.isdigit():
            digits = line.lstrip("0")  # 01 is move 1; int() fails past 4,300 digits
            k = int(digits) if 0 < len(digits) < 6 else 0
            if not 1 <= k <= len(numbered):
                self.screen.say(say("no_move", line=line[:8], count=len(numbered)))
                return False
            self.table.apply(numbered[k - 1])
            return True
        try:
            action = state.parse_action(line)
        except InvalidNotation as err:
            self.screen.say(say("try_again", error=self.presenter.refusal(err)))
            return False
        except IllegalAction as err:
            if not self._forfeit(seat, line, err):
                self.screen.say(say("try_again", error=self.presenter.refusal(err)))
            return False
        self.table.apply(action)
        return True

    def _forfeit(self, seat: int, line: str, refusal: IllegalAction) -> bool:
        """The forbidden move ``line`` (a card thrown against the rules): when the rules
        charge for it, ask first, so that a typo costs nothing; False when it costs nothing
        here (the refusal alone is said)."""
        forfeit = self.presenter.forfeit(self.table.state.view(seat), line)
        if forfeit is None:
            return False
        charged = forfeit_cost(self.table, seat, forfeit.entry)
        if charged is None:
            return False  # the rules charge nothing here
        thing, cost = charged
        why = self.presenter.refusal(refusal)
        self.screen.say(f"{why}.")
        question = (forfeit.question or say("forfeit.question")).format(thing=thing, cost=cost)
        try:
            answer = self.ask(question)
        except KeyboardInterrupt:
            answer = "n"
        if not agrees(answer):
            self.screen.notes.clear()
            self.screen.say(forfeit.declined or say("forfeit.declined"))
            return True
        self.table.enter(forfeit.entry, by=seat)
        self.saver.autosave()
        self.screen.draw(seat)
        self.screen.say(f"{why}: {forfeit.note}", style="bold red")
        return True

    def _reply(self, seat: int, reply: Reply) -> bool:
        """A game's own reading of a line: its actions are played all or none."""
        if reply.message:
            self.screen.say(reply.message)
        if reply.auto:
            self.auto.add(seat)
            if self.watch_keys:
                self.screen.say(say("watch.keys_line", keys=watch_keys_text(True)), style="dim")
            return True
        if not reply.actions:
            return False
        trial = self.table.state
        try:
            for text in reply.actions:
                trial = trial.apply(text)
        except ParlourError as err:
            self.screen.say(say("nothing_played", error=self.presenter.refusal(err)))
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
            before_votes=lambda: self.screen.draw(None),
            after_votes=lambda: self.hand_over(seat),
        )
        if made:
            self.saver.autosave()
        self.screen.draw(seat)
        self.screen.say(message, style="green" if made else "yellow")

    def _hint(self, seat: int) -> None:
        if not self.table.has_decisions:
            self.screen.say(say("hint.nothing", title=title_of(self.table.game)))
            return
        state = self.table.state
        agent = make_agent("heuristic", self.table.game)
        rng_seed = derive_seed(self.table.seed, "hint", len(self.table.actions))
        action = agent.choose(state.view(seat), state.legal_actions(), random.Random(rng_seed))
        numbered = self.presenter.numbered(state.legal_actions())
        number = ""
        if action in numbered:
            number = say("hint.number", number=numbered.index(action) + 1)
        # The move keeps its own styles inside the sentence, wherever the language puts it.
        before, _, after = say("hint.play", action="\0", number=number).partition("\0")
        line = Text(before, style="yellow")
        line.append_text(text(self.presenter.pretty_action(action)))
        line.append(after, style="yellow")
        self.screen.note(line)

    def _undo(self, seat: int) -> None:
        reason = self.table.undo_refusal(seat)
        if reason is not None:
            self.screen.say(say("undo.cannot", reason=reason))
            return
        taken = self.table.undo(seat)
        self.saver.autosave()
        self.screen.draw(seat)
        bots = taken - 1
        said = say("undo.done_bots", count=bots) if bots else say("undo.done")
        self.screen.say(said, style="green")

    def _candidates(self, state: State) -> list[str]:
        words = [*command_names(), *(c.word for c in self.presenter.table_commands)]
        return [str(a).lower() for a in state.legal_actions()] + words

    def complete(self, text: str, index: int) -> str | None:
        """readline's completer: the legal moves and commands that start with ``text``."""
        matches = [w for w in self._completions if w.startswith(text.lower())]
        return matches[index] if index < len(matches) else None
