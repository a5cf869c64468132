"""``parlour serve``: the online rooms server (starlette on uvicorn)."""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import sqlite3
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from parlour.cli.common import CommandError, Parser, int_range, one_line, seconds_arg
from parlour.cli.rooms import days_options
from parlour.core.inputs import parse_duration, parse_path, quote
from parlour.errors import ParlourError

if TYPE_CHECKING:
    from parlour.server.store import Store
    from parlour.server.trust import Network

__all__ = ["register"]


def _seconds(text: str) -> float:
    """Seconds from 0 to a day, finite, in decimal notation (``inf``, ``nan`` refused)."""
    return seconds_arg(text)


def _bot_seconds(text: str) -> float:
    """``--bot-seconds``: more than 0 and at most a minute."""
    try:
        return parse_duration(text, field="--bot-seconds", maximum=60.0)
    except ParlourError as err:
        raise argparse.ArgumentTypeError(str(err)) from None


def _count(low: int, high: int) -> Callable[[str], int]:
    return int_range(low, high)


def _review_budget(text: str) -> str:
    """``--review-budget``: ``off``, or a budget of each reviewed decision that every game
    with decisions takes (``N`` iterations, ``Ns`` seconds)."""
    from parlour.bots.review import parse_review_budget
    from parlour.games import GAMES

    if text.strip().lower() == "off":
        return "off"
    for game in GAMES.values():
        if game.strategy is not None:
            try:
                parse_review_budget(text, game)
            except ParlourError as err:
                raise argparse.ArgumentTypeError(f"{err}, or off") from None
    return text.strip()


def _origin(text: str) -> str:
    """``--allow-origin``: what a browser sends as ``Origin``, a scheme and a host with perhaps
    a port (``https://example.org``, ``http://10.0.0.5:8000``); a bare host or a path would
    never match one, so they are refused rather than silently ignored."""
    from parlour.server.trust import parse_origin

    try:
        return parse_origin(text)
    except ValueError as err:
        raise argparse.ArgumentTypeError(str(err)) from None


def _public_url(text: str) -> str:
    """``--public-url``: the address people open (an origin: no path)."""
    from parlour.server.trust import parse_public_url

    try:
        return parse_public_url(text)
    except ValueError as err:
        raise argparse.ArgumentTypeError(str(err)) from None


def _proxy(text: str) -> Network:
    """``--trusted-proxy``: an IP address or a CIDR network."""
    from parlour.server.trust import parse_proxy

    try:
        return parse_proxy(text)
    except ValueError as err:
        raise argparse.ArgumentTypeError(str(err)) from None


def _checked_db(db: str) -> str:
    """``--db``: a PostgreSQL URL as given, or an SQLite file name that is not empty (SQLite
    would take ``''`` for a temporary database and lose every room at exit) and has no NUL."""
    if db.startswith(("postgresql://", "postgres://")):
        return db
    try:
        path = parse_path(db, field="--db")
    except ParlourError as err:
        raise CommandError(str(err)) from None
    if path.exists() and not path.is_file():
        # A folder or a device such as /dev/null: SQLite would make its journal beside it.
        raise CommandError(f"--db {one_line(db)}: it is not a plain file; name an SQLite file")
    return str(path)


def _check_store(store: Store, db: str, key_file: str | None) -> int:
    """Open the store once before serving: a file that cannot be opened (a folder, a missing
    folder), a database that cannot be reached or is damaged (:mod:`parlour.server.integrity`)
    and a key file that is not the database's (:mod:`parlour.server.sealing`) are one line
    here, not a traceback from the server's startup. Seals the plain seeds of running deals
    (how many: the answer) and leaves the key's sealer on ``store``."""
    from parlour.server.integrity import Damaged, check_database, storage_error
    from parlour.server.sealing import KeyError_, default_key_path, prepare

    shown = one_line(_hidden(db) if store.shared else db)
    key = Path(key_file) if key_file is not None else default_key_path(db)

    async def check() -> int:
        await store.open()
        try:
            await check_database(store, shown)
            store.sealer, sealed = await prepare(store, key)
            return sealed
        finally:
            await store.close()

    try:
        return asyncio.run(check())
    except Damaged as err:
        raise CommandError(f"--db {one_line(str(err))}") from None
    except KeyError_ as err:
        raise CommandError(one_line(str(err))) from None
    except sqlite3.DatabaseError as err:
        if isinstance(err, sqlite3.OperationalError):
            raise CommandError(f"--db {shown}: cannot open it: {one_line(str(err))}") from None
        raise CommandError(f"--db {shown}: the database is damaged: {one_line(str(err))}") from None
    except Exception as err:
        if not storage_error(err):
            raise
        raise CommandError(f"--db {shown}: cannot open it: {one_line(str(err))}") from None


