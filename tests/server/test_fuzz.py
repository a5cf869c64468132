"""Hypothesis throws hostile frames at a real ``parlour serve``, as the first frame and after a
valid hello: bad JSON, frames of up to 64 KiB, deep nesting, NaN and Infinity, integers of
thousands of digits in ``v``, ``id`` and ``proposal``, unknown types, fields of the wrong type,
binary frames, random text with NUL and lone surrogates, well-formed acts with garbage moves.

Each frame's fate is worked out here from the protocol alone (the oracle), and the server must
match it exactly: the reject code, the echoed id, the close code where the protocol closes the
socket (1003 binary, 1008 a first frame that is no hello, 1009 over 4 KiB, 4401 a token of no
seat) and an open, answering socket everywhere else. The server keeps serving fresh clients,
a socket that never says hello is closed with 4408, room bodies never get a 5xx, and the
server's stderr holds no traceback when it stops."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection as SyncConnection
from websockets.sync.client import connect as sync_connect

from parlour.server.protocol import MAX_FRAME, REJECT_CODES
from tests.server.client import WAIT, Client, ServerProcess, create_room, http_post

_HELLO_TIMEOUT = 10.0
"""The server's time for a hello (``Settings.hello_timeout``)."""

_FUZZ = settings(
    max_examples=100,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


@dataclass
class Served:
    server: ServerProcess
    room: dict[str, Any]
    idle: SyncConnection
    idle_since: float


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    db = tmp_path_factory.mktemp("fuzz") / "rooms.db"
    server = ServerProcess(db, "--max-rooms", "100000").start()
    try:
        room = create_room(server.url, {"game": "death", "players": 3, "seats": ["person"] * 3})
        # A socket that never says hello, checked at the end of the module (4408).
        with sync_connect(f"{server.ws}/ws/{room['room']}", open_timeout=WAIT) as idle:
            yield Served(server, room, idle, time.monotonic())
    finally:
        if server.proc is not None and server.proc.returncode is None:
            server.stop()


# -- strategies ---------------------------------------------------------------------------------

_surrogates = st.integers(0xD800, 0xDFFF).map(chr)
_any_text = st.text(
    st.characters(codec=None, exclude_categories=()) | _surrogates | st.just("\x00"),
    max_size=30,
)
"""Any code points, NUL and lone surrogates included (sent JSON-escaped)."""
_raw_text = st.text(st.characters(exclude_categories=["Cs"]) | st.just("\x00"), max_size=200)
"""Text a websocket frame can carry as it is (no lone surrogates)."""
_numbers = (
    st.integers()
    | st.integers(-(2**80), 2**80)
    | st.floats()
    | st.sampled_from([0, 1, -1, 2**53, 2**53 - 1, True, False])
)
_json: st.SearchStrategy[Any] = st.recursive(
    st.none() | st.booleans() | _numbers | _any_text,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_any_text, inner, max_size=4),
    max_leaves=10,
)
_ids = st.text(min_size=1, max_size=64) | st.integers(-(2**53) + 1, 2**53 - 1) | _json
_actions = (
    st.sampled_from(
        ["2D", "AS", "pass", "give 1>P2", "doh P1", "delay P2", "doh P9", "illegal 7H", "play"]
    )
    | st.text(max_size=20)
    | st.text(min_size=190, max_size=210)
    | _json
)


def _deep(n: int) -> str:
    return "[" * n + "]" * n


