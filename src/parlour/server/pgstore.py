"""Rooms in PostgreSQL, shared by several ``parlour serve`` processes (psycopg 3, async).

The tables are those of the SQLite store. What sharing adds:

- ``append`` inserts the event under the room's primary key (room, version): of two processes
  appending the same version, one commits and the other is told its version was taken;
- each append and new room sends ``NOTIFY parlour_rooms, 'ROOM:V'`` in its own transaction, so
  the notice goes out only once the event is committed; :meth:`PostgresStore.listen` keeps a
  second connection that LISTENs and hands each notice to the server (a process also hears its
  own, and ignores versions it has);
- a ``presence`` table says which process holds a socket of which seat (refreshed every
  :data:`HEARTBEAT` seconds, forgotten after :data:`PRESENCE_TTL`), so no process lets a bot
  take over a person who is playing through another.

One connection carries the queries, one transaction at a time (an asyncio lock); a lost
connection is opened again once per call.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
import uuid
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import psycopg
from psycopg import AsyncConnection, errors

from parlour.server.store import EventRow, Notify, RoomRow, SeatRow, Store, _dumps

__all__ = ["HEARTBEAT", "PRESENCE_TTL", "PostgresStore"]

log = logging.getLogger("parlour.server")

HEARTBEAT = 15.0
PRESENCE_TTL = 60.0
CHANNEL = "parlour_rooms"

T = TypeVar("T")

_SCHEMA = """
CREATE TABLE IF NOT EXISTS rooms (
    room TEXT PRIMARY KEY, game TEXT NOT NULL, players INTEGER NOT NULL,
    options TEXT NOT NULL, client TEXT NOT NULL, created DOUBLE PRECISION NOT NULL,
    over BOOLEAN NOT NULL DEFAULT FALSE);
CREATE INDEX IF NOT EXISTS rooms_client ON rooms (client, over);
CREATE TABLE IF NOT EXISTS seats (
    room TEXT NOT NULL, seat INTEGER NOT NULL, kind TEXT NOT NULL, name TEXT NOT NULL,
    token_hash BYTEA, PRIMARY KEY (room, seat));
CREATE TABLE IF NOT EXISTS events (
    room TEXT NOT NULL, v INTEGER NOT NULL, kind TEXT NOT NULL, seat INTEGER,
    data TEXT NOT NULL, client_id TEXT, at TIMESTAMPTZ NOT NULL DEFAULT now(),
    PRIMARY KEY (room, v));
CREATE TABLE IF NOT EXISTS presence (
    room TEXT NOT NULL, seat INTEGER NOT NULL, server TEXT NOT NULL,
    at TIMESTAMPTZ NOT NULL DEFAULT now(), PRIMARY KEY (room, seat, server));
