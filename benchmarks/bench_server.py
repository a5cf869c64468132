"""A real ``parlour serve`` under rooms of bots and scripted clients.

The server runs as its own process on SQLite in a temporary folder with ``--bot-delay 0`` (bots
answer at once; ``--bot-delay`` changes it), a high ``--rate`` and otherwise its defaults (one
bot worker process, takeover after 60 s). Each room is a 3-player game, the three games in turn:
two person seats played by scripted clients and a bot seat (``random``; ``bot`` for
Beggar-My-Neighbour), watched by two spectators: four sockets a room, 400 at 100 rooms and 1,000
at 250. A scripted player acts when it is its turn (or asks for the rematch when a deal is over)
after a think time drawn from ``--think`` (default 0.5-1.5 s, a brisk person; ``--think 0 0``
acts at once, a stress test). The clients offer permessage-deflate as browsers do
(``--no-deflate``: they do not) and run in ``--clients`` worker processes (default 1), each
room's sockets in one of them.

Measured, over ``--seconds`` after a short warm-up:

- action-to-update latency: from sending an act to the update with its new version, on the
  acting socket and on the room's three other sockets; p50, p99, max;
- bot reply: from an update that gives a bot the turn to the update with the bot's move;
- moves per second (people's and bots'), people's acts per second;
- CPU in cores: the server (its bot worker included), each client process (one near 1.0 means
  the client side sets the figures: use ``--clients 2``) and every other process of the machine
  (other work on it spoils the figures, and the report says so);
- memory per socket: the server's resident memory (``VmRSS``) after the rooms are made and
  after their sockets are open, divided by the number of sockets;
- restart: ``--kills`` times, the server is killed with SIGKILL under load and started again on
  the same port and database; timed from the kill to the new process's first line (it listens),
  to a probing client's hello answered by a welcome, and to every socket welcomed again (the
  clients retry after 50-250 ms). A killed server's bot worker leaves on its own; any process
  of it still running at the next kill is counted as left over, and ended.

Targets (issue 12): p99 under 50 ms at 250 rooms, restart under 1 s.

    .venv/bin/python benchmarks/bench_server.py                       # 100 and 250 rooms
    .venv/bin/python benchmarks/bench_server.py --rooms 250 --seconds 30 --json
    .venv/bin/python benchmarks/bench_server.py --rooms 250 --profile serve.prof  # cProfile
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing
import os
import pstats
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from multiprocessing.synchronize import Event
from pathlib import Path
from queue import Empty
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, WebSocketException

GAMES = [
    ("beor", ["person", "person", "random"]),
    ("death", ["person", "person", "random"]),
    ("beggar", ["person", "person", "bot"]),
]
SPECTATORS = 2
WARM_UP = 2.0
"""Seconds of play before the measured window."""
RETRY = (0.05, 0.25)
"""Seconds a client waits before it tries to reconnect again (drawn at random)."""
BOUND = 60.0
"""The longest any wait of this benchmark may take, in seconds."""
TARGET_P99_MS = 50.0
TARGET_RESTART_S = 1.0


# -- the server --------------------------------------------------------------------------------


class Server:
    """``parlour serve`` in a process of its own (under cProfile when ``profile`` is given)."""

    def __init__(self, db: Path, profile: str | None, bot_delay: float) -> None:
        self.db, self.profile, self.bot_delay = db, profile, bot_delay
        self.proc: subprocess.Popen[str] | None = None
        self.port = 0
        self.orphans = 0
        self.dead_children: set[int] = set()

    def start(self) -> float:
        """Start the server on its port (any the first time); seconds to its first line."""
        began = time.perf_counter()
        prefix = [sys.executable]
        if self.profile is not None:
            prefix += ["-m", "cProfile", "-o", self.profile]
        self.proc = subprocess.Popen(
            [*prefix, "-m", "parlour", "serve", "--port", str(self.port), "--db", str(self.db),
             "--quiet", "--bot-delay", str(self.bot_delay), "--rate", "1000",
             "--max-rooms", "1000000"],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
        )  # fmt: skip
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if not line.startswith("Parlour is serving at "):
            raise SystemExit(f"the server did not start: {line!r}")
        self.port = int(line.strip().rstrip("/").rsplit(":", 1)[1])
        return time.perf_counter() - began

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def _proc_file(self, name: str) -> str:
        assert self.proc is not None
        return Path(f"/proc/{self.proc.pid}/{name}").read_text()

    def rss_kib(self) -> int:
        for line in self._proc_file("status").splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
        return 0

    def cpu_s(self) -> float:
        """CPU seconds (user and system) the server and its bot worker have used."""
        assert self.proc is not None
        return sum(_cpu_s(pid) for pid in [self.proc.pid, *_children(self.proc.pid)])

    def kill(self) -> None:
        """SIGKILL the server. Its bot worker (and multiprocessing's resource tracker) should
        leave on their own within about a second: any still running at the next kill or stop
        are counted in ``orphans`` and ended, so that restarts do not pile them up."""
        assert self.proc is not None
        self.reap()
        self.dead_children = set(_children(self.proc.pid))
        self.proc.kill()
        self.proc.wait()

    def reap(self) -> None:
        """Count and end the processes of a killed server still running 2 s after the kill
        (a bot worker looks for its server once a second)."""
        deadline = time.monotonic() + 2.0
        while time.monotonic() < deadline and any(
            Path(f"/proc/{pid}").exists() for pid in self.dead_children
        ):
            time.sleep(0.05)
        for pid in self.dead_children:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
                self.orphans += 1
        self.dead_children = set()

    def stop(self) -> None:
        """Ctrl-C (so a profile is written), then SIGKILL if it lingers."""
        self.reap()
        if self.proc is None or self.proc.poll() is not None:
            return
        self.proc.send_signal(signal.SIGINT)
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.kill()


def _cpu_s(pid: int) -> float:
    """CPU seconds (user and system) process ``pid`` has used (0 once it is gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _machine_busy_s() -> float:
    """CPU seconds every core of the machine has been busy (``/proc/stat``)."""
    fields = Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]
    user, nice, system, _, _, irq, softirq, steal = (int(f) for f in fields[:8])
    return (user + nice + system + irq + softirq + steal) / os.sysconf("SC_CLK_TCK")


def _children(pid: int) -> list[int]:
    """The processes whose parent is ``pid``."""
    out = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError):
                stat = (entry / "stat").read_text()
                if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                    out.append(int(entry.name))
    return out


