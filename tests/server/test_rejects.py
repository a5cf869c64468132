"""The protocol's answers, each provoked for real against a running server: every reject code,
repeated ids, many sockets racing one version, updates per socket, reconnects, the HTTP API's
errors, origins, the room cap, names, table penalties and votes (G13), rematches (G12)."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from parlour.games.death.match import dealer_of
from tests.server.client import WAIT, Client, ServerProcess, create_room, running_server, synced


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    db = tmp_path_factory.mktemp("rooms") / "rooms.db"
    with running_server(db, "--max-rooms", "1000") as running:
        yield running


def run(work: Callable[[], Awaitable[None]]) -> None:
    asyncio.run(asyncio.wait_for(work(), 120))


async def _room(
    server: ServerProcess, game: str, kinds: list[str], **extra: Any
) -> tuple[dict[str, Any], list[Client]]:
    room = create_room(server.url, {"game": game, "players": len(kinds), "seats": kinds, **extra})
    clients = [
        await Client.join(server.ws, room["room"], s["token"])
        for s in room["seats"]
        if "token" in s
    ]
    return room, clients


async def _act(client: Client, cid: str, action: str, v: int | None = None) -> dict[str, Any]:
    await client.send(
        {"type": "act", "id": cid, "v": client.last["v"] if v is None else v, "action": action}
    )
    return await client.answer(cid)


async def _fresh(client: Client, cid: str, action: str) -> dict[str, Any]:
    """Act at the room's current version, again when a bot moved first (``stale``)."""
    for attempt in range(20):
        answer = await _act(client, f"{cid}.{attempt}", action)
        if answer.get("code") != "stale":
            return answer
        await client.until_v(answer["v"])
    raise AssertionError("always stale")


async def _drain(client: Client) -> None:
    """Read until the server closes the socket (bounded)."""
    for _ in range(10):
        await client.recv()


def _mover(clients: list[Client]) -> Client:
    return next(c for c in clients if c.last["legal"])


def test_every_move_reject_code(server: ServerProcess) -> None:
    async def work() -> None:
        _, clients = await _room(server, "death", ["person"] * 3)
        mover = _mover(clients)
        other = next(c for c in clients if c is not mover)
        assert mover.last["legal"] == ["2D"]  # the two of diamonds starts (G2)
        stale = await _act(mover, "s", "2D", v=mover.last["v"] + 5)
        assert stale["code"] == "stale" and stale["v"] == 0
        turn = await _act(other, "t", other.last["view"]["hand"][0])
        assert turn["code"] == "not_your_turn" and "Player" in turn["message"]
        wrong = next(c for c in mover.last["view"]["hand"] if c != "2D")
        illegal = await _act(mover, "i", wrong)
        assert illegal["code"] == "illegal" and "(G" in illegal["message"], illegal
        notation = await _act(mover, "n", "seven of nothing")
        assert notation["code"] == "bad_notation"
        bad = await _act(mover, "b", "")
        assert bad["code"] == "bad_message"
        await mover.send({"type": "teleport", "id": "u"})
        assert (await mover.answer("u"))["code"] == "bad_message"
        await mover.send({"type": "act", "id": True, "v": 0, "action": "2D"})
        assert (await mover.expect("reject"))["code"] == "bad_message"
        assert mover.last["v"] == 0, "no refused frame changed the game"
        for c in clients:
            await c.close()

    run(work)


def test_game_over_and_spectators_and_forged_tokens(server: ServerProcess) -> None:
    async def work() -> None:
        room, clients = await _room(server, "beggar", ["person", "person"])
        watcher = await Client.join(server.ws, room["room"], None)
        spectator = await _act(watcher, "w", "play")
        assert spectator["code"] == "unauthorized"
        for step in range(5000):
            if watcher.last["over"]:
                break
            v = await synced(watcher, clients)
            assert (await _act(_mover(clients), f"p{step}", "play"))["type"] == "ack"
            await watcher.until_v(v + 1)
        assert watcher.last["over"]
        await clients[0].until_v(watcher.last["v"])
        over = await _act(clients[0], "late", "play")
        assert over["code"] == "game_over"
        # A forged token: reject, then close 4401.
        ws = await connect(f"{server.ws}/ws/{room['room']}")
        await ws.send(json.dumps({"type": "hello", "token": "x" * 43, "v": 0}))
        frame = json.loads(await asyncio.wait_for(ws.recv(), WAIT))
        assert frame["type"] == "reject" and frame["code"] == "unauthorized"
        with pytest.raises(ConnectionClosed) as closed:
            await asyncio.wait_for(ws.recv(), WAIT)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4401
        for c in (*clients, watcher):
            await c.close()

    run(work)


