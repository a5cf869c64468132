"""Saving a game at the terminal: after every move when asked, on ``save``, when a person leaves
(``quit``, Ctrl-C), when input ends mid-game and when Parlour itself fails, so that a game is
never lost and a file is never overwritten without asking.

Every write goes through :func:`parlour.core.files.write_text_atomic` (a temporary file beside
the target, renamed over it; a symlink's target is written and the link stays). A name may be a
folder (the game's own name is used inside it) and may start with ``~``. A save nobody named
(input ended, a crash) never replaces another file: it takes a free name and says which.
"""

from __future__ import annotations

import json
import os
import shlex
from collections.abc import Callable
from typing import Literal

from rich.console import Console
from rich.text import Text

from parlour.core.files import write_text_atomic
from parlour.core.inputs import parse_path
from parlour.core.record import Record
from parlour.errors import ParlourError
from parlour.play.speech import agrees, say
from parlour.play.table import Table

__all__ = [
    "Reader",
    "Saver",
    "default_save_path",
    "free_path",
    "resume_hint",
    "save_target",
    "write_json_record",
    "write_record",
]

Reader = Callable[[str], str]
"""Reads one line after showing a prompt (``input``); raises EOFError at the end of input."""


def default_save_path(table: Table) -> str:
    """``parlour-GAME-SEED.json`` (with ``-dealN`` for the deals of a match after the first)."""
    number = table.deal_number
    deal = f"-deal{number + 1}" if number else ""
    return f"parlour-{table.game.name}-{table.seed}{deal}.json"


def save_target(path: str, default: str) -> str:
    """The file a save to ``path`` goes to: ``~`` expanded, and ``default`` inside it when it
    is a folder (or ends with ``/``). Raises InvalidInput for an empty name or a NUL."""
    target = parse_path(path)
    if target.is_dir() or path.endswith(("/", os.sep)):
        target = target / default
    return str(target)


def free_path(path: str) -> str:
    """``path`` when no file has that name, else the first free ``NAME-2.json``,
    ``NAME-3.json`` ... beside it."""
    if not os.path.lexists(path):
        return path
    stem, dot, ext = path.rpartition(".")
    if not dot or "/" in ext:
        stem, ext = path, ""
    for number in range(2, 100_000):
        candidate = f"{stem}-{number}.{ext}" if ext else f"{stem}-{number}"
        if not os.path.lexists(candidate):
            return candidate
    raise FileExistsError(path)  # pragma: no cover - 100,000 saved games of one seed


def resume_hint(path: str) -> str:
    """``parlour play --resume 'my game.json'``: the command to go on, quoted for the shell."""
    return f"parlour play --resume {shlex.quote(path)}"


def write_json_record(record: Record, path: str, *, overwrite: bool = True) -> None:
    """Write ``record`` to ``path`` whole or not at all (a crash never leaves half a file;
    a symlink's target is written). Raises ParlourError (FileError, InvalidInput) naming the
    file and the reason."""
    write_text_atomic(path, json.dumps(record.to_json()) + "\n", overwrite=overwrite)


def write_record(table: Table, path: str, *, overwrite: bool = True) -> None:
    """Write the table's game record to ``path`` (:func:`write_json_record`)."""
    write_json_record(table.record(), path, overwrite=overwrite)


class Saver:
    """Saves one table's game for the terminal loop: ``path`` is the file saved after every
    move (``None``: none), which is dropped after a failed write, said once."""

    def __init__(
        self,
        table: Table,
        console: Console,
        read: Reader,
        path: str | None,
        say: Callable[[str, str], None] | None = None,
    ) -> None:
        self.table = table
        self.console = console
        self.read = read
        self.path = path
        self.say = say  # how the table says a line (kept on screen); None: printed

    def _say(self, message: str, *, style: str = "yellow") -> None:
        if self.say is not None:
            self.say(message, style)
            return
        self.console.print(Text(message, style=style), highlight=False)

    def autosave(self) -> None:
        """Save after a move, when asked for (``--save`` or ``--resume``)."""
        if self.path is None:
            return
        try:
            write_record(self.table, self.path)
        except ParlourError as err:
            self._say(say("save.failed", error=err), style="bold red")
            self.path = None

    def _default(self) -> str:
        """A free file name for this game in the current folder."""
        return free_path(default_save_path(self.table))

    def save(self, given: str | None) -> bool:
        """``save [FILE]``: write the game to ``given`` (a file or a folder; none: where the
        game is saved, or a free name of its own), asking before replacing another file."""
        default = default_save_path(self.table)
        try:
            path = (self.path or self._default()) if given is None else save_target(given, default)
        except ParlourError as err:
            self._say(say("save.not", error=err))
            return False
        if path != self.path and os.path.lexists(path):
            try:
                answer = self.read(say("save.replace", path=path))
            except (EOFError, KeyboardInterrupt):
                answer = "n"
            if not agrees(answer):
                self._say(say("save.kept", path=path))
                return False
        try:
            write_record(self.table, path)
        except ParlourError as err:
            self._say(say("save.not", error=err), style="bold red")
            return False
        self._say(say("save.done", path=path, hint=resume_hint(path)), style="green")
        if self.path is not None:
            self.path = path  # saved after every move: from now on to the new file
        return True

    def offer(self) -> bool:
        """A person leaves saving the game: where it is saved, or asking where (Enter: a name
        of its own). True once saved; False to go back to the game."""
        if self.path is not None:
            self.autosave()
            if self.path is not None:
                hint = resume_hint(self.path)
                self._say(say("save.is_in", path=self.path, hint=hint))
                return True
        default = self._default()
        try:
            given = self.read(say("save.where", default=default)).strip()
        except (EOFError, KeyboardInterrupt):
            self.keep()
            return True
        while not self.save(given or default):
            try:
                given = self.read(say("save.another")).strip()
            except (EOFError, KeyboardInterrupt):
                self.keep()
                return True
            if not given:
                return False
        return True

    def leave_unsaved(self) -> None:
        """A person leaves without saving (a game saved after every move stays saved)."""
        if self.path is not None:
            self._say(say("save.left", path=self.path, hint=resume_hint(self.path)))
            return
        self._say(say("save.left_unsaved"))

    def keep(self, why: Literal["ended", "error"] = "ended") -> None:
        """Input ended mid-game (``why``: ``ended``), or Parlour failed (``error``): keep the
        game, never losing it and never replacing another file (a free name, said)."""
        if self.path is not None:
            where = self.path
            self.autosave()
            if self.path is None:  # the save failed and said so
                return
        elif len(self.table.states) > 1:
            where = self._default()
            try:
                write_record(self.table, where, overwrite=False)
            except ParlourError as err:
                self._say(say(f"keep.{why}.failed", error=err), style="bold red")
                return
        else:
            self.console.print("\n" + say(f"keep.{why}.nothing"), highlight=False)
            return
        saved = say(f"keep.{why}.saved", path=where, hint=resume_hint(where))
        self.console.print("\n" + saved, highlight=False)
