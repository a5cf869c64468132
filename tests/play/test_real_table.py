"""What a real table needs beyond the moves: forced choices made and said, help that follows
the options in force, leaving with save / leave / back, saving that never loses a game and
never replaces a file without asking, a crash that saves first, and the Game of Death's match
table with sober players' points (G12, G14)."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from parlour.core.record import Record
from parlour.games import find_game
from parlour.play.help import rules_text
from parlour.play.saving import free_path, resume_hint, save_target
from parlour.play.table import Table, check_seat_specs
from tests.play.helpers import death_table, terminal


def two_player_death(specs: tuple[str, str] = ("person", "random")) -> Table:
    """Player 1 holds every diamond, the 2s, and K♠ among his spades; Player 2 can follow 2♦
    neither by suit nor by rank, so he passes and Player 1 leads K♠, which gives 8 drinks
    with one possible receiver (G5)."""
    game = find_game("death")
    ranks = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
    mine = [f"{r}D" for r in ranks] + ["2S", "2H", "2C"]
    mine += ["KS", "AS", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "10S"]
    rest = [f"{r}{s}" for s in "HC" for r in ranks if r != "2"] + ["JS", "QS"]
    return Table(game, check_seat_specs(game, specs), 1, {}, {"hands": [mine, rest]})


class TestForcedChoices:
    def test_a_give_with_one_receiver_is_made_and_said(self) -> None:
        """G5 with two players: the 8 drinks of K♠ can only go to Player 2."""
        table = two_player_death()
        game, script, out = terminal(table, ["2D", "KS"])
        game.run()
        assert table.actions[:4] == ["2D", "pass", "KS", "give 8>P2"]
        assert not any("to whom" in p for p in script.prompts)
        assert "has one choice only (give 8>P2): made for you." in out.getvalue()

    def test_a_hot_seat_pass_is_shown_on_the_public_table(self) -> None:
        """A person whose only move is pass is not handed the keyboard: the pass is made,
        shown with the public table, and Enter goes on."""
        base = death_table(("person", "person", "random"))
        table = Table(base.game, base.seats, 7, {}, base.deal)
        game, script, out = terminal(table, ["", "2D", ""])
        game.run()
        assert "Player 2 cannot play and passes: made for you." in out.getvalue()
        assert "Press Enter to go on> " in script.prompts
        assert "Player 2, press Enter when you are ready> " not in script.prompts
        assert table.actions[:2] == ["2D", "pass"]

    def test_undo_passes_over_a_forced_move(self) -> None:
        table = death_table(("person", "random", "random"))
        table.apply("2D")
        table.apply("pass", forced=True)  # as if made for a person
        assert table._last_own_move(0) == 1


class TestHelp:
    def test_help_says_the_illegal_throw_costs_nothing_when_the_option_is_off(self) -> None:
        game = find_game("death")
        on = rules_text(game, {})
        off = rules_text(game, {"illegal_throw_penalty": False})
        assert "option illegal_throw_penalty is off" not in on
        line = next(x for x in off.splitlines() if "illegal_throw_penalty" in x)
        assert "is off, so this does not apply here" in line

    def test_help_names_the_sober_players(self) -> None:
        text = rules_text(find_game("death"), {"sober": [2]})  # player numbers, from 1
        assert "option sober is Player 2: " in text

    def test_a_typo_is_not_punished(self) -> None:
        table = death_table()
        game, script, out = terminal(table, ["5D", "n"])
        game.run()
        assert "Throw 5D illegally? It costs 2 drinks (G13) [y/N]> " in script.prompts
        assert "nothing was charged" in out.getvalue()
        assert table.entries == [] and table.state.view(0).drinks_taken[0] == 0  # type: ignore[attr-defined]


class TestLeaving:
    def test_back_to_the_game(self) -> None:
        table = death_table()
        game, script, _ = terminal(table, ["quit", "back", "2D"])
        game.run()
        assert table.actions[0] == "2D"  # played after going back
        assert script.prompts[1].startswith("Leave the game? (save / leave without saving / back")


class TestSaving:
    def test_a_folder_and_home(self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        monkeypatch.setenv("HOME", str(tmp_path))
        (tmp_path / "games").mkdir()
        assert save_target("~/games", "g.json") == str(tmp_path / "games" / "g.json")
        assert save_target("~/new.json", "g.json") == str(tmp_path / "new.json")
        table = death_table()
        game, _, out = terminal(table, ["2D", "save ~/games"])
        game.run()
        saved = tmp_path / "games" / "parlour-death-7.json"
        assert Record.from_json(json.loads(saved.read_text())).actions[0] == "2D"
        assert f"Saved to {saved}" in out.getvalue()
        assert not list((tmp_path / "games").glob("*.tmp"))

    def test_the_resume_hint_is_quoted(self) -> None:
        assert resume_hint("my game.json") == "parlour play --resume 'my game.json'"
        assert shlex.split(resume_hint("my game.json"))[-1] == "my game.json"

    def test_input_ending_never_replaces_another_game(self, tmp_path: Path) -> None:
        other = tmp_path / "parlour-death-7.json"
        other.write_text("another game")
        table = death_table()
        game, _, out = terminal(table, ["2D"])
        game.run()
        assert other.read_text() == "another game"
        kept = tmp_path / "parlour-death-7-2.json"
        assert json.loads(kept.read_text())["actions"][0] == "2D"
        assert "the game is saved in parlour-death-7-2.json" in out.getvalue()
        assert free_path(str(other)) == str(tmp_path / "parlour-death-7-3.json")

    def test_a_symlinked_save_stays_a_link(self, tmp_path: Path) -> None:
        target = tmp_path / "real.json"
        target.write_text("{}")
        link = tmp_path / "link.json"
        link.symlink_to(target)
        table = death_table()
        game, _, _ = terminal(table, ["2D"], save_path=str(link))
        game.run()
        assert link.is_symlink() and json.loads(target.read_text())["actions"][0] == "2D"

    def test_a_crash_at_the_table_saves_first(
        self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        table = death_table()
        game, _, out = terminal(table, ["2D", "hint"])

        def broken(seat: int) -> None:
            raise RuntimeError("a fault of Parlour's own")

        monkeypatch.setattr(game.turn, "_hint", broken)
        with pytest.raises(RuntimeError):
            game.run()
        saved = json.loads((tmp_path / "parlour-death-7.json").read_text())
        assert saved["actions"][0] == "2D"
        assert "Parlour met an internal error; the game is saved in" in out.getvalue()


def run_play(*args: str, cwd: Path, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "parlour", "play", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=cwd,
        env={**os.environ, "NO_COLOR": "1"},
        check=False,
        timeout=120,
    )


class TestCommand:
    def test_no_input_ends_cleanly(self, tmp_path: Path) -> None:
        done = run_play(cwd=tmp_path)
        assert done.returncode == 0 and "Traceback" not in done.stderr
        assert "Input ended before a game was chosen" in done.stdout

    def test_no_input_at_the_table_says_nothing_was_saved(self, tmp_path: Path) -> None:
        done = run_play("beor", "--seed", "3", "--seat", "2=heuristic", cwd=tmp_path)
        assert done.returncode == 0 and "Traceback" not in done.stderr
        assert "Input ended before the first move: nothing to save." in done.stdout
        assert list(tmp_path.iterdir()) == []

    def test_save_never_replaces_a_file_without_asking(self, tmp_path: Path) -> None:
        (tmp_path / "game.json").write_text("keep me")
        done = run_play("beor", "--seed", "3", "--save", "game.json", cwd=tmp_path)
        assert done.returncode == 2 and "a file of that name is there" in done.stderr
        assert len(done.stderr.strip().splitlines()) == 1
        assert (tmp_path / "game.json").read_text() == "keep me"

    def test_beggar_watch_mode_saves_every_trick(self, tmp_path: Path) -> None:
        done = run_play(
            "beggar", "--watch", "--seed", "5", "--delay", "0", "--save", "w.json", cwd=tmp_path
        )
        assert done.returncode == 0, done.stderr
        record = Record.from_json(json.loads((tmp_path / "w.json").read_text()))
        end = find_game("beggar").new(2, 5)
        while not end.is_over:
            end = end.apply("play")
        assert len(record.actions) == end.cards  # type: ignore[attr-defined]
        assert "saved in w.json after every trick" in done.stdout


class TestCrash:
    def test_a_crash_at_the_table_saves_then_main_says_it_in_one_line(self, tmp_path: Path) -> None:
        """A fault of Parlour's own at the table (injected into ``hint``): the game is saved
        first, then ``main`` prints its one-line internal-error message and exits 70."""
        inject = tmp_path / "inject"
        inject.mkdir()
        (inject / "sitecustomize.py").write_text(
            "import parlour.play.turn as t\n"
            "def broken(self, seat):\n"
            "    raise RuntimeError('injected')\n"
            "t.PersonTurn._hint = broken\n"
        )
        death = find_game("death")
        seed = next(s for s in range(100) if death.new(3, s).to_move == 0)
        done = subprocess.run(
            [
                sys.executable,
                "-m",
                "parlour",
                "play",
                "death",
                "--players",
                "3",
                "--seed",
                str(seed),
            ],
            input="2D\nhint\n",
            capture_output=True,
            text=True,
            cwd=tmp_path,
            env={**os.environ, "NO_COLOR": "1", "PYTHONPATH": str(inject)},
            check=False,
            timeout=120,
        )
        assert done.returncode == 70, done.stderr
        assert len(done.stderr.strip().splitlines()) == 1 and "internal error" in done.stderr
        assert "Traceback" not in done.stderr + done.stdout
        saved = tmp_path / f"parlour-death-{seed}.json"
        assert json.loads(saved.read_text())["actions"][0] == "2D"
        assert f"the game is saved in parlour-death-{seed}.json" in done.stdout


class TestMatchTable:
    def test_sober_players_points_are_points(self) -> None:
        game = find_game("death")
        table = Table(game, check_seat_specs(game, ["random"] * 3), 4, {"sober": "2"})
        while not table.state.is_over:
            table.bot_move()
        match = game.presenter.match
        assert match is not None  # found through the game, not by its name
        board = match.board(3, 2, game.words())
        assert table.state.outcome is not None
        board.add(table.state.outcome, table.state.view(None))
        from io import StringIO

        from rich.console import Console

        from parlour.play.draw import grid

        out = StringIO()
        Console(file=out, width=120, color_system=None).print(grid(board.table(["A", "B", "C"])))
        rows = out.getvalue().splitlines()
        sober = next(r for r in rows if "B (sober, G14)" in r)
        other = next(r for r in rows if r.startswith("│ A "))
        assert "point" in sober and "drink" not in sober
        assert "drink" in other and "point" not in other
        assert "After deal 1 of 2: running totals (G12)" in out.getvalue()

    def test_a_sober_winner_wins_on_points(self) -> None:
        game = find_game("death")
        table = Table(game, check_seat_specs(game, ["random"] * 3), 3, {"sober": "1,2,3"})
        while not table.state.is_over:
            table.bot_move()
        match = game.presenter.match
        assert match is not None and table.state.outcome is not None
        board = match.board(3, None, game.words())
        said = board.deal_result(table.state.outcome, table.state.view(None), ["A", "B", "C"], 5)
        assert "drink" not in said and "point" in said and "(sober, G14)" in said
        assert said.endswith("(G12). 5 actions")
