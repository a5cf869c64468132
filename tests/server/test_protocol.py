"""The rooms' protocol as a user meets it, each answer provoked for real against a running
``parlour serve`` over loopback: every reject code with its message and version, close codes,
repeated client ids, many sockets racing one version, each socket's own updates, reconnects,
the HTTP API's errors and public facts, origins, the room cap, the Game of Death's table
penalties and votes (G13), rematches and the moving dealer (G12), and the command itself
(its first line, Ctrl-C, a busy port)."""

from __future__ import annotations

import asyncio
import json
import re
import signal
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from parlour.cards import deck52
from parlour.core.fairness import commitment
from parlour.games import replay_json
from parlour.games.death.match import dealer_of, match_deal
from parlour.server.protocol import MAX_FRAME
from tests.server.client import (
    WAIT,
    Client,
    ServerProcess,
    create_room,
    http_get,
    http_post,
    running_server,
)

_ROOM_CODES = ("stale", "not_your_turn", "illegal", "bad_notation", "game_over")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    db = tmp_path_factory.mktemp("protocol") / "rooms.db"
    with running_server(db, "--max-rooms", "1000") as running:
        yield running
        code, err = running.stop()
        assert code == 0 and "Traceback" not in err, err


def run(work: Callable[[], Awaitable[None]], limit: float = 60) -> None:
    asyncio.run(asyncio.wait_for(work(), limit))


async def _room(
    server: ServerProcess, game: str, kinds: list[str], **extra: Any
) -> tuple[dict[str, Any], dict[int, Client]]:
    """A new room and one joined socket per person seat, by seat. BEOR rooms are dealt without
    the natural win (B5), which would end a game before its first move."""
    if game == "beor":
        extra.setdefault("options", {"natural_win": False})
    room = create_room(server.url, {"game": game, "players": len(kinds), "seats": kinds, **extra})
    clients = {
        s["seat"]: await Client.join(server.ws, room["room"], s["token"])
        for s in room["seats"]
        if "token" in s
    }
    return room, clients


def _token(room: dict[str, Any], seat: int) -> str:
    token: str = room["seats"][seat]["token"]
    return token


async def _act(client: Client, cid: str, action: str, v: int | None = None) -> dict[str, Any]:
    v = client.last["v"] if v is None else v
    await client.send({"type": "act", "id": cid, "v": v, "action": action})
    return await client.answer(cid)


async def _fresh(client: Client, cid: str, action: str) -> dict[str, Any]:
    """Act at the room's current version, again when a bot moved first (``stale``)."""
    for attempt in range(20):
        answer = await _act(client, f"{cid}.{attempt}", action)
        if answer.get("code") != "stale":
            return answer
        await client.until_v(answer["v"])
    raise AssertionError("always stale")


async def _close_code(ws: ClientConnection) -> int | None:
    """Read (at most 20 frames) until the server closes the socket: its close code."""
    try:
        for _ in range(20):
            await asyncio.wait_for(ws.recv(), WAIT)
    except ConnectionClosed as closed:
        return None if closed.rcvd is None else closed.rcvd.code
    raise AssertionError("the server did not close the socket")


async def _still_open(client: Client, cid: str) -> None:
    """The socket is open and served: a vote on no proposal is answered (``illegal`` for a
    seat, ``unauthorized`` for a spectator)."""
    await client.send({"type": "vote", "id": cid, "proposal": 987654, "yes": True})
    answer = await client.answer(cid)
    assert answer["type"] == "reject" and answer["code"] in ("illegal", "unauthorized")


def _facts(server: ServerProcess, room: dict[str, Any]) -> dict[str, Any]:
    response = http_get(f"{server.url}/api/rooms/{room['room']}", timeout=WAIT)
    assert response.status_code == 200
    facts: dict[str, Any] = response.json()
    return facts


def _snapshots(client: Client) -> list[dict[str, Any]]:
    return [f for f in client.frames if f["type"] in ("welcome", "update")]


async def _until_idle(client: Client, quiet: float = 0.3) -> None:
    """Read frames until none comes for ``quiet`` seconds (bounded)."""
    for _ in range(500):
        try:
            text = await asyncio.wait_for(client.ws.recv(), quiet)
        except TimeoutError:
            return
        assert isinstance(text, str)
        frame = json.loads(text)
        client.frames.append(frame)
        if frame["type"] in ("welcome", "update"):
            client.last = frame
    raise AssertionError("the room never went quiet")


# -- reject codes ------------------------------------------------------------------------------


def test_stale_not_your_turn_illegal_and_bad_notation_in_beor(server: ServerProcess) -> None:
    async def work() -> None:
        room, c = await _room(server, "beor", ["person", "person"])
        p0, p1 = c[0], c[1]
        assert p0.last["legal"] and p1.last["legal"] == []  # seat 0 plays first (B3)
        first = await _act(p0, "a1", p0.last["legal"][0], v=0)
        assert first == {"type": "ack", "id": "a1", "v": 1}
        await p1.until_v(1)
        # An old version: stale, with the room's version to resync to.
        stale = await _act(p1, "s", p1.last["legal"][0], v=0)
        assert stale["type"] == "reject" and stale["id"] == "s"
        assert stale["code"] == "stale" and stale["v"] == 1 and "version 1" in stale["message"]
        # Seat 0 plays out of turn, a card of its own hand on a base it fits.
        mine = p0.last["view"]["hand"][0]
        turn = await _act(p0, "t", f"{mine}>{'black' if mine[-1] in 'SC' else 'red'}", v=1)
        assert turn["code"] == "not_your_turn" and turn["v"] == 1
        assert turn["message"] == "it is Player 2's turn, not Player 1's"
        assert "key" not in turn  # no words of the game's: the page shows the message
        # A card on a base whose theme it does not show: the ruling is named.
        hand = p1.last["view"]["hand"]
        card = next(h for h in hand if h[0] not in "KJ" and not h.startswith("JK"))
        wrong = "black" if card[-1] in "HD" else "red"
        illegal = await _act(p1, "i", f"{card}>{wrong}", v=1)
        assert illegal["code"] == "illegal" and "(B4)" in illegal["message"], illegal
        # Each refusal of the rules names its sentence in the game's catalog, for the page.
        assert illegal["key"] == f"refusal.fits.{wrong}" and illegal["values"]["card"] == card
        # A card that is not in the hand at all.
        absent = next(str(x) for x in deck52() if str(x) not in hand)
        missing = await _act(p1, "m", f"{absent}>red", v=1)
        assert missing["code"] == "illegal" and "not in Player 2's hand" in missing["message"]
        assert missing["key"] == "refusal.not_in_hand"
        assert missing["values"] == {"card": absent, "player": 2}
        notation = await _act(p1, "n", "seven of nothing", v=1)
        assert notation["code"] == "bad_notation" and "not a BEOR action" in notation["message"]
        assert notation["key"] == "refusal.notation"
        assert notation["values"] == {"text": "'seven of nothing'"}
        # None of that moved the game: no update came, and the right move still plays.
        assert _facts(server, room)["v"] == 1 and p1.last["v"] == 1
        assert (await _act(p1, "ok", p1.last["legal"][0], v=1))["v"] == 2
        for client in c.values():
            await client.close()

    run(work)


