"""Playing at the terminal: the table redrawn each turn, a person's input, bots, hot seat.

:class:`TerminalGame` runs one game at a :class:`~parlour.play.table.Table`: it draws each
person's view (never a state), reads moves as numbers or notation, answers ``help``, ``moves``,
``hint``, ``undo``, ``save`` and ``quit``, charges the Game of Death's illegal throw (G13), asks
for a give's split (G5), hides one person's hand from the next on a shared keyboard, saves after
every move when asked, and shows the result.
"""

from __future__ import annotations

import json
import os
import random
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from rich.console import Console
from rich.panel import Panel
from rich.table import Table as RichTable
from rich.text import Text

from parlour.bots import make_agent
from parlour.core.game import Action, State, seat_name
from parlour.core.rng import derive_seed
from parlour.errors import ParlourError
from parlour.games.beggar.rules import BeggarState
from parlour.games.death.rules import DeathState
from parlour.games.death.view import DeathView
from parlour.play.beggar import describe_result
from parlour.play.help import COMMANDS, RULES
from parlour.play.render import numbered_moves, pretty_action, screen
from parlour.play.table import Table

__all__ = ["Reader", "TerminalGame", "default_save_path", "write_record"]

Reader = Callable[[str], str]
"""Reads one line after showing a prompt (``input``); raises EOFError at the end of input."""

_LOG_LINES = 10
_QUIT = ("quit", "exit", "q")


def default_save_path(table: Table) -> str:
    return f"parlour-{table.game.name}-{table.seed}.json"


