"""A damaged database, a room that cannot be rebuilt and a failed write, each said plainly.

- **At start** (``parlour serve``, before it listens): :func:`check_database` runs SQLite's
  ``PRAGMA quick_check`` (every page and index of the file is read: seconds for a large file) or,
  on PostgreSQL, reads a row of each of the server's tables and counts the rooms (PostgreSQL
  checks its own pages as it reads them, and their checksums where the cluster has them; a
  deep check is ``amcheck``'s, the host's to run). A damaged database is refused in one line
  (exit status 2) naming it and the first problem found. Then :func:`check_rooms` rebuilds
  every room whose game is running: one that cannot be rebuilt (an event this version cannot
  apply, a seed that does not open with the key) is logged by id (``room.broken``, once).
- **A broken room** (found at start, or when a finished room is first asked for) is remembered
  by the hub and answered ``410 room_broken`` over HTTP, and its sockets are closed with
  ``4410 room_broken``: a reconnection would find it broken again.
- **A storage error** (:func:`storage_error`: the database refused or failed a write or a read:
  a read-only or full disk, a lost PostgreSQL) is the server's trouble, not the client's: a
  request is rejected ``server_error`` and nothing is applied (the event is stored before it is
  applied), a socket's hello is closed with ``1011 server_error``; each is logged once
  (``store.error``), without a traceback. Any other failure while a socket is served closes it
  with ``1011 server_error`` too (the trace in the log), never a bare 1000.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from parlour.games import find_game
from parlour.server import logs
from parlour.server.protocol import CLOSE
from parlour.server.room import Room
from parlour.server.store import Store

if TYPE_CHECKING:
    from parlour.server.hub import Hub

log = logging.getLogger("parlour.server")

__all__ = [
    "Damaged",
    "RoomBroken",
    "check_database",
    "check_rooms",
    "failed",
    "load",
    "rebuild",
    "storage_error",
    "unapplied",
]


class Damaged(Exception):
    """The database is damaged (one line)."""


class RoomBroken(Exception):
    """A room's stored events cannot be rebuilt into a room (one line: why)."""


def storage_error(err: BaseException) -> bool:
    """Whether ``err`` came from the database or reaching it (SQLite, psycopg, the OS)."""
    return isinstance(err, OSError) or type(err).__module__.split(".")[0] in ("sqlite3", "psycopg")


def _transient(err: BaseException) -> bool:
    """A storage error that may pass (a lost connection, a locked or full disk), as opposed to
    stored data that is wrong."""
    return isinstance(err, OSError) or (storage_error(err) and "Operational" in type(err).__name__)


async def check_database(store: Store, name: str) -> None:
    """Refuse a damaged database (see the module's text).

    Raises:
        Damaged: one line naming ``name`` and what was found.
    """
    try:
        if store.shared:
            for table in ("rooms", "seats", "events"):
                await store.query(f"SELECT * FROM {table} LIMIT 1", ())
            await store.query("SELECT count(*) FROM rooms", ())
            return
        _, rows = await store.query("PRAGMA quick_check", ())
    except Exception as err:
        if not storage_error(err) or (_transient(err) and store.shared):
            raise
        raise Damaged(f"{name}: the database is damaged: {_first_line(err)}") from None
    found = [str(row[0]) for row in rows]
    if found != ["ok"]:
        more = f" (and {len(found) - 1} more problems)" if len(found) > 1 else ""
        raise Damaged(
            f"{name}: the database is damaged: quick_check found {_first_line(found[0])}{more}; "
            "restore it from a backup"
        )


def _first_line(err: object) -> str:
    text = str(err).strip()
    return " ".join(text.splitlines()[:1])[:200] if text else type(err).__name__


async def rebuild(store: Store, room_id: str) -> Room | None:
    """The room folded from its stored events, or None when there is no such room.

    Raises:
        RoomBroken: its events cannot be rebuilt (why, in one line).
        Exception: a transient storage error, as it is.
    """
    try:
        loaded = await store.load_room(room_id)
        if loaded is None:
            return None
        row, events = loaded
        room = Room(row, find_game(row.game))
        for event in events:
            room.fold(event)
    except Exception as err:
        if _transient(err):
            raise
        raise RoomBroken(f"{type(err).__name__}: {_first_line(err)}") from None
    return room


async def load(hub: Hub, room_id: str) -> Room | None:
    """:func:`rebuild` for the hub: a room found broken is remembered (and logged once), so
    it is not folded again at every request.

    Raises:
        RoomBroken: the room is broken.
    """
    why = hub.broken.get(room_id)
    if why is not None:
        raise RoomBroken(why)
    try:
        return await rebuild(hub.store, room_id)
    except RoomBroken as err:
        raise broken(hub, room_id, str(err)) from None


def broken(hub: Hub, room_id: str, why: str) -> RoomBroken:
    """Remember that ``room_id`` is broken (logged the first time); the error to raise."""
    if room_id not in hub.broken:
        hub.broken[room_id] = why
        logs.event("room.broken", logging.ERROR, room=room_id, reason=why)
    return RoomBroken(why)


async def check_rooms(hub: Hub) -> int:
    """Rebuild every room whose game is running; how many are broken (each logged by id)."""
    _, rows = await hub.store.query("SELECT room FROM rooms WHERE NOT over ORDER BY room", ())
    for (room_id,) in rows:
        try:
            await rebuild(hub.store, str(room_id))
        except RoomBroken as err:
            broken(hub, str(room_id), str(err))
    return len(hub.broken)


def failed(room: str, err: BaseException) -> None:
    """Log a failure while a socket of ``room`` was served: a storage error in one line (the
    driver's words say it), anything else with its trace."""
    if storage_error(err):
        reason = f"{type(err).__name__}: {_first_line(err)}"
        logs.event("store.error", logging.ERROR, room=room, error=reason)
    else:
        log.error("room %s: serving a socket failed", room, exc_info=err)


async def unapplied(hub: Hub, room: Room) -> None:
    """After a failure while ``room`` changed: when the store holds an event the room in
    memory has not applied, the room leaves memory (its bot called off) and each of its sockets
    is closed with 1011, so that reconnecting rebuilds it from the store, or finds it broken."""
    try:
        behind = bool(await hub.store.events_since(room.id, room.v))
    except Exception:  # the store cannot say: assume the worst
        behind = True
    if behind and hub.rooms.get(room.id) is room:
        del hub.rooms[room.id]
        pending = hub.tasks.pop(room.id, None)
        if pending is not None:
            pending[1].cancel()
        for conn in list(hub.conns.get(room.id, ())):
            conn.send((CLOSE["server_error"], "server_error"))
