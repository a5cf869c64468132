"""``GET /healthz`` and ``GET /readyz``: whether a server process is alive, and whether it can
serve rooms now (for a load balancer, a container's health check or a supervisor).

- ``/healthz``: 200 ``{"alive": true}`` as long as the process answers at all.
- ``/readyz``: 200 ``{"ready": true}`` when the database answers a query within
  :data:`PROBE_SECONDS` (for SQLite also: the file the server opened is still the one at its
  path, not removed or replaced) and the bot workers and the review worker (once started)
  are alive now, each process looked at as the probe comes; else 503
  ``{"ready": false, "reason": "..."}``, the reason one line and short (anyone may ask: the
  database's address and the driver's words go to the log only). A change of readiness is
  logged once (``server.ready``, ``server.not_ready`` with ``reason`` and ``detail``), not at
  every probe. A worker found dead is replaced there and then (the bot workers are started
  again; the review worker is let go, and the next review starts a new one), so the answer
  after a 503 for a dead worker is 200 again unless the new one dies too.
"""

from __future__ import annotations

import asyncio
import logging
import os
from concurrent.futures import ProcessPoolExecutor

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from parlour.server.hub import Hub
from parlour.server.logs import event as log_event
from parlour.server.store import SqliteStore

__all__ = ["PROBE_SECONDS", "Readiness", "healthz"]

PROBE_SECONDS = 2.0
"""How long the database has to answer the readiness query."""

_HEADERS = {"Cache-Control": "no-store", "X-Content-Type-Options": "nosniff"}


async def healthz(request: Request) -> Response:
    return JSONResponse({"alive": True}, headers=_HEADERS)


class Readiness:
    """The readiness of the server over ``hub``; :meth:`started` once the store is open."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self.file: tuple[int, int] | None = None
        self.last: str | None = None
        self.detail = ""
        """What the database's driver said, for the log (not for whoever asks)."""

    def started(self) -> None:
        """Note which SQLite file the store opened (its device and inode)."""
        store = self.hub.store
        if isinstance(store, SqliteStore):
            found = os.stat(store.path)
            self.file = (found.st_dev, found.st_ino)

    async def reason(self) -> str | None:
        """Why the server is not ready, in one line, or None when it is (:attr:`detail`: the
        database driver's own words, when it failed)."""
        self.detail = ""
        return await self._database() or self._bots() or self._reviews()

    async def _database(self) -> str | None:
        store = self.hub.store
        if isinstance(store, SqliteStore) and self.file is not None:
            try:
                found = os.stat(store.path)
            except OSError:
                return "database: the SQLite file the server opened is gone"
            if (found.st_dev, found.st_ino) != self.file:
                return "database: the SQLite file the server opened was replaced"
        try:
            await asyncio.wait_for(store.query("SELECT 1", ()), PROBE_SECONDS)
        except TimeoutError:
            return f"database: no answer within {PROBE_SECONDS:g} s"
        except Exception as err:  # whatever the driver raises: the server is not ready
            self.detail = _one_line(err)
            return "database: unreachable"
        return None

    def _bots(self) -> str | None:
        pool = self.hub.bots._pool
        if not isinstance(pool, ProcessPoolExecutor):
            return None  # a thread (--bot-workers 0), or stopped
        processes = list((pool._processes or {}).values())
        if pool._broken or any(not p.is_alive() for p in processes):  # waitpid: now
            self.hub.bots.start()  # a new pool replaces the broken one (logged there)
            return "bot worker: a worker process has died"
        return None

    def _reviews(self) -> str | None:
        if self.hub.reviews.worker_lost():  # let go: the next review starts a new one
            return "review worker: the review worker process has died"
        return None

    async def readyz(self, request: Request) -> Response:
        reason = await self.reason()
        if reason != self.last:
            if reason is None:
                log_event("server.ready")
            else:
                extra = {"detail": self.detail} if self.detail else {}
                log_event("server.not_ready", logging.WARNING, reason=reason, **extra)
            self.last = reason
        if reason is None:
            return JSONResponse({"ready": True}, headers=_HEADERS)
        return JSONResponse({"ready": False, "reason": reason}, 503, headers=_HEADERS)


def _one_line(err: BaseException) -> str:
    text = " ".join(str(err).split()) or type(err).__name__
    return text[:200]
