"""How long rooms are kept (issue 27.4): finished rooms for ``--keep-days`` after their last
activity, then removed; unfinished rooms that nobody has visited for ``--abandon-days`` are
ended as *abandoned*, and removed like finished rooms ``--keep-days`` later.

- **Last activity** is the latest of: the room's creation, its last stored event, and the last
  time a server process saw a socket open on it (the ``room_seen`` table, written by every
  pruning pass for the rooms with a socket in that process).
- **Abandoned** is an ``abandon`` event (``{"at": TIME}``, by nobody) stored like any other and
  folded by :class:`~parlour.server.room.Room`: the deal stays as it was, unfinished, the
  game's rules are not asked anything; the room is over (its frames and ``GET /api/rooms/ROOM``
  say ``"over": true, "abandoned": true``), no bot moves there and every request is refused
  (``game_over``). The store's ``over`` flag is set, so the room no longer counts towards its
  creator's cap of open rooms.
- **Removing** a room deletes, in one transaction, its rows from every table that has a
  ``room`` column (rooms, seats, events, reviews, clocks, presence, room_seen and any table a
  later version adds).
- **Never** is a room with a socket open removed or abandoned: not one with a socket in this
  process, nor (PostgreSQL) one whose seat is held through another process, nor one seen by
  any process within the limits.

The server prunes when it starts and then every :attr:`Policy.every` seconds on its time source
(:mod:`parlour.server.clock`, a fake one in tests); ``parlour rooms list`` and ``parlour rooms
prune`` (:mod:`parlour.cli.rooms`) do the same by hand, with wall time.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from parlour.server.logs import event as log_event
from parlour.server.store import EventRow, SqliteStore, Store

if TYPE_CHECKING:
    from parlour.server.hub import Hub

__all__ = [
    "ABANDON",
    "DAY",
    "Plan",
    "Policy",
    "Retention",
    "RoomInfo",
    "abandon_stored",
    "list_rooms",
    "make_plan",
    "prune",
    "remove_rooms",
]

log = logging.getLogger("parlour.server")

DAY = 86_400.0
ABANDON = "abandon"
"""The kind of the event that ends a room nobody came back to."""

_SEEN = "CREATE TABLE IF NOT EXISTS room_seen (room TEXT PRIMARY KEY, at DOUBLE PRECISION NOT NULL)"
_TOUCH = (
    "INSERT INTO room_seen (room, at) VALUES (?, ?) "
    "ON CONFLICT (room) DO UPDATE SET at = excluded.at WHERE room_seen.at < excluded.at"
)
_LIST = """
SELECT r.room, r.game, r.players, r.over, r.created, {last}, count(e.v), coalesce(sum({size}), 0),
    coalesce(max(CASE WHEN e.kind = 'abandon' THEN 1 ELSE 0 END), 0), s.at
FROM rooms r LEFT JOIN events e ON e.room = r.room LEFT JOIN room_seen s ON s.room = r.room
GROUP BY r.room, r.game, r.players, r.over, r.created, s.at
ORDER BY r.created, r.room
"""
_SQLITE_LIST = _LIST.format(last="max(e.at)", size="length(CAST(e.data AS BLOB))")
_PG_LIST = _LIST.format(last="EXTRACT(EPOCH FROM max(e.at))", size="octet_length(e.data)")
_SQLITE_TABLES = (
    "SELECT m.name FROM sqlite_master m, pragma_table_info(m.name) p "
    "WHERE m.type = 'table' AND p.name = 'room' AND m.name <> 'rooms'"
)
_PG_TABLES = (
    "SELECT c.table_name FROM information_schema.columns c "
    "JOIN information_schema.tables t USING (table_schema, table_name) "
    "WHERE c.column_name = 'room' AND t.table_type = 'BASE TABLE' "
    "AND c.table_schema = current_schema() AND c.table_name <> 'rooms'"
)
_PG_PRESENT = "SELECT DISTINCT room FROM presence WHERE at > now() - make_interval(secs => 60)"


@dataclass(frozen=True, slots=True)
class Policy:
    """How long rooms are kept: ``keep_days`` after a finished or abandoned room's last
    activity, ``abandon_days`` of nobody before an unfinished room is abandoned; the server
    prunes every ``every`` seconds."""

    keep_days: float = 30.0
    abandon_days: float = 7.0
    every: float = 3600.0


@dataclass(frozen=True, slots=True)
class RoomInfo:
    """A stored room as ``parlour rooms list`` shows it: ``status`` is ``running``, ``over``
    or ``abandoned``; ``last`` its last activity (wall time, seconds); ``events`` how many
    events it has and ``size`` their data's bytes."""

    room: str
    game: str
    players: int
    status: str
    last: float
    events: int
    size: int

    def to_json(self) -> dict[str, Any]:
        return {
            "room": self.room,
            "game": self.game,
            "players": self.players,
            "status": self.status,
            "last_activity": self.last,
            "events": self.events,
            "bytes": self.size,
        }