def test_illegal_throws_in_the_game_of_death_name_their_ruling(server: ServerProcess) -> None:
    async def work() -> None:
        _, c = await _room(server, "death", ["person"] * 3)
        holder = next(x for x in c.values() if x.last["legal"])
        assert holder.last["legal"] == ["2D"]  # the holder of 2D throws it first (G1)
        other = next(h for h in holder.last["view"]["hand"] if h != "2D")
        first = await _act(holder, "g1", other)
        assert first["code"] == "illegal" and first["message"].endswith("(G1)"), first
        assert (await _act(holder, "go", "2D"))["type"] == "ack"
        for x in c.values():
            await x.until_v(1)
        mover = next(x for x in c.values() if x.last["legal"])
        hand, legal = mover.last["view"]["hand"], mover.last["legal"]
        off = next(h for h in hand if h not in legal)
        refused = await _act(mover, "g2", off)
        assert refused["code"] == "illegal"
        assert refused["message"] == f"{off} does not follow 2D: neither suit nor rank (G2)"
        if any(a != "pass" for a in legal):
            must = await _act(mover, "g2p", "pass")
            assert must["code"] == "illegal" and "(G2)" in must["message"]
        notation = await _act(mover, "bn", "throw the lot")
        assert notation["code"] == "bad_notation"
        assert mover.last["v"] == 1 and (await _act(mover, "ok", legal[0]))["v"] == 2

    run(work)


def test_game_over_and_no_seed_or_token_in_any_public_fact(server: ServerProcess) -> None:
    """Beggar-My-Neighbour for two people played to its end; afterwards every act is
    ``game_over``. Neither the room's public facts nor any frame before the end held a
    token, the word seed or the seed's value (revealed by the record only)."""

    async def work() -> None:
        room, c = await _room(server, "beggar", ["person", "person"])
        watcher = await Client.join(server.ws, room["room"], None)
        facts = [http_get(f"{server.url}/api/rooms/{room['room']}", timeout=WAIT).text]
        for step in range(6000):
            if watcher.last["over"]:
                break
            v = watcher.last["v"]
            for x in c.values():
                await x.until_v(v)
            mover = next(x for x in c.values() if x.last["legal"])
            assert (await _act(mover, f"p{step}", "play"))["v"] == v + 1
            await watcher.until_v(v + 1)
            if step % 50 == 0:
                facts.append(http_get(f"{server.url}/api/rooms/{room['room']}").text)
        assert watcher.last["over"], "the game should have ended"
        end = watcher.last["v"]
        record = http_get(f"{server.url}/api/rooms/{room['room']}/record", timeout=WAIT)
        assert record.status_code == 200
        seed = str(record.json()["seed"])
        for x in c.values():
            await x.until_v(end)
            over = await _act(x, f"late{x.last['seat']}", "play", v=end)
            assert over["code"] == "game_over" and over["v"] == end
            assert "rematch" in over["message"]
        after = _facts(server, room)
        assert after["over"] is True and after["v"] == end
        facts.append(json.dumps(after))
        for text in facts:
            assert "seed" not in text.lower()
            for s in room["seats"]:
                assert s["token"] not in text
            if len(seed) >= 8:
                assert seed not in text
        for x in (*c.values(), watcher):
            for text in x.texts:
                assert seed not in text or len(seed) < 8
                assert all(s["token"] not in text for s in room["seats"])
            await x.close()

    run(work)


def test_forged_and_foreign_tokens_close_4401_and_spectators_cannot_act(
    server: ServerProcess,
) -> None:
    async def work() -> None:
        room, c = await _room(server, "beor", ["person", "person"])
        other, _ = await _room(server, "beor", ["person", "person"])
        for token in ("A" * 43, _token(other, 0), ""):
            ws = await connect(f"{server.ws}/ws/{room['room']}")
            await ws.send(json.dumps({"type": "hello", "token": token, "v": 0}))
            frame = json.loads(await asyncio.wait_for(ws.recv(), WAIT))
            assert frame["type"] == "reject" and frame["code"] == "unauthorized", frame
            assert await _close_code(ws) == 4401
        watcher = await Client.join(server.ws, room["room"], None)
        assert watcher.last["seat"] is None and watcher.last["view"]["seat"] is None
        for i, frame in enumerate(
            [
                {"type": "act", "v": 0, "action": c[0].last["legal"][0]},
                {"type": "vote", "proposal": 1, "yes": True},
                {"type": "rematch"},
            ]
        ):
            await watcher.send({**frame, "id": f"w{i}"})
            refused = await watcher.answer(f"w{i}")
            assert refused["code"] == "unauthorized" and refused["v"] == 0
        # The spectator's socket stays open: it sees the next move and is still answered.
        assert (await _act(c[0], "real", c[0].last["legal"][0], v=0))["type"] == "ack"
        assert (await watcher.until_v(1))["v"] == 1
        await _still_open(watcher, "alive")
        assert _facts(server, room)["v"] == 1

    run(work)


