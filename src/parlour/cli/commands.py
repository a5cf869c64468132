"""A game's own commands, ``parlour GAME COMMAND ...``: its ``COMMANDS`` (the ``commands`` part
of its :class:`~parlour.core.parts.GameParts`), a :class:`GameCommands`.

A game with commands of its own (a compiled kernel's statistics, a search ...) names, in its
parts record, a module exporting (which may import ``parlour.cli.*``)::

    COMMANDS = GameCommands(help="NAME: play deals, statistics", register=register)

where ``register(sub, formatter)`` adds each subcommand to ``sub``, the subparsers of
``parlour NAME`` (:data:`Register`), and sets its ``func`` (``p.set_defaults(func=run)``): a
function of the parsed arguments returning the exit status. As for every command, bad input
raises :class:`~parlour.cli.common.CommandError` or a ``ParlourError``, which the ``parlour``
command prints as one line with exit status 2. ``option_flags`` gives some of the game's
options a flag of their own (``--card-limit N`` for option ``card_limit``), which
:func:`parlour.cli.common.add_option_flags` adds to the game's commands and to ``parlour
play``, and :func:`parlour.cli.common.options_of` reads.

:func:`add_game_commands` adds ``parlour NAME`` for every registered game that has commands;
no module of the command line names a game.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeAlias

from parlour.cli.common import Parser
from parlour.core.game import Game
from parlour.core.parts import load_part_as
from parlour.games import GAMES

__all__ = [
    "GameCommands",
    "OptionFlag",
    "Register",
    "add_game_commands",
    "commands_for",
    "declared_commands",
]

Register: TypeAlias = Callable[
    ["argparse._SubParsersAction[Parser]", type[argparse.HelpFormatter]], None
]
"""``register(sub, formatter)``: add a game's subcommands to ``sub``, the subparsers of
``parlour NAME`` (``formatter`` is the help formatter every command uses)."""


@dataclass(frozen=True, slots=True)
class OptionFlag:
    """A flag of its own for one of a game's options: ``--card-limit N`` sets ``card_limit``.

    Its kind comes from the game's option spec: a choice takes one of its choices, a whole
    number is read as one (from 1 when the option's minimum is 1 or more); any other kind is
    text, checked with the game's options.

    Attributes:
        option: the option's name; the flag is ``--`` and the name with ``-`` for ``_``.
        help: the flag's help.
        metavar: the value's name in the help (default: argparse's).
    """

    option: str
    help: str
    metavar: str | None = None

    @property
    def flag(self) -> str:
        """The flag, ``--card-limit`` for ``card_limit``."""
        return "--" + self.option.replace("_", "-")


@dataclass(frozen=True, slots=True)
class GameCommands:
    """A game's ``COMMANDS`` (see the module docstring).

    Attributes:
        help: the one line ``parlour --help`` shows for ``parlour NAME``.
        register: adds the subcommands (:data:`Register`).
        option_flags: the game's options that have a flag of their own.
    """

    help: str
    register: Register
    option_flags: tuple[OptionFlag, ...] = ()


def commands_for(game: Game) -> GameCommands | None:
    """The commands ``game`` declares (its ``commands`` part), or None.

    Raises:
        TypeError: the part's ``COMMANDS`` is not a :class:`GameCommands` (a broken game).
    """
    return load_part_as(game.parts, "commands", GameCommands)


def declared_commands() -> list[tuple[Game, GameCommands]]:
    """Every registered game that has commands, with them. A game whose commands do not load
    is left out with one line on standard error naming it (as a game that does not load is):
    one broken plug-in does not take the other commands down with it."""
    found: list[tuple[Game, GameCommands]] = []
    for game in GAMES.values():
        try:
            commands = commands_for(game)
        except Exception as err:  # a plug-in's import may raise anything
            print(
                f"parlour: the commands of {game.name!r} ({game.parts.commands}) did not load: "
                f"{err}",
                file=sys.stderr,
            )
            continue
        if commands is not None:
            found.append((game, commands))
    return found


def add_game_commands(
    sub: argparse._SubParsersAction[Parser], formatter: type[argparse.HelpFormatter]
) -> None:
    """Add ``parlour NAME COMMAND`` for every registered game that has commands (the group
    keeps its subcommand in ``subcommand``)."""
    for game, commands in declared_commands():
        group = sub.add_parser(game.name, help=commands.help)
        own = group.add_subparsers(dest="subcommand", required=True, metavar="COMMAND")
        commands.register(own, formatter)
