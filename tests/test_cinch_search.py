"""Cinch's search hooks (``games/cinch_search.py``): worlds sampled from a seat's view agree
with it (its own cards dealt, thrown and drawn, the trumps shown thrown, the plays, the voids)
and give no other hand a card the seat saw elsewhere; replaying a world's actions from its deal
reproduces it; ``ismcts`` and ``pimc`` play every Cinch version with no fallback."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from helpers import fuzz_settings
from tricktable.bots import make_bot
from tricktable.bots.base import Bot
from tricktable.bots.ismcts import IsmctsBot
from tricktable.bots.pimc import PimcBot
from tricktable.engine.trick import AUCTION, PLAY, TrickState
from tricktable.games import PRESETS, load_game
from tricktable.games.cinch import DISCARD, DISCARDING, KEEP, ROBBING, Cinch, CinchState
from tricktable.match import Referee, play_match
from tricktable.search import Determinizer, Knowledge
from tricktable.search.determinize import start_of_hand
from tricktable.search.rules import rules_for, unsupported

#: every Cinch version: the game and its presets
VERSIONS = ["cinch", *sorted(name for name in PRESETS if PRESETS[name].game == "cinch")]


def test_every_version_is_listed_and_supported() -> None:
    assert set(VERSIONS) >= {
        "cinch",
        "cinch-cutthroat",
        "three-hand-cinch",
        "five-hand-cinch",
        "six-hand-cinch",
        "pedro-sancho",
        "dom-pedro",
        "catch-five",
        "nine-five",
    }
    for spec in VERSIONS:
        game = load_game(spec)
        assert type(rules_for(game)).__name__ == "CinchRules"
        assert unsupported(game) == "", spec


def test_a_pack_too_small_to_draw_from_is_refused_in_one_line() -> None:
    why = unsupported(load_game("cinch(players=5,partners=false)"))
    assert "pack of 7" in why and "\n" not in why


# ------------------------------------------------------------------------- the worlds


def seen_elsewhere(state: TrickState, seat: int) -> int:
    """The cards ``seat`` has seen that are in no other hand: its own dealt and drawn, the
    cards played, the trumps shown thrown (and, robbing, the pack it took)."""
    view = state.view(seat)
    seen = view.dealt | view.hand | view.played
    for _actor, action in view.actions:
        if DISCARD <= action < KEEP:
            seen |= 1 << (action - DISCARD)
    return seen


def check_world(state: TrickState, seat: int, world: TrickState) -> None:
    """``world`` shows ``seat`` what ``state`` shows it, replays from its own deal, and gives
    no other hand a card the seat saw elsewhere."""
    view, mine = state.view(seat), world.view(seat)
    assert mine.to_dict() == view.to_dict()
    assert (mine.hand, mine.dealt, mine.actions, mine.info()) == (
        view.hand,
        view.dealt,
        view.actions,
        view.info(),
    )
    assert mine.legal_actions() == view.legal_actions()
    seen = seen_elsewhere(state, seat)
    k = Knowledge(view)
    for other in range(state.n):
        if other != seat:
            assert not world.hands[other] & seen
            assert world.hands[other].bit_count() == k.counts[other]
            assert not world.hands[other] & k.cannot[other]
    # Replayed from the hand as dealt (what pimc's inference does), the world comes back.
    log = world.history[-1]
    again = start_of_hand(view, list(log.deal), list(log.stock))
    for action in world.actions:
        again.apply(action)
    assert again.hands == world.hands and again.phase == world.phase


def walk(spec: str, seed: int, hands: int = 1) -> list[TrickState]:
    """Copies of every decision of the first hands of a seeded random match."""
    state = load_game(spec).new_state(seed)
    rng = random.Random(seed)
    out = []
    dealt = 0
    while not state.is_over:
        if state.needs_deal:
            if dealt == hands:
                break
            state.deal()
            dealt += 1
            continue
        out.append(state.clone())
        state.apply(rng.choice(state.legal_actions()))
    return out


@pytest.mark.parametrize("spec", VERSIONS)
def test_every_world_agrees_with_the_view(spec: str) -> None:
    rng = random.Random(3)
    phases = set()
    for seed in (1, 2):
        for state in walk(spec, seed):
            for seat in range(state.n):
                world = Determinizer(state.view(seat)).sample(rng)
                check_world(state, seat, world)
                phases.add(state.phase)
    assert PLAY in phases and AUCTION in phases


@given(
    spec=st.sampled_from(VERSIONS),
    seed=st.integers(0, 10_000),
    at=st.floats(0.0, 1.0),
)
@fuzz_settings(25)
def test_worlds_agree_with_the_view_anywhere(spec: str, seed: int, at: float) -> None:
    """Property: at any decision of any version, every seat's sampled world agrees with its
    view and uses no card it saw elsewhere."""
    states = walk(spec, seed, hands=2)
    if not states:
        return
    state = states[int(at * (len(states) - 1))]
    rng = random.Random(seed)
    for seat in range(state.n):
        det = Determinizer(state.view(seat))
        for _ in range(2):
            check_world(state, seat, det.sample(rng))


@pytest.mark.parametrize(
    ("spec", "want"),
    [
        ("cinch", {ROBBING}),  # the discard of non-trumps has no choice (and rarely a turn)
        ("cinch(discard=any)", {DISCARDING, ROBBING}),
        ("catch-five", {DISCARDING}),
    ],
)
def test_the_discard_and_the_rob_are_sampled_too(spec: str, want: set[int]) -> None:
    """Worlds of the discard (face down) and of the rob."""
    rng = random.Random(5)
    found = set()
    for seed in range(30):
        for state in walk(spec, seed):
            if state.phase in want:
                found.add(state.phase)
                for seat in range(state.n):
                    check_world(state, seat, Determinizer(state.view(seat)).sample(rng))
        if found == want:
            break
    assert found == want


def test_a_seat_that_threw_trumps_face_up_holds_only_trumps() -> None:
    """Dealt eight spades, seat 1 bids, names spades and throws two face up: every world
    gives it six trumps, and point trumps only once it threw one."""
    game = load_game("cinch")
    spades = [39 + r for r in (0, 1, 2, 4, 6, 7, 8, 12)]  # 2 3 4 6 8 9 10 A of spades
    rest = [c for c in range(52) if c not in spades]
    hands = [0, 0, 0, 0]
    for card in [*spades, 13]:  # and the 2 of diamonds
        hands[1] |= 1 << card
    others = [c for c in rest if c != 13]
    for seat in (0, 2, 3):
        for card in others[:9]:
            hands[seat] |= 1 << card
        others = others[9:]
    state = game.new_state(1)
    state.deal(hands, dealer=0, stock=others)
    state.apply(game.parse_action("bid 6"))
    while state.phase == AUCTION:
        state.apply(game.parse_action("pass"))
    state.apply(game.parse_action("trump S"))
    rng = random.Random(2)
    while state.to_act == 1 and state.phase == DISCARDING:
        for seat in (0, 2, 3):
            check_world(state, seat, Determinizer(state.view(seat)).sample(rng))
        state.apply(state.legal_actions()[0])
    assert sum(1 for a in state.actions if a >= DISCARD) == 2
    while state.phase != PLAY:
        state.apply(state.legal_actions()[0])
    det = Determinizer(state.view(2))
    for _ in range(20):
        world = det.sample(rng)
        check_world(state, 2, world)
        assert world.hands[1].bit_count() == 6 and not world.hands[1] & ~state.tables.mask


@pytest.fixture
def sizes_told(monkeypatch: pytest.MonkeyPatch) -> None:
    """Views that tell every hand's size (``hand_sizes``), as a table shows them: what a
    seat needs to know the others' counts during the discard and the rob."""
    told = CinchState._view_extra

    def view_extra(self: CinchState, seat: int) -> dict[str, Any]:
        facts = told(self, seat)
        return {**facts, "hand_sizes": [h.bit_count() for h in self.hands]}

    try:
        monkeypatch.setattr(CinchState, "_view_extra", view_extra)
    except (AttributeError, TypeError):
        pytest.skip("a compiled state's method cannot be replaced")


