"""SIGKILL at random moments under load, seen from the clients' side: 20 rooms of the three
games, people played by clients that act as soon as they may (random legal moves, rematches
when a deal ends), bots (``random``, ``bot``) in some seats, spectators in some rooms. The
server is killed seven times after seeded random delays and started again on the same port
and database; every client reconnects (hello with its token and the last version it saw) in a
bounded retry loop, sends an act it had no answer to again under the same id, and plays on.

Checked, from what the clients received:

- after each restart, every welcome of every room is at least the highest version any socket
  of the room was told of before the kill (an ack or an update): nothing acknowledged or
  broadcast is lost;
- on every connection, the versions of the welcome and the updates that follow go up one at a
  time, and an ack comes after the update of its version; the log entries of a deal go up one
  index at a time;
- every third kill is made with the room quiet (people paused, no bot to move): after the
  restart every client's welcome is the snapshot it had before the kill (version, view, legal
  moves, log, match), and an id acknowledged before the kill, sent again with the current
  version and a legal move, gets its first ack and changes nothing;
- at the end, every acked action is in the log at its version and in the deal's record when
  the deal is over, and every finished deal's record replays to the outcome the clients saw.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, WebSocketException

from parlour.games import replay_json
from tests.server.client import WAIT, ServerProcess, create_room, http_get

KILLS = 7
FINISHED = 12
"""Deals played to the end before the run stops (their records are replayed)."""
QUIET_EVERY = 3
"""Every third kill is made with the rooms quiet, to compare snapshots across the restart."""
RECONNECT = 30.0
"""The longest a client tries to reconnect after a kill, in seconds."""

# (game, seats, options, spectators)
_ROOMS = [
    ("beor", ["person", "person"], {"max_turns": 40}, 1),
    ("beor", ["person", "random", "person"], {"max_turns": 40}, 0),
    ("death", ["person", "person", "random"], {}, 1),
    ("death", ["person", "person"], {}, 0),
    ("beggar", ["person", "bot", "person"], {}, 1),
    ("beggar", ["person", "person"], {}, 0),
]

_SNAPSHOT = ("v", "deal", "seat", "to_move", "view", "legal", "over", "outcome", "match",
             "proposals", "rematch", "commitment")  # fmt: skip


@dataclass
class Conn:
    """One websocket connection: the server generation it reached and what it received."""

    epoch: int
    ws: ClientConnection
    frames: list[dict[str, Any]] = field(default_factory=list)


@dataclass
class Ack:
    room: str
    seat: int
    kind: str
    deal: int
    v: int
    action: str | None
    cid: str


class Run:
    """What the whole test shares: the server, its generation, the pause switch."""

    def __init__(self, server: ServerProcess) -> None:
        self.server = server
        self.epoch = 0
        self.paused = False
        self.stop = False
        self.acks: dict[str, Ack] = {}
        self.resent = 0
        self.rejects: dict[str, int] = {}
        self.tasks: list[asyncio.Task[None]] = []
        self.finished: set[tuple[str, int]] = set()
        """The deals (room, deal) some client saw over."""

    def acted(self) -> int:
        """How many acts were acked so far."""
        return sum(1 for a in self.acks.values() if a.kind == "act")

    def check_tasks(self) -> None:
        """Raise what failed in a client's task, if anything did."""
        for task in self.tasks:
            if task.done() and not task.cancelled() and task.exception() is not None:
                task.result()