def test_bad_messages_are_answered_and_the_socket_goes_on(server: ServerProcess) -> None:
    async def work() -> None:
        room, c = await _room(server, "beor", ["person", "person"])
        p0 = c[0]
        move = p0.last["legal"][0]
        cases: list[tuple[Any, str | None]] = [
            ({"type": "teleport", "id": "u"}, "u"),
            ({"type": "act", "id": "nov", "action": move}, "nov"),
            ({"type": "act", "id": "noa", "v": 0}, "noa"),
            ({"type": "act", "id": "sv", "v": "0", "action": move}, "sv"),
            ({"type": "act", "id": "neg", "v": -1, "action": move}, "neg"),
            ({"type": "act", "id": "bv", "v": True, "action": move}, "bv"),
            ({"type": "act", "id": "fv", "v": 0.0, "action": move}, "fv"),
            ({"type": "act", "id": "la", "v": 0, "action": "x" * 201}, "la"),
            ({"type": "act", "id": "ea", "v": 0, "action": ""}, "ea"),
            ({"type": "act", "id": "na", "v": 0, "action": 7}, "na"),
            ({"type": "vote", "id": "vp", "proposal": "1", "yes": True}, "vp"),
            ({"type": "vote", "id": "vy", "proposal": 1, "yes": "yes"}, "vy"),
            ({"type": "hello", "id": "h2", "token": None}, "h2"),
            ({"type": "act", "id": True, "v": 0, "action": move}, None),
            ({"type": "act", "id": "x" * 65, "v": 0, "action": move}, None),
            ({"type": "act", "id": 1.5, "v": 0, "action": move}, None),
            ({"type": "act", "id": ["a"], "v": 0, "action": move}, None),
            ({"type": "act", "id": 2**60, "v": 0, "action": move}, None),
            ({"type": "act", "id": "", "v": 0, "action": move}, None),
            ({"id": "notype", "v": 0, "action": move}, None),
            ({"type": 5, "id": "t5"}, None),
            ([1, 2], None),
            ("not json", None),
            ('{"type": "act", "id": "nan", "v": NaN, "action": "x"}', None),
        ]
        for frame, cid in cases:
            await p0.ws.send(frame if isinstance(frame, str) else json.dumps(frame))
            answer = await p0.expect("reject")
            assert answer["code"] == "bad_message" and answer["id"] == cid, (frame, answer)
            assert answer["v"] == 0 and answer["message"]
        assert _facts(server, room)["v"] == 0
        assert (await _act(p0, "fine", move, v=0)) == {"type": "ack", "id": "fine", "v": 1}
        # A number id is the same id as its text.
        assert (await _act(p0, "7", move, v=1))["code"] == "not_your_turn"
        await p0.send({"type": "act", "id": 7, "v": 1, "action": move})
        assert (await p0.expect("reject"))["id"] == "7"

    run(work)


def test_fifty_refused_frames_in_a_row_close_1008(server: ServerProcess) -> None:
    async def work() -> None:
        _, c = await _room(server, "beor", ["person", "person"])
        p1 = c[1]
        for i in range(49):
            await p1.send({"type": "nonsense", "id": f"n{i}"})
        for i in range(49):
            assert (await p1.answer(f"n{i}"))["code"] == "bad_message"
        fiftieth = await _act(p1, "ok", "doh", v=0)  # a reject of another kind, the 50th
        assert fiftieth["code"] == "not_your_turn"
        assert await _close_code(p1.ws) == 1008
        # An answer that is no reject starts the count again.
        p0 = c[0]
        for i in range(49):
            await p0.send({"type": "nonsense", "id": f"m{i}"})
        assert (await _act(p0, "play", p0.last["legal"][0], v=0))["type"] == "ack"
        for i in range(49):
            await p0.send({"type": "nonsense", "id": f"k{i}"})
        assert (await p0.answer("k48"))["code"] == "bad_message"
        await _until_idle(p0)
        assert p0.ws.close_code is None, "49 refused frames in a row leave the socket open"
        await p0.send({"type": "nonsense", "id": "k49"})
        assert (await p0.answer("k49"))["code"] == "bad_message"
        assert await _close_code(p0.ws) == 1008

    run(work)


def test_too_large_frames_close_1009_before_and_after_the_hello(server: ServerProcess) -> None:
    async def work() -> None:
        room, c = await _room(server, "beor", ["person", "person"])
        p0 = c[0]
        move = p0.last["legal"][0]
        # A frame of exactly 4 KiB is read and played.
        frame = {"type": "act", "id": "edge", "v": 0, "action": move, "pad": ""}
        frame["pad"] = "p" * (MAX_FRAME - len(json.dumps(frame)))
        assert len(json.dumps(frame).encode()) == MAX_FRAME
        await p0.send(frame)
        assert (await p0.answer("edge")) == {"type": "ack", "id": "edge", "v": 1}
        frame = {"type": "act", "id": "big", "v": 1, "action": "x" * 5 * 1024}
        await p0.send(frame)
        refused = await p0.expect("reject")
        assert refused["code"] == "too_large" and str(len(json.dumps(frame))) in refused["message"]
        assert await _close_code(p0.ws) == 1009
        # Multi-byte text counts in bytes: 1,400 euro signs are 4,200 bytes.
        ws = await connect(f"{server.ws}/ws/{room['room']}")
        hello = {"type": "hello", "token": None, "v": 0, "x": "€" * 1400}
        await ws.send(json.dumps(hello, ensure_ascii=False))
        first = json.loads(await asyncio.wait_for(ws.recv(), WAIT))
        assert first["type"] == "reject" and first["code"] == "too_large"
        assert await _close_code(ws) == 1009
        assert _facts(server, room)["v"] == 1
        # No such room: closed 4404 without a hello.
        ws = await connect(f"{server.ws}/ws/no-such-room")
        assert await _close_code(ws) == 4404

    run(work)


def test_a_binary_frame_or_a_first_frame_that_is_no_hello_closes_the_socket(
    server: ServerProcess,
) -> None:
    async def work() -> None:
        room, c = await _room(server, "beor", ["person", "person"])
        await c[0].ws.send(b'{"type": "act"}')
        refused = await c[0].expect("reject")
        assert refused["code"] == "bad_message" and "binary" in refused["message"]
        assert refused["v"] == 0 and refused["id"] is None
        assert await _close_code(c[0].ws) == 1003
        for first in (
            {"type": "act", "id": "a", "v": 0, "action": "x"},
            {"type": "hello", "token": 12},
            "hello",
        ):
            ws = await connect(f"{server.ws}/ws/{room['room']}")
            await ws.send(first if isinstance(first, str) else json.dumps(first))
            frame = json.loads(await asyncio.wait_for(ws.recv(), WAIT))
            assert frame["type"] == "reject" and frame["code"] == "bad_message"
            assert await _close_code(ws) == 1008
        # Text that is not UTF-8: the websocket layer's 1007, and the server goes on.
        ws = await connect(f"{server.ws}/ws/{room['room']}")
        await ws.send(json.dumps({"type": "hello", "token": _token(room, 1), "v": 0}))
        assert json.loads(await asyncio.wait_for(ws.recv(), WAIT))["type"] == "welcome"
        await ws.send(b'{"type": "act", "id": "\xff"}', text=True)
        assert await _close_code(ws) == 1007
        again = await Client.join(server.ws, room["room"], _token(room, 1))
        await _still_open(again, "alive")

    run(work)


