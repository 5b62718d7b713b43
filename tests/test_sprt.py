"""The SPRT on paired differences, checked against arithmetic done by hand.

LLR = n · (d1 - d0) · (2·mean - d0 - d1) / (2·var), var the maximum-likelihood variance
(n in the denominator); lower = ln(beta / (1 - alpha)), upper = ln((1 - beta) / alpha).
"""

from __future__ import annotations

import doctest
import math

import pytest

from tricktable.analysis import sprt
from tricktable.analysis.sprt import Sprt, SprtError, SprtParams, Verdict, llr


def feed(test: Sprt, values: list[float]) -> list[tuple[float, Verdict]]:
    """The LLR and verdict after each value."""
    out = []
    for value in values:
        verdict = test.add(value)
        out.append((test.status().llr, verdict))
    return out


def test_the_examples_in_the_docstrings_hold() -> None:
    failed, tried = doctest.testmod(sprt)
    assert tried > 0 and failed == 0


def test_wald_bounds_for_five_percent_errors() -> None:
    # alpha = beta = 0.05: lower = ln(0.05 / 0.95) = -ln 19 = -2.944439, upper = ln 19.
    p = SprtParams(alpha=0.05, beta=0.05)
    assert p.lower == pytest.approx(-2.944439, abs=1e-6)
    assert p.upper == pytest.approx(2.944439, abs=1e-6)
    assert round(p.upper, 3) == 2.944
    # alpha = 0.05, beta = 0.1: lower = ln(0.1 / 0.95) = -2.251292, upper = ln(0.9 / 0.05)
    # = ln 18 = 2.890372.
    q = SprtParams(alpha=0.05, beta=0.1)
    assert q.lower == pytest.approx(-2.251292, abs=1e-6)
    assert q.upper == pytest.approx(2.890372, abs=1e-6)


def test_the_defaults() -> None:
    p = SprtParams()
    assert (p.d0, p.d1, p.alpha, p.beta, p.min_n) == (0.0, 0.1, 0.05, 0.05, 10)


def test_llr_by_hand() -> None:
    # 1, -1, 3, 1: mean 1, var = (0 + 4 + 4 + 0) / 4 = 2; d0 = 0, d1 = 0.1:
    # LLR = 4 · 0.1 · (2 - 0.1) / (2 · 2) = 0.76 / 4 = 0.19.
    test = Sprt(SprtParams(d0=0.0, d1=0.1))
    feed(test, [1.0, -1.0, 3.0, 1.0])
    status = test.status()
    assert (status.n, status.mean, status.variance) == (4, 1.0, 2.0)
    assert status.llr == pytest.approx(0.19)
    assert status.verdict is Verdict.CONTINUE
    # At the midpoint of d0 and d1 the evidence is even, whatever n: 1000 · 0.1 · 0 / 8 = 0;
    # at d1 itself: 1000 · 0.1 · (0.2 - 0.1) / (2 · 4) = 1.25.
    assert llr(1000, 0.05, 4.0, 0.0, 0.1) == 0.0
    assert llr(1000, 0.1, 4.0, 0.0, 0.1) == pytest.approx(1.25)


def test_a_run_that_accepts_h1() -> None:
    # d0 = 0, d1 = 1, min_n = 2; the differences 2, 0, 2, 0, 2:
    #   n=1: one value, no variance yet               LLR 0
    #   n=2: mean 1,   var 1:     2 · 1 · (2 - 1) / 2      = 1.0
    #   n=3: mean 4/3, var 8/9:   3 · (8/3 - 1) / (16/9)   = 5 · 9 / 16 = 2.8125
    #   n=4: mean 1,   var 1:     4 · 1 / 2                = 2.0
    #   n=5: mean 1.2, var 0.96:  5 · (2.4 - 1) / 1.92     = 3.645833 >= 2.944: H1
    test = Sprt(SprtParams(d0=0.0, d1=1.0, min_n=2))
    steps = feed(test, [2.0, 0.0, 2.0, 0.0, 2.0])
    assert [v for _, v in steps] == [Verdict.CONTINUE] * 4 + [Verdict.H1]
    assert [llr for llr, _ in steps] == pytest.approx([0.0, 1.0, 2.8125, 2.0, 3.645833], abs=1e-6)
    assert test.verdict is Verdict.H1 and test.n == 5


