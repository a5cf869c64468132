"""How a table penalty's vote ended is in every frame (``decided``): a penalty on another player
that the bots vote down at once (G13: "bots vote no") was never an open proposal, so without it
the pages had nothing to show; one that passes is there too, placed in the log after the table
entry it made."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Iterator
from typing import Any

import pytest

from tests.server.client import Client, ServerProcess, create_room, running_server


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    with running_server(tmp_path_factory.mktemp("decided") / "rooms.db") as running:
        yield running


def run(work: Callable[[], Awaitable[None]], limit: float = 60) -> None:
    asyncio.run(asyncio.wait_for(work(), limit))


async def _join(server: ServerProcess, kinds: list[str]) -> tuple[str, dict[int, Client]]:
    body = {"game": "death", "players": len(kinds), "seats": kinds}
    room = create_room(server.url, body)
    clients = {
        s["seat"]: await Client.join(server.ws, room["room"], s["token"])
        for s in room["seats"]
        if "token" in s
    }
    return str(room["room"]), clients


async def _enter(client: Client, cid: str, text: str) -> dict[str, Any]:
    """``text`` entered at the room's current version (again after a bot's move: ``stale``);
    the ack."""
    for attempt in range(50):
        await client.send({"type": "act", "id": f"{cid}.{attempt}", "v": client.last["v"],
                           "action": text})  # fmt: skip
        answer = await client.answer(f"{cid}.{attempt}")
        if answer.get("code") != "stale":
            assert answer["type"] == "ack", answer
            return answer
        await client.until_v(answer["v"])
    raise AssertionError("always stale")


def _log_length(client: Client) -> int:
    """The length of the deal's log as this socket has been sent it."""
    return 1 + max(int(e["index"]) for f in client.frames if "log" in f for e in f["log"])


def test_a_penalty_the_bots_vote_down_at_once_is_told(server: ServerProcess) -> None:
    async def work() -> None:
        _, c = await _join(server, ["person", "random", "random"])
        ann = c[0]
        assert ann.last["decided"] == []
        ack = await _enter(ann, "doh", "doh P2")
        frame = await ann.until_v(ack["v"])
        assert frame["proposals"] == []  # decided by the same event: never open
        assert frame["decided"] == [
            {
                "proposal": ack["v"], "entry": "doh P2", "by": 0, "target": 1, "yes": [0],
                "no": [2], "passed": False, "applied": False, "at": _log_length(ann),
                "v": ack["v"],
            }
        ]  # fmt: skip
        # Not applied: Player 2 drank nothing from it (the bots play on meanwhile, and may
        # make them drink by the rules: compare with the frame just before the proposal).
        prior = max((f for f in ann.frames if "view" in f and f["v"] < ack["v"]),
                    key=lambda f: f["v"])  # fmt: skip
        assert prior["v"] == ack["v"] - 1
        assert frame["view"]["drinks_taken"][1] == prior["view"]["drinks_taken"][1]
        # A later socket (a reload, another tab) is told in its welcome.
        again = await Client.join(server.ws, frame["room"], None, 0)
        assert again.last["decided"] == frame["decided"]

    run(work)


def test_a_passed_penalty_is_told_after_its_table_entry(server: ServerProcess) -> None:
    async def work() -> None:
        _, c = await _join(server, ["person", "person", "random"])
        ann, bob = c[0], c[1]
        # On the bot (Player 3): the bots other than its target vote no, here none of them.
        ack = await _enter(ann, "doh", "doh P3")
        frame = await bob.until_v(ack["v"])
        pid = ack["v"]
        assert [p["proposal"] for p in frame["proposals"]] == [pid]
        assert frame["decided"] == []
        await bob.send({"type": "vote", "id": "yes", "proposal": pid, "yes": True})
        voted = await bob.answer("yes")
        assert voted["type"] == "ack"
        frame = await ann.until_v(voted["v"])
        assert frame["proposals"] == []
        [told] = frame["decided"]
        assert (told["proposal"], told["yes"], told["no"]) == (pid, [0, 1], [])
        assert (told["passed"], told["applied"], told["v"]) == (True, True, voted["v"])
        prior = max((f for f in ann.frames if "view" in f and f["v"] < voted["v"]),
                    key=lambda f: f["v"])  # fmt: skip
        assert prior["v"] == voted["v"] - 1  # the bot may have played (and drunk) meanwhile
        assert frame["view"]["drinks_taken"][2] == prior["view"]["drinks_taken"][2] + 1
        entry = next(e for f in ann.frames if "log" in f for e in f["log"] if e["kind"] == "table")
        assert entry["text"] == "doh P3" and told["at"] == entry["index"] + 1

    run(work)
