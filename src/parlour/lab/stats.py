"""The lab's statistics: estimates with 95% intervals, a seat-balance test, paired comparisons of
rule variants, a survival curve of game length, and the lead history of one game.

Every estimate is an :class:`Interval` (value, lo, hi). Conventions shared by all functions:

- Intervals are two-sided 95% intervals.
- No data is an error (``ValueError``), except where a function says what it returns instead.
- One value measures no spread, so a mean or a bootstrap of a single value comes with the
  unbounded interval (-inf, inf): we know nothing about its uncertainty. ``to_json`` writes an
  infinite bound as ``null``, because JSON has no infinity.
- Values that are all equal measure zero spread: the interval is [value, value].
- Input values must be finite: a nan or an infinity in a game metric is a bug upstream, and
  would otherwise turn every figure of a report into nan.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import pairwise

import numpy as np
import numpy.typing as npt

from parlour.bots.arena import wilson

# scipy.stats is imported by the functions that call it, not here: importing it takes about
# 1.7 s of processor time, which every process that imports the lab's modules (a lab worker,
# the command line's other commands, each test process) would otherwise pay.

__all__ = [
    "Interval",
    "Paired",
    "SeatBalance",
    "bootstrap",
    "decided_at",
    "lead_changes",
    "mean",
    "paired",
    "rate",
    "seat_balance",
    "summary",
    "survival",
]

CONFIDENCE = 0.95
Z95 = 1.96  # the normal quantile of 0.975, as parlour.bots.arena.wilson uses it

Array = npt.NDArray[np.float64]


@dataclass(frozen=True, slots=True)
class Interval:
    """An estimate and its 95% interval. ``lo <= hi`` always; ``lo <= value <= hi`` for
    :func:`rate`, :func:`mean` and :func:`paired` (a percentile :func:`bootstrap` interval may
    miss a biased statistic's value). The floats are kept unrounded."""

    value: float
    lo: float
    hi: float

    def __post_init__(self) -> None:
        if not self.lo <= self.hi:
            raise ValueError(f"an interval needs lo <= hi, not [{self.lo}, {self.hi}]")

    def __str__(self) -> str:
        return f"{self.value:.4g} [{self.lo:.4g}, {self.hi:.4g}]"

    def to_json(self) -> dict[str, float | list[float | None] | None]:
        """``{"value": v, "ci95": [lo, hi]}`` with 6 significant digits; an infinite bound
        (the interval of a single value) is ``null``."""
        return {"value": _round(self.value), "ci95": [_round(self.lo), _round(self.hi)]}


def _round(x: float) -> float | None:
    """``x`` to 6 significant digits, or None when it is not finite (JSON has no infinity)."""
    return float(f"{x:.6g}") if math.isfinite(x) else None


def _finite(values: Sequence[float], what: str) -> Array:
    """The values as a float array; refuses none at all and any nan or infinity."""
    array = np.asarray(values, dtype=np.float64).reshape(-1)
    if array.size == 0:
        raise ValueError(f"{what} needs at least one value")
    if not np.all(np.isfinite(array)):
        raise ValueError(f"{what} needs finite values: {array[~np.isfinite(array)][0]} found")
    return array


def rate(successes: float, trials: int) -> Interval:
    """The proportion ``successes / trials`` with its Wilson score interval (z = 1.96), from
    :func:`parlour.bots.arena.wilson`. ``successes`` may be fractional: a win shared by k
    players counts 1/k to each. No trials gives 0.0 with the interval (0, 1): nothing is known.
    Raises ``ValueError`` if trials < 0 or successes is outside [0, trials]."""
    if trials < 0:
        raise ValueError(f"a rate needs trials >= 0, not {trials}")
    if not 0 <= successes <= trials:
        raise ValueError(f"a rate needs 0 <= successes <= trials, not {successes} of {trials}")
    if trials == 0:
        return Interval(0.0, 0.0, 1.0)
    value = successes / trials
    lo, hi = wilson(successes, trials, Z95)
    # The Wilson interval contains the proportion; min/max only undo rounding at 0 and 1.
    return Interval(value, min(lo, value), max(hi, value))


def _t_interval(array: Array) -> Interval:
    """The mean of a non-empty array with its Student t interval (see :func:`mean`)."""
    n = array.size
    if n == 1:
        return Interval(float(array[0]), -math.inf, math.inf)
    if np.all(array == array[0]):
        value = float(array[0])  # exact, where the float mean of equal values may drift
        return Interval(value, value, value)
    from scipy import stats

    centre = float(array.mean())
    quantile = float(stats.t.ppf((1 + CONFIDENCE) / 2, n - 1))
    half = quantile * float(array.std(ddof=1)) / math.sqrt(n)
    return Interval(centre, centre - half, centre + half)


def mean(values: Sequence[float]) -> Interval:
    """The mean with its Student t interval: mean ± t(0.975, n - 1) · s / √n, where s is the
    sample standard deviation (divisor n - 1). Right for any metric averaged over many
    independent games (lengths, scores), whatever its unit; the interval has the same unit.
    One value gives (-inf, inf); equal values give [value, value].
    Raises ``ValueError`` for no values or a value that is not finite."""
    return _t_interval(_finite(values, "a mean"))


def bootstrap(
    values: Sequence[float],
    statistic: Callable[[Array], float],
    seed: int,
    resamples: int = 2000,
) -> Interval:
    """``statistic(values)`` with a percentile bootstrap interval: the statistic is computed on
    ``resamples`` samples of n values drawn with replacement, and the interval runs from the
    2.5th to the 97.5th percentile of those (numpy's linear interpolation). For statistics with
    no formula of their own, such as a median or a p90 of game length.

    The draws come from ``numpy.random.default_rng(seed)``, one resample after another, so the
    same seed, values and resamples give the same interval (we draw ourselves rather than call
    ``scipy.stats.bootstrap`` so that a recorded report does not change with scipy's version).
    One value gives (-inf, inf). Raises ``ValueError`` for no values, a value that is not finite,
    or resamples < 1."""
    array = _finite(values, "a bootstrap")
    if resamples < 1:
        raise ValueError(f"a bootstrap needs resamples >= 1, not {resamples}")
    value = float(statistic(array))
    if array.size == 1:
        return Interval(value, -math.inf, math.inf)
    rng = np.random.default_rng(seed)
    draws = np.array(
        [float(statistic(array[rng.integers(0, array.size, array.size)])) for _ in range(resamples)]
    )
    lo, hi = np.percentile(draws, [100 * (1 - CONFIDENCE) / 2, 100 * (1 + CONFIDENCE) / 2])
    return Interval(value, float(lo), float(hi))


def summary(values: Sequence[float]) -> dict[str, float]:
    """Descriptive figures of a sample: count, mean, sd (divisor n - 1; 0.0 for one value),
    min, p10, p25, median, p75, p90 and max. Percentiles use numpy's default linear
    interpolation between order statistics (type 7 of Hyndman and Fan, as in R and Excel).
    Raises ``ValueError`` for no values or a value that is not finite."""
    array = _finite(values, "a summary")
    p10, p25, median, p75, p90 = (float(p) for p in np.percentile(array, [10, 25, 50, 75, 90]))
    return {
        "count": array.size,
        "mean": float(array.mean()),
        "sd": float(array.std(ddof=1)) if array.size > 1 else 0.0,
        "min": float(array.min()),
        "p10": p10,
        "p25": p25,
        "median": median,
        "p75": p75,
        "p90": p90,
        "max": float(array.max()),
    }


@dataclass(frozen=True, slots=True)
class SeatBalance:
    """A chi-square test of equal chances per seat: the statistic, its degrees of freedom
    (seats - 1) and the p-value (small: the seats do not win equally often)."""

    statistic: float
    dof: int
    p_value: float


def seat_balance(wins_by_seat: Sequence[float], games: int) -> SeatBalance:
    """Pearson's chi-square goodness-of-fit test (``scipy.stats.chisquare``) of the wins of each
    seat against equal chances: statistic = Σ (wins - e)² / e with e = total wins / seats, and
    seats - 1 degrees of freedom.

    The expected count comes from the wins, not from ``games``: a win shared by k seats counts
    1/k to each, and a capped game has no winner, so the wins may sum to less than the games.
    ``games`` only checks that they do not sum to more. With fractional wins the test is an
    approximation, as it is when fewer than about 5 wins per seat are expected.
    No wins at all give statistic 0.0 and p-value 1.0: no evidence of imbalance.
    Raises ``ValueError`` for fewer than two seats, negative or non-finite wins, or more wins
    than games."""
    wins = np.asarray(wins_by_seat, dtype=np.float64).reshape(-1)
    if wins.size < 2:
        raise ValueError(f"a seat balance needs two seats or more, not {wins.size}")
    if not np.all(np.isfinite(wins)) or np.any(wins < 0):
        raise ValueError(f"a seat balance needs finite wins >= 0, not {list(wins_by_seat)}")
    total = float(wins.sum())
    # Shared wins of 1/k are not exact in floats; allow their rounding.
    if total > games + 1e-9 * max(1, games):
        raise ValueError(f"{total:g} wins cannot come from {games} games")
    dof = wins.size - 1
    if total == 0:
        return SeatBalance(0.0, dof, 1.0)
    from scipy import stats

    result = stats.chisquare(wins)
    return SeatBalance(float(result.statistic), dof, float(result.pvalue))


@dataclass(frozen=True, slots=True)
class Paired:
    """The mean change b - a over pairs with its 95% interval, the paired t-test's two-sided
    p-value, and whether the change is significant (the interval excludes 0)."""

    diff: Interval
    p_value: float
    changed: bool


def paired(a: Sequence[float], b: Sequence[float]) -> Paired:
    """The mean of b[i] - a[i] with a paired t interval, for common random numbers: pair i is
    the same deal played under variant a and variant b, so the deal's own luck cancels and far
    fewer games show a difference. For 0/1 outcomes (won or not) this is the paired difference
    of two rates. The interval is :func:`mean`'s over the differences and the p-value is
    ``scipy.stats.ttest_rel``'s, so ``changed`` (the interval excludes 0) agrees with p < 0.05.

    If every difference is the same number d, there is no spread: the interval is [d, d], the
    p-value is 1.0 when d is 0 (nothing changed) and 0.0 otherwise. One pair gives the interval
    (-inf, inf), p-value 1.0 and changed False. Raises ``ValueError`` if a and b differ in
    length, are empty, or hold a value that is not finite."""
    first, second = _finite(a, "a paired comparison"), _finite(b, "a paired comparison")
    if first.size != second.size:
        raise ValueError(f"pairs need as many a as b, not {first.size} and {second.size}")
    differences = second - first
    diff = _t_interval(differences)
    if differences.size == 1:
        p_value = 1.0
    elif diff.lo == diff.hi:
        p_value = 1.0 if diff.value == 0 else 0.0
    else:
        from scipy import stats

        p_value = float(stats.ttest_rel(second, first).pvalue)
    return Paired(diff, p_value, diff.lo > 0 or diff.hi < 0)


def survival(lengths: Sequence[int], ended: Sequence[bool]) -> list[tuple[int, float]]:
    """The Kaplan-Meier estimate of how long games run, when some were stopped at a cap: game i
    lasted ``lengths[i]`` steps and either ended there (``ended[i]``) or was cut off there
    (censored: it would have run longer). Computed by ``scipy.stats.ecdf`` on right-censored
    data.

    Returns (length, fraction of games still running after that length), one pair per distinct
    length at which some game ended, in increasing order: the curve is 1 before the first
    length and steps down at each. At a length L the fraction is multiplied by 1 - d/n, where d
    games ended at L and n games lasted L or more (a game cut off at L counts as still running
    at L). No games, or none that ended, give []. Raises ``ValueError`` if the two sequences
    differ in length or a length is negative."""
    if len(lengths) != len(ended):
        raise ValueError(f"survival needs an ended flag per game: {len(lengths)} != {len(ended)}")
    if any(length < 0 for length in lengths):
        raise ValueError(f"game lengths cannot be negative: {min(lengths)}")
    if not any(ended):
        return []
    from scipy import stats

    data = stats.CensoredData.right_censored(
        np.asarray(lengths, dtype=np.float64), np.logical_not(np.asarray(ended, dtype=bool))
    )
    curve = stats.ecdf(data).sf
    # ecdf also steps (by a factor of 1) at the lengths where games were only cut off.
    event_lengths = {length for length, done in zip(lengths, ended, strict=True) if done}
    return [
        (int(length), float(fraction))
        for length, fraction in zip(curve.quantiles, curve.probabilities, strict=True)
        if int(length) in event_lengths
    ]


def lead_changes(leaders: Sequence[int | None]) -> int:
    """How many times the lead passed from one player to another. ``leaders[i]`` is the player
    leading alone after step i, or None when no single player leads (a tie). Ties are skipped:
    leaders 0, None, 1 count one change and 0, None, 0 count none, so a tie that is broken in
    favour of the same leader is not a change."""
    alone = [leader for leader in leaders if leader is not None]
    return sum(1 for before, after in pairwise(alone) if before != after)


def decided_at(leaders: Sequence[int | None], winner: int) -> int | None:
    """The first index i from which ``winner`` leads alone for good: ``leaders[j] == winner``
    for every j >= i (``leaders`` as in :func:`lead_changes`; a tie breaks the lead). Returns
    an index into ``leaders``, so 0 means the winner led from the first step on, and None when
    he does not lead alone after the last step (or there are no steps)."""
    start = len(leaders)
    while start > 0 and leaders[start - 1] == winner:
        start -= 1
    return start if start < len(leaders) else None
