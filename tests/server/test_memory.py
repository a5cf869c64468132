"""Rooms leave a server's memory once nobody uses them (issue 27, point 1: "Rooms finished by
the stand-in bot after everyone left stay in memory until visited; 149 MiB stayed after every
socket had closed").

A room nobody has a socket open to, with no bot move, running clock or lock at work, leaves
memory after ``--room-idle`` seconds of the hub's time source, whether its game is over,
abandoned or running; the store keeps it and the next visitor finds it as it was. Checked in
process with a fake time source (nothing waits for real time: the idle time passes when the
test says so), and against a real ``parlour serve`` whose every per-room map
(``parlour_room_entries`` at ``GET /metrics``) comes back to where it was, and whose resident
memory does not grow with the rooms that came and went."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

from parlour.server.hub import Hub, Settings
from parlour.server.memory import LOOK_AGAIN
from tests.server.client import WAIT, Client, ServerProcess, create_room, http_get, running_server
from tests.server.test_clock import FakeTime, Socket, Table, settle
from tests.server.test_limits import MiB, _pid, _rss

IDLE = 60.0


def _hub(db: Path, fake: FakeTime) -> Table:
    table = Table(db, fake)
    settings = Settings(takeover=3600.0, bot_delay=0.0, bot_workers=0, room_idle=IDLE)
    table.hub = Hub(table.store, settings, fake)
    return table


def _held(hub: Hub, room_id: str) -> dict[str, bool]:
    """Which of the hub's per-room maps hold something of ``room_id``."""
    return {
        "rooms": room_id in hub.rooms,
        "conns": room_id in hub.conns,
        "away": any(k[0] == room_id for k in hub.away),
        "tasks": room_id in hub.tasks,
        "locks": room_id in hub.locks,
        "timers": room_id in hub.clocks.timers,
        "following": room_id in hub.clocks.following,
        "evicting": room_id in hub.memory.evicting,
    }


def test_a_room_left_by_everyone_leaves_memory_after_the_idle_time(tmp_path: Path) -> None:
    """Two people and a spectator play, then go: the room stays for the idle time (a page
    reloaded finds it at once), then every map lets it go; the next visitor gets it back from
    the store where it was, and a socket coming back within the idle time keeps it."""

    async def work() -> None:
        fake = FakeTime()
        t = _hub(tmp_path / "rooms.db", fake)
        hub = t.hub
        await hub.start()
        try:
            room = await t.make(["person", "person"], {}, game="beor", name="r1")
            people = [await Socket(hub, room, s).join() for s in (0, 1)]
            watcher = await Socket(hub, room, None).join()
            for n in range(3):
                seat = room.state.to_move
                assert seat is not None
                text = str(room.state.legal_actions()[0])
                assert (await people[seat].act(text, f"m{n}"))["type"] == "ack"
            v = room.v
            for s in (*people, watcher):
                s.leave()
            await settle()
            assert hub.rooms.get("r1") is room  # within the idle time: still here
            fake.advance(IDLE - 1)
            await settle()
            assert hub.rooms.get("r1") is room
            fake.advance(1)
            await settle(lambda: "r1" not in hub.rooms)
            await settle(lambda: not any(_held(hub, "r1").values()))
            assert not any(_held(hub, "r1").values()), _held(hub, "r1")
            again = await hub.room("r1")  # the store has it: folded again, where it was
            assert again is not None and again is not room and again.v == v
            # A socket back within the idle time: the room stays, however long it stays.
            back = await Socket(hub, again, 0).join()
            fake.advance(IDLE * 3)
            await settle()
            assert hub.rooms.get("r1") is again and back.last["v"] == v
            back.leave()
            await settle()  # the wait for the idle time has begun
            fake.advance(IDLE)
            await settle(lambda: not any(_held(hub, "r1").values()))
        finally:
            await hub.stop()

    asyncio.run(asyncio.wait_for(work(), 60))


def test_a_room_at_work_stays_until_its_work_is_done(tmp_path: Path) -> None:
    """A room whose lock is held when its idle time is up (a request being stored) is kept,
    and goes at the next look once the work is done."""

    async def work() -> None:
        fake = FakeTime()
        t = _hub(tmp_path / "rooms.db", fake)
        hub = t.hub
        await hub.start()
        try:
            room = await t.make(["person", "person"], {}, game="beor", name="busy")
            release = asyncio.Event()
            held = asyncio.Event()

            async def hold() -> None:
                async with hub.lock("busy"):
                    held.set()
                    await release.wait()

            task = asyncio.create_task(hold())
            await held.wait()
            fake.advance(IDLE)
            await settle()
            assert hub.rooms.get("busy") is room and "busy" in hub.memory.evicting
            release.set()
            await task
            fake.advance(max(IDLE, LOOK_AGAIN))
            await settle(lambda: not any(_held(hub, "busy").values()))
        finally:
            await hub.stop()

    asyncio.run(asyncio.wait_for(work(), 60))


