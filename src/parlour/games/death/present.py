"""How front ends show Becker's Game of Death: the pile and the drinks table from a seat's view,
the give prompt and its split (G5), the illegal throw's penalty and the table penalties (G13),
the result in words and the rules in short."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Self

from parlour.cards import parse_card
from parlour.core.game import Action, Event, Outcome, View, seat_name
from parlour.core.inputs import quote
from parlour.core.present import (
    Block,
    Forfeit,
    Grid,
    Hand,
    Heading,
    Presenter,
    Reply,
    Styled,
    TableCommand,
    card_text,
)
from parlour.core.words import Catalog, catalog
from parlour.errors import ParlourError
from parlour.games.death.match_board import DEATH_MATCH
from parlour.games.death.notation import Give, TablePenalty, Throw, parse_table_entry
from parlour.games.death.view import DeathView

__all__ = ["PRESENTER", "DeathPresenter", "parse_split"]


def _pretty_card(card: str) -> str:
    """``10♥`` for ``10H``, or the text as it is."""
    try:
        return parse_card(card).pretty()
    except ParlourError:
        return card


RULES = "\n".join(
    (
        "Becker's Game of Death: make everyone else drink more than you do. Fewest drinks "
        "taken wins (G12).",
        "• Start (G1): all the cards are dealt; the holder of the two of diamonds throws it first.",
        "• Throwing (G2): throw a card of the same suit or the same rank as the top of the "
        "pile. If you can, you must; if you cannot, you pass and drink 1. After a sweep you "
        "lead any card.",
        "• Going down (G3): same suit, both 2 to 10, lower than the card below: drink the "
        "difference.",
        "• Breaking suit (G4): a card of the same rank in another suit makes whoever threw the "
        "covered card drink 1.",
        "• Face cards (G5): black ones give, red ones take. Spades A 20, K 8, Q 6, J 4; clubs "
        "A 5, K 4, Q 3, J 2 (given). Hearts A 5, K 4, Q 3, J 2; diamonds A 10, K 8, Q 6, J 4 "
        "(taken). You may split what you give; play waits until all is given.",
        "• Social (G7): the four cards of one rank thrown in a row: everyone drinks 1.",
        "• Sweeps (G8, G9): after an Ace's drinks the pile is swept and the same player leads; "
        "when everyone else passes, the pile is swept and the last thrower leads.",
        "• End (G10, G11): once a player is out of cards, play goes on until the turn would "
        "come back to him. Black face cards left in a hand are drunk at their give value.",
        "• Illegal throw (G13): a card from your hand that does not follow costs 2 drinks and "
        "goes back to your hand.",
        "Notation: a card (9c, 10h, Q♠) throws it; pass when you cannot follow. After a black "
        "face card the give prompt asks whom to give to: 3 gives all to Player 3, 2=3 3=2 "
        "splits five; give N>Pk also works.",
    )
)

_WORDS = catalog("parlour.games.death.words")
_TABLE_WORDS = ("doh", "delay")


def _table_commands(words: Catalog) -> tuple[TableCommand, ...]:
    """The table penalties (G13) for ``help``, in the language of ``words``."""
    return tuple(TableCommand(w, f"{w} Pk", words(f"ui.command.{w}")) for w in _TABLE_WORDS)


def _give_example(view: DeathView, left: int, words: Catalog = _WORDS) -> str:
    """``3 = all to Player 3; 2=3 3=2 splits`` for the players and drinks at hand."""
    others = [s + 1 for s in range(view.players) if s != view.seat]
    player = words("ui.seat", number=others[-1])
    text = words("ui.give_example.all", number=others[-1], player=player)
    if len(others) > 1 and left > 1:
        split = words(
            "ui.give_example.split",
            first=others[0],
            many=left - left // 2,
            second=others[1],
            few=left // 2,
        )
        text += f"; {split}"
    return text


def parse_split(
    line: str, left: int, example: str, words: Catalog = _WORDS
) -> list[tuple[int, int]] | str:
    """A give's split (G5) as ``(player number, drinks)`` pairs, or why it is not one (with
    ``example`` of a good one, in the language of ``words``): ``3`` gives everything left to
    Player 3; ``2=3 3=2`` gives 3 to Player 2 and 2 to Player 3; ``2=1 2=1`` gives Player 2
    two drinks."""
    split: list[tuple[int, int]] = []
    for part in line.replace(",", " ").split():
        name, sep, many = part.partition("=")
        who = name.strip().lower().removeprefix("player").removeprefix("p")
        many = many.strip()
        if not (who.isascii() and who.isdigit()) or (
            sep and not (many.isascii() and many.isdigit())
        ):
            return words("refusal.split.word", part=quote(part))
        if len(who) > 6 or len(many) > 6:  # int() refuses past 4,300 digits; G5 gives at most 20
            return words("refusal.split.large", part=quote(part), example=example)
        split.append((int(who), int(many) if sep else 0))
    if len(split) == 1 and split[0][1] == 0:
        split = [(split[0][0], left)]
    if any(n == 0 for _, n in split):
        return words("refusal.split.how_many", example=example)
    merged: dict[int, int] = {}
    for player, n in split:
        merged[player] = merged.get(player, 0) + n
    total = sum(merged.values())
    if total > left:
        return words("refusal.split.too_many", left, total=total)
    return list(merged.items())


class DeathPresenter(Presenter):
    """The Game of Death at a table: the pile with who threw each card, a drinks table."""

    rules = RULES
    words = _WORDS
    table_commands = _table_commands(_WORDS)
    table_rules = _WORDS("ui.table.rules")
    match = DEATH_MATCH

    def speaking(self, words: Catalog) -> Self:
        spoken = super().speaking(words)
        spoken.table_commands = _table_commands(words)
        spoken.table_rules = words("ui.table.rules")
        return spoken

    def table(self, view: View, labels: Sequence[str], legal: Sequence[Action]) -> list[Block]:
        """The pile with who threw each card, the drinks table, passes and the give in
        progress, and the seat's own hand."""
        assert isinstance(view, DeathView)
        w = self.words
        detail = w("ui.t.swept", len(view.swept)) if view.started else w("ui.t.opening")
        head = Heading(w("game.title"), detail, view.to_move)
        pile = Styled(w("ui.t.pile") + " ", style="bold")
        if not view.pile:
            why = "ui.t.pile_empty.lead" if view.started else "ui.t.pile_empty.opening"
            pile.append(w(why), "dim")
        for k, (card, seat) in enumerate(zip(view.pile, view.pile_seats, strict=True)):
            pile.append("  " if k else "")
            pile.append(card_text(card))
            pile.append(f"\u00a0(P{seat + 1})", style="dim")
        table = Grid(
            tuple(w(f"ui.t.col.{c}") for c in ("player", "cards", "taken", "given", "note"))
        )
        sober = set(view.options.sober)
        for seat, label in enumerate(labels):
            notes = []
            if seat in sober:
                notes.append(w("ui.t.sober"))
            if seat in view.passed:
                notes.append(w("ui.t.passed"))
            if view.first_out == seat:
                notes.append(w("ui.t.first_out"))
            if view.pending_give is not None and view.pending_give[0] == seat:
                notes.append(w("ui.t.giving", drinks=view.pending_give[1]))
            table.add_row(
                Styled(label, style="bold green" if seat == view.to_move else ""),
                str(view.hand_sizes[seat]),
                str(view.drinks_taken[seat]),
                str(view.drinks_given[seat]),
                ", ".join(notes),
            )
        parts: list[Block] = [head, pile, table]
        if view.hand is not None:
            playable = frozenset(a.card for a in legal if isinstance(a, Throw))
            marking = bool(legal) and view.pending_give is None
            parts.append(Hand(tuple(view.hand), playable, marking))
        return parts

    def result_text(self, outcome: Outcome, labels: Sequence[str], moves: int) -> str:
        """``Player 2 wins with the fewest drinks taken (G12). 93 actions``."""
        names = self.names([labels[s] for s in outcome.winners])
        key = "ui.result.one" if len(outcome.winners) == 1 else "ui.result.many"
        return f"{self.words(key, names=names)}. {self.words('ui.result.actions', moves)}"

    def end_table(self, outcome: Outcome, view: View, labels: Sequence[str]) -> Grid:
        """G12: drinks taken and given by each player, and his place."""
        assert isinstance(view, DeathView)
        columns = tuple(self.words(f"ui.t.col.{c}") for c in ("player", "taken", "given", "place"))
        table = Grid(columns, title=self.words("ui.drinks_table"), boxed=True)
        for seat, label in enumerate(labels):
            table.add_row(
                label,
                str(view.drinks_taken[seat]),
                str(view.drinks_given[seat]),
                str(outcome.ranks[seat]),
            )
        return table

    def numbered(self, legal: Sequence[Action]) -> list[Action]:
        """Every legal action but a give, which has a prompt of its own (G5)."""
        return [a for a in legal if not isinstance(a, Give)]

    def pretty_action(self, action: Action) -> Styled:
        return card_text(action.card) if isinstance(action, Throw) else Styled(str(action))

    @staticmethod
    def _giving(view: View) -> int | None:
        """The drinks the seat of ``view`` still has to give (G5), or ``None``."""
        assert isinstance(view, DeathView)
        pending = view.pending_give
        return pending[1] if pending is not None and pending[0] == view.seat else None

    def prompt(self, view: View) -> str:
        assert isinstance(view, DeathView) and view.seat is not None
        left = self._giving(view)
        if left is None:
            return f"{seat_name(view.seat)}> "
        example = _give_example(view, left, self.words)
        return self.words("ui.give_prompt", left, player=seat_name(view.seat), example=example)

    def read(self, view: View, line: str) -> Reply | None:
        """While the seat gives (G5), a line that is no ``give N>Pk`` is a split of what is
        left: ``3`` gives all of it to Player 3, ``2=3 3=2`` splits it."""
        assert isinstance(view, DeathView)
        left = self._giving(view)
        if left is None or line.lower().startswith("give"):
            return None
        if not line:
            example = _give_example(view, left, self.words)
            return Reply(message=self.words("ui.give_help", left, example=example))
        split = parse_split(line, left, _give_example(view, left, self.words), self.words)
        if isinstance(split, str):
            return Reply(message=split)
        return Reply(actions=tuple(f"give {n}>P{player}" for player, n in split))

    def forfeit(self, view: View, text: str) -> Forfeit:
        """G13: a card from the hand that does not follow costs 2 drinks and goes back (the
        rules refuse the entry when the option ``illegal_throw_penalty`` is off or the card is
        not in the hand, and then the refusal costs nothing)."""
        return Forfeit(
            f"illegal {text}",
            self.words("ui.forfeit.note"),
            question=self.words("ui.forfeit.question", thing="{thing}", cost="{cost}"),
            declined=self.words("ui.forfeit.declined"),
        )

    def event_words(self, event: Event, name: Callable[[int], str]) -> tuple[str, dict[str, Any]]:
        """A drink with its reason (drinks, or points for a sober player, G14), a give's
        receiver, a sweep's and an end's variant by why (as the browser's board says them)."""
        key, values = super().event_words(event, name)
        data = event.data
        w = self.words
        if event.kind in ("drank", "penalty", "hand_penalty"):
            seat, drinks = data.get("seat"), data.get("drinks")
            player = name(seat) if isinstance(seat, int) else ""
            # The engine's words say points for a sober player (G14); its data do not.
            sober = " point" in event.text.split(":", 1)[0]
            count = drinks if isinstance(drinks, int) else 0
            values["who"] = w("ui.points" if sober else "ui.drinks", count, player=player)
            why = f"ui.why.{data.get('why')}"
            if why in w:
                other = data.get("other")
                values["why"] = w(
                    why,
                    card=values.get("card", ""),
                    other=_pretty_card(other) if isinstance(other, str) else "",
                    drinks=count,
                )
            else:
                values["why"] = data.get("reason", "")
        elif event.kind == "gave" and isinstance(data.get("to"), int):
            values["to"] = name(int(data["to"]))
        elif event.kind == "swept":
            key = f"event.swept.{data.get('why')}"
            leader = data.get("leader")
            if isinstance(leader, int):
                values["player"] = name(leader)
        elif event.kind == "ended":
            key = f"event.ended.{data.get('why')}"
        return key, values

    def entry_target(self, entry: str) -> int | None:
        """The player a ``doh Pk`` or ``delay Pk`` penalises (G13)."""
        parsed = parse_table_entry(entry)
        return parsed.seat if isinstance(parsed, TablePenalty) else None


PRESENTER = DeathPresenter()