def _create_rooms(url: str, count: int) -> list[dict[str, Any]]:
    rooms = []
    with httpx.Client(timeout=BOUND) as http:
        for i in range(count):
            game, seats = GAMES[i % len(GAMES)]
            body = {"game": game, "players": len(seats), "seats": seats}
            response = http.post(f"{url}/api/rooms", json=body)
            response.raise_for_status()
            made = response.json()
            rooms.append(
                {
                    "room": made["room"],
                    "bots": [s["seat"] for s in made["seats"] if "token" not in s],
                    "tokens": [s["token"] for s in made["seats"] if "token" in s],
                }
            )
    return rooms


# -- the clients (in worker processes) ---------------------------------------------------------


@dataclass
class Stats:
    own: list[float] = field(default_factory=list)
    others: list[float] = field(default_factory=list)
    bots: list[float] = field(default_factory=list)
    moves: int = 0
    acts: int = 0
    rejects: dict[str, int] = field(default_factory=dict)
    welcomed: Any = None
    """A counter shared with the main process: welcomes after a reconnect."""
    measuring: bool = False
    stopping: bool = False


@dataclass
class RoomClients:
    id: str
    bots: list[int]
    sent: dict[int, tuple[float, int]] = field(default_factory=dict)
    """Version -> when the act that makes it was sent, and by which seat (measured acts)."""