@pytest.mark.usefixtures("sizes_told")
@pytest.mark.parametrize("spec", ["cinch", "catch-five", "five-hand-cinch", "cinch(discard=any)"])
def test_told_the_hands_sizes_knowledge_is_the_truth(spec: str) -> None:
    """Where the views tell the hands' sizes, what a seat knows never contradicts the truth,
    in the discard and the rob too (they do not yet: the counts are chosen there)."""
    rng = random.Random(4)
    phases = set()
    for seed in range(4):
        for state in walk(spec, seed):
            for seat in range(state.n):
                k = Knowledge(state.view(seat))
                for s in range(state.n):
                    assert k.counts[s] == state.hands[s].bit_count(), (seed, state.phase, s)
                    assert not state.hands[s] & (k.cannot[s] | k.dead)
                if state.phase in (DISCARDING, ROBBING):
                    phases.add(state.phase)
                    check_world(state, seat, Determinizer(state.view(seat)).sample(rng))
    assert phases


# ---------------------------------------------------------------------------- the bots


def _no_fallback_pimc() -> PimcBot:
    """A pimc whose every card decision solves a world (no time cap: no fallback but a failed
    sample)."""
    return PimcBot(worlds=2, max_seconds=None, bidding="heuristic")


@pytest.mark.parametrize("spec", VERSIONS)
def test_search_bots_play_whole_hands_with_no_fallback(spec: str) -> None:
    game = load_game(spec)
    assert isinstance(game, Cinch)
    n = game.num_players
    pimcs = [_no_fallback_pimc() for _ in range(n)]
    bots: list[Bot] = [
        pimcs[s] if s % 2 == 0 else IsmctsBot(iterations=12, max_seconds=None) for s in range(n)
    ]
    bots[-1] = make_bot("random")  # bids at random: the heuristics may all pass
    referee = Referee()
    state = play_match(game, bots, 7, max_hands=4, referee=referee)
    assert referee.faults == [], referee.faults
    played = [h for h in state.history if any(a < 64 for a in h.actions)]
    assert played, "no hand reached the play"
    used = [b for b in pimcs if b in bots]
    assert sum(b.decisions for b in used) > 0
    assert sum(b.fallbacks for b in used) == 0


def test_ismcts_plays_from_its_worlds_not_the_heuristic(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every card decision of ismcts in a Cinch hand is searched: none is handed to the
    heuristic for want of a world."""
    game = load_game("cinch")
    bot = IsmctsBot(iterations=8, max_seconds=None)
    handed = []
    delegate = IsmctsBot._delegate

    def counting(self: IsmctsBot) -> object:
        if self is bot:
            handed.append(1)
        return delegate(self)

    monkeypatch.setattr(IsmctsBot, "_delegate", counting)
    state = game.new_state(4)
    bot.start_match(game, 0, 4)
    others = [make_bot("heuristic") for _ in range(3)]
    for s, other in enumerate(others, start=1):
        other.start_match(game, s, 4)
    searched = 0
    while not state.is_over and len(state.history) <= 3:
        if state.needs_deal:
            state.deal()
            continue
        seat = state.to_act
        view = state.view(seat)
        if seat == 0:
            before = len(handed)
            action = bot.act(view)
            if view.phase == PLAY and len(view.legal_actions()) > 1:
                searched += 1
                assert len(handed) == before, "a card decision was handed to the heuristic"
        else:
            action = others[seat - 1].act(view)
        state.apply(action)
    assert searched > 0
