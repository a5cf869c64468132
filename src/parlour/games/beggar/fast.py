"""Beggar-My-Neighbour at full speed: a compiled kernel (numba) for batches of deals.

The kernel plays 2, 3 and 4 players, both ``unpaid_penalty`` modes (M4), counts cards and
tricks by M8, detects never-ending games by M10 (when asked; on by default) and honours the
``card_limit`` option (M11) exactly as :mod:`.rules` does: for any deal it gives the same result,
winners, cards, tricks and loop figures as ``rules.py`` (``tests/games/beggar/test_fast.py``
checks it deal by deal). Two players without a card limit play on bit planes (:mod:`._bits`),
everything else card by card (:mod:`._engine`).

Deals are arrays (:class:`DealArray`): one row of 52 card classes per deal (0 for a number card,
1-4 for J, Q, K, A: the cards each demands, M1), the hands one after another, top card first,
and the hand sizes. :func:`encode_deals` and :meth:`DealArray.deal` convert from and to the M9
notation. :func:`random_deals` deals from a seed: deal ``i`` of a seed is always the same,
whatever the batch or the number of workers (it is not the deal ``rules.py`` shuffles from the
same seed). Work is split over threads (the kernels release the GIL); results never depend on
the number of workers.

>>> results = play_deals(encode_deals(["--Q-K--K-AQ-------J--A-J--/------Q-----JA---AKQ---K-J"]))
>>> results.summary(0)
{'result': 'win', 'winners': [0], 'cards': 192, 'tricks': 20, 'cycle': None}
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from parlour.core.game import JSON
from parlour.core.rng import check_seed
from parlour.errors import InvalidNotation, InvalidOption
from parlour.games.beggar import _batch
from parlour.games.beggar._engine import CAPTURE, NEXT_PLAYER, NO_LIMIT
from parlour.games.beggar.notation import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    Deal,
    deal_sizes,
    honour,
    parse_deal,
)
from parlour.games.beggar.rules import BeggarGame, BeggarOptions, UnpaidPenalty

__all__ = [
    "RESULTS",
    "DealArray",
    "FastResults",
    "check_workers",
    "encode_deals",
    "format_classes",
    "play_deals",
    "play_random",
    "random_deals",
]

RESULTS = ("win", "loop", "limit")
"""Result names by code, as ``rules.py``'s outcomes name them."""

CHUNK = 1 << 15
"""Deals per piece of work handed to a worker thread (and per progress report)."""

_CLASS_CHARS = "-JQKA"
_DECK_COUNTS = np.array([36, 4, 4, 4, 4])
_GAME = BeggarGame()

Int8Array = npt.NDArray[np.int8]
Int64Array = npt.NDArray[np.int64]
Progress = Callable[[int], None]


@dataclass(frozen=True, slots=True)
class DealArray:
    """Deals as arrays: ``classes`` (deals x 52, int8: 0 number card, 1-4 J Q K A), the hands
    one after another, each top card first, and ``sizes`` (deals x players, int64)."""

    classes: Int8Array
    sizes: Int64Array

    def __post_init__(self) -> None:
        _check_deals(self.classes, self.sizes)

    @property
    def players(self) -> int:
        return int(self.sizes.shape[1])

    def __len__(self) -> int:
        return int(self.classes.shape[0])

    def deal(self, index: int) -> str:
        """Deal ``index`` in rank-only M9 notation, e.g. ``--A-K.../-Q--...``."""
        return format_classes(self.classes[index], self.sizes[index])

    def take(self, indices: Iterable[int]) -> DealArray:
        """The deals at ``indices``, in that order."""
        rows = np.fromiter(indices, dtype=np.int64)
        return DealArray(self.classes[rows], self.sizes[rows])


def format_classes(row: Sequence[int] | Int8Array, sizes: Sequence[int] | Int64Array) -> str:
    """One deal's 52 classes (hands one after another, ``sizes`` cards each) in M9 notation."""
    hands = []
    start = 0
    for size in sizes:
        hands.append("".join(_CLASS_CHARS[c] for c in row[start : start + int(size)]))
        start += int(size)
    return "/".join(hands)


def _check_deals(classes: Int8Array, sizes: Int64Array) -> None:
    """M9: every row uses one deck exactly once; M7: hands as even as possible."""
    if classes.dtype != np.int8 or classes.ndim != 2 or classes.shape[1] != 52:
        raise InvalidNotation("classes must be an int8 array of 52 card classes per deal")
    if sizes.dtype != np.int64 or sizes.ndim != 2 or sizes.shape[0] != classes.shape[0]:
        raise InvalidNotation("sizes must be an int64 array of hand sizes, one row per deal")
    if not MIN_PLAYERS <= sizes.shape[1] <= MAX_PLAYERS:
        raise InvalidNotation(
            f"a deal has {MIN_PLAYERS} to {MAX_PLAYERS} hands (M9), got {sizes.shape[1]}"
        )
    if not len(classes):
        return
    if classes.min() < 0 or classes.max() > 4:
        row = int(np.argmax((classes < 0).any(axis=1) | (classes > 4).any(axis=1)))
        raise InvalidNotation(f"deal {row}: card classes are 0 (number card) to 4 (ace)")
    counts = np.stack([(classes == c).sum(axis=1) for c in range(5)], axis=1)
    bad = np.flatnonzero((counts != _DECK_COUNTS).any(axis=1))
    if len(bad):
        raise InvalidNotation(
            f"deal {bad[0]}: a deal holds 4 aces, 4 kings, 4 queens, 4 jacks and 36 number "
            "cards (M9)"
        )
    uneven = np.flatnonzero((sizes.sum(axis=1) != 52) | (sizes.max(axis=1) - sizes.min(axis=1) > 1))
    if len(uneven):
        raise InvalidNotation(
            f"deal {uneven[0]}: the hands hold {'/'.join(map(str, sizes[uneven[0]]))} cards; "
            "the 52 cards are dealt as evenly as possible (M7)"
        )


