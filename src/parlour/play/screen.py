"""The terminal table's screen: what one seat may see, redrawn whole, with what was said last.

:class:`Screen` draws a seat's view and the last events of its own log (never a state), fitted
to the terminal (:mod:`parlour.play.render`); what is said to people stays on screen under the
table until they act; clearing it also clears the scrollback, so that on a shared keyboard
nobody can scroll up to another person's hand.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rich.console import Console, RenderableType
from rich.text import Text

from parlour.core.game import Action
from parlour.play.render import fitted_screen, last_events, screen
from parlour.play.speech import presenter_of
from parlour.play.table import Table

__all__ = ["Screen"]

_LOG_LINES = 10
_NOTES = 3  # what was said last, kept on screen under the table


class Screen:
    """The screen of one game at ``table``: ``labels`` name the seats; ``notes`` are what was
    said last; ``drawn`` is whose screen is up (``None``: the public table); ``status`` gives
    the line drawn above the table (the time left), or is ``None``."""

    def __init__(self, table: Table, console: Console, labels: Sequence[str]) -> None:
        self.table = table
        self.console = console
        self.presenter = presenter_of(table.game)
        self.labels = list(labels)
        self.notes: list[Text] = []
        self.drawn: int | None = None
        self.status: Callable[[], RenderableType | None] | None = None

    @property
    def fitted(self) -> bool:
        """A terminal: each screen is drawn whole, fitted to its size."""
        return self.console.is_terminal

    def clear(self) -> None:
        if self.console.is_terminal:
            self.console.clear()
            # Also the scrollback, so the next person cannot scroll up to another's hand.
            self.console.file.write("\x1b[3J")
            self.console.file.flush()

    def keep_note(self, text: Text) -> None:
        """Add ``text`` to what was said last (the oldest go), without drawing."""
        self.notes.append(text)
        del self.notes[:-_NOTES]

    def note(self, text: Text) -> None:
        """Say ``text`` under the table: on a terminal it stays on screen (redrawn with the
        table) until the person acts; elsewhere it is printed."""
        if not self.fitted:
            self.console.print(text)
            return
        self.keep_note(text)
        self.draw(self.drawn, keep_notes=True)

    def say(self, message: str, *, style: str = "yellow") -> None:
        self.note(Text(message, style=style))

    def draw(
        self, seat: int | None, *, keep_notes: bool = False, footer: RenderableType | None = None
    ) -> None:
        """The table as ``seat`` (``None``: anyone) sees it, with the last events of its own
        log (core redacts it: a seat sees its own draws, others that a card was drawn)."""
        if not keep_notes:
            self.notes.clear()
        self.drawn = seat
        state = self.table.state
        legal: Sequence[Action] = ()
        if seat is not None and state.to_move == seat:
            legal = state.legal_actions()
        events = last_events(state.tail(seat, _LOG_LINES), _LOG_LINES)
        view = state.view(seat)
        header = None if self.status is None else self.status()
        self.clear()
        notes: list[RenderableType] = [*self.notes, *([footer] if footer is not None else [])]
        if self.fitted:
            below = 1
            if legal:
                width = max(self.console.size.width, 1)
                below = len(self.presenter.prompt(view)) // width + 1
            self.console.print(
                fitted_screen(
                    self.console,
                    self.presenter,
                    view,
                    self.labels,
                    events,
                    legal,
                    notes,
                    below=below,
                    header=header,
                )
            )
            return
        self.console.print(
            screen(
                self.presenter,
                view,
                self.labels,
                events,
                legal,
                width=self.console.width,
                header=header,
            )
        )
        for note in notes:
            self.console.print(note)
