"""A real ``parlour serve`` killed (SIGKILL) while a room's agreed time runs (issue 30, ruling
M12), started again on the same database: the room comes back with its clock stopped where it
was last saved (nobody is connected to a new server), and runs on when a person is back.

The real clock runs here, so the checks are inequalities that cannot flake: after the restart
the time left is at most what it was before the kill and not less than that minus the seconds
that really passed meanwhile while a person was connected (the time the server was down is
not counted, as nobody was connected)."""

from __future__ import annotations

import asyncio
import sqlite3
import time
from contextlib import closing
from pathlib import Path
from typing import Any

import httpx

from tests.server.client import WAIT, Client, ServerProcess, create_room

LIMIT = 60.0
ROUNDING = 0.01
"""Frames give the time left to the millisecond: a bound may be off by that much."""


def saved_used(db: Path, room: str) -> float:
    """The time used that the server last saved for the room's clock (0 before any save)."""
    with closing(sqlite3.connect(db, timeout=WAIT)) as conn:
        row = conn.execute("SELECT used FROM clocks WHERE room = ?", (room,)).fetchone()
    return 0.0 if row is None else float(row[0])


async def until_saved(db: Path, room: str, used: float) -> None:
    """Wait (bounded) until the server has saved at least ``used`` seconds of the clock."""
    deadline = time.monotonic() + WAIT
    while saved_used(db, room) < used:
        assert time.monotonic() < deadline, f"the server saved no clock past {used:.3f} s"
        await asyncio.sleep(0.05)


async def _before_the_kill(server: ServerProcess, db: Path) -> dict[str, Any]:
    room = create_room(
        server.url,
        {"game": "beggar", "players": 2, "seats": ["person", "person"],
         "options": {"time_limit": 1}},
    )  # fmt: skip
    rid = room["room"]
    tokens = [s["token"] for s in room["seats"]]
    people = [await Client.join(server.ws, rid, t) for t in tokens]
    mover = next(p for p in people if p.last["legal"])
    await mover.send({"type": "act", "id": "first", "v": 0, "action": "play"})
    assert (await mover.answer("first"))["type"] == "ack"
    assert mover.last["clock"]["running"] and mover.last["clock"]["started"]
    await until_saved(db, rid, 0.5)  # the clock has run a while (saved: not a sleep)
    sent = time.monotonic()
    watcher = await Client.join(server.ws, rid, None)
    before = watcher.last["clock"]
    assert before["running"] and before["left"] < LIMIT
    # The server has saved a time used at least as long as the watcher was told of.
    await until_saved(db, rid, LIMIT - before["left"])
    killed = time.monotonic()
    server.kill()
    return {"room": rid, "tokens": tokens, "before": before["left"], "connected": killed - sent}


async def _after_the_restart(server: ServerProcess, facts: dict[str, Any]) -> dict[str, Any]:
    rid = facts["room"]
    async with httpx.AsyncClient(timeout=WAIT) as http:
        stopped = (await http.get(f"{server.url}/api/rooms/{rid}")).json()["clock"]
    hello = time.monotonic()
    person = await Client.join(server.ws, rid, facts["tokens"][0])
    welcomed = time.monotonic()
    back = person.last["clock"]
    await person.close()
    return {"stopped": stopped, "back": back, "connected": welcomed - hello}


def test_a_server_killed_mid_clock_resumes_with_the_time_left(tmp_path: Path) -> None:
    db = tmp_path / "rooms.db"
    server = ServerProcess(db).start()
    try:
        facts = asyncio.run(asyncio.wait_for(_before_the_kill(server, db), 60))
        down = time.monotonic()
        server.start(server.port)
        down = time.monotonic() - down
        after = asyncio.run(asyncio.wait_for(_after_the_restart(server, facts), 60))
    finally:
        _, err = server.stop()
    assert "Traceback" not in err
    before, stopped, back = facts["before"], after["stopped"], after["back"]
    # Nobody is connected to the new server: its clock stands still, at most where it was.
    assert stopped["started"] and not stopped["running"], stopped
    assert stopped["left"] <= before, (before, stopped)
    assert stopped["left"] >= before - facts["connected"] - ROUNDING, (before, stopped, facts)
    # The person back: the clock runs on from there; the seconds the server was down (no
    # person was connected) are not counted.
    assert back["running"] and back["started"], back
    assert back["left"] <= stopped["left"], (stopped, back)
    lowest = before - facts["connected"] - after["connected"] - ROUNDING
    assert back["left"] >= lowest, (before, back, facts, after)
    print(
        f"left {before:.3f} s before the kill, {stopped['left']:.3f} s stopped after it, "
        f"{back['left']:.3f} s when a person was back; down {down:.2f} s, connected "
        f"{facts['connected']:.3f} + {after['connected']:.3f} s"
    )