@st.composite
def _frames(draw: st.DrawFn) -> str | bytes:
    kind = draw(st.integers(0, 11))
    if kind == 0:  # an object of the protocol's fields, each of any type
        obj: dict[str, Any] = {
            "type": draw(
                st.sampled_from(["hello", "act", "vote", "rematch", "welcome", "ack", "", "ACT"])
                | _any_text
                | _json
            )
        }
        for name, values in (
            ("id", _ids),
            ("v", st.integers(0, 3) | _numbers | _json),
            ("action", _actions),
            ("token", st.none() | st.text(max_size=50) | _json),
            ("proposal", st.integers(0, 5) | _numbers | _json),
            ("yes", st.booleans() | _json),
        ):
            if draw(st.booleans()):
                obj[name] = draw(values)
        return json.dumps(obj)
    if kind == 1:  # well-formed requests with garbage in them
        obj = draw(
            st.fixed_dictionaries(
                {
                    "type": st.sampled_from(["act", "vote", "rematch"]),
                    "id": st.text(min_size=1, max_size=64) | st.integers(0, 2**53 - 1),
                    "v": st.integers(0, 2),
                    "action": _actions,
                    "proposal": st.integers(-5, 5),
                    "yes": st.booleans(),
                }
            )
        )
        return json.dumps(obj)
    if kind == 2:
        return json.dumps(draw(_json))
    if kind == 3:
        return draw(_raw_text)
    if kind == 4:  # deep nesting, alone or as a field
        depth = draw(st.sampled_from([1, 30, 1500, 2000, 3000]))
        inner = _deep(depth) if depth <= 2000 else "[" * depth
        return draw(
            st.sampled_from(
                [
                    inner,
                    '{"type": "act", "id": "d", "v": 0, "action": ' + inner + "}",
                    '{"type": "vote", "id": "d", "proposal": ' + inner + ', "yes": true}',
                ]
            )
        )
    if kind == 5:  # integers thousands of digits long (over 4,300 they are no JSON to Python)
        digits = "9" * draw(st.integers(4000, 4400))
        field = draw(st.sampled_from(["v", "id", "proposal"]))
        base = {"type": draw(st.sampled_from(["act", "vote"])), "id": "n", "v": 0, "action": "2D"}
        base |= {"proposal": 1, "yes": True}
        text = json.dumps({**base, field: 0})
        return text.replace(f'"{field}": 0', f'"{field}": {digits}', 1)
    if kind == 6:  # NaN and Infinity, which Python writes and JSON has not
        value = draw(st.sampled_from(["NaN", "Infinity", "-Infinity", "1e400", "-1e400"]))
        field = draw(st.sampled_from(["v", "id", "proposal", "yes", "token"]))
        return '{"type": "act", "id": "c", "v": 0, "action": "2D", "' + field + '": ' + value + "}"
    if kind == 7:  # frames around and far over 4 KiB
        size = draw(st.integers(MAX_FRAME - 60, MAX_FRAME + 60) | st.integers(5_000, 65_536))
        text = json.dumps({"type": "act", "id": "big", "v": 0, "action": ""})
        pad = draw(st.sampled_from(["x", "é", "€", "\U0001f0a1"]))
        return text.replace('"action": ""', '"action": "' + pad * max(0, size - len(text)) + '"')
    if kind == 8:
        return draw(st.binary(max_size=200))
    if kind == 9:  # a hello, right or wrong
        token = draw(st.none() | st.text(max_size=60) | _json)
        extra = draw(st.dictionaries(st.sampled_from(["v", "id", "x"]), _json, max_size=2))
        return json.dumps({"type": "hello", "token": token, **extra})
    if kind == 10:  # JSON text broken in places
        text = json.dumps(draw(_json | st.just({"type": "act", "v": 0})))
        cut = draw(st.integers(0, len(text)))
        return text[:cut] + draw(st.sampled_from(["", "}", "{", ",", '"', "\\", "\\u12"]))
    return draw(st.sampled_from(["", " ", "null", "{}", "[]", '""', "0", "true", "{]"]))


# -- the oracle -----------------------------------------------------------------------------------


def _no_constant(name: str) -> Any:
    raise ValueError(name)


def _depth(text: str) -> int:
    """How deeply the JSON text's arrays and objects nest (brackets in strings not counted)."""
    depth = deepest = 0
    quoted = escaped = False
    for ch in text:
        if quoted:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                quoted = False
        elif ch == '"':
            quoted = True
        elif ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
    return deepest


def _parse(frame: str) -> dict[str, Any] | None:
    """The frame as the protocol reads it; None where it is no frame (``bad_message``).
    Python's parser refuses nesting about 1,000 deep (its recursion limit, which hypothesis
    raises in this process, so the depth is counted here); frames nest 30 or 1,500 deep."""
    if _depth(frame) >= 1000:
        return None
    try:
        obj = json.loads(frame, parse_constant=_no_constant)
    except (ValueError, RecursionError):
        return None
    if not isinstance(obj, dict) or not isinstance(obj.get("type"), str):
        return None
    try:
        json.dumps(obj, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate
        return None
    except (ValueError, RecursionError):
        pass
    return obj


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 2**53


def _client_id(obj: dict[str, Any]) -> tuple[bool, str | None]:
    value = obj.get("id")
    if value is None:
        return True, None
    if isinstance(value, str) and 0 < len(value) <= 64:
        return True, value
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) < 2**53:
        return True, str(value)
    return False, None


@dataclass(frozen=True)
class Fate:
    """What the server must do with a frame: its answer (``welcome``, ``ack`` or a reject
    code; several where the game decides), the id it echoes and its close code (None: the
    socket stays open)."""

    answers: frozenset[str]
    cid: str | None
    close: int | None