def test_too_large_frames_close_the_socket_and_unknown_rooms_are_closed(
    server: ServerProcess,
) -> None:
    async def work() -> None:
        _, clients = await _room(server, "beor", ["person", "person"])
        client = clients[0]
        await client.ws.send(json.dumps({"type": "act", "id": "big", "v": 0, "action": "x" * 5000}))
        frame = await client.expect("reject")
        assert frame["code"] == "too_large"
        with pytest.raises(ConnectionClosed) as closed:
            await _drain(client)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009
        ws = await connect(f"{server.ws}/ws/no-such-room")
        with pytest.raises(ConnectionClosed) as gone:
            await asyncio.wait_for(ws.recv(), WAIT)
        assert gone.value.rcvd is not None and gone.value.rcvd.code == 4404

    run(work)


def test_rate_limited(tmp_path: Path) -> None:
    with running_server(tmp_path / "rooms.db", "--rate", "1") as slow:

        async def work() -> None:
            _, clients = await _room(slow, "beor", ["person", "person"])
            codes = []
            for i in range(12):
                await clients[0].send({"type": "vote", "id": f"f{i}", "proposal": 1, "yes": True})
                codes.append((await clients[0].answer(f"f{i}"))["code"])
            assert "rate_limited" in codes and codes[0] != "rate_limited"

        run(work)


def test_a_repeated_id_gets_its_first_answer_and_is_played_once(server: ServerProcess) -> None:
    async def work() -> None:
        _, clients = await _room(server, "beor", ["person", "person"])
        mover = _mover(clients)
        first = await _act(mover, "same", mover.last["legal"][0], v=0)
        assert first == {"type": "ack", "id": "same", "v": 1}
        again = await _act(
            mover, "same", mover.last["legal"][0] if mover.last["legal"] else "x", v=0
        )
        assert again == first
        refused = await _act(mover, "nope", "zz", v=1)
        assert refused["code"] in ("bad_notation", "not_your_turn")
        assert await _act(mover, "nope", "zz", v=1) == refused
        facts = httpx.get(f"{server.url}/api/rooms/{mover.last['room']}").json()
        assert facts["v"] == 1

    run(work)


def test_sockets_racing_one_version_get_one_ack(server: ServerProcess) -> None:
    async def work() -> None:
        room, clients = await _room(server, "beor", ["person", "person", "person"])
        mover = _mover(clients)
        token = next(s["token"] for s in room["seats"] if s.get("seat") == mover.last["seat"])
        racers = [mover] + [await Client.join(server.ws, room["room"], token) for _ in range(5)]
        racers += [c for c in clients if c is not mover]
        action = mover.last["legal"][0]
        for i, c in enumerate(racers):
            await c.send({"type": "act", "id": f"race{i}", "v": 0, "action": action})
        answers = [await c.answer(f"race{i}") for i, c in enumerate(racers)]
        kinds = [a["type"] if a["type"] == "ack" else a["code"] for a in answers]
        assert kinds.count("ack") == 1
        assert set(kinds) - {"ack"} <= {"stale", "not_your_turn"}
        assert kinds[:6].count("stale") == 5
        for c in racers:
            seen = [f["v"] for f in c.frames if f["type"] in ("welcome", "update")]
            assert seen == list(range(seen[0], seen[-1] + 1)), seen

    run(work)


