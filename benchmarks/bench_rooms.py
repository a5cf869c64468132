"""Online rooms under load: a real ``parlour serve`` process, rooms of bots and scripted people.

Each room is a 3-player BEOR game: two people played by scripted clients (each acts after a
think time drawn from --think, as a person would) and a random bot, watched by two spectators:
four sockets a room, 1,000 at 250 rooms. Measured: action-to-update latency (from sending an
act to the update with its version, on the acting socket and on the room's other sockets) as
p50/p99/max, actions per second (people's and bots'), memory per socket (the server's resident
memory before and after the sockets open), and the time from starting the server again after a
SIGKILL under load to a client's first welcome. Targets: p99 under 50 ms at 250 rooms, restart
under 1 s. The clients run in this one process (one core), the server in its own.

    .venv/bin/python benchmarks/bench_rooms.py                    # 100 and 250 rooms, 20 s each
    .venv/bin/python benchmarks/bench_rooms.py --rooms 250 --seconds 30 --json
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed


class Server:
    def __init__(self, db: Path, bot_delay: float) -> None:
        self.db, self.bot_delay = db, bot_delay
        self.proc: subprocess.Popen[str] | None = None
        self.port = 0

    def start(self) -> float:
        """Start the server; the seconds until its first line."""
        began = time.perf_counter()
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "parlour", "serve", "--port", str(self.port), "--db",
             str(self.db), "--quiet", "--bot-delay", str(self.bot_delay), "--rate", "1000",
             "--max-rooms", "100000"],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
        )  # fmt: skip
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        self.port = int(line.strip().rstrip("/").rsplit(":", 1)[1])
        return time.perf_counter() - began

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def rss_kib(self) -> int:
        assert self.proc is not None
        for line in Path(f"/proc/{self.proc.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
        return 0

    def kill(self) -> None:
        assert self.proc is not None
        self.proc.kill()
        self.proc.wait()

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(timeout=30)


@dataclass
class Stats:
    own: list[float] = field(default_factory=list)
    others: list[float] = field(default_factory=list)
    acts: int = 0
    rejected: int = 0
    sent: dict[tuple[str, int], tuple[float, int | None]] = field(default_factory=dict)
    """(room, version) -> when the act that makes it was sent, and by which seat."""


@dataclass
class Socket:
    room: str
    seat: int | None
    ws: ClientConnection
    last: dict[str, Any] = field(default_factory=dict)


async def _open(url: str, room: str, token: str | None) -> Socket:
    ws = await connect(f"ws://{url.removeprefix('http://')}/ws/{room}", max_size=None)
    await ws.send(json.dumps({"type": "hello", "token": token, "v": 0}))
    while True:
        frame = json.loads(await ws.recv())
        if frame["type"] == "welcome":
            return Socket(room, frame["seat"], ws, frame)


async def _reader(sock: Socket, stats: Stats, wake: asyncio.Event) -> None:
    try:
        async for text in sock.ws:
            frame = json.loads(text)
            if frame["type"] in ("welcome", "update"):
                sock.last = frame
                sent = stats.sent.get((sock.room, frame["v"]))
                if sent is not None:
                    (stats.own if frame.get("seat") == sent[1] else stats.others).append(
                        time.perf_counter() - sent[0]
                    )
                wake.set()
            elif frame["type"] == "reject":
                stats.rejected += 1
    except ConnectionClosed:
        return


async def _person(
    sock: Socket,
    stats: Stats,
    wake: asyncio.Event,
    think: tuple[float, float],
    rng: random.Random,
    until: float,
) -> None:
    n = 0
    while time.perf_counter() < until:
        wake.clear()
        if sock.last.get("legal") and not sock.last.get("over"):
            await asyncio.sleep(rng.uniform(*think))
            if not sock.last.get("legal"):
                continue
            n += 1
            v = sock.last["v"]
            stats.sent[(sock.room, v + 1)] = (time.perf_counter(), sock.seat)
            await sock.ws.send(
                json.dumps(
                    {"type": "act", "id": n, "v": v, "action": rng.choice(sock.last["legal"])}
                )
            )
            stats.acts += 1
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(wake.wait(), 1.0)


async def _rooms(url: str, count: int) -> list[dict[str, Any]]:
    async with httpx.AsyncClient(timeout=60) as client:
        body = {"game": "beor", "players": 3, "seats": ["person", "person", "random"]}
        made = []
        for _ in range(count):
            response = await client.post(f"{url}/api/rooms", json=body)
            made.append(response.json())
        return made


def _quantile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def _run(
    server: Server, rooms: int, seconds: float, think: tuple[float, float], seed: int
) -> dict[str, Any]:
    made = await _rooms(server.url, rooms)
    before = server.rss_kib()
    stats = Stats()
    sockets: list[tuple[Socket, asyncio.Event]] = []
    for room in made:
        for token in [s.get("token") for s in room["seats"] if "token" in s] + [None, None]:
            sockets.append((await _open(server.url, room["room"], token), asyncio.Event()))
    after = server.rss_kib()
    rng = random.Random(seed)
    until = time.perf_counter() + seconds
    readers = [asyncio.create_task(_reader(s, stats, e)) for s, e in sockets]
    began = time.perf_counter()
    facts_before = await _total_v(server.url, made)
    people = [
        asyncio.create_task(_person(s, stats, e, think, random.Random(rng.random()), until))
        for s, e in sockets
        if s.seat is not None
    ]
    await asyncio.gather(*people)
    elapsed = time.perf_counter() - began
    moves = await _total_v(server.url, made) - facts_before
    restart = await _restart(server, made, sockets)
    for task in readers:
        task.cancel()
    return {
        "rooms": rooms,
        "sockets": len(sockets),
        "seconds": round(elapsed, 1),
        "people_acts": stats.acts,
        "moves_per_s": round(moves / elapsed, 1),
        "latency_ms_own": _summary(stats.own),
        "latency_ms_others": _summary(stats.others),
        "kib_per_socket": round((after - before) / len(sockets), 1),
        "restart_to_welcome_s": restart,
        "rejected": stats.rejected,
    }


def _summary(values: list[float]) -> dict[str, float]:
    return {
        "count": len(values),
        "p50": round(_quantile(values, 0.5) * 1000, 2),
        "p99": round(_quantile(values, 0.99) * 1000, 2),
        "max": round(max(values, default=float("nan")) * 1000, 2),
    }


async def _total_v(url: str, made: list[dict[str, Any]]) -> int:
    async with httpx.AsyncClient(timeout=60) as client:
        total = 0
        for room in made:
            total += (await client.get(f"{url}/api/rooms/{room['room']}")).json()["v"]
        return total


async def _restart(
    server: Server, made: list[dict[str, Any]], sockets: list[tuple[Socket, asyncio.Event]]
) -> dict[str, float]:
    """SIGKILL the loaded server five times; seconds from each start to a first welcome."""
    times = []
    token = next(s["token"] for s in made[0]["seats"] if "token" in s)
    for _ in range(5):
        server.kill()
        began = time.perf_counter()
        await asyncio.to_thread(server.start)
        while True:
            try:
                await _open(server.url, made[0]["room"], token)
                break
            except OSError:
                await asyncio.sleep(0.005)
        times.append(time.perf_counter() - began)
    for sock, _ in sockets:
        await sock.ws.close()
    return {"median": round(statistics.median(times), 3), "max": round(max(times), 3)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rooms", type=int, nargs="+", default=[100, 250])
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument(
        "--think",
        type=float,
        nargs=2,
        default=[0.5, 1.5],
        metavar=("MIN", "MAX"),
        help="people's think time in seconds (default 0.5 1.5)",
    )
    parser.add_argument("--bot-delay", type=float, default=0.6)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    results = []
    for rooms in args.rooms:
        with tempfile.TemporaryDirectory() as folder:
            server = Server(Path(folder) / "rooms.db", args.bot_delay)
            server.start()
            think = (args.think[0], args.think[1])
            try:
                results.append(asyncio.run(_run(server, rooms, args.seconds, think, args.seed)))
            finally:
                server.stop()
    if args.json:
        print(json.dumps(results, indent=2))
        return
    print(
        f"parlour serve on {os.cpu_count()} cores; clients in one process; "
        f"think {args.think[0]}-{args.think[1]} s, bot delay {args.bot_delay} s"
    )
    for r in results:
        own, others = r["latency_ms_own"], r["latency_ms_others"]
        print(
            f"{r['rooms']:>4} rooms {r['sockets']:>5} sockets: {r['moves_per_s']:>7} moves/s; "
            f"act->update p50 {own['p50']} ms p99 {own['p99']} ms max {own['max']} ms "
            f"(other sockets p99 {others['p99']} ms); {r['kib_per_socket']} KiB/socket; "
            f"restart->welcome median {r['restart_to_welcome_s']['median']} s "
            f"max {r['restart_to_welcome_s']['max']} s"
        )
    big = max(results, key=lambda r: r["rooms"])
    p99 = big["latency_ms_own"]["p99"]
    restart = big["restart_to_welcome_s"]["max"]
    print(
        f"target p99 < 50 ms at {big['rooms']} rooms: {'met' if p99 < 50 else 'not met'} ({p99} ms)"
    )
    print(f"target restart < 1 s: {'met' if restart < 1 else 'not met'} ({restart} s)")


if __name__ == "__main__":
    main()
