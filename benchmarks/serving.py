"""A real ``parlour serve`` for the server benchmarks (bench_server.py, soak.py): the server in
a process of its own, its processes' CPU and memory read from /proc, its /metrics read, and a
throw-away PostgreSQL cluster for ``--workers N``.
"""

from __future__ import annotations

import contextlib
import functools
import glob
import os
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx

BOUND = 60.0
"""The longest any wait of these benchmarks may take, in seconds."""


class Server:
    """``parlour serve`` in a process of its own (under cProfile when ``profile`` is given).

    ``db`` is an SQLite file or a ``postgresql://`` URL; ``extra`` are more options of
    ``parlour serve`` (``--workers 2``, ``--bot-workers 1``...)."""

    def __init__(
        self, db: str, profile: str | None, bot_delay: float, extra: tuple[str, ...] = ()
    ) -> None:
        self.db, self.profile, self.bot_delay, self.extra = db, profile, bot_delay, extra
        self.proc: subprocess.Popen[str] | None = None
        self.port = 0
        self.orphans = 0
        self.dead_children: set[int] = set()
        self.log = Path(os.environ.get("PARLOUR_BENCH_LOG", os.devnull))
        """Where the server's log goes (``PARLOUR_BENCH_LOG``; none by default)."""

    def start(self) -> float:
        """Start the server on its port (any the first time); seconds to its first line."""
        began = time.perf_counter()
        prefix = [sys.executable]
        log = self.log.open("a")
        quiet = ["--quiet"] if self.log == Path(os.devnull) else []
        if self.profile is not None:
            prefix += ["-m", "cProfile", "-o", self.profile]
        self.proc = subprocess.Popen(
            [*prefix, "-m", "parlour", "serve", "--port", str(self.port), "--db", self.db,
             *quiet, "--bot-delay", str(self.bot_delay), "--rate", "1000",
             "--max-rooms", "1000000", *_uncapped(), *self.extra],
            stdout=subprocess.PIPE, stderr=log, text=True,
        )  # fmt: skip
        log.close()
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if not line.startswith("Parlour is serving at "):
            raise SystemExit(f"the server did not start: {line!r}")
        self.port = int(line.strip().rstrip("/").rsplit(":", 1)[1])
        return time.perf_counter() - began

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    def rss_kib(self, tree: bool = False) -> int:
        """The server's resident memory (``VmRSS``) in KiB: the first process only, or with
        ``tree`` every process under it (server processes of ``--workers``, bot workers)."""
        pids = [self.pid, *(_descendants(self.pid) if tree else [])]
        return sum(_rss_kib(pid) for pid in pids)

    def cpu_s(self) -> float:
        """CPU seconds (user and system) the server and every process under it have used."""
        return sum(_cpu_s(pid) for pid in [self.pid, *_descendants(self.pid)])

    def metrics(self) -> dict[str, float]:
        """The samples of ``GET /metrics``: ``name{labels}`` -> value."""
        text = httpx.get(f"{self.url}/metrics", timeout=BOUND).text
        out: dict[str, float] = {}
        for line in text.splitlines():
            if line and not line.startswith("#"):
                name, _, value = line.rpartition(" ")
                with contextlib.suppress(ValueError):
                    out[name] = float(value)
        return out

    def kill(self) -> None:
        """SIGKILL the server. Its bot worker (and multiprocessing's resource tracker) should
        leave on their own within about a second: any still running at the next kill or stop
        are counted in ``orphans`` and ended, so that restarts do not pile them up."""
        assert self.proc is not None
        self.reap()
        self.dead_children = set(_descendants(self.proc.pid))
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
            self.reap()


@functools.cache
def _uncapped() -> list[str]:
    """The caps on sockets per room and per address lifted (every client of a benchmark has
    one address), where this ``parlour serve`` has them."""
    done = subprocess.run(
        [sys.executable, "-m", "parlour", "serve", "--help"], capture_output=True, text=True
    )
    out = []
    for option in ("--max-sockets-per-room", "--max-sockets-per-client"):
        if option in done.stdout:
            out += [option, "1000000"]
    return out


def _cpu_s(pid: int) -> float:
    """CPU seconds (user and system) process ``pid`` has used (0 once it is gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _rss_kib(pid: int) -> int:
    with contextlib.suppress(OSError):
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def machine_busy_s() -> float:
    """CPU seconds every core of the machine has been busy (``/proc/stat``)."""
    fields = Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]
    user, nice, system, _, _, irq, softirq, steal = (int(f) for f in fields[:8])
    return (user + nice + system + irq + softirq + steal) / os.sysconf("SC_CLK_TCK")


def load() -> str:
    """The machine's load averages over 1, 5 and 15 minutes, as ``uptime`` shows them."""
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


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


def _descendants(pid: int) -> list[int]:
    out, todo = [], [pid]
    while todo:
        found = _children(todo.pop())
        out += found
        todo += found
    return out


def create_rooms(url: str, count: int, games: list[tuple[str, list[str]]]) -> list[dict[str, Any]]:
    """``count`` rooms, ``games`` in turn (game, seats): each room's id, bot seats and the
    person seats' tokens."""
    rooms = []
    with httpx.Client(timeout=BOUND) as http:
        for i in range(count):
            game, seats = games[i % len(games)]
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


# -- a throw-away PostgreSQL -------------------------------------------------------------------


def _pg_bin(name: str) -> str:
    found = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    path = found[-1] if found else shutil.which(name)
    if path is None:
        raise SystemExit(f"PostgreSQL's {name} was not found: apt-get install postgresql")
    return path


def _as_owner(args: list[str]) -> list[str]:
    """PostgreSQL refuses to run as root: as root the cluster belongs to ``postgres``."""
    if os.geteuid() != 0:
        return args
    return ["su", "postgres", "-s", "/bin/sh", "-c", shlex.join(args)]


@contextlib.contextmanager
def postgres() -> Iterator[str]:
    """A PostgreSQL cluster in a temporary folder (``fsync=off``: thrown away at the end) on a
    free loopback port: the URL of its empty database ``parlour``."""
    import psycopg

    shm = "/dev/shm" if os.access("/dev/shm", os.W_OK) else None
    root = Path(tempfile.mkdtemp(prefix="parlour-bench-pg-", dir=shm))
    data = root / "data"
    try:
        if os.geteuid() == 0:
            subprocess.run(["useradd", "--system", "postgres"], capture_output=True)
            shutil.chown(root, "postgres")
        init = [_pg_bin("initdb"), "-D", str(data), "-A", "trust", "-U", "parlour", "--no-sync"]
        subprocess.run(_as_owner(init), check=True, capture_output=True, timeout=120)
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        settings = (
            f"-p {port} -k {root} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200"
        )
        ctl = [_pg_bin("pg_ctl"), "-D", str(data), "-w", "-o", settings, "-l", str(root / "log")]
        subprocess.run(_as_owner([*ctl, "start"]), check=True, capture_output=True, timeout=120)
        try:
            url = f"postgresql://parlour@127.0.0.1:{port}"
            with psycopg.connect(f"{url}/postgres", autocommit=True) as conn:
                conn.execute("CREATE DATABASE parlour")
            yield f"{url}/parlour"
        finally:
            stop = [_pg_bin("pg_ctl"), "-D", str(data), "-m", "fast", "stop"]
            subprocess.run(_as_owner(stop), capture_output=True, timeout=60)
    finally:
        shutil.rmtree(root, ignore_errors=True)
