"""The agreed time at a terminal table: a game's clock (``Game.time_limit``) kept by the table.

A game may be played against a time agreed beforehand (a game's ``time_limit`` option). The rules
never read a clock; the table keeps one (:class:`TableClock`): it starts with the first move
and runs while the game is played, it is not running while the game is saved and nobody plays
it (a save keeps the time used so far, ``time_used`` in the record), and when it runs out the
table makes the game's entry ``Game.time_up_entry`` and play stops at once, even while the table
waits for a person to type (:func:`alarm_reader`) or turns cards by itself.

The time source is injectable (:data:`Clock`, ``time.monotonic`` by default), so tests drive
the clock by hand and never wait.
"""

from __future__ import annotations

import math
import signal
import threading
import time
from collections.abc import Callable, Mapping
from types import FrameType
from typing import Protocol

from parlour.core.game import Game

__all__ = [
    "Clock",
    "TableClock",
    "TimeUp",
    "TimedReader",
    "alarm_reader",
    "clock_of",
    "clock_text",
]

Clock = Callable[[], float]
"""The time source: ``now()`` in seconds, only ever compared with itself (a monotonic clock)."""


class TimeUp(Exception):
    """The agreed time ran out while the table waited for a person."""


class TimedReader(Protocol):
    """Reads a line after ``prompt`` within ``timeout`` seconds; raises :class:`TimeUp` when
    the time passes first (EOFError and KeyboardInterrupt as ``input`` raises them)."""

    def __call__(self, prompt: str, timeout: float) -> str: ...


class TableClock:
    """The agreed time of one game: ``limit`` seconds, ``used`` of them before this sitting
    (a resumed game's), read from ``now``. It runs between :meth:`start` and :meth:`stop`."""

    def __init__(self, limit: float, used: float = 0.0, now: Clock = time.monotonic) -> None:
        self.limit = limit
        self.now = now
        self._used = max(0.0, used)
        self._since: float | None = None

    @property
    def running(self) -> bool:
        return self._since is not None

    def start(self) -> None:
        """Run from now on (nothing happens when it runs already)."""
        if self._since is None:
            self._since = self.now()

    def stop(self) -> None:
        """Stop running, keeping the time used so far."""
        if self._since is not None:
            self._used += max(0.0, self.now() - self._since)
            self._since = None

    @property
    def used(self) -> float:
        """Seconds used so far, this sitting's running time included."""
        running = 0.0 if self._since is None else max(0.0, self.now() - self._since)
        return self._used + running

    @property
    def left(self) -> float:
        """Seconds left, never below 0."""
        return max(0.0, self.limit - self.used)

    @property
    def is_up(self) -> bool:
        return self.left <= 0.0


def clock_of(
    game: Game, options: Mapping[str, object], used: float = 0.0, now: Clock | None = None
) -> TableClock | None:
    """The clock of a table playing ``game`` with ``options``, ``used`` seconds of it gone,
    or ``None`` when the game has no agreed time there (or no entry to end it with)."""
    limit = game.time_limit(options)
    if limit is None or game.time_up_entry is None:
        return None
    return TableClock(limit, used, time.monotonic if now is None else now)


def clock_text(seconds: float) -> str:
    """``9:05`` (minutes and seconds) or ``1:02:03`` from an hour, counting a second begun as
    a whole one, so that ``0:00`` shows only once the time is up."""
    whole = math.ceil(max(0.0, seconds))
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def alarm_reader(read: Callable[[str], str]) -> TimedReader:
    """``read`` (``input``: a person's line, with readline's editing) made to give up after a
    timeout: a real-time alarm (SIGALRM) raises :class:`TimeUp` inside it, as Ctrl-C raises
    KeyboardInterrupt, so a table waiting for a person stops at the deadline. Where no alarm
    can be set (a thread other than the main one, a system without ``setitimer``) the line is
    read without one and the clock is looked at after it."""

    def timed(prompt: str, timeout: float) -> str:
        if (
            threading.current_thread() is not threading.main_thread()
            or not hasattr(signal, "setitimer")
            or timeout <= 0
        ):
            return read(prompt)
        waiting = True

        def ring(signum: int, frame: FrameType | None) -> None:
            if waiting:  # after the line was read the clock is looked at anyway
                raise TimeUp

        before = signal.signal(signal.SIGALRM, ring)
        signal.setitimer(signal.ITIMER_REAL, timeout)
        try:
            return read(prompt)
        finally:
            waiting = False
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, before)

    return timed
