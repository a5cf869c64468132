"""The lab's metrics (``lab/metrics.py``): the generic metrics and each game's (its ``FIGURES``,
``lab/figures.py``), the figures every game's rows carry, a game without figures, the leader,
and ``aggregate`` on a handful of rows whose estimates are worked out here by hand (Wilson's
formula, Student's t from the tables, Kaplan-Meier, Pearson's chi-square). The games' own
figures: ``test_metrics_beor.py``, ``test_metrics_death.py``, ``test_metrics_beggar.py``."""

from __future__ import annotations

import dataclasses
import json
import math
import random
import re
from typing import Any

import pytest

from parlour.errors import InvalidOption
from parlour.games import GAMES, find_game
from parlour.lab.metrics import (
    METRICS,
    MetricSpec,
    aggregate,
    game_figures,
    leader,
    leaders,
    specs_for,
)

T975 = {2: 4.302652730, 3: 3.182446305}
"""Student's t, 0.975 quantile, by degrees of freedom (from the tables)."""
Z = 1.96


def wilson(successes: float, n: int) -> tuple[float, float]:
    """Wilson's score interval, written out."""
    p = successes / n
    centre = (p + Z * Z / (2 * n)) / (1 + Z * Z / n)
    half = Z / (1 + Z * Z / n) * math.sqrt(p * (1 - p) / n + Z * Z / (4 * n * n))
    return centre - half, centre + half


def t_interval(values: list[float]) -> tuple[float, float, float]:
    n = len(values)
    m = sum(values) / n
    sd = math.sqrt(sum((v - m) ** 2 for v in values) / (n - 1))
    half = T975[n - 1] * sd / math.sqrt(n)
    return m, m - half, m + half


def close(entry: Any, value: float, lo: float, hi: float) -> None:
    assert entry["value"] == pytest.approx(value, rel=1e-5, abs=1e-9)
    assert entry["ci95"] == pytest.approx([lo, hi], rel=1e-5, abs=1e-9)


def random_game(name: str, players: int, seed: int, options: dict[str, Any] | None = None) -> Any:
    game = find_game(name)
    state = game.new(players, seed, options)
    rng = random.Random(seed)
    while not state.is_over:
        state = state.apply(rng.choice(state.legal_actions()))
    return state


REQUIRED = {
    "beor": {
        "seat_win_rate", "length", "decided_at", "lead_changes", "stuck_loss_rate",
        "restocks", "natural_win_rate", "turn_cap_draw_rate",
    },
    "death": {
        "seat_win_rate", "length", "decided_at", "lead_changes", "drinks_taken",
        "drinks_spread", "passes", "socials", "ace_sweeps", "first_out_at",
        "black_face_drinks",
    },
    "beggar": {"seat_win_rate", "length", "loop_rate", "tricks"},
}  # fmt: skip


