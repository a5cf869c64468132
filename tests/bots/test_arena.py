"""The arena: seat rotation, confidence intervals, ratings, worker-independent results, and
the ``parlour arena`` command with saved records that replay."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from parlour.bots.arena import run_arena, seat_plan, wilson
from parlour.cli import main
from parlour.games import replay_json


def test_seats_rotate_one_a_game() -> None:
    assert [seat_plan(i, 4, 2) for i in range(3)] == [(0, 1, 0, 1), (1, 0, 1, 0), (0, 1, 0, 1)]
    assert [seat_plan(i, 3, 3) for i in range(3)] == [(0, 1, 2), (1, 2, 0), (2, 0, 1)]


def test_wilson_interval() -> None:
    lo, hi = wilson(50, 100)
    assert lo == pytest.approx(0.4038, abs=1e-3) and hi == pytest.approx(0.5962, abs=1e-3)
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == 1.0


def test_results_do_not_depend_on_workers() -> None:
    one = run_arena("death", 3, ["heuristic", "random"], 12, 5, workers=1).to_json()
    two = run_arena("death", 3, ["heuristic", "random"], 12, 5, workers=2).to_json()
    for report in (one, two):
        for agent in report["agents"]:
            agent.pop("seconds_per_decision")
    assert one == two


def test_figures_add_up() -> None:
    report = run_arena("beor", 2, ["heuristic", "random"], 30, 2, workers=1).to_json()
    agents = report["agents"]
    assert [a["games"] for a in agents] == [30, 30]
    assert sum(a["wins"] for a in agents) + report["draws"] == 30
    heuristic = agents[0]
    assert heuristic["ci95"][0] > report["parity"], "heuristic beats random at BEOR"
    assert report["ratings"] is None


def test_ratings_with_three_agents() -> None:
    report = run_arena("beor", 3, ["heuristic", "random", "ismcts:5"], 18, 4, workers=1).to_json()
    ratings = report["ratings"]
    assert list(ratings) == ["heuristic", "random", "ismcts:5"]
    values = list(ratings.values())
    assert values[0] > max(values[1:])
    assert sum(values) / len(values) == pytest.approx(1500, abs=1)


class TestCommand:
    def test_json_and_saved_records(
        self, capsys: pytest.CaptureFixture[str], tmp_path: Path
    ) -> None:
        code = main(
            ["arena", "death", "--players", "3", "--agents", "heuristic,random", "--games",
             "6", "--seed", "3", "--workers", "1", "--json", "--save", str(tmp_path)]
        )  # fmt: skip
        out, _ = capsys.readouterr()
        report = json.loads(out)
        assert code == 0
        assert list(report) == [
            "game", "players", "games", "seed", "parity", "draws", "agents", "mean_length",
            "ratings",
        ]  # fmt: skip
        agent = report["agents"][0]
        assert list(agent) == [
            "name", "games", "wins", "win_rate", "ci95", "mean_drinks_taken",
            "mean_drinks_given", "seconds_per_decision",
        ]  # fmt: skip
        saved = sorted(tmp_path.glob("game-*.json"))
        assert len(saved) == 6 and (tmp_path / "arena.json").exists()
        assert main(["replay", str(saved[0]), "--json"]) == 0
        replayed = json.loads(capsys.readouterr()[0])
        assert replayed["over"] is True

    def test_an_agent_named_twice_is_refused(self, capsys: pytest.CaptureFixture[str]) -> None:
        code = main(["arena", "beor", "--agents", "random,random", "--games", "2"])
        _, err = capsys.readouterr()
        assert code == 2 and "name each agent once" in err

    def test_bad_agent_exits_2(self, capsys: pytest.CaptureFixture[str]) -> None:
        code = main(["arena", "beor", "--agents", "heuristic,genius", "--games", "2"])
        _, err = capsys.readouterr()
        assert code == 2 and "unknown agent 'genius'" in err and len(err.splitlines()) == 1

    @pytest.mark.parametrize("name", ["death", "game-of-death", "Beckers-Game-of-Death"])
    def test_drinks_columns_under_every_name(
        self, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, name: str
    ) -> None:
        """The Game of Death's arena reports drinks (G12 scores by them), whatever name the
        game is given by."""
        monkeypatch.setenv("COLUMNS", "160")  # a table's headings whole, on one line
        argv = ["arena", name, "--players", "3", "--agents", "heuristic,random", "--games", "3",
                "--seed", "1", "--workers", "1"]  # fmt: skip
        assert main(argv) == 0
        out, _ = capsys.readouterr()
        assert "drinks taken" in out and "drinks given" in out
        assert main([*argv, "--json"]) == 0
        report = json.loads(capsys.readouterr()[0])
        assert report["game"] == "death"
        for agent in report["agents"]:
            assert agent["mean_drinks_taken"] > 0 and agent["mean_drinks_given"] >= 0

    def test_beor_has_no_drinks(self, capsys: pytest.CaptureFixture[str]) -> None:
        argv = ["arena", "black-even-odd-red", "--agents", "heuristic,random", "--games", "2",
                "--seed", "1", "--workers", "1"]  # fmt: skip
        assert main([*argv, "--json"]) == 0
        report = json.loads(capsys.readouterr()[0])
        assert report["game"] == "beor"
        assert list(report["agents"][0]) == [
            "name", "games", "wins", "win_rate", "ci95", "seconds_per_decision",
        ]  # fmt: skip
        assert main(argv) == 0
        assert "drinks" not in capsys.readouterr()[0]


def test_drinks_are_each_seats_mean() -> None:
    """``mean_drinks_taken`` is the mean over the seat-games an agent played."""
    report = run_arena("death", 3, ["heuristic", "random"], 4, 7, workers=1)
    for k, agent in enumerate(report.to_json()["agents"]):
        taken = [r.figures["drinks_taken"][s] for r in report.results
                 for s, who in enumerate(r.plan) if who == k]  # fmt: skip
        assert agent["mean_drinks_taken"] == pytest.approx(sum(taken) / len(taken))
    for r in report.results:
        final = replay_json(r.record)[1][-1].outcome
        assert final is not None
        assert list(r.figures["drinks_taken"]) == final.details["drinks_taken"]


def test_an_agent_that_played_no_game_has_no_rating() -> None:
    """One game of two seats for three agents: the third never plays. It was once rated
    -7,885 and the others above 6,000; now it has no rating and the others stay near 1500."""
    report = run_arena("beor", 2, ["random", "heuristic", "ismcts:5"], 1, 1, workers=1).to_json()
    assert [a["games"] for a in report["agents"]] == [1, 1, 0]
    ratings = report["ratings"]
    assert ratings["ismcts:5"] is None
    assert all(1000 < ratings[k] < 2000 for k in ("random", "heuristic"))
    assert sum(ratings[k] for k in ("random", "heuristic")) == pytest.approx(3000)
    # Wins are all of one kind (a shared win counts a part): 0.0 beside 1.0, never 0.
    assert all(isinstance(a["wins"], float) for a in report["agents"])
