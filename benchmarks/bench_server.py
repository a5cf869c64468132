"""A real ``parlour serve`` under rooms of bots and scripted clients: ``make bench-server``.

Three cases (``--case``, default all; the figures are printed as a table and written as JSON to
``--out``, default build/bench-server.json):

- ``latency``: ``--rooms`` (250) rooms on one process over SQLite, ``--runs`` (3) times, each
  run reported; target p99 act->update under 50 ms in every run. The first run also kills the
  server ``--kills`` times under load (target: a client welcomed again within 1 s).
- ``workers``: ``--workers-rooms`` (1,000) rooms on ``parlour serve --workers 2`` over a
  throw-away PostgreSQL (Debian's package; made in a temporary folder), the clients in two
  processes; target p99 act->update under 100 ms.
- ``capacity``: the figure a host plans with: rooms of two people and one ``expert`` bot (BEOR
  and the Game of Death in turn) on one bot worker process (``--bot-workers 1``), 4, 8, ...
  rooms (``--capacity FIRST STEP LAST``) until the p99 bot reply passes 2 s; the largest count
  that held is reported.

The server runs with ``--bot-delay 0`` (bots answer at once; ``--bot-delay`` changes it), a high
``--rate`` and otherwise its defaults. In the latency and workers cases each room is a 3-player
game, the three games in turn: two person seats played by scripted clients and a bot seat
(``random``; ``bot`` for Beggar-My-Neighbour), watched by two spectators: four sockets a room,
1,000 at 250. A scripted player acts when it is its turn (or asks for the rematch when a deal is
over) after a think time drawn from ``--think`` (default 0.5-1.5 s, a brisk person; ``--think 0
0`` acts at once, a stress test). The clients offer permessage-deflate as browsers do
(``--no-deflate``: they do not) and run in ``--clients`` worker processes (default 1), each
room's sockets in one of them (bench_clients.py).

Measured, over ``--seconds`` after a short warm-up:

- action-to-update latency: from sending an act to the update with its new version, on the
  acting socket and on the room's three other sockets; p50, p99, max;
- bot reply: from an update that gives a bot the turn to the update with the bot's move;
- moves per second (people's and bots'), people's acts per second;
- CPU in cores: the server (its bot workers and ``--workers`` processes included), each client
  process (one near 1.0 means the client side sets the figures: use ``--clients 2``) and every
  other process of the machine (other work on it spoils the figures, and the report says so,
  as it gives the machine's load averages before and after each run);
- memory per socket: the server's resident memory (``VmRSS``) after the rooms are made and
  after their sockets are open, divided by the number of sockets;
- restart: the server is killed with SIGKILL under load and started again on the same port and
  database; timed from the kill to the new process's first line (it listens), to a probing
  client's hello answered by a welcome, and to every socket welcomed again.

    .venv/bin/python benchmarks/bench_server.py                        # all three cases
    .venv/bin/python benchmarks/bench_server.py --case latency --runs 1 --kills 0
    .venv/bin/python benchmarks/bench_server.py --case capacity --capacity 8 8 48
    .venv/bin/python benchmarks/bench_server.py --case latency --runs 1 --profile serve.prof
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import pstats
import statistics
import tempfile
import time
from dataclasses import replace
from pathlib import Path
from queue import Empty
from typing import Any

from websockets.asyncio.client import connect
from websockets.exceptions import WebSocketException

from bench_clients import SPECTATORS, Options, worker
from serving import BOUND, Server, create_rooms, load, machine_busy_s, postgres

GAMES = [
    ("beor", ["person", "person", "random"]),
    ("death", ["person", "person", "random"]),
    ("beggar", ["person", "person", "bot"]),
]
EXPERT_GAMES = [
    ("beor", ["person", "person", "expert"]),
    ("death", ["person", "person", "expert"]),
]
CASES = ("latency", "workers", "capacity")
WARM_UP = 2.0
"""Seconds of play before the measured window."""
TARGET_P99_MS = 50.0
TARGET_WORKERS_P99_MS = 100.0
TARGET_BOT_MS = 2000.0
TARGET_RESTART_S = 1.0


# -- one run -----------------------------------------------------------------------------------


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


def _messages(queue: Any, kind: str, workers: list[Any], bound: float = BOUND) -> list[Any]:
    """One message of ``kind`` from each client process (within ``bound`` seconds; a process
    that died is reported at once)."""
    out: list[Any] = []
    deadline = time.monotonic() + bound
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


def _run(opts: Options, folder: Path, label: str) -> dict[str, Any]:
    if not opts.postgres:
        return _run_on(opts, str(folder / "rooms.db"), label)
    with postgres() as db:
        return _run_on(opts, db, label)


def _run_on(opts: Options, db: str, label: str) -> dict[str, Any]:
    server = Server(db, opts.profile, opts.bot_delay, opts.serve)
    server.start()
    tree = "--workers" in opts.serve  # the server is several processes
    load_before = load()
    rooms = create_rooms(server.url, opts.rooms, opts.games)
    rss_rooms = server.rss_kib(tree)
    ctx = multiprocessing.get_context("spawn")
    queue: Any = ctx.Queue()
    go, measure, stop = ctx.Event(), ctx.Event(), ctx.Event()
    welcomed: Any = ctx.Value("i", 0)
    workers = []
    for i in range(opts.clients):
        share = rooms[i :: opts.clients]
        args = (server.url, share, opts, opts.seed + i, queue, go, measure, stop, welcomed)
        workers.append(ctx.Process(target=worker, args=args, daemon=True))
    for w in workers:
        w.start()
    restarts: list[dict[str, float]] = []
    try:
        expected = opts.rooms * (2 + SPECTATORS)  # 4,000 sockets take a while to open
        sockets = sum(_messages(queue, "opened", workers, max(BOUND, expected / 20)))
        rss_sockets = server.rss_kib(tree)
        go.set()
        time.sleep(WARM_UP)
        cpu, busy, began = server.cpu_s(), machine_busy_s(), time.perf_counter()
        measure.set()
        time.sleep(opts.seconds)
        measure.clear()
        elapsed = time.perf_counter() - began
        server_cpu = (server.cpu_s() - cpu) / elapsed
        machine = (machine_busy_s() - busy) / elapsed
        rss_end = server.rss_kib(tree)
        load_after = load()
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
        "run": label,
        "rooms": opts.rooms,
        "sockets": sockets,
        "serve": " ".join(opts.serve) + (" --db postgresql://..." if opts.postgres else ""),
        "games": [f"{g}: {' '.join(seats)}" for g, seats in opts.games],
        "think_s": list(opts.think),
        "seconds": round(elapsed, 1),
        "load": {"before": load_before, "after": load_after},
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


# -- the cases ---------------------------------------------------------------------------------


def _options(args: argparse.Namespace, rooms: int, **changes: Any) -> Options:
    opts = Options(
        rooms=rooms,
        seconds=args.seconds,
        think=(args.think[0], args.think[1]),
        clients=max(1, args.clients),
        kills=0 if args.profile else args.kills,
        seed=args.seed,
        profile=args.profile,
        bot_delay=args.bot_delay,
        deflate=not args.no_deflate,
        games=GAMES,
    )
    return replace(opts, **changes)


def _case_latency(args: argparse.Namespace, out: list[dict[str, Any]]) -> list[str]:
    verdicts = []
    for rooms in args.rooms:
        for run in range(args.runs):
            opts = _options(args, rooms, kills=args.kills if run == 0 else 0, seed=args.seed + run)
            out.append(_one(opts, f"latency {rooms} rooms, run {run + 1}", "latency"))
    for rooms in args.rooms:
        p99s = [r["latency_ms_own"]["p99"] for r in out if r["case"] == "latency"
                and r["rooms"] == rooms]  # fmt: skip
        met = sum(p is not None and p < TARGET_P99_MS for p in p99s)
        verdicts.append(
            f"latency: act->update p99 < {TARGET_P99_MS:g} ms at {rooms} rooms on one process: "
            f"{_verdict(met == len(p99s))} in {met} runs of {len(p99s)} ({p99s} ms)"
        )
        firsts = [r for r in out if r["case"] == "latency" and r["restart_s"]["count"]]
        for r in firsts:
            worst = r["restart_s"]["first_welcome"]["max"]
            ok = worst is not None and worst < TARGET_RESTART_S
            verdicts.append(
                f"restart (kill -> a client's welcome) < {TARGET_RESTART_S:g} s at {r['rooms']} "
                f"rooms: {_verdict(ok)} (max {worst} s of {r['restart_s']['count']})"
            )
    return verdicts


def _case_workers(args: argparse.Namespace, out: list[dict[str, Any]]) -> list[str]:
    serve = ("--workers", str(args.workers))
    opts = _options(args, args.workers_rooms, kills=0, serve=serve, postgres=True,
                    clients=max(2, args.clients))  # fmt: skip
    try:
        r = _one(opts, f"{args.workers_rooms} rooms, --workers {args.workers}", "workers")
    except SystemExit as refused:
        return [f"workers: NOT RUN: {refused}"]
    out.append(r)
    p99 = r["latency_ms_own"]["p99"]
    return [
        f"workers: act->update p99 < {TARGET_WORKERS_P99_MS:g} ms at {r['rooms']} rooms / "
        f"{r['sockets']} sockets on --workers {args.workers} over PostgreSQL: "
        f"{_verdict(p99 is not None and p99 < TARGET_WORKERS_P99_MS)} ({p99} ms)"
    ]


def _case_capacity(args: argparse.Namespace, out: list[dict[str, Any]]) -> list[str]:
    """More rooms of people and one expert bot each, on one bot worker, until the p99 bot
    reply passes the target: the largest count that held."""
    held: dict[str, Any] | None = None
    rooms = args.capacity[0]
    while rooms <= args.capacity[2]:
        opts = _options(args, rooms, kills=0, games=EXPERT_GAMES, seconds=args.capacity_seconds,
                        serve=("--bot-workers", "1"))  # fmt: skip
        r = _one(opts, f"capacity {rooms} rooms", "capacity")
        out.append(r)
        p99 = r["bot_reply_ms"]["p99"]
        if p99 is None or p99 >= TARGET_BOT_MS:
            break
        held = r
        rooms += args.capacity[1]
    if held is None:
        return [f"capacity: not even {args.capacity[0]} rooms held bot replies under "
                f"{TARGET_BOT_MS / 1000:g} s at p99"]  # fmt: skip
    return [
        f"capacity: {held['rooms']} rooms ({held['sockets']} sockets), each with people and one "
        f"expert bot, held bot replies p99 {held['bot_reply_ms']['p99']} ms < "
        f"{TARGET_BOT_MS / 1000:g} s on one bot worker process (load {held['load']['after']})"
    ]


def _one(opts: Options, label: str, case: str) -> dict[str, Any]:
    print(f"running: {label} (load {load()})", flush=True)
    with tempfile.TemporaryDirectory() as folder:
        result = _run(opts, Path(folder), label)
    result["case"] = case
    return result


# -- the report --------------------------------------------------------------------------------


def _verdict(ok: bool) -> str:
    return "met" if ok else "NOT MET"


def _report(results: list[dict[str, Any]], args: argparse.Namespace) -> None:
    from rich.console import Console
    from rich.table import Table

    def lat(key: str) -> list[str]:
        return [f"{r[key]['p50']} / {r[key]['p99']} / {r[key]['max']}" for r in results]

    def spread(key: str) -> list[str]:
        return [
            f"{r['restart_s'][key]['median']} / {r['restart_s'][key]['max']}"
            if r["restart_s"]["count"]
            else "-"
            for r in results
        ]

    rows: list[tuple[str, list[str]]] = [
        ("server options", [r["serve"] or "-" for r in results]),
        ("sockets", [str(r["sockets"]) for r in results]),
        ("load before / after (1, 5, 15 min)",
         [f"{r['load']['before']} / {r['load']['after']}" for r in results]),
        ("moves/s (people and bots)", [str(r["moves_per_s"]) for r in results]),
        ("people's acts/s", [str(r["acts_per_s"]) for r in results]),
        ("act->update, acting socket ms p50/p99/max", lat("latency_ms_own")),
        ("act->update, other sockets ms p50/p99/max", lat("latency_ms_others")),
        ("bot reply ms p50/p99/max", lat("bot_reply_ms")),
        ("server CPU, bot workers included (cores)", [str(r["server_cpu"]) for r in results]),
        ("client CPU per process (cores)", [" ".join(map(str, r["client_cpu"])) for r in results]),
        ("other processes' CPU (cores)", [str(r["other_cpu"]) for r in results]),
        ("server RSS MiB rooms/sockets/end",
         ["{rooms} / {sockets} / {end}".format(**r["rss_mib"]) for r in results]),
        ("memory per socket KiB", [str(r["kib_per_socket"]) for r in results]),
        ("restart: kill->listening s med/max", spread("listening")),
        ("restart: kill->first welcome s med/max", spread("first_welcome")),
        ("restart: kill->all sockets back s med/max", spread("all_back")),
        ("rejects", [json.dumps(r["rejects"]) for r in results]),
    ]  # fmt: skip
    table = Table(
        title=f"parlour serve on {os.cpu_count()} cores; think {args.think[0]}-{args.think[1]} s, "
        f"bot delay {args.bot_delay:g} s; measured after {WARM_UP:g} s of play"
        + ("; no permessage-deflate" if args.no_deflate else "")
    )
    table.add_column("", no_wrap=True)
    for r in results:
        table.add_column(r["run"], justify="right")
    for name, cells in rows:
        table.add_row(name, *cells)
    Console(width=max(120, 44 + 32 * len(results))).print(table)
    for r in results:
        if r["other_cpu"] > 0.25:
            print(
                f"note: {r['run']}: other processes kept {r['other_cpu']} cores busy: "
                "the figures are not those of a quiet machine"
            )
        if max(r["client_cpu"]) > 0.85:
            print(
                f"note: {r['run']}: a client process used {max(r['client_cpu'])} of a core: "
                "the client side may add to the latencies (try --clients 2)"
            )


def _show_profile(path: str) -> None:
    print(f"\nserver profile ({path}), by own time:")
    stats = pstats.Stats(path)
    stats.sort_stats("tottime").print_stats(25)
    stats.sort_stats("cumulative").print_stats(40)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--case",
        choices=CASES,
        nargs="+",
        default=list(CASES),
        help="what to measure (default all): latency (--rooms on one process, --runs times), "
        "workers (--workers-rooms on --workers N over PostgreSQL), capacity (rooms with an "
        "expert bot each, more until the p99 bot reply passes 2 s)",
    )
    parser.add_argument("--rooms", type=int, nargs="+", default=[250], help="latency: rooms")
    parser.add_argument("--runs", type=int, default=3, help="latency: runs per room count (3)")
    parser.add_argument("--workers", type=int, default=2, help="workers: server processes (2)")
    parser.add_argument("--workers-rooms", type=int, default=1000, help="workers: rooms (1000)")
    parser.add_argument(
        "--capacity",
        type=int,
        nargs=3,
        default=[4, 4, 64],
        metavar=("FIRST", "STEP", "LAST"),
        help="capacity: room counts tried (default 4 4 64: 4, 8, ... up to 64)",
    )
    parser.add_argument(
        "--capacity-seconds", type=float, default=30.0, help="capacity: measured seconds (30)"
    )
    parser.add_argument("--seconds", type=float, default=20.0, help="measured seconds (20)")
    parser.add_argument(
        "--think",
        type=float,
        nargs=2,
        default=[0.5, 1.5],
        metavar=("MIN", "MAX"),
        help="people's think time in seconds (default 0.5 1.5; 0 0: at once)",
    )
    parser.add_argument("--clients", type=int, default=1, help="client processes (default 1)")
    parser.add_argument(
        "--kills", type=int, default=5, help="latency: SIGKILL restarts after the first run (5)"
    )
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
    parser.add_argument(
        "--out", default="build/bench-server.json", help="the figures as JSON (this file)"
    )
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    results: list[dict[str, Any]] = []
    verdicts: list[str] = []
    cases = {"latency": _case_latency, "workers": _case_workers, "capacity": _case_capacity}
    for case in args.case:
        verdicts += cases[case](args, results)
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps({"results": results, "verdicts": verdicts}, indent=2) + "\n")
    if args.json:
        print(json.dumps(results, indent=2))
    elif results:
        _report(results, args)
    for line in verdicts:
        print(line)
    print(f"figures: {out}")
    if args.profile:
        _show_profile(args.profile)


if __name__ == "__main__":
    main()
