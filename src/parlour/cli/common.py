"""What every ``parlour`` command shares: one-line errors, JSON and console output, progress
bars, reading files, option flags."""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import NoReturn

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TextColumn,
    TimeRemainingColumn,
)
from rich.text import Text

from parlour.core.game import JSON, Game
from parlour.core.options import parse_option_pairs
from parlour.core.rng import MAX_SEED


class Parser(argparse.ArgumentParser):
    """argparse with a one-line error (``parlour beggar play: error: ...``) and exit status 2."""

    def error(self, message: str) -> NoReturn:
        sys.stderr.write(f"{self.prog}: error: {message} (see {self.prog} --help)\n")
        raise SystemExit(2)


class CommandError(Exception):
    """A command-line problem found after parsing (a file that cannot be read, ...)."""


def print_json(obj: JSON, *, compact: bool = False) -> None:
    """One line for machines, or indented for people with lists of plain values on one line."""
    if compact:
        print(json.dumps(obj, ensure_ascii=False, separators=(",", ":")))
    else:
        print(_pretty_json(obj, ""))


def _pretty_json(obj: JSON, indent: str) -> str:
    inner = indent + "  "
    if isinstance(obj, dict) and obj:
        items = [f"{inner}{json.dumps(k)}: {_pretty_json(v, inner)}" for k, v in obj.items()]
        return "{\n" + ",\n".join(items) + "\n" + indent + "}"
    if isinstance(obj, list) and any(isinstance(v, dict | list) for v in obj):
        items = [inner + _pretty_json(v, inner) for v in obj]
        return "[\n" + ",\n".join(items) + "\n" + indent + "]"
    return json.dumps(obj, ensure_ascii=False, separators=(", ", ": "))


def people_console() -> Console:
    """Standard output for people: wrapped on a terminal, whole lines in pipes and files."""
    return Console(highlight=False, soft_wrap=not sys.stdout.isatty())


def fresh_seed() -> int:
    """A new seed for a game the user did not seed; it is printed so the game can be replayed."""
    return int.from_bytes(os.urandom(8), "big") & MAX_SEED


def read_text(path: str) -> str:
    if path == "-":
        return sys.stdin.read()
    try:
        return Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        reason = err.strerror if isinstance(err, OSError) and err.strerror else str(err)
        raise CommandError(f"cannot read {path}: {reason}") from None


class _RateColumn(ProgressColumn):
    """Items per second, e.g. ``812 deals/s``."""

    def render(self, task: Task) -> Text:
        speed = task.finished_speed or task.speed
        return Text("" if speed is None else f"{speed:,.0f} {task.description}/s", style="cyan")


def progress_bar(label: str) -> Progress:
    """A progress bar on standard error, shown only on a terminal (never in pipes or --json)."""
    return Progress(
        TextColumn(label),
        BarColumn(),
        MofNCompleteColumn(),
        _RateColumn(),
        TimeRemainingColumn(),
        console=Console(stderr=True),
        disable=not sys.stderr.isatty(),
        transient=True,
    )


def options_of(args: argparse.Namespace) -> dict[str, str]:
    """Game options from ``--options K=V ...`` and the dedicated flags (which win)."""
    given = parse_option_pairs(args.options)
    for name in ("unpaid_penalty", "card_limit"):
        value = getattr(args, name, None)
        if value is not None:
            given[name] = str(value)
    return given


RULINGS_LINE = "rulings: see the README section 'Rulings and options'"


def options_epilog(game: Game, *, rulings: bool = True) -> str:
    """The game's options with their defaults and rulings, for a command's ``--help``."""
    lines = [f"options of {game.title} (--options NAME=VALUE):"]
    for spec in game.info.options:
        ruling = f" [{spec.ruling}]" if spec.ruling else ""
        lines.append(f"  {spec.describe()}{ruling}: {spec.help}")
    if rulings:
        lines.append(RULINGS_LINE)
    return "\n".join(lines)


def read_json(path: str) -> object:
    """A JSON file's content, or a one-line error naming the file and where it breaks."""
    text = read_text(path)
    try:
        return json.loads(text)
    except json.JSONDecodeError as err:
        raise CommandError(
            f"{path} is not JSON: {err.msg} at line {err.lineno} column {err.colno}"
        ) from None


def nonneg_int(text: str) -> int:
    if not text.strip().isdigit() or int(text) > MAX_SEED:
        raise argparse.ArgumentTypeError(f"must be a whole number from 0 to {MAX_SEED}: {text!r}")
    return int(text)


def pos_int(text: str) -> int:
    if not text.strip().isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"must be a whole number of at least 1: {text!r}")
    return int(text)


def add_beggar_options(p: argparse.ArgumentParser, *, which: str = "") -> None:
    """Beggar-My-Neighbour's option flags; ``which`` prefixes their help (``beggar, ``)."""
    p.add_argument(
        "--unpaid-penalty",
        dest="unpaid_penalty",
        choices=("capture", "next_player"),
        help=f"{which}M4: when a payer runs out mid-payment (default capture)",
    )
    p.add_argument(
        "--card-limit",
        dest="card_limit",
        type=pos_int,
        metavar="N",
        help=f"{which}M11: stop after N cards; most cards held wins",
    )
    p.add_argument("--options", nargs="+", metavar="NAME=VALUE", help="game options")
