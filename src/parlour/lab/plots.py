"""The plots of ``parlour lab report``, drawn with matplotlib (its ``Figure``, no GUI) as inline
SVG: each plot is one ``<svg>`` whose data marks and legend carry ids (``PLOT-data-N``,
``PLOT-legend``), so a test in a browser can check that no legend covers the data.

- :func:`rates_plot`: a per-seat rate (win rate by seat, by position) as bars from zero with
  their 95% intervals and parity drawn as a line;
- :func:`lengths_plot`: the histogram of game lengths, its bins whole lengths wide and centred
  on them (a bin of width k holds k whole lengths, never a fraction of one);
- :func:`survival_plot`: the share of games still running after each length (Kaplan-Meier when
  a cap stopped games: those count as still running);
- :func:`variants_plot`: each metric's value in each run with its interval, as points on an
  axis that fits the values (not from zero, so a change of a fraction of a unit shows);
- :func:`forest_plot`: a variant's paired differences from the baseline, one row per metric
  with its 95% interval and a zero line (each row on its own scale, centred on zero, its value
  written beside it).

Legends sit outside the axes (to the right), never over the data.
"""

from __future__ import annotations

import io
import math
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from parlour.lab import stats
from parlour.lab.compare import CHANGED

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from parlour.lab.report import ReportRun


def _figure(width: float, height: float) -> Figure:
    """A new figure of ``width`` by ``height`` inches. matplotlib is imported here, by the
    first plot, not with this module: it takes about a second of processor time, which the
    lab's commands that draw nothing (and every process that imports the report) would pay."""
    from matplotlib.figure import Figure

    return Figure(figsize=(width, height))

__all__ = [
    "COLOURS",
    "difference_rows",
    "difference_text",
    "forest_figure",
    "forest_plot",
    "interval",
    "length_bins",
    "lengths_plot",
    "rates_plot",
    "seat_label",
    "survival_curve",
    "survival_plot",
    "to_svg",
    "variants_figure",
    "variants_plot",
]

COLOURS = ("#0b5cad", "#c8102e", "#17803a", "#6a1b9a", "#b35c00", "#555555")
CHANGED_COLOUR = "#c8102e"
UNCHANGED_COLOUR = "#666666"
MAX_BINS = 50
STEPS = sorted({round(n * 10**k) for k in range(16) for n in (1, 2, 2.5, 5) if n * 10**k >= 1})
"""The widths a bar of the length histogram may have, in whole lengths (2.5 only from 25 on)."""


def interval(entry: Any) -> tuple[float, float, float] | None:
    """``(value, lo, hi)`` of a metric's estimate (``lo``/``hi`` may be infinite), or None."""
    if isinstance(entry, Mapping) and "value" in entry and "ci95" in entry:
        lo, hi = entry["ci95"]
        return (
            float(entry["value"]),
            -math.inf if lo is None else float(lo),
            math.inf if hi is None else float(hi),
        )
    return None


def to_svg(fig: Any) -> str:
    """The figure as an inline ``<svg>`` element (text kept as text, cropped to what is drawn)."""
    import matplotlib

    buffer = io.StringIO()
    # Text stays text (no glyph paths): a smaller file, and no ids repeated between plots.
    with matplotlib.rc_context({"svg.fonttype": "none"}):
        fig.savefig(buffer, format="svg", bbox_inches="tight")
    text = buffer.getvalue()
    return text[text.index("<svg") :]


def _legend(ax: Any, plot: str) -> None:
    """The legend to the right of the axes, outside them."""
    legend = ax.legend(loc="upper left", bbox_to_anchor=(1.02, 1.0), borderaxespad=0.0)
    legend.set_gid(f"{plot}-legend")


def _errors(found: Sequence[tuple[float, float, float]]) -> list[list[float]]:
    """Error bar lengths below and above each value (0 where the interval is unbounded)."""
    return [
        [v - lo if math.isfinite(lo) else 0.0 for v, lo, _ in found],
        [hi - v if math.isfinite(hi) else 0.0 for v, _, hi in found],
    ]


