"""How long rooms are kept (issue 27.4), on SQLite and PostgreSQL: the hub in process with a
fake time source moved on by hand (no real time passes: a month is one call), the command line
in process, and a real ``parlour serve`` that prunes when it starts.

Checked: a finished room is removed with its events, seats and review ``--keep-days`` after its
last activity, not before; an unfinished room nobody visits is ended as abandoned after
``--abandon-days`` (every later visitor, after a restart too, sees ``abandoned``, no move is
taken, it no longer counts against its creator's cap) and removed ``--keep-days`` later; a room
with a socket open is never abandoned nor removed, and the time it was seen counts as activity;
``parlour rooms list`` (table and ``--json``) and ``parlour rooms prune`` (``--dry-run`` changes
nothing); bad options are one line and status 2.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest

from parlour.cli import main
from parlour.games import find_game
from parlour.server.hub import Hub, Settings
from parlour.server.retention import DAY, Policy, Retention, list_rooms
from parlour.server.room import Room, new_deal_event
from parlour.server.store import ReviewRow, RoomRow, SeatRow, Store, open_store
from tests.server.client import WAIT, ServerProcess, http_get
from tests.server.test_clock import FakeTime, Socket
from tests.server.test_store import _fresh_database

OPTIONS = {"max_turns": 40}  # BEOR: its first legal moves end a deal in some thirty moves


@pytest.fixture(params=["sqlite", "postgres"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """The ``--db``: an SQLite file, or a fresh PostgreSQL database."""
    if request.param == "sqlite":
        return str(tmp_path / "rooms.db")
    return _fresh_database(request.getfixturevalue("postgres_url"))


class Server:
    """A hub over ``db`` with a fake time source that starts now, and its retention."""

    def __init__(self, db: str, fake: FakeTime) -> None:
        self.fake = fake
        self.store: Store = open_store(db)
        settings = Settings(takeover=3600.0, bot_delay=0.0, bot_workers=0)
        self.hub = Hub(self.store, settings, fake)
        self.retention = Retention(self.hub, Policy(keep_days=30, abandon_days=7))

    async def make(self, name: str, kinds: tuple[str, ...] = ("person", "person")) -> Room:
        game = find_game("beor")
        seats = tuple(
            SeatRow(i, k, f"Player {i + 1}", b"x" if k == "person" else None)
            for i, k in enumerate(kinds)
        )
        options = dict(game.options(OPTIONS).items())
        row = RoomRow(name, game.name, len(kinds), options, seats, "test", self.fake.now())
        await self.store.create_room(row, new_deal_event(0, 0))
        room = await self.hub.room(name)
        assert room is not None
        return room

    async def play(self, room: Room, moves: int = 1000) -> None:
        """Play each seat's first legal move, ``moves`` times or to the deal's end."""
        for _ in range(moves):
            state = room.state
            if state.is_over:
                return
            seat = state.to_move
            assert seat is not None
            text = str(state.legal_actions()[0])
            async with self.hub.lock(room.id):
                assert await self.hub.submit(room, room.prepare_act(seat, room.v, text, None))

    async def count(self, table: str, room: str) -> int:
        _, rows = await self.store.query(f"SELECT COUNT(*) FROM {table} WHERE room = ?", (room,))
        return int(rows[0][0])

    async def status(self) -> dict[str, str]:
        return {info.room: info.status for info in await list_rooms(self.store)}

    async def later(self, days: float) -> None:
        """Move the fake time on by ``days`` and wait for the pruning pass that wakes."""
        retention = self.retention
        await _until(retention, lambda: retention.next_pass is not None)
        before = retention.passes
        self.fake.advance(days * DAY)
        await _until(retention, lambda: retention.passes > before)


async def _until(retention: Retention, done: Callable[[], bool]) -> None:
    """Until ``done()`` holds, woken by the pruning's own notices (no time passes)."""
    while not done():
        retention.changed.clear()
        await asyncio.wait_for(retention.changed.wait(), WAIT)


@asynccontextmanager
async def server(db: str, fake: FakeTime | None = None) -> AsyncIterator[Server]:
    s = Server(db, fake or FakeTime(time.time()))
    await s.hub.start()
    await s.retention.start()
    try:
        yield s
    finally:
        await s.retention.stop()
        await s.hub.stop()


def run(work: Callable[[], Awaitable[None]]) -> None:
    asyncio.run(asyncio.wait_for(work(), 60))


