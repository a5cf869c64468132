"""The table on screen: one picture of what a seat may know, with rich.

A screen is drawn from a :class:`~parlour.core.game.View` by the game's presenter
(:mod:`parlour.core.present`) and from the seat's own log (:meth:`State.tail`, redacted for it
by core), never from a state, so a screen cannot show a hidden card.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Group, RenderableType
from rich.text import Text

from parlour.core.game import Action, Event, LogEntry, View
from parlour.core.present import Presenter

__all__ = ["last_events", "log_text", "screen"]


def last_events(entries: Sequence[LogEntry], count: int) -> list[Event]:
    """The last ``count`` events of ``entries`` (a seat's log), oldest first."""
    events = [e for entry in entries for e in entry.events]
    return events[-count:] if count else events


def log_text(events: Sequence[Event]) -> Text:
    """Recent events in plain words, one a line, oldest first."""
    if not events:
        return Text("(nothing has happened yet)", style="dim")
    return Text("\n").join(Text("• " + e.text) for e in events)


def screen(
    presenter: Presenter,
    view: View,
    labels: Sequence[str],
    events: Sequence[Event],
    legal: Sequence[Action] = (),
) -> RenderableType:
    """The whole table for ``view``: the game's table with the seat's own hand, the numbered
    moves (when ``legal`` is given: the viewer is to move) and the recent ``events``."""
    parts: list[RenderableType] = [presenter.table(view, labels, legal)]
    shown = presenter.numbered(legal)
    if shown:
        parts += [
            Text("Your moves (type the number or the notation):", style="bold"),
            presenter.moves_text(shown),
        ]
    parts += [Text("Recent events:", style="bold"), log_text(events)]
    return Group(*parts)
