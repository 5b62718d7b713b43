"""The solver benchmark: positions per second, and the time to solve a hand, by game.

Not a test: run it by hand, e.g. ``PYTHONPATH=src .venv/bin/python benchmarks/solver_speed.py``
(the source tree), or ``--deals 20`` for a quick look, or ``--games hearts --cards 5,6,7,8``
for one game further back. See benchmarks/README.md and docs/solver.md.

**Both cores.** The solver searches in C (``search/solver/_dd.c``) where the extension is
built (``TRICKTABLE_SOLVER_ONLY=1 .venv/bin/python setup.py build_ext --inplace``), else in
Python; ``--cores c,python`` times each on the same positions (``--cards`` are the Hearts and
Spades starts for the C core, ``--python-cards`` for the Python one, far slower; Python gets
``--python-deals`` deals). A solve past ``--cap`` seconds is stopped and counted as the cap
(``over_cap`` says how many: the figures are then lower bounds).

**Setback** (RULES.md's options): each of ``--deals`` seeded deals is bid at random (a
thrown-in deal is dealt again) and its declarer's first card drawn at random among the legal
ones: in Setback that card names trump, so "a whole hand" means **the rest of the hand after
the first lead**, 23 cards. ``solve(state, declarer)`` gives the exact value of every reply.

**DDS** (``--cores dds``, Spades only): the bridge solver through endplay
(:mod:`tricktable.search.solver.dds`) values every card of the seat to play from the same
starts: the time of that one call, on every deal; ``modeled`` counts the deals where pimc and
``analyze`` take its answer (no nil open, no ten bags in reach; the rest are searched by the
project's solver or played out).

**Hearts and Spades**: a whole 13-card hand is far beyond a pure-Python solver (a dozen cards
a seat left already takes minutes on some deals), so each is timed **from the lead of a later
trick**: with ``k`` cards a seat left, for each ``k`` of ``--cards``. Seeded deals are played
at random up to that lead (Hearts' passes at random; Spades' bids from 1 to 4, nil one time in
ten, blind nil never); ``solve`` is asked for the leader's every card. For Spades the
report counts the deals the C core searched as a trick count (``trick_mode``: no nil open,
no bags past a ten in reach; the others by the value, docs/solver.md).

The report, per game and start: the median and 99th percentile of the time per solve (with
fewer than 100 deals the 99th percentile is near the maximum), the mean positions (nodes) per
solve, and positions per second over all of them (CPU time of this process).

``engine nodes/s`` is plain minimax through the engine's own ``push`` / ``undo`` (what the
solver's tests use as brute force) on Setback endings of two cards a seat: the reason the
solver keeps its own representation.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import sys
import time

from tricktable.cards import SPADES
from tricktable.engine.actions import BID
from tricktable.engine.phases import PLAY
from tricktable.engine.state import TrickState
from tricktable.games import load_game
from tricktable.games.setback import SetbackState
from tricktable.games.spades import SpadesState
from tricktable.search.solver import SolveTimeout, dds, fast, solve
from tricktable.search.solver.core import Search
from tricktable.search.solver.spades import SpadesRules


def first_lead(seed: int) -> TrickState:
    """A seeded Setback deal, bid at random, just after its first card."""
    rng = random.Random(seed)
    state = load_game("setback").new_state(seed)
    state.deal()
    while state.phase != PLAY:
        if state.needs_deal:
            state.deal()
            continue
        state.apply(rng.choice(state.legal_actions()))
    state.apply(rng.choice(state.legal_actions()))
    return state


def _bid(rng: random.Random, legal: list[int]) -> int:
    """A Spades bid from 1 to 4, nil one time in ten (the others' actions at random)."""
    if BID + 1 not in legal:
        return rng.choice(legal)  # a pass, a look...
    if BID in legal and rng.random() < 0.1:
        return BID
    return BID + rng.randint(1, 4)


def at_trick(spec: str, seed: int, cards: int) -> TrickState:
    """A seeded deal of ``spec`` played at random to the lead with ``cards`` cards a seat."""
    rng = random.Random(seed)
    state = load_game(spec).new_state(seed)
    state.deal()
    while state.phase != PLAY:
        state.apply(_bid(rng, state.legal_actions()))
    while state.trick or state.hands[state.to_act].bit_count() > cards:
        state.apply(rng.choice(state.legal_actions()))
    return state


def trick_counted(state: TrickState, seat: int) -> bool:
    """Whether the C core searches this Spades hand for ``seat`` as a trick count (no nil
    open, no bags past a ten in reach: :func:`~tricktable.search.solver.fast.trick_values`)."""
    assert isinstance(state, SpadesState)
    rules = SpadesRules(state, seat)
    kernel = rules.kernel
    return kernel is not None and fast.trick_values(Search(state, rules), kernel) is not None


def engine_rate(seconds: float) -> float:
    """Nodes per second of plain minimax with push/undo on two-card Setback endings."""
    nodes = 0

    def walk(state: TrickState) -> None:
        nonlocal nodes
        nodes += 1
        if state.phase != PLAY:
            return
        for card in state.legal_actions():
            state.push(card)
            walk(state)
            state.undo()

    start = time.process_time()
    seed = 0
    while time.process_time() - start < seconds:
        state = first_lead(seed)
        rng = random.Random(seed)
        while state.phase == PLAY and max(h.bit_count() for h in state.hands) > 2:
            state.apply(rng.choice(state.legal_actions()))
        if state.phase == PLAY:
            walk(state)
        seed += 1
    return nodes / (time.process_time() - start)


def timed(
    states: list[tuple[TrickState, int]], core: str, cap: float, raw: bool = False
) -> dict[str, object]:
    """Solve each (state, seat) with ``core``: the figures of the times (CPU seconds) and
    nodes; a solve past ``cap`` wall seconds counts as the cap. ``raw`` keeps every time
    (to merge runs made side by side)."""
    times: list[float] = []
    nodes: list[int] = []
    over = 0
    for state, seat in states:
        start = time.process_time()
        try:
            if core == "dds":
                leader = state.trick_leader if state.trick else state.to_act
                dds.future_tricks(state.hands, state.trick, leader, SPADES, state.step)
            else:
                result = solve(state, seat, time.perf_counter() + cap, core=core)
                nodes.append(result.nodes)
            times.append(time.process_time() - start)
        except SolveTimeout:
            over += 1
            times.append(max(cap, time.process_time() - start))
    ordered = sorted(times)
    p99 = ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]
    return {
        "deals": len(times),
        "median_s": round(statistics.median(times), 4),
        "p99_s": round(p99, 4),
        "max_s": round(ordered[-1], 4),
        "over_cap": over,
        "mean_nodes": round(statistics.mean(nodes)) if nodes else 0,
        "nodes_per_s": round(sum(nodes) / max(sum(times), 1e-9)),
        **({"times_s": [round(t, 5) for t in times]} if raw else {}),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=100, help="deals per game and start")
    parser.add_argument("--first-seed", type=int, default=0, help="the first deal's seed")
    parser.add_argument("--games", default="setback,hearts,spades")
    parser.add_argument(
        "--cores",
        default="c,python" if fast.available() else "python",
        help="the solver cores to time: c (where built), python, dds (Spades only)",
    )
    parser.add_argument(
        "--cards", default="13,10,7", help="Hearts and Spades, the C core: cards a seat to start"
    )
    parser.add_argument(
        "--python-cards", default="7,6,5", help="Hearts and Spades, the Python core: the same"
    )
    parser.add_argument("--python-deals", type=int, default=20, help="deals for the Python core")
    parser.add_argument("--cap", type=float, default=30.0, help="wall seconds a solve at most")
    parser.add_argument("--no-engine", action="store_true", help="skip the engine's rate")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--raw", action="store_true", help="and every solve's time")
    args = parser.parse_args(argv)
    games = [g.strip() for g in args.games.split(",") if g.strip()]
    cores = [c.strip() for c in args.cores.split(",") if c.strip()]
    if "c" in cores and not fast.available():
        parser.error("the C core is not built (see docs/solver.md)")
    if "dds" in cores and not dds.available():
        parser.error(dds.unavailable_reason())
    figures: dict[str, object] = {
        "load_before": os.getloadavg()[0],
        "python": platform.python_version(),
        "machine": platform.processor() or platform.machine(),
        "c_core_built": fast.available(),
    }
    for core in cores:
        deals = args.python_deals if core == "python" else args.deals
        cards = args.python_cards if core == "python" else args.cards
        starts = [int(k) for k in cards.split(",") if k.strip()]
        for game in games:
            if core == "dds" and game != "spades":
                continue  # DDS models Spades only
            if game == "setback":
                hands: list[tuple[TrickState, int]] = []
                for seed in range(args.first_seed, args.first_seed + deals):
                    state = first_lead(seed)
                    assert isinstance(state, SetbackState)
                    hands.append((state, state.declarer))
                label = f"{core}: setback: whole hand after the first lead"
                figures[label] = timed(hands, core, args.cap, args.raw)
            elif game in ("hearts", "spades"):
                for k in starts:
                    seeds = range(args.first_seed, args.first_seed + deals)
                    states = [(s, s.to_act) for s in (at_trick(game, seed, k) for seed in seeds)]
                    label = f"{core}: {game}: from the lead of trick {14 - k} ({k} cards a seat)"
                    figures[label] = found = timed(states, core, args.cap, args.raw)
                    if game == "spades" and core == "c":
                        found["trick_mode"] = sum(trick_counted(*pair) for pair in states)
                    if core == "dds":
                        found["modeled"] = sum(
                            dds.spades_values(*pair) is not None for pair in states
                        )
            else:
                parser.error(f"unknown game {game!r}: setback, hearts or spades")
    if not args.no_engine:
        figures["engine_nodes_per_s"] = round(engine_rate(3.0))
    figures["load_after"] = os.getloadavg()[0]
    if args.json:
        print(json.dumps(figures))
    else:
        for name, value in figures.items():
            print(f"{name}: {value}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
