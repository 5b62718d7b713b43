"""Where a random ``simulate`` run's time goes between the engine and the run's bookkeeping.

Plays the same hands three ways in one process, by CPU time, and prints hands a second:

- ``series+tally``: what ``simulate`` does (a :class:`~tricktable.simulate.Series` of matches,
  each counted by the :class:`~tricktable.simulate.Tally`: the statistics key of every hand);
- ``series``: the same matches, not counted;
- ``play_on``: the match loop alone, the same matches (their seeds derived beforehand), without
  the derivations and the referee's rounds.

The gaps are the tally's and the series' own work per hand. Short matches show them most:
random two-hand All Fours ends a match every 3.4 hands, Spades every 1.7.

    PYTHONPATH=BUILD .venv/bin/python benchmarks/simulate_split.py seven-up --hands 60000
"""

from __future__ import annotations

import argparse
import time

from tricktable.games import load_game
from tricktable.limits import RunnerOptions
from tricktable.match import play_on
from tricktable.runner import BotPool
from tricktable.seeds import Seeds
from tricktable.simulate import MAX_HANDS_PER_MATCH, Series, Tally


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("game", help="a game spec, e.g. seven-up or 'spades(players=3)'")
    parser.add_argument("--hands", type=int, default=30_000)
    parser.add_argument("--runs", type=int, default=2, help="each way this many times")
    args = parser.parse_args()
    game = load_game(args.game)
    players = ["random"] * game.num_players
    n = args.hands
    for _ in range(args.runs):
        series = Series(game, BotPool(), players, RunnerOptions())
        seeds = Seeds(1, "hands", 0)
        tally = Tally(game.num_scores)
        t = time.process_time()
        k = 0
        while tally.hands < n:
            state = series.play(seeds.of(k), min(n - tally.hands, MAX_HANDS_PER_MATCH))
            assert state is not None, "a match left the series (a fault)"
            tally.add_match(state)
            k += 1
        counted = time.process_time() - t
        t = time.process_time()
        hands = 0
        for i in range(k):
            state = series.play(seeds.of(i), min(n - hands, MAX_HANDS_PER_MATCH))
            assert state is not None
            hands += len(state.results)
        uncounted = time.process_time() - t
        bots, referee = series.bots, series.referee
        # The same matches again, their seeds derived beforehand: the same play, without the
        # derivations and the referee's rounds.
        matches = [seeds.of(i) for i in range(k)]
        seats = [[Seeds(seed, "seat").of(s) for s in range(len(bots))] for seed in matches]
        t = time.process_time()
        hands = 0
        for seed, seat_seeds in zip(matches, seats, strict=True):
            for seat, bot in enumerate(bots):
                bot.start_match(game, seat, seat_seeds[seat])
            quota = min(n - hands, MAX_HANDS_PER_MATCH)
            hands += len(play_on(game.new_state(seed), bots, None, quota, referee).results)
        bare = time.process_time() - t
        print(
            f"{args.game}: {k:,} matches, {n:,} hands; hands/s: series+tally {n / counted:,.0f}, "
            f"series {n / uncounted:,.0f}, play_on {hands / bare:,.0f}"
        )


if __name__ == "__main__":
    main()
