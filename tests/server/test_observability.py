"""Issue 27, point 5: a host can watch a real ``parlour serve``. ``/healthz`` answers while the
process lives; ``/readyz`` says 503 with the reason when the database is gone (the SQLite file
removed, the PostgreSQL database dropped) or the bot worker process has been killed;
``/metrics`` counts what was played; and the log on stderr is JSON, one object a line, with no
seat's token and no deal's seed in it."""

from __future__ import annotations

import asyncio
import json
import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import psycopg
from prometheus_client.parser import text_string_to_metric_families

from tests.server.client import WAIT, Client, ServerProcess, create_room, http_get
from tests.server.postgres import fresh_database

STOPPED = "Parlour has stopped serving."
"""The one line on stderr that is not a log record (written after the log has ended)."""


class Logged:
    """A server whose stderr is read as it is written (a full pipe would stall the server)."""

    def __init__(self, server: ServerProcess) -> None:
        self.server = server
        self.lines: list[str] = []
        assert server.proc is not None and server.proc.stderr is not None
        self.reader = threading.Thread(target=self._read, args=(server.proc.stderr,))
        self.reader.start()

    def _read(self, stream: Any) -> None:
        for line in stream:
            self.lines.append(line.rstrip("\n"))

    def stop(self) -> int:
        proc = self.server.proc
        assert proc is not None
        if proc.poll() is None:
            proc.send_signal(signal.SIGINT)
        code = proc.wait(WAIT)
        self.reader.join(WAIT)
        return code


@contextmanager
def logged_server(db: str | Path, *extra: str) -> Iterator[Logged]:
    server = ServerProcess(db, "--log-level", "info", "--review-budget", "off", *extra)
    logged = Logged(server.start())
    try:
        yield logged
    finally:
        logged.stop()


