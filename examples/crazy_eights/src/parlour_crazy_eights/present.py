"""How front ends show Crazy Eights, in the words of the game's catalogs: the table from a
seat's view, the moves, the result and the rules in short."""

from __future__ import annotations

from collections.abc import Sequence

from parlour.core.game import Action, Outcome, View
from parlour.core.present import Block, Grid, Hand, Heading, Presenter, Reply, Styled, card_text
from parlour.core.words import Catalog, catalog
from parlour_crazy_eights.notation import SUIT_NAMES, Draw, Nominate, Pass, Play
from parlour_crazy_eights.sentences import WORDS
from parlour_crazy_eights.view import C8View

__all__ = ["PRESENTER", "CrazyEightsPresenter", "rules_text"]

_RULE_KEYS = (
    "rules.section.1.item.1",
    "rules.section.1.item.2",
    "rules.section.2.item.1",
    "rules.section.2.item.2",
    "rules.section.3.item.1",
    "rules.section.3.item.2",
)


def rules_text(words: Catalog) -> str:
    """The rules in short, one item a line, and how to type a move."""
    lines = [f"{words('rules.title')}: {words('rules.goal')}"]
    lines += [f"• {words(key)}" for key in _RULE_KEYS]
    lines.append(words("ui.notation"))
    return "\n".join(lines)


class CrazyEightsPresenter(Presenter):
    """Crazy Eights at a table: the discard pile and the suit to follow, the stock's size, every
    hand's size (every hand once the game is over), and the seat's own hand."""

    words = catalog(WORDS, "en")

    @property
    def rules(self) -> str:  # type: ignore[override]
        return rules_text(self.words)

    @property
    def input_help(self) -> str:  # type: ignore[override]
        return self.words("ui.notation")

    def table(self, view: View, labels: Sequence[str], legal: Sequence[Action]) -> list[Block]:
        assert isinstance(view, C8View)
        say = self.words
        head = Heading(say("game.title"), say("ui.plays", count=view.plays), view.to_move)
        pile = Styled(f"{say('ui.discard')}: ", style="bold")
        below = len(view.discard) - 1
        if below:
            pile.append(f"({below}) ", style="dim")
        pile.append(card_text(view.top))
        suit = SUIT_NAMES[view.suit]
        pile.append("   ")
        pile.append(say("ui.to_follow", symbol=view.suit.symbol, suit=say(f"ui.suit.{suit}")))
        stock = say("ui.stock", count=view.stock_size) if view.stock_size else say("ui.stock_empty")
        parts: list[Block] = [head, pile, Styled(stock, style="dim"), self._seats(view, labels)]
        if view.hand is not None and view.hands is None:
            playable = frozenset(a.card for a in legal if isinstance(a, Play))
            parts.append(Hand(view.hand, playable, bool(legal)))
        if view.to_move is not None and view.to_move == view.seat and view.phase == "nominate":
            parts.append(Styled(say("ui.name_suit"), style="bold green"))
        return parts

    def _seats(self, view: C8View, labels: Sequence[str]) -> Styled:
        say = self.words
        seats = Styled()
        for seat, label in enumerate(labels):
            seats.append("\n" if seat else "")
            seats.append(
                say("ui.hand_size", count=view.hand_sizes[seat], name=label),
                style="bold" if seat == view.to_move else "",
            )
            if seat == view.dealer:
                seats.append(f" ({say('ui.dealer')})", style="dim")
            if seat == view.to_move and view.draws:
                seats.append(f", {say('ui.drawn', count=view.draws)}", style="dim")
            if view.hands is not None and view.hands[seat]:
                seats.append(": ")
                seats.append(Styled(" ").join(card_text(c) for c in view.hands[seat]))
        return seats

    def result_text(self, outcome: Outcome, labels: Sequence[str], moves: int) -> str:
        """How it ended and each seat's penalty points."""
        say = self.words
        if outcome.result == "win":
            how = say("ui.end.win", name=labels[outcome.winners[0]])
        else:
            how = say(f"ui.end.{outcome.result}")
        points = ", ".join(
            say("ui.points", count=p, name=labels[s]) for s, p in enumerate(outcome.scores)
        )
        return f"{how} {points}"

    def pretty_action(self, action: Action) -> Styled:
        if isinstance(action, Play):
            return card_text(action.card)
        if isinstance(action, Nominate):
            name = self.words(f"ui.suit.{SUIT_NAMES[action.suit]}")
            red = action.suit.is_red
            return Styled(f"{action.suit.symbol} {name}", style="red" if red else "")
        if isinstance(action, Draw):
            return Styled(self.words("ui.draw"))
        assert isinstance(action, Pass)
        return Styled(self.words("ui.pass"))

    def read(self, view: View, line: str) -> Reply | None:
        """The words of the seat's language for a draw, a pass and the suits, read as the
        notation (``trage`` in Romanian is ``draw``); anything else is read as usual."""
        said = line.strip().lower()
        for notation in ("draw", "pass", *SUIT_NAMES.values()):
            key = f"ui.suit.{notation}" if notation in SUIT_NAMES.values() else f"ui.{notation}"
            if said == self.words(key).lower() and said != notation:
                return Reply(actions=(notation,))
        return None

    def end_table(self, outcome: Outcome, view: View, labels: Sequence[str]) -> Grid | None:
        assert isinstance(view, C8View)
        if view.hands is None:
            return None
        say = self.words
        grid = Grid((say("ui.col.player"), say("ui.col.hand"), say("ui.col.points")), boxed=True)
        for seat, label in enumerate(labels):
            cards = Styled(" ").join(card_text(c) for c in view.hands[seat])
            grid.add_row(label, cards, str(outcome.scores[seat]))
        return grid


PRESENTER = CrazyEightsPresenter()
