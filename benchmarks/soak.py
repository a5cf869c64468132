"""Soak a real ``parlour serve``: rooms created, played to the end and left, for minutes on end,
while the server's memory is watched: ``make soak`` (15 minutes; outside ``make test``).

The server runs on SQLite in a temporary folder with ``--bot-delay 0`` and otherwise its
defaults. Up to ``--rooms`` (20) rooms are in play at any time, a new one started at most
``--rate`` (60) a minute, evenly spaced, so that the load is steady whatever else the machine
is doing (what the server holds follows the rooms it finishes a minute: a faster minute, on a
machine that has just become quieter, would raise it). Each room is made by ``POST /api/rooms``
(BEOR, the Game of Death or Beggar-My-Neighbour, 2-4 players, one or two people and the other
seats bots, drawn at random), its people connect (and, every other room, a spectator), act at
once when they may (a random legal action after ``--think`` seconds) until the game is over,
then close their sockets and never come back; a new room takes its place. A room not over
after ``ROOM_BOUND`` seconds is left as it is (counted as left unfinished), as are the rooms
still in play ``GRACE`` seconds after the end.

Every ``--every`` seconds (10) the server's resident memory (``VmRSS`` of the server process;
with its bot and review workers beside it) and ``GET /metrics`` (``parlour_room_entries{map}``,
``parlour_rooms``, ``parlour_sockets``) are sampled. At the end the samples are printed as a
table, plotted to ``--plot`` (build/soak.png) and written to ``--out`` (build/soak.json), with
the RSS at the start and the end and its least-squares slope over the last two thirds, in MiB a
minute (a figure for the record; the criterion below is what passes or fails).

Flat, the criterion (exit status 1 when it fails): the samples are cut in thirds by time (the
first third is the warm-up); the median RSS of the last third is at most ``--tolerance`` per cent
(5) above the median of the middle third, plus 2 MiB; and for every ``parlour_room_entries`` map,
the median of the last third is at most 1.25 times the median of the middle third, plus 5
(entries follow the rooms in play, which vary). A run where no room was finished fails too.

    .venv/bin/python benchmarks/soak.py                 # 15 minutes
    .venv/bin/python benchmarks/soak.py --minutes 3 --every 5
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import statistics
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, WebSocketException

from serving import BOUND, Server, load

GAMES = {"beor": (2, 4), "death": (2, 4), "beggar": (2, 3)}
"""Game -> the fewest and most players of its rooms here."""
BOTS = {"beor": ["random", "easy"], "death": ["random", "easy"], "beggar": ["bot"]}
ROOM_BOUND = 300.0
"""Seconds a room may take before its people leave it unfinished."""
GRACE = 10.0
"""Seconds the rooms in play at the end get to finish before their people leave them."""
SLACK_MIB = 2.0
ENTRIES_RATIO, ENTRIES_SLACK = 1.25, 5.0


@dataclass
class Tally:
    created: int = 0
    finished: int = 0
    unfinished: int = 0
    acts: int = 0
    failures: dict[str, int] = field(default_factory=dict)


async def _person(
    ws: ClientConnection, token: str | None, over: asyncio.Event, think: tuple[float, float],
    rng: random.Random, tally: Tally,
) -> None:  # fmt: skip
    """Say hello, then act whenever this seat may, until the room's game is over."""
    await ws.send(json.dumps({"type": "hello", "token": token, "v": 0}))
    count = 0
    async for text in ws:
        frame = json.loads(text)
        if frame["type"] not in ("welcome", "update"):
            continue
        if frame["over"]:
            over.set()
            return
        if token is None or not frame["legal"]:
            continue
        await asyncio.sleep(rng.uniform(*think))
        count += 1
        action = rng.choice(frame["legal"])
        await ws.send(json.dumps({"type": "act", "id": count, "v": frame["v"], "action": action}))
        tally.acts += 1


