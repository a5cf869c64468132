"""What a review says (:mod:`parlour.bots.review`): each judged decision, each seat's figures,
and the review as JSON (``parlour schema review``)."""

from __future__ import annotations

import math
from dataclasses import dataclass

from parlour.core.game import JSON

__all__ = ["DECISIVE", "FORMAT", "Decision", "MoveEstimate", "Review", "SeatSummary"]

DECISIVE = 5
"""How many decisive moments a review lists (the costliest decisions)."""

FORMAT = 1


@dataclass(frozen=True, slots=True)
class MoveEstimate:
    """One root move of a reviewed decision: its chance, the 95% half-width, its iterations."""

    move: str
    chance: float
    interval: float
    visits: int


@dataclass(frozen=True, slots=True)
class Decision:
    """A reviewed decision: the move played, the search's best (the highest chance among the
    moves of the last round), and every move's estimate, highest chance first."""

    step: int
    seat: int
    played: str
    best: str
    moves: tuple[MoveEstimate, ...]

    def estimate(self, move: str) -> MoveEstimate:
        return next(m for m in self.moves if m.move == move)

    @property
    def cost(self) -> float:
        """The chance given away by the move played (0 when it was the best), from the chances
        as the JSON gives them (4 decimals), so that a reader's subtraction agrees."""
        best, played = self.estimate(self.best).chance, self.estimate(self.played).chance
        return _round(max(0.0, _round(best) - _round(played)))

    @property
    def cost_interval(self) -> float:
        """A 95% half-width of :attr:`cost` (the two moves' intervals, as if independent)."""
        if self.played == self.best:
            return 0.0
        return math.hypot(self.estimate(self.best).interval, self.estimate(self.played).interval)

    def to_json(self) -> dict[str, JSON]:
        return {
            "step": self.step,
            "seat": self.seat,
            "played": self.played,
            "best": self.best,
            "chances": {m.move: _round(m.chance) for m in self.moves},
            "intervals": {m.move: _round(m.interval) for m in self.moves},
            "visits": {m.move: m.visits for m in self.moves},
            "cost": _round(self.cost),
            "cost_interval": _round(self.cost_interval),
        }

    def moment(self) -> dict[str, JSON]:
        return {
            "step": self.step,
            "seat": self.seat,
            "played": self.played,
            "best": self.best,
            "cost": _round(self.cost),
        }


@dataclass(frozen=True, slots=True)
class SeatSummary:
    """A reviewed seat's figures: decisions judged, forced ones, mean cost, mistakes (cost at
    least the review's threshold) and the step of its costliest decision."""

    seat: int
    decisions: int
    forced: int
    average_cost: float
    mistakes: int
    worst_step: int | None

    def to_json(self) -> dict[str, JSON]:
        return {
            "seat": self.seat,
            "decisions": self.decisions,
            "forced": self.forced,
            "average_cost": _round(self.average_cost),
            "mistakes": self.mistakes,
            "worst_step": self.worst_step,
        }


@dataclass(frozen=True, slots=True)
class Review:
    """A game's review: its decisions, or for a game without decisions, its story."""

    game: str
    players: int
    seats: tuple[int, ...]
    seed: int
    budget: str
    threshold: float
    decisions: tuple[Decision, ...]
    forced: tuple[int, ...]
    """Forced decisions (one move worth telling apart) of each seat, one entry a seat."""
    story: dict[str, JSON] | None = None

    def decisive(self, count: int = DECISIVE) -> tuple[Decision, ...]:
        """The costliest decisions (cost above 0), costliest first, the earlier on a tie."""
        costly = [d for d in self.decisions if d.cost > 0]
        return tuple(sorted(costly, key=lambda d: (-d.cost, d.step))[:count])

    def summary(self) -> tuple[SeatSummary, ...]:
        if self.story is not None:
            return ()
        rows = []
        for seat in self.seats:
            mine = [d for d in self.decisions if d.seat == seat]
            worst = max(mine, key=lambda d: (d.cost, -d.step), default=None)
            rows.append(
                SeatSummary(
                    seat,
                    len(mine),
                    self.forced[seat],
                    sum(d.cost for d in mine) / len(mine) if mine else 0.0,
                    sum(d.cost >= self.threshold for d in mine),
                    worst.step if worst is not None and worst.cost > 0 else None,
                )
            )
        return tuple(rows)

    def to_json(self) -> dict[str, JSON]:
        return {
            "format": FORMAT,
            "kind": "review",
            "game": self.game,
            "players": self.players,
            "seats": list(self.seats),
            "seed": self.seed,
            "budget": self.budget,
            "threshold": self.threshold,
            "decisions": [d.to_json() for d in self.decisions],
            "decisive": [d.moment() for d in self.decisive()],
            "summary": [s.to_json() for s in self.summary()],
            "story": self.story,
        }


def _round(x: float) -> float:
    return round(x, 4)