def test_rate_limited(tmp_path: Path) -> None:
    # ServerProcess passes --rate 5000 first: the later --rate 1 wins (bursts of 10).
    with running_server(tmp_path / "rooms.db", "--rate", "1") as slow:

        async def work() -> None:
            room, c = await _room(slow, "beor", ["person", "person"])
            p0 = c[0]
            move = p0.last["legal"][0]
            frames = [{"type": "act", "id": f"s{i}", "v": 99, "action": move} for i in range(10)]
            frames += [{"type": "act", "id": "go", "v": 0, "action": move}]
            frames += [{"type": "act", "id": "more", "v": 0, "action": move}]
            for f in frames:
                await p0.ws.send(json.dumps(f))
            codes = [(await p0.answer(f["id"]))["code"] for f in frames]
            assert codes == ["stale"] * 10 + ["rate_limited"] * 2
            assert _facts(slow, room)["v"] == 0, "a rate-limited act is not played"
            await asyncio.sleep(1.2)  # the bucket refills one frame a second
            assert (await _act(p0, "go", move, v=0)) == {"type": "ack", "id": "go", "v": 1}

        run(work)


# -- repeated ids, races, updates, reconnects ------------------------------------------------


def test_a_repeated_id_gets_its_first_answer_and_is_never_applied_twice(
    server: ServerProcess,
) -> None:
    async def work() -> None:
        room, c = await _room(server, "beor", ["person", "person"])
        p0, p1 = c[0], c[1]
        move = p0.last["legal"][0]
        first = await _act(p0, "same", move, v=0)
        assert first == {"type": "ack", "id": "same", "v": 1}
        assert await _act(p0, "same", move, v=0) == first
        assert await _act(p0, "same", "nonsense", v=7) == first
        tab = await Client.join(server.ws, room["room"], _token(room, 0))
        assert await _act(tab, "same", move, v=1) == first, "the seat's other tab too"
        assert _facts(server, room)["v"] == 1
        # Another seat's id of the same text is its own.
        await p1.until_v(1)
        own = await _act(p1, "same", p1.last["legal"][0], v=1)
        assert own == {"type": "ack", "id": "same", "v": 2}
        # A reject repeated, even once the same frame would be played.
        await p0.until_v(2)
        stale = await _act(p0, "late", p0.last["legal"][0], v=1)
        assert stale["code"] == "stale" and stale["v"] == 2
        assert await _act(p0, "late", p0.last["legal"][0], v=2) == stale
        assert _facts(server, room)["v"] == 2
        assert (await _act(p0, "later", p0.last["legal"][0], v=2))["v"] == 3
        assert await _act(p0, "late", "anything", v=3) == stale
        # After a reconnect the stored ack is still the answer.
        await p0.close()
        back = await Client.join(server.ws, room["room"], _token(room, 0))
        assert await _act(back, "same", move, v=3) == first
        await _until_idle(p1)
        assert [f["v"] for f in _snapshots(p1)] == [0, 1, 2, 3], "each version once"

    run(work)


def test_sockets_racing_one_version_get_one_ack_and_the_rest_stale(
    server: ServerProcess,
) -> None:
    """Seven sockets (three on seat 0, two on each other seat) act at once on the same
    version, each with a move that is legal there: a D'oh! on oneself (G13: at any time), and
    in the last round the seat to move throws from all of its sockets."""

    async def work() -> None:
        room, _ = await _room(server, "death", ["person"] * 3)
        seats = [0, 0, 0, 1, 1, 2, 2]
        racers = [await Client.join(server.ws, room["room"], _token(room, s)) for s in seats]
        drinks = [0, 0, 0]
        for rnd in range(3):
            v = rnd
            for r in racers:
                await r.until_v(v)
            frames = [
                {"type": "act", "id": f"r{rnd}.{i}", "v": v, "action": f"doh P{s + 1}"}
                for i, s in enumerate(seats)
            ]
            if rnd == 2:
                mover = next(r for r in racers if r.last["legal"])
                for i, r in enumerate(racers):
                    if r.last["seat"] == mover.last["seat"]:
                        frames[i]["action"] = mover.last["legal"][0]
            await asyncio.gather(*(r.send(f) for r, f in zip(racers, frames, strict=True)))
            answers = await asyncio.gather(
                *(r.answer(str(f["id"])) for r, f in zip(racers, frames, strict=True))
            )
            won = [i for i, a in enumerate(answers) if a["type"] == "ack"]
            assert len(won) == 1 and answers[won[0]]["v"] == v + 1, answers
            rest = [a for a in answers if a["type"] != "ack"]
            assert [a["code"] for a in rest] == ["stale"] * 6, rest
            assert {a["v"] for a in rest} == {v + 1}
            if str(frames[won[0]]["action"]).startswith("doh"):
                drinks[seats[won[0]]] += 1
        await asyncio.gather(*(_until_idle(r, 0.2) for r in racers))
        for r in racers:
            versions = [f["v"] for f in _snapshots(r)]
            assert versions == [0, 1, 2, 3], "every socket: each version once, none skipped"
            assert r.last["view"]["drinks_taken"] == drinks, "each winning move played once"
        assert _facts(server, room)["v"] == 3

    run(work)


def _at(client: Client, v: int) -> dict[str, Any]:
    """The snapshot this socket was sent at version ``v``."""
    (frame,) = [f for f in _snapshots(client) if f["v"] == v]
    return frame


