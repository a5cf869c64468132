"""The Game of Death as a match at the table (RULINGS G12): several deals with running totals,
the dealer moving one seat clockwise each deal, and places after each deal.

A deal of a match is dealt by ``game.match_deal`` (its record keeps ``deal_number``); the
totals add each deal's drinks taken and given (hand penalties included, G11). The fewest taken
wins (ties share). A sober player's figures are points, not drinks (G14), and are said so.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.table import Table as RichTable
from rich.text import Text

from parlour.core.game import State, seat_name
from parlour.games.death.match import dealer_of, match_totals
from parlour.games.death.rules import DeathState

__all__ = ["MatchBoard", "has_match"]


def has_match(state: State) -> bool:
    """Whether the game of ``state`` is played as a match with running totals (G12)."""
    return isinstance(state, DeathState)


def _places(taken: Sequence[int]) -> list[int]:
    """Places from totals taken, fewest first; equal totals share a place."""
    return [1 + sum(other < mine for other in taken) for mine in taken]


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


class MatchBoard:
    """The deals of one match played so far (finished states), and what to say about them."""

    def __init__(self, players: int, planned: int | None) -> None:
        self.players = players
        self.planned = planned  # the deals asked for (--deals), None: one at a time
        self.finished: list[DeathState] = []

    def add(self, end: State) -> None:
        assert isinstance(end, DeathState) and end.is_over
        self.finished.append(end)

    @property
    def deals(self) -> int:
        return len(self.finished)

    def _sober(self) -> frozenset[int]:
        return frozenset(self.finished[-1].view(None).options.sober)

    def _unit(self, seat: int, count: int) -> str:
        """``3 drinks``, or ``3 points`` for a sober player (G14)."""
        word = "point" if seat in self._sober() else "drink"
        return f"{count} {word}{'s' if count != 1 else ''}"

    def table(self, labels: Sequence[str]) -> RichTable:
        """The match table after the last deal: this deal's and the running totals (drinks
        taken, given), and each player's place (G12)."""
        totals = match_totals(self.finished)
        last = self.finished[-1]
        places = _places(totals.taken)
        of = f" of {self.planned}" if self.planned else ""
        title = f"After deal {self.deals}{of}: running totals (G12)"
        table = RichTable(title=title, title_justify="left", padding=(0, 1))
        for column in ("player", "this deal", "total taken", "given", "place"):
            table.add_column(column)
        for seat, label in enumerate(labels):
            note = " (sober, G14)" if seat in self._sober() else ""
            table.add_row(
                label + note,
                self._unit(seat, last.drinks_taken[seat]),
                self._unit(seat, totals.taken[seat]),
                str(totals.given[seat]),
                _ordinal(places[seat]),
            )
        return table

    def standing(self, labels: Sequence[str]) -> Text:
        """Who leads (or won) the match, in words."""
        totals = match_totals(self.finished)
        names = " and ".join(labels[s] for s in totals.winners)
        fewest = self._unit(totals.winners[0], totals.taken[totals.winners[0]])
        over = self.planned is not None and self.deals >= self.planned
        verb = ("win" if len(totals.winners) > 1 else "wins") if over else "lead"
        if not over and len(totals.winners) == 1:
            verb = "leads"
        what = "the match" if over else f"after {self.deals} deal{'s' if self.deals > 1 else ''}"
        return Text(
            f"{names} {verb} {what} with the fewest taken: {fewest} (G12).", style="bold green"
        )

    @staticmethod
    def deal_result(end: State, labels: Sequence[str], moves: int) -> str:
        """One deal's result in words (G12), a sober player's figure in points (G14):
        ``Player 2 wins the deal with the fewest taken, 3 points (sober, G14) (G12). 93
        actions``."""
        assert isinstance(end, DeathState) and end.outcome is not None
        winners = end.outcome.winners
        sober = frozenset(end.view(None).options.sober)
        names = " and ".join(labels[s] for s in winners)
        verb = "win" if len(winners) > 1 else "wins"
        figures = []
        for seat in winners:
            taken = end.drinks_taken[seat]
            unit = "point" if seat in sober else "drink"
            note = " (sober, G14)" if seat in sober else ""
            figures.append(f"{taken} {unit}{'s' if taken != 1 else ''}{note}")
        shown = " and ".join(dict.fromkeys(figures))
        return f"{names} {verb} the deal with the fewest taken, {shown} (G12). {moves} actions"

    def next_dealer(self) -> str:
        """``Player 3 deals`` for the next deal (G12: one seat clockwise each deal)."""
        return f"{seat_name(dealer_of(self.players, self.deals))} deals"
