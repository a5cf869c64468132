"""The agreed time of an online room (issue 30, ruling M12), in process with a fake time source:
the hub, its SQLite store and sockets that are lists of the frames they were sent. Nothing
waits for real time: the fake clock is moved on by hand and the event loop is let run until the
room has done what it does.

Checked: the clock starts with the deal's first card; every frame carries the time left; it
stops while no person is connected (a bot or a spectator does not count) and goes on when one
is back; it ends the deal when it runs out though nobody turns a card, the outcome naming M12,
and the record replays and verifies (``parlour verify``) to that outcome; a player cannot end
the game with the time's entry; a new server on the same database (the old one gone without a
word, as after a SIGKILL) stops the clock where it was last saved, and a room without an agreed
time has no clock in its frames. The real server killed mid-clock: ``test_clock_kill.py``.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager, closing
from pathlib import Path
from typing import Any

import pytest

from parlour.cli import main
from parlour.core.fairness import verify
from parlour.games import find_game, replay_json
from parlour.server.hub import Conn, Hub, Settings
from parlour.server.protocol import Bucket
from parlour.server.room import Room, new_deal_event
from parlour.server.store import EventRow, RoomRow, SeatRow, SqliteStore

LIMIT = 60.0  # time_limit=1: one minute
START = 1_700_000_000.0


class FakeTime:
    """A time source moved on by hand: :meth:`advance` wakes every sleeper whose time came."""

    def __init__(self, start: float = START) -> None:
        self.t = start
        self.sleepers: list[tuple[float, asyncio.Future[None]]] = []

    def now(self) -> float:
        return self.t

    async def sleep(self, seconds: float) -> None:
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        entry = (self.t + seconds, future)
        self.sleepers.append(entry)
        try:
            await future
        finally:
            self.sleepers.remove(entry)

    def advance(self, seconds: float) -> None:
        self.t += seconds
        for deadline, future in list(self.sleepers):
            if deadline <= self.t and not future.done():
                future.set_result(None)


async def settle(done: Callable[[], bool] | None = None, rounds: int = 500) -> None:
    """Let the event loop run (no real time passes) until ``done`` or nothing is left to do."""
    for _ in range(rounds):
        await asyncio.sleep(0)
        if done is not None and done():
            return
    if done is not None:
        raise AssertionError("the room did not get there")


class Socket:
    """A socket of the room: a :class:`Conn` whose frames are kept, parsed."""

    def __init__(self, hub: Hub, room: Room, seat: int | None) -> None:
        self.hub, self.room, self.seat = hub, room, seat
        self.frames: list[dict[str, Any]] = []
        self.conn = Conn(room.id, seat, self._take, Bucket(1000.0, 1000))

    def _take(self, item: str | tuple[int, str]) -> None:
        if isinstance(item, str):
            self.frames.append(json.loads(item))

    @property
    def last(self) -> dict[str, Any]:
        return [f for f in self.frames if f["type"] in ("welcome", "update")][-1]

    @property
    def clock(self) -> dict[str, Any]:
        clock: dict[str, Any] = self.last["clock"]
        return clock

    async def join(self) -> Socket:
        await self.hub.join(self.room, self.conn)
        return self

    def leave(self) -> None:
        self.hub.leave(self.room, self.conn)

    async def act(self, text: str, cid: str) -> dict[str, Any]:
        assert self.seat is not None
        seat, room = self.seat, self.room
        v = room.v
        return await self.hub.request(
            self.conn, room, cid, lambda: room.prepare_act(seat, v, text, cid)
        )


class Table:
    """A hub over an SQLite file, with a fake time source."""

    def __init__(self, db: Path, fake: FakeTime) -> None:
        self.fake = fake
        settings = Settings(
            takeover=3600.0, bot_delay=0.0, bot_workers=0, clock_save=1.0, room_idle=1e6
        )  # the tests hold their Room: it stays in memory however long nobody is connected
        self.store = SqliteStore(db)
        self.hub = Hub(self.store, settings, fake)

    async def make(
        self, kinds: list[str], options: dict[str, Any], game: str = "beggar", name: str = "r1"
    ) -> Room:
        found = find_game(game)
        options = dict(found.options(options).items())
        seats = tuple(
            SeatRow(i, k, f"Player {i + 1}", b"x" if k == "person" else None)
            for i, k in enumerate(kinds)
        )
        row = RoomRow(name, found.name, len(kinds), options, seats, "test", self.fake.now())
        await self.store.create_room(row, new_deal_event(0, 0))
        room = await self.hub.room(name)
        assert room is not None
        return room


@asynccontextmanager
async def table(db: Path, fake: FakeTime | None = None) -> AsyncIterator[Table]:
    t = Table(db, fake or FakeTime())
    await t.hub.start()
    try:
        yield t
    finally:
        await t.hub.stop()


def run(work: Callable[[], Awaitable[None]]) -> None:
    asyncio.run(asyncio.wait_for(work(), 60))


def stored(db: Path, room: str) -> list[EventRow]:
    """The room's events as the database holds them (read with a connection of its own)."""
    with closing(sqlite3.connect(db)) as conn:
        rows = conn.execute(
            "SELECT v, kind, seat, data FROM events WHERE room = ? ORDER BY v", (room,)
        ).fetchall()
    return [EventRow(v, kind, seat, json.loads(data)) for v, kind, seat, data in rows]


