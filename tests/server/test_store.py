"""The room stores: one behaviour for SQLite and a real PostgreSQL server, and what sharing a
PostgreSQL database between processes adds (notices, presence, one winner per version, a lost
connection opened again)."""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Awaitable, Callable
from pathlib import Path

import psycopg
import pytest

from parlour.server.pgstore import CHANNEL, PostgresStore
from parlour.server.store import ClockRow, EventRow, RoomRow, SeatRow, SqliteStore, Store
from tests.server.postgres import fresh_database

Work = Callable[[Store], Awaitable[None]]
_fresh_database = fresh_database  # the name tests/server/test_postgres.py imports


@pytest.fixture(params=["sqlite", "postgres"])
def make_store(request: pytest.FixtureRequest, tmp_path: Path) -> Callable[[], Store]:
    """A new store on this test's own database (each call: another instance on it)."""
    if request.param == "sqlite":
        return lambda: SqliteStore(tmp_path / "rooms.db")
    url = _fresh_database(request.getfixturevalue("postgres_url"))
    return lambda: PostgresStore(url)


def _room(name: str = "r1", client: str = "10.0.0.1") -> RoomRow:
    seats = (
        SeatRow(0, "person", "Ana ✓", b"\x00" * 31 + b"\xff"),
        SeatRow(1, "heuristic", "Player 2", None),
    )
    return RoomRow(name, "death", 2, {"sober": [1], "x": {"y": "é"}}, seats, client, 1.5)


def _event(v: int, **data: object) -> EventRow:
    return EventRow(v, "action" if v else "deal", 0 if v else None, dict(data), f"id{v}")


def _run(make: Callable[[], Store], work: Work) -> None:
    async def go() -> None:
        store = make()
        await store.open()
        try:
            await work(store)
        finally:
            await store.close()

    asyncio.run(go())


def test_rooms_and_events_round_trip(make_store: Callable[[], Store]) -> None:
    async def work(store: Store) -> None:
        await store.create_room(_room(), _event(0, seed=12, text="♥"))
        assert await store.append("r1", _event(1, action="2D"))
        assert await store.append("r1", _event(2, action="give 2>P1"), over=True)
        loaded = await store.load_room("r1")
        assert loaded is not None
        row, events = loaded
        assert row == _room()
        assert row.seats[0].token_hash == b"\x00" * 31 + b"\xff"
        assert row.seats[1].token_hash is None
        assert events == [_event(0, seed=12, text="♥"), _event(1, action="2D"),
                          _event(2, action="give 2>P1")]  # fmt: skip
        assert await store.events_since("r1", 1) == [_event(2, action="give 2>P1")]
        assert await store.events_since("r1", 2) == []
        assert await store.events_since("nope", -1) == []
        assert await store.load_room("nope") is None

    _run(make_store, work)


def test_a_taken_version_is_refused_and_nothing_is_stored(make_store: Callable[[], Store]) -> None:
    async def work(store: Store) -> None:
        await store.create_room(_room(), _event(0))
        assert await store.append("r1", _event(1, action="2D"))
        assert not await store.append("r1", _event(1, action="3D"))
        assert not await store.append("r1", _event(1, action="2D"))  # the same one again
        assert not await store.append("r1", _event(0, action="3D"), over=True)
        events = await store.events_since("r1", -1)
        assert [(e.v, e.data) for e in events] == [(0, {}), (1, {"action": "2D"})]
        assert await store.open_rooms_by("10.0.0.1") == 1  # the refused over=True left no mark

    _run(make_store, work)


def test_open_rooms_are_counted_per_client(make_store: Callable[[], Store]) -> None:
    async def work(store: Store) -> None:
        for name in ("a", "b", "c"):
            await store.create_room(_room(name), _event(0))
        await store.create_room(_room("d", client="10.0.0.2"), _event(0))
        assert await store.open_rooms_by("10.0.0.1") == 3
        await store.append("b", _event(1), over=True)
        assert await store.open_rooms_by("10.0.0.1") == 2
        await store.append("b", _event(2))  # no word on ``over``: unchanged
        assert await store.open_rooms_by("10.0.0.1") == 2
        await store.append("b", _event(3), over=False)  # a rematch
        assert await store.open_rooms_by("10.0.0.1") == 3
        assert await store.open_rooms_by("10.0.0.2") == 1
        assert await store.open_rooms_by("10.0.0.9") == 0

    _run(make_store, work)


