"""How many worlds a ``pimc`` decision gets within its budget, with and without inference.

Not a test: run it by hand, e.g. ``PYTHONPATH=src .venv/bin/python benchmarks/pimc_worlds.py
--deals 6`` (the source tree; nothing here is compiled). Note the machine's load beside the
figures: the budget is wall-clock time.

Each of ``--deals`` seeded Setback deals is played by the heuristic in all four seats; every
decision of seat 0 with a real choice (its bid, its cards) is then asked of ``pimc`` in three
settings — no inference, the auction weighed, the auction and the plays weighed (the
default) — each with the default budget (0.5 s, at most 200 worlds a card, bids as many as
fit; with the solver's compiled core built, bids are solved: see :mod:`tricktable.bots.pimc`).
Reported per setting: the mean worlds of a card decision (all, and the first trick's alone),
of a bid decision, the decisions no world was solved for, and the share of the time spent
weighing worlds.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time

from tricktable.bots import make_bot
from tricktable.bots.pimc import PimcBot
from tricktable.engine.trick import AUCTION, PLAY, TrickState
from tricktable.games import load_game

SETTINGS = {
    "none": {"inference": False},
    "auction": {"infer_plays": False},
    "auction+plays": {},
}


def decisions(seed: int, seat: int = 0) -> list[TrickState]:
    """The states of a heuristic-played deal where ``seat`` decides with a real choice."""
    game = load_game("setback")
    state = game.new_state(seed)
    state.deal()
    bots = [make_bot("heuristic") for _ in range(4)]
    for s, bot in enumerate(bots):
        bot.start_match(game, s, seed)
    found = []
    while state.phase in (AUCTION, PLAY):
        view = state.view(state.to_act)
        if state.to_act == seat and len(view.legal_actions()) > 1:
            found.append(state.clone())
        state.apply(bots[state.to_act].act(view))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=6)
    parser.add_argument("--clock", choices=("wall", "cpu"), default="wall")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    states = [s for seed in range(1, args.deals + 1) for s in decisions(seed)]
    out: dict[str, dict[str, float]] = {}
    for name, options in SETTINGS.items():
        cards: list[int] = []
        first: list[int] = []
        bids: list[int] = []
        spent = weighing = 0.0
        fallbacks = 0
        for state in states:
            bot = PimcBot(clock=args.clock, **options)  # type: ignore[arg-type]
            bot.start_match(state.game, state.to_act, 1)
            began = time.perf_counter()
            bot.act(state.view(state.to_act))
            spent += time.perf_counter() - began
            weighing += bot.inference_seconds
            fallbacks += bot.fallbacks
            if state.phase == AUCTION:
                bids.append(bot.last_worlds)
            else:
                cards.append(bot.last_worlds)
                if not state.tricks:
                    first.append(bot.last_worlds)
        out[name] = {
            "card_decisions": len(cards),
            "worlds_a_card": statistics.mean(cards),
            "worlds_first_trick": statistics.mean(first) if first else 0.0,
            "bid_decisions": len(bids),
            "worlds_a_bid": statistics.mean(bids) if bids else 0.0,
            "fallbacks": fallbacks,
            "weighing_share": weighing / spent if spent else 0.0,
            "seconds_a_decision": spent / len(states),
        }
    load = os.getloadavg()[0]
    if args.json:
        print(json.dumps({"load": load, "settings": out}))
        return
    print(
        f"{len(states)} decisions of seat 0 in {args.deals} Setback deals;"
        f" {args.clock} clock; load {load:.2f}"
    )
    for name, row in out.items():
        print(
            f"{name:>14}: {row['worlds_a_card']:5.1f} worlds a card"
            f" (first trick {row['worlds_first_trick']:4.1f}),"
            f" {row['worlds_a_bid']:5.1f} a bid; {row['fallbacks']:.0f} fallbacks;"
            f" weighing {100 * row['weighing_share']:4.1f}% of"
            f" {row['seconds_a_decision']:.3f} s a decision"
        )


if __name__ == "__main__":
    main()
