"""The lab's statistics (``lab/stats.py``) against values worked out by hand, with the arithmetic
beside each, and hypothesis properties for the invariants a report relies on."""

from __future__ import annotations

import json
import math
from itertools import pairwise

import numpy as np
import numpy.typing as npt
import pytest
from hypothesis import given
from hypothesis import strategies as st

from parlour.lab.stats import (
    Interval,
    Paired,
    SeatBalance,
    bootstrap,
    decided_at,
    lead_changes,
    mean,
    paired,
    rate,
    seat_balance,
    summary,
    survival,
)

Z2 = 1.96**2  # 3.8416
T4 = 2.776445  # t(0.975, 4 dof), from tables
finite = st.floats(min_value=-1e6, max_value=1e6, allow_nan=False)


def median(values: npt.NDArray[np.float64]) -> float:
    return float(np.median(values))


def two_sided_p_4_dof(t: float) -> float:
    """P(|T| > t) for Student's t with 4 degrees of freedom, in closed form:
    1 - t / √(t² + 4) · (1 + 2 / (t² + 4))."""
    return 1 - t / math.sqrt(t * t + 4) * (1 + 2 / (t * t + 4))


class TestInterval:
    def test_json_rounds_to_six_digits_and_keeps_the_raw_floats(self) -> None:
        interval = Interval(1 / 3, 0.1234567891, 0.9)
        assert interval.to_json() == {"value": 0.333333, "ci95": [0.123457, 0.9]}
        assert interval.value == 1 / 3 and interval.lo == 0.1234567891

    def test_an_unbounded_interval_is_strict_json(self) -> None:
        """JSON has no infinity: the bounds of a single value's interval are null."""
        data = Interval(7.0, -math.inf, math.inf).to_json()
        assert json.dumps(data, allow_nan=False) == '{"value": 7.0, "ci95": [null, null]}'

    def test_lo_above_hi_is_refused(self) -> None:
        with pytest.raises(ValueError, match="lo <= hi"):
            Interval(0.5, 0.6, 0.4)

    def test_str_is_value_and_bounds(self) -> None:
        assert str(Interval(0.7, 0.39677, 0.89221)) == "0.7 [0.3968, 0.8922]"


class TestRate:
    def test_wilson_seven_of_ten(self) -> None:
        """p = 0.7, z²/n = 0.38416, centre = (0.7 + 0.19208) / 1.38416 = 0.644492,
        half = 1.96 · √(0.021 + 0.009604) / 1.38416 = 0.247719: (0.396773, 0.892211)."""
        interval = rate(7, 10)
        assert interval.value == 0.7
        assert (interval.lo, interval.hi) == pytest.approx((0.396773, 0.892211), abs=1e-6)

    def test_shared_wins_are_fractional(self) -> None:
        """2.5 of 5: p = 0.5, the centre stays 0.5; z²/n = 0.76832,
        half = 1.96 · √(0.05 + 0.038416) / 1.76832 = 0.329580."""
        interval = rate(2.5, 5)
        assert (interval.value, interval.lo, interval.hi) == pytest.approx(
            (0.5, 0.170420, 0.829580), abs=1e-6
        )

    def test_no_successes_starts_at_zero(self) -> None:
        """0 of 10: lo = 0 and hi = (z²/n) / (1 + z²/n) = 0.38416 / 1.38416 = 0.277540."""
        interval = rate(0, 10)
        assert (interval.value, interval.lo) == (0.0, 0.0)
        assert interval.hi == pytest.approx(Z2 / 10 / (1 + Z2 / 10))

    def test_all_successes_ends_at_one(self) -> None:
        interval = rate(10, 10)
        assert (interval.value, interval.hi) == (1.0, 1.0)
        assert interval.lo == pytest.approx(1 - Z2 / 10 / (1 + Z2 / 10))

    def test_no_trials_is_zero_with_the_whole_range(self) -> None:
        assert rate(0, 0) == Interval(0.0, 0.0, 1.0)

    @pytest.mark.parametrize(("successes", "trials"), [(11, 10), (-1, 10), (0, -1)])
    def test_impossible_counts_are_refused(self, successes: float, trials: int) -> None:
        with pytest.raises(ValueError, match="rate needs"):
            rate(successes, trials)

    @given(st.integers(1, 10**6), st.floats(0, 1))
    def test_the_interval_holds_the_rate(self, trials: int, share: float) -> None:
        interval = rate(share * trials, trials)
        assert 0 <= interval.lo <= interval.value <= interval.hi <= 1


