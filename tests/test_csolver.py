"""The compiled solver core (``_dd.c`` through :mod:`tricktable.search.solver.fast`) against
the Python search, the reference: the same value of every legal card on thousands of seeded
positions of every game and option set the solver takes (endings at every table, Setback's
first lead, Hearts' first trick and moons, Spades' nils and bags), merged and unmerged, and
the deadline. Skipped where the extension is not built (the pure source tree)."""

from __future__ import annotations

import itertools as it
import random
import time
from collections.abc import Callable
from typing import cast

import pytest

from solver_brute import ending
from test_solver_hearts_spades import nil_often, short_deal, some_cards
from tricktable.cards import parse_card
from tricktable.engine.phases import PLAY
from tricktable.engine.state import TrickState
from tricktable.errors import TricktableError
from tricktable.games import load_game
from tricktable.games.hearts import TWO_CLUBS, hearts_points
from tricktable.games.spades import SpadesState
from tricktable.search.solver import SolveTimeout, fast, solve
from tricktable.search.solver.core import Search, solve_root
from tricktable.search.solver.hearts import HeartsRules
from tricktable.search.solver.pitch import PitchRules
from tricktable.search.solver.spades import SpadesRules

pytestmark = pytest.mark.skipif(not fast.available(), reason="the C solver core is not built")

#: every game and option set, by family: Setback's tables and presets, All Fours, Cinch
PITCH = [
    "setback",
    "setback(may_trump=true,low_to=dealt)",
    "setback(players=2,partners=false)",
    "setback(players=3,partners=false)",
    "setback(players=5,partners=false)",
    "setback(players=6,partners=3x2)",
    "setback(players=7,partners=false)",
    "setback(direction=right)",
    "smear",
    "cutthroat-pitch",
    "ten-point-pitch",
    "auction-pitch",
    "setback-classic",
    "smear-with-widow",
    "pitch-with-kitty",
    "smudge",
    "moon-pitch",
]
ALL_FOURS = [
    "seven-up",
    "old-sledge",
    "english-all-fours",
    "all-fours-partnership",
    "three-hand-all-fours",
    "cutthroat-all-fours",
    "trinidad-all-fours",
    "all-twos",
    "all-fours(low_to=captured,count_out=false)",
    "all-fours(players=6,partners=3x2)",
    "all-fours(players=5,partners=false,direction=right)",
]
CINCH = [
    "cinch",
    "cinch-cutthroat",
    "three-hand-cinch",
    "six-hand-cinch",
    "pedro-sancho",
    "dom-pedro",
    "catch-five",
    "nine-five",
    "cinch(scoring=difference,low_to=held)",
    "cinch(players=2,partners=false)",
]
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


def same(state: TrickState, seat: int) -> None:
    """The C core's every move value (and so its value and best cards) equal Python's."""
    want = solve(state, seat, core="python")
    got = solve(state, seat, core="c")
    assert got.moves == want.moves, (state.game.spec(), seat, state.actions)
    assert got.value == want.value
    assert got.best() == want.best()


def positions(spec: str, seeds: range, left: int, bid: object = None) -> list[TrickState]:
    """Seeded endings of ``spec`` in card play, ``left`` cards a seat or fewer, after a few
    hands before (the scores, bags and pass direction move on)."""
    out = []
    for seed in seeds:
        state = ending(spec, seed, left - seed % 2, hands_before=seed % 3, bid=bid)  # type: ignore[arg-type]
        if state.phase == PLAY:
            out.append(state)
    return out


@pytest.mark.parametrize("spec", PITCH + ALL_FOURS + CINCH)
def test_the_all_fours_family_equal_to_python(spec: str) -> None:
    count = 0
    for state in positions(spec, range(20), 3):
        for seat in range(state.n):
            same(state, seat)
            count += 1
    assert count >= 30


@pytest.mark.parametrize("spec", HEARTS)
def test_hearts_equal_to_python(spec: str) -> None:
    count = 0
    for state in positions(spec, range(30), 4):
        for seat in range(4):
            same(state, seat)
            count += 1
    assert count >= 60


@pytest.mark.parametrize("spec", SPADES)
def test_spades_equal_to_python_with_nil_bids(spec: str) -> None:
    count = 0
    for state in positions(spec, range(30), 4, bid=nil_often):
        for seat in range(4):
            same(state, seat)
            count += 1
    assert count >= 60


def split_top_trumps(state: TrickState) -> bool:
    """Whether the highest spades in play are held by two partners counting together (both
    bid tricks), one of them holding more of that run than the top spade's owner's own run:
    where the C core's sure tricks count the partnership's run (by the seat holding most of
    it), not only the top spade's owner's."""
    live = [c for c in range(51, 38, -1) if any(h >> c & 1 for h in state.hands)]
    owners = [next(s for s in range(4) if state.hands[s] >> c & 1) for c in live]
    bids = cast(SpadesState, state).bids
    if not owners or not all(bids[s] for s in (owners[0] & 1, (owners[0] & 1) + 2)):
        return False
    side = [o for o in it.takewhile(lambda o: (o & 1) == (owners[0] & 1), owners)]
    own = len(list(it.takewhile(lambda o: o == owners[0], owners)))
    return max(side.count(s) for s in set(side)) > own