def test_the_clock_starts_with_the_first_card_and_every_frame_carries_the_time_left(
    tmp_path: Path,
) -> None:
    async def work() -> None:
        async with table(tmp_path / "rooms.db") as t:
            room = await t.make(["person", "person"], {"time_limit": 1})
            ann, bob = await Socket(t.hub, room, 0).join(), await Socket(t.hub, room, 1).join()
            watcher = await Socket(t.hub, room, None).join()
            for s in (ann, bob, watcher):
                assert s.clock == {"limit": LIMIT, "left": LIMIT, "running": False,
                                   "started": False}  # fmt: skip
            t.fake.advance(45)  # before the first card the time is not counted
            await settle()
            assert room.v == 0 and not room.over
            mover = ann if room.state.to_move == 0 else bob
            assert (await mover.act("play", "c1"))["type"] == "ack"
            for s in (ann, bob, watcher):
                assert s.last["v"] == 1
                assert s.clock == {"limit": LIMIT, "left": LIMIT, "running": True,
                                   "started": True}  # fmt: skip
            t.fake.advance(12.5)
            await settle()
            other = bob if mover is ann else ann
            assert (await other.act("play", "c2"))["type"] == "ack"
            for s in (ann, bob, watcher):
                assert s.last["v"] == 2 and s.clock["running"]
                assert s.clock["left"] == pytest.approx(LIMIT - 12.5)
            # A welcome says the same, as does the room's page of facts.
            late = await Socket(t.hub, room, None).join()
            assert late.last["type"] == "welcome" and late.clock == watcher.clock
            # The stamps in the stored events are the clock's whole state.
            events = stored(tmp_path / "rooms.db", room.id)
            assert "clock" not in events[0].data
            assert events[1].data["clock"] == {"used": 0.0, "running": True, "at": START + 45}
            assert events[2].data["clock"]["used"] == pytest.approx(12.5)

    run(work)


def test_the_clock_stops_while_no_person_is_connected(tmp_path: Path) -> None:
    async def work() -> None:
        async with table(tmp_path / "rooms.db") as t:
            # A bot in the first seat turns the first card; a spectator watches throughout.
            room = await t.make(["bot", "person"], {"time_limit": 1})
            watcher = await Socket(t.hub, room, None).join()
            await settle(lambda: room.v >= 1)
            # The bot turned the first card with no person here: started, stopped.
            assert watcher.last["v"] == 1
            assert watcher.clock == {"limit": LIMIT, "left": LIMIT, "running": False,
                                     "started": True}  # fmt: skip
            t.fake.advance(500)
            await settle()
            assert watcher.clock["left"] == LIMIT and not room.over
            # The person comes: the clock runs (a clock event, then his welcome).
            bob = await Socket(t.hub, room, 1).join()
            assert bob.last["type"] == "welcome" and bob.last["v"] == 2
            assert bob.clock == {"limit": LIMIT, "left": LIMIT, "running": True, "started": True}
            assert watcher.last["v"] == 2 and watcher.clock["running"]
            t.fake.advance(20)
            await settle()
            # He goes: stopped at 40 s left, however long he stays away.
            bob.leave()
            await settle(lambda: room.clock is not None and not room.clock.running)
            assert watcher.last["v"] == room.v
            assert watcher.clock == {"limit": LIMIT, "left": 40.0, "running": False,
                                     "started": True}  # fmt: skip
            t.fake.advance(3600)
            await settle()
            assert not room.over
            back = await Socket(t.hub, room, 1).join()
            assert back.clock == {"limit": LIMIT, "left": 40.0, "running": True, "started": True}
            t.fake.advance(15)
            await settle()
            assert room.clock is not None and room.clock.left(t.fake.now()) == 25.0
            kinds = [e.kind for e in stored(tmp_path / "rooms.db", room.id)]
            assert kinds[:4] == ["deal", "action", "clock", "clock"], kinds

    run(work)


