"""The room stores: one behaviour for SQLite and a real PostgreSQL server, and what sharing a
PostgreSQL database between processes adds (notices, presence, one winner per version)."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Awaitable, Callable
from pathlib import Path

import psycopg
import pytest

from parlour.server.pgstore import PostgresStore
from parlour.server.store import EventRow, RoomRow, SeatRow, SqliteStore, Store


def _fresh_database(url: str) -> str:
    """A new empty database on the test server, so each test starts clean."""
    name = f"t{uuid.uuid4().hex[:12]}"
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    return url.rsplit("/", 1)[0] + f"/{name}"


@pytest.fixture(params=["sqlite", "postgres"])
def make_store(request: pytest.FixtureRequest, tmp_path: Path) -> Callable[[], Store]:
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


def _run(make: Callable[[], Store], work: Callable[[Store], Awaitable[None]]) -> None:
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
        assert [e.v for e in events] == [0, 1, 2]
        assert events[0] == _event(0, seed=12, text="♥")
        assert await store.events_since("r1", 1) == [_event(2, action="give 2>P1")]
        assert await store.load_room("nope") is None

    _run(make_store, work)


def test_a_taken_version_is_refused_and_nothing_is_stored(make_store: Callable[[], Store]) -> None:
    async def work(store: Store) -> None:
        await store.create_room(_room(), _event(0))
        assert await store.append("r1", _event(1, action="2D"))
        assert not await store.append("r1", _event(1, action="3D"))
        assert not await store.append("r1", _event(0, action="3D"))
        events = await store.events_since("r1", -1)
        assert [(e.v, e.data) for e in events] == [(0, {}), (1, {"action": "2D"})]

    _run(make_store, work)


def test_open_rooms_are_counted_per_client(make_store: Callable[[], Store]) -> None:
    async def work(store: Store) -> None:
        for name in ("a", "b", "c"):
            await store.create_room(_room(name), _event(0))
        await store.create_room(_room("d", client="10.0.0.2"), _event(0))
        assert await store.open_rooms_by("10.0.0.1") == 3
        await store.append("b", _event(1), over=True)
        assert await store.open_rooms_by("10.0.0.1") == 2
        await store.append("b", _event(2), over=False)
        assert await store.open_rooms_by("10.0.0.1") == 3
        assert await store.open_rooms_by("10.0.0.9") == 0

    _run(make_store, work)


def test_a_store_opened_again_has_everything(make_store: Callable[[], Store]) -> None:
    async def first(store: Store) -> None:
        await store.create_room(_room(), _event(0))
        for v in range(1, 30):
            assert await store.append("r1", _event(v, n=v))

    async def second(store: Store) -> None:
        loaded = await store.load_room("r1")
        assert loaded is not None
        assert [e.data.get("n") for e in loaded[1]] == [None, *range(1, 30)]

    _run(make_store, first)
    _run(make_store, second)


@pytest.fixture
def shared_url(postgres_url: str) -> str:
    return _fresh_database(postgres_url)


def test_processes_sharing_postgresql_hear_each_other(shared_url: str) -> None:
    async def go() -> None:
        a, b = PostgresStore(shared_url), PostgresStore(shared_url)
        await asyncio.gather(a.open(), b.open())
        heard: asyncio.Queue[tuple[str, int]] = asyncio.Queue()

        async def notify(room: str, v: int) -> None:
            await heard.put((room, v))

        await b.listen(notify)
        try:
            await a.create_room(_room(), _event(0))
            assert await asyncio.wait_for(heard.get(), 5) == ("r1", 0)
            await a.append("r1", _event(1))
            assert await asyncio.wait_for(heard.get(), 5) == ("r1", 1)
            # The same version from both at once: exactly one wins.
            won = await asyncio.gather(
                a.append("r1", _event(2, by="a")), b.append("r1", _event(2, by="b"))
            )
            assert sorted(won) == [False, True]
            # Presence: b sees a's socket, a does not count its own.
            await a.mark_present("r1", 0, True)
            assert await b.present_elsewhere("r1", 0)
            assert not await a.present_elsewhere("r1", 0)
            await a.mark_present("r1", 0, False)
            assert not await b.present_elsewhere("r1", 0)
        finally:
            await asyncio.gather(a.close(), b.close())

    asyncio.run(go())


def test_an_unreachable_server_is_named_without_its_password() -> None:
    async def go() -> None:
        store = PostgresStore("postgresql://me:secret@127.0.0.1:1/none")
        with pytest.raises(OSError, match="cannot reach PostgreSQL") as caught:
            await store.open()
        assert "secret" not in str(caught.value)

    asyncio.run(go())