def test_a_socket_whose_room_left_memory_during_its_hello_joins_it_again(
    tmp_path: Path,
) -> None:
    """A socket that read its room before the room left memory is not joined to the copy that
    left (which nobody else would ever update), but to the room as the store has it."""

    async def work() -> None:
        fake = FakeTime()
        t = _hub(tmp_path / "rooms.db", fake)
        hub = t.hub
        await hub.start()
        try:
            room = await t.make(["person", "person"], {}, game="beor", name="r2")
            await settle()
            fake.advance(IDLE)
            await settle(lambda: "r2" not in hub.rooms)
            late = Socket(hub, room, 0)
            assert await hub.join(room, late.conn) == "gone"
            assert "r2" not in hub.conns and not late.frames
            again = await hub.room("r2")  # what the socket does then (parlour.server.sockets)
            assert again is not None and again is not room
            assert await hub.join(again, late.conn) is None
            assert hub.conns["r2"] == {late.conn} and late.last["type"] == "welcome"
            late.leave()
        finally:
            await hub.stop()

    asyncio.run(asyncio.wait_for(work(), 60))


# -- a real server -------------------------------------------------------------------------

ROOM = {"game": "beor", "players": 2, "seats": ["person", "random"], "options": {"max_turns": 6}}


def _metrics(server: ServerProcess) -> dict[str, float]:
    """``parlour_room_entries`` by map, and ``parlour_rooms`` as ``rooms:STATE``."""
    text = http_get(f"{server.url}/metrics", timeout=WAIT).text
    out: dict[str, float] = {}
    for line in text.splitlines():
        for prefix, label in (("parlour_room_entries{", "map"), ("parlour_rooms{", "state")):
            if line.startswith(prefix):
                name = line.split(f'{label}="', 1)[1].split('"', 1)[0]
                key = name if label == "map" else f"rooms:{name}"
                out[key] = float(line.rsplit(" ", 1)[1])
    assert {"rooms", "conns", "locks", "evicting", "rooms:over"} <= set(out), text[:2000]
    return out


def _settled(server: ServerProcess, want: dict[str, float]) -> dict[str, float]:
    """The metrics once they are ``want`` (the server lets rooms go as it sees sockets close
    and bots stop), or the last seen after the wait."""
    deadline = time.monotonic() + WAIT
    seen = _metrics(server)
    while seen != want and time.monotonic() < deadline:
        seen = _metrics(server)
    return seen


async def _visit(server: ServerProcess, finish: bool) -> None:
    """A person and a spectator come to a new room; the person plays to the end (``finish``)
    or one move; both go."""
    room = create_room(server.url, ROOM)
    token = room["seats"][0]["token"]
    person = await Client.join(server.ws, room["room"], token)
    watcher = await Client.join(server.ws, room["room"], None)
    for n in range(5000 if finish else 1):
        while not person.last["legal"] and not person.last["over"]:
            await person.recv()
        if person.last["over"]:
            break
        cid = f"m{n}"
        await person.send(
            {"type": "act", "id": cid, "v": person.last["v"], "action": person.last["legal"][0]}
        )
        assert (await person.answer(cid))["type"] == "ack"
    assert person.last["over"] or not finish
    await person.close()
    await watcher.close()


async def _visits(server: ServerProcess, rooms: int) -> None:
    for i in range(rooms):
        await _visit(server, finish=i % 2 == 0)


def test_rooms_played_and_left_leave_a_real_servers_memory(tmp_path: Path) -> None:
    """120 rooms, half played to the end and half left after a move, each with a spectator:
    once every socket has closed, every per-room map is back where it was (no room held in
    memory, over or running) and the server's resident memory has not grown with them."""
    idle = ("--room-idle", "0", "--takeover", "0", "--max-rooms", "1000")
    with running_server(tmp_path / "rooms.db", *idle) as server:
        empty = _metrics(server)  # nothing yet: the baseline of every map
        assert empty["rooms"] == 0 and empty["conns"] == 0, empty
        asyncio.run(_visits(server, 20))  # what serving rooms loads, loaded
        seen = _settled(server, empty)
        assert seen == empty, {k: v for k, v in seen.items() if v != empty.get(k)}
        before = _rss(_pid(server))
        for _ in range(5):
            asyncio.run(_visits(server, 20))
            seen = _settled(server, empty)
            assert seen == empty, {k: v for k, v in seen.items() if v != empty.get(k)}
        grown = _rss(_pid(server)) - before
        assert grown < 6 * MiB, f"the server grew by {grown / MiB:.1f} MiB over 100 rooms"
        # The store kept them: a room that left memory is served again as it was.
        room = create_room(server.url, ROOM)
        asyncio.run(_leave_after_one_move(server, room))
        assert _settled(server, empty) == empty
        facts = http_get(f"{server.url}/api/rooms/{room['room']}", timeout=WAIT).json()
        assert facts["v"] >= 1 and facts["over"] is False


async def _leave_after_one_move(server: ServerProcess, room: dict[str, Any]) -> None:
    person = await Client.join(server.ws, room["room"], room["seats"][0]["token"])
    while not person.last["legal"]:
        await person.recv()
    await person.send(
        {"type": "act", "id": "one", "v": person.last["v"], "action": person.last["legal"][0]}
    )
    assert (await person.answer("one"))["type"] == "ack"
    await person.close()
