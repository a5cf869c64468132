"""Drawing what a presenter describes (:mod:`parlour.core.present`) with rich.

A game's presenter speaks in neutral blocks (styled text, grids, a heading, the seat's hand);
this module turns them into rich renderables, adding the terminal's own words for a heading
(``3 players``, ``Player 2 to move``) and a hand (``Your hand:``) in the language spoken
(:mod:`parlour.play.speech`).
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from parlour.core.present import Block, Grid, Hand, Heading, Styled, card_text
from parlour.play.speech import say

__all__ = ["block", "blocks", "grid", "hand_line", "heading", "text"]


def text(styled: Styled | str) -> Text:
    """A :class:`Styled` as rich text (its runs, each with its style)."""
    if isinstance(styled, str):
        return Text(styled)
    out = Text(style=styled.style)
    for span in styled.spans:
        out.append(span.text, style=span.style or None)
    return out


def heading(head: Heading, labels: Sequence[str]) -> Text:
    """``NAME · 3 players · move 8 · Player 3 (bot) to move``."""
    out = Text(head.title, style="bold underline")
    out.append(f" · {say('players', count=len(labels))} · {head.detail}")
    if head.to_move is not None:
        out.append(" · ")
        out.append(say("to_move", label=labels[head.to_move]), style="bold green")
    return out


def hand_line(hand: Hand) -> Text:
    """``Your hand: 3♠ 7♣ 9♦``; when marking, the cards with a legal move underlined and
    marked ``*``, the others grey."""
    line = Styled(say("hand") + " ", style="bold")
    for k, card in enumerate(hand.cards):
        line.append(" " if k else "")
        shown = card_text(card)
        if hand.marking and card not in hand.playable:
            shown.stylize("dim")
        elif hand.marking:
            shown.stylize("underline")
            shown.append("*")
        line.append(shown)
    if hand.marking:
        line.append("   " + say("hand_marked"), style="dim")
    return text(line)


def grid(table: Grid) -> Table:
    """A grid as a rich table: boxed with a title, or plain with bold headings."""
    if table.boxed:
        out = Table(
            *table.columns,
            title=table.title,
            title_justify="left" if table.title_left else "center",
            padding=(0, 1),
        )
    else:
        out = Table(
            *table.columns,
            title=table.title,
            show_header=True,
            header_style="bold",
            box=None,
            padding=(0, 2),
        )
    for row in table.rows:
        out.add_row(*(text(cell) for cell in row))
    return out


def block(part: Block, labels: Sequence[str]) -> RenderableType:
    if isinstance(part, Heading):
        return heading(part, labels)
    if isinstance(part, Hand):
        return hand_line(part)
    if isinstance(part, Grid):
        return grid(part)
    return text(part)


def blocks(parts: Sequence[Block], labels: Sequence[str]) -> Group:
    """A presenter's table, one block under the other."""
    return Group(*(block(p, labels) for p in parts))