def rates_plot(
    runs: Sequence[ReportRun], key: str, plot: str, title: str, label: str
) -> str | None:
    """Bars of per-seat metric ``key`` of each run with their intervals and parity (1/players);
    ``label`` names the n-th bar from n (``"Player {n}"``); None if no run has it."""
    fig = _figure(7, 3.2)
    ax = fig.subplots()
    width = 0.8 / max(1, len(runs))
    players = 0
    mark = 0
    for k, run in enumerate(runs):
        seats = run.metrics.get(key)
        if not isinstance(seats, list) or not seats:
            continue
        found = [interval(e) or (0.0, 0.0, 0.0) for e in seats]
        players = max(players, len(found))
        xs = [i + k * width for i in range(len(found))]
        bars = ax.bar(xs, [f[0] for f in found], width, label=run.name, color=COLOURS[k % 6])
        for bar in bars:
            bar.set_gid(f"{plot}-data-{mark}")
            mark += 1
        lines = ax.errorbar(
            xs, [f[0] for f in found], yerr=_errors(found), fmt="none", ecolor="#222", capsize=4
        )
        for part in (*lines.lines[1], *lines.lines[2]):
            part.set_gid(f"{plot}-data-{mark}")
            mark += 1
    if not players:
        return None
    ax.axhline(1 / players, color="#333", linestyle="--", linewidth=1, label="parity")
    ax.set_xticks([i + width * (len(runs) - 1) / 2 for i in range(players)])
    ax.set_xticklabels([label.format(n=i + 1) for i in range(players)])
    ax.set_ylabel("win rate (95% interval)")
    ax.set_title(title)
    _legend(ax, plot)
    return to_svg(fig)


