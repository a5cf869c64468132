"""Reviews of finished deals at a real server (issue 31): made by the review worker once a
deal is over, kept with the room in the store (SQLite and PostgreSQL), taken up again after a
restart, never made for a deal that is still running, and served by
``GET /api/rooms/ROOM/review``. Every wait is on a frame or an answer, bounded."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest
from jsonschema import Draft202012Validator

from parlour.bots.review import parse_review_budget, review_record
from parlour.core.record import Record
from parlour.core.schema import schema
from parlour.games import GAMES, find_game
from parlour.server.reviews import LEASE
from tests.server.client import WAIT, Client, ServerProcess, create_room, http_get
from tests.server.test_store import _fresh_database
from tests.server.test_takeover import _children

BUDGET = "20"

WORKER_WAIT = 6 * WAIT
"""How long a wait on the review worker's next frame may take: it runs at nice 19, so beside a
full test run on two cores it may get the processor only now and then (a bound for a frame that
comes, not a wait for one that must not)."""
"""Iterations a reviewed decision: tiny, so a review takes a fraction of a second."""


_OPTIONS = {"beor": {"max_turns": 16}}
"""BEOR deals of random bots can be long: bounded (B10), so a review is tens of decisions."""


@pytest.fixture(params=["sqlite", "postgres"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """The ``--db`` of this test's servers: an SQLite file, or a fresh PostgreSQL database."""
    if request.param == "sqlite":
        return str(tmp_path / "rooms.db")
    return _fresh_database(request.getfixturevalue("postgres_url"))


def _get(server: ServerProcess, path: str) -> httpx.Response:
    return http_get(f"{server.url}{path}", timeout=WAIT)


def _review(server: ServerProcess, room: str, deal: str = "") -> dict[str, Any]:
    response = _get(server, f"/api/rooms/{room}/review{deal}")
    assert response.status_code == 200, response.text
    assert response.headers["cache-control"] == "no-store"
    body: dict[str, Any] = response.json()
    return body


async def _until(
    client: Client, test: Callable[[dict[str, Any]], bool], wait: float = WAIT
) -> dict[str, Any]:
    """The next frame (of any kind) that passes ``test``, each frame within ``wait`` s."""
    while True:
        text = await asyncio.wait_for(client.ws.recv(), wait)
        assert isinstance(text, str)
        frame: dict[str, Any] = json.loads(text)
        if test(frame):
            return frame


def _ready(frame: dict[str, Any]) -> bool:
    return frame["type"] == "review" and frame["status"] in ("ready", "failed")


async def _bots_play(
    server: ServerProcess, game: str = "beor", bot: str = "random"
) -> tuple[str, Client]:
    """A room of two bots, created with a spectator watching; the room id and the spectator
    once the deal is over."""
    seats = [bot, bot] if GAMES[game].strategy is not None else ["bot", "bot"]
    options = _OPTIONS.get(game, {})
    body = {"game": game, "players": 2, "seats": seats, "options": options}
    room = create_room(server.url, body)["room"]
    watcher = await Client.join(server.ws, room, None)
    await _until(watcher, lambda f: f["type"] in ("welcome", "update") and f["over"])
    return room, watcher


def _expected(server: ServerProcess, room: str, budget: str = BUDGET) -> dict[str, Any]:
    """What ``parlour review`` makes of the room's record here, at ``budget`` and seed 0."""
    record = Record.from_json(_get(server, f"/api/rooms/{room}/record").json())
    game = find_game(record.game)
    spent = parse_review_budget(budget, game) if game.strategy is not None else None
    return review_record(record, game, budget=spent, seed=0).to_json()


def _valid(review: dict[str, Any]) -> None:
    Draft202012Validator(schema("review", tuple(GAMES.values()))).validate(review)


def test_a_finished_deal_is_reviewed_and_the_review_survives_a_restart(database: str) -> None:
    server = ServerProcess(database, "--review-budget", BUDGET).start()
    try:

        async def play() -> tuple[str, dict[str, Any]]:
            room, watcher = await _bots_play(server)
            frame = await _until(watcher, _ready, WORKER_WAIT)
            await watcher.close()
            return room, frame

        room, frame = asyncio.run(play())
        assert frame["status"] == "ready" and frame["deal"] == 0 and frame["room"] == room
        body = _review(server, room)
        assert body["status"] == "ready" and body["deal"] == 0
        assert body["done"] == body["total"] == frame["total"] > 0
        review = body["review"]
        _valid(review)
        assert review == _expected(server, room)
        assert review["budget"] == BUDGET and review["seats"] == [0, 1]
        assert {d["seat"] for d in review["decisions"]} == {0, 1}, "every seat's decisions"
        assert len(review["decisions"]) == body["total"]
        assert _review(server, room, "?deal=0") == body
    finally:
        assert "Traceback" not in server.stop()[1]
    again = ServerProcess(database, "--review-budget", BUDGET).start()
    try:
        assert _review(again, room) == body, "the review is kept in the store"
    finally:
        assert "Traceback" not in again.stop()[1]


