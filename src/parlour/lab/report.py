"""``parlour lab report``: one self-contained HTML file of a run or a comparison.

A designer reads it from the top: what changed (a comparison: each variant's detectable changes
in words, and the metrics it did not change detectably) and what the baseline run found (the
seat and position balance, how long games last, how many a cap stopped); then the plots
(:mod:`parlour.lab.plots`, inline SVG, nothing fetched): each variant's paired differences as a
forest plot, win rate by seat and by position with intervals, the histogram of game lengths,
their survival curve and, for several runs, each metric of every run side by side; then the
balance tests and the metrics table with intervals.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from parlour.core.game import JSON
from parlour.lab import plots
from parlour.lab.compare import CHANGED

__all__ = ["BALANCES", "ReportRun", "report_html"]


@dataclass(frozen=True)
class ReportRun:
    """One run as the report draws it: its name (the variant, or the file), its spec, its
    aggregated metrics (``parlour.lab.metrics.aggregate``), each game's length, whether each
    game ended by the rules (not by a cap) and the survival curve of length when a cap stopped
    games (else the report draws the share of games longer than each length)."""

    name: str
    spec: dict[str, JSON]
    metrics: dict[str, Any]
    lengths: Sequence[float]
    ended: Sequence[bool]
    survival: Sequence[tuple[float, float]]


BALANCES = {
    "seat_balance": ("seat_win_rate", "by seat", "Player {n}"),
    "position_balance": ("position_win_rate", "by position in the order of play", "Position {n}"),
}
"""A balance test's key: the per-seat rate it tests, how the report says it, how it names the
n-th seat (position 1 moves first)."""


def _cell(entry: Any) -> str:
    found = plots.interval(entry)
    if found is None:
        return html.escape(str(entry))
    value, lo, hi = found
    return f"{value:.4g} <small>[{lo:.4g}, {hi:.4g}]</small>"


def _shown(entry: Any) -> bool:
    return plots.interval(entry) is not None or (
        isinstance(entry, list) and bool(entry) and plots.interval(entry[0]) is not None
    )


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
                    + "<br>".join(
                        f"{plots.seat_label(name, i)}: {_cell(e)}" for i, e in enumerate(entry)
                    )
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


# -- balance tests --------------------------------------------------------------------------


def _tests(run: ReportRun) -> list[tuple[str, Mapping[str, Any]]]:
    return [
        (key, entry)
        for key, entry in run.metrics.items()
        if isinstance(entry, Mapping) and "p_value" in entry and "statistic" in entry
    ]


def _balance_words(run: ReportRun, key: str, entry: Mapping[str, Any]) -> str:
    """One sentence on a balance test: whether the chances differ, the extremes and parity."""
    rates_key, how, label = BALANCES.get(key, ("", key.replace("_", " "), "Player {n}"))
    p = float(entry["p_value"])
    rates = [plots.interval(e) for e in run.metrics.get(rates_key) or []]
    values = [r[0] for r in rates if r is not None]
    spread = ""
    if len(values) >= 2:
        low = min(range(len(values)), key=values.__getitem__)
        high = max(range(len(values)), key=values.__getitem__)
        spread = (
            f": {label.format(n=low + 1)} wins {values[low]:.1%}, "
            f"{label.format(n=high + 1)} {values[high]:.1%} (parity {1 / len(values):.1%})"
        )
    if p < 0.05:
        return f"Win rates {how} differ (chi-square p = {p:.2g}){spread}."
    return f"No evidence that win rates {how} differ (chi-square p = {p:.2g}){spread}."


def _tests_table(runs: Sequence[ReportRun]) -> str:
    rows = [
        f"<tr><td>{html.escape(run.name)}</td>"
        f"<td>{html.escape(BALANCES.get(key, ('', key))[1])}</td>"
        f"<td>{float(entry['statistic']):.4g}</td><td>{html.escape(str(entry.get('dof', '')))}"
        f"</td><td>{float(entry['p_value']):.3g}</td>"
        f"<td>{html.escape(_balance_words(run, key, entry))}</td></tr>"
        for run in runs
        for key, entry in _tests(run)
    ]
    if not rows:
        return ""
    return (
        "<h2>Balance tests</h2><p>Chi-square tests of equal wins (small p: the chances differ; "
        "position 1 moves first).</p><table id=balance><thead><tr><th>run</th><th>wins</th>"
        "<th>chi²</th><th>dof</th><th>p</th><th>reading</th></tr></thead><tbody>"
        + "".join(rows)
        + "</tbody></table>"
    )


# -- what changed, in words -------------------------------------------------------------------


def _change(name: str, item: Mapping[str, Any]) -> str:
    value, lo, hi = plots.interval(item["difference"]) or (0.0, 0.0, 0.0)
    unit = str(item.get("unit", ""))
    primary = " (the primary metric)" if item.get("role") == "primary" else ""
    adjusted = item.get("p_adjusted")
    after = "" if adjusted is None or primary else f", adjusted p = {float(adjusted):.2g}"
    return (
        f"{name}{primary} {'rose' if value > 0 else 'fell'} by {abs(value):.3g} {unit} "
        f"(95% interval {lo:+.3g} to {hi:+.3g}{after})"
    ).replace("  ", " ")


def _variant_words(
    variant: str, base: ReportRun, run: ReportRun | None, found: Mapping[str, Any]
) -> str:
    changed: list[str] = []
    unchanged: list[str] = []
    games = 0
    for metric, entry in found.items():
        items = entry if isinstance(entry, list) else [entry]
        games = max([games, *(int(i.get("games", 0)) for i in items)])
        moved = [(s, i) for s, i in enumerate(items) if i.get("verdict") == CHANGED]
        if not moved:
            unchanged.append(metric)
        elif not isinstance(entry, list):
            changed.append(_change(metric, entry))
        elif len(moved) == len(items) and len({_sign(i) for _, i in moved}) == 1:
            sizes = sorted(abs(_value(i)) for _, i in moved)
            every = "at every position" if metric.startswith("position_") else "for every player"
            unit = str(items[0].get("unit", ""))
            changed.append(
                f"{metric} {'rose' if _sign(items[0]) > 0 else 'fell'} {every} "
                f"(by {sizes[0]:.3g} to {sizes[-1]:.3g} {unit})".replace(" )", ")")
            )
        else:
            changed += [_change(f"{metric} of {plots.seat_label(metric, s)}", i) for s, i in moved]
    options = {}
    if run is not None:
        mine, theirs = run.spec.get("options") or {}, base.spec.get("options") or {}
        if isinstance(mine, dict) and isinstance(theirs, dict):
            options = {k: v for k, v in mine.items() if theirs.get(k) != v}
    rules = f" ({', '.join(f'{k}={_text(v)}' for k, v in options.items())})" if options else ""
    head = f"<b>{html.escape(variant)}</b>{html.escape(rules)} against {html.escape(base.name)}"
    head += f", on the same {games} deals: "
    said = (
        "; ".join(changed) + "." if changed else f"no metric changed detectably at {games} games."
    )
    rest = f" No detectable change in {', '.join(unchanged)}." if changed and unchanged else ""
    return head + html.escape(said + rest)


def _text(value: Any) -> str:
    """An option's value as the command line writes it (true, not True)."""
    return json.dumps(value) if isinstance(value, bool) or value is None else str(value)