def second_run_counts(state: TrickState) -> bool:
    """Whether, below the highest spades held by one slot (a seat, or partners both bidding
    tricks), the next spades are held by the other side, one seat of it holding more of them
    than the first run has cards: where the C core's sure tricks give that side some too."""
    live = [c for c in range(51, 38, -1) if any(h >> c & 1 for h in state.hands)]
    owners = [next(s for s in range(4) if state.hands[s] >> c & 1) for c in live]

    bids = cast(SpadesState, state).bids

    def slot(seat: int) -> int:
        pair = seat & 1
        return pair if bids[pair] and bids[pair + 2] else seat

    if not owners:
        return False
    first = list(it.takewhile(lambda o: slot(o) == slot(owners[0]), owners))
    rest = owners[len(first) :]
    if not rest:
        return False
    second = list(it.takewhile(lambda o: slot(o) == slot(rest[0]), rest))
    return max(second.count(s) for s in set(second)) > len(first)


def test_spades_sure_tricks_of_the_second_run_equal_to_python() -> None:
    # Positions where the second side's run of spades gives it sure tricks too (an upper
    # bound on the first side's): the values stay exact.
    count = 0
    for seed in range(600):
        state = ending("spades(break_spades=false)", seed, 5 + seed % 2, bid=nil_often)
        if state.phase != PLAY or not second_run_counts(state):
            continue
        same(state, state.to_act)
        same(state, (state.to_act + 1) % 4)
        count += 1
        if count == 25:
            break
    assert count >= 15


def test_spades_sure_tricks_of_a_partnership_equal_to_python() -> None:
    # Positions where the partnership's run of top spades gives more sure tricks than the
    # top spade's owner alone (the bound then cuts more): the values stay exact.
    count = 0
    for seed in range(400):
        state = ending("spades(break_spades=false)", seed, 5 + seed % 2)
        if state.phase != PLAY or not split_top_trumps(state):
            continue
        same(state, state.to_act)
        same(state, (state.to_act + 1) % 4)
        count += 1
        if count == 25:
            break
    assert count >= 15


def trick_mode(state: TrickState, seat: int, reach: bool = True) -> bool:
    """Whether the C core searches this Spades hand for ``seat`` as a trick count (the value
    hangs on the side's tricks alone, never falling as they grow); ``reach=False``: checked
    over every count, not only those the top trumps leave in reach."""
    rules = SpadesRules(cast(SpadesState, state), seat)
    search = Search(state, rules)
    assert rules.kernel is not None
    if reach:
        return fast.trick_values(search, rules.kernel) is not None
    every = fast.sure_range
    try:
        fast.sure_range = lambda search, left: (0, left)
        return fast.trick_values(search, rules.kernel) is not None
    finally:
        fast.sure_range = every


def test_spades_trick_mode_equal_to_python() -> None:
    # Positions the C core searches as a trick count (no nil open, no bags past a ten in
    # reach), from a trick's start and inside one, some after a nil is lost: the values
    # stay exact, with the leader's quick tricks (its own winners, and through a low lead
    # to its partner's) cutting.
    count = 0
    for spec in SPADES:
        for seed in range(60):
            bid = nil_often if seed % 2 else None  # a nil failed, or made with the tricks left
            state = ending(spec, seed, 4 + seed % 4, hands_before=seed % 3, bid=bid)
            if state.phase != PLAY:
                continue
            for seat in (state.to_act, (state.to_act + 1) % 4):
                if trick_mode(state, seat):
                    same(state, seat)
                    count += 1
    assert count >= 60


def test_spades_trick_mode_with_bags_past_ten_out_of_reach() -> None:
    # Sides near ten bags: an overtrick would cost, but where the other side's top trumps
    # keep that count out of reach the C core still searches the trick count.
    count = 0
    for seed in range(120):
        state = ending("spades", seed, 4 + seed % 3)
        if state.phase != PLAY or state.trick:
            continue
        cast(SpadesState, state).bags = [7 + seed % 3, 9 - seed % 3]
        for seat in (state.to_act, (state.to_act + 1) % 4):
            if trick_mode(state, seat) and not trick_mode(state, seat, reach=False):
                same(state, seat)
                count += 1
    assert count >= 8


def never_wins(state: TrickState, seat: int) -> bool:
    """Whether ``seat`` (not on lead, at a trick's start) holds in each suit only cards below
    every card of that suit the others hold, the points already split between seats: where
    the C core knows Hearts' value without searching (the seat takes nothing more)."""
    if state.trick or state.to_act == seat:
        return False
    if sum(1 for s in range(4) if hearts_points([state.won[s]])[0]) < 2:
        return False
    others = 0
    for s in range(4):
        if s != seat:
            others |= state.hands[s]
    for suit in range(4):
        cards = range(13 * suit, 13 * suit + 13)  # by rank, two to ace
        mine = [c for c in cards if state.hands[seat] >> c & 1]
        theirs = [c for c in cards if others >> c & 1]
        if mine and theirs and max(mine) > min(theirs):
            return False
    return True


