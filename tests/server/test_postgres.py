"""Two ``parlour serve`` processes on one real PostgreSQL server share their rooms: a move made
through one reaches the sockets of the other, and two moves on one version, one through each,
give one ack and one ``stale``."""

from __future__ import annotations

import asyncio
import random

import pytest

from parlour.games import replay_json
from tests.server.client import Client, ServerProcess, create_room, http_get
from tests.server.test_store import _fresh_database


async def _across(one: ServerProcess, two: ServerProcess) -> None:
    room = create_room(
        one.url, {"game": "death", "players": 3, "seats": ["person", "person", "heuristic"]}
    )
    tokens = [s["token"] for s in room["seats"][:2]]
    a = await Client.join(one.ws, room["room"], tokens[0])
    b = await Client.join(two.ws, room["room"], tokens[1])
    watchers = [await Client.join(s.ws, room["room"], None) for s in (one, two)]
    rng = random.Random(3)
    moves = 0
    while not watchers[0].last["over"]:
        assert moves < 3000
        v = max(w.last["v"] for w in watchers)
        for client in (a, b, *watchers):
            await client.until_v(v)
        movers = [c for c in (a, b) if c.last["legal"]]
        if movers:
            mover = movers[0]
            moves += 1
            cid = f"m{moves}"
            await mover.send(
                {"type": "act", "id": cid, "v": v, "action": rng.choice(mover.last["legal"])}
            )
            answer = await mover.answer(cid)
            assert answer["type"] == "ack", answer
        for w in watchers:
            await w.until_v(v + 1)
    ends = [w.last for w in watchers]
    await a.until_v(ends[0]["v"])
    await b.until_v(ends[0]["v"])
    assert ends[0]["outcome"] == ends[1]["outcome"] == a.last["outcome"] == b.last["outcome"]
    # Each watcher saw every version once, in order, whichever server it was on.
    for w in watchers:
        seen = [f["v"] for f in w.frames if f["type"] in ("welcome", "update")]
        assert seen == list(range(seen[0], seen[-1] + 1))
    for server in (one, two):
        record = http_get(f"{server.url}/api/rooms/{room['room']}/record").json()
        _, states = replay_json(record)
        assert states[-1].outcome is not None
        assert states[-1].outcome.to_json() == ends[0]["outcome"]
    for client in (a, b, *watchers):
        await client.close()


async def _race(one: ServerProcess, two: ServerProcess) -> None:
    room = create_room(one.url, {"game": "beor", "players": 2, "seats": ["person", "person"]})
    token = next(s["token"] for s in room["seats"] if s["seat"] == 0)
    other = next(s["token"] for s in room["seats"] if s["seat"] == 1)
    first = await Client.join(one.ws, room["room"], token)
    mover_token = token if first.last["legal"] else other
    clients = [await Client.join(s.ws, room["room"], mover_token) for s in (one, two, one, two)]
    action = clients[0].last["legal"][0]
    for i, c in enumerate(clients):
        await c.send({"type": "act", "id": f"r{i}", "v": 0, "action": action})
    answers = [await c.answer(f"r{i}") for i, c in enumerate(clients)]
    codes = sorted(a["type"] if a["type"] == "ack" else a["code"] for a in answers)
    assert codes == ["ack", "stale", "stale", "stale"]
    for c in clients:
        assert (await c.until_v(1))["v"] == 1
    facts = [http_get(f"{s.url}/api/rooms/{room['room']}").json()["v"] for s in (one, two)]
    assert facts == [1, 1]
    for c in (first, *clients):
        await c.close()


@pytest.mark.slow
def test_two_servers_share_rooms_through_postgresql(postgres_url: str) -> None:
    url = _fresh_database(postgres_url)
    one = ServerProcess(url).start()
    two = ServerProcess(url).start()
    try:
        asyncio.run(_across(one, two))
        asyncio.run(_race(one, two))
    finally:
        errors = [s.stop()[1] for s in (one, two)]
    for err in errors:
        assert "Traceback" not in err, err