def test_each_socket_gets_its_own_view_and_every_version_once(server: ServerProcess) -> None:
    """Two people (one with a second tab), a bot and a spectator over forty versions of the
    Game of Death."""

    async def work() -> None:
        room, c = await _room(server, "death", ["person", "person", "random"])
        tab = await Client.join(server.ws, room["room"], _token(room, 0))
        watcher = await Client.join(server.ws, room["room"], None)
        sockets = [c[0], c[1], tab, watcher]
        for step in range(60):
            v = watcher.last["v"]
            if v >= 40 and watcher.last["to_move"] in (0, 1):
                break
            for s in sockets:
                await s.until_v(v)
            mover = next((x for x in (c[0], c[1]) if x.last["legal"]), None)
            if mover is not None:
                answer = await _act(mover, f"m{step}", mover.last["legal"][-1], v=v)
                assert answer["type"] == "ack"
            await watcher.until_v(v + 1)
        final = watcher.last["v"]  # a person is to move: the room stays at this version
        assert final >= 40
        for s in sockets:
            await s.until_v(final)
        await asyncio.gather(*(_until_idle(s, 0.1) for s in sockets))
        for s in sockets:
            seat = s.last["seat"]
            frames = _snapshots(s)
            assert frames[0]["type"] == "welcome"
            assert all(f["type"] == "update" for f in frames[1:])
            versions = [f["v"] for f in frames]
            assert versions == list(range(versions[0], final + 1)), "no gap, no repeat"
            logged = [e["index"] for f in frames for e in f["log"]]
            assert logged == list(range(len(logged))), "every log entry once, in order"
            for f in frames:
                assert f["seat"] == seat and f["view"]["seat"] == seat
                if seat is None or f["to_move"] != seat or f["over"]:
                    assert f["legal"] == []
                else:
                    assert f["legal"], "the seat to move is given its moves"
                hand = f["view"].get("hand")
                if seat is None:
                    assert not hand
                else:
                    assert len(hand) == f["view"]["hand_sizes"][seat]
        assert c[1].last["view"]["hand"] != c[0].last["view"]["hand"]
        # Two sockets of one seat are sent the same thing at every version.
        mine = {f["v"]: f for f in _snapshots(c[0])}
        for f in _snapshots(tab):
            if f["v"] in mine:
                assert f["view"] == mine[f["v"]]["view"] and f["legal"] == mine[f["v"]]["legal"]

    run(work)


def test_a_reconnect_gets_the_whole_snapshot_again(server: ServerProcess) -> None:
    async def work() -> None:
        room, c = await _room(server, "death", ["person"] * 3)
        for step in range(10):
            for x in c.values():
                await x.until_v(step)
            mover = next(x for x in c.values() if x.last["legal"])
            assert (await _act(mover, f"m{step}", mover.last["legal"][0], v=step))["v"] == step + 1
        away = c[0]
        await away.until_v(10)
        seen = [e for f in _snapshots(away) for e in f["log"]]
        await away.close()
        for step in range(10, 13):  # the others play on while seat 0 is away, when they can
            for x in (c[1], c[2]):
                await x.until_v(step)
            playing = next((x for x in (c[1], c[2]) if x.last["legal"]), None)
            if playing is None:
                break
            await _act(playing, f"m{step}", playing.last["legal"][0], v=step)
        v = _facts(server, room)["v"]
        back = await Client.join(server.ws, room["room"], _token(room, 0), v=10)
        welcome = back.frames[0]
        assert welcome["type"] == "welcome" and welcome["seat"] == 0 and welcome["v"] == v
        assert welcome["view"]["seat"] == 0 and len(welcome["view"]["hand"]) > 0
        assert [e["index"] for e in welcome["log"]] == list(range(len(welcome["log"])))
        assert welcome["log"][: len(seen)] == seen, "the whole log again, as seat 0 saw it"
        assert bool(welcome["legal"]) == (welcome["to_move"] == 0)
        connected = {s["seat"]: s.get("connected") for s in welcome["seats"]}
        assert connected == {0: True, 1: True, 2: True}
        await _still_open(back, "alive")

    run(work)


# -- the HTTP API --------------------------------------------------------------------------------

_TWO = {
    "game": "beor",
    "players": 2,
    "seats": ["person", "person"],
    "options": {"natural_win": False},
}


@pytest.mark.parametrize(
    ("body", "status", "code", "says"),
    [
        ({"game": "chess", "players": 2, "seats": ["person"] * 2}, 400, "bad_option", "chess"),
        ({"players": 2, "seats": ["person"] * 2}, 400, "bad_option", ""),
        ({**_TWO, "players": 11}, 400, "bad_option", "players"),
        ({**_TWO, "players": "two"}, 400, "bad_option", "players"),
        ({**_TWO, "players": True}, 400, "bad_option", "players"),
        ({**_TWO, "seats": ["person"]}, 400, "bad_option", "seats"),
        ({**_TWO, "seats": ["person"] * 3}, 400, "bad_option", "seats"),
        ({**_TWO, "seats": "person"}, 400, "bad_option", "seats"),
        ({**_TWO, "seats": ["person", "wizard"]}, 400, "bad_option", "wizard"),
        ({**_TWO, "seats": ["person", "oracle"]}, 400, "bad_option", "oracle"),
        ({**_TWO, "seats": ["person", 3]}, 400, "bad_option", "seat 2"),
        ({**_TWO, "seats": ["person", "ismcts:100000000"]}, 400, "bad_option", "at most"),
        (
            {"game": "beggar", "players": 2, "seats": ["person", "heuristic"]},
            400,
            "bad_option",
            "bot",
        ),
        ({**_TWO, "names": ["Ann", "Bob\u202e"]}, 400, "bad_option", "U+202E"),
        ({**_TWO, "names": ["Ann", "B\u200fob"]}, 400, "bad_option", "U+200F"),
        ({**_TWO, "names": ["Ann\x07", "Bob"]}, 400, "bad_option", "U+0007"),
        ({**_TWO, "names": ["Ann", "B\nob"]}, 400, "bad_option", "U+000A"),
        ({**_TWO, "names": ["Ann", "x" * 25]}, 400, "bad_option", "24"),
        ({**_TWO, "names": ["Ann", "   "]}, 400, "bad_option", "name 2"),
        ({**_TWO, "names": ["Ann"]}, 400, "bad_option", "names"),
        ({**_TWO, "names": ["Ann", 5]}, 400, "bad_option", "name 2"),
        ({**_TWO, "options": {"max_turns": -1}}, 400, "bad_option", "max_turns"),
        ({**_TWO, "options": {"colour": "red"}}, 400, "bad_option", "colour"),
        ({**_TWO, "options": [1]}, 400, "bad_option", "options"),
        ({**_TWO, "colour": "red"}, 400, "bad_request", "colour"),
        ([1, 2], 400, "bad_request", "object"),
        ("beor", 400, "bad_request", "object"),
    ],
)
def test_room_creation_errors(
    server: ServerProcess, body: Any, status: int, code: str, says: str
) -> None:
    response = http_post(f"{server.url}/api/rooms", json=body, timeout=WAIT)
    assert response.status_code == status, response.text
    assert set(response.json()) == {"error"}
    error = response.json()["error"]
    assert set(error) == {"code", "message"}
    assert error["code"] == code and says in error["message"], error


