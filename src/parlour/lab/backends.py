"""Where a lab run's batches are played, and what the run says when that place fails.

Backends: ``local`` (a process pool on this machine; one worker plays in this process) and
``dask`` (a Dask distributed cluster at ``scheduler``, or a LocalCluster of ``workers``
processes when none is given). Each gives a function that plays batches and yields each batch's
rows as it ends; the run commits them one by one, so whatever stops it keeps what was played.

Failures are said in one line (:class:`RunStopped`, or ``InvalidOption`` before anything is
played) rather than waited on:

* a scheduler that does not answer is refused before the run's file is made;
* a cluster without a live worker for ``idle_timeout`` seconds (:data:`IDLE_TIMEOUT` by default,
  measured on an injectable ``clock``) stops the run, its finished batches kept;
* a worker that leaves mid-run is a note (its batches in play are played again by Dask on
  another worker, so the figures do not change); a batch whose workers died one after another
  as often as Dask allows, or a lost scheduler, stops the run;
* on this machine, a worker process that ends abruptly (killed, out of memory) stops the run.
"""

from __future__ import annotations

import asyncio
import importlib
import logging
import queue
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, ClassVar, TypeVar

from parlour.core.inputs import parse_duration, quote
from parlour.errors import InvalidOption, ParlourError
from parlour.lab.workers import shake_hands, unreachable_reason

__all__ = [
    "BACKENDS",
    "CONNECT_TIMEOUT",
    "IDLE_TIMEOUT",
    "Play",
    "RunStopped",
    "Submit",
    "Watch",
    "executor",
    "monotonic",
]

BACKENDS = ("local", "dask")
IDLE_TIMEOUT = 30.0
"""Seconds a Dask run waits without a live worker before it stops (``--idle-timeout``)."""
CONNECT_TIMEOUT = 10.0
"""Seconds to wait for a scheduler to answer before giving up on it."""
LOOK_EVERY = 0.5
"""Seconds between two looks at a Dask cluster's workers while a run waits or plays."""

T = TypeVar("T")
Rows = list[tuple[int, str]]
Play = Callable[[str, Sequence[int]], Rows]
"""A run's batch player: the run's spec as JSON and a batch's game indices to their rows (a
top-level function, so that worker processes and Dask workers can call it)."""
Submit = Callable[[str, list[list[int]]], Iterator[Rows]]
"""Plays batches of a run and yields each batch's rows as it ends, in no fixed order."""


class RunStopped(ParlourError):
    """A run that its backend could not finish: no live worker, a lost scheduler, a worker
    process that died. What was played is kept in the run's file; the same command resumes."""

    code: ClassVar[str] = "run_stopped"


def monotonic() -> float:
    """The clock a run measures its waits on when it is given none (seconds; a test of the
    command line sets its own here)."""
    return time.monotonic()


def _no_note(text: str) -> None:
    """Notes nobody asked for are dropped."""


@dataclass(frozen=True)
class Watch:
    """How a run watches its cluster: how long it waits without a live worker, the clock that
    measures the wait (seconds; :func:`monotonic` for ``None``; a test moves its own), and
    where its notes go (a worker that left, in one line each)."""

    idle_timeout: float = IDLE_TIMEOUT
    clock: Callable[[], float] | None = None
    note: Callable[[str], None] = field(default=_no_note)


@contextmanager
def executor(
    backend: str, workers: int, scheduler: str | None, play: Play, watch: Watch | None = None
) -> Iterator[Submit]:
    """A function that plays batches with ``play`` on the backend.

    Raises:
        InvalidOption: a backend it does not know, or a scheduler that does not answer.
        RunStopped: while batches are played, a failure the run cannot get past.
    """
    if backend not in BACKENDS:
        raise InvalidOption(f"--backend: one of {', '.join(BACKENDS)}, got {quote(backend)}")
    watch = watch or Watch()
    parse_duration(
        watch.idle_timeout, field="--idle-timeout", allow_zero=True, maximum=86_400.0,
        error=InvalidOption,
    )  # fmt: skip
    if backend == "dask":
        with _dask(workers, scheduler, play, watch) as submit:
            yield submit
        return
    if workers <= 1:
        yield lambda text, todo: (play(text, b) for b in todo)
        return
    with ProcessPoolExecutor(max_workers=workers) as pool:

        def submit(text: str, todo: list[list[int]]) -> Iterator[Rows]:
            futures = [pool.submit(play, text, b) for b in todo]
            try:
                for future in as_completed(futures):
                    yield future.result()
            except BrokenProcessPool:
                raise RunStopped(
                    "a worker process on this machine ended abruptly (killed, or out of memory)"
                ) from None
            finally:  # stopped early (an error, Ctrl-C): the batches not begun are not played
                for future in futures:
                    future.cancel()

        yield submit