def test_each_socket_gets_its_own_view_and_contiguous_versions(server: ServerProcess) -> None:
    async def work() -> None:
        room, clients = await _room(server, "beor", ["person", "person", "random"])
        watcher = await Client.join(server.ws, room["room"], None)
        for step in range(30):
            if watcher.last["over"]:
                break
            v = await synced(watcher, clients)
            movers = [c for c in clients if c.last["legal"]]
            if movers:
                await _act(movers[0], f"m{step}", movers[0].last["legal"][0])
            await watcher.until_v(v + 1)
        for c in (*clients, watcher):
            await c.until_v(watcher.last["v"])
            frames = [f for f in c.frames if f["type"] in ("welcome", "update")]
            assert [f["v"] for f in frames] == list(range(frames[0]["v"], frames[-1]["v"] + 1))
            for f in frames:
                assert f["view"]["seat"] == f["seat"] == c.last["seat"]
                if f["legal"]:
                    assert f["to_move"] == f["seat"]
            logged = [e["index"] for f in frames for e in f["log"]]
            assert logged == list(range(len(logged))), "each log entry once, in order"
        assert watcher.last["legal"] == []
        # A reconnect gets the whole snapshot again.
        token = next(s["token"] for s in room["seats"] if s.get("seat") == 0)
        again = await Client.join(server.ws, room["room"], token)
        assert again.last["seat"] == 0 and again.last["v"] == watcher.last["v"]
        assert [e["index"] for e in again.last["log"]] == list(range(again.last["v"] + 1))

    run(work)


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"game": "chess", "seats": ["person"] * 2}, "bad_option"),
        ({"game": "beor", "players": 9, "seats": ["person"] * 9}, "bad_option"),
        ({"game": "beor", "players": 2, "seats": ["person"]}, "bad_option"),
        ({"game": "beor", "players": 2, "seats": ["person", "wizard"]}, "bad_option"),
        ({"game": "beor", "players": 2, "seats": ["person", "oracle"]}, "bad_option"),
        ({"game": "beor", "players": 2, "seats": ["person", "ismcts:100000000"]}, "bad_option"),
        (
            {"game": "beor", "players": 2, "seats": ["person"] * 2, "names": ["A", "B\u202e"]},
            "bad_option",
        ),
        (
            {"game": "beor", "players": 2, "seats": ["person"] * 2, "names": ["A", "x" * 25]},
            "bad_option",
        ),
        (
            {"game": "beor", "players": 2, "seats": ["person"] * 2, "options": {"max_turns": -1}},
            "bad_option",
        ),
        ({"game": "beor", "players": 2, "seats": ["person"] * 2, "colour": "red"}, "bad_request"),
        ([1, 2], "bad_request"),
    ],
)
def test_room_creation_errors(server: ServerProcess, body: Any, code: str) -> None:
    response = httpx.post(f"{server.url}/api/rooms", json=body)
    assert 400 <= response.status_code < 500
    error = response.json()["error"]
    assert error["code"] == code and error["message"]


def test_http_errors_and_public_facts(server: ServerProcess) -> None:
    raw = httpx.post(f"{server.url}/api/rooms", content=b"{not json")
    assert raw.status_code == 400 and raw.json()["error"]["code"] == "bad_request"
    assert httpx.get(f"{server.url}/api/rooms/nope").status_code == 404
    room = create_room(
        server.url,
        {
            "game": "death",
            "players": 3,
            "seats": ["person", "person", "heuristic"],
            "names": ["Ana", "Bo", "Cy"],
        },
    )
    facts = httpx.get(f"{server.url}/api/rooms/{room['room']}")
    text = facts.text
    assert [s["name"] for s in facts.json()["seats"]] == ["Ana", "Bo", "Cy"]
    for seat in room["seats"]:
        assert seat.get("token", "-") not in text
    assert "seed" not in text and "hand" not in text
    record = httpx.get(f"{server.url}/api/rooms/{room['room']}/record")
    assert record.status_code == 409 and record.json()["error"]["code"] == "not_over"


def test_origins(tmp_path: Path) -> None:
    with running_server(tmp_path / "rooms.db", "--allow-origin", "https://example.org") as srv:
        body = {"game": "beor", "players": 2, "seats": ["person"] * 2}
        host = srv.url.removeprefix("http://")
        assert (
            httpx.post(
                f"{srv.url}/api/rooms", json=body, headers={"origin": "https://evil.example"}
            ).status_code
            == 403
        )
        assert (
            httpx.post(
                f"{srv.url}/api/rooms", json=body, headers={"origin": f"http://{host}"}
            ).status_code
            == 201
        )
        room = create_room(srv.url, body, origin="https://example.org")

        async def work() -> None:
            with pytest.raises(InvalidStatus) as refused:
                await connect(f"{srv.ws}/ws/{room['room']}", origin="https://evil.example")  # type: ignore[arg-type]
            assert refused.value.response.status_code == 403
            ws = await connect(f"{srv.ws}/ws/{room['room']}", origin=f"http://{host}")  # type: ignore[arg-type]
            await ws.send(json.dumps({"type": "hello", "token": None, "v": 0}))
            assert json.loads(await asyncio.wait_for(ws.recv(), WAIT))["type"] == "welcome"
            await ws.close()

        run(work)


def test_the_cap_on_open_rooms_per_client(tmp_path: Path) -> None:
    with running_server(tmp_path / "rooms.db", "--max-rooms", "3") as srv:
        body = {"game": "beor", "players": 2, "seats": ["person"] * 2}
        for _ in range(3):
            create_room(srv.url, body)
        refused = httpx.post(f"{srv.url}/api/rooms", json=body)
        assert refused.status_code == 429 and refused.json()["error"]["code"] == "too_many_rooms"


