"""The ``parlour`` command as people and scripts use it: outputs, JSON shapes, and bad input
ending with one line naming the problem and exit status 2, never a traceback."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from parlour.cli import main
from parlour.games import GAMES

EXAMPLE = "--Q-K--K-AQ-------J--A-J--/------Q-----JA---AKQ---K-J"
NEVER_ENDING = "---K---Q-KQAJ-----AAJ--J--/----------Q----KQ-J-----KA"
RESULT_KEYS = ["deal", "result", "winners", "cards", "tricks", "cycle"]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def run_process(*argv: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "parlour", *argv],
        capture_output=True,
        text=True,
        env={**os.environ, **(env or {})},
        check=False,
        timeout=120,
    )


def assert_one_line_error(code: int, out: str, err: str, *needles: str) -> None:
    assert code == 2
    assert out == ""
    assert len(err.strip().splitlines()) == 1, err
    assert "Traceback" not in err
    for needle in needles:
        assert needle in err, err


class TestGames:
    def test_json_lists_beggar_with_its_options(self, capsys: pytest.CaptureFixture[str]) -> None:
        code, out, _ = run(capsys, "games", "--json")
        games = {g["name"]: g for g in json.loads(out)}
        assert code == 0
        beggar = games["beggar"]
        assert (beggar["min_players"], beggar["max_players"]) == (2, 4)
        options = {o["name"]: o for o in beggar["options"]}
        assert options["unpaid_penalty"]["choices"] == ["capture", "next_player"]
        assert options["unpaid_penalty"]["default"] == "capture"
        assert options["card_limit"]["ruling"] == "M11"

    def test_table_for_people(self, capsys: pytest.CaptureFixture[str]) -> None:
        code, out, _ = run(capsys, "games")
        assert code == 0 and "Beggar-My-Neighbour" in out and "2-4" in out

    def test_the_aliases_are_listed(self, capsys: pytest.CaptureFixture[str]) -> None:
        """Every name a game answers to is listed, so a person can find the aliases."""
        _, out, _ = run(capsys, "games", "--json")
        listing = json.loads(out)
        assert [list(g)[:3] for g in listing] == [["name", "title", "aliases"]] * len(listing)
        assert "game-of-death" in {g["name"]: g for g in listing}["death"]["aliases"]
        _, out, _ = run(capsys, "games")
        assert "game-of-death" in out


class TestGameNames:
    """A mistyped game name is one line naming the games, exit status 2; aliases work."""

    @pytest.mark.parametrize(
        "argv",
        [
            ["arena", "chess", "--agents", "random,heuristic", "--games", "1"],
            ["arena", "deth", "--agents", "random", "--games", "1", "--json"],
        ],
    )
    def test_unknown_game_names_the_games(
        self, capsys: pytest.CaptureFixture[str], argv: list[str]
    ) -> None:
        code, out, err = run(capsys, *argv)
        assert_one_line_error(code, out, err, "unknown game", ", ".join(GAMES))
        assert "record" not in err

    def test_a_record_of_an_unknown_game(
        self, capsys: pytest.CaptureFixture[str], tmp_path: Path
    ) -> None:
        path = tmp_path / "r.json"
        path.write_text(json.dumps({"game": "chess", "players": 2, "seed": 1, "actions": []}))
        code, out, err = run(capsys, "replay", str(path))
        assert_one_line_error(code, out, err, "record field 'game': unknown game 'chess'")

    def test_a_record_under_an_alias_replays(
        self, capsys: pytest.CaptureFixture[str], tmp_path: Path
    ) -> None:
        path = tmp_path / "r.json"
        path.write_text(json.dumps({"game": "BMN", "players": 2, "seed": 1, "actions": ["play"]}))
        code, out, _ = run(capsys, "replay", str(path), "--json")
        assert code == 0 and json.loads(out)["game"] == "beggar"

    def test_beggar_has_no_agents(self, capsys: pytest.CaptureFixture[str]) -> None:
        code, out, err = run(capsys, "arena", "beggar-my-neighbour", "--agents", "random")
        assert_one_line_error(code, out, err, "Beggar-My-Neighbour has no decisions to make")

    def test_subcommand_errors_name_the_subcommand(
        self, capsys: pytest.CaptureFixture[str]
    ) -> None:
        code, out, err = run(capsys, "beggar", "play", "AKQJ")
        assert_one_line_error(code, out, err)
        assert err.startswith("parlour beggar play: error: ")


class TestBeggarPlay:
    def test_worked_example_as_json(self, capsys: pytest.CaptureFixture[str]) -> None:
        code, out, _ = run(capsys, "beggar", "play", EXAMPLE, "--json")
        result = json.loads(out)
        assert code == 0 and list(result) == RESULT_KEYS
        assert result == {
            "deal": EXAMPLE,
            "result": "win",
            "winners": [0],
            "cards": 192,
            "tricks": 20,
            "cycle": None,
        }

    def test_plain_words(self, capsys: pytest.CaptureFixture[str]) -> None:
        code, out, _ = run(capsys, "beggar", "play", EXAMPLE)
        assert code == 0 and "Player 1 wins after 192 cards and 20 tricks." in out

    def test_options_both_ways(self, capsys: pytest.CaptureFixture[str]) -> None:
        deal = "K---Q---Q------K--/--K---A--J-A-J---/--K----JAQA--J-Q-"
        _, flag, _ = run(
            capsys, "beggar", "play", deal, "--json", "--unpaid-penalty", "next_player"
        )
        _, pair, _ = run(
            capsys, "beggar", "play", deal, "--json", "--options", "unpaid_penalty=next_player"
        )
        assert json.loads(flag)["cards"] == json.loads(pair)["cards"] == 839

    def test_card_limit(self, capsys: pytest.CaptureFixture[str]) -> None:
        code, out, _ = run(capsys, "beggar", "play", EXAMPLE, "--json", "--card-limit", "50")
        result = json.loads(out)
        assert code == 0 and result["result"] == "limit" and result["cards"] == 50

    def test_never_ending_deal(self, capsys: pytest.CaptureFixture[str]) -> None:
        _, out, _ = run(capsys, "beggar", "play", "--json", NEVER_ENDING)
        result = json.loads(out)
        assert result["result"] == "loop" and result["winners"] == []
        assert result["cycle"] == {
            "found_at_cards": 474,
            "found_at_tricks": 66,
            "start_cards": 34,
            "start_tricks": 4,
            "length_cards": 440,
            "length_tricks": 62,
        }
        _, words, _ = run(capsys, "beggar", "play", NEVER_ENDING)
        assert "never ends" in words and "every 440 cards (62 tricks)" in words

    def test_random_deal_is_printed_and_replays(self, capsys: pytest.CaptureFixture[str]) -> None:
        code, out, _ = run(
            capsys, "beggar", "play", "--random", "--players", "3", "--seed", "9", "--json"
        )
        first = json.loads(out)
        assert code == 0 and first["deal"].count("/") == 2
        _, again, _ = run(capsys, "beggar", "play", first["deal"], "--json")
        assert json.loads(again) == first
        _, words, _ = run(capsys, "beggar", "play", "--random", "--players", "3", "--seed", "9")
        assert "seed 9" in words and first["deal"] in words

    def test_deals_file_gives_one_json_line_per_deal(
        self, capsys: pytest.CaptureFixture[str], tmp_path: Path
    ) -> None:
        path = tmp_path / "deals.txt"
        path.write_text(f"{EXAMPLE}\n\n# a comment\n{NEVER_ENDING}\n")
        code, out, _ = run(capsys, "beggar", "play", "--deals", str(path))
        lines = [json.loads(line) for line in out.splitlines()]
        assert code == 0
        assert [(r["result"], r["cards"]) for r in lines] == [("win", 192), ("loop", 474)]

    def test_bad_line_in_deals_file_plays_nothing(
        self, capsys: pytest.CaptureFixture[str], tmp_path: Path
    ) -> None:
        path = tmp_path / "deals.txt"
        path.write_text(f"{EXAMPLE}\n{EXAMPLE[:-1]}\n")
        code, out, err = run(capsys, "beggar", "play", "--deals", str(path))
        assert_one_line_error(code, out, err, "line 2 of", "3 jacks (51 cards)")

    @pytest.mark.parametrize(
        ("deal", "needle"),
        [
            (EXAMPLE + "-", "37 number cards (53 cards)"),
            ("AKQJ" + EXAMPLE[4:], "5 kings"),
            ("--X" + EXAMPLE[3:], "unknown character 'X' at position 3"),
            (EXAMPLE.replace("/", ""), "2 to 4 hands separated by '/' (M9), got 1"),
            ("/".join([EXAMPLE[:10]] * 5), "got 5"),
            (
                EXAMPLE[1:].replace("/", "/-"),
                "hold 25/27 cards; the cards are dealt as evenly as possible, e.g. 26/26 (M7)",
            ),
            ("AS KS/QS", "52"),
            ("AS AS " + "/" + "2C", "AS appears 2 times"),
        ],
    )
    def test_bad_deals_exit_2_naming_the_problem(
        self, capsys: pytest.CaptureFixture[str], deal: str, needle: str
    ) -> None:
        assert_one_line_error(*run(capsys, "beggar", "play", deal), needle)

    def test_players_must_match_the_deal(self, capsys: pytest.CaptureFixture[str]) -> None:
        code, out, err = run(capsys, "beggar", "play", EXAMPLE, "--players", "3")
        assert_one_line_error(code, out, err, "2 hands but --players is 3")

    def test_bad_option_and_argument(self, capsys: pytest.CaptureFixture[str]) -> None:
        assert_one_line_error(
            *run(capsys, "beggar", "play", EXAMPLE, "--options", "speed=9"), "no option 'speed'"
        )
        with pytest.raises(SystemExit) as exit_:
            main(["beggar", "play", EXAMPLE, "--unpaid-penalty", "forgive"])
        _, err = capsys.readouterr()
        assert exit_.value.code == 2 and len(err.strip().splitlines()) == 1
        assert "--unpaid-penalty" in err and "Traceback" not in err

    def test_needs_exactly_one_source(self, capsys: pytest.CaptureFixture[str]) -> None:
        assert_one_line_error(*run(capsys, "beggar", "play"), "exactly one of DEAL")
        assert_one_line_error(*run(capsys, "beggar", "play", EXAMPLE, "--random"), "exactly one")

    def test_full_card_deal_plays_like_its_ranks(self, capsys: pytest.CaptureFixture[str]) -> None:
        _, out, _ = run(capsys, "play", "beggar", "--seed", "11", "--json")
        record = json.loads(out)["record"]
        _, replayed, _ = run(capsys, "beggar", "play", "--random", "--seed", "11", "--json")
        assert json.loads(replayed)["cards"] == len(record["actions"])


class TestStats:
    def test_json_figures(self, capsys: pytest.CaptureFixture[str]) -> None:
        code, out, err = run(
            capsys, "beggar", "stats", "--players", "2", "--games", "60", "--seed", "3", "--json"
        )
        report = json.loads(out)
        assert code == 0 and err == ""  # no progress bar outside a terminal
        assert report["players"] == 2 and report["games"] == 60
        assert sum(report["results"].values()) == 60
        p = report["percentiles"]
        assert p["1"]["cards"] <= p["50"]["cards"] <= p["99"]["cards"] <= report["longest"]["cards"]
        assert 0 <= report["first_player_win_rate"] <= 1
        _, again, _ = run(capsys, "beggar", "play", report["longest"]["deal"], "--json")
        assert json.loads(again)["cards"] == report["longest"]["cards"]

    def test_same_seed_same_figures(self, capsys: pytest.CaptureFixture[str]) -> None:
        _, one, _ = run(capsys, "beggar", "stats", "--games", "20", "--seed", "8", "--json")
        _, two, _ = run(capsys, "beggar", "stats", "--games", "20", "--seed", "8", "--json")
        assert one == two

    def test_people_see_a_table(self, capsys: pytest.CaptureFixture[str]) -> None:
        code, out, _ = run(
            capsys, "beggar", "stats", "--games", "20", "--seed", "8", "--players", "4"
        )
        assert code == 0 and "percentile" in out and "Longest game" in out

    def test_bad_players(self, capsys: pytest.CaptureFixture[str]) -> None:
        assert_one_line_error(*run(capsys, "beggar", "stats", "--players", "5"), "2 to 4 players")


class TestPlay:
    def test_fast_jumps_to_the_result(self, capsys: pytest.CaptureFixture[str]) -> None:
        code, out, _ = run(capsys, "play", "beggar", "--watch", "--deal", EXAMPLE, "--fast")
        assert code == 0 and "Trick" not in out
        assert "Player 1 wins after 192 cards and 20 tricks." in out

    def test_trick_by_trick(self, capsys: pytest.CaptureFixture[str]) -> None:
        code, out, _ = run(capsys, "play", "beggar", "--watch", "--deal", EXAMPLE, "--delay", "0")
        assert code == 0
        assert out.count("Trick ") == 20
        assert "Trick 1: Player 1 - · Player 2 -" in out
        assert "takes the pile" in out and "must pay" not in out and "pays 2:" in out
        assert "cards 192 · tricks 20" in out

    def test_saved_record_replays(self, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
        path = tmp_path / "game.json"
        run(
            capsys,
            "play",
            "beggar",
            "--watch",
            "--seed",
            "5",
            "--players",
            "3",
            "--fast",
            "--save",
            str(path),
        )
        code, out, _ = run(capsys, "replay", str(path), "--json")
        replayed = json.loads(out)
        assert code == 0 and replayed["over"] and replayed["outcome"]["result"] in ("win", "loop")


class TestReplay:
    def record(self, tmp_path: Path, actions: list[str]) -> str:
        path = tmp_path / "r.json"
        path.write_text(
            json.dumps(
                {
                    "game": "beggar",
                    "players": 2,
                    "seed": 1,
                    "options": {},
                    "deal": EXAMPLE,
                    "actions": actions,
                }
            )
        )
        return str(path)

    def test_position_after_some_actions(
        self, capsys: pytest.CaptureFixture[str], tmp_path: Path
    ) -> None:
        code, out, _ = run(capsys, "replay", self.record(tmp_path, ["play"] * 3), "--json")
        got = json.loads(out)
        assert code == 0
        assert list(got) == ["game", "players", "over", "to_move", "legal", "outcome", "state"]
        assert got["legal"] == ["play"] and got["to_move"] == 1 and not got["over"]
        # Hands -Q-K... and ------Q...: three number cards turned, the top card is last.
        assert got["state"]["pile"] == ["-", "-", "-"]
        assert got["state"]["hands"][0][:2] == ["Q", "-"]

    def test_view_shows_no_hand(self, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
        code, out, _ = run(capsys, "replay", self.record(tmp_path, ["play"] * 3), "--view", "0")
        got = json.loads(out)
        assert code == 0 and "state" not in got
        assert got["view"]["hand_sizes"] == [24, 25] and "hands" not in got["view"]

    def test_finished_game(self, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
        _, out, _ = run(capsys, "replay", self.record(tmp_path, ["play"] * 192))
        got = json.loads(out)
        assert got["over"] and got["legal"] == [] and got["to_move"] is None
        assert got["outcome"]["winners"] == [0] and got["outcome"]["tricks"] == 20

    def test_action_after_the_end(self, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
        code, out, err = run(capsys, "replay", self.record(tmp_path, ["play"] * 193))
        assert_one_line_error(code, out, err, "action 192 'play'", "game is over")

    def test_illegal_action_names_index(
        self, capsys: pytest.CaptureFixture[str], tmp_path: Path
    ) -> None:
        code, out, err = run(capsys, "replay", self.record(tmp_path, ["play", "pass"]))
        assert_one_line_error(code, out, err, "action 1 'pass' is illegal")

    def test_bad_files(self, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
        assert_one_line_error(*run(capsys, "replay", str(tmp_path / "none.json")), "cannot read")
        bad = tmp_path / "bad.json"
        bad.write_text("{")
        assert_one_line_error(*run(capsys, "replay", str(bad)), "is not JSON")
        bad.write_text(
            '{"game": "beggar", "players": 2, "seed": 1, "deal": "AAAA/----", "actions": []}'
        )
        assert_one_line_error(*run(capsys, "replay", str(bad)), "record cannot start", "M9")

    def test_a_file_name_with_a_newline(
        self, capsys: pytest.CaptureFixture[str], tmp_path: Path
    ) -> None:
        code, out, err = run(capsys, "replay", str(tmp_path / "two\nlines.json"))
        assert_one_line_error(code, out, err, "cannot read", "two lines.json")

    def test_bad_view_seat(self, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
        assert_one_line_error(
            *run(capsys, "replay", self.record(tmp_path, []), "--view", "2"), "--view"
        )


class TestProcesses:
    def test_no_traceback_from_a_real_process(self) -> None:
        done = run_process("beggar", "play", "AKQJ")
        assert done.returncode == 2 and "Traceback" not in done.stderr
        assert len(done.stderr.strip().splitlines()) == 1

    @settings(max_examples=4)
    @given(st.integers(min_value=0, max_value=2**63 - 1), st.sampled_from([2, 3, 4]))
    def test_same_seed_same_json_in_two_processes(self, seed: int, players: int) -> None:
        """RULINGS "Common": the same seed replays the same on any machine, whatever the
        interpreter's hash seed."""
        argv = (
            "beggar",
            "play",
            "--random",
            "--players",
            str(players),
            "--seed",
            str(seed),
            "--json",
        )
        one = run_process(*argv, env={"PYTHONHASHSEED": "1"})
        two = run_process(*argv, env={"PYTHONHASHSEED": "2"})
        assert one.returncode == two.returncode == 0
        assert one.stdout == two.stdout and json.loads(one.stdout)["cards"] > 0


