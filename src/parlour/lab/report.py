"""``parlour lab report``: one self-contained HTML file of a run or a comparison.

Plots are drawn with matplotlib (its ``Figure``, no GUI) and embedded as inline SVG, so the
file opens anywhere with nothing beside it: the metrics table with intervals, the histogram of
game lengths, the win rate of each seat with its interval (parity drawn as a line), the
survival curve of game length when games were capped, and, for several runs of one game (a
comparison), bars of each metric side by side.
"""

from __future__ import annotations

import html
import io
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import matplotlib
from matplotlib.figure import Figure

from parlour.core.game import JSON

__all__ = ["ReportRun", "report_html"]

COLOURS = ("#0b5cad", "#c8102e", "#17803a", "#6a1b9a", "#b35c00", "#555555")


@dataclass(frozen=True)
class ReportRun:
    """One run as the report draws it: its name (the variant, or the file), its spec, its
    aggregated metrics (``parlour.lab.metrics.aggregate``), each game's length, whether each
    game ended by the rules (not by a cap) and the survival curve of length."""

    name: str
    spec: dict[str, JSON]
    metrics: dict[str, Any]
    lengths: Sequence[float]
    ended: Sequence[bool]
    survival: Sequence[tuple[float, float]]


def _svg(fig: Any) -> str:
    buffer = io.StringIO()
    # Text stays text (no glyph paths): a smaller file, and no ids repeated between plots.
    with matplotlib.rc_context({"svg.fonttype": "none"}):
        fig.savefig(buffer, format="svg", bbox_inches="tight")
    text = buffer.getvalue()
    return text[text.index("<svg") :]


def _interval(entry: Any) -> tuple[float, float, float] | None:
    if isinstance(entry, dict) and "value" in entry and "ci95" in entry:
        lo, hi = entry["ci95"]
        return float(entry["value"]), float(lo), float(hi)
    return None


def _cell(entry: Any) -> str:
    found = _interval(entry)
    if found is None:
        return html.escape(str(entry))
    value, lo, hi = found
    return f"{value:.4g} <small>[{lo:.4g}, {hi:.4g}]</small>"


def _table(runs: Sequence[ReportRun]) -> str:
    names = sorted({k for r in runs for k, v in r.metrics.items() if _shown(v)})
    head = "".join(f"<th>{html.escape(r.name)}</th>" for r in runs)
    rows = []
    for name in names:
        unit = ""
        cells = []
        for run in runs:
            entry = run.metrics.get(name)
            if isinstance(entry, list):
                cells.append(
                    "<td>"
                    + "<br>".join(f"Player {i + 1}: {_cell(e)}" for i, e in enumerate(entry))
                    + "</td>"
                )
                unit = unit or str(entry[0].get("unit", "")) if entry else unit
            else:
                cells.append(f"<td>{_cell(entry) if entry is not None else ''}</td>")
                if isinstance(entry, dict):
                    unit = unit or str(entry.get("unit", ""))
        rows.append(
            f"<tr><th scope=row>{html.escape(name)}<br><small>{html.escape(unit)}</small></th>"
            + "".join(cells)
            + "</tr>"
        )
    return (
        "<table><thead><tr><th>metric (unit)</th>"
        + head
        + "</tr></thead><tbody>"
        + "".join(rows)
        + "</tbody></table>"
    )


def _shown(entry: Any) -> bool:
    return _interval(entry) is not None or (
        isinstance(entry, list) and bool(entry) and _interval(entry[0]) is not None
    )


def _lengths_plot(runs: Sequence[ReportRun]) -> str:
    fig = Figure(figsize=(7, 3.2))
    ax = fig.subplots()
    units = []
    for k, run in enumerate(runs):
        ax.hist(run.lengths, bins=40, alpha=0.55, label=run.name, color=COLOURS[k % 6])
        length = run.metrics.get("length")
        unit = str(length.get("unit", "")) if isinstance(length, dict) else ""
        if unit and unit not in units:
            units.append(unit)
    ax.set_xlabel(f"game length ({', '.join(units) or 'actions'})")
    ax.set_ylabel("games")
    ax.set_title("Game length")
    if len(runs) > 1:
        ax.legend()
    return _svg(fig)


