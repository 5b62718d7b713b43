"""What one decision of a player costs: the timing the benchmarks of strength share.

``decision_cost(spec, game, seed, hands)`` plays ``hands`` hands of ``game`` with ``spec`` in
seats 0 and 2 and the heuristic in 1 and 3, timing every decision of ``spec`` in this process's
CPU time (so that other work on a shared machine does not count), by kind: ``play`` (a card,
with a choice), ``other`` (any other phase with a choice: a bid, a pass of cards...) and
``forced`` (one legal action).
"""

from __future__ import annotations

import statistics
import time
from typing import Any

from tricktable.bots import make_bot
from tricktable.bots.base import Bot
from tricktable.engine.results import HandResult
from tricktable.engine.trick import PLAY, Game, View
from tricktable.runner import MatchSpec, run_match

KINDS = ("play", "other", "forced")


class Timed(Bot):
    """A bot whose every decision is timed, by kind (the wrapped bot plays)."""

    def __init__(self, inner: Bot) -> None:
        self.inner = inner
        self.name = inner.name
        self.times: dict[str, list[float]] = {kind: [] for kind in KINDS}

    def start_match(self, game: Game, seat: int, seed: int) -> None:
        super().start_match(game, seat, seed)
        self.inner.start_match(game, seat, seed)

    def act(self, view: View) -> int:
        began = time.process_time()
        action = self.inner.act(view)
        spent = time.process_time() - began
        if len(view.legal_actions()) == 1:
            kind = "forced"
        else:
            kind = "play" if view.phase == PLAY else "other"
        self.times[kind].append(spent)
        return action

    def end_hand(self, view: View, result: HandResult) -> None:
        self.inner.end_hand(view, result)

    def end_match(self, view: View) -> None:
        self.inner.end_match(view)

    def close(self) -> None:
        self.inner.close()


def decision_cost(spec: str, game: str, seed: int, hands: int) -> dict[str, Any]:
    """Decisions and mean and largest CPU seconds of ``spec``, by kind, and over all ("all")
    and over those with a choice ("choice")."""
    timed = {0: Timed(make_bot(spec)), 2: Timed(make_bot(spec))}
    match = MatchSpec(game, (spec, "heuristic", spec, "heuristic"), seed=seed, max_hands=hands)
    try:
        run_match(match, bots=timed)
    finally:
        for bot in timed.values():
            bot.close()
    out: dict[str, Any] = {"spec": spec}
    groups = {kind: timed[0].times[kind] + timed[2].times[kind] for kind in KINDS}
    groups["choice"] = groups["play"] + groups["other"]
    groups["all"] = groups["choice"] + groups["forced"]
    for kind, times in groups.items():
        out[kind] = {
            "decisions": len(times),
            "mean_seconds": statistics.fmean(times) if times else 0.0,
            "max_seconds": max(times, default=0.0),
        }
    return out