class TestHostileInput:
    """Issue 17: what a hostile user types gives one line and exit status 2, never a
    traceback; a bug gives one line naming its report."""

    @staticmethod
    def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
        """Like ``run``, with argparse's own refusals (SystemExit 2) as their status."""
        try:
            code = main(list(argv))
        except SystemExit as exit_:
            code = exit_.code if isinstance(exit_.code, int) else 1
        out, err = capsys.readouterr()
        return code, out, err

    @pytest.mark.parametrize(
        ("argv", "needle"),
        [
            (
                ["play", "beor", "--options", "max_turns=²", "--seat", "1=random", "--json"],
                "option max_turns of beor must be a whole number",
            ),
            (["play", "beor", "--seat", "²=random"], "the player must be a whole number"),
            (
                ["play", "beor", "--options", "max_turns=" + "9" * 5000, "--json"],
                "got one of 5000 digits",
            ),
            (["play", "death", "--watch", "--delay", "inf"], "--delay"),
            (["play", "death", "--watch", "--delay", "nan"], "--delay"),
            (["play", "beor", "--players", "0"], "--players"),
            (["play", "beor", "--save", ""], "--save: the file name is empty"),
            (["play", "beor", "--save", "a\0b"], "NUL"),
            (["play", "beor", "--deal", "x", "--deal", "y"], "--deal: give it once"),
            (["beggar", "search", "--minutes", "inf"], "--minutes"),
            (["beggar", "play", "--deal", EXAMPLE, "--deal", EXAMPLE], "--deal: give it once"),
            (["beggar", "stats", "--games", "9" * 5000], "got one of 5000 digits"),
            (["arena", "beor", "--agents", "random,heuristic", "--save", ""], "--save"),
            (["arena", "beor", "--agents", "random,heuristic", "--players", "0"], "--players"),
            (["serve", "--db", ""], "--db is empty"),
            (["serve", "--takeover", "inf"], "--takeover"),
            (["serve", "--allow-origin", "example.org"], "an origin is http:// or https://"),
            (["serve", "--db", "/"], "--db /: it is not a plain file"),
            (["serve", "--db", "/dev/null"], "--db /dev/null: it is not a plain file"),
            (
                ["lab", "run", "beor", "--agents", "random", "--out", "/dev/null"],
                "/dev/null is not a plain file",
            ),
            (
                ["lab", "run", "beor", "--agents", "random", "--games", "1", "--out", "/"],
                "/ is a folder",
            ),
            (
                ["lab", "run", "beor", "--agents", "random", "--out", "/nonexistent/r.db"],
                "cannot open /nonexistent/r.db",
            ),
            (["lab", "report", "/proc/self/mem"], "cannot open /proc/self/mem"),
            (["beggar", "search", "--deals", "10", "--out", "[" * 300], "too long for a file"),
            (
                ["arena", "beor", "--agents", "random,heuristic", "--workers", "999999999"],
                "--workers",
            ),
            (["replay", "x\ny.json", "--json"], "cannot read x y.json"),
            (["replay", "[" * 300], "too long for a file name"),
        ],
        ids=lambda v: str(v)[:50],
    )
    def test_one_line_and_status_2(
        self, capsys: pytest.CaptureFixture[str], argv: list[str], needle: str
    ) -> None:
        code, out, err = self.run(capsys, *argv)
        assert_one_line_error(code, out, err, needle)

    def test_replay_view_refuses_other_digits_and_huge_numbers(
        self, capsys: pytest.CaptureFixture[str], tmp_path: Path
    ) -> None:
        path = tmp_path / "r.json"
        path.write_text(
            json.dumps({"game": "beor", "players": 2, "seed": 1, "options": {}, "actions": []})
        )
        for view in ("²", "9" * 5000, "-1", "2"):
            code, out, err = self.run(capsys, "replay", str(path), "--view", view)
            assert_one_line_error(code, out, err, "--view: a seat is 0 to 1")
        code, out, _ = self.run(capsys, "replay", str(path), "--view", "1", "--json")
        assert code == 0 and json.loads(out)["view"]["seat"] == 1

    def test_deep_and_huge_json_in_a_record(
        self, capsys: pytest.CaptureFixture[str], tmp_path: Path
    ) -> None:
        deep, huge = tmp_path / "deep.json", tmp_path / "huge.json"
        deep.write_text("[" * 3000 + "]" * 3000)
        huge.write_text('{"game": "beor", "players": 2, "seed": ' + "9" * 5000 + ', "actions": []}')
        for command in ("replay", "verify"):
            code, out, err = self.run(capsys, command, str(deep))
            assert_one_line_error(code, out, err, "nests arrays and objects 3000 deep")
            code, out, err = self.run(capsys, command, str(huge))
            assert_one_line_error(code, out, err, "a whole number of 5000 digits")

    def test_words_after_double_dash_are_left_as_given(
        self, capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """``replay --json -- -x/y.json`` reads the file -x/y.json, not --deal=-x/y.json."""
        monkeypatch.chdir(tmp_path)
        (tmp_path / "-x").mkdir()
        (tmp_path / "-x" / "y.json").write_text(
            json.dumps({"game": "beor", "players": 2, "seed": 3, "options": {}, "actions": []})
        )
        code, out, err = self.run(capsys, "replay", "--json", "--", "-x/y.json")
        assert (code, err) == (0, "")
        assert json.loads(out)["game"] == "beor"

    def test_a_bug_is_one_line_naming_its_report(
        self, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
    ) -> None:
        import parlour.cli.general as general

        def broken(args: object) -> int:
            raise KeyError("a bug")

        monkeypatch.setattr(general, "_cmd_games", broken)
        code, out, err = self.run(capsys, "games")
        assert code == 70 and out == ""
        assert len(err.splitlines()) == 1 and "Traceback" not in err
        assert err.startswith("parlour games: internal error (a bug in Parlour, not your input)")
        report = Path(err.rsplit("the full report is in ", 1)[1].strip())
        try:
            text = report.read_text()
            assert "Traceback" in text and "KeyError: 'a bug'" in text and "'games'" in text
        finally:
            report.unlink()

    def test_argparse_errors_stay_on_one_line(self, capsys: pytest.CaptureFixture[str]) -> None:
        code, out, err = self.run(capsys, "schema", "a\x1eb\nc", "extra")
        assert_one_line_error(code, out, err, "unrecognized arguments")

    def test_a_symlinked_arena_save_folder_is_written_through(
        self, capsys: pytest.CaptureFixture[str], tmp_path: Path
    ) -> None:
        real = tmp_path / "real"
        real.mkdir()
        (tmp_path / "link").symlink_to(real)
        code, _, err = run(
            capsys,
            "arena",
            "beor",
            "--agents",
            "random,heuristic",
            "--games",
            "1",
            "--seed",
            "1",
            "--workers",
            "1",
            "--save",
            str(tmp_path / "link"),
            "--json",
        )
        assert code == 0, err
        assert (tmp_path / "link").is_symlink()
        assert sorted(p.name for p in real.iterdir()) == ["arena.json", "game-00000.json"]
