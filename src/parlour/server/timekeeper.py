"""The hub's keeper of the rooms' agreed times (ruling M12 and any game with a clock: see
:mod:`parlour.server.clock`).

- **In the events.** Each event of a deal whose clock has started is stored with the clock's
  stamp (the deal's first action starts it); a ``clock`` event stops it when the last person's
  socket goes and starts it when the first comes back. Folding the events gives the clock, so
  every process and every restart agrees on it.
- **The end.** While the clock runs, a task per room waits for its deadline and enters the
  game's :attr:`~parlour.core.game.Game.time_up_entry` (by nobody) as any table entry is
  entered: stored, folded, broadcast. A request that comes after the deadline, before the task
  has run, finds the deal ended first.
- **A restart.** Meanwhile the task saves the time used every :attr:`Settings.clock_save`
  seconds (:meth:`Store.save_clock`, no event). A server that reads a room whose clock was
  running (its process was stopped or killed) stops it where it was last saved, since nobody is
  connected to a new process, or ends the deal if it had run out; with a shared store, a clock
  saved or stamped lately runs in another process and is left alone.

The time is read from an injectable :class:`~parlour.server.clock.TimeSource` (wall time by
default, which survives a restart; a fake in tests).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import TYPE_CHECKING, Any

from parlour.server.clock import TimeSource, WallTime
from parlour.server.room import Room
from parlour.server.store import EventRow

if TYPE_CHECKING:
    from parlour.server.hub import Conn, Hub

__all__ = ["Timekeeper"]

log = logging.getLogger("parlour.server")

_SAME = 1e-3
"""Deadlines closer than this (seconds) are the same: a task waiting for one is kept."""


class Timekeeper:
    def __init__(self, hub: Hub, time_source: TimeSource | None = None) -> None:
        self.hub = hub
        self.time = time_source or WallTime()
        self.timers: dict[str, tuple[float, asyncio.Task[None]]] = {}
        """Each room's running clock: its deadline and the task that ends the deal then."""
        self.following: dict[str, asyncio.Task[None]] = {}
        """Rooms whose clock is being started or stopped to follow who is connected."""
        self.stopping = False

    # -- what the hub asks -----------------------------------------------------------------------

    def here(self, room: Room) -> bool:
        """Whether a person's socket (one with a seat: bots have none, spectators no seat) is
        connected to ``room`` through this process."""
        return any(c.seat is not None for c in self.hub.conns.get(room.id, ()))

    def frame(self, room: Room) -> dict[str, Any] | None:
        """The room's clock as frames carry it now, or ``None`` without an agreed time."""
        clock = room.clock
        return None if clock is None else clock.frame(self.time.now())

    def stamp(self, room: Room, event: EventRow) -> None:
        """Put the clock's stamp into ``event`` before it is stored: every event of a deal
        whose clock has started, and the deal's first action, which starts it (running if a
        person is connected)."""
        clock = room.clock
        if clock is None or room.over or "clock" in event.data:
            return
        if event.kind in ("deal", "rematch") and "seed" in event.data:
            return  # a new deal: a new clock
        now = self.time.now()
        if clock.started:
            event.data["clock"] = clock.stamp(now, clock.running)
        elif event.kind == "action":
            event.data["clock"] = {"used": 0.0, "running": self.here(room), "at": now}

    async def joining(self, room: Room, conn: Conn) -> None:
        """A socket is about to join (lock held): the first person starts a stopped clock."""
        if conn.seat is not None and not self.here(room):
            await self.run(room, True)

    def left(self, room: Room) -> None:
        """A person's socket has gone: with a shared store, the clock stops unless a person
        is connected through another process (:meth:`arm` stops it otherwise)."""
        if self.hub.store.shared and not self.here(room):
            self.follow(room)

    async def run(self, room: Room, running: bool) -> None:
        """Start or stop the room's started clock now (lock held)."""
        clock = room.clock
        if clock is None or not clock.started or room.over or clock.running == running:
            return
        stamp = clock.stamp(self.time.now(), running)
        await self.hub.submit(room, EventRow(room.v + 1, "clock", None, {"clock": stamp}))

    async def time_up(self, room: Room, used: float | None = None) -> bool:
        """End the deal with the game's time-up entry, made by nobody, if its clock has run
        out (or ``used``, the time known to be used, reaches the limit); lock held."""
        clock, entry = room.clock, room.game.time_up_entry
        if clock is None or entry is None or not clock.started or room.over:
            return False
        now = self.time.now()
        if (clock.used_at(now) if used is None else used) < clock.limit:
            return False
        after = room.state.apply_table(entry, by=None)
        assert after.step is not None
        stamp = {"used": clock.limit, "running": False, "at": now}
        data = {"entry": after.step.text, "votes": [], "clock": stamp}
        await self.hub.submit(room, EventRow(room.v + 1, "table", None, data), over=True)
        return True

    async def orphan(self, room: Room) -> None:
        """A room just read from the store (lock held): a clock left running by a process
        that is gone stops where it was last saved, or the deal ends if it had run out."""
        clock = room.clock
        if clock is None or clock.since is None or room.over:
            return
        now = self.time.now()
        used, last = clock.used, clock.since
        saved = await self.hub.store.load_clock(room.id)
        if saved is not None and saved.deal == room.deal.number:
            used, last = max(used, saved.used), max(last, saved.at)
        if self.hub.store.shared and now - last < 3 * self.hub.settings.clock_save:
            return  # running in another process
        if not await self.time_up(room, used):
            stamp = {"used": min(used, clock.limit), "running": False, "at": now}
            await self.hub.submit(room, EventRow(room.v + 1, "clock", None, {"clock": stamp}))

    async def stop(self) -> None:
        """The server is stopping: no more tasks; every running clock's time used is saved."""
        self.stopping = True
        for _, task in list(self.timers.values()):
            task.cancel()
        for task in list(self.following.values()):
            task.cancel()
        now = self.time.now()
        for room in list(self.hub.rooms.values()):
            clock = room.clock
            if clock is not None and clock.running and not room.over:
                with contextlib.suppress(Exception):
                    await self.hub.store.save_clock(
                        room.id, room.deal.number, clock.used_at(now), now
                    )

    # -- the tasks ------------------------------------------------------------------------------

    def arm(self, room: Room) -> None:
        """After any change: make the room's clock follow who is connected (start it when a
        person is here, stop it when nobody is; with a shared store only :meth:`left` stops
        it, after asking the other processes), and keep one task that ends the deal when the
        running clock runs out."""
        clock = room.clock
        live = clock is not None and not room.over and not self.stopping
        if live and clock is not None and clock.started:
            here = self.here(room)
            if here != clock.running and (here or not self.hub.store.shared):
                self.follow(room)
        deadline = clock.deadline() if live and clock is not None else None
        current = self.timers.get(room.id)
        if current is not None:
            if deadline is not None and abs(current[0] - deadline) < _SAME:
                return
            current[1].cancel()
            del self.timers[room.id]
        if deadline is not None:
            self.timers[room.id] = (deadline, asyncio.create_task(self._wait(room, deadline)))

    def follow(self, room: Room) -> None:
        if room.id not in self.following and not self.stopping:
            self.following[room.id] = asyncio.create_task(self._follow(room))

    async def _follow(self, room: Room) -> None:
        """Start or stop the clock as people are connected or not (any process's people,
        with a shared store)."""
        hub = self.hub
        try:
            async with hub.lock(room.id):
                clock = room.clock
                here = self.here(room)
                if not here and hub.store.shared and clock is not None and clock.running:
                    for seat in room.persons:
                        if await hub.store.present_elsewhere(room.id, seat):
                            here = True
                            break
                await self.run(room, here)
        except asyncio.CancelledError:
            raise
        except Exception:  # the room stays as stored; the next change tries again
            log.exception("room %s: the clock could not follow who is connected", room.id)
            return
        finally:
            if self.following.get(room.id) is asyncio.current_task():
                del self.following[room.id]
        hub.schedule(room)

    async def _wait(self, room: Room, deadline: float) -> None:
        """Wait for the running clock's ``deadline``, saving the time used meanwhile, then
        end the deal (unless something came first: :meth:`arm` cancels this task when the
        clock stops or the deal ends)."""
        hub = self.hub
        try:
            while (now := self.time.now()) < deadline:
                await self.time.sleep(min(deadline - now, hub.settings.clock_save))
                clock, now = room.clock, self.time.now()
                if clock is not None and clock.running and now < deadline:
                    await hub.store.save_clock(room.id, room.deal.number, clock.used_at(now), now)
            current = self.timers.get(room.id)
            if current is not None and current[1] is asyncio.current_task():
                del self.timers[room.id]  # so that arm does not cancel what follows
            async with hub.lock(room.id):
                await self.time_up(room)
        except asyncio.CancelledError:
            raise
        except Exception:  # the room stays as stored; a request or a restart tries again
            log.exception("room %s: the clock failed", room.id)
            return
        hub.schedule(room)
