"""The ``parlour`` command: parse arguments, call the library, print.

Every command has ``--json`` for machines. Bad input ends with one line on standard error naming
the problem and exit status 2, never a traceback. One module a group of commands: ``general``
(games, replay, arena, schema), ``play``, ``review``, ``lab``, ``serve``, ``rooms``, ``verify``;
``common`` holds what they share. A game with commands of its own adds ``parlour GAME ...``
through its parts (:mod:`parlour.cli.commands`).

This module imports nothing of Parlour's at its top, and the command modules only when
:func:`main` runs: a bot worker that ``parlour serve`` spawns re-runs the ``parlour`` script as
its main module (``multiprocessing``'s spawn), and that import is then a few milliseconds, not
the whole command line with its terminal table (tests/server/test_stopping.py).
"""

from __future__ import annotations

import argparse
import errno
import os
import sys
from collections.abc import Callable, Sequence

__all__ = ["main"]


def _titles() -> str:
    """The games' titles as a list in words, from the registry."""
    from parlour.games import GAMES

    titles = [g.info.title for g in GAMES.values()]
    return ", ".join(titles[:-1]) + f" and {titles[-1]}" if len(titles) > 1 else titles[0]


def _build_parser() -> argparse.ArgumentParser:
    from parlour.cli import general, lab, play, review, rooms, serve, verify
    from parlour.cli.commands import add_game_commands
    from parlour.cli.common import Parser

    formatter = argparse.RawDescriptionHelpFormatter
    parser = Parser(
        prog="parlour",
        description=f"Play, simulate and analyse {_titles()}.",
        formatter_class=formatter,
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    general.register(sub, formatter)
    play.register(sub, formatter)
    review.register(sub, formatter)
    add_game_commands(sub, formatter)
    lab.register(sub, formatter)
    serve.register(sub, formatter)
    rooms.register(sub, formatter)
    verify.register(sub, formatter)
    return parser


_DEAL_CHARS = frozenset("AKQJakqj-/ ")


def _protect_deals(argv: Sequence[str]) -> list[str]:
    """Rank-only deals often start with ``-`` (``--Q-K.../...``), which argparse would take for
    an option: pass each such word as ``--deal=WORD`` (after ``--deal`` too). Words after ``--``
    are the user's own and pass as they are (``replay -- -x/y.json`` reads the file
    ``-x/y.json``)."""
    out: list[str] = []
    for k, word in enumerate(argv):
        if word == "--":
            out.extend(argv[k:])
            break
        if word.startswith("-") and (
            ("/" in word and "=" not in word) or (len(word) > 2 and set(word) <= _DEAL_CHARS)
        ):
            if out and out[-1] == "--deal":
                out.pop()
            out.append(f"--deal={word}")
        else:
            out.append(word)
    return out


EX_SOFTWARE = 70
"""The exit status of an internal error (a bug in Parlour, not the user's input): sysexits.h."""


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``parlour`` command; returns the exit status: 0, 2 for bad input (one line on
    standard error naming the problem), 130 when interrupted, 70 for an internal error (one
    line saying so and naming the file that holds the full report; never a traceback)."""
    from parlour.cli.common import CommandError, one_line
    from parlour.cli.extras import missing_extra_message, require_extra
    from parlour.errors import ParlourError

    prog = "parlour"
    _closed_streams_on_null()
    try:
        parser = _build_parser()
        args = parser.parse_args(_protect_deals(sys.argv[1:] if argv is None else argv))
        func: Callable[[argparse.Namespace], int] = args.func
        # A command group (``parlour lab``, a game's own) keeps its subcommand in ``subcommand``.
        prog = " ".join(
            ["parlour", args.command, *filter(None, [getattr(args, "subcommand", None)])]
        )
        # A command that needs an optional extra (its parser's default ``extra``) names it
        # before it reads any input, even one that imports the extra's libraries late.
        extra = getattr(args, "extra", None)
        if extra is not None:
            require_extra(extra)
        status = func(args)
        sys.stdout.flush()  # a full disk is said here, not as Python's noise at exit
        return status
    except (ParlourError, CommandError) as err:
        # One line whatever the input quoted in the message (a file name may hold a newline).
        sys.stderr.write(f"{prog}: error: {one_line(str(err))}\n")
        return 2
    except ModuleNotFoundError as err:
        # A library of an optional extra that this install lacks (``parlour serve`` on the core
        # install): one line naming the extra to install. Any other missing module is a bug.
        said = missing_extra_message(err)
        if said is None:
            return _internal_error(prog, err, argv)
        sys.stderr.write(f"{prog}: error: {said}\n")
        return 2
    except KeyboardInterrupt:
        sys.stderr.write(f"{prog}: interrupted\n")
        return 130
    except BrokenPipeError:
        # The reader went away (e.g. `| head`); say nothing more.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0
    except OSError as err:
        # The system refused a write or a read Parlour could not name a file for: standard
        # output on a full disk (``> /dev/full``) or a closed pipe's other errors.
        said = _os_error(err)
        if said is None:
            return _internal_error(prog, err, argv)
        _output_on_null()
        sys.stderr.write(f"{prog}: error: {said}\n")
        return 2
    except SystemExit:
        raise  # argparse's own one-line errors (exit status 2) and --help (0)
    except Exception as err:
        return _internal_error(prog, err, argv)


_OUTPUT_ERRNOS = frozenset(
    getattr(errno, name)
    for name in ("ENOSPC", "EDQUOT", "EFBIG", "EIO", "EPIPE", "EBADF")
    if hasattr(errno, name)
)
"""What the system answers when standard output cannot take what is written to it."""


def _os_error(err: OSError) -> str | None:
    """An OSError in one line when it is the system's answer about output (a full disk, a
    closed descriptor) and names no file; None for any other (a bug: a command names the files
    it reads and writes in its own errors)."""
    if err.filename is None and err.errno in _OUTPUT_ERRNOS:
        return f"cannot write the output: {err.strerror or type(err).__name__}"
    return None


def _output_on_null() -> None:
    """Point standard output at the null device, so that what is still buffered for it is not
    written again (and refused again) at exit."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 1)
        os.close(devnull)
    except OSError:
        pass