class Player:
    """A client of a room (a person's seat, or a spectator) that lives across reconnects."""

    def __init__(self, run: Run, room: str, token: str | None, name: str, seed: int) -> None:
        self.run, self.room, self.token, self.name = run, room, token, name
        self.rng = random.Random(seed)
        self.conns: list[Conn] = []
        self.last: dict[str, Any] = {}
        self.logs: dict[int, list[dict[str, Any]]] = {}
        """The log of each deal as this client has it (welcomes replace, updates extend)."""
        self.pending: dict[str, Any] | None = None
        """The act or rematch sent without an answer yet."""
        self.pending_deal = -1
        self.waiters: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self.count = 0

    @property
    def conn(self) -> Conn:
        return self.conns[-1]

    @property
    def seat(self) -> int | None:
        seat: int | None = self.last.get("seat")
        return seat

    @property
    def ready(self) -> bool:
        return bool(self.conns) and self.conn.epoch == self.run.epoch and bool(self.last)

    async def connect(self) -> None:
        """Connect and say hello until a welcome comes (bounded)."""
        deadline = time.monotonic() + RECONNECT
        while True:
            epoch = self.run.epoch
            try:
                url = f"{self.run.server.ws}/ws/{self.room}"
                ws = await asyncio.wait_for(connect(url, max_size=None), 2)
            except (OSError, TimeoutError, WebSocketException):
                if time.monotonic() > deadline:
                    raise AssertionError(f"{self.name} could not reconnect") from None
                await asyncio.sleep(0.05)
                continue
            conn = Conn(epoch, ws)
            try:
                hello = {"type": "hello", "token": self.token, "v": self.last.get("v", 0)}
                await ws.send(json.dumps(hello))
                while not conn.frames or conn.frames[-1]["type"] != "welcome":
                    self._take(conn, json.loads(await asyncio.wait_for(ws.recv(), WAIT)))
            except (OSError, TimeoutError, ConnectionClosed):
                await ws.close()
                if time.monotonic() > deadline:
                    raise AssertionError(f"{self.name} got no welcome") from None
                await asyncio.sleep(0.05)
                continue
            self.conns.append(conn)
            if self.pending is not None:  # no answer came before the kill: the same id again
                self.run.resent += 1
                await ws.send(json.dumps(self.pending))
            return

    def _take(self, conn: Conn, frame: dict[str, Any]) -> None:
        conn.frames.append(frame)
        kind = frame["type"]
        if kind in ("welcome", "update"):
            if kind == "update":
                assert frame["v"] == self.last["v"] + 1, (self.name, self.last["v"], frame["v"])
            self.last = frame
            if frame["over"]:
                self.run.finished.add((self.room, frame["deal"]))
            entries = frame["log"]
            log = self.logs.get(frame["deal"]) if kind == "update" else None
            if log is None:
                self.logs[frame["deal"]] = list(entries)
                assert [e["index"] for e in entries] == list(range(len(entries)))
            else:
                start = log[-1]["index"] + 1 if log else 0
                assert [e["index"] for e in entries] == list(range(start, start + len(entries)))
                log.extend(entries)
        elif kind in ("ack", "reject"):
            cid = str(frame["id"])
            waiter = self.waiters.pop(cid, None)
            if waiter is not None and not waiter.done():
                waiter.set_result(frame)
            if self.pending is not None and cid == self.pending["id"]:
                self._answered(self.pending, self.pending_deal, frame)
                self.pending = None

    def _answered(self, sent: dict[str, Any], deal: int, answer: dict[str, Any]) -> None:
        if answer["type"] == "reject":
            code = answer["code"]
            self.run.rejects[code] = self.run.rejects.get(code, 0) + 1
            assert code == "stale", (self.name, sent, answer)
            return
        # The update of the acked version reached this socket before the ack.
        assert self.last["v"] >= answer["v"], (self.name, self.last["v"], answer)
        seat = self.seat
        assert seat is not None
        if sent["type"] == "act":
            assert answer["v"] == sent["v"] + 1, (sent, answer)
            ack = Ack(self.room, seat, "act", deal, answer["v"], sent["action"], sent["id"])
        else:
            ack = Ack(self.room, seat, "rematch", -1, answer["v"], None, sent["id"])
        assert sent["id"] not in self.run.acks, "a client id is acked once"
        self.run.acks[sent["id"]] = ack

    def _next_frame(self) -> dict[str, Any] | None:
        """What this client does now: an act, a rematch request or nothing."""
        last = self.last
        if self.token is None or self.pending is not None or self.run.paused or self.run.stop:
            return None
        self.count += 1
        cid = f"{self.name}.{self.count}"
        if last["over"]:
            if self.seat in last["rematch"]:
                return None
            return {"type": "rematch", "id": cid}
        if not last["legal"]:
            return None
        return {"type": "act", "id": cid, "v": last["v"], "action": self.rng.choice(last["legal"])}

    async def play(self) -> None:
        """Read frames and act until the run stops; reconnect after a kill."""
        await self.connect()
        while not self.run.stop:
            try:
                frame = self._next_frame()
                if frame is not None:
                    self.pending, self.pending_deal = frame, self.last["deal"]
                    await self.conn.ws.send(json.dumps(frame))
                with contextlib.suppress(TimeoutError):  # recv may be cancelled safely
                    text = await asyncio.wait_for(self.conn.ws.recv(), 0.1)
                    self._take(self.conn, json.loads(text))
            except (ConnectionClosed, OSError):
                for waiter in self.waiters.values():
                    waiter.cancel()
                self.waiters.clear()
                await self.connect()

    async def ask(self, frame: dict[str, Any]) -> dict[str, Any]:
        """Send a frame and wait for its answer (the play loop reads it)."""
        waiter = asyncio.get_running_loop().create_future()
        self.waiters[str(frame["id"])] = waiter
        await self.conn.ws.send(json.dumps(frame))
        return await asyncio.wait_for(waiter, WAIT)


