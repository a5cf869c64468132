"""Where rooms live: every room, seat and room event is committed here before the server
acknowledges or broadcasts it (the online rooms' persistence guarantee).

A room is a row (:class:`RoomRow`: game, players, options, seats with their kinds, names and
token hashes) and a contiguous list of events (:class:`EventRow`, versions 0, 1, 2 ...): the
first deal at version 0, then each action, table entry, proposal, vote and rematch, and each
start or stop of an agreed time's clock (:mod:`parlour.server.clock`). The server rebuilds a
room by folding its events, so a server killed at any moment and started again on the same
database resumes every room exactly; a running clock is also saved every second or so
(:meth:`Store.save_clock`: no event), and resumes from there. Each finished deal's review is
kept beside its room (:class:`ReviewRow`, made by :mod:`parlour.server.reviews`).

:class:`Store` is the interface; :class:`SqliteStore` (the default, one process, a WAL file) is
here and the PostgreSQL store, shared by several server processes, is in
:mod:`parlour.server.pgstore`. ``append`` refuses a version that is already taken, which is how
two processes acting on one room at once learn that one of them was stale.
"""

from __future__ import annotations

import json
import sqlite3
import time
from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from parlour.server.sealing import CHECK_TABLE, Sealer, opened, private_file, sealed

__all__ = [
    "ClockRow",
    "EventRow",
    "ReviewRow",
    "RoomRow",
    "SeatRow",
    "SqliteStore",
    "Store",
    "open_store",
]

Notify = Callable[[str, int], Awaitable[None]]
"""Called with (room, version) when another process appended an event to a room."""


@dataclass(frozen=True, slots=True)
class SeatRow:
    """A seat of a room: ``kind`` is ``person`` or a bot's spec; persons have a token whose
    SHA-256 (never the token) is kept."""

    seat: int
    kind: str
    name: str
    token_hash: bytes | None


@dataclass(frozen=True, slots=True)
class RoomRow:
    room: str
    game: str
    players: int
    options: dict[str, Any]
    seats: tuple[SeatRow, ...]
    client: str
    """The address that created the room (for the cap on open rooms per client)."""
    created: float


@dataclass(frozen=True, slots=True)
class EventRow:
    """One room event: ``kind`` is ``deal``, ``action``, ``table``, ``propose``, ``vote``,
    ``rematch`` or ``clock``; ``data`` its facts (a deal's secret seed among them: events never
    leave the server as they are); ``client_id`` the id the client gave, so a repeated id is
    answered again after a restart too."""

    v: int
    kind: str
    seat: int | None
    data: dict[str, Any]
    client_id: str | None = None


@dataclass(frozen=True, slots=True)
class ClockRow:
    """The time a room's running clock had used (``used`` seconds of deal ``deal``) at wall
    time ``at``, as last saved: what a restarted server resumes it from. Its table and
    queries (``?`` placeholders) are the same in both stores."""

    deal: int
    used: float
    at: float

    TABLE: ClassVar[str] = """
        CREATE TABLE IF NOT EXISTS clocks (
            room TEXT PRIMARY KEY, deal INTEGER NOT NULL, used DOUBLE PRECISION NOT NULL,
            at DOUBLE PRECISION NOT NULL);
        """
    SAVE: ClassVar[str] = (
        "INSERT INTO clocks (room, deal, used, at) VALUES (?, ?, ?, ?) "
        "ON CONFLICT (room) DO UPDATE SET deal = excluded.deal, used = excluded.used, "
        "at = excluded.at WHERE clocks.deal < excluded.deal "
        "OR (clocks.deal = excluded.deal AND clocks.used <= excluded.used)"
    )
    LOAD: ClassVar[str] = "SELECT deal, used, at FROM clocks WHERE room = ?"

    @classmethod
    def of(cls, row: Any) -> ClockRow | None:
        """The row that :attr:`LOAD` found, or None."""
        return None if row is None else cls(int(row[0]), float(row[1]), float(row[2]))


