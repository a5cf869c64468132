"""The keyboard of a real table: keys typed ahead are thrown away, and single keys are read
while people watch.

At a shared keyboard a key typed too early must never answer a later question: Enter pressed
twice after a move would otherwise use up the hand-over screen and show the next person's
hand to the one still at the keyboard, and a stray Enter typed while the bots move would answer
"Play another game?". :meth:`Keyboard.discard` throws away everything typed so far (termios
``tcflush`` of the input queue), before a hand-over and before each question asked after the
bots moved. :meth:`Keyboard.key` reads one key, waiting at most a given time (watching keys:
faster, slower, pause ...) without waiting for Enter.

Only a terminal has such a keyboard (:func:`keyboard_of`); piped input is read line by line as
it comes, nothing thrown away.
"""

from __future__ import annotations

import contextlib
import os
import select
import sys
import termios
import tty
from typing import IO

__all__ = ["Keyboard", "keyboard_of"]


class Keyboard:
    """The terminal behind file descriptor ``fd``."""

    def __init__(self, fd: int) -> None:
        self.fd = fd

    def discard(self) -> None:
        """Throw away every key typed and not yet read."""
        with contextlib.suppress(termios.error, OSError):  # the terminal went away
            termios.tcflush(self.fd, termios.TCIFLUSH)

    def key(self, timeout: float) -> str | None:
        """One key pressed within ``timeout`` seconds (Enter is ``"\\n"``), or ``None``. The
        terminal is in cbreak mode only while waiting, so a key is read without Enter and is
        not echoed."""
        try:
            saved = termios.tcgetattr(self.fd)
        except termios.error:  # pragma: no cover - not a terminal after all
            return None
        try:
            tty.setcbreak(self.fd, termios.TCSANOW)
            ready, _, _ = select.select([self.fd], [], [], max(timeout, 0.0))
            if not ready:
                return None
            data = os.read(self.fd, 32)
        finally:
            termios.tcsetattr(self.fd, termios.TCSANOW, saved)
        if not data:
            raise EOFError
        text = data.decode("utf-8", "replace")
        if "\x03" in text:
            raise KeyboardInterrupt
        if "\x04" in text:
            raise EOFError
        return "\n" if text[0] == "\r" else text[0]


def keyboard_of(stream: IO[str] | None = None) -> Keyboard | None:
    """The keyboard behind ``stream`` (standard input by default), or ``None`` when it is not
    a terminal."""
    stream = sys.stdin if stream is None else stream
    try:
        fd = stream.fileno()
    except (AttributeError, OSError, ValueError):
        return None
    return Keyboard(fd) if os.isatty(fd) else None
