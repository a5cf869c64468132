"""``parlour lab report``'s HTML: one self-contained file that says first, in words, what
changed and what the run found, then draws it (inline SVG, nothing fetched): each variant's
paired differences as a forest plot, win rate by seat and by position, game lengths on whole
length bins, the survival curve, the variants side by side on axes fitted to their values, the
balance tests and the metrics table."""

from __future__ import annotations

import re
from typing import Any

import numpy as np
import pytest

from parlour.lab import plots
from parlour.lab.report import ReportRun, report_html


def estimate(value: float, half: float, unit: str = "share of games") -> dict[str, Any]:
    return {"value": value, "ci95": [value - half, value + half], "unit": unit}


def metrics(win0: float, length: float = 41.5, position_p: float | None = None) -> dict[str, Any]:
    found: dict[str, Any] = {
        "seat_win_rate": [estimate(win0, 0.05), estimate(1 - win0, 0.05)],
        "length": {
            **estimate(length, 1.5, "actions"),
            "summary": {"median": 41.0, "p10": 31.0, "p90": 58.0},
        },
        "stuck_loss_rate": estimate(0.125, 0.025),
        "seat_balance": {"statistic": 3.2, "dof": 1, "p_value": 0.07},
    }
    if position_p is not None:
        found["position_win_rate"] = [estimate(0.62, 0.03), estimate(0.38, 0.03)]
        found["position_balance"] = {"statistic": 24.0, "dof": 1, "p_value": position_p}
    return found


def run(
    name: str,
    win0: float,
    ended: bool,
    length: float = 41.5,
    position_p: float | None = None,
    options: dict[str, Any] | None = None,
) -> ReportRun:
    spec = {
        "game": "beor", "players": 2, "agents": ["heuristic"], "games": 4, "seed": 7,
        "options": options or {},
    }  # fmt: skip
    return ReportRun(
        name,
        spec,
        metrics(win0, length, position_p),
        [30, 40, 50, 60],
        [True, True, ended, True],
        [(30, 0.75), (40, 0.5), (60, 0.0)] if not ended else [],
    )


def difference(value: float, lo: float, hi: float, unit: str, changed: bool) -> dict[str, Any]:
    return {
        "baseline": 40.0, "variant": 40.0 + value,
        "difference": {"value": value, "ci95": [lo, hi]}, "p_value": 0.01 if changed else 0.5,
        "verdict": "changed" if changed else "no detectable change", "unit": unit, "games": 400,
    }  # fmt: skip


DIFFERENCES = {
    "short": {
        "seat_win_rate": [
            difference(0.01, -0.02, 0.04, "share of games", False),
            difference(-0.01, -0.04, 0.02, "share of games", False),
        ],
        "length": difference(-0.24, -0.31, -0.17, "actions", True),
        "stuck_loss_rate": difference(0.0, 0.0, 0.0, "share of games", False),
    }
}


def plots_in(page: str) -> list[str]:
    return re.findall(r"<figure class=plot data-plot=([\w-]+)>", page)


def test_a_run_report_holds_the_table_and_its_plots_inline() -> None:
    page = report_html("BEOR, 2 players", [run("default", 0.55, ended=False)])
    assert page.startswith("<!doctype html>")
    assert "BEOR, 2 players" in page and "seed 7" in page
    # The table: each metric with its value, interval and unit; per-seat rows by player.
    assert "stuck_loss_rate" in page and "0.125 <small>[0.1, 0.15]</small>" in page
    assert "Player 1: 0.55" in page and "Player 2: 0.45" in page
    assert "share of games" in page
    # Plots: seats, lengths and survival; no positions, variants or forest for one plain run.
    assert plots_in(page) == ["seat", "lengths", "survival"]
    assert page.count("<svg") == 3
    assert "side by side" not in page and "Paired differences" not in page
    # Self-contained: nothing is fetched from anywhere.
    assert not re.search(r'(src|href)="(?!#)', page)


def test_the_summary_in_words_comes_before_any_plot() -> None:
    page = report_html("t", [run("default", 0.55, ended=False)])
    glance = page.index("<h2>At a glance</h2>")
    assert glance < page.index("<svg")
    said = page[glance : page.index("</section>")]
    assert "No evidence that win rates by seat differ (chi-square p = 0.07)" in said
    assert "Player 2 wins 45.0%, Player 1 55.0% (parity 50.0%)" in said
    assert "Half the games last 41 actions or fewer; 10% end within 31 and 10% last over 58" in said
    assert "A cap stopped 1 of 4 games (25.0%) before their end." in said


