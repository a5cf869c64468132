"""The Game of Death as a match at a table (RULINGS G12), as front ends show it: several deals
with running totals, places after each deal, and the dealer moving one seat clockwise each deal.
The presenter offers it (``PRESENTER.match``), so a front end finds it without naming the game.

A deal of a match is dealt by ``DeathGame.match_deal``; the totals add each deal's drinks
taken and given (hand penalties included, G11), read from the spectator's view at its end.
The fewest taken wins (ties share). A sober player's figures are points, not drinks (G14), and
are said so.
"""

from __future__ import annotations

from collections.abc import Sequence

from parlour.core.game import JSON, Outcome, View
from parlour.core.present import Grid, Match, MatchBoard, Styled
from parlour.core.words import Catalog
from parlour.games.death.game import dealer_of
from parlour.games.death.match import MatchTotals
from parlour.games.death.view import DeathView

__all__ = ["DEATH_MATCH", "DeathMatch", "DeathMatchBoard"]


def _places(taken: Sequence[int]) -> list[int]:
    """Places from totals taken, fewest first; equal totals share a place."""
    return [1 + sum(other < mine for other in taken) for mine in taken]


def _ordinal(n: int, words: Catalog) -> str:
    """``1st``, ``2nd``, ``11th`` (the catalog's ``ui.ordinal.*``)."""
    last = 0 if 10 <= n % 100 <= 20 else n % 10
    return words(f"ui.ordinal.{last if last in (1, 2, 3) else 'other'}", number=n)


def _figure(count: int, sober: bool, words: Catalog) -> str:
    """``3 drinks``, or ``3 points`` for a sober player (G14)."""
    return words("ui.count.points" if sober else "ui.count.drinks", count)


def _names(names: Sequence[str], words: Catalog) -> str:
    """``Player 1 and Player 2`` in the catalog's language."""
    if len(names) <= 1:
        return "".join(names)
    return words("ui.and", names=", ".join(names[:-1]), last=names[-1])


class DeathMatchBoard(MatchBoard):
    """The deals of one match played so far (the spectator's views at their ends), and what
    to say about them."""

    def __init__(self, players: int, planned: int | None, words: Catalog) -> None:
        self.words = words
        self.players = players
        self.planned = planned
        self.finished: list[DeathView] = []

    @property
    def deals(self) -> int:
        return len(self.finished)

    def add(self, outcome: Outcome, view: View) -> None:
        assert isinstance(view, DeathView) and view.over and view.players == self.players
        self.finished.append(view)

    def _totals(self) -> MatchTotals:
        """Drinks taken and given over the deals so far (hand penalties included, G11)."""
        seats = range(self.players)
        taken = tuple(sum(v.drinks_taken[s] for v in self.finished) for s in seats)
        given = tuple(sum(v.drinks_given[s] for v in self.finished) for s in seats)
        return MatchTotals(self.deals, taken, given)

    def _sober(self) -> frozenset[int]:
        return frozenset(self.finished[-1].options.sober)

    def _unit(self, seat: int, count: int) -> str:
        return _figure(count, seat in self._sober(), self.words)

    def table(self, labels: Sequence[str]) -> Grid:
        """The match table after the last deal: this deal's and the running totals (drinks
        taken, given), and each player's place (G12)."""
        totals = self._totals()
        last = self.finished[-1]
        places = _places(totals.taken)
        w = self.words
        if self.planned:
            title = w("ui.match.title_of", deal=self.deals, planned=self.planned)
        else:
            title = w("ui.match.title", deal=self.deals)
        columns = (
            w("ui.t.col.player"),
            w("ui.match.col.this_deal"),
            w("ui.match.col.total"),
            w("ui.t.col.given"),
            w("ui.t.col.place"),
        )
        table = Grid(columns, title=title, boxed=True, title_left=True)
        for seat, label in enumerate(labels):
            note = " " + w("ui.match.sober") if seat in self._sober() else ""
            table.add_row(
                label + note,
                self._unit(seat, last.drinks_taken[seat]),
                self._unit(seat, totals.taken[seat]),
                str(totals.given[seat]),
                _ordinal(places[seat], w),
            )
        return table

    def standing(self, labels: Sequence[str]) -> Styled:
        """Who leads (or won) the match, in words."""
        totals = self._totals()
        names = _names([labels[s] for s in totals.winners], self.words)
        fewest = self._unit(totals.winners[0], totals.taken[totals.winners[0]])
        over = self.planned is not None and self.deals >= self.planned
        many = "many" if len(totals.winners) > 1 else "one"
        if over:
            said = self.words(f"ui.match.won.{many}", names=names, fewest=fewest)
        else:
            said = self.words(f"ui.match.leads.{many}", self.deals, names=names, fewest=fewest)
        return Styled(said, style="bold green")

    def deal_result(self, outcome: Outcome, view: View, labels: Sequence[str], moves: int) -> str:
        """One deal's result in words (G12), a sober player's figure in points (G14):
        ``Player 2 wins the deal with the fewest taken, 3 points (sober, G14) (G12). 93
        actions``."""
        assert isinstance(view, DeathView)
        winners = outcome.winners
        sober = frozenset(view.options.sober)
        w = self.words
        names = _names([labels[s] for s in winners], w)
        figures = []
        for seat in winners:
            note = " " + w("ui.match.sober") if seat in sober else ""
            figures.append(_figure(view.drinks_taken[seat], seat in sober, w) + note)
        shown = _names(list(dict.fromkeys(figures)), w)
        many = "many" if len(winners) > 1 else "one"
        said = w(f"ui.match.deal.{many}", names=names, figures=shown)
        return f"{said}. {w('ui.result.actions', moves)}"

    def totals(self) -> dict[str, JSON]:
        """``deals``, ``drinks_taken`` and ``drinks_given`` per seat (a sober player's are
        points, G14) and ``winners``, the fewest taken (G12)."""
        return self._totals().to_json()

    def next_dealer(self) -> str:
        """``Player 3 deals (G12)`` for the next deal (G12: one seat clockwise each deal)."""
        dealer = dealer_of(self.players, self.deals)
        return self.words("ui.match.dealer", player=self.words("ui.seat", number=dealer + 1))


class DeathMatch(Match):
    """The Game of Death's matches (G12), offered by its presenter."""

    about = "a match of N deals with running totals, the dealer moving each deal (G12)"

    def board(self, players: int, planned: int | None, words: Catalog) -> DeathMatchBoard:
        return DeathMatchBoard(players, planned, words)


DEATH_MATCH = DeathMatch()