def test_a_review_cut_short_by_a_kill_is_made_after_the_restart(database: str) -> None:
    budget = "200"  # a few milliseconds a decision: the kill comes in the middle
    server = ServerProcess(database, "--review-budget", budget).start()

    async def until_running() -> str:
        room, watcher = await _bots_play(server)
        await _until(watcher, lambda f: f["type"] == "review" and f["done"] >= 1, WORKER_WAIT)
        server.kill()
        return room

    room = asyncio.run(until_running())
    if database.startswith("postgresql"):
        # A shared store leaves a running review to its process until that process has been
        # silent for the lease (reviews.LEASE): the clock is moved past it rather than waited
        # for, by dating the killed process's last report LEASE + 1 s earlier.
        with psycopg.connect(database, autocommit=True) as conn:
            moved = conn.execute(
                "UPDATE reviews SET at = at - %s WHERE room = %s AND status = 'running'",
                (LEASE + 1, room),
            ).rowcount
        assert moved == 1, "the killed process's review was running"
    again = ServerProcess(database, "--review-budget", budget).start()
    try:

        async def after() -> dict[str, Any]:
            watcher = await Client.join(again.ws, room, None)
            body = _review(again, room)
            if body["status"] != "ready":  # no one asks: the restart takes it up itself
                assert body["status"] in ("pending", "running"), body
                # The restart's first sweep takes it up (its lease ran out above).
                await _until(watcher, _ready, WORKER_WAIT)
                body = _review(again, room)
            await watcher.close()
            return body

        body = asyncio.run(after())
        assert body["status"] == "ready"
        assert body["review"] == _expected(again, room, budget), "made whole, from the start"
    finally:
        assert "Traceback" not in again.stop()[1]


def test_a_running_deal_has_no_review_and_none_is_made(tmp_path: Path) -> None:
    db = tmp_path / "rooms.db"
    server = ServerProcess(db, "--review-budget", BUDGET).start()
    try:
        room = create_room(server.url, {"game": "beor", "players": 2, "seats": ["person"] * 2})
        for query in ("", "?deal=0"):
            response = _get(server, f"/api/rooms/{room['room']}/review{query}")
            assert response.status_code == 409
            assert response.json()["error"]["code"] == "not_over"
            assert response.headers["cache-control"] == "no-store"
        for query, status in (("?deal=1", 400), ("?deal=x", 400), ("?deal=-1", 400)):
            response = _get(server, f"/api/rooms/{room['room']}/review{query}")
            assert response.status_code == status
            assert response.json()["error"]["code"] == "bad_request"
        missing = _get(server, "/api/rooms/nosuchroom/review")
        assert missing.status_code == 404
        assert missing.json() == {"error": {"code": "not_found", "message": "no such room"}}
        assert server.proc is not None
        assert not _children(server.proc.pid), "no review worker was started"
    finally:
        server.stop()
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT COUNT(*) FROM reviews").fetchone() == (0,)


def test_with_reviews_off_a_finished_deal_says_so(tmp_path: Path) -> None:
    db = tmp_path / "rooms.db"
    server = ServerProcess(db, "--review-budget", "off").start()
    try:

        async def play() -> str:
            room, watcher = await _bots_play(server)
            await watcher.close()
            return room

        room = asyncio.run(play())
        body = _review(server, room)
        assert body == {"deal": 0, "status": "off", "done": 0, "total": 0, "review": None}
        assert server.proc is not None
        assert not _children(server.proc.pid), "no review worker was started"
    finally:
        server.stop()
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT COUNT(*) FROM reviews").fetchone() == (0,)


def test_a_game_without_decisions_is_reviewed_as_its_story(tmp_path: Path) -> None:
    server = ServerProcess(tmp_path / "rooms.db", "--review-budget", BUDGET).start()
    try:

        async def play() -> str:
            room, watcher = await _bots_play(server, "beggar")
            await _until(watcher, _ready, WORKER_WAIT)
            await watcher.close()
            return room

        room = asyncio.run(play())
        body = _review(server, room)
        assert body["status"] == "ready" and body["total"] == 0
        review = body["review"]
        _valid(review)
        assert review["decisions"] == [] and review["story"]["moments"]
        assert review == _expected(server, room)
    finally:
        assert "Traceback" not in server.stop()[1]


def test_bots_in_another_room_play_on_while_a_review_is_made(tmp_path: Path) -> None:
    """The review worker runs at the lowest priority, apart from the bots' worker: a room of
    bots plays a whole deal while another room's long review is still being made."""
    budget = "5000"  # about a second a decision: the review outlasts the other room's deal
    server = ServerProcess(
        tmp_path / "rooms.db", "--review-budget", budget, "--bot-workers", "1"
    ).start()
    try:

        async def play() -> None:
            first, watcher = await _bots_play(server)
            # The review is claimed and handed to its worker ("running", 0 done): from here on
            # it is being made. Its first judged decision is not waited for, as the worker runs
            # at nice 19 and on a busy machine may not get the processor for a long while.
            await _until(watcher, lambda f: f["type"] == "review" and f["status"] == "running")
            second, _ = await _bots_play(server, bot="heuristic")
            body = _review(server, first)
            assert body["status"] == "running", body
            assert body["total"] == 0 or body["done"] < body["total"], body
            assert _get(server, f"/api/rooms/{second}").json()["over"]
            await watcher.close()

        asyncio.run(play())
    finally:
        assert "Traceback" not in server.stop()[1]