def _fate_first(frame: str | bytes) -> Fate:
    if isinstance(frame, bytes):
        return Fate(frozenset({"bad_message"}), None, 1003)
    if len(frame.encode("utf-8")) > MAX_FRAME:
        return Fate(frozenset({"too_large"}), None, 1009)
    obj = _parse(frame)
    if obj is None or obj["type"] != "hello":
        return Fate(frozenset({"bad_message"}), None, 1008)
    token = obj.get("token")
    if token is None:
        return Fate(frozenset({"welcome"}), None, None)
    if not isinstance(token, str):
        return Fate(frozenset({"bad_message"}), None, 1008)
    return Fate(frozenset({"unauthorized"}), None, 4401)


def _fate_after_hello(frame: str | bytes, v: int) -> Fate:
    """The fate of a frame from seat 0 of a fresh Game of Death room at version ``v``, which
    has no proposal open and is not over."""
    if isinstance(frame, bytes):
        return Fate(frozenset({"bad_message"}), None, 1003)
    if len(frame.encode("utf-8")) > MAX_FRAME:
        return Fate(frozenset({"too_large"}), None, 1009)
    obj = _parse(frame)
    if obj is None:
        return Fate(frozenset({"bad_message"}), None, None)
    fine, cid = _client_id(obj)
    if not fine:
        return Fate(frozenset({"bad_message"}), None, None)
    kind = obj["type"]
    bad = Fate(frozenset({"bad_message"}), cid, None)
    if kind == "act":
        action = obj.get("action")
        if not _whole(obj.get("v")) or not isinstance(action, str) or not 0 < len(action) <= 200:
            return bad
        if obj["v"] != v:
            return Fate(frozenset({"stale"}), cid, None)
        return Fate(frozenset({"ack", "not_your_turn", "illegal", "bad_notation"}), cid, None)
    if kind == "vote":
        proposal, yes = obj.get("proposal"), obj.get("yes")
        if isinstance(proposal, bool) or not isinstance(proposal, int):
            return bad
        if not isinstance(yes, bool):
            return bad
        return Fate(frozenset({"illegal"}), cid, None)  # no proposal is open
    if kind == "rematch":
        return Fate(frozenset({"illegal"}), cid, None)  # the game is not over
    return bad


# -- talking to the server ----------------------------------------------------------------------


async def _next_answer(ws: ClientConnection) -> dict[str, Any]:
    """The next frame that answers a request (presence frames skipped)."""
    for _ in range(20):
        frame: dict[str, Any] = json.loads(await asyncio.wait_for(ws.recv(), WAIT))
        if frame["type"] in ("welcome", "ack", "reject"):
            return frame
    raise AssertionError("no answer")


async def _close_or_probe(ws: ClientConnection) -> int | None:
    """The close code the server sends next; or None when the socket stays open and a probe
    frame sent now is answered."""
    try:
        await ws.send(json.dumps({"type": "vote", "id": "probe", "proposal": 0, "yes": True}))
        for _ in range(20):
            frame = json.loads(await asyncio.wait_for(ws.recv(), WAIT))
            if frame.get("id") == "probe":
                assert frame["type"] == "reject" and frame["code"] in ("illegal", "unauthorized")
                return None
    except ConnectionClosed as closed:
        return None if closed.rcvd is None else closed.rcvd.code
    raise AssertionError("the probe was not answered")


def _check(answer: dict[str, Any], fate: Fate, frame: str | bytes) -> None:
    got = answer["type"] if answer["type"] != "reject" else answer["code"]
    assert got in fate.answers, (frame[:300], answer, fate)
    if answer["type"] == "reject":
        assert answer["code"] in REJECT_CODES
        # key and values name the refusal's sentence in the game's words, where it has one.
        assert set(answer) - {"key", "values"} == {"type", "id", "code", "message", "v"}
        assert ("key" in answer) == ("values" in answer), answer
        if "key" in answer:
            assert answer["key"].startswith("refusal.") and isinstance(answer["values"], dict)
        assert isinstance(answer["message"], str) and answer["message"]
    if answer["type"] in ("ack", "reject"):
        assert answer["id"] == fate.cid, (frame[:300], answer, fate)


async def _first_frame(served: Served, frame: str | bytes) -> None:
    fate = _fate_first(frame)
    ws = await connect(f"{served.server.ws}/ws/{served.room['room']}", max_size=None)
    try:
        await ws.send(frame)
        try:
            answer = await _next_answer(ws)
        except ConnectionClosed as closed:
            raise AssertionError(f"closed with no answer: {closed}") from None
        _check(answer, fate, frame)
        assert answer["v"] == 0
        if answer["type"] == "welcome":
            assert answer["seat"] is None and answer["legal"] == []
        assert await _close_or_probe(ws) == fate.close
    finally:
        await ws.close()


