"""The search benchmark: how fast states for search are made, at mid-hand positions.

Not a test: run it by hand, e.g. ``.venv/bin/python benchmarks/search_speed.py`` (the
installed, compiled copy, once it includes ``tricktable.search``) or
``PYTHONPATH=src .venv/bin/python benchmarks/search_speed.py`` (the source tree).

Positions are taken from seeded random matches of each game, halfway through a hand (Setback
after three of its six tricks, Hearts after six of thirteen), each at the decision of the seat
to act, from that seat's view. Each row times one operation over those positions, cycling
through them, for ``--seconds`` a cell, best of ``--runs``:

- ``determinize``: ``determinize(view, rng)``, a full state from a view made from scratch
  (knowledge, counting, sampling, replay);
- ``sample (prepared)``: ``Determinizer(view).sample(rng)`` with the determinizer made once per
  position, as a search drawing many worlds for one decision does;
- ``knowledge``: ``Knowledge(view)`` alone.

A new row is one entry in ``ROWS``: a name and a function that makes, from a position, the
callable to time (say a state's copy, or apply then undo).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from setback_speed import cpu_model  # this folder is on the path now

from tricktable.engine.trick import PLAY, TrickState, View
from tricktable.games import load_game

try:
    from tricktable.search import Determinizer, Knowledge, determinize
except ImportError:  # an installed copy older than the search package
    sys.exit(
        "tricktable.search is not in the installed copy: reinstall it (make), or run with "
        "PYTHONPATH=src to measure the source tree"
    )

#: the games measured by default, and how many tricks make "mid-hand" in each
MID_HAND = {"setback": 3, "hearts": 6}
#: positions per game (the timed operation cycles through them)
POSITIONS = 40


class Position:
    """One decision: the state, and the view of the seat to act."""

    def __init__(self, state: TrickState) -> None:
        self.state = state
        self.view: View = state.view(state.to_act)


def positions(spec: str, tricks: int, count: int) -> list[Position]:
    """Positions of ``spec`` with ``tricks`` tricks played, from seeded random matches."""
    out: list[Position] = []
    seed = 0
    while len(out) < count:
        state = load_game(spec).new_state(seed)
        rng = random.Random(seed)
        seed += 1
        for _hand in range(4):
            if state.is_over:
                break
            state.deal()
            while state.to_act >= 0:
                if state.phase == PLAY and len(state.tricks) == tricks and not state.trick:
                    # A snapshot: a later action must not change it (views were live once).
                    out.append(Position(state.clone()))
                state.apply(rng.choice(state.legal_actions()))
            if len(out) >= count or state.is_over:
                break
    return out[:count]


# ---------------------------------------------------------------------------- the rows


def make_determinize(position: Position) -> Callable[[], object]:
    rng = random.Random(1)
    view = position.view
    return lambda: determinize(view, rng)


def make_sample(position: Position) -> Callable[[], object]:
    rng = random.Random(1)
    sampler = Determinizer(position.view)
    return lambda: sampler.sample(rng)


def make_knowledge(position: Position) -> Callable[[], object]:
    view = position.view
    return lambda: Knowledge(view)


def make_copy(position: Position) -> Callable[[], object]:
    state = position.state
    return state.clone


def make_push_undo(position: Position) -> Callable[[], object]:
    # One card pushed and taken back: the search's step (a copy, so positions stay put).
    state = position.state.clone()
    card = state.legal_actions()[0]

    def step() -> None:
        state.push(card)
        state.undo()

    return step


#: (row name, what the row times: a maker of the callable from a position)
ROWS: list[tuple[str, Callable[[Position], Callable[[], object]]]] = [
    ("copy (clone)", make_copy),
    ("apply+undo (push, undo)", make_push_undo),
    ("determinize", make_determinize),
    ("sample (prepared)", make_sample),
    ("knowledge", make_knowledge),
]


def rate(calls: list[Callable[[], object]], seconds: float) -> float:
    """Calls per second, cycling through ``calls`` for about ``seconds``."""

    def cycle() -> Iterator[Callable[[], object]]:
        while True:
            yield from calls

    done = 0
    began = time.perf_counter()
    deadline = began + seconds
    feed = cycle()
    while True:
        for _ in range(len(calls)):
            next(feed)()
        done += len(calls)
        now = time.perf_counter()
        if now >= deadline:
            return done / (now - began)


def measured_copy() -> str:
    """Which tricktable this Python imports, and whether its engine is compiled."""
    import tricktable
    import tricktable.engine.trick as trick

    compiled = not (trick.__file__ or "").endswith(".py")
    return f"{Path(tricktable.__file__).parent} — {'compiled (mypyc)' if compiled else 'pure'}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default=",".join(MID_HAND), help="games, comma-separated")
    parser.add_argument("--seconds", type=float, default=1.0, help="time per cell and run")
    parser.add_argument("--runs", type=int, default=3, help="runs per cell (the best is kept)")
    parser.add_argument("--json", metavar="PATH", help="also write the figures as JSON")
    args = parser.parse_args()
    games = [g.strip() for g in args.games.split(",") if g.strip()]
    figures: dict[str, dict[str, float]] = {name: {} for name, _make in ROWS}
    for game in games:
        tricks = MID_HAND.get(load_game(game).name, 3)
        found = positions(game, tricks, POSITIONS)
        for name, make in ROWS:
            calls = [make(p) for p in found]
            figures[name][game] = max(rate(calls, args.seconds) for _ in range(args.runs))
    print(f"search speed, operations per second (best of {args.runs} x {args.seconds:g} s)")
    print(f"{cpu_model()}, {os.cpu_count()} cores, Python {platform.python_version()}")
    print(f"{measured_copy()}; load average {', '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(
        f"{POSITIONS} mid-hand positions a game: "
        + ", ".join(f"{g} after {MID_HAND.get(load_game(g).name, 3)} tricks" for g in games)
    )
    print()
    width = max(len(name) for name in figures)
    print(f"| {'what':<{width}} | " + " | ".join(f"{g:>10}" for g in games) + " |")
    print(f"|{'-' * (width + 2)}|" + "|".join("-" * 11 + ":" for _ in games) + "|")
    for name, row in figures.items():
        cells = " | ".join(f"{row[g]:>10,.0f}" for g in games)
        print(f"| {name:<{width}} | {cells} |")
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
