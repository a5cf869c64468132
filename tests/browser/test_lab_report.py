"""``parlour lab report`` in Chromium: a real comparison (BEOR, a turn cap and plain rules
against the default, on the same deals) reported as one HTML file, opened from disk. The page
fetches nothing, says what changed before any plot, draws every plot (a forest plot a variant,
win rate by seat and by position, game lengths, survival, the variants side by side) and no
legend covers any bar, point or interval: their boxes as Chromium lays them out are compared."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from parlour.lab import plots
from tests.browser.browser import new_context

pytestmark = pytest.mark.slow  # a comparison of 3 x 40 games of BEOR, then its report

# Every plot's box, its data marks (ids PLOT-data-N) and legends (PLOT-legend) as laid out,
# and each pair of a legend and a data mark whose boxes overlap (a line's box, of no width or
# height, widened by a pixel so that a legend across it counts).
LAYOUT_JS = r"""() => {
  const box = (e) => e.getBoundingClientRect();
  const grow = (r) =>
    ({left: r.left - 1, right: r.right + 1, top: r.top - 1, bottom: r.bottom + 1});
  const overlap = (a, b) =>
    Math.min(a.right, b.right) - Math.max(a.left, b.left) > 0 &&
    Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 0;
  const found = {};
  for (const figure of document.querySelectorAll("figure.plot")) {
    const svg = figure.querySelector("svg");
    const data = Array.from(svg.querySelectorAll('[id*="-data-"]'));
    const legends = Array.from(svg.querySelectorAll('[id$="-legend"]'));
    const covered = [];
    for (const legend of legends) {
      for (const mark of data) {
        if (overlap(box(legend), grow(box(mark)))) covered.push(mark.id);
      }
    }
    const r = box(svg);
    found[figure.dataset.plot] = {
      width: r.width, height: r.height, visible: svg.checkVisibility(),
      data: data.filter((e) => box(e).width > 0 || box(e).height > 0).length,
      legends: legends.length, covered,
    };
  }
  return found;
}"""


def lab(*args: str, cwd: Path) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "parlour", "lab", *args],
        capture_output=True, text=True, cwd=cwd, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("report")
    lab(
        "compare", "beor", "--players", "3", "--agents", "heuristic", "--games", "40",
        "--seed", "5", "--variant", "short:max_turns=8", "--variant", "plain:natural_win=false",
        "--workers", "2", "--out", "c.db", cwd=folder,
    )  # fmt: skip
    lab("report", "c.db", "--html", "r.html", cwd=folder)
    return folder / "r.html"


@pytest.fixture(scope="module")
def by_position(report: Path) -> bool:
    """Whether the runs' metrics give win rates by position (rows that say who moved first):
    the report draws them and tests their balance exactly then."""
    found = json.loads(lab("report", report.with_name("c.db").name, "--json", cwd=report.parent))
    with_positions = {"position_win_rate" in run["metrics"] for run in found.values()}
    assert len(with_positions) == 1, "runs of one file differ in their metrics"
    return with_positions.pop()


@pytest.fixture(scope="module")
def page(browser: Browser, report: Path) -> Iterator[tuple[Page, list[str]]]:
    context = new_context(browser)
    requests: list[str] = []
    opened = context.new_page()
    opened.on("request", lambda request: requests.append(request.url))
    opened.goto(report.as_uri())
    try:
        yield opened, requests
    finally:
        context.close()


def test_the_report_fetches_nothing(page: tuple[Page, list[str]], report: Path) -> None:
    _, requests = page
    assert requests == [report.as_uri()]


def test_what_changed_is_said_before_any_plot(
    page: tuple[Page, list[str]], by_position: bool
) -> None:
    opened, _ = page
    headings = opened.locator("h2").all_inner_texts()
    assert headings[0] == "What changed"
    said = opened.locator("#glance").inner_text()
    assert "short (max_turns=8) against default, on the same 40 deals" in said
    assert "turn_cap_draw_rate rose by" in said and "length fell by" in said
    assert "win rates by seat" in said
    assert ("win rates by position" in said) == by_position
    first_plot = opened.locator("figure.plot").first.bounding_box()
    glance = opened.locator("#glance").bounding_box()
    assert first_plot is not None and glance is not None
    assert glance["y"] + glance["height"] <= first_plot["y"]


def test_every_plot_is_drawn_and_no_legend_covers_the_data(
    page: tuple[Page, list[str]], by_position: bool
) -> None:
    opened, _ = page
    found: dict[str, Any] = opened.evaluate(LAYOUT_JS)
    expected = ["forest-0", "forest-1", "seat", "lengths", "survival", "variants"]
    assert sorted(found) == sorted(expected + ["position"] * by_position)
    for plot, seen in found.items():
        assert seen["visible"] and seen["width"] > 300 and seen["height"] > 150, (plot, seen)
        assert seen["data"] > 0, f"{plot} draws nothing"
        assert seen["covered"] == [], f"the legend of {plot} covers {seen['covered']}"
    # The plots of several runs have a legend, so the check above was made on each.
    for plot in ("seat", "lengths", "survival", *["position"] * by_position):
        assert found[plot]["legends"] == 1, plot
    # Two forest plots of one row a metric, each with the paired interval of every metric.
    rows = opened.locator('figure[data-plot="forest-0"] [id^="forest-0-data-"]').count()
    assert rows > 10


def test_no_two_elements_share_an_id(page: tuple[Page, list[str]]) -> None:
    """Each plot is an SVG of its own: their ids (clip paths, markers, legends) must not clash,
    and every reference to one (a clip path, a marker) finds it."""
    opened, _ = page
    ids: list[str] = opened.evaluate(
        '() => Array.from(document.querySelectorAll("[id]"), e => e.id)'
    )
    assert len(ids) > 100 and len(set(ids)) == len(ids), "ids used twice in the page"
    missing = opened.evaluate(
        r"""() => {
          const refs = [];
          for (const e of document.querySelectorAll("[clip-path], use")) {
            const ref = (e.getAttribute("clip-path") || "").match(/url\(#([^)]+)\)/);
            if (ref) refs.push(ref[1]);
            const href = e.getAttribute("xlink:href") || e.getAttribute("href");
            if (href && href.startsWith("#")) refs.push(href.slice(1));
          }
          return refs.filter((id) => document.getElementById(id) === null);
        }"""
    )
    assert missing == []


def test_the_balance_tests_are_in_the_page(page: tuple[Page, list[str]], by_position: bool) -> None:
    opened, _ = page
    rows = opened.locator("#balance tbody tr").all_inner_texts()
    for run in ("default", "short", "plain"):
        assert any(r.startswith(f"{run}\tby seat\t") for r in rows), rows
        found = any(r.startswith(f"{run}\tby position in the order of play\t") for r in rows)
        assert found == by_position, rows


def test_the_check_sees_a_legend_over_the_bars(browser: Browser) -> None:
    """The overlap check finds the report's old fault: a legend in the foot of the bars."""
    from matplotlib.figure import Figure  # here: every test worker collects this file

    fig = Figure(figsize=(7, 3.2))
    ax = fig.subplots()
    for k, bar in enumerate(ax.bar([0, 1], [0.55, 0.45], label="default")):
        bar.set_gid(f"old-data-{k}")
    ax.legend(loc="lower left").set_gid("old-legend")
    svg = plots.to_svg(fig)
    context = new_context(browser)
    try:
        opened = context.new_page()
        opened.set_content(f"<figure class=plot data-plot=old>{svg}</figure>")
        found = opened.evaluate(LAYOUT_JS)
    finally:
        context.close()
    assert found["old"]["covered"] == ["old-data-0"]
