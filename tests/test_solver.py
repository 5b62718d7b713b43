"""The perfect-information solver on Setback and the Pitch presets: exact against brute force,
hand-checked, deterministic; what it refuses (Hearts and Spades: test_solver_hearts_spades.py)."""

from __future__ import annotations

import random
import time

import pytest

from solver_brute import brute_moves, ending, plays_for
from tricktable.cards import mask_of, parse_card, parse_cards
from tricktable.engine.actions import BID, PASS
from tricktable.engine.phases import PLAY
from tricktable.engine.state import TrickState
from tricktable.errors import TricktableError
from tricktable.games import load_game
from tricktable.games.setback import SetbackState
from tricktable.search.solver import SolveTimeout, solve, supports

SPECS = [
    "setback",
    "setback(may_trump=true,low_to=dealt)",
    "smear",
    "cutthroat-pitch",
    "ten-point-pitch",
    "auction-pitch",
    "setback-classic",
    "smear-with-widow",  # a kitty: the declarer's discard counts as a trick its side won
    "pitch-with-kitty",
    "smudge",  # the top bid made by taking every point
    "moon-pitch",
]


@pytest.mark.parametrize("spec", SPECS)
def test_equal_to_brute_force_on_small_endings(spec: str) -> None:
    for seed in range(10):
        state = ending(spec, seed, 2 + seed % 2)
        if state.phase != PLAY:
            continue
        for seat in range(4):
            result = solve(state, seat)
            moves = brute_moves(state, seat)
            assert result.moves == moves, (spec, seed, seat)
            best = max if plays_for(state, state.to_act, seat) else min
            assert result.value == best(moves.values())


@pytest.mark.parametrize(
    "spec", ["setback(hand_size=2)", "smear(hand_size=2)", "ten-point-pitch(hand_size=2)"]
)
def test_equal_to_brute_force_from_the_first_lead(spec: str) -> None:
    # Trump is not named yet: each first card is solved with the trump it names.
    for seed in range(8):
        state = ending(spec, seed, 2)
        assert state.tables.suit < 0 and not state.trick
        for seat in (0, 1):
            assert solve(state, seat).moves == brute_moves(state, seat), (spec, seed, seat)


def top_bid(rng: random.Random, legal: list[int]) -> int:
    """The highest action of the auction (the moon, smudge's top bid), else one at random."""
    bids = [a for a in legal if a >= BID]
    return max(bids) if bids and rng.random() < 0.7 else rng.choice(legal)


@pytest.mark.parametrize("spec", ["moon-pitch", "smudge", "moon-pitch(moon_value=10)"])
def test_equal_to_brute_force_on_top_bids(spec: str) -> None:
    # The moon and smudge's top bid, scored by score_contract: made only by taking every point.
    contracts = 0
    for seed in range(10):
        state = ending(spec, seed, 3, bid=top_bid)
        if state.phase != PLAY:
            continue
        assert isinstance(state, SetbackState)
        contracts += state.bid == (state.moon_level or 4)
        for seat in (state.to_act, state.to_act + 1):
            assert solve(state, seat % 4).moves == brute_moves(state, seat % 4), (spec, seed)
    assert contracts


def hand_of_two(bid: int) -> TrickState:
    """Seat 0 declares ``bid`` holding AS 2S; KS 3H / QH 4H / 5H 6H against and beside it."""
    state = load_game("setback(hand_size=2)").new_state(1)
    hands = [mask_of(parse_cards(text)) for text in ("AS 2S", "KS 3H", "QH 4H", "5H 6H")]
    state.deal(hands=hands, dealer=3)
    for action in (BID + bid, PASS, PASS, PASS):
        state.apply(action)
    assert state.phase == PLAY and state.to_act == 0
    return state


def test_hand_checked_made_bid() -> None:
    # AS first draws KS and takes both tricks: High, Low, Game (3 >= 2), +2 and 0 against.
    # 2S first loses Low to KS; AS then ruffs the hearts: High and Game (6 to 3), +2 against 1.
    state = hand_of_two(2)
    result = solve(state, 0)
    assert result.moves == {parse_card("AS"): 2, parse_card("2S"): 1}
    assert result.value == 2 and result.best() == [parse_card("AS")]
    assert solve(state, 1).moves == {parse_card("AS"): -2, parse_card("2S"): -1}


def test_hand_checked_set_bid() -> None:
    # Three points at most: a bid of 4 is set either way, and 2S also gives Low away.
    result = solve(hand_of_two(4), 0)
    assert result.moves == {parse_card("AS"): -4, parse_card("2S"): -5}
    assert result.value == -4


def test_hand_checked_last_trick() -> None:
    # Mid-hand, one card each: the value is just the scoring of what is then taken.
    state = hand_of_two(2)
    state.apply(parse_card("AS"))
    for _ in range(3):
        state.apply(state.legal_actions()[0])
    result = solve(state, 2)
    assert result.moves == {parse_card("2S"): 2} and result.value == 2


def test_deterministic_and_leaves_the_state_alone() -> None:
    state = ending("setback", 3, 3)
    before = (state.hands[:], state.trick[:], state.actions[:], state.won[:], state.to_act)
    first = solve(state, 1)
    second = solve(state, 1)
    assert first == second
    assert (state.hands, state.trick, state.actions, state.won, state.to_act) == before


def test_refuses_a_state_out_of_card_play() -> None:
    state = load_game("setback").new_state(1)
    state.deal()
    with pytest.raises(TricktableError, match="not in card play"):
        solve(state, 0)
    euchre = load_game("euchre").new_state(1)
    euchre.deal()
    while euchre.phase != PLAY:
        euchre.apply(euchre.legal_actions()[-1])
    with pytest.raises(TricktableError, match="euchre is not a game the solver knows"):
        solve(euchre, 0)
    play = ending("setback", 3, 3)
    with pytest.raises(TricktableError, match="no seat 4"):
        solve(play, 4)


@pytest.mark.parametrize(
    ("spec", "known"),
    [
        ("setback", True),
        ("smear", True),
        ("cutthroat-pitch", True),
        ("ten-point-pitch(hand_size=9)", True),
        ("hearts(moon=subtract)", True),
        ("spades(first_lead=2c)", True),
        ("euchre", False),
        ("filippa", False),
        ("oh-hell", False),
        ("tricks", False),
        ("setback(players=6,partners=3x2)", True),
        ("seven-up", True),
        ("cinch", True),
        ("california-jack", False),
        ("hearts(players=5)", False),
    ],
)
def test_supports_says_which_games_solve_handles(spec: str, known: bool) -> None:
    assert supports(load_game(spec)) is known


def test_a_solve_past_its_deadline_stops() -> None:
    state = ending("setback", 3, 6)  # a whole hand: thousands of positions
    with pytest.raises(SolveTimeout):
        solve(state, state.to_act, deadline=time.perf_counter() - 1)
    assert solve(state, state.to_act, deadline=time.perf_counter() + 60).moves  # in time
