"""The table on screen: one picture of a seat's view, with rich.

Every function here draws from a :class:`~parlour.core.game.View` (what one seat may know) and
the events that seat may see, never from a state, so a screen cannot show a hidden card. The
game-specific parts are :func:`beor_table`, :func:`death_table` and :func:`beggar_table`.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from parlour.cards import Card
from parlour.core.game import Action, Event, View, seat_name
from parlour.games.beggar.notation import format_token
from parlour.games.beggar.rules import BeggarView
from parlour.games.beor.notation import BASES, Move
from parlour.games.beor.view import BeorView
from parlour.games.death.notation import Give, Throw
from parlour.games.death.view import DeathView

__all__ = ["card_text", "log_text", "moves_text", "numbered_moves", "pretty_action", "screen"]

_THEME_STYLE = {"black": "bold", "even": "cyan", "odd": "yellow", "red": "red"}


def card_text(card: Card | str) -> Text:
    """A card as people read it: ``10♥`` in red, ``K♠`` in bold, a Joker in magenta."""
    if isinstance(card, str):
        return Text(card, style="bold")
    if card.is_joker:
        return Text(card.pretty(), style="magenta")
    red = card.suit is not None and card.suit.is_red
    return Text(card.pretty(), style="bold red" if red else "bold")


def cards_text(cards: Sequence[Card], *, empty: str = "none") -> Text:
    if not cards:
        return Text(empty, style="dim")
    return Text(" ").join(card_text(c) for c in cards)


def pretty_action(action: Action) -> Text:
    """An action as a person reads it (cards with suit symbols), typed as its notation."""
    if isinstance(action, Move):
        text = card_text(action.card)
        text.append(f">{BASES[action.base]}")
        if action.stock is not None:
            text.append(f"/{BASES[action.stock]}")
        return text
    if isinstance(action, Throw):
        return card_text(action.card)
    return Text(str(action))


def moves_text(actions: Sequence[Action]) -> Text:
    """The legal moves, numbered: ``1) 7♣  2) 9♣  3) pass``; BEOR's a line per card:
    ``7♣:  1) >odd  2) >odd/black ...``."""
    out = Text()
    card: Card | None = None
    for number, action in enumerate(actions, 1):
        if isinstance(action, Move):
            if action.card is not card:
                card = action.card
                out.append("\n" if number > 1 else "")
                out.append_text(card_text(card))
                out.append(":")
            # No-break spaces keep a number with its move when the line wraps.
            out.append(f"  {number})\u00a0", style="dim")
            out.append(f">{BASES[action.base]}")
            if action.stock is not None:
                out.append(f"/{BASES[action.stock]}")
            continue
        out.append("  " if number > 1 else "")
        out.append(f"{number})\u00a0", style="dim")
        out.append_text(pretty_action(action))
    return out


def numbered_moves(legal: Sequence[Action]) -> list[Action]:
    """The moves a person picks by number: every legal action but a give, which has a prompt
    of its own (G5)."""
    return [a for a in legal if not isinstance(a, Give)]


def log_text(events: Sequence[Event]) -> Text:
    """Recent events in plain words, one a line, oldest first."""
    if not events:
        return Text("(nothing has happened yet)", style="dim")
    return Text("\n").join(Text("• " + e.text) for e in events)


def _header(title: str, view: View, detail: str, labels: Sequence[str]) -> Text:
    """``BEOR · 3 players · move 8 · Player 3 (ismcts) to move``."""
    to_move = getattr(view, "to_move", None)
    head = Text(title, style="bold underline")
    head.append(f" · {len(labels)} players · {detail}")
    if to_move is not None:
        head.append(" · ")
        head.append(f"{labels[to_move]} to move", style="bold green")
    return head


def screen(
    view: View,
    labels: Sequence[str],
    events: Sequence[Event],
    legal: Sequence[Action] = (),
) -> RenderableType:
    """The whole table for ``view``: header, table, own hand with the legal moves marked, the
    numbered moves (when ``legal`` is given: the viewer is to move) and the recent events."""
    if isinstance(view, BeorView):
        body = beor_table(view, labels, legal)
    elif isinstance(view, DeathView):
        body = death_table(view, labels, legal)
    elif isinstance(view, BeggarView):
        body = beggar_table(view, labels)
    else:  # pragma: no cover - every registered game has a table above
        raise TypeError(f"no table for {type(view).__name__}")
    parts: list[RenderableType] = [body]
    shown = numbered_moves(legal)
    if shown and not isinstance(view, BeggarView):
        parts += [
            Text("Your moves (type the number or the notation):", style="bold"),
            moves_text(shown),
        ]
    parts += [Text("Recent events:", style="bold"), log_text(events)]
    return Group(*parts)


# -- BEOR -------------------------------------------------------------------------------------


def beor_table(view: BeorView, labels: Sequence[str], legal: Sequence[Action]) -> RenderableType:
    """Bases (top cards and size), stocks (size, face, known cards), hands, scrap, own hand."""
    # Every player's turn counts (B10's max_turns counts them so): "move" says it plainly.
    move = view.turn + 1 if view.to_move is not None else view.turn
    head = _header("BEOR", view, f"move {move}", labels)
    table = Table(show_header=True, header_style="bold", box=None, padding=(0, 2))
    table.add_column("base")
    table.add_column("pile (top last)")
    table.add_column("stock")
    for name, top_first, stock in zip(BASES, view.bases, view.stocks, strict=True):
        base = top_first[::-1]  # shown bottom to top, the top card last
        pile = Text()
        if len(base) > 5:
            pile.append(f"{len(base) - 5} below, ", style="dim")
        pile.append_text(cards_text(base[-5:], empty="empty"))
        if stock.size == 0:
            stock_text = Text("empty: no card may go here (B4)", style="dim")
        else:
            stock_text = Text(f"{stock.size} card{'s' if stock.size != 1 else ''} ")
            if stock.face_up and stock.top is not None:
                stock_text.append("face up, top ")
                stock_text.append_text(card_text(stock.top))
            else:
                stock_text.append("face down", style="dim")
            hidden = [c for k, c in stock.known if not (stock.face_up and k == stock.size - 1)]
            if hidden:
                stock_text.append("; known below: ", style="dim")
                stock_text.append_text(cards_text(hidden))
        table.add_row(Text(name.capitalize(), style=_THEME_STYLE[name]), pile, stock_text)
    seats = Text()
    for seat, label in enumerate(labels):
        seats.append("\n" if seat else "")
        seats.append(f"{label}: ", style="bold" if seat == view.to_move else "")
        if seat in view.out:
            seats.append("out (B8)", style="red")
            continue
        seats.append(f"{view.hand_sizes[seat]} cards")
        known = view.known_in_hands[seat]
        if known and seat != view.seat:
            seats.append("; known to hold ")
            seats.append_text(cards_text(known))
    parts: list[RenderableType] = [head, table, seats]
    if view.players > 2:  # B8: only with more than 2 players does a loser's hand go to scrap
        scrap = Text(f"Scrap pile: {view.scrap_size} cards", style="dim")
        if view.known_scrap:
            scrap.append(" (known: ")
            scrap.append_text(cards_text(view.known_scrap))
            scrap.append(")")
        parts.append(scrap)
    if view.hand is not None:
        playable = {a.card for a in legal if isinstance(a, Move)}
        parts.append(_hand_line(view.hand, playable, bool(legal)))
    return Group(*parts)


def _hand_line(hand: Sequence[Card], playable: set[Card], marking: bool) -> Text:
    """``Your hand: 3♠ 7♣ 9♦`` with the cards that have a legal move bold and marked ``*``."""
    line = Text("Your hand: ", style="bold")
    for k, card in enumerate(hand):
        line.append(" " if k else "")
        text = card_text(card)
        if marking and card not in playable:
            text.stylize("dim")
        elif marking:
            text.stylize("underline")
            text.append("*")
        line.append_text(text)
    if marking:
        line.append("   (* can be played now)", style="dim")
    return line


# -- Becker's Game of Death ---------------------------------------------------------------------


def death_table(view: DeathView, labels: Sequence[str], legal: Sequence[Action]) -> RenderableType:
    """The pile with who threw each card, the drinks table, voids shown by passes, own hand."""
    swept = len(view.swept)
    detail = "opening" if not view.started else f"{swept} card{'s' if swept != 1 else ''} swept"
    head = _header("Becker's Game of Death", view, detail, labels)
    pile = Text("Pile (top last): ", style="bold")
    if not view.pile:
        pile.append(
            "empty: "
            + (
                "the holder of the two of diamonds opens (G1)" if not view.started else "a new lead"
            ),
            "dim",
        )
    for k, (card, seat) in enumerate(zip(view.pile, view.pile_seats, strict=True)):
        pile.append("  " if k else "")
        pile.append_text(card_text(card))
        pile.append(f"\u00a0(P{seat + 1})", style="dim")
    unit = "drinks"
    table = Table(show_header=True, header_style="bold", box=None, padding=(0, 2))
    for column in ("player", "cards", f"{unit} taken", "given", "note"):
        table.add_column(column)
    sober = set(view.options.sober)
    for seat, label in enumerate(labels):
        notes = []
        if seat in sober:
            notes.append("sober: points (G14)")
        if seat in view.passed:
            notes.append("passed")
        if view.first_out == seat:
            notes.append("first out (G10)")
        if view.pending_give is not None and view.pending_give[0] == seat:
            notes.append(f"giving {view.pending_give[1]} (G5)")
        table.add_row(
            Text(label, style="bold green" if seat == view.to_move else ""),
            str(view.hand_sizes[seat]),
            str(view.drinks_taken[seat]),
            str(view.drinks_given[seat]),
            ", ".join(notes),
        )
    parts: list[RenderableType] = [head, pile, table]
    if view.hand is not None:
        playable = {a.card for a in legal if isinstance(a, Throw)}
        marking = bool(legal) and view.pending_give is None
        parts.append(_hand_line(view.hand, playable, marking))
    return Group(*parts)


# -- Beggar-My-Neighbour ----------------------------------------------------------------------


def beggar_table(view: BeggarView, labels: Sequence[str]) -> RenderableType:
    """Hand sizes, the pile (top last), the payment in progress and the M8 counts."""
    head = _header("Beggar-My-Neighbour", view, f"{view.cards} cards, {view.tricks} tricks", labels)
    pile = Text("Pile (top last): ", style="bold")
    if not view.pile:
        pile.append("empty", style="dim")
    shown = view.pile[-12:]
    if len(view.pile) > len(shown):
        pile.append(f"{len(view.pile) - len(shown)} more ", style="dim")
    for k, token in enumerate(shown):
        pile.append(" " if k else "")
        pile.append_text(card_text(token) if isinstance(token, Card) else Text(format_token(token)))
    hands = Text()
    for seat, label in enumerate(labels):
        hands.append("\n" if seat else "")
        hands.append(f"{label}: ")
        if seat in view.out:
            hands.append("out (M3)", style="red")
        else:
            hands.append(f"{view.hand_sizes[seat]} cards")
    parts: list[RenderableType] = [head, pile, hands]
    if view.owed and view.to_move is not None and view.court_player is not None:
        parts.append(
            Text(
                f"{seat_name(view.to_move)} must pay {view.owed} more card"
                f"{'s' if view.owed > 1 else ''} to {seat_name(view.court_player)} (M1)",
                style="yellow",
            )
        )
    return Group(*parts)
