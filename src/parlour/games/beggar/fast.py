"""Beggar-My-Neighbour at full speed: the public face of the compiled kernel (numba).

The kernel plays 2, 3 and 4 players, both ``unpaid_penalty`` modes (M4), counts cards and
tricks by M8, detects never-ending games by M10 (when asked; on by default) and honours the
``card_limit`` option (M11) exactly as :mod:`.rules` does: for any deal it gives the same result,
winners, cards, tricks and loop figures as ``rules.py`` (``tests/games/beggar/test_fast.py``
checks it deal by deal). Every trick is played by one compiled trick rule, for play, for the
search strategies (:func:`climb`) and for backward play (:func:`backward_deals`); two players
without a card limit play on bit planes, a faster representation of the same rules.

Deals are arrays (:class:`DealArray`): one row of 52 card classes per deal (0 for a number card,
1-4 for J, Q, K, A: the cards each demands, M1), the hands one after another, top card first,
and the hand sizes. :func:`encode_deals` and :meth:`DealArray.deal` convert from and to the M9
notation. :func:`random_deals` deals from a seed: deal ``i`` of a seed is always the same,
whatever the batch or the number of workers (it is not the deal ``rules.py`` shuffles from the
same seed). Work is split over threads (the kernels release the GIL); results never depend on
the number of workers. This module, and nothing behind it, is what other modules use.

>>> results = play_deals(encode_deals(["--Q-K--K-AQ-------J--A-J--/------Q-----JA---AKQ---K-J"]))
>>> results.summary(0)
{'result': 'win', 'winners': [0], 'cards': 192, 'tricks': 20, 'cycle': None}
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import TypeAlias

import numpy as np

from parlour.core import kernel_cache, splitmix
from parlour.core.inputs import quote
from parlour.core.rng import check_seed
from parlour.errors import InvalidOption
from parlour.games.beggar import (
    BeggarGame,
    BeggarOptions,
    UnpaidPenalty,
    _backward,
    _batch,
    _bits,
    _engine,
    _random,
    deal_sizes,
)
from parlour.games.beggar._arrays import (
    LOOP_SCORE,
    RESULTS,
    DealArray,
    FastResults,
    Int64Array,
    encode_deals,
    format_classes,
)
from parlour.games.beggar._engine import CAPTURE, NEXT_PLAYER, NO_LIMIT
from parlour.games.beggar.options import without_clock

__all__ = [
    "CHUNK",
    "LOOP_SCORE",
    "RESULTS",
    "BackwardDeals",
    "Climbs",
    "DealArray",
    "FastResults",
    "Options",
    "backward_deals",
    "check_workers",
    "climb",
    "encode_deals",
    "format_classes",
    "play_deals",
    "play_random",
    "random_deals",
]

CHUNK = 1 << 15
"""Deals per piece of work handed to a worker thread (and per progress report)."""

_GAME = BeggarGame()

Options: TypeAlias = Mapping[str, object] | BeggarOptions | None
"""Game options as ``BeggarGame().new`` takes them (``unpaid_penalty``, M4; ``card_limit``,
M11), or already typed; the kernel has no clock, so ``time_limit`` (M12) is refused."""
Progress = Callable[[int], None]


# Every kernel function's cache is checked against the whole kernel and the generator it
# inlines (see parlour.core.kernel_cache).
kernel_cache.share_stamp((_random, _engine, _bits, _batch, _backward), sources=(splitmix,))


def random_deals(players: int, count: int, seed: int, *, start: int = 0) -> DealArray:
    """Deals ``start`` to ``start + count - 1`` of ``seed``'s stream for ``players`` (M7 hand
    sizes, seat 0 the largest): uniformly shuffled decks, the same on any machine.

    Raises:
        InvalidOption: a bad player count, seed, count or start.
    """
    players = _GAME.check_players(players)
    seed = check_seed(seed)
    _check_count(count, "count", minimum=0)
    _check_count(start, "start", minimum=0)
    classes = np.empty((count, 52), dtype=np.int8)
    _batch.random_batch(seed, start, classes)
    sizes = np.tile(np.array(deal_sizes(players), dtype=np.int64), (count, 1))
    return DealArray(classes, sizes)


def check_workers(workers: int) -> int:
    """``workers`` checked: a whole number of threads, at least 1.

    Raises:
        InvalidOption: workers below 1.
    """
    _check_count(workers, "workers", minimum=1)
    return workers


def _check_count(value: object, field: str, *, minimum: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise InvalidOption(
            f"{field} must be a whole number of at least {minimum}, got {quote(value)}"
        )


def _typed(options: Options, detect_loops: bool) -> tuple[int, int]:
    """(M4 mode, card limit) for the kernel. Raises InvalidOption naming the option."""
    typed = options if isinstance(options, BeggarOptions) else _GAME.typed_options(options)
    without_clock(typed)  # M12: a simulation has no clock
    mode = CAPTURE if typed.unpaid_penalty is UnpaidPenalty.CAPTURE else NEXT_PLAYER
    limit = NO_LIMIT if typed.card_limit is None else typed.card_limit
    if not detect_loops and typed.card_limit is None:
        raise InvalidOption(
            "detect_loops=False needs a card_limit: without either a never-ending deal (M10) "
            "would never stop"
        )
    return mode, min(limit, NO_LIMIT)


def _run(
    count: int, work: Callable[[int, Int64Array], None], workers: int, progress: Progress | None
) -> FastResults:
    """Fill ``count`` result rows by pieces of :data:`CHUNK` deals on ``workers`` threads;
    ``work(start, rows)`` plays deals ``start ...`` into ``rows``."""
    rows = np.empty((count, 6), dtype=np.int64)
    starts = range(0, count, CHUNK)
    done = 0
    if workers == 1 or count <= CHUNK:
        for start in starts:
            work(start, rows[start : start + CHUNK])
            done += min(CHUNK, count - start)
            if progress is not None:
                progress(done)
        return FastResults.from_rows(rows)
    with ThreadPoolExecutor(max_workers=workers) as pool:
        futures = [pool.submit(work, start, rows[start : start + CHUNK]) for start in starts]
        for start, future in zip(starts, futures, strict=True):
            future.result()
            done += min(CHUNK, count - start)
            if progress is not None:
                progress(done)
    return FastResults.from_rows(rows)


def play_deals(
    deals: DealArray,
    options: Options = None,
    *,
    detect_loops: bool = True,
    bit_planes: bool = True,
    workers: int = 1,
    progress: Progress | None = None,
) -> FastResults:
    """Play every deal to its end (M6), a loop (M10, when ``detect_loops``) or the card limit
    (M11), on ``workers`` threads; ``progress(done)`` is called as pieces finish. Two players
    without a card limit play on bit planes unless ``bit_planes`` is off (the same figures,
    card by card: the two paths are checked against each other).

    Raises:
        InvalidOption: a bad option or worker count, or no card limit with ``detect_loops``
            off.
    """
    mode, limit = _typed(options, detect_loops)
    workers = check_workers(workers)
    n = deals.players

    def work(start: int, rows: Int64Array) -> None:
        stop = start + len(rows)
        _batch.play_batch(
            n,
            mode,
            limit,
            detect_loops,
            bit_planes,
            deals.classes[start:stop],
            deals.sizes[start:stop],
            rows,
        )

    return _run(len(deals), work, workers, progress)


def play_random(
    players: int,
    count: int,
    seed: int,
    options: Options = None,
    *,
    start: int = 0,
    detect_loops: bool = True,
    workers: int = 1,
    progress: Progress | None = None,
) -> FastResults:
    """Play deals ``start`` to ``start + count - 1`` of ``seed``'s stream (those of
    :func:`random_deals`), dealing each inside the kernel. Arguments as :func:`play_deals`.

    Raises:
        InvalidOption: a bad player count, seed, count, start, option or worker count.
    """
    players = _GAME.check_players(players)
    seed = check_seed(seed)
    _check_count(count, "count", minimum=0)
    _check_count(start, "start", minimum=0)
    mode, limit = _typed(options, detect_loops)
    workers = check_workers(workers)

    def work(offset: int, rows: Int64Array) -> None:
        _batch.play_random_batch(players, mode, limit, detect_loops, seed, start + offset, rows)

    return _run(count, work, workers, progress)


@dataclass(frozen=True, slots=True)
class Climbs:
    """What hill climbs found, one row per climb: the longest deal each met, its results and
    the number of deals the climb played."""

    deals: DealArray
    results: FastResults
    plays: Int64Array


def climb(
    players: int,
    seed: int,
    start: int,
    count: int = 1,
    options: Options = None,
    *,
    max_plays: int,
    patience: int,
) -> Climbs:
    """Hill climbs ``start`` to ``start + count - 1`` of ``seed``, for long games.

    Climb ``k`` starts from a deal of the seed's stream far beyond those of
    :func:`random_deals` and swaps two cards of different classes at a time (its own generator
    chooses them), keeping the swap when the game is at least as long by
    :attr:`FastResults.scores` (sideways moves cross plateaus), until ``patience`` plays
    without a new best or ``max_plays`` plays. Climbs are independent of one another (a caller
    may run several on threads; the kernel releases the GIL) and loops are detected (M10).

    Raises:
        InvalidOption: a bad player count, seed, start, count, option or budget.
    """
    players = _GAME.check_players(players)
    seed = check_seed(seed)
    _check_count(start, "start", minimum=0)
    _check_count(count, "count", minimum=0)
    _check_count(max_plays, "max_plays", minimum=1)
    _check_count(patience, "patience", minimum=1)
    mode, limit = _typed(options, True)
    best = np.zeros((count, 52), dtype=np.int8)
    rows = np.zeros((count, 6), dtype=np.int64)
    plays = np.zeros(count, dtype=np.int64)
    _batch.climb_batch(
        players, mode, limit, True, seed, start, max_plays, patience, best, rows, plays
    )
    sizes = np.tile(np.array(deal_sizes(players), dtype=np.int64), (count, 1))
    return Climbs(DealArray(best, sizes), FastResults.from_rows(rows), plays)


@dataclass(frozen=True, slots=True)
class BackwardDeals:
    """Deals found by backward play, longest first, each with the cards its game is expected
    to last: the cards put back, then the rest of the game it runs into (a loop, M10, may come
    first; play them to be sure)."""

    deals: DealArray
    cards: Int64Array


def backward_deals(
    deal: str, *, tricks: int, budget: int, depth: int, keep: int = 8
) -> BackwardDeals:
    """Longer two-player deals whose game runs into ``deal``'s (M9 notation).

    A trick-boundary position was reached by a trick its leader captured (M2): the last cards
    of his hand are that trick's pile in the order played. From each of the first ``tricks``
    boundaries of ``deal``'s game, tricks are unplayed depth first (putting each pile back on
    top of the hands as the players turned it, when playing forward turns exactly those cards
    and ends in that capture, M1), over at most ``budget`` positions and ``depth`` tricks back;
    a position of 26 cards each with seat 0 to lead is a deal (M7). The ``keep`` longest are
    returned.

    Raises:
        InvalidNotation: a bad deal. InvalidOption: a deal of more than two players, or a
            budget below 1.
    """
    array = encode_deals([deal])
    if array.players != 2:
        raise InvalidOption(f"backward play is for 2 players, the deal has {array.players}")
    for value, name in ((tricks, "tricks"), (budget, "budget"), (depth, "depth"), (keep, "keep")):
        _check_count(value, name, minimum=1)
    rows = np.zeros((keep, 52), dtype=np.int8)
    cards = np.zeros(keep, dtype=np.int64)
    filled = _backward.extend_deal(array.classes[0], tricks, budget, depth, rows, cards)
    order = np.argsort(-cards[:filled], kind="stable")
    sizes = np.full((filled, 2), 26, dtype=np.int64)
    return BackwardDeals(DealArray(rows[order], sizes), cards[order])
