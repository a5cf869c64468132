"""Stopping a server (issue 27, "Stopping" and point 6): a graceful stop (SIGTERM) under load
closes every socket with 1012 (reconnect), loses no acknowledged action and ends with status 0
within 10 s, without "leaked semaphore" noise; Ctrl-C soon after a start prints no traceback,
and the bot worker's start imports no more than it must."""

from __future__ import annotations

import asyncio
import os
import pty
import select
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.exceptions import ConnectionClosed

from parlour.server.sealing import prepare
from parlour.server.store import open_store
from tests.server.client import WAIT, Client, ServerProcess, create_room, http_get
from tests.server.postgres import fresh_database

PARLOUR = Path(sys.executable).with_name("parlour")
"""The ``parlour`` console script of this environment (what a host runs)."""

ROOMS = 8
ACKS_BEFORE_STOP = 40
"""Acknowledged moves, over all rooms, after which the server is sent SIGTERM."""


async def _play(
    base: str, room: dict[str, Any], acked: list[tuple[str, int, str]], enough: asyncio.Event
) -> int | None:
    """A person plays the first legal move each turn against the room's bot until the socket is
    closed; every ack is noted. The close code the server sent."""
    client = await Client.join(base, room["room"], room["seats"][0]["token"])
    try:
        while True:
            frame = client.last
            if frame["over"]:
                # A finished deal: ask for the next one (rematch), so play goes on.
                await client.send({"type": "rematch", "id": f"r{frame['v']}"})
                await client.answer(f"r{frame['v']}")
                await client.until_v(frame["v"] + 1)
                continue
            if not frame["legal"]:
                await client.expect("update")
                continue
            cid = f"a{frame['v']}"
            action = frame["legal"][0]
            await client.send({"type": "act", "id": cid, "v": frame["v"], "action": action})
            answer = await client.answer(cid)
            if answer["type"] == "ack":
                acked.append((room["room"], answer["v"], cid))
                if len(acked) >= ACKS_BEFORE_STOP:
                    enough.set()
            await client.until_v(answer["v"])
    except ConnectionClosed as closed:
        return closed.rcvd.code if closed.rcvd is not None else None


async def _under_load(server: ServerProcess, rooms: list[dict[str, Any]]) -> dict[str, Any]:
    """Clients play every room; SIGTERM once enough moves are acknowledged; what was seen."""
    assert server.proc is not None
    acked: list[tuple[str, int, str]] = []
    enough = asyncio.Event()
    players = [asyncio.create_task(_play(server.ws, room, acked, enough)) for room in rooms]
    await asyncio.wait_for(enough.wait(), WAIT)
    began = time.monotonic()
    server.proc.send_signal(signal.SIGTERM)
    codes = await asyncio.wait_for(asyncio.gather(*players), WAIT)
    _, err = await asyncio.to_thread(server.proc.communicate, timeout=WAIT)
    took = time.monotonic() - began
    # A new connection is refused once the server has stopped.
    refused = False
    try:
        http_get(f"{server.url}/healthz", timeout=2)
    except httpx.ConnectError:
        refused = True
    return {"acked": acked, "codes": codes, "err": err, "took": took, "refused": refused}


async def _stored(
    db: str, key: Path, acked: list[tuple[str, int, str]]
) -> list[tuple[str, int, str]]:
    """The acknowledged moves that the store does not hold as acknowledged."""
    store = open_store(db)
    await store.open()
    try:
        store.sealer, _ = await prepare(store, key)
        missing = []
        for room, v, cid in acked:
            events = await store.events_since(room, v - 1)
            if not events or events[0].v != v or events[0].client_id != cid:
                missing.append((room, v, cid))
        return missing
    finally:
        await store.close()


def _rooms(url: str) -> list[dict[str, Any]]:
    # BEOR against a search (the bot workers' processes) and against the quick heuristic.
    kinds = ["ismcts:30", "heuristic"]
    return [
        create_room(url, {"game": "beor", "players": 2, "seats": ["person", kinds[k % 2]]})
        for k in range(ROOMS)
    ]