def test_the_survival_curve_is_drawn_when_every_game_ended() -> None:
    done = run("default", 0.5, ended=True)
    page = report_html("t", [done])
    assert "survival" in plots_in(page) and "A cap stopped" not in page
    # The share of games longer than each length, from the shortest game to the longest.
    assert plots.survival_curve(done) == [
        (30.0, 1.0), (30.0, 0.75), (40.0, 0.5), (50.0, 0.25), (60.0, 0.0),
    ]  # fmt: skip


def test_a_survival_curve_stays_up_where_no_game_ended() -> None:
    capped = ReportRun("short", run("x", 0.5, True).spec, {}, [8, 8, 8], [False] * 3, [])
    assert plots.survival_curve(capped) == [(8.0, 1.0), (8.0, 1.0)]
    # Some games ended: the Kaplan-Meier curve carried, held to the longest (capped) game.
    some = ReportRun("c", capped.spec, {}, [5, 8, 8], [True, False, False], [(5.0, 2 / 3)])
    assert plots.survival_curve(some) == [(5.0, 1.0), (5.0, 2 / 3), (8.0, 2 / 3)]


@pytest.mark.parametrize(
    "lengths", [[30, 40, 50, 60], list(range(7, 1000, 3)), [12, 12, 12], [0, 1], [40, 1720]]
)
def test_length_bins_hold_whole_lengths(lengths: list[int]) -> None:
    edges = plots.length_bins(lengths)
    widths = {edges[i + 1] - edges[i] for i in range(len(edges) - 1)}
    (width,) = widths  # every bin as wide as the others
    assert width in plots.STEPS and len(edges) - 1 <= plots.MAX_BINS
    # A bar starts at a multiple of its width (0-19, 20-39 ... for bars of 20 lengths).
    assert (edges[0] + 0.5) % width == 0
    # Edges between whole lengths: no length falls on an edge, so no bin holds a fraction of
    # one; the shortest game is in the first bin and the longest in the last.
    assert all(edge % 1 == 0.5 for edge in edges)
    assert edges[0] < min(lengths) < edges[1] and edges[-2] < max(lengths) < edges[-1]
    if max(lengths) - min(lengths) < plots.MAX_BINS:
        assert width == 1


def test_a_comparison_says_what_changed_and_draws_the_differences() -> None:
    runs = [
        run("default", 0.55, True),
        run("short", 0.56, True, length=41.26, options={"natural_win": False}),
    ]
    page = report_html("natural_win", runs, "<p>the table</p>", DIFFERENCES)
    changed = page.index("<h2>What changed</h2>")
    assert changed < page.index("<svg")
    said = page[changed : page.index("</section>")]
    assert "<b>short</b> (natural_win=false) against default, on the same 400 deals" in said
    assert "length fell by 0.24 actions (95% interval -0.31 to -0.17)" in said
    assert "No detectable change in seat_win_rate, stuck_loss_rate." in said
    assert plots_in(page) == ["forest-0", "seat", "lengths", "survival", "variants"]
    assert "<th>default</th><th>short</th>" in page and "<p>the table</p>" in page


