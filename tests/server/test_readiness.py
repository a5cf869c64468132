"""``/readyz`` looks at the bot worker and the review worker as it answers (issue 27, point 5):
the first probe after a worker process died answers 503 with the reason, whether or not a
search or a review has met the dead worker since. The worker is replaced there and then, so
the next probe answers 200 and the bots and reviews go on.

Nothing sleeps: the test kills the worker, waits for its exit on a pidfd, and only then asks
``/readyz`` once."""

from __future__ import annotations

import asyncio
from pathlib import Path

from tests.server.client import WAIT, Client, create_room, http_get
from tests.server.test_observability import json_lines, logged_server, ready
from tests.server.test_takeover import _children
from tests.server.test_workers import _kill

DEAD_BOTS = "bot worker: a worker process has died"
DEAD_REVIEWS = "review worker: the review worker process has died"


def _workers(pid: int) -> list[int]:
    """The server's spawned worker processes (bot and review workers; not the resource
    tracker)."""
    return [c for c in _children(pid) if b"spawn_main" in Path(f"/proc/{c}/cmdline").read_bytes()]


def _events(lines: list[str]) -> list[tuple[str, str | None]]:
    return [
        (r["event"], r.get("reason"))
        for r in json_lines(lines)
        if r["event"] in ("server.ready", "server.not_ready")
    ]


def test_readyz_answers_503_at_once_when_the_bot_worker_dies(tmp_path: Path) -> None:
    with logged_server(tmp_path / "rooms.db", "--bot-workers", "1") as server:
        url, proc = server.server.url, server.server.proc
        assert proc is not None
        assert ready(url).status_code == 200
        [worker] = _workers(proc.pid)  # started with the server
        _kill(worker)
        answer = ready(url)
        assert answer.status_code == 503
        assert answer.json() == {"ready": False, "reason": DEAD_BOTS}
        assert http_get(f"{url}/healthz", timeout=WAIT).status_code == 200
        assert ready(url).status_code == 200, "a new bot worker replaced it"
        [again] = _workers(proc.pid)
        assert again != worker

        async def play() -> None:  # the new worker makes a search's decisions
            room = create_room(
                url,
                {"game": "beor", "players": 2, "seats": ["hard", "hard"],
                 "options": {"max_turns": 2}},
            )  # fmt: skip
            watcher = await Client.join(server.server.ws, room["room"], None)
            while not watcher.last["over"]:
                await watcher.expect("update")
            await watcher.close()

        asyncio.run(play())
        assert server.stop() == 0
    assert _events(server.lines) == [
        ("server.not_ready", DEAD_BOTS),
        ("server.ready", None),
    ]


def test_readyz_answers_503_at_once_when_the_review_worker_dies(tmp_path: Path) -> None:
    """The review worker starts with the first review; killed once idle, the next probe says
    so, the one after is ready (no review worker until the next review), and the next deal's
    review is made by a new worker."""
    db = tmp_path / "rooms.db"
    with logged_server(db, "--review-budget", "20", "--bot-workers", "0") as server:
        url, proc = server.server.url, server.server.proc
        assert proc is not None

        async def deal() -> None:
            """A deal of two random bots played to its end and reviewed, watched."""
            room = create_room(
                url,
                {"game": "beor", "players": 2, "seats": ["random", "random"],
                 "options": {"max_turns": 4}},
            )  # fmt: skip
            watcher = await Client.join(server.server.ws, room["room"], None)
            while True:
                frame = await asyncio.wait_for(watcher.expect("review"), 6 * WAIT)
                if frame["status"] in ("ready", "failed"):
                    break
            assert frame["status"] == "ready", frame
            await watcher.close()

        asyncio.run(deal())
        assert ready(url).status_code == 200
        [worker] = _workers(proc.pid)
        _kill(worker)
        answer = ready(url)
        assert answer.status_code == 503
        assert answer.json() == {"ready": False, "reason": DEAD_REVIEWS}
        assert ready(url).status_code == 200
        assert _workers(proc.pid) == []
        asyncio.run(deal())
        assert [w for w in _workers(proc.pid) if w != worker]
        assert server.stop() == 0
    assert _events(server.lines) == [
        ("server.not_ready", DEAD_REVIEWS),
        ("server.ready", None),
    ]
