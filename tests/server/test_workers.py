"""More than one process (issue 27, point 6): ``parlour serve --workers N`` runs N server
processes on one port sharing PostgreSQL (refused on SQLite), one room is served from two of
them at once, a server process that dies is started again, and a bot worker that dies is
replaced (the next bot move still comes)."""

from __future__ import annotations

import asyncio
import os
import select
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from tests.server.client import WAIT, Client, ServerProcess, create_room, http_get
from tests.server.postgres import fresh_database
from tests.server.test_stopping import PARLOUR, _run_at_a_terminal

HEADER = "x-parlour-process"
"""The header that says which server process answered (parlour.server.app)."""


def _pid(client: Client) -> int:
    response = client.ws.response
    assert response is not None
    return int(response.headers[HEADER])


async def _join_elsewhere(
    base: str, room: str, token: str | None, not_on: set[int]
) -> tuple[Client, int]:
    """A socket of ``room`` (seat of ``token``) on a server process that is not one of
    ``not_on``: new connections until the kernel hands one to another process (which may
    still be starting: a process imports the server and opens the database first)."""
    deadline = time.monotonic() + 3 * WAIT
    while time.monotonic() < deadline:
        client = await Client.join(base, room, token)
        pid = _pid(client)
        if pid not in not_on:
            return client, pid
        await client.close()
    raise AssertionError(f"every connection went to {sorted(not_on)}")


def test_workers_on_sqlite_are_refused_in_one_line(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "parlour", "serve", "--port", "0", "--db",
         str(tmp_path / "r.db"), "--workers", "2"],
        capture_output=True, text=True, timeout=WAIT,
    )  # fmt: skip
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and "--workers 2" in done.stderr, done.stderr
    assert "PostgreSQL" in done.stderr
    assert not (tmp_path / "r.db").exists()  # refused before anything was made


async def _one_room_two_processes(server: ServerProcess) -> None:
    room = create_room(server.url, {"game": "beor", "players": 2, "seats": ["person", "person"]})
    tokens = [s["token"] for s in room["seats"]]
    first = await Client.join(server.ws, room["room"], tokens[0])
    one = _pid(first)
    second, two = await _join_elsewhere(server.ws, room["room"], tokens[1], {one})
    assert one != two and server.proc is not None and server.proc.pid not in (one, two)
    # Moves made through either process reach the socket on the other, in turn.
    for _ in range(6):
        mover, other = (first, second) if first.last["legal"] else (second, first)
        assert mover.last["legal"], "nobody is to move"
        v = mover.last["v"]
        cid = f"m{v}"
        await mover.send({"type": "act", "id": cid, "v": v, "action": mover.last["legal"][0]})
        assert (await mover.answer(cid))["type"] == "ack"
        seen = await other.until_v(v + 1)
        assert seen["log"], "the other process's socket was not sent the move"
        await mover.until_v(v + 1)
    await first.close()
    await second.close()


def test_two_workers_serve_one_room_from_both_processes(postgres_url: str, tmp_path: Path) -> None:
    db = fresh_database(postgres_url)
    server = ServerProcess(db, "--workers", "2", "--key-file", str(tmp_path / "k")).start()
    try:
        asyncio.run(_one_room_two_processes(server))
    finally:
        code, err = server.stop()  # Ctrl-C: the supervisor stops both
    assert code == 0, err[-2000:]
    assert "Traceback" not in err and "leaked semaphore" not in err, err[-3000:]


def _children(pid: int) -> dict[int, str]:
    """The processes whose parent is ``pid``, with their command lines (from /proc)."""
    found = {}
    for status in Path("/proc").glob("[0-9]*/status"):
        try:
            fields = dict(
                line.split(":\t", 1) for line in status.read_text().splitlines() if ":\t" in line
            )
            if fields.get("PPid", "").strip() == str(pid) and fields.get("State", "")[:1] != "Z":
                command = (status.parent / "cmdline").read_bytes().replace(b"\0", b" ")
                found[int(status.parent.name)] = command.decode(errors="replace")
        except OSError:
            continue
    return found


def _servers(supervisor: int) -> set[int]:
    """The server processes of a supervisor (its children but Python's resource tracker)."""
    return {pid for pid, cmd in _children(supervisor).items() if "resource_tracker" not in cmd}


