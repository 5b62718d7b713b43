"""The solver on Hearts and Spades: exact against brute force through the engine (endings of
real deals, short deals that reach the first trick's rules and the moon, nil bids, bags),
hand-checked moons, merged moves equal to unmerged, the deadline."""

from __future__ import annotations

import random
import time
from typing import cast

import pytest

from solver_brute import brute_moves, ending, plays_for
from tricktable.cards import mask_of, parse_card, parse_cards
from tricktable.engine.actions import BID
from tricktable.engine.phases import PLAY
from tricktable.engine.state import TrickState
from tricktable.games import load_game
from tricktable.games.hearts import HEART_CARDS, QS_BIT, TWO_CLUBS
from tricktable.games.spades import BLIND_NIL, LOOK, SpadesState
from tricktable.search.solver import SolveTimeout, solve
from tricktable.search.solver.core import Rules, Search, SolveResult, solve_root
from tricktable.search.solver.hearts import HeartsRules
from tricktable.search.solver.spades import SpadesRules

HEARTS = [
    "hearts",
    "hearts(moon=subtract,queen_breaks=true)",
    "hearts(moon=none,first_trick_points=true)",
    "hearts(breaking=false,passing=a)",
]
SPADES = [
    "spades",
    "spades(first_lead=2c,blind_nil_behind=0)",
    "spades(break_spades=false,bags_penalty=50,nil_value=50)",
]


def nil_often(rng: random.Random, legal: list[int]) -> int:
    """A Spades bid: nil (blind when offered) about a third of the time, else 1 to 4; any other
    game's action at random."""
    if BID + 1 not in legal and BLIND_NIL not in legal:
        return rng.choice(legal)
    if BLIND_NIL in legal:
        return BLIND_NIL if rng.random() < 0.3 else LOOK
    if BID in legal and rng.random() < 0.35:
        return BID
    return BID + rng.randint(1, 4)


def check(state: TrickState, seats: tuple[int, ...] | range = range(4)) -> None:
    """The solver's every move value and its value equal brute force's, for ``seats``."""
    for seat in seats:
        result = solve(state, seat)
        moves = brute_moves(state, seat)
        assert result.moves == moves, (state.game.spec(), seat, state.actions)
        best = max if plays_for(state, state.to_act, seat) else min
        assert result.value == best(moves.values())


@pytest.mark.parametrize("spec", HEARTS)
def test_hearts_equal_to_brute_force_on_endings(spec: str) -> None:
    for seed in range(12):
        # Some hands after others: the pass direction moves on, and the scores with it.
        state = ending(spec, seed, 2 + seed % 2, hands_before=seed % 4)
        if state.phase != PLAY:
            continue
        check(state, (seed % 4, (seed + 1) % 4) if seed % 2 else range(4))


@pytest.mark.parametrize("spec", SPADES)
def test_spades_equal_to_brute_force_on_endings_with_nil_bids(spec: str) -> None:
    nils = 0
    for seed in range(14):
        # Hands before this one leave bags behind: the bag penalty comes into play.
        state = ending(spec, seed, 2 + seed % 2, hands_before=seed % 3, bid=nil_often)
        if state.phase != PLAY:
            continue
        nils += cast(SpadesState, state).bids.count(0)
        check(state, (seed % 4, (seed + 1) % 4) if seed % 2 else range(4))
    assert nils >= 5  # the nil bids were there to be scored


def short_deal(spec: str, seed: int, cards: list[int]) -> TrickState:
    """A hand of ``spec`` dealt only ``cards`` (a multiple of four, 2C among them), at random."""
    rng = random.Random(seed)
    deck = cards[:]
    rng.shuffle(deck)
    per = len(deck) // 4
    state = load_game(spec).new_state(seed)
    state.deal(hands=[mask_of(deck[i * per : (i + 1) * per]) for i in range(4)])
    while state.phase != PLAY:
        state.apply(nil_often(rng, state.legal_actions()))
    return state


def some_cards(rng: random.Random, count: int, must: list[int]) -> list[int]:
    """``must`` and then cards at random, hearts and spades more often, ``count`` in all."""
    rest = [c for c in range(52) if c not in must]
    weights = [3 if c >= 26 else 1 for c in rest]
    chosen = set(must)
    while len(chosen) < count:
        chosen.add(rng.choices(rest, weights)[0])
    return sorted(chosen)