async def _room(
    http: httpx.AsyncClient, base: str, rng: random.Random, think: tuple[float, float],
    tally: Tally,
) -> None:  # fmt: skip
    """Make one room, play it to its end with its people and bots, and leave."""
    game = rng.choice(list(GAMES))
    players = rng.randint(*GAMES[game])
    people = rng.randint(1, min(2, players - 1))
    seats = ["person"] * people + [rng.choice(BOTS[game]) for _ in range(players - people)]
    answer = await http.post("/api/rooms", json={"game": game, "players": players, "seats": seats})
    answer.raise_for_status()
    made = answer.json()
    tally.created += 1
    tokens: list[str | None] = [s["token"] for s in made["seats"] if "token" in s]
    if tally.created % 2:
        tokens.append(None)  # a spectator
    over = asyncio.Event()
    url = f"{base}/ws/{made['room']}"
    async with contextlib.AsyncExitStack() as stack:
        sockets = [await stack.enter_async_context(connect(url, max_size=None)) for _ in tokens]
        tasks = [
            asyncio.create_task(_person(ws, token, over, think, random.Random(rng.random()), tally))
            for ws, token in zip(sockets, tokens, strict=True)
        ]
        try:
            await asyncio.wait_for(over.wait(), ROOM_BOUND)
            tally.finished += 1
        except TimeoutError:
            tally.unfinished += 1
        except asyncio.CancelledError:  # the end of the soak
            tally.unfinished += 1
            raise
        finally:
            for task in tasks:
                task.cancel()
            for task in tasks:
                with contextlib.suppress(asyncio.CancelledError, ConnectionClosed):
                    await task


class Pace:
    """Rooms started ``per_minute`` a minute at most, evenly spaced (0: as fast as the lanes
    go); a start that comes late does not make the next ones come sooner."""

    def __init__(self, per_minute: float) -> None:
        self.gap = 60.0 / per_minute if per_minute > 0 else 0.0
        self.next = time.monotonic()
        self.lock = asyncio.Lock()

    async def wait(self) -> None:
        if not self.gap:
            return
        async with self.lock:
            now = time.monotonic()
            if self.next > now:
                await asyncio.sleep(self.next - now)
            self.next = max(self.next, now) + self.gap


async def _play(url: str, opts: argparse.Namespace, tally: Tally, until: float) -> None:
    """Keep up to ``opts.rooms`` rooms in play until ``until`` (monotonic seconds), a new one
    started at most ``opts.rate`` a minute."""
    base = url.replace("http://", "ws://", 1)
    rng = random.Random(opts.seed)
    pace = Pace(opts.rate)

    async def lane(seed: float) -> None:
        lane_rng = random.Random(seed)
        while time.monotonic() < until:
            await pace.wait()
            if time.monotonic() >= until:
                return
            try:
                await _room(http, base, lane_rng, (opts.think[0], opts.think[1]), tally)
            except (OSError, WebSocketException, httpx.HTTPError) as failed:
                name = type(failed).__name__
                tally.failures[name] = tally.failures.get(name, 0) + 1
                await asyncio.sleep(0.5)

    async with httpx.AsyncClient(base_url=url, timeout=BOUND) as http:
        await asyncio.gather(*(lane(rng.random()) for _ in range(opts.rooms)))


def _sample(server: Server, began: float, tally: Tally) -> dict[str, Any]:
    metrics = server.metrics()

    def total(prefix: str) -> int:
        return int(sum(v for k, v in metrics.items() if k.startswith(prefix)))

    entries = {
        name.split('map="', 1)[1].split('"', 1)[0]: int(value)
        for name, value in metrics.items()
        if name.startswith("parlour_room_entries{")
    }
    return {
        "s": round(time.monotonic() - began, 1),
        "rss_mib": round(server.rss_kib() / 1024, 1),
        "rss_tree_mib": round(server.rss_kib(tree=True) / 1024, 1),
        "rooms_in_memory": int(
            sum(v for k, v in metrics.items() if k.startswith("parlour_rooms{"))
        ),
        "sockets": int(sum(v for k, v in metrics.items() if k.startswith("parlour_sockets{"))),
        "entries": entries,
        "created": tally.created,
        "finished": tally.finished,
        "load": load(),
    }


