"""The perfect-information solver on All Fours and its presets (search/solver/all_fours.py):
exact against brute force through the engine at every table, with the count-out.

``solve``'s dispatch may not name All Fours yet: these tests call its solver directly."""

from __future__ import annotations

import pytest

from solver_brute import brute_moves, ending, plays_for
from tricktable.engine.phases import PLAY
from tricktable.games.all_fours import AllFoursState
from tricktable.search.solver.all_fours import hand_change, solve_all_fours
from tricktable.search.solver.core import check_play

SPECS = [
    "seven-up",
    "old-sledge",
    "english-all-fours",
    "all-fours-partnership",
    "three-hand-all-fours",
    "cutthroat-all-fours",
    "trinidad-all-fours",  # four seats to the right, hang jack
    "all-twos",
    "all-fours-no-begging",
    "all-fours(low_to=captured,count_out=false)",
    "all-fours(players=6,partners=3x2)",
    "all-fours(players=5,partners=false,direction=right)",
]


@pytest.mark.parametrize("spec", SPECS)
def test_equal_to_brute_force(spec: str) -> None:
    checked = 0
    for seed in range(6):
        # Some hands late in a match: a side near the target counts out mid-hand.
        state = ending(spec, seed, 2, hands_before=seed % 3 * 2)
        if state.phase != PLAY:
            continue
        check_play(state)
        for seat in range(min(state.n, 3)):
            result = solve_all_fours(state, seat, None)
            moves = brute_moves(state, seat)
            assert result.moves == moves, (spec, seed, seat)
            best = max if plays_for(state, state.to_act, seat) else min
            assert result.value == best(moves.values())
            checked += 1
    assert checked


def test_a_longer_ending_equals_brute_force() -> None:
    for seed in range(3):
        state = ending("seven-up", seed, 4)
        if state.phase == PLAY:
            assert isinstance(state, AllFoursState)
            assert solve_all_fours(state, 0, None).moves == brute_moves(state, 0)


def test_the_count_out_stops_the_points_after_the_target() -> None:
    points: dict[str, int | None] = {"high": 1, "low": 0, "jack": 0, "game": 1}
    # Side 0 at 5 of 7: Low makes 6, Jack 7 and it is out; Game (side 1) is not scored.
    assert hand_change(points, {}, [5, 3], 7, True, False) == [2, 1]
    assert hand_change(points, {}, [5, 3], 7, False, False) == [2, 2]
    assert hand_change(points, {"jack": 3}, [0, 0], 7, True, False) == [4, 2]
    assert hand_change(points, {}, [7, 0], 7, True, True) == [0, 0]  # already over
