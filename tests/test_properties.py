"""Property tests (Hypothesis) of the Setback engine over random matches.

Matches are driven by a random player seeded from the drawn seed. It passes in the auction
most of the time: a player that bids uniformly at random is set so often that the scores of
both sides drift below zero and a match almost never ends. Hypothesis runs derandomized, so
these tests are as repeatable as the rest of the suite.
"""

from __future__ import annotations

import itertools
import json
import random
from collections.abc import Callable
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tricktable.cards import card_name, cards_in, format_cards, mask_of, parse_cards
from tricktable.engine import actions as act
from tricktable.engine.trick import AUCTION, DEAL, OVER, PLAY, TrickState
from tricktable.games import load_game
from tricktable.games.setback_results import SetbackResult
from tricktable.records import replay, result_of, to_record

SETTINGS = settings(
    max_examples=50,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)

SPECS = [
    "setback",
    "setback(target=11)",
    "setback(target=5,low_to=dealt)",
    "setback(target=7,declarer_scores=taken)",
    "setback(target=11,min_bid=3,max_bid=5)",
    "setback(target=3,low_to=dealt,declarer_scores=taken)",
]
#: far more hands than any of these matches needs (the longest seen is near 60)
HAND_CAP = 2000

Step = Callable[[TrickState], None]


def setback_results(state: TrickState) -> list[SetbackResult]:
    """The results of the finished hands, checked to be Setback's."""
    out = [r for r in state.results if isinstance(r, SetbackResult)]
    assert len(out) == len(state.results)
    return out


def play_random(spec: str, seed: int, p_pass: float = 0.85, step: Step | None = None) -> Any:
    """Play a match of ``spec`` with random legal actions; ``step(state)`` before each one."""
    game = load_game(spec)
    state = game.new_state(seed)
    rng = random.Random(seed)
    while not state.is_over and len(state.results) < HAND_CAP:
        assert state.needs_deal and state.to_act == -1 and state.legal_actions() == []
        state.deal()
        while state.to_act >= 0:
            if step is not None:
                step(state)
            legal = state.legal_actions()
            assert legal, "a seat is to act but has no legal action"
            if act.PASS in legal and rng.random() < p_pass:
                action = act.PASS
            else:
                action = legal[int(rng.random() * len(legal))]
            state.apply(action)
        assert state.phase in (DEAL, OVER)
    return state


@SETTINGS
@given(seed=st.integers(0, 2**32), spec=st.sampled_from(SPECS))
def test_every_random_match_ends_with_24_plays_per_hand(seed: int, spec: str) -> None:
    state = play_random(spec, seed)
    assert state.is_over, f"no winner after {HAND_CAP} hands"
    assert state.winner in (0, 1)
    assert state.to_act == -1 and state.legal_actions() == []
    assert len(state.history) == len(state.results)
    for log, result in zip(state.history, setback_results(state), strict=True):
        plays = [a for a in log.actions if act.is_play(a)]
        assert len(plays) == 24
        auction = log.actions[: len(log.actions) - 24]
        assert 1 <= len(auction) <= 4
        assert all(not act.is_play(a) for a in auction)
        assert sorted(plays) == sorted(c for m in log.deal for c in cards_in(m))
        # the first card played names trump
        assert result.trump == plays[0] // 13
    # the deal passes to the left
    dealers = [log.dealer for log in state.history]
    assert all(b == (a + 1) % 4 for a, b in itertools.pairwise(dealers))


@SETTINGS
@given(seed=st.integers(0, 2**32), spec=st.sampled_from(SPECS))
def test_scores_follow_the_rules_hand_by_hand(seed: int, spec: str) -> None:
    state = play_random(spec, seed)
    opts = state.options
    before: tuple[int, ...] = (0, 0)
    results = setback_results(state)
    for i, result in enumerate(results):
        points = result.points
        assert set(points) >= {"high", "low", "jack", "off_jack", "joker", "game"}
        # a trump is always dealt (the first card led), so High and Low are always won
        assert points["high"] in (0, 1) and points["low"] in (0, 1)
        taken = [sum(1 for team in points.values() if team == t) for t in (0, 1)]
        assert list(result.taken) == taken
        assert 2 <= sum(taken) <= 6
        assert result.declarer is not None and result.bid is not None
        team = result.declarer & 1
        bid = result.bid
        assert opts.min_bid <= bid <= opts.max_bid
        delta = [result.scores[t] - before[t] for t in (0, 1)]
        if taken[team] >= bid:
            assert delta[team] == (bid if opts.declarer_scores == "bid" else taken[team])
        else:
            assert delta[team] == -bid
        assert delta[1 - team] == taken[1 - team], "defenders score what they took"
        last = i == len(results) - 1
        # only the declarers reaching the target end the match
        assert (result.scores[team] >= opts.target) == last
        before = result.scores
    declarer = results[-1].declarer
    assert declarer is not None and state.winner == declarer & 1
    assert state.scores == list(before)