async def _soak(server: Server, opts: argparse.Namespace) -> tuple[list[dict[str, Any]], Tally]:
    tally = Tally()
    began = time.monotonic()
    until = began + opts.minutes * 60
    samples = [_sample(server, began, tally)]
    play = asyncio.create_task(_play(server.url, opts, tally, until))
    while time.monotonic() < until:
        await asyncio.sleep(min(opts.every, max(0.0, until - time.monotonic())))
        samples.append(await asyncio.to_thread(_sample, server, began, tally))
        if play.done():
            play.result()  # a failure of the clients themselves: raise it
    with contextlib.suppress(TimeoutError):  # the rooms in play: GRACE seconds, then left
        await asyncio.wait_for(play, GRACE)
    last = await asyncio.to_thread(_sample, server, began, tally)
    last["after"] = True  # every room played to its end and left: not in the verdict
    samples.append(last)
    return samples, tally


def _verdict(samples: list[dict[str, Any]], opts: argparse.Namespace) -> list[tuple[str, bool]]:
    """The flatness checks: (what was checked, held)."""
    samples = [s for s in samples if not s.get("after")]
    end = samples[-1]["s"]
    middle = [s for s in samples if end / 3 <= s["s"] < 2 * end / 3]
    last = [s for s in samples if s["s"] >= 2 * end / 3]
    if len(middle) < 2 or len(last) < 2:
        return [("at least two samples in each third (sample more often: --every)", False)]
    out = []
    mid_rss = statistics.median(s["rss_mib"] for s in middle)
    last_rss = statistics.median(s["rss_mib"] for s in last)
    bound = mid_rss * (1 + opts.tolerance / 100) + SLACK_MIB
    out.append(
        (
            f"RSS: median of the last third {last_rss:.1f} MiB <= {bound:.1f} MiB (middle "
            f"third's median {mid_rss:.1f} MiB + {opts.tolerance:g}% + {SLACK_MIB:g} MiB)",
            last_rss <= bound,
        )
    )
    for name in sorted(samples[-1]["entries"]):
        m = statistics.median(s["entries"].get(name, 0) for s in middle)
        tail = statistics.median(s["entries"].get(name, 0) for s in last)
        cap = m * ENTRIES_RATIO + ENTRIES_SLACK
        out.append(
            (
                f"entries {name}: median of the last third {tail:g} <= {cap:g} "
                f"({ENTRIES_RATIO:g} x the middle third's {m:g} + {ENTRIES_SLACK:g})",
                tail <= cap,
            )
        )
    return out


def _slope(samples: list[dict[str, Any]]) -> float | None:
    """The RSS's least-squares slope over the last two thirds of the samples (the first third
    is the warm-up), in MiB a minute; None with fewer than two samples there."""
    samples = [s for s in samples if not s.get("after")]
    if not samples:
        return None
    end = samples[-1]["s"]
    points = [(s["s"] / 60, s["rss_mib"]) for s in samples if s["s"] >= end / 3]
    if len(points) < 2:
        return None
    mean_t = statistics.fmean(t for t, _ in points)
    mean_r = statistics.fmean(r for _, r in points)
    spread = sum((t - mean_t) ** 2 for t, _ in points)
    return sum((t - mean_t) * (r - mean_r) for t, r in points) / spread if spread else None


def _report(samples: list[dict[str, Any]], tally: Tally, checks: list[tuple[str, bool]]) -> None:
    from rich.console import Console
    from rich.table import Table

    names = sorted(samples[-1]["entries"])
    table = Table(title="parlour serve soaked: rooms made, played to the end and left")
    for column in ["s", "RSS MiB", "with workers MiB", "rooms", "sockets", *names]:
        table.add_column(column, justify="right", no_wrap=True)
    table.add_column("made/finished", justify="right", no_wrap=True)
    table.add_column("load 1/5/15 min", justify="right", no_wrap=True)
    for s in samples:
        when = f"{s['s']}{' (all left)' if s.get('after') else ''}"
        table.add_row(
            when, str(s["rss_mib"]), str(s["rss_tree_mib"]), str(s["rooms_in_memory"]),
            str(s["sockets"]), *(str(s["entries"].get(n, "")) for n in names),
            f"{s['created']}/{s['finished']}", s["load"],
        )  # fmt: skip
    console = Console(width=260)
    console.print(table)
    print(
        f"rooms made {tally.created}, played to the end {tally.finished}, left unfinished "
        f"{tally.unfinished}; people's acts {tally.acts}; client failures {tally.failures or 0}"
    )
    kept = [s for s in samples if not s.get("after")]
    slope = _slope(samples)
    print(
        f"RSS: {kept[0]['rss_mib']} MiB at the start, {kept[-1]['rss_mib']} MiB at the end, "
        f"{samples[-1]['rss_mib']} MiB once every room was left; slope over the last two "
        f"thirds {'-' if slope is None else f'{slope:+.2f}'} MiB a minute (not a check)"
    )
    for what, held in checks:
        print(f"{'held' if held else 'FAILED'}: {what}")


