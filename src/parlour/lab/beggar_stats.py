"""Statistics of random Beggar-My-Neighbour deals: ``parlour beggar stats``.

Game ``i`` of a batch is dealt from ``derive_seed(seed, i)``, so a batch gives the same figures
however it is split, and any single game can be replayed from its seed.
"""

from __future__ import annotations

import math
import statistics
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from parlour.core.game import JSON
from parlour.core.rng import check_seed, derive_seed
from parlour.errors import InvalidOption
from parlour.games.beggar.notation import format_deal_ranks
from parlour.games.beggar.play import play_to_end
from parlour.games.beggar.rules import BeggarGame

__all__ = ["PERCENTILES", "BeggarStats", "GameFigures", "percentile", "run_stats"]

PERCENTILES = (1, 5, 10, 25, 50, 75, 90, 95, 99, 99.9)


@dataclass(frozen=True, slots=True)
class GameFigures:
    """One game of a batch: its seed, deal, result and counts (M8)."""

    seed: int
    deal: str
    result: str
    winners: tuple[int, ...]
    cards: int
    tricks: int


def play_one(players: int, seed: int, options: Mapping[str, object] | None) -> GameFigures:
    """Deal from ``seed`` (M7) and play to the end."""
    game = BeggarGame()
    start = game.new(players, seed, options)
    end = play_to_end(start)
    outcome = end.outcome
    assert outcome is not None
    return GameFigures(
        seed, format_deal_ranks(start.deal), outcome.result, outcome.winners, end.cards, end.tricks
    )


def percentile(sorted_values: list[int], q: float) -> int:
    """The nearest-rank percentile ``q`` (0-100) of sorted values: the smallest value with at
    least ``q`` percent of the values at or below it."""
    rank = max(1, math.ceil(q / 100 * len(sorted_values)))
    return sorted_values[rank - 1]


@dataclass(frozen=True, slots=True)
class BeggarStats:
    """Figures of a batch of random deals."""

    players: int
    seed: int
    options: Mapping[str, JSON]
    games: tuple[GameFigures, ...]

    @property
    def longest(self) -> GameFigures:
        return max(self.games, key=lambda g: (g.cards, -g.seed))

    @property
    def results(self) -> dict[str, int]:
        counts = Counter(g.result for g in self.games)
        return {r: counts.get(r, 0) for r in ("win", "loop", "limit")}

    @property
    def first_player_win_rate(self) -> float:
        """Seat 0's share of the wins, over games with a winner (a shared win counts 1/k)."""
        decided = [g for g in self.games if g.winners]
        if not decided:
            return 0.0
        return sum(1 / len(g.winners) for g in decided if 0 in g.winners) / len(decided)

    def to_json(self) -> dict[str, JSON]:
        cards = sorted(g.cards for g in self.games)
        tricks = sorted(g.tricks for g in self.games)
        longest = self.longest
        return {
            "players": self.players,
            "games": len(self.games),
            "seed": self.seed,
            "options": dict(self.options),
            "results": self.results,
            "mean_cards": statistics.fmean(cards),
            "mean_tricks": statistics.fmean(tricks),
            "median_cards": statistics.median(cards),
            "median_tricks": statistics.median(tricks),
            "first_player_win_rate": self.first_player_win_rate,
            "percentiles": {
                f"{q:g}": {"cards": percentile(cards, q), "tricks": percentile(tricks, q)}
                for q in PERCENTILES
            },
            "longest": {
                "deal": longest.deal,
                "seed": longest.seed,
                "result": longest.result,
                "cards": longest.cards,
                "tricks": longest.tricks,
            },
        }


def run_stats(
    players: int,
    games: int,
    seed: int,
    options: Mapping[str, object] | None = None,
    progress: Callable[[int], None] | None = None,
) -> BeggarStats:
    """Play ``games`` random deals for ``players``; ``progress(done)`` is called as they finish.

    Raises:
        InvalidOption: a bad player count, seed, option or a number of games below 1.
    """
    game = BeggarGame()
    game.check_players(players)
    check_seed(seed)
    typed = game.typed_options(options)
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise InvalidOption(f"games must be a whole number of at least 1, got {games!r}")
    out = []
    for i in range(games):
        out.append(play_one(players, derive_seed(seed, i), options))
        if progress is not None:
            progress(i + 1)
    return BeggarStats(players, seed, typed.to_json(), tuple(out))