class TestMean:
    def test_t_interval_of_one_to_five(self) -> None:
        """Mean 3, s = √2.5 = 1.581139, half = 2.776445 · 1.581139 / √5 = 1.963243."""
        interval = mean([1, 2, 3, 4, 5])
        assert interval.value == 3
        half = T4 * math.sqrt(2.5) / math.sqrt(5)
        assert (interval.lo, interval.hi) == pytest.approx((3 - half, 3 + half), abs=1e-5)
        assert (interval.lo, interval.hi) == pytest.approx((1.0367, 4.9633), abs=1e-4)

    def test_two_values_use_one_degree_of_freedom(self) -> None:
        """0 and 10: mean 5, s = √50, t(0.975, 1) = 12.706205, half = 12.706205 · √50 / √2
        = 63.531024."""
        interval = mean([0, 10])
        assert (interval.lo, interval.hi) == pytest.approx((-58.531024, 68.531024), abs=1e-5)

    def test_one_value_has_an_unbounded_interval(self) -> None:
        assert mean([7]) == Interval(7.0, -math.inf, math.inf)

    def test_equal_values_have_no_spread(self) -> None:
        assert mean([0.1, 0.1, 0.1]) == Interval(0.1, 0.1, 0.1)

    def test_no_values_are_refused(self) -> None:
        with pytest.raises(ValueError, match="at least one value"):
            mean([])

    @pytest.mark.parametrize("bad", [math.nan, math.inf])
    def test_values_that_are_not_finite_are_refused(self, bad: float) -> None:
        with pytest.raises(ValueError, match="finite"):
            mean([1.0, bad])

    @given(st.lists(finite, min_size=1, max_size=50))
    def test_the_interval_holds_the_mean(self, values: list[float]) -> None:
        interval = mean(values)
        assert interval.lo <= interval.value <= interval.hi


class TestBootstrap:
    def test_a_seed_gives_the_same_interval(self) -> None:
        values = np.random.default_rng(5).exponential(size=200).tolist()
        assert bootstrap(values, median, seed=1) == bootstrap(values, median, seed=1)
        assert bootstrap(values, median, seed=1) != bootstrap(values, median, seed=2)

    def test_a_tight_sample_holds_its_median(self) -> None:
        values = (10 + np.random.default_rng(3).normal(0, 0.01, size=300)).tolist()
        interval = bootstrap(values, median, seed=7)
        assert interval.value == float(np.median(values))
        assert interval.lo < interval.value < interval.hi
        assert interval.hi - interval.lo < 0.01

    def test_two_values_span_both(self) -> None:
        """The mean of a resample of [0, 1] is 0, 0.5 or 1 with chances 1/4, 1/2, 1/4, so
        about 500 of 2000 resamples give 0 and 500 give 1: both 2.5% tails (50) sit on them."""
        assert bootstrap([0, 1], lambda v: float(v.mean()), seed=1) == Interval(0.5, 0.0, 1.0)

    def test_the_statistic_is_what_is_resampled(self) -> None:
        values = list(range(100))
        low = bootstrap(values, lambda v: float(v.min()), seed=1)
        high = bootstrap(values, lambda v: float(v.max()), seed=1)
        assert low.value == 0 and high.value == 99 and low.hi < high.lo

    def test_agrees_with_the_t_interval_for_a_mean(self) -> None:
        """For a large normal sample both intervals are about ±1.96 s/√n."""
        values = np.random.default_rng(11).normal(50, 5, size=400).tolist()
        boot = bootstrap(values, lambda v: float(v.mean()), seed=4)
        t = mean(values)
        assert boot.value == pytest.approx(t.value)
        assert boot.hi - boot.lo == pytest.approx(t.hi - t.lo, rel=0.15)

    def test_one_value_has_an_unbounded_interval(self) -> None:
        assert bootstrap([4.0], median, seed=1) == Interval(4.0, -math.inf, math.inf)

    def test_equal_values_have_no_spread(self) -> None:
        assert bootstrap([3.0] * 20, median, seed=1) == Interval(3.0, 3.0, 3.0)

    def test_no_values_or_no_resamples_are_refused(self) -> None:
        with pytest.raises(ValueError, match="at least one value"):
            bootstrap([], median, seed=1)
        with pytest.raises(ValueError, match="resamples"):
            bootstrap([1.0, 2.0], median, seed=1, resamples=0)

    @given(st.lists(finite, min_size=2, max_size=30), st.integers(0, 2**32))
    def test_a_mean_interval_stays_within_the_data(self, values: list[float], seed: int) -> None:
        """Every resample's mean lies between the smallest and largest value."""
        interval = bootstrap(values, lambda v: float(v.mean()), seed=seed, resamples=50)
        assert min(values) - 1e-6 <= interval.lo <= interval.hi <= max(values) + 1e-6


