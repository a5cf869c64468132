"""How long the server's event loop stops for a full garbage collection while it holds many
rooms (docs/hosts.md, "Sockets and memory"): ``parlour serve`` collects the oldest generation
once a hundred rooms, and at least as many as it holds, have left memory
(:mod:`parlour.server.memory`), and that pause grows with what the process holds.

In process, with the collector set up as ``parlour serve`` sets it (what start-up loaded frozen,
the young threshold raised): ``--rooms`` (250) rooms of four people, each with ``--moves`` (60)
moves played and a spectator's socket sent every frame, held by a hub over SQLite. Timed,
``--runs`` (5) times each: ``gc.collect(1)`` (the younger generations only, on the heap as the
rooms left it), ``gc.collect()`` (what the server runs), and ``gc.collect()`` once everything
held is frozen too (the part of the pause that is the rooms' own objects). Prints the
milliseconds and the machine's load, and the objects the collector tracks.

    .venv/bin/python benchmarks/gc_pause.py
    .venv/bin/python benchmarks/gc_pause.py --rooms 100 --moves 200
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import random
import statistics
import tempfile
import time
from functools import partial
from pathlib import Path
from typing import Any

from parlour.games import find_game
from parlour.server.hub import Conn, Hub, Settings
from parlour.server.protocol import Bucket
from parlour.server.room import Room, new_deal_event
from parlour.server.store import RoomRow, SeatRow, SqliteStore


def _load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


async def _rooms(hub: Hub, count: int, moves: int, rng: random.Random) -> list[Room]:
    """``count`` rooms of four people, each with ``moves`` moves played (or its whole deal),
    each with a socket that is sent every frame."""
    game = find_game("beor")
    options = dict(game.options({}).items())
    rooms = []
    for n in range(count):
        name = f"room{n:04d}"
        seats = tuple(SeatRow(i, "person", f"Player {i + 1}", b"x") for i in range(4))
        row = RoomRow(name, game.name, 4, options, seats, "bench", time.time())
        await hub.store.create_room(row, new_deal_event(0, 0))
        room = await hub.room(name)
        assert room is not None
        sent: list[Any] = []
        conn = Conn(name, None, sent.append, Bucket(1000.0, 1000))
        await hub.join(room, conn)
        for k in range(moves):
            seat = room.state.to_move
            if seat is None or room.state.is_over:
                break
            text = str(rng.choice(room.state.legal_actions()))
            asker = Conn(name, seat, sent.append, Bucket(1000.0, 1000))
            act = partial(room.prepare_act, seat, room.v, text, None)
            await hub.request(asker, room, f"m{k}", act)
            sent.clear()
        rooms.append(room)
    return rooms


def _timed(what: int, runs: int) -> dict[str, list[float]]:
    """Milliseconds of ``gc.collect(what)``, ``runs`` times: wall time (the loop's pause on
    this machine as loaded) and the thread's CPU time (the pause on a core of its own)."""
    wall, cpu = [], []
    for _ in range(runs):
        began, began_cpu = time.perf_counter(), time.thread_time()
        gc.collect(what)
        cpu.append((time.thread_time() - began_cpu) * 1000)
        wall.append((time.perf_counter() - began) * 1000)
    return {"wall": wall, "cpu": cpu}


async def _measure(opts: argparse.Namespace) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as folder:
        store = SqliteStore(Path(folder) / "rooms.db")
        settings = Settings(takeover=3600.0, bot_delay=0.0, bot_workers=0, room_idle=1e9)
        hub = Hub(store, settings)
        await hub.start()
        try:
            gc.collect()
            gc.freeze()  # as parlour serve does once started (parlour.cli.serving)
            gc.set_threshold(50_000, 20, 100)
            at_start = len(gc.get_objects())
            rooms = await _rooms(hub, opts.rooms, opts.moves, random.Random(opts.seed))
            held = len(gc.get_objects())
            figures: dict[str, Any] = {
                "rooms": len(rooms),
                "moves": sum(r.v for r in rooms),
                "frozen_at_start": gc.get_freeze_count(),
                "tracked_at_start": at_start,
                "tracked_with_rooms": held,
                "tracked_per_room": round((held - at_start) / max(1, len(rooms))),
                "gen1_ms": _timed(1, 1),
                "full_ms": _timed(2, opts.runs),
            }
            gc.freeze()
            figures["full_after_freeze_ms"] = _timed(2, opts.runs)
            gc.unfreeze()
            return figures
        finally:
            await hub.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rooms", type=int, default=250)
    parser.add_argument("--moves", type=int, default=60)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    opts = parser.parse_args()
    load = _load()
    figures = asyncio.run(_measure(opts))
    figures["load"] = [load, _load()]
    for key in ("gen1_ms", "full_ms", "full_after_freeze_ms"):
        for clock in ("wall", "cpu"):
            times = figures[key][clock]
            print(
                f"{key:>22} {clock:>4}: median {statistics.median(times):7.1f} ms, "
                f"min {min(times):7.1f}, max {max(times):7.1f}"
            )
    print(json.dumps({k: v for k, v in figures.items() if not k.endswith("_ms")}))


if __name__ == "__main__":
    main()
