"""A sequential probability ratio test (SPRT) on paired score differences, as fishtest runs.

Two bots play the same deals with the seats swapped; each deal gives one number, the
difference of their scores (see :mod:`tricktable.analysis.duel`). The test weighs two
hypotheses about the mean of that difference, in points per deal:

- H0: the mean is ``d0`` (by default 0: the bots are equal);
- H1: the mean is ``d1`` (by default 0.1: the first bot is better by a small but real margin).

After each deal it computes the log-likelihood ratio of H1 to H0 under a normal model whose
variance is estimated from the sample — the *generalized* SPRT that fishtest uses::

    LLR = n · (d1 - d0) · (2·mean - d0 - d1) / (2·var)

(the log of the ratio of two normal likelihoods with means d1 and d0 and the maximum-likelihood
variance ``var``, n in its denominator). The test stops, by Wald's bounds, when

    LLR <= lower = ln(beta / (1 - alpha))   → H0 accepted
    LLR >= upper = ln((1 - beta) / alpha)   → H1 accepted

so that it wrongly accepts H1 with probability about ``alpha`` when H0 holds, and wrongly
accepts H0 with probability about ``beta`` when H1 holds. With alpha = beta = 0.05 the bounds
are ±2.944.

Two guards keep the variance estimate honest: no verdict comes before ``min_n`` deals (a
handful of deals can agree by chance and show almost no variance), and a variance of exactly
zero (every difference the same: identical bots give 0 on every deal) makes the ratio the
limit of the formula — infinite towards the nearer hypothesis, 0 at the midpoint — rather
than a division by zero.

Why the defaults (d0 = 0, d1 = 0.1 points per deal) suit Setback: a match to 21 lasts about
14 hands, and the difference of the two sides' scores moves about 3.3 points a hand (heuristic
bots, measured), so an edge of 0.1 point a hand is about 1.4 points a match against a spread
of about 12: some 54–55% of the matches. That is the size of change a bot author makes and
wants to see; with the paired difference's deviation of about 2 points the test then needs a
few thousand deals on average (about 6·sd²/(d1 - d0)²). Other games score in other units
(Hearts: 26 a hand): choose ``d1`` in theirs.

>>> test = Sprt(SprtParams(d0=0.0, d1=1.0, min_n=2))
>>> [test.add(x).value for x in (2.0, 0.0, 2.0, 0.0, 2.0)]
['continue', 'continue', 'continue', 'continue', 'H1']
>>> round(test.status().llr, 4)
3.6458
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import StrEnum

from tricktable.analysis.intervals import Accumulator
from tricktable.errors import TricktableError


class SprtError(TricktableError):
    """Bad parameters of a test, or a difference fed to a test that has already decided."""


class Verdict(StrEnum):
    """Where a test stands: still running, or which hypothesis it accepted."""

    CONTINUE = "continue"
    H0 = "H0"
    H1 = "H1"


@dataclass(frozen=True)
class SprtParams:
    """The hypotheses and error rates of a test (see the module for the defaults).

    ``d0`` and ``d1`` are the mean differences (points per deal) of H0 and H1; ``alpha`` the
    chance of accepting H1 when H0 holds, ``beta`` of accepting H0 when H1 holds; ``min_n``
    the deals before any verdict.
    """

    d0: float = 0.0
    d1: float = 0.1
    alpha: float = 0.05
    beta: float = 0.05
    min_n: int = 10

    def __post_init__(self) -> None:
        for name in ("alpha", "beta"):
            value = getattr(self, name)
            if not 0 < value < 1:
                raise SprtError(f"{name} must be between 0 and 1 (exclusive), got {value}")
        if self.alpha + self.beta >= 1:
            # Otherwise the lower bound is not below the upper one and the test means nothing.
            raise SprtError(f"alpha + beta must be below 1, got {self.alpha} + {self.beta}")
        if not (math.isfinite(self.d0) and math.isfinite(self.d1)) or self.d0 == self.d1:
            raise SprtError(f"d0 and d1 must be two different numbers, got {self.d0}, {self.d1}")
        if self.min_n < 2:
            raise SprtError(
                f"min_n must be at least 2 (a variance needs two deals), got {self.min_n}"
            )

    @property
    def lower(self) -> float:
        """Wald's lower bound, ln(beta / (1 - alpha)): at or below it H0 is accepted."""
        return math.log(self.beta / (1 - self.alpha))

    @property
    def upper(self) -> float:
        """Wald's upper bound, ln((1 - beta) / alpha): at or above it H1 is accepted."""
        return math.log((1 - self.beta) / self.alpha)


def llr(n: int, mean: float, variance: float, d0: float, d1: float) -> float:
    """The log-likelihood ratio of H1 (mean ``d1``) to H0 (mean ``d0``) of ``n`` normal values
    with this ``mean`` and maximum-likelihood ``variance``.

    Fewer than two values say nothing of the variance: 0. A variance of zero gives the
    formula's limit: ±infinity towards the hypothesis the mean is nearer, 0 when it is
    exactly between them.

    >>> llr(4, 1.0, 2.0, 0.0, 0.1)  # 4 · 0.1 · (2 - 0.1) / (2 · 2)
    0.19
    >>> llr(3, 3.0, 0.0, 0.0, 1.0), llr(3, 0.5, 0.0, 0.0, 1.0)
    (inf, 0.0)
    """
    weight = (d1 - d0) * (2 * mean - d0 - d1)
    if n < 2 or weight == 0:
        return 0.0
    if variance <= 0:
        return math.copysign(math.inf, weight)
    return n * weight / (2 * variance)


@dataclass(frozen=True)
class SprtStatus:
    """A test as it stands: ``n`` differences, their ``mean`` and maximum-likelihood
    ``variance``, the ``llr``, the bounds and the ``verdict``."""

    n: int
    mean: float
    variance: float
    llr: float
    lower: float
    upper: float
    verdict: Verdict

    def to_dict(self) -> dict[str, object]:
        """The status as JSON-ready data (an infinite LLR, from zero variance, is null)."""
        return {
            "n": self.n,
            "mean": self.mean,
            "variance": self.variance,
            "llr": self.llr if math.isfinite(self.llr) else None,
            "lower": self.lower,
            "upper": self.upper,
            "verdict": self.verdict.value,
        }


class Sprt:
    """A running test: feed it one paired difference at a time with :meth:`add`.

    Once it has accepted a hypothesis it is finished; adding another difference is an error
    (the stopping rule is what gives the error rates their meaning).
    """

    def __init__(self, params: SprtParams | None = None) -> None:
        self.params = params if params is not None else SprtParams()
        self._acc = Accumulator()
        self._llr = 0.0
        self.verdict = Verdict.CONTINUE

    @property
    def n(self) -> int:
        """How many differences the test has seen."""
        return self._acc.n

    def add(self, difference: float) -> Verdict:
        """Count one more paired difference; the verdict after it."""
        if self.verdict is not Verdict.CONTINUE:
            raise SprtError(
                f"the test accepted {self.verdict.value} after {self.n} deals; it takes no more"
            )
        acc, p = self._acc, self.params
        acc.add(difference)
        self._llr = llr(acc.n, acc.mean, acc.population_variance, p.d0, p.d1)
        if acc.n >= p.min_n:
            if self._llr >= p.upper:
                self.verdict = Verdict.H1
            elif self._llr <= p.lower:
                self.verdict = Verdict.H0
        return self.verdict

    def status(self) -> SprtStatus:
        """The test as it stands now."""
        acc, p = self._acc, self.params
        return SprtStatus(
            acc.n, acc.mean, acc.population_variance, self._llr, p.lower, p.upper, self.verdict
        )
