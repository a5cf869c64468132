"""``parlour play`` options: bots-only games as JSON, and one-line errors for bad flags."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from parlour.cli import main
from parlour.core.record import Record
from parlour.games import replay_json
from tests.test_cli import assert_one_line_error


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """``parlour ARGV``: its status, output and errors (argparse's own refusals, SystemExit 2,
    as their status)."""
    try:
        code = main(list(argv))
    except SystemExit as exit_:
        code = exit_.code if isinstance(exit_.code, int) else 1
    out, err = capsys.readouterr()
    return code, out, err


EXAMPLE = "--Q-K--K-AQ-------J--A-J--/------Q-----JA---AKQ---K-J"


@pytest.mark.parametrize(("game", "players"), [("beor", 3), ("death", 4), ("beggar", 2)])
def test_json_plays_bots_and_the_record_replays(
    capsys: pytest.CaptureFixture[str], game: str, players: int
) -> None:
    seats = [f"--seat={k}=random" for k in range(1, players + 1)] if game != "beggar" else []
    code, out, _ = run(
        capsys, "play", game, "--players", str(players), "--seed", "6", "--json", *seats
    )
    got = json.loads(out)
    assert code == 0
    record, states = replay_json(got["record"])
    assert states[-1].is_over and record.players == players
    assert got["result"]["winners"] == list(states[-1].outcome.winners)  # type: ignore[union-attr]
    _, again, _ = run(
        capsys, "play", game, "--players", str(players), "--seed", "6", "--json", *seats
    )
    assert again == out


def test_json_saves_the_record(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "bots.json"
    run(
        capsys,
        "play",
        "death",
        "--json",
        "--players",
        "2",
        "--seed",
        "2",
        "--seat",
        "1=heuristic",
        "--save",
        str(path),
    )
    record = Record.from_json(json.loads(path.read_text()))
    assert record.seats == ("heuristic", "hard")  # the seats not given: the hard level
    _, states = replay_json(json.loads(path.read_text()))
    assert record.game == "death" and states[-1].is_over  # the saved game is the whole game


@pytest.mark.parametrize(
    ("argv", "needles"),
    [
        (["play", "chess"], ["unknown game 'chess'"]),
        (["play", "beor", "--players", "9"], ["2 to 5 players"]),
        (["play", "beor", "--seat", "2=wizard"], ["Player 2: unknown agent 'wizard'"]),
        (["play", "beor", "--seat", "3=random"], ["--seat", "1 to 2"]),
        (["play", "beor", "--seat", "two=random"], ["--seat", "whole number", "'two'"]),
        (["play", "--players", "3"], ["name the game"]),
        (["play", "beor", "--watch", "--seat", "1=person"], ["bots only"]),
        (["play", "beor", "--deal", "AKQJ/AKQJ"], ["--deal is for beggar"]),
        (["play", "beor", "--options", "max_turns=0"], ["max_turns"]),
        (["play", "--resume", "missing.json"], ["cannot read missing.json"]),
    ],
)
def test_bad_flags_give_one_line(
    capsys: pytest.CaptureFixture[str], argv: list[str], needles: list[str]
) -> None:
    assert_one_line_error(*run(capsys, *argv), *needles)


def test_resume_refuses_flags_that_would_change_the_game(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "g.json"
    run(capsys, "play", "beor", "--json", "--seed", "1", "--save", str(path))
    assert_one_line_error(
        *run(capsys, "play", "--resume", str(path), "--seed", "2"), "--seed", "in the record"
    )
    assert_one_line_error(
        *run(capsys, "play", "death", "--resume", str(path)), "a game of beor, not death"
    )


def test_resume_of_a_broken_record_names_the_action(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "g.json"
    path.write_text(json.dumps({"game": "beor", "players": 2, "seed": 1, "actions": ["zz"]}))
    assert_one_line_error(*run(capsys, "play", "--resume", str(path)), "action 0 'zz'")


@pytest.mark.parametrize(
    ("argv", "needles"),
    [
        (["play", "beor", "--fast"], ["--fast is for watching beggar"]),
        (["play", "beor", "--watch", "--delay", "-1"], ["--delay", "0 or more"]),
        (["play", "beor", "--seat", "2=random", "--seat", "2=heuristic"], ["seated twice"]),
        (["play", "beggar", "--seat", "2=ismcts"], ["a person or a bot"]),
        (["play", "beor", "--save", "/nonexistent/folder/g.json"], ["cannot write"]),
        # --deals is for the games whose presenter offers a match (G12), found by capability.
        (["play", "beggar", "--deals", "2"], ["--deals is for death: a match of N deals"]),
        (["play", "beor", "--deals", "3", "--players", "2"], ["--deals is for death", "(G12)"]),
    ],
)
def test_flags_found_wrong_in_a_first_trial(
    capsys: pytest.CaptureFixture[str], argv: list[str], needles: list[str]
) -> None:
    assert_one_line_error(*run(capsys, *argv), *needles)


class TestEveryNameOfAGame:
    """A game's aliases (its ``info``) work wherever a game is named."""

    def test_an_alias_plays_the_game(self, capsys: pytest.CaptureFixture[str]) -> None:
        seats = [f"--seat={k}=random" for k in (1, 2, 3)]
        code, out, _ = run(
            capsys, "play", "game-of-death", "--players", "3", "--seed", "2", "--json", *seats
        )
        got = json.loads(out)
        assert code == 0 and got["record"]["game"] == "death"
        assert got["record"]["players"] == 3 and "drinks_taken" in got["result"]

    def test_beggar_watched_under_its_long_name(self, capsys: pytest.CaptureFixture[str]) -> None:
        code, out, _ = run(capsys, "play", "beggar-my-neighbour", "--deal", EXAMPLE, "--json")
        got = json.loads(out)
        # RULINGS M9 worked example: seat 0 wins after 192 cards and 20 tricks.
        assert code == 0 and got["result"]["cards"] == 192 and got["result"]["tricks"] == 20
        assert got["record"]["game"] == "beggar" and len(got["record"]["actions"]) == 192
        _, states = replay_json(got["record"])
        assert states[-1].is_over

    def test_a_deal_that_does_not_fit_the_players(self, capsys: pytest.CaptureFixture[str]) -> None:
        assert_one_line_error(
            *run(capsys, "play", "beggar", "--deal", EXAMPLE, "--players", "3"),
            "the deal has 2 hands but --players is 3",
        )


def test_help_fits_80_columns() -> None:
    """Every line of ``parlour play --help`` fits an 80-column terminal, the options of each
    game included."""
    import os
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-m", "parlour", "play", "--help"],
        capture_output=True,
        text=True,
        env={**os.environ, "COLUMNS": "80"},
        check=True,
    )
    long = [line for line in done.stdout.splitlines() if len(line) > 80]
    assert not long, long
    assert "illegal_throw_penalty=true|false" in done.stdout and "--deals N" in done.stdout


def test_only_a_game_with_matches_offers_them() -> None:
    """The Game of Death's presenter offers its matches (G12); the others and a game the table
    was never told about (``tests/play/toy``) offer none, so ``--deals`` is refused for them."""
    from parlour.games import GAMES
    from tests.play.toy.game import RaceGame

    offered = {name for name, game in GAMES.items() if game.presenter.match is not None}
    assert offered == {"death"}
    assert RaceGame().presenter.match is None