@dataclass
class Room:
    id: str
    kinds: list[str]
    players: list[Player]


async def _until(run: Run, predicate: Any, what: str, seconds: float = WAIT) -> None:
    deadline = time.monotonic() + seconds
    while not predicate():
        run.check_tasks()
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        await asyncio.sleep(0.02)


def _quiet(room: Room) -> bool:
    """Every client of the room connected, at one version, no act in flight, and no bot to
    move (a person is to move, or the deal is over)."""
    players = room.players
    if not all(p.ready and p.pending is None for p in players):
        return False
    if len({p.last["v"] for p in players}) != 1:
        return False
    mover = players[0].last["to_move"]
    return mover is None or room.kinds[mover] == "person"


async def _quiesce(run: Run, rooms: list[Room]) -> None:
    """Pause the people and wait until every room stays quiet for a moment."""
    run.paused = True
    for _ in range(3):
        await _until(run, lambda: all(_quiet(r) for r in rooms), "quiet rooms")
        versions = [r.players[0].last["v"] for r in rooms]
        await asyncio.sleep(0.3)
        if all(_quiet(r) for r in rooms) and versions == [r.players[0].last["v"] for r in rooms]:
            return
    raise AssertionError("the rooms did not stay quiet")


def _told(room: Room, epoch: int) -> int:
    """The highest version any client of the room was told of by generations before ``epoch``."""
    return max(
        int(f["v"])
        for p in room.players
        for c in p.conns
        if c.epoch < epoch
        for f in c.frames
        if f["type"] in ("welcome", "update", "ack")
    )


async def _restart(run: Run, rooms: list[Room], kill: int) -> None:
    """SIGKILL the server, start it on the same port and database, wait for every client to
    reconnect, and check that no room went back."""
    run.epoch += 1
    run.server.kill()
    await asyncio.to_thread(run.server.start, run.server.port)
    await _until(
        run, lambda: all(p.ready for r in rooms for p in r.players), f"reconnects (kill {kill})"
    )
    for room in rooms:
        told = _told(room, run.epoch)
        for p in room.players:
            v = _welcome(p, run.epoch)["v"]
            assert v >= told, f"kill {kill}: {p.name} welcomed at {v}, told of {told} before"


