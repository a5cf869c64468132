"""What every ``parlour`` command shares: one-line errors, JSON and console output, progress
bars, reading files, option flags."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Sequence
from typing import NoReturn, TypeVar

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

from parlour.core.files import MAX_READ_BYTES, read_text_limited, shown_name
from parlour.core.game import JSON, Game
from parlour.core.inputs import parse_duration, parse_int, parse_path, quote
from parlour.core.jsontext import parse_json
from parlour.core.options import parse_option_pairs
from parlour.core.rng import MAX_SEED
from parlour.errors import ParlourError

T = TypeVar("T")


class Parser(argparse.ArgumentParser):
    """argparse with a one-line error (``parlour lab run: error: ...``) and exit status 2."""

    def error(self, message: str) -> NoReturn:
        # One line whatever the arguments quoted (a word may hold a newline or a separator).
        sys.stderr.write(f"{self.prog}: error: {one_line(message)} (see {self.prog} --help)\n")
        raise SystemExit(2)


class CommandError(Exception):
    """A command-line problem found after parsing (a file that cannot be read, ...)."""


def one_line(text: str, limit: int = 400) -> str:
    """``text`` as one line for standard error: line breaks and other control characters
    become spaces (a file name may hold a newline), at most ``limit`` characters."""
    flat = "".join(c if c.isprintable() else " " for c in " ".join(text.splitlines()))
    return flat if len(flat) <= limit else flat[: limit - 3] + "..."


def write_crash_report(err: BaseException, argv: Sequence[str]) -> str | None:
    """Write the full report of an internal error (the command line, versions, the traceback)
    to a new file in the system's temporary folder; returns its name, or None when no file
    could be written."""
    import platform
    import tempfile
    import time
    import traceback
    from importlib.metadata import PackageNotFoundError, version

    try:
        ours = version("parlour")
    except PackageNotFoundError:
        ours = "(not installed)"
    lines = [
        "Parlour internal error report",
        f"time: {time.strftime('%Y-%m-%d %H:%M:%S %z')}",
        f"parlour {ours}, Python {platform.python_version()} on {platform.platform()}",
        f"command line: {[quote(a, 200) for a in argv]}",
        "",
        *traceback.format_exception(err),
    ]
    try:
        fd, name = tempfile.mkstemp(prefix="parlour-internal-error-", suffix=".txt")
        with os.fdopen(fd, "w", encoding="utf-8", errors="backslashreplace") as out:
            out.write("\n".join(lines))
    except OSError:
        return None
    return name


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
    """The text of the file a person named (``-`` reads standard input), at most
    ``MAX_READ_BYTES``; a one-line error naming the file otherwise."""
    if path == "-":
        data = sys.stdin.buffer.read(MAX_READ_BYTES + 1) if hasattr(sys.stdin, "buffer") else None
        if data is None:
            return sys.stdin.read(MAX_READ_BYTES + 1)
        if len(data) > MAX_READ_BYTES:
            raise CommandError(f"standard input is larger than {MAX_READ_BYTES} bytes")
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError as err:
            raise CommandError(f"standard input is not UTF-8 text (byte {err.start})") from None
    try:
        return read_text_limited(path)
    except ParlourError as err:
        raise CommandError(str(err)) from None


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
    """Game options from ``--options K=V ...`` and the options' own flags (which win:
    :func:`add_option_flags`)."""
    given = parse_option_pairs(getattr(args, "options", None))
    flags: dict[str, str] = getattr(args, "option_flags", None) or {}
    given.update(flags)
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
    """A JSON file's content, or a one-line error naming the file and where it breaks (also for
    nesting too deep, numbers too long, NaN and Infinity: :func:`parse_json`)."""
    text = read_text(path)
    shown = "standard input" if path == "-" else shown_name(path)
    try:
        return parse_json(text, field=shown)
    except ParlourError as err:
        raise CommandError(str(err)) from None


def _as_arg(call: Callable[[], T]) -> T:
    """``call()``, with a ParlourError turned into argparse's own error (one line, exit 2)."""
    try:
        return call()
    except ParlourError as err:
        raise argparse.ArgumentTypeError(str(err)) from None


def nonneg_int(text: str) -> int:
    """A seed or a count from 0 (ASCII digits only, at most ``MAX_SEED``)."""
    return _as_arg(lambda: parse_int(text, field="the value", minimum=0, maximum=MAX_SEED))


def pos_int(text: str) -> int:
    """A count from 1 (ASCII digits only, at most ``MAX_SEED``)."""
    return _as_arg(lambda: parse_int(text, field="the value", minimum=1, maximum=MAX_SEED))


def int_range(low: int, high: int) -> Callable[[str], int]:
    """An argparse type: a whole number from ``low`` to ``high`` in ASCII digits."""

    def parse(text: str) -> int:
        return _as_arg(lambda: parse_int(text, field="the value", minimum=low, maximum=high))

    parse.__name__ = f"int_{low}_to_{high}"
    return parse