def test_a_finished_room_is_removed_with_its_events_and_review_after_keep_days(
    database: str,
) -> None:
    async def work() -> None:
        async with server(database) as s:
            done = await s.make("done")
            await s.play(done)
            assert done.over and not done.abandoned
            await s.store.query(ReviewRow.WANT, ("done", 0, 0.0))
            other = await s.make("other")  # running, watched all along: kept throughout
            watcher = await Socket(s.hub, other, None).join()
            await s.later(29)
            assert await s.status() == {"done": "over", "other": "running"}
            assert await s.count("reviews", "done") == 1
            await s.later(1.5)  # 30.5 days: the pass that wakes removes it
            assert await s.status() == {"other": "running"}
            for table in ("rooms", "seats", "events", "reviews", "room_seen"):
                assert await s.count(table, "done") == 0, table
            assert await s.store.load_room("done") is None
            assert await s.hub.room("done") is None and "done" not in s.hub.rooms
            watcher.leave()

    run(work)


def test_an_unvisited_unfinished_room_is_abandoned_then_removed_after_keep_days(
    database: str,
) -> None:
    async def work() -> None:
        fake = FakeTime(time.time())
        async with server(database, fake) as s:
            room = await s.make("idle")
            await s.play(room, moves=3)
            ann = await Socket(s.hub, room, 0).join()
            ann.leave()
            assert await s.store.open_rooms_by("test") == 1
            await s.later(6.9)
            assert await s.status() == {"idle": "running"}
            plan = await s.retention.prune()
            assert plan.abandon == [] and plan.remove == []
            await s.later(0.2)
            assert await s.status() == {"idle": "abandoned"}
            assert await s.store.open_rooms_by("test") == 0
            events = (await s.store.load_room("idle") or (None, []))[1]
            assert [e.kind for e in events][-1] == "abandon" and len(events) == 5
            assert "idle" not in s.hub.rooms  # it left memory
        async with server(database, fake) as s:  # a restart: anyone who opens it sees it
            again = await s.hub.room("idle")
            assert again is not None and again.abandoned and again.over
            assert not again.state.is_over  # the deal stays as it was
            bob = await Socket(s.hub, again, 1).join()
            welcome = bob.last
            assert welcome["abandoned"] is True and welcome["over"] is True
            assert welcome["outcome"] is None and welcome["legal"] == []
            answer = await bob.act(str(again.state.legal_actions()[0]), "c1")
            assert answer["type"] == "reject" and answer["code"] == "game_over"
            assert "abandoned" in answer["message"] and "idle" not in s.hub.tasks
            bob.leave()
            await s.later(29)
            assert await s.status() == {"idle": "abandoned"}
            await s.later(1.5)
            assert await s.status() == {}
            assert await s.count("events", "idle") == 0

    run(work)


def test_a_room_with_a_socket_open_is_never_abandoned_nor_removed(database: str) -> None:
    async def work() -> None:
        async with server(database) as s:
            running, done = await s.make("running"), await s.make("done")
            await s.play(done)
            ann = await Socket(s.hub, running, 0).join()
            watcher = await Socket(s.hub, done, None).join()
            for _ in range(3):
                await s.later(100)
            assert await s.status() == {"running": "running", "done": "over"}
            assert not running.abandoned and ann.last["abandoned"] is False
            ann.leave()
            watcher.leave()
            # Seen open at the last pass: that is the rooms' last activity.
            await s.later(6.5)
            assert await s.status() == {"running": "running", "done": "over"}
            await s.later(1)
            assert await s.status() == {"running": "abandoned", "done": "over"}
            await s.later(23)  # 30.5 days after "done" was last seen
            assert await s.status() == {"running": "abandoned"}

    run(work)


def test_a_seat_held_through_another_process_keeps_its_room(postgres_url: str) -> None:
    async def work() -> None:
        db = _fresh_database(postgres_url)
        async with server(db) as s:
            await s.make("shared")
            other = open_store(db)  # another server process, with a socket of seat 1
            await other.open()
            try:
                await other.mark_present("shared", 1, True)
                plan = await s.retention.prune()
                assert plan.abandon == []  # (no time passed for the presence row)
                s.fake.advance(8 * DAY)
                plan = await s.retention.prune()
                assert plan.abandon == [] and await s.status() == {"shared": "running"}
            finally:
                await other.close()

    run(work)


# -- by hand: parlour rooms list / prune ----------------------------------------------------------


async def _aged(db: str, rooms: dict[str, float]) -> None:
    """Make each room's stored times ``days`` older (a database left alone that long)."""
    store = open_store(db)
    await store.open()
    try:
        for room, days in rooms.items():
            shift = days * DAY
            await store.query(
                "UPDATE rooms SET created = created - ? WHERE room = ?", (shift, room)
            )
            if store.shared:
                sql = "UPDATE events SET at = at - make_interval(secs => ?) WHERE room = ?"
            else:
                sql = "UPDATE events SET at = at - ? WHERE room = ?"
            await store.query(sql, (shift, room))
    finally:
        await store.close()


