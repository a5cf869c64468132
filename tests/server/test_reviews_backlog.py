"""The review queue is bounded (issue 27, point 1): when deals end faster than the review
worker reviews them, at most ``backlog`` reviews wait in the server's memory, the newest ones;
the others stay pending in the store, where the sweep takes up the newest of them (those asked
for within ``FRESH`` seconds) as places free up. A review someone asks for through the endpoint
is made before the others, even when it was left out of the queue, or is too old for the sweep.

In process, over SQLite, with a fake time source and a review worker of the test's own that
holds every review until the test lets it finish: nothing waits for real time, and every wait
is on an event (a review handed to the worker, a sweep done)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from parlour.server.hub import Hub, Settings
from parlour.server.review_worker import Message
from parlour.server.reviews import FRESH, SWEEP, Reviews
from parlour.server.room import Room
from tests.server.test_clock import FakeTime, Socket, Table, run, settle

Key = tuple[str, int]


class HeldWorker:
    """A review worker whose reviews are made when the test says so (:meth:`finish`)."""

    def __init__(self, inbox: asyncio.Queue[Message], jobs: asyncio.Queue[Key]) -> None:
        self.inbox, self.jobs = inbox, jobs
        self.living = True

    def send(self, job: Message) -> None:
        key = job[0]
        self.jobs.put_nowait((str(key[0]), int(key[1])))

    def alive(self) -> bool:
        return self.living

    async def close(self) -> None:
        self.living = False

    def finish(self, key: Key) -> None:
        self.inbox.put_nowait(("ready", list(key), {"made for": list(key)}))


class NapTime(FakeTime):
    """A fake time that says when the review loop waits for its next sweep (the only sleep
    here as short as :data:`SWEEP`): the time is moved on only then, so that it wakes it."""

    def __init__(self) -> None:
        super().__init__()
        self.napping = asyncio.Event()

    async def sleep(self, seconds: float) -> None:
        short = seconds <= SWEEP
        if short:
            self.napping.set()
        try:
            await super().sleep(seconds)
        finally:
            if short:
                self.napping.clear()


class Server:
    """A hub with reviews on, its review worker a :class:`HeldWorker`, and a fake time."""

    def __init__(self, db: Path, backlog: int) -> None:
        self.fake = NapTime()
        self.table = Table(db, self.fake)
        settings = Settings(takeover=3600.0, bot_delay=0.0, bot_workers=0, room_idle=1e6)
        self.hub = self.table.hub = Hub(self.table.store, settings, self.fake)
        self.reviews: Reviews = self.hub.reviews
        self.reviews.backlog = backlog
        self.workers: list[HeldWorker] = []
        self.jobs: asyncio.Queue[Key] = asyncio.Queue()
        """Each review handed to a worker, in turn."""
        self.reviews.spawn = self._spawn
        self.sweeps = 0
        self.swept = asyncio.Event()
        sweep = self.reviews._sweep

        async def counted() -> None:
            await sweep()
            self.sweeps += 1
            self.swept.set()

        self.reviews._sweep = counted  # type: ignore[method-assign]
        self.reviewed: asyncio.Queue[Key] = asyncio.Queue()
        """Each review done (made, failed, or found made already), in turn."""
        review = self.reviews._review

        async def done(room: str, deal: int) -> None:
            await review(room, deal)
            self.reviewed.put_nowait((room, deal))

        self.reviews._review = done  # type: ignore[method-assign]
        self.most = 0
        """The most reviews seen waiting in memory at once."""

    def _spawn(self, inbox: asyncio.Queue[Message]) -> HeldWorker:
        worker = HeldWorker(inbox, self.jobs)
        self.workers.append(worker)
        return worker

    @property
    def worker(self) -> HeldWorker:
        return self.workers[-1]

    def held(self) -> set[Key]:
        """The reviews waiting in memory, checked against the bound."""
        queued = self.reviews.queued
        self.most = max(self.most, len(queued))
        assert len(queued) <= self.reviews.backlog, queued
        return queued

    async def start(self) -> None:
        await self.hub.start()
        self.reviews.start()
        await self.sweep()  # the first sweep, at start

    async def stop(self) -> None:
        await self.reviews.stop()
        await self.hub.stop()

    async def swept_past(self, count: int) -> None:
        """Wait until more than ``count`` sweeps are done."""
        while self.sweeps <= count:
            await self.swept.wait()
            self.swept.clear()

    async def sweep(self) -> None:
        """Wait for the next sweep to be done."""
        await self.swept_past(self.sweeps)

    async def later(self, seconds: float) -> None:
        """Move the time on by ``seconds`` (the worker idle) and wait for the sweep that
        comes with it."""
        await self.fake.napping.wait()
        before = self.sweeps
        self.fake.advance(seconds)
        await self.swept_past(before)

    async def finish(self, key: Key, sweep: bool = False) -> None:
        """Let the worker make ``key``'s review, and wait until it is stored; ``sweep``: with
        a sweep due, and done, before the next review is handed out."""
        before = self.sweeps
        if sweep:
            self.fake.advance(SWEEP)
        self.worker.finish(key)
        assert await self.reviewed.get() == key
        if sweep:
            await self.swept_past(before)

    async def deal(self, name: str) -> Room:
        """A room of two people whose one deal is played to its end (a turn of BEOR)."""
        self.fake.advance(1.0)  # each deal ends a second after the one before
        room = await self.table.make(["person", "person"], {"max_turns": 1}, "beor", name)
        seats = [Socket(self.hub, room, s) for s in (0, 1)]
        moves = 0
        while not room.state.is_over:
            seat = room.state.to_move
            assert seat is not None
            text = str(room.state.legal_actions()[0])
            assert (await seats[seat].act(text, f"m{moves}"))["type"] == "ack"
            moves += 1
        await settle(lambda: not self.reviews.asks)  # the review asked for in the store
        self.held()
        return room

    async def made(self) -> Key:
        """The next review handed to the worker, which it makes at once."""
        key = await self.jobs.get()
        self.held()
        return key

    async def stored(self, name: str, deal: int = 0) -> str:
        """The review's status as the store keeps it."""
        _, rows = await self.hub.store.query(
            "SELECT status FROM reviews WHERE room = ? AND deal = ?", (name, deal)
        )
        return str(rows[0][0]) if rows else "none"