class Sock:
    """One socket of a room: a scripted person (``token``) or a spectator; it reconnects
    after a kill and carries on."""

    def __init__(
        self,
        base: str,
        room: RoomClients,
        token: str | None,
        watch: bool,
        stats: Stats,
        opts: Options,
        rng: random.Random,
    ) -> None:
        self.base, self.room, self.token, self.watch = base, room, token, watch
        self.stats, self.think, self.rng = stats, opts.think, rng
        self.compression: str | None = "deflate" if opts.deflate else None
        self.ws: ClientConnection | None = None
        self.last: dict[str, Any] = {}
        self.changed = asyncio.Event()
        self.count = 0
        self.turn_at: tuple[int, float] | None = None

    async def open(self) -> None:
        """Connect and say hello until a welcome comes (bounded)."""
        deadline = time.monotonic() + BOUND
        while True:
            try:
                url = self.base + self.room.id
                ws = await asyncio.wait_for(
                    connect(url, max_size=None, compression=self.compression), 5
                )
                hello = {"type": "hello", "token": self.token, "v": self.last.get("v", 0)}
                await ws.send(json.dumps(hello))
                while True:
                    frame = json.loads(await asyncio.wait_for(ws.recv(), BOUND))
                    if frame["type"] == "welcome":
                        break
            except (OSError, TimeoutError, WebSocketException):
                if time.monotonic() > deadline:
                    raise
                await asyncio.sleep(self.rng.uniform(*RETRY))
                continue
            self.ws, self.last, self.turn_at = ws, frame, None
            self.changed.set()
            return

    async def read(self) -> None:
        while not self.stats.stopping:
            assert self.ws is not None
            try:
                async for text in self.ws:
                    self._take(json.loads(text), time.perf_counter())
            except ConnectionClosed:
                pass
            if self.stats.stopping:
                return
            await self.open()
            with self.stats.welcomed.get_lock():
                self.stats.welcomed.value += 1

    def _take(self, frame: dict[str, Any], now: float) -> None:
        kind, stats = frame["type"], self.stats
        if kind == "update":
            v = frame["v"]
            sent = self.room.sent.get(v)
            if sent is not None:
                mine = self.token is not None and frame["seat"] == sent[1]
                (stats.own if mine else stats.others).append(now - sent[0])
            if self.watch:
                if self.turn_at is not None and self.turn_at[0] == v - 1 and stats.measuring:
                    stats.bots.append(now - self.turn_at[1])
                self.turn_at = (v, now) if frame["to_move"] in self.room.bots else None
                if stats.measuring and frame["log"]:
                    stats.moves += 1
            self.last = frame
            self.changed.set()
        elif kind == "welcome":
            self.last = frame
            self.changed.set()
        elif kind == "reject":
            stats.rejects[frame["code"]] = stats.rejects.get(frame["code"], 0) + 1

    async def play(self) -> None:
        """A scripted person: when it may act, think, then act (or ask for the rematch)."""
        while not self.stats.stopping:
            await self.changed.wait()
            self.changed.clear()
            last, seat = self.last, self.last["seat"]
            if last["over"]:
                if seat in last["rematch"]:
                    continue
            elif not last["legal"]:
                continue
            await asyncio.sleep(self.rng.uniform(*self.think))
            if self.last is not last or self.ws is None:
                continue  # something happened meanwhile: look again
            self.count += 1
            if last["over"]:
                frame: dict[str, Any] = {"type": "rematch", "id": self.count}
            else:
                action = self.rng.choice(last["legal"])
                frame = {"type": "act", "id": self.count, "v": last["v"], "action": action}
                if self.stats.measuring:
                    self.room.sent[last["v"] + 1] = (time.perf_counter(), seat)
                    self.stats.acts += 1
            with contextlib.suppress(ConnectionClosed):
                await self.ws.send(json.dumps(frame))


def _worker(*args: Any) -> None:
    """A client process: :func:`_clients` on an event loop of its own (same arguments)."""
    asyncio.run(_clients(*args))


async def _clients(
    url: str,
    rooms: list[dict[str, Any]],
    opts: Options,
    seed: int,
    queue: Any,
    go: Event,
    measure: Event,
    stop: Event,
    welcomed: Any,
) -> None:
    rng = random.Random(seed)
    stats = Stats(welcomed=welcomed)
    base = url.replace("http://", "ws://", 1) + "/ws/"
    socks = []
    for made in rooms:
        room = RoomClients(made["room"], made["bots"])
        for token in made["tokens"]:
            socks.append(Sock(base, room, token, False, stats, opts, random.Random(rng.random())))
        for i in range(SPECTATORS):
            socks.append(Sock(base, room, None, i == 0, stats, opts, random.Random(rng.random())))
    limit = asyncio.Semaphore(16)

    async def opened(sock: Sock) -> None:
        async with limit:
            await sock.open()

    await asyncio.gather(*(opened(s) for s in socks))
    queue.put(("opened", len(socks)))
    await asyncio.to_thread(go.wait, BOUND)
    tasks = [asyncio.create_task(s.read()) for s in socks]
    tasks += [asyncio.create_task(s.play()) for s in socks if s.token is not None]
    window: list[tuple[float, float]] = []
    """(CPU seconds, wall seconds) when measuring began and ended."""
    while not stop.is_set():
        was = stats.measuring
        stats.measuring = measure.is_set()
        if stats.measuring != was:
            window.append((time.process_time(), time.perf_counter()))
        failed = [t for t in tasks if t.done() and not t.cancelled() and t.exception()]
        if failed:
            failed[0].result()
        await asyncio.sleep(0.05)
    if len(window) % 2:
        window.append((time.process_time(), time.perf_counter()))
    stats.measuring, stats.stopping = False, True
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    for sock in socks:
        if sock.ws is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(sock.ws.close(), 1)
    result = {
        "own": stats.own,
        "others": stats.others,
        "bots": stats.bots,
        "moves": stats.moves,
        "acts": stats.acts,
        "rejects": stats.rejects,
        "cpu": (window[1][0] - window[0][0]) / (window[1][1] - window[0][1]) if window else 0.0,
    }
    queue.put(("done", result))