def _kill(pid: int) -> None:
    """SIGKILL ``pid`` and wait until it has died (a pidfd is readable then)."""
    fd = os.pidfd_open(pid)
    try:
        os.kill(pid, signal.SIGKILL)
        ready, _, _ = select.select([fd], [], [], WAIT)
        assert ready, f"process {pid} still running"
    finally:
        os.close(fd)


async def _after_a_death(server: ServerProcess) -> None:
    assert server.proc is not None
    room = create_room(server.url, {"game": "beor", "players": 2, "seats": ["person", "person"]})
    first = await Client.join(server.ws, room["room"], None)
    victim = _pid(first)
    assert victim in _servers(server.proc.pid)
    survivor = _servers(server.proc.pid) - {victim}
    _kill(victim)
    await asyncio.wait_for(first.ws.wait_closed(), WAIT)  # its socket went with it
    # The supervisor starts another process, which takes connections of its own.
    client, new = await _join_elsewhere(server.ws, room["room"], None, {victim, *survivor})
    await client.close()
    assert new in _servers(server.proc.pid)
    assert victim not in _servers(server.proc.pid)
    assert len(_servers(server.proc.pid)) == 2


def test_a_server_process_that_dies_is_started_again(postgres_url: str, tmp_path: Path) -> None:
    db = fresh_database(postgres_url)
    server = ServerProcess(db, "--workers", "2", "--key-file", str(tmp_path / "k")).start()
    try:
        asyncio.run(_after_a_death(server))
    finally:
        assert server.proc is not None
        server.proc.send_signal(signal.SIGTERM)
        _, err = server.proc.communicate(timeout=WAIT)
    assert server.proc.returncode == 0, err[-2000:]
    assert '"server.process_died"' in err or "server.process_died" in err


# -- bot workers --------------------------------------------------------------------------------


def _bot_worker(server: int) -> int:
    for pid, command in _children(server).items():
        if "multiprocessing.spawn" in command:
            return pid
    raise AssertionError("no bot worker process")


async def _play_one(client: Client) -> dict[str, Any]:
    """The person's move, then the frame after the bot's answer."""
    v = client.last["v"]
    cid = f"p{v}"
    await client.send({"type": "act", "id": cid, "v": v, "action": client.last["legal"][0]})
    assert (await client.answer(cid))["type"] == "ack"
    while not client.last["legal"] and not client.last["over"]:
        await client.expect("update")
    return client.last


async def _bots_after_a_killed_worker(server: ServerProcess) -> None:
    assert server.proc is not None
    room = create_room(server.url, {"game": "beor", "players": 2, "seats": ["person", "ismcts:30"]})
    client = await Client.join(server.ws, room["room"], room["seats"][0]["token"])
    while not client.last["legal"]:  # the bot may open
        await client.expect("update")
    await _play_one(client)  # the worker has made a decision
    worker = _bot_worker(server.proc.pid)
    _kill(worker)
    before = client.last["v"]
    after = await asyncio.wait_for(_play_one(client), WAIT)
    assert after["v"] >= before + 2 or after["over"], "the bot did not answer"
    assert _bot_worker(server.proc.pid) != worker
    assert http_get(f"{server.url}/readyz", timeout=WAIT).status_code == 200


def test_a_killed_bot_worker_is_replaced(tmp_path: Path) -> None:
    server = ServerProcess(tmp_path / "r.db", "--bot-workers", "1").start()
    try:
        asyncio.run(_bots_after_a_killed_worker(server))
    finally:
        code, err = server.stop()
    assert code == 0 and "Traceback" not in err, err[-3000:]


def test_ctrl_c_at_a_terminal_stops_every_process_quietly(
    postgres_url: str, tmp_path: Path
) -> None:
    """Ctrl-C reaches the supervisor, its server processes and their bot workers at once: the
    supervisor stops them all, nobody prints a traceback, and the status is 0."""
    db = fresh_database(postgres_url)
    args = [
        str(PARLOUR), "serve", "--port", "0", "--db", db, "--workers", "2", "--quiet",
        "--bot-workers", "1", "--key-file", str(tmp_path / "k"), "--review-budget", "off",
    ]  # fmt: skip
    code, out = _run_at_a_terminal(args)
    assert code == 0, out[-2000:]
    assert "Traceback" not in out and "KeyboardInterrupt" not in out, out[-3000:]
    assert "leaked semaphore" not in out, out[-3000:]
    assert out.rstrip().endswith("Parlour has stopped serving."), out[-500:]
