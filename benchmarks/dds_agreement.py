"""How often and by how much DDS's Spades values differ from the project's exact solver.

Not a test (tests/test_dds.py holds the fixed positions where the two must agree): run it by
hand, e.g. ``PYTHONPATH=src .venv/bin/python benchmarks/dds_agreement.py --positions 2000``.

Each position is a seeded Spades deal bid and played by the game's heuristic to a decision
with 6 to 10 cards a seat (drawn per position), anywhere in a trick, the seat to play asked.
DDS (:func:`tricktable.search.solver.dds.spades_values`) answers where it models the hand (no
nil open, no ten bags in reach); the exact solver (:func:`tricktable.search.solver.solve`)
answers every legal card. They can differ only by the lead rule (spades unbroken may not lead
unless only spades are held, which DDS does not know inside its search). Reported:

- ``modeled``: positions DDS answered, of ``positions``;
- ``same``: of those, every legal card's value equal;
- ``value_differs``: the position's value differs (and the mean and largest difference, in
  points of the hand's score difference);
- ``best_card_loses``: DDS's best card is not among the exact solver's best (a player
  following DDS would lose points there), and the mean and largest loss.

``--options`` gives the game's options (``break_spades=false`` must give ``same`` everywhere).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys

from tricktable.bots.search_base import other_phases_bot
from tricktable.engine.phases import PLAY
from tricktable.engine.state import TrickState
from tricktable.games import load_game
from tricktable.search.solver import dds, solve


def position(spec: str, seed: int) -> TrickState | None:
    """A seeded deal played by the heuristic to a decision of 6 to 10 cards a seat with more
    than one legal card (None when the hand never offers one)."""
    rng = random.Random(seed)
    game = load_game(spec)
    state = game.new_state(seed)
    state.deal()
    bots = [other_phases_bot(game) for _ in range(4)]
    for seat, bot in enumerate(bots):
        bot.start_match(game, seat, seed)
    cards = rng.randint(6, 10)
    inside = rng.randint(0, 3)
    while state.phase != PLAY or not (
        state.hands[state.to_act].bit_count() <= cards and len(state.trick) >= inside
    ):
        if state.results:
            return None
        state.apply(bots[state.to_act].act(state.view(state.to_act)))
    while len(state.legal_actions()) < 2:
        state.apply(bots[state.to_act].act(state.view(state.to_act)))
        if state.results or state.phase != PLAY:
            return None
    return state


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=2000)
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--options", default="", help='e.g. "break_spades=false"')
    args = parser.parse_args(argv)
    if not dds.available():
        parser.error(dds.unavailable_reason())
    spec = f"spades({args.options})" if args.options else "spades"
    modeled = same = 0
    value_gaps: list[int] = []
    losses: list[int] = []
    asked = 0
    for seed in range(args.first_seed, args.first_seed + args.positions):
        state = position(spec, seed)
        if state is None:
            continue
        asked += 1
        seat = state.to_act
        found = dds.spades_values(state, seat)
        if found is None:
            continue
        modeled += 1
        exact = solve(state, seat)
        if found.moves == exact.moves:
            same += 1
        if found.value != exact.value:
            value_gaps.append(abs(found.value - exact.value))
        chosen = min(found.best())
        loss = exact.value - exact.moves[chosen]
        if loss:
            losses.append(loss)
    figures = {
        "game": spec,
        "positions": asked,
        "modeled": modeled,
        "same": same,
        "value_differs": len(value_gaps),
        "value_gap_mean": round(statistics.mean(value_gaps), 2) if value_gaps else 0,
        "value_gap_max": max(value_gaps, default=0),
        "best_card_loses": len(losses),
        "loss_mean": round(statistics.mean(losses), 2) if losses else 0,
        "loss_max": max(losses, default=0),
    }
    print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