# -- one run -----------------------------------------------------------------------------------


@dataclass
class Options:
    rooms: int
    seconds: float
    think: tuple[float, float]
    clients: int
    kills: int
    seed: int
    profile: str | None
    bot_delay: float
    deflate: bool


def _quantiles(values: list[float]) -> dict[str, float | None]:
    if not values:
        return {"count": 0, "p50": None, "p99": None, "max": None}
    ordered = sorted(values)

    def at(q: float) -> float:
        return round(ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000, 1)

    return {"count": len(ordered), "p50": at(0.5), "p99": at(0.99), "max": at(1.0)}


def _spread(values: list[float]) -> dict[str, float | None]:
    if not values:
        return {"median": None, "max": None}
    return {"median": round(statistics.median(values), 3), "max": round(max(values), 3)}


async def _probe(url: str, room: str, token: str) -> float:
    """Seconds until a hello on ``room`` is answered by a welcome (retrying, bounded)."""
    began = time.perf_counter()
    ws_url = url.replace("http://", "ws://", 1) + f"/ws/{room}"
    while time.perf_counter() - began < BOUND:
        try:
            async with connect(ws_url, max_size=None, open_timeout=BOUND) as ws:
                await ws.send(json.dumps({"type": "hello", "token": token, "v": 0}))
                while True:
                    frame = json.loads(await asyncio.wait_for(ws.recv(), BOUND))
                    if frame["type"] == "welcome":
                        return time.perf_counter()
        except (OSError, WebSocketException):
            await asyncio.sleep(0.005)
    raise TimeoutError("no welcome")


def _messages(queue: Any, kind: str, workers: list[Any]) -> list[Any]:
    """One message of ``kind`` from each client process (bounded; a process that died is
    reported at once)."""
    out: list[Any] = []
    deadline = time.monotonic() + BOUND
    while len(out) < len(workers):
        try:
            got, body = queue.get(timeout=0.5)
        except Empty:
            if any(not w.is_alive() for w in workers) or time.monotonic() > deadline:
                raise SystemExit(f"a client process failed before {kind!r}") from None
            continue
        if got == kind:
            out.append(body)
    return out