def test_death_table_penalties_and_votes(server: ServerProcess) -> None:
    """G13: "A player may always declare a D'oh! on himself; a penalty on another player needs
    a majority of the other players ... and bots vote no"."""

    async def work() -> None:
        _, clients = await _room(server, "death", ["person", "person", "person", "heuristic"])
        p0, p1, p2 = clients
        await p0.until_v(0)
        doh = await _fresh(p0, "d", "doh P1")
        assert doh["type"] == "ack"
        await p0.until_v(doh["v"])
        assert p0.last["view"]["drinks_taken"][0] == 1
        # On another player: a proposal; Player 3's yes makes 2 of the 3 others.
        proposal = await _fresh(p0, "p", "delay P2")
        assert proposal["type"] == "ack"
        await p2.until_v(proposal["v"])
        (open_,) = p2.last["proposals"]
        assert open_["target"] == 1 and open_["by"] == 0 and open_["no"] == [3]
        await p1.until_v(proposal["v"])
        await p1.send({"type": "vote", "id": "self", "proposal": open_["proposal"], "yes": False})
        assert (await p1.answer("self"))["code"] == "illegal"  # the target does not vote
        taken = p2.last["view"]["drinks_taken"][1]
        await p2.send({"type": "vote", "id": "y", "proposal": open_["proposal"], "yes": True})
        passed = await p2.answer("y")
        assert passed["type"] == "ack"
        await p2.until_v(passed["v"])
        assert p2.last["proposals"] == [] and p2.last["view"]["drinks_taken"][1] == taken + 1
        # A proposal the others turn down is dropped, and nobody drinks.
        second = await _fresh(p0, "p2", "delay P3")
        await p1.until_v(second["v"])
        pid = p1.last["proposals"][0]["proposal"]
        await p1.send({"type": "vote", "id": "n", "proposal": pid, "yes": False})
        dropped = await p1.answer("n")
        await p1.until_v(dropped["v"])
        assert p1.last["proposals"] == [] and p1.last["view"]["drinks_taken"][2] == 0
        record_table = [e["text"] for e in p1.last["log"] if e["kind"] == "table"]
        assert record_table == [] or all(t.startswith(("doh", "delay")) for t in record_table)

    run(work)


def test_a_rematch_moves_the_dealer_and_keeps_the_totals(server: ServerProcess) -> None:
    async def work() -> None:
        room, clients = await _room(server, "death", ["person", "person", "random"])
        for step in range(3000):
            v = max(c.last["v"] for c in clients)
            for c in clients:
                await c.until_v(v)
            if clients[0].last["over"]:
                break
            movers = [c for c in clients if c.last["legal"]]
            if movers:
                await _act(movers[0], f"m{step}", movers[0].last["legal"][-1])
            for c in clients:
                await c.until_v(v + 1)
        end = clients[0].last
        assert end["over"] and end["match"]["deals"][0]["deal"] == 0
        await clients[0].send({"type": "rematch", "id": "r0"})
        assert (await clients[0].answer("r0"))["type"] == "ack"
        await clients[1].send({"type": "rematch", "id": "r1"})
        started = await clients[1].answer("r1")
        fresh = await clients[1].until_v(started["v"])
        assert fresh["deal"] == 1 and not fresh["over"]
        assert fresh["commitment"] != room["commitment"]
        assert fresh["match"]["scores"] == end["outcome"]["scores"]
        assert fresh["log"][0]["index"] == 0
        hands = fresh["view"]["hand_sizes"]
        left_of_dealer = (dealer_of(3, 1) + 1) % 3
        assert hands[left_of_dealer] == 18, "the deal starts left of the new dealer (G12)"
        first = httpx.get(f"{server.url}/api/rooms/{room['room']}/record?deal=0").json()
        assert first["deal_number"] == 0 and first["commitment"] == room["commitment"]
        running = httpx.get(f"{server.url}/api/rooms/{room['room']}/record")
        assert running.status_code == 409

    run(work)


def test_serve_prints_its_address_and_stops_cleanly_on_ctrl_c(tmp_path: Path) -> None:
    srv = ServerProcess(tmp_path / "rooms.db").start()
    assert srv.url == f"http://127.0.0.1:{srv.port}"
    code, err = srv.stop()
    assert code == 0 and "Traceback" not in err
    taken = ServerProcess(tmp_path / "other.db")
    busy = ServerProcess(tmp_path / "third.db").start()
    try:
        out = subprocess.run(
            [sys.executable, "-m", "parlour", "serve", "--port", str(busy.port),
             "--db", str(taken.db)],
            capture_output=True, text=True, timeout=WAIT,
        )  # fmt: skip
        assert out.returncode == 2
        assert out.stderr.count("\n") == 1 and "cannot listen" in out.stderr
    finally:
        busy.stop()
