"""Hypothesis throws hostile frames at a real server, before and after a hello: bad JSON, 64 KiB
frames, deep nesting, NaN, integers thousands of digits long, unknown types, wrong field types,
binary frames. The server answers a JSON reject with one of the protocol's codes, closes with the
documented close code exactly where it must and stays open otherwise, keeps serving, and never
writes a traceback. Room creation bodies are fuzzed too: never a 5xx."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from parlour.server.protocol import MAX_FRAME, REJECT_CODES
from tests.server.client import WAIT, Client, ServerProcess, create_room, running_server

_json = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
_types = st.sampled_from(["hello", "act", "vote", "rematch", "welcome", "", "ACT", "x" * 60])
_fields = st.fixed_dictionaries(
    {"type": _types},
    optional={
        "id": _json,
        "v": st.integers(-(2**70), 2**70) | _json,
        "action": st.text(max_size=30) | _json,
        "token": st.text(max_size=50) | st.none() | _json,
        "proposal": _json,
        "yes": _json,
    },
).map(json.dumps)
_text = st.text(st.characters(exclude_categories=["Cs"]), max_size=200)
_frames = st.one_of(
    _fields,
    _json.map(json.dumps),
    _text,
    st.integers(1, 3000).map(lambda n: "[" * n + "]" * n),
    st.integers(4000, 4200).map(lambda n: '{"type": "act", "id": 1, "v": ' + "9" * n + "}"),
    st.sampled_from(
        ['{"type": "act", "v": NaN}', '{"type": "vote", "yes": Infinity}', "-Infinity"]
    ),
    st.integers(MAX_FRAME - 20, 65_536).map(
        lambda n: json.dumps({"type": "act", "action": "x" * n})
    ),
    st.binary(max_size=100),
)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    db = tmp_path_factory.mktemp("fuzz") / "rooms.db"
    with running_server(db, "--max-rooms", "10000") as running:
        yield running
        _, err = running.stop()
        assert "Traceback" not in err, err


@pytest.fixture(scope="module")
def room(server: ServerProcess) -> dict[str, Any]:
    return create_room(server.url, {"game": "death", "players": 3, "seats": ["person"] * 3})


async def _closed_with(ws: ClientConnection) -> int | None:
    """The close code the server sends next, or None if the socket stays open (a probe frame
    is then answered)."""
    try:
        await ws.send(json.dumps({"type": "vote", "id": "probe", "proposal": 0, "yes": True}))
        for _ in range(10):
            frame = json.loads(await asyncio.wait_for(ws.recv(), WAIT))
            if frame.get("id") == "probe":
                return None
    except ConnectionClosed as closed:
        return None if closed.rcvd is None else closed.rcvd.code
    raise AssertionError("the probe was not answered")


def _size(frame: str | bytes) -> int:
    return len(frame) if isinstance(frame, bytes) else len(frame.encode())


async def _first_frame(server: ServerProcess, room: dict[str, Any], frame: str | bytes) -> None:
    ws = await connect(f"{server.ws}/ws/{room['room']}", max_size=None)
    try:
        await ws.send(frame)
        try:
            answer = json.loads(await asyncio.wait_for(ws.recv(), WAIT))
        except ConnectionClosed as closed:
            raise AssertionError(f"closed without a reject: {closed}") from None
        if answer["type"] == "welcome":  # a spectator's hello
            assert json.loads(frame).get("token") is None
            assert await _closed_with(ws) is None
            return
        assert answer["type"] == "reject" and answer["code"] in REJECT_CODES, answer
        code = await _closed_with(ws)
        if isinstance(frame, bytes):
            assert code == 1003
        elif _size(frame) > MAX_FRAME:
            assert answer["code"] == "too_large" and code == 1009
        elif answer["code"] == "unauthorized":
            assert code == 4401
        else:
            assert answer["code"] == "bad_message" and code == 1008
    finally:
        await ws.close()


async def _after_hello(server: ServerProcess, room: dict[str, Any], frame: str | bytes) -> None:
    client = await Client.join(server.ws, room["room"], room["seats"][0]["token"])
    ws = client.ws
    try:
        await ws.send(frame)
        answer: dict[str, Any] = {}
        try:
            for _ in range(20):
                answer = json.loads(await asyncio.wait_for(ws.recv(), WAIT))
                if answer["type"] in ("reject", "ack"):
                    break
        except ConnectionClosed as closed:
            raise AssertionError(f"closed without a reject: {closed}") from None
        assert answer["type"] in ("reject", "ack"), answer
        if answer["type"] == "reject":
            assert answer["code"] in REJECT_CODES
        code = await _closed_with(ws)
        if isinstance(frame, bytes):
            assert code == 1003
        elif _size(frame) > MAX_FRAME:
            assert answer["code"] == "too_large" and code == 1009
        else:
            assert code is None, f"closed with {code} after {answer}"
    finally:
        await ws.close()


@settings(
    max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(frame=_frames)
def test_hostile_first_frames(
    server: ServerProcess, room: dict[str, Any], frame: str | bytes
) -> None:
    asyncio.run(asyncio.wait_for(_first_frame(server, room, frame), 60))


@settings(
    max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(frame=_frames)
def test_hostile_frames_after_a_hello(
    server: ServerProcess, room: dict[str, Any], frame: str | bytes
) -> None:
    asyncio.run(asyncio.wait_for(_after_hello(server, room, frame), 60))


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    body=_json
    | st.fixed_dictionaries(
        {"game": st.sampled_from(["beor", "death", "beggar", "x"])},
        optional={"players": _json, "seats": _json, "options": _json, "names": _json},
    )
)
def test_hostile_room_bodies_never_break_the_server(server: ServerProcess, body: Any) -> None:
    # Sent as Python writes it, Infinity included, which is not JSON: refused, never a 5xx.
    response = httpx.post(f"{server.url}/api/rooms", content=json.dumps(body), timeout=WAIT)
    assert response.status_code < 500, response.text
    if response.status_code != 201:
        error = response.json()["error"]
        assert error["code"] and error["message"]


def test_the_server_still_serves_after_the_fuzzing(
    server: ServerProcess, room: dict[str, Any]
) -> None:
    async def work() -> None:
        client = await Client.join(server.ws, room["room"], None)
        assert client.last["type"] == "welcome" and client.last["v"] >= 0
        await client.close()

    asyncio.run(work())
