"""How many worker threads a batch uses (the number asked for, or every core), and the check
made of a Dask scheduler before a run or a search uses it."""

from __future__ import annotations

import asyncio
import importlib
import os
import socket
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from parlour.core.inputs import quote
from parlour.errors import InvalidOption

__all__ = ["resolve_workers", "shake_hands", "unreachable_reason"]


def resolve_workers(workers: int | None) -> int:
    """``workers`` checked, or the machine's cores for ``None``.

    Raises:
        InvalidOption: workers not a whole number of at least 1.
    """
    if workers is None:
        return os.cpu_count() or 1
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise InvalidOption(f"workers must be a whole number of at least 1, got {quote(workers)}")
    return workers


def shake_hands(address: str, timeout: float) -> None:
    """Shake hands with the Dask scheduler at ``address`` once, so that one that is missing or
    is something else fails at once, before a client that then takes seconds to close.

    Raises:
        Exception: what connecting raised (:func:`unreachable_reason` puts it in words).
    """
    comm: Any = importlib.import_module("distributed.comm")
    scheme, where = comm.parse_address(address)
    if scheme == "tcp":
        # Dask retries a refused connection until its timeout: a port nothing listens on is
        # told at once instead, from one plain connection.
        host, port = comm.parse_host_port(where)
        with socket.create_connection((host, port), timeout=timeout):
            pass

    async def handshake() -> None:
        connection = await comm.connect(address, timeout=timeout)
        await connection.close()

    # On a thread of its own: this one may be running an event loop (a notebook).
    with ThreadPoolExecutor(max_workers=1) as thread:
        thread.submit(asyncio.run, asyncio.wait_for(handshake(), timeout)).result()


def unreachable_reason(err: Exception, timeout: float) -> str:
    """Why a Dask scheduler could not be reached, in words, from what connecting raised."""
    if isinstance(err, socket.gaierror):
        return "no such host"
    if isinstance(err, ConnectionRefusedError):
        return "nothing listens there (the connection was refused)"
    if isinstance(err, OSError | TimeoutError):
        return f"no answer within {timeout:g} s"
    if isinstance(err, ValueError | TypeError):  # an address or TLS set-up Dask cannot use
        return " ".join(str(err).splitlines())
    # something answered, but not as a Dask scheduler
    return f"it does not answer as a Dask scheduler ({type(err).__name__})"
