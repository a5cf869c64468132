"""The canary leak test of the online rooms: whole games of every game and player count played
through a real server by every seat's socket and a spectator; every frame each socket received
is then searched, against the state of the game at that frame's version, for any card hidden
from that socket's seat (in every notation a card is written in), the seed, any token, the deck.

The states come from the record the server gives at the end (the seed revealed only there),
replayed: version v of a room is step v of its game."""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import httpx
import pytest

from parlour.core.game import State
from parlour.games import GAMES, replay_json
from tests.conformance.cardscan import cards_named
from tests.server.client import Client, ServerProcess, create_room, running_server, synced

# Short BEOR games (a turn limit) so that every player count ends and gives its record.
_OPTIONS = {"beor": {"max_turns": 120}}
_ROOMS_PER_COUNT = {"beor": 2, "death": 2, "beggar": 2}


@dataclass
class Played:
    game: str
    players: int
    tokens: list[str]
    frames: list[tuple[int | None, str]] = field(default_factory=list)
    record: dict[str, Any] = field(default_factory=dict)


def _keys(obj: object) -> Iterator[str]:
    if isinstance(obj, dict):
        for key, value in obj.items():
            yield key
            yield from _keys(value)
    elif isinstance(obj, list):
        for value in obj:
            yield from _keys(value)


def leaks(text: str, seat: int | None, state: State, secrets: list[str]) -> list[str]:
    """What frame ``text``, sent to ``seat`` while the game was at ``state``, gives away."""
    found = [f"card {c}" for c in sorted(cards_named(text) & state.hidden_from(seat))]
    found += [f"secret {s[:12]}" for s in secrets if s in text]
    found += [f"key {k}" for k in _keys(json.loads(text)) if k in ("seed", "deck", "token")]
    return found


async def _play(server: ServerProcess, game: str, players: int, seed: int) -> Played:
    room = create_room(
        server.url,
        {
            "game": game,
            "players": players,
            "seats": ["person"] * players,
            "options": _OPTIONS.get(game, {}),
        },
    )
    tokens = [s["token"] for s in room["seats"]]
    played = Played(game, players, tokens)
    clients = [await Client.join(server.ws, room["room"], t) for t in tokens]
    clients.append(await Client.join(server.ws, room["room"], None))
    watcher = clients[-1]
    rng = random.Random(seed)
    for step in range(5000):
        if watcher.last["over"]:
            break
        v = await synced(watcher, clients)
        if game == "death" and rng.random() < 0.04:
            who = rng.randrange(players)
            actor, action = clients[who], f"doh P{who + 1}"
        else:
            actor = next(c for c in clients if c.last["legal"])
            action = rng.choice(actor.last["legal"])
        cid = f"s{step}"
        await actor.send({"type": "act", "id": cid, "v": v, "action": action})
        answer = await actor.answer(cid)
        assert answer["type"] == "ack", answer
        await watcher.until_v(v + 1)
    assert watcher.last["over"], "the game should have ended"
    for c in clients:
        await c.until_v(watcher.last["v"])
        await c.close()
        played.frames += [(c.last["seat"], text) for text in c.texts]
    played.record = httpx.get(f"{server.url}/api/rooms/{room['room']}/record").json()
    return played


@pytest.fixture(scope="module")
def games(tmp_path_factory: pytest.TempPathFactory) -> list[Played]:
    db = tmp_path_factory.mktemp("leaks") / "rooms.db"
    with running_server(db, "--max-rooms", "1000") as server:

        async def everything() -> list[Played]:
            work = [
                _play(server, name, n, seed=1000 * n + k)
                for name, game in sorted(GAMES.items())
                for n in range(game.info.min_players, game.info.max_players + 1)
                for k in range(_ROOMS_PER_COUNT[name])
            ]
            return list(await asyncio.gather(*work))

        played = asyncio.run(asyncio.wait_for(everything(), 300))
        _, err = server.stop()
    assert "Traceback" not in err
    return played


@pytest.mark.slow
def test_no_frame_gives_away_a_hidden_card_the_seed_or_a_token(games: list[Played]) -> None:
    positions: dict[str, int] = {}
    frames: dict[str, int] = {}
    for played in games:
        record, states = replay_json(played.record)
        assert len(states) - 1 == max(json.loads(t)["v"] for _, t in played.frames)
        secrets = [str(record.seed), *played.tokens]
        for seat, text in played.frames:
            v = json.loads(text).get("v", -1)
            state = states[max(v, 0)]
            found = leaks(text, seat, state, secrets)
            assert not found, f"{played.game} {played.players}p v{v} seat {seat}: {found}"
        positions[played.game] = positions.get(played.game, 0) + len(states)
        frames[played.game] = frames.get(played.game, 0) + len(played.frames)
    print("positions", positions, "frames", frames)
    assert set(positions) == set(GAMES)
    assert all(count >= 500 for count in positions.values()), positions
    assert sum(positions.values()) >= 3000


def test_the_checker_finds_a_planted_card(games: list[Played]) -> None:
    """The canary: a hidden card, the seed or a token put into a real frame is found."""
    played = next(p for p in games if p.game == "beor")
    record, states = replay_json(played.record)
    seat, text = next((s, t) for s, t in played.frames if s is not None)
    frame = json.loads(text)
    state = states[frame["v"]]
    hidden = sorted(state.hidden_from(seat))
    assert hidden, "BEOR keeps cards from every seat"
    assert leaks(text, seat, state, [str(record.seed)]) == []
    for planted in (hidden[0], hidden[-1].replace("T", "10")):
        frame["log"] = [*frame["log"], {"text": f"Player 2 holds {planted}"}]
        assert leaks(json.dumps(frame, ensure_ascii=False), seat, state, []) != []
    frame = json.loads(text)
    frame["view"]["note"] = str(record.seed)
    assert leaks(json.dumps(frame), seat, state, [str(record.seed)]) == [
        f"secret {str(record.seed)[:12]}"
    ]
    frame["view"]["seed"] = 1
    assert "key seed" in leaks(json.dumps(frame), seat, state, [])
