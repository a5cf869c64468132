"""``parlour lab compare``: rule variants played on the same deals, metric by metric.

Every variant plays game ``i`` from the same seed (common random numbers: the same deal and
the same agents' generators), so the difference a variant makes is measured game by game:
for each metric, the mean of (variant - baseline) over the games where both define it, with a
paired t 95% interval and p-value (:func:`parlour.lab.stats.paired`).

A variant is tested on many metrics at once (each seat's win rate, the length, the game's own
figures ...): at the 5% level, one in twenty unchanged metrics would look changed by chance.
So the verdicts control the false discovery rate:

- the *primary* metric, the one the designer named before looking (``--metric``), is the one
  confirmatory test: ``changed`` when its raw p-value is below 0.05 (its interval leaves out 0);
- every other metric is *secondary*: its p-value is adjusted by Benjamini-Hochberg over the
  variant's secondary metrics (each seat's entry one test), and it is ``changed`` when the
  adjusted p-value is below 0.05, so that among the changes claimed at most 5% are expected to
  be false. Without a primary metric every metric is secondary.

Every entry says how many games it rests on (the pairs) and the smallest change those games
detect with 80% power (:func:`parlour.lab.power.detectable`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from parlour.core.game import JSON
from parlour.core.inputs import quote
from parlour.errors import InvalidOption
from parlour.lab import stats
from parlour.lab.metrics import MetricSpec, specs_for
from parlour.lab.power import detectable

__all__ = [
    "ALPHA",
    "CHANGED",
    "POWER",
    "PRIMARY",
    "SECONDARY",
    "TEXT_HEAD",
    "UNCHANGED",
    "Primary",
    "adjust",
    "compare",
    "entries",
    "label",
    "paired_values",
    "parse_metric",
    "parse_variant",
    "text_rows",
]

CHANGED = "changed"
UNCHANGED = "no detectable change"
PRIMARY = "primary"
SECONDARY = "secondary"
ALPHA = 0.05
"""The level of the primary test and the false discovery rate of the secondary ones."""
POWER = 0.8
"""The power at which an entry's ``detectable`` change is given."""


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


@dataclass(frozen=True, slots=True)
class Primary:
    """A metric a designer names (``--metric``): its spec, and for a per-seat metric the seat
    (from 0) whose entry is meant."""

    spec: MetricSpec
    seat: int | None = None

    @property
    def flag(self) -> str:
        """``NAME`` or ``NAME:N`` (N the player, from 1), as the command line takes it."""
        return self.spec.name if self.seat is None else f"{self.spec.name}:{self.seat + 1}"

    @property
    def title(self) -> str:
        """``NAME`` or ``NAME (Player N)``, as the tables show it (:func:`label`)."""
        return label(self.spec.name, self.seat)

    def to_json(self) -> dict[str, JSON]:
        """``{"metric", "entry"}``: the entry counted from 1 (Player N, or position N of a
        metric by position), None for a metric of the whole game."""
        return {"metric": self.spec.name, "entry": None if self.seat is None else self.seat + 1}


def parse_metric(game: str, players: int, text: str) -> Primary:
    """``--metric NAME`` or, for a metric of one entry a seat, ``NAME:N`` (Player N, from 1;
    position N for a metric by position in the turn order, ``position_...``: 1 moved first).

    Raises:
        InvalidOption: no such metric of ``game``, a per-seat metric without its player, a
            player who is not at the table, or a player named for a metric of the whole game.
    """
    name, sep, player = (part.strip() for part in text.partition(":"))
    specs = {spec.name: spec for spec in specs_for(game)}
    if name not in specs:
        raise InvalidOption(
            f"--metric: no metric {quote(name)} for this game; one of {', '.join(specs)}"
        )
    spec = specs[name]
    if not spec.per_seat:
        if sep:
            raise InvalidOption(f"--metric: {name} is one figure a game; name it alone")
        return Primary(spec)
    each = "position" if name.startswith("position_") else "player"
    if not sep:
        raise InvalidOption(f"--metric: {name} is one figure a {each}; name one, e.g. {name}:1")
    if not (player.isascii() and player.isdigit() and len(player) <= 3) or not (
        1 <= int(player) <= players
    ):
        raise InvalidOption(
            f"--metric: {name}:N names {each} N, from 1 to {players}, got {quote(player)}"
        )
    return Primary(spec, int(player) - 1)


def adjust(p_values: Sequence[float]) -> list[float]:
    """Benjamini-Hochberg adjusted p-values (``scipy.stats.false_discovery_control``): for the
    k-th smallest of m p-values, the least of m p(j) / j over j >= k, at most 1. A test is a
    discovery at false discovery rate q when its adjusted p-value is below q. No p-values give
    []."""
    if not p_values:
        return []
    from scipy import stats as scipy_stats  # here: an import of about 1.7 s

    found = scipy_stats.false_discovery_control(np.asarray(p_values, dtype=np.float64))
    return [float(p) for p in np.atleast_1d(found)]


def paired_values(
    rows: Sequence[Mapping[str, Any]], key: str, seat: int | None
) -> dict[int, float]:
    """Figure ``key`` (its entry for ``seat``) of each game row by its index, leaving out the
    games that do not define it (None, or a row stored before the lab had that figure)."""
    out: dict[int, float] = {}
    for row in rows:
        value = row["figures"].get(key)
        if seat is not None and value is not None:
            value = value[seat]
        if value is not None:
            out[int(row["index"])] = float(value)
    return out


def _round(x: float) -> float:
    return float(f"{x:.6g}")