def write_record(table: Table, path: str) -> None:
    """Write the game's record to ``path`` whole or not at all (a crash never leaves half a
    file). Raises OSError."""
    target = Path(path)
    tmp = target.with_name(target.name + ".tmp")
    tmp.write_text(json.dumps(table.record().to_json()) + "\n", encoding="utf-8")
    os.replace(tmp, target)


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
        self.save_path = save_path
        self.delay = delay
        self.labels = [table.seat_label(s) for s in range(table.players)]
        self.auto: set[int] = set()  # Beggar-My-Neighbour people who chose to watch
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
                        table.apply(table.state.legal_actions()[0])  # Beggar: the only move
                    elif table.people and self.console.is_terminal and table.has_decisions:
                        with self.console.status(f"{self.labels[seat]} is thinking..."):
                            table.bot_move()
                    else:
                        table.bot_move()
                    if self._watching():
                        self._draw(self.table.people[0] if len(table.people) == 1 else None)
                        if self.delay > 0 and not table.state.is_over:
                            time.sleep(self.delay)
                self._autosave()
        except _Quit:
            return "quit"
        except KeyboardInterrupt:
            # Ctrl-C while the bots think or the screen is drawn: leave as `quit` does.
            self.console.print()
            self._offer_save()
            return "quit"
        except EOFError:
            self._left_without_asking()
            return "quit"
        self._show_end()
        return "over"

    def _watching(self) -> bool:
        """No person has a move left to make: every one is a bot, chose ``auto`` (Beggar) or
        is out of the game (BEOR, B8), so each bot move is shown as it is played."""
        state = self.table.state
        for seat in self.table.people:
            if seat in self.auto or seat in getattr(state.view(seat), "out", ()):
                continue
            return False
        return True

    def _person_turn(self, seat: int) -> None:
        """Read until this person has acted (one action; a give prompt may apply several)."""
        self._draw(seat)
        while True:
            state = self.table.state
            pending = getattr(state.view(seat), "pending_give", None)
            if isinstance(self.table.state, BeggarState):
                prompt = f"{seat_name(seat)}, press Enter to turn your card (or auto, help)> "
            elif pending is not None:
                prompt = (
                    f"{seat_name(seat)}, give {pending[1]} drink{'s' if pending[1] > 1 else ''}"
                    f" (G5): to whom? ({self._give_example(seat, pending[1])})> "
                )
            else:
                prompt = f"{seat_name(seat)}> "
            self._completions = self._candidates(state)
            try:
                line = self.read(prompt).strip()
            except KeyboardInterrupt:
                line = "quit"
            if self._command(seat, line, pending):
                return

    def _command(self, seat: int, line: str, pending: tuple[int, int] | None) -> bool:
        """Handle one line; True once the person has acted."""
        word = line.lower()
        state = self.table.state
        if word in ("help", "?", "h"):
            self.console.print(RULES[self.table.game.name], highlight=False)
            self.console.print(COMMANDS[self.table.game.name], style="dim", highlight=False)
            return False
        if word in ("moves", "m", "board", "table"):
            self._draw(seat)
            return False
        if word in _QUIT:
            self._offer_save()
            raise _Quit
        if word == "undo":
            self._undo(seat)
            return False
        if word == "save" or word.startswith("save "):
            self._save(line[4:].strip() or self.save_path or default_save_path(self.table))
            return False
        if word == "hint":
            self._hint(seat)
            return False
        if isinstance(state, BeggarState):
            return self._beggar_input(seat, word)
        if not line and pending is not None:
            self._say(self._give_help(seat, pending[1]))
            return False
        if not line:
            self._say("Type a move's number or the move itself; help shows the rules.")
            return False
        if pending is not None and not word.startswith(("give", "doh", "delay")):
            return self._give(seat, line, pending[1])
        return self._play(seat, line)

    # -- moves ------------------------------------------------------------------------------

    def _play(self, seat: int, line: str) -> bool:
        state = self.table.state
        numbered = numbered_moves(state.legal_actions())
        if line.isascii() and line.isdigit():
            k = int(line)
            if not 1 <= k <= len(numbered):
                self._say(f"There is no move {k}: the moves are 1 to {len(numbered)}.")
                return False
            self.table.apply(numbered[k - 1])
            return True
        try:
            action = state.parse_action(line)
        except ParlourError as err:
            if self._illegal_throw(seat, line, str(err)):
                return True
            self._say(f"{err}. Try again (help shows the rules and notation).")
            return False
        self.table.apply(action)
        return True

    def _illegal_throw(self, seat: int, line: str, reason: str) -> bool:
        """G13: in the Game of Death a card from the hand that does not follow costs 2 drinks
        and goes back to the hand (option ``illegal_throw_penalty``)."""
        state = self.table.state
        if not isinstance(state, DeathState):
            return False
        try:
            penalty = state.parse_action(f"illegal {line}")
        except ParlourError:
            return False
        self.table.apply(penalty)
        self._draw(seat)
        self._say(
            f"{reason}: an illegal throw costs 2 drinks and the card goes back to your hand "
            "(G13). Throw a card that follows, or pass if you have none.",
            style="bold red",
        )
        return True

    def _give_example(self, seat: int, left: int) -> str:
        """``3 = all to Player 3; 2=3 3=2 splits`` for the players and drinks at hand."""
        others = [s + 1 for s in range(self.table.players) if s != seat]
        text = f"{others[-1]} = all to Player {others[-1]}"
        if len(others) > 1 and left > 1:
            text += f"; {others[0]}={left - left // 2} {others[1]}={left // 2} splits"
        return text

    def _give_help(self, seat: int, left: int) -> str:
        return (
            f"Give {left} drink{'s' if left > 1 else ''} to the other players (G5): "
            f"{self._give_example(seat, left)}; give N>Pk gives N to Player k."
        )

    def _give(self, seat: int, line: str, left: int) -> bool:
        """A give's split (G5): ``3`` gives everything left to Player 3; ``2=3 3=2`` gives 3
        to Player 2 and 2 to Player 3. Nothing is given unless the whole split is valid."""
        parts = line.replace(",", " ").split()
        split: list[tuple[int, int]] = []
        for part in parts:
            name, sep, many = part.partition("=")
            who = name.strip().lower().removeprefix("player").removeprefix("p")
            many = many.strip()
            if not (who.isascii() and who.isdigit()) or (
                sep and not (many.isascii() and many.isdigit())
            ):
                self._say(f"{part!r}: write a player's number (3) or player=drinks (2=3 3=2).")
                return False
            split.append((int(who), int(many) if sep else 0))
        if not split:
            return False
        if len(split) == 1 and split[0][1] == 0:
            split = [(split[0][0], left)]
        if any(n == 0 for _, n in split):
            self._say("Say how many drinks each player gets: " + self._give_example(seat, left))
            return False
        merged: dict[int, int] = {}
        for player, n in split:  # 2=1 2=1 gives Player 2 two drinks
            merged[player] = merged.get(player, 0) + n
        split = list(merged.items())
        total = sum(n for _, n in split)
        if total > left:
            self._say(f"That gives {total} drinks, but only {left} are left to give (G5).")
            return False
        trial = self.table.state
        actions = []
        for player, n in split:
            try:
                action = trial.parse_action(f"give {n}>P{player}")
                trial = trial.apply(action)
            except ParlourError as err:
                self._say(f"{err}. Nothing was given; try again.")
                return False
            actions.append(action)
        for action in actions:
            self.table.apply(action)
        self._autosave()
        if total < left:
            self._draw(seat)
            return False
        return True

    def _beggar_input(self, seat: int, word: str) -> bool:
        if word in ("", "t", "turn", "play"):
            self.table.apply("play")
            return True
        if word in ("auto", "watch"):
            self.auto.add(seat)
            self._say(f"{seat_name(seat)}'s cards will be turned for him from now on.")
            return True
        self._say("Press Enter to turn your card; auto turns them for you; help, quit.")
        return False

    def _hint(self, seat: int) -> None:
        if not self.table.has_decisions:
            self._say("There is nothing to decide: press Enter to turn your card.")
            return
        state = self.table.state
        agent = make_agent("heuristic", self.table.game)
        rng_seed = derive_seed(self.table.seed, "hint", len(self.table.actions))
        action = agent.choose(state.view(seat), state.legal_actions(), random.Random(rng_seed))
        numbered = numbered_moves(state.legal_actions())
        number = f" (move {numbered.index(action) + 1})" if action in numbered else ""
        line = Text("The heuristic bot would play ", style="yellow")
        line.append_text(pretty_action(action))
        line.append(f"{number}.", style="yellow")
        self.console.print(line)

    def _undo(self, seat: int) -> None:
        reason = self.table.undo_refusal(seat)
        if reason is not None:
            self._say(f"Cannot undo: {reason}.")
            return
        taken = self.table.undo(seat)
        self._autosave()
        self._draw(seat)
        self._say(
            f"Took back your last move and the {taken - 1} bot move{'s' if taken != 2 else ''}"
            " after it.",
            style="green",
        )

    # -- saving -----------------------------------------------------------------------------

    def _autosave(self) -> None:
        if self.save_path is None:
            return
        try:
            write_record(self.table, self.save_path)
        except OSError as err:
            self._say(f"Could not save to {self.save_path}: {err.strerror}", style="bold red")
            self.save_path = None

    def _save(self, path: str) -> bool:
        if path != self.save_path and Path(path).exists():
            try:
                answer = self.read(f"{path} exists. Replace it? [y/N]> ").strip().lower()
            except (EOFError, KeyboardInterrupt):
                answer = "n"
            if answer not in ("y", "yes"):
                self._say(f"Not saved: {path} was left as it was.")
                return False
        try:
            write_record(self.table, path)
        except OSError as err:
            self._say(f"Could not save to {path}: {err.strerror}", style="bold red")
            return False
        self._say(f"Saved to {path}; resume with: parlour play --resume {path}", style="green")
        return True

    def _offer_save(self) -> None:
        if self.save_path is not None:
            self._autosave()
            self._say(
                f"The game is saved in {self.save_path}; resume with: "
                f"parlour play --resume {self.save_path}"
            )
            return
        try:
            answer = self.read("Save the game before leaving? [Y/n]> ").strip().lower()
            if answer in ("n", "no"):
                self._say("Left the table without saving.")
                return
            default = default_save_path(self.table)
            path = self.read(f"File name [{default}]> ").strip() or default
        except EOFError:
            self._left_without_asking()
            return
        except KeyboardInterrupt:
            self._left_without_asking("Interrupted")
            return
        while not self._save(path):
            try:
                path = self.read("Another file name (empty: leave without saving)> ").strip()
            except (EOFError, KeyboardInterrupt):
                return
            if not path:
                return

    def _left_without_asking(self, why: str = "Input ended") -> None:
        """Input ended mid-game (or Ctrl-C at the save question): keep the game, not lose it."""
        if self.save_path is not None:
            where = self.save_path
            self._autosave()
            if self.save_path is None:  # the save failed and said so
                return
        elif self.table.actions:
            where = default_save_path(self.table)
            try:
                write_record(self.table, where)
            except OSError as err:
                self._say(f"Input ended; the game could not be saved to {where}: {err.strerror}")
                return
        else:
            return
        self.console.print(f"\n{why}; the game is saved in {where}.", highlight=False)

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
        state = self.table.state
        legal: Sequence[Action] = ()
        if seat is not None and state.to_move == seat:
            legal = state.legal_actions()
        self._clear()
        self.console.print(
            screen(state.view(seat), self.labels, self.table.events_for(seat, _LOG_LINES), legal)
        )

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
                self._offer_save()
                raise _Quit
            if not answer.strip():
                return
            self._say(f"Only {seat_name(seat)} should answer: press Enter (or type quit).")

    def _candidates(self, state: State) -> list[str]:
        words = ["help", "moves", "hint", "undo", "save", "quit"]
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
        if isinstance(state, DeathState):
            self.console.print(self._drinks_table())

    def result_text(self) -> str:
        """The result in plain words: who won, how, and how long the game was."""
        state = self.table.state
        outcome = state.outcome
        assert outcome is not None
        if isinstance(state, BeggarState):
            text = describe_result(state)
            for seat in range(self.table.players):
                text = text.replace(f"{seat_name(seat)} ", f"{self.labels[seat]} ")
            return text
        names = " and ".join(self.labels[s] for s in outcome.winners)
        actions = len(self.table.actions)
        undone = f"; {self.table.undone} move(s) taken back" if self.table.undone else ""
        if isinstance(state, DeathState):
            lead = f"{names} win{'s' if len(outcome.winners) == 1 else ''}"
            return f"{lead} with the fewest drinks taken (G12). {actions} actions{undone}."
        turns = getattr(state.view(None), "turn", actions)
        if not outcome.winners:
            how = f"The game is a draw after {turns} moves (B10)"
        else:
            how = f"{names} wins after {turns} moves"
            groups = outcome.details.get("groups") if outcome.details else None
            if groups:
                how += f" with {groups}"
        return f"{how}{undone}."

    def _drinks_table(self) -> RichTable:
        state = self.table.state
        outcome = state.outcome
        assert outcome is not None
        view = state.view(None)
        assert isinstance(view, DeathView)
        table = RichTable("player", "drinks taken", "given", "place", title="Drinks")
        for seat, label in enumerate(self.labels):
            table.add_row(
                label,
                str(view.drinks_taken[seat]),
                str(view.drinks_given[seat]),
                str(outcome.ranks[seat]),
            )
        return table


def play_on(table: Table, console: Console, read: Reader = input) -> bool:
    """Ask whether to play another game; True for yes."""
    try:
        answer = read("Play another game? [y/N]> ").strip().lower()
    except (EOFError, KeyboardInterrupt):
        return False
    return answer in ("y", "yes")
