"""The rooms a server process holds, their sockets and their bots.

Every change to a room goes through :meth:`Hub.submit` under the room's lock: the event is
stored first (:mod:`parlour.server.store`), then folded into the room, then each socket of the
room is sent its own frame. With a shared store (PostgreSQL) another process may have moved a
room on: a refused append makes the room catch up from the store and the request ``stale``, and
the store's notifications bring other processes' events to this one's sockets. The clocks of
agreed times are kept by :mod:`parlour.server.timekeeper`.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from parlour.core.rng import derive_seed
from parlour.server.bots import TAKEOVER, BotPool
from parlour.server.clock import TimeSource
from parlour.server.integrity import load
from parlour.server.locks import RoomLocks
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


def dumps(frame: dict[str, Any]) -> str:
    return json.dumps(frame, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


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
        for conn in [c for conns in self.conns.values() for c in conns]:
            conn.send(RESTART)
        deadline = time.monotonic() + timeout
        while any(self.conns.values()) and time.monotonic() < deadline:
            await asyncio.sleep(0.05)

    async def stop(self) -> None:
        self.draining = True
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
        self.schedule(room)
        return room

    async def catch_up(self, room: Room) -> None:
        """Fold what other processes stored since this room's version, sending every socket
        one update per version (lock held)."""
        for event in await self.store.events_since(room.id, room.v):
            room.fold(event)
            self.broadcast(room)

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
        self.broadcast(room)
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

    # -- frames -----------------------------------------------------------------------------------

    def seats(self, room: Room) -> list[dict[str, Any]]:
        present = {c.seat for c in self.conns.get(room.id, ())}
        out = []
        for s in room.row.seats:
            entry: dict[str, Any] = {"seat": s.seat, "kind": s.kind, "name": s.name}
            if s.kind == "person":
                entry["connected"] = s.seat in present
            out.append(entry)
        return out

    def public(self, room: Room) -> dict[str, Any]:
        """The part of a frame that is the same for every socket of the room."""
        state, deal = room.state, room.deal
        outcome = state.outcome
        return {
            "room": room.id,
            "game": room.game.name,
            "v": room.v,
            "deal": deal.number,
            "commitment": deal.commitment,
            "to_move": state.to_move,
            "seats": self.seats(room),
            "proposals": [
                {
                    "proposal": p.id,
                    "entry": p.entry,
                    "by": p.by,
                    "target": p.target,
                    "yes": sorted(p.yes),
                    "no": sorted(p.no),
                }
                for p in room.proposals.values()
            ],
            "rematch": sorted(room.rematch),
            "match": room.match(),
            "over": room.over,
            "abandoned": room.abandoned,
            "outcome": None if outcome is None else outcome.to_json(),
            "clock": self.clocks.frame(room),
        }

    def frame(
        self, room: Room, conn: Conn, kind: str, public: dict[str, Any] | None = None
    ) -> dict[str, Any]:
        """What ``conn``'s seat may see now: its view, its legal moves when it is to move, the
        log entries it has not been sent (all of them in a welcome or a new deal), and the
        room's public part (:meth:`public`, made here unless given)."""
        state, deal, seat = room.state, room.deal, conn.seat
        since = conn.sent if (kind == "update" and conn.deal == deal.number) else 0
        entries = state.log(seat, since)
        conn.deal, conn.sent = deal.number, state.log_length()
        moving = seat is not None and state.to_move == seat and not room.abandoned
        legal = [str(a) for a in state.legal_actions()] if moving else []
        return {
            "type": kind,
            "seat": seat,
            "view": state.view(seat).to_json(),
            "legal": legal,
            "log": [e.to_json() for e in entries],
            **(public if public is not None else self.public(room)),
        }

    def broadcast(self, room: Room) -> None:
        """Send each socket its update; sockets of one seat that have been sent the same
        log share one frame (spectators, a person with two tabs)."""
        conns = list(self.conns.get(room.id, ()))
        if not conns:
            return
        made: dict[tuple[int | None, int, int], str] = {}
        public = self.public(room)
        for conn in conns:
            key = (conn.seat, conn.deal, conn.sent)
            text = made.get(key)
            if text is None:
                text = made[key] = dumps(self.frame(room, conn, "update", public))
            else:
                conn.deal, conn.sent = room.deal.number, room.state.log_length()
            conn.send(text)

    def presence(self, room: Room) -> None:
        text = dumps({"type": "seats", "v": room.v, "seats": self.seats(room)})
        for conn in list(self.conns.get(room.id, ())):
            conn.send(text)

    def _mark(self, room: Room, seat: int | None, present: bool) -> None:
        if seat is not None and self.store.shared:
            task = asyncio.create_task(self.store.mark_present(room.id, seat, present))
            self.marks.add(task)
            task.add_done_callback(self.marks.discard)

    async def join(self, room: Room, conn: Conn) -> None:
        """Add ``conn`` and send its welcome (a person first starts a stopped clock)."""
        async with self.lock(room.id):
            await self.clocks.joining(room, conn)
            if not self.present(room.id, conn.seat):
                self._mark(room, conn.seat, True)
            self.conns.setdefault(room.id, set()).add(conn)
            conn.send(dumps(self.frame(room, conn, "welcome")))
        self.presence(room)
        self.schedule(room)

    def leave(self, room: Room, conn: Conn) -> None:
        conns = self.conns.get(room.id, set())
        conns.discard(conn)
        if conn.seat is not None and all(c.seat != conn.seat for c in conns):
            self.away[(room.id, conn.seat)] = time.monotonic()
            self._mark(room, conn.seat, False)
            self.clocks.left(room)
        self.presence(room)
        self.schedule(room)
        if not conns and room.over and room.id not in self.tasks:
            # Nobody is left at a finished table: the store has it, memory need not.
            self.conns.pop(room.id, None)
            self.rooms.pop(room.id, None)
            for s in room.row.seats:
                self.away.pop((room.id, s.seat), None)

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
            gone = self.away.get((room.id, seat))
            if gone is None:  # never here since this process started, or since the room was made
                made = time.monotonic() - max(0.0, time.time() - room.row.created)
                gone = max(self.started, made)
            delay = max(delay, self.settings.takeover - (time.monotonic() - gone))
            kind = TAKEOVER if room.game.strategy is not None else "bot"
        task = asyncio.create_task(self._move(room, room.v, seat, kind, delay))
        self.tasks[room.id] = (room.v, task)

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