def _difference(
    spec: MetricSpec,
    base: Sequence[Mapping[str, Any]],
    other: Sequence[Mapping[str, Any]],
    seat: int | None,
) -> dict[str, JSON] | None:
    a, b = paired_values(base, spec.key, seat), paired_values(other, spec.key, seat)
    games = sorted(set(a) & set(b))
    if not games:
        return None
    first, second = [a[i] for i in games], [b[i] for i in games]
    found = stats.paired(first, second)
    spread = float(np.std(np.subtract(second, first), ddof=1)) if len(games) > 1 else 0.0
    smallest = detectable(len(games), spread, POWER, ALPHA, rate=spec.aggregation == "rate")
    return {
        "baseline": sum(first) / len(games),
        "variant": sum(second) / len(games),
        "difference": found.diff.to_json(),
        "p_value": _round(found.p_value),
        "unit": spec.unit,
        "games": len(games),
        "detectable": None if smallest is None else _round(smallest),
        # Unrounded, for the adjustment and the primary's verdict; removed before returning.
        "_p": found.p_value,
        "_changed": found.changed,
    }


def compare(
    game: str,
    players: int,
    baseline: Sequence[Mapping[str, Any]],
    variant: Sequence[Mapping[str, Any]],
    primary: Primary | None = None,
) -> dict[str, JSON]:
    """For each metric of ``game``, the variant's paired difference from the baseline (a list
    of one a seat for per-seat metrics); rows are the runs' game rows (``index`` and
    ``figures``), paired by index.

    Each entry holds ``baseline`` and ``variant`` (the means over the paired games),
    ``difference`` (value and raw 95% interval), ``p_value`` (raw), ``p_adjusted``
    (Benjamini-Hochberg over the secondary entries; the primary's own p-value), ``role``
    (``primary`` or ``secondary``), ``verdict`` (see the module docstring), ``unit``,
    ``games`` (the games it rests on) and ``detectable`` (the smallest change those games
    detect with 80% power at the 5% level, in the metric's unit; None without spread).

    Raises:
        InvalidOption: the primary metric is not defined by any paired game.
    """
    out: dict[str, Any] = {}
    tests: list[tuple[dict[str, Any], bool]] = []
    for spec in specs_for(game):
        if spec.per_seat:
            seats = [_difference(spec, baseline, variant, s) for s in range(players)]
            if all(s is not None for s in seats):
                out[spec.name] = seats
                tests += [
                    (entry, primary is not None and (spec, s) == (primary.spec, primary.seat))
                    for s, entry in enumerate(seats)
                    if entry is not None
                ]
        elif (entry := _difference(spec, baseline, variant, None)) is not None:
            out[spec.name] = entry
            tests.append((entry, primary is not None and spec == primary.spec))
    if primary is not None and not any(is_primary for _, is_primary in tests):
        raise InvalidOption(
            f"--metric: {primary.flag} is defined in none of the games played by both"
        )
    secondary = [entry for entry, is_primary in tests if not is_primary]
    for entry, adjusted in zip(secondary, adjust([e["_p"] for e in secondary]), strict=True):
        entry.update(p_adjusted=_round(adjusted), role=SECONDARY, _changed=adjusted < ALPHA)
    for entry, is_primary in tests:
        if is_primary:
            # The one confirmatory test, at its raw level: its interval leaves out 0.
            entry.update(p_adjusted=entry["p_value"], role=PRIMARY)
        entry.pop("_p")
        entry["verdict"] = CHANGED if entry.pop("_changed") else UNCHANGED
    return out


def label(metric: str, seat: int | None) -> str:
    """``NAME`` for a metric of the whole game, ``NAME (Player N)`` for seat N - 1's entry
    (``NAME (position N)`` for a metric by position in the turn order, ``position_...``)."""
    if seat is None:
        return metric
    return f"{metric} ({'position' if metric.startswith('position_') else 'Player'} {seat + 1})"


def entries(metric: str, entry: Any) -> list[tuple[str, Any]]:
    """A metric's entries with their :func:`label`."""
    if isinstance(entry, list):
        return [(label(metric, seat), item) for seat, item in enumerate(entry)]
    return [(metric, entry)]


TEXT_HEAD = ("metric", "default", "variant", "difference (95% interval)", "p", "p adj.", "verdict")
"""The columns of :func:`text_rows`; the third is named after the variant."""


def _p(x: float) -> str:
    return "<0.0001" if x < 1e-4 else f"{x:.2g}" if x < 0.01 else f"{x:.3f}"


def text_rows(differences: Mapping[str, Any]) -> list[tuple[str, ...]]:
    """The cells of a variant's :func:`compare` for people, in :data:`TEXT_HEAD`'s columns: the
    primary metric marked, each verdict with the games it rests on and, when nothing was
    detected, the change those games would have detected with 80% power."""
    rows: list[tuple[str, ...]] = []
    for metric, entry in differences.items():
        for shown, item in entries(metric, entry):
            lo, hi = item["difference"]["ci95"]
            span = "" if lo is None or hi is None else f" ({lo:+.3g} to {hi:+.3g})"
            verdict = f"{item['verdict']}, {item['games']:,} games"
            if item["verdict"] == UNCHANGED and item.get("detectable") is not None:
                verdict += f" (80% power for ±{item['detectable']:.3g})"
            rows.append(
                (
                    f"{shown}, primary" if item.get("role") == PRIMARY else shown,
                    f"{item['baseline']:.4g}",
                    f"{item['variant']:.4g}",
                    f"{item['difference']['value']:+.3g}{span}",
                    _p(item["p_value"]),
                    "(alone)" if item.get("role") == PRIMARY else _p(item["p_adjusted"]),
                    verdict,
                )
            )
    return rows
