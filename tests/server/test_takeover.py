"""Bots and absent people (issue: "A person disconnected longer than --takeover SECONDS is
played by the heuristic bot until he is back"; bots decide in a worker process)."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from tests.server.client import WAIT, Client, ServerProcess, create_room, http_get, running_server


async def _away_and_back(url: str, ws: str) -> None:
    room = create_room(url, {"game": "beor", "players": 2, "seats": ["person", "person"]})
    tokens = [s["token"] for s in room["seats"]]
    first = await Client.join(ws, room["room"], tokens[0])
    second = await Client.join(ws, room["room"], tokens[1])
    watcher = await Client.join(ws, room["room"], None)
    mover = first if first.last["legal"] else second
    stays = second if mover is first else first
    # The seat to move leaves: nothing happens before the takeover time... (the clock starts
    # before the close: the server may see the socket go at any point of the closing handshake,
    # which takes a while on a loaded machine)
    left = time.monotonic()
    await mover.close()
    for _ in range(10):
        gone = await watcher.expect("seats")
        if [s.get("connected") for s in gone["seats"]].count(False) == 1:
            break
    else:
        raise AssertionError("the others were not told that a person left")
    update = await watcher.expect("update")
    waited = time.monotonic() - left
    assert waited >= 0.9, f"the takeover came after {waited:.2f}s, before the 1 s allowed"
    assert update["v"] == 1
    # ... then the heuristic plays for him, and goes on playing his turns while he is away.
    while stays.last.get("legal") == [] or stays.last["v"] < 1:
        await stays.recv()
    # Back: the seat is his again, with the full log; nobody plays for him any more.
    back = await Client.join(ws, room["room"], tokens[0 if mover is first else 1])
    assert back.last["seat"] == mover.last["seat"]
    assert len(back.last["log"]) == back.last["v"] + 1
    for turn in range(200):
        await stays.until_v(back.last["v"])
        if back.last["legal"] or back.last["over"]:
            break
        assert stays.last["legal"], "after a takeover, the other person is to move"
        cid, at = f"stays-{turn}", stays.last["v"]
        await stays.send({"type": "act", "id": cid, "v": at, "action": stays.last["legal"][0]})
        assert (await stays.answer(cid))["type"] == "ack"
        await back.until_v(at + 1)
    v = back.last["v"]
    await asyncio.sleep(1.6)
    facts = http_get(f"{url}/api/rooms/{room['room']}").json()
    assert facts["v"] == v, "a bot moved for a person who is back"
    for client in (stays, watcher, back):
        await client.close()


def test_an_absent_person_is_played_by_the_heuristic_until_he_is_back(tmp_path: Path) -> None:
    # A bot worker process (the default kind of worker), and a takeover after one second.
    with running_server(tmp_path / "rooms.db", "--takeover", "1", "--bot-workers", "1") as server:
        asyncio.run(_away_and_back(server.url, server.ws))
        _, err = server.stop()
    assert "Traceback" not in err


def _children(pid: int) -> set[int]:
    found = set()
    for status in Path("/proc").glob("[0-9]*/status"):
        try:
            fields = dict(
                line.split(":\t", 1) for line in status.read_text().splitlines() if ":\t" in line
            )
        except OSError:
            continue
        if fields.get("PPid", "").strip() == str(pid):
            found.add(int(status.parent.name))
    return found


def test_bot_workers_leave_with_a_killed_server(tmp_path: Path) -> None:
    """After SIGKILL nothing of the server stays behind: its bot worker sees it gone."""
    server = ServerProcess(tmp_path / "rooms.db", "--bot-workers", "1").start()
    assert server.proc is not None
    pid = server.proc.pid
    deadline = time.monotonic() + 20
    while not _children(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    workers = _children(pid)
    assert workers, "the server starts its bot worker with it"
    server.kill()
    while time.monotonic() < deadline and any(Path(f"/proc/{w}").exists() for w in workers):
        time.sleep(0.1)
    left = [w for w in workers if Path(f"/proc/{w}").exists()]
    assert not left, f"processes of a killed server still running: {left}"


def test_ctrl_c_at_a_terminal_stops_the_server_and_its_workers_quietly(tmp_path: Path) -> None:
    """Ctrl-C reaches the whole process group, bot workers included: no traceback anywhere,
    even when it comes while a worker is still starting (importing the games), which is when
    it is sent here: as soon as the worker process exists. The server starts its worker while
    it starts up, before it answers its first request, so one answered request is the event
    that says the worker exists."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "parlour", "serve", "--port", "0", "--db", str(tmp_path / "r.db"),
         "--quiet", "--bot-workers", "1"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
    )  # fmt: skip
    assert proc.stdout is not None
    line = proc.stdout.readline()
    assert line.startswith("Parlour is serving at http://127.0.0.1:")
    url = line.removeprefix("Parlour is serving at ").strip()
    assert http_get(f"{url}api/games", timeout=WAIT).status_code == 200
    assert _children(proc.pid), "no bot worker started"
    os.killpg(proc.pid, signal.SIGINT)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 0
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err
    assert err.strip().endswith("Parlour has stopped serving.")
