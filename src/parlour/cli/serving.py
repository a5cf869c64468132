"""How ``parlour serve`` runs its server once the options are checked (:mod:`.serve`): one
process on the bound socket (:func:`serve_here`), or each of the ``--workers N`` processes
that :mod:`parlour.server.workers` starts (:func:`serve_child`); and the graceful stop of
either (SIGTERM, Ctrl-C: docs/hosts.md, "Stopping")."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import socket
import sys
from typing import TYPE_CHECKING, Any

from parlour.cli.common import CommandError, one_line
from parlour.cli.serve import _check_store, _checked_db

if TYPE_CHECKING:
    from parlour.server.hub import Hub
    from parlour.server.store import Store
    from parlour.server.trust import Trust

__all__ = ["DRAIN_SECONDS", "level_of", "serve_child", "serve_here", "trust_of"]

DRAIN_SECONDS = 4.0
"""How long a graceful stop waits for the sockets it closed with 1012 to go (then uvicorn's
own 3 s for requests in flight, then the app's shutdown): a stop takes under 10 s."""


def level_of(args: argparse.Namespace) -> str:
    return str(args.log_level or ("warning" if args.quiet else "info"))


def trust_of(args: argparse.Namespace, sock: socket.socket) -> Trust:
    from parlour.server.trust import Trust, listen_origins

    host, port = sock.getsockname()[:2]
    listening = listen_origins(args.host, host, port)
    return Trust.of(listening, args.public_url, args.allow_origin or (), args.trusted_proxy or ())


def serve_child(args: argparse.Namespace, sock: socket.socket, parent: int) -> None:
    """One server process of ``--workers N`` (:mod:`parlour.server.workers` started it with
    SIGINT blocked): the supervisor stops it with SIGTERM, so a Ctrl-C at the terminal is
    left to the supervisor; it stops by itself when the supervisor is gone."""
    import signal

    from parlour.server.logs import setup_logging
    from parlour.server.store import open_store
    from parlour.server.workers import watch_parent

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    watch_parent(parent)
    setup_logging(level_of(args))
    try:
        store = open_store(_checked_db(args.db))
        _check_store(store, args.db, args.key_file)  # and the key that seals the seeds
    except CommandError as err:
        sys.stderr.write(f"parlour serve: error: {one_line(str(err))}\n")
        raise SystemExit(2) from None
    serve_here(args, store, sock, trust_of(args, sock), supervised=True)


def serve_here(
    args: argparse.Namespace, store: Store, sock: socket.socket, trust: Trust, supervised: bool
) -> None:
    """Serve on ``sock`` until SIGTERM or Ctrl-C, then stop gracefully (:class:`_Server`)."""
    import signal

    import uvicorn

    from parlour.server.app import create_app
    from parlour.server.hub import Settings
    from parlour.server.retention import Policy

    settings = Settings(
        takeover=args.takeover,
        bot_delay=args.bot_delay,
        bot_workers=args.bot_workers,
        bot_seconds=args.bot_seconds,
        max_rooms_per_client=args.max_rooms,
        rate=args.rate,
        burst=max(10, int(args.rate * 2)),
        review_budget=args.review_budget,
        max_sockets_per_room=args.max_sockets_per_room,
        max_sockets_per_client=args.max_sockets_per_client,
        room_idle=args.room_idle,
    )
    level = level_of(args)
    app = create_app(
        store, settings, trust=trust, retention=Policy(args.keep_days, args.abandon_days)
    )
    config = uvicorn.Config(
        app,
        log_config=None,
        log_level=level,
        access_log=not args.quiet,
        ws_max_size=1 << 20,
        proxy_headers=False,  # X-Forwarded-For: only from --trusted-proxy (parlour.server.trust)
        ws_ping_interval=20,
        ws_ping_timeout=20,
        lifespan="on",
        timeout_graceful_shutdown=3,
    )
    server = _server_class()(config, app.state.hub, supervised)
    # Rooms keep every state of their games, so the heap is large and full collections of it
    # are what made the slowest updates slow (about 200 ms at 250 rooms): what was loaded at
    # start is frozen out of collections, and young objects are collected less often.
    gc.collect()
    gc.freeze()
    gc.set_threshold(50_000, 20, 100)
    # uvicorn raises the signal that stopped it again once it has stopped: SIGTERM's default
    # would then kill the process (status -15, and Python's exit handlers never run), so a
    # graceful stop by SIGTERM ends with status 0 like one by Ctrl-C.
    signal.signal(signal.SIGTERM, lambda signum, frame: None)
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(server.serve(sockets=[sock]))


def _server_class() -> type[Any]:
    """uvicorn's server with Parlour's graceful stop: on SIGTERM or Ctrl-C the port is closed
    at once, every socket is closed with 1012 (reconnect) and given :data:`DRAIN_SECONDS` to
    go, and only then does uvicorn stop what is left (requests in flight get 3 s more). A
    process of ``--workers N`` leaves SIGINT to its supervisor."""
    import signal

    import uvicorn

    class _Server(uvicorn.Server):
        def __init__(self, config: uvicorn.Config, hub: Hub, supervised: bool) -> None:
            super().__init__(config)
            self.hub = hub
            self.supervised = supervised

        def handle_exit(self, sig: int, frame: Any) -> None:
            if self.supervised and sig == signal.SIGINT:
                return
            super().handle_exit(sig, frame)

        async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
            for listening in self.servers:
                listening.close()  # new connections are refused from now on
            for sock in sockets or []:
                sock.close()
            if not self.force_exit:
                await self.hub.drain(DRAIN_SECONDS)
            await super().shutdown(sockets)

    return _Server
