"""The scripted clients of bench_server.py: people who act when it is their turn after a think
time, and spectators, each room's sockets in one client process (:func:`worker`)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import time
from dataclasses import dataclass, field
from multiprocessing.synchronize import Event
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, WebSocketException

from serving import BOUND

SPECTATORS = 2
RETRY = (0.05, 0.25)
"""Seconds a client waits before it tries to reconnect again (drawn at random)."""


@dataclass
class Options:
    rooms: int
    seconds: float
    think: tuple[float, float]
    clients: int
    kills: int
    seed: int
    profile: str | None
    bot_delay: float
    deflate: bool
    games: list[tuple[str, list[str]]]
    serve: tuple[str, ...] = ()
    """More options of ``parlour serve`` (``--workers 2``, ``--bot-workers 1``)."""
    postgres: bool = False


# -- the clients (in worker processes) ---------------------------------------------------------


@dataclass
class Stats:
    own: list[float] = field(default_factory=list)
    others: list[float] = field(default_factory=list)
    bots: list[float] = field(default_factory=list)
    moves: int = 0
    acts: int = 0
    rejects: dict[str, int] = field(default_factory=dict)
    welcomed: Any = None
    """A counter shared with the main process: welcomes after a reconnect."""
    measuring: bool = False
    stopping: bool = False


@dataclass
class RoomClients:
    id: str
    bots: list[int]
    sent: dict[int, tuple[float, int]] = field(default_factory=dict)
    """Version -> when the act that makes it was sent, and by which seat (measured acts)."""


class Sock:
    """One socket of a room: a scripted person (``token``) or a spectator; it reconnects
    after a kill and carries on."""

    def __init__(
        self,
        base: str,
        room: RoomClients,
        token: str | None,
        watch: bool,
        stats: Stats,
        opts: Options,
        rng: random.Random,
    ) -> None:
        self.base, self.room, self.token, self.watch = base, room, token, watch
        self.stats, self.think, self.rng = stats, opts.think, rng
        self.compression: str | None = "deflate" if opts.deflate else None
        self.ws: ClientConnection | None = None
        self.last: dict[str, Any] = {}
        self.changed = asyncio.Event()
        self.count = 0
        self.turn_at: tuple[int, float] | None = None

    async def open(self) -> None:
        """Connect and say hello until a welcome comes (bounded)."""
        deadline = time.monotonic() + BOUND
        while True:
            try:
                url = self.base + self.room.id
                ws = await asyncio.wait_for(
                    connect(url, max_size=None, compression=self.compression), 5
                )
                hello = {"type": "hello", "token": self.token, "v": self.last.get("v", 0)}
                await ws.send(json.dumps(hello))
                while True:
                    frame = json.loads(await asyncio.wait_for(ws.recv(), BOUND))
                    if frame["type"] == "welcome":
                        break
            except (OSError, TimeoutError, WebSocketException):
                if time.monotonic() > deadline:
                    raise
                await asyncio.sleep(self.rng.uniform(*RETRY))
                continue
            self.ws, self.last, self.turn_at = ws, frame, None
            self.changed.set()
            return

    async def read(self) -> None:
        while not self.stats.stopping:
            assert self.ws is not None
            try:
                async for text in self.ws:
                    self._take(json.loads(text), time.perf_counter())
            except ConnectionClosed:
                pass
            if self.stats.stopping:
                return
            await self.open()
            with self.stats.welcomed.get_lock():
                self.stats.welcomed.value += 1

    def _take(self, frame: dict[str, Any], now: float) -> None:
        kind, stats = frame["type"], self.stats
        if kind == "update":
            v = frame["v"]
            sent = self.room.sent.get(v)
            if sent is not None:
                mine = self.token is not None and frame["seat"] == sent[1]
                (stats.own if mine else stats.others).append(now - sent[0])
            if self.watch:
                if self.turn_at is not None and self.turn_at[0] == v - 1 and stats.measuring:
                    stats.bots.append(now - self.turn_at[1])
                self.turn_at = (v, now) if frame["to_move"] in self.room.bots else None
                if stats.measuring and frame["log"]:
                    stats.moves += 1
            self.last = frame
            self.changed.set()
        elif kind == "welcome":
            self.last = frame
            self.changed.set()
        elif kind == "reject":
            stats.rejects[frame["code"]] = stats.rejects.get(frame["code"], 0) + 1

    async def play(self) -> None:
        """A scripted person: when it may act, think, then act (or ask for the rematch)."""
        while not self.stats.stopping:
            await self.changed.wait()
            self.changed.clear()
            last, seat = self.last, self.last["seat"]
            if last["over"]:
                if seat in last["rematch"]:
                    continue
            elif not last["legal"]:
                continue
            await asyncio.sleep(self.rng.uniform(*self.think))
            if self.last is not last or self.ws is None:
                continue  # something happened meanwhile: look again
            self.count += 1
            if last["over"]:
                frame: dict[str, Any] = {"type": "rematch", "id": self.count}
            else:
                action = self.rng.choice(last["legal"])
                frame = {"type": "act", "id": self.count, "v": last["v"], "action": action}
                if self.stats.measuring:
                    self.room.sent[last["v"] + 1] = (time.perf_counter(), seat)
                    self.stats.acts += 1
            with contextlib.suppress(ConnectionClosed):
                await self.ws.send(json.dumps(frame))


def worker(*args: Any) -> None:
    """A client process: :func:`_clients` on an event loop of its own (same arguments)."""
    asyncio.run(_clients(*args))


async def _clients(
    url: str,
    rooms: list[dict[str, Any]],
    opts: Options,
    seed: int,
    queue: Any,
    go: Event,
    measure: Event,
    stop: Event,
    welcomed: Any,
) -> None:
    rng = random.Random(seed)
    stats = Stats(welcomed=welcomed)
    base = url.replace("http://", "ws://", 1) + "/ws/"
    socks = []
    for made in rooms:
        room = RoomClients(made["room"], made["bots"])
        for token in made["tokens"]:
            socks.append(Sock(base, room, token, False, stats, opts, random.Random(rng.random())))
        for i in range(SPECTATORS):
            socks.append(Sock(base, room, None, i == 0, stats, opts, random.Random(rng.random())))
    limit = asyncio.Semaphore(16)

    async def opened(sock: Sock) -> None:
        async with limit:
            await sock.open()

    await asyncio.gather(*(opened(s) for s in socks))
    queue.put(("opened", len(socks)))
    await asyncio.to_thread(go.wait, BOUND)
    tasks = [asyncio.create_task(s.read()) for s in socks]
    tasks += [asyncio.create_task(s.play()) for s in socks if s.token is not None]
    window: list[tuple[float, float]] = []
    """(CPU seconds, wall seconds) when measuring began and ended."""
    while not stop.is_set():
        was = stats.measuring
        stats.measuring = measure.is_set()
        if stats.measuring != was:
            window.append((time.process_time(), time.perf_counter()))
        failed = [t for t in tasks if t.done() and not t.cancelled() and t.exception()]
        if failed:
            failed[0].result()
        await asyncio.sleep(0.05)
    if len(window) % 2:
        window.append((time.process_time(), time.perf_counter()))
    stats.measuring, stats.stopping = False, True
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)

    async def close(ws: ClientConnection) -> None:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(ws.close(), 5)

    await asyncio.gather(*(close(s.ws) for s in socks if s.ws is not None))
    result = {
        "own": stats.own,
        "others": stats.others,
        "bots": stats.bots,
        "moves": stats.moves,
        "acts": stats.acts,
        "rejects": stats.rejects,
        "cpu": (window[1][0] - window[0][0]) / (window[1][1] - window[0][1]) if window else 0.0,
    }
    queue.put(("done", result))