class TestMetricList:
    @pytest.mark.parametrize("game", sorted(REQUIRED))
    def test_every_metric_the_issue_names_is_listed(self, game: str) -> None:
        names = {spec.name for spec in specs_for(game)}
        assert REQUIRED[game] <= names

    def test_each_game_has_each_name_once_with_unit_doc_and_a_known_aggregation(self) -> None:
        for game in GAMES:
            specs = specs_for(game)
            names = [spec.name for spec in specs]
            assert len(names) == len(set(names)), game
            assert names[: len(METRICS)] == [spec.name for spec in METRICS], game
            for spec in specs:
                assert re.fullmatch(r"[a-z][a-z0-9_]*", spec.name)
                assert spec.unit
                assert spec.doc.endswith(".") and spec.doc.count(". ") == 0, spec.doc
                assert spec.aggregation in ("rate", "mean", "summary")

    def test_units_and_seats(self) -> None:
        by_name = {(s.name, g): s for g in GAMES for s in specs_for(g)}
        assert by_name["seat_win_rate", "death"].per_seat
        assert by_name["drinks_taken", "death"].per_seat
        assert by_name["drinks_taken", "death"].unit == "drinks"
        assert by_name["length", "beggar"].unit == "cards"
        assert by_name["length", "beor"].unit == "actions"
        assert by_name["stuck_loss_rate", "beor"].aggregation == "rate"
        assert not by_name["restocks", "beor"].per_seat
        assert ("restocks", "death") not in by_name

    def test_the_generic_metrics_name_no_game(self) -> None:
        for spec in METRICS:
            text = f"{spec.name} {spec.unit} {spec.doc}".lower()
            for game in GAMES.values():
                assert game.name not in text and game.title.lower() not in text, spec

    def test_an_unknown_aggregation_is_refused(self) -> None:
        with pytest.raises(ValueError, match="aggregation"):
            MetricSpec("x", "per game", "median", "X.")

    def test_aliases_find_the_metrics(self) -> None:
        assert specs_for("game-of-death") == specs_for("death")
        with pytest.raises(InvalidOption):
            specs_for("chess")

    @pytest.mark.parametrize(("game", "players"), [("beor", 3), ("death", 4), ("beggar", 2)])
    def test_every_metric_reads_a_figure_each_row_has(self, game: str, players: int) -> None:
        row = game_figures(random_game(game, players, 3))
        assert json.loads(json.dumps(row)) == row
        for spec in specs_for(game):
            assert spec.key in row, spec.name
            if spec.per_seat:
                assert len(row[spec.key]) == players


class TestLeaderAndGame:
    def test_the_leader_stands_highest_alone(self) -> None:
        assert leader((3.0, 5.0, 1.0)) == 1
        assert leader((5.0, 5.0, 1.0)) is None
        assert leader((-2.0, -7.0)) == 0

    def test_an_unfinished_game_has_no_figures(self) -> None:
        with pytest.raises(ValueError, match="still on"):
            game_figures(find_game("death").new(3, 1))


BEOR_ROWS: list[dict[str, Any]] = [
    # won by seat 0 after a stuck loss
    {"winners": [0], "win_shares": [1.0, 0.0], "length": 10, "ended": True, "stuck": True,
     "restocks": 0, "natural_win": False, "turn_cap_draw": False, "lead_changes": 1,
     "decided_at": 0.5},
    {"winners": [1], "win_shares": [0.0, 1.0], "length": 20, "ended": True, "stuck": False,
     "restocks": 1, "natural_win": False, "turn_cap_draw": False, "lead_changes": 3,
     "decided_at": 0.25},
    # a draw at the turn limit: no winner, no decided_at, cut off at 30
    {"winners": [], "win_shares": [0.0, 0.0], "length": 30, "ended": False, "stuck": False,
     "restocks": 2, "natural_win": False, "turn_cap_draw": True, "lead_changes": 2,
     "decided_at": None},
    {"winners": [0], "win_shares": [1.0, 0.0], "length": 0, "ended": True, "stuck": False,
     "restocks": 0, "natural_win": True, "turn_cap_draw": False, "lead_changes": 0,
     "decided_at": 0.0},
]  # fmt: skip
for _row in BEOR_ROWS:
    _row.update({"game": "beor", "players": 2})


