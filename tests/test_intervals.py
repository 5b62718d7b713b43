"""95% intervals of a mean and of a rate, checked against arithmetic done by hand."""

from __future__ import annotations

import doctest
import itertools
import math
import statistics

import pytest

from tricktable.analysis import intervals
from tricktable.analysis.intervals import (
    NORMAL_FROM,
    T95_TABLE,
    Z95,
    Accumulator,
    IntervalError,
    summarize,
    t95,
    wilson,
)


def test_the_examples_in_the_docstrings_hold() -> None:
    failed, tried = doctest.testmod(intervals)
    assert tried > 0 and failed == 0


def test_a_small_sample_uses_students_t() -> None:
    # 1, 2, 3, 4: mean 2.5; squared deviations 2.25 + 0.25 + 0.25 + 2.25 = 5, sd = √(5/3)
    # = 1.290994; t(3 df) = 3.182446, half width = 3.182446 · 1.290994 / √4 = 2.054260.
    s = summarize([1.0, 2.0, 3.0, 4.0])
    assert (s.n, s.mean, s.method) == (4, 2.5, "t")
    assert s.sd == pytest.approx(1.290994, abs=1e-6)
    assert s.half_width == pytest.approx(2.054260, abs=1e-6)
    assert (s.low, s.high) == (pytest.approx(0.445740, abs=1e-6), pytest.approx(4.554260, abs=1e-6))


def test_a_large_sample_uses_the_normal_quantile() -> None:
    # n values alternating 0 and 2: mean 1, sample variance n / (n - 1).
    def alternating(n: int) -> list[float]:
        return [float(2 * (i % 2)) for i in range(n)]

    below = summarize(alternating(NORMAL_FROM - 1))  # 1000 values: t with 999 df
    at = summarize(alternating(NORMAL_FROM))  # 1001: the normal's 1.959964
    assert below.method == "t" and at.method == "normal"
    n = NORMAL_FROM
    assert at.half_width == pytest.approx(Z95 * math.sqrt(n / (n - 1)) / math.sqrt(n))
    # t(999) = 1.962341: the two differ by 0.12%, so the switch moves the bounds by little.
    assert t95(999) == pytest.approx(1.962341, abs=1e-6)
    assert below.half_width / at.half_width == pytest.approx(1.962341 / Z95, rel=2e-3)


def test_t_quantiles_match_the_published_table_and_join_the_series_smoothly() -> None:
    # Published two-sided 95% values (any statistics table).
    published = {1: 12.706, 2: 4.303, 5: 2.571, 10: 2.228, 20: 2.086, 29: 2.045, 30: 2.042}
    for df, value in published.items():
        assert t95(df) == pytest.approx(value, abs=5e-4)
    assert len(T95_TABLE) == 29
    # The series takes over at 30 and falls on towards the normal quantile.
    values = [t95(df) for df in range(1, 400)]
    assert all(a > b for a, b in itertools.pairwise(values))
    assert t95(100_000) == pytest.approx(Z95, abs=1e-4)
    with pytest.raises(IntervalError):
        t95(0)


def test_one_value_has_no_interval_and_no_values_no_summary() -> None:
    s = summarize([3.5])
    assert (s.n, s.mean, s.sd, s.method) == (1, 3.5, 0.0, "none")
    assert math.isinf(s.low) and math.isinf(s.high)
    assert s.to_dict() == {
        "n": 1,
        "mean": 3.5,
        "sd": 0.0,
        "low": None,
        "high": None,
        "method": "none",
    }
    with pytest.raises(IntervalError, match="no values"):
        summarize([])


def test_identical_values_give_a_zero_width_interval() -> None:
    s = summarize([0.5] * 12)
    assert (s.mean, s.sd, s.low, s.high) == (0.5, 0.0, 0.5, 0.5)


def test_the_running_accumulator_agrees_with_the_statistics_module() -> None:
    values = [((i * 7919) % 23) / 3 - 2.5 for i in range(500)]
    acc = Accumulator()
    for v in values:
        acc.add(v)
    assert acc.n == 500
    assert acc.mean == pytest.approx(statistics.fmean(values), abs=1e-12)
    assert acc.variance == pytest.approx(statistics.variance(values), rel=1e-12)
    assert acc.population_variance == pytest.approx(statistics.pvariance(values), rel=1e-12)
    assert Accumulator().population_variance == 0.0 and Accumulator().variance == 0.0


def test_wilson_interval_by_hand() -> None:
    # 8 of 10: p = 0.8, z² = 3.841459; scale = 1 + z²/n = 1.384146;
    # center = (0.8 + z²/20) / scale = (0.8 + 0.192073) / 1.384146 = 0.716740;
    # half = z · √(0.8·0.2/10 + z²/400) / scale = 1.959964 · √(0.016 + 0.009604) / 1.384146
    #      = 1.959964 · 0.160011 / 1.384146 = 0.226576  →  [0.490164, 0.943316].
    w = wilson(8, 10)
    assert (w.n, w.successes, w.rate) == (10, 8, 0.8)
    assert w.low == pytest.approx(0.490164, abs=2e-6)
    assert w.high == pytest.approx(0.943316, abs=2e-6)


def test_wilson_stays_inside_zero_and_one_and_is_symmetric() -> None:
    # 0 of 20: center = half = (z²/40) / (1 + z²/20) = 0.096037 / 1.192073 = 0.080563,
    # so the interval is [0, 0.161126].
    none, every = wilson(0, 20), wilson(20, 20)
    assert none.low == 0.0 and none.high == pytest.approx(0.161126, abs=2e-6)
    assert every.high == 1.0 and every.low == pytest.approx(1 - none.high, abs=1e-12)
    half = wilson(5, 10)
    assert half.low == pytest.approx(1 - half.high, abs=1e-12)
    assert wilson(5.5, 10).rate == 0.55  # a draw counts a half
    assert wilson(3, 10).to_dict()["successes"] == 3


@pytest.mark.parametrize(("successes", "n"), [(1, 0), (-1, 10), (11, 10)])
def test_wilson_refuses_what_is_not_a_rate(successes: float, n: int) -> None:
    with pytest.raises(IntervalError):
        wilson(successes, n)