def test_the_time_up_ends_the_deal_with_nobody_acting_and_the_record_verifies(
    tmp_path: Path,
) -> None:
    async def work() -> tuple[dict[str, Any], dict[str, Any]]:
        async with table(tmp_path / "rooms.db") as t:
            room = await t.make(["person", "person"], {"time_limit": 1})
            ann, bob = await Socket(t.hub, room, 0).join(), await Socket(t.hub, room, 1).join()
            mover = ann if room.state.to_move == 0 else bob
            assert (await mover.act("play", "c1"))["type"] == "ack"
            t.fake.advance(59.5)
            await settle()
            assert not room.over and ann.clock["left"] == LIMIT  # no frame since the card
            t.fake.advance(0.5)
            await settle(lambda: room.over)
            for s in (ann, bob):
                final = s.last
                assert final["over"] and final["v"] == 2
                assert final["clock"] == {"limit": LIMIT, "left": 0.0, "running": False,
                                          "started": True}  # fmt: skip
                assert final["outcome"]["result"] == "time"
                assert final["outcome"] == ann.last["outcome"]
                texts = [e["text"] for entry in final["log"] for e in entry["events"]]
                assert any("M12" in text for text in texts), texts
            assert not t.hub.clocks.timers, "no clock is left running"
            # A card after the time is refused: the game is over.
            other = bob if mover is ann else ann
            answer = await other.act("play", "late")
            assert answer["type"] == "reject" and answer["code"] == "game_over"
            return ann.last, room.record(0).to_json()

    final, record = asyncio.run(asyncio.wait_for(work(), 60))
    entry = record["table"][-1]
    assert (entry["at"], entry["entry"], entry["by"]) == (1, "time", None)
    _, states = replay_json(record)
    assert states[-1].outcome is not None
    assert states[-1].outcome.to_json() == final["outcome"]
    assert verify(record, find_game).outcome.to_json() == final["outcome"]
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    assert main(["verify", str(path)]) == 0


def test_the_clock_is_not_up_while_it_was_stopped(tmp_path: Path) -> None:
    async def work() -> None:
        async with table(tmp_path / "rooms.db") as t:
            room = await t.make(["person", "person"], {"time_limit": 1})
            ann = await Socket(t.hub, room, 0).join()
            bob = await Socket(t.hub, room, 1).join()
            mover = ann if room.state.to_move == 0 else bob
            assert (await mover.act("play", "c1"))["type"] == "ack"
            t.fake.advance(50)
            ann.leave()
            bob.leave()
            await settle(lambda: room.clock is not None and not room.clock.running)
            t.fake.advance(100)
            await settle()
            assert not room.over
            ann = await Socket(t.hub, room, 0).join()
            t.fake.advance(9.9)
            await settle()
            assert not room.over
            t.fake.advance(0.1)
            await settle(lambda: room.over)
            assert ann.last["outcome"]["result"] == "time"

    run(work)


def test_a_request_after_the_time_is_up_finds_the_game_over(tmp_path: Path) -> None:
    """A card that comes when the time is up but before the clock's task has run is not
    played: the deal ends first."""

    async def work() -> None:
        async with table(tmp_path / "rooms.db") as t:
            room = await t.make(["person", "person"], {"time_limit": 1})
            ann = await Socket(t.hub, room, 0).join()
            bob = await Socket(t.hub, room, 1).join()
            first, second = (ann, bob) if room.state.to_move == 0 else (bob, ann)
            assert (await first.act("play", "c1"))["type"] == "ack"
            t.fake.t += 61  # the time is up; the clock's task has not woken yet
            answer = await second.act("play", "c2")
            assert answer["type"] == "reject" and answer["code"] == "stale"
            assert room.over and second.last["outcome"]["result"] == "time"
            assert len(room.deal.actions) == 1

    run(work)


def test_a_player_cannot_enter_the_time_up(tmp_path: Path) -> None:
    async def work() -> None:
        async with table(tmp_path / "rooms.db") as t:
            room = await t.make(["person", "person"], {"time_limit": 1})
            ann = await Socket(t.hub, room, 0).join()
            bob = await Socket(t.hub, room, 1).join()
            mover = ann if room.state.to_move == 0 else bob
            assert (await mover.act("play", "c1"))["type"] == "ack"
            for s in (ann, bob):
                answer = await s.act("time", f"t{s.seat}")
                assert answer["type"] == "reject" and answer["code"] == "illegal", answer
                assert "agreed time" in answer["message"]
            assert not room.over and room.v == 1

    run(work)