def _value(item: Mapping[str, Any]) -> float:
    return (plots.interval(item["difference"]) or (0.0, 0.0, 0.0))[0]


def _sign(item: Mapping[str, Any]) -> int:
    value = _value(item)
    return (value > 0) - (value < 0)


def _run_words(run: ReportRun) -> list[str]:
    said = [_balance_words(run, key, entry) for key, entry in _tests(run)]
    length = run.metrics.get("length")
    summary = length.get("summary") if isinstance(length, Mapping) else None
    if isinstance(summary, Mapping) and {"median", "p10", "p90"} <= set(summary):
        unit = str(length.get("unit", "")) if isinstance(length, Mapping) else ""
        said.append(
            f"Half the games last {summary['median']:g} {unit} or fewer; 10% end within "
            f"{summary['p10']:g} and 10% last over {summary['p90']:g}."
        )
    capped = sum(not e for e in run.ended)
    if capped:
        said.append(
            f"A cap stopped {capped} of {len(run.ended)} games ({capped / len(run.ended):.1%}) "
            "before their end."
        )
    return [html.escape(s) for s in said]


def _all_items(
    differences: Mapping[str, Mapping[str, Any]],
) -> list[tuple[str, Mapping[str, Any]]]:
    return [row for found in differences.values() for row in plots.difference_rows(found)]