@SETTINGS
@given(seed=st.integers(0, 2**32), spec=st.sampled_from(SPECS))
def test_random_match_replays_to_identical_results(seed: int, spec: str) -> None:
    state = play_random(spec, seed)
    record = json.loads(json.dumps(to_record(state, ["random"] * 4)))
    again = replay(record)
    assert result_of(again) == result_of(state)
    assert again.scores == state.scores and again.winner == state.winner
    # the same seed plays the same match again
    assert to_record(play_random(spec, seed), ["random"] * 4) == record


@SETTINGS
@given(seed=st.integers(0, 2**32), spec=st.sampled_from(SPECS), cut=st.integers(0, 200))
def test_clone_then_same_actions_gives_same_match(seed: int, spec: str, cut: int) -> None:
    seen: list[TrickState] = []
    count = [0]

    def grab(state: TrickState) -> None:
        if count[0] == cut:
            seen.append(state.clone())
        count[0] += 1

    state = play_random(spec, seed, step=grab)
    if not seen:
        return
    copy = seen[0]
    # replaying the rest of the original's actions on the clone reaches the same end
    done = sum(len(log.actions) for log in state.history[: len(copy.history) - 1])
    rest_of_hand = state.history[len(copy.history) - 1].actions[len(copy.actions) :]
    assert done + len(copy.actions) == cut
    for action in rest_of_hand:
        copy.apply(action)
    for log in state.history[len(copy.history) :]:
        copy.deal(log.deal)
        for action in log.actions:
            copy.apply(action)
    assert copy.results == state.results
    assert copy.scores == state.scores and copy.winner == state.winner


def card_names_in(value: Any) -> set[str]:
    """Every card name found in the strings of a JSON-like value ("play TD" gives "TD")."""
    found: set[str] = set()
    if isinstance(value, dict):
        for key, item in value.items():
            found |= card_names_in(key) | card_names_in(item)
    elif isinstance(value, list | tuple):
        for item in value:
            found |= card_names_in(item)
    elif isinstance(value, str):
        for word in value.replace(",", " ").split():
            if word in ALL_NAMES:
                found.add(word)
    return found


ALL_NAMES = {card_name(c) for c in range(54)}


def check_views(state: TrickState) -> None:
    """No view shows a card another seat still holds."""
    played = mask_of(state.trick)
    for m in state.won:
        played |= m
    for seat in range(4):
        view = state.view(seat)
        hidden = 0
        for other in range(4):
            if other != seat:
                hidden |= state.hands[other]
        assert not hidden & played
        hidden_names = {card_name(c) for c in cards_in(hidden)}
        data = view.to_dict()
        json.dumps(data)  # what travels to bots in other processes is plain JSON
        assert not card_names_in(data) & hidden_names, (seat, data)
        assert data["hand"] == format_cards(state.hands[seat]).split()
        # the view's attributes
        assert view.hand == state.hands[seat]
        # (that ``dealt`` is the whole dealt hand is tested in test_setback_rules.py)
        assert view.dealt & ~state.dealt[seat] == 0
        assert not view.hand & hidden and not view.dealt & hidden
        assert not view.played & hidden
        assert all(not m & hidden for m in view.won)
        assert all(not (1 << c) & hidden for _, c in view.trick)
        assert all(not mask_of(cards) & hidden for _, cards, _ in view.tricks)
        assert all(not (act.is_play(a) and (1 << a) & hidden) for _, a in view.actions), (
            "an action reveals a held card"
        )
        legal = view.legal_actions()
        if seat != state.to_act:
            assert legal == [] and view.legal_mask() == 0
        assert all(not (act.is_play(a) and (1 << a) & hidden) for a in legal)
        assert not card_names_in(view.info()) & hidden_names
        results = [result.to_dict() for result in view.results]
        assert not card_names_in(json.loads(json.dumps(results))) & hidden_names
        assert view.phase in (AUCTION, PLAY)


@settings(SETTINGS, max_examples=20)
@given(seed=st.integers(0, 2**32), spec=st.sampled_from(SPECS[:3]))
def test_a_view_never_shows_another_seats_cards(seed: int, spec: str) -> None:
    game = load_game(spec)
    state = game.new_state(seed)
    rng = random.Random(seed)
    for _ in range(2):
        if state.is_over:
            break
        state.deal()
        while state.to_act >= 0:
            check_views(state)
            legal = state.legal_actions()
            state.apply(legal[int(rng.random() * len(legal))])


@settings(max_examples=50, deadline=None, derandomize=True)
@given(st.sets(st.integers(0, 52), max_size=20))
def test_card_text_round_trips(cards: set[int]) -> None:
    mask = mask_of(cards)
    text = format_cards(mask)
    assert mask_of(parse_cards(text)) == mask
    assert mask_of(parse_cards(text.lower())) == mask
    assert cards_in(mask) == sorted(cards)
