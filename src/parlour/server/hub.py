"""The rooms a server process holds, their sockets and their bots.

Every change to a room goes through :meth:`Hub.submit` under the room's lock: the event is
stored first (:mod:`parlour.server.store`), then folded into the room, then each socket of the
room is sent its own frame. With a shared store (PostgreSQL) another process may have moved a
room on: a refused append makes the room catch up from the store and the request ``stale``, and
the store's notifications bring other processes' events to this one's sockets. The clocks of
agreed times are kept by :mod:`parlour.server.timekeeper`, the frames made by
:mod:`parlour.server.frames`, and what the process holds of sockets and idle rooms is let go
by :mod:`parlour.server.memory`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from parlour.core.rng import derive_seed
from parlour.server.bots import TAKEOVER, BotPool
from parlour.server.clock import TimeSource
from parlour.server.frames import broadcast, dumps, frame, presence
from parlour.server.integrity import load
from parlour.server.locks import RoomLocks
from parlour.server.memory import Memory
from parlour.server.protocol import Bucket, Refused
from parlour.server.reviews import Reviews
from parlour.server.room import Room
from parlour.server.store import EventRow, Store
from parlour.server.timekeeper import Timekeeper

__all__ = ["Conn", "Hub", "Settings"]

log = logging.getLogger("parlour.server")

RESTART = (1012, "the server is restarting: reconnect")
"""The close code and reason of every socket when the server stops gracefully (SIGTERM, Ctrl-C):
1012 "service restart", after which clients reconnect."""


@dataclass(frozen=True)
class Settings:
    """How a server runs (``parlour serve`` options)."""

    takeover: float = 60.0
    """Seconds a person may be away before the heuristic plays for him."""
    bot_delay: float = 0.6
    """Seconds a bot waits before it moves, so people can follow."""
    bot_workers: int = 1
    bot_seconds: float = 3.0
    """Seconds a search bot may think a decision at most, whatever its spec asks for."""
    max_rooms_per_client: int = 20
    rate: float = 20.0
    burst: int = 40
    hello_timeout: float = 10.0
    clock_save: float = 1.0
    """Seconds between saves of a running clock's time used (what a killed server resumes)."""
    review_budget: str | None = None  # a review's (parlour.server.reviews); "off": no reviews
    max_sockets_per_room: int = 100
    """Open sockets one room may have (spectators and second tabs); a seat's first socket is
    let in whatever the count, so watchers can never keep a person from his seat."""
    max_sockets_per_client: int = 50
    """Open sockets one client address may have, counted from the moment they open."""
    room_idle: float = 60.0
    """Seconds (of the hub's time source) a room nobody is connected to, with no bot or clock
    at work, stays in memory; the store keeps it, and :meth:`Hub.room` folds it again."""


@dataclass(eq=False)
class Conn:
    """One open socket: the seat its hello proved (``None``: a spectator) and what it has been
    sent of the log."""

    room: str
    seat: int | None
    send: Callable[[str | tuple[int, str]], None]
    bucket: Bucket
    deal: int = -1
    sent: int = 0
    extra: dict[str, Any] = field(default_factory=dict)


