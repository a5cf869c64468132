"""Real servers and real clients for the online rooms' tests: ``parlour serve`` started as a
process on a free loopback port, httpx for the HTTP API and the ``websockets`` library's client
for the sockets. Every wait is bounded."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import ssl
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect

__all__ = ["Client", "ServerProcess", "create_room", "http_get", "http_post", "running_server"]

WAIT = 20.0
"""The longest any single wait in these tests may take, in seconds."""

TLS = ssl.create_default_context()
"""One TLS context for every request of a test process. httpx's own functions (``httpx.get``)
make a client a call, and with it a context that reads the whole CA bundle again: about 32 ms
of processor time a request, against under 2 ms with this one made once. The servers under
test speak plain HTTP, so no request here ever uses it."""


def http_get(url: str, **kwargs: Any) -> httpx.Response:
    """``httpx.get``, with the one :data:`TLS` context."""
    return httpx.get(url, verify=TLS, **kwargs)


def http_post(url: str, **kwargs: Any) -> httpx.Response:
    """``httpx.post``, with the one :data:`TLS` context."""
    return httpx.post(url, verify=TLS, **kwargs)


class ServerProcess:
    """``parlour serve`` in a process of its own."""

    def __init__(self, db: str | Path, *extra: str, prelude: str = "") -> None:
        self.db = str(db)
        self.extra = extra
        self.prelude = prelude
        """Python run in the server's process before ``parlour serve`` (a test that needs the
        registry changed, e.g. a game without a board), or nothing: ``python -m parlour``."""
        self.proc: subprocess.Popen[str] | None = None
        self.url = ""
        self.port = 0

    def start(self, port: int = 0) -> ServerProcess:
        start = ["-m", "parlour"]
        if self.prelude:
            main = "from parlour.cli import main\nraise SystemExit(main(sys.argv[1:]))\n"
            start = ["-c", f"import sys\n{self.prelude}\n{main}"]
        args = [
            sys.executable, *start, "serve", "--port", str(port), "--db", self.db,
            "--quiet", "--bot-delay", "0", "--bot-workers", "0", "--rate", "5000", *self.extra,
        ]  # fmt: skip
        if "--max-sockets-per-client" not in self.extra:
            # Every test's client has one address (loopback); the cap has tests of its own
            # (tests/server/test_sockets_caps.py).
            args += ["--max-sockets-per-client", "100000"]
        if "--review-budget" not in self.extra:
            # A finished deal's review is work of its own (tests/server/test_reviews.py and the
            # browser's replay tests ask for it): other tests' servers make none.
            args += ["--review-budget", "off"]
        env = dict(os.environ, PYTHONUNBUFFERED="1")
        self.proc = subprocess.Popen(
            args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env
        )
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline().strip()
        prefix = "Parlour is serving at "
        if not line.startswith(prefix):
            _, err = self.proc.communicate(timeout=WAIT)
            raise AssertionError(f"the server did not start: {line!r} {err!r}")
        self.url = line[len(prefix) :].rstrip("/")
        self.port = int(self.url.rsplit(":", 1)[1])
        self._wait_ready()
        return self

    def _wait_ready(self) -> None:
        deadline = time.monotonic() + WAIT
        while time.monotonic() < deadline:
            try:
                if http_get(f"{self.url}/api/games", timeout=2).status_code == 200:
                    return
            except httpx.HTTPError:
                time.sleep(0.02)
        raise AssertionError("the server did not answer")

    @property
    def ws(self) -> str:
        return self.url.replace("http://", "ws://", 1)

    def kill(self) -> None:
        """SIGKILL: no clean-up of any kind."""
        assert self.proc is not None
        self.proc.kill()
        self.proc.wait(timeout=WAIT)

    def stop(self) -> tuple[int, str]:
        """Ctrl-C (SIGINT): the exit status and what the server wrote on stderr."""
        assert self.proc is not None
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
        try:
            _, err = self.proc.communicate(timeout=WAIT)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            _, err = self.proc.communicate(timeout=WAIT)
        return self.proc.returncode, err


@contextmanager
def running_server(db: str | Path, *extra: str) -> Iterator[ServerProcess]:
    server = ServerProcess(db, *extra).start()
    try:
        yield server
    finally:
        _, err = server.stop()
        # Shown by pytest with a failed test's report: what the server said it failed on.
        sys.stderr.write(err)


def create_room(url: str, body: dict[str, Any], **headers: str) -> dict[str, Any]:
    """Make a room through the API and return the server's answer (201 asserted).

    A BEOR room whose body does not set ``natural_win`` itself is made with it off: B5 ends a
    deal at the deal when a hand is already two groups (10 deals in 20,000 over two to five
    players), and the room's secret deal then has one position only. Tests of a running room,
    of moves, of a replay's steps or of a review failed by chance on such a deal (a fresh
    clone's replay test did). A test of B5 itself says ``natural_win`` in its body."""
    options = body.get("options") or {}
    if body.get("game") == "beor" and isinstance(options, dict) and "natural_win" not in options:
        body = {**body, "options": {**options, "natural_win": False}}
    response = http_post(f"{url}/api/rooms", json=body, headers=headers, timeout=WAIT)
    assert response.status_code == 201, response.text
    answer: dict[str, Any] = response.json()
    return answer


class Client:
    """One websocket of a room, with the frames it has received."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.frames: list[dict[str, Any]] = []
        self.texts: list[str] = []
        self.last: dict[str, Any] = {}

    @classmethod
    async def join(cls, base: str, room: str, token: str | None, v: int = 0) -> Client:
        ws = await asyncio.wait_for(connect(f"{base}/ws/{room}", max_size=None), WAIT)
        client = cls(ws)
        await client.send({"type": "hello", "token": token, "v": v})
        await client.expect("welcome")
        return client

    async def send(self, frame: dict[str, Any]) -> None:
        await self.ws.send(json.dumps(frame))

    async def recv(self) -> dict[str, Any]:
        text = await asyncio.wait_for(self.ws.recv(), WAIT)
        assert isinstance(text, str)
        frame: dict[str, Any] = json.loads(text)
        self.texts.append(text)
        self.frames.append(frame)
        if frame["type"] in ("welcome", "update"):
            self.last = frame
        return frame

    async def expect(self, *kinds: str) -> dict[str, Any]:
        """The next frame of one of ``kinds`` (frames of other kinds are kept, skipped)."""
        while True:
            frame = await self.recv()
            if frame["type"] in kinds:
                return frame

    async def answer(self, cid: str) -> dict[str, Any]:
        """The ack or reject for client id ``cid``."""
        while True:
            frame = await self.recv()
            if frame["type"] in ("ack", "reject") and frame.get("id") == cid:
                return frame

    async def until_v(self, v: int) -> dict[str, Any]:
        """Frames until this socket's snapshot reaches version ``v``."""
        while self.last.get("v", -1) < v:
            await self.recv()
        return self.last

    async def close(self) -> None:
        await self.ws.close()
