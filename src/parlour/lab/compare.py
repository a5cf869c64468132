"""``parlour lab compare``: rule variants played on the same deals, metric by metric.

Every variant plays game ``i`` from the same seed (common random numbers: the same deal and
the same agents' generators), so the difference a variant makes is measured game by game:
for each metric, the mean of (variant - baseline) over the games where both define it, with a
paired t 95% interval (:func:`parlour.lab.stats.paired`); the verdict is ``changed`` when the
interval leaves out 0, else ``no detectable change`` (at this many games).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from parlour.core.game import JSON
from parlour.core.inputs import quote
from parlour.lab import stats
from parlour.lab.metrics import MetricSpec, specs_for

__all__ = ["CHANGED", "UNCHANGED", "compare", "parse_variant"]

CHANGED = "changed"
UNCHANGED = "no detectable change"


def parse_variant(text: str) -> tuple[str, dict[str, str]]:
    """``NAME:K=V[,K=V]`` as its name and its options (raw text values).

    Raises:
        ValueError: not of that form.
    """
    name, sep, rest = text.partition(":")
    if not sep or not name.strip() or not rest.strip():
        raise ValueError(f"--variant is NAME:OPTION=VALUE[,OPTION=VALUE], got {quote(text)}")
    options: dict[str, str] = {}
    for pair in rest.split(","):
        key, eq, value = pair.partition("=")
        if not eq or not key.strip():
            raise ValueError(f"--variant {name}: options are OPTION=VALUE, got {quote(pair)}")
        options[key.strip()] = value.strip()
    return name.strip(), options


def _values(rows: Sequence[Mapping[str, Any]], key: str, seat: int | None) -> dict[int, float]:
    out: dict[int, float] = {}
    for row in rows:
        value = row["figures"].get(key)  # None: undefined, or a row of an older lab
        if seat is not None and value is not None:
            value = value[seat]
        if value is not None:
            out[int(row["index"])] = float(value)
    return out


def _difference(
    spec: MetricSpec,
    base: Sequence[Mapping[str, Any]],
    other: Sequence[Mapping[str, Any]],
    seat: int | None,
) -> dict[str, JSON] | None:
    a, b = _values(base, spec.key, seat), _values(other, spec.key, seat)
    games = sorted(set(a) & set(b))
    if not games:
        return None
    found = stats.paired([a[i] for i in games], [b[i] for i in games])
    return {
        "baseline": sum(a[i] for i in games) / len(games),
        "variant": sum(b[i] for i in games) / len(games),
        "difference": found.diff.to_json(),
        "p_value": float(f"{found.p_value:.6g}"),
        "verdict": CHANGED if found.changed else UNCHANGED,
        "unit": spec.unit,
        "games": len(games),
    }


def compare(
    game: str,
    players: int,
    baseline: Sequence[Mapping[str, Any]],
    variant: Sequence[Mapping[str, Any]],
) -> dict[str, JSON]:
    """For each metric of ``game``, the variant's paired difference from the baseline (a list
    of one a seat for per-seat metrics); rows are the runs' game rows (``index`` and
    ``figures``), paired by index."""
    out: dict[str, JSON] = {}
    for spec in specs_for(game):
        if spec.per_seat:
            seats = [_difference(spec, baseline, variant, s) for s in range(players)]
            if all(s is not None for s in seats):
                out[spec.name] = seats
        elif (entry := _difference(spec, baseline, variant, None)) is not None:
            out[spec.name] = entry
    return out