def _glance(runs: Sequence[ReportRun], differences: Mapping[str, Mapping[str, Any]]) -> str:
    base = runs[0]
    named = {r.name: r for r in runs}
    parts = []
    if differences:
        items = [
            _variant_words(variant, base, named.get(variant), found)
            for variant, found in differences.items()
        ]
        parts.append(
            "<section id=glance><h2>What changed</h2><ul>"
            + "".join(f"<li>{i}</li>" for i in items)
            + "</ul>"
        )
        if any("p_adjusted" in item for _, item in _all_items(differences)):
            parts.append(
                "<p>A verdict of <i>changed</i> holds the false discovery rate at 5% over each "
                "variant's metrics (Benjamini-Hochberg adjusted p-values); a primary metric "
                "named with <code>--metric</code> is the one test taken at its own 5% level."
                "</p>"
            )
        parts.append(f"<p>The baseline, {html.escape(base.name)}:</p>")
    else:
        parts.append("<section id=glance><h2>At a glance</h2>")
    parts.append("<ul>" + "".join(f"<li>{s}</li>" for s in _run_words(base)) + "</ul></section>")
    return "".join(parts)


# -- the page ---------------------------------------------------------------------------------


_IDS = re.compile(r'(id="|url\(#|href="#)([^")]+)')


def _figure(plot: str, heading: str, svg: str | None) -> list[str]:
    """The plot under its heading; its SVG's ids (and what refers to them) start with the
    plot's name, so no two plots of the page share one."""
    if svg is None:
        return []
    own = _IDS.sub(lambda m: m[0] if m[2].startswith(f"{plot}-") else f"{m[1]}{plot}-{m[2]}", svg)
    return [f"<h2>{html.escape(heading)}</h2><figure class=plot data-plot={plot}>{own}</figure>"]


def report_html(
    title: str,
    runs: Sequence[ReportRun],
    comparison: str = "",
    differences: Mapping[str, Mapping[str, Any]] | None = None,
) -> str:
    """The report as one HTML document. ``differences``: each variant's paired differences
    from the first run (``parlour.lab.compare.compare``, by the variant's run name), drawn as
    forest plots and said in words; ``comparison``: their HTML table."""
    spec = runs[0].spec
    agents = ", ".join(map(str, spec.get("agents") or [])) or "none"
    differences = differences or {}
    parts = [
        f"<h1>{html.escape(title)}</h1>",
        "<p>"
        + html.escape(
            f"{spec.get('game')}, {spec.get('players')} players, agents "
            f"{agents}, {spec.get('games')} games, "
            f"seed {spec.get('seed')}"
        )
        + "</p>",
        _glance(runs, differences),
    ]
    for i, (variant, found) in enumerate(differences.items()):
        parts += _figure(
            f"forest-{i}",
            f"Paired differences: {variant}",
            plots.forest_plot(variant, runs[0].name, found, f"forest-{i}"),
        )
    for rates, how, label in BALANCES.values():
        plot = rates.removesuffix("_win_rate")
        drawn = plots.rates_plot(runs, rates, plot, f"Win rate {how}", label)
        parts += _figure(plot, f"Win rate {how}", drawn)
    parts += _figure("lengths", "Game length", plots.lengths_plot(runs))
    parts += _figure("survival", "Survival of game length", plots.survival_plot(runs))
    parts += _figure("variants", "The variants side by side", plots.variants_plot(runs))
    parts += [
        _tests_table(runs),
        "<h2>Metrics (value [95% interval])</h2>",
        _table(runs),
        comparison,
    ]
    style = (
        "body{font-family:system-ui,sans-serif;max-width:60rem;margin:1rem auto;padding:0 1rem}"
        "table{border-collapse:collapse}th,td{border:1px solid #bbb;padding:.2rem .5rem;"
        "text-align:left;vertical-align:top}svg{max-width:100%;height:auto}figure{margin:0}"
    )
    return (
        f"<!doctype html><html lang=en><meta charset=utf-8><title>{html.escape(title)}</title>"
        f"<style>{style}</style><body>{''.join(parts)}</body></html>\n"
    )