async def _after_hello(served: Served, frame: str | bytes) -> None:
    # A fresh room per example: a repeated client id would otherwise get an older answer.
    room = create_room(served.server.url, {"game": "death", "players": 3, "seats": ["person"] * 3})
    client = await Client.join(served.server.ws, room["room"], room["seats"][0]["token"])
    v = client.last["v"]
    fate = _fate_after_hello(frame, v)
    try:
        await client.ws.send(frame)
        try:
            answer = await _next_answer(client.ws)
        except ConnectionClosed as closed:
            raise AssertionError(f"closed with no answer: {closed}") from None
        _check(answer, fate, frame)
        if answer["type"] == "ack":
            assert answer["v"] == v + 1
        else:
            assert answer["v"] == v
        assert await _close_or_probe(client.ws) == fate.close
    finally:
        await client.close()


# -- the tests ------------------------------------------------------------------------------------


@_FUZZ
@given(frame=_frames())
def test_hostile_first_frames(served: Served, frame: str | bytes) -> None:
    asyncio.run(asyncio.wait_for(_first_frame(served, frame), 60))


@_FUZZ
@given(frame=_frames())
def test_hostile_frames_after_a_hello(served: Served, frame: str | bytes) -> None:
    asyncio.run(asyncio.wait_for(_after_hello(served, frame), 60))


@settings(
    max_examples=120,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    body=st.one_of(
        _json,
        st.fixed_dictionaries(
            {"game": st.sampled_from(["beor", "death", "beggar", "BEOR", "x"]) | _json},
            optional={
                "players": st.integers(-3, 12) | _json,
                "seats": st.lists(
                    st.sampled_from(["person", "bot", "random", "heuristic", "oracle"])
                    | st.sampled_from(["ismcts", "ismcts:5", "ismcts:0.1s", "ismcts:10:random"])
                    | _any_text,
                    max_size=11,
                )
                | _json,
                "options": st.dictionaries(
                    st.sampled_from(["max_turns", "sober", "natural_win", "card_limit", "x"]),
                    _json,
                    max_size=3,
                )
                | _json,
                "names": st.lists(_any_text, max_size=11) | _json,
                "extra": _json,
            },
        ),
    ),
    raw=st.booleans(),
)
def test_hostile_room_bodies_never_get_a_5xx(served: Served, body: Any, raw: bool) -> None:
    url = f"{served.server.url}/api/rooms"
    if raw:  # as text, where lone surrogates are escaped, and NaN written as Python does
        content = json.dumps(body).encode()
    else:  # as UTF-8, where a lone surrogate is bytes that are no UTF-8
        content = json.dumps(body, ensure_ascii=False).encode("utf-8", "surrogatepass")
    response = http_post(url, content=content, timeout=WAIT)
    assert response.status_code in (201, 400), (body, response.text)
    answer = response.json()
    if response.status_code == 201:
        assert set(answer) == {"room", "commitment", "seats", "spectate", "spectate_qr"}
    else:
        assert set(answer) == {"error"} and set(answer["error"]) == {"code", "message"}
        assert answer["error"]["code"] in ("bad_request", "bad_option")


def test_the_server_still_serves_a_fresh_client(served: Served) -> None:
    assert served.server.proc is not None and served.server.proc.poll() is None

    async def work() -> None:
        body = {"game": "beggar", "players": 2, "seats": ["person"] * 2}
        room = create_room(served.server.url, body)
        client = await Client.join(served.server.ws, room["room"], room["seats"][0]["token"])
        await client.send({"type": "act", "id": "after", "v": 0, "action": "play"})
        assert await client.answer("after") == {"type": "ack", "id": "after", "v": 1}
        await client.close()

    asyncio.run(asyncio.wait_for(work(), 60))


def test_a_socket_without_a_hello_is_closed_4408(served: Served) -> None:
    waited = time.monotonic() - served.idle_since
    with pytest.raises(ConnectionClosed) as closed:
        served.idle.recv(timeout=max(0.0, _HELLO_TIMEOUT - waited) + WAIT)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4408
    assert time.monotonic() - served.idle_since >= _HELLO_TIMEOUT - 0.5


def test_no_traceback_when_the_server_stops(served: Served) -> None:
    code, err = served.server.stop()
    assert code == 0, err
    assert "Traceback" not in err and "Exception" not in err, err