@contextmanager
def _dask(workers: int, scheduler: str | None, play: Play, watch: Watch) -> Iterator[Submit]:
    dask: Any = importlib.import_module("distributed")  # untyped: kept behind Any
    with _quiet(), _cluster(dask, workers, scheduler) as found:
        yield _submitter(dask, *found, play, watch)


@contextmanager
def _quiet() -> Iterator[None]:
    """Dask's own messages left out while the run plays: a worker that dies, or a scheduler,
    would be told of in many lines (keys rescheduled, connections closed, tracebacks); the run
    says it in one. Dask gives some of its loggers levels and handlers of their own (the
    client's), so each is set, and set back after."""
    loggers = [logging.getLogger("distributed")] + [
        found
        for name, found in list(logging.Logger.manager.loggerDict.items())
        if name.startswith("distributed.") and isinstance(found, logging.Logger)
    ]
    levels = [(found, found.level) for found in loggers]
    for found in loggers:
        found.setLevel(logging.CRITICAL)
    try:
        yield
    finally:
        for found, level in levels:
            found.setLevel(level)


@contextmanager
def _cluster(dask: Any, workers: int, scheduler: str | None) -> Iterator[tuple[Any, str]]:
    """A client of the cluster at ``scheduler`` (or of a new LocalCluster) and its name."""
    if scheduler is None:
        cluster = dask.LocalCluster(
            n_workers=workers,
            threads_per_worker=1,
            processes=True,
            dashboard_address=None,
            silence_logs=logging.CRITICAL,  # as _quiet, for the cluster's processes
            scheduler_kwargs={"dashboard_address": "127.0.0.1:0"},
        )
        with cluster, dask.Client(cluster, set_as_default=False) as client:
            _hush_gathers(client)
            yield client, "the LocalCluster"
        return
    _check_scheduler(scheduler)
    try:
        client = dask.Client(scheduler, timeout=CONNECT_TIMEOUT, set_as_default=False)
    except Exception as err:  # it went away since the handshake
        raise _unreachable(scheduler, err) from None
    with client:
        _hush_gathers(client)
        yield client, scheduler


