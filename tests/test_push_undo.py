"""Search support: ``push`` / ``undo`` take card plays back exactly, and ``clone`` is independent,
for every game."""

from __future__ import annotations

import random
from typing import Any

import pytest

from tricktable.engine.trick import PLAY, TrickState
from tricktable.errors import TricktableError
from tricktable.games import GAMES, load_game


def fingerprint(state: TrickState) -> Any:
    """Everything a player or the scorer could tell apart."""
    return (
        [state.view(s).to_dict() for s in range(state.n)],
        state.hands[:],
        state.won[:],
        state.tricks_won[:],
        state.scores[:],
        state.winner,
        state.phase,
        state.to_act,
        [r.to_dict() if hasattr(r, "to_dict") else r for r in state.results],
        state.actions[:],
        state.legal_actions(),
    )


def positions(spec: str, seed: int) -> list[TrickState]:
    """Copies of a seeded random match's play-phase states."""
    rng = random.Random(seed)
    state = load_game(spec).new_state(seed)
    out = []
    while not state.is_over and len(state.history) < 4:
        if state.needs_deal:
            state.deal()
            continue
        if state.phase == PLAY and rng.random() < 0.3:
            out.append(state.clone())
        state.apply(rng.choice(state.legal_actions()))
    return out


@pytest.mark.parametrize("spec", sorted(GAMES))
def test_push_then_undo_restores_every_field(spec: str) -> None:
    rng = random.Random(1)
    for state in positions(spec, 7):
        before = fingerprint(state)
        plain = state.clone()
        depth = 0
        while state.phase == PLAY and depth < 30:
            action = rng.choice(state.legal_actions())
            state.push(action)
            plain.apply(action)
            depth += 1
            assert fingerprint(state) == fingerprint(plain)
        for _ in range(depth):
            state.undo()
        assert fingerprint(state) == before


def test_undo_without_push_and_push_outside_play_are_errors() -> None:
    state = load_game("setback").new_state(1)
    state.deal()
    with pytest.raises(TricktableError, match="only card play"):
        state.push(state.legal_actions()[0])
    with pytest.raises(TricktableError, match="nothing was pushed"):
        state.undo()


def test_a_clone_is_independent_and_plays_on_the_same() -> None:
    state = positions("hearts", 3)[0]
    copy = state.clone()
    before = fingerprint(state)
    while not copy.is_over and not copy.needs_deal:
        copy.apply(copy.legal_actions()[0])
    assert fingerprint(state) == before


@pytest.mark.parametrize("spec", sorted(GAMES))
def test_a_view_after_undo_shows_the_card_played_instead(spec: str) -> None:
    # Views keep the hand's log as a chain extended when a view is made: an undo must cut it,
    # or a view after another card would show the card taken back.
    for state in positions(spec, 11)[:6]:
        legal = state.legal_actions()
        if len(legal) < 2:
            continue
        seat = state.to_act
        state.push(legal[0])
        assert state.view(seat).actions[-1] == (seat, legal[0])
        state.undo()
        state.push(legal[1])
        view = state.view(seat)
        assert view.actions[-1] == (seat, legal[1])
        assert legal[0] not in [card for _, card in view.trick]
        assert view.actions == list(zip(state.actors, state.actions, strict=True)) or (
            state.game.private_actions
        )
