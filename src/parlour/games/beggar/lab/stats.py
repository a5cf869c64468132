"""Statistics of random Beggar-My-Neighbour deals: ``parlour beggar stats``.

Two engines give the same kind of figures. ``python`` (:func:`run_stats`) plays the rules engine:
game ``i`` of a batch is dealt from ``derive_seed(seed, i)``, so any single game can be replayed
from its seed. ``fast`` (:func:`run_fast_stats`) plays the compiled kernel on deal ``i`` of the
seed's stream of :func:`parlour.games.beggar.fast.random_deals` (other deals than the python
engine's for the same seed) and keeps histograms rather than games, so a batch may be as large
as time allows. Either way a batch gives the same figures however it is split over workers.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from parlour.core.game import JSON
from parlour.core.inputs import quote
from parlour.core.rng import check_seed, derive_seed
from parlour.errors import InvalidOption
from parlour.games.beggar import BeggarGame, format_deal_ranks, play_to_end

__all__ = [
    "PERCENTILES",
    "TAILS",
    "BeggarStats",
    "FastStats",
    "GameFigures",
    "distribution_json",
    "percentile",
    "run_fast_stats",
    "run_stats",
]

PERCENTILES = (1, 5, 10, 25, 50, 75, 90, 95, 99, 99.9)
TAILS = (500, 1000, 2000, 3000)
"""Tail counts: games of more than this many cards."""
RESULTS = ("win", "loop", "limit")
FAST_BATCH = 1 << 20
"""Games per kernel call of :func:`run_fast_stats` (its memory does not grow with the batch)."""

Histogram = npt.NDArray[np.int64]


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


def _ranked(hist: Histogram, rank: int) -> int:
    """The ``rank``-th smallest value (from 1) of the values counted in ``hist``."""
    return int(np.searchsorted(np.cumsum(hist), rank))


def _median(hist: Histogram, count: int) -> float:
    middle = (_ranked(hist, (count + 1) // 2) + _ranked(hist, count // 2 + 1)) / 2
    return int(middle) if middle == int(middle) else middle


def distribution_json(cards: Histogram, tricks: Histogram) -> dict[str, JSON]:
    """Mean, median, percentiles (nearest rank, as :func:`percentile`) and tail counts of
    games given as histograms (``cards[k]`` games of ``k`` cards)."""
    count = int(cards.sum())
    values_c = np.arange(len(cards))
    values_t = np.arange(len(tricks))
    return {
        "mean_cards": float((cards * values_c).sum() / count),
        "mean_tricks": float((tricks * values_t).sum() / count),
        "median_cards": _median(cards, count),
        "median_tricks": _median(tricks, count),
        "percentiles": {
            f"{q:g}": {
                "cards": _ranked(cards, max(1, math.ceil(q / 100 * count))),
                "tricks": _ranked(tricks, max(1, math.ceil(q / 100 * count))),
            }
            for q in PERCENTILES
        },
        "tails": {f"{t}": int(cards[t + 1 :].sum()) for t in TAILS},
    }


def _histogram(values: npt.NDArray[np.int64] | list[int], into: Histogram) -> Histogram:
    counts = np.bincount(np.asarray(values, dtype=np.int64))
    if len(counts) > len(into):
        counts[: len(into)] += into
        return counts
    into[: len(counts)] += counts
    return into


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

    @property
    def cards_histogram(self) -> Histogram:
        return _histogram([g.cards for g in self.games], np.zeros(0, dtype=np.int64))

    def to_json(self) -> dict[str, JSON]:
        tricks = _histogram([g.tricks for g in self.games], np.zeros(0, dtype=np.int64))
        longest = self.longest
        return {
            "players": self.players,
            "games": len(self.games),
            "seed": self.seed,
            "engine": "python",
            "options": dict(self.options),
            "results": self.results,
            **distribution_json(self.cards_histogram, tricks),
            "first_player_win_rate": self.first_player_win_rate,
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
        raise InvalidOption(f"games must be a whole number of at least 1, got {quote(games)}")
    out = []
    for i in range(games):
        out.append(play_one(players, derive_seed(seed, i), options))
        if progress is not None:
            progress(i + 1)
    return BeggarStats(players, seed, typed.to_json(), tuple(out))


@dataclass(slots=True)
class FastStats:
    """Figures of a batch played by the kernel, kept as histograms and running totals."""

    players: int
    seed: int
    options: Mapping[str, JSON]
    games: int = 0
    results: dict[str, int] = field(default_factory=lambda: dict.fromkeys(RESULTS, 0))
    cards_histogram: Histogram = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    tricks_histogram: Histogram = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    seat0_share: float = 0.0
    decided: int = 0
    longest_index: int = -1
    longest_cards: int = -1
    longest_tricks: int = 0
    longest_result: str = "win"

    @property
    def first_player_win_rate(self) -> float:
        """Seat 0's share of the wins, over games with a winner (a shared win counts 1/k)."""
        return self.seat0_share / self.decided if self.decided else 0.0

    def to_json(self) -> dict[str, JSON]:
        from parlour.games.beggar.fast import random_deals

        deal = random_deals(self.players, 1, self.seed, start=self.longest_index).deal(0)
        return {
            "players": self.players,
            "games": self.games,
            "seed": self.seed,
            "engine": "fast",
            "options": dict(self.options),
            "results": dict(self.results),
            **distribution_json(self.cards_histogram, self.tricks_histogram),
            "first_player_win_rate": self.first_player_win_rate,
            "longest": {
                "deal": deal,
                "seed": None,
                "index": self.longest_index,
                "result": self.longest_result,
                "cards": self.longest_cards,
                "tricks": self.longest_tricks,
            },
        }


