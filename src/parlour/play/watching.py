"""Watching, at a pace people set with keys: faster, slower, pause, on to the end.

:func:`watch_lines` shows a bots-only game a game's own way (say, trick by
trick), saved after every trick when asked, so a game stopped half way is never lost;
:class:`TableWatch` shows the moves at the table when no person there has a move to make (all
bots, ``auto``, or out of the game), with a key back to turning by hand.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable

from rich.console import Console
from rich.text import Text

from parlour.core.game import State
from parlour.core.present import WatchLine
from parlour.play.clock import TableClock
from parlour.play.draw import text
from parlour.play.help import watch_keys_text
from parlour.play.keys import Keyboard
from parlour.play.screen import Screen
from parlour.play.speech import say

__all__ = ["PACES", "TableWatch", "faster", "slower", "watch_lines"]

PACES = (0.0, 0.05, 0.15, 0.3, 0.6, 1.0, 1.6, 2.5)
"""Seconds between two moves (or tricks) while watching, from fastest to slowest."""


def faster(delay: float) -> float:
    return max((p for p in PACES if p < delay), default=0.0)


def slower(delay: float) -> float:
    return min((p for p in PACES if p > delay), default=PACES[-1])


def watch_lines(
    console: Console | None,
    keys: Keyboard | None,
    lines: Iterable[WatchLine],
    delay: float,
    saved: Callable[[State], None] = lambda state: None,
) -> tuple[State | None, bool]:
    """Show ``lines``, pausing ``delay`` seconds after each line marked ``pause`` and reading
    the watching keys while it waits; ``saved`` is called with the game after each such line
    (a trick) and at the end. Returns the last state shown and whether the game was watched
    to its end (False: stopped with ``q``)."""
    end: State | None = None
    paused = skip = False
    if console is not None and keys is not None and delay > 0:
        console.print(Text(say("watch.keys"), style="dim"))
    for line in lines:
        end = line.state
        if console is not None and not (skip and not end.is_over):
            console.print(text(line.shown), highlight=False)
        if line.pause or end.is_over:
            saved(end)
        if not line.pause or end.is_over or skip or console is None:
            continue
        if keys is None:
            if delay > 0:
                time.sleep(delay)
            continue
        deadline = time.monotonic() + delay
        while True:  # keys are read at every pace, 0 s a trick included
            key = keys.key(0.5 if paused else max(0.0, deadline - time.monotonic()))
            if key is not None:
                key = key.lower()
                if key in ("f", "+", "="):
                    delay, paused = faster(delay), False
                elif key in ("s", "-"):
                    delay = slower(delay)
                elif key in (" ", "p"):
                    paused = not paused
                    said = say("watch.paused") if paused else say("watch.going_on")
                    console.print(Text(said, style="dim"))
                elif key in ("e", "\n"):
                    skip = True
                    console.print(Text(say("watch.to_end"), style="dim"))
                    break
                elif key == "q":
                    return end, False
                if key in ("f", "+", "=", "s", "-"):
                    console.print(Text(say("watch.trick_delay", delay=f"{delay:g}"), style="dim"))
                deadline = time.monotonic() + (0 if paused else delay)
            if not paused and time.monotonic() >= deadline:
                break
    return end, True


class TableWatch:
    """The moves at a table shown as they are played, at ``delay`` seconds a move, with the
    watching keys when there is a keyboard (``keys``): faster, slower, pause, skip to the end
    (then only the end is drawn), ``t`` back to turning by hand (for people on ``auto``) and
    ``q`` to leave (``leave`` asks, and raises to leave the game). A wait never goes past the
    end of the game's agreed time (``clock``): the table stops play then."""

    def __init__(
        self,
        screen: Screen,
        keys: Keyboard | None,
        delay: float,
        clock: TableClock | None = None,
    ) -> None:
        self.screen = screen
        self.keys = keys
        self.delay = delay
        self.clock = clock
        self.paused = False
        self.skip = False  # play on to the end without drawing each move

    def step(self, auto: set[int], leave: Callable[[], None]) -> None:
        """Show the move just made and wait the watching pace, reading the watching keys."""
        screen = self.screen
        table = screen.table
        if self.skip and not table.state.is_over:
            return
        viewer = table.people[0] if len(table.people) == 1 else None
        screen.draw(viewer, keep_notes=True, footer=self.footer(auto))
        if table.state.is_over:
            return
        if self.keys is None or not screen.console.is_terminal:
            if self.delay > 0:
                time.sleep(self._within(self.delay))
            return
        deadline = time.monotonic() + self.delay
        while True:  # keys are read at every pace, 0 s a move included
            wait = 0.5 if self.paused else max(0.0, deadline - time.monotonic())
            key = self.keys.key(self._within(wait))
            if self.clock is not None and self.clock.running and self.clock.is_up:
                return  # the agreed time ran out: the table stops play
            if key is not None:
                if self._key(key.lower(), auto, leave):
                    return
                screen.draw(viewer, keep_notes=True, footer=self.footer(auto))
                deadline = time.monotonic() + (0 if self.paused else self.delay)
            if not self.paused and time.monotonic() >= deadline:
                return

    def _within(self, wait: float) -> float:
        """``wait`` seconds, or fewer when the agreed time runs out sooner."""
        clock = self.clock
        return wait if clock is None or not clock.running else min(wait, clock.left)

    def footer(self, auto: set[int]) -> Text:
        pace = (
            say("watch.pace_paused") if self.paused else say("watch.pace", delay=f"{self.delay:g}")
        )
        keys = watch_keys_text(bool(auto))
        return Text(say("watch.watching", pace=pace, keys=keys), style="dim")

    def _key(self, key: str, auto: set[int], leave: Callable[[], None]) -> bool:
        """One watching key; True when watching stops waiting (skip to the end, by hand)."""
        if key in ("f", "+", "="):
            self.delay = faster(self.delay)
            self.paused = False
        elif key in ("s", "-"):
            self.delay = slower(self.delay)
        elif key in (" ", "p"):
            self.paused = not self.paused
        elif key in ("e", "\n"):
            self.skip = True
            self.paused = False
            self.screen.say(say("watch.playing_on"), style="dim")
            return True
        elif key == "t" and auto:
            auto.clear()
            self.paused = False
            self.screen.say(say("watch.by_hand_again"), style="green")
            return True
        elif key == "q":
            leave()
        return False