def _seats_plot(runs: Sequence[ReportRun]) -> str:
    fig = Figure(figsize=(7, 3.2))
    ax = fig.subplots()
    width = 0.8 / max(1, len(runs))
    players = 0
    for k, run in enumerate(runs):
        seats = run.metrics.get("seat_win_rate") or []
        players = max(players, len(seats))
        found = [_interval(e) for e in seats]
        xs = [i + k * width for i in range(len(found))]
        values = [f[0] if f else 0.0 for f in found]
        errors = [
            [f[0] - f[1] if f else 0.0 for f in found],
            [f[2] - f[0] if f else 0.0 for f in found],
        ]
        ax.bar(xs, values, width, yerr=errors, capsize=4, label=run.name, color=COLOURS[k % 6])
    if players:
        ax.axhline(1 / players, color="#333", linestyle="--", linewidth=1, label="parity")
        ax.set_xticks([i + width * (len(runs) - 1) / 2 for i in range(players)])
        ax.set_xticklabels([f"Player {i + 1}" for i in range(players)])
    ax.set_ylabel("win rate (95% interval)")
    ax.set_title("Win rate by seat")
    ax.legend()
    return _svg(fig)


def _survival_plot(runs: Sequence[ReportRun]) -> str | None:
    if all(all(r.ended) for r in runs):
        return None
    fig = Figure(figsize=(7, 3.2))
    ax = fig.subplots()
    for k, run in enumerate(runs):
        if run.survival:
            xs = [0.0] + [float(x) for x, _ in run.survival]
            ys = [1.0] + [float(y) for _, y in run.survival]
            ax.step(xs, ys, where="post", label=run.name, color=COLOURS[k % 6])
    ax.set_xlabel("game length")
    ax.set_ylabel("games still running")
    ax.set_title("Survival of game length (capped games counted as still running)")
    ax.legend()
    return _svg(fig)


def _compare_plot(runs: Sequence[ReportRun]) -> str | None:
    if len(runs) < 2:
        return None
    names = sorted(k for k in runs[0].metrics if all(_interval(r.metrics.get(k)) for r in runs))
    if not names:
        return None
    fig = Figure(figsize=(7, 1.3 * len(names) + 0.6))
    axes = fig.subplots(len(names), 1, squeeze=False)
    for ax, name in zip(axes[:, 0], names, strict=True):
        found = [_interval(r.metrics[name]) for r in runs]
        values = [f[0] for f in found if f]
        errors = [[f[0] - f[1] for f in found if f], [f[2] - f[0] for f in found if f]]
        ax.barh(
            range(len(runs)), values, xerr=errors, capsize=3,
            color=[COLOURS[k % 6] for k in range(len(runs))],
        )  # fmt: skip
        ax.set_yticks(range(len(runs)))
        ax.set_yticklabels([r.name for r in runs])
        ax.set_title(name, fontsize=9, loc="left")
    fig.tight_layout()
    return _svg(fig)


def report_html(title: str, runs: Sequence[ReportRun], comparison: str = "") -> str:
    """The report as one HTML document (``comparison``: an HTML table of paired differences,
    for a comparison)."""
    spec = runs[0].spec
    parts = [
        f"<h1>{html.escape(title)}</h1>",
        "<p>"
        + html.escape(
            f"{spec.get('game')}, {spec.get('players')} players, agents "
            f"{', '.join(map(str, spec.get('agents') or []))}, {spec.get('games')} games, "
            f"seed {spec.get('seed')}"
        )
        + "</p>",
        "<h2>Metrics (value [95% interval])</h2>",
        _table(runs),
        comparison,
        "<h2>Win rate by seat</h2>",
        _seats_plot(runs),
        "<h2>Game length</h2>",
        _lengths_plot(runs),
    ]
    survival = _survival_plot(runs)
    if survival:
        parts += ["<h2>Survival</h2>", survival]
    compare = _compare_plot(runs)
    if compare:
        parts += ["<h2>The variants side by side</h2>", compare]
    style = (
        "body{font-family:system-ui,sans-serif;max-width:60rem;margin:1rem auto;padding:0 1rem}"
        "table{border-collapse:collapse}th,td{border:1px solid #bbb;padding:.2rem .5rem;"
        "text-align:left;vertical-align:top}svg{max-width:100%;height:auto}"
    )
    return (
        f"<!doctype html><html lang=en><meta charset=utf-8><title>{html.escape(title)}</title>"
        f"<style>{style}</style><body>{''.join(parts)}</body></html>\n"
    )