def _check_stop(seen: dict[str, Any], returncode: int | None) -> None:
    assert returncode == 0, seen["err"][-2000:]
    assert seen["took"] < 10, f"the server took {seen['took']:.1f} s to stop"
    assert seen["codes"] == [1012] * ROOMS, seen["codes"]
    assert seen["refused"]
    err = seen["err"]
    assert "Traceback" not in err, err[-3000:]
    assert "leaked semaphore" not in err, err[-3000:]
    assert err.rstrip().endswith("Parlour has stopped serving."), err[-500:]


def test_sigterm_under_load_closes_with_1012_and_keeps_every_acknowledged_action(
    tmp_path: Path,
) -> None:
    db = tmp_path / "rooms.db"
    server = ServerProcess(db, "--bot-workers", "1").start()
    try:
        rooms = _rooms(server.url)
        seen = asyncio.run(_under_load(server, rooms))
    finally:
        if server.proc is not None and server.proc.poll() is None:
            server.kill()
    assert server.proc is not None
    _check_stop(seen, server.proc.returncode)
    assert len(seen["acked"]) >= ACKS_BEFORE_STOP
    assert asyncio.run(_stored(str(db), Path(f"{db}.key"), seen["acked"])) == []
    # Started again, the server has every room at least as far as its last acknowledged move.
    again = ServerProcess(db).start()
    try:
        for room in rooms:
            last = max(v for r, v, _ in seen["acked"] if r == room["room"])
            facts = http_get(f"{again.url}/api/rooms/{room['room']}", timeout=WAIT).json()
            assert facts["v"] >= last
    finally:
        code, err = again.stop()
    assert code == 0 and "Traceback" not in err


def test_sigterm_with_two_workers_on_postgresql(postgres_url: str, tmp_path: Path) -> None:
    db = fresh_database(postgres_url)
    key = tmp_path / "parlour.key"
    server = ServerProcess(db, "--workers", "2", "--bot-workers", "1", "--key-file", str(key))
    server.start()
    try:
        rooms = _rooms(server.url)
        seen = asyncio.run(_under_load(server, rooms))
    finally:
        if server.proc is not None and server.proc.poll() is None:
            server.kill()
    assert server.proc is not None
    _check_stop(seen, server.proc.returncode)
    assert asyncio.run(_stored(db, key, seen["acked"])) == []


# -- Ctrl-C soon after a start ---------------------------------------------------------------


def test_the_bot_workers_main_module_import_is_light() -> None:
    """A spawned bot worker runs the ``parlour`` script as its main module (``__mp_main__``,
    as multiprocessing's spawn does with runpy) before anything else: that import must not
    pull in the command line, the terminal table or the games."""
    script = (
        "import runpy, sys\n"
        f"runpy.run_path({str(PARLOUR)!r}, run_name='__mp_main__')\n"
        "print(' '.join(sorted(sys.modules)))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=WAIT
    )
    assert done.returncode == 0, done.stderr
    modules = set(done.stdout.split())
    assert "parlour.cli" in modules
    heavy = sorted(
        m
        for m in modules
        if m.startswith(("parlour.cli.", "parlour.play", "parlour.games", "parlour.bots"))
        or m.split(".")[0] in ("rich", "numba", "numpy", "uvicorn", "starlette")
    )
    assert heavy == []


def _run_at_a_terminal(args: list[str]) -> tuple[int, str]:
    """Run ``args`` in a pseudo-terminal of its own; Ctrl-C (SIGINT to its process group) as
    soon as it has answered its first request (its bot worker is then starting). The exit
    status and everything it wrote."""
    pid, fd = pty.fork()
    if pid == 0:  # the child: the command, with the terminal as its streams
        os.execv(args[0], args)
    out = b""
    interrupted = False
    deadline = time.monotonic() + 2 * WAIT
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([fd], [], [], 0.5)
            if ready:
                try:
                    chunk = os.read(fd, 65536)
                except OSError:
                    break
                if not chunk:
                    break
                out += chunk
            text = out.decode(errors="replace")
            if not interrupted and "Parlour is serving at " in text:
                url = text.split("Parlour is serving at ", 1)[1].split()[0]
                assert http_get(f"{url}api/games", timeout=WAIT).status_code == 200
                os.killpg(os.getpgid(pid), signal.SIGINT)
                interrupted = True
        else:
            os.kill(pid, signal.SIGKILL)
            raise AssertionError(f"still running {2 * WAIT:.0f} s after Ctrl-C: {out[-2000:]!r}")
    finally:
        _, status = os.waitpid(pid, 0)
        os.close(fd)
    return os.waitstatus_to_exitcode(status), out.decode(errors="replace")


