"""Whole games through a real server: two people with their invite tokens and a bot in the
third seat play each game to its end; the record the server gives afterwards replays to the
same outcome and verifies against the commitment shown at the start."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

import pytest

from parlour.core.fairness import commitment, verify
from parlour.games import GAMES, find_game, replay_json
from tests.server.client import Client, create_room, http_get, running_server

# The person seats and the bot that fills the third seat, per game.
_SEATS = {"beor": "random", "death": "heuristic", "beggar": "bot"}


def _bot(game: str) -> str:
    """The third seat: a bot of each kind for the built-in games, random moves for a game from
    another distribution (or the plain bot of a game without decisions)."""
    return _SEATS.get(game) or ("random" if GAMES[game].info.decisions else "bot")


async def _play(url: str, ws: str, game: str, seed: int) -> dict[str, Any]:
    room = create_room(url, {"game": game, "players": 3, "seats": ["person", "person", _bot(game)]})
    tokens = [s.get("token") for s in room["seats"]]
    assert tokens[2] is None and "link" not in room["seats"][2]
    for s in room["seats"][:2]:
        assert s["link"] == f"{url}/r/{room['room']}#t={s['token']}"
    people = [await Client.join(ws, room["room"], t) for t in tokens[:2]]
    watcher = await Client.join(ws, room["room"], None)
    assert watcher.last["seat"] is None and watcher.last["legal"] == []
    assert people[0].last["commitment"] == room["commitment"]
    rng = random.Random(seed)
    moves = 0
    while not watcher.last["over"]:
        assert moves < 5000, "the game should have ended"
        v = watcher.last["v"]
        for person in people:
            await person.until_v(v)
        mover = next((p for p in people if p.last["legal"]), None)
        if mover is not None:
            moves += 1
            cid = f"move-{moves}"
            action = rng.choice(mover.last["legal"])
            await mover.send({"type": "act", "id": cid, "v": v, "action": action})
            answer = await mover.answer(cid)
            assert answer == {"type": "ack", "id": cid, "v": v + 1}
        await watcher.until_v(v + 1)
    final = watcher.last
    for person in people:
        await person.until_v(final["v"])
        assert person.last["over"] and person.last["outcome"] == final["outcome"]
    record = http_get(f"{url}/api/rooms/{room['room']}/record").json()
    for client in (*people, watcher):
        await client.close()
    return {"room": room, "final": final, "record": record, "moves": moves}


@pytest.mark.slow
@pytest.mark.parametrize("game", sorted(GAMES))
def test_two_people_and_a_bot_play_a_whole_game(tmp_path: Path, game: str) -> None:
    with running_server(tmp_path / "rooms.db") as server:
        played = asyncio.run(_play(server.url, server.ws, game, seed=7))
    record = played["record"]
    assert played["moves"] > 0
    assert record["commitment"] == played["room"]["commitment"] == commitment(record["seed"])
    assert record["seats"] == ["person", "person", _bot(game)]
    _, states = replay_json(record)
    assert states[-1].outcome is not None
    assert states[-1].outcome.to_json() == played["final"]["outcome"]
    assert len(states) - 1 == played["final"]["v"]
    verified = verify(record, find_game)
    assert verified.seed == record["seed"]


def test_the_record_waits_for_the_end(tmp_path: Path) -> None:
    with running_server(tmp_path / "rooms.db") as server:
        room = create_room(server.url, {"game": "beor", "players": 2, "seats": ["person"] * 2})
        response = http_get(f"{server.url}/api/rooms/{room['room']}/record")
        assert response.status_code == 409
        assert response.json()["error"]["code"] == "not_over"
        facts = http_get(f"{server.url}/api/rooms/{room['room']}").json()
        text = str(facts)
        assert facts["v"] == 0 and facts["over"] is False
        assert facts["commitment"] == room["commitment"]
        for seat in room["seats"]:
            assert seat["token"] not in text
        assert "seed" not in text
