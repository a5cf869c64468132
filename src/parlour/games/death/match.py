"""G12: a match is several deals with running totals; the dealer moves one seat clockwise each
deal. Seat 0 sits left of the first dealer (RULINGS "Common"), so the first deal starts at seat
0, the second at seat 1, and so on; deal ``k`` is shuffled from ``derive_seed(seed, "deal", k)``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from parlour.core.game import JSON
from parlour.games.death.game import DeathGame, dealer_of, match_deal
from parlour.games.death.rules import DeathState

__all__ = ["MatchTotals", "dealer_of", "match_deal", "match_game", "match_totals"]


def match_game(
    players: int, seed: int, number: int, options: Mapping[str, object] | None = None
) -> DeathState:
    """Game ``number`` of a match, ready to play."""
    return DeathGame().new(players, seed, options, match_deal(players, seed, number))


@dataclass(frozen=True, slots=True)
class MatchTotals:
    """Running totals of a match (G12): drinks taken and given per seat, and who took fewest."""

    deals: int
    taken: tuple[int, ...]
    given: tuple[int, ...]

    @property
    def winners(self) -> tuple[int, ...]:
        fewest = min(self.taken)
        return tuple(s for s, t in enumerate(self.taken) if t == fewest)

    def to_json(self) -> dict[str, JSON]:
        return {
            "deals": self.deals,
            "drinks_taken": list(self.taken),
            "drinks_given": list(self.given),
            "winners": list(self.winners),
        }


def match_totals(finished: Sequence[DeathState]) -> MatchTotals:
    """Totals over finished games of one match (hand penalties included, G11).

    Raises:
        ValueError: a game is not over, or the games have different numbers of players.
    """
    if not finished or any(not g.is_over for g in finished):
        raise ValueError("match totals need finished games")
    n = finished[0].players
    if any(g.players != n for g in finished):
        raise ValueError("every game of a match has the same players")
    taken = tuple(sum(g.drinks_taken[s] for g in finished) for s in range(n))
    given = tuple(sum(g.drinks_given[s] for g in finished) for s in range(n))
    return MatchTotals(len(finished), taken, given)
