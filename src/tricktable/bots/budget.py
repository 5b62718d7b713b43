"""The time budget of one search decision, on the wall clock or on the process's CPU clock.

A search bot stops sampling when the next sample, at the slowest pace seen so far in this
decision, would pass its budget (:meth:`Budget.allows`). The clock is the wall clock by default
(what a person at the table waits). ``clock="cpu"`` counts the process's own CPU time instead:
the time of *one core*, whatever else the machine runs, so a measurement on a shared, loaded
machine gives the bot what its budget buys on an idle core (the issue's "0.5 s per decision
on one core") rather than a fraction of it.

A solver called inside the budget looks at the wall clock (``perf_counter``) for its deadline;
with the CPU clock :meth:`Budget.solver_deadline` turns the CPU time left into a wall-clock
instant at the *pace* of wall to CPU time (at least 1): the pace seen in this decision once it
has run 10 ms of CPU time, before that the ``pace`` the caller passes (a bot keeps the last
decision's, :meth:`Budget.pace`; the first one guesses it from the load average), so a solve
that cannot finish is still abandoned.
"""

from __future__ import annotations

import os
import time
from typing import Final

#: the clocks a budget may count
CLOCKS: Final = ("wall", "cpu")


class Budget:
    """``seconds`` (None: no limit) from now, on ``clock`` ("wall" or "cpu")."""

    def __init__(
        self, seconds: float | None, clock: str = "wall", pace: float | None = None
    ) -> None:
        self.cpu = clock == "cpu"
        self.clock = time.process_time if self.cpu else time.perf_counter
        self.started = self.clock()
        self.wall_started = time.perf_counter()
        self.end = None if seconds is None else self.started + seconds
        self.slowest = 0.0
        self._began = 0.0
        self._pace = pace if pace is not None else load_pace()

    def allows(self) -> bool:
        """Whether another sample fits, at the slowest pace seen (starts timing it)."""
        self._began = began = self.clock()
        return self.end is None or began + self.slowest <= self.end

    def done(self) -> None:
        """The sample :meth:`allows` started is finished: note its time."""
        self.slowest = max(self.slowest, self.clock() - self._began)

    def solver_deadline(self) -> float | None:
        """The ``perf_counter`` instant a solve started now must end by (None: no limit)."""
        if self.end is None:
            return None
        if not self.cpu:
            return self.end
        cpu = self.clock()
        return time.perf_counter() + max(self.end - cpu, 0.0) * self.pace()

    def pace(self) -> float:
        """Wall-clock seconds a CPU second takes (at least 1; see the module)."""
        if not self.cpu:
            return 1.0
        used = self.clock() - self.started
        if used < 0.01:
            return self._pace
        return max((time.perf_counter() - self.wall_started) / used, 1.0)


def load_pace() -> float:
    """A guess of the wall time a CPU second takes now: the load average per core, at least 1."""
    try:
        load = os.getloadavg()[0]
    except OSError:
        return 1.0
    return max(load / (os.cpu_count() or 1), 1.0)


__all__ = ["CLOCKS", "Budget", "load_pace"]