@dataclass
class Plan:
    """What a pruning pass does (or, in a dry run, would do)."""

    abandon: list[RoomInfo] = field(default_factory=list)
    remove: list[RoomInfo] = field(default_factory=list)


def _quoted(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


async def _ensure_seen(store: Store) -> None:
    """The ``room_seen`` table exists (two processes making it at once: one of them fails,
    and then it is there)."""
    try:
        await store.query(_SEEN, ())
    except Exception:  # the catalog race of CREATE IF NOT EXISTS
        await store.query(_SEEN, ())


async def list_rooms(store: Store) -> list[RoomInfo]:
    """Every stored room with its status, last activity and size, oldest first."""
    await _ensure_seen(store)
    sql = _SQLITE_LIST if isinstance(store, SqliteStore) else _PG_LIST
    _, rows = await store.query(sql, ())
    out = []
    for room, game, players, over, created, last, events, size, abandoned, seen in rows:
        times = [float(t) for t in (created, last, seen) if t is not None]
        status = "abandoned" if abandoned else "over" if over else "running"
        out.append(RoomInfo(room, game, int(players), status, max(times), int(events), int(size)))
    return out


async def touch(store: Store, rooms: Iterable[str], now: float) -> None:
    """Record that ``rooms`` have a socket open at ``now``."""
    await _ensure_seen(store)
    for room in rooms:
        await store.query(_TOUCH, (room, now))


async def present_elsewhere(store: Store) -> set[str]:
    """Rooms whose seat is held through another process (a shared store's presence)."""
    if not store.shared:
        return set()
    _, rows = await store.query(_PG_PRESENT, ())
    return {str(room) for (room,) in rows}


async def remove_rooms(store: Store, rooms: Sequence[str]) -> int:
    """Delete ``rooms`` from every table keyed by a room, in one transaction; how many rooms
    were removed."""
    if not rooms:
        return 0
    if isinstance(store, SqliteStore):
        db = store.db
        tables = [str(n) for (n,) in db.execute(_SQLITE_TABLES)] + ["rooms"]
        keys = [(room,) for room in rooms]
        with db:
            db.execute("BEGIN IMMEDIATE")
            for table in tables:
                cursor = db.executemany(f"DELETE FROM {_quoted(table)} WHERE room = ?", keys)
        return cursor.rowcount
    _, rows = await store.query(_PG_TABLES, ())
    tables = sorted({str(n) for (n,) in rows})
    steps = [
        f"d{i} AS (DELETE FROM {_quoted(t)} WHERE room = ANY(?))" for i, t in enumerate(tables)
    ]
    head = f"WITH {', '.join(steps)} " if steps else ""
    count, _ = await store.query(
        f"{head}DELETE FROM rooms WHERE room = ANY(?)", (list(rooms),) * (len(steps) + 1)
    )
    return count


async def abandon_stored(store: Store, room: str, now: float) -> bool:
    """End ``room`` as abandoned by storing its ``abandon`` event after its last one; False
    when another event came first (the room moved on) or the room is gone."""
    _, rows = await store.query("SELECT max(v) FROM events WHERE room = ?", (room,))
    if not rows or rows[0][0] is None:
        return False
    event = EventRow(int(rows[0][0]) + 1, ABANDON, None, {"at": now})
    if not await store.append(room, event, over=True):
        return False
    await touch(store, [room], now)  # its last activity: kept from now on
    return True


def make_plan(
    rooms: Iterable[RoomInfo], now: float, policy: Policy, busy: Collection[str] = ()
) -> Plan:
    """Which rooms are abandoned and which removed at ``now``; none of ``busy``."""
    plan = Plan()
    for info in rooms:
        if info.room in busy:
            continue
        idle = now - info.last
        if info.status == "running":
            if idle >= policy.abandon_days * DAY:
                plan.abandon.append(info)
        elif idle >= policy.keep_days * DAY:
            plan.remove.append(info)
    return plan


async def prune(store: Store, now: float, policy: Policy, *, dry_run: bool = False) -> Plan:
    """A pass by hand (``parlour rooms prune``): rooms seen by a server within the limits are
    left alone, as are (PostgreSQL) those held through a server now."""
    busy = await present_elsewhere(store)
    plan = make_plan(await list_rooms(store), now, policy, busy)
    if dry_run:
        return plan
    plan.abandon = [i for i in plan.abandon if await abandon_stored(store, i.room, now)]
    await remove_rooms(store, [i.room for i in plan.remove])
    return plan


class Retention:
    """The server's pruning: a pass at start, then one every :attr:`Policy.every` seconds of
    the hub's time source."""

    def __init__(self, hub: Hub, policy: Policy) -> None:
        self.hub = hub
        self.policy = policy
        self.passes = 0
        """Passes done (tests wait for it)."""
        self.next_pass: float | None = None
        """When the next pass is due, while waiting for it (None during a pass)."""
        self.changed = asyncio.Event()
        """Set when :attr:`passes` or :attr:`next_pass` change (tests clear it and wait), at
        once, so that a waiter wakes only once the pass's sleep is already registered."""
        self._task: asyncio.Task[None] | None = None

    @property
    def now(self) -> float:
        return self.hub.clocks.time.now()

    async def start(self) -> None:
        """Prune once, then keep pruning in the background."""
        await self.safe_pass()
        self._task = asyncio.create_task(self._run())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    async def _run(self) -> None:
        while True:
            self.next_pass = self.now + self.policy.every
            self.changed.set()
            await self.hub.clocks.time.sleep(self.policy.every)
            self.next_pass = None
            await self.safe_pass()

    async def safe_pass(self) -> Plan | None:
        try:
            return await self.prune()
        except Exception:  # the rooms stay as they are; the next pass tries again
            log.exception("pruning old rooms failed")
            return None
        finally:
            self.passes += 1
            self.changed.set()

    def _busy(self) -> set[str]:
        hub = self.hub
        return {room for room, conns in hub.conns.items() if conns} | hub.committing

    async def prune(self) -> Plan:
        """One pass: rooms with a socket here are marked seen, then rooms idle too long are
        abandoned or removed, unless a socket is open on them here or elsewhere."""
        hub, now = self.hub, self.now
        store = hub.store
        await touch(store, self._busy(), now)
        busy = self._busy() | await present_elsewhere(store)
        plan = make_plan(await list_rooms(store), now, self.policy, busy)
        plan.abandon = [i for i in plan.abandon if await self._abandon(i.room, now)]
        gone = [i for i in plan.remove if i.room not in self._busy()]
        await remove_rooms(store, [i.room for i in gone])
        plan.remove = gone
        for info in gone:
            self._forget(info.room)
        for info in plan.abandon:
            log_event("room.abandoned", room=info.room, game=info.game)
        for info in gone:
            log_event("room.removed", room=info.room, game=info.game, status=info.status)
        return plan

    async def _abandon(self, room_id: str, now: float) -> bool:
        hub = self.hub
        room = hub.rooms.get(room_id)
        if room is None:
            return await abandon_stored(hub.store, room_id, now)
        async with hub.lock(room_id):
            if room.over or room_id in self._busy():
                return False
            event = EventRow(room.v + 1, ABANDON, None, {"at": now})
            done = await hub.submit(room, event, over=True)
            if done:
                await touch(hub.store, [room_id], now)
        hub.schedule(room)  # calls off a bot or takeover that was waiting
        if done and not hub.conns.get(room_id):
            self._forget(room_id)
        return done

    def _forget(self, room_id: str) -> None:
        """Drop what memory holds of a room that is gone or over with nobody here (its lock
        goes by itself once unused: :mod:`parlour.server.locks`)."""
        hub = self.hub
        hub.rooms.pop(room_id, None)
        if not hub.conns.get(room_id):
            hub.conns.pop(room_id, None)
        for key in [k for k in hub.away if k[0] == room_id]:
            del hub.away[key]
        pending = hub.tasks.pop(room_id, None)
        if pending is not None:
            pending[1].cancel()
        timer = hub.clocks.timers.pop(room_id, None)
        if timer is not None:
            timer[1].cancel()