_STREAMS = (("stdin", os.O_RDONLY, "r"), ("stdout", os.O_WRONLY, "w"), ("stderr", os.O_WRONLY, "w"))


def _closed_streams_on_null() -> None:
    """A standard stream the shell closed (``parlour play <&-``, ``>&-``) is opened on the null
    device: standard input then ends at once, as with ``</dev/null`` (the table says input
    ended), output goes nowhere, and no file Parlour opens later takes descriptor 0, 1 or 2
    and is read or written as a standard stream by mistake."""
    for fd, (name, flags, mode) in enumerate(_STREAMS):
        try:
            os.fstat(fd)
            closed = False
        except OSError:
            closed = True
        if not closed and getattr(sys, name) is not None:
            continue
        try:
            opened = os.open(os.devnull, flags)
            if closed and opened != fd:
                os.dup2(opened, fd)
                os.close(opened)
                opened = fd
        except OSError:
            continue
        if getattr(sys, name) is None:
            # Descriptor ``fd`` when it was closed, else a free one (another file took ``fd``).
            # The stream stays open as long as the process, as Python's own do.
            stream = open(opened, mode, encoding="utf-8", errors="backslashreplace")  # noqa: SIM115
            setattr(sys, name, stream)


def _internal_error(prog: str, err: BaseException, argv: Sequence[str] | None) -> int:
    """One line saying a bug stopped the command and where the full report was written."""
    from parlour.cli.common import write_crash_report

    where = write_crash_report(err, ["parlour", *(sys.argv[1:] if argv is None else argv)])
    said = f"the full report is in {where}" if where else "no report could be written"
    sys.stderr.write(
        f"{prog}: internal error (a bug in Parlour, not your input): {type(err).__name__}; {said}\n"
    )
    return EX_SOFTWARE