def test_names_of_24_characters_are_kept_as_text(server: ServerProcess) -> None:
    names = ["x" * 24, "<b>Zoë</b> & Ünal"]
    room = create_room(server.url, {**_TWO, "names": names})
    facts = _facts(server, room)
    assert [s["name"] for s in facts["seats"]] == names
    assert [s["name"] for s in room["seats"]] == names


def test_bodies_that_are_no_json_or_too_big(server: ServerProcess) -> None:
    for raw in (b"{not json", b"", b"null", b"\xff\xfe", b'{"game": NaN}', b"[" * 5000):
        response = http_post(f"{server.url}/api/rooms", content=raw, timeout=WAIT)
        assert response.status_code == 400, raw
        assert response.json()["error"]["code"] == "bad_request"
    big = json.dumps({**_TWO, "names": ["a", "b"], "pad": "x" * 20_000}).encode()
    response = http_post(f"{server.url}/api/rooms", content=big, timeout=WAIT)
    assert response.status_code == 413 and response.json()["error"]["code"] == "too_large"


def test_unknown_rooms_and_records_that_wait_for_the_end(server: ServerProcess) -> None:
    for path in ("/api/rooms/nope", "/api/rooms/nope/record"):
        missing = http_get(f"{server.url}{path}", timeout=WAIT)
        assert missing.status_code == 404 and missing.json()["error"]["code"] == "not_found"
    room = create_room(server.url, {"game": "death", "players": 3, "seats": ["person"] * 3})
    waiting = http_get(f"{server.url}/api/rooms/{room['room']}/record", timeout=WAIT)
    assert waiting.status_code == 409 and waiting.json()["error"]["code"] == "not_over"
    for deal in ("1", "-1", "x", "٣", " 1", "9" * 5000, "0" * 4410 + "1"):
        bad = http_get(f"{server.url}/api/rooms/{room['room']}/record?deal={deal}")
        assert bad.status_code == 400 and bad.json()["error"]["code"] == "bad_request"
    facts = _facts(server, room)
    assert facts["v"] == 0 and facts["over"] is False and facts["game"] == "death"
    assert facts["commitment"] == room["commitment"] and facts["players"] == 3
    assert [s["kind"] for s in facts["seats"]] == ["person"] * 3
    assert [s["connected"] for s in facts["seats"]] == [False] * 3
    text = json.dumps(facts)
    assert "seed" not in text and "token" not in text and "hand" not in text
    assert all(s["token"] not in text for s in room["seats"])


def test_origins(tmp_path: Path) -> None:
    with running_server(tmp_path / "rooms.db", "--allow-origin", "https://example.org") as srv:
        own = srv.url
        for origin, status in (
            ("https://evil.example", 403),
            (f"{own}.evil.example", 403),
            ("https://example.org.evil.example", 403),
            ("null", 403),
            (own, 201),
            ("https://example.org", 201),
        ):
            response = http_post(
                f"{srv.url}/api/rooms", json=_TWO, headers={"origin": origin}, timeout=WAIT
            )
            assert response.status_code == status, (origin, response.text)
            if status == 403:
                assert response.json()["error"]["code"] == "forbidden_origin"
        room = create_room(srv.url, _TWO)

        async def work() -> None:
            for origin in ("https://evil.example", f"{own}.evil.example"):
                with pytest.raises(InvalidStatus) as refused:
                    await connect(f"{srv.ws}/ws/{room['room']}", origin=origin)  # type: ignore[arg-type]
                assert refused.value.response.status_code == 403
            for origin in (own, "https://example.org"):
                ws = await connect(f"{srv.ws}/ws/{room['room']}", origin=origin)  # type: ignore[arg-type]
                await ws.send(json.dumps({"type": "hello", "token": _token(room, 0), "v": 0}))
                welcome = json.loads(await asyncio.wait_for(ws.recv(), WAIT))
                assert welcome["type"] == "welcome" and welcome["seat"] == 0
                await ws.close()

        run(work)


def test_the_cap_on_open_rooms_per_client_address(tmp_path: Path) -> None:
    with running_server(tmp_path / "rooms.db", "--max-rooms", "3") as srv:
        # A room of bots plays to its end at once while someone watches (nobody there: no bot
        # moves, see tests/server/test_bot_fairness.py), and a finished room does not count.
        bots = create_room(srv.url, {"game": "beggar", "players": 2, "seats": ["bot", "bot"]})

        async def watch() -> None:
            watcher = await Client.join(srv.ws, bots["room"], None)
            while not watcher.last["over"]:
                await watcher.recv()
            await watcher.close()

        run(watch)
        assert _facts(srv, bots)["over"]
        rooms = [create_room(srv.url, _TWO) for _ in range(3)]
        assert len({r["room"] for r in rooms}) == 3
        refused = http_post(f"{srv.url}/api/rooms", json=_TWO, timeout=WAIT)
        assert refused.status_code == 429
        error = refused.json()["error"]
        assert error["code"] == "too_many_rooms" and "3" in error["message"]


# -- the Game of Death's table penalties (G13) and rematches (G12) -----------------------------


async def _at_rest(clients: list[Client], people: set[int]) -> int:
    """Wait until a person is to move (bots move on their own) and every socket has caught
    up: the room's version, which stays put until a person acts."""
    watcher = clients[0]
    for _ in range(100):
        if watcher.last["to_move"] in people or watcher.last["over"]:
            break
        await watcher.recv()
    v: int = watcher.last["v"]
    for c in clients:
        await c.until_v(v)
    return v