def metrics(url: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Every sample of ``/metrics``: (name, labels) -> value."""
    response = http_get(f"{url}/metrics", timeout=WAIT)
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/plain")
    out = {}
    for family in text_string_to_metric_families(response.text):
        for sample in family.samples:
            out[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return out


def ready(url: str) -> httpx.Response:
    return http_get(f"{url}/readyz", timeout=WAIT)


def json_lines(lines: list[str]) -> list[dict[str, Any]]:
    """Every log line as its JSON object; any other line fails the test."""
    records = []
    for line in lines:
        if line == STOPPED:
            continue
        record = json.loads(line)
        assert isinstance(record, dict), line
        assert {"time", "level", "logger", "event"} <= set(record), line
        records.append(record)
    return records


# -- a game watched through /metrics and the log ---------------------------------------------


async def _play(url: str, ws: str) -> dict[str, Any]:
    # B10's max_turns bounds the game: the first legal move every time, beside a random bot, may
    # otherwise play on past 500 moves (seen once in a fresh-clone run).
    room = create_room(
        url,
        {
            "game": "beor",
            "players": 3,
            "seats": ["person", "person", "random"],
            "options": {"max_turns": 60},
        },
    )
    tokens = [s["token"] for s in room["seats"][:2]]
    people = [await Client.join(ws, room["room"], t) for t in tokens]
    watcher = await Client.join(ws, room["room"], None)
    rejects: dict[str, int] = {}
    acks = 0
    while not watcher.last["over"]:
        assert acks < 500, "the game should have ended"
        v = watcher.last["v"]
        for person in people:
            await person.until_v(v)
        mover = next((p for p in people if p.last["legal"]), None)
        if mover is not None:
            if acks == 3:  # refused requests: a stale version, then a frame of no known type
                await mover.send({"type": "act", "id": "old", "v": v + 50, "action": "x"})
                assert (await mover.answer("old"))["code"] == "stale"
                await mover.send({"type": "dance", "id": "odd"})
                assert (await mover.answer("odd"))["code"] == "bad_message"
                rejects = {"stale": 1, "bad_message": 1}
            acks += 1
            cid = f"move-{acks}"
            await mover.send({"type": "act", "id": cid, "v": v, "action": mover.last["legal"][0]})
            assert (await mover.answer(cid))["type"] == "ack"
        await watcher.until_v(v + 1)
    seen = metrics(url)
    record = http_get(f"{url}/api/rooms/{room['room']}/record", timeout=WAIT).json()
    for client in (*people, watcher):
        await client.close()
    return {
        "room": room,
        "tokens": tokens,
        "acks": acks,
        "rejects": rejects,
        "final": watcher.last,
        "metrics": seen,
        "seed": record["seed"],
    }


def _sockets_closed(url: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """``/metrics`` once the server has seen every socket of the test close."""
    for _ in range(2000):
        seen = metrics(url)
        if seen[("parlour_sockets", (("role", "seat"),))] == 0 and (
            seen[("parlour_sockets", (("role", "spectator"),))] == 0
        ):
            return seen
    raise AssertionError("the server still counts open sockets")


def test_metrics_count_a_game_and_the_log_is_json_without_secrets(tmp_path: Path) -> None:
    with logged_server(tmp_path / "rooms.db") as server:
        url = server.server.url
        alive = http_get(f"{url}/healthz", timeout=WAIT)
        assert alive.status_code == 200 and alive.json() == {"alive": True}
        assert ready(url).status_code == 200 and ready(url).json() == {"ready": True}
        played = asyncio.run(asyncio.wait_for(_play(url, server.server.ws), 60))
        after = _sockets_closed(url)
        assert server.stop() == 0

    seen, acks, final = played["metrics"], played["acks"], played["final"]
    room_id = played["room"]["room"]
    # While the game was watched: three sockets, the room in memory with its game over.
    assert seen[("parlour_sockets", (("role", "seat"),))] == 2
    assert seen[("parlour_sockets", (("role", "spectator"),))] == 1
    assert seen[("parlour_rooms", (("state", "over"),))] == 1
    assert seen[("parlour_rooms_created_total", ())] == 1
    assert seen[("parlour_games_finished_total", ())] == 1
    # Every version after the first deal is one action: the people's acks, the rest the bot's.
    people = seen[("parlour_actions_total", (("by", "person"),))]
    bots = seen[("parlour_actions_total", (("by", "bot"),))]
    assert people == acks and people + bots == final["v"] and bots > 0
    assert seen[("parlour_room_events_total", (("kind", "action"),))] == final["v"]
    assert seen[("parlour_act_update_seconds_count", ())] == acks
    assert seen[("parlour_act_update_seconds_bucket", (("le", "+Inf"),))] == acks
    assert 0 < seen[("parlour_act_update_seconds_sum", ())] < acks * WAIT
    decided = {k[1]: n for k, n in seen.items() if k[0] == "parlour_bot_decision_seconds_count"}
    assert sum(decided.values()) >= bots and set(decided) <= {(("kind", "random"),)}
    assert seen[("parlour_db_append_seconds_count", ())] == final["v"]
    for code, count in played["rejects"].items():
        assert seen[("parlour_rejects_total", (("code", code),))] == count
    assert after[("parlour_rooms_created_total", ())] == 1

    records = json_lines(server.lines)
    kinds = [r["event"] for r in records]
    assert kinds.count("room.created") == 1
    moves = [r for r in records if r["event"] == "room.event" and r["kind"] == "action"]
    assert [m["v"] for m in moves] == list(range(1, final["v"] + 1))
    assert {m["room"] for m in moves} == {room_id}
    assert sum(m["by"] == "person" for m in moves) == acks
    assert moves[-1].get("over") is True
    refused = [r["code"] for r in records if r["event"] == "request.rejected"]
    assert sorted(refused) == sorted(played["rejects"])
    assert kinds.count("socket.joined") == 3 and kinds.count("socket.left") == 3
    # No secret in any line: the seats' tokens, the deal's seed (revealed by the record now).
    secrets = [*played["tokens"], str(played["seed"])]
    for line in server.lines:
        for secret in secrets:
            assert secret not in line, line


# -- readiness --------------------------------------------------------------------------------


def test_readyz_names_a_removed_sqlite_file(tmp_path: Path) -> None:
    db = tmp_path / "rooms.db"
    with logged_server(db) as server:
        url = server.server.url
        assert ready(url).status_code == 200
        for path in tmp_path.glob("rooms.db*"):
            path.unlink()
        answer = ready(url)
        assert answer.status_code == 503
        assert answer.json()["reason"] == "database: the SQLite file the server opened is gone"
        assert "\n" not in answer.text
        assert http_get(f"{url}/healthz", timeout=WAIT).status_code == 200


def test_readyz_names_a_dropped_postgres_database(postgres_url: str, tmp_path: Path) -> None:
    url = fresh_database(postgres_url)
    with logged_server(url) as server:
        assert ready(server.server.url).status_code == 200
        name = url.rsplit("/", 1)[1]
        with psycopg.connect(postgres_url, autocommit=True) as admin:
            admin.execute(f"DROP DATABASE {name} WITH (FORCE)")
        answer = ready(server.server.url)
        assert answer.status_code == 503
        # The answer is short (anyone may ask); the log says which database and why.
        assert answer.json() == {"ready": False, "reason": "database: unreachable"}
        assert server.stop() == 0
    logged = [r for r in json_lines(server.lines) if r["event"] == "server.not_ready"]
    assert len(logged) == 1 and logged[0]["reason"] == "database: unreachable"
    assert name in logged[0]["detail"] and "does not exist" in logged[0]["detail"]