@dataclass(frozen=True, slots=True)
class ReviewRow:
    """A finished deal's review as kept (:mod:`parlour.server.reviews`): ``status`` is
    ``pending``, ``running`` (``done`` of ``total`` decisions judged), ``ready`` (``review``: the
    review's JSON) or ``failed``. ``at`` (wall time): when a pending review was asked for (the
    newest are made first), or when the process making a running one (``owner``) last reported,
    so that the review of a process that is gone is taken up again. Its table and queries (``?``
    placeholders, one statement each) are the same in both stores."""

    deal: int
    status: str
    done: int
    total: int
    review: dict[str, Any] | None

    TABLE: ClassVar[str] = """
        CREATE TABLE IF NOT EXISTS reviews (
            room TEXT NOT NULL, deal INTEGER NOT NULL, status TEXT NOT NULL,
            done INTEGER NOT NULL DEFAULT 0, total INTEGER NOT NULL DEFAULT 0, review TEXT,
            owner TEXT, at DOUBLE PRECISION NOT NULL DEFAULT 0, PRIMARY KEY (room, deal));
        CREATE INDEX IF NOT EXISTS reviews_status ON reviews (status, at);
        """
    WANT: ClassVar[str] = (
        "INSERT INTO reviews (room, deal, status, at) VALUES (?, ?, 'pending', ?) "
        "ON CONFLICT (room, deal) DO NOTHING"
    )
    CLAIM: ClassVar[str] = (
        "UPDATE reviews SET status = 'running', owner = ?, at = ?, done = 0, total = 0 "
        "WHERE room = ? AND deal = ? AND (status = 'pending' "
        "OR (status = 'running' AND (owner = ? OR at < ?))) RETURNING deal"
    )
    PROGRESS: ClassVar[str] = (
        "UPDATE reviews SET done = ?, total = ?, at = ? "
        "WHERE room = ? AND deal = ? AND owner = ? AND status = 'running'"
    )
    FINISH: ClassVar[str] = (
        "UPDATE reviews SET status = ?, review = ?, done = ?, total = ?, at = ? "
        "WHERE room = ? AND deal = ? AND owner = ? AND status = 'running'"
    )
    RELEASE: ClassVar[str] = (
        "UPDATE reviews SET status = 'pending', done = 0, total = 0 "
        "WHERE owner = ? AND status = 'running'"
    )
    LOAD: ClassVar[str] = (
        "SELECT deal, status, done, total, review FROM reviews WHERE room = ? AND deal = ?"
    )
    _NEWEST: ClassVar[str] = "SELECT room, deal, at FROM reviews WHERE status = '{}' AND at >= ?"
    WANTED: ClassVar[str] = _NEWEST.format("pending") + " ORDER BY at DESC LIMIT ?"
    ABANDONED: ClassVar[str] = _NEWEST.format("running") + " AND at < ? ORDER BY at DESC LIMIT ?"

    @classmethod
    def of(cls, row: Any) -> ReviewRow | None:
        """The row that :attr:`LOAD` found, or None."""
        if row is None:
            return None
        deal, status, done, total, review = row
        parsed = None if review is None else json.loads(review)
        return cls(int(deal), str(status), int(done), int(total), parsed)


def _dumps(obj: object) -> str:
    return json.dumps(obj, separators=(",", ":"), sort_keys=True, allow_nan=False)