def test_adjusted_p_values_and_the_primary_metric_are_shown() -> None:
    """A comparison that controls the false discovery rate (``p_adjusted``, ``role``): the
    words and the forest plot give the adjusted p-values and mark the primary metric."""
    length = {**difference(-0.24, -0.31, -0.17, "actions", True), "p_value": 1e-5}
    length |= {"p_adjusted": 1e-5, "role": "primary"}
    seat = {**difference(0.042, 0.009, 0.075, "share of games", False), "p_value": 0.013}
    seat |= {"p_adjusted": 0.19, "role": "secondary"}
    passes = {**difference(-0.32, -0.4, -0.24, "per game", True), "p_value": 0.0004}
    passes |= {"p_adjusted": 0.003, "role": "secondary"}
    found = {"seat_win_rate": [seat, seat], "length": length, "passes": passes}
    page = report_html("t", [run("default", 0.5, True), run("v", 0.5, True)], "", {"v": found})
    assert "length (the primary metric) fell by 0.24 actions (95% interval -0.31 to -0.17)" in page
    assert "passes fell by 0.32 per game (95% interval -0.4 to -0.24, adjusted p = 0.003)" in page
    assert "No detectable change in seat_win_rate." in page
    assert "false discovery rate at 5%" in page
    # Player 1's raw interval leaves out zero, but not after the adjustment: the row says both.
    assert (
        plots.difference_text(seat)
        == "+0.042 [+0.009, +0.075] share of games; p 0.013, adjusted 0.19"
    )
    assert plots.difference_text(length) == "-0.24 [-0.31, -0.17] actions; p 1e-05"
    fig = plots.forest_figure("v", "default", found, "forest-0")
    assert fig is not None
    labels = [ax.get_yticklabels()[0].get_text() for ax in fig.axes]
    assert "length (primary)" in labels
    texts = [t.get_text() for ax in fig.axes for t in ax.texts]
    assert "+0.042 [+0.009, +0.075] share of games; p 0.013, adjusted 0.19" in texts


def test_nothing_changed_is_said_so() -> None:
    same = {"short": {"length": difference(0.1, -0.2, 0.4, "actions", False)}}
    page = report_html("t", [run("default", 0.5, True), run("short", 0.5, True)], "", same)
    assert "no metric changed detectably at 400 games." in page


def test_the_forest_plot_has_a_row_a_metric_around_a_zero_line() -> None:
    fig = plots.forest_figure("short", "default", DIFFERENCES["short"], "forest-0")
    assert fig is not None
    axes = fig.axes
    labels = [ax.get_yticklabels()[0].get_text() for ax in axes]
    assert labels == [
        "seat_win_rate (Player 1)", "seat_win_rate (Player 2)", "length", "stuck_loss_rate",
    ]  # fmt: skip
    for ax in axes:
        lo, hi = ax.get_xlim()
        assert lo == -hi and hi > 0  # zero in the middle of every row: one straight zero line
        assert any(np.asarray(line.get_xdata()).tolist() == [0, 0] for line in ax.get_lines())
    # The change is a filled red point left of zero, its whole interval within the row; the
    # metrics that did not change are hollow grey points.
    points = [next(ln for ln in ax.get_lines() if ln.get_marker() == "o") for ax in axes]
    assert [np.asarray(p.get_xdata()).tolist() for p in points] == [[0.01], [-0.01], [-0.24], [0]]
    assert [p.get_markerfacecolor() for p in points] == [
        "white", "white", plots.CHANGED_COLOUR, "white",
    ]  # fmt: skip
    assert axes[2].get_xlim()[0] < -0.31


def test_the_variants_are_drawn_on_axes_fitted_to_their_values() -> None:
    # A change of 0.24 actions in 41.5: on an axis from zero it would be a hair's width.
    fig = plots.variants_figure(
        [run("default", 0.55, True), run("short", 0.55, True, length=41.26)]
    )
    assert fig is not None
    (length,) = [ax for ax in fig.axes if ax.get_title(loc="left") == "length (actions)"]
    lo, hi = length.get_xlim()
    assert 30 < lo < 39.76 and 43 < hi < 50


def test_the_balance_tests_by_seat_and_by_position_are_in_the_page() -> None:
    page = report_html("t", [run("default", 0.5, True, position_p=1.2e-6)])
    table = page[page.index("<table id=balance>") :]
    table = table[: table.index("</table>")]
    assert "<td>by seat</td><td>3.2</td><td>1</td><td>0.07</td>" in table
    assert "<td>by position in the order of play</td><td>24</td><td>1</td><td>1.2e-06</td>" in table
    assert (
        "Win rates by position in the order of play differ (chi-square p = 1.2e-06): "
        "Position 2 wins 38.0%, Position 1 62.0% (parity 50.0%)."
    ) in page
    assert plots_in(page) == ["seat", "position", "lengths", "survival"]
    assert "Position 1: 0.62" in page


def test_names_are_escaped() -> None:
    page = report_html("<b>x</b>", [run("<i>v</i>", 0.5, True)])
    assert "<b>x</b>" not in page and "&lt;b&gt;x&lt;/b&gt;" in page
    assert "<i>v</i>" not in page
