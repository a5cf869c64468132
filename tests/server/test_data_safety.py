"""Data kept safely (issue 27.3), against a real ``parlour serve`` on SQLite: the database, its
write-ahead log and the key file are the server user's alone (0600); the bytes of the database
and its log hold no running deal's seed (in decimal, in hexadecimal, as JSON), while the record
given once the deal is over replays and verifies; an older database's plain seeds are sealed at
start, and a start without the key file or with another one is refused in one line; a damaged
database is refused in one line; a room that cannot be rebuilt is logged by id and closed with
4410 (410 over HTTP); a storage error is rejected ``server_error`` and changes nothing; an event
the server cannot apply closes the room's sockets with 1011 and a reason."""

from __future__ import annotations

import asyncio
import json
import os
import resource
import sqlite3
import stat
import subprocess
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from parlour.core.fairness import commitment
from tests.server.client import WAIT, Client, ServerProcess, create_room, http_get
from tests.server.postgres import fresh_database

NO_REVIEWS = ("--review-budget", "off")
ROOM = {"game": "beor", "players": 2, "seats": ["person", "random"], "options": {"max_turns": 6}}
PEOPLE = {"game": "beor", "players": 2, "seats": ["person", "person"]}


def _mode(path: Path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


def _bytes(db: Path) -> bytes:
    """What a local user who could read them would read: the file and its log."""
    return b"".join(p.read_bytes() for p in (db, Path(f"{db}-wal")) if p.exists())


def _seed_forms(seed: int) -> list[bytes]:
    return [str(seed).encode(), f"{seed:x}".encode(), f"{seed:016x}".encode(),
            f'"seed":{seed}'.encode()]  # fmt: skip


async def _play_to_the_end(server: ServerProcess, room: dict[str, Any]) -> dict[str, Any]:
    person = await Client.join(server.ws, room["room"], room["seats"][0]["token"])
    moves = 0
    while not person.last["over"]:
        assert moves < 500, "the deal should have ended"
        if person.last["legal"]:
            moves += 1
            v = person.last["v"]
            cid = f"m{moves}"
            await person.send({"type": "act", "id": cid, "v": v, "action": person.last["legal"][0]})
            assert (await person.answer(cid))["type"] == "ack"
            await person.until_v(v + 1)
        else:
            await person.recv()
    await person.close()
    record: dict[str, Any] = http_get(f"{server.url}/api/rooms/{room['room']}/record").json()
    return record


def test_files_are_private_and_no_running_seed_is_in_them(tmp_path: Path) -> None:
    db = tmp_path / "rooms.db"
    server = ServerProcess(db, *NO_REVIEWS).start()
    try:
        room = create_room(server.url, ROOM)
        for path in (db, Path(f"{db}-wal"), Path(f"{db}-shm"), Path(f"{db}.key")):
            assert _mode(path) == 0o600, path
        running = _bytes(db)
        assert b'"seed":' not in running and b'"sealed":"s1.' in running
        record = asyncio.run(_play_to_the_end(server, room))
    finally:
        server.stop()
    seed = record["seed"]
    assert record["commitment"] == room["commitment"] == commitment(seed)
    assert [form for form in _seed_forms(seed) if form in running] == []
    saved = tmp_path / "record.json"
    saved.write_text(json.dumps(record), encoding="utf-8")
    for command in ("replay", "verify"):
        done = subprocess.run(
            [sys.executable, "-m", "parlour", command, str(saved)],
            capture_output=True, text=True, timeout=WAIT, check=False,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr


def _start_fails(db: Path | str, *extra: str) -> str:
    """``parlour serve`` refused: its one line on stderr (exit status 2, nothing served)."""
    done = subprocess.run(
        [sys.executable, "-m", "parlour", "serve", "--port", "0", "--db", str(db), *extra],
        capture_output=True, text=True, timeout=WAIT, check=False,
    )  # fmt: skip
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert done.stdout == "" and done.stderr.count("\n") == 1, done.stderr
    return done.stderr


def test_plain_seeds_of_an_older_database_are_sealed_and_the_key_is_checked(
    tmp_path: Path,
) -> None:
    db = tmp_path / "rooms.db"
    server = ServerProcess(db, *NO_REVIEWS).start()
    room = create_room(server.url, ROOM)
    server.stop()
    # As an older version left it: the running deal's seed in plain text, no key.
    seed = 1_234_567_890_123_456_789
    plain = {"commitment": commitment(seed), "number": 0, "seed": seed}
    with sqlite3.connect(db) as con:
        con.execute("DROP TABLE sealing")
        con.execute(
            "UPDATE events SET data = ? WHERE room = ? AND v = 0",
            (json.dumps(plain), room["room"]),
        )
    con.close()
    Path(f"{db}.key").unlink()
    assert str(seed).encode() in _bytes(db)
    server = ServerProcess(db, *NO_REVIEWS).start()
    try:
        assert str(seed).encode() not in _bytes(db)  # sealed, and the old bytes wiped
        record = asyncio.run(_play_to_the_end(server, room))
    finally:
        server.stop()
    assert record["seed"] == seed and record["commitment"] == commitment(seed)
    key = Path(f"{db}.key")
    kept = key.read_bytes()
    key.unlink()
    line = _start_fails(db)
    assert f"key file {key} is missing" in line and not key.exists()
    key.write_text("ab" * 32 + "\n")
    key.chmod(0o600)
    assert f"key file {key} holds another key" in _start_fails(db)
    key.write_bytes(kept)
    key.chmod(0o644)
    assert "other users may read it (mode 0644)" in _start_fails(db)


def test_a_damaged_database_is_refused_in_one_line(tmp_path: Path) -> None:
    db = tmp_path / "rooms.db"
    server = ServerProcess(db, *NO_REVIEWS).start()
    for _ in range(12):
        create_room(server.url, PEOPLE)
    server.stop()
    pages = db.stat().st_size // 4096
    assert pages > 6
    damaged = tmp_path / "damaged.db"
    data = bytearray(db.read_bytes())
    for page in (2, 4, pages - 1):  # not the first: its header says what the file is
        data[page * 4096 : (page + 1) * 4096] = os.urandom(4096)
    damaged.write_bytes(bytes(data))
    line = _start_fails(damaged, "--key-file", f"{db}.key")
    assert f"--db {damaged}: the database is damaged: " in line
    data[:100] = os.urandom(100)
    damaged.write_bytes(bytes(data))
    assert f"--db {damaged}: the database is damaged: " in _start_fails(damaged)


async def _close_of(recv: Callable[[], Awaitable[object]]) -> tuple[int, str]:
    """The close code and reason the server sends, frames before it skipped (each wait is
    bounded by ``recv``)."""
    try:
        while True:
            await recv()
    except ConnectionClosed as closed:
        frame = closed.rcvd
    if frame is None:
        raise AssertionError("closed without a close frame")
    return frame.code, frame.reason


async def _closed(ws_url: str, token: str | None) -> tuple[int, str]:
    """The close code and reason a socket to a room gets after its hello."""
    async with connect(ws_url) as ws:
        hello = [json.dumps({"type": "hello", "token": token, "v": 0})]

        async def step() -> object:  # the server may close before the hello is sent
            return await (ws.send(hello.pop()) if hello else asyncio.wait_for(ws.recv(), WAIT))

        return await _close_of(step)


def _add_event(db: Path, room: str, v: int, kind: str) -> None:
    """An event this server cannot apply, written into its database by another program."""
    with sqlite3.connect(db, timeout=WAIT) as con:
        con.execute(
            "INSERT INTO events (room, v, kind, seat, data, client_id, at) "
            "VALUES (?, ?, ?, 0, '{}', NULL, 0)",
            (room, v, kind),
        )
    con.close()


def test_a_room_that_cannot_be_rebuilt_is_logged_and_closed(tmp_path: Path) -> None:
    db = tmp_path / "rooms.db"
    server = ServerProcess(db, *NO_REVIEWS).start()
    bad, good = create_room(server.url, PEOPLE), create_room(server.url, PEOPLE)
    server.stop()
    _add_event(db, bad["room"], 1, "bogus")
    server = ServerProcess(db, *NO_REVIEWS).start()
    try:
        answer = http_get(f"{server.url}/api/rooms/{bad['room']}", timeout=WAIT)
        assert answer.status_code == 410 and answer.json()["error"]["code"] == "room_broken"
        assert http_get(f"{server.url}/api/rooms/{good['room']}").status_code == 200
        token = bad["seats"][0]["token"]
        closed = asyncio.run(_closed(f"{server.ws}/ws/{bad['room']}", token))
        assert closed == (4410, "room_broken")
    finally:
        _, err = server.stop()
    lines = [json.loads(x) for x in err.splitlines() if '"room.broken"' in x]
    assert [(x["room"], x["level"]) for x in lines] == [(bad["room"], "error")]
    assert "unknown event kind" in lines[0]["reason"]


@pytest.mark.skipif(not hasattr(resource, "prlimit"), reason="needs Linux's prlimit")
def test_a_storage_error_is_server_error_and_moves_nothing(tmp_path: Path) -> None:
    db = tmp_path / "rooms.db"
    # A full disk, for real: the kernel refuses to let the server's files grow (EFBIG).
    prelude = "import signal\nsignal.signal(signal.SIGXFSZ, signal.SIG_IGN)"
    server = ServerProcess(db, *NO_REVIEWS, prelude=prelude).start()
    assert server.proc is not None
    pid = server.proc.pid

    async def run() -> None:
        room = create_room(server.url, PEOPLE)
        url = f"{server.url}/api/rooms/{room['room']}"
        person = await Client.join(server.ws, room["room"], room["seats"][0]["token"])
        move = person.last["legal"][0]
        size = Path(f"{db}-wal").stat().st_size
        resource.prlimit(pid, resource.RLIMIT_FSIZE, (size, resource.RLIM_INFINITY))
        await person.send({"type": "act", "id": "a", "v": 0, "action": move})
        answer = await person.answer("a")
        assert (answer["code"], answer["v"]) == ("server_error", 0), answer
        assert http_get(url, timeout=WAIT).json()["v"] == 0
        resource.prlimit(pid, resource.RLIMIT_FSIZE, (resource.RLIM_INFINITY,) * 2)
        await person.send({"type": "act", "id": "b", "v": 0, "action": move})
        assert await person.answer("b") == {"type": "ack", "id": "b", "v": 1}
        assert [f["v"] for f in person.frames if f["type"] == "update"] == [1]
        await person.close()

    try:
        asyncio.run(run())
    finally:
        _, err = server.stop()
    lines = [json.loads(x) for x in err.splitlines() if '"store.error"' in x]
    assert [x["error"].split(":")[0] for x in lines] == ["OperationalError"], err
    assert "Traceback" not in err


def test_an_event_the_server_cannot_apply_closes_its_sockets_with_1011(tmp_path: Path) -> None:
    db = tmp_path / "rooms.db"
    server = ServerProcess(db, *NO_REVIEWS).start()

    async def run() -> None:
        room = create_room(server.url, PEOPLE)
        token = room["seats"][0]["token"]
        person = await Client.join(server.ws, room["room"], token)
        watcher = await Client.join(server.ws, room["room"], None)
        _add_event(db, room["room"], 1, "bogus")  # stored by another writer
        await person.send({"type": "act", "id": "a", "v": 0, "action": person.last["legal"][0]})
        for client in (person, watcher):
            assert await _close_of(client.recv) == (1011, "server_error")
        assert await _closed(f"{server.ws}/ws/{room['room']}", token) == (4410, "room_broken")

    try:
        asyncio.run(run())
    finally:
        server.stop()


def test_postgresql_keeps_running_seeds_sealed_with_the_key_file(
    postgres_url: str, tmp_path: Path
) -> None:
    psycopg = pytest.importorskip("psycopg")
    url = fresh_database(postgres_url)
    key = tmp_path / "server.key"
    server = ServerProcess(url, "--key-file", str(key), *NO_REVIEWS).start()
    try:
        room = create_room(server.url, ROOM)
        assert _mode(key) == 0o600
        with psycopg.connect(url) as con:
            stored = " ".join(r[0] for r in con.execute("SELECT data FROM events").fetchall())
        assert '"seed":' not in stored and '"sealed":"s1.' in stored
        record = asyncio.run(_play_to_the_end(server, room))
    finally:
        server.stop()
    assert [f for f in _seed_forms(record["seed"]) if f.decode() in stored] == []
    other = tmp_path / "other.key"
    assert f"key file {other} is missing" in _start_fails(url, "--key-file", str(other))
    other.write_text("cd" * 32 + "\n")
    other.chmod(0o600)
    assert f"key file {other} holds another key" in _start_fails(url, "--key-file", str(other))
