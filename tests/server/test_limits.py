"""Memory a client can make a real ``parlour serve`` hold (issue 27, point 1): a request body is
refused as it streams past the limit, not read whole first; an unknown room id, however long,
leaves nothing behind, and a room's lock is kept only while it is used.

Each case runs against a real server process, and the server's resident memory (VmRSS, read
from /proc) is compared before and after."""

from __future__ import annotations

import asyncio
import base64
import json
import random
import selectors
import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from parlour.server.locks import RoomLocks
from tests.server.client import (
    WAIT,
    Client,
    ServerProcess,
    create_room,
    http_get,
    http_post,
    running_server,
)

MiB = 1 << 20
_HUGE = 64 * MiB
"""The body a client tries to send: 4,096 times the limit (16 KiB)."""
_CHUNK = 64 * 1024


def _rss(pid: int) -> int:
    """The resident memory of process ``pid`` in bytes (VmRSS)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    raise AssertionError(f"no VmRSS for {pid}")


def _pid(server: ServerProcess) -> int:
    assert server.proc is not None
    return server.proc.pid


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    with running_server(tmp_path_factory.mktemp("limits") / "rooms.db") as process:
        yield process


def _chunks() -> Iterator[bytes]:
    """A JSON body of :data:`_HUGE` bytes in HTTP/1.1 chunks, made as they are sent."""
    start = b'{"game": "death", "pad": "'
    yield b"%x\r\n%s\r\n" % (len(start), start)
    piece = b"x" * _CHUNK
    for _ in range(_HUGE // _CHUNK):
        yield b"%x\r\n%s\r\n" % (len(piece), piece)
    yield b'2\r\n"}\r\n0\r\n\r\n'


def _upload(server: ServerProcess, head: bytes, body: Iterator[bytes]) -> tuple[bytes, int]:
    """Send ``head`` then ``body`` to the server, reading its answer all the while: the answer
    (what came before the server closed the connection) and the bytes of the body sent by
    then. Sending stops at the first byte of an answer, or when the server closed."""
    sock = socket.create_connection(("127.0.0.1", server.port), timeout=WAIT)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 256 * 1024)
    sock.sendall(head)
    sock.setblocking(False)
    answer = bytearray()
    sent = 0
    pending = b""
    with sock, selectors.DefaultSelector() as sel:
        sel.register(sock, selectors.EVENT_READ | selectors.EVENT_WRITE)
        closed = False
        while not closed:
            events = sel.select(WAIT)
            assert events, "neither an answer nor room to send within the wait"
            mask = events[0][1]
            if mask & selectors.EVENT_READ:
                break
            if not pending:
                pending = next(body, b"")
                if not pending:  # all sent: now only the answer
                    break
            try:
                n = sock.send(pending)
            except (BrokenPipeError, ConnectionResetError):
                closed = True
                break
            sent, pending = sent + n, pending[n:]
        sock.setblocking(True)
        sock.settimeout(WAIT)
        while True:
            try:
                data = sock.recv(65536)
            except ConnectionResetError:
                break
            if not data:
                break
            answer += data
    return bytes(answer), sent


def _status_and_json(answer: bytes) -> tuple[int, dict[str, str], Any]:
    head, _, body = answer.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    headers = {k.strip().lower(): v.strip() for k, _, v in (x.partition(":") for x in lines[1:])}
    return status, headers, json.loads(body)


def _head(server: ServerProcess, *extra: str) -> bytes:
    lines = [
        "POST /api/rooms HTTP/1.1",
        f"Host: 127.0.0.1:{server.port}",
        "Content-Type: application/json",
        *extra,
    ]
    return ("\r\n".join(lines) + "\r\n\r\n").encode()


def test_a_chunked_body_is_refused_as_it_passes_the_limit(server: ServerProcess) -> None:
    """64 MiB sent in chunks (no length said): the 413 comes while the client is still
    sending, after a small part of the body, and the server's memory does not grow by it."""
    http_get(f"{server.url}/api/games", timeout=WAIT)  # everything a request needs: loaded
    before = _rss(_pid(server))
    for _ in range(3):
        answer, sent = _upload(server, _head(server, "Transfer-Encoding: chunked"), _chunks())
        status, headers, body = _status_and_json(answer)
        assert status == 413 and body["error"] == {
            "code": "too_large",
            "message": "a request body is at most 16384 bytes",
        }, answer[:500]
        assert headers["connection"] == "close"
        # What the kernel's buffers took on both sides at most (a few MiB), not the 64 MiB.
        assert sent < _HUGE // 4, f"{sent} bytes sent before the answer"
    grown = _rss(_pid(server)) - before
    assert grown < 4 * MiB, f"the server grew by {grown / MiB:.1f} MiB"
    # The server still serves, and a body within the limit is still read.
    ok = http_post(
        f"{server.url}/api/rooms",
        json={"game": "death", "players": 3, "seats": ["person"] * 3, "names": ["a", "b", "c"]},
        timeout=WAIT,
    )
    assert ok.status_code == 201, ok.text


def test_a_declared_length_past_the_limit_is_refused_before_the_body(
    server: ServerProcess,
) -> None:
    """``Content-Length: 67108864`` and not a byte of the body: the 413 comes at once."""
    for length in (_HUGE, 16_385):
        head = _head(server, f"Content-Length: {length}")
        answer, sent = _upload(server, head, iter([b"x" * _CHUNK] * 1024))
        status, headers, body = _status_and_json(answer)
        assert status == 413 and headers["connection"] == "close", answer[:500]
        assert body["error"]["code"] == "too_large"
        assert sent < _HUGE // 4, sent
    # Exactly the limit is not refused for its length (this body is no JSON: 400).
    head = _head(server, "Content-Length: 16384", "Connection: close")
    answer, sent = _upload(server, head, iter([b" " * 16_384]))
    status, _, body = _status_and_json(answer)
    assert status == 400 and sent == 16_384, answer[:500]


