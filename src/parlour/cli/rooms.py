"""``parlour rooms list`` and ``parlour rooms prune``: the stored rooms of ``parlour serve``'s
database, and their retention done by hand (:mod:`parlour.server.retention`)."""

from __future__ import annotations

import argparse
import asyncio
import sqlite3
import textwrap
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from parlour.cli.common import CommandError, Parser, one_line, people_console, print_json
from parlour.core.inputs import parse_duration
from parlour.errors import ParlourError

if TYPE_CHECKING:
    from parlour.server.retention import Plan, RoomInfo
    from parlour.server.store import Store

__all__ = ["days_arg", "register"]

T = TypeVar("T")

MAX_DAYS = 36_500.0


def days_arg(text: str) -> float:
    """A number of days, more than 0 and at most a hundred years (``0``, ``-1``, ``inf``,
    ``nan`` refused)."""
    try:
        return parse_duration(text, field="the value", unit="days", maximum=MAX_DAYS)
    except ParlourError as err:
        raise argparse.ArgumentTypeError(str(err)) from None


def _store(db: str) -> Store:
    """The store of an existing database (a missing SQLite file is refused, not made)."""
    from parlour.cli.serve import _checked_db
    from parlour.server.store import open_store

    checked = _checked_db(db)
    if db.startswith(("postgresql://", "postgres://")):
        try:
            import psycopg  # noqa: F401
        except ImportError:
            raise CommandError(
                "--db postgresql://... needs the PostgreSQL driver: pip install 'parlour[postgres]'"
            ) from None
    elif not Path(checked).is_file():
        raise CommandError(f"--db {one_line(db)}: no such database file")
    return open_store(checked)


def _with_store(db: str, work: Callable[[Store], Awaitable[T]]) -> T:
    store = _store(db)

    async def run() -> T:
        await store.open()
        try:
            return await work(store)
        finally:
            await store.close()

    try:
        return asyncio.run(run())
    except (OSError, sqlite3.Error) as err:
        raise CommandError(f"--db {one_line(db)}: {one_line(str(err))}") from None


def _when(at: float, now: float) -> str:
    """``2026-12-02 20:50 UTC (3 days ago)``."""
    stamp = datetime.fromtimestamp(at, UTC).strftime("%Y-%m-%d %H:%M UTC")
    age = max(0.0, now - at)
    if age < 3600:
        ago = f"{int(age // 60)} min ago"
    elif age < 86_400:
        ago = f"{int(age // 3600)} h ago"
    else:
        days = int(age // 86_400)
        ago = f"{days} day{'s' if days != 1 else ''} ago"
    return f"{stamp} ({ago})"


def _cmd_list(args: argparse.Namespace) -> int:
    from rich.markup import escape
    from rich.table import Table

    from parlour.server.retention import list_rooms

    rooms = _with_store(args.db, list_rooms)
    if args.json:
        print_json({"rooms": [info.to_json() for info in rooms]})
        return 0
    now = time.time()
    table = Table(title=f"Rooms in {escape(args.db)}")
    for name in ("room", "game", "players", "status", "last activity"):
        table.add_column(name)
    table.add_column("events", justify="right")
    for info in rooms:
        table.add_row(
            escape(info.room),
            escape(info.game),
            str(info.players),
            info.status,
            _when(info.last, now),
            str(info.events),
        )
    console = people_console()
    console.print(table)
    counts = {s: sum(1 for i in rooms if i.status == s) for s in ("running", "over", "abandoned")}
    console.print(
        f"{len(rooms)} rooms: {counts['running']} running, {counts['over']} over, "
        f"{counts['abandoned']} abandoned"
    )
    return 0


def _cmd_prune(args: argparse.Namespace) -> int:
    from parlour.server.retention import Policy, prune

    policy = Policy(keep_days=args.keep_days, abandon_days=args.abandon_days)
    now = time.time()
    plan: Plan = _with_store(args.db, lambda store: prune(store, now, policy, dry_run=args.dry_run))
    if args.json:
        print_json(
            {
                "dry_run": args.dry_run,
                "abandoned": [i.to_json() for i in plan.abandon],
                "removed": [i.to_json() for i in plan.remove],
            }
        )
        return 0
    verbs = ("would abandon", "would remove") if args.dry_run else ("abandoned", "removed")
    lines = [_line(verbs[0], i, now) for i in plan.abandon]
    lines += [_line(verbs[1], i, now) for i in plan.remove]
    for line in lines:
        print(line)
    print(
        f"{'Dry run: ' if args.dry_run else ''}{verbs[0]} {len(plan.abandon)} room"
        f"{'s' if len(plan.abandon) != 1 else ''}, {verbs[1]} {len(plan.remove)} room"
        f"{'s' if len(plan.remove) != 1 else ''}"
        f" (keep {args.keep_days:g} days, abandon after {args.abandon_days:g} days)"
    )
    return 0


def _line(verb: str, info: RoomInfo, now: float) -> str:
    return (
        f"{verb} {info.room} ({info.game}, {info.players} players, {info.status}, "
        f"last activity {_when(info.last, now)}, {info.events} events)"
    )


def _db_option(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--db",
        default="parlour.db",
        help="the server's database, as parlour serve --db: an SQLite file (default "
        "parlour.db) or postgresql://USER@HOST/DB",
    )


def days_options(p: argparse.ArgumentParser) -> None:
    """``--keep-days`` and ``--abandon-days`` (``parlour serve`` and ``parlour rooms prune``)."""
    p.add_argument(
        "--keep-days",
        type=days_arg,
        default=30.0,
        metavar="DAYS",
        help="finished and abandoned rooms are removed this long after their last activity "
        "(default 30)",
    )
    p.add_argument(
        "--abandon-days",
        type=days_arg,
        default=7.0,
        metavar="DAYS",
        help="an unfinished room nobody has opened for this long is ended as abandoned (default 7)",
    )


def register(
    sub: argparse._SubParsersAction[Parser], formatter: type[argparse.HelpFormatter]
) -> None:
    """Add ``parlour rooms list`` and ``parlour rooms prune``."""
    group = sub.add_parser(
        "rooms",
        help="the online rooms a server has stored: list them, prune old ones",
        description=textwrap.fill(
            "The rooms stored in parlour serve's database. A running server prunes by itself "
            "(at start and every hour); these commands do it by hand, safely beside a running "
            "server: a room with a socket open is never touched.",
            78,
        ),
        formatter_class=formatter,
    )
    own = group.add_subparsers(dest="subcommand", required=True, metavar="COMMAND")
    p = own.add_parser(
        "list",
        help="every stored room: game, players, status, last activity, events",
        epilog="example: parlour rooms list --db parlour.db",
        formatter_class=formatter,
    )
    _db_option(p)
    p.add_argument("--json", action="store_true", help="print the rooms as JSON")
    p.set_defaults(func=_cmd_list)
    p = own.add_parser(
        "prune",
        help="end abandoned rooms and remove old finished ones, and print what it did",
        description=textwrap.fill(
            "End as abandoned every unfinished room nobody has opened for --abandon-days, "
            "and remove every finished or abandoned room whose last activity is older than "
            "--keep-days (its events, reviews and everything else kept for it).",
            78,
        ),
        epilog="example: parlour rooms prune --db parlour.db --keep-days 30 --dry-run",
        formatter_class=formatter,
    )
    _db_option(p)
    days_options(p)
    p.add_argument("--dry-run", action="store_true", help="print what it would do; change nothing")
    p.add_argument("--json", action="store_true", help="print what it did as JSON")
    p.set_defaults(func=_cmd_prune)
