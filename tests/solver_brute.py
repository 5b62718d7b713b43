"""What the solver's tests compare it with: plain minimax through the engine itself (its own
``push``/``undo``, legal actions and scoring), and endings of real deals played at random."""

from __future__ import annotations

import random
from collections.abc import Callable

from tricktable.engine.phases import PLAY
from tricktable.engine.state import TrickState
from tricktable.games import load_game


def value_of(state: TrickState, change: list[int], seat: int) -> int:
    """The solver's value of a hand's score changes for ``seat``, as its docstring defines it:
    at any table, seat s playing for side ``s % sides``."""
    name = state.game.name
    if name == "hearts":  # each for themselves, lowest wins: the others' changes minus the seat's
        return sum(change) - len(change) * change[seat]
    side = seat % len(change)
    return 2 * change[side] - sum(change)  # the seat's side's change minus all the others'


def plays_for(state: TrickState, actor: int, seat: int) -> bool:
    """Whether ``actor`` plays for ``seat`` (its side) or against it (every other side)."""
    sides = state.game.num_scores
    return actor % sides == seat % sides


def brute(state: TrickState, seat: int, base: list[int]) -> int:
    """Plain minimax through the engine (the others against ``seat`` where each plays alone)."""
    if state.phase != PLAY:
        change = [a - b for a, b in zip(state.results[-1].scores, base, strict=True)]
        return value_of(state, change, seat)
    values = []
    for card in state.legal_actions():
        state.push(card)
        values.append(brute(state, seat, base))
        state.undo()
    return max(values) if plays_for(state, state.to_act, seat) else min(values)


def brute_moves(state: TrickState, seat: int) -> dict[int, int]:
    """Every legal card's value for ``seat`` by :func:`brute`."""
    base = state.scores[:]
    out = {}
    for card in state.legal_actions():
        state.push(card)
        out[card] = brute(state, seat, base)
        state.undo()
    return out


def brute_value(state: TrickState, seat: int) -> int:
    """The value of the position for ``seat`` by :func:`brute`."""
    moves = brute_moves(state, seat)
    best = max if plays_for(state, state.to_act, seat) else min
    return best(moves.values())


def ending(
    spec: str,
    seed: int,
    left: int,
    hands_before: int = 0,
    bid: Callable[[random.Random, list[int]], int] | None = None,
) -> TrickState:
    """A seeded random hand of ``spec`` played at random until each seat holds ``left`` cards
    or fewer (often in the middle of a trick), after ``hands_before`` whole hands played at
    random (bags, scores and the pass direction move on). ``bid`` picks each action before the
    play (random by default)."""
    rng = random.Random(seed)
    state = load_game(spec).new_state(seed)
    choose = bid or (lambda r, legal: r.choice(legal))
    for number in range(hands_before + 1):
        if state.is_over:  # a match ended by the hands before
            break
        state.deal()
        while state.phase != PLAY:
            if state.is_over:  # ended before the play (All Fours' kick counts out)
                return state
            if state.needs_deal:  # thrown in: deal again
                state.deal()
                continue
            state.apply(choose(rng, state.legal_actions()))
        last = number == hands_before
        while state.phase == PLAY and (not last or max(h.bit_count() for h in state.hands) > left):
            state.apply(rng.choice(state.legal_actions()))
    return state