def _hush_gathers(client: Any) -> None:
    """A batch's rows are waited for a little at a time (:meth:`_Cluster.wait`); a wait cut
    short leaves a task of Dask's that ends, when the run stops, with an exception nobody reads,
    which asyncio would print after the run's one line. Those (Dask's ``AllExit``) are
    dropped; anything else goes to the handler there was."""
    loop = client.loop.asyncio_loop
    before = loop.get_exception_handler()

    def handler(where: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        if type(context.get("exception")).__name__ == "AllExit":
            return
        if before is not None:
            before(where, context)
        else:
            where.default_exception_handler(context)

    loop.set_exception_handler(handler)


def _submitter(dask: Any, client: Any, where: str, play: Play, watch: Watch) -> Submit:
    def submit(text: str, todo: list[list[int]]) -> Iterator[Rows]:
        ended: queue.SimpleQueue[Any] = queue.SimpleQueue()
        # Each batch's future is let go once its rows are read, so that Dask forgets them (a
        # run of a million games would otherwise keep every row on its workers to the end).
        pending = _submit_all(client, play, text, todo, ended.put)
        cluster = _Cluster(client, where, watch)
        try:
            cluster.look()  # the workers at the start: any that leaves is told of
            while pending:
                key = cluster.wait(lambda: ended.get(timeout=LOOK_EVERY).key, queue.Empty)
                future, batch = pending.pop(key)
                rows = _rows(dask, cluster, future, batch)
                del future
                yield rows
                cluster.look(now_and_then=True)
            cluster.finish()
        finally:  # stopped early: nothing of this run stays queued on a shared cluster
            if pending:
                client.cancel([future for future, _ in pending.values()])

    return submit


def _submit_all(
    client: Any, play: Play, text: str, todo: list[list[int]], ended: Callable[[Any], None]
) -> dict[Any, tuple[Any, list[int]]]:
    """Each batch handed to Dask, ``ended`` called with its future when it ends (on a thread of
    Dask's): the futures and batches by key."""
    pending: dict[Any, tuple[Any, list[int]]] = {}
    for batch in todo:
        future = client.submit(play, text, batch, pure=False)
        pending[future.key] = (future, batch)
        future.add_done_callback(ended)
    return pending


def _rows(dask: Any, cluster: _Cluster, future: Any, batch: list[int]) -> Rows:
    """A finished batch's rows; a batch Dask gave up on stops the run in one line. Any other
    error is play_batch's own (a bug) and is raised as it is."""
    try:
        # Waited for too: the rows may have been lost with their worker, to be played again.
        rows: Rows = cluster.wait(lambda: future.result(timeout=LOOK_EVERY), TimeoutError)
    except dask.KilledWorker:
        raise RunStopped(
            f"the Dask workers playing games {batch[0]} to {batch[-1]} died one after another "
            f"as often as the scheduler at {cluster.where} allows"
        ) from None
    except dask.CancelledError:
        raise RunStopped(f"lost the Dask scheduler at {cluster.where}") from None
    return rows


class _Cluster:
    """The run's view of the cluster's workers: who left, and how long there has been none.

    A worker that left is a note once the run goes on without it (another worker is live); when
    none comes back within the watch's idle timeout, the run stops, and the one line that says
    so counts the workers that left instead."""

    def __init__(self, client: Any, where: str, watch: Watch) -> None:
        self.client, self.where, self.watch = client, where, watch
        self.clock = watch.clock or monotonic  # looked up now: a test may have set its own
        self.seen: set[str] = set()
        self.left: list[str] = []  # not told of yet
        self.none_since: float | None = None
        self.last = self.clock()

    def tell(self, how: str) -> None:
        """A note for each worker that left and was not told of yet."""
        for worker in self.left:
            self.watch.note(f"Dask worker {worker} left during the run; its games in play {how}")
        self.left = []

    def finish(self) -> None:
        """At the run's end: a worker lost near it is still told of."""
        self.look()
        self.tell("were played again")

    def wait(self, get: Callable[[], T], empty: type[Exception]) -> T:
        """``get()``, again after each look at the cluster while it raises ``empty`` (a wait of
        :data:`LOOK_EVERY` seconds that saw nothing)."""
        while True:
            try:
                return get()
            except empty:
                self.look()

    def look(self, *, now_and_then: bool = False) -> None:
        """Ask the scheduler for its workers (``now_and_then``: unless it was asked less than
        :data:`LOOK_EVERY` seconds ago).

        Raises:
            RunStopped: no live worker for the idle timeout, or the scheduler gone.
        """
        now = self.clock()
        if now_and_then and now - self.last < LOOK_EVERY:
            return
        self.last = now
        try:
            live = set(self.client.nthreads())
        except OSError:  # the comm closed: the scheduler went away
            raise RunStopped(f"lost the Dask scheduler at {self.where}") from None
        self.left += sorted(self.seen - live)
        self.seen = live
        if live:
            self.none_since = None
            self.tell("are played again on the others")
        elif self.none_since is None:
            self.none_since = now
        elif now - self.none_since >= self.watch.idle_timeout:
            gone = len(self.left)
            raise RunStopped(
                f"no live Dask worker at {self.where} for {self.watch.idle_timeout:g} s"
                + (f" ({gone} left during the run)" if gone else "")
            )


def _check_scheduler(address: str) -> None:
    """The scheduler at ``address`` answers, or one line saying why not (before the run's file
    is made)."""
    try:
        shake_hands(address, CONNECT_TIMEOUT)
    except Exception as err:
        raise _unreachable(address, err) from None


def _unreachable(address: str, err: Exception) -> InvalidOption:
    reason = unreachable_reason(err, CONNECT_TIMEOUT)
    return InvalidOption(f"--scheduler: cannot reach a Dask scheduler at {address}: {reason}")
