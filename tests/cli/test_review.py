"""``parlour review``: bad input in one line naming the field, the JSON against ``parlour schema
review``, the same review twice, one seat's review, the HTML report, the tables people read and
Beggar-My-Neighbour's story. Small budgets (``--budget 50``) keep the searches short."""

from __future__ import annotations

import io
import json
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator
from rich.console import Console

from parlour.bots.review import parse_review_budget
from parlour.cli import main
from parlour.core.game import JSON
from parlour.core.record import Record
from parlour.games import find_game
from parlour.play.review import review_with_progress
from parlour.play.table import Table, check_seat_specs

FAST = ("--budget", "50")


def played(game: str, specs: list[str], seed: int) -> dict[str, JSON]:
    """The record of a game the bots ``specs`` played to its end."""
    g = find_game(game)
    table = Table(g, check_seat_specs(g, specs), seed)
    while not table.state.is_over:
        table.bot_move()
    return table.record().to_json()


@cache
def records() -> dict[str, dict[str, JSON]]:
    return {
        "beor": played("beor", ["heuristic", "heuristic"], 2),
        "death": played("death", ["random"] * 3, 3),
        "beggar": played("beggar", ["bot", "bot"], 3),
    }


@pytest.fixture
def files(tmp_path: Path) -> dict[str, str]:
    out = {}
    for name, record in records().items():
        path = tmp_path / f"{name}.json"
        path.write_text(json.dumps(record))
        out[name] = str(path)
    return out


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """The exit status and what was printed; argparse's own errors end with SystemExit."""
    try:
        code = main(["review", *argv])
    except SystemExit as done:
        code = int(done.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def review_json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, Any]:
    code, out, err = run(capsys, *argv, "--json")
    assert code == 0, err
    assert len(out.splitlines()) == 1 and err == ""  # one line, no progress bar in pipes
    found: dict[str, Any] = json.loads(out)
    return found


@pytest.fixture
def schema(capsys: pytest.CaptureFixture[str]) -> Draft202012Validator:
    """``parlour schema review``, as the command prints it."""
    assert main(["schema", "review", "--json"]) == 0
    out, _ = capsys.readouterr()
    found = json.loads(out)
    Draft202012Validator.check_schema(found)
    return Draft202012Validator(found)


class TestBadInput:
    @pytest.mark.parametrize(
        ("argv", "field"),
        [
            (["MISSING"], "missing.json"),
            (["BADJSON"], "bad.json"),
            (["NOTRECORD"], "'players'"),
            (["beor", "--seat", "3"], "--seat"),
            (["beor", "--seat", "0"], "--seat"),
            (["beor", "--seat", "two"], "--seat"),
            (["beor", "--seat", "1", "--seat", "2"], "--seat"),
            (["beor", "--budget", "lots"], "--budget"),
            (["beor", "--budget", "-5"], "--budget"),
            (["beor", "--budget", "0"], "--budget"),
            (["beggar", "--budget", "50"], "--budget"),
            (["beor", "--threshold", "2"], "--threshold"),
            (["beor", "--threshold", "-0.1"], "--threshold"),
            (["beor", "--threshold", "nan"], "--threshold"),
            (["beor", "--threshold", "½"], "--threshold"),
            (["beor", "--seed", "-1"], "--seed"),
            (["beor", "--html", ""], "--html"),
            (["beor", "--budget", "50", "--html", "NOFOLDER"], "nowhere"),
        ],
    )
    def test_one_line_naming_the_field_and_exit_2(
        self,
        argv: list[str],
        field: str,
        files: dict[str, str],
        tmp_path: Path,
        capsys: pytest.CaptureFixture[str],
    ) -> None:
        (tmp_path / "bad.json").write_text('{"game": "beor", ')
        (tmp_path / "not.json").write_text('{"game": "beor", "seed": 1, "actions": []}')
        names = {
            **files,
            "MISSING": str(tmp_path / "missing.json"),
            "BADJSON": str(tmp_path / "bad.json"),
            "NOTRECORD": str(tmp_path / "not.json"),
            "NOFOLDER": str(tmp_path / "nowhere" / "r.html"),
        }
        code, out, err = run(capsys, *[names.get(a, a) for a in argv])
        assert code == 2
        assert out == ""
        assert len(err.strip().splitlines()) == 1, err
        assert err.startswith("parlour review: error: ")
        assert "Traceback" not in err
        assert field in err, err

    def test_an_illegal_move_in_the_record_names_it(
        self, tmp_path: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        record = dict(records()["beor"])
        record["actions"] = ["ZZ>red"]
        path = tmp_path / "illegal.json"
        path.write_text(json.dumps(record))
        code, out, err = run(capsys, str(path), *FAST)
        assert code == 2 and out == "" and len(err.strip().splitlines()) == 1
        assert "ZZ>red" in err


class TestJson:
    @pytest.mark.parametrize("game", ["beor", "death", "beggar"])
    def test_fits_the_schema(
        self,
        game: str,
        files: dict[str, str],
        schema: Draft202012Validator,
        capsys: pytest.CaptureFixture[str],
    ) -> None:
        budget = () if game == "beggar" else FAST
        found = review_json(capsys, files[game], *budget)
        errors = [f"{list(e.absolute_path)}: {e.message}" for e in schema.iter_errors(found)]
        assert errors == []
        assert found["game"] == game and found["kind"] == "review"
        if game != "beggar":
            assert found["decisions"], "a whole game has decisions to judge"
            assert found["budget"] == "50"

    def test_the_schema_refuses_a_chance_outside_0_to_1(
        self,
        files: dict[str, str],
        schema: Draft202012Validator,
        capsys: pytest.CaptureFixture[str],
    ) -> None:
        found = review_json(capsys, files["beor"], *FAST)
        decision = found["decisions"][0]
        decision["chances"][decision["played"]] = 1.5
        assert not schema.is_valid(found)
        del decision["cost"]
        assert not schema.is_valid(found)

    def test_the_same_record_seed_and_budget_give_the_same_review(
        self, files: dict[str, str], capsys: pytest.CaptureFixture[str]
    ) -> None:
        first = review_json(capsys, files["death"], *FAST, "--seed", "7")
        again = review_json(capsys, files["death"], *FAST, "--seed", "7")
        assert first == again
        assert first["seed"] == 7

    def test_seat_reviews_that_player_only(
        self, files: dict[str, str], capsys: pytest.CaptureFixture[str]
    ) -> None:
        every = review_json(capsys, files["death"], *FAST)
        second = review_json(capsys, files["death"], *FAST, "--seat", "2")
        assert {d["seat"] for d in every["decisions"]} == {0, 1, 2}
        assert second["seats"] == [1]
        assert second["decisions"] and {d["seat"] for d in second["decisions"]} == {1}
        assert [s["seat"] for s in second["summary"]] == [1]
        # Each decision is seeded from the review's seed and its step: the same judgement.
        mine = [d for d in every["decisions"] if d["seat"] == 1]
        assert second["decisions"] == mine

    def test_threshold_counts_the_mistakes(
        self, files: dict[str, str], capsys: pytest.CaptureFixture[str]
    ) -> None:
        found = review_json(capsys, files["death"], *FAST, "--threshold", "0")
        for row in found["summary"]:
            assert row["mistakes"] == row["decisions"]  # every cost is at least 0
        assert found["threshold"] == 0

    def test_a_record_from_standard_input(
        self, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
    ) -> None:
        monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(_record_bytes("beor"))))
        found = review_json(capsys, "-", *FAST)
        assert found["game"] == "beor" and found["decisions"]

    def test_beggar_my_neighbour_tells_its_story(
        self, files: dict[str, str], capsys: pytest.CaptureFixture[str]
    ) -> None:
        found = review_json(capsys, files["beggar"])
        assert found["decisions"] == [] and found["summary"] == []
        moments = found["story"]["moments"]
        assert moments and all(isinstance(m["text"], str) and m["text"] for m in moments)


