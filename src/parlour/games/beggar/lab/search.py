"""Search for long Beggar-My-Neighbour games: ``parlour beggar search``.

Three strategies, all on the compiled kernel (:mod:`parlour.games.beggar.fast`):

* ``random``: deals ``0, 1, 2, ...`` of the seed's stream, each played once.
* ``climb``: hill climbing. Climb ``k`` starts from a random deal of its own and swaps two
  cards of different classes at a time, keeping a swap when the game gets no shorter, until
  :data:`PATIENCE` deals in a row bring no new best (or :data:`MAX_CLIMB` deals); then the next
  climb restarts from a fresh deal. Every card of a deal is turned within the first 60 or so
  cards, so a swap changes the whole game: a long deal's neighbours are no longer than random
  deals on average, and climbing does about as well as random sampling.
* ``backward`` (2 players, no card limit): random sampling, plus backward play from the longest
  deals (:func:`parlour.games.beggar.fast.backward_deals`): from each of the first
  :data:`EXTEND_TRICKS` trick boundaries of a long game, unplay tricks to find other deals
  whose game runs into that position, with openings of their own, often longer ones. Found
  deals that enter the top are extended in turn. Every found deal is played forward to confirm
  its figures.

A search is a :class:`SearchState`: its settings, how much was played, where the seed's stream
goes on, and the ``top`` longest games found. :func:`search_step` plays more and returns the next
state, so a search saved as JSON resumes where it stopped without playing a deal twice. Given
the same budgets in deals, a search gives the same results with any number of workers, on threads
or on a Dask cluster (:class:`Backend`): a step is cut into pieces that do not depend on one
another (ranges of the stream, climbs, backward searches) and merged in a fixed order. A game
that never ends (M10) ranks above every game that does.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterable, Iterator, Mapping
from concurrent.futures import ThreadPoolExecutor
from contextlib import closing
from dataclasses import dataclass, replace
from functools import partial
from typing import Protocol, TypeVar

import numpy as np

from parlour.core.inputs import quote
from parlour.errors import InvalidOption
from parlour.games.beggar import BeggarGame
from parlour.games.beggar.fast import (
    backward_deals,
    climb,
    play_deals,
    play_random,
    random_deals,
)
from parlour.games.beggar.lab.search_state import (
    MAX_INDEX,
    MAX_TOP,
    STRATEGIES,
    Found,
    SearchState,
    best_of,
    found_of,
    new_search,
)
from parlour.lab.workers import resolve_workers

__all__ = [
    "EXTEND_TRICKS",
    "MAX_CLIMB",
    "MAX_INDEX",
    "MAX_TOP",
    "PATIENCE",
    "STEP_DEALS",
    "STRATEGIES",
    "Backend",
    "Found",
    "SearchState",
    "climbs",
    "extension",
    "longest",
    "merge_longest",
    "new_search",
    "search_step",
]

PATIENCE = 300
"""Deals a climb plays without a new best before it restarts from a fresh deal."""
MAX_CLIMB = 20_000
"""The most deals one climb plays."""
EXTEND_TRICKS = 30
"""Trick boundaries of a long game that backward play starts from."""
UNPLAY_BUDGET = 20_000
"""Positions one backward search may visit."""
UNPLAY_DEPTH = 1_500
"""Tricks one backward search may unplay."""
SEEDS_PER_STEP = 4
"""The longest deals of each random batch that ``backward`` extends."""
STEP_DEALS = {"random": 1 << 19, "climb": 1 << 17, "backward": 1 << 19}
"""Deals per :func:`search_step` of a long search (the command line saves after each)."""

_GAME = BeggarGame()
T = TypeVar("T")
Progress = Callable[[int], None]


class Backend(Protocol):
    """Where a step's work runs: threads here (the default) or a Dask cluster
    (:class:`.search_dask.DaskBackend`). However it splits the work, it gives
    :func:`longest`'s games of ``count`` deals from ``next_index`` on, each seed's
    :func:`extension`, and the :func:`climbs` from ``next_index`` on one at a time, as long as
    asked (begun about ``deals`` deals ahead; closing it drops the rest)."""

    def longest(
        self, state: SearchState, count: int, keep: int, progress: Progress | None
    ) -> list[Found]: ...

    def extensions(self, state: SearchState, seeds: list[Found]) -> list[list[Found]]: ...

    def climbs(
        self, state: SearchState, deals: int
    ) -> Generator[tuple[int, Found], None, None]: ...


def search_step(
    state: SearchState,
    deals: int,
    *,
    workers: int | None = 1,
    progress: Progress | None = None,
    backend: Backend | None = None,
) -> SearchState:
    """Play about ``deals`` more deals and return the search after them: exactly ``deals`` for
    ``random``; for ``climb``, whole climbs in order until at least ``deals`` were played.
    ``progress(played)`` is called as work finishes. The work runs on ``backend``, or on
    ``workers`` threads without one; either way the search after the step is the same.

    Raises:
        InvalidOption: ``deals`` below 1 or a bad worker count.
    """
    if isinstance(deals, bool) or not isinstance(deals, int) or deals < 1:
        raise InvalidOption(f"deals must be a whole number of at least 1, got {quote(deals)}")
    run = _Threads(resolve_workers(workers)) if backend is None else backend
    if state.strategy == "climb":
        with closing(run.climbs(state, deals)) as climbed:
            return _after_climbs(state, deals, climbed, progress)
    keep = state.top_k if state.strategy == "random" else max(state.top_k, SEEDS_PER_STEP)
    batch = run.longest(state, deals, keep, progress)
    after = replace(state, deals=state.deals + deals, next_index=state.next_index + deals)
    if state.strategy == "random":
        return replace(after, top=best_of([*state.top, *batch], state.top_k))
    done = set(state.extended)
    seeds = [f for f in batch[:SEEDS_PER_STEP] if f.result == "win"]
    seeds += [f for f in state.top if f.result == "win" and f.deal not in done]
    seeds = list({f.deal: f for f in seeds}.values())
    extensions = run.extensions(state, seeds)
    top = best_of([*state.top, *batch, *(f for e in extensions for f in e)], state.top_k)
    in_top = {f.deal for f in top}
    extended = (d for d in (*state.extended, *(f.deal for f in seeds)) if d in in_top)
    return replace(
        after,
        deals=after.deals + sum(len(e) for e in extensions),
        top=top,
        extended=tuple(dict.fromkeys(extended)),
    )


def longest(
    players: int,
    seed: int,
    options: Mapping[str, object],
    start: int,
    count: int,
    keep: int,
    workers: int = 1,
    progress: Progress | None = None,
) -> list[tuple[int, int, Found]]:
    """The ``keep`` longest of deals ``start`` to ``start + count - 1`` of the seed's stream,
    each as (score, index, game), best first by score and then index: an order that does not
    depend on the range, so the longest of each piece of a range merge into those of the whole
    (:func:`merge_longest`)."""
    results = play_random(
        players, count, seed, options, start=start, workers=workers, progress=progress
    )
    score = results.scores
    keep = min(keep, count)
    cut = np.partition(score, count - keep)[count - keep]
    picked = [*np.flatnonzero(score > cut), *np.flatnonzero(score == cut)][:keep]
    found = []
    for i in sorted(picked, key=lambda i: (-score[i], i)):
        deal = random_deals(players, 1, seed, start=start + int(i)).deal(0)
        found.append((int(score[i]), start + int(i), found_of(deal, results, int(i))))
    return found


def merge_longest(pieces: Iterable[list[tuple[int, int, Found]]], keep: int) -> list[Found]:
    """The ``keep`` longest games of pieces' :func:`longest`, best first."""
    merged = sorted((g for piece in pieces for g in piece), key=lambda g: (-g[0], g[1]))
    return [found for _, _, found in merged[:keep]]


