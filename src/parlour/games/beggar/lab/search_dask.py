"""The long-game search on a Dask cluster: ``parlour beggar search --backend dask``.

:class:`DaskBackend` is a :class:`.search.Backend`: it hands a step's work to Dask workers as
top-level functions of :mod:`parlour.games.beggar.lab.search` with plain arguments (players,
seed, options, a range of the seed's stream or of its climbs, a deal), and merges what
comes back in a fixed order, so that a step gives exactly the search the threads of this process
give for the same seed and budget in deals:

* ``random`` and ``backward``: the step's deals are cut into ranges of the seed's stream, about
  :data:`PIECES_PER_THREAD` for each thread of the cluster, each playing its deals and sending
  back its longest (:func:`~.search.longest`); they merge by score, then
  index. ``backward`` then plays backward from each seed game on a worker of its own.
* ``climb``: a climb depends on the one before it only through the budget (the step stops after
  the climb that reaches it), so groups of consecutive climbs run on the workers, about as many
  as the rest of the budget needs at the deals a climb has played so far, and are read in
  order; climbs past the budget are dropped, as on threads.

Nothing about the backend is saved: a search started on threads goes on on Dask, and back.
"""

from __future__ import annotations

import importlib
import logging
import math
from collections import deque
from collections.abc import Generator, Iterator
from contextlib import contextmanager
from typing import Any

from parlour.errors import InvalidOption
from parlour.games.beggar.lab.search import (
    PATIENCE,
    Found,
    Progress,
    SearchState,
    climbs,
    extension,
    longest,
    merge_longest,
)
from parlour.lab.workers import resolve_workers, shake_hands, unreachable_reason

__all__ = ["CONNECT_TIMEOUT", "PIECES_PER_THREAD", "DaskBackend", "dask_backend"]

CONNECT_TIMEOUT = 5.0
"""Seconds to wait for a scheduler to answer before giving up on it."""
PIECES_PER_THREAD = 4
"""Ranges of the stream a step hands to each thread of the cluster (so that a slow one waits
for no more than a quarter of its share)."""
MIN_PIECE = 4096
"""The fewest deals in a range: smaller ones cost Dask more than they play."""
MAX_GROUP = 64
"""The most climbs in one task."""


class DaskBackend:
    """A step's work on the Dask cluster of ``client`` (a ``distributed.Client``); see the
    module's text for how each strategy is split."""

    def __init__(self, client: Any) -> None:
        self.client = client
        self._dask: Any = importlib.import_module("distributed")  # untyped: kept behind Any
        self._climb_deals = 2.0 * PATIENCE  # deals a climb plays, as last measured

    @property
    def threads(self) -> int:
        """The cluster's worker threads now (at least 1: a step waits for workers to join)."""
        nthreads: dict[str, int] = self.client.nthreads()
        return max(1, sum(nthreads.values()))

    def longest(
        self, state: SearchState, count: int, keep: int, progress: Progress | None
    ) -> list[Found]:
        size = max(MIN_PIECE, math.ceil(count / (PIECES_PER_THREAD * self.threads)))
        ranges = [(a, min(size, count - a)) for a in range(0, count, size)]
        args = (state.players, state.seed, state.options)
        futures = [
            self.client.submit(longest, *args, state.next_index + a, n, keep, pure=False)
            for a, n in ranges
        ]
        sizes = {future.key: n for future, (_, n) in zip(futures, ranges, strict=True)}
        done = 0
        for future in self._dask.as_completed(futures, loop=self.client.loop):
            done += sizes[future.key]
            if progress is not None:
                progress(done)
        return merge_longest((future.result() for future in futures), keep)

    def extensions(self, state: SearchState, seeds: list[Found]) -> list[list[Found]]:
        futures = [self.client.submit(extension, seed, state.options, pure=False) for seed in seeds]
        found: list[list[Found]] = self.client.gather(futures)
        return found

    def climbs(self, state: SearchState, deals: int) -> Generator[tuple[int, Found], None, None]:
        threads = self.threads
        args = (state.players, state.seed, state.options)
        futures: deque[Any] = deque()
        index = state.next_index
        ahead = played = read = 0  # climbs asked for and not read; deals and climbs read
        try:
            while True:
                mean = played / read if read else self._climb_deals
                wanted = math.ceil((deals - played) / mean) - ahead
                if wanted > 0 or not futures:
                    wanted = max(wanted, threads)
                    size = min(MAX_GROUP, math.ceil(wanted / (PIECES_PER_THREAD * threads)))
                    for start in range(index, index + wanted, size):
                        futures.append(self.client.submit(climbs, *args, start, size, pure=False))
                        index += size
                        ahead += size
                for plays, found in futures.popleft().result():
                    ahead -= 1
                    played += plays
                    read += 1
                    yield plays, found
        finally:
            self.client.cancel(list(futures))
            self._climb_deals = played / read if read else self._climb_deals


@contextmanager
def dask_backend(workers: int | None = None, scheduler: str | None = None) -> Iterator[DaskBackend]:
    """A :class:`DaskBackend` on the cluster at ``scheduler``, or on a LocalCluster of
    ``workers`` processes (all cores for ``None``) when none is given; closed on leaving.

    Raises:
        InvalidOption: a bad worker count, or a scheduler that does not answer within
            :data:`CONNECT_TIMEOUT` seconds (the message names its address).
    """
    dask: Any = importlib.import_module("distributed")  # untyped: kept behind Any
    if scheduler is None:
        cluster = dask.LocalCluster(
            n_workers=resolve_workers(workers),
            threads_per_worker=1,
            processes=True,
            dashboard_address=None,
            # A climb cancelled at the end of a step may still run as the cluster closes: its
            # workers would each warn about it.
            silence_logs=logging.ERROR,
            # Its HTTP server (health, metrics) on a free port of this machine, rather than a
            # warning when another cluster holds the default one.
            scheduler_kwargs={"dashboard_address": "127.0.0.1:0"},
        )
        with cluster, dask.Client(cluster, set_as_default=False) as client:
            yield DaskBackend(client)
        return
    _check_scheduler(scheduler)
    try:
        client = dask.Client(scheduler, timeout=CONNECT_TIMEOUT, set_as_default=False)
    except Exception as err:  # it went away since the check
        raise _unreachable(scheduler, err) from None
    with client:
        yield DaskBackend(client)


def _check_scheduler(address: str) -> None:
    """The scheduler at ``address`` answers, or one line saying why not."""
    try:
        shake_hands(address, CONNECT_TIMEOUT)
    except Exception as err:
        raise _unreachable(address, err) from None


def _unreachable(address: str, err: Exception) -> InvalidOption:
    reason = unreachable_reason(err, CONNECT_TIMEOUT)
    return InvalidOption(f"cannot reach the Dask scheduler at {address}: {reason}")