def _welcome(player: Player, epoch: int) -> dict[str, Any]:
    """The first welcome ``player`` had from server generation ``epoch``."""
    frame = next(c for c in player.conns if c.epoch == epoch).frames[0]
    assert frame["type"] == "welcome"
    return frame


async def _quiet_kill(run: Run, rooms: list[Room], kill: int) -> int:
    """Kill with every room quiet: every client's welcome is the snapshot it had, and ids
    acked before the kill, sent again with a legal move, change nothing. Returns how many
    repeated ids were checked."""
    await _quiesce(run, rooms)
    before = {
        p.name: ({k: p.last[k] for k in _SNAPSHOT}, list(p.logs[p.last["deal"]]))
        for r in rooms
        for p in r.players
    }
    await _restart(run, rooms, kill)
    for room in rooms:
        for p in room.players:
            snapshot, log = before[p.name]
            welcome = _welcome(p, run.epoch)
            assert {k: welcome[k] for k in _SNAPSHOT} == snapshot, f"kill {kill}: {p.name}"
            assert welcome["log"] == log, f"kill {kill}: {p.name}'s log"
    repeated = await asyncio.gather(*(_repeat(run, room) for room in rooms))
    run.paused = False
    return sum(repeated)


async def _repeat(run: Run, room: Room) -> int:
    """Send the mover's oldest and newest acked ids again, with the room's version and a legal
    move: each gets its first ack, and the room stays where it was."""
    mover = room.players[0].last["to_move"]
    if mover is None:
        return 0
    player = next(p for p in room.players if p.seat == mover)
    acked = [a for a in run.acks.values() if a.room == room.id and a.seat == mover]
    if not acked:
        return 0
    v = player.last["v"]
    for ack in {acked[0].cid: acked[0], acked[-1].cid: acked[-1]}.values():
        action = player.rng.choice(player.last["legal"])
        answer = await player.ask({"type": "act", "id": ack.cid, "v": v, "action": action})
        assert answer == {"type": "ack", "id": ack.cid, "v": ack.v}, (ack, answer)
    await asyncio.sleep(0.2)
    async with httpx.AsyncClient(timeout=WAIT) as http:
        facts = (await http.get(f"{run.server.url}/api/rooms/{room.id}")).json()
    assert facts["v"] == v == player.last["v"], "a repeated id is never applied again"
    return 2 if len(acked) > 1 else 1


async def _load(run: Run, rooms: list[Room], seed: int) -> dict[str, int]:
    rng = random.Random(seed)
    tasks = run.tasks = [asyncio.create_task(p.play()) for r in rooms for p in r.players]
    repeated = 0
    try:
        await _until(run, lambda: all(p.ready for r in rooms for p in r.players), "welcomes")
        for kill in range(1, KILLS + 1):
            # A random moment measured in play, not in seconds, so that a loaded machine plays
            # as much between kills as a quiet one.
            target = run.acted() + rng.randint(40, 90)
            await _until(run, lambda t=target: run.acted() >= t, f"{target} acked acts", 120)
            if kill % QUIET_EVERY == 0:
                repeated += await _quiet_kill(run, rooms, kill)
            else:
                await _restart(run, rooms, kill)
        await _until(run, lambda: len(run.finished) >= FINISHED, f"{FINISHED} finished deals", 300)
        await _quiesce(run, rooms)
        run.stop = True
        await asyncio.wait_for(asyncio.gather(*tasks), WAIT)
    finally:
        for task in tasks:
            task.cancel()
        for r in rooms:
            for p in r.players:
                if p.conns:
                    await p.conn.ws.close()
    return {"repeated": repeated}


def _check_versions(player: Player) -> None:
    """On every connection, the welcome then updates one version at a time."""
    for conn in player.conns:
        seen = [f["v"] for f in conn.frames if f["type"] in ("welcome", "update")]
        assert seen and conn.frames[0]["type"] in ("welcome", "seats", "update")
        assert seen == list(range(seen[0], seen[0] + len(seen))), (player.name, seen)


