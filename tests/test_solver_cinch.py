"""The perfect-information solver on Cinch and its presets (search/solver/cinch.py): exact
against brute force through the engine at every table the family seats.

``solve``'s dispatch may not name Cinch yet: these tests call its solver directly."""

from __future__ import annotations

import pytest

from solver_brute import brute_moves, ending, plays_for
from tricktable.engine.phases import PLAY
from tricktable.search.solver.cinch import solve_cinch
from tricktable.search.solver.core import check_play

SPECS = [
    "cinch",
    "cinch-cutthroat",
    "three-hand-cinch",
    "five-hand-cinch",
    "six-hand-cinch",
    "pedro-sancho",
    "dom-pedro",  # a joker worth 15
    "catch-five",
    "nine-five",
    "cinch(scoring=difference,low_to=held)",
    "cinch(players=2,partners=false)",
]


@pytest.mark.parametrize("spec", SPECS)
def test_equal_to_brute_force(spec: str) -> None:
    checked = 0
    for seed in range(6):
        state = ending(spec, seed, 2 if spec != "cinch(players=2,partners=false)" else 4)
        if state.phase != PLAY:
            continue
        check_play(state)
        for seat in range(min(state.n, 3)):
            result = solve_cinch(state, seat, None)
            moves = brute_moves(state, seat)
            assert result.moves == moves, (spec, seed, seat)
            best = max if plays_for(state, state.to_act, seat) else min
            assert result.value == best(moves.values())
            checked += 1
    assert checked


def test_from_the_first_lead_equals_brute_force() -> None:
    # The whole play of a short hand, the bidder to lead.
    for seed in range(3):
        state = ending("cinch(play_size=3,hand_size=9)", seed, 9)
        if state.phase == PLAY:
            assert not state.won[0] and not state.trick
            assert solve_cinch(state, 1, None).moves == brute_moves(state, 1)
