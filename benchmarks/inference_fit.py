"""Fits ``pimc``'s inference factors on data: how well the weighted worlds predict hidden cards.

Not a test: run it by hand, e.g. ``PYTHONPATH=src .venv/bin/python benchmarks/inference_fit.py
--deals 40`` (the source tree). The data are seeded deals played by ``--players`` (the
heuristic in every seat by default: the games the model was made from; ``beginner`` gives
players the model explains less well). At every decision of seat 0 with a real choice,
``--worlds`` worlds are sampled uniformly (:class:`~tricktable.search.determinize.Determinizer`)
and each is counted once by :meth:`~tricktable.search.inference.Inference.mismatches`: the
other seats' bids and cards the model would have made otherwise in it. A setting of the
factors (``bid_mismatch``, ``play_mismatch``) then weighs world *k* by
``bid ** bids_k * play ** plays_k``, which gives every hidden card a probability of lying where
it truly lies (the weighted share of the worlds that put it there). The score of a setting is
the mean log of that probability over every hidden card of every decision (a world-count
smoothing keeps it finite): the higher, the better the weights predict the cards. A factor of
1 is no inference; the grid's best is printed with the uniform baseline.
"""

from __future__ import annotations

import argparse
import json
import math
import random
from itertools import product

from tricktable.bots import make_bot
from tricktable.engine.trick import PLAY, TrickState, View
from tricktable.games import load_game
from tricktable.search.determinize import Determinizer
from tricktable.search.inference import Inference

GRID = (0.02, 0.05, 0.1, 0.25, 0.5, 0.75, 1.0)


def decisions(game_spec: str, seed: int, players: str, seat: int = 0) -> list[TrickState]:
    """The states of a deal where ``seat`` decides with a real choice, the others having
    acted before it (the first one skipped where nobody has acted yet)."""
    game = load_game(game_spec)
    state = game.new_state(seed)
    state.deal()
    bots = [make_bot(players) for _ in range(game.num_players)]
    for s, bot in enumerate(bots):
        bot.start_match(game, s, seed)
    found = []
    before = len(state.results)
    while len(state.results) == before:
        view = state.view(state.to_act)
        others = any(actor != seat for actor, _ in view.actions)
        if state.to_act == seat and others and len(view.legal_actions()) > 1:
            found.append(state.clone())
        state.apply(bots[state.to_act].act(view))
    return found


def observe(
    state: TrickState, worlds: int, rng: random.Random, inference: Inference
) -> tuple[list[tuple[int, int]], list[list[int]]]:
    """For one decision: each world's (bid, card) mismatch counts, and for every hidden card,
    which worlds put it where it truly is (a list of world indices per card)."""
    seat = state.to_act
    view: View = state.view(seat)
    sampler = Determinizer(view)
    where = _places(state, seat)
    counts: list[tuple[int, int]] = []
    right: dict[int, list[int]] = {card: [] for card in where}
    for k in range(worlds):
        world = sampler.sample(rng)
        counts.append(inference.mismatches(world, view))
        placed = _places(world, seat)
        for card, place in where.items():
            if placed.get(card, -1) == place:
                right[card].append(k)
    return counts, list(right.values())


def _places(state: TrickState, seat: int) -> dict[int, int]:
    """Each card in another seat's hand, with that seat."""
    out: dict[int, int] = {}
    for other, hand in enumerate(state.hands):
        if other == seat:
            continue
        card = 0
        while hand:
            if hand & 1:
                out[card] = other
            hand >>= 1
            card += 1
    return out


def score(
    data: list[tuple[list[tuple[int, int]], list[list[int]]]], bid: float, play: float
) -> float:
    """The mean log probability of the hidden cards' true places under the setting."""
    total = 0.0
    cards = 0
    for counts, right in data:
        weights = [bid**b * play**p for b, p in counts]
        whole = sum(weights)
        n = len(weights)
        for worlds in right:
            p = (sum(weights[k] for k in worlds) + 0.5 / n * whole) / (1.5 * whole)
            total += math.log(p)
            cards += 1
    return total / cards if cards else 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="setback")
    parser.add_argument("--deals", type=int, default=40)
    parser.add_argument("--worlds", type=int, default=60)
    parser.add_argument("--players", default="heuristic")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    game = load_game(args.game)
    model = make_bot("heuristic")
    model.start_match(game, 0, 1)
    inference = Inference(model, plays=True, max_weighed=10_000)
    rng = random.Random(1)
    data = []
    phases = {"auction": 0, "play": 0}
    for seed in range(1, args.deals + 1):
        for state in decisions(args.game, seed, args.players):
            phases["play" if state.phase == PLAY else "auction"] += 1
            data.append(observe(state, args.worlds, rng, inference))
    table = {(b, p): score(data, b, p) for b, p in product(GRID, GRID)}
    best = max(table, key=lambda k: (table[k], k))
    out = {
        "game": args.game,
        "players": args.players,
        "deals": args.deals,
        "decisions": phases,
        "worlds": args.worlds,
        "uniform": table[1.0, 1.0],
        "best": {"bid_mismatch": best[0], "play_mismatch": best[1], "score": table[best]},
        "default": table.get((0.25, 0.5)),
        "grid": {f"{b},{p}": round(v, 5) for (b, p), v in table.items()},
    }
    if args.json:
        print(json.dumps(out))
        return
    print(
        f"{args.game}, {args.deals} deals of {args.players}, {sum(phases.values())} decisions"
        f" ({phases}), {args.worlds} worlds each: mean log p(true place)"
    )
    print(f"  uniform (no inference) {out['uniform']:.4f}; 0.25/0.5 {out['default']:.4f}")
    print(f"  best: bid {best[0]}, play {best[1]}: {table[best]:.4f}")
    for b in GRID:
        print(f"  bid {b:<5}" + " ".join(f"{table[b, p]:8.4f}" for p in GRID))


if __name__ == "__main__":
    main()