class Hub:
    def __init__(self, store: Store, settings: Settings, clock: TimeSource | None = None) -> None:
        self.store = store
        self.settings = settings
        self.clocks = Timekeeper(self, clock)
        self.bots = BotPool(settings.bot_workers, settings.bot_seconds)
        self.reviews = Reviews(self)  # started and stopped with the app (parlour.server.app)
        self.rooms: dict[str, Room] = {}
        self.locks = RoomLocks()  # each dropped when unused: no lock for unknown/gone rooms
        self.conns: dict[str, set[Conn]] = {}
        self.away: dict[tuple[str, int], float] = {}
        self.tasks: dict[str, tuple[int, asyncio.Task[None]]] = {}
        self.committing: set[str] = set()
        self.broken: dict[str, str] = {}  # rooms that cannot be rebuilt: why
        self.marks: set[asyncio.Task[None]] = set()
        self.memory = Memory(self)  # sockets per address; rooms leaving memory when unused
        self.started = time.monotonic()
        self.draining = False
        """A graceful stop has begun: new sockets are refused (:meth:`drain`)."""

    async def start(self) -> None:
        await self.store.open()
        await self.store.listen(self.on_notify)
        self.bots.start()
        self.started = time.monotonic()

    async def drain(self, timeout: float) -> None:
        """The first step of a graceful stop (SIGTERM): new sockets are refused, and each
        open socket is closed with :data:`RESTART` (the client reconnects, to another
        process or to this server started again) once the request it is answering, if any,
        is stored and answered; waits ``timeout`` seconds at most for them to go."""
        self.draining = True
        deadline = time.monotonic() + timeout
        for room in [r for r, conns in self.conns.items() if conns]:
            # The room's lock: a request being stored is answered (its ack queued on its
            # socket) before the close is queued behind it.
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(max(0.0, deadline - time.monotonic())):
                    async with self.lock(room):
                        for conn in list(self.conns.get(room, ())):
                            conn.send(RESTART)
        for conn in [c for conns in self.conns.values() for c in conns]:
            conn.send(RESTART)  # any left (the wait ran out), and any that came meanwhile
        while any(self.conns.values()) and time.monotonic() < deadline:
            await asyncio.sleep(0.05)

    async def stop(self) -> None:
        self.draining = True
        self.memory.stop()
        await self.clocks.stop()
        for _, task in list(self.tasks.values()):
            task.cancel()
        for conn in [c for conns in self.conns.values() for c in conns]:
            conn.send(RESTART)
        self.bots.close()  # waits for the workers: no semaphore is left behind
        await self.store.close()

    def lock(self, room: str) -> contextlib.AbstractAsyncContextManager[None]:
        return self.locks(room)

    # -- loading ---------------------------------------------------------------------------------

    async def room(self, room_id: str) -> Room | None:
        """The room, folded from the store the first time it is asked for."""
        room = self.rooms.get(room_id)
        if room is not None:
            return room
        async with self.lock(room_id):
            room = self.rooms.get(room_id)
            if room is None:
                room = await load(self, room_id)  # RoomBroken: logged once, remembered
                if room is None:
                    return None
                await self.clocks.orphan(room)
                self.rooms[room_id] = room
                if not self.conns.get(room_id):
                    self.memory.later(room_id)  # looked at, not joined: it goes again
        self.schedule(room)
        return room

    async def catch_up(self, room: Room) -> None:
        """Fold what other processes stored since this room's version, sending every socket
        one update per version (lock held)."""
        for event in await self.store.events_since(room.id, room.v):
            room.fold(event)
            broadcast(self, room)

    async def on_notify(self, room_id: str, v: int) -> None:
        room = self.rooms.get(room_id)
        if room is None or v <= room.v:
            return
        async with self.lock(room_id):
            await self.catch_up(room)
        self.schedule(room)

    # -- changes ----------------------------------------------------------------------------------

    async def submit(self, room: Room, event: EventRow, over: bool | None = None) -> bool:
        """Store ``event`` (``over``: whether it ends the game, if known), fold it and send each
        socket its update (lock held). False: another process took the version (caught up)."""
        after = (
            room.state.apply(str(event.data["action"]), seat=event.seat)
            if event.kind == "action"
            else None
        )
        if over is None:
            over = after.is_over if after is not None else (False if _new_deal(event) else None)
        self.clocks.stamp(room, event)
        if not await self.store.append(room.id, event, over=over):
            await self.catch_up(room)
            return False
        if room.fold(event, after):  # the deal has just ended: ask for its review
            self.reviews.ended(room)
        broadcast(self, room)
        return True

    async def request(
        self, conn: Conn, room: Room, cid: str | None, prepare: Callable[[], EventRow]
    ) -> dict[str, Any]:
        """Answer a request from a seat: the first answer again for a repeated id, else
        prepare, store and fold the event; an ack or a reject."""
        assert conn.seat is not None
        async with self.lock(room.id):
            if cid is not None:
                answer = room.answer_for(conn.seat, cid)
                if answer is not None:
                    return answer
            await self.clocks.time_up(room)  # the agreed time ran out before this request
            try:
                event = prepare()
            except Refused as err:
                answer = err.frame(cid, room.v)
            else:
                if await self.submit(room, event):
                    answer = {"type": "ack", "id": cid, "v": room.v}
                else:
                    answer = reject(cid, "stale", "another move came first: resync", room.v)
            if cid is not None and answer["type"] == "reject":
                room.remember(conn.seat, cid, answer)
        self.schedule(room)
        return answer

    def _mark(self, room: Room, seat: int | None, present: bool) -> None:
        if seat is not None and self.store.shared:
            task = asyncio.create_task(self.store.mark_present(room.id, seat, present))
            self.marks.add(task)
            task.add_done_callback(self.marks.discard)

    async def join(self, room: Room, conn: Conn) -> str | None:
        """Add ``conn`` and send its welcome (a person first starts a stopped clock); the
        others are told only when a seat becomes connected (:mod:`parlour.server.frames`).
        ``None``: joined; ``"full"``: refused, the room has
        :attr:`Settings.max_sockets_per_room` sockets and this is no seat's first; ``"gone"``:
        the room left memory while the socket said its hello (:mod:`parlour.server.memory`),
        so it is to be loaded again (:meth:`room`)."""
        async with self.lock(room.id):
            if self.rooms.get(room.id) is not room:
                return "gone"
            arrives = conn.seat is not None and not self.present(room.id, conn.seat)
            conns = self.conns.get(room.id, ())
            if not arrives and len(conns) >= self.settings.max_sockets_per_room:
                return "full"
            await self.clocks.joining(room, conn)
            if arrives:
                self._mark(room, conn.seat, True)
            self.conns.setdefault(room.id, set()).add(conn)
            conn.send(dumps(frame(self, room, conn, "welcome")))
        if arrives:
            presence(self, room, conn)
        self.schedule(room)
        return None

    def leave(self, room: Room, conn: Conn) -> None:
        conns = self.conns.get(room.id)
        if conns is None or conn not in conns:
            return
        conns.discard(conn)
        gone = conn.seat is not None and all(c.seat != conn.seat for c in conns)
        if gone:
            assert conn.seat is not None
            self.away[(room.id, conn.seat)] = time.monotonic()
            self._mark(room, conn.seat, False)
            self.clocks.left(room)
        if not conns:
            del self.conns[room.id]
        if gone:
            presence(self, room)
        if self.rooms.get(room.id) is room:  # not one that left memory meanwhile
            self.schedule(room)
        if not conns:
            self.memory.later(room.id)

    def present(self, room_id: str, seat: int | None) -> bool:
        return any(c.seat == seat for c in self.conns.get(room_id, ()))

    # -- bots ---------------------------------------------------------------------------------

    def schedule(self, room: Room) -> None:
        """Start the bot that is to move (or the takeover of an absent person), if any. A bot
        still waiting for an older version is called off, unless it is storing its move; so is
        a takeover, which starts again from when the person was last seen. With nobody
        connected to the room (a seat or a spectator) no bot moves: a thinking one is called
        off, and play resumes when someone comes (:meth:`join`)."""
        pending = self.tasks.get(room.id)
        self.clocks.arm(room)
        nobody = not self.conns.get(room.id)
        if pending is not None and not pending[1].done():
            mover = room.state.to_move
            takeover = mover is not None and room.kind(mover) == "person"
            if room.id in self.committing or (pending[0] == room.v and not takeover and not nobody):
                return
            pending[1].cancel()
        self.tasks.pop(room.id, None)
        if nobody:
            return
        state = room.state
        seat = state.to_move
        if seat is None or room.abandoned:
            return
        kind = room.kind(seat)
        delay = self.settings.bot_delay
        if kind == "person":
            if self.present(room.id, seat):
                return
            delay = max(delay, self.settings.takeover - (time.monotonic() - self.gone(room, seat)))
            kind = TAKEOVER if room.game.strategy is not None else "bot"
        task = asyncio.create_task(self._move(room, room.v, seat, kind, delay))
        self.tasks[room.id] = (room.v, task)

    def gone(self, room: Room, seat: int) -> float:
        """When (time.monotonic()) the person of ``seat`` was last seen: when his last socket
        closed, or, never here since this process started or since the room was made, the
        later of those two."""
        gone = self.away.get((room.id, seat))
        if gone is None:
            made = time.monotonic() - max(0.0, time.time() - room.row.created)
            gone = max(self.started, made)
        return gone

    def stands_in(self, room: Room, seat: int) -> bool:
        """Whether a bot plays for the person of ``seat`` now: he is away longer than the
        takeover time (what the seats frame says as ``stand_in``)."""
        if room.kind(seat) != "person" or self.present(room.id, seat):
            return False
        return time.monotonic() - self.gone(room, seat) >= self.settings.takeover

    async def _move(self, room: Room, v: int, seat: int, kind: str, delay: float) -> None:
        cancelled = False
        try:
            await asyncio.sleep(delay)
            takeover = room.kind(seat) == "person"
            if room.v != v or (takeover and self.present(room.id, seat)):
                return
            if takeover and await self.store.present_elsewhere(room.id, seat):
                self.away[(room.id, seat)] = time.monotonic()  # look again a takeover later
                return
            state = room.state
            view = state.view(seat).to_json()
            legal = list(state.legal_action_ids())
            seed = derive_seed(room.deal.seed, "bot", v)
            action_id = await self.bots.decide(room.game, kind, view, legal, seed, room.id)
            text = str(room.game.action_from_id(action_id))
            async with self.lock(room.id):
                await self.clocks.time_up(room)  # then room.v != v
                if room.v != v or (takeover and self.present(room.id, seat)):
                    return
                self.committing.add(room.id)
                try:
                    event = room.prepare_act(seat, v, text, None)
                    if takeover:
                        event.data["takeover"] = True
                    await self.submit(room, event)
                finally:
                    self.committing.discard(room.id)
        except asyncio.CancelledError:
            cancelled = True
            raise
        except Exception:  # a bot must never take the server down; the room stays as stored
            cancelled = True  # and it does not try again in a loop
            log.exception("room %s: the bot for seat %s failed", room.id, seat)
        finally:
            current = self.tasks.get(room.id)
            if current is not None and current[1] is asyncio.current_task():
                del self.tasks[room.id]
            if not cancelled:
                self.schedule(room)

    async def idle(self) -> None:
        """Wait until no bot is thinking (tests, benchmarks)."""
        while self.tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await asyncio.gather(*(t for _, t in self.tasks.values()), return_exceptions=True)


def reject(cid: str | None, code: str, message: str, v: int) -> dict[str, Any]:
    return {"type": "reject", "id": cid, "code": code, "message": message, "v": v}


def _new_deal(event: EventRow) -> bool:
    """Whether ``event`` starts a deal (so the room's game is running again)."""
    return event.kind == "rematch" and "seed" in event.data
