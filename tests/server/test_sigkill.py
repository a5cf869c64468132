"""A server killed with SIGKILL at random moments under load (20 rooms, people playing as fast
as they can, bots in some seats, rematches when a game ends) and started again on the same
database: no acknowledged action lost, no version gap on any socket, every client converges, a
repeated id is answered as the first time and not played twice, every record replays."""

from __future__ import annotations

import asyncio
import random
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import pytest
from websockets.exceptions import WebSocketException

from parlour.games import replay_json
from tests.server.client import WAIT, Client, ServerProcess, create_room

_KINDS = [
    ("beor", ["person", "person"], {"max_turns": 60}),
    ("death", ["person", "person", "random"], {}),
    ("beggar", ["person", "person", "bot"], {}),
]


@dataclass
class Room:
    id: str
    tokens: list[str]
    acked: list[tuple[int, int, str, str, int]] = field(default_factory=list)
    """(deal, v, client id, action, seat) of every ack received."""
    sockets: list[Client] = field(default_factory=list)
    offsets: dict[int, int] = field(default_factory=dict)
    """The version at which each deal's step 0 was made."""


async def _join(server: ServerProcess, room: Room, token: str) -> Client:
    for _ in range(200):
        try:
            client = await Client.join(server.ws, room.id, token)
        except (TimeoutError, OSError, WebSocketException):
            await asyncio.sleep(0.05)
            continue
        room.sockets.append(client)
        return client
    raise AssertionError("could not reconnect")


def _note_offsets(room: Room, client: Client) -> None:
    for frame in client.frames:
        if frame["type"] in ("welcome", "update") and frame["log"]:
            room.offsets[frame["deal"]] = frame["v"] - frame["log"][-1]["index"]


async def _drive(
    server: ServerProcess, room: Room, rng: random.Random, stop: asyncio.Event
) -> None:
    clients = [await _join(server, room, t) for t in room.tokens]
    step = 0
    while not stop.is_set():
        step += 1
        try:
            live = [c.last for c in clients]
            if live[0]["over"]:
                for i, c in enumerate(clients):
                    if i not in live[0]["rematch"]:
                        await c.send({"type": "rematch", "id": f"rm{live[0]['deal']}.{i}"})
                await clients[0].recv()
                continue
            mover = next(
                (
                    c
                    for c in clients
                    if c.last["legal"] and c.last["v"] == max(x["v"] for x in live)
                ),
                None,
            )
            if mover is None:
                await asyncio.wait_for(clients[0].recv(), 2)
                for c in clients[1:]:
                    await c.until_v(clients[0].last["v"])
                continue
            cid = f"{room.id}-{step}"
            action = rng.choice(mover.last["legal"])
            deal = mover.last["deal"]
            await mover.send({"type": "act", "id": cid, "v": mover.last["v"], "action": action})
            answer = await mover.answer(cid)
            if answer["type"] == "ack":
                room.acked.append((deal, answer["v"], cid, action, mover.last["seat"]))
            for c in clients:
                await c.until_v(answer["v"])
        except (TimeoutError, WebSocketException, OSError):
            for c in clients:
                _note_offsets(room, c)
            await asyncio.sleep(0.05)
            clients = [await _join(server, room, t) for t in room.tokens]
    for c in clients:
        _note_offsets(room, c)
        await c.close()


async def _load(server: ServerProcess, rooms: list[Room], kills: int, seed: int) -> list[float]:
    stop = asyncio.Event()
    rng = random.Random(seed)
    drivers = [
        asyncio.create_task(_drive(server, r, random.Random(seed + i), stop))
        for i, r in enumerate(rooms)
    ]
    downtimes = []
    for _ in range(kills):
        await asyncio.sleep(rng.uniform(0.3, 0.9))
        server.kill()
        began = asyncio.get_running_loop().time()
        await asyncio.to_thread(server.start, server.port)
        downtimes.append(asyncio.get_running_loop().time() - began)
    await asyncio.sleep(0.5)
    stop.set()
    await asyncio.wait_for(asyncio.gather(*drivers), 60)
    return downtimes


def _check_room(server: ServerProcess, room: Room) -> int:
    facts = httpx.get(f"{server.url}/api/rooms/{room.id}", timeout=WAIT).json()
    assert room.acked, "every room had moves acknowledged"
    assert facts["v"] >= max(a[1] for a in room.acked)
    # Every socket saw versions one by one from its welcome on.
    for client in room.sockets:
        seen = [f["v"] for f in client.frames if f["type"] in ("welcome", "update")]
        assert seen == list(range(seen[0], seen[0] + len(seen))), seen
    # Every acknowledged action is in the deal's record at its version.
    checked = 0
    for deal in range(facts["deal"] + 1):
        response = httpx.get(f"{server.url}/api/rooms/{room.id}/record?deal={deal}", timeout=WAIT)
        if response.status_code == 409:
            continue
        _, states = replay_json(response.json())
        for acked_deal, v, _, action, _ in room.acked:
            if acked_deal == deal:
                step = states[v - room.offsets[deal]].step
                assert step is not None and step.text == action
                checked += 1
    return checked


async def _converge_and_repeat(server: ServerProcess, room: Room) -> None:
    clients = [await Client.join(server.ws, room.id, t) for t in room.tokens]
    assert len({c.last["v"] for c in clients}) == 1, "every client converges on one version"
    _, v, cid, action, seat = room.acked[len(room.acked) // 2]
    owner = next(c for c in clients if c.last["seat"] == seat)
    await owner.send({"type": "act", "id": cid, "v": v - 1, "action": action})
    assert await owner.answer(cid) == {"type": "ack", "id": cid, "v": v}
    facts = httpx.get(f"{server.url}/api/rooms/{room.id}", timeout=WAIT).json()
    assert facts["v"] == clients[0].last["v"], "a repeated id is never played twice"
    for c in clients:
        await c.close()


@pytest.mark.slow
def test_sigkill_under_load_loses_nothing(tmp_path: Path) -> None:
    server = ServerProcess(tmp_path / "rooms.db", "--max-rooms", "100").start()
    try:
        rooms = []
        for i in range(20):
            game, kinds, options = _KINDS[i % len(_KINDS)]
            made = create_room(
                server.url,
                {"game": game, "players": len(kinds), "seats": kinds, "options": options},
            )
            rooms.append(Room(made["room"], [s["token"] for s in made["seats"] if "token" in s]))
        downtimes = asyncio.run(asyncio.wait_for(_load(server, rooms, kills=10, seed=5), 240))
        checked = sum(_check_room(server, r) for r in rooms)
        for room in rooms:
            asyncio.run(asyncio.wait_for(_converge_and_repeat(server, room), 60))
        print(f"kills 10, restarts {max(downtimes):.2f}s at most, acks checked {checked}")
        assert checked >= 200
    finally:
        _, err = server.stop()
    assert "Traceback" not in err
