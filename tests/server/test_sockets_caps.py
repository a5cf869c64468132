"""Sockets a client can make a real ``parlour serve`` hold, and what each costs the others
(issue 27, point 1: "600 spectators from one client took 10.4 s of server CPU to join and 7.9 s
to leave; nothing caps sockets per room or per address").

- Sockets are capped per client address (``--max-sockets-per-client``, counted from the moment
  a socket opens, before its hello) and per room (``--max-sockets-per-room``, spectators
  included): one over a cap is closed with 4429 and a reason, before it is sent a welcome. A
  seat's first socket is let into a full room: watchers cannot keep a person from his seat.
- The address is the one the trusted-proxy logic names: ``X-Forwarded-For`` counts only from a
  ``--trusted-proxy``.
- Presence is sent when it changes, once: a spectator or a seat's second tab coming or going
  sends the room's other sockets nothing; a person's seat becoming connected or away sends each
  one ``seats`` frame."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from pathlib import Path
from typing import Any

import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from tests.server.client import WAIT, Client, ServerProcess, create_room, http_get, running_server

TOO_MANY = 4429
BEOR = {"game": "beor", "players": 2, "seats": ["person", "person"]}


def _sockets(server: ServerProcess) -> dict[str, float]:
    """``parlour_sockets`` by role, and the client addresses with sockets open."""
    text = http_get(f"{server.url}/metrics", timeout=WAIT).text
    out: dict[str, float] = {}
    for line in text.splitlines():
        if line.startswith("parlour_sockets{"):
            out[line.split('role="', 1)[1].split('"', 1)[0]] = float(line.rsplit(" ", 1)[1])
        if line.startswith('parlour_room_entries{map="addresses"}'):
            out["addresses"] = float(line.rsplit(" ", 1)[1])
    return out


def _until_sockets(server: ServerProcess, **want: float) -> None:
    """Until the server has seen the sockets come or go (it counts them as it sees them)."""
    deadline = time.monotonic() + WAIT
    seen = _sockets(server)
    while any(seen.get(k) != v for k, v in want.items()):
        assert time.monotonic() < deadline, (seen, want)
        seen = _sockets(server)


async def _open(server: ServerProcess, room: str, **headers: str) -> ClientConnection:
    return await asyncio.wait_for(
        connect(f"{server.ws}/ws/{room}", additional_headers=headers, max_size=None), WAIT
    )


async def _refused(ws: ClientConnection, hello: dict[str, Any] | None) -> tuple[int, str]:
    """Send ``hello`` (if any): the socket must be closed without a single frame; its close
    code and reason."""
    if hello is not None:
        with contextlib.suppress(ConnectionClosed):  # closed before it was read: as well
            await ws.send(json.dumps(hello))
    frames: list[str | bytes] = []
    with pytest.raises(ConnectionClosed) as closed:
        frames.append(await asyncio.wait_for(ws.recv(), WAIT))
    assert not frames, f"a frame before the close: {str(frames[0])[:200]}"
    assert closed.value.rcvd is not None
    return closed.value.rcvd.code, closed.value.rcvd.reason


def _spectator_hello() -> dict[str, Any]:
    return {"type": "hello", "token": None, "v": 0}


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "rooms.db"


def test_a_full_room_refuses_more_sockets_but_not_a_seats_first(db: Path) -> None:
    """``--max-sockets-per-room 4``: four spectators fill the room; a fifth is closed 4429
    with its reason and no welcome; Player 1's first socket is let in all the same, his second
    tab is not; once two spectators have gone another is let in."""

    async def run(server: ServerProcess) -> None:
        room = create_room(server.url, BEOR)
        rid, tokens = room["room"], [s["token"] for s in room["seats"]]
        watchers = [await Client.join(server.ws, rid, None) for _ in range(4)]
        code, reason = await _refused(await _open(server, rid), _spectator_hello())
        assert (code, reason) == (TOO_MANY, "too many sockets in this room")
        person = await Client.join(server.ws, rid, tokens[0])  # a seat's first: let in
        assert person.last["seat"] == 0
        tab = await _open(server, rid)
        hello = {"type": "hello", "token": tokens[0], "v": 0}
        assert await _refused(tab, hello) == (TOO_MANY, "too many sockets in this room")
        for watcher in watchers[:2]:
            await watcher.close()
        await asyncio.to_thread(_until_sockets, server, spectator=2, seat=1)
        again = await Client.join(server.ws, rid, None)
        assert again.last["type"] == "welcome"
        for client in (*watchers[2:], person, again):
            await client.close()

    with running_server(db, "--max-sockets-per-room", "4") as server:
        asyncio.run(run(server))


def test_one_address_may_hold_only_so_many_sockets_hello_or_not(db: Path) -> None:
    """``--max-sockets-per-client 5``: five sockets that never say hello hold the address's
    share; a sixth is closed 4429 at once, before its hello is read and before its room is
    looked up (a made-up room id gets 4429 too, not 4404); when one closes, one more may
    open."""

    async def run(server: ServerProcess) -> None:
        room = create_room(server.url, BEOR)["room"]
        held = [await _open(server, room) for _ in range(5)]
        code, reason = await _refused(await _open(server, room), None)
        assert (code, reason) == (TOO_MANY, "too many sockets from this address")
        assert (await _refused(await _open(server, "made-up"), None))[0] == TOO_MANY
        await held[0].close()
        await asyncio.to_thread(_until_sockets, server, addresses=1)
        client = await Client.join(server.ws, room, None)  # the freed place
        assert client.last["type"] == "welcome"
        await client.close()
        for ws in held[1:]:
            await ws.close()
        await asyncio.to_thread(_until_sockets, server, addresses=0, spectator=0)

    with running_server(db, "--max-sockets-per-client", "5") as server:
        asyncio.run(run(server))


def test_the_address_is_the_trusted_proxys_client_never_a_header_alone(db: Path) -> None:
    """Behind ``--trusted-proxy 127.0.0.1`` two clients named by ``X-Forwarded-For`` each get
    their own share; without that option the header changes nothing: every socket from here
    is this one address's."""

    async def behind_proxy(server: ServerProcess) -> None:
        room = create_room(server.url, BEOR)["room"]
        one = {"X-Forwarded-For": "203.0.113.7"}
        two = {"X-Forwarded-For": "198.51.100.9"}
        held = [await _open(server, room, **one) for _ in range(2)]
        assert (await _refused(await _open(server, room, **one), None))[0] == TOO_MANY
        other = await _open(server, room, **two)  # another client: its own two
        await other.send(json.dumps(_spectator_hello()))
        assert json.loads(await asyncio.wait_for(other.recv(), WAIT))["type"] == "welcome"
        for ws in (*held, other):
            await ws.close()

    async def no_proxy(server: ServerProcess) -> None:
        room = create_room(server.url, BEOR)["room"]
        held = [await _open(server, room, **{"X-Forwarded-For": f"203.0.113.{i}"}) for i in (1, 2)]
        lying = await _open(server, room, **{"X-Forwarded-For": "203.0.113.3"})
        assert (await _refused(lying, None))[0] == TOO_MANY
        for ws in held:
            await ws.close()

    with running_server(
        db, "--max-sockets-per-client", "2", "--trusted-proxy", "127.0.0.1"
    ) as server:
        asyncio.run(behind_proxy(server))
    with running_server(db, "--max-sockets-per-client", "2") as server:
        asyncio.run(no_proxy(server))


