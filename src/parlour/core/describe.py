"""The neutral description of a table: what a presenter (:mod:`parlour.core.present`) says a
table is, free of any drawing library; a front end draws it its own way (the terminal:
:mod:`parlour.play.draw`).

:class:`Styled` is text in runs, each with a style named as a word list (``"bold red"``,
``"dim"``); :class:`Grid` a table of labelled columns; :class:`Heading` the line over a table and
:class:`Hand` the seat's own hand, whose words (``Your hand:``, ``3 players``) are the front
end's own.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Self

from parlour.cards import Card
from parlour.core.state import Action

__all__ = [
    "Block",
    "Grid",
    "Hand",
    "Heading",
    "Span",
    "Styled",
    "card_text",
    "cards_text",
    "numbered_text",
]


# -- the neutral description ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Span:
    """A run of text in one style (style words as a front end reads them, ``""``: plain)."""

    text: str
    style: str = ""


class Styled:
    """Text made of styled runs, with a ``style`` under all of them (as a whole line in bold
    with a red card in it). Built by appending; :meth:`stylize` styles what is there so far."""

    __slots__ = ("spans", "style")

    def __init__(self, text: str = "", style: str = "") -> None:
        self.style = style
        self.spans: list[Span] = [Span(text)] if text else []

    @property
    def plain(self) -> str:
        return "".join(s.text for s in self.spans)

    def append(self, text: str | Styled, style: str = "") -> Self:
        """Add ``text`` after what is there (a :class:`Styled` keeps its own styles)."""
        if isinstance(text, Styled):
            for span in text.spans:
                self.spans.append(Span(span.text, _joined(style, text.style, span.style)))
        elif text:
            self.spans.append(Span(text, style))
        return self

    def stylize(self, style: str) -> Self:
        """Add ``style`` to the text so far (not to what is appended later)."""
        self.spans = [Span(s.text, _joined(s.style, style)) for s in self.spans]
        return self

    def join(self, items: Iterable[Styled | str]) -> Styled:
        """``items`` with this text between them, as ``str.join``."""
        out = Styled()
        for k, item in enumerate(items):
            if k:
                out.append(self)
            out.append(item)
        return out

    @classmethod
    def assemble(cls, *parts: Styled | str) -> Styled:
        out = cls()
        for part in parts:
            out.append(part)
        return out


def _joined(*styles: str) -> str:
    return " ".join(s for s in styles if s)


@dataclass(slots=True)
class Grid:
    """A table: ``columns`` (their headings), rows of cells, a ``title``; ``boxed`` draws lines
    around and between the cells (a result), else it is a plain grid with bold headings.
    ``title_left`` puts the title over the left edge instead of the middle."""

    columns: tuple[str, ...]
    rows: list[tuple[Styled | str, ...]] = field(default_factory=list)
    title: str | None = None
    boxed: bool = False
    title_left: bool = False

    def add_row(self, *cells: Styled | str) -> None:
        self.rows.append(cells)


@dataclass(frozen=True, slots=True)
class Heading:
    """The line over a table: the game's ``title``, the players, a ``detail`` of the game's
    own (``move 8``) and who is to move (the front end names the seats and the players)."""

    title: str
    detail: str
    to_move: int | None


@dataclass(frozen=True, slots=True)
class Hand:
    """The seat's own hand; when ``marking``, the cards with a legal move (``playable``) are
    marked and the others greyed."""

    cards: tuple[Card, ...]
    playable: frozenset[Card] = frozenset()
    marking: bool = False


Block = Styled | Grid | Heading | Hand
"""One part of a table as a presenter describes it, drawn one under the other."""


def card_text(card: Card | str) -> Styled:
    """A card as people read it: ``10♥`` in red, ``K♠`` in bold, a Joker in magenta; a rank
    class (``K``, ``-``) or other token as it is."""
    if isinstance(card, str):
        return Styled(card, style="bold")
    if card.is_joker:
        return Styled(card.pretty(), style="magenta")
    red = card.suit is not None and card.suit.is_red
    return Styled(card.pretty(), style="bold red" if red else "bold")


def cards_text(cards: Sequence[Card], *, empty: str) -> Styled:
    """Cards side by side (``empty`` in grey when there are none)."""
    if not cards:
        return Styled(empty, style="dim")
    return Styled(" ").join(card_text(c) for c in cards)


def numbered_text(actions: Sequence[Action], pretty: Callable[[Action], Styled]) -> Styled:
    """Moves numbered on one line: ``1) 7♣  2) 9♣  3) pass``. No-break spaces keep a number
    with its move when the line wraps."""
    out = Styled()
    for number, action in enumerate(actions, 1):
        out.append("  " if number > 1 else "")
        out.append(f"{number})\u00a0", style="dim")
        out.append(pretty(action))
    return out