def test_unicode_and_nested_json_round_trip(make_store: Callable[[], Store]) -> None:
    data = {
        "text": "♠♥♦♣ Æsir ünïcödé 日本語 עברית 🂡\u0000\t\"\\'",
        "lone": "\ud800",  # a lone surrogate (JSONB would refuse it, and \u0000)
        "nested": {"a": [1, [2, [3, {"b": None, "c": True, "d": False}]]], "e": {}},
        "deep": [[[[[[[[[[[["bottom"]]]]]]]]]]]],
        "numbers": [0, -1, 2**70, 0.1, -2.5e-300, 1e300],
        "🃏": "a key outside the BMP",
    }

    async def work(store: Store) -> None:
        room = RoomRow("r☃", "death", 2, {"opts": data}, _room().seats, "::1", 3.25)
        await store.create_room(room, _event(0, **data))
        assert await store.append("r☃", EventRow(1, "table", 1, {"entry": data}, "ü"))
        loaded = await store.load_room("r☃")
        assert loaded is not None
        assert loaded[0] == room
        assert loaded[1] == [_event(0, **data), EventRow(1, "table", 1, {"entry": data}, "ü")]

    _run(make_store, work)


def test_a_store_opened_again_has_everything(make_store: Callable[[], Store]) -> None:
    async def first(store: Store) -> None:
        await store.create_room(_room(), _event(0))
        await store.create_room(_room("r2"), _event(0))
        for v in range(1, 30):
            assert await store.append("r1", _event(v, n=v))
        await store.append("r2", _event(1), over=True)

    async def second(store: Store) -> None:
        loaded = await store.load_room("r1")
        assert loaded is not None
        assert loaded[0] == _room()
        assert [e.data.get("n") for e in loaded[1]] == [None, *range(1, 30)]
        assert await store.open_rooms_by("10.0.0.1") == 1
        assert not await store.append("r1", _event(29))
        assert await store.append("r1", _event(30))

    _run(make_store, first)
    _run(make_store, second)
    _run(make_store, lambda store: _has(store, "r1", 31))


def test_a_running_clock_is_saved_and_read_again(make_store: Callable[[], Store]) -> None:
    at = 1_700_000_000.25  # wall time keeps its fraction of a second

    async def first(store: Store) -> None:
        await store.create_room(_room(), _event(0))
        assert await store.load_clock("r1") is None
        await store.save_clock("r1", 0, 12.5, at)
        await store.save_clock("r1", 0, 30.75, at + 18.25)
        await store.save_clock("r1", 0, 20.0, at + 40)  # less time used: an older save
        assert await store.load_clock("r1") == ClockRow(0, 30.75, at + 18.25)

    async def second(store: Store) -> None:
        assert await store.load_clock("r1") == ClockRow(0, 30.75, at + 18.25)
        await store.save_clock("r1", 1, 2.0, at + 100)  # the next deal's clock
        await store.save_clock("r1", 0, 59.0, at + 101)  # the last deal's: too late
        assert await store.load_clock("r1") == ClockRow(1, 2.0, at + 100)
        assert await store.load_clock("r2") is None

    _run(make_store, first)
    _run(make_store, second)


async def _has(store: Store, room: str, count: int) -> None:
    assert len(await store.events_since(room, -1)) == count


def test_only_postgresql_is_shared(make_store: Callable[[], Store]) -> None:
    store = make_store()
    assert store.shared == isinstance(store, PostgresStore)


def test_many_tasks_at_once_on_one_store(make_store: Callable[[], Store]) -> None:
    """The server calls the store from many tasks at once: every call gets its own answer."""

    async def room(store: Store, name: str) -> None:
        await store.create_room(_room(name), _event(0))
        for v in range(1, 8):
            assert await store.append(name, _event(v, room=name), over=v == 7)
            assert [e.v for e in await store.events_since(name, v - 2)] == [v - 1, v]

    async def work(store: Store) -> None:
        await asyncio.gather(*(room(store, f"r{i}") for i in range(20)))
        assert await store.open_rooms_by("10.0.0.1") == 0
        for i in range(20):
            loaded = await store.load_room(f"r{i}")
            assert loaded is not None
            assert [e.data.get("room") for e in loaded[1][1:]] == [f"r{i}"] * 7

    _run(make_store, work)