def extension(found: Found, options: Mapping[str, object]) -> list[Found]:
    """The deals backward play finds from ``found``'s game, each played forward."""
    unplayed = backward_deals(
        found.deal, tricks=EXTEND_TRICKS, budget=UNPLAY_BUDGET, depth=UNPLAY_DEPTH
    )
    results = play_deals(unplayed.deals, options)
    return [found_of(unplayed.deals.deal(i), results, i) for i in range(len(unplayed.deals))]


def climbs(
    players: int, seed: int, options: Mapping[str, object], start: int, count: int
) -> list[tuple[int, Found]]:
    """Climbs ``start`` to ``start + count - 1``: each one's deals played and longest game."""
    climbed = climb(players, seed, start, count, options, max_plays=MAX_CLIMB, patience=PATIENCE)
    return [
        (int(climbed.plays[k]), found_of(climbed.deals.deal(k), climbed.results, k))
        for k in range(count)
    ]


@dataclass(frozen=True, slots=True)
class _Threads:
    """The work of a step on threads of this process (the kernel releases the GIL)."""

    workers: int

    def longest(
        self, state: SearchState, count: int, keep: int, progress: Progress | None
    ) -> list[Found]:
        args = (state.players, state.seed, state.options, state.next_index, count, keep)
        return merge_longest([longest(*args, self.workers, progress)], keep)

    def extensions(self, state: SearchState, seeds: list[Found]) -> list[list[Found]]:
        with ThreadPoolExecutor(max_workers=self.workers) as pool:
            return list(pool.map(partial(extension, options=state.options), seeds))

    def climbs(self, state: SearchState, deals: int) -> Generator[tuple[int, Found], None, None]:
        pool = ThreadPoolExecutor(max_workers=self.workers)
        args = (state.players, state.seed, state.options)
        index = state.next_index
        try:
            while True:
                block = [pool.submit(climbs, *args, index + k, 1) for k in range(4 * self.workers)]
                index += len(block)
                for future in block:
                    yield from future.result()
        finally:
            pool.shutdown(cancel_futures=True)


def _after_climbs(
    state: SearchState, deals: int, climbed: Iterator[tuple[int, Found]], progress: Progress | None
) -> SearchState:
    """The search after the climbs from ``next_index`` on, in order, until ``deals`` were
    played: climbs past the budget are dropped, so that the climbs a budget covers never
    depend on the number of workers."""
    found = list(state.top)
    played = 0
    for plays, best in climbed:
        played += plays
        found.append(best)
        if progress is not None:
            progress(played)
        if played >= deals:
            break
    index = state.next_index + len(found) - len(state.top)
    return replace(
        state, deals=state.deals + played, next_index=index, top=best_of(found, state.top_k)
    )