def test_deals_ending_faster_than_reviews_never_grow_the_queue_past_its_bound(
    tmp_path: Path,
) -> None:
    """Ten deals end while the first is being reviewed: three wait in memory (the newest),
    the others pending in the store; one the endpoint asks for is made next, and the sweep
    takes the rest up, newest first, as places free up."""

    async def work() -> None:
        s = Server(tmp_path / "rooms.db", backlog=3)
        await s.start()
        try:
            await s.deal("r0")
            assert await s.made() == ("r0", 0)  # the worker is busy with it from here on
            for n in range(1, 10):
                await s.deal(f"r{n}")
                assert len(s.held()) == min(n, 3)
            assert s.held() == {("r7", 0), ("r8", 0), ("r9", 0)}, "the newest wait in memory"
            for n in range(1, 10):
                assert await s.stored(f"r{n}") == "pending"

            # r2 was left out of the queue: the endpoint asks for it, and it goes first.
            body = await s.reviews.status("r2", 0)
            assert body == {"deal": 0, "status": "pending", "done": 0, "total": 0, "review": None}
            assert s.held() == {("r2", 0), ("r8", 0), ("r9", 0)}, "r7, the oldest, left"
            await s.finish(("r0", 0))
            assert await s.made() == ("r2", 0)
            body = await s.reviews.status("r2", 0)
            assert body["status"] == "running"
            await s.finish(("r2", 0))
            assert (await s.reviews.status("r2", 0))["review"] == {"made for": ["r2", 0]}

            # Then the newest first; the sweep fills the places freed from the store.
            order = []
            for _ in range(8):
                key = await s.made()
                order.append(key[0])
                await s.finish(key, sweep=True)
            assert order == ["r9", "r8", "r7", "r6", "r5", "r4", "r3", "r1"]
            assert s.most == 3
            for n in range(10):
                assert await s.stored(f"r{n}") == "ready"
        finally:
            await s.stop()

    run(work)


def test_a_review_too_old_for_the_sweep_is_made_when_asked_for(tmp_path: Path) -> None:
    """A review left pending for longer than FRESH (a busy hour) is not taken up by the sweep
    any more, so an old backlog does not keep the worker busy; it is made as soon as someone
    asks for it through the endpoint."""

    async def work() -> None:
        s = Server(tmp_path / "rooms.db", backlog=1)
        await s.start()
        try:
            await s.deal("old")
            assert await s.made() == ("old", 0)
            await s.deal("left")  # queued, then left out for the next one
            await s.deal("next")
            assert s.held() == {("next", 0)}
            s.fake.advance(FRESH + 1)
            await s.finish(("old", 0), sweep=True)
            assert await s.made() == ("next", 0)
            await s.finish(("next", 0))
            await s.later(SWEEP)
            await s.later(SWEEP)  # two sweeps with the worker free: "left" is too old
            assert s.held() == set() and s.jobs.empty()
            assert await s.stored("left") == "pending"
            body = await s.reviews.status("left", 0)
            assert body["status"] == "pending"
            assert await s.made() == ("left", 0)
            await s.finish(("left", 0))
        finally:
            await s.stop()

    run(work)


def test_an_ask_for_a_deal_never_asked_for_is_made_first(tmp_path: Path) -> None:
    """A finished deal with no review row (a server killed as the deal ended) gets one when the
    endpoint is asked, and is made before the reviews nobody asked for, even with the queue
    full of them."""

    async def work() -> None:
        s = Server(tmp_path / "rooms.db", backlog=2)
        await s.start()
        try:
            await s.deal("busy")
            assert await s.made() == ("busy", 0)
            await s.deal("a")
            await s.deal("b")
            await s.hub.store.query("DELETE FROM reviews WHERE room = ?", ("a",))
            s.reviews.fresh.pop(("a", 0))  # as if the deal ended in a server killed then
            await s.deal("c")
            assert s.held() == {("b", 0), ("c", 0)}
            assert (await s.reviews.status("a", 0))["status"] == "pending"
            assert s.held() == {("a", 0), ("c", 0)}
            assert await s.stored("a") == "pending"
            await s.finish(("busy", 0))
            assert await s.made() == ("a", 0)
        finally:
            await s.stop()

    run(work)


def test_a_review_worker_that_died_is_replaced_for_the_next_review(tmp_path: Path) -> None:
    async def work() -> None:
        s = Server(tmp_path / "rooms.db", backlog=5)
        await s.start()
        try:
            await s.deal("r0")
            assert await s.made() == ("r0", 0)
            await s.finish(("r0", 0))
            first = s.worker
            first.living = False  # killed while idle
            assert s.reviews.worker_lost()
            assert s.reviews.worker is None and not s.reviews.worker_lost()
            await s.deal("r1")
            assert await s.made() == ("r1", 0)
            assert s.worker is not first and len(s.workers) == 2
            s.worker.inbox.put_nowait(("gone",))  # killed while making r1: r1 failed
            assert await s.reviewed.get() == ("r1", 0)
            assert await s.stored("r1") == "failed"
            assert s.reviews.worker is None
        finally:
            await s.stop()

    run(work)
