"""Bots at the server's tables: each decision is made from the seat's view alone (sent as its
JSON, so nothing else can reach the bot), never on the event loop.

Two lanes, so that a search never holds up a quick bot: the quick bots (``random``, ``heuristic``
and ``medium``, ``easy``, the takeover, the single-move ``bot``: a few milliseconds a decision)
decide one after another in a thread of the server; the searches (``hard``, ``expert``,
``ismcts...``) in the worker processes, at most one a worker at a time, taken round-robin by
room (:class:`FairQueue`), and each stops after ``seconds`` (``--bot-seconds``) whatever its
spec asks for. A search therefore waits at most for one decision of each other room that has
one waiting, ``seconds`` each, shared among the workers.

Seat kinds: ``person``, or a bot spec as ``parlour play`` takes them: the levels the lobby offers
(:data:`OFFERED`: ``easy``, ``medium``, ``hard``, ``expert``) or ``random``, ``heuristic``,
``ismcts``, ``ismcts:N``, ``ismcts:Ns`` (never the measurement-only ``oracle``, which
:func:`~parlour.bots.make_agent` refuses); a game without decisions (one with no strategy) has
the kind ``bot``, which plays its only move. A person away longer than the takeover time is
played by the heuristic (:data:`TAKEOVER`) until he is back.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import concurrent.futures.process
import contextlib
import copy
import logging
import multiprocessing
import os
import signal
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import lru_cache, partial
from multiprocessing import resource_tracker
from typing import Any

from parlour.bots import LEVELS, Ismcts, SearchBudget, make_agent, warm_up
from parlour.core.game import Agent, Game
from parlour.core.rng import make_rng
from parlour.errors import InvalidOption
from parlour.games import GAMES, find_game

__all__ = ["OFFERED", "TAKEOVER", "BotPool", "FairQueue", "check_kind", "is_search"]

log = logging.getLogger("parlour.server")

OFFERED = LEVELS
"""The bots the lobby offers a seat, weakest first (the difficulty levels)."""

TAKEOVER = "heuristic"
"""Who plays for a person who has been away too long."""

MAX_ITERATIONS = 50_000
MAX_SECONDS = 10.0


def check_kind(game: Game, kind: object, where: str) -> str:
    """A seat kind for ``game``: ``person`` or a bot this server offers.

    Raises:
        InvalidOption: naming ``where`` and the kinds offered.
    """
    if not isinstance(kind, str):
        raise InvalidOption(f"{where} must be 'person' or a bot such as 'heuristic'")
    kind = kind.strip().lower()
    if kind == "person":
        return kind
    if game.strategy is None:
        if kind == "bot":
            return kind
        raise InvalidOption(
            f"{where}: {game.title} has no decisions, so a seat is 'person' or 'bot', not {kind!r}"
        )
    try:
        agent = make_agent(kind, game)
    except InvalidOption as err:
        raise InvalidOption(f"{where}: {err}") from None
    budget = getattr(agent, "budget", None)
    iterations = getattr(budget, "iterations", None) or 0
    seconds = getattr(budget, "seconds", None) or 0.0
    if iterations > MAX_ITERATIONS or seconds > MAX_SECONDS:
        raise InvalidOption(
            f"{where}: a bot at this server thinks for at most {MAX_ITERATIONS} iterations "
            f"or {MAX_SECONDS:g} seconds a move, got {kind!r}"
        )
    return kind


@lru_cache(maxsize=256)  # kinds come from clients (ismcts:1 ... ismcts:50000): a bounded cache
def _agent(game_name: str, kind: str, seconds: float | None = None) -> Agent:
    """The agent of ``kind``; a search stops after ``seconds`` at most (when given), or after
    its own iterations or seconds if that comes first."""
    agent = make_agent(kind, find_game(game_name))
    if seconds is None or not isinstance(agent, Ismcts):
        return agent
    budget = agent.budget
    capped = copy.copy(agent)
    own = budget.seconds if budget.seconds is not None else seconds
    capped.budget = SearchBudget(budget.iterations, min(own, seconds))
    return capped


SEARCHES = frozenset({"hard", "expert", "ismcts"})
"""The kinds that search (:class:`~parlour.bots.ismcts.Ismcts`), with any budget after ``:``."""


def is_search(game: Game, kind: str) -> bool:
    """Whether ``kind`` searches (its decisions go to the worker processes, in turn by room),
    rather than being a quick bot (a few milliseconds a decision)."""
    return game.strategy is not None and kind.partition(":")[0] in SEARCHES


def decide(
    game_name: str,
    kind: str,
    view_json: dict[str, Any],
    legal: list[int],
    seed: int,
    seconds: float | None = None,
) -> int:
    """One bot decision (run in a worker or the quick bots' thread): the action id ``kind``
    chooses from ``view_json`` among the ``legal`` action ids, a search thinking ``seconds``
    at most."""
    game = find_game(game_name)
    actions = tuple(game.action_from_id(i) for i in legal)
    if kind == "bot" or len(actions) == 1:
        return legal[0]
    view = game.view_from_json(view_json)
    action = _agent(game_name, kind, seconds).choose(view, actions, make_rng(seed))
    return game.action_id(action)


def _search(args: tuple[Any, ...], seconds: float | None) -> int:
    """:func:`decide` with its arguments in a tuple (a search handed to a worker)."""
    game_name, kind, view_json, legal, seed = args
    return decide(game_name, kind, view_json, legal, seed, seconds)


def _warm(server: int) -> None:
    """Start a new worker (the games are imported with this module): it leaves as soon as the
    server process ``server`` is gone, even killed with SIGKILL, instead of waiting forever."""

    # Ctrl-C at a terminal reaches the whole process group: the server stops its workers
    # itself, so a worker does not die of it with a traceback of its own. The worker was
    # started with SIGINT blocked (_workers_start_deaf): one that came meanwhile is pending,
    # and ignoring the signal discards it before it is unblocked.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})

    def watch() -> None:
        while os.getppid() == server:
            time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=watch, name="parlour-bot-watch", daemon=True).start()
    for game in GAMES.values():
        warm_up(game)  # compiled playouts load before the first decision needs them


@contextlib.contextmanager
def _workers_start_deaf() -> Iterator[None]:
    """Worker processes started deaf to SIGINT: the thread that starts one holds SIGINT
    blocked meanwhile, and a process keeps its signal mask across fork and exec, so a Ctrl-C
    at the terminal that reaches the process group while the worker is still starting
    (importing the ``parlour`` script as its main module, then this module and the games to
    unpickle :func:`_warm`) stays pending in the worker until :func:`_warm` ignores it. The
    server loses nothing: only this thread blocks SIGINT and no handler changes, so the signal
    goes to another thread of the server or waits for the mask to come back. (Setting SIGINT
    to ``SIG_IGN`` meanwhile, as an earlier version did, lost a Ctrl-C that another thread of
    the server took in that moment, and the server ran on.) Python's resource tracker is
    started first: starting it unblocks SIGINT in this thread when it is done."""
    resource_tracker.ensure_running()
    mask = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)


@dataclass(eq=False)
class _Job:
    args: tuple[Any, ...]
    answer: asyncio.Future[int]


@dataclass(eq=False)
class FairQueue:
    """Searches waiting for a worker, served round-robin by room: the rooms take turns in the
    order they came, one search each a turn (a room with more waiting goes back to the end of
    the round), so no room's search waits for a second decision of another room. ``slots``
    searches run at a time (one a worker; ``start`` hands one to a worker); a search called off
    while it waits leaves the queue, one called off while it runs keeps its worker until it
    stops (``seconds`` at most)."""

    slots: int
    start: Callable[[tuple[Any, ...]], concurrent.futures.Future[int]]
    running: int = 0
    waiting: dict[str, deque[_Job]] = field(default_factory=dict)

    def __len__(self) -> int:
        return sum(len(jobs) for jobs in self.waiting.values())

    async def run(self, room: str, *args: Any) -> int:
        return await self.submit(room, *args)

    def submit(self, room: str, *args: Any) -> asyncio.Future[int]:
        """Queue a search for ``room`` now (started at once if a slot is free); its answer.
        Cancelling the answer calls the search off."""
        answer: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        self.waiting.setdefault(room, deque()).append(_Job(args, answer))
        self._pump()
        return answer

    def _pump(self) -> None:
        loop = asyncio.get_running_loop()
        while self.running < self.slots and self.waiting:
            room = next(iter(self.waiting))
            jobs = self.waiting.pop(room)
            job = jobs.popleft()
            if jobs:
                self.waiting[room] = jobs  # the room goes to the end of the round
            if job.answer.done():  # called off while it waited
                continue
            self.running += 1
            try:
                work: concurrent.futures.Future[int] = self.start(job.args)
            except Exception as err:  # a pool that cannot take work: this search fails
                self.running -= 1
                job.answer.set_exception(err)
                continue
            work.add_done_callback(partial(_call_soon, loop, self._finished, job))

    def drop(self) -> None:
        """Call off every search waiting (the pool is closing)."""
        for jobs in self.waiting.values():
            for job in jobs:
                job.answer.cancel()
        self.waiting.clear()

    def _finished(self, job: _Job, work: concurrent.futures.Future[int]) -> None:
        self.running -= 1
        if not job.answer.done():
            if work.cancelled():
                job.answer.cancel()
            elif (err := work.exception()) is not None:
                job.answer.set_exception(err)
            else:
                job.answer.set_result(work.result())
        self._pump()


def _call_soon(
    loop: asyncio.AbstractEventLoop,
    finished: Callable[[_Job, concurrent.futures.Future[int]], None],
    job: _Job,
    work: concurrent.futures.Future[int],
) -> None:
    """A worker's future is done (in whatever thread): tell the event loop."""
    with contextlib.suppress(RuntimeError):  # the loop has closed: nobody waits any more
        loop.call_soon_threadsafe(finished, job, work)


class BotPool:
    """Worker processes for the searches (``workers`` 0: a thread, for small machines and
    tests, which still keeps the event loop free between Python steps) and a thread for the
    quick bots; a search thinks ``seconds`` at most a decision."""

    def __init__(self, workers: int, seconds: float | None = None) -> None:
        self.workers = workers
        self.seconds = seconds
        self._pool: concurrent.futures.Executor | None = None
        self._quick: concurrent.futures.ThreadPoolExecutor | None = None
        self.searches = FairQueue(max(1, workers), self._submit)

    def _executor(self) -> concurrent.futures.Executor:
        pool = self._pool
        if isinstance(pool, concurrent.futures.ProcessPoolExecutor) and _broken(pool):
            # A worker died (killed, out of memory): the pool takes no more work, so a new
            # one replaces it, and the bots play on.
            log.warning("a bot worker process died: starting a new one")
            self._pool = None
            _stop_pool(pool)
        if self._pool is None:
            if self.workers <= 0:
                self._pool = concurrent.futures.ThreadPoolExecutor(1, "parlour-bot")
            else:
                self._pool = concurrent.futures.ProcessPoolExecutor(
                    self.workers,
                    mp_context=multiprocessing.get_context("spawn"),
                    initializer=_warm,
                    initargs=(os.getpid(),),
                )
        return self._pool

    def _submit(self, args: tuple[Any, ...]) -> concurrent.futures.Future[int]:
        with _workers_start_deaf():  # the executor starts a worker on a submit when it needs one
            return self._executor().submit(_search, args, self.seconds)

    async def decide(
        self,
        game: Game,
        kind: str,
        view_json: dict[str, Any],
        legal: list[int],
        seed: int,
        room: str = "",
    ) -> int:
        """``kind``'s action id among ``legal``: a quick bot's at once in the quick thread, a
        search's when ``room``'s turn in :attr:`searches` comes."""
        if kind == "bot" or len(legal) == 1:
            return legal[0]
        args = (game.name, kind, view_json, legal, seed)
        if is_search(game, kind):
            try:
                return await self.searches.run(room, *args)
            except concurrent.futures.process.BrokenProcessPool:  # a worker died: once more,
                return await self.searches.run(room, *args)  # in a new pool (_executor)
        if self._quick is None:
            self._quick = concurrent.futures.ThreadPoolExecutor(1, "parlour-bot-quick")
        return await asyncio.get_running_loop().run_in_executor(self._quick, decide, *args)

    def start(self) -> None:
        """Start the workers now rather than at the first bot move (a restarted server's
        first bot answers sooner)."""
        if self.workers > 0:
            with _workers_start_deaf():
                self._executor().submit(int)

    def close(self) -> None:
        """Stop the workers and wait until they are gone: a search still running is abandoned
        (its room stays as stored), and the pool's queues are closed before the server exits,
        so Python's resource tracker finds no semaphore left behind."""
        pool, self._pool = self._pool, None
        if pool is not None:
            _stop_pool(pool)
        if self._quick is not None:
            self._quick.shutdown(wait=False, cancel_futures=True)
            self._quick = None
        self.searches.drop()  # a pool started again begins with no search running
        self.searches = FairQueue(max(1, self.workers), self._submit)


def _broken(pool: concurrent.futures.ProcessPoolExecutor) -> bool:
    """Whether a worker of ``pool`` has died (the pool itself may not have noticed yet)."""
    processes = dict(getattr(pool, "_processes", None) or {})
    return bool(getattr(pool, "_broken", False)) or any(
        not p.is_alive() for p in processes.values()
    )


def _stop_pool(pool: concurrent.futures.Executor) -> None:
    """Shut ``pool`` down and wait for it; a worker process still searching is terminated.

    The pool's manager thread is joined here: ``shutdown(wait=False)`` forgets it (a later
    ``shutdown(wait=True)`` does nothing more), and a server that exited while it was still
    closing its wake-up pipe met Python's own exit hook writing to that pipe ("Exception ignored
    in ... threading ... OSError: [Errno 9] Bad file descriptor", after a Ctrl-C soon after a
    start)."""
    if isinstance(pool, concurrent.futures.ProcessPoolExecutor):
        processes = list((getattr(pool, "_processes", None) or {}).values())
        manager = getattr(pool, "_executor_manager_thread", None)
        pool.shutdown(wait=False, cancel_futures=True)
        for process in processes:  # a search may run for seconds: it is not waited for
            with contextlib.suppress(Exception):
                process.terminate()
        if manager is not None:
            manager.join()
    else:
        pool.shutdown(wait=False, cancel_futures=True)
