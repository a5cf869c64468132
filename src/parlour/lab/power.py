"""The power of the lab's paired comparison: how many games detect a change, and what change a
number of games detects.

``parlour lab compare`` tests each metric with a paired t-test on the games both rule sets
played (:func:`parlour.lab.stats.paired`): n differences d_i with mean delta and standard
deviation sd. Its two-sided test at level alpha rejects when |t| > t(1 - alpha/2, n - 1), and
when the true mean change is ``change`` the statistic follows the noncentral t distribution
with n - 1 degrees of freedom and noncentrality change * sqrt(n) / sd. The figures here are
computed from that distribution exactly (``scipy.stats.nct``), not from the normal
approximation, so they agree with the usual tables (a standardised change of 0.5 needs 34
pairs at 80% power, 0.2 needs 199).
"""

from __future__ import annotations

import math

__all__ = ["MAX_PAIRS", "detectable", "least_spread", "pairs_needed", "power"]

MAX_PAIRS = 2**31 - 1
"""The most pairs :func:`pairs_needed` looks at (a run's most games)."""


def _check(sd: float, alpha: float, target: float | None = None) -> None:
    if not (math.isfinite(sd) and sd > 0):
        raise ValueError(f"the spread of the differences must be above 0, not {sd}")
    if not 0 < alpha < 1:
        raise ValueError(f"the level alpha is between 0 and 1, not {alpha}")
    if target is not None and not alpha < target < 1:
        raise ValueError(f"the power is between alpha ({alpha}) and 1, not {target}")


def power(pairs: int, sd: float, change: float, alpha: float = 0.05) -> float:
    """The probability that the two-sided paired t-test at level ``alpha`` over ``pairs``
    differences of standard deviation ``sd`` finds a true mean change of ``change``.

    Raises:
        ValueError: fewer than 2 pairs, ``sd`` not above 0, ``alpha`` outside (0, 1).
    """
    _check(sd, alpha)
    if pairs < 2:
        raise ValueError(f"a paired t-test needs 2 pairs or more, not {pairs}")
    from scipy import stats  # here: an import of about 1.7 s, which only this needs

    dof = pairs - 1
    critical = float(stats.t.ppf(1 - alpha / 2, dof))
    shift = abs(change) * math.sqrt(pairs) / sd
    upper = float(stats.nct.sf(critical, dof, shift))
    # The far tail: T < -critical needs Z + shift < 0 (Z standard normal), so it is below
    # Phi(-shift); scipy gives nan for it only where shift is large and it is negligible.
    lower = float(stats.nct.cdf(-critical, dof, shift))
    return upper + (lower if math.isfinite(lower) else 0.0)


def pairs_needed(sd: float, change: float, target: float = 0.8, alpha: float = 0.05) -> int | None:
    """The fewest pairs (2 or more) with which the paired t-test at level ``alpha`` finds a
    true mean change of ``change`` with probability ``target`` or more, given differences of
    standard deviation ``sd``; None when even :data:`MAX_PAIRS` pairs do not.

    Raises:
        ValueError: ``change`` is 0 or not finite, ``sd`` not above 0, ``alpha`` outside (0, 1)
            or ``target`` outside (alpha, 1).
    """
    _check(sd, alpha, target)
    if not (math.isfinite(change) and change != 0):
        raise ValueError(f"the change to detect must be a number other than 0, not {change}")
    if power(MAX_PAIRS, sd, change, alpha) < target:
        return None
    # Power grows with the pairs: bisect between a count that falls short and one that does not.
    low, high = 1, 2
    while power(high, sd, change, alpha) < target:
        low, high = high, min(2 * high, MAX_PAIRS)
    while high - low > 1:
        middle = (low + high) // 2
        if power(middle, sd, change, alpha) >= target:
            high = middle
        else:
            low = middle
    return high


def least_spread(change: float) -> float:
    """sqrt(|c| (1 - |c|)): the least standard deviation of differences of -1, 0 and 1 (a game
    won or not, under each rule set) whose mean is ``c``. A rate moves by whole games: a change
    of c changes a share |c| of the games at least, however few games a pilot saw changed.
    (A win shared by k players moves by 1/k and may spread less; rare in the lab's games.)"""
    size = min(abs(change), 1.0)
    return math.sqrt(size * (1 - size))


def detectable(
    pairs: int, sd: float, target: float = 0.8, alpha: float = 0.05, *, rate: bool = False
) -> float | None:
    """The smallest true mean change (in the metric's unit, positive) that ``pairs``
    differences of standard deviation ``sd`` find with probability ``target`` at level
    ``alpha``; None for fewer than 2 pairs, or no spread (nothing to say). For a ``rate`` the
    differences of a change c spread by :func:`least_spread` (c) at least, whatever ``sd``.

    Raises:
        ValueError: ``alpha`` outside (0, 1) or ``target`` outside (alpha, 1).
    """
    _check(1.0, alpha, target)
    if pairs < 2 or not math.isfinite(sd) or sd < 0 or (sd == 0 and not rate):
        return None
    from scipy import optimize

    if rate:
        # Power grows with the change (the change over its least spread does), up to a
        # certain find at 1: bisect on (0, 1).
        def short(d: float) -> float:
            return power(pairs, max(sd, least_spread(d)), d, alpha) - target

        if short(1.0 - 1e-12) < 0:
            return None
        return float(optimize.brentq(short, 1e-12, 1.0 - 1e-12, xtol=1e-12, rtol=1e-10))
    # In units of sd: power is alpha at 0 and grows without bound; find where it is target.
    high = 1.0
    while power(pairs, 1.0, high, alpha) < target:
        high *= 2
    found = optimize.brentq(
        lambda d: power(pairs, 1.0, d, alpha) - target, 0.0, high, xtol=1e-12, rtol=1e-10
    )
    return float(found) * sd