# -- PostgreSQL shared by several processes ---------------------------------------------------


@pytest.fixture
def shared_url(postgres_url: str) -> str:
    return _fresh_database(postgres_url)


async def _pair(url: str) -> tuple[PostgresStore, PostgresStore]:
    a, b = PostgresStore(url), PostgresStore(url)
    await asyncio.gather(a.open(), b.open())
    return a, b


async def _heard_by(store: PostgresStore) -> asyncio.Queue[tuple[str, int]]:
    heard: asyncio.Queue[tuple[str, int]] = asyncio.Queue()

    async def notify(room: str, v: int) -> None:
        await heard.put((room, v))

    await store.listen(notify)
    return heard


async def _next(heard: asyncio.Queue[tuple[str, int]]) -> tuple[str, int]:
    return await asyncio.wait_for(heard.get(), 5)


def test_a_process_hears_what_another_appends(shared_url: str) -> None:
    async def go() -> None:
        a, b = await _pair(shared_url)
        heard = await _heard_by(b)
        try:
            await a.create_room(_room(), _event(0))
            assert await _next(heard) == ("r1", 0)
            for v in range(1, 6):
                await a.append("r1", _event(v), over=v == 5)
                assert await _next(heard) == ("r1", v)
            assert not await a.append("r1", _event(5))  # refused: no notice
            await a.create_room(_room("r:2"), _event(0))  # a colon in the room's name
            assert await _next(heard) == ("r:2", 0)
            assert heard.empty()
        finally:
            await asyncio.gather(a.close(), b.close())

    asyncio.run(go())


def test_malformed_notices_are_ignored(shared_url: str) -> None:
    async def go() -> None:
        store = PostgresStore(shared_url)
        await store.open()
        heard = await _heard_by(store)
        try:
            async with await psycopg.AsyncConnection.connect(shared_url, autocommit=True) as c:
                for payload in ("garbage", "r1:x", ":5", "r1:", "r1:²", "r1:-3", "r9:3"):
                    await c.execute("SELECT pg_notify(%s, %s)", (CHANNEL, payload))
            assert await _next(heard) == ("r9", 3)
            await store.create_room(_room(), _event(0))  # it still listens
            assert await _next(heard) == ("r1", 0)
        finally:
            await store.close()

    asyncio.run(go())


def test_one_of_two_processes_wins_a_version(shared_url: str) -> None:
    async def go() -> None:
        a, b = await _pair(shared_url)
        try:
            await a.create_room(_room(), _event(0))
            for v in range(1, 16):
                # Different events, then the very same one (as two bots might choose).
                ea, eb = (_event(v, by="a"), _event(v, by="b")) if v % 2 else (_event(v),) * 2
                won = await asyncio.gather(a.append("r1", ea), b.append("r1", eb))
                assert sorted(won) == [False, True], v
                stored = await b.events_since("r1", v - 1)
                assert stored == [ea if won[0] else eb]
        finally:
            await asyncio.gather(a.close(), b.close())

    asyncio.run(go())


def test_processes_opening_an_empty_database_at_once(shared_url: str) -> None:
    async def go() -> None:
        stores = [PostgresStore(shared_url) for _ in range(6)]
        await asyncio.gather(*(s.open() for s in stores))
        try:
            await stores[0].create_room(_room(), _event(0))
            assert await stores[5].load_room("r1") is not None
        finally:
            await asyncio.gather(*(s.close() for s in stores))

    asyncio.run(go())


def test_presence_is_seen_by_the_other_processes(shared_url: str) -> None:
    async def go() -> None:
        a, b = await _pair(shared_url)
        try:
            await a.mark_present("r1", 0, True)
            await a.mark_present("r1", 0, True)  # twice: still one mark
            assert await b.present_elsewhere("r1", 0)
            assert not await a.present_elsewhere("r1", 0)
            assert not await b.present_elsewhere("r1", 1)
            await a.mark_present("r1", 0, False)
            assert not await b.present_elsewhere("r1", 0)
            await a.mark_present("r1", 1, True)
            await a.close()  # a process that stops forgets its marks
            assert not await b.present_elsewhere("r1", 1)
        finally:
            await asyncio.gather(a.close(), b.close())

    asyncio.run(go())


