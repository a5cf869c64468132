"""The table on screen: one picture of what a seat may know, with rich, fitted to the terminal.

A screen is drawn from a :class:`~parlour.core.game.View` by the game's presenter
(:mod:`parlour.core.present`) and from the seat's own log (:meth:`State.tail`, redacted for it
by core), never from a state, so a screen cannot show a hidden card.

On a terminal the screen is fitted to its size (:func:`fitted_screen`), so that nothing a
person needs scrolls away: the table (with the person's hand), the numbered moves, what was
just said and the prompt are always on screen; the recent events take the lines left over, and
on a short terminal the moves' heading goes and the moves are packed tighter (compact form).
Moves are only ever broken between two moves, never inside one's notation
(:func:`wrap_moves`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from rich.cells import cell_len
from rich.console import Console, Group, RenderableType
from rich.segment import Segment, SegmentLines
from rich.text import Text

from parlour.core.game import Action, Event, LogEntry, View
from parlour.core.present import Presenter, numbered_text
from parlour.play.draw import blocks, text
from parlour.play.speech import say, seat_called

__all__ = [
    "fitted_screen",
    "last_events",
    "log_text",
    "screen",
    "screen_height",
    "wrap_moves",
]

_BREAK = re.compile(r" {2,}")  # moves are separated by two spaces; one space never breaks
_INDENT = "    "


def last_events(entries: Sequence[LogEntry], count: int) -> list[Event]:
    """The last ``count`` events of ``entries`` (a seat's log), oldest first."""
    events = [e for entry in entries for e in entry.events]
    return events[-count:] if count else events


def log_text(events: Sequence[Event], presenter: Presenter | None = None) -> Text:
    """Recent events in plain words (``presenter``'s language), one a line, oldest first."""
    if not events:
        return Text(say("log_empty"), style="dim")
    return Text("\n").join(Text("• " + _event(e, presenter)) for e in events)


def _event(event: Event, presenter: Presenter | None) -> str:
    return event.text if presenter is None else presenter.event_text(event, seat_called)


def wrap_moves(moves: Text, width: int) -> Text:
    """``moves`` broken into lines of at most ``width`` cells only where two moves meet (at a
    run of two or more spaces), a continued line indented; a single space or a no-break space
    never breaks, so ``8) >red/black`` stays whole. A move wider than ``width`` has a line of
    its own."""
    out: list[Text] = []
    for line in moves.split("\n"):
        plain = line.plain
        cuts = [0]
        for gap in _BREAK.finditer(plain):
            cuts += [gap.start(), gap.end()]
        cuts.append(len(plain))
        items = [line[cuts[k] : cuts[k + 1]] for k in range(0, len(cuts) - 1, 2)]
        current = Text()
        for item in items:
            if not item.plain:
                continue
            if not current.plain:
                current = item.copy()
            elif cell_len(current.plain) + 2 + cell_len(item.plain) <= width:
                current.append("  ")
                current.append_text(item)
            else:
                out.append(current)
                current = Text(_INDENT)
                current.append_text(item)
        out.append(current)
    joined = Text("\n").join(out)
    joined.no_wrap = True
    joined.overflow = "fold"
    return joined


def screen(
    presenter: Presenter,
    view: View,
    labels: Sequence[str],
    events: Sequence[Event],
    legal: Sequence[Action] = (),
    *,
    width: int = 10_000,
    header: RenderableType | None = None,
) -> RenderableType:
    """The whole table for ``view``, not fitted to a height (a pipe or a file): the table's
    ``header`` (the time left), the game's table with the seat's own hand, the numbered moves
    (when ``legal`` is given: the viewer is to move) and the recent ``events``."""
    parts: list[RenderableType] = [] if header is None else [header]
    parts.append(blocks(presenter.table(view, labels, legal), labels))
    shown = presenter.numbered(legal)
    if shown:
        moves = wrap_moves(text(presenter.moves_text(shown)), width)
        parts += [Text(say("moves_heading"), style="bold"), moves]
    parts += [Text(say("log_heading"), style="bold"), log_text(events, presenter)]
    return Group(*parts)


def screen_height(console: Console, renderable: RenderableType, width: int) -> int:
    """How many lines ``renderable`` takes at ``width`` columns."""
    return len(_lines(console, renderable, width))


def _lines(console: Console, renderable: RenderableType, width: int) -> list[list[Segment]]:
    """``renderable`` rendered at ``width`` columns, line by line, unpadded."""
    options = console.options.update(width=width, height=None)
    return console.render_lines(renderable, options, pad=False, new_lines=False)


def fitted_screen(
    console: Console,
    presenter: Presenter,
    view: View,
    labels: Sequence[str],
    events: Sequence[Event],
    legal: Sequence[Action],
    notes: Sequence[RenderableType],
    *,
    below: int,
    header: RenderableType | None = None,
) -> RenderableType:
    """The screen for ``view`` fitted to the console's size with ``below`` lines kept free
    under it (the prompt): the ``header`` (the time left), the table, the moves and the
    ``notes`` (what was just said) always;
    the moves' heading and the newest ``events`` as far as they fit. When the moves do not fit
    as the game lays them out, they are packed one after another (compact form)."""
    width, height = console.size
    # Rendered once: its height is measured on the lines that are then drawn as they are.
    drawn = _lines(console, blocks(presenter.table(view, labels, legal), labels), width)
    table = SegmentLines(drawn, new_lines=True)
    used = len(drawn) + below
    for note in [*notes, *([] if header is None else [header])]:
        used += screen_height(console, note, width)
    shown = presenter.numbered(legal)
    parts: list[RenderableType] = [table] if header is None else [header, table]
    if shown:
        moves = wrap_moves(text(presenter.moves_text(shown)), width)
        lines = len(moves.plain.split("\n"))
        if used + lines > height:  # compact: one move after another
            packed = wrap_moves(text(numbered_text(shown, presenter.pretty_action)), width)
            if len(packed.plain.split("\n")) < lines:
                moves, lines = packed, len(packed.plain.split("\n"))
        used += lines
        if used + 1 <= height:
            parts.append(Text(say("moves_heading"), style="bold"))
            used += 1
        parts.append(moves)
    room = height - used - 1  # the heading "Recent events:"
    if room > 0 and events:
        kept: list[Event] = []
        for event in reversed(events):
            need = screen_height(console, Text("• " + _event(event, presenter)), width)
            if need > room:
                break
            kept.insert(0, event)
            room -= need
        if kept:
            parts += [Text(say("log_heading"), style="bold"), log_text(kept, presenter)]
    parts += notes
    return Group(*parts)
