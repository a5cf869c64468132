"""``parlour lab plan``: how many games a comparison needs to detect a change of a metric.

The question is the one ``parlour lab compare`` then answers: play N deals under the default
rules and under a variant and test the metric's paired difference (a paired t-test at level
alpha). Its power depends on the change sought and on the spread (standard deviation) of the
differences game by game, which a pilot measures:

- *paired*, from a pilot comparison (a compare file and one of its variants): the spread of
  the differences the variant made on the pilot's deals. The same deals make the two rule sets'
  games alike, so this spread is usually far below the unpaired one; it is the figure for that
  variant. A rate moves by whole games, so for a rate it is at least sqrt(|X| (1 - |X|)), the
  least spread of differences of -1, 0 and 1 whose mean is a change X (shared wins aside),
  however few games the pilot's variant changed.
- *unpaired*, from a pilot run of the default rules alone: the differences' variance is taken
  as the sum of the two rule sets' variances, as if the variant's games owed nothing to sharing
  the deals (the metric's variance for both; for a rate, p(1 - p) at the changed rate for the
  variant). Sharing the deals usually helps, so this is an upper bound in practice.

The games needed are the fewest pairs whose test has the asked power
(:func:`parlour.lab.power.pairs_needed`, exact under the noncentral t distribution), divided by
the share of the pilot's games that define the metric (``decided_at`` is undefined in a game
without a sole winner). A pilot of a few hundred games measures the spread well enough; the
answer is only as good as that estimate.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from parlour.core.game import JSON
from parlour.errors import InvalidOption
from parlour.lab.compare import Primary, paired_values
from parlour.lab.power import detectable, least_spread, pairs_needed
from parlour.lab.runspec import MAX_GAMES

__all__ = ["PAIRED", "UNPAIRED", "plan"]

PAIRED = "paired"
UNPAIRED = "unpaired"


def _round(x: float) -> float:
    return float(f"{x:.6g}")


def _spread(
    metric: Primary,
    change: float,
    base: Mapping[int, float],
    variant: Mapping[int, float] | None,
) -> tuple[float, int, float | None, float]:
    """The standard deviation of the differences to plan with, the pilot's pairs, the change
    the pilot observed (paired only) and the pilot's own spread (of the paired differences, or
    of the metric's values)."""
    label = metric.title
    values = np.array(list(base.values()))
    rate = metric.spec.aggregation == "rate"
    if rate and values.size:
        now = float(values.mean())
        if not 0 <= now + change <= 1:
            raise InvalidOption(
                f"--change: {label} is {now:.4g} in the pilot; a change of {change:+g} takes "
                "it outside 0 to 1"
            )
    if variant is not None:
        games = sorted(set(base) & set(variant))
        if len(games) < 2:
            raise InvalidOption(f"{label}: the pilot has {len(games)} paired game(s); 2 or more")
        differences = np.array([variant[i] - base[i] for i in games])
        seen = float(differences.std(ddof=1))
        # A rate moves by whole games: a change of c spreads the differences by sqrt(|c|
        # (1 - |c|)) or more, however few games the pilot's variant changed.
        spread = max(seen, least_spread(change)) if rate else seen
        if spread == 0:
            same = float(differences[0])
            raise InvalidOption(
                f"{label}: the variant changed none of the pilot's {len(games)} games; no "
                "spread to plan from (a larger pilot)"
                if same == 0
                else f"{label}: the variant changed every one of the pilot's {len(games)} "
                f"games by the same {same:+g}; no spread to plan from"
            )
        return spread, len(games), float(differences.mean()), seen
    if values.size < 2:
        raise InvalidOption(f"{label}: the pilot defines it in {values.size} game(s); 2 or more")
    variance = float(values.var(ddof=1))
    then = float(values.mean()) + change
    other = then * (1 - then) if rate else variance
    if variance + other == 0:
        raise InvalidOption(
            f"{label} is {float(values[0]):g} in every one of the pilot's {values.size} games; "
            "no spread to plan from (a larger pilot, or another metric)"
        )
    return math.sqrt(variance + other), int(values.size), None, math.sqrt(variance)


def plan(
    rows: Sequence[Mapping[str, Any]],
    metric: Primary,
    change: float,
    *,
    power: float = 0.8,
    alpha: float = 0.05,
    variant_rows: Sequence[Mapping[str, Any]] | None = None,
) -> dict[str, JSON]:
    """How many games of each rule set detect a true change of ``change`` (in the metric's
    unit) in ``metric`` with probability ``power`` at the two-sided level ``alpha``, from a
    pilot's game rows (``index`` and ``figures``): the default rules' ``rows``, and the
    variant's ``variant_rows`` (paired by index) for the paired spread.

    Returns ``{"metric", "entry", "unit", "change", "power", "alpha", "games", "pairs", "sd",
    "basis", "pilot": {"games", "defined", "value", "observed_change", "sd"}, "detectable"}``:
    ``games`` to play under each rule set (None: more than a run may hold), ``pairs`` the games
    defining the metric among them, ``sd`` the spread of the differences assumed, ``basis``
    ``paired`` or ``unpaired``, the pilot's games, the games defining the metric, its mean under
    the default rules, the change observed (paired only) and the pilot's own spread (of the
    paired differences, or of the metric's values), and ``detectable`` the smallest change the
    pilot's own games detect with that power.

    Raises:
        InvalidOption: ``change`` is 0 or not finite, ``power`` or ``alpha`` out of range, the
            pilot has fewer than 2 games defining the metric or no spread, or a rate changed
            beyond 0 to 1.
    """
    if not (math.isfinite(change) and change != 0):
        raise InvalidOption(f"--change: a change other than 0, got {change:g}")
    if not 0 < alpha < 1:
        raise InvalidOption(f"--alpha: a level between 0 and 1, got {alpha:g}")
    if not alpha < power < 1:
        raise InvalidOption(f"--power: between the level {alpha:g} and 1, got {power:g}")
    if not rows:
        raise InvalidOption("the pilot holds no finished game")
    key, seat = metric.spec.key, metric.seat
    base = paired_values(rows, key, seat)
    other = None if variant_rows is None else paired_values(variant_rows, key, seat)
    spread, pairs_seen, observed, seen = _spread(metric, change, base, other)
    pairs = pairs_needed(spread, change, power, alpha)
    # Games that leave the metric undefined count for nothing: play more to get the pairs.
    share = pairs_seen / len(rows)
    games = None if pairs is None else math.ceil(pairs / share)
    rate = metric.spec.aggregation == "rate"
    smallest = detectable(pairs_seen, spread, power, alpha, rate=rate)
    return {
        **metric.to_json(),
        "unit": metric.spec.unit,
        "change": change,
        "power": power,
        "alpha": alpha,
        "games": games if games is not None and games <= MAX_GAMES else None,
        "pairs": pairs,
        "sd": _round(spread),
        "basis": UNPAIRED if other is None else PAIRED,
        "pilot": {
            "games": len(rows),
            "defined": len(base),
            "value": _round(sum(base.values()) / len(base)),
            "observed_change": None if observed is None else _round(observed),
            "sd": _round(seen),
        },
        "detectable": None if smallest is None else _round(smallest),
    }
