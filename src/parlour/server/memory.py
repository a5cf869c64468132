"""What a server process holds for its sockets and rooms, and when it lets go (issue 27,
point 1).

- **Sockets per address.** Each socket is counted against its client's address (the peer, or
  behind a ``--trusted-proxy`` the address its ``X-Forwarded-For`` names:
  :mod:`parlour.server.trust`) from the moment it opens, its hello not yet said included; past
  :attr:`~parlour.server.hub.Settings.max_sockets_per_client` a new one is closed with 4429
  before the server reads anything from it. (Sockets per room are counted by the hub as they
  join: :meth:`~parlour.server.hub.Hub.join`.)
- **Rooms leaving memory.** When the last socket of a room goes (or a room is read from the
  store by a request with nobody connected), the room is looked at again
  :attr:`~parlour.server.hub.Settings.room_idle` seconds later, measured with the hub's time
  source (:mod:`parlour.server.clock`), and leaves memory then if nothing is at work on it:
  no socket, bot move, running clock or lock in use (else it is looked at again as often, at
  least every :data:`LOOK_AGAIN` seconds). Its game may be running, over or abandoned: the
  store keeps every room, and :meth:`~parlour.server.hub.Hub.room` folds it again when it is
  asked for. Every per-room entry goes with it (``GET /metrics``: ``parlour_room_entries``).
- **Giving memory back.** ``parlour serve`` tunes Python's collector for short pauses (what
  start-up loaded is frozen out of collections, and its oldest generation is collected very
  seldom), so what reference cycles hold would stay for hours: above all asyncio's transport of
  each closed connection, which refers to itself through a bound method of its own. Once
  :data:`COLLECT_EVERY` rooms, and at least as many as memory holds, have left memory since the
  last, a full collection gives it back. Its pause grows with what the process holds, not with
  what it finds (``benchmarks/gc_pause.py``: about 0.3 s of CPU with 250 four-player rooms of
  60 moves, 384,000 tracked objects, while it finds a few hundred objects), so it comes less
  often the more is held: a bounded cost per room that left. Collecting the younger
  generations only would leave the transports of connections that lived long enough to reach
  the oldest; freezing the rooms too would keep for ever the cycles of every connection open
  at that time. Rooms themselves, and the evictions called off, make no cycles
  (``tests/server/test_gc.py``): they go as their last reference goes.
"""

from __future__ import annotations

import asyncio
import gc
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from parlour.server.hub import Hub

__all__ = ["COLLECT_EVERY", "LOOK_AGAIN", "Memory"]

LOOK_AGAIN = 1.0
"""Seconds between two looks at a room nobody is connected to that is still at work."""

COLLECT_EVERY = 100
"""Rooms leaving memory between two full collections of Python's garbage collector, at least
(and at least as many as memory holds then)."""


class Memory:
    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self.addresses: dict[str, int] = {}
        """Open sockets per client address (none: no entry)."""
        self.evicting: dict[str, asyncio.Task[None]] = {}
        """Rooms nobody is connected to, each waiting to leave memory."""
        self.stopping = False
        self.left = 0
        """Rooms that left memory since the last full collection."""

    # -- sockets per address ---------------------------------------------------------------------

    def open_socket(self, address: str) -> bool:
        """A socket from client ``address`` has opened: counted, or ``False`` (not counted)
        when that address has as many open as it may have already."""
        held = self.addresses.get(address, 0)
        if held >= self.hub.settings.max_sockets_per_client:
            return False
        self.addresses[address] = held + 1
        return True

    def close_socket(self, address: str) -> None:
        """A socket counted by :meth:`open_socket` has closed."""
        held = self.addresses.get(address, 0) - 1
        if held > 0:
            self.addresses[address] = held
        else:
            self.addresses.pop(address, None)

    # -- rooms ---------------------------------------------------------------------------------

    def later(self, room_id: str) -> None:
        """Nobody is connected to the room now: it leaves memory once it has been left alone
        for the idle time and is unused then (a later call starts the wait again)."""
        old = self.evicting.pop(room_id, None)
        if old is not None:
            old.cancel()
        if not self.stopping:
            self.evicting[room_id] = asyncio.create_task(self._evict(room_id))

    def unused(self, room_id: str) -> bool:
        """Whether nothing of this process is at work on the room now."""
        hub = self.hub
        clocks = hub.clocks
        return not (
            hub.conns.get(room_id)
            or room_id in hub.tasks
            or room_id in hub.committing
            or room_id in hub.locks
            or room_id in clocks.timers
            or room_id in clocks.following
        )

    async def _evict(self, room_id: str) -> None:
        # No local names the task itself: a called-off eviction's exception holds this frame
        # in its traceback, and the task holds the exception, so such a name would make a
        # reference cycle of every eviction called off (a socket back within the idle time),
        # left for the full collection (tests/server/test_gc.py).
        hub = self.hub
        wait = hub.settings.room_idle
        try:
            while True:
                await hub.clocks.time.sleep(wait)
                if hub.conns.get(room_id) or room_id not in hub.rooms:
                    return  # someone came (the last to leave asks again), or it is gone
                if self.unused(room_id):
                    self.forget(room_id)
                    return
                wait = max(wait, LOOK_AGAIN)  # a bot or a clock at work: look again later
        finally:
            if self.evicting.get(room_id) is asyncio.current_task():
                del self.evicting[room_id]

    def forget(self, room_id: str) -> None:
        """Drop what memory holds of a room nobody is connected to (the store keeps it)."""
        hub = self.hub
        room = hub.rooms.pop(room_id, None)
        if room is not None:
            self.left += 1
            if self.left >= max(COLLECT_EVERY, len(hub.rooms)):
                self.left = 0
                gc.collect()
        if not hub.conns.get(room_id):
            hub.conns.pop(room_id, None)
        if room is not None:
            for s in room.row.seats:
                hub.away.pop((room_id, s.seat), None)
        else:
            for key in [k for k in hub.away if k[0] == room_id]:
                del hub.away[key]

    def stop(self) -> None:
        """The server is stopping: no room waits to leave memory any more."""
        self.stopping = True
        for task in list(self.evicting.values()):
            task.cancel()
