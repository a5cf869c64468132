"""The review worker: a process of its own that makes the reviews the server hands it
(:mod:`parlour.server.reviews`), one at a time, at the lowest CPU priority (nice 19), and a
thread of the server that hands its answers to the event loop."""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import os
import threading
from multiprocessing.connection import Connection
from typing import Any, Protocol

from parlour.games import find_game
from parlour.server.bots import _warm, _workers_start_deaf

__all__ = ["Message", "ReviewWorker", "Worker"]

Message = tuple[Any, ...]


class ReviewWorker(Protocol):
    """What makes reviews: a :class:`Worker`, or a test's own."""

    def send(self, job: Message) -> None:
        """Hand it a review to make: ``(key, game, record, budget, seed)``; it answers in the
        inbox it was made with: ``("progress", key, done, total)``, then ``("ready", key,
        review)`` or ``("failed", key, why)``; ``("gone",)`` once it has stopped."""

    def alive(self) -> bool: ...

    async def close(self) -> None: ...


def _serve(conn: Connection, server: int) -> None:
    """The review worker (a process of its own): make each review it is sent, reporting each
    judged decision, until the server is gone."""
    with contextlib.suppress(OSError):
        os.nice(19)
    _warm(server)  # deaf to Ctrl-C, gone with the server, the games' playouts loaded
    from parlour.bots.review import parse_review_budget, review_record

    while True:
        try:
            key, game_name, record, spec, seed = conn.recv()
        except (EOFError, OSError):
            return

        def progress(done: int, total: int, key: object = key) -> None:
            conn.send(("progress", key, done, total))

        try:
            game = find_game(game_name)
            budget = None if spec is None or game.strategy is None else spec
            review = review_record(
                record,
                game,
                budget=None if budget is None else parse_review_budget(budget, game),
                seed=seed,
                progress=progress,
            )
        except Exception as err:  # a bad record, or a bug: the server logs it, goes on
            conn.send(("failed", key, f"{type(err).__name__}: {err}"))
        else:
            conn.send(("ready", key, review.to_json()))


class Worker:
    """The review worker process and a thread that hands its messages to the event loop."""

    def __init__(self, inbox: asyncio.Queue[Message]) -> None:
        context = multiprocessing.get_context("spawn")
        self.conn, there = context.Pipe()
        with _workers_start_deaf():
            self.process = context.Process(
                target=_serve, args=(there, os.getpid()), name="parlour-review", daemon=True
            )
            self.process.start()
        there.close()
        loop = asyncio.get_running_loop()
        threading.Thread(
            target=self._read, args=(loop, inbox), name="parlour-review-read", daemon=True
        ).start()

    def _read(self, loop: asyncio.AbstractEventLoop, inbox: asyncio.Queue[Message]) -> None:
        while True:
            try:
                message: Message = self.conn.recv()
            except (EOFError, OSError):
                message = ("gone",)
            try:
                loop.call_soon_threadsafe(inbox.put_nowait, message)
            except RuntimeError:  # the loop is closed: the server has stopped
                return
            if message[0] == "gone":
                return

    def send(self, job: Message) -> None:
        self.conn.send(job)

    def alive(self) -> bool:
        return self.process.is_alive()

    async def close(self) -> None:
        self.process.kill()
        await asyncio.to_thread(self.process.join, 10)
        self.conn.close()