def test_a_new_server_stops_the_clock_where_it_was_last_saved(tmp_path: Path) -> None:
    db = tmp_path / "rooms.db"
    fake = FakeTime()

    async def first() -> None:
        t = Table(db, fake)
        await t.hub.start()
        room = await t.make(["person", "person"], {"time_limit": 1})
        ann = await Socket(t.hub, room, 0).join()
        bob = await Socket(t.hub, room, 1).join()
        mover = ann if room.state.to_move == 0 else bob
        assert (await mover.act("play", "c1"))["type"] == "ack"
        for _ in range(17):  # 17 s, saved every second
            fake.advance(1.0)
            await settle()
        fake.advance(0.6)  # not saved: lost with the server
        await settle()
        saved = await t.store.load_clock(room.id)
        assert saved is not None and saved.deal == 0 and saved.used == pytest.approx(17.0)
        # Gone without a word (as after a SIGKILL): its tasks end, its file is left as it is.
        for _, task in list(t.hub.clocks.timers.values()):
            task.cancel()
        await settle()
        await t.store.close()

    async def second() -> None:
        fake.advance(300)  # the server was down: nobody was connected
        async with table(db, fake) as t:
            room = await t.hub.room("r1")
            assert room is not None and room.clock is not None
            assert not room.clock.running and room.clock.left(fake.now()) == pytest.approx(43.0)
            ann = await Socket(t.hub, room, 0).join()
            assert ann.clock["running"] and ann.clock["left"] == pytest.approx(43.0)
            fake.advance(43)
            await settle(lambda: room.over)
            assert ann.last["outcome"]["result"] == "time"

    run(first)
    run(second)


def test_a_new_server_ends_a_deal_whose_time_ran_out_before_it_was_killed(
    tmp_path: Path,
) -> None:
    db = tmp_path / "rooms.db"
    fake = FakeTime()

    async def first() -> None:
        t = Table(db, fake)
        await t.hub.start()
        room = await t.make(["person", "person"], {"time_limit": 1})
        ann = await Socket(t.hub, room, 0).join()
        bob = await Socket(t.hub, room, 1).join()
        mover = ann if room.state.to_move == 0 else bob
        assert (await mover.act("play", "c1"))["type"] == "ack"
        await t.store.save_clock(room.id, 0, LIMIT, fake.now())  # saved at its very end
        for _, task in list(t.hub.clocks.timers.values()):
            task.cancel()
        await settle()
        await t.store.close()

    async def second() -> None:
        async with table(db, fake) as t:
            room = await t.hub.room("r1")
            assert room is not None and room.over
            outcome = room.state.outcome
            assert outcome is not None and outcome.to_json()["result"] == "time"

    run(first)
    run(second)


def test_a_room_without_an_agreed_time_has_no_clock(tmp_path: Path) -> None:
    async def work() -> None:
        async with table(tmp_path / "rooms.db") as t:
            room = await t.make(["person", "person"], {})
            ann = await Socket(t.hub, room, 0).join()
            bob = await Socket(t.hub, room, 1).join()
            mover = ann if room.state.to_move == 0 else bob
            assert (await mover.act("play", "c1"))["type"] == "ack"
            assert ann.last["clock"] is None and bob.last["clock"] is None
            ann.leave()
            bob.leave()
            await settle()
            assert room.v == 1 and not t.hub.clocks.timers
            assert all("clock" not in e.data for e in stored(tmp_path / "rooms.db", room.id))
            other = await t.make(["person", "person"], {}, game="beor", name="r2")
            assert (await Socket(t.hub, other, 0).join()).last["clock"] is None

    run(work)


def test_a_stop_saves_the_running_clocks(tmp_path: Path) -> None:
    async def work() -> None:
        async with table(tmp_path / "rooms.db") as t:
            room = await t.make(["person", "person"], {"time_limit": 1})
            ann = await Socket(t.hub, room, 0).join()
            bob = await Socket(t.hub, room, 1).join()
            mover = ann if room.state.to_move == 0 else bob
            assert (await mover.act("play", "c1"))["type"] == "ack"
            t.fake.t += 0.4  # less than a save's interval
        store = SqliteStore(tmp_path / "rooms.db")
        await store.open()
        saved = await store.load_clock("r1")
        await store.close()
        assert saved is not None and saved.used == pytest.approx(0.4)

    run(work)


def test_the_time_source_is_wall_time_by_default(tmp_path: Path) -> None:
    hub = Hub(SqliteStore(tmp_path / "rooms.db"), Settings())
    assert abs(hub.clocks.time.now() - time.time()) < 5
