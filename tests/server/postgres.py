"""A real PostgreSQL server for the tests: Debian's package (``make test`` installs it when it
is missing), a throw-away cluster in a temporary folder on a free loopback port, stopped at the
end. PostgreSQL refuses to run as root, so as root the cluster belongs to the ``postgres``
system user. Never skipped: without PostgreSQL the fixture fails saying how to install it."""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

__all__ = ["postgres_url"]


def _bin(name: str) -> str:
    found = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    if found:
        return found[-1]
    path = shutil.which(name)
    if path is None:
        pytest.fail(
            f"PostgreSQL's {name} was not found: install Debian's package "
            "(apt-get install postgresql), as `make test` does"
        )
    return path


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _as_owner(args: list[str]) -> list[str]:
    if os.geteuid() != 0:
        return args
    return ["runuser", "-u", "postgres", "--", *args]


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    """``postgresql://parlour@127.0.0.1:PORT/parlour`` of a server of this test session."""
    root = Path(tempfile.mkdtemp(prefix="parlour-pg-"))
    data, sockets = root / "data", root / "sockets"
    sockets.mkdir()
    if os.geteuid() == 0:
        shutil.chown(root, "postgres")
        shutil.chown(sockets, "postgres")
    run = {"check": True, "capture_output": True, "text": True, "timeout": 120}
    subprocess.run(
        _as_owner([_bin("initdb"), "-D", str(data), "-A", "trust", "-U", "parlour", "--no-sync",
                   "-E", "UTF8"]),
        **run,  # type: ignore[call-overload]
    )  # fmt: skip
    port = _free_port()
    # fsync off: the data is thrown away at the end, and the server processes (not this one)
    # are what the tests kill; commits are still made before the server answers.
    settings = f"-p {port} -k {sockets} -c listen_addresses=127.0.0.1 -c fsync=off"
    subprocess.run(
        _as_owner([_bin("pg_ctl"), "-D", str(data), "-w", "-t", "60", "-o", settings,
                   "-l", str(root / "log"), "start"]),
        **run,  # type: ignore[call-overload]
    )  # fmt: skip
    try:
        subprocess.run(
            [_bin("createdb"), "-h", "127.0.0.1", "-p", str(port), "-U", "parlour", "parlour"],
            **run,  # type: ignore[call-overload]
        )
        yield f"postgresql://parlour@127.0.0.1:{port}/parlour"
    finally:
        subprocess.run(
            _as_owner([_bin("pg_ctl"), "-D", str(data), "-m", "fast", "stop"]),
            capture_output=True,
            timeout=60,
        )
        shutil.rmtree(root, ignore_errors=True)
