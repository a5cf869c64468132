"""Rooms in PostgreSQL, shared by several ``parlour serve`` processes (psycopg 3, async).

The tables are the SQLite store's (``data`` is its JSON text, not JSONB, which refuses
``\\u0000`` and lone surrogates; ``clocks`` is shared SQL). What sharing adds:

- of two processes appending one version of a room, one commits; the other is told it's taken;
- each committed event sends the notice ``ROOM:V`` on :data:`CHANNEL`, in its own transaction.
  :meth:`PostgresStore.listen` keeps a second connection that LISTENs and hands each notice to
  the server: meant for the other processes, but a process hears its own too (harmless: the
  server ignores versions it has). A dropped listening connection is opened again (after
  0.2 s, doubling up to 5 s) and the newest version of each room changed meanwhile handed over;
- a ``presence`` table says which process holds a socket of which seat (refreshed every
  :data:`HEARTBEAT` s, forgotten after :data:`PRESENCE_TTL`), so no process lets a bot take
  over a person playing through another.

One connection carries the queries, one call (one statement or transaction) at a time. A lost
one (the server restarted) is opened again once per call and the call made again.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
import time
import uuid
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import asdict
from typing import Any, TypeVar

import psycopg
from psycopg import AsyncConnection, errors, pq
from psycopg.conninfo import conninfo_to_dict

from parlour.server.store import ClockRow, EventRow, Notify, RoomRow, SeatRow, Store, _dumps

__all__ = ["CHANNEL", "HEARTBEAT", "PRESENCE_TTL", "PostgresStore"]

log = logging.getLogger("parlour.server")

HEARTBEAT = 15.0
PRESENCE_TTL = 60.0
CHANNEL = "parlour_rooms"
PING = 10.0  # how often the listening connection checks that it is still up
MISSED_MARGIN = 5.0  # after a drop: rooms changed since it was last up, less this, are told
_SCHEMA_LOCK = 7_230_912  # the advisory lock every parlour process takes around its DDL

T = TypeVar("T")
Connection = AsyncConnection[Any]

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
_SAVE_CLOCK, _LOAD_CLOCK = (q.replace("?", "%s") for q in (ClockRow.SAVE, ClockRow.LOAD))

# One statement: the event, the room's ``over`` flag when given, and the notice, all or nothing.
_APPEND = """
WITH ins AS (
    INSERT INTO events (room, v, kind, seat, data, client_id) VALUES (%s, %s, %s, %s, %s, %s)
    RETURNING room, v){over}