def _hidden(url: str) -> str:
    from parlour.server.pgstore import _shown

    return _shown(url)


def _bind(host: str, port: int) -> socket.socket:
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except (socket.gaierror, UnicodeError) as err:
        raise CommandError(
            f"--host {quote(host)} is not an address this machine has: {err}"
        ) from None
    family, kind, proto, _, address = infos[0]
    sock = socket.socket(family, kind, proto)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(address)
    except OSError as err:
        sock.close()
        raise CommandError(f"cannot listen on {host} port {port}: {err.strerror}") from None
    sock.listen(2048)
    sock.set_inheritable(True)
    return sock


_POSTGRES = ("postgresql://", "postgres://")


def _cmd_serve(args: argparse.Namespace) -> int:
    import uvicorn  # noqa: F401  (the extra `serve`: said in one line when it is missing)

    from parlour.cli.serving import level_of, serve_child, serve_here, trust_of
    from parlour.server.logs import setup_logging
    from parlour.server.store import open_store

    if args.db.startswith(_POSTGRES):
        try:
            import psycopg  # noqa: F401
        except ImportError:
            raise CommandError(
                "--db postgresql://... needs the PostgreSQL driver: pip install 'parlour[postgres]'"
            ) from None
    elif args.workers > 1:
        raise CommandError(
            f"--workers {args.workers} needs a PostgreSQL --db (postgresql://...): an SQLite "
            "file serves one process"
        )
    store = open_store(_checked_db(args.db))
    sealed = _check_store(store, args.db, args.key_file)
    sock = _bind(args.host, args.port)
    host, port = sock.getsockname()[:2]
    trust = trust_of(args, sock)
    shown = f"[{host}]" if ":" in host else host
    url = f"http://{shown}:{port}/"
    if args.json:  # for programs that start a server: the address as a JSON line
        print(json.dumps({"serving": url, "pid": os.getpid()}), flush=True)
    else:
        print(f"Parlour is serving at {url}", flush=True)
        if not args.quiet:
            print(
                "Open that address in a browser to start a room (the lobby); invite links use "
                f"{trust.public_url}/ (--public-url sets the address people open); friends on "
                "your network need --host 0.0.0.0. Ctrl-C stops the server.",
                flush=True,
            )
    level = level_of(args)
    setup_logging(level)  # JSON lines on stderr, uvicorn's too (parlour.server.logs)
    if sealed:
        from parlour.server.logs import event

        event("store.sealed", seeds=sealed)  # an older database's running deals
    if args.workers > 1:
        from parlour.server.workers import Supervisor

        # Each process gets the options as parsed (the command's function stays here).
        options = argparse.Namespace(**{k: v for k, v in vars(args).items() if k != "func"})
        Supervisor(args.workers, serve_child, (options, sock), sock).run()
    else:
        serve_here(args, store, sock, trust, supervised=False)
    sys.stderr.write("Parlour has stopped serving.\n")
    return 0


