"""A real PostgreSQL server for the tests: Debian's package (``make test`` installs it when it
is missing), a throw-away cluster in a temporary folder on a free loopback port, stopped at the
end of the session. Each xdist worker starts its own. Never skipped: without PostgreSQL the
fixture fails, saying how to install it.

PostgreSQL refuses to run as root, so as root the cluster belongs to the ``postgres`` system
user (the package's; created when missing). The cluster lives in /dev/shm where there is one
(under a second to make and start; two to four seconds on this project's disks). The server
runs with ``fsync=off``, for speed only: its data is thrown away at the end, and what the tests
kill are parlour's processes, never PostgreSQL (commits still happen before it answers, and
``synchronous_commit`` keeps its default).
"""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import shlex
import shutil
import socket
import subprocess
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest

__all__ = ["fresh_database", "postgres_url"]

_INITDB = ["-A", "trust", "-U", "parlour", "-E", "UTF8", "--locale=C", "--no-sync"]
_INSTALL = "install Debian's package: apt-get install postgresql (`make test` does it)"


def _bin(name: str) -> str:
    found = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"), key=_version)
    path = found[-1] if found else shutil.which(name)
    if path is None:
        pytest.fail(f"PostgreSQL's {name} was not found: {_INSTALL}", pytrace=False)
    return path


def _version(path: str) -> tuple[int, ...]:
    part = path.split("/")[4]
    return tuple(int(p) for p in part.split(".") if p.isdigit())


def _as_owner(args: list[str]) -> list[str]:
    """``args`` run as the cluster's owner: this user, or ``postgres`` when this is root."""
    if os.geteuid() != 0:
        return args
    if shutil.which("runuser"):
        return ["runuser", "-u", "postgres", "--", *args]
    return ["su", "postgres", "-s", "/bin/sh", "-c", shlex.join(args)]


def _run(args: list[str], what: str, log: Path | None = None) -> bool:
    """Run ``args``: True when they succeed; else False when ``what`` is empty, or fail the
    test with their last words and those of ``log`` (the server's log, which says why it did
    not start)."""
    done = subprocess.run(args, capture_output=True, text=True, timeout=120)
    if done.returncode == 0:
        return True
    if not what:
        return False
    tail = (done.stderr or done.stdout).strip().splitlines()[-3:]
    if log is not None and log.exists():
        tail += log.read_text(errors="replace").strip().splitlines()[-3:]
    pytest.fail(f"{what} failed: {' | '.join(tail)}", pytrace=False)


def _owner_ready(root: Path) -> None:
    """As root: the ``postgres`` user exists and owns ``root``."""
    if os.geteuid() != 0:
        return
    try:
        pwd.getpwnam("postgres")
    except KeyError:
        _run(["useradd", "--system", "--shell", "/usr/sbin/nologin", "postgres"], "useradd")
    shutil.chown(root, "postgres")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _start(data: Path, root: Path) -> int:
    """Start the cluster on a free port (three tries: another process may take the port)."""
    for attempt in (1, 2, 3):
        port = _free_port()
        settings = f"-p {port} -k {root} -c listen_addresses=127.0.0.1 -c fsync=off"
        args = [_bin("pg_ctl"), "-D", str(data), "-w", "-t", "60", "-o", settings]
        what = "starting PostgreSQL" if attempt == 3 else ""
        if _run(_as_owner([*args, "-l", str(root / "log"), "start"]), what, root / "log"):
            return port
    raise AssertionError("unreachable")


def _folder() -> Path:
    """A new folder for a cluster: in /dev/shm when it has room, else in the temporary folder
    (/tmp for root: a folder the postgres user can reach)."""
    base: str | None = "/tmp" if os.geteuid() == 0 else None
    shm = "/dev/shm"
    with contextlib.suppress(OSError):
        st = os.statvfs(shm)
        if os.access(shm, os.W_OK | os.X_OK) and st.f_bavail * st.f_frsize >= 2**30:
            base = shm
    return Path(tempfile.mkdtemp(prefix="parlour-pg-", dir=base))


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    """``postgresql://parlour@127.0.0.1:PORT/parlour``: a server of this test session (of this
    xdist worker) with an empty database ``parlour``."""
    initdb = _bin("initdb")
    root = _folder()
    data = root / "data"
    try:
        _owner_ready(root)
        _run(_as_owner([initdb, "-D", str(data), *_INITDB]), "initdb")
        port = _start(data, root)
        try:
            url = f"postgresql://parlour@127.0.0.1:{port}"
            with psycopg.connect(f"{url}/postgres", autocommit=True) as conn:
                conn.execute("CREATE DATABASE parlour")
            yield f"{url}/parlour"
        finally:
            subprocess.run(
                _as_owner([_bin("pg_ctl"), "-D", str(data), "-m", "fast", "stop"]),
                capture_output=True,
                timeout=60,
            )
    finally:
        shutil.rmtree(root, ignore_errors=True)


def fresh_database(url: str) -> str:
    """The URL of a new empty database on the server of ``url`` (one per test: no test sees
    another's rooms or notices)."""
    name = f"t{uuid.uuid4().hex[:12]}"
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    return url.rsplit("/", 1)[0] + f"/{name}"