@pytest.mark.parametrize("spec", ["hearts", "hearts(moon=none)"])
def test_hearts_seat_that_cannot_win_equal_to_python(spec: str) -> None:
    # Trick starts where a seat can win no trick left: the C core stops there with the value
    # of its points so far; the values stay exact (each legal card of the leader, for it).
    count = 0
    for seed in range(3000):
        state = ending(spec, seed, 4 + seed % 3)
        if state.phase != PLAY or state.trick:
            continue
        for seat in range(4):
            if never_wins(state, seat):
                same(state, seat)
                count += 1
        if count >= 20:
            break
    assert count >= 10


#: the short deals' options (no passing: the deal is the hands given)
SHORT = [
    "hearts(passing=none)",
    "hearts(passing=none,moon=subtract,queen_breaks=true)",
    "hearts(passing=none,moon=none,first_trick_points=true)",
    "hearts(passing=none,breaking=false)",
    *SPADES,
]


@pytest.mark.parametrize("spec", SHORT)
def test_first_tricks_and_moons_equal_to_python(spec: str) -> None:
    # Short deals from the first lead (the 2♣'s, points on the first trick, nothing broken),
    # and into it; in Hearts every point card in some deals, so moons are in reach.
    base = spec.split("(")[0]
    points = [parse_card("QS"), *range(26, 39)]
    for seed in range(16):
        rng = random.Random(seed)
        if base == "hearts" and seed % 2:
            others = [c for c in range(52) if c not in points and c != TWO_CLUBS]
            cards = [TWO_CLUBS, *points, *rng.sample(others, 5)]
        else:
            cards = some_cards(rng, 16 + 4 * (seed % 2), [TWO_CLUBS])
        state = short_deal(spec, seed, cards)
        for _ in range(seed % 4):
            state.apply(rng.choice(state.legal_actions()))
        for seat in (seed % 4, (seed + 1) % 4):
            same(state, seat)


def test_setback_first_lead_equal_to_python() -> None:
    # Trump not named yet: each card is solved with the trump it names (a search a suit).
    for seed in range(3):
        rng = random.Random(seed)
        state = load_game("setback(players=3,partners=false)").new_state(seed)
        state.deal()
        while state.phase != PLAY:
            if state.needs_deal:
                state.deal()
                continue
            state.apply(rng.choice(state.legal_actions()))
        same(state, state.to_act)


def always(search: Search) -> Callable[[int], Search]:
    """``solve_root``'s ``searches``: ``search`` for every card."""
    return lambda card: search


def test_merged_moves_equal_unmerged_in_c() -> None:
    for seed in range(10):
        state = ending("setback", seed, 4)
        if state.phase == PLAY:
            rules = PitchRules(state, 0, state.tables, state.lead_forbid)  # type: ignore[arg-type]
            merged = Search(state, rules, core="c")
            plain = Search(state, rules, merge=False, core="c")
            python = Search(state, rules, core="python")
            want = solve_root(state, always(python)).moves
            assert solve_root(state, always(merged)).moves == want
            assert solve_root(state, always(plain)).moves == want
        state = ending("hearts", seed, 4)
        if state.phase == PLAY:
            hearts = HeartsRules(state, 1)  # type: ignore[arg-type]
            want = solve_root(state, always(Search(state, hearts, core="python"))).moves
            plain = Search(state, hearts, merge=False, core="c")
            assert solve_root(state, always(plain)).moves == want


def test_the_deadline_stops_the_c_core() -> None:
    state = ending("hearts", 3, 9)
    with pytest.raises(SolveTimeout):
        solve(state, 0, time.perf_counter() - 1.0, core="c")
    # A solve in time is unchanged by the deadline.
    small = ending("hearts", 3, 3)
    assert solve(small, 0, time.perf_counter() + 60.0, core="c").moves == solve(small, 0).moves


def test_auto_is_the_c_core_and_python_stays_the_reference() -> None:
    state = ending("spades", 5, 4)
    auto = solve(state, 0)
    assert auto.moves == solve(state, 0, core="python").moves
    assert auto.nodes == solve(state, 0, core="c").nodes


def test_rules_without_a_kernel_fall_back_to_python() -> None:
    state = ending("setback", 2, 3)
    rules = PitchRules(state, 0, state.tables, state.lead_forbid)  # type: ignore[arg-type]
    want = solve_root(state, always(Search(state, rules, core="python"))).moves
    rules.kernel = None  # a game the C core is not told how to read
    assert solve_root(state, always(Search(state, rules))).moves == want
    with pytest.raises(TricktableError, match="compiled core"):
        solve_root(state, always(Search(state, rules, core="c")))
    with pytest.raises(TricktableError, match="no core"):
        solve(state, 0, core="fortran")
