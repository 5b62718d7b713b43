"""The solver at every table Setback seats: two to seven seats, each for itself or in
partnerships of any shape, the turn passing either way; exact against brute force.

The solver's ``supports`` may still name four seats only: these tests call the Pitch solver
itself (:func:`solve_any`), as ``solve`` does once it lets the table through.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest

from solver_brute import brute_moves, ending, plays_for
from tricktable.engine.phases import PLAY
from tricktable.engine.state import TrickState
from tricktable.errors import TricktableError
from tricktable.games import load_game
from tricktable.search.solver import solve
from tricktable.search.solver.core import (
    Search,
    SolveResult,
    SolveTimeout,
    check_play,
    solve_root,
)
from tricktable.search.solver.pitch import PitchRules, check_pitch, solve_pitch

#: every shape of table: seats, and who plays with whom
TABLES = [
    "setback(players=2,partners=false)",
    "setback(players=3,partners=false)",
    "setback(players=4,partners=false)",
    "setback(players=5,partners=false)",
    "setback(players=6)",  # two sides of three, alternating
    "setback(players=6,partners=3x2)",  # three sides of two: seat s plays for side s % 3
    "setback(players=6,partners=false)",
    "setback(players=7,partners=false)",
]


def solve_any(state: TrickState, seat: int) -> SolveResult:
    """``solve`` for a Pitch-family state at any table."""
    check_play(state)
    return solve_pitch(check_pitch(state), seat, None)


def searched_by(search: Search) -> Callable[[int], Search]:
    """``solve_root``'s ``searches``: ``search`` for every card."""
    return lambda card: search


def with_direction(spec: str, direction: str) -> str:
    """``spec`` with the turn passing ``direction``."""
    if not spec.endswith(")"):
        return f"{spec}(direction={direction})"
    return f"{spec[:-1]},direction={direction})"


def seats_to_check(state: TrickState) -> list[int]:
    """The seat to act and one seat of every other side (at most three seats: brute force
    is slow at seven)."""
    sides = len(state.scores)
    seats = [state.to_act]
    for s in range(state.n):
        if len(seats) == 3:
            break
        if all(s % sides != t % sides for t in seats):
            seats.append(s)
    return seats


@pytest.mark.parametrize("direction", ["left", "right"])
@pytest.mark.parametrize("spec", TABLES)
def test_equal_to_brute_force_at_every_table(spec: str, direction: str) -> None:
    game = load_game(with_direction(spec, direction))
    assert game.step == (1 if direction == "left" else game.num_players - 1)
    # Fewer cards left where there are more seats: brute force grows as cards ** seats.
    left = 4 if game.num_players <= 3 else 3 if game.num_players <= 5 else 2
    checked = 0
    for seed in range(8):
        state = ending(with_direction(spec, direction), seed, left)
        if state.phase != PLAY:
            continue
        for seat in seats_to_check(state):
            result = solve_any(state, seat)
            moves = brute_moves(state, seat)
            assert result.moves == moves, (spec, direction, seed, seat)
            best = max if plays_for(state, state.to_act, seat) else min
            assert result.value == best(moves.values())
            checked += 1
    assert checked


@pytest.mark.parametrize(
    "spec",
    [
        # trumping at will, Low to whoever was dealt it, both jokers, the off-jack a trump
        "ten-point-pitch(players=3,partners=false)",
        "ten-point-pitch(players=6,partners=3x2)",
        "smear(players=5,partners=false)",
        "setback-classic(players=6)",
        "auction-pitch(players=2,partners=false)",
        "widow-pitch",  # 3x2 with a kitty of six: the discard is the declarer's side's
        "three-team-smear",
        "moon-pitch(players=3,partners=false)",
    ],
)
@pytest.mark.parametrize("direction", ["left", "right"])
def test_equal_to_brute_force_with_the_pitch_options(spec: str, direction: str) -> None:
    for seed in range(4):
        state = ending(with_direction(spec, direction), seed, 2)
        if state.phase != PLAY:
            continue
        for seat in seats_to_check(state)[:2]:
            assert solve_any(state, seat).moves == brute_moves(state, seat), (spec, seed, seat)


@pytest.mark.parametrize(
    "spec",
    [
        "setback(players=2,partners=false,hand_size=3)",
        "setback(players=3,partners=false,hand_size=2)",
        "setback(players=6,partners=3x2,hand_size=2)",
        "setback(players=4,hand_size=2,direction=right)",
    ],
)
def test_equal_to_brute_force_from_the_first_lead(spec: str) -> None:
    # Trump is not named yet: each first card is solved with the trump it names.
    for seed in range(4):
        state = ending(spec, seed, 9)
        assert state.tables.suit < 0 and not state.trick
        for seat in (0, 1):
            assert solve_any(state, seat).moves == brute_moves(state, seat), (spec, seed, seat)


def test_four_seats_to_the_right_equal_the_search_to_the_left_mirrored() -> None:
    # Four seats the other way round take the search for any table; it and brute force agree
    # on longer endings than the tests above.
    for seed in range(3):
        state = ending("setback(direction=right)", seed, 3)
        if state.phase == PLAY:
            assert solve_any(state, 1).moves == brute_moves(state, 1)


def test_merged_equals_unmerged_at_six_seats() -> None:
    for seed in range(4):
        state = check_pitch(ending("setback(players=6,partners=3x2)", seed, 3))
        if state.phase != PLAY or state.tables.suit < 0:
            continue
        out = []
        for merge in (True, False):
            rules = PitchRules(state, 2, state.tables, state.lead_forbid)
            out.append(solve_root(state, searched_by(Search(state, rules, merge=merge))).moves)
        assert out[0] == out[1]


def test_the_paranoid_value_at_three_sides() -> None:
    # The value is the seat's side's score change minus the sum of the other sides': at 3x2
    # seats 0 and 3 play together (side 0), against 1, 4 (side 1) and 2, 5 (side 2).
    state = check_pitch(ending("setback(players=6,partners=3x2)", 1, 1))
    assert state.phase == PLAY
    for_0, for_3 = solve_any(state, 0), solve_any(state, 3)
    assert for_0 == for_3  # partners: one value
    assert for_0.moves == brute_moves(state, 0)


@pytest.mark.parametrize("spec", ["setback", "smear", "cutthroat-pitch", "hearts", "spades"])
def test_the_search_for_any_table_equals_the_four_seat_one(
    spec: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Longer endings than brute force reaches, and Hearts' bounds: the unrolled four-seat
    # search is the reference.
    states = [ending(spec, seed, 4) for seed in range(6)]
    states = [s for s in states if s.phase == PLAY]
    assert states
    four = [solve(s, s.to_act).moves for s in states]
    monkeypatch.setattr(Search, "_make_search", Search._search_any)
    assert [solve(s, s.to_act).moves for s in states] == four


def test_a_solve_past_its_deadline_stops_at_any_table() -> None:
    state = check_pitch(ending("setback(players=6,partners=3x2)", 3, 6))  # a whole hand
    assert state.phase == PLAY
    with pytest.raises(SolveTimeout):
        solve_pitch(state, state.to_act, time.perf_counter() - 1)


def test_refuses_a_hand_not_all_known_at_any_table() -> None:
    state = ending("setback(players=5,partners=false)", 2, 3)
    assert state.phase == PLAY
    state.hands[4] = 0  # a seat's cards unknown
    with pytest.raises(TricktableError, match="not all known"):
        check_play(state)
