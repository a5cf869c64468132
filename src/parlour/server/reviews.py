"""Reviews of finished deals at the server: the expert's eye on every decision
(:mod:`parlour.bots.review`), made once a deal is over, kept with the room, and served to
anyone who may see the finished deal (every card is shown then: seats and spectators alike).

- **When.** :meth:`Reviews.ended` is called by the hub when a stored event ends a deal: the
  review is asked for in the store (a pending :class:`~parlour.server.store.ReviewRow`) and
  queued. Nothing asks for the review of a deal that is not over, and the endpoint refuses one
  (409 ``not_over``), so a review never exists before its deal is over.
- **Where.** One review at a time, in a review worker process of its own
  (:mod:`parlour.server.review_worker`: started with the first review, leaving with the
  server as the bot workers do) at the lowest CPU priority (nice 19): a review is a few
  seconds to half a minute of one core, and the bot workers, which play in every room, take
  the processor from it at once, whatever the review is in the middle of. In the bot workers
  a review would hold a bot move back for as long as the review's own step; in a thread it
  would share the event loop's interpreter lock.
- **Budget.** ``parlour serve --review-budget SPEC`` (:attr:`Settings.review_budget`): the
  search budget of each decision (``N`` iterations or ``Ns`` seconds), the game's ``expert``
  budget by default, ``off`` for no reviews. The review's seed is 0, so an iteration budget
  gives what ``parlour review RECORD --budget N --json`` prints for the same record.
- **Progress.** Each judged decision is saved (``done`` of ``total``) and sent to the room's
  sockets on this server as ``{"type": "review", "room", "deal", "status": "running", "done",
  "total"}``; the same frame with ``"status": "ready"`` (or ``failed``) ends it.
- **A bounded queue.** A process holds at most :data:`BACKLOG` reviews waiting in memory;
  the store is the queue. A deal that ends is asked for in the store (a ``pending`` row, with
  the time it was asked for) and queued in memory; when the queue is full, the oldest review
  queued there leaves it (it stays pending in the store). The worker takes the reviews someone
  asked for through the endpoint first, in the order asked, then the newest of the others: when
  deals end faster than the worker reviews them, the deals just played are reviewed while their
  players are still at the table, and the older ones wait. An ask through the endpoint always
  finds a place (the oldest of the others leaves the queue for it), unless the whole queue is
  reviews asked for that way (the page asks again every second, and gets a place once one is
  free).
- **The sweep.** At start and every :data:`SWEEP` seconds (of the hub's time source) the store's
  pending reviews are queued again, the newest :data:`BACKLOG` of them at most (an indexed
  query with a ``LIMIT``), and so are those running in a process silent for :data:`LEASE`
  seconds (a process making a review reports at least every :data:`HEARTBEAT` seconds; with a
  single SQLite process every running one, since its process is gone). Only reviews asked for
  within :data:`FRESH` seconds are swept: an older one (a backlog left by a busy hour, or by a
  server that was down) is made when someone asks for it through the endpoint, and never
  otherwise. Several processes on one PostgreSQL database compare their wall clocks here,
  which are expected to agree within a second or so. A finished deal without any review (a
  server killed between the deal's end and the asking, or a deal older than reviews) is asked
  for when someone asks the endpoint for it.
- **A worker that dies** (killed, out of memory) fails the review it was making (``failed``),
  and is started again for the next review; ``/readyz`` answers 503 while it is dead
  (:meth:`Reviews.dead`), and lets it go, so the next review starts a new one.

``GET /api/rooms/ROOM/review[?deal=N]`` (N: the last finished deal by default) answers
``{"deal", "status": "pending"|"running"|"ready"|"failed"|"off", "done", "total", "review"}``,
``review`` the review's JSON once ready (``parlour schema review``), never cached.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import math
import uuid
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from parlour.core.inputs import parse_int
from parlour.core.record import Record
from parlour.errors import ParlourError
from parlour.server.integrity import RoomBroken, rebuild
from parlour.server.review_worker import Message, ReviewWorker, Worker
from parlour.server.room import Room
from parlour.server.store import ReviewRow

if TYPE_CHECKING:
    from parlour.server.hub import Hub

__all__ = ["BACKLOG", "FRESH", "HEARTBEAT", "LEASE", "OFF", "SWEEP", "Reviews", "review_route"]

log = logging.getLogger("parlour.server")

OFF = "off"
"""The review budget that turns reviews off."""

SEED = 0
"""The seed of every review made here (as ``parlour review``'s default)."""

SWEEP = 5.0
"""Seconds between two looks in the store for reviews nobody is making (indexed queries)."""

HEARTBEAT = 2.0
"""Seconds between two reports of a review being made, at most (each decision reports too)."""

LEASE = 10.0
"""Seconds after which a review running in a process that has stopped reporting is taken up
by another: that process is gone."""

BACKLOG = 100
"""Reviews waiting in a process's memory at most (the store keeps the others pending)."""

FRESH = 3600.0
"""Seconds a pending review is taken up by the sweep; later, only an ask at the endpoint does."""

Key = tuple[str, int]
"""A review: its room and deal."""


class Reviews:
    """The server's reviews: asked for when deals end, made one at a time, kept in the store;
    at most :attr:`backlog` of them wait in memory (:attr:`asked` and :attr:`fresh`)."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self.spec = hub.settings.review_budget
        self.on = self.spec != OFF
        self.owner = uuid.uuid4().hex
        """This process, as the store's review rows name the one making a review."""
        self.backlog = BACKLOG
        self.asked: dict[Key, None] = {}
        """Reviews asked for through the endpoint, waiting: made first, in the order asked."""
        self.fresh: dict[Key, float] = {}
        """The other reviews waiting, each with when it was asked for: the newest made first."""
        self.making: Key | None = None
        self.wake = asyncio.Event()
        self.inbox: asyncio.Queue[Message] = asyncio.Queue()
        self.worker: ReviewWorker | None = None
        self.spawn: Callable[[asyncio.Queue[Message]], ReviewWorker] = Worker
        """What starts a review worker (tests start one of their own)."""
        self.task: asyncio.Task[None] | None = None
        self.asks: set[asyncio.Task[None]] = set()

    @property
    def queued(self) -> set[Key]:
        """The reviews waiting in memory (:attr:`backlog` at most), not the one being made."""
        return {*self.asked, *self.fresh}

    def now(self) -> float:
        """Wall time, as the hub's time source reads it."""
        return self.hub.clocks.time.now()

    def start(self) -> None:
        if self.on:
            self.task = asyncio.create_task(self._run())

    async def stop(self) -> None:
        tasks = [t for t in (self.task, *self.asks) if t is not None]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        if self.worker is not None:
            await self.worker.close()
            self.worker = None
        if self.on:
            with contextlib.suppress(Exception):  # the next start takes them up anyway
                await self.hub.store.query(ReviewRow.RELEASE, (self.owner,))

    def ended(self, room: Room) -> None:
        """The room's deal has just ended (its last event stored): ask for its review."""
        if self.task is not None:  # started (the app's lifespan starts it)
            task = asyncio.create_task(self._ask(room.id, room.deal.number))
            self.asks.add(task)
            task.add_done_callback(self.asks.discard)

    async def _ask(self, room: str, deal: int, asked: bool = False) -> None:
        at = self.now()
        await self.hub.store.query(ReviewRow.WANT, (room, deal, at))
        self._enqueue((room, deal), at, asked)

    def _enqueue(self, key: Key, at: float, asked: bool = False) -> None:
        """Queue the review in memory: ``asked`` for through the endpoint (made before the
        others), else one of the others, the oldest of which leaves the queue (staying pending
        in the store) when it is full. Nothing when the queue is all asked-for reviews."""
        if key == self.making or key in self.asked or (not asked and key in self.fresh):
            return
        if len(self.asked) >= self.backlog:
            return  # taken up by the sweep, or by its next ask, once there is room
        if asked:
            self.fresh.pop(key, None)
            self.asked[key] = None
        else:
            self.fresh[key] = at
        while len(self.asked) + len(self.fresh) > self.backlog:
            del self.fresh[min(self.fresh, key=self.fresh.__getitem__)]
        self.wake.set()

    def _take(self) -> Key | None:
        """The next review to make: the first asked for, else the newest other; None."""
        if self.asked:
            key = next(iter(self.asked))
            del self.asked[key]
            return key
        if self.fresh:
            key = max(self.fresh, key=self.fresh.__getitem__)
            del self.fresh[key]
            return key
        return None

    @property
    def stale(self) -> float:
        """Wall time before which a running review's process is taken for gone."""
        return self.now() - LEASE if self.hub.store.shared else math.inf

    async def _sweep(self) -> None:
        """Queue the newest reviews of the store that nobody is making."""
        since = self.now() - FRESH
        store, limit = self.hub.store, self.backlog + 1  # + the one being made
        _, pending = await store.query(ReviewRow.WANTED, (since, limit))
        _, left = await store.query(ReviewRow.ABANDONED, (since, self.stale, limit))
        for room, deal, at in (*pending, *left):
            self._enqueue((str(room), int(deal)), float(at))

    async def _idle(self, seconds: float) -> None:
        """Wait until a review is queued, or ``seconds`` of the hub's time source pass."""
        self.wake.clear()
        waits = [
            asyncio.ensure_future(self.wake.wait()),
            asyncio.ensure_future(self.hub.clocks.time.sleep(max(0.0, seconds))),
        ]
        try:
            await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for wait in waits:
                wait.cancel()
            await asyncio.gather(*waits, return_exceptions=True)

    async def _run(self) -> None:
        due = -math.inf
        while True:
            try:
                if self.now() >= due:
                    await self._sweep()
                    due = self.now() + SWEEP
                key = self._take()
                if key is None:
                    await self._idle(due - self.now())
                    continue
                self.making = key
                try:
                    await self._review(*key)
                finally:
                    self.making = None
            except asyncio.CancelledError:
                raise
            except Exception:  # the store was unreachable a moment: look again later
                log.exception("reviews: a review could not be made")
                await asyncio.sleep(1.0)

    async def _review(self, room: str, deal: int) -> None:
        store = self.hub.store
        _, claimed = await store.query(
            ReviewRow.CLAIM, (self.owner, self.now(), room, deal, self.owner, self.stale)
        )
        if not claimed:
            return  # made already, or being made by another process
        record = await self._record(room, deal)
        review: dict[str, Any] | None = None
        total = 0
        if record is None:
            log.warning("room %s: deal %s has no finished record to review", room, deal)
        else:
            self._tell(room, deal, "running", 0, 0)
            review, total = await self._make(room, deal, record)
        status, text = ("failed", None) if review is None else ("ready", _dumps(review))
        await store.query(
            ReviewRow.FINISH, (status, text, total, total, self.now(), room, deal, self.owner)
        )
        self._tell(room, deal, status, total, total)

    async def _record(self, room_id: str, deal: int) -> Record | None:
        """The finished deal's record: from the room in memory, else folded from the store."""
        room = self.hub.rooms.get(room_id)
        if room is None or deal >= len(room.deals) or not room.deals[deal].state.is_over:
            try:
                room = await rebuild(self.hub.store, room_id)
            except RoomBroken:
                return None  # logged and answered where the room is asked for
            if room is None:
                return None
        if deal >= len(room.deals) or not room.deals[deal].state.is_over:
            return None
        return room.record(deal)

    def worker_lost(self) -> bool:
        """Whether the review worker has died; it is let go then (the next review starts a new
        one). Its pipe is closed by its reading thread, which reads the end of it."""
        worker = self.worker
        if worker is None or worker.alive():
            return False
        log.warning("the review worker process died: the next review starts a new one")
        self.worker = None
        return True

    async def _make(
        self, room: str, deal: int, record: Record
    ) -> tuple[dict[str, Any] | None, int]:
        """The review made by the worker (None if it failed) and its number of decisions."""
        self.worker_lost()
        if self.worker is None:
            self.inbox = asyncio.Queue()
            self.worker = self.spawn(self.inbox)
        worker, inbox = self.worker, self.inbox
        key = [room, deal]
        try:
            worker.send((key, record.game, record, self.spec, SEED))
        except OSError:  # it died since the look: its reading thread says so too
            inbox.put_nowait(("gone",))
        done = total = 0
        while True:
            try:
                message = await asyncio.wait_for(inbox.get(), HEARTBEAT)
            except TimeoutError:  # a long decision: this process is still at it
                await self._report(room, deal, done, total)
                continue
            kind = message[0]
            if kind == "gone":
                log.warning(
                    "room %s: the review worker stopped during deal %s's review", room, deal
                )
                if self.worker is worker:
                    self.worker = None
                await worker.close()
                return None, total
            if message[1] != key:
                continue
            if kind == "progress":
                done, total = int(message[2]), int(message[3])
                await self._report(room, deal, done, total)
                self._tell(room, deal, "running", done, total)
            elif kind == "failed":
                log.warning("room %s: deal %s's review failed: %s", room, deal, message[2])
                return None, total
            else:
                review: dict[str, Any] = message[2]
                return review, total

    async def _report(self, room: str, deal: int, done: int, total: int) -> None:
        now = self.now()
        await self.hub.store.query(ReviewRow.PROGRESS, (done, total, now, room, deal, self.owner))

    def _tell(self, room: str, deal: int, status: str, done: int, total: int) -> None:
        """Send the review's state to the room's sockets on this server."""
        conns = self.hub.conns.get(room)
        if conns:
            frame = {"type": "review", "room": room, "deal": deal, "status": status}
            text = _dumps({**frame, "done": done, "total": total})
            for conn in list(conns):
                conn.send(text)

    async def status(self, room: str, deal: int) -> dict[str, Any]:
        """What the endpoint answers for a finished deal. A review not made yet is asked for
        now, ahead of the reviews nobody asked for (one never asked for, as the server was
        killed as the deal ended or the deal is older than reviews, first in the store)."""
        _, rows = await self.hub.store.query(ReviewRow.LOAD, (room, deal))
        row = ReviewRow.of(rows[0] if rows else None)
        if row is not None and row.status in ("ready", "failed"):
            return _body(deal, row.status, row.done, row.total, row.review)
        if not self.on:
            return _body(deal, OFF, 0, 0, None)
        if row is None:
            await self._ask(room, deal, asked=True)
            return _body(deal, "pending", 0, 0, None)
        self._enqueue((room, deal), self.now(), asked=True)  # a running one: CLAIM decides
        return _body(deal, row.status, row.done, row.total, row.review)


def _body(
    deal: int, status: str, done: int, total: int, review: dict[str, Any] | None
) -> dict[str, Any]:
    return {"deal": deal, "status": status, "done": done, "total": total, "review": review}


def _dumps(obj: object) -> str:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


NO_STORE = {"Cache-Control": "no-store"}


def _error(status: int, code: str, message: str) -> Response:
    body = {"error": {"code": code, "message": message}}
    return JSONResponse(body, status_code=status, headers=NO_STORE)


async def review_route(hub: Hub, request: Request) -> Response:
    """``GET /api/rooms/ROOM/review[?deal=N]``: a finished deal's review and its state."""
    room = await hub.room(request.path_params["room"])
    if room is None:
        return _error(404, "not_found", "no such room")
    current = room.deal.number
    wanted = request.query_params.get("deal")
    if wanted is None:
        number = current if room.state.is_over else current - 1  # not an abandoned deal
    else:
        try:  # as the record's: 0007 is 7, and 5,000 digits are refused before int()
            number = parse_int(wanted, field="deal", minimum=0, maximum=current)
        except ParlourError:
            return _error(400, "bad_request", f"deal is a number from 0 to {current}")
    if number < 0 or not room.deals[number].state.is_over:
        return _error(409, "not_over", "a deal's review is made once the deal is over")
    return JSONResponse(await hub.reviews.status(room.id, number), headers=NO_STORE)