def _record_bytes(game: str) -> bytes:
    return json.dumps(records()[game]).encode()


class TestPeople:
    def test_the_decisive_moments_and_each_player(
        self, files: dict[str, str], capsys: pytest.CaptureFixture[str]
    ) -> None:
        found = review_json(capsys, files["death"], *FAST)
        code, out, err = run(capsys, files["death"], *FAST)
        assert code == 0 and err == ""
        assert "Decisive moments" in out and "Each player" in out
        flat = " ".join(out.split())
        top = found["decisive"][0]
        assert f"{100 * top['cost']:.1f}" in flat  # the costliest cost, in points
        for seat in range(3):
            assert f"Player {seat + 1}" in flat
        assert "(random)" in flat  # the seats' names the record keeps

    def test_the_story_as_a_table(
        self, files: dict[str, str], capsys: pytest.CaptureFixture[str]
    ) -> None:
        found = review_json(capsys, files["beggar"])
        code, out, _ = run(capsys, files["beggar"])
        assert code == 0
        assert "The story of the game" in out
        first = found["story"]["moments"][0]["text"]
        assert " ".join(first.split()[:4]) in " ".join(out.split())

    def test_progress_shows_on_a_terminal_only(self) -> None:
        record = Record.from_json(records()["beor"])
        game = find_game("beor")
        budget = parse_review_budget("20", game)
        seen = io.StringIO()
        shown = Console(file=seen, force_terminal=True, width=100)
        review = review_with_progress(record, game, shown, show=True, budget=budget)
        assert "Reviewing the decisions" in seen.getvalue()
        quiet = io.StringIO()
        again = review_with_progress(record, game, Console(file=quiet), show=False, budget=budget)
        assert quiet.getvalue() == "" and again == review


class TestHtml:
    def test_a_report_with_the_decisive_moves_and_no_script(
        self, files: dict[str, str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        report = tmp_path / "review.html"
        found = review_json(capsys, files["death"], *FAST, "--html", str(report))
        page = report.read_text(encoding="utf-8")
        assert page.startswith("<!DOCTYPE html>") and "<svg" in page
        assert "<script" not in page and "http://" not in page.replace(
            'xmlns="http://www.w3.org/2000/svg"', ""
        )
        assert found["decisive"]
        for moment in found["decisive"]:
            assert f"<td>{moment['played']}</td>" in page
            assert f"<td>{moment['best']}</td>" in page

    def test_every_text_is_escaped(
        self, tmp_path: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        record = dict(records()["beor"])
        record["seats"] = ['<script src="x.js"></script>', "a & b"]
        path = tmp_path / "names.json"
        path.write_text(json.dumps(record))
        report = tmp_path / "r.html"
        code, out, err = run(capsys, str(path), *FAST, "--html", str(report))
        assert code == 0, err
        page = report.read_text(encoding="utf-8")
        assert "<script" not in page
        assert "&lt;script src=&quot;x.js&quot;&gt;" in page and "a &amp; b" in page
        assert f"Report saved in {report}" in " ".join(out.split())

    def test_the_story_report(
        self, files: dict[str, str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        report = tmp_path / "story.html"
        found = review_json(capsys, files["beggar"], "--html", str(report))
        page = report.read_text(encoding="utf-8")
        assert "The story of the game" in page and "<script" not in page
        assert found["story"]["moments"][-1]["text"].split()[0] in page