def length_bins(lengths: Sequence[float]) -> list[float]:
    """Bin edges for whole lengths: at half-integers, each bin as many whole lengths wide (the
    fewest of 1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500 ... that keep to :data:`MAX_BINS`
    bins), a bin starting at a multiple of its width, the shortest game in the first bin."""
    if not lengths:
        return [-0.5, 0.5]
    lo, hi = math.floor(min(lengths)), math.ceil(max(lengths))
    step = next(n for n in STEPS if math.ceil((hi + 1 - lo // n * n) / n) <= MAX_BINS)
    first = lo // step * step
    count = math.ceil((hi + 1 - first) / step)
    return [first - 0.5 + step * i for i in range(count + 1)]


def lengths_plot(runs: Sequence[ReportRun]) -> str:
    """The histogram of game lengths, all runs on the same whole-length bins."""
    fig = _figure(7, 3.2)
    ax = fig.subplots()
    edges = length_bins([x for run in runs for x in run.lengths])
    units: list[str] = []
    mark = 0
    for k, run in enumerate(runs):
        drawn = ax.hist(run.lengths, bins=edges, alpha=0.55, label=run.name, color=COLOURS[k % 6])
        patches: Any = drawn[2]  # one data set: a BarContainer of its bars
        for patch in patches:
            patch.set_gid(f"lengths-data-{mark}")
            mark += 1
        length = run.metrics.get("length")
        unit = str(length.get("unit", "")) if isinstance(length, dict) else ""
        if unit and unit not in units:
            units.append(unit)
    step = round(edges[1] - edges[0])
    per_bin = "one length a bar" if step == 1 else f"{step} lengths a bar"
    ax.set_xlabel(f"game length ({', '.join(units) or 'actions'}; {per_bin})")
    ax.set_ylabel("games")
    ax.set_title("Game length")
    if len(runs) > 1:
        _legend(ax, "lengths")
    return to_svg(fig)


def survival_curve(run: ReportRun) -> list[tuple[float, float]]:
    """The share of the run's games still running after each length, from its shortest game
    to its longest: the curve it carries (Kaplan-Meier) or one worked out from its lengths and
    which games ended (games stopped by a cap count as still running; none ended: 1 all
    along)."""
    if not run.lengths:
        return []
    curve = [(float(x), float(y)) for x, y in run.survival] or [
        (float(x), y) for x, y in stats.survival([round(x) for x in run.lengths], list(run.ended))
    ]
    start, end = float(min(run.lengths)), float(max(run.lengths))
    last = curve[-1][1] if curve else 1.0
    return [(start, 1.0), *curve, *([(end, last)] if not curve or curve[-1][0] < end else [])]


def survival_plot(runs: Sequence[ReportRun]) -> str:
    """The share of games still running after each length, one step curve a run."""
    fig = _figure(7, 3.2)
    ax = fig.subplots()
    capped = False
    for k, run in enumerate(runs):
        curve = survival_curve(run)
        capped = capped or not all(run.ended)
        if curve:
            xs, ys = [x for x, _ in curve], [y for _, y in curve]
            (line,) = ax.step(xs, ys, where="post", label=run.name, color=COLOURS[k % 6])
            line.set_gid(f"survival-data-{k}")
    ax.set_ylim(-0.02, 1.02)
    ax.set_xlabel("game length")
    ax.set_ylabel("share of games still running")
    ax.set_title(
        "Survival of game length"
        + (" (games stopped by a cap count as still running)" if capped else "")
    )
    _legend(ax, "survival")
    return to_svg(fig)


def variants_plot(runs: Sequence[ReportRun]) -> str | None:
    """:func:`variants_figure` as SVG."""
    fig = variants_figure(runs)
    return None if fig is None else to_svg(fig)


def variants_figure(runs: Sequence[ReportRun]) -> Figure | None:
    """Each metric of every run as a point with its interval, one panel a metric, the axis
    fitted to the values (not from zero); None for one run or no common metric."""
    if len(runs) < 2:
        return None
    names = sorted(k for k in runs[0].metrics if all(interval(r.metrics.get(k)) for r in runs))
    if not names:
        return None
    fig = _figure(7, 0.35 * len(runs) * len(names) + 0.45 * len(names) + 0.4)
    axes = fig.subplots(len(names), 1, squeeze=False)
    mark = 0
    for ax, name in zip(axes[:, 0], names, strict=True):
        found = [interval(r.metrics[name]) or (0.0, 0.0, 0.0) for r in runs]
        for k, f in enumerate(found):
            lines = ax.errorbar(
                [f[0]], [k], xerr=_errors([f]), fmt="o", capsize=3, color=COLOURS[k % 6]
            )
            for part in (lines.lines[0], *lines.lines[1], *lines.lines[2]):
                part.set_gid(f"variants-data-{mark}")
                mark += 1
        ax.set_yticks(range(len(runs)))
        ax.set_yticklabels([r.name for r in runs])
        ax.set_ylim(len(runs) - 0.5, -0.5)
        ax.margins(x=0.15)
        unit = runs[0].metrics[name].get("unit", "")
        ax.set_title(f"{name} ({unit})" if unit else name, fontsize=9, loc="left")
    fig.tight_layout()
    return fig


def seat_label(metric: str, seat: int) -> str:
    """How the report names entry ``seat`` (from 0) of a per-seat metric: ``Position n`` for a
    metric by position in the order of play (position 1 moved first), else ``Player n``."""
    return f"{'Position' if metric.startswith('position_') else 'Player'} {seat + 1}"


def difference_rows(found: Mapping[str, Any]) -> list[tuple[str, Mapping[str, Any]]]:
    """``(label, item)`` for each metric of a comparison (``parlour.lab.compare.compare``), a
    per-seat metric giving one row a seat (``"metric (Player n)"``, ``"metric (Position n)"``)."""
    rows: list[tuple[str, Mapping[str, Any]]] = []
    for metric, entry in found.items():
        if isinstance(entry, list):
            rows += [(f"{metric} ({seat_label(metric, s)})", i) for s, i in enumerate(entry)]
        elif isinstance(entry, Mapping):
            rows.append((metric, entry))
    return [(label, item) for label, item in rows if interval(item.get("difference"))]


def difference_text(item: Mapping[str, Any]) -> str:
    """A paired difference as a forest plot's row writes it: the change, its interval and unit,
    and its p-values (raw, and Benjamini-Hochberg adjusted where the comparison gives them)."""
    value, lo, hi = interval(item["difference"]) or (0.0, 0.0, 0.0)
    text = f"{_signed(value)} [{_signed(lo)}, {_signed(hi)}] {item.get('unit', '')}".rstrip()
    if "p_value" in item:
        text += f"; p {float(item['p_value']):.2g}"
        if item.get("p_adjusted") is not None and item.get("role") != "primary":
            text += f", adjusted {float(item['p_adjusted']):.2g}"
    return text


def _signed(x: float) -> str:
    return "∞" if x == math.inf else "-∞" if x == -math.inf else f"{x:+.3g}"


def forest_plot(variant: str, baseline: str, found: Mapping[str, Any], plot: str) -> str | None:
    """:func:`forest_figure` as SVG."""
    fig = forest_figure(variant, baseline, found, plot)
    return None if fig is None else to_svg(fig)


def forest_figure(
    variant: str, baseline: str, found: Mapping[str, Any], plot: str
) -> Figure | None:
    """The forest plot of ``variant``'s paired differences from ``baseline``: one row a metric
    (a seat's row for per-seat metrics), its 95% interval and a zero line; a change (the
    verdict is ``changed``) in red, the primary metric marked. None if no metric has a
    difference."""
    rows = difference_rows(found)
    if not rows:
        return None
    fig = _figure(5.2, 0.34 * len(rows) + 0.9)
    axes = fig.subplots(len(rows), 1, squeeze=False, gridspec_kw={"hspace": 0.0})
    for i, (ax, (label, item)) in enumerate(zip(axes[:, 0], rows, strict=True)):
        value, lo, hi = interval(item["difference"]) or (0.0, 0.0, 0.0)
        changed = item.get("verdict") == CHANGED
        colour = CHANGED_COLOUR if changed else UNCHANGED_COLOUR
        reach = max(abs(x) for x in (value, lo, hi) if math.isfinite(x)) * 1.15 or 1.0
        lines = ax.errorbar(
            [value],
            [0],
            xerr=_errors([(value, lo, hi)]),
            fmt="o",
            capsize=3,
            color=colour,
            markerfacecolor=colour if changed else "white",
        )
        for j, part in enumerate((lines.lines[0], *lines.lines[1], *lines.lines[2])):
            part.set_gid(f"{plot}-data-{i}-{j}")
        ax.axvline(0.0, color="#222", linewidth=1)
        ax.set_xlim(-reach, reach)
        ax.set_ylim(-1, 1)
        ax.set_xticks([])
        ax.set_yticks([0])
        primary = item.get("role") == "primary"
        ax.set_yticklabels(
            [f"{label} (primary)" if primary else label],
            fontweight="bold" if changed else "normal",
        )
        ax.text(
            1.02, 0.5, difference_text(item),
            transform=ax.transAxes, va="center", fontsize=8, color=colour,
        )  # fmt: skip
        ax.spines["top"].set_visible(i == 0)
        ax.spines["bottom"].set_color("#222" if i == len(rows) - 1 else "#ddd")
    axes[0, 0].set_title(
        f"{variant} minus {baseline}, same deals (95% intervals; each row on its own scale, "
        "centred on zero)",
        fontsize=9,
        loc="left",
    )
    axes[-1, 0].set_xlabel("← lower than the baseline · higher →", fontsize=8)
    return fig