SELECT pg_notify('parlour_rooms', room || ':' || v) FROM ins
"""
_OVER = ", upd AS (UPDATE rooms SET over = %s WHERE room = %s)"


def _shown(url: str) -> str:
    """The URL without its password, for messages."""
    url = re.sub(r"(://[^:/@?#]*):[^@/?#]*@", r"\1:***@", url)
    return re.sub(r"(?i)([?&]password=)[^&#]*", r"\1***", url)


def _first_line(err: BaseException) -> str:
    text = str(err).strip()
    return text.splitlines()[0] if text else type(err).__name__


async def _close(conn: Connection) -> None:
    with contextlib.suppress(Exception):
        await conn.close()


class PostgresStore(Store):
    """Rooms in the PostgreSQL database at ``url`` (``postgresql://user:pw@host:port/db``)."""

    reconnect_delay = 0.2
    """The first wait before the listening connection is opened again (doubled up to 5 s)."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.server = uuid.uuid4().hex
        self._conn: Connection | None = None
        self._lock = asyncio.Lock()
        self._tasks: set[asyncio.Task[None]] = set()

    @property
    def shared(self) -> bool:
        return True

    async def _connect(self, purpose: str) -> Connection:
        """A new autocommit connection; an OSError naming the URL (without its password)."""
        try:
            given = conninfo_to_dict(self.url)
            extra: dict[str, Any] = {"autocommit": True}
            if "connect_timeout" not in given:
                extra["connect_timeout"] = 10
            if "application_name" not in given:
                extra["application_name"] = f"parlour {purpose}"
            return await AsyncConnection.connect(self.url, **extra)
        except psycopg.Error as err:
            where = _shown(self.url)
            raise OSError(f"cannot reach PostgreSQL at {where}: {_first_line(err)}") from None

    async def _drop(self) -> None:
        if self._conn is not None:
            await _close(self._conn)
            self._conn = None

    async def _run(self, work: Callable[[Connection], Awaitable[T]]) -> T:
        """Run ``work`` (one statement, or one transaction) on the main connection, one call
        at a time; when the connection turns out to be lost, open it again once and run
        ``work`` again (so a first try may have committed: see :meth:`append`)."""
        async with self._lock:
            for attempt in (1, 2):
                if self._conn is None or self._conn.closed:
                    self._conn = await self._connect("store")
                conn = self._conn
                try:
                    return await work(conn)
                except psycopg.OperationalError as err:
                    if attempt == 2 or not (conn.closed or conn.broken):
                        raise
                    log.warning("PostgreSQL connection lost (%s); retrying", _first_line(err))
                    await self._drop()
                except BaseException:
                    # Cancelled in the middle of a statement: start the next call afresh.
                    if conn.info.transaction_status != pq.TransactionStatus.IDLE:
                        await self._drop()
                    raise
        raise AssertionError("unreachable")

    async def open(self) -> None:
        async def schema(conn: Connection) -> None:
            async with conn.transaction():
                # Two processes opening an empty database at once would race on the catalog.
                await conn.execute("SELECT pg_advisory_xact_lock(%s)", (_SCHEMA_LOCK,))
                await conn.execute(_SCHEMA + self.TABLES)

        await self._run(schema)
        self._spawn(self._heartbeat())

    async def close(self) -> None:
        tasks = list(self._tasks)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        conn = self._conn
        if conn is not None and not conn.closed:
            with contextlib.suppress(Exception):
                async with self._lock:
                    await conn.execute("DELETE FROM presence WHERE server = %s", (self.server,))
        await self._drop()

    async def create_room(self, room: RoomRow, first: EventRow) -> None:
        tries = 0

        async def work(conn: Connection) -> None:
            nonlocal tries
            tries += 1
            async with conn.transaction():
                await conn.execute(
                    "INSERT INTO rooms (room, game, players, options, client, created) "
                    "VALUES (%s, %s, %s, %s, %s, %s)",
                    (room.room, room.game, room.players, _dumps(room.options), room.client,
                     room.created),
                )  # fmt: skip
                await conn.cursor().executemany(
                    "INSERT INTO seats (room, seat, kind, name, token_hash) "
                    "VALUES (%s, %s, %s, %s, %s)",
                    [(room.room, s.seat, s.kind, s.name, s.token_hash) for s in room.seats],
                )
                await conn.execute(_APPEND.format(over=""), self._row(room.room, first))

        try:
            await self._run(work)
        except errors.UniqueViolation:
            if tries == 1 or not await self._is_stored(room.room, first):
                raise

    async def load_room(self, room: str) -> tuple[RoomRow, list[EventRow]] | None:
        async def work(conn: Connection) -> tuple[RoomRow, list[EventRow]] | None:
            async with conn.transaction():
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
                events = await self._events(conn, room, -1)
            game, players, options, client, created = row
            return RoomRow(room, game, players, json.loads(options), seats, client, created), events

        return await self._run(work)

    async def _events(self, conn: Connection, room: str, v: int) -> list[EventRow]:
        cur = await conn.execute(
            "SELECT v, kind, seat, data, client_id FROM events WHERE room = %s AND v > %s "
            "ORDER BY v",
            (room, v),
        )
        return [self._read(room, *row) for row in await cur.fetchall()]

    async def append(self, room: str, event: EventRow, *, over: bool | None = None) -> bool:
        tries = 0
        query = _APPEND.format(over="" if over is None else _OVER)
        params = self._row(room, event) + (() if over is None else (over, room))

        async def work(conn: Connection) -> None:
            nonlocal tries
            tries += 1
            await conn.execute(query, params)

        try:
            await self._run(work)
        except errors.UniqueViolation:
            if tries == 1:
                return False  # taken by another process (or an earlier call of this one)
            # Taken on the second try: the first one committed before the connection dropped
            # (then the event there is this one), or another process won.
            return await self._is_stored(room, event)
        return True

    async def _is_stored(self, room: str, event: EventRow) -> bool:
        """Whether the event at ``event.v`` is ``event``."""
        stored = await self.events_since(room, event.v - 1)  # a rare call: after a drop
        return bool(stored) and _dumps(asdict(stored[0])) == _dumps(asdict(event))

    async def events_since(self, room: str, v: int) -> list[EventRow]:
        return await self._run(lambda conn: self._events(conn, room, v))

    async def open_rooms_by(self, client: str) -> int:
        _, rows = await self.query(
            "SELECT COUNT(*) FROM rooms WHERE client = ? AND NOT over", (client,)
        )
        return int(rows[0][0])

    async def save_clock(self, room: str, deal: int, used: float, at: float) -> None:
        await self._run(lambda conn: conn.execute(_SAVE_CLOCK, (room, deal, used, at)))

    async def load_clock(self, room: str) -> ClockRow | None:
        cursor = await self._run(lambda conn: conn.execute(_LOAD_CLOCK, (room,)))
        return ClockRow.of(await cursor.fetchone())  # a client-side cursor: no more I/O

    async def query(self, sql: str, params: tuple[Any, ...]) -> tuple[int, list[tuple[Any, ...]]]:
        cur = await self._run(lambda conn: conn.execute(sql.replace("?", "%s"), params))
        return cur.rowcount, (await cur.fetchall() if cur.description else [])  # client-side

    async def mark_present(self, room: str, seat: int, present: bool) -> None:
        async def work(conn: Connection) -> None:
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
        async def work(conn: Connection) -> bool:
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

    def _spawn(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def listen(self, notify: Notify) -> None:
        """Call ``notify(room, v)`` for each event committed by any process (this one too),
        until :meth:`close`; an OSError when the listening connection cannot be opened."""
        self._spawn(self._listen(await self._listening(), notify))

    async def _listening(self) -> Connection:
        conn = await self._connect("listen")
        try:
            await conn.execute(f"LISTEN {CHANNEL}")
        except psycopg.Error as err:
            await _close(conn)
            raise OSError(f"cannot listen at {_shown(self.url)}: {_first_line(err)}") from None
        return conn

    async def _listen(self, first: Connection, notify: Notify) -> None:
        """Hand each notice to ``notify``; when the connection drops, open it again and hand
        over what changed meanwhile."""
        conn: Connection | None = first
        up = time.monotonic()  # when the connection was last known to be up
        delay, missed = self.reconnect_delay, False
        try:
            while True:
                if conn is None:
                    await asyncio.sleep(delay)
                    delay = min(delay * 2, 5.0)
                    try:
                        conn = await self._listening()
                    except OSError as err:
                        log.warning("%s", err)
                        continue
                try:
                    if missed:
                        await self._missed(conn, notify, time.monotonic() - up)
                        missed, delay = False, self.reconnect_delay
                    async with contextlib.aclosing(conn.notifies(timeout=PING)) as notices:
                        async for notice in notices:
                            up = time.monotonic()
                            await self._deliver(notify, notice.payload)
                    await conn.execute("SELECT 1")
                    up = time.monotonic()
                except psycopg.Error as err:
                    log.warning("listening to PostgreSQL stopped (%s); listening again", err)
                    await _close(conn)
                    conn, missed = None, True
        finally:
            if conn is not None:
                await _close(conn)

    async def _missed(self, conn: Connection, notify: Notify, gap: float) -> None:
        """Notices of the rooms changed in the last ``gap`` seconds (and a margin)."""
        cur = await conn.execute(
            "SELECT room, max(v) FROM events WHERE at > now() - make_interval(secs => %s) "
            "GROUP BY room",
            (gap + MISSED_MARGIN,),
        )
        for room, v in await cur.fetchall():
            await self._deliver(notify, f"{room}:{v}")

    @staticmethod
    async def _deliver(notify: Notify, payload: str) -> None:
        room, _, v = payload.rpartition(":")  # ROOM:V
        if not room or not (v.isascii() and v.isdigit()) or len(v) > 10:
            log.warning("ignored a malformed notice %r", payload[:80])
            return
        try:
            await notify(room, int(v))
        except Exception:  # one room's trouble must not stop the others
            log.exception("room %s: catching up failed", room)