MAX_WORKERS = 256
"""The most worker processes or threads a command may be asked for."""

MAX_GAMES_ARG = 10_000_000
"""The most games one arena or lab run may be asked for (each game's row is kept)."""


def workers_arg(text: str) -> int:
    """``--workers N``: 1 to :data:`MAX_WORKERS`."""
    return _as_arg(
        lambda: parse_int(text, field="the number of workers", minimum=1, maximum=MAX_WORKERS)
    )


def games_arg(text: str) -> int:
    """``--games N`` of an arena or a lab run: 1 to :data:`MAX_GAMES_ARG`."""
    return _as_arg(
        lambda: parse_int(text, field="the number of games", minimum=1, maximum=MAX_GAMES_ARG)
    )


MAX_PLAYERS_ARG = 64
"""The most players a command line may name; each game then checks its own range."""


def players_arg(text: str) -> int:
    """``--players N``: a whole number of at least 1 (``0`` is refused, never read as "the
    default"); the game says whether it can seat that many."""
    return _as_arg(
        lambda: parse_int(
            text, field="the number of players", minimum=1, maximum=MAX_PLAYERS_ARG, max_digits=4
        )
    )


def seconds_arg(text: str) -> float:
    """A delay in seconds, 0 or more and finite (``inf``, ``nan`` and ``-1`` are refused)."""
    return _as_arg(
        lambda: parse_duration(text, field="the delay", allow_zero=True, maximum=86_400.0)
    )


def minutes_arg(text: str) -> float:
    """A duration in minutes, more than 0 and at most a year (``inf`` and ``nan`` refused)."""
    return _as_arg(
        lambda: parse_duration(text, field="the duration", unit="minutes", maximum=366 * 24 * 60.0)
    )


def path_arg(text: str) -> str:
    """A file name: never empty, never holding a NUL; ``~`` expanded; ``-`` kept as it is (the
    commands read it as standard input where they say so)."""
    if text == "-":
        return text
    return str(_as_arg(lambda: parse_path(text)))


def seat_flag(text: str) -> str:
    """``--seat N=WHO``: the player N counted from 1 in ASCII digits (``²=random`` refused) and
    who sits there; returned as ``N=WHO`` with N in plain digits. Whether WHO is a bot or a
    person, and N a seat of the game, is for the table to say."""
    number, sep, who = text.partition("=")
    if not sep or not who.strip() or len(who) > 100 or not who.isprintable():
        raise argparse.ArgumentTypeError(
            f"write PLAYER=WHO, e.g. 2=ismcts or 3=person (players count from 1), got {quote(text)}"
        )
    n = _as_arg(
        lambda: parse_int(
            number, field="the player", minimum=1, maximum=MAX_PLAYERS_ARG, max_digits=4
        )
    )
    return f"{n}={who.strip()}"


class StoreOnce(argparse.Action):
    """An option that may be given once: a second ``--deal`` is an error, never a silent
    replacement of the first."""

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: object,
        option_string: str | None = None,
    ) -> None:
        if getattr(namespace, self.dest, None) not in (None, self.default):
            raise argparse.ArgumentError(self, "give it once; it was given twice")
        setattr(namespace, self.dest, values)


class _OptionFlagAction(argparse.Action):
    """Keeps a game option's own flag in ``option_flags`` (option name to text), which
    :func:`options_of` reads."""

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: object,
        option_string: str | None = None,
    ) -> None:
        given = dict(getattr(namespace, "option_flags", None) or {})
        given[self.dest] = str(values)
        namespace.option_flags = given


def add_option_flags(p: argparse.ArgumentParser, game: Game | None = None) -> None:
    """``--options NAME=VALUE ...`` and the option flags of ``game``'s commands
    (:class:`parlour.cli.commands.OptionFlag`), or, with no game, of every registered game's,
    each flag's help then starting with the games that have it (``NAME, ``)."""
    from parlour.cli.commands import OptionFlag, commands_for, declared_commands

    if game is not None:
        own = commands_for(game)
        declared = [(game, own)] if own is not None else []
    else:
        declared = declared_commands()
    found: dict[str, tuple[OptionFlag, Game, list[str]]] = {}
    for each, commands in declared:
        for flag in commands.option_flags:
            found.setdefault(flag.option, (flag, each, []))[2].append(each.name)
    for flag, owner, names in found.values():
        which = "" if game is not None else ", ".join(names) + ", "
        spec = next((s for s in owner.info.options if s.name == flag.option), None)
        action = p.add_argument(
            flag.flag,
            dest=flag.option,
            action=_OptionFlagAction,
            default=argparse.SUPPRESS,
            metavar=flag.metavar,
            help=which + flag.help,
        )
        if spec is not None and spec.kind == "choice":
            action.choices = spec.choices
        elif spec is not None and spec.kind == "int":
            action.type = pos_int if (spec.minimum or 0) >= 1 else nonneg_int
    p.add_argument("--options", nargs="+", metavar="NAME=VALUE", help="game options")