def _cli(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    assert main(list(args)) == 0
    out: str = capsys.readouterr().out
    return out


def _listed(capsys: pytest.CaptureFixture[str], db: str) -> list[dict[str, Any]]:
    rooms: list[dict[str, Any]] = json.loads(_cli(capsys, "rooms", "list", "--db", db, "--json"))[
        "rooms"
    ]
    return rooms


def test_rooms_list_and_prune_by_hand(database: str, capsys: pytest.CaptureFixture[str]) -> None:
    async def prepare() -> None:
        async with server(database) as s:
            for name in ("old-done", "new-done"):
                await s.play(await s.make(name))
            await s.store.query(ReviewRow.WANT, ("old-done", 0, 0.0))
            await s.play(await s.make("old-idle"), moves=2)
            await s.make("new-idle")
        await _aged(database, {"old-done": 31, "old-idle": 8, "new-done": 2, "new-idle": 1})

    run(prepare)
    before = _listed(capsys, database)
    assert set(before[0]) == {
        "room", "game", "players", "status", "last_activity", "events", "bytes"
    }  # fmt: skip
    shown = {r["room"]: r for r in before}
    assert {k: r["status"] for k, r in shown.items()} == {
        "old-done": "over", "new-done": "over", "old-idle": "running", "new-idle": "running"
    }  # fmt: skip
    assert shown["old-idle"]["events"] == 3 and shown["old-idle"]["game"] == "beor"
    assert shown["old-done"]["players"] == 2 and shown["old-done"]["bytes"] > 100
    assert time.time() - shown["old-done"]["last_activity"] > 31 * DAY - 60
    table = _cli(capsys, "rooms", "list", "--db", database)
    for word in ("old-done", "new-idle", "running", "over", "last activity", "4 rooms"):
        assert word in table, word

    dry = _cli(capsys, "rooms", "prune", "--db", database, "--dry-run")
    assert "would remove old-done" in dry and "would abandon old-idle" in dry
    assert "new-" not in dry
    assert _listed(capsys, database) == before  # nothing changed
    done = _cli(capsys, "rooms", "prune", "--db", database)
    assert "removed old-done" in done and "abandoned old-idle" in done and "new-" not in done
    after = {r["room"]: r["status"] for r in _listed(capsys, database)}
    assert after == {"new-done": "over", "old-idle": "abandoned", "new-idle": "running"}
    again = json.loads(_cli(capsys, "rooms", "prune", "--db", database, "--json"))
    assert again == {"dry_run": False, "abandoned": [], "removed": []}
    # Shorter limits by hand: the finished room two days old goes now.
    short = _cli(capsys, "rooms", "prune", "--db", database, "--keep-days", "1.5")
    assert "removed new-done" in short and "old-idle" not in short

    async def check() -> None:
        async with server(database) as s:
            for table in ("events", "seats", "reviews"):
                assert await s.count(table, "old-done") == 0, table
            room = await s.hub.room("old-idle")
            assert room is not None and room.abandoned

    run(check)


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["rooms", "prune", "--keep-days", "0"], "--keep-days"),
        (["rooms", "prune", "--abandon-days", "-3"], "--abandon-days"),
        (["rooms", "prune", "--keep-days", "nan"], "--keep-days"),
        (["serve", "--keep-days", "0"], "--keep-days"),
        (["serve", "--abandon-days", "soon"], "--abandon-days"),
        (["rooms", "list", "--db", "{missing}"], "no such database file"),
        (["rooms", "prune", "--db", "{folder}"], "not a plain file"),
        (["rooms"], "required"),
    ],
)
def test_bad_options_are_one_line_and_status_2(
    args: list[str], words: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = [a.format(missing=tmp_path / "none.db", folder=tmp_path) for a in args]
    try:
        status = main(args)
    except SystemExit as exit_info:  # argparse's own errors
        status = int(str(exit_info.code))
    assert status == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and words in err, err
    assert not (tmp_path / "none.db").exists()


def test_the_real_server_prunes_when_it_starts(database: str, tmp_path: Path) -> None:
    async def prepare() -> None:
        async with server(database) as s:
            await s.play(await s.make("old-done"))
            await s.play(await s.make("old-idle"), moves=1)
            await s.make("fresh")
        await _aged(database, {"old-done": 40, "old-idle": 10})

    run(prepare)
    here = f"import os\nos.chdir({str(tmp_path)!r})"  # what it writes beside it stays there
    srv = ServerProcess(database, "--keep-days", "30", "--abandon-days", "7", prelude=here)
    srv.start()
    try:

        def get(room: str) -> httpx.Response:
            return http_get(f"{srv.url}/api/rooms/{room}", timeout=WAIT)

        assert get("old-done").status_code == 404
        idle = get("old-idle").json()
        assert idle["over"] is True and idle["abandoned"] is True
        fresh = get("fresh").json()
        assert fresh["over"] is False and fresh["abandoned"] is False
    finally:
        status, err = srv.stop()
    assert status == 0, err