def test_death_table_penalties_and_votes(server: ServerProcess) -> None:
    """G13: "A player may always declare a D'oh! on himself; a penalty on another player needs
    a majority of the other players ... and bots vote no"."""

    async def work() -> None:
        room, c = await _room(server, "death", ["person", "person", "person", "heuristic"])
        watcher = await Client.join(server.ws, room["room"], None)
        everyone = [c[0], c[1], c[2], watcher]
        await _at_rest(everyone, {0, 1, 2})
        # D'oh! on himself: at once, one drink.
        before = c[0].last["view"]["drinks_taken"]
        doh = await _fresh(c[0], "doh", "doh P1")
        assert doh["type"] == "ack"
        for x in everyone:
            frame = await x.until_v(doh["v"])
            assert frame["v"] == doh["v"]
            assert frame["view"]["drinks_taken"] == [before[0] + 1, *before[1:]]
            table = [e for e in frame["log"] if e["kind"] == "table"]
            assert [e["text"] for e in table] == ["doh P1"] and table[0]["seat"] == 0
        # Delay of game on Player 3: a proposal every socket sees, the bot counted as no.
        proposal = await _act(c[0], "prop", "delay P3", v=doh["v"])
        assert proposal == {"type": "ack", "id": "prop", "v": doh["v"] + 1}
        pid = proposal["v"]
        for x in everyone:
            frame = await x.until_v(pid)
            assert frame["proposals"] == [
                {"proposal": pid, "entry": "delay P3", "by": 0, "target": 2, "yes": [0], "no": [3]}
            ]
            assert frame["view"]["drinks_taken"] == [before[0] + 1, *before[1:]]
        await c[2].send({"type": "vote", "id": "mine", "proposal": pid, "yes": False})
        refused = await c[2].answer("mine")
        assert refused["code"] == "illegal" and "(G13)" in refused["message"]
        assert refused["key"] == "refusal.vote.own"  # the ruling is the game's words
        await c[0].send({"type": "vote", "id": "twice", "proposal": pid, "yes": True})
        twice = await c[0].answer("twice")
        assert twice["code"] == "illegal" and twice["key"] == "refusal.vote.twice"
        assert twice["message"] == f"Player 1 has voted on proposal {pid} (G13)"
        assert twice["values"] == {"player": 1, "proposal": pid}
        await c[1].send({"type": "vote", "id": "yes", "proposal": pid, "yes": True})
        passed = await c[1].answer("yes")
        assert passed == {"type": "ack", "id": "yes", "v": pid + 1}
        for x in everyone:
            frame = await x.until_v(pid + 1)
            assert frame["proposals"] == []
            after = [before[0] + 1, before[1], before[2] + 1, before[3]]
            assert frame["view"]["drinks_taken"] == after
        await c[1].send({"type": "vote", "id": "late", "proposal": pid, "yes": True})
        assert (await c[1].answer("late"))["code"] == "illegal"
        # Delay on Player 2, and Player 3 says no: with the bot's no, no majority is left.
        second = await _act(c[0], "prop2", "delay P2", v=pid + 1)
        assert second["type"] == "ack"
        await c[2].until_v(second["v"])
        await c[2].send({"type": "vote", "id": "no", "proposal": second["v"], "yes": False})
        dropped = await c[2].answer("no")
        assert dropped["type"] == "ack"
        for x in everyone:
            frame = await x.until_v(dropped["v"])
            assert frame["proposals"] == []
            assert frame["view"]["drinks_taken"][1] == before[1]
        assert _facts(server, room)["v"] == dropped["v"]

    run(work)


def test_against_bots_a_person_can_only_penalise_himself(server: ServerProcess) -> None:
    async def work() -> None:
        # Three players, one a bot: the proposer's yes against the bot's no is no majority.
        _, c = await _room(server, "death", ["person", "person", "random"])
        await _at_rest([c[0], c[1]], {0, 1})
        before = c[0].last["view"]["drinks_taken"]
        answer = await _fresh(c[0], "p", "delay P2")
        assert answer["type"] == "ack"
        frame = await c[1].until_v(answer["v"])
        assert frame["proposals"] == [] and frame["view"]["drinks_taken"] == before
        # Two players: there is nobody to vote.
        _, two = await _room(server, "death", ["person", "person"])
        refused = await _act(two[0], "p", "doh P2", v=0)
        assert refused["code"] == "illegal" and "(G13)" in refused["message"]
        assert refused["key"] == "refusal.vote.alone" and refused["values"] == {"player": 1}

    run(work)


def test_a_penalty_on_nobody_at_the_table_is_refused(server: ServerProcess) -> None:
    """It was once a proposal: voted through, the rules refused it after the vote was stored
    and the room refused every later request (and answered 500 after a restart)."""

    async def work() -> None:
        room, c = await _room(server, "death", ["person"] * 3)
        for entry in ("doh P9", "delay P4"):
            answer = await _act(c[0], entry, entry, v=0)
            assert answer["code"] == "illegal" and answer["v"] == 0, answer
            nobody = f"there is no Player {entry[-1]}: the players are 1 to 3 (G13)"
            assert answer["message"] == nobody
        assert (await _act(c[1], "own", "doh P2", v=0)) == {"type": "ack", "id": "own", "v": 1}
        assert _facts(server, room)["v"] == 1 and c[0].last["proposals"] == []

    run(work)


def test_a_new_room_gives_its_people_the_whole_takeover_time(tmp_path: Path) -> None:
    """Absence once counted from the server's start: on a server up longer than --takeover,
    the bot played a new room's people before they could open their links."""
    with running_server(tmp_path / "rooms.db", "--takeover", "2") as srv:
        time.sleep(2.1)  # the server is now up longer than the takeover time
        made = time.monotonic()  # before the room is made: a slow answer cannot shorten it
        room = create_room(srv.url, {"game": "beggar", "players": 2, "seats": ["person"] * 2})

        async def watch() -> float:
            # A spectator watches (with nobody connected no bot moves at all): after the
            # takeover time, and not before, the bot plays for the people.
            watcher = await Client.join(srv.ws, room["room"], None)
            await watcher.until_v(1)
            moved = time.monotonic()
            await watcher.close()
            return moved

        moved = asyncio.run(asyncio.wait_for(watch(), 60))
        assert moved - made >= 1.9, "nobody has had the time to open an invite link"