def _run(opts: Options, folder: Path) -> dict[str, Any]:
    server = Server(folder / "rooms.db", opts.profile, opts.bot_delay)
    server.start()
    rooms = _create_rooms(server.url, opts.rooms)
    rss_rooms = server.rss_kib()
    ctx = multiprocessing.get_context("spawn")
    queue: Any = ctx.Queue()
    go, measure, stop = ctx.Event(), ctx.Event(), ctx.Event()
    welcomed: Any = ctx.Value("i", 0)
    workers = []
    for i in range(opts.clients):
        share = rooms[i :: opts.clients]
        args = (server.url, share, opts, opts.seed + i, queue, go, measure, stop, welcomed)
        workers.append(ctx.Process(target=_worker, args=args, daemon=True))
    for w in workers:
        w.start()
    restarts: list[dict[str, float]] = []
    try:
        sockets = sum(_messages(queue, "opened", workers))
        rss_sockets = server.rss_kib()
        go.set()
        time.sleep(WARM_UP)
        cpu, busy, began = server.cpu_s(), _machine_busy_s(), time.perf_counter()
        measure.set()
        time.sleep(opts.seconds)
        measure.clear()
        elapsed = time.perf_counter() - began
        server_cpu = (server.cpu_s() - cpu) / elapsed
        machine = (_machine_busy_s() - busy) / elapsed
        rss_end = server.rss_kib()
        for _ in range(opts.kills):
            time.sleep(2.0)  # under load, every socket connected
            back = welcomed.value + sockets
            server.kill()
            killed = time.perf_counter()
            server.start()
            listening = time.perf_counter() - killed
            token = rooms[0]["tokens"][0]
            welcome = asyncio.run(_probe(server.url, rooms[0]["room"], token)) - killed
            while welcomed.value < back:
                if time.perf_counter() - killed > BOUND:
                    raise SystemExit("the clients did not all reconnect")
                time.sleep(0.005)
            all_back = time.perf_counter() - killed
            restarts.append({"listening": listening, "welcome": welcome, "all_back": all_back})
        stop.set()
        results = _messages(queue, "done", workers)
    finally:
        stop.set()
        server.stop()
        for w in workers:
            w.join(timeout=10)
            if w.is_alive():
                w.kill()
    rejects: dict[str, int] = {}
    for r in results:
        for code, n in r["rejects"].items():
            rejects[code] = rejects.get(code, 0) + n
    return {
        "rooms": opts.rooms,
        "sockets": sockets,
        "think_s": list(opts.think),
        "seconds": round(elapsed, 1),
        "moves_per_s": round(sum(r["moves"] for r in results) / elapsed, 1),
        "acts_per_s": round(sum(r["acts"] for r in results) / elapsed, 1),
        "latency_ms_own": _quantiles([x for r in results for x in r["own"]]),
        "latency_ms_others": _quantiles([x for r in results for x in r["others"]]),
        "bot_reply_ms": _quantiles([x for r in results for x in r["bots"]]),
        "server_cpu": round(server_cpu, 2),
        "client_cpu": [round(r["cpu"], 2) for r in results],
        "other_cpu": round(max(0.0, machine - server_cpu - sum(r["cpu"] for r in results)), 2),
        "rss_mib": {
            "rooms": round(rss_rooms / 1024, 1),
            "sockets": round(rss_sockets / 1024, 1),
            "end": round(rss_end / 1024, 1),
        },
        "kib_per_socket": round((rss_sockets - rss_rooms) / sockets, 1),
        "restart_s": {
            "count": len(restarts),
            "listening": _spread([r["listening"] for r in restarts]),
            "first_welcome": _spread([r["welcome"] for r in restarts]),
            "all_back": _spread([r["all_back"] for r in restarts]),
            "orphans_per_kill": server.orphans / max(1, len(restarts)),
        },
        "rejects": rejects,
    }


# -- the report --------------------------------------------------------------------------------


def _verdict(ok: bool) -> str:
    return "met" if ok else "NOT MET"