def _plot(samples: list[dict[str, Any]], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    t = [s["s"] / 60 for s in samples]
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(9, 7), sharex=True)
    top.plot(t, [s["rss_mib"] for s in samples], label="server VmRSS")
    top.plot(t, [s["rss_tree_mib"] for s in samples], label="with its bot and review workers")
    top.set_ylabel("MiB")
    top.set_ylim(bottom=0)
    top.legend()
    top.set_title("parlour serve soaked: rooms made, played to the end and left")
    for name in sorted(samples[-1]["entries"]):
        bottom.plot(t, [s["entries"].get(name, 0) for s in samples], label=name)
    bottom.plot(t, [s["sockets"] for s in samples], label="sockets", linestyle="--")
    bottom.set_ylabel("parlour_room_entries")
    bottom.set_xlabel("minutes")
    bottom.legend(ncol=4, fontsize="small")
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=100)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=15.0, help="how long (15)")
    parser.add_argument("--rooms", type=int, default=20, help="rooms in play at once (20)")
    parser.add_argument(
        "--rate", type=float, default=60.0, metavar="PER_MINUTE",
        help="rooms started a minute at most (60; 0: as fast as the server plays them)",
    )  # fmt: skip
    parser.add_argument("--every", type=float, default=10.0, help="seconds between samples (10)")
    parser.add_argument(
        "--think", type=float, nargs=2, default=[0.0, 0.05], metavar=("MIN", "MAX"),
        help="people's think time in seconds (default 0 0.05)",
    )  # fmt: skip
    parser.add_argument(
        "--tolerance", type=float, default=5.0, help="RSS growth allowed, per cent (5)"
    )
    parser.add_argument(
        "--serve", default="", metavar="OPTIONS",
        help='more options of parlour serve, as one string (e.g. "--review-budget off")',
    )  # fmt: skip
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--plot", default="build/soak.png", help="the plot (PNG)")
    parser.add_argument("--out", default="build/soak.json", help="the samples (JSON)")
    opts = parser.parse_args()
    print(
        f"soaking parlour serve for {opts.minutes:g} min, {opts.rooms} rooms in play, "
        f"{opts.rate:g} started a minute at most, a sample every {opts.every:g} s {opts.serve} "
        f"(load {load()})",
        flush=True,
    )
    with tempfile.TemporaryDirectory() as folder:
        server = Server(str(Path(folder) / "rooms.db"), None, 0.0, tuple(opts.serve.split()))
        server.start()
        try:
            samples, tally = asyncio.run(_soak(server, opts))
        finally:
            server.stop()
    checks = _verdict(samples, opts)
    if not tally.finished:
        checks.append(("rooms played to the end: none", False))
    _report(samples, tally, checks)
    _plot(samples, Path(opts.plot))
    out = Path(opts.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    figures = {
        "minutes": opts.minutes,
        "rooms_in_play": opts.rooms,
        "rooms_a_minute": opts.rate,
        "serve": opts.serve,
        "tally": vars(tally),
        "rss_slope_mib_per_min": _slope(samples),
        "checks": [{"check": what, "held": held} for what, held in checks],
        "samples": samples,
    }
    out.write_text(json.dumps(figures, indent=2) + "\n")
    print(f"plot: {opts.plot}; samples: {out}")
    if not all(held for _, held in checks):
        raise SystemExit(1)


if __name__ == "__main__":
    main()
