"""95% intervals: of a mean (score per deal) and of a proportion (a win rate).

Pure Python: a duel or a tournament summarizes a few thousand numbers, and the standard
library's ``math`` is all that takes.

- :func:`summarize` (or a :class:`Accumulator` fed one value at a time) gives a
  :class:`Summary`: n, the mean, the sample standard deviation and the 95% interval of the mean.
  The interval uses Student's t with n - 1 degrees of freedom up to :data:`NORMAL_FROM` values
  and the normal quantile beyond, where the two differ by less than 0.12%; ``method`` says
  which was used.
- :func:`wilson` gives a :class:`Proportion`: the Wilson score interval of a rate, which,
  unlike the textbook p ± 1.96·√(p(1-p)/n), stays inside [0, 1] and does not collapse to a
  point at 0 or n successes.

>>> s = summarize([1.0, 2.0, 3.0, 4.0])
>>> (s.n, s.mean, round(s.sd, 4), round(s.low, 4), round(s.high, 4), s.method)
(4, 2.5, 1.291, 0.4457, 4.5543, 't')
>>> w = wilson(8, 10)
>>> (w.rate, round(w.low, 4), round(w.high, 4))
(0.8, 0.4902, 0.9433)
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final

from tricktable.errors import TricktableError

#: the two-sided 95% quantile of the standard normal distribution
Z95: Final = 1.959963984540054
#: the two-sided 95% quantiles of Student's t for 1 .. 29 degrees of freedom (index df - 1).
#: From 30 on, :func:`t95`'s Cornish-Fisher series is within 4e-8 of the exact value.
T95_TABLE: Final = (
    12.706205,
    4.302653,
    3.182446,
    2.776445,
    2.570582,
    2.446912,
    2.364624,
    2.306004,
    2.262157,
    2.228139,
    2.200985,
    2.178813,
    2.160369,
    2.144787,
    2.131450,
    2.119905,
    2.109816,
    2.100922,
    2.093024,
    2.085963,
    2.079614,
    2.073873,
    2.068658,
    2.063899,
    2.059539,
    2.055529,
    2.051831,
    2.048407,
    2.045230,
)
#: from this many values on, the interval of a mean uses the normal quantile (t(999) is
#: 1.9623, 0.12% above 1.9600): the convention for large samples, and what fishtest reports
NORMAL_FROM: Final = 1001


class IntervalError(TricktableError):
    """A summary asked of numbers that cannot give one (no values, a rate outside 0..n)."""


def t95(df: int) -> float:
    """The two-sided 95% quantile of Student's t with ``df`` degrees of freedom.

    >>> t95(1), t95(29), round(t95(30), 6), round(t95(120), 4)
    (12.706205, 2.04523, 2.042272, 1.9799)
    """
    if df < 1:
        raise IntervalError(f"Student's t needs at least 1 degree of freedom, got {df}")
    if df <= len(T95_TABLE):
        return T95_TABLE[df - 1]
    # The Cornish-Fisher expansion of t's quantile about the normal's, to the 1/df^4 term
    # (Abramowitz & Stegun 26.7.5): a table for every df would say nothing more.
    z, v = Z95, float(df)
    z3, z5, z7, z9 = z**3, z**5, z**7, z**9
    return (
        z
        + (z3 + z) / (4 * v)
        + (5 * z5 + 16 * z3 + 3 * z) / (96 * v**2)
        + (3 * z7 + 19 * z5 + 17 * z3 - 15 * z) / (384 * v**3)
        + (79 * z9 + 776 * z7 + 1482 * z5 - 1920 * z3 - 945 * z) / (92160 * v**4)
    )


@dataclass(frozen=True)
class Summary:
    """A sample of numbers summarized: ``n``, ``mean``, ``sd`` (the sample standard
    deviation, n - 1 in the denominator; 0 for one value) and the 95% interval of the mean
    [``low``, ``high``]. ``method`` is ``"t"`` (Student's t, n - 1 degrees of freedom) or
    ``"normal"`` (see :data:`NORMAL_FROM`); one value has no interval: ``low`` and ``high``
    are infinite and ``method`` is ``"none"``.
    """

    n: int
    mean: float
    sd: float
    low: float
    high: float
    method: str

    @property
    def half_width(self) -> float:
        """Half the interval's width: the mean is ``mean ± half_width``."""
        return (self.high - self.low) / 2

    def to_dict(self) -> dict[str, object]:
        """The summary as JSON-ready data (an interval that does not exist is null)."""
        return {
            "n": self.n,
            "mean": self.mean,
            "sd": self.sd,
            "low": self.low if math.isfinite(self.low) else None,
            "high": self.high if math.isfinite(self.high) else None,
            "method": self.method,
        }


class Accumulator:
    """A running mean and variance (Welford's method), fed one value at a time.

    Exact enough for millions of values, without keeping them: a duel summarizes its deals as
    they come in, and its SPRT reads the same running figures.
    """

    __slots__ = ("_m2", "mean", "n")

    def __init__(self) -> None:
        self.n = 0
        self.mean = 0.0
        self._m2 = 0.0  # the sum of squared deviations from the mean

    def add(self, value: float) -> None:
        """Count one more value."""
        self.n += 1
        delta = value - self.mean
        self.mean += delta / self.n
        self._m2 += delta * (value - self.mean)

    @property
    def variance(self) -> float:
        """The sample variance (n - 1 in the denominator); 0 for fewer than two values."""
        return self._m2 / (self.n - 1) if self.n > 1 else 0.0

    @property
    def population_variance(self) -> float:
        """The maximum-likelihood variance (n in the denominator); 0 for no values."""
        # Rounding can leave a hair below zero when every value is the same.
        return max(self._m2, 0.0) / self.n if self.n else 0.0

    def summary(self) -> Summary:
        """The :class:`Summary` of the values so far."""
        n = self.n
        if n == 0:
            raise IntervalError("no values to summarize")
        sd = math.sqrt(max(self.variance, 0.0))
        if n == 1:
            return Summary(1, self.mean, 0.0, -math.inf, math.inf, "none")
        if n >= NORMAL_FROM:
            quantile, method = Z95, "normal"
        else:
            quantile, method = t95(n - 1), "t"
        half = quantile * sd / math.sqrt(n)
        return Summary(n, self.mean, sd, self.mean - half, self.mean + half, method)


def summarize(values: Iterable[float]) -> Summary:
    """The :class:`Summary` (mean, sd and 95% interval of the mean) of ``values``."""
    acc = Accumulator()
    for value in values:
        acc.add(value)
    return acc.summary()


@dataclass(frozen=True)
class Proportion:
    """A rate with its 95% Wilson interval: ``successes`` of ``n`` (a draw may count a half),
    ``rate`` = successes / n, and [``low``, ``high``]."""

    n: int
    successes: float
    rate: float
    low: float
    high: float

    def to_dict(self) -> dict[str, object]:
        """The rate as JSON-ready data."""
        return {
            "n": self.n,
            "successes": self.successes,
            "rate": self.rate,
            "low": self.low,
            "high": self.high,
        }


def wilson(successes: float, n: int) -> Proportion:
    """The Wilson score 95% interval of ``successes`` out of ``n`` trials.

    center = (p + z²/2n) / (1 + z²/n), half width = z·√(p(1-p)/n + z²/4n²) / (1 + z²/n).

    >>> w = wilson(0, 20)
    >>> (w.rate, w.low, round(w.high, 4))
    (0.0, 0.0, 0.1611)
    """
    if n < 1:
        raise IntervalError(f"a rate needs at least one trial, got n={n}")
    if not 0 <= successes <= n:
        raise IntervalError(f"{successes} successes out of {n} trials is not a rate")
    z2 = Z95 * Z95
    p = successes / n
    scale = 1 + z2 / n
    center = (p + z2 / (2 * n)) / scale
    half = Z95 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / scale
    # At 0 or n successes the bound is exactly the rate; rounding must not push past it.
    return Proportion(n, successes, p, max(0.0, center - half), min(1.0, center + half))