class TestAggregate:
    def test_rates_by_hand(self) -> None:
        found = aggregate("beor", 2, BEOR_ROWS)
        seat0, seat1 = found["seat_win_rate"]
        close(seat0, 0.5, *wilson(2, 4))
        close(seat1, 0.25, *wilson(1, 4))
        assert seat0["unit"] == "share of games" and seat0["games"] == 4
        for name in ("stuck_loss_rate", "natural_win_rate", "turn_cap_draw_rate"):
            close(found[name], 0.25, *wilson(1, 4))

    def test_means_by_hand(self) -> None:
        found = aggregate("beor", 2, BEOR_ROWS)
        close(found["restocks"], *t_interval([0, 1, 2, 0]))
        close(found["lead_changes"], *t_interval([1, 3, 2, 0]))
        # decided_at: the draw has none, so three games
        close(found["decided_at"], *t_interval([0.5, 0.25, 0.0]))
        assert found["decided_at"]["games"] == 3
        assert found["restocks"]["unit"] == "per game"

    def test_length_summary_and_survival_by_hand(self) -> None:
        length = aggregate("beor", 2, BEOR_ROWS)["length"]
        close(length, *t_interval([10, 20, 30, 0]))
        assert length["summary"]["median"] == 15
        assert length["summary"]["p25"] == 7.5  # 0 + 0.75 * (10 - 0)
        assert length["summary"]["max"] == 30
        # Kaplan-Meier: 4 at risk, one ends at 0 (3/4); 3 at risk, one ends at 10 (x 2/3);
        # 2 at risk, one ends at 20 (x 1/2); the draw is cut off at 30
        assert [point[0] for point in length["survival"]] == [0, 10, 20]
        assert [point[1] for point in length["survival"]] == pytest.approx([0.75, 0.5, 0.25])

    def test_no_survival_curve_when_every_game_ended(self) -> None:
        rows = [dict(r, ended=True) for r in BEOR_ROWS]
        assert "survival" not in aggregate("beor", 2, rows)["length"]

    def test_seat_balance_by_hand(self) -> None:
        # wins 2 and 1 of 3 decided games, 1.5 expected each: (0.25 + 0.25) / 1.5 = 1/3 with
        # 1 degree of freedom, p = erfc(sqrt(x / 2))
        balance = aggregate("beor", 2, BEOR_ROWS)["seat_balance"]
        assert balance["statistic"] == pytest.approx(1 / 3, rel=1e-5)
        assert balance["dof"] == 1
        assert balance["p_value"] == pytest.approx(math.erfc(math.sqrt(1 / 6)), rel=1e-5)

    def test_a_shared_win_counts_a_share_to_each_and_seats_are_listed(self) -> None:
        base = {"game": "death", "players": 3, "length": 60, "ended": True, "lead_changes": 0,
                "decided_at": None, "drinks_spread": 5, "passes": 2, "socials": 0,
                "ace_sweeps": 4, "first_out_at": 50, "black_face_drinks": 52}  # fmt: skip
        rows = [
            dict(base, win_shares=[1.0, 0.0, 0.0], drinks_taken=[10, 20, 30]),
            dict(base, win_shares=[0.5, 0.5, 0.0], drinks_taken=[12, 12, 40]),
            dict(base, win_shares=[0.0, 0.0, 1.0], drinks_taken=[20, 22, 8]),
        ]
        found = aggregate("game-of-death", 3, rows)
        rates = found["seat_win_rate"]
        close(rates[0], 0.5, *wilson(1.5, 3))
        close(rates[1], 0.5 / 3, *wilson(0.5, 3))
        drinks = found["drinks_taken"]
        assert len(drinks) == 3
        close(drinks[2], *t_interval([30, 40, 8]))
        assert drinks[0]["unit"] == "drinks"
        close(found["black_face_drinks"], 52, 52, 52)
        assert "decided_at" not in found  # no game has a sole winner who led for good
        assert "restocks" not in found  # a BEOR metric

    def test_rows_of_another_game_or_count_or_without_a_figure_are_refused(self) -> None:
        with pytest.raises(ValueError, match="row 0"):
            aggregate("death", 2, BEOR_ROWS)
        with pytest.raises(ValueError, match="row 0"):
            aggregate("beor", 3, BEOR_ROWS)
        with pytest.raises(ValueError, match="restocks"):
            aggregate("beor", 2, [{k: v for k, v in BEOR_ROWS[0].items() if k != "restocks"}])
        with pytest.raises(ValueError, match="not a number"):
            aggregate("beor", 2, [dict(BEOR_ROWS[0], restocks="two")])
        with pytest.raises(ValueError, match="at least one"):
            aggregate("beor", 2, [])

    def test_random_games_aggregate_to_json(self) -> None:
        rows = [game_figures(random_game("beor", 3, seed, {"max_turns": 40})) for seed in range(8)]
        found = aggregate("beor", 3, rows)
        assert json.loads(json.dumps(found)) == found
        assert {spec.name for spec in specs_for("beor")} - set(found) <= {"decided_at"}
        ended = [row["ended"] for row in rows]
        assert ("survival" in found["length"]) == (not all(ended))


