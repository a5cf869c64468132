"""A game's own commands (``cli/commands.py``): ``parlour NAME ...`` exists for every registered
game whose parts declare ``commands``, runs the game's subcommands, gives their option flags to
them and to ``parlour play``, and a game whose commands do not load is left out in one line.

This module is itself a commands part (``COMMANDS``), which the tests give to a game."""

from __future__ import annotations

import argparse
import dataclasses
import json

import pytest

from parlour.cli import main
from parlour.cli.commands import GameCommands, OptionFlag, commands_for, declared_commands
from parlour.cli.common import Parser, add_option_flags, options_of, print_json
from parlour.games import GAMES, find_game


def _hello(args: argparse.Namespace) -> int:
    print_json({"hello": args.name, "options": options_of(args)}, compact=True)
    return 3 if args.name == "three" else 0


def _register(
    sub: argparse._SubParsersAction[Parser], formatter: type[argparse.HelpFormatter]
) -> None:
    p = sub.add_parser("hello", help="say hello", formatter_class=formatter)
    p.add_argument("name")
    add_option_flags(p, find_game("beor"))
    p.set_defaults(func=_hello)


COMMANDS = GameCommands(
    help="a game's own commands, for the tests",
    register=_register,
    option_flags=(OptionFlag("max_turns", "B10: a draw after N turns", metavar="N"),),
)
NOT_COMMANDS = {"help": "not a GameCommands"}


@pytest.fixture
def with_commands(monkeypatch: pytest.MonkeyPatch) -> str:
    """BEOR's parts declare this module's commands."""
    game = find_game("beor")
    parts = dataclasses.replace(game.parts, commands=__name__)
    monkeypatch.setattr(type(game), "parts", parts)
    return game.name


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_every_game_that_declares_commands_has_its_group(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit):
        main(["--help"])
    shown = capsys.readouterr().out
    for game in GAMES.values():
        commands = commands_for(game)
        if commands is not None:
            assert f"{game.name} " in shown and commands.help in shown
    assert {g.name for g, _ in declared_commands()} == {
        g.name for g in GAMES.values() if g.parts.commands is not None
    }


def test_a_game_that_declares_commands_gets_parlour_name(
    with_commands: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, with_commands, "hello", "there", "--max-turns", "7")
    assert (code, err) == (0, "")
    assert json.loads(out) == {"hello": "there", "options": {"max_turns": "7"}}
    # the subcommand's exit status is the command's; its flag wins over --options
    code, out, _ = run(
        capsys, with_commands, "hello", "three", "--options", "max_turns=9", "natural_win=false"
    )
    assert code == 3
    assert json.loads(out)["options"] == {"max_turns": "9", "natural_win": "false"}
    code, out, _ = run(
        capsys, with_commands, "hello", "x", "--options", "max_turns=9", "--max-turns", "8"
    )
    assert json.loads(out)["options"] == {"max_turns": "8"}


def test_its_option_flags_are_typed_from_the_game_and_reach_parlour_play(
    with_commands: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stop:
        main([with_commands, "hello", "x", "--max-turns", "many"])
    out, err = capsys.readouterr()
    assert stop.value.code == 2 and out == "" and "--max-turns" in err and "whole number" in err
    assert len(err.strip().splitlines()) == 1
    with pytest.raises(SystemExit):
        main(["play", "--help"])
    shown = " ".join(capsys.readouterr().out.split())
    assert f"--max-turns N {with_commands}, B10: a draw after N turns" in shown


def test_a_subcommand_is_required(with_commands: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main([with_commands])
    assert stop.value.code == 2
    assert f"parlour {with_commands}: error: " in capsys.readouterr().err


def test_commands_that_do_not_load_are_left_out_in_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    game = find_game("beor")
    parts = dataclasses.replace(game.parts, commands=f"{__name__}_missing")
    monkeypatch.setattr(type(game), "parts", parts)
    code, out, err = run(capsys, "games", "--json")
    assert code == 0 and json.loads(out)
    assert err.count("\n") >= 1 and all("did not load" in line for line in err.splitlines())
    with pytest.raises(ImportError):
        commands_for(game)
    monkeypatch.setattr(type(game), "parts", dataclasses.replace(game.parts, commands=__name__))
    monkeypatch.setattr(f"{__name__}.COMMANDS", NOT_COMMANDS)
    with pytest.raises(TypeError, match="not a GameCommands"):
        commands_for(game)
