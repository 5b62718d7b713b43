"""Views: sealed snapshots whose shared parts (tricks, cards won, scores, results, each seat's
facts) are cached between changes — never stale, for every game."""

from __future__ import annotations

import random

import pytest

from table_shapes import other_shapes
from tricktable.engine.trick import TrickState
from tricktable.games import GAMES, load_game


def _or(masks: list[int]) -> int:
    out = 0
    for mask in masks:
        out |= mask
    return out


def _as_lists(value: object) -> object:
    """A fact as info() gives it: every sequence a list, at any depth."""
    if isinstance(value, list | tuple):
        return [_as_lists(item) for item in value]
    return value


def check_views(state: TrickState) -> None:
    for seat in range(state.n):
        view = state.view(seat)
        assert view.scores == state.scores
        assert view.results == state.results
        assert view.tricks == state.tricks
        assert view.won == state.won
        assert view.tricks_won == state.tricks_won
        assert view.dealer == state.dealer
        facts = {**dict(state._view_extra(seat)), **dict(state._trick_facts())}
        assert view.info() == {k: _as_lists(v) for k, v in facts.items()}
        for value in view.info().values():  # the bot's own lists
            assert not isinstance(value, list) or all(value is not v for v in facts.values())
        pairs = zip(state.actors, state.actions, strict=True)
        seen = [(a, x) for a, x in pairs if a == seat or state._public(seat, a, x)]
        assert view.actions == seen
        assert view.step == len(seen)
        assert [card for _, card in view.trick] == state.trick
        assert view.played == state.trick_mask * bool(state.trick) | _or(state.won)
        assert not hasattr(view, "_state") and not hasattr(view, "__dict__")


@pytest.mark.parametrize(
    "spec", [*sorted(GAMES), "smear", "auction-pitch", "hearts(passing=a)", *other_shapes()]
)
def test_a_view_always_shows_the_state_as_it_is(spec: str) -> None:
    rng = random.Random(5)
    state = load_game(spec).new_state(5)
    while not state.is_over and len(state.history) < 6:
        if state.needs_deal:
            state.deal()
        else:
            state.apply(rng.choice(state.legal_actions()))
        check_views(state)


def test_a_view_is_a_snapshot() -> None:
    state = load_game("hearts").new_state(2)
    state.deal()
    before = state.view(0)
    snapshot = before.to_dict()
    for _ in range(10):
        state.apply(state.legal_actions()[0])
    assert before.to_dict() == snapshot


@pytest.mark.parametrize("spec", ["euchre(stick_the_dealer=false)", "setback(all_pass=redeal)"])
def test_a_thrown_in_deal_shows_in_every_view_at_once(spec: str) -> None:
    game = load_game(spec)
    state = game.new_state(3)
    state.deal()
    check_views(state)  # the shared parts are cached now
    while not state.needs_deal:
        passes = [a for a in state.legal_actions() if game.action_name(a) == "pass"]
        state.apply(passes[0])
    assert len(state.results) == 1 and state.results[0].thrown_in
    check_views(state)