class TestSummary:
    def test_one_to_ten(self) -> None:
        """Percentiles interpolate at rank 1 + 9p: p10 at 1.9 -> 1.9, p25 at 3.25 -> 3.25,
        p75 at 7.75 -> 7.75, p90 at 9.1 -> 9.1. sd = √(82.5 / 9) = 3.027650."""
        figures = summary(list(range(1, 11)))
        assert figures == pytest.approx(
            {
                "count": 10,
                "mean": 5.5,
                "sd": math.sqrt(82.5 / 9),
                "min": 1,
                "p10": 1.9,
                "p25": 3.25,
                "median": 5.5,
                "p75": 7.75,
                "p90": 9.1,
                "max": 10,
            }
        )

    def test_one_value(self) -> None:
        figures = summary([4.0])
        assert figures["count"] == 1 and figures["sd"] == 0.0
        assert {figures[k] for k in ("min", "p10", "median", "p90", "max")} == {4.0}

    def test_no_values_are_refused(self) -> None:
        with pytest.raises(ValueError, match="at least one value"):
            summary([])


class TestSeatBalance:
    def test_thirty_twenty_ten(self) -> None:
        """Expected 20 each: (100 + 0 + 100) / 20 = 10 on 2 dof, p = exp(-10 / 2)."""
        balance = seat_balance([30, 20, 10], 60)
        assert (balance.statistic, balance.dof) == (10.0, 2)
        assert balance.p_value == pytest.approx(math.exp(-5))
        assert balance.p_value == pytest.approx(0.006738, abs=1e-6)

    def test_two_seats(self) -> None:
        """60 and 40: (100 + 100) / 50 = 4 on 1 dof, p = P(|Z| > 2) = erfc(√2) = 0.0455."""
        balance = seat_balance([60, 40], 100)
        assert (balance.statistic, balance.dof) == (4.0, 1)
        assert balance.p_value == pytest.approx(math.erfc(math.sqrt(2)))

    def test_games_without_a_winner_do_not_count(self) -> None:
        """20 capped games of 80: the expectation is still 60 wins / 3 seats."""
        assert seat_balance([30, 20, 10], 80).statistic == pytest.approx(10.0)

    def test_shared_wins_add_up_to_the_games(self) -> None:
        """Three games, one shared by all three seats: 2 + 1/3, 1/3 and 1/3 wins. e = 3 / 3 = 1,
        statistic = (4/3)² + (2/3)² + (2/3)² = 24/9 = 8/3."""
        balance = seat_balance([2 + 1 / 3, 1 / 3, 1 / 3], 3)
        assert balance.statistic == pytest.approx(8 / 3) and balance.dof == 2

    def test_equal_wins_are_balanced(self) -> None:
        assert seat_balance([20, 20, 20], 60) == SeatBalance(0.0, 2, 1.0)

    def test_no_wins_are_no_evidence(self) -> None:
        assert seat_balance([0, 0], 10) == SeatBalance(0.0, 1, 1.0)

    @pytest.mark.parametrize(
        ("wins", "games", "message"),
        [([10], 10, "two seats"), ([5, -1], 10, "finite"), ([6, 6], 10, "12 wins")],
    )
    def test_impossible_wins_are_refused(self, wins: list[float], games: int, message: str) -> None:
        with pytest.raises(ValueError, match=message):
            seat_balance(wins, games)


class TestPaired:
    def test_a_change_within_noise(self) -> None:
        """d = 1 2 0 1 3: mean 1.4, s² = 5.2 / 4 = 1.3, se = √(1.3 / 5) = 0.509902,
        half = 2.776445 · 0.509902 = 1.415714, t = 1.4 / 0.509902 = 2.745626 < 2.776445."""
        result = paired([1, 2, 3, 4, 5], [2, 4, 3, 5, 8])
        se = math.sqrt(1.3 / 5)
        assert result.diff.value == pytest.approx(1.4)
        assert (result.diff.lo, result.diff.hi) == pytest.approx(
            (1.4 - T4 * se, 1.4 + T4 * se), abs=1e-5
        )
        assert result.p_value == pytest.approx(two_sided_p_4_dof(1.4 / se))
        assert result.p_value > 0.05 and not result.changed

    def test_a_significant_change(self) -> None:
        """d = 1 2 1 1 3: mean 1.6, s² = 3.2 / 4 = 0.8, se = √(0.8 / 5) = 0.4, t = 4,
        p = 1 - 4/√20 · 1.1 = 0.016130; interval 1.6 ± 1.110578 excludes 0."""
        result = paired([1, 2, 3, 4, 5], [2, 4, 4, 5, 8])
        assert (result.diff.lo, result.diff.hi) == pytest.approx(
            (1.6 - T4 * 0.4, 1.6 + T4 * 0.4), abs=1e-5
        )
        assert result.p_value == pytest.approx(two_sided_p_4_dof(4.0))
        assert result.changed

    def test_wins_give_the_difference_of_rates(self) -> None:
        """Variant b wins all four deals, a wins two: 1 - 1/2 = 0.5."""
        assert paired([1, 0, 1, 0], [1, 1, 1, 1]).diff.value == 0.5

    def test_no_difference_at_all(self) -> None:
        assert paired([1, 2, 3], [1, 2, 3]) == Paired(Interval(0.0, 0.0, 0.0), 1.0, False)

    def test_the_same_difference_every_time(self) -> None:
        result = paired([1, 2, 3], [2, 3, 4])
        assert (result.diff, result.p_value, result.changed) == (Interval(1.0, 1.0, 1.0), 0.0, True)

    def test_one_pair_shows_nothing(self) -> None:
        result = paired([0], [1])
        assert (result.diff, result.p_value, result.changed) == (
            Interval(1.0, -math.inf, math.inf),
            1.0,
            False,
        )

    def test_unmatched_pairs_are_refused(self) -> None:
        with pytest.raises(ValueError, match="as many a as b"):
            paired([1, 2], [1])

    @given(st.lists(finite, min_size=1, max_size=40))
    def test_a_variant_against_itself_never_changes(self, values: list[float]) -> None:
        result = paired(values, values)
        assert not result.changed and result.diff.value == 0 and result.p_value == 1.0

    @given(st.lists(st.tuples(st.integers(0, 1), st.integers(0, 1)), min_size=2, max_size=60))
    def test_changed_agrees_with_the_p_value(self, pairs: list[tuple[int, int]]) -> None:
        a, b = [x for x, _ in pairs], [y for _, y in pairs]
        result = paired(a, b)
        assert result.diff.lo <= result.diff.value <= result.diff.hi
        if abs(result.p_value - 0.05) > 1e-9:
            assert result.changed == (result.p_value < 0.05)