class Store(ABC):
    """The persistence of rooms. Every method commits before it returns."""

    TABLES: ClassVar[str] = ClockRow.TABLE + ReviewRow.TABLE + CHECK_TABLE
    """The tables both stores make alike (their own tables come first)."""
    sealer: Sealer | None = None
    """Seals deal seeds as they are written (:mod:`parlour.server.sealing`); None: plain."""

    def _row(self, room: str, event: EventRow) -> tuple[Any, ...]:
        """The event as the events table's room, v, kind, seat, data and client_id."""
        data = _dumps(sealed(self.sealer, room, event))
        return (room, event.v, event.kind, event.seat, data, event.client_id)

    def _read(
        self, room: str, v: int, kind: str, seat: int | None, data: str, cid: Any
    ) -> EventRow:
        """The event of a row of the events table (v, kind, seat, data, client_id)."""
        return EventRow(v, kind, seat, opened(self.sealer, room, v, json.loads(data)), cid)

    @abstractmethod
    async def open(self) -> None:
        """Connect and create the tables if needed."""

    @abstractmethod
    async def close(self) -> None: ...

    @abstractmethod
    async def create_room(self, room: RoomRow, first: EventRow) -> None:
        """Store a new room and its first event (the first deal, version 0)."""

    @abstractmethod
    async def load_room(self, room: str) -> tuple[RoomRow, list[EventRow]] | None:
        """The room and all its events in order, or None."""

    @abstractmethod
    async def append(self, room: str, event: EventRow, *, over: bool | None = None) -> bool:
        """Store ``event``; False (and nothing stored) when its version is taken already.
        ``over`` (when given) records whether the room's current game has ended."""

    @abstractmethod
    async def events_since(self, room: str, v: int) -> list[EventRow]:
        """The room's events after version ``v``, in order."""

    @abstractmethod
    async def open_rooms_by(self, client: str) -> int:
        """How many rooms created by ``client`` have a game still running."""

    @abstractmethod
    async def save_clock(self, room: str, deal: int, used: float, at: float) -> None:
        """Save the time used so far by the room's running clock; a save of an older deal or
        of less time than the one kept changes nothing."""

    @abstractmethod
    async def load_clock(self, room: str) -> ClockRow | None:
        """The room's last saved clock, or None."""

    @abstractmethod
    async def query(self, sql: str, params: tuple[Any, ...]) -> tuple[int, list[tuple[Any, ...]]]:
        """Run one statement of SQL both stores speak (``?`` placeholders): how many rows it
        changed and the rows it gave."""

    async def listen(self, notify: Notify) -> None:  # noqa: B027 - a no-op by default
        """Have ``notify`` called when another process appends to a room. One process per
        SQLite file needs nothing."""

    async def mark_present(self, room: str, seat: int, present: bool) -> None:  # noqa: B027
        """Tell other processes whether a socket of this process holds ``seat`` (so none of
        them lets a bot take over a person who is connected elsewhere). A no-op for one
        process."""

    async def present_elsewhere(self, room: str, seat: int) -> bool:
        """Whether another process holds a socket of ``seat`` (never, for one process)."""
        return False

    @property
    def shared(self) -> bool:
        """Whether other server processes may write to the same rooms."""
        return False


