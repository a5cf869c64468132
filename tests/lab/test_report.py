"""``parlour lab report``'s HTML: one self-contained file with the metrics table, the plots
inline (SVG, nothing fetched) and, for several runs, the variants side by side."""

from __future__ import annotations

import re

from parlour.lab.report import ReportRun, report_html


def metrics(win0: float) -> dict[str, object]:
    return {
        "seat_win_rate": [
            {"value": win0, "ci95": [win0 - 0.05, win0 + 0.05], "unit": "share of games"},
            {"value": 1 - win0, "ci95": [0.95 - win0, 1.05 - win0], "unit": "share of games"},
        ],
        "length": {"value": 41.5, "ci95": [40.0, 43.0], "unit": "actions"},
        "stuck_loss_rate": {"value": 0.125, "ci95": [0.1, 0.15], "unit": "share of games"},
        "seat_balance": {"statistic": 3.2, "dof": 1, "p_value": 0.07},
    }


def run(name: str, win0: float, ended: bool) -> ReportRun:
    spec = {"game": "beor", "players": 2, "agents": ["heuristic"], "games": 4, "seed": 7}
    return ReportRun(
        name,
        spec,
        metrics(win0),
        [30, 40, 50, 60],
        [True, True, ended, True],
        [(30, 0.75), (40, 0.5), (60, 0.0)],
    )


def test_a_run_report_holds_the_table_and_its_plots_inline() -> None:
    page = report_html("BEOR, 2 players", [run("default", 0.55, ended=False)])
    assert page.startswith("<!doctype html>")
    assert "BEOR, 2 players" in page and "seed 7" in page
    # The table: each metric with its value, interval and unit; per-seat rows by player.
    assert "stuck_loss_rate" in page and "0.125 <small>[0.1, 0.15]</small>" in page
    assert "Player 1: 0.55" in page and "Player 2: 0.45" in page
    assert "share of games" in page
    # Plots: seats, lengths, and survival since a game was capped; no comparison for one run.
    assert page.count("<svg") == 3
    assert "Survival" in page and "side by side" not in page
    # Self-contained: nothing is fetched from anywhere.
    assert not re.search(r'(src|href)="(?!#)', page)


def test_survival_is_left_out_when_every_game_ended() -> None:
    page = report_html("t", [run("default", 0.5, ended=True)])
    assert page.count("<svg") == 2 and "Survival" not in page


def test_a_comparison_draws_the_variants_side_by_side() -> None:
    page = report_html(
        "natural_win", [run("default", 0.55, True), run("natural_win=false", 0.6, True)]
    )
    assert "side by side" in page and page.count("<svg") == 3
    assert "<th>default</th><th>natural_win=false</th>" in page
    assert "0.6 <small>" in page


def test_names_are_escaped() -> None:
    page = report_html("<b>x</b>", [run("<i>v</i>", 0.5, True)])
    assert "<b>x</b>" not in page and "&lt;b&gt;x&lt;/b&gt;" in page
    assert "<i>v</i>" not in page