class TestSurvival:
    def test_a_censored_sample(self) -> None:
        """Lengths 3 5 5+ 7 8+ 10+ (+: capped). At 3: 6 at risk, 1 ends: 5/6. At 5: 5 at risk
        (the capped 5 still counts), 1 ends: 5/6 · 4/5 = 2/3. At 7: 3 at risk: 2/3 · 2/3 = 4/9.
        No steps at 8 or 10, where games were only capped."""
        curve = survival([3, 5, 5, 7, 8, 10], [True, True, False, True, False, False])
        assert [length for length, _ in curve] == [3, 5, 7]
        assert [fraction for _, fraction in curve] == pytest.approx([5 / 6, 2 / 3, 4 / 9])

    def test_ties_end_together(self) -> None:
        """Three of four games end at 2: 1/4 still running; the last ends at 4."""
        assert survival([2, 2, 2, 4], [True] * 4) == [(2, 0.25), (4, 0.0)]

    def test_no_games_or_none_ended(self) -> None:
        assert survival([], []) == []
        assert survival([5, 9], [False, False]) == []

    def test_mismatched_or_negative_lengths_are_refused(self) -> None:
        with pytest.raises(ValueError, match="ended flag"):
            survival([1, 2], [True])
        with pytest.raises(ValueError, match="negative"):
            survival([-1], [True])

    @given(st.lists(st.tuples(st.integers(0, 30), st.booleans()), max_size=40))
    def test_the_curve_falls_from_one(self, games: list[tuple[int, bool]]) -> None:
        curve = survival([n for n, _ in games], [e for _, e in games])
        fractions = [1.0] + [f for _, f in curve]
        assert all(0 <= after <= before for before, after in pairwise(fractions))
        assert [n for n, _ in curve] == sorted({n for n, e in games if e})

    @given(st.lists(st.integers(0, 30), min_size=1, max_size=40))
    def test_without_caps_it_is_the_share_still_running(self, lengths: list[int]) -> None:
        curve = survival(lengths, [True] * len(lengths))
        for length, fraction in curve:
            assert fraction == pytest.approx(sum(n > length for n in lengths) / len(lengths))


class TestLeads:
    @pytest.mark.parametrize(
        ("leaders", "changes"),
        [
            ([], 0),
            ([0, 0, 0], 0),
            ([0, 0, 1, 1, 0], 2),
            ([0, None, 1], 1),
            ([0, None, 0], 0),
            ([None, None], 0),
            ([None, 2, 1, None, None, 2], 2),
        ],
    )
    def test_lead_changes(self, leaders: list[int | None], changes: int) -> None:
        assert lead_changes(leaders) == changes

    @pytest.mark.parametrize(
        ("leaders", "winner", "step"),
        [
            ([0, 1, 1, None, 1, 1], 1, 4),
            ([0, 1, 1, None, 1, 1], 0, None),
            ([1, 1, 1], 1, 0),
            ([1, 1, None], 1, None),
            ([0, 0, 1], 1, 2),
            ([], 0, None),
        ],
    )
    def test_decided_at(self, leaders: list[int | None], winner: int, step: int | None) -> None:
        assert decided_at(leaders, winner) == step