def test_a_run_that_accepts_h0() -> None:
    # The mirror image: -1, 1, -1, 1, -1 about d0 = 0 with d1 = 1:
    #   n=2: mean 0,    var 1:     2 · 1 · (0 - 1) / 2      = -1.0
    #   n=3: mean -1/3, var 8/9:   3 · (-2/3 - 1) / (16/9)  = -2.8125
    #   n=4: mean 0,    var 1:                                = -2.0
    #   n=5: mean -0.2, var 0.96:  5 · (-0.4 - 1) / 1.92    = -3.645833 <= -2.944: H0
    test = Sprt(SprtParams(d0=0.0, d1=1.0, min_n=2))
    steps = feed(test, [-1.0, 1.0, -1.0, 1.0, -1.0])
    assert [v for _, v in steps] == [Verdict.CONTINUE] * 4 + [Verdict.H0]
    assert [llr for llr, _ in steps] == pytest.approx(
        [0.0, -1.0, -2.8125, -2.0, -3.645833], abs=1e-6
    )


def test_h1_below_h0_tests_the_other_direction() -> None:
    # d0 = 0, d1 = -1: the differences -2, 0, -2, 0, -2 give the H1 run's ratios exactly
    # ((d1 - d0) and (2·mean - d0 - d1) both change sign).
    test = Sprt(SprtParams(d0=0.0, d1=-1.0, min_n=2))
    steps = feed(test, [-2.0, 0.0, -2.0, 0.0, -2.0])
    assert steps[-1] == (pytest.approx(3.645833, abs=1e-6), Verdict.H1)


def test_no_verdict_before_min_n_deals() -> None:
    test = Sprt(SprtParams(d0=0.0, d1=1.0))  # min_n 10
    steps = feed(test, [2.0, 0.0, 2.0, 0.0, 2.0])
    assert steps[-1][0] > test.params.upper  # past the bound, but too soon to believe it
    assert all(v is Verdict.CONTINUE for _, v in steps)
    # After ten: 2, 0 five times: mean 1, var 1, LLR = 10 · 1 · 1 / 2 = 5.
    steps = feed(test, [0.0, 2.0, 0.0, 2.0, 0.0])
    assert steps[-1] == (pytest.approx(5.0), Verdict.H1)


def test_zero_variance_divides_by_nothing() -> None:
    # Every difference 3 (nearer d1 = 1 than d0 = 0): the ratio's limit is +infinity, and
    # the verdict waits for min_n all the same.
    test = Sprt(SprtParams(d0=0.0, d1=1.0, min_n=3))
    steps = feed(test, [3.0, 3.0, 3.0])
    assert steps[0] == (0.0, Verdict.CONTINUE)  # one value: no variance to speak of
    assert steps[1] == (math.inf, Verdict.CONTINUE)
    assert steps[2] == (math.inf, Verdict.H1)
    assert test.status().to_dict()["llr"] is None  # JSON has no infinity
    # Every difference 0 (identical bots): -infinity, H0.
    same = Sprt(SprtParams(d0=0.0, d1=1.0, min_n=3))
    assert [v for _, v in feed(same, [0.0] * 3)][-1] is Verdict.H0
    # Exactly between d0 and d1: no evidence either way, ever.
    middle = Sprt(SprtParams(d0=0.0, d1=1.0, min_n=2))
    assert feed(middle, [0.5] * 50)[-1] == (0.0, Verdict.CONTINUE)


def test_a_finished_test_takes_no_more() -> None:
    test = Sprt(SprtParams(d0=0.0, d1=1.0, min_n=2))
    feed(test, [2.0, 0.0, 2.0, 0.0, 2.0])
    with pytest.raises(SprtError, match="accepted H1 after 5 deals"):
        test.add(1.0)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"alpha": 0.0}, "alpha must be between 0 and 1"),
        ({"beta": 1.0}, "beta must be between 0 and 1"),
        ({"alpha": 0.6, "beta": 0.5}, "alpha \\+ beta must be below 1"),
        ({"d0": 0.2, "d1": 0.2}, "two different numbers"),
        ({"d1": math.nan}, "two different numbers"),
        ({"min_n": 1}, "min_n must be at least 2"),
    ],
)
def test_bad_parameters_are_one_clear_error(options: dict[str, float], message: str) -> None:
    with pytest.raises(SprtError, match=message):
        SprtParams(**options)  # type: ignore[arg-type]