def _check_room(run: Run, room: Room) -> dict[str, int]:
    """Acked actions in the logs and records at their versions; records replay to the outcomes
    the clients saw."""
    url = run.server.url
    facts = http_get(f"{url}/api/rooms/{room.id}", timeout=WAIT).json()
    assert {p.last["v"] for p in room.players} == {facts["v"]}
    for p in room.players:
        _check_versions(p)
    acks = [a for a in run.acks.values() if a.room == room.id]
    assert max(a.v for a in acks) <= facts["v"]
    # The version at which each deal began, from updates that carried a log entry.
    starts: dict[int, set[int]] = {}
    outcomes: dict[int, set[str]] = {}
    for p in room.players:
        for c in p.conns:
            for f in c.frames:
                if f["type"] == "update" and f["log"]:
                    starts.setdefault(f["deal"], set()).add(f["v"] - f["log"][-1]["index"])
                if f["type"] in ("welcome", "update") and f["over"]:
                    outcomes.setdefault(f["deal"], set()).add(json.dumps(f["outcome"]))
    assert all(len(s) == 1 for s in starts.values()), starts
    # Every acked action is the entry at its version in the log its player holds.
    actions = [a for a in acks if a.kind == "act"]
    for ack in actions:
        entry_index = ack.v - min(starts[ack.deal])
        holder = next(p for p in room.players if p.seat == ack.seat)
        entry = holder.logs[ack.deal][entry_index]
        assert (entry["kind"], entry["seat"], entry["text"]) == ("action", ack.seat, ack.action)
    # Every finished deal's record replays to the outcome the clients saw, with every ack.
    finished = 0
    for deal, seen in outcomes.items():
        assert len(seen) == 1, f"clients saw one outcome of deal {deal}: {seen}"
        response = http_get(f"{url}/api/rooms/{room.id}/record?deal={deal}", timeout=WAIT)
        assert response.status_code == 200, response.text
        _, states = replay_json(response.json())
        outcome = states[-1].outcome
        assert outcome is not None and json.dumps(outcome.to_json()) in seen
        for ack in actions:
            if ack.deal == deal:
                step = states[ack.v - min(starts[deal])].step
                assert step is not None and (step.seat, step.text) == (ack.seat, ack.action)
        finished += 1
    return {"actions": len(actions), "finished": finished}


@pytest.mark.slow
def test_sigkill_at_random_moments_loses_nothing(tmp_path: Path) -> None:
    server = ServerProcess(tmp_path / "rooms.db", "--max-rooms", "100", "--takeover", "3600")
    server.start()
    run = Run(server)
    began = time.monotonic()
    try:
        rooms = []
        for i in range(20):
            game, kinds, options, spectators = _ROOMS[i % len(_ROOMS)]
            made = create_room(
                server.url,
                {"game": game, "players": len(kinds), "seats": kinds, "options": options},
            )
            tokens = [s.get("token") for s in made["seats"] if "token" in s]
            tokens += [None] * spectators
            players = [
                Player(run, made["room"], t, f"r{i}.{j}", seed=1000 * i + j)
                for j, t in enumerate(tokens)
            ]
            rooms.append(Room(made["room"], kinds, players))
        figures = asyncio.run(asyncio.wait_for(_load(run, rooms, seed=12), 600))
        totals = [_check_room(run, r) for r in rooms]
    finally:
        _, err = server.stop()
    actions = sum(t["actions"] for t in totals)
    finished = sum(t["finished"] for t in totals)
    print(
        f"{KILLS} kills in {time.monotonic() - began:.1f} s: {actions} acked actions checked, "
        f"{finished} finished deals replayed, {figures['repeated']} repeated ids, "
        f"{run.resent} acts sent again after a kill, rejects {run.rejects}"
    )
    assert "Traceback" not in err
    assert actions >= 500 and finished >= FINISHED and figures["repeated"] >= 10
