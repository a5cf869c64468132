"""How front ends show BEOR: the table from a seat's view, the moves grouped by card, the result
in words and the rules in short."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from parlour.cards import Card, parse_card
from parlour.core.game import Action, Event, Outcome, View
from parlour.core.present import (
    Block,
    Grid,
    Hand,
    Heading,
    Presenter,
    Styled,
    card_text,
    cards_text,
)
from parlour.core.words import catalog
from parlour.games.beor.notation import BASES, Move
from parlour.games.beor.view import BeorView

__all__ = ["PRESENTER", "BeorPresenter"]

_THEME_STYLE = {"black": "bold", "even": "cyan", "odd": "yellow", "red": "red"}

RULES = "\n".join(
    (
        "BEOR (Black, Even, Odd, Red): build your hand of 6 cards into two groups of three.",
        "• Goal (B5): two groups of three, each a run (three ranks in a row of one suit, A low, "
        "A to Q, no King or Joker) or a set (three of one rank; K K K counts). You win the "
        "moment your hand does.",
        "• Your turn: play a card from your hand onto a base of its theme, then draw from that "
        "base's stock.",
        "• Themes (B4): Black takes spades and clubs, Red hearts and diamonds; Even and Odd go "
        "by value (A=1, J=11, Q=12). A King fits its colour, Even and Odd; a Joker fits every "
        "base. A base whose stock is empty takes no card.",
        "• 3 or 8 (B6): the base's stock is turned over (face down to face up or back, its "
        "order reversed) before you draw. Everyone sees the top of a face-up stock.",
        "• 4 or 7 (B7): you may draw from any stock that has cards instead of the base's own.",
        "• Losing (B8): a player who cannot play loses; with 3 or more players his cards go to "
        "the scrap pile and the last player left wins. When the last stock runs out the bases "
        "are restocked (B9).",
        "Notation: CARD>BASE, or CARD>BASE/STOCK to draw elsewhere after a 4 or 7, e.g. 7c>odd "
        "or 4s>even/black. Bases may be shortened to b e o r; cards are written 7C, 10H (or "
        "TH), QS, JK1 for a Joker, in any case, or with suit symbols (7♥).",
    )
)


def _pretty(card: str) -> str:
    """``10♥`` for ``10H``."""
    return parse_card(card).pretty()


def _target(move: Move) -> str:
    """``>odd`` or ``>odd/black``."""
    text = f">{BASES[move.base]}"
    if move.stock is not None:
        text += f"/{BASES[move.stock]}"
    return text


class BeorPresenter(Presenter):
    """BEOR at a table: four bases with their stocks, hands by size, the scrap pile."""

    rules = RULES
    words = catalog("parlour.games.beor.words")

    def table(self, view: View, labels: Sequence[str], legal: Sequence[Action]) -> list[Block]:
        """Bases (top card last, and size), stocks (size, face, known cards), every seat's
        hand size and publicly known cards, the scrap pile, and the seat's own hand."""
        assert isinstance(view, BeorView)
        # Every player's turn counts (B10's max_turns counts them so): "move" says it plainly.
        move = view.turn + 1 if view.to_move is not None else view.turn
        w = self.words
        head = Heading(w("game.title"), w("ui.t.move", number=move), view.to_move)
        table = Grid(tuple(w(f"ui.t.col.{c}") for c in ("base", "pile", "stock")))
        for name, top_first, stock in zip(BASES, view.bases, view.stocks, strict=True):
            base = top_first[::-1]  # shown bottom to top, the top card last
            pile = Styled()
            if len(base) > 5:
                pile.append(w("ui.t.below", len(base) - 5), style="dim")
            pile.append(cards_text(base[-5:], empty=w("ui.t.empty")))
            if stock.size == 0:
                stock_text = Styled(w("ui.t.stock_empty"), style="dim")
            else:
                stock_text = Styled(w("ui.count.cards", stock.size) + " ")
                if stock.face_up and stock.top is not None:
                    stock_text.append(w("ui.t.face_up") + " ")
                    stock_text.append(card_text(stock.top))
                else:
                    stock_text.append(w("ui.t.face_down"), style="dim")
                hidden = [c for k, c in stock.known if not (stock.face_up and k == stock.size - 1)]
                if hidden:
                    stock_text.append(w("ui.t.known_below") + " ", style="dim")
                    stock_text.append(cards_text(hidden, empty=w("ui.t.none")))
            shown_name = Styled(w(f"ui.base.{name}"), style=_THEME_STYLE[name])
            table.add_row(shown_name, pile, stock_text)
        parts: list[Block] = [head, table, self._seats(view, labels)]
        if view.players > 2:  # B8: only with more than 2 players does a loser's hand go to scrap
            scrap_size = w("ui.count.cards", view.scrap_size)
            scrap = Styled(w("ui.t.scrap", cards=scrap_size), style="dim")
            if view.known_scrap:
                scrap.append(f" ({w('ui.t.known')} ")
                scrap.append(cards_text(view.known_scrap, empty=w("ui.t.none")))
                scrap.append(")")
            parts.append(scrap)
        if view.hand is not None and not view.hand and view.seat in view.out:
            # B8: the loser's hand went to the scrap pile; an empty "Your hand:" says nothing.
            parts.append(Styled(w("ui.t.you_are_out"), style="bold red"))
        elif view.hand is not None:
            playable = frozenset(a.card for a in legal if isinstance(a, Move))
            parts.append(Hand(tuple(view.hand), playable, bool(legal)))
        return parts

    def _seats(self, view: BeorView, labels: Sequence[str]) -> Styled:
        w = self.words
        seats = Styled()
        for seat, label in enumerate(labels):
            seats.append("\n" if seat else "")
            seats.append(f"{label}: ", style="bold" if seat == view.to_move else "")
            if seat in view.out:
                seats.append(w("ui.t.seat_out"), style="red")
                continue
            seats.append(w("ui.count.cards", view.hand_sizes[seat]))
            known = view.known_in_hands[seat]
            if known and seat != view.seat:
                seats.append(w("ui.t.known_to_hold") + " ")
                seats.append(cards_text(known, empty=w("ui.t.none")))
        return seats

    def result_text(self, outcome: Outcome, labels: Sequence[str], moves: int) -> str:
        """``Player 2 (ismcts) wins after 41 moves``, or a draw at the turn limit (B10)."""
        turns = outcome.details.get("turns", moves)
        count = turns if isinstance(turns, int) else moves
        if not outcome.winners:
            return self.words("ui.result.draw", count)
        names = self.names([labels[s] for s in outcome.winners])
        return self.words("ui.result.win", count, names=names)

    def pretty_action(self, action: Action) -> Styled:
        if not isinstance(action, Move):
            return Styled(str(action))
        text = card_text(action.card)
        text.append(_target(action))
        return text

    def moves_text(self, actions: Sequence[Action]) -> Styled:
        """A line per card: ``7♣:  1) >odd  2) >odd/black ...``."""
        out = Styled()
        card: Card | None = None
        for number, action in enumerate(actions, 1):
            assert isinstance(action, Move)
            if action.card is not card:
                card = action.card
                out.append("\n" if number > 1 else "")
                out.append(card_text(card))
                out.append(":")
            # No-break spaces keep a number with its move when the line wraps.
            out.append(f"  {number})\u00a0", style="dim")
            out.append(_target(action))
        return out

    def event_words(self, event: Event, name: Callable[[int], str]) -> tuple[str, dict[str, Any]]:
        """The bases by their names in the catalog; a draw seen or not, a stock turned up or
        down, a win by groups or as the last player left (as the browser's board says them)."""
        key, values = super().event_words(event, name)
        data = event.data
        for field in ("base", "stock"):
            if isinstance(data.get(field), str):
                values[field] = self.words(f"ui.base.{data[field]}")
        if event.kind == "drew":
            key = "event.drew" if data.get("card") else "event.drew.unseen"
        elif event.kind == "flipped":
            key = "event.flipped.up" if data.get("face_up") else "event.flipped.down"
        elif event.kind == "restocked":
            kept = data.get("kept")
            values["kept"] = (
                " ".join(_pretty(str(c)) for c in kept) if isinstance(kept, list) else ""
            )
            values["count"] = data.get("cards")
        elif event.kind == "won":
            groups = data.get("groups")
            key = "event.won.groups" if groups else "event.won.last"
            if isinstance(groups, list):
                values["groups"] = " · ".join(
                    " ".join(_pretty(str(c)) for c in g) for g in groups if isinstance(g, list)
                )
        return key, values

    def is_out(self, view: View) -> bool:
        """B8: a player who lost with more than 2 players watches the others finish."""
        assert isinstance(view, BeorView)
        return view.seat in view.out


PRESENTER = BeorPresenter()