async def _cut(url: str, purpose: str) -> int:
    """End the server side of the connections of ``purpose`` (as a restart would), waiting
    until they are gone."""
    async with await psycopg.AsyncConnection.connect(url, autocommit=True) as conn:
        cur = await conn.execute(
            "SELECT count(*) FILTER (WHERE pg_terminate_backend(pid, 5000)) FROM "
            "pg_stat_activity WHERE datname = current_database() AND application_name = %s",
            (f"parlour {purpose}",),
        )
        row = await cur.fetchone()
        return int(row[0]) if row else 0


def test_a_lost_connection_is_opened_again(
    shared_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    async def go() -> None:
        store = PostgresStore(shared_url)
        await store.open()
        try:
            await store.create_room(_room(), _event(0))
            assert await _cut(shared_url, "store") == 1
            assert await store.append("r1", _event(1))
            assert await _cut(shared_url, "store") == 1
            loaded = await store.load_room("r1")
            assert loaded is not None and [e.v for e in loaded[1]] == [0, 1]
            assert await _cut(shared_url, "store") == 1
            assert not await store.append("r1", _event(1, other=True))
        finally:
            await store.close()

    with caplog.at_level(logging.WARNING, "parlour.server"):
        asyncio.run(go())
    assert sum("connection lost" in r.getMessage() for r in caplog.records) == 3


async def _waiting(url: str) -> None:
    """Return once the store's connection waits for a lock (within 4 s)."""
    async with await psycopg.AsyncConnection.connect(url, autocommit=True) as conn:
        for _ in range(200):
            cur = await conn.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' "
                "AND application_name = 'parlour store'"
            )
            if await cur.fetchone() == (1,):
                return
            await asyncio.sleep(0.02)
    raise AssertionError("the append never waited")


@pytest.mark.parametrize("same", [True, False])
def test_an_append_cut_off_midway_is_tried_again(shared_url: str, same: bool) -> None:
    """The connection drops while an append waits; by its second try the version is taken:
    by an event equal to its own (as when the first try had in fact committed: True), or by
    another (False)."""
    mine, other = _event(1, action="2D"), _event(1, action="2D" if same else "3D")

    async def go() -> None:
        store = PostgresStore(shared_url)
        await store.open()
        await store.create_room(_room(), _event(0))
        async with await psycopg.AsyncConnection.connect(shared_url) as rival:
            await rival.execute(
                "INSERT INTO events (room, v, kind, seat, data, client_id) "
                "VALUES ('r1', 1, %s, %s, %s, %s)",
                (other.kind, other.seat, json.dumps(other.data), other.client_id),
            )  # not committed yet: the store's insert waits for it
            append = asyncio.create_task(store.append("r1", mine))
            await _waiting(shared_url)
            assert await _cut(shared_url, "store") == 1
            await rival.commit()
        try:
            assert await asyncio.wait_for(append, 5) is same
            assert await store.events_since("r1", 0) == [other]
        finally:
            await store.close()

    asyncio.run(go())


def test_listening_goes_on_after_the_connection_drops(
    shared_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    async def go() -> None:
        a, b = await _pair(shared_url)
        b.reconnect_delay = 0.5  # the append below lands while nothing listens
        heard = await _heard_by(b)
        try:
            await a.create_room(_room(), _event(0))
            assert await _next(heard) == ("r1", 0)
            assert await _cut(shared_url, "listen") == 1
            await a.append("r1", _event(1))
            await a.append("r1", _event(2))
            # Only the newest version of a room changed meanwhile is handed over.
            assert await _next(heard) == ("r1", 2)
            await a.append("r1", _event(3))
            assert await _next(heard) == ("r1", 3)
        finally:
            await asyncio.gather(a.close(), b.close())

    with caplog.at_level(logging.WARNING, "parlour.server"):
        asyncio.run(go())
    assert any("listening to PostgreSQL stopped" in r.getMessage() for r in caplog.records)


def test_an_unreachable_server_is_named_without_its_password() -> None:
    async def go() -> None:
        store = PostgresStore("postgresql://me:secret@127.0.0.1:1/none")
        with pytest.raises(OSError, match="cannot reach PostgreSQL") as caught:
            await store.open()
        message = str(caught.value)
        assert "secret" not in message and "me:***@127.0.0.1:1/none" in message
        assert "\n" not in message

    asyncio.run(go())