def _cpu(server: ServerProcess) -> float:
    """Seconds of CPU the server process has used (user and system)."""
    assert server.proc is not None
    fields = Path(f"/proc/{server.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / 100  # utime, stime in clock ticks


@pytest.mark.parametrize("spectators", [20, 200])
def test_presence_is_one_frame_per_change_whatever_the_watchers(db: Path, spectators: int) -> None:
    """Player 1 watches while many spectators come and go and Player 2 opens and closes a
    second tab: Player 1 is sent exactly two ``seats`` frames, Player 2 connected then away,
    however many spectators there were; and what each frame says is what a page shows."""

    async def run(server: ServerProcess) -> list[dict[str, Any]]:
        room = create_room(server.url, BEOR)
        rid, tokens = room["room"], [s["token"] for s in room["seats"]]
        observer = await Client.join(server.ws, rid, tokens[0])
        crowd = await asyncio.gather(
            *(Client.join(server.ws, rid, None) for _ in range(spectators))
        )
        seen = crowd[0].last["seats"]
        assert [s["connected"] for s in seen] == [True, False], seen
        await asyncio.gather(*(c.close() for c in crowd))
        await asyncio.to_thread(_until_sockets, server, spectator=0, seat=1)
        second = await Client.join(server.ws, rid, tokens[1])  # Player 2 comes: one frame
        tab = await Client.join(server.ws, rid, tokens[1])  # his second tab: none
        await tab.close()
        await asyncio.to_thread(_until_sockets, server, seat=2)
        await second.close()  # Player 2 goes: one frame
        await asyncio.to_thread(_until_sockets, server, seat=1)
        # A frame of this socket's own answered last: everything sent before it is in.
        await observer.send({"type": "ping", "id": "last"})
        assert (await observer.answer("last"))["type"] == "reject"
        await observer.close()
        return [f for f in observer.frames if f["type"] == "seats"]

    with running_server(
        db, "--max-sockets-per-client", "1000", "--max-sockets-per-room", "1000"
    ) as server:
        began = _cpu(server)
        frames = asyncio.run(run(server))
        used = _cpu(server) - began
    assert [[s.get("connected") for s in f["seats"]] for f in frames] == [
        [True, True],
        [True, False],
    ], frames
    # The server's work grows with the spectators, not with their square (was: 10.4 s to
    # join and 7.9 s to leave for 600).
    assert used < 0.02 * spectators + 2.0, f"{used:.2f} s of CPU for {spectators} spectators"