@pytest.mark.parametrize(
    "spec",
    [
        "hearts(passing=none)",
        "hearts(passing=none,first_trick_points=true)",
        "hearts(passing=none,queen_breaks=true,moon=subtract)",
        "hearts(passing=none,breaking=false)",
    ],
)
def test_hearts_first_trick_rules_from_the_first_lead(spec: str) -> None:
    # Three cards a seat, from the 2C's lead: points on the first trick, hearts not broken.
    for seed in range(10):
        rng = random.Random(seed)
        state = short_deal(spec, seed, some_cards(rng, 12, [TWO_CLUBS]))
        assert state.legal_actions() == [TWO_CLUBS]
        for _ in range(seed % 3):  # and from inside the first trick
            state.apply(rng.choice(state.legal_actions()))
        check(state, (seed % 4, (seed + 2) % 4))


@pytest.mark.parametrize("moon", ["add", "subtract", "none"])
def test_hearts_moon_possible_endings(moon: str) -> None:
    # Every point card in a deal of 16: a seat may take all 26, and often does.
    spec = f"hearts(passing=none,moon={moon})"
    others = [c for c in range(52) if not (1 << c) & (HEART_CARDS | QS_BIT) and c != TWO_CLUBS]
    shooters = 0
    for seed in range(8):
        rng = random.Random(seed)
        cards = [TWO_CLUBS, parse_card("QS"), *range(26, 39), rng.choice(others)]
        state = short_deal(spec, seed, cards)
        for _ in range(4 + seed % 3):  # the first trick, then into the second
            state.apply(rng.choice(state.legal_actions()))
        check(state, (seed % 4,))
        shooters += abs(solve(state, seed % 4).value) in (26, 78)
    assert shooters  # some endings turn on a moon


@pytest.mark.parametrize(
    ("moon", "values"), [("add", (78, -26)), ("subtract", (78, -26)), ("none", (-78, 26))]
)
def test_hand_checked_moon(moon: str, values: tuple[int, int]) -> None:
    # Seat 0 must win the 2C with its 3C and then leads AH, KH, QH, the best hearts: it takes
    # all 16 cards, every point. add: 0 to it, 26 to each other seat (78 - 0 for it; 26 - 52
    # for seat 1); subtract: -26 to it alone (-26 + 104; -26 - 0); none: 26 as taken.
    state = load_game(f"hearts(passing=none,moon={moon})").new_state(1)
    deal = ["3C QH KH AH", "2C 2H 3H 4H", "5H 6H 7H 8H", "9H TH JH QS"]
    state.deal(hands=[mask_of(parse_cards(text)) for text in deal])
    assert state.phase == PLAY and state.to_act == 1
    assert solve(state, 0) == SolveResult(values[0], {TWO_CLUBS: values[0]}, solve(state, 0).nodes)
    assert solve(state, 1).value == values[1]


def test_spades_first_lead_and_breaking_from_the_first_trick() -> None:
    for seed in range(10):
        rng = random.Random(seed)
        spec = "spades(first_lead=2c)" if seed % 2 else "spades"
        state = short_deal(spec, seed, some_cards(rng, 12, [TWO_CLUBS]))
        for _ in range(seed % 3):
            state.apply(rng.choice(state.legal_actions()))
        check(state, (seed % 4, (seed + 1) % 4))


def solved(state: TrickState, rules: Rules, merge: bool) -> SolveResult:
    search = Search(state, rules, merge=merge)
    return solve_root(state, lambda card: search)


@pytest.mark.parametrize(
    ("spec", "make"),
    [("hearts", HeartsRules), ("hearts(moon=subtract)", HeartsRules), ("spades", SpadesRules)],
)
def test_merged_moves_equal_unmerged(spec: str, make: type[Rules]) -> None:
    fewer = 0
    for seed in range(6):
        state = ending(spec, seed, 4 + seed % 2 if spec == "spades" else 4, bid=nil_often)
        seat = seed % 4
        merged = solved(state, make(state, seat), merge=True)  # type: ignore[call-arg]
        plain = solved(state, make(state, seat), merge=False)  # type: ignore[call-arg]
        assert merged.moves == plain.moves and merged.value == plain.value, (spec, seed)
        fewer += merged.nodes < plain.nodes
    assert fewer  # merging did cut the search somewhere


@pytest.mark.parametrize("spec", ["hearts", "spades"])
def test_deadline_raises_solve_timeout(spec: str) -> None:
    state = ending(spec, 5, 6, bid=nil_often)  # thousands of positions
    with pytest.raises(SolveTimeout, match="past its deadline"):
        solve(state, state.to_act, deadline=time.perf_counter() - 1)
    assert solve(state, state.to_act, deadline=time.perf_counter() + 60).moves  # in time


@pytest.mark.parametrize("spec", ["hearts", "spades"])
def test_deterministic_and_leaves_the_state_alone(spec: str) -> None:
    state = ending(spec, 2, 5, bid=nil_often)
    before = (state.hands[:], state.trick[:], state.actions[:], state.won[:], state.to_act)
    first = solve(state, 3)
    assert solve(state, 3) == first
    assert (state.hands, state.trick, state.actions, state.won, state.to_act) == before