"""


def _shown(url: str) -> str:
    """The URL without its password, for messages."""
    return re.sub(r"(://[^:/@]*):[^@/]*@", r"\1:***@", url)


class PostgresStore(Store):
    def __init__(self, url: str) -> None:
        self.url = url
        self.server = uuid.uuid4().hex
        self._conn: AsyncConnection[Any] | None = None
        self._lock = asyncio.Lock()
        self._tasks: list[asyncio.Task[None]] = []

    @property
    def shared(self) -> bool:
        return True

    async def _connect(self) -> AsyncConnection[Any]:
        try:
            return await psycopg.AsyncConnection.connect(self.url, autocommit=True)
        except psycopg.Error as err:
            first = str(err).strip().splitlines()[0] if str(err).strip() else type(err).__name__
            raise OSError(f"cannot reach PostgreSQL at {_shown(self.url)}: {first}") from None

    async def _run(self, work: Callable[[AsyncConnection[Any]], Awaitable[T]]) -> T:
        """Run ``work`` in one transaction, opening the connection again once if it was lost."""
        async with self._lock:
            for attempt in (1, 2):
                if self._conn is None or self._conn.closed:
                    self._conn = await self._connect()
                try:
                    async with self._conn.transaction():
                        return await work(self._conn)
                except psycopg.OperationalError:
                    if attempt == 2:
                        raise
                    with contextlib.suppress(Exception):
                        await self._conn.close()
                    self._conn = None
        raise AssertionError("unreachable")

    async def open(self) -> None:
        async def schema(conn: AsyncConnection[Any]) -> None:
            await conn.execute("SELECT pg_advisory_xact_lock(7230912)")
            await conn.execute(_SCHEMA)

        await self._run(schema)
        self._tasks.append(asyncio.create_task(self._heartbeat()))

    async def close(self) -> None:
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._tasks.clear()
        if self._conn is not None:
            with contextlib.suppress(Exception):
                async with self._lock:
                    await self._conn.execute(
                        "DELETE FROM presence WHERE server = %s", (self.server,)
                    )
            await self._conn.close()
            self._conn = None

    async def create_room(self, room: RoomRow, first: EventRow) -> None:
        async def work(conn: AsyncConnection[Any]) -> None:
            await conn.execute(
                "INSERT INTO rooms (room, game, players, options, client, created) "
                "VALUES (%s, %s, %s, %s, %s, %s)",
                (room.room, room.game, room.players, _dumps(room.options), room.client,
                 room.created),
            )  # fmt: skip
            async with conn.cursor() as cur:
                await cur.executemany(
                    "INSERT INTO seats (room, seat, kind, name, token_hash) "
                    "VALUES (%s, %s, %s, %s, %s)",
                    [(room.room, s.seat, s.kind, s.name, s.token_hash) for s in room.seats],
                )
            await self._insert(conn, room.room, first)

        await self._run(work)

    async def _insert(self, conn: AsyncConnection[Any], room: str, event: EventRow) -> None:
        await conn.execute(
            "INSERT INTO events (room, v, kind, seat, data, client_id) "
            "VALUES (%s, %s, %s, %s, %s, %s)",
            (room, event.v, event.kind, event.seat, _dumps(event.data), event.client_id),
        )
        await conn.execute("SELECT pg_notify(%s, %s)", (CHANNEL, f"{room}:{event.v}"))

    async def load_room(self, room: str) -> tuple[RoomRow, list[EventRow]] | None:
        async def work(conn: AsyncConnection[Any]) -> tuple[RoomRow, list[EventRow]] | None:
            cur = await conn.execute(
                "SELECT game, players, options, client, created FROM rooms WHERE room = %s",
                (room,),
            )
            row = await cur.fetchone()
            if row is None:
                return None
            cur = await conn.execute(
                "SELECT seat, kind, name, token_hash FROM seats WHERE room = %s ORDER BY seat",
                (room,),
            )
            seats = tuple(
                SeatRow(seat, kind, name, None if h is None else bytes(h))
                for seat, kind, name, h in await cur.fetchall()
            )
            game, players, options, client, created = row
            events = await self._events(conn, room, -1)
            return RoomRow(room, game, players, json.loads(options), seats, client, created), events

        return await self._run(work)

    async def _events(self, conn: AsyncConnection[Any], room: str, v: int) -> list[EventRow]:
        cur = await conn.execute(
            "SELECT v, kind, seat, data, client_id FROM events WHERE room = %s AND v > %s "
            "ORDER BY v",
            (room, v),
        )
        return [
            EventRow(ev, kind, seat, json.loads(data), client_id)
            for ev, kind, seat, data, client_id in await cur.fetchall()
        ]

    async def append(self, room: str, event: EventRow, *, over: bool | None = None) -> bool:
        async def work(conn: AsyncConnection[Any]) -> None:
            await self._insert(conn, room, event)
            if over is not None:
                await conn.execute("UPDATE rooms SET over = %s WHERE room = %s", (over, room))

        try:
            await self._run(work)
        except errors.UniqueViolation:
            # Taken: by another process, or by this one when a lost connection had in fact
            # committed the first try.
            stored = await self.events_since(room, event.v - 1)
            return bool(stored) and stored[0] == event
        return True

    async def events_since(self, room: str, v: int) -> list[EventRow]:
        return await self._run(lambda conn: self._events(conn, room, v))

    async def open_rooms_by(self, client: str) -> int:
        async def work(conn: AsyncConnection[Any]) -> int:
            cur = await conn.execute(
                "SELECT COUNT(*) FROM rooms WHERE client = %s AND NOT over", (client,)
            )
            row = await cur.fetchone()
            return int(row[0]) if row else 0

        return await self._run(work)

    async def mark_present(self, room: str, seat: int, present: bool) -> None:
        async def work(conn: AsyncConnection[Any]) -> None:
            if present:
                await conn.execute(
                    "INSERT INTO presence (room, seat, server) VALUES (%s, %s, %s) "
                    "ON CONFLICT (room, seat, server) DO UPDATE SET at = now()",
                    (room, seat, self.server),
                )
            else:
                await conn.execute(
                    "DELETE FROM presence WHERE room = %s AND seat = %s AND server = %s",
                    (room, seat, self.server),
                )

        await self._run(work)

    async def present_elsewhere(self, room: str, seat: int) -> bool:
        async def work(conn: AsyncConnection[Any]) -> bool:
            cur = await conn.execute(
                "SELECT 1 FROM presence WHERE room = %s AND seat = %s AND server <> %s "
                "AND at > now() - make_interval(secs => %s)",
                (room, seat, self.server, PRESENCE_TTL),
            )
            return await cur.fetchone() is not None

        return await self._run(work)

    async def _heartbeat(self) -> None:
        while True:
            await asyncio.sleep(HEARTBEAT)
            try:
                await self._run(
                    lambda conn: conn.execute(
                        "UPDATE presence SET at = now() WHERE server = %s", (self.server,)
                    )
                )
            except (psycopg.Error, OSError) as err:
                log.warning("presence heartbeat failed: %s", err)

    async def listen(self, notify: Notify) -> None:
        conn = await self._connect()
        await conn.execute(f"LISTEN {CHANNEL}")
        self._tasks.append(asyncio.create_task(self._listen(conn, notify)))

    async def _listen(self, conn: AsyncConnection[Any], notify: Notify) -> None:
        """Hand each notice to ``notify``; open the listening connection again if it drops."""
        while True:
            try:
                async for notice in conn.notifies():
                    room, _, v = notice.payload.rpartition(":")
                    if room and v.isdigit():
                        try:
                            await notify(room, int(v))
                        except Exception:  # one room's trouble must not stop the others
                            log.exception("room %s: catching up failed", room)
            except psycopg.Error as err:
                log.warning("listening to PostgreSQL failed (%s); listening again", err)
            with contextlib.suppress(Exception):
                await conn.close()
            await asyncio.sleep(1.0)
            try:
                conn = await self._connect()
                await conn.execute(f"LISTEN {CHANNEL}")
            except OSError as err:
                log.warning("%s", err)