_POPCOUNT = np.array([bin(k).count("1") for k in range(256)], dtype=np.int64)


def run_fast_stats(
    players: int,
    games: int,
    seed: int,
    options: Mapping[str, object] | None = None,
    *,
    workers: int | None = None,
    progress: Callable[[int], None] | None = None,
) -> FastStats:
    """Play deals ``0 .. games-1`` of ``seed``'s stream with the compiled kernel on ``workers``
    threads (all cores for ``None``); ``progress(done)`` is called as games finish.

    Raises:
        InvalidOption: a bad player count, seed, option, worker count or a number of games
            below 1.
    """
    # The kernel (numba) loads only when it is asked for.
    from parlour.games.beggar.fast import play_random
    from parlour.lab.workers import resolve_workers

    game = BeggarGame()
    game.check_players(players)
    check_seed(seed)
    typed = game.typed_options(options)
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise InvalidOption(f"games must be a whole number of at least 1, got {quote(games)}")
    stats = FastStats(players, seed, typed.to_json())
    for start in range(0, games, FAST_BATCH):
        count = min(FAST_BATCH, games - start)

        def report(done: int, start: int = start) -> None:
            if progress is not None:
                progress(start + done)

        batch = play_random(
            players,
            count,
            seed,
            typed,
            start=start,
            workers=resolve_workers(workers),
            progress=report,
        )
        stats.games += count
        for code, name in enumerate(RESULTS):
            stats.results[name] += int((batch.result == code).sum())
        stats.cards_histogram = _histogram(batch.cards, stats.cards_histogram)
        stats.tricks_histogram = _histogram(batch.tricks, stats.tricks_histogram)
        won = batch.winners != 0
        shares = (batch.winners & 1) / np.maximum(_POPCOUNT[batch.winners], 1)
        stats.seat0_share += float(shares[won].sum())
        stats.decided += int(won.sum())
        best = int(np.argmax(batch.cards))
        if int(batch.cards[best]) > stats.longest_cards:
            stats.longest_index = start + best
            stats.longest_cards = int(batch.cards[best])
            stats.longest_tricks = int(batch.tricks[best])
            stats.longest_result = RESULTS[int(batch.result[best])]
    return stats
