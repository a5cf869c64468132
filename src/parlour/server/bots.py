"""Bots at the server's tables: each decision is made in a worker process from the seat's view
alone (sent as its JSON, so nothing else can reach the bot), never on the event loop.

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
import contextlib
import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Iterator
from functools import cache
from typing import Any

from parlour.bots import LEVELS, make_agent, warm_up
from parlour.core.game import Agent, Game
from parlour.core.rng import make_rng
from parlour.errors import InvalidOption
from parlour.games import GAMES, find_game

__all__ = ["OFFERED", "TAKEOVER", "BotPool", "check_kind"]

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


@cache
def _agent(game_name: str, kind: str) -> Agent:
    return make_agent(kind, find_game(game_name))


def decide(
    game_name: str, kind: str, view_json: dict[str, Any], legal: list[int], seed: int
) -> int:
    """One bot decision (run in a worker): the action id ``kind`` chooses from ``view_json``
    among the ``legal`` action ids."""
    game = find_game(game_name)
    actions = tuple(game.action_from_id(i) for i in legal)
    if kind == "bot" or len(actions) == 1:
        return legal[0]
    view = game.view_from_json(view_json)
    action = _agent(game_name, kind).choose(view, actions, make_rng(seed))
    return game.action_id(action)


def _warm(server: int) -> None:
    """Start a new worker (the games are imported with this module): it leaves as soon as the
    server process ``server`` is gone, even killed with SIGKILL, instead of waiting forever."""

    # Ctrl-C at a terminal reaches the whole process group: the server stops its workers
    # itself, so a worker does not die of it with a traceback of its own.
    signal.signal(signal.SIGINT, signal.SIG_IGN)

    def watch() -> None:
        while os.getppid() == server:
            time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=watch, name="parlour-bot-watch", daemon=True).start()
    for game in GAMES.values():
        warm_up(game)  # compiled playouts load before the first decision needs them


@contextlib.contextmanager
def _workers_start_deaf() -> Iterator[None]:
    """Worker processes started deaf to SIGINT. A process keeps an ignored signal ignored
    across exec, so a worker begins with SIGINT ignored, and a Ctrl-C at the terminal that
    reaches the process group while the worker is still importing the games (before
    :func:`_warm` runs) cannot kill it with a traceback. The server itself loses nothing: its
    main thread holds SIGINT blocked meanwhile, and a blocked signal is kept pending even while
    ignored (Linux), to be delivered to the server's own handler when the mask comes back. Only
    the main thread may change a handler; in another thread this does nothing."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    mask = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    handler = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, handler)
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)


class BotPool:
    """Worker processes for bot decisions (``workers`` 0: a thread, for small machines and
    tests, which still keeps the event loop free between Python steps)."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self._pool: concurrent.futures.Executor | None = None

    def _executor(self) -> concurrent.futures.Executor:
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

    async def decide(
        self, game: Game, kind: str, view_json: dict[str, Any], legal: list[int], seed: int
    ) -> int:
        if kind == "bot" or len(legal) == 1:
            return legal[0]
        loop = asyncio.get_running_loop()
        with _workers_start_deaf():  # the executor starts a worker on a submit when it needs one
            future = loop.run_in_executor(
                self._executor(), decide, game.name, kind, view_json, legal, seed
            )
        return await future

    def start(self) -> None:
        """Start the workers now rather than at the first bot move (a restarted server's
        first bot answers sooner)."""
        if self.workers > 0:
            with _workers_start_deaf():
                self._executor().submit(int)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
