"""simulate's :class:`~tricktable.simulate.Series`: a chunk's matches played straight through the
match loop count exactly what ``run_match`` counts, and leave it every match that goes wrong."""

from __future__ import annotations

import pytest

from tricktable.bots.base import Bot
from tricktable.bots.random_bot import RandomBot
from tricktable.engine.trick import Game, View
from tricktable.games import load_game
from tricktable.limits import RunnerOptions
from tricktable.runner import BotPool, MatchSpec, run_match
from tricktable.seeds import Seeds, derive_seed
from tricktable.simulate import Chunk, Series, play_chunk


class Fumbler(Bot):
    """A random bot that raises at its fourth decision of each match (a random bot inside: the
    compiled RandomBot cannot be subclassed here)."""

    def __init__(self) -> None:
        self.random = RandomBot()
        self.decisions = 0

    def start_match(self, game: Game, seat: int, seed: int) -> None:
        super().start_match(game, seat, seed)
        self.random.start_match(game, seat, seed)
        self.decisions = 0

    def act(self, view: View) -> int:
        self.decisions += 1
        if self.decisions == 4:
            raise RuntimeError("fumbled")
        return self.random.act(view)


@pytest.mark.parametrize(
    ("spec", "players"), [("seven-up", 2), ("setback", 4), ("cinch", 4), ("spades", 4)]
)
def test_a_series_match_is_the_runners_match(spec: str, players: int) -> None:
    limits = RunnerOptions()
    names = ("random",) * players
    series = Series(load_game(spec), BotPool(), names, limits)
    for k in range(3):
        seed = derive_seed(9, "hands", 0, k)
        state = series.play(seed, 40)
        assert state is not None
        outcome = run_match(MatchSpec(spec, names, seed, limits, 40))
        assert outcome.state is not None
        assert state.results == outcome.state.results
        assert state.scores == outcome.state.scores
        assert [log.actions for log in state.history] == [
            log.actions for log in outcome.state.history
        ]


def test_a_fault_leaves_the_match_to_the_runner() -> None:
    limits = RunnerOptions()
    pool = BotPool()
    fumbler = pool._bots[(1, "random", limits)] = Fumbler()
    series = Series(load_game("seven-up"), pool, ("random", "random"), limits)
    assert series.play(derive_seed(3, "hands", 0, 0), 10) is None
    # The runner plays the match again with the same bots (and drops the one at fault).
    assert pool.bot(1, "random", limits) is fumbler
    assert series.bots == []


def test_a_chunk_counts_the_faults_the_runner_records(monkeypatch: pytest.MonkeyPatch) -> None:
    made: list[Fumbler] = []

    def fumbling_pool_bot(self: BotPool, seat: int, spec: str, limits: RunnerOptions) -> Bot:
        key = (seat, spec, limits)
        if key not in self._bots:
            bot = Fumbler() if seat == 0 and not made else RandomBot()
            if isinstance(bot, Fumbler):
                made.append(bot)
            self._bots[key] = bot
        return self._bots[key]

    monkeypatch.setattr(BotPool, "bot", fumbling_pool_bot)
    tally = play_chunk(Chunk(0, "seven-up", ("random", "random"), 1, "hands", 0, 30))
    assert tally.hands == 30
    # The first match's fault is recorded once (by run_match), its seat handed on.
    assert tally.faults.total == 1
    assert tally.faults.count == {0: 1}
    assert tally.faults.substituted == {(0, "heuristic"): 1}


@pytest.mark.parametrize("seed", [0, 1, 7, 2**62 + 12345, -3])
def test_seeds_are_derive_seeds(seed: int) -> None:
    seats = Seeds(seed, "seat")
    hands = Seeds(seed, "hands", 4)
    for last in range(12):
        assert seats.of(last) == derive_seed(seed, "seat", last)
        assert hands.of(last) == derive_seed(seed, "hands", 4, last)
