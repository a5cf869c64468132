"""A room's agreed time: how much of it is used, whether it runs, and the time source the server
reads it from.

A game says how long its agreed time is for a room's options (:meth:`Game.time_limit`) and which
table entry ends the game when it runs out (:attr:`Game.time_up_entry`). The clock starts with
the deal's first action and runs while at least one person (a seat's socket, not a bot, not a
spectator) is connected; it stops while none is and when the deal ends.

Its state is kept in the room's events, so a restarted server resumes it: each event of a deal
whose clock has started carries a *stamp* ``{"used": SECONDS, "running": BOOL, "at": TIME}``,
the time used at wall time ``at`` and whether it runs on from there. Nothing here reads the time
itself: the hub passes ``now`` from its :class:`TimeSource` (wall time by default, a fake in
tests), and wall time (not a monotonic clock) is what survives a restart.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass
from typing import Any, Protocol

__all__ = ["RoomClock", "Stamp", "TimeSource", "WallTime"]

Stamp = dict[str, Any]
"""``{"used": float, "running": bool, "at": float}``, as stored in an event's data."""


class TimeSource(Protocol):
    """Where the hub reads the time and how it waits: wall time in seconds, and a sleep."""

    def now(self) -> float: ...

    async def sleep(self, seconds: float) -> None: ...


class WallTime:
    """The real time source: :func:`time.time` and :func:`asyncio.sleep`."""

    def now(self) -> float:
        return time.time()

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(seconds)


@dataclass
class RoomClock:
    """The agreed time of one deal: ``limit`` seconds, ``used`` of them before ``since`` (the
    wall time from which it runs, ``None`` while it is stopped)."""

    limit: float
    used: float = 0.0
    since: float | None = None
    started: bool = False

    @property
    def running(self) -> bool:
        return self.since is not None

    def used_at(self, now: float) -> float:
        """Seconds used by ``now`` (never more than the limit)."""
        extra = 0.0 if self.since is None else max(0.0, now - self.since)
        return min(self.limit, self.used + extra)

    def left(self, now: float) -> float:
        return max(0.0, self.limit - self.used_at(now))

    def deadline(self) -> float | None:
        """The wall time at which a running clock runs out; ``None`` while it is stopped."""
        if self.since is None:
            return None
        return self.since + self.limit - self.used

    def stamp(self, now: float, running: bool) -> Stamp:
        """The stamp that puts the clock, as it is at ``now``, running or stopped."""
        return {"used": round(self.used_at(now), 6), "running": running, "at": now}

    def set(self, stamp: Stamp, over: bool) -> None:
        """Fold a stored stamp; a deal that is ``over`` stops its clock where the stamp puts
        it (the time of the event that ended it)."""
        at = float(stamp["at"])
        self.started = True
        self.used = min(self.limit, max(0.0, float(stamp["used"])))
        self.since = at if bool(stamp["running"]) and not over else None

    def frame(self, now: float) -> dict[str, Any]:
        """What frames carry: ``limit`` and ``left`` in seconds, whether it is ``running``
        now and whether it has ``started`` (with the deal's first action)."""
        return {
            "limit": self.limit,
            "left": round(self.left(now), 3),
            "running": self.running,
            "started": self.started,
        }