async def _play_deal(clients: dict[int, Client], tag: str, limit: int = 3000) -> dict[str, Any]:
    """Play the deal to its end, each person taking his first legal move; the last frame."""
    people = list(clients.values())
    for step in range(limit):
        v = max(p.last["v"] for p in people)
        for p in people:
            await p.until_v(v)
        if people[0].last["over"]:
            return people[0].last
        mover = next((p for p in people if p.last["legal"]), None)
        if mover is not None:
            await _act(mover, f"{tag}{step}", mover.last["legal"][0], v=v)
        for p in people:
            await p.until_v(v + 1)
    raise AssertionError("the deal should have ended")


def test_a_rematch_deals_again_moves_the_dealer_and_keeps_the_totals(
    server: ServerProcess,
) -> None:
    async def work() -> None:
        room, c = await _room(server, "death", ["person", "person", "random"])
        url = f"{server.url}/api/rooms/{room['room']}/record"
        start0 = c[0].frames[0]
        assert start0["view"]["hand_sizes"][(dealer_of(3, 0) + 1) % 3] == 18
        end0 = await _play_deal(c, "a")
        assert (
            end0["deal"] == 0
            and end0["over"]
            and end0["match"]["deals"] == [{"deal": 0, **end0["outcome"]}]
        )
        v0 = end0["v"]
        ask = await _act(c[0], "x", "2D", v=v0)
        assert ask["code"] == "game_over"
        await c[0].send({"type": "rematch", "id": "r0"})
        assert await c[0].answer("r0") == {"type": "ack", "id": "r0", "v": v0 + 1}
        await c[0].send({"type": "rematch", "id": "r0b"})
        assert (await c[0].answer("r0b"))["code"] == "illegal"
        waiting = await c[1].until_v(v0 + 1)
        assert waiting["rematch"] == [0] and waiting["deal"] == 0 and waiting["over"]
        await c[1].send({"type": "rematch", "id": "r1"})
        assert await c[1].answer("r1") == {"type": "ack", "id": "r1", "v": v0 + 2}
        for x in c.values():
            await x.until_v(v0 + 2)
            fresh = _at(x, v0 + 2)
            assert fresh["v"] == v0 + 2 and fresh["deal"] == 1 and not fresh["over"]
            assert fresh["commitment"] != room["commitment"] and fresh["rematch"] == []
            assert fresh["log"][0]["index"] == 0 and fresh["match"] == end0["match"]
            sizes = fresh["view"]["hand_sizes"]
            assert sizes[(dealer_of(3, 1) + 1) % 3] == 18 and sorted(sizes) == [17, 17, 18]
            versions = [f["v"] for f in _snapshots(x)]
            assert versions == list(range(versions[0], versions[-1] + 1))
        start1 = _at(c[0], v0 + 2)
        commit1 = start1["commitment"]
        # The first deal's record, while the second runs.
        first = http_get(f"{url}?deal=0", timeout=WAIT)
        assert first.status_code == 200
        record0 = first.json()
        assert record0["deal_number"] == 0 and record0["commitment"] == room["commitment"]
        assert commitment(record0["seed"]) == room["commitment"]
        _, states = replay_json(record0)
        assert states[-1].outcome is not None
        assert states[-1].outcome.to_json() == end0["outcome"]
        assert http_get(url, timeout=WAIT).json()["error"]["code"] == "not_over"
        facts = _facts(server, room)
        assert facts["deal"] == 1 and facts["commitment"] == commit1
        assert facts["match"] == end0["match"]
        # Play the second deal out: it was dealt from the left of the next dealer (G12).
        end1 = await _play_deal(c, "b")
        record1 = http_get(url, timeout=WAIT).json()
        assert record1["deal_number"] == 1 and commitment(record1["seed"]) == commit1
        hands = match_deal(3, record1["seed"], 1)["hands"]
        assert sorted(start1["view"]["hand"]) == sorted(hands[0])
        holder = next(s for s, h in enumerate(hands) if "2D" in h)
        assert start1["to_move"] == holder, "the holder of 2D throws first (G1)"
        pairs = zip(end0["outcome"]["scores"], end1["outcome"]["scores"], strict=True)
        scores = [a + b for a, b in pairs]
        assert end1["match"]["scores"] == scores and len(end1["match"]["deals"]) == 2
        assert http_get(f"{url}?deal=0", timeout=WAIT).json() == record0
        versions = [f["v"] for f in _snapshots(c[1])]
        assert versions == list(range(versions[0], versions[-1] + 1))

    run(work, 90)


# -- the command -------------------------------------------------------------------------------


def test_serve_prints_its_address_and_stops_cleanly_on_ctrl_c(
    tmp_path: Path, server: ServerProcess
) -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "parlour", "serve", "--port", "0", "--db",
         str(tmp_path / "rooms.db"), "--quiet"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        match = re.fullmatch(r"Parlour is serving at http://127\.0\.0\.1:(\d+)/\n", line)
        assert match, line
        url = f"http://127.0.0.1:{match.group(1)}"
        for _ in range(200):
            try:
                http_get(f"{url}/api/games", timeout=2)
                break
            except httpx.HTTPError:
                time.sleep(0.05)
        room = create_room(url, _TWO)

        async def work() -> None:
            client = await Client.join(url.replace("http", "ws", 1), room["room"], _token(room, 0))
            proc.send_signal(signal.SIGINT)
            assert await _close_code(client.ws) in (1001, 1012)

        run(work)
        out, err = proc.communicate(timeout=WAIT)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate(timeout=WAIT)
    assert proc.returncode == 0, err
    assert "Traceback" not in err and out == ""
    # The port is taken (by the module's server): one line on stderr, exit status 2.
    busy = subprocess.run(
        [sys.executable, "-m", "parlour", "serve", "--port", str(server.port), "--db",
         str(tmp_path / "other.db")],
        capture_output=True, text=True, timeout=WAIT,
    )  # fmt: skip
    assert busy.returncode == 2 and busy.stdout == ""
    assert busy.stderr.count("\n") == 1, busy.stderr
    assert f"cannot listen on 127.0.0.1 port {server.port}" in busy.stderr
