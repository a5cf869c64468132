"""Watching a bots-only game shown a game's own way (Beggar-My-Neighbour: trick by trick), at a
pace people set with keys: faster, slower, pause, on to the end; the game is saved after every
trick when asked, so a game stopped half way is never lost.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable

from rich.console import Console
from rich.text import Text

from parlour.core.game import State
from parlour.core.present import WatchLine
from parlour.play.keys import Keyboard

__all__ = ["PACES", "WATCH_KEYS", "faster", "slower", "watch_lines"]

PACES = (0.0, 0.05, 0.15, 0.3, 0.6, 1.0, 1.6, 2.5)
"""Seconds between two moves (or tricks) while watching, from fastest to slowest."""

WATCH_KEYS = "Keys: f faster · s slower · space pause · e to the end · q stop watching"


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
        console.print(Text(WATCH_KEYS, style="dim"))
    for line in lines:
        end = line.state
        if console is not None and not (skip and not end.is_over):
            console.print(line.shown, highlight=False)
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
                    said = "Paused: space goes on." if paused else "Going on."
                    console.print(Text(said, style="dim"))
                elif key in ("e", "\n"):
                    skip = True
                    console.print(Text("On to the end of the game...", style="dim"))
                    break
                elif key == "q":
                    return end, False
                if key in ("f", "+", "=", "s", "-"):
                    console.print(Text(f"{delay:g} s a trick.", style="dim"))
                deadline = time.monotonic() + (0 if paused else delay)
            if not paused and time.monotonic() >= deadline:
                break
    return end, True
