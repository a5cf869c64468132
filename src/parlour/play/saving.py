"""Saving a game at the terminal: after every move when asked, on ``save``, when a person leaves
(``quit``, Ctrl-C) and when input ends mid-game, so that a game is never lost and a file is
never overwritten without asking.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path

from rich.console import Console
from rich.text import Text

from parlour.core.record import Record
from parlour.play.table import Table

__all__ = ["Reader", "Saver", "default_save_path", "write_json_record", "write_record"]

Reader = Callable[[str], str]
"""Reads one line after showing a prompt (``input``); raises EOFError at the end of input."""


def default_save_path(table: Table) -> str:
    return f"parlour-{table.game.name}-{table.seed}.json"


def write_json_record(record: Record, path: str) -> None:
    """Write ``record`` to ``path`` whole or not at all (a crash never leaves half a file).
    Raises OSError."""
    target = Path(path)
    tmp = target.with_name(target.name + ".tmp")
    tmp.write_text(json.dumps(record.to_json()) + "\n", encoding="utf-8")
    os.replace(tmp, target)


def write_record(table: Table, path: str) -> None:
    """Write the table's game record to ``path`` (:func:`write_json_record`)."""
    write_json_record(table.record(), path)


class Saver:
    """Saves one table's game for the terminal loop: ``path`` is the file saved after every
    move (``None``: none), which is dropped after a failed write, said once."""

    def __init__(self, table: Table, console: Console, read: Reader, path: str | None) -> None:
        self.table = table
        self.console = console
        self.read = read
        self.path = path

    def _say(self, message: str, *, style: str = "yellow") -> None:
        self.console.print(Text(message, style=style))

    def autosave(self) -> None:
        """Save after a move, when asked for (``--save`` or ``--resume``)."""
        if self.path is None:
            return
        try:
            write_record(self.table, self.path)
        except OSError as err:
            self._say(f"Could not save to {self.path}: {err.strerror}", style="bold red")
            self.path = None

    def save(self, path: str) -> bool:
        """``save [FILE]``: write the game to ``path``, asking before replacing another file."""
        if path != self.path and Path(path).exists():
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

    def offer(self) -> None:
        """A person leaves the table: save where the game is saved, or ask whether and where."""
        if self.path is not None:
            self.autosave()
            self._say(
                f"The game is saved in {self.path}; resume with: parlour play --resume {self.path}"
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
            self.keep()
            return
        except KeyboardInterrupt:
            self.keep("Interrupted")
            return
        while not self.save(path):
            try:
                path = self.read("Another file name (empty: leave without saving)> ").strip()
            except (EOFError, KeyboardInterrupt):
                return
            if not path:
                return

    def keep(self, why: str = "Input ended") -> None:
        """Input ended mid-game (or Ctrl-C at the save question): keep the game, not lose it."""
        if self.path is not None:
            where = self.path
            self.autosave()
            if self.path is None:  # the save failed and said so
                return
        elif len(self.table.states) > 1:
            where = default_save_path(self.table)
            try:
                write_record(self.table, where)
            except OSError as err:
                self._say(f"Input ended; the game could not be saved to {where}: {err.strerror}")
                return
        else:
            return
        self.console.print(f"\n{why}; the game is saved in {where}.", highlight=False)