class TestAGameWithoutFigures:
    """A game whose parts name no figures still gets the generic statistics: its rows have the
    generic figures (no standings, so no lead figures) and its metrics are the generic ones."""

    @pytest.fixture
    def bare(self, monkeypatch: pytest.MonkeyPatch) -> str:
        game = find_game("beor")
        monkeypatch.setattr(type(game), "parts", dataclasses.replace(game.parts, figures=None))
        return game.name

    def test_its_rows_hold_the_generic_figures(self, bare: str) -> None:
        row = game_figures(random_game(bare, 3, 4, {"max_turns": 30}))
        assert set(row) == {
            "game", "players", "result", "winners", "win_shares", "first", "length",
            "lead_changes", "decided_at", "ended", "position_win_shares",
        }  # fmt: skip
        assert row["first"] == 0  # the seat to move at the deal
        assert row["lead_changes"] is None and row["decided_at"] is None
        assert row["ended"] is True and row["game"] == bare
        with pytest.raises(ValueError, match="no standings"):
            leaders(random_game(bare, 2, 4, {"max_turns": 30}))

    def test_its_metrics_are_the_generic_ones(self, bare: str) -> None:
        assert specs_for(bare) == METRICS
        rows = [game_figures(random_game(bare, 2, s, {"max_turns": 30})) for s in range(5)]
        found = aggregate(bare, 2, rows)
        assert set(found) == {
            "seat_win_rate", "position_win_rate", "length", "seat_balance", "position_balance"
        }  # fmt: skip
        assert found["length"]["unit"] == "actions" and found["length"]["games"] == 5

    def test_its_lab_run_plays_through_the_agents(self, bare: str, tmp_path: Any) -> None:
        from parlour.lab.run import RunSpec, run

        rows = run(RunSpec(bare, 2, ("random",), 3, 7, {"max_turns": 30}), tmp_path / "r.db")
        assert [r["index"] for r in rows] == [0, 1, 2]
        assert all(r["record"] and "stuck" not in r["figures"] for r in rows)

    def test_a_game_without_decisions_plays_its_only_moves(
        self, monkeypatch: pytest.MonkeyPatch, tmp_path: Any
    ) -> None:
        from parlour.core.record import Record, replay
        from parlour.lab.run import RunSpec, run

        game = find_game("beggar")
        monkeypatch.setattr(type(game), "parts", dataclasses.replace(game.parts, figures=None))
        rows = run(RunSpec("beggar", 2, (), 3, 5, {"card_limit": 200}), tmp_path / "r.db")
        assert [r["plan"] for r in rows] == [[], [], []]
        for row in rows:
            assert row["figures"]["lead_changes"] is None and row["figures"]["ended"] is True
            assert row["figures"]["length"] == len(row["record"]["actions"])
            end = replay(Record.from_json(row["record"]), game)[-1]
            assert list(end.outcome.winners) == row["figures"]["winners"]  # type: ignore[union-attr]
        found = aggregate("beggar", 2, [r["figures"] for r in rows])
        assert set(found) == {
            "seat_win_rate", "position_win_rate", "length", "seat_balance", "position_balance"
        }  # fmt: skip


class TestAGameWithFigures:
    def test_a_game_metric_named_like_a_generic_one_takes_its_place(
        self, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        from parlour.core import parts
        from parlour.lab import figures

        own = MetricSpec("length", "turns", "summary", "Turns.")
        extra = MetricSpec("extra", "per game", "mean", "Extra.")
        monkeypatch.setattr(
            parts, "load_part", lambda record, part: figures.GameFigures(metrics=(extra, own))
        )
        specs = specs_for("beor")
        assert [s.name for s in specs] == [*(s.name for s in METRICS), "extra"]
        assert specs[[s.name for s in METRICS].index("length")] is own

    def test_figures_that_are_not_game_figures_are_refused(
        self, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        from parlour.core import parts

        monkeypatch.setattr(parts, "load_part", lambda record, part: {"metrics": ()})
        with pytest.raises(TypeError, match="not a GameFigures"):
            specs_for("beor")