class SqliteStore(Store):
    """Rooms in one SQLite file in WAL mode, for one server process. Calls are short
    (one indexed row) and made on the event loop in order, so no lock is needed."""

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        self._db: sqlite3.Connection | None = None

    @property
    def db(self) -> sqlite3.Connection:
        if self._db is None:
            raise RuntimeError("the store is not open")
        return self._db

    async def open(self) -> None:
        private_file(self.path)  # 0600, and so its -wal and -shm (parlour.server.sealing)
        db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        db.execute("PRAGMA journal_mode=WAL")
        # A process killed at any moment loses nothing committed (only a power cut could).
        db.execute("PRAGMA synchronous=NORMAL")
        db.execute("PRAGMA busy_timeout=5000")
        db.executescript(
            """
            CREATE TABLE IF NOT EXISTS rooms (
                room TEXT PRIMARY KEY, game TEXT NOT NULL, players INTEGER NOT NULL,
                options TEXT NOT NULL, client TEXT NOT NULL, created REAL NOT NULL,
                over INTEGER NOT NULL DEFAULT 0);
            CREATE INDEX IF NOT EXISTS rooms_client ON rooms (client, over);
            CREATE TABLE IF NOT EXISTS seats (
                room TEXT NOT NULL, seat INTEGER NOT NULL, kind TEXT NOT NULL,
                name TEXT NOT NULL, token_hash BLOB, PRIMARY KEY (room, seat));
            CREATE TABLE IF NOT EXISTS events (
                room TEXT NOT NULL, v INTEGER NOT NULL, kind TEXT NOT NULL, seat INTEGER,
                data TEXT NOT NULL, client_id TEXT, at REAL NOT NULL, PRIMARY KEY (room, v));
            """
            + self.TABLES
        )
        self._db = db

    async def close(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None

    async def create_room(self, room: RoomRow, first: EventRow) -> None:
        db = self.db
        with db:
            db.execute("BEGIN IMMEDIATE")
            db.execute(
                "INSERT INTO rooms (room, game, players, options, client, created) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (
                    room.room,
                    room.game,
                    room.players,
                    _dumps(room.options),
                    room.client,
                    room.created,
                ),
            )
            db.executemany(
                "INSERT INTO seats (room, seat, kind, name, token_hash) VALUES (?, ?, ?, ?, ?)",
                [(room.room, s.seat, s.kind, s.name, s.token_hash) for s in room.seats],
            )
            self._insert(room.room, first)

    def _insert(self, room: str, event: EventRow) -> None:
        self.db.execute(
            "INSERT INTO events (room, v, kind, seat, data, client_id, at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            (*self._row(room, event), time.time()),
        )

    async def load_room(self, room: str) -> tuple[RoomRow, list[EventRow]] | None:
        db = self.db
        row = db.execute(
            "SELECT game, players, options, client, created FROM rooms WHERE room = ?", (room,)
        ).fetchone()
        if row is None:
            return None
        seats = tuple(
            SeatRow(seat, kind, name, token_hash)
            for seat, kind, name, token_hash in db.execute(
                "SELECT seat, kind, name, token_hash FROM seats WHERE room = ? ORDER BY seat",
                (room,),
            )
        )
        game, players, options, client, created = row
        return (
            RoomRow(room, game, players, json.loads(options), seats, client, created),
            await self.events_since(room, -1),
        )

    async def append(self, room: str, event: EventRow, *, over: bool | None = None) -> bool:
        db = self.db
        try:
            with db:
                db.execute("BEGIN IMMEDIATE")
                self._insert(room, event)
                if over is not None:
                    db.execute("UPDATE rooms SET over = ? WHERE room = ?", (int(over), room))
        except sqlite3.IntegrityError:
            return False
        return True

    async def events_since(self, room: str, v: int) -> list[EventRow]:
        return [
            self._read(room, *row)
            for row in self.db.execute(
                "SELECT v, kind, seat, data, client_id FROM events "
                "WHERE room = ? AND v > ? ORDER BY v",
                (room, v),
            )
        ]

    async def open_rooms_by(self, client: str) -> int:
        (count,) = self.db.execute(
            "SELECT COUNT(*) FROM rooms WHERE client = ? AND over = 0", (client,)
        ).fetchone()
        return int(count)

    async def save_clock(self, room: str, deal: int, used: float, at: float) -> None:
        self.db.execute(ClockRow.SAVE, (room, deal, used, at))

    async def load_clock(self, room: str) -> ClockRow | None:
        return ClockRow.of(self.db.execute(ClockRow.LOAD, (room,)).fetchone())

    async def query(self, sql: str, params: tuple[Any, ...]) -> tuple[int, list[tuple[Any, ...]]]:
        cursor = self.db.execute(sql, params)  # autocommit: one statement, committed
        rows = cursor.fetchall()
        return cursor.rowcount, rows


def open_store(db: str) -> Store:
    """The store a ``--db`` value names: ``postgresql://...`` (or ``postgres://``) for a
    PostgreSQL server, anything else an SQLite file."""
    if db.startswith(("postgresql://", "postgres://")):
        from parlour.server.pgstore import PostgresStore

        return PostgresStore(db)
    return SqliteStore(db)