# -- room ids ------------------------------------------------------------------------------


def _entries(server: ServerProcess) -> dict[str, float]:
    """The server's per-room maps and their sizes, from ``GET /metrics``."""
    text = http_get(f"{server.url}/metrics", timeout=WAIT).text
    prefix = 'parlour_room_entries{map="'
    found = {
        line[len(prefix) :].split('"', 1)[0]: float(line.rsplit(" ", 1)[1])
        for line in text.splitlines()
        if line.startswith(prefix)
    }
    kept = {"locks", "conns", "away", "tasks", "broken"}  # the rooms' own: test_memory.py
    assert kept <= set(found), text[:2000]
    return {k: v for k, v in found.items() if k in kept}


async def _made_up_sockets(server: ServerProcess, ids: list[str]) -> set[int]:
    """Open a socket to each made-up room: the close codes the server answered with."""
    codes: set[int] = set()
    for room in ids:
        async with connect(f"{server.ws}/ws/{room}", open_timeout=WAIT) as ws:
            with pytest.raises(ConnectionClosed) as closed:
                await asyncio.wait_for(ws.recv(), WAIT)
            assert closed.value.rcvd is not None
            codes.add(closed.value.rcvd.code)
    return codes


def test_made_up_room_ids_leave_nothing_behind(server: ServerProcess) -> None:
    """2,000 GETs of made-up 5 KB room ids and 300 sockets to others: each answered 'no such
    room', and the server holds no lock or other entry for any of them (was: a lock per id,
    kept for ever: +96 MB for 4,000 ids of 50 KB), nor memory for the GETs."""
    rng = random.Random(27)

    def made_up() -> str:  # 5,000 of the 64 letters, digits, - and _ (base64url)
        return base64.urlsafe_b64encode(rng.randbytes(3750)).decode()

    with httpx.Client(timeout=WAIT) as http:
        for _ in range(100):  # what any request makes the server load, loaded before
            assert http.get(f"{server.url}/api/rooms/{made_up()}").status_code == 404
        asyncio.run(_made_up_sockets(server, [made_up() for _ in range(20)]))
        held = _entries(server)  # another test's room waits for a takeover: a task
        before = _rss(_pid(server))
        for _ in range(2000):
            missing = http.get(f"{server.url}/api/rooms/{made_up()}")
            assert missing.status_code == 404 and missing.json()["error"]["code"] == "not_found"
    grown = _rss(_pid(server)) - before  # 2,000 ids of 5 KB were 10 MB in keys alone
    assert grown < 3 * MiB, f"the server grew by {grown / MiB:.1f} MiB"
    assert held["locks"] == 0 and _entries(server) == held, (held, _entries(server))
    # Sockets are not weighed here: a closed socket's memory goes back to the allocator some
    # seconds later, not at once (uvicorn's websockets), whatever its room id.
    codes = asyncio.run(_made_up_sockets(server, [made_up() for _ in range(300)]))
    assert codes == {4404}, codes
    assert _entries(server) == held


def test_a_room_in_use_holds_its_lock_only_while_working(server: ServerProcess) -> None:
    """A real room with a person seated: between requests no lock is held for it; one
    socket is counted until it closes."""
    room = create_room(server.url, {"game": "death", "players": 3, "seats": ["person"] * 3})

    async def play() -> dict[str, float]:
        client = await Client.join(server.ws, room["room"], room["seats"][0]["token"])
        other = await Client.join(server.ws, room["room"], room["seats"][1]["token"])
        seen = await asyncio.to_thread(_entries, server)
        await client.close()
        await other.close()
        return seen

    seen = asyncio.run(play())
    assert seen["locks"] == 0 and seen["conns"] == 1, seen
    facts = http_get(f"{server.url}/api/rooms/{room['room']}", timeout=WAIT)
    assert facts.status_code == 200
    assert _entries(server)["locks"] == 0


def test_room_locks_exclude_share_and_go_when_unused() -> None:
    """One lock per room while used: users of one room take turns (the one waiting shares the
    held lock), other rooms do not wait, and a waiter cancelled or done leaves nothing."""

    async def run() -> None:
        locks = RoomLocks()
        order: list[str] = []
        first_in, release = asyncio.Event(), asyncio.Event()

        async def holder() -> None:
            async with locks("a"):
                order.append("holder in")
                first_in.set()
                await release.wait()
                order.append("holder out")

        asking = {"waiter": asyncio.Event(), "cancelled": asyncio.Event()}

        async def waiter(name: str) -> None:
            asking[name].set()  # from here it runs on into the lock's wait without a pause
            async with locks("a"):
                order.append(name)

        task = asyncio.create_task(holder())
        await first_in.wait()
        waiting = asyncio.create_task(waiter("waiter"))
        cancelled = asyncio.create_task(waiter("cancelled"))
        await asyncio.gather(*(e.wait() for e in asking.values()))  # both now wait for "a"
        assert len(locks) == 1 and locks.locked("a")
        async with locks("b"):  # another room does not wait
            assert len(locks) == 2
        cancelled.cancel()
        with pytest.raises(asyncio.CancelledError):
            await cancelled
        assert len(locks) == 1
        release.set()
        await asyncio.gather(task, waiting)
        assert order == ["holder in", "holder out", "waiter"]
        assert len(locks) == 0 and "a" not in locks and not locks.locked("a")

    asyncio.run(run())