def encode_deals(deals: Iterable[str | Deal], players: int | None = None) -> DealArray:
    """Deals in M9 notation (or parsed :data:`.notation.Deal` tuples) as a :class:`DealArray`.

    Raises:
        InvalidNotation: a bad deal (naming it by its index), or deals of different player
            counts.
    """
    rows: list[list[int]] = []
    sizes: list[list[int]] = []
    for index, given in enumerate(deals):
        try:
            hands = parse_deal(given, players) if isinstance(given, str) else given
        except InvalidNotation as err:
            raise InvalidNotation(f"deal {index}: {err}") from None
        if sizes and len(hands) != len(sizes[0]):
            raise InvalidNotation(
                f"deal {index} has {len(hands)} hands, the first one {len(sizes[0])}"
            )
        rows.append([honour(t) for hand in hands for t in hand])
        sizes.append([len(hand) for hand in hands])
    width = len(sizes[0]) if sizes else (players or MIN_PLAYERS)
    return DealArray(
        np.array(rows, dtype=np.int8).reshape(len(rows), 52),
        np.array(sizes, dtype=np.int64).reshape(len(sizes), width),
    )


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


@dataclass(frozen=True, slots=True)
class FastResults:
    """Results by deal: ``result`` (int8 codes into :data:`RESULTS`), ``winners`` (a bit per
    seat), ``cards`` and ``tricks`` (M8; for a loop, when the repeat was seen), and for a loop
    (M10) the cards and tricks where the cycle starts (-1 otherwise)."""

    result: Int8Array
    winners: npt.NDArray[np.uint8]
    cards: Int64Array
    tricks: Int64Array
    cycle_start_cards: Int64Array
    cycle_start_tricks: Int64Array

    @classmethod
    def from_rows(cls, rows: Int64Array) -> FastResults:
        # The counts stay views of the kernel's rows: no copy of a large batch.
        return cls(
            rows[:, 0].astype(np.int8),
            rows[:, 1].astype(np.uint8),
            rows[:, 2],
            rows[:, 3],
            rows[:, 4],
            rows[:, 5],
        )

    def __len__(self) -> int:
        return int(self.result.shape[0])

    def winners_of(self, index: int) -> tuple[int, ...]:
        mask = int(self.winners[index])
        return tuple(seat for seat in range(MAX_PLAYERS) if mask >> seat & 1)

    def summary(self, index: int) -> dict[str, JSON]:
        """Deal ``index``'s result as ``rules.py``'s ``summary()`` gives it (less ``deal``):
        ``{"result", "winners", "cards", "tricks", "cycle"}``."""
        cards = int(self.cards[index])
        tricks = int(self.tricks[index])
        cycle: JSON = None
        if self.result[index] == 1:
            start_cards = int(self.cycle_start_cards[index])
            start_tricks = int(self.cycle_start_tricks[index])
            cycle = {
                "found_at_cards": cards,
                "found_at_tricks": tricks,
                "start_cards": start_cards,
                "start_tricks": start_tricks,
                "length_cards": cards - start_cards,
                "length_tricks": tricks - start_tricks,
            }
        return {
            "result": RESULTS[int(self.result[index])],
            "winners": list(self.winners_of(index)),
            "cards": cards,
            "tricks": tricks,
            "cycle": cycle,
        }


def check_workers(workers: int) -> int:
    """``workers`` checked: a whole number of threads, at least 1.

    Raises:
        InvalidOption: workers below 1.
    """
    _check_count(workers, "workers", minimum=1)
    return workers


def _check_count(value: object, field: str, *, minimum: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise InvalidOption(f"{field} must be a whole number of at least {minimum}, got {value!r}")


def _typed(
    options: Mapping[str, object] | BeggarOptions | None, detect_loops: bool
) -> tuple[int, int]:
    """(M4 mode, card limit) for the kernel. Raises InvalidOption naming the option."""
    typed = options if isinstance(options, BeggarOptions) else _GAME.typed_options(options)
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
    options: Mapping[str, object] | BeggarOptions | None = None,
    *,
    detect_loops: bool = True,
    workers: int = 1,
    progress: Progress | None = None,
) -> FastResults:
    """Play every deal to its end (M6), a loop (M10, when ``detect_loops``) or the card limit
    (M11); ``options`` as ``BeggarGame().new`` takes them, on ``workers`` threads.
    ``progress(done)`` is called as pieces finish.

    Raises:
        InvalidOption: a bad option or worker count, or no card limit with ``detect_loops``
            off.
    """
    return _play_deals(
        deals, options, detect_loops=detect_loops, workers=workers, progress=progress, bits=True
    )


def _play_deals(
    deals: DealArray,
    options: Mapping[str, object] | BeggarOptions | None,
    *,
    detect_loops: bool,
    workers: int,
    progress: Progress | None,
    bits: bool,
) -> FastResults:
    """:func:`play_deals`; ``bits=False`` plays two players card by card too (for tests)."""
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
            bits,
            deals.classes[start:stop],
            deals.sizes[start:stop],
            rows,
        )

    return _run(len(deals), work, workers, progress)


def play_random(
    players: int,
    count: int,
    seed: int,
    options: Mapping[str, object] | BeggarOptions | None = None,
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