def _report(results: list[dict[str, Any]], opts: argparse.Namespace) -> None:
    print(
        f"parlour serve on {os.cpu_count()} cores; {opts.clients} client process(es); "
        f"3-player rooms (beor, death, beggar): 2 scripted people, 1 bot, {SPECTATORS} "
        f"spectators; think {opts.think[0]}-{opts.think[1]} s, bot delay {opts.bot_delay:g} s; "
        f"{opts.seconds:g} s measured after {WARM_UP:g} s"
        + ("; no permessage-deflate" if opts.no_deflate else "")
    )
    rows: list[tuple[str, list[str]]] = []

    def lat(key: str) -> list[str]:
        return [f"{r[key]['p50']} / {r[key]['p99']} / {r[key]['max']}" for r in results]

    def spread(key: str) -> list[str]:
        return [
            f"{r['restart_s'][key]['median']} / {r['restart_s'][key]['max']}"
            if r["restart_s"]["count"]
            else "-"
            for r in results
        ]

    rows += [
        ("sockets", [str(r["sockets"]) for r in results]),
        ("moves/s (people and bots)", [str(r["moves_per_s"]) for r in results]),
        ("people's acts/s", [str(r["acts_per_s"]) for r in results]),
        ("act->update, acting socket ms p50/p99/max", lat("latency_ms_own")),
        ("act->update, other sockets ms p50/p99/max", lat("latency_ms_others")),
        ("bot reply ms p50/p99/max", lat("bot_reply_ms")),
        ("server CPU, bot worker included (cores)", [str(r["server_cpu"]) for r in results]),
        ("client CPU per process (cores)", [" ".join(map(str, r["client_cpu"])) for r in results]),
        ("other processes' CPU (cores)", [str(r["other_cpu"]) for r in results]),
        (
            "server RSS MiB rooms/sockets/end",
            ["{rooms} / {sockets} / {end}".format(**r["rss_mib"]) for r in results],
        ),
        ("memory per socket KiB", [str(r["kib_per_socket"]) for r in results]),
        ("restart: kill->listening s med/max", spread("listening")),
        ("restart: kill->first welcome s med/max", spread("first_welcome")),
        ("restart: kill->all sockets back s med/max", spread("all_back")),
        (
            "restart: processes left per SIGKILL",
            [
                str(r["restart_s"]["orphans_per_kill"]) if r["restart_s"]["count"] else "-"
                for r in results
            ],
        ),
        ("rejects", [json.dumps(r["rejects"]) for r in results]),
    ]
    width = max(len(name) for name, _ in rows)
    print(f"{'rooms':<{width}}  " + "  ".join(f"{r['rooms']:>22}" for r in results))
    for name, cells in rows:
        print(f"{name:<{width}}  " + "  ".join(f"{c:>22}" for c in cells))
    for r in results:
        if r["other_cpu"] > 0.25:
            print(
                f"note: at {r['rooms']} rooms other processes kept {r['other_cpu']} cores busy: "
                "the figures are not those of a quiet machine"
            )
        if max(r["client_cpu"]) > 0.85:
            print(
                f"note: at {r['rooms']} rooms a client process used {max(r['client_cpu'])} of "
                "a core: the client side may add to the latencies (try --clients 2)"
            )
    if any(r["restart_s"]["orphans_per_kill"] for r in results):
        print(
            "note: processes of a killed server were still running at the next kill; "
            "this benchmark ended them"
        )
    big = max(results, key=lambda r: r["rooms"])
    p99 = big["latency_ms_own"]["p99"]
    print(
        f"target: act->update p99 < {TARGET_P99_MS:g} ms at {big['rooms']} rooms: "
        f"{_verdict(p99 is not None and p99 < TARGET_P99_MS)} ({p99} ms)"
    )
    if big["restart_s"]["count"]:
        worst = big["restart_s"]["first_welcome"]["max"]
        print(
            f"target: restart (kill -> a client's welcome) < {TARGET_RESTART_S:g} s at "
            f"{big['rooms']} rooms: {_verdict(worst is not None and worst < TARGET_RESTART_S)} "
            f"(max {worst} s of {big['restart_s']['count']})"
        )


def _show_profile(path: str) -> None:
    print(f"\nserver profile ({path}), by own time:")
    stats = pstats.Stats(path)
    stats.sort_stats("tottime").print_stats(25)
    stats.sort_stats("cumulative").print_stats(40)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rooms", type=int, nargs="+", default=[100, 250])
    parser.add_argument("--seconds", type=float, default=20.0, help="measured seconds")
    parser.add_argument(
        "--think",
        type=float,
        nargs=2,
        default=[0.5, 1.5],
        metavar=("MIN", "MAX"),
        help="people's think time in seconds (default 0.5 1.5; 0 0: at once)",
    )
    parser.add_argument("--clients", type=int, default=1, help="client processes (default 1)")
    parser.add_argument("--kills", type=int, default=5, help="SIGKILL restarts per room count")
    parser.add_argument(
        "--bot-delay", type=float, default=0.0, help="the server's pause before a bot moves (0)"
    )
    parser.add_argument(
        "--no-deflate",
        action="store_true",
        help="clients do not offer permessage-deflate (browsers do), so frames go uncompressed",
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--profile",
        metavar="FILE",
        help="run the server under cProfile (no restarts) and print where it spends its time",
    )
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    results = []
    for rooms in args.rooms:
        opts = Options(
            rooms,
            args.seconds,
            (args.think[0], args.think[1]),
            max(1, args.clients),
            0 if args.profile else args.kills,
            args.seed,
            args.profile,
            args.bot_delay,
            not args.no_deflate,
        )
        with tempfile.TemporaryDirectory() as folder:
            results.append(_run(opts, Path(folder)))
    if args.json:
        print(json.dumps(results, indent=2))
    else:
        _report(results, args)
    if args.profile:
        _show_profile(args.profile)


if __name__ == "__main__":
    main()