def test_ctrl_c_soon_after_a_start_at_a_terminal_prints_no_traceback(tmp_path: Path) -> None:
    args = [
        str(PARLOUR), "serve", "--port", "0", "--db", str(tmp_path / "r.db"), "--quiet",
        "--bot-workers", "1", "--review-budget", "off",
    ]  # fmt: skip
    for _ in range(3):
        code, out = _run_at_a_terminal(args)
        assert code == 0, out[-2000:]
        assert "Traceback" not in out and "KeyboardInterrupt" not in out, out[-3000:]
        assert "leaked semaphore" not in out, out[-3000:]


def test_the_bot_pool_is_closed_with_its_manager_thread() -> None:
    """``BotPool.close`` returns once the worker pool's manager thread has ended. It used to
    return while that thread was still closing the pool's wake-up pipe, and a server leaving
    at that moment printed a traceback from Python's exit hook writing to the closed pipe
    (``OSError: [Errno 9] Bad file descriptor``; seen once after a Ctrl-C soon after a start,
    in the test above)."""
    from parlour.server.bots import BotPool

    before = {t for t in threading.enumerate() if type(t).__name__ == "_ExecutorManagerThread"}

    def managers() -> list[threading.Thread]:
        """The pool manager threads alive now that were not there before (an earlier test's
        pool ending meanwhile changes nothing)."""
        return [
            t
            for t in threading.enumerate()
            if type(t).__name__ == "_ExecutorManagerThread" and t.is_alive() and t not in before
        ]

    for _ in range(3):
        pool = BotPool(1)
        pool.start()
        assert len(managers()) == 1
        pool.close()
        assert managers() == [], "close() returned with the pool's manager thread alive"


def test_a_ctrl_c_while_a_bot_worker_starts_reaches_the_server() -> None:
    """While a bot worker starts (with SIGINT blocked in the starting thread, so that it
    inherits the mask), a Ctrl-C that another thread of the server takes must still reach the
    server's handler: an earlier version set SIGINT to SIG_IGN meanwhile, and a Ctrl-C at that
    moment was lost (the server ran on: seen once in 27 starts interrupted within a second)."""
    from parlour.server.bots import _workers_start_deaf

    got: list[int] = []
    previous = signal.signal(signal.SIGINT, lambda signum, frame: got.append(signum))
    # The signal itself is waited for: the C handler of whichever thread the kernel gives it to
    # writes its number to the wake-up descriptor, and this thread, woken, runs the Python
    # handler before its next call. (Counting to 1000 for the handler missed a signal taken by
    # a thread that ran only later, 4 times in 2,000 beside three busy processes.)
    woken, wake = os.pipe()
    os.set_blocking(wake, False)
    previous_wake = signal.set_wakeup_fd(wake)
    try:
        # The other thread is made before: a thread starts with its maker's signal mask.
        go = threading.Event()

        def ctrl_c() -> None:
            if go.wait(WAIT):
                os.kill(os.getpid(), signal.SIGINT)  # to the process: a thread not blocking it

        sender = threading.Thread(target=ctrl_c)
        sender.start()
        with _workers_start_deaf():
            go.set()
            sender.join(WAIT)
        ready, _, _ = select.select([woken], [], [], WAIT)
        assert ready, "no SIGINT reached a handler of this process"
        assert os.read(woken, 16) == bytes([signal.SIGINT])
        assert got == [signal.SIGINT]
    finally:
        signal.set_wakeup_fd(previous_wake)
        signal.signal(signal.SIGINT, previous)
        os.close(woken)
        os.close(wake)