def register(
    sub: argparse._SubParsersAction[Parser], formatter: type[argparse.HelpFormatter]
) -> None:
    """Add the ``serve`` command's parser."""
    p = sub.add_parser(
        "serve",
        help="serve online rooms: friends play together from their own devices",
        description=textwrap.fill(
            "Serve online rooms over HTTP and websockets. POST /api/rooms creates a room and "
            "answers one invite link per person seat; every action is stored before anyone is "
            "told of it, so a server stopped at any moment resumes every room. Ctrl-C stops.",
            78,
        ),
        epilog="example: parlour serve --port 8000 --db parlour.db",
        formatter_class=formatter,
    )
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    p.add_argument(
        "--port", type=_count(0, 65535), default=8000, help="port (default 8000; 0: any)"
    )
    p.add_argument(
        "--db",
        default="parlour.db",
        help="SQLite file (default parlour.db) or postgresql://USER@HOST/DB to share rooms "
        "between several server processes",
    )
    p.add_argument(
        "--key-file",
        metavar="FILE",
        help="the key that seals running deals' seeds in the database, made at the first "
        "start (default: DB.key beside an SQLite file, parlour.key in the working folder "
        "for PostgreSQL); keep it with the database's backups",
    )
    p.add_argument(
        "--takeover",
        type=_seconds,
        default=60.0,
        metavar="SECONDS",
        help="a person away this long is played by the heuristic bot until back (default 60)",
    )
    p.add_argument(
        "--bot-delay",
        type=_seconds,
        default=0.6,
        metavar="SECONDS",
        help="pause before each bot move so people can follow (default 0.6)",
    )
    p.add_argument(
        "--bot-workers",
        type=_count(0, 64),
        default=1,
        metavar="N",
        help="worker processes for bot decisions (default 1; 0: a thread)",
    )
    p.add_argument(
        "--bot-seconds",
        type=_bot_seconds,
        default=3.0,
        metavar="SECONDS",
        help="the longest a search bot thinks a move, whatever its kind asks (default 3)",
    )
    p.add_argument(
        "--workers",
        type=_count(1, 64),
        default=1,
        metavar="N",
        help="server processes sharing the port (default 1); more than one needs a PostgreSQL "
        "--db; each has its own bot workers",
    )
    p.add_argument(
        "--allow-origin",
        action="append",
        type=_origin,
        metavar="ORIGIN",
        help="also accept pages from ORIGIN (https://example.org); repeatable",
    )
    p.add_argument(
        "--public-url",
        type=_public_url,
        metavar="URL",
        help="the address people open (https://cards.example.org): invite links are built on "
        "it and its pages are accepted (default: the address it listens on)",
    )
    p.add_argument(
        "--trusted-proxy",
        action="append",
        type=_proxy,
        metavar="ADDRESS",
        help="a reverse proxy (an IP address or a network like 10.0.0.0/8) whose "
        "X-Forwarded-For names the client; repeatable (default: none, not even loopback)",
    )
    p.add_argument(
        "--max-rooms",
        type=_count(1, 1_000_000),
        default=20,
        metavar="N",
        help="rooms with a game running that one client address may have (default 20)",
    )
    p.add_argument(
        "--rate",
        type=_count(1, 100_000),
        default=20,
        metavar="N",
        help="frames a second one socket may send, with bursts of twice that (default 20)",
    )
    p.add_argument(
        "--max-sockets-per-room",
        type=_count(1, 1_000_000),
        default=100,
        metavar="N",
        help="open sockets one room may have, spectators included (default 100); a seat's "
        "first socket is let in whatever the count",
    )
    p.add_argument(
        "--max-sockets-per-client",
        type=_count(1, 1_000_000),
        default=50,
        metavar="N",
        help="open sockets one client address may have (default 50); more are closed 4429",
    )
    p.add_argument(
        "--room-idle",
        type=_seconds,
        default=60.0,
        metavar="SECONDS",
        help="a room nobody is connected to leaves memory after this long (default 60; the "
        "database keeps it)",
    )
    p.add_argument(
        "--review-budget",
        type=_review_budget,
        default=None,
        metavar="SPEC",
        help="each decision's search in a finished deal's review: N iterations or Ns seconds "
        "(default: the expert's budget), or off for no reviews",
    )
    days_options(p)  # --keep-days, --abandon-days (parlour.server.retention)
    p.add_argument(
        "--json", action="store_true", help='print the address as {"serving": URL, "pid": N}'
    )
    p.add_argument("--quiet", action="store_true", help="log warnings only, no access log")
    p.add_argument(
        "--log-level",
        choices=("debug", "info", "warning", "error"),
        default=None,
        help="the least severe JSON log line written to stderr (default info; warning with "
        "--quiet)",
    )
    p.set_defaults(func=_cmd_serve)
